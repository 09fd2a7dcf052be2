//! The domain's libraries never print: they report through observers (see the crate's
//! documentation), and only the command line decides what reaches the terminal. This
//! test holds every source file of the domain's crates (this one, `results`, `league`,
//! `play` and `measure`) to that, outside tests and documentation.

use std::path::{Path, PathBuf};

use proc_macro2::{TokenStream, TokenTree};
use quote::ToTokens;

/// The macros that write to the terminal.
const PRINTING_MACROS: [&str; 5] = ["println", "eprintln", "print", "eprint", "dbg"];

/// The crates of the domain (folders of the workspace), which report and never print.
const DOMAIN_CRATES: [&str; 5] = ["bot-build", "results", "league", "play", "measure"];

/// The terminal's own streams, named through `io::`.
const STREAMS: [&str; 3] = ["stdout", "stderr", "stdin"];

/// Where `source` prints or touches the terminal outside `#[cfg(test)]` items: one
/// `name` per use (`println!`, `io::stdout`...). Comments, doc comments (examples
/// included) and string literals never count: they are not code.
fn terminal_uses(source: &str) -> Result<Vec<String>, syn::Error> {
    let mut file = syn::parse_file(source)?;
    strip_tests(&mut file.items);
    let mut found = Vec::new();
    scan(file.into_token_stream(), &mut found);
    Ok(found)
}

/// Removes `#[cfg(test)]` items, in nested modules too.
fn strip_tests(items: &mut Vec<syn::Item>) {
    items.retain(|item| !is_test_only(item));
    for item in items {
        if let syn::Item::Mod(syn::ItemMod {
            content: Some((_, inner)),
            ..
        }) = item
        {
            strip_tests(inner);
        }
    }
}

fn is_test_only(item: &syn::Item) -> bool {
    let attrs = match item {
        syn::Item::Mod(m) => &m.attrs,
        syn::Item::Fn(f) => &f.attrs,
        syn::Item::Impl(i) => &i.attrs,
        syn::Item::Use(u) => &u.attrs,
        syn::Item::Const(c) => &c.attrs,
        syn::Item::Static(s) => &s.attrs,
        syn::Item::Struct(s) => &s.attrs,
        syn::Item::Enum(e) => &e.attrs,
        _ => return false,
    };
    attrs.iter().any(|attr| {
        attr.path().is_ident("cfg")
            && attr
                .parse_args::<syn::Ident>()
                .is_ok_and(|ident| ident == "test")
    })
}

/// Collects printing macro calls (`NAME !`) and stream paths (`io :: NAME`).
fn scan(tokens: TokenStream, found: &mut Vec<String>) {
    let tokens: Vec<TokenTree> = tokens.into_iter().collect();
    for (i, token) in tokens.iter().enumerate() {
        match token {
            TokenTree::Group(group) => scan(group.stream(), found),
            TokenTree::Ident(ident) => {
                let name = ident.to_string();
                let next = |k: usize| tokens.get(i + k);
                let bang = matches!(next(1), Some(TokenTree::Punct(p)) if p.as_char() == '!');
                if PRINTING_MACROS.contains(&name.as_str()) && bang {
                    found.push(format!("{name}!"));
                }
                let colons = (1..=2)
                    .all(|k| matches!(next(k), Some(TokenTree::Punct(p)) if p.as_char() == ':'));
                if let (true, Some(TokenTree::Ident(stream))) = (name == "io" && colons, next(3))
                    && STREAMS.contains(&stream.to_string().as_str())
                {
                    found.push(format!("io::{stream}"));
                }
            }
            _ => {}
        }
    }
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("the crate's sources are readable") {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn no_library_source_prints() {
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut files = Vec::new();
    for domain in DOMAIN_CRATES {
        rust_files(&workspace.join(domain).join("src"), &mut files);
    }
    assert!(files.len() > 40, "found only {files:?}");
    let mut offenders = Vec::new();
    for path in &files {
        let source = std::fs::read_to_string(path).unwrap();
        let uses = terminal_uses(&source).unwrap_or_else(|err| panic!("{path:?}: {err}"));
        if !uses.is_empty() {
            offenders.push(format!("{}: {}", path.display(), uses.join(", ")));
        }
    }
    assert!(
        offenders.is_empty(),
        "the library reports through observers and never prints; these do:\n{}",
        offenders.join("\n")
    );
}

#[test]
fn the_scan_finds_printing_code_and_only_code() {
    let printing = r#"
        fn a() { println!("x"); }
        fn b() { if true { std::eprint!("{}", 1) } }
        fn c(v: u8) -> u8 { dbg!(v) }
        fn d() { let _ = std::io::stdout(); }
        mod inner { fn e() { print!("y") } }
    "#;
    assert_eq!(
        terminal_uses(printing).unwrap(),
        ["println!", "eprint!", "dbg!", "io::stdout", "print!"]
    );
    let quiet = r#"
        /// ```
        /// println!("in an example");
        /// ```
        fn a() -> &'static str { "println!(\"in a string\")" } // println!("in a comment")
        fn b(c: std::process::Command) { c.stdout(std::process::Stdio::piped()); }
        #[cfg(test)]
        mod tests { fn t() { println!("in a test"); } }
        mod inner {
            #[cfg(test)]
            fn t() { eprintln!("in a nested test"); }
        }
    "#;
    assert_eq!(terminal_uses(quiet).unwrap(), Vec::<String>::new());
}

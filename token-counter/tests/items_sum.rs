//! The rows of `itemize` add up to the file's count, exactly, for every bot
//! file of the kit, every fixture, every worked example of docs/rules.md,
//! generated files and damaged ones; and in generated files each row holds
//! what its item costs alone.

mod common;

use std::path::{Path, PathBuf};

use common::{FIXTURES, RULES_MD};
use proptest::prelude::*;
use token_counter::{ItemDiff, ItemKind, Itemized, analyze, itemize};

/// Asserts that `it`'s rows add up to its count and that its report is
/// `analyze`'s, and says what is wrong otherwise.
fn check_sums(what: &str, src: &str, it: &Itemized) {
    let tokens: usize = it.items.iter().map(|r| r.tokens).sum();
    let debug: usize = it.items.iter().map(|r| r.debug).sum();
    assert_eq!(
        (tokens, debug),
        (it.report.tokens, it.report.debug_tokens),
        "{what}: the rows do not add up to the count\n{:#?}",
        it.items
    );
    assert_eq!(
        Ok(&it.report),
        analyze(src).as_ref(),
        "{what}: itemize's report is not analyze's"
    );
    let totals: Vec<usize> = it.items.iter().map(|r| r.total()).collect();
    assert!(
        totals.is_sorted_by(|a, b| a >= b),
        "{what}: rows not costliest first: {totals:?}"
    );
}

/// Every `.rs` file under `dir`, in subfolders too (`bot/lab/`), but not the `bots`
/// crate's own code in `bot/crate/`, which is no bot.
fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let entries = std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    for entry in entries {
        let path = entry.unwrap().path();
        // `bot/crate` is the editor's crate, `bot/target` its build (bot/ is a workspace).
        if path.is_dir()
            && path
                .file_name()
                .is_some_and(|n| n == "crate" || n == "target")
        {
            continue;
        } else if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn rows_add_up_for_every_bot_file_and_fixture() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    rust_files(&root.join("../bot"), &mut files);
    let bots = files.len();
    rust_files(&root.join("tests/fixtures"), &mut files);
    assert!(bots >= 4, "the kit's bots are found: {files:?}");
    assert!(files.len() >= bots + 4, "the fixtures are found: {files:?}");
    let mut previous: Option<Itemized> = None;
    for path in &files {
        let src = std::fs::read_to_string(path).unwrap();
        let it = itemize(&src).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        check_sums(&path.display().to_string(), &src, &it);
        assert!(it.items.len() >= 3, "{}: {:?}", path.display(), it.items);
        // And a diff between any two of them changes the total by the
        // difference of their counts, as the sum of its rows' changes.
        if let Some(old) = previous.replace(it.clone()) {
            let diff = ItemDiff::between(&old, &it);
            let change: i64 = diff.items.iter().map(|c| c.tokens_change).sum();
            let debug: i64 = diff.items.iter().map(|c| c.debug_change).sum();
            let count = |n: usize| i64::try_from(n).unwrap();
            assert_eq!(
                diff.tokens_change,
                count(it.report.tokens) - count(old.report.tokens)
            );
            assert_eq!((change, debug), (diff.tokens_change, diff.debug_change));
        }
    }
}

/// The snippets of docs/rules.md: every code block, and every first table
/// cell made of code spans (`a` + newline + `b` joined by a line break).
fn rules_snippets() -> Vec<String> {
    let mut out = Vec::new();
    let mut block: Option<String> = None;
    for line in RULES_MD.lines() {
        match &mut block {
            Some(text) if line.starts_with("```") => {
                out.push(std::mem::take(text));
                block = None;
            }
            Some(text) => {
                text.push_str(line);
                text.push('\n');
            }
            None if line.starts_with("```rust") => block = Some(String::new()),
            None => out.extend(line.split(" | ").next().and_then(code_cell)),
        }
    }
    out
}

/// `| \`a\` + newline + \`b\`` as `a\nb`, or `None` for a cell with prose.
fn code_cell(cell: &str) -> Option<String> {
    let cell = cell.strip_prefix("| `")?.strip_suffix('`')?;
    let parts: Vec<&str> = cell.split("` + newline + `").collect();
    parts
        .iter()
        .all(|p| !p.contains('`'))
        .then(|| parts.join("\n"))
}

#[test]
fn rows_add_up_for_every_worked_example_of_the_rules() {
    let mut checked = 0;
    for snippet in rules_snippets() {
        // As a file, or as a function's statements.
        let wrapped = format!("fn w() {{\n{snippet}\n}}\n");
        for src in [snippet.as_str(), wrapped.as_str()] {
            if let Ok(it) = itemize(src) {
                check_sums(&format!("docs/rules.md: {src:?}"), src, &it);
                checked += 1;
                break;
            }
        }
    }
    // The examples are found: the tables of section 5 hold more than 50.
    assert!(
        checked > 50,
        "only {checked} examples of docs/rules.md checked"
    );
}

/// How an item line is dressed: a doc comment above it, an attribute and
/// `pub` before it, a `// #DEBUG` after it.
#[derive(Debug, Clone, Copy)]
struct Dress {
    doc: bool,
    attr: bool,
    debug: bool,
}

fn dress() -> impl Strategy<Value = Dress> {
    (any::<bool>(), any::<bool>(), any::<bool>()).prop_map(|(doc, attr, debug)| Dress {
        doc,
        attr,
        debug,
    })
}

fn dressed(d: Dress, line: &str) -> String {
    let doc = if d.doc { "/// Docs.\n" } else { "" };
    let attr = if d.attr { "#[allow(dead_code)] " } else { "" };
    let debug = if d.debug { " // #DEBUG" } else { "" };
    format!("{doc}{attr}{line}{debug}\n")
}

/// A one-line item numbered `n`: its kind, name and source.
fn leaf(choice: u8, n: usize) -> (ItemKind, String, String) {
    let (kind, name, src) = match choice % 9 {
        0 => (
            ItemKind::Fn,
            format!("f{n}"),
            format!("pub fn f{n}(x: u64) -> u64 {{ x << 1 }}"),
        ),
        1 => (
            ItemKind::Struct,
            format!("S{n}"),
            format!("pub struct S{n} {{ a: u8, b: Vec<Vec<u8>> }}"),
        ),
        2 => (
            ItemKind::Enum,
            format!("E{n}"),
            format!("enum E{n} {{ A, B(u8) }}"),
        ),
        3 => (
            ItemKind::Const,
            format!("C{n}"),
            format!("const C{n}: &str = \"abc\";"),
        ),
        4 => (
            ItemKind::Static,
            format!("T{n}"),
            format!("static T{n}: [u8; 2] = [1, 2];"),
        ),
        5 => (
            ItemKind::Use,
            format!("std::cmp::max as m{n}"),
            format!("use std::cmp::max as m{n};"),
        ),
        6 => (
            ItemKind::Type,
            format!("A{n}"),
            format!("type A{n} = Option<u8>;"),
        ),
        7 => (
            ItemKind::MacroRules,
            format!("mr{n}"),
            format!("macro_rules! mr{n} {{ ($a:expr) => {{ f($a); }}; }}"),
        ),
        _ => (
            ItemKind::Macro,
            format!("mc{n}!"),
            format!("mc{n}!(a, b; pub c);"),
        ),
    };
    (kind, name, src)
}

/// A block numbered `n` (an impl, a trait impl, a trait or a module): its
/// kind, name, opening line, and how its members are named and written.
fn block(choice: u8, n: usize) -> (ItemKind, String, String, String) {
    match choice % 4 {
        0 => (
            ItemKind::Impl,
            format!("impl S{n}"),
            format!("impl S{n} {{"),
            format!("S{n}::"),
        ),
        1 => (
            ItemKind::Impl,
            format!("impl Default for S{n}"),
            format!("impl Default for S{n} {{"),
            format!("impl Default for S{n}::"),
        ),
        2 => (
            ItemKind::Trait,
            format!("Tr{n}"),
            format!("trait Tr{n}: Copy {{"),
            format!("Tr{n}::"),
        ),
        _ => (
            ItemKind::Mod,
            format!("md{n}"),
            format!("mod md{n} {{"),
            format!("md{n}::"),
        ),
    }
}

/// A member numbered `n` of a block of kind `within`.
fn member(within: ItemKind, choice: u8, n: usize) -> (ItemKind, String, String) {
    match (within, choice % 3) {
        (ItemKind::Mod, _) => leaf(choice, n),
        (ItemKind::Trait, 0) => (
            ItemKind::Fn,
            format!("r{n}"),
            format!("fn r{n}(x: u8) -> u8;"),
        ),
        (_, 0) => (
            ItemKind::Fn,
            format!("g{n}"),
            format!("fn g{n}(x: u8) -> u8 {{ x + 1 }}"),
        ),
        (_, 1) => (
            ItemKind::Const,
            format!("K{n}"),
            format!("const K{n}: u8 = 1;"),
        ),
        _ => (ItemKind::Type, format!("X{n}"), format!("type X{n} = u8;")),
    }
}

type Row = (ItemKind, String, usize, usize);

/// What `src` counts alone: (counted, #DEBUG).
fn alone(src: &str) -> (usize, usize) {
    let r = analyze(src).unwrap_or_else(|e| panic!("{src:?}: {e}"));
    (r.tokens, r.debug_tokens)
}

/// One generated item: a leaf, or a block with members.
type Gen = (u8, Dress, Option<Vec<(u8, Dress)>>);

/// Writes the generated items as a file and says which rows it must have,
/// each at what its item costs alone (a member: what the block costs with
/// it, less the empty block).
fn generate(inner: Option<Dress>, items: &[Gen], gaps: &[u8]) -> (String, Vec<Row>) {
    let mut src = String::new();
    let mut want = Vec::new();
    if let Some(d) = inner {
        let line = dressed(
            Dress {
                doc: false,
                attr: false,
                ..d
            },
            "#![allow(unused)]",
        );
        let (t, dbg) = alone(&line);
        want.push((
            ItemKind::Outside,
            token_counter::OUTSIDE_ITEMS.to_owned(),
            t,
            dbg,
        ));
        src.push_str(&line);
    }
    let mut n = 0;
    for (k, (choice, d, members)) in items.iter().enumerate() {
        src.push_str(
            ["", "\n", "// a note\n", "/* a note */\n"][usize::from(gaps[k % gaps.len()] % 4)],
        );
        n += 1;
        let Some(members) = members else {
            let (kind, name, line) = leaf(*choice, n);
            let line = dressed(*d, &line);
            let (t, dbg) = alone(&line);
            want.push((kind, name, t, dbg));
            src.push_str(&line);
            continue;
        };
        let (kind, name, open, prefix) = block(*choice, n);
        let open = dressed(*d, &open);
        let (t, dbg) = alone(&format!("{open}}}\n"));
        want.push((kind, name, t, dbg));
        src.push_str(&open);
        for (c, md) in members {
            n += 1;
            let (mkind, mname, line) = member(kind, *c, n);
            let line = dressed(*md, &line);
            let (with_t, with_dbg) = alone(&format!("{open}{line}}}\n"));
            want.push((
                mkind,
                format!("{prefix}{mname}"),
                with_t - t,
                with_dbg - dbg,
            ));
            src.push_str(&line);
        }
        src.push_str("}\n");
    }
    (src, want)
}

fn generated_item() -> impl Strategy<Value = Gen> {
    let members = proptest::collection::vec((any::<u8>(), dress()), 0..4);
    (
        any::<u8>(),
        dress(),
        proptest::option::weighted(0.4, members),
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Each row holds exactly what its item costs, no token is lost or
    /// counted twice, and the rows add up to the count.
    #[test]
    fn each_row_holds_what_its_item_costs(
        inner in proptest::option::of(dress()),
        items in proptest::collection::vec(generated_item(), 0..10),
        gaps in proptest::collection::vec(any::<u8>(), 1..4),
    ) {
        let (src, mut want) = generate(inner, &items, &gaps);
        let it = itemize(&src).unwrap_or_else(|e| panic!("{e}\n{src}"));
        check_sums("a generated file", &src, &it);
        let mut got: Vec<Row> = it.items.into_iter().map(|r| (r.kind, r.name, r.tokens, r.debug)).collect();
        got.sort();
        want.sort();
        prop_assert_eq!(got, want, "{}", src);
    }

    /// Any damaged bot that still parses splits into rows that add up.
    #[test]
    fn rows_add_up_in_damaged_bots(sample in 0usize..3, cut in any::<(usize, usize)>(), insert in "[ -~\n]{0,8}") {
        let (_, src) = FIXTURES[sample];
        let chars: Vec<char> = src.chars().collect();
        let a = cut.0 % chars.len();
        let b = (a + cut.1 % 12).min(chars.len());
        let damaged: String = chars[..a].iter().copied().chain(insert.chars()).chain(chars[b..].iter().copied()).collect();
        match itemize(&damaged) {
            Ok(it) => check_sums("a damaged bot", &damaged, &it),
            Err(err) => prop_assert_eq!(Err(err), analyze(&damaged).map(|_| ())),
        }
    }
}

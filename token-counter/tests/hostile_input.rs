//! Bad input never crashes the counter: deep nesting of every recursive
//! construct the parser knows, huge files, random bytes and token soup all
//! get a report or a clear error.

use proptest::prelude::*;
use token_counter::{MAX_NESTING, MAX_TOKENS, analyze};

/// Analyzes `src`; the test is that this returns at all.
fn survives(src: &str) -> Result<token_counter::Report, token_counter::ParseError> {
    analyze(src)
}

#[test]
fn eight_hundred_nested_delimiters_are_refused_not_a_crash() {
    for (open, close) in [("(", ")"), ("[", "]"), ("{", "}")] {
        let src = format!(
            "fn f() {{ let _ = {}1{}; }}",
            open.repeat(800),
            close.repeat(800)
        );
        let e = survives(&src).unwrap_err();
        assert!(e.message.contains(&MAX_NESTING.to_string()), "{e}");
        // In a macro, where syn does not look, and unbalanced: still no crash.
        let _ = survives(&format!("m!{}", open.repeat(100_000)));
        let _ = survives(&format!(
            "m!({}{});",
            open.repeat(50_000),
            close.repeat(50_000)
        ));
    }
}

/// Recursion that needs no delimiter: one level per token, up to the token
/// bound. Each must come back (a report, or an error naming the bound).
#[test]
fn deep_recursion_without_delimiters_comes_back() {
    let n = MAX_TOKENS - 16;
    let cases = [
        format!("fn f() {{ let _ = {}x; }}", "!".repeat(n)),
        format!("fn f() {{ let _ = {}1; }}", "- ".repeat(n)),
        format!("type T = {}u8;", "&".repeat(n)),
        format!("fn f() {{ let {}x = 1; }}", "&".repeat(n)),
        format!("fn f() {{ {}1; }}", "return ".repeat(n)),
        format!("fn f() {{ let _ = {}1; }}", "|| ".repeat(n / 2)),
        format!("fn f() {{ {}1; }}", "a = ".repeat(n / 2)),
        format!("fn f() {{ if a {{}} {}}}", "else if a {} ".repeat(n / 5)),
        format!("type T = {}u8{};", "V<".repeat(n / 3), ">".repeat(n / 3)),
        format!("type T = {}u8;", "*const ".repeat(n / 2)),
        format!("fn f() {{ let _ = x{}; }}", ".a".repeat(n / 2)),
    ];
    for src in cases {
        let r = survives(&src);
        if let Ok(r) = r {
            assert!(r.tokens > 0);
        }
    }
    // Past the bound, a clear refusal before parsing.
    let e = survives(&format!(
        "fn f() {{ let _ = {}x; }}",
        "!".repeat(MAX_TOKENS)
    ))
    .unwrap_err();
    assert!(e.message.contains("more than 32768 tokens"), "{e}");
}

fn token_soup() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        Just("fn"),
        Just("let"),
        Just("pub"),
        Just("pub(in"),
        Just("("),
        Just(")"),
        Just("["),
        Just("]"),
        Just("{"),
        Just("}"),
        Just(";"),
        Just(","),
        Just("!"),
        Just("#"),
        Just("#!["),
        Just("macro_rules!"),
        Just("m!"),
        Just("$"),
        Just("$x"),
        Just("::"),
        Just("std"),
        Just("use"),
        Just("as"),
        Just("include"),
        Just("'a"),
        Just("\""),
        Just("r#\""),
        Just("/*"),
        Just("*/"),
        Just("//"),
        Just("\n"),
        Just("\r"),
        Just("x"),
        Just("1"),
        Just("1.5e3"),
        Just("'x'"),
        Just("=>"),
        Just("Debug"),
        Just("#DEBUG"),
        Just("\u{202E}"),
        Just("\u{feff}"),
        Just("<"),
        Just(">"),
    ];
    proptest::collection::vec(piece, 0..300).prop_map(|p| p.join(" "))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn never_panics_on_token_soup(src in token_soup()) {
        if let Ok(r) = survives(&src) {
            prop_assert_eq!(r.lines.iter().map(|l| l.tokens).sum::<usize>(), r.tokens);
        }
    }

    #[test]
    fn never_panics_on_random_bytes(bytes in proptest::collection::vec(any::<u8>(), 0..2000)) {
        // What `analyze_file` would make of them: text, or a clear error.
        match String::from_utf8(bytes) {
            Ok(text) => { let _ = survives(&text); }
            Err(e) => { let _ = survives(&String::from_utf8_lossy(e.as_bytes())); }
        }
    }

    #[test]
    fn never_panics_on_deep_random_nesting(
        opens in proptest::collection::vec(prop_oneof![Just('('), Just('['), Just('{')], 0..400),
        fill in "[a-z!;, ]{0,10}",
        balanced in any::<bool>(),
    ) {
        let closes: String = opens.iter().rev().map(|c| match c { '(' => ')', '[' => ']', _ => '}' }).collect();
        let opens: String = opens.iter().collect();
        let body = if balanced { format!("{opens}{fill}{closes}") } else { format!("{opens}{fill}") };
        let _ = survives(&format!("fn f() {{ m!{{ {body} }} }}"));
        let _ = survives(&format!("fn f() {{ let _ = {body}; }}"));
    }

    #[test]
    fn the_first_line_never_hides_anything(prefix in "#!?[ /*\\[a-z]{0,12}", rest in "[a-z(){};!\\[\\]\n ]{0,40}") {
        // Whatever comes first, the counter either refuses or sees it all:
        // nothing is stripped, so the cost of the file's tokens is the cost
        // of its lines.
        let src = format!("{prefix}\n{rest}");
        if let Ok(r) = survives(&src) {
            prop_assert_eq!(r.lines.len(), src.lines().count());
        }
    }
}

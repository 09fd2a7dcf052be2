//! The count measures logic, not layout or naming: reformatting, renaming
//! and commenting never change it.

mod common;

use std::path::PathBuf;
use std::process::Command;

use common::FIXTURES;
use common::outside::{self, RUSTFMT};
use proptest::prelude::*;
use token_counter::{Report, analyze};

const BENCH_BOT: &str = include_str!("fixtures/bot_1000.rs");

fn report(src: &str) -> Report {
    analyze(src).unwrap_or_else(|e| panic!("does not parse: {e}\n{src}"))
}

fn samples() -> Vec<(&'static str, &'static str)> {
    let mut all = FIXTURES.to_vec();
    all.push(("bot_1000.rs", BENCH_BOT));
    all
}

fn scratch_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("token-counter-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Runs the real `rustfmt` on `src` with `config` and returns the result.
fn rustfmt(src: &str, config: &str, dir: &std::path::Path) -> String {
    let file = dir.join("bot.rs");
    std::fs::write(&file, src).unwrap();
    let status = Command::new(outside::require(&RUSTFMT))
        .args(["--edition", "2024", "--config", config])
        .arg(&file)
        .status()
        .expect("rustfmt runs");
    assert!(status.success(), "rustfmt {config} failed");
    std::fs::read_to_string(&file).unwrap()
}

#[test]
fn rustfmt_never_changes_the_count() {
    let dir = scratch_dir("rustfmt");
    let configs = [
        "max_width=100",
        "max_width=40",
        "max_width=200,fn_single_line=true,use_small_heuristics=Max",
        "tab_spaces=2,brace_style=AlwaysNextLine,trailing_comma=Never",
    ];
    for (name, src) in samples() {
        let before = report(src);
        for config in configs {
            let formatted = rustfmt(src, config, &dir);
            let after = report(&formatted);
            // rustfmt does one thing beyond layout: when a closure body no
            // longer fits on a line it wraps it in a block, `|p| x` becoming
            // `|p| { x }`, and that `{` is a real token. Every other change is
            // layout and must cost nothing.
            let added_blocks = formatted.matches("| {").count() - src.matches("| {").count();
            // Reformatting can move a token onto or off a #DEBUG line, so
            // the split may shift; what a submission is judged by cannot.
            assert_eq!(
                after.total(),
                before.total() + added_blocks,
                "{name} with {config}"
            );
            if before.debug_tokens == 0 {
                assert_eq!(
                    after.tokens,
                    before.tokens + added_blocks,
                    "{name} with {config}"
                );
            }
            assert_eq!(
                after.violations.len(),
                before.violations.len(),
                "{name} with {config}"
            );
        }
    }
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn the_samples_really_are_reformatted() {
    // Guards the test above against a rustfmt that silently does nothing.
    let dir = scratch_dir("rustfmt-changes");
    for (name, src) in samples() {
        assert_ne!(rustfmt(src, "max_width=40", &dir), src, "{name}");
    }
    std::fs::remove_dir_all(dir).ok();
}

/// Names that each sample uses only as identifiers (never inside a string),
/// so renaming them everywhere is a pure rename.
fn renameable(name: &str) -> &'static [&'static str] {
    match name {
        "greedy.rs" => &["best", "best_value", "moves", "mv", "value", "label", "p"],
        "minimax.rs" => &[
            "score", "depth", "alpha", "beta", "best", "moves", "mv", "kind", "value", "d", "table",
        ],
        "macros.rs" => &["quick", "index", "chosen", "table", "moves", "cond", "pick"],
        // Not `score` or `depth`: `eprintln!("{score}")` names them inside a
        // string, where renaming changes the string's length and cost.
        "bot_1000.rs" => &[
            "alpha", "beta", "mv", "killers", "ply", "entry", "stand", "reduce", "bonus",
        ],
        _ => &[],
    }
}

/// Replaces whole-word occurrences of `from` with `to`.
fn rename(src: &str, from: &str, to: &str) -> String {
    let mut out = String::with_capacity(src.len());
    let mut word = String::new();
    let flush = |word: &mut String, out: &mut String| {
        out.push_str(if word == from { to } else { word });
        word.clear();
    };
    for c in src.chars() {
        if c == '_' || c.is_alphanumeric() {
            word.push(c);
        } else {
            flush(&mut word, &mut out);
            out.push(c);
        }
    }
    flush(&mut word, &mut out);
    out
}

/// Adds comments without a `#` (so no `#DEBUG`): a trailing `//` comment to
/// the lines in `trailing`, a `/* */` at the start of the lines in `leading`
/// and a whole comment line before the lines in `before`.
fn add_comments(
    src: &str,
    trailing: &[bool],
    leading: &[bool],
    before: &[bool],
    text: &str,
) -> String {
    let mut out = String::new();
    for (k, line) in src.lines().enumerate() {
        let pick = |v: &[bool]| v.get(k % v.len().max(1)).copied().unwrap_or(false);
        if pick(before) {
            out.push_str(&format!("// {text}\n"));
        }
        if pick(leading) {
            out.push_str(&format!("/* {text} */"));
        }
        out.push_str(line);
        if pick(trailing) {
            out.push_str(&format!(" // {text}"));
        }
        out.push('\n');
    }
    out
}

/// Drops every comment that fills a line of its own.
fn remove_comment_lines(src: &str) -> String {
    src.lines()
        .filter(|l| !l.trim_start().starts_with("//") || l.contains("#DEBUG"))
        .map(|l| format!("{l}\n"))
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn renaming_identifiers_never_changes_the_count(
        sample in 0usize..4,
        names in proptest::collection::vec("[a-z][a-z0-9_]{0,24}", 12),
        raw in proptest::collection::vec(any::<bool>(), 12),
    ) {
        let (name, src) = samples()[sample];
        let before = report(src);
        let mut renamed = src.to_owned();
        for (k, from) in renameable(name).iter().enumerate() {
            // The `z` prefix keeps clear of keywords; `r#` makes it raw.
            let to = format!("{}z{}", if raw[k] { "r#" } else { "" }, names[k]);
            renamed = rename(&renamed, from, &to);
        }
        let after = report(&renamed);
        prop_assert_eq!((after.tokens, after.debug_tokens), (before.tokens, before.debug_tokens));
        prop_assert_eq!(after.violations.len(), before.violations.len());
    }

    #[test]
    fn adding_comments_never_changes_the_count(
        sample in 0usize..4,
        trailing in proptest::collection::vec(any::<bool>(), 1..16),
        leading in proptest::collection::vec(any::<bool>(), 1..16),
        before in proptest::collection::vec(any::<bool>(), 1..16),
        text in "[a-zA-Z0-9 '\"{}()!;,.:<>=/-]{0,30}",
    ) {
        let (_, src) = samples()[sample];
        // `*/` would end the block comment early; the test is about comments.
        let text = text.replace("*/", "").replace("/*", "");
        let base = report(src);
        let commented = report(&add_comments(src, &trailing, &leading, &before, &text));
        prop_assert_eq!((commented.tokens, commented.debug_tokens), (base.tokens, base.debug_tokens));
        let stripped = report(&remove_comment_lines(src));
        prop_assert_eq!((stripped.tokens, stripped.debug_tokens), (base.tokens, base.debug_tokens));
    }
}

#[test]
fn removing_comments_really_removes_some() {
    for (name, src) in samples() {
        assert!(
            remove_comment_lines(src).len() < src.len(),
            "{name} has comment lines to remove"
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// Any input gets a report or a parse error, never a panic: the kit runs
    /// this on whatever a user saves.
    #[test]
    fn never_panics_on_damaged_bots(sample in 0usize..4, cut in any::<(usize, usize)>(), insert in "[ -~\n]{0,8}") {
        let (_, src) = samples()[sample];
        let chars: Vec<char> = src.chars().collect();
        let a = cut.0 % chars.len();
        let b = (a + cut.1 % 12).min(chars.len());
        let damaged: String = chars[..a].iter().chain(insert.chars().collect::<Vec<_>>().iter()).chain(&chars[b..]).collect();
        if let Ok(r) = analyze(&damaged) {
            prop_assert_eq!(r.lines.len(), damaged.lines().count());
            prop_assert_eq!(r.lines.iter().map(|l| l.tokens).sum::<usize>(), r.tokens);
        }
    }

    #[test]
    fn never_panics_on_arbitrary_text(text in "\\PC{0,200}") {
        let _ = analyze(&text);
    }
}

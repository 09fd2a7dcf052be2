//! Helpers shared by the integration tests.
#![allow(dead_code)] // Each test crate uses its own subset.

// The kit's one helper for outside programs (here rustfmt), by path: one policy for a
// missing program (fail under CI) and one install hint per program, in every package.
#[path = "../../../tests/e2e/common/outside.rs"]
pub mod outside;

use token_counter::{Report, Rule, analyze};

/// What `fn w() {` + `}` around a snippet costs: `fn w ( {`.
pub const WRAPPER: usize = 4;

/// Analyzes `body` as the statements of a function, on lines of their own.
pub fn in_fn(body: &str) -> Report {
    analyze(&format!("fn w() {{\n{body}\n}}\n"))
        .unwrap_or_else(|e| panic!("{body:?} does not parse: {e}"))
}

/// The counted tokens of `body` as function statements, wrapper excluded.
pub fn count_stmt(body: &str) -> usize {
    in_fn(body).tokens - WRAPPER
}

/// The counted tokens of a whole file.
pub fn count_file(src: &str) -> usize {
    analyze(src)
        .unwrap_or_else(|e| panic!("{src:?} does not parse: {e}"))
        .tokens
}

/// The rules a source breaks, ignoring the bot-shape rules (most snippets
/// here are not whole bots).
pub fn rules(src: &str) -> Vec<Rule> {
    analyze(src)
        .unwrap_or_else(|e| panic!("{src:?} does not parse: {e}"))
        .violations
        .into_iter()
        .map(|v| v.rule)
        .filter(|r| !matches!(r, Rule::MissingMyBot | Rule::MissingBotImpl))
        .collect()
}

pub const FIXTURES: [(&str, &str); 3] = [
    ("greedy.rs", include_str!("../fixtures/greedy.rs")),
    ("minimax.rs", include_str!("../fixtures/minimax.rs")),
    ("macros.rs", include_str!("../fixtures/macros.rs")),
];

/// The rules document, the law the tests hold the counter to.
pub const RULES_MD: &str = include_str!("../../../docs/rules.md");

/// Asserts that `snippet` is written in docs/rules.md word for word, so a
/// worked example and its test cannot drift apart.
pub fn documented(snippet: &str) {
    assert!(
        RULES_MD.contains(snippet),
        "docs/rules.md does not show the worked example {snippet:?}"
    );
}

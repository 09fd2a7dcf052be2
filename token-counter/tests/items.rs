//! Where the tokens go: the worked examples of docs/rules.md ("Where the
//! tokens go"), the names of the rows, which row a token between items
//! belongs to, and `--diff`'s matching.

mod common;

use common::documented;
use token_counter::{ItemDiff, ItemKind, Itemized, ParseError, Status, itemize};

fn items(src: &str) -> Itemized {
    itemize(src).unwrap_or_else(|e| panic!("{src:?} does not parse: {e}"))
}

/// The rows as `(kind, name, tokens, debug)`, in the order given.
fn rows(src: &str) -> Vec<(&'static str, String, usize, usize)> {
    items(src)
        .items
        .into_iter()
        .map(|r| (r.kind.name(), r.name, r.tokens, r.debug))
        .collect()
}

fn row(
    kind: &'static str,
    name: &str,
    tokens: usize,
    debug: usize,
) -> (&'static str, String, usize, usize) {
    (kind, name.to_owned(), tokens, debug)
}

// ---- The worked examples of docs/rules.md ----

const EXAMPLE_BOT: &str = "#![allow(unused)]
use framework::prelude::*;

/// The bot.
#[derive(Default)]
pub struct MyBot;

impl Bot for MyBot {
    fn think(&mut self, b: Board, _: Timer) -> Move {
        b.legal_moves()[0] // #DEBUG
    }
}
";

#[test]
fn example_a_bot_split_by_item() {
    documented(&format!("```rust\n{EXAMPLE_BOT}```"));
    documented(
        "| `fn` | `impl Bot for MyBot::think` | `fn think ( b Board _ Timer Move {` = 9, and `b . legal_moves ( [ 0` = 6 #DEBUG |",
    );
    documented(
        "| `struct` | `MyBot` | `struct MyBot` = 2 (the doc comment and the derive are free) |",
    );
    documented("| `use` | `framework::prelude::*` | 0 (free) |");
    documented("| | total | 22, and 6 #DEBUG: the file's count |");
    assert_eq!(
        rows(EXAMPLE_BOT),
        [
            row("fn", "impl Bot for MyBot::think", 9, 6),
            row("outside", "(outside items)", 6, 0),
            row("impl", "impl Bot for MyBot", 5, 0),
            row("struct", "MyBot", 2, 0),
            row("use", "framework::prelude::*", 0, 0),
        ]
    );
    let it = items(EXAMPLE_BOT);
    assert_eq!((it.report.tokens, it.report.debug_tokens), (22, 6));
    assert!(
        it.report.violations.is_empty(),
        "{:?}",
        it.report.violations
    );
}

#[test]
fn example_an_impl_keeps_its_header_and_inner_attributes() {
    documented(
        "| `impl S { #![allow(unused)] fn f() {} }` + newline + `impl S { fn g() {} }` | `impl S` 9 (`impl S {` and the inner attribute), `S::f` 4, `impl S #2` 3, `S::g` 4 = 20 |",
    );
    let src = "impl S { #![allow(unused)] fn f() {} }\nimpl S { fn g() {} }";
    assert_eq!(
        rows(src),
        [
            row("impl", "impl S", 9, 0),
            row("fn", "S::f", 4, 0),
            row("fn", "S::g", 4, 0),
            row("impl", "impl S #2", 3, 0),
        ]
    );
    assert_eq!(items(src).report.tokens, 20);
}

#[test]
fn example_an_item_in_a_body_is_the_functions() {
    documented(
        "| `fn f() { fn g() {} struct T; }` | `f` 10: an item in a body is the function's |",
    );
    assert_eq!(
        rows("fn f() { fn g() {} struct T; }"),
        [row("fn", "f", 10, 0)]
    );
}

#[test]
fn example_a_module_and_its_items() {
    documented("| `mod m { pub const C: u8 = 1; }` | `m` 3 (`mod m {`), `m::C` 5 = 8 |");
    assert_eq!(
        rows("mod m { pub const C: u8 = 1; }"),
        [row("const", "m::C", 5, 0), row("mod", "m", 3, 0)]
    );
}

#[test]
fn example_diff() {
    documented(
        "| `fn a() { f(1); }` + newline + `fn b() {}` | `fn a() { f(1, 2); }` + newline + `fn c() {}` | `c` added +4, `b` removed -4, `a` changed +1; total +1 |",
    );
    let old = items("fn a() { f(1); }\nfn b() {}");
    let new = items("fn a() { f(1, 2); }\nfn c() {}");
    let diff = ItemDiff::between(&old, &new);
    let changes: Vec<(&str, Status, i64)> = diff
        .items
        .iter()
        .map(|c| (c.name.as_str(), c.status, c.tokens_change))
        .collect();
    assert_eq!(
        changes,
        [
            ("c", Status::Added, 4),
            ("b", Status::Removed, -4),
            ("a", Status::Changed, 1)
        ]
    );
    assert_eq!(diff.tokens_change, 1);
}

// ---- Names ----

#[test]
fn every_kind_of_item_gets_its_kind_and_name() {
    let src = "use std::{cmp::max, collections::HashMap as H};
struct S;
enum E { A }
union U { a: u8 }
const C: u8 = 1;
static T: u8 = 1;
type A = Option<u8>;
trait Tr { const K: u8; type X; fn r(); fn p() {} }
macro_rules! m { () => {} }
thread_local! { static Y: u8 = 1; }
impl Tr for S { const K: u8 = 1; type X = u8; fn r() {} m!(); }
impl<T: Ord> S2<T> { fn g(&self) {} }
impl !Send for S {}
mod md { pub fn f() {} mod inner { fn h() {} } }
fn free() {}
extern crate core;
extern \"C\" {}
";
    let mut named: Vec<(&str, String)> = items(src)
        .items
        .into_iter()
        .map(|r| (r.kind.name(), r.name))
        .collect();
    named.sort();
    let want = [
        ("const", "C"),
        ("const", "Tr::K"),
        ("const", "impl Tr for S::K"),
        ("enum", "E"),
        ("extern", "extern \"C\""),
        ("extern_crate", "core"),
        ("fn", "S2<T>::g"),
        ("fn", "Tr::p"),
        ("fn", "Tr::r"),
        ("fn", "free"),
        ("fn", "impl Tr for S::r"),
        ("fn", "md::f"),
        ("fn", "md::inner::h"),
        ("impl", "impl !Send for S"),
        ("impl", "impl S2<T>"),
        ("impl", "impl Tr for S"),
        ("macro", "impl Tr for S::m!"),
        ("macro", "thread_local!"),
        ("macro_rules", "m"),
        ("mod", "md"),
        ("mod", "md::inner"),
        ("static", "T"),
        ("struct", "S"),
        ("trait", "Tr"),
        ("type", "A"),
        ("type", "Tr::X"),
        ("type", "impl Tr for S::X"),
        ("union", "U"),
        ("use", "std::{cmp::max, collections::HashMap as H}"),
    ];
    let want: Vec<(&str, String)> = want.iter().map(|&(k, n)| (k, n.to_owned())).collect();
    assert_eq!(named, want);
}

#[test]
fn repeated_names_are_numbered_in_source_order() {
    let src = "impl S { fn f() {} }\nimpl S { fn f() { x(); } }\nm!(a);\nm!(b);\nfn f() {}";
    let mut named: Vec<(&str, String, usize)> = items(src)
        .items
        .into_iter()
        .map(|r| (r.kind.name(), r.name, r.line))
        .collect();
    named.sort();
    let want = [
        ("fn", "S::f", 1),
        ("fn", "S::f #2", 2),
        // A free `f` is another name than `S::f`.
        ("fn", "f", 5),
        ("impl", "impl S", 1),
        ("impl", "impl S #2", 2),
        ("macro", "m!", 3),
        ("macro", "m! #2", 4),
    ];
    let want: Vec<(&str, String, usize)> =
        want.iter().map(|&(k, n, l)| (k, n.to_owned(), l)).collect();
    assert_eq!(named, want);
}

#[test]
fn a_long_nameless_item_gets_a_bounded_name() {
    let path = vec!["segment"; 40].join("::");
    let it = items(&format!("{path}!();"));
    let name = &it.items[0].name;
    assert_eq!(it.items[0].kind, ItemKind::Macro);
    assert_eq!(name.chars().count(), 100, "{name}");
    assert!(
        name.starts_with("segment::segment::") && name.ends_with('…'),
        "{name}"
    );
}

// ---- Which row a token belongs to ----

#[test]
fn attributes_and_doc_comments_belong_to_their_item() {
    let src = "/// docs\n#[inline]\n#[allow(dead_code)]\nfn f() {}\n";
    // `# [ inline` 3, `# [ allow ( dead_code` 5, `fn f ( {` 4.
    assert_eq!(rows(src), [row("fn", "f", 12, 0)]);
    // The row's line is its first token after the attributes.
    assert_eq!(items(src).items[0].line, 4);
}

#[test]
fn the_files_inner_attributes_are_outside_every_item() {
    let src = "//! The bot.\n#![allow(unused)]\n#![doc = \"x\"]\nfn f() {}";
    // Inner doc comments stay free; the allow costs 6.
    assert_eq!(
        rows(src),
        [
            row("outside", "(outside items)", 6, 0),
            row("fn", "f", 4, 0)
        ]
    );
    assert_eq!(items(src).items[0].line, 2);
    // A file without them has no outside row.
    assert_eq!(rows("//! The bot.\nfn f() {}"), [row("fn", "f", 4, 0)]);
}

#[test]
fn a_trait_keeps_its_header_and_its_members_the_rest() {
    let src = "trait T: Clone {\n    fn a(&self) -> u8;\n    fn b(&self) -> u8 { self.a() }\n}";
    // `trait T Clone {` (the `:` is free); `fn a ( u8` and `fn b ( u8 { a (`: the
    // receiver, `->` and `self.` are free.
    assert_eq!(
        rows(src),
        [
            row("fn", "T::b", 7, 0),
            row("trait", "T", 4, 0),
            row("fn", "T::a", 4, 0),
        ]
    );
}

#[test]
fn debug_tokens_stay_apart_in_each_row() {
    let src = "fn f() {\n    g(); // #DEBUG\n    h();\n}\nfn k() { g(); } // #DEBUG\n";
    assert_eq!(rows(src), [row("fn", "f", 6, 2), row("fn", "k", 0, 6)]);
}

#[test]
fn a_file_macro_call_costs_its_free_syntax_in_its_row() {
    // In a macro the file defines, `pub`, `;` and `,` cost (rule 7), and
    // the call's row carries them: `m ! ( pub a , b ;` = 8.
    assert_eq!(rows("m!(pub a, b;);"), [row("macro", "m!", 8, 0)]);
}

// ---- Bad input ----

#[test]
fn a_file_that_does_not_parse_gets_the_counters_error() {
    let src = "fn f() {\n    let x = ;\n}\n";
    let err: ParseError = itemize(src).unwrap_err();
    assert_eq!(err, token_counter::analyze(src).unwrap_err());
    assert_eq!((err.line, err.column), (2, 13), "{err}");
}

#[test]
fn a_missing_file_is_named() {
    let missing = std::env::temp_dir().join("token-counter-no-such-dir/none.rs");
    let err = token_counter::itemize_file(&missing)
        .unwrap_err()
        .to_string();
    assert!(
        err.starts_with(&format!("{}: cannot read the file", missing.display())),
        "{err}"
    );
}

#[test]
fn the_split_holds_at_the_parsers_bounds() {
    // As deep as the rules allow, and as many tokens: still one count, and
    // rows that add up to it.
    let deep = format!("fn f() {{ {}{} }}", "(".repeat(126), ")".repeat(126));
    let long = format!("fn f() {{ {} }}", "x;".repeat(16_000));
    for src in [deep, long] {
        let it = items(&src);
        assert_eq!(it.items.len(), 1);
        assert_eq!(it.items[0].tokens, it.report.tokens);
    }
}

// ---- --diff ----

#[test]
fn a_file_against_itself_changes_nothing() {
    let it = items(EXAMPLE_BOT);
    let diff = ItemDiff::between(&it, &it);
    assert_eq!((diff.tokens_change, diff.debug_change), (0, 0));
    assert_eq!(diff.items.len(), it.items.len());
    assert!(diff.items.iter().all(|c| c.status == Status::Unchanged));
}

#[test]
fn a_token_moved_onto_a_debug_line_is_a_change() {
    let old = items("fn f() {\n    g();\n}");
    let new = items("fn f() {\n    g(); // #DEBUG\n}");
    let diff = ItemDiff::between(&old, &new);
    let f = &diff.items[0];
    assert_eq!(f.status, Status::Changed);
    assert_eq!((f.tokens_change, f.debug_change), (-2, 2));
    assert_eq!((diff.tokens_change, diff.debug_change), (-2, 2));
}

#[test]
fn matching_is_by_kind_and_name() {
    // A struct `f` and a function `f` are two items; a renamed one is
    // removed and added.
    let old = items("fn f() {}\nfn g() {}");
    let new = items("struct f;\nfn h() {}");
    let diff = ItemDiff::between(&old, &new);
    let mut seen: Vec<(ItemKind, &str, Status)> = diff
        .items
        .iter()
        .map(|c| (c.kind, c.name.as_str(), c.status))
        .collect();
    seen.sort_by_key(|&(k, n, _)| (k, n));
    assert_eq!(
        seen,
        [
            (ItemKind::Fn, "f", Status::Removed),
            (ItemKind::Fn, "g", Status::Removed),
            (ItemKind::Fn, "h", Status::Added),
            (ItemKind::Struct, "f", Status::Added),
        ]
    );
    let added = diff.items.iter().find(|c| c.name == "h").unwrap();
    assert_eq!((added.old_tokens, added.new_tokens), (None, Some(4)));
}

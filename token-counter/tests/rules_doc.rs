//! The refusal and limit examples of docs/rules.md (section 5), and the
//! attacker's pass behind them: every way found to reach a refused macro,
//! read a name back as data, hide text from the checker or crash it.

mod common;

use common::{documented, rules};
use token_counter::{MAX_FILE_BYTES, MAX_NESTING, Rule, analyze};

fn breaks(src: &str, rule: Rule) {
    let found = rules(src);
    assert!(
        found.contains(&rule),
        "{src:?} should break {rule}, found {found:?}"
    );
}

fn clean(src: &str) {
    assert_eq!(rules(src), vec![], "{src:?} should break no rule");
}

/// A documented example that breaks each of `want`.
fn example_breaks(src: &str, want: &[Rule]) {
    documented(&format!("`{src}`"));
    for rule in want {
        breaks(src, *rule);
    }
}

fn example_clean(src: &str) {
    documented(&format!("`{src}`"));
    clean(src);
}

fn refused(src: &str) -> String {
    match analyze(src) {
        Err(e) => e.to_string(),
        Ok(r) => panic!("{src:?} should be refused, got {} tokens", r.tokens),
    }
}

// ---- The checker sees what rustc compiles ----

#[test]
fn example_shebang_line_is_refused() {
    documented("`#!/usr/bin/env run` + newline + `fn f() {}`");
    let e = refused("#!/usr/bin/env run\nfn f() {}");
    assert!(e.starts_with("1:1: a `#!` shebang line is refused"), "{e}");
}

#[test]
fn example_inner_attribute_after_a_comment_is_not_a_shebang() {
    documented("`#! /* c */ [allow(unused)]` + newline + `fn f() {}`");
    clean("#! /* c */ [allow(unused)]\nfn f() {}");
    clean("#![allow(unused)]\nfn f() {}");
    clean("\u{feff}#![allow(unused)]\nfn f() {}");
}

#[test]
fn a_shebang_can_no_longer_hide_code() {
    // This used to be stripped as a shebang and its refused code never seen.
    let e = refused("#! include!(\"/etc/passwd\");\nfn f() {}");
    assert!(e.contains("shebang"), "{e}");
    // After a byte order mark too, as rustc strips the mark first.
    assert!(refused("\u{feff}#!/bin/x\nfn f() {}").contains("shebang"));
    // And a comment that does not lead to `[` does not make it an attribute.
    assert!(refused("#! // [\nfn f() {}").contains("shebang"));
    // A nested block comment is skipped whole.
    clean("#!/* a /* b */ c */[allow(unused)]\nfn f() {}");
}

// ---- Refused macros, by any name ----

#[test]
fn example_prelude_rename_of_include_str() {
    example_breaks(
        "use std::prelude::v1::include_str as f;",
        &[Rule::ForbiddenPath, Rule::ForbiddenMacro],
    );
}

#[test]
fn example_bare_use_of_a_builtin_macro() {
    // rustc accepts this: the built-in macro under another name.
    example_breaks("use include_str as f;", &[Rule::ForbiddenMacro]);
}

#[test]
fn example_prelude_glob() {
    example_breaks("use core::prelude::rust_2024::*;", &[Rule::ForbiddenPath]);
}

#[test]
fn example_core_include() {
    example_breaks(
        "fn f() { core::include!(\"x\"); }",
        &[Rule::ForbiddenPath, Rule::ForbiddenMacro],
    );
}

#[test]
fn example_forwarding_macro() {
    example_breaks(
        "macro_rules! f { ($($t:tt)*) => { include_str!($($t)*) } }",
        &[Rule::ForbiddenMacro],
    );
}

#[test]
fn example_concat_turns_float_digits_into_a_string() {
    example_breaks(
        "fn f() -> &'static str { concat!(3.14159265358979323846264338327950288e0) }",
        &[Rule::ForbiddenMacro],
    );
}

#[test]
fn refused_macros_by_every_path_and_rename() {
    for name in token_counter::FORBIDDEN_MACROS {
        for src in [
            format!("use {name} as f;"),
            format!("use r#{name} as f;"),
            format!("use {{core::{{{name} as f}}}};"),
            format!("pub(crate) use std::{name};"),
            format!("fn f() {{ ::core::{name}!(x); }}"),
            format!("macro_rules! m {{ () => {{ $crate::{name}!(x) }} }}"),
            format!("fn f() {{ r#{name}!(x); }}"),
            format!("macro_rules! m {{ () => {{ use {name} as g; }} }}"),
        ] {
            breaks(&src, Rule::ForbiddenMacro);
        }
    }
    // Every prelude, by every root.
    for root in ["std", "core", "::core", "r#std"] {
        for prelude in ["v1", "rust_2015", "rust_2018", "rust_2021", "rust_2024"] {
            breaks(
                &format!("use {root}::prelude::{prelude}::*;"),
                Rule::ForbiddenPath,
            );
        }
    }
    breaks("use std::{prelude::v1::{self as p}};", Rule::ForbiddenPath);
}

#[test]
fn example_bang_spliced_from_a_variable() {
    example_breaks(
        "macro_rules! m { ($b:tt) => { include_str $b (\"x\") }; }",
        &[Rule::ForbiddenMacro],
    );
}

#[test]
fn example_refused_name_handed_to_a_file_macro() {
    example_breaks("fn f() { m!(include_str, !); }", &[Rule::ForbiddenMacro]);
    // The whole assembly, as it would be written.
    breaks(
        "macro_rules! m { ($n:ident, $b:tt) => { $n $b (\"x\") }; } fn f() { m!(include_str, !); }",
        Rule::ForbiddenMacro,
    );
    // Standard macros' arguments cannot splice: a variable named `file` is fine.
    clean("fn f(file: u8) { println!(\"{}\", file); assert!(file > 0); }");
}

#[test]
fn example_lone_hash_for_a_spliced_attribute() {
    example_breaks("fn f() { m!(#); }", &[Rule::MacroVariableSplice]);
    breaks(
        "macro_rules! m { ($h:tt) => { $h[no_mangle] fn f() {} }; }\nm!(#);",
        Rule::MacroVariableSplice,
    );
    breaks(
        "macro_rules! m { ($a:tt) => { # $a fn f() {} }; }",
        Rule::MacroVariableSplice,
    );
    clean("macro_rules! m { () => { #[inline] fn f() {} }; }");
}

#[test]
fn chess_words_stay_free_outside_use() {
    clean("fn f(file: u8, line: u8, column: u8, env: u8) -> u8 { file + line + column + env }");
}

// ---- Names read back as data ----

#[test]
fn example_derive_debug() {
    example_breaks("#[derive(Clone, Debug)] struct S;", &[Rule::DebugText]);
}

#[test]
fn example_renamed_debug() {
    example_breaks("use std::fmt::Debug as D;", &[Rule::DebugText]);
}

#[test]
fn example_phantom_data_prints_a_type_name() {
    example_breaks(
        "fn f() -> String { format!(\"{:?}\", std::marker::PhantomData::<u8>) }",
        &[Rule::TypeName],
    );
}

#[test]
fn example_maybe_uninit_prints_a_type_name() {
    example_breaks(
        "fn f() { let _ = std::mem::MaybeUninit::new(1u8); }",
        &[Rule::TypeName],
    );
}

#[test]
fn example_derive_from_a_macro_variable() {
    example_breaks(
        "macro_rules! m { ($t:ident) => { #[derive($t)] struct S; }; }",
        &[Rule::MacroVariableSplice],
    );
}

#[test]
fn example_macro_named_by_a_variable() {
    example_breaks(
        "macro_rules! m { ($n:ident) => { macro_rules! $n { () => {} } }; }",
        &[Rule::MacroVariableSplice],
    );
}

#[test]
fn example_allowed_derives() {
    example_clean(
        "#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)] struct S;",
    );
}

#[test]
fn example_debug_format_of_standard_types() {
    example_clean("fn f() { let _ = format!(\"{:?}\", (1u8, 'x')); }");
}

#[test]
fn name_printers_are_refused_by_every_spelling() {
    for src in [
        "#[derive(core::fmt::Debug)] struct S;",
        "#[derive(r#Debug)] struct S;",
        "fn f<T: std::fmt::Debug>(_: T) {}",
        "impl std::fmt::Debug for S {}",
        "fn f() { m!(Debug); }",
        "#[cfg_attr(all(), derive(Debug))] struct S;",
        "#[derive(Debug)] // #DEBUG\nstruct S;",
    ] {
        breaks(src, Rule::DebugText);
    }
    for src in [
        "use std::marker::*; struct S(PhantomData<u8>);",
        "use core::marker::PhantomData as P;",
        "fn f() { let _ = std::any::type_name_of_val(&1); }",
        "fn f() { let _ = core::intrinsics::type_name::<u8>(); }",
        "use std::mem::MaybeUninit as U;",
    ] {
        breaks(src, Rule::TypeName);
    }
    breaks(
        "fn f() { let _ = std::panic::Location::caller(); }",
        Rule::ForbiddenPath,
    );
    clean("#[track_caller] fn f() {}");
}

#[test]
fn derives_are_limited_to_the_listed_traits() {
    breaks(
        "#[derive(Clone, Serialize)] struct S;",
        Rule::ForbiddenAttribute,
    );
    breaks(
        "#[derive(std::fmt::Display)] struct S;",
        Rule::ForbiddenAttribute,
    );
    clean("#[derive(std::clone::Clone, core::cmp::PartialEq)] struct S;");
}

// ---- Attributes ----

#[test]
fn example_no_std() {
    example_breaks("#![no_std]", &[Rule::ForbiddenAttribute]);
}

#[test]
fn example_debugger_visualizer_reads_a_file() {
    example_breaks(
        "#[debugger_visualizer(gdb_script_file = \"x.py\")] mod m {}",
        &[Rule::ForbiddenAttribute],
    );
}

#[test]
fn example_cfg_attr_is_judged_by_what_it_applies() {
    example_breaks(
        "#[cfg_attr(all(), used)] static X: u8 = 0;",
        &[Rule::ForbiddenAttribute],
    );
}

#[test]
fn example_doc_include() {
    example_breaks(
        "#[doc = include_str!(\"x\")] struct S;",
        &[Rule::ForbiddenMacro],
    );
}

#[test]
fn crate_level_and_linking_attributes_are_refused() {
    for attr in [
        "#![feature(decl_macro)]",
        "#![recursion_limit = \"100000\"]",
        "#![no_main]",
        "#![crate_type = \"lib\"]",
        "#![windows_subsystem = \"console\"]",
        "#[used] static X: u8 = 0;",
        "#[link_name = \"x\"] fn f() {}",
        "#[target_feature(enable = \"avx2\")] fn f() {}",
        "#[cfg_attr(all(), path = \"x.rs\")] mod m {}",
        "#[cfg_attr(all(), cfg_attr(all(), export_name = \"x\"))] fn f() {}",
    ] {
        breaks(attr, Rule::ForbiddenAttribute);
    }
    clean(
        "#![allow(dead_code)]\n#[inline(always)] #[must_use] #[rustfmt::skip] #[cold] fn f() -> u8 { 1 }\n\
         #[repr(u8)] #[derive(Default)] enum E { #[default] A }\n\
         #[cfg(test)] mod t { #[test] fn t() {} }\n#[clippy::msrv = \"1.89\"] fn g() {}",
    );
}

// ---- rustc's soundness holes ----

/// The refused skeleton of rust-lang/rust#25860, as docs/rules.md shows it.
const STRETCH: &str = "fn stretch<'s, 'l, T>(_: &'s &'l (), v: &'l mut T) -> &'s mut T { v }
fn forever<T>(v: &mut T) -> &'static mut T {
    let f: fn(_, &mut T) -> &'static mut T = stretch;
    f(&&(), v)
}
";

#[test]
fn example_the_lifetime_extension_skeleton_is_refused() {
    documented(&format!("```rust\n{STRETCH}```"));
    breaks(STRETCH, Rule::NamedLifetime);
    let v: Vec<_> = analyze(STRETCH)
        .unwrap()
        .violations
        .into_iter()
        .filter(|v| v.rule != Rule::MissingMyBot)
        .collect();
    // Every named lifetime, where it is written; `'static` is not one, but
    // `&'static mut T` on the generic `T` breaks `static-bound`.
    let at = |rule: Rule| -> Vec<_> {
        v.iter()
            .filter(|v| v.rule == rule)
            .map(|v| (v.line, v.column))
            .collect()
    };
    assert_eq!(
        at(Rule::NamedLifetime),
        [(1, 12), (1, 16), (1, 27), (1, 31), (1, 42), (1, 56)]
    );
    assert_eq!(at(Rule::StaticBound), [(2, 30), (3, 30)]);
    assert_eq!(v.len(), 8);
    assert_eq!(
        v[0].to_string().lines().next().unwrap(),
        "1:12: error[named-lifetime]: the lifetime `'s` is refused: a bot writes only \
         `'static` and `'_` (rustc's implied-bounds holes need named lifetimes)"
    );
    example_breaks(
        "fn stretch<'s, 'l, T>(_: &'s &'l (), v: &'l mut T) -> &'s mut T { v }",
        &[Rule::NamedLifetime],
    );
}

#[test]
fn example_a_struct_holding_a_named_reference() {
    example_breaks("struct S<'a>(&'a Board);", &[Rule::NamedLifetime]);
}

#[test]
fn example_higher_ranked_fn_pointer() {
    example_breaks(
        "fn f(g: for<'a> fn(&'a u8) -> &'a u8) {}",
        &[Rule::NamedLifetime],
    );
}

#[test]
fn example_label_handed_to_a_file_macro() {
    example_breaks("fn f() { m!('a: loop {}); }", &[Rule::NamedLifetime]);
}

#[test]
fn example_elided_lifetimes_are_allowed() {
    example_clean("fn f(x: &Board) -> &str { \"\" }");
}

#[test]
fn example_static_is_allowed() {
    example_clean("const NAME: &'static str = \"x\";");
}

#[test]
fn example_anonymous_lifetime_is_allowed() {
    example_clean(
        "fn f(b: &Board) -> impl Iterator<Item = Move> + '_ { b.legal_moves().into_iter() }",
    );
}

#[test]
fn example_labels_are_allowed() {
    example_clean("fn f() { 'outer: loop { break 'outer; } }");
}

#[test]
fn example_maybe_sized_blanket_impl() {
    example_breaks(
        "impl<U, T: ?Sized> Object<U> for T { type Output = U; }",
        &[Rule::ImplSelfType, Rule::MaybeSized],
    );
}

/// The worked examples of docs/rules.md section 3 after the lifetimes: each
/// written there word for word, each refused for the rule it illustrates.
#[test]
fn example_the_new_skeletons_are_refused() {
    const STATIC_SKELETON: &str =
        "fn keep<T: Iterator + 'static>(_: &T, x: T::Item) -> Box<dyn Peek>
where
    T::Item: Peek,
{
    Box::new(x)
}
";
    const INDEX_MUT_SKELETON: &str = "trait Tr<T> {
    type A;
}
type Id<X> = X;
type Out<Y: IndexMut<usize>> = Id<Y::Output>;
type Obj = dyn IndexMut<usize, Output = dyn Tr<u8, A = usize>>;
impl<T> Tr<T> for Out<Obj> {
    type A = &'static mut usize;
}
";
    const BREAK_SKELETON: &str = "'b: {
    write = Some(slot.insert(match go {
        false => break 'b,
        true => Two::Ref(&0),
    }));
}
";
    const GUARD_SKELETON: &str = "match p.0 {
    Two::Ref(_) if { p.1 = 1; p = &mut b; false } => 0,
    Two::Ref(r) => *r,
    Two::Word(_) => 0,
}
";
    // Indented by two as the list items of section 3 show them.
    let shown = |src: &str| {
        let body: String = src.lines().map(|l| format!("  {l}\n")).collect();
        format!("  ```rust\n{body}  ```")
    };
    for (src, rules) in [
        (STATIC_SKELETON.to_owned(), vec![Rule::StaticBound]),
        (
            INDEX_MUT_SKELETON.to_owned(),
            vec![
                Rule::TraitDefinition,
                Rule::TypeAlias,
                Rule::TraitObject,
                Rule::ImplSelfType,
            ],
        ),
        (
            format!("fn f() {{\n{BREAK_SKELETON}}}\n"),
            vec![Rule::BreakOutOfCall],
        ),
        (
            format!("fn f() -> usize {{\n{GUARD_SKELETON}}}\n"),
            vec![Rule::MatchGuard],
        ),
    ] {
        let skeleton = src
            .strip_prefix("fn f() {\n")
            .or_else(|| src.strip_prefix("fn f() -> usize {\n"))
            .map_or(src.as_str(), |s| s.strip_suffix("}\n").unwrap());
        documented(&shown(skeleton));
        for rule in rules {
            breaks(&src, rule);
        }
    }
}

#[test]
fn example_what_the_type_system_allow_list_refuses() {
    example_breaks(
        "impl<T> Cast<T> for <Box<dyn Cast<u8, Out = u64>> as Deref>::Target { type Out = &'static u64; }",
        &[Rule::ImplSelfType, Rule::TraitObject],
    );
    for src in [
        "impl<D: Deref> Cast<D> for D::Target {}",
        "impl<T> Cast<T> for Out<Obj> { type A = &'static mut usize; }",
        "impl Ord for Move {}",
    ] {
        example_breaks(src, &[Rule::ImplSelfType]);
    }
    for src in [
        "type Out<Y: IndexMut<usize>> = Id<Y::Output>;",
        "type Object = <W as Hold>::It;",
    ] {
        example_breaks(src, &[Rule::TypeAlias]);
    }
    example_breaks(
        "fn f(eval: &dyn Fn(&Board) -> i32) {}",
        &[Rule::TraitObject],
    );
    example_breaks("trait Cast<T> { type Out; }", &[Rule::TraitDefinition]);
}

/// Examples shown as a type and its impl: each part documented, the file they make clean.
fn example_clean_parts(parts: &[&str], shown: &str) {
    documented(shown);
    clean(&parts.join("\n"));
}

#[test]
fn example_what_the_type_system_allow_list_allows() {
    let table = "struct Table([i32; 64]);";
    let index = "impl Index<usize> for Table { type Output = i32; fn index(&self, i: usize) -> &i32 { &self.0[i] } }";
    example_clean_parts(
        &["use std::ops::Index;", table, index],
        &format!("`{table}` + `{index}`"),
    );
    let score = "struct Score(i32);";
    let add = "impl Add for Score { type Output = Score; fn add(self, o: Score) -> Score { Score(self.0 + o.0) } }";
    example_clean_parts(
        &["use std::ops::Add;", score, add],
        &format!("`{score}` + `{add}`"),
    );
    example_clean_parts(
        &[
            "struct Engine;",
            "type MyBot = Engine;",
            "impl Bot for MyBot { fn think(&mut self, b: Board, _: Timer) -> Move { b.legal_moves()[0] } }",
        ],
        "`type MyBot = Engine;` + `impl Bot for MyBot { ... }` (with `struct Engine`)",
    );
    example_clean("trait Eval { fn eval(&self, b: &Board) -> i32; }");
    example_clean("fn f(eval: impl Fn(&Board) -> i32, g: fn(&Board) -> i32) {}");
    example_clean("type Table = [[i32; 64]; 6];");
}

#[test]
fn example_breaks_out_of_a_call() {
    example_breaks(
        "fn f(v: &mut Vec<Move>, w: &[Option<Move>]) { for m in w { v.push(match m { Some(m) => *m, None => continue }); } }",
        &[Rule::BreakOutOfCall],
    );
    example_clean(
        "fn f(v: &mut Vec<Move>, w: &[Option<Move>]) { for m in w { let Some(m) = m else { continue }; v.push(*m); } }",
    );
    example_clean("fn f(v: &mut Vec<u32>) { v.push(loop { break 3 }); }");
}

#[test]
fn example_match_guards() {
    example_breaks(
        "fn f(x: &mut Option<Box<u64>>) -> u64 { match *x { Some(_) if x.take().is_none() && panic!() => 0, Some(ref b) => **b, None => 1 } }",
        &[Rule::MatchGuard],
    );
    example_clean(
        "fn f(p: Piece, heavy: i32) -> i32 { match p.piece_type() { PieceType::King if heavy > 2 => 1, _ => 0 } }",
    );
}

#[test]
fn example_static_bounds() {
    for src in [
        "fn keep<T: Iterator + 'static>(x: T::Item) {}",
        "fn keep<T: Iterator>(_: &'static T) {}",
        "fn f(_: std::slice::Iter<'static, Move>) {}",
    ] {
        example_breaks(src, &[Rule::StaticBound]);
    }
}

// ---- Characters ----

#[test]
fn example_lone_carriage_return() {
    documented("`fn f() {} // #DEBUG` + `\\r` + `g();`");
    // An editor shows `g();` on a line of its own; for rustc it is comment.
    let src = "fn f() {} // #DEBUG\rg();";
    let r = analyze(src).unwrap();
    let v: Vec<_> = r
        .violations
        .iter()
        .filter(|v| v.rule == Rule::InvisibleCharacter)
        .collect();
    assert_eq!(v.len(), 1);
    assert_eq!((v[0].line, v[0].column), (1, 20));
    // CRLF line endings are fine.
    clean("fn f() {} // #DEBUG\r\nfn g() {}\r\n");
}

#[test]
fn example_bidi_control_in_a_string() {
    documented("`let s = \"a\\u{202E}b\";` written with the raw character");
    breaks(
        "fn f() { let s = \"a\u{202E}b\"; }",
        Rule::InvisibleCharacter,
    );
    clean("fn f() { let s = \"a\\u{202E}b\"; }");
}

#[test]
fn invisible_characters_are_refused_everywhere() {
    for c in [
        '\u{200B}',
        '\u{200E}',
        '\u{200F}',
        '\u{2066}',
        '\u{2069}',
        '\u{FEFF}',
        '\u{2028}',
        '\u{85}',
        '\u{0B}',
        '\u{0C}',
        '\u{AD}',
        '\u{E0041}',
    ] {
        for src in [
            format!("fn f() {{}} // a{c}b"),
            format!("fn f() {{ let _ = \"{c}\"; }}"),
            format!("/* {c} */ fn f() {{}}"),
        ] {
            if analyze(&src).is_ok() {
                breaks(&src, Rule::InvisibleCharacter);
            }
        }
    }
}

// ---- Limits ----

#[test]
fn example_nesting_over_the_limit() {
    documented("200 nested `(`");
    let src = format!(
        "fn f() {{ let _ = {}1{}; }}",
        "(".repeat(200),
        ")".repeat(200)
    );
    let e = refused(&src);
    assert!(
        e.contains(&format!("nest more than {MAX_NESTING} deep")),
        "{e}"
    );
    // At the limit it is counted.
    let ok = format!(
        "fn f() {{ let _ = {}1{}; }}",
        "(".repeat(MAX_NESTING - 2),
        ")".repeat(MAX_NESTING - 2)
    );
    assert!(analyze(&ok).is_ok());
}

#[test]
fn example_file_over_the_size_limit() {
    documented("a file of 262,145 bytes");
    assert_eq!(MAX_FILE_BYTES, 262_144);
    let big = format!("fn f() {{}}\n{}", " ".repeat(MAX_FILE_BYTES));
    assert!(refused(&big).contains("more than the 262144"));
    let fits = format!("fn f() {{}}{}", " ".repeat(MAX_FILE_BYTES - 10));
    assert!(analyze(&fits).is_ok());
}

#[test]
fn example_latin1_file_is_not_utf8() {
    documented("the bytes `// caf\\xe9` (Latin-1)");
    let dir = std::env::temp_dir().join(format!("token-counter-rules-doc-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("latin1.rs");
    std::fs::write(&path, b"// caf\xe9\n").unwrap();
    let e = token_counter::analyze_file(&path).unwrap_err().to_string();
    assert!(
        e.ends_with(":1:7: the file is not UTF-8 text (invalid byte at offset 6)"),
        "{e}"
    );
    let big = dir.join("big.rs");
    std::fs::write(&big, vec![b' '; MAX_FILE_BYTES + 1]).unwrap();
    let e = token_counter::analyze_file(&big).unwrap_err().to_string();
    assert!(e.contains("larger than 262144 bytes"), "{e}");
    std::fs::remove_dir_all(dir).ok();
}

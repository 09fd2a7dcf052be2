//! Every refused construct, a file that passes and one that fails, and the
//! ways a bot might try to slip past the checks.

mod common;

use common::rules;
use token_counter::{Rule, analyze};

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

// ---- The allowed standard library ----

#[test]
fn allowed_modules_pass_by_every_root() {
    for root in ["std", "core", "::std", "::core"] {
        for module in token_counter::ALLOWED_STD_MODULES {
            clean(&format!("use {root}::{module};"));
        }
    }
    clean("use alloc::collections::BTreeMap; use alloc::vec::Vec;");
    clean("fn f() -> u64 { std::u64::MAX.min(core::cmp::max(1, 2)) }");
    clean("use std::{cmp::{max, min}, collections::*, mem::swap};");
    // The prelude is in scope without a path; naming it only serves to
    // reach its re-exported built-in macros (`include_str` and the rest).
    breaks("use std::prelude::v1::*;", Rule::ForbiddenPath);
}

#[test]
fn refused_modules_fail_by_every_root() {
    let refused = [
        "fs",
        "io",
        "net",
        "process",
        "thread",
        "sync",
        "env",
        "os",
        "ffi",
        "ptr",
        "arch",
        "alloc",
        "panic",
        "any",
        "intrinsics",
        "simd",
    ];
    for root in ["std", "core", "alloc", "::std", "::core", "::alloc"] {
        for module in refused {
            breaks(&format!("use {root}::{module};"), Rule::ForbiddenPath);
        }
    }
}

#[test]
fn refused_paths_are_caught_in_expressions_and_types() {
    breaks("fn f() { std::fs::read(\"x\"); }", Rule::ForbiddenPath);
    breaks("fn f(_: std::sync::Arc<u8>) {}", Rule::ForbiddenPath);
    breaks("type T = core::ptr::NonNull<u8>;", Rule::ForbiddenPath);
    breaks(
        "fn f() { let _ = <std::process::Command>::new; }",
        Rule::ForbiddenPath,
    );
    // Root-level items are not modules of the allowed list.
    breaks("fn f() { std::println!(\"x\"); }", Rule::ForbiddenPath);
}

#[test]
fn transmute_is_refused_even_inside_mem() {
    clean("fn f(a: &mut u8, b: &mut u8) { std::mem::swap(a, b) }");
    breaks("use std::mem::transmute;", Rule::ForbiddenPath);
    breaks("use std::mem::{swap, transmute};", Rule::ForbiddenPath);
    breaks(
        "fn f() { core::mem::transmute::<u8, i8>(1); }",
        Rule::ForbiddenPath,
    );
}

#[test]
fn transmute_through_a_glob_is_harmless_because_it_needs_unsafe() {
    // `use std::mem::*` brings `transmute` into scope, but calling it does
    // not compile outside `unsafe`, which is refused wherever it appears.
    clean("use std::mem::*; fn f(a: &mut u8, b: &mut u8) { swap(a, b) }");
    breaks(
        "use std::mem::*; fn f() -> i8 { unsafe { transmute(1u8) } }",
        Rule::Unsafe,
    );
}

#[test]
fn type_name_is_refused() {
    breaks(
        "fn f() { let _ = std::any::type_name::<u8>(); }",
        Rule::TypeName,
    );
    breaks("use core::any::type_name;", Rule::TypeName);
    breaks("use std::any::{type_name};", Rule::TypeName);
}

// ---- Evasions of the path check ----

#[test]
fn glob_import_of_a_root_is_refused() {
    // `use std::*;` would bring `fs` in as a bare name.
    breaks("use std::*;", Rule::ForbiddenPath);
    breaks("use ::core::*;", Rule::ForbiddenPath);
    breaks("use std::{*};", Rule::ForbiddenPath);
    breaks("use std::io::*;", Rule::ForbiddenPath);
}

#[test]
fn nested_use_trees_are_walked() {
    breaks("use std::{cmp, {io}};", Rule::ForbiddenPath);
    breaks(
        "use std::{cmp::max, fs::{self, File}};",
        Rule::ForbiddenPath,
    );
    breaks("use {std::fs};", Rule::ForbiddenPath);
    breaks("use ::{std::net::TcpStream};", Rule::ForbiddenPath);
}

#[test]
fn renaming_a_root_is_refused() {
    breaks("use std as s;", Rule::RenamedRoot);
    breaks("use ::core as c;", Rule::RenamedRoot);
    breaks("use std::{self as s};", Rule::RenamedRoot);
    breaks("use {alloc as a};", Rule::RenamedRoot);
    breaks("use framework as f;", Rule::RenamedRoot);
    breaks("use framework::{self as f};", Rule::RenamedRoot);
    // Renaming an allowed module is fine; renaming a refused one is caught
    // at the path it renames.
    clean("use std::collections as c; fn f() -> c::HashMap<u8, u8> { c::HashMap::new() }");
    breaks("use std::fs as f;", Rule::ForbiddenPath);
    breaks("use std::{io as i};", Rule::ForbiddenPath);
}

#[test]
fn a_plain_use_of_a_root_is_harmless() {
    // `use std;` re-exports nothing new: any path through it still spells
    // `std::` and is checked.
    clean("use std; fn f() -> u8 { std::cmp::max(1, 2) }");
    breaks(
        "mod m { pub use std; } fn f() { m::std::fs::read(\"\"); }",
        Rule::ForbiddenPath,
    );
}

#[test]
fn raw_identifiers_name_the_same_paths() {
    breaks("use r#std::fs;", Rule::ForbiddenPath);
    breaks("use std::r#fs;", Rule::ForbiddenPath);
    breaks("use r#core as c;", Rule::RenamedRoot);
    breaks("fn f() { r#include_str!(\"x\"); }", Rule::ForbiddenMacro);
    clean("use r#std::r#cmp::max;");
}

#[test]
fn raw_keywords_are_harmless_identifiers() {
    // `r#unsafe` is an identifier to the compiler, never the keyword, even
    // after a macro passes it on; the same for `r#extern` and `r#mod`.
    clean("fn f() { let r#unsafe = 1; let r#extern = r#unsafe; let r#mod = r#extern; }");
}

#[test]
fn nested_modules_are_checked() {
    breaks("mod a { mod b { use std::thread; } }", Rule::ForbiddenPath);
    breaks(
        "mod a { fn f() { ::std::env::args(); } }",
        Rule::ForbiddenPath,
    );
    clean("mod a { pub mod b { pub use std::cmp::max; } }");
}

#[test]
fn macro_rules_bodies_are_checked() {
    breaks(
        "macro_rules! m { () => { std::fs::read(\"x\") }; }",
        Rule::ForbiddenPath,
    );
    breaks(
        "macro_rules! m { () => { include_str!(\"x\") }; }",
        Rule::ForbiddenMacro,
    );
    breaks("macro_rules! m { () => { unsafe {} }; }", Rule::Unsafe);
    breaks("macro_rules! m { () => { mod x; }; }", Rule::ModWithoutBody);
    breaks(
        "macro_rules! m { () => { #[no_mangle] fn f() {} }; }",
        Rule::ForbiddenAttribute,
    );
    clean("macro_rules! m { ($a:expr) => { std::cmp::max($a, 1) }; }");
}

#[test]
fn macro_arguments_are_checked() {
    breaks(
        "fn f() { let _ = vec![std::fs::read(\"x\")]; }",
        Rule::ForbiddenPath,
    );
    breaks(
        "fn f() { assert!(core::ptr::null::<u8>().is_null()); }",
        Rule::ForbiddenPath,
    );
    breaks(
        "fn f() { let _ = format!(\"{}\", env!(\"HOME\")); }",
        Rule::ForbiddenMacro,
    );
    breaks(
        "fn f() { m!(use ::alloc::alloc::alloc;); }",
        Rule::ForbiddenPath,
    );
    clean(
        "fn f(board: u8) { assert!(board > 0, \"{}\", board); let _ = vec![core::cmp::max(1, 2); 3]; }",
    );
}

#[test]
fn macro_variables_cannot_assemble_a_refused_path() {
    // The spec's `std::$m`.
    breaks(
        "macro_rules! m { ($m:ident) => { std::$m::read(\"x\") }; }",
        Rule::MacroVariablePath,
    );
    breaks(
        "macro_rules! m { ($m:ident) => { use ::core::$m; }; }",
        Rule::MacroVariablePath,
    );
    breaks(
        "macro_rules! m { ($m:ident) => { framework::$m::spawn() }; }",
        Rule::MacroVariablePath,
    );
    // The root passed in instead: `$r::fs` with `m!(std)`.
    breaks(
        "macro_rules! m { ($r:ident) => { $r::fs::read(\"x\") }; } fn f() { m!(std); }",
        Rule::MacroVariablePath,
    );
    breaks("fn f() { m!(framework); }", Rule::MacroVariablePath);
    // A field that happens to be called `core` is not a root, and a
    // negation is not a macro call.
    clean("fn f(s: S) { assert!(s.core > 0); }");
    clean("fn f(core: u8, done: bool) { if !done { let _ = core; } while !(core > 1) {} }");
}

#[test]
fn macro_variables_cannot_name_a_refused_macro_or_attribute() {
    breaks(
        "macro_rules! m { ($n:ident) => { $n!(\"x\") }; } fn f() { m!(include_str); }",
        Rule::MacroVariableSplice,
    );
    breaks(
        "macro_rules! m { ($a:meta) => { #[$a] fn f() {} }; }",
        Rule::MacroVariableSplice,
    );
    clean("macro_rules! m { ($n:ident) => { fn $n() {} }; }");
}

#[test]
fn attributes_are_checked_on_any_item_and_inside_cfg_attr() {
    for attr in [
        "path = \"x.rs\"",
        "link(name = \"c\")",
        "no_mangle",
        "export_name = \"f\"",
        "link_section = \".x\"",
        "global_allocator",
    ] {
        breaks(&format!("#[{attr}] fn f() {{}}"), Rule::ForbiddenAttribute);
        breaks(
            &format!("struct S {{ #[{attr}] x: u8 }}"),
            Rule::ForbiddenAttribute,
        );
        breaks(
            &format!("fn f() {{ #[{attr}] let x = 1; }}"),
            Rule::ForbiddenAttribute,
        );
        breaks(
            &format!("#[cfg_attr(all(), {attr})] fn f() {{}}"),
            Rule::ForbiddenAttribute,
        );
    }
    breaks("#![no_mangle]", Rule::ForbiddenAttribute);
    clean(
        "#[derive(Clone, Copy, Default)] #[allow(dead_code)] #[inline] struct S { #[allow(unused)] x: u8 }",
    );
}

// ---- Refused keywords and macros ----

#[test]
fn unsafe_is_refused_everywhere() {
    breaks("fn f() { unsafe {} }", Rule::Unsafe);
    breaks("unsafe fn f() {}", Rule::Unsafe);
    breaks("unsafe impl Send for S {}", Rule::Unsafe);
    breaks("unsafe trait T {}", Rule::Unsafe);
    breaks("#[unsafe(no_mangle)] fn f() {}", Rule::Unsafe);
    clean("fn f() { let safe = 1; }");
}

#[test]
fn extern_is_refused_in_every_form() {
    breaks("extern crate std;", Rule::Extern);
    breaks("extern crate alloc as a;", Rule::Extern);
    breaks("extern \"C\" { fn abs(x: i32) -> i32; }", Rule::Extern);
    breaks("extern \"C\" fn f() {}", Rule::Extern);
    breaks("type F = extern \"C\" fn();", Rule::Extern);
    clean("fn f(external: u8) -> u8 { external }");
}

#[test]
fn modules_need_a_body() {
    breaks("mod x;", Rule::ModWithoutBody);
    breaks("pub mod x;", Rule::ModWithoutBody);
    breaks("mod a { mod b; }", Rule::ModWithoutBody);
    breaks("fn f() { m!(mod); }", Rule::ModWithoutBody);
    clean("mod x {} pub(crate) mod y { fn f() {} }");
}

#[test]
fn every_refused_macro_is_caught() {
    for name in token_counter::FORBIDDEN_MACROS {
        breaks(&format!("fn f() {{ {name}!(x); }}"), Rule::ForbiddenMacro);
        breaks(
            &format!("fn f() {{ let _ = vec![{name}!(x)]; }}"),
            Rule::ForbiddenMacro,
        );
    }
    breaks("fn f() { std::include!(\"x\"); }", Rule::ForbiddenPath);
    breaks("fn f() { std::include!(\"x\"); }", Rule::ForbiddenMacro);
    // Same names used as plain identifiers are fine: `file` and `line` are
    // chess and editor words.
    clean(
        "fn f(file: u8, line: u8) -> u8 { let column = file + line; assert!(column > file); column }",
    );
}

// ---- The framework ----

#[test]
fn the_framework_is_reached_only_through_its_prelude() {
    clean("use framework::prelude::*;");
    clean("use ::framework::prelude::{Board, Move};");
    clean("use framework::{prelude::*};");
    clean("fn f(b: &framework::prelude::Board) {}");
    breaks("use framework::uci::Host;", Rule::FrameworkPath);
    breaks("use framework::*;", Rule::FrameworkPath);
    breaks("use framework::{prelude::*, runner};", Rule::FrameworkPath);
    breaks(
        "fn f() { framework::runner::spawn(); }",
        Rule::FrameworkPath,
    );
    breaks("fn f() { m!(framework::uci::x); }", Rule::FrameworkPath);
}

// ---- The bot's shape ----

#[test]
fn a_bot_needs_my_bot_and_its_impl() {
    let ok = "use framework::prelude::*;\n#[derive(Default)] pub struct MyBot;\nimpl Bot for MyBot { fn think(&mut self, b: Board, t: Timer) -> Move { b.legal_moves()[0] } }\n";
    assert!(analyze(ok).unwrap().violations.is_empty());
    let enum_bot = ok.replace("pub struct MyBot;", "pub enum MyBot { #[default] A }");
    assert!(analyze(&enum_bot).unwrap().violations.is_empty());
    let full_path = ok.replace("impl Bot for", "impl framework::prelude::Bot for");
    assert!(analyze(&full_path).unwrap().violations.is_empty());

    let no_impl = ok.replace("impl Bot for MyBot", "impl MyBot");
    let v = analyze(&no_impl).unwrap().violations;
    assert_eq!(
        v.iter().map(|v| v.rule).collect::<Vec<_>>(),
        vec![Rule::MissingBotImpl]
    );
    assert_eq!((v[0].line, v[0].column), (2, 31), "points at the type");
    assert!(v[0].hint.contains("impl Bot for MyBot"));

    let other_name = ok.replace("MyBot", "Bot2");
    let v = analyze(&other_name).unwrap().violations;
    assert_eq!(
        v.iter().map(|v| v.rule).collect::<Vec<_>>(),
        vec![Rule::MissingMyBot]
    );

    // Nested in a module, the kit cannot find it.
    let nested = format!("mod inner {{ {ok} }}");
    let v = analyze(&nested).unwrap().violations;
    assert_eq!(
        v.iter().map(|v| v.rule).collect::<Vec<_>>(),
        vec![Rule::MissingMyBot]
    );
}

// ---- Reporting ----

#[test]
fn violations_carry_position_rule_name_and_hint() {
    let r = analyze("fn f() {\n    let _ = std::fs::read(\"x\");\n}\n").unwrap();
    let v = r
        .violations
        .iter()
        .find(|v| v.rule == Rule::ForbiddenPath)
        .unwrap();
    assert_eq!((v.line, v.column), (2, 13));
    assert_eq!(v.rule.name(), "forbidden-path");
    assert!(v.message.contains("std::fs"), "{}", v.message);
    assert!(!v.hint.is_empty());
    assert!(!r.passes_submission());
    assert!(r.within_limit(), "the dev view looks at the count only");
}

#[test]
fn rule_names_are_distinct_kebab_case() {
    let names: Vec<_> = Rule::ALL.iter().map(|r| r.name()).collect();
    let mut unique = names.clone();
    unique.sort();
    unique.dedup();
    assert_eq!(unique.len(), names.len());
    for (rule, name) in Rule::ALL.iter().zip(&names) {
        assert!(
            name.chars().all(|c| c.is_ascii_lowercase() || c == '-'),
            "{name}"
        );
        assert_eq!(serde_json::to_value(rule).unwrap(), serde_json::json!(name));
    }
}

#[test]
fn a_file_that_does_not_parse_is_an_error_with_a_position() {
    let e = analyze("fn f() {\n    let = 1;\n}\n").unwrap_err();
    assert_eq!((e.line, e.column), (2, 9));
    assert!(!e.message.is_empty());
    let e = analyze("fn f() {\n    let s = \"open;\n}\n").unwrap_err();
    assert!(e.message.contains("does not lex"), "{}", e.message);
    // Counting never falls back to tokens of an unparsable file.
    assert!(analyze("struct S { x: u8 ").is_err());
}

//! rustc's soundness holes (docs/rules.md, section 3): whole bots built on
//! the public techniques are refused, the variants an attacker would try next
//! are refused or do not compile, and ordinary code with lifetimes is not
//! touched.

mod common;

use std::path::PathBuf;
use std::process::Command;

use common::rules;
use token_counter::{Rule, analyze};

/// A whole bot on rust-lang/rust#25860 ("cve-rs"): the lifetime extension,
/// then a reference into one enum variant kept across the switch to the
/// other, which reads the bytes of an integer as a reference or a function.
/// Built against the framework it reads any address of its process and calls
/// any function in it. Without `named-lifetime` the counter accepted it: it
/// breaks no other rule.
const STRETCH_BOT: &str = r#"use framework::prelude::*;

fn stretch<'s, 'l, T>(_: &'s &'l (), v: &'l mut T) -> &'s mut T {
    v
}

fn forever<T>(v: &mut T) -> &'static mut T {
    let f: fn(_, &mut T) -> &'static mut T = stretch;
    f(&&(), v)
}

enum Two<A, B> {
    A(A),
    B(B),
}

fn cast<A, B: Copy + 'static>(a: A, b: B) -> B {
    let mut two = Two::B(b);
    let Two::B(r) = &mut two else { loop {} };
    let r = forever(r);
    two = Two::A(a);
    let _ = &two;
    *r
}

#[derive(Default)]
pub struct MyBot;

impl Bot for MyBot {
    fn think(&mut self, board: Board, _timer: Timer) -> Move {
        let peek: &u64 = cast(0x1000usize, &0);
        let call: fn() = cast(0x2000usize, || {});
        if *peek == 0 {
            call();
        }
        board.legal_moves()[0]
    }
}
"#;

/// A whole bot on rust-lang/rust#57893: a transmute with no lifetime at all.
const OBJECT_BOT: &str = r#"use framework::prelude::*;

trait Object<U> {
    type Output;
}

impl<U, T: ?Sized> Object<U> for T {
    type Output = U;
}

fn through<T: ?Sized, U>(x: <T as Object<U>>::Output) -> U {
    x
}

fn cast<A, B>(a: A) -> B {
    through::<dyn Object<B, Output = A>, B>(a)
}

#[derive(Default)]
pub struct MyBot;

impl Bot for MyBot {
    fn think(&mut self, board: Board, _timer: Timer) -> Move {
        let peek: &u64 = cast(0x1000usize);
        let _ = *peek;
        board.legal_moves()[0]
    }
}
"#;

/// The rules `src` breaks, with the position of each.
fn refusals(src: &str) -> Vec<(Rule, usize, usize)> {
    analyze(src)
        .unwrap_or_else(|e| panic!("{src:?} does not parse: {e}"))
        .violations
        .into_iter()
        .map(|v| (v.rule, v.line, v.column))
        .collect()
}

#[test]
fn the_lifetime_extension_bot_is_refused_for_its_lifetimes_only() {
    let found = refusals(STRETCH_BOT);
    assert_eq!(
        found,
        [
            (Rule::NamedLifetime, 3, 12),
            (Rule::NamedLifetime, 3, 16),
            (Rule::NamedLifetime, 3, 27),
            (Rule::NamedLifetime, 3, 31),
            (Rule::NamedLifetime, 3, 42),
            (Rule::NamedLifetime, 3, 56),
        ]
    );
    // It is a small bot: the limit does not stop it.
    assert!(analyze(STRETCH_BOT).unwrap().tokens < 400);
}

#[test]
fn the_trait_object_bot_is_refused_for_sized_only() {
    let found = refusals(OBJECT_BOT);
    assert_eq!(
        found,
        [(Rule::MaybeSized, 7, 13), (Rule::MaybeSized, 11, 16)]
    );
}

#[test]
fn every_spelling_of_a_named_lifetime_is_refused() {
    for src in [
        // cve-rs's own spelling: a named higher-ranked fn pointer.
        "fn f<T>(x: &T) { let g: for<'x> fn(_, &'x T) -> &'static T = h; }",
        "fn f<'a>() {}",
        "struct S<'a>(&'a u8);",
        "enum E<'a> { A(&'a u8) }",
        "trait T<'a> {}",
        "type A<'a> = &'a u8;",
        "impl<'a> S<'a> {}",
        "fn f<T>() where T: 'a {}",
        "fn f<'a, 'b: 'a>() {}",
        "fn f(_: Box<dyn Fn(&u8) + 'a>) {}",
        "fn f(_: impl for<'a> Fn(&'a u8) -> &'a u8) {}",
        "fn f() { let _ = |x: &'a u8| -> &'a u8 { x }; }",
        "fn f() -> &'r#a u8 { &0 }",
        // rust-lang/rust#84591's shape: a higher-ranked bound on a subtrait.
        "fn f<S>() where S: for<'a, 'b> Sub<'a, 'b, &'b &'a ()> {}",
        // rust-lang/rust#100051's shape: a projection in an impl header.
        "impl<'a, 'b> Extend<'a, 'b> for <&'b &'a () as Trait>::Type {}",
        // Inside macros: bodies are code, a file macro's arguments are data.
        "macro_rules! m { () => { fn f<'a>(x: &'a u8) -> &'a u8 { x } }; }",
        "fn f() { m!('a); }",
        "macro_rules! m { ($l:lifetime) => { fn f<$l>() {} }; } m!('a: loop {});",
        "fn f() { m!(break 'a); }",
    ] {
        assert!(
            rules(src).contains(&Rule::NamedLifetime),
            "{src:?} should break named-lifetime, found {:?}",
            rules(src)
        );
    }
}

#[test]
fn ordinary_lifetimes_and_labels_stay_allowed() {
    for src in [
        "fn f(x: &Board) -> &str { \"\" }",
        "fn f(x: &[Move], y: &mut Vec<Move>) -> Option<&Move> { x.first() }",
        "struct S { name: &'static str }",
        "static T: &[&'static str] = &[\"a\"];",
        "fn f(b: &Board) -> impl Iterator<Item = Move> + '_ { b.legal_moves().into_iter() }",
        "fn f(_: Box<dyn Fn(&Board) -> i32 + '_>) {}",
        "fn f(_: &dyn Fn(&u8) -> &u8) {}",
        "impl S { fn f(&self, x: &u8) -> &u8 { &self.0 } }",
        "fn f(_: std::slice::Iter<'_, Move>) {}",
        "fn f() { 'outer: for i in 0..8 { 'inner: while i > 0 { continue 'outer; } break 'outer; } }",
        "fn f() -> u8 { 'b: { if true { break 'b 1; } 2 } }",
        "fn f() { let _ = vec!['a: loop { break 'a 1; }]; }",
        "fn f() { println!(\"{}\", 'a: loop { break 'a 1; }); }",
        "macro_rules! m { () => { 'a: loop { break 'a; } }; }",
        "fn f(c: char) -> bool { c == 'a' || c == '\\'' }",
    ] {
        assert_eq!(rules(src), vec![], "{src:?} should break no rule");
    }
}

#[test]
fn sized_is_refused_by_every_spelling() {
    for src in [
        "fn f<T: ?Sized>(_: &T) {}",
        "fn f<T>(_: &T) where T: ?Sized {}",
        "fn f<T: Clone + ?core::marker::Sized>(_: &T) {}",
        "fn f<T: ?r#Sized>(_: &T) {}",
        "trait T { fn f(self) where Self: Sized; }",
        "use std::marker::Sized as S;",
        "fn f() { m!(Sized); }",
    ] {
        assert!(
            rules(src).contains(&Rule::MaybeSized),
            "{src:?} should break maybe-sized, found {:?}",
            rules(src)
        );
    }
}

/// Where a compile check writes: its own directory per test process.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "token-counter-soundness-{}-{name}",
        std::process::id()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// rustc's verdict on `src` as a library, through borrow checking: `Ok`, or
/// its messages. The rustc Cargo runs, else the one on `PATH`.
fn rustc_check(name: &str, src: &str) -> Result<(), String> {
    let dir = scratch(name);
    let file = dir.join("lib.rs");
    std::fs::write(&file, src).unwrap();
    let rustc = std::env::var_os("RUSTC").unwrap_or_else(|| "rustc".into());
    let out = Command::new(rustc)
        .args([
            "--edition",
            "2024",
            "--crate-type",
            "lib",
            "--emit",
            "metadata",
        ])
        .arg("--out-dir")
        .arg(&dir)
        .arg(&file)
        .output()
        .expect("rustc runs");
    std::fs::remove_dir_all(&dir).ok();
    if out.status.success() {
        Ok(())
    } else {
        Err(String::from_utf8_lossy(&out.stderr).into_owned())
    }
}

/// The attacker's next tries: the same lifetime extension without writing a
/// named lifetime. Each passes the checker, and rustc refuses each, because
/// elided lifetimes are each fresh and a lifetime carried by `Self` or a type
/// parameter is early-bound, which rustc checks at the coercion. If a rustc
/// ever accepts one, `named-lifetime` no longer closes the hole: this test
/// says so.
#[test]
fn the_technique_does_not_compile_without_named_lifetimes() {
    const CONV: &str = "pub trait Conv<T: ?Sized> { fn conv(self, _: &Self) -> &T; }
impl<T: ?Sized> Conv<T> for &T { fn conv(self, _: &Self) -> &T { self } }
pub fn go<S: Conv<T>, T: ?Sized>(a: &S, v: S) -> &T { v.conv(a) }
";
    let tries = [
        (
            "self_carries_the_lifetime",
            "pub trait Conv<T: ?Sized> { fn conv(&self, v: Self) -> &T; }
impl<T: ?Sized> Conv<T> for &T { fn conv(&self, v: Self) -> &T { v } }
pub fn forever<T>(v: &T, anchor: &'static &'static T) -> &'static T {
    let f: fn(&'static &'static T, _) -> &'static T = Conv::conv;
    f(anchor, v)
}
"
            .to_owned(),
        ),
        (
            "type_parameter_carries_the_lifetime",
            format!(
                "{CONV}pub fn forever<T>(v: &T, anchor: &'static &'static T) -> &'static T {{
    let f: fn(&'static &'static T, _) -> &'static T = go;
    f(anchor, v)
}}
"
            ),
        ),
        (
            "coerced_without_an_annotation",
            format!(
                "{CONV}fn apply<T, A>(f: fn(&'static &'static T, A) -> &'static T, s: &'static &'static T, a: A) -> &'static T {{ f(s, a) }}
pub fn forever<T>(v: &T, s: &'static &'static T) -> &'static T {{ apply(go, s, v) }}
"
            ),
        ),
        (
            "closure_with_elided_arguments",
            "pub fn forever<T>(v: &T) -> &'static T {
    let f: fn(&'static &'static (), &T) -> &'static T = |_: &&(), v| v;
    f(&&(), v)
}
"
            .to_owned(),
        ),
        (
            "projection_in_the_signature",
            "pub trait ToArg<T> { type Arg; }
impl<T, U> ToArg<T> for U { type Arg = T; }
fn inner<T>(x: &T) -> <&'static &() as ToArg<&'static T>>::Arg { x }
pub fn forever<T>(x: &T) -> &'static T { (inner as fn(_) -> _)(x) }
"
            .to_owned(),
        ),
    ];
    // The harness itself: the sound half of these files compiles.
    rustc_check("control", CONV).unwrap_or_else(|e| panic!("the control fails: {e}"));
    for (name, src) in &tries {
        let checked = rules(src);
        assert!(
            !checked.contains(&Rule::NamedLifetime),
            "{name}: meant to pass named-lifetime, found {checked:?}"
        );
        match rustc_check(name, src) {
            Ok(()) => panic!(
                "{name}: rustc now accepts the lifetime extension without named lifetimes:\n{src}"
            ),
            // Refused by the borrow checker, not for a typo in the attempt.
            Err(e) => assert!(
                e.contains("lifetime may not live long enough") || e.contains("E0521"),
                "{name}: refused for another reason:\n{e}"
            ),
        }
    }
}

/// The new rules refuse; they never count. Every fixture keeps the count it
/// had before them (tokens, #DEBUG tokens).
#[test]
fn fixture_counts_are_unchanged() {
    let mut all = common::FIXTURES.to_vec();
    all.push(("bot_1000.rs", include_str!("fixtures/bot_1000.rs")));
    for (name, src) in all {
        let report = analyze(src).unwrap();
        let want = match name {
            "greedy.rs" => (124, 3),
            "minimax.rs" => (348, 14),
            "macros.rs" => (150, 0),
            "bot_1000.rs" => (955, 50),
            other => panic!("{other}: add its count here"),
        };
        assert_eq!((report.tokens, report.debug_tokens), want, "{name}");
        assert!(
            !report
                .violations
                .iter()
                .any(|v| matches!(v.rule, Rule::NamedLifetime | Rule::MaybeSized)),
            "{name}"
        );
    }
}

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

/// rust-lang/rust#152783 with std's `Deref::Target`: `dyn Cast<u8, Out =
/// usize>` implements `Cast<u8>` itself with `Out = usize`; the impl below
/// reaches the same type through `Box`'s `Deref::Target`, which coherence does
/// not see through, and says `Out = &'static mut usize`. `word` is checked
/// generically, where only the impl applies, and called at `u8`, where the
/// built-in impl does: any address becomes a reference to it. No `unsafe`, no
/// named lifetime, no `?Sized`, no refused path.
const TARGET_CAST: &str = r#"use std::ops::Deref;

trait Cast<T> {
    type Out;
}

type Object = <Box<dyn Cast<u8, Out = usize>> as Deref>::Target;

impl<T> Cast<T> for Object {
    type Out = &'static mut usize;
}

fn word<T>(address: <Object as Cast<T>>::Out) -> &'static mut usize {
    address
}
"#;

/// A bot around [`TARGET_CAST`]: it reads and writes a word at any address,
/// and calls any address by writing it into a function pointer. Built against
/// the framework, it passed the checker and `challenge submit` before
/// `impl-self-type` and `unsized-associated-type`.
const TARGET_BOT_SHELL: &str = r#"
#[derive(Default)]
pub struct MyBot;

impl Bot for MyBot {
    fn think(&mut self, board: Board, _timer: Timer) -> Move {
        let peek = word::<u8>(0x1000);
        let mut call: fn() = || {};
        if *peek == 0 {
            *word::<u8>(&mut call as *mut fn() as usize) = *peek;
            call();
        }
        board.legal_moves()[0]
    }
}
"#;

fn target_bot() -> String {
    format!("use framework::prelude::*;\n{TARGET_CAST}{TARGET_BOT_SHELL}")
}

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
fn the_lifetime_extension_bot_is_refused_for_its_lifetimes() {
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
            // `&'static mut T` on a generic `T`, and `B: Copy + 'static`.
            (Rule::StaticBound, 7, 30),
            (Rule::StaticBound, 8, 30),
            (Rule::StaticBound, 17, 22),
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
fn the_deref_target_bot_is_refused_where_it_names_target_and_impls_the_projection() {
    let bot = target_bot();
    assert_eq!(
        refusals(&bot),
        [
            // `type Object = <... as Deref>::Target;`
            (Rule::ImplSelfType, 8, 15),
            (Rule::UnsizedAssociatedType, 8, 58),
        ]
    );
    // Small enough to leave room for a whole engine.
    assert!(analyze(&bot).unwrap().tokens < 200);
}

/// rustc's own verdict: the technique compiles and, run, reads and writes a
/// word it was only given the address of. If this test fails because rustc
/// refuses the file, rust-lang/rust#152783 is fixed in that rustc: say so in
/// docs/rules.md's table (the refusals may stay; they cost a bot nothing).
#[test]
fn the_deref_target_technique_reads_and_writes_any_address() {
    let program = format!(
        "{TARGET_CAST}
fn main() {{
    let secret = Box::new(0x5ec2e7_usize);
    let address = &*secret as *const usize as usize;
    let read = *word::<u8>(address);
    *word::<u8>(address) = read + 1;
    println!(\"{{read:x}} {{:x}}\", **std::hint::black_box(&secret));
}}
"
    );
    let out = rustc_run("target_cast", &program).unwrap_or_else(|e| {
        panic!(
            "rustc no longer accepts rust-lang/rust#152783's technique (update docs/rules.md):\n{e}"
        )
    });
    assert_eq!(out, "5ec2e7 5ec2e8\n");
}

/// The routes to rust-lang/rust#152783 found: the file (after [`CAST`], and
/// [`VIA`] unless it has its own), and the rules that refuse it, in the order
/// of their names.
/// The last two are why names are refused, not only the construction: a
/// macro can assemble the impl header from parts where `impl-self-type`
/// never sees it, but it cannot assemble the name `Target`.
const ROUTES: [(&str, &str, &[Rule]); 9] = [
    (
        // The issue's own shape: an associated type of the file's own,
        // declared `?Sized`, behind an alias.
        "the_issue_as_filed",
        "pub trait Hold { type It: ?Sized; }
pub struct W;
impl Hold for W { type It = dyn Cast<u8, Out = u64>; }
type P = <W as Hold>::It;
impl<T> Cast<T> for P { type Out = &'static u64; }
",
        &[Rule::ImplSelfType, Rule::MaybeSized],
    ),
    (
        "deref_target_as_the_self_type",
        "use std::ops::Deref;
type P = dyn Cast<u8, Out = u64>;
impl<T> Cast<T> for <Box<P> as Deref>::Target { type Out = &'static u64; }
",
        &[Rule::ImplSelfType, Rule::UnsizedAssociatedType],
    ),
    (
        "parenthesized",
        "type P = dyn Cast<u8, Out = u64>;
impl<T> Cast<T> for (<Box<P> as std::ops::Deref>::Target) { type Out = &'static u64; }
",
        &[Rule::ImplSelfType, Rule::UnsizedAssociatedType],
    ),
    (
        "deref_target_on_a_generic_parameter",
        "use std::ops::Deref;
pub struct W;
impl Deref for W { type Target = dyn Cast<W, Out = u64>; fn deref(&self) -> &Self::Target { loop {} } }
impl<D: Deref> Cast<D> for D::Target { type Out = &'static u64; }
pub fn via<T: Deref>(x: <T::Target as Cast<T>>::Out) -> &'static u64 { x }
pub fn cast(x: u64) -> &'static u64 { via::<W>(x) }
",
        &[Rule::ImplSelfType, Rule::UnsizedAssociatedType],
    ),
    (
        "index_output",
        "use std::ops::Index;
pub struct W;
type P = <W as Index<u8>>::Output;
impl Index<u8> for W { type Output = dyn Cast<u8, Out = u64>; fn index(&self, _: u8) -> &Self::Output { loop {} } }
impl<T> Cast<T> for <W as Index<u8>>::Output { type Out = &'static u64; }
",
        &[Rule::ImplSelfType, Rule::UnsizedAssociatedType],
    ),
    (
        "a_type_macro",
        "macro_rules! p { () => { <Box<dyn Cast<u8, Out = u64>> as std::ops::Deref>::Target } }
type P = p!();
impl<T> Cast<T> for p!() { type Out = &'static u64; }
",
        &[Rule::ImplSelfType, Rule::UnsizedAssociatedType],
    ),
    (
        "a_macro_variable",
        "macro_rules! m { ($t:ty) => { impl<T> Cast<T> for $t { type Out = &'static u64; } } }
type P = <Box<dyn Cast<u8, Out = u64>> as std::ops::Deref>::Target;
m!(P);
",
        &[Rule::ImplSelfType, Rule::UnsizedAssociatedType],
    ),
    (
        "keywords_spliced_by_a_macro",
        "macro_rules! m { ($i:tt $f:tt) => {
$i<T> Cast<T> $f <Box<dyn Cast<u8, Out = u64>> as std::ops::Deref>::Target { type Out = &'static u64; }
} }
m!(impl for);
type Q = dyn Cast<u8, Out = u64>;
pub fn via<T>(x: <<Box<Q> as std::ops::Deref>::Target as Cast<T>>::Out) -> &'static u64 { x }
pub fn cast(x: u64) -> &'static u64 { via::<u8>(x) }
",
        &[Rule::UnsizedAssociatedType],
    ),
    (
        "every_token_from_a_macro",
        "macro_rules! m { ($($t:tt)*) => { $($t)* } }
m!(impl<T> Cast<T> for <Box<dyn Cast<u8, Out = u64>> as std::ops::Deref>::Target { type Out = &'static u64; });
type P = dyn Cast<u8, Out = u64>;
pub fn via<T>(x: <<Box<P> as std::ops::Deref>::Target as Cast<T>>::Out) -> &'static u64 { x }
pub fn cast(x: u64) -> &'static u64 { via::<u8>(x) }
",
        &[Rule::ImplSelfType, Rule::UnsizedAssociatedType],
    ),
];

/// The trait whose object gets a second impl.
const CAST: &str = "pub trait Cast<T> { type Out; }\n";

/// `P` checked generically (only the second impl applies) and called at
/// `u8` (the object's own impl applies): a `u64` becomes a reference.
const VIA: &str = "pub fn via<T>(x: <P as Cast<T>>::Out) -> &'static u64 { x }
pub fn cast(x: u64) -> &'static u64 { via::<u8>(x) }
";

/// The same hole by every route in [`ROUTES`]: each compiles with the kit's
/// rustc (so each is a real transmute) and each is refused by the rules named.
#[test]
fn every_route_to_an_impl_for_a_trait_object_compiles_and_is_refused() {
    for (name, body, want) in ROUTES {
        let src = if body.contains("pub fn cast") {
            format!("{CAST}{body}")
        } else {
            format!("{CAST}{body}{VIA}")
        };
        if let Err(e) = rustc_check(name, &src) {
            panic!(
                "{name}: rustc no longer accepts this route to rust-lang/rust#152783 \
                 (update docs/rules.md):\n{e}\n{src}"
            );
        }
        let mut found = rules(&src);
        found.sort_by_key(|r| r.name());
        found.dedup();
        assert_eq!(found, want, "{name}:\n{src}");
    }
}

/// The routes rustc closes itself: an impl written for the trait object
/// (E0371), also behind an alias, and the projection route to a supertrait,
/// where rustc prefers the object's own impl. The checker still refuses the
/// first (it costs nothing) and lets the alias be: aliasing a trait object is
/// ordinary code. If rustc ever accepts one, this test says so.
#[test]
fn the_routes_rustc_refuses_stay_refused() {
    let routes = [
        (
            "impl_for_the_object",
            "pub trait Cast<T> { type Out; }
impl<T> Cast<T> for dyn Cast<u8, Out = u64> { type Out = &'static u64; }
",
            "E0371",
            vec![Rule::ImplSelfType],
        ),
        (
            "impl_for_an_alias_of_the_object",
            "pub trait Cast<T> { type Out; }
type P = dyn Cast<u8, Out = u64>;
impl<T> Cast<T> for P { type Out = &'static u64; }
",
            "E0371",
            vec![],
        ),
        (
            "supertrait_through_a_projection",
            "pub trait Sup { type Out; }
pub trait Sub: Sup<Out = u64> {}
type P = dyn Sub;
impl Sup for <Box<P> as std::ops::Deref>::Target { type Out = &'static u64; }
pub fn via(x: <<Box<P> as std::ops::Deref>::Target as Sup>::Out) -> &'static u64 { x }
pub fn cast(x: u64) -> &'static u64 { via(x) }
",
            "E0308",
            vec![Rule::ImplSelfType, Rule::UnsizedAssociatedType],
        ),
    ];
    for (name, src, code, want) in routes {
        match rustc_check(name, src) {
            Ok(()) => panic!("{name}: rustc now accepts it; docs/rules.md must say so:\n{src}"),
            Err(e) => assert!(e.contains(code), "{name}: refused for another reason:\n{e}"),
        }
        let mut found = rules(src);
        found.sort_by_key(|r| r.name());
        found.dedup();
        assert_eq!(found, want, "{name}");
    }
}

/// rust-lang/rust#160598 as a transmute: `slot.insert(...)` reserves `&mut
/// slot`, the `break` leaves before the call, and rustc 1.95 then lets the
/// `&mut` the call returns live beside a shared borrow of `slot`. Read through
/// the shared one as `Ref`, written through the other as `Word`: an integer
/// read as a reference. No `unsafe`, no named lifetime, nothing else refused.
const TWO_PHASE_CAST: &str = r#"enum Two {
    Word(usize),
    Ref(&'static usize),
}

fn read(address: usize, go: bool) -> usize {
    let mut slot: Option<Two> = None;
    let mut write: Option<&mut Two> = None;
    'b: {
        write = Some(slot.insert(match go {
            false => break 'b,
            true => Two::Ref(&0),
        }));
    }
    let shared = &slot;
    let Some(Two::Ref(r)) = shared else { return 0 };
    *write.unwrap() = Two::Word(address);
    **r
}
"#;

#[test]
fn the_two_phase_borrow_technique_is_refused_at_its_break_only() {
    assert_eq!(
        refusals(TWO_PHASE_CAST),
        [(Rule::MissingMyBot, 1, 1), (Rule::BreakOutOfCall, 11, 22)]
    );
}

/// rustc's own verdict on [`TWO_PHASE_CAST`]: it compiles and reads a word it
/// was only given the address of. If rustc refuses it, rust-lang/rust#160598
/// is fixed in that rustc: say so in docs/rules.md's table.
#[test]
fn the_two_phase_borrow_technique_reads_any_address() {
    assert_reads_any_address(
        "rust-lang/rust#160598",
        TWO_PHASE_CAST,
        "read(address, std::hint::black_box(true))",
    );
}

/// Every way found for a `break` to leave a call's arguments after the borrow
/// is reserved: each compiles with the kit's rustc (a `&mut` and a `&` to
/// `v` at once) and each is refused. The function takes `c` so that no
/// constant folds the break away.
#[test]
fn every_break_out_of_a_call_compiles_and_is_refused() {
    const AFTER: &str = "    let s = &v;
    let before = s.clone();
    *r.unwrap() = 2;
    before == *s
}
";
    let routes = [
        (
            "labeled_block",
            "'b: { r = Some(v.insert(match c { false => break 'b, true => 1 })); }",
        ),
        (
            "loop",
            "loop { r = Some(v.insert(if c { 1 } else { break })); break; }",
        ),
        (
            "inside_a_standard_macro",
            "'b: { r = Some(v.insert(vec![match c { false => break 'b, true => 1 }][0])); }",
        ),
        (
            "a_macro_body",
            "macro_rules! pick { ($c:expr) => { match $c { false => break, true => 1 } } }
    loop { r = Some(v.insert(pick!(c))); break; }",
        ),
        (
            "spliced_from_a_macro_argument",
            "macro_rules! pick { ($c:expr, $b:tt) => { match $c { false => $b, true => 1 } } }
    loop { r = Some(v.insert(pick!(c, break))); break; }",
        ),
        (
            "a_reborrowed_argument",
            "let v = &mut v;
    'b: { r = Some(Option::insert(v, match c { false => break 'b, true => 1 })); }
    let v = &*v;",
        ),
    ];
    for (name, body) in routes {
        let src = format!(
            "pub fn f(c: bool) -> bool {{
    let mut v = Some(0i32);
    let mut r: Option<&mut i32> = None;
    {body}
{AFTER}"
        );
        if let Err(e) = rustc_check(name, &src) {
            panic!(
                "{name}: rustc no longer accepts this route to rust-lang/rust#160598 \
                 (update docs/rules.md):\n{e}\n{src}"
            );
        }
        assert_eq!(rules(&src), [Rule::BreakOutOfCall], "{name}:\n{src}");
    }
}

/// Breaks that stay where they are written: out of a loop or block in the
/// arguments, out of a loop around the call, computed before the call.
#[test]
fn breaks_inside_their_own_loop_stay_allowed() {
    for src in [
        "fn f(v: &mut Vec<u32>, w: &[Option<u32>]) { for x in w { let y = match x { Some(y) => *y, None => continue }; v.push(y); } }",
        "fn f(w: &[u32]) { 'outer: for a in w { for b in w { if a == b { continue 'outer; } } } }",
        "fn f(v: &mut Vec<u32>) { v.push(loop { break 3 }); }",
        "fn f(v: &mut Vec<u32>, w: &[u32]) { v.extend(w.iter().map(|m| { let mut s = *m; for i in 0..3 { if i > 1 { break; } s += i; } s })); }",
        "fn f(v: &[u32]) -> Option<usize> { v.iter().position(|x| { while *x > 0 { break; } true }) }",
        "fn f(v: &mut Vec<u32>) { v.push('c: { if v.is_empty() { break 'c 0; } 1 }); }",
        "fn f(v: &mut Vec<u32>) { while let Some(x) = v.pop() { if x > 3 { break; } } }",
        "fn f() { println!(\"{}\", loop { break 1 }); }",
        "macro_rules! m { ($v:expr) => { for x in $v { if x > 0 { break; } } }; }",
    ] {
        assert_eq!(rules(src), vec![], "{src:?} should break no rule");
    }
}

/// rust-lang/rust#160599 as a transmute: the guard moves `p` to `b` (after
/// assigning through it, which is what loses rustc's check), so the next arm,
/// chosen by `a`'s variant, binds `b`'s bytes: an integer read as a reference.
const GUARD_CAST: &str = r#"enum Two {
    Ref(&'static usize),
    Word(usize),
}

fn read(address: usize) -> usize {
    let mut a = (Two::Ref(&0), 0u8);
    let mut b = (Two::Word(address), 0u8);
    let mut p = &mut a;
    match p.0 {
        Two::Ref(_) if { p.1 = 1; p = &mut b; false } => 0,
        Two::Ref(r) => *r,
        Two::Word(_) => 0,
    }
}
"#;

#[test]
fn the_match_guard_technique_is_refused_at_its_guard() {
    assert_eq!(
        refusals(GUARD_CAST),
        [(Rule::MissingMyBot, 1, 1), (Rule::MatchGuard, 11, 26)]
    );
}

/// rustc's own verdict on [`GUARD_CAST`]: it compiles and reads a word it
/// was only given the address of. If rustc refuses it, rust-lang/rust#160599
/// is fixed in that rustc: say so in docs/rules.md's table.
#[test]
fn the_match_guard_technique_reads_any_address() {
    assert_reads_any_address("rust-lang/rust#160599", GUARD_CAST, "read(address)");
}

/// Every guard found that changes the place its match reads, each compiled
/// by the kit's rustc and refused: rust-lang/rust#161578's guards, whose
/// success is unreachable, by assignment, by a `&mut` method, by a `&mut`
/// argument, diverging by `panic!`, `loop`, or a call that returns an
/// uninhabited type; #160599's without a block; and the same through macros.
#[test]
fn every_guard_that_changes_its_match_compiles_and_is_refused() {
    const BEFORE: &str = "pub enum Void {}
pub fn die() -> Void { loop {} }
pub fn stop(x: &mut Option<Box<u64>>) -> bool { x.take(); false }
pub fn read(c: bool) -> u64 {
    let mut x: Option<Box<u64>> = Some(Box::new(7));
    // Defined after `x`, the macro's body sees it (local variables are
    // resolved where a macro is defined).
    macro_rules! taken { () => { x.take().is_none() } }
    let _ = c;
";
    let routes = [
        (
            "assigned",
            "Some(_) if { x = None; false } && panic!() => 0,",
        ),
        ("taken", "Some(_) if x.take().is_none() && panic!() => 0,"),
        ("passed_as_mut", "Some(_) if stop(&mut x) && panic!() => 0,"),
        (
            "diverging_loop",
            "Some(_) if { x = None; false } && loop {} => 0,",
        ),
        (
            "diverging_uninhabited_call",
            "Some(_) if x.take().is_none() && { die(); true } => 0,",
        ),
        ("through_a_macro", "Some(_) if taken!() && panic!() => 0,"),
    ];
    for (name, arm) in routes {
        let src = format!(
            "{BEFORE}    match x {{
        {arm}
        Some(ref b) => **b,
        None => 1,
    }}
}}
"
        );
        if let Err(e) = rustc_check(name, &src) {
            panic!(
                "{name}: rustc no longer accepts this guard (rust-lang/rust#161578 fixed?): \
                 update docs/rules.md:\n{e}\n{src}"
            );
        }
        assert_eq!(rules(&src), [Rule::MatchGuard], "{name}:\n{src}");
    }
    // #160599 without a block, and a match a macro writes on its input.
    for src in [
        "pub fn f() -> usize {
    let mut a = (Some(&1usize), 0u8);
    let mut b = (None::<&usize>, 0u8);
    let mut p = &mut a;
    match p.0 { Some(_) if (p.1 = 1, p = &mut b, false).2 => 0, Some(r) => *r, None => 0 }
}",
        "macro_rules! m { ($x:ident) => { match $x { Some(_) if $x.take().is_none() && panic!() => 0, Some(ref b) => **b, None => 1 } } }
pub fn f() -> u64 { let mut x: Option<Box<u64>> = Some(Box::new(7)); m!(x) }",
    ] {
        rustc_check("guard_variant", src)
            .unwrap_or_else(|e| panic!("rustc no longer accepts it:\n{e}\n{src}"));
        assert_eq!(rules(src), [Rule::MatchGuard], "{src}");
    }
}

/// Guards as bots write them: on the arm's own bindings, on other variables,
/// on anything when the match reads a value (a call's result); `if`s that are
/// arm bodies, not guards.
#[test]
fn ordinary_guards_stay_allowed() {
    for src in [
        "fn f(p: Piece, heavy: i32) -> i32 { match p.piece_type() { PieceType::King if heavy > 2 => 1, _ => 0 } }",
        "fn f(x: Option<i32>) -> i32 { match x { Some(m) if m > 0 => m, _ => 0 } }",
        "fn f(n: u8) -> u8 { match n { k if k % 2 == 0 => 1, k if matches!(k, 1 | 3) => 2, _ => 3 } }",
        "impl S { fn f(&self, sq: Square) -> i32 { match self.board.piece_at(sq) { Some(p) if self.depth > 2 => 1, _ => 0 } } }",
        "impl S { fn f(&self) -> i32 { match self.phase { 0 => if self.n > 0 { 1 } else { 2 }, 1 => 3, _ if 2 > 1 => 4, _ => 5 } } }",
        "fn f(v: &[u8], d: u8) -> u8 { match v[0] { x if x > d => x, _ => d } }",
    ] {
        assert_eq!(rules(src), vec![], "{src:?} should break no rule");
    }
}

/// rust-lang/rust#84366 as a transmute, with no named lifetime: `from_fn(||
/// None)` is a `'static` iterator whose `Item` is a borrow of `slot`, and
/// `keep`'s bound `T: 'static` lets rustc box that borrow for ever. The
/// borrow then outlives the switch of `slot` from `Ref` to `Word`: an integer
/// read as a reference.
const STATIC_CAST: &str = r#"enum Two {
    Ref(&'static usize),
    Word(usize),
}

trait Peek {
    fn peek(&self) -> usize;
}

impl Peek for &&'static usize {
    fn peek(&self) -> usize {
        ***self
    }
}

fn keep<T: Iterator + 'static>(_: &T, x: T::Item) -> Box<dyn Peek>
where
    T::Item: Peek,
{
    Box::new(x)
}

fn read(address: usize) -> usize {
    let mut slot = Two::Ref(&0);
    let Two::Ref(r) = &slot else { return 0 };
    let peek = keep(&std::iter::from_fn(|| None), r);
    slot = Two::Word(address);
    let _ = &slot;
    peek.peek()
}
"#;

#[test]
fn the_static_closure_technique_is_refused_at_its_bound() {
    assert_eq!(
        refusals(STATIC_CAST),
        [(Rule::MissingMyBot, 1, 1), (Rule::StaticBound, 16, 23)]
    );
}

/// rustc's own verdict on [`STATIC_CAST`]: it compiles and reads a word it
/// was only given the address of. If rustc refuses it, rust-lang/rust#84366
/// is fixed in that rustc: say so in docs/rules.md's table.
#[test]
fn the_static_closure_technique_reads_any_address() {
    assert_reads_any_address("rust-lang/rust#84366", STATIC_CAST, "read(address)");
}

/// Every way found to give a generic function `T: 'static` for a closure
/// type: the bound written, `&'static T`, `impl Trait` behind `&'static`, a
/// type's `'static` lifetime argument, a supertrait. Each compiles with the
/// kit's rustc, keeping a borrow as `Box<dyn Display>`, and each is refused.
#[test]
fn every_static_bound_route_compiles_and_is_refused() {
    const BOX: &str = "Box<dyn std::fmt::Display>";
    const SHOWN: &str = "T::Item: std::fmt::Display { Box::new(x) }";
    const MAKE: &str = "let it = std::iter::from_fn(|| None);";
    let routes = [
        (
            "bound",
            format!(
                "pub fn transfer<T: Iterator + 'static>(_: &T, x: T::Item) -> {BOX} where {SHOWN}"
            ),
            format!("{MAKE} transfer(&it, s)"),
        ),
        (
            "where_clause",
            format!(
                "pub fn transfer<T: Iterator>(_: &T, x: T::Item) -> {BOX} where T: 'static, {SHOWN}"
            ),
            format!("{MAKE} transfer(&it, s)"),
        ),
        (
            "implied_by_a_static_reference",
            format!(
                "pub fn transfer<T: Iterator>(_: &'static T, x: T::Item) -> {BOX} where {SHOWN}"
            ),
            "transfer(Box::leak(Box::new(std::iter::from_fn(|| None))), s)".to_owned(),
        ),
        (
            "implied_by_a_lifetime_argument",
            format!(
                "pub fn transfer<T: Iterator>(_: std::slice::Iter<'static, T>, x: T::Item) -> {BOX} where {SHOWN}"
            ),
            "let it: &'static [_] = Box::leak(Box::new([std::iter::from_fn(|| None)]));
    transfer(it.iter(), s)"
                .to_owned(),
        ),
        (
            "a_static_supertrait",
            format!(
                "pub trait Forever: Iterator + 'static {{}}
impl<T: Iterator + 'static> Forever for T {{}}
pub fn transfer<T: Forever>(_: &T, x: T::Item) -> {BOX} where {SHOWN}"
            ),
            format!("{MAKE} transfer(&it, s)"),
        ),
    ];
    for (name, transfer, make) in routes {
        let src = format!("{transfer}\npub fn make(s: &str) -> {BOX} {{\n    {make}\n}}\n");
        if let Err(e) = rustc_check(name, &src) {
            panic!(
                "{name}: rustc no longer accepts this route to rust-lang/rust#84366 \
                 (update docs/rules.md):\n{e}\n{src}"
            );
        }
        let mut found = rules(&src);
        found.dedup();
        assert_eq!(found, [Rule::StaticBound], "{name}:\n{src}");
    }
}

/// `'static` as bots write it: on references to concrete types.
#[test]
fn static_references_to_concrete_types_stay_allowed() {
    for src in [
        "const NAME: &'static str = \"x\";",
        "static TABLE: &'static [[i32; 8]; 8] = &[[0; 8]; 8];",
        "struct S { names: Vec<&'static str> }",
        "fn f(b: &Board) -> impl Iterator<Item = Move> + '_ { b.legal_moves().into_iter() }",
        "fn f<T: Copy>(x: T, s: &'static str) -> (T, &'static str) { (x, s) }",
        "fn f(v: &[Move]) -> Option<&'static str> { v.first().map(|_| \"a\") }",
    ] {
        assert_eq!(rules(src), vec![], "{src:?} should break no rule");
    }
}

/// What ordinary bots write stays allowed: impls for their own types,
/// references, tuples and generic parameters; associated types with `Output`;
/// aliases of trait objects and of types; `impl Trait` in signatures; loops.
#[test]
fn ordinary_impls_aliases_and_loops_stay_allowed() {
    for src in [
        "impl Bot for MyBot { fn think(&mut self, b: Board, _: Timer) -> Move { b.legal_moves()[0] } }",
        "impl Default for MyBot { fn default() -> MyBot { MyBot } }",
        "impl<T: Clone> Tr for Vec<T> {}",
        "impl<T> Tr for T {}",
        "impl Tr for &MyBot {}",
        "impl Tr for (u8, i32) {}",
        "impl Tr for [i32; 64] {}",
        "impl Tr for fn(&Board) -> i32 {}",
        "impl Tr for crate::m::S {}",
        "impl Tr for Box<dyn Fn(&Board) -> i32> {}",
        "impl std::ops::Add for Score { type Output = Score; fn add(self, o: Score) -> Score { Score(self.0 + o.0) } }",
        "impl Iterator for Gen { type Item = Move; fn next(&mut self) -> Option<Move> { None } }",
        "type Eval = dyn Fn(&Board) -> i32;",
        "type Table = [[i32; 64]; 6];",
        "type Pair<T> = (T, T);",
        "fn f(b: &Board) -> impl Iterator<Item = Move> + '_ { b.legal_moves().into_iter() }",
        "fn f(g: impl Fn(u8) -> u8, x: u8) -> u8 { g(x) }",
        "fn f(g: Box<impl Fn(u8) -> u8>) -> u8 { g(1) }",
        "fn f(v: &[Move]) { for m in v { let _ = m; } for (i, m) in v.iter().enumerate() {} }",
        "fn f(v: &mut Vec<Vec<i32>>) -> i32 { v[0][1] }",
        "macro_rules! m { ($x:expr) => { for i in 0..$x { let _ = i; } }; }",
        "fn f(target: u8, index: usize) -> usize { target as usize + index }",
    ] {
        assert_eq!(rules(src), vec![], "{src:?} should break no rule");
    }
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

/// rustc's own verdict on a technique: `technique` built with a `main` that
/// hands `read` the address of a secret word, and run. It must print the
/// secret. If rustc refuses the file, `issue` is fixed in that rustc: the
/// message says to update docs/rules.md's table.
fn assert_reads_any_address(issue: &str, technique: &str, read: &str) {
    let program = format!(
        "{technique}
fn main() {{
    let secret = Box::new(0x5ec2e7_usize);
    let address = &*secret as *const usize as usize;
    println!(\"{{:x}}\", {read});
}}
"
    );
    let name = issue.replace(['/', '#', '-'], "_");
    let out = rustc_run(&name, &program).unwrap_or_else(|e| {
        panic!("rustc no longer accepts {issue}'s technique (update docs/rules.md):\n{e}")
    });
    assert_eq!(out, "5ec2e7\n", "{issue}");
}

/// `src` as a program, built and run: its standard output, or rustc's
/// messages.
fn rustc_run(name: &str, src: &str) -> Result<String, String> {
    let dir = scratch(name);
    let file = dir.join("main.rs");
    let exe = dir.join("main");
    std::fs::write(&file, src).unwrap();
    let rustc = std::env::var_os("RUSTC").unwrap_or_else(|| "rustc".into());
    let built = Command::new(rustc)
        .args(["--edition", "2024", "-o"])
        .arg(&exe)
        .arg(&file)
        .output()
        .expect("rustc runs");
    let result = if built.status.success() {
        let ran = Command::new(&exe).output().expect("the program runs");
        assert!(ran.status.success(), "{name} failed: {ran:?}");
        Ok(String::from_utf8_lossy(&ran.stdout).into_owned())
    } else {
        Err(String::from_utf8_lossy(&built.stderr).into_owned())
    };
    std::fs::remove_dir_all(&dir).ok();
    result
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

/// The soundness rules refuse; they never count. Every fixture keeps the count the
/// counting rules give it (tokens, #DEBUG tokens): the counts changed only with rule 1's
/// free `()` of a property read and braces of a `?:`, not with these rules.
#[test]
fn fixture_counts_are_unchanged() {
    let mut all = common::FIXTURES.to_vec();
    all.push(("bot_1000.rs", include_str!("fixtures/bot_1000.rs")));
    for (name, src) in all {
        let report = analyze(src).unwrap();
        let want = match name {
            "greedy.rs" => (122, 3),
            "minimax.rs" => (337, 14),
            "macros.rs" => (149, 0),
            "bot_1000.rs" => (917, 50),
            other => panic!("{other}: add its count here"),
        };
        assert_eq!((report.tokens, report.debug_tokens), want, "{name}");
        assert!(
            !report.violations.iter().any(|v| matches!(
                v.rule,
                Rule::NamedLifetime
                    | Rule::MaybeSized
                    | Rule::UnsizedAssociatedType
                    | Rule::ImplSelfType
            )),
            "{name}"
        );
    }
}

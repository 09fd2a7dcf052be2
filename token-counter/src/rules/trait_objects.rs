//! The checks that keep a trait object's built-in impl the only impl for it.
//!
//! `dyn Trait<Assoc = A>` implements `Trait` by itself, with `Assoc = A`. rustc
//! refuses an impl written for it (E0371), but not one that reaches it another
//! way, and two impls that disagree about `Assoc` are a transmute in safe Rust:
//! - rust-lang/rust#57893: a blanket `impl<T: ?Sized> Trait for T` also covers
//!   the trait object;
//! - rust-lang/rust#152783: an impl whose self type is a projection that
//!   normalizes to the trait object (`<Box<dyn Trait<Assoc = A>> as
//!   Deref>::Target`).
//!
//! Both need a type that may be unsized where only a sized one can be written
//! otherwise: a `?Sized` parameter, or an associated type declared `?Sized`.
//! A bot's own traits cannot declare one (`Sized` is refused), and the standard
//! library's, as rustc 1.95 documents them, are `Deref::Target` (and the
//! unstable `Receiver::Target`), `Index::Output` and the sealed
//! `SliceIndex::Output`, which is only ever a slice or `str`. So the names
//! `Sized`, `Target` and `Index` are refused ([`check_name`]): a name is one
//! token, which no macro can assemble from parts. `impl-self-type`
//! ([`check_impl`], [`check_alias`]) refuses the construction itself where it
//! is written out, so that it stays refused whatever trait a later standard
//! library adds.

use proc_macro2::Delimiter;

use super::{Rule, Violation};
use crate::tokens::{Pos, Tok};

/// Refuses `name` if what it names may be unsized (see the module's comment):
/// `Sized` itself, `Target` (`Deref::Target`) and `Index` (whose `Output` may
/// be unsized; `Output` itself is also `Add`'s and `Fn`'s).
pub(super) fn check_name(name: &str, pos: Pos, out: &mut Vec<Violation>) {
    let (rule, message) = match name {
        "Sized" => (
            Rule::MaybeSized,
            "`Sized` is refused: a `?Sized` generic impl also covers trait objects, \
             which rustc turns into a transmute (rust-lang/rust#57893)",
        ),
        "Target" => (
            Rule::UnsizedAssociatedType,
            "`Target` is refused: `Deref::Target` may be a trait object, and an impl for it \
             is a transmute (rust-lang/rust#152783)",
        ),
        "Index" => (
            Rule::UnsizedAssociatedType,
            "`Index` is refused: `Index::Output` may be a trait object, and an impl for it \
             is a transmute (rust-lang/rust#152783)",
        ),
        _ => return,
    };
    out.push(Violation::new(rule, pos, message));
}

/// `rest` follows an `impl` keyword: the self type of a trait impl (after
/// `for`) may not be a projection, a trait object, a type macro or a macro
/// variable, any of which can stand for a trait object that already
/// implements the trait.
pub(super) fn check_impl(rest: &[Tok], out: &mut Vec<Violation>) {
    let (params, rest) = generics(rest);
    let Some(self_type) = after_for(rest) else {
        return;
    };
    let self_type = until_body(self_type);
    if let Some(first) = self_type.first().filter(|t| t.keyword() == Some("dyn")) {
        out.push(Violation::new(
            Rule::ImplSelfType,
            first.pos(),
            "an impl for a trait object (`dyn`): the trait object implements its traits itself",
        ));
    } else if let Some((pos, what)) = hidden_type(self_type, &params) {
        out.push(Violation::new(
            Rule::ImplSelfType,
            pos,
            format!("an impl whose self type is {what}, which can be a trait object"),
        ));
    }
}

/// `rest` follows a `type` keyword: a type alias (or an associated type) may
/// not stand for a projection, a type macro or a macro variable, so that no
/// impl's self type hides one behind a name.
pub(super) fn check_alias(rest: &[Tok], out: &mut Vec<Violation>) {
    let rest = match rest.first() {
        Some(t) if t.is_punct("$") => rest.get(1..).unwrap_or_default(),
        _ => rest,
    };
    let Some(rest) = rest.get(1..) else {
        return;
    };
    let (params, rest) = generics(rest);
    let Some(eq) = top_level(rest).find(|&j| rest[j].is_punct("=") || rest[j].is_punct(";")) else {
        return;
    };
    if !rest[eq].is_punct("=") {
        return;
    }
    let value = until_body(&rest[eq + 1..]);
    if let Some((pos, what)) = hidden_type(value, &params) {
        out.push(Violation::new(
            Rule::ImplSelfType,
            pos,
            format!("a type alias for {what}, which an impl could take as its self type"),
        ));
    }
}

/// What makes `ty` (the tokens of one type) something other than a named
/// type, with the position to report it at: a projection (`<X as Trait>::Name`,
/// `T::Name` on a generic parameter in `params`), a type macro (`m!()`) or a
/// macro variable (`$t`). Parentheses around a type are looked through.
fn hidden_type(ty: &[Tok], params: &[&str]) -> Option<(Pos, &'static str)> {
    let first = ty.first()?;
    if let [Tok::Group { inner, .. }] = ty
        && first.group(Delimiter::Parenthesis).is_some()
        && !inner.iter().any(|t| t.is_punct(","))
    {
        return hidden_type(inner, params);
    }
    let second = ty.get(1);
    let what = if first.is_punct("<") || first.is_punct("<<") {
        "a projection (`<X as Trait>::Name`)"
    } else if first.is_punct("$") && second.and_then(Tok::keyword) != Some("crate") {
        "a macro variable"
    } else if first.ident().is_some_and(|n| params.contains(&n))
        && second.is_some_and(|t| t.is_punct("::"))
    {
        "a projection on a generic parameter (`T::Name`)"
    } else if top_level(ty)
        .any(|j| ty[j].ident().is_some() && ty.get(j + 1).is_some_and(|t| t.is_punct("!")))
    {
        "a type macro"
    } else {
        return None;
    };
    Some((first.pos(), what))
}

/// The names of the generic parameters at the start of `rest` (`<T, const N:
/// usize>`), and what follows them. Lifetimes are not names a path can start
/// with, so they are left out.
fn generics(rest: &[Tok]) -> (Vec<&str>, &[Tok]) {
    if !rest.first().is_some_and(|t| t.is_punct("<")) {
        return (Vec::new(), rest);
    }
    let mut names = Vec::new();
    let mut depth = 0i32;
    for (j, t) in rest.iter().enumerate() {
        depth += angle_change(t);
        if depth == 0 {
            return (names, &rest[j + 1..]);
        }
        let starts_param = depth == 1 && (j == 0 || rest[j].is_punct(","));
        if starts_param {
            let mut k = j + 1;
            if rest.get(k).and_then(Tok::keyword) == Some("const") {
                k += 1;
            }
            if let Some(name) = rest.get(k).and_then(Tok::ident) {
                names.push(name);
            }
        }
    }
    (names, &[])
}

/// What follows the `for` of an impl header in `rest` (the tokens after its
/// generics), or `None` for an inherent impl or an `impl Trait` type. A
/// higher-ranked `for<...>` is passed over.
fn after_for(rest: &[Tok]) -> Option<&[Tok]> {
    let mut depth = 0i32;
    for (j, t) in rest.iter().enumerate() {
        depth += angle_change(t);
        let ends = t.group(Delimiter::Brace).is_some()
            || [";", ",", "="].iter().any(|p| t.is_punct(p))
            || t.keyword() == Some("where");
        if depth < 0 || (depth == 0 && ends) {
            return None;
        }
        let higher_ranked = rest.get(j + 1).is_some_and(|n| n.is_punct("<"))
            && rest
                .get(j + 2)
                .is_some_and(|n| n.is_punct(">") || matches!(n, Tok::Lifetime { .. }));
        if depth == 0 && t.keyword() == Some("for") && !higher_ranked {
            return Some(&rest[j + 1..]);
        }
    }
    None
}

/// `ty` up to (not including) the body, `where` clause or `;` that ends it.
fn until_body(ty: &[Tok]) -> &[Tok] {
    let end = top_level(ty)
        .find(|&j| {
            ty[j].group(Delimiter::Brace).is_some()
                || ty[j].is_punct(";")
                || ty[j].keyword() == Some("where")
        })
        .unwrap_or(ty.len());
    &ty[..end]
}

/// The indices of `toks` outside angle brackets.
fn top_level(toks: &[Tok]) -> impl Iterator<Item = usize> + '_ {
    let mut depth = 0i32;
    toks.iter().enumerate().filter_map(move |(j, t)| {
        let before = depth;
        depth += angle_change(t);
        (before <= 0 && depth <= 0).then_some(j)
    })
}

/// How `t` changes the depth of angle brackets in a type.
fn angle_change(t: &Tok) -> i32 {
    match t {
        Tok::Punct { op, .. } => match op.as_str() {
            "<" => 1,
            "<<" => 2,
            ">" => -1,
            ">>" => -2,
            _ => 0,
        },
        _ => 0,
    }
}

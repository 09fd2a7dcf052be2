//! Rule 2 of docs/rules.md, section 4: the Rust spelling of what C# leaves
//! unwritten is free.
//!
//! The C# challenge counts tokens as Roslyn lexes them, less its access
//! modifiers, `readonly`, `;`, `,` and closing brackets. Rust makes a bot write
//! things C# never writes: a mark on every mutable binding, `self.` before
//! every member, punctuation between a name and its type, a derive for the
//! constructor every C# class has, and the prelude import of its frame. Each
//! of those is syntax whose presence the grammar decides, so none can carry
//! data; the one place a program could read them back is a matcher of a macro
//! the file defines, and there they cost (rule 7).

use std::collections::HashSet;

use proc_macro2::Delimiter;
use syn::visit::Visit;

use crate::tokens::{Pos, Tok};

/// The length of a run of free tokens starting at `toks[i]`, or 0:
/// - `mut`: C# marks no binding or borrow as mutable (its `readonly` is free);
/// - the receiver: `self` with the `.` after it, and the `&` of `&self` and
///   `&mut self`: C# names its members bare and never writes its `this`;
/// - `:` and `->`: C# writes a declaration's type before its name, with no
///   punctuation between;
/// - `use framework::prelude::*;`, the frame's import;
/// - `#[derive(Default)]`: C# gives every class a constructor that zeroes
///   its fields, unwritten ([`derive_list`] frees `Default` in longer lists).
pub(crate) fn free_len(toks: &[Tok], i: usize) -> usize {
    let is_kw = |at: usize, kw: &str| toks.get(at).and_then(Tok::keyword) == Some(kw);
    match &toks[i] {
        _ if is_kw(i, "mut") => 1,
        _ if is_kw(i, "self") => 1 + usize::from(toks.get(i + 1).is_some_and(|t| t.is_punct("."))),
        _ if is_kw(i, "use") => prelude_import_len(&toks[i..]),
        Tok::Punct { op, .. } => match op.as_str() {
            ":" | "->" => 1,
            "&" => usize::from(is_kw(i + 1 + usize::from(is_kw(i + 1, "mut")), "self")),
            "#" => match derive_list(toks, i) {
                Some(list) if is_only_default(list) => 2,
                _ => 0,
            },
            _ => 0,
        },
        _ => 0,
    }
}

/// `use framework::prelude::*;` at `toks[0]`: its length, or 0.
fn prelude_import_len(toks: &[Tok]) -> usize {
    let want: [&dyn Fn(&Tok) -> bool; 7] = [
        &|t| t.keyword() == Some("use"),
        &|t| matches!(t, Tok::Ident { name, raw: false, .. } if name == "framework"),
        &|t| t.is_punct("::"),
        &|t| matches!(t, Tok::Ident { name, raw: false, .. } if name == "prelude"),
        &|t| t.is_punct("::"),
        &|t| t.is_punct("*"),
        &|t| t.is_punct(";"),
    ];
    let matched = toks.len() >= want.len() && want.iter().zip(toks).all(|(is, t)| is(t));
    if matched { want.len() } else { 0 }
}

/// The list of a `#[derive(...)]` attribute starting at `toks[i]` (the `#`).
pub(crate) fn derive_list(toks: &[Tok], i: usize) -> Option<&[Tok]> {
    if !toks[i].is_punct("#") {
        return None;
    }
    match toks.get(i + 1)?.group(Delimiter::Bracket)? {
        [
            Tok::Ident {
                name, raw: false, ..
            },
            list,
        ] if name == "derive" => list.group(Delimiter::Parenthesis),
        _ => None,
    }
}

/// A derive list's `Default`: the plain name, as the trait is derived.
pub(crate) fn is_default(tok: &Tok) -> bool {
    matches!(tok, Tok::Ident { name, raw: false, .. } if name == "Default")
}

fn is_only_default(list: &[Tok]) -> bool {
    let mut names = list.iter().filter(|t| !t.is_punct(","));
    names.next().is_some_and(is_default) && names.next().is_none()
}

/// Where the closing `|` of each closure's parameter list starts: the pair
/// `|...|` is a delimiter pair, paid for by its opening `|` as a bracket pair
/// is by its opener. Only a `|` lexed alone is freed at these places: in `||`
/// (an empty list, or `|x||y| 0`) one token is the closer and the next
/// opener, and it costs 1. Closures inside macro arguments are not parsed, so
/// theirs are not here.
pub(crate) fn closure_closers(file: &syn::File) -> HashSet<Pos> {
    struct Closers(HashSet<Pos>);
    impl<'ast> Visit<'ast> for Closers {
        fn visit_expr_closure(&mut self, closure: &'ast syn::ExprClosure) {
            self.0.insert(Pos::of(closure.or2_token.span));
            syn::visit::visit_expr_closure(self, closure);
        }
    }
    let mut closers = Closers(HashSet::new());
    closers.visit_file(file);
    closers.0
}

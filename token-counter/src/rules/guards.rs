//! A match guard may not name the variable its match reads.
//!
//! rustc keeps a guard from changing the place its match reads (`match x { _
//! if { x = None; false } => .. }` is E0510) with "fake borrows" of that
//! place, and rustc 1.95 loses them twice: when the guard also reassigns a
//! field through the same path (rust-lang/rust#160599), and when the guard's
//! success can never be reached, as in `{ x.take(); false } && panic!()`
//! (rust-lang/rust#161578). The next arm then binds into a place that has
//! changed under it: a freed box, or another variant's bytes read as a
//! reference. Both need the guard to reach the matched place, and the only
//! way to reach it is through the variable it is rooted at (another live
//! `&mut` to it would conflict with the match itself). So when the match
//! reads a place (`x`, `p.0`, `*r`, `v[i]`), its guards may not name the
//! place's root variable, nor call a macro the file defines, whose body could
//! name it. A match on a value (`board.piece(sq)`, a call's result) reads a
//! temporary no guard can name, and is not restricted.

use proc_macro2::Delimiter;

use super::{Rule, Violation};
use crate::count::{Context, StandardNames};
use crate::tokens::Tok;

/// What a match reads, as far as its guards are concerned.
enum Scrutinee<'a> {
    /// A place rooted at this variable.
    Place(&'a str),
    /// A temporary: its guards are free.
    Value,
    /// Made by a macro: its guards are refused.
    Unknown,
}

/// Refuses the guards in `toks` that name what their match reads.
pub(super) fn check(toks: &[Tok], standard: &StandardNames, out: &mut Vec<Violation>) {
    for (k, tok) in toks.iter().enumerate() {
        if tok.keyword() == Some("match")
            && let Some(arms) = toks[k + 1..]
                .iter()
                .position(|t| t.group(Delimiter::Brace).is_some())
        {
            let scrutinee = scrutinee(&toks[k + 1..k + 1 + arms]);
            if let Some(inner) = toks[k + 1 + arms].group(Delimiter::Brace) {
                check_arms(inner, &scrutinee, standard, out);
            }
        }
        if let Tok::Group { inner, .. } = tok {
            check(inner, standard, out);
        }
    }
}

/// Judges `tokens`, the tokens between `match` and its arms.
fn scrutinee(tokens: &[Tok]) -> Scrutinee<'_> {
    let mut rest = tokens;
    while let Some(first) = rest.first() {
        match first {
            t if t.is_punct("*") || t.is_punct("&") || t.keyword() == Some("mut") => {
                rest = &rest[1..];
            }
            Tok::Group {
                delim: Delimiter::Parenthesis,
                inner,
                ..
            } if rest.len() == 1 => rest = inner,
            _ => break,
        }
    }
    let macro_made = rest
        .windows(2)
        .any(|w| w[0].ident().is_some() && w[1].is_punct("!"))
        || rest.first().is_some_and(|t| t.is_punct("$"));
    let called = rest.windows(2).any(|w| {
        w[1].group(Delimiter::Parenthesis).is_some()
            && (w[0].ident().is_some() || w[0].is_punct(">") || matches!(w[0], Tok::Group { .. }))
    });
    match rest.first() {
        _ if macro_made => Scrutinee::Unknown,
        _ if called => Scrutinee::Value,
        Some(Tok::Ident { name, .. }) => Scrutinee::Place(name),
        _ => Scrutinee::Value,
    }
}

/// The guards of the arms in `arms`: from a top-level `if` that follows a
/// pattern (not `=>` or `else`, which start or continue an arm's body) to the
/// arm's `=>`.
fn check_arms(
    arms: &[Tok],
    what: &Scrutinee<'_>,
    standard: &StandardNames,
    out: &mut Vec<Violation>,
) {
    for (i, tok) in arms.iter().enumerate() {
        let after_body =
            i > 0 && (arms[i - 1].is_punct("=>") || arms[i - 1].keyword() == Some("else"));
        if tok.keyword() != Some("if") || after_body {
            continue;
        }
        let end = arms[i..]
            .iter()
            .position(|t| t.is_punct("=>"))
            .map_or(arms.len(), |e| i + e);
        let guard = &arms[i + 1..end];
        let found = match what {
            Scrutinee::Value => None,
            Scrutinee::Unknown => Some((tok, "a guard in a match on what a macro made".to_owned())),
            Scrutinee::Place(root) => names(guard, root).map(|t| {
                (
                    t,
                    format!("the guard names `{root}`, which its match reads"),
                )
            }),
        };
        let found = found.or_else(|| {
            file_macro(guard, standard)
                .map(|t| (t, "the guard calls a macro the file defines".to_owned()))
        });
        if let Some((at, what)) = found {
            out.push(Violation::new(
                Rule::MatchGuard,
                at.pos(),
                format!(
                    "{what}: rustc's guard checks have holes that let a guard change the \
                     matched place (rust-lang/rust#160599, #161578)"
                ),
            ));
        }
    }
}

/// The first token in `toks` (at any depth) that names the variable `root`:
/// not a field or path segment of that name (`a.x`, `m::x`).
fn names<'a>(toks: &'a [Tok], root: &str) -> Option<&'a Tok> {
    toks.iter().enumerate().find_map(|(j, t)| match t {
        Tok::Group { inner, .. } => names(inner, root),
        Tok::Ident { name, .. } if name == root => {
            let member = j > 0 && (toks[j - 1].is_punct(".") || toks[j - 1].is_punct("::"));
            (!member).then_some(t)
        }
        _ => None,
    })
}

/// The first call, at any depth in `toks`, of a macro the file defines.
fn file_macro<'a>(toks: &'a [Tok], standard: &StandardNames) -> Option<&'a Tok> {
    toks.iter().enumerate().find_map(|(j, t)| match t {
        Tok::Group { inner, .. } => {
            if standard.context_of(toks, j, Context::Code) == Context::FileMacro {
                Some(&toks[j - 2])
            } else {
                file_macro(inner, standard)
            }
        }
        _ => None,
    })
}

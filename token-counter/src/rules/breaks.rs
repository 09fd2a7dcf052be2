//! `break` and `continue` may not leave the arguments of a call or a macro.
//!
//! In `v.insert(x)` rustc reserves the borrow `&mut v` before it evaluates
//! `x` and activates it at the call (a two-phase borrow). When `x` breaks out
//! of a loop or labeled block, the call never happens, yet rustc 1.95 still
//! lets the reference the call returns on its other path live on beside a
//! shared borrow of `v` (rust-lang/rust#160598): a `&mut` and a `&` to the
//! same place in safe Rust, which is a transmute. The same break can hide in
//! a macro's expansion (`v.insert(m!())` with `break` in `m`'s body) or be
//! spliced in from a macro's arguments, so those are closed too.
//!
//! An ordinary bot loses nothing: the value is computed first (`let x = match
//! ... { None => continue, Some(x) => x }; v.push(x);`). A loop or labeled
//! block written inside the arguments keeps its own `break`s.

use proc_macro2::Delimiter;

use super::{Rule, Violation};
use crate::tokens::Tok;

/// What a group of tokens is to a `break` inside it.
#[derive(Clone, Copy)]
enum Scope<'a> {
    /// The arguments of a call or a macro, or a `macro_rules!` body: a `break`
    /// must find its loop before it gets out of here.
    Barrier,
    /// A loop's body, with the loop's label if it has one.
    Loop(Option<&'a str>),
    /// A labeled block's body.
    Block(&'a str),
}

/// Refuses every `break` and `continue` in `toks` that would leave the
/// arguments of a call or a macro, or the body of a `macro_rules!`.
pub(super) fn check(toks: &[Tok], out: &mut Vec<Violation>) {
    walk(toks, &mut Vec::new(), out);
}

fn walk<'a>(toks: &'a [Tok], scopes: &mut Vec<Scope<'a>>, out: &mut Vec<Violation>) {
    for (i, tok) in toks.iter().enumerate() {
        if let Some(word @ ("break" | "continue")) = tok.keyword() {
            let label = match toks.get(i + 1) {
                Some(Tok::Lifetime { name, .. }) => Some(name.as_str()),
                _ => None,
            };
            if leaves_a_barrier(scopes, label) {
                out.push(Violation::new(
                    Rule::BreakOutOfCall,
                    tok.pos(),
                    format!(
                        "`{word}` leaves the arguments of a call or a macro, where rustc \
                         loses track of the call's borrow (rust-lang/rust#160598)"
                    ),
                ));
            }
        } else if let Tok::Group { inner, .. } = tok {
            let scope = scope_of(toks, i);
            scopes.extend(scope);
            walk(inner, scopes, out);
            if scope.is_some() {
                scopes.pop();
            }
        }
    }
}

/// Whether a `break` (or `continue`) to `label`, or to the innermost loop,
/// reaches a barrier before its loop or block.
fn leaves_a_barrier(scopes: &[Scope<'_>], label: Option<&str>) -> bool {
    for scope in scopes.iter().rev() {
        match (*scope, label) {
            (Scope::Barrier, _) => return true,
            (Scope::Loop(_), None) => return false,
            (Scope::Loop(Some(name)) | Scope::Block(name), Some(want)) if name == want => {
                return false;
            }
            _ => {}
        }
    }
    false
}

/// What the group at `toks[i]` is, judged by the tokens before it.
fn scope_of<'a>(toks: &'a [Tok], i: usize) -> Option<Scope<'a>> {
    let Tok::Group { delim, .. } = &toks[i] else {
        return None;
    };
    let before = |back: usize| i.checked_sub(back).map(|j| &toks[j]);
    let macro_call = before(1).is_some_and(|t| t.is_punct("!"));
    let macro_rules = before(2).is_some_and(|t| t.is_punct("!"))
        && before(3).is_some_and(|t| t.ident() == Some("macro_rules"));
    match delim {
        _ if macro_call || macro_rules => Some(Scope::Barrier),
        Delimiter::Parenthesis if before(1).is_some_and(ends_a_callee) => Some(Scope::Barrier),
        Delimiter::Brace => loop_or_block(toks, i),
        _ => None,
    }
}

/// Whether `t`, right before `(`, ends the expression called: a name
/// (`f(`, `x.m(`), generic arguments (`f::<T>(`) or a call or index (`f()(`).
fn ends_a_callee(t: &Tok) -> bool {
    const NOT_CALLEES: &[&str] = &[
        "if", "while", "match", "return", "in", "for", "let", "break", "continue", "else", "loop",
        "mut", "ref", "move", "where", "as", "dyn", "impl",
    ];
    match t {
        Tok::Ident { .. } => !t.keyword().is_some_and(|k| NOT_CALLEES.contains(&k)),
        Tok::Punct { op, .. } => op == ">" || op == ">>",
        Tok::Group { delim, .. } => matches!(delim, Delimiter::Parenthesis | Delimiter::Bracket),
        _ => false,
    }
}

/// The brace group at `toks[i]` as a loop body (`loop {`, `while c {`, `for x
/// in it {`, each maybe labeled) or a labeled block (`'a: {`).
fn loop_or_block(toks: &[Tok], i: usize) -> Option<Scope<'_>> {
    let previous = toks[..i].last()?;
    if previous.keyword() == Some("loop") {
        return Some(Scope::Loop(label_before(toks, i - 1)));
    }
    if let Some(name) = label_before(toks, i) {
        return Some(Scope::Block(name));
    }
    // A `while` or `for ... in` header: back to its keyword, through nothing
    // that ends a statement or is a block of its own.
    let mut seen_in = false;
    for k in (0..i).rev() {
        let t = &toks[k];
        match t.keyword() {
            Some("while") => return Some(Scope::Loop(label_before(toks, k))),
            Some("for") if seen_in => return Some(Scope::Loop(label_before(toks, k))),
            Some("in") => seen_in = true,
            Some("for" | "match" | "if" | "else" | "loop") => return None,
            _ => {}
        }
        let ends =
            [";", ",", "=>"].iter().any(|p| t.is_punct(p)) || t.group(Delimiter::Brace).is_some();
        if ends {
            return None;
        }
    }
    None
}

/// The label written before `toks[k]` (`'a:`), if any.
fn label_before(toks: &[Tok], k: usize) -> Option<&str> {
    let colon = k.checked_sub(1).map(|j| &toks[j])?;
    match k.checked_sub(2).map(|j| &toks[j]) {
        Some(Tok::Lifetime { name, .. }) if colon.is_punct(":") => Some(name),
        _ => None,
    }
}

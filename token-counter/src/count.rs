//! The counting rules of the spec, applied to the lexed tokens.

use proc_macro2::Delimiter;

use crate::tokens::{LitKind, Tok};

/// Per-line cost accumulator, indexed by 1-based line number.
pub(crate) struct Tally<'a> {
    pub counted: Vec<usize>,
    pub debug: Vec<usize>,
    pub debug_lines: &'a [bool],
}

impl Tally<'_> {
    fn add(&mut self, line: usize, cost: usize) {
        if cost == 0 {
            return;
        }
        if line >= self.counted.len() {
            self.counted.resize(line + 1, 0);
            self.debug.resize(line + 1, 0);
        }
        if self.debug_lines.get(line).copied().unwrap_or(false) {
            self.debug[line] += cost;
        } else {
            self.counted[line] += cost;
        }
    }
}

/// Whether the group at `toks[i]` is the body of a macro invocation
/// (`name!(..)`, `path::name![..]`) or of a `macro_rules! name { .. }`.
///
/// A keyword before `!` is a negation, not a macro: `if !(a) {..}`,
/// `while !done {..}`, `return !(x)`.
pub(crate) fn is_macro_body(toks: &[Tok], i: usize) -> bool {
    const NOT_MACROS: &[&str] = &[
        "if", "while", "match", "return", "in", "break", "yield", "let", "else", "for", "as",
        "mut", "ref", "move", "impl", "dyn", "where", "loop", "unsafe",
    ];
    let is_bang_of = |b: usize, name: &dyn Fn(&str) -> bool| {
        b >= 1
            && toks[b].is_punct("!")
            && match &toks[b - 1] {
                Tok::Ident { name: n, raw, .. } => *raw || name(n),
                _ => false,
            }
    };
    (i >= 2 && is_bang_of(i - 1, &|n| !NOT_MACROS.contains(&n)))
        || (i >= 3 && toks[i - 1].ident().is_some() && is_bang_of(i - 2, &|n| n == "macro_rules"))
}

/// The length of a visibility starting at `toks[i]` (`pub`, `pub(crate)`,
/// `pub(in a::b)`), or 0. Mirrors rustc: `pub (u8, u8)` in a tuple struct is a
/// plain `pub` followed by a tuple type.
pub(crate) fn visibility_len(toks: &[Tok], i: usize) -> usize {
    if toks[i].keyword() != Some("pub") {
        return 0;
    }
    match toks
        .get(i + 1)
        .and_then(|t| t.group(Delimiter::Parenthesis))
    {
        Some([one]) if matches!(one.keyword(), Some("crate" | "self" | "super")) => 2,
        Some([first, _, ..]) if first.keyword() == Some("in") => 2,
        _ => 1,
    }
}

/// The length of a `#[doc = "..."]` or `#![doc = "..."]` attribute (the form
/// doc comments take in the token stream) starting at `toks[i]`, or 0.
pub(crate) fn doc_attr_len(toks: &[Tok], i: usize) -> usize {
    if !toks[i].is_punct("#") {
        return 0;
    }
    let bang = usize::from(toks.get(i + 1).is_some_and(|t| t.is_punct("!")));
    match toks
        .get(i + 1 + bang)
        .and_then(|t| t.group(Delimiter::Bracket))
    {
        Some(
            [
                name,
                eq,
                Tok::Lit {
                    kind: LitKind::Str, ..
                },
            ],
        ) if name.ident() == Some("doc") && eq.is_punct("=") => 2 + bang,
        _ => 0,
    }
}

pub(crate) fn count(toks: &[Tok], in_macro: bool, tally: &mut Tally) {
    let mut i = 0;
    while i < toks.len() {
        let vis = visibility_len(toks, i);
        if vis > 0 {
            i += vis;
            continue;
        }
        // A doc comment is free where it documents code. Inside a macro
        // invocation it is not: a `macro_rules!` matcher can capture its text
        // as a string literal (`#[doc = $s:literal]`), so it would carry data
        // for free. There it costs what it is, an attribute with a string.
        let doc = doc_attr_len(toks, i);
        if doc > 0 && !in_macro {
            i += doc;
            continue;
        }
        let tok = &toks[i];
        let line = tok.pos().line;
        match tok {
            Tok::Ident { .. } | Tok::Lifetime { .. } => tally.add(line, 1),
            Tok::Punct { op, .. } => {
                if op != ";" && op != "," {
                    tally.add(line, 1);
                }
            }
            Tok::Lit {
                kind: LitKind::Str,
                chars,
                ..
            } => tally.add(line, *chars),
            Tok::Lit {
                kind: LitKind::Other,
                ..
            } => tally.add(line, 1),
            Tok::Group { delim, inner, .. } => {
                // The pair costs 1, paid by the opening delimiter. An invisible
                // (`None`) group never comes from source text.
                if *delim != Delimiter::None {
                    tally.add(line, 1);
                }
                count(inner, in_macro || is_macro_body(toks, i), tally);
            }
        }
        i += 1;
    }
}

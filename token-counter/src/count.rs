//! The counting rules of docs/rules.md, applied to the lexed tokens.

use std::collections::HashSet;

use proc_macro2::Delimiter;

use crate::spelling;
use crate::tokens::{LitKind, Pos, Tok};

/// The standard macros whose arguments are counted like ordinary code
/// (free `;`, `,` and visibility). They parse their input as Rust, so those
/// tokens are syntax there, never data a bot can read back. Arguments of any
/// other macro, in particular one the file defines, pay for every token.
pub const STANDARD_MACROS: &[&str] = &[
    "assert",
    "assert_eq",
    "assert_ne",
    "cfg",
    "compile_error",
    "dbg",
    "debug_assert",
    "debug_assert_eq",
    "debug_assert_ne",
    "eprint",
    "eprintln",
    "format",
    "format_args",
    "matches",
    "panic",
    "print",
    "println",
    "thread_local",
    "todo",
    "unimplemented",
    "unreachable",
    "vec",
    "write",
    "writeln",
];

/// Where a token sits, for the rules that differ inside macros.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Context {
    /// Ordinary code.
    Code,
    /// The arguments of a standard macro, or a `macro_rules!` body: doc
    /// comments cost, everything else as in code.
    Macro,
    /// The arguments of any other macro (one the file defines): doc
    /// comments, visibility, `;` and `,` cost too. Everything nested inside
    /// stays here, whatever it is.
    FileMacro,
}

/// The names in [`STANDARD_MACROS`] that still mean the standard macro in
/// this file: a file that defines a macro by one of those names
/// (`macro_rules! vec`) or renames anything to one (`use m as vec`) loses it
/// everywhere, because the name may then call its own macro.
pub(crate) struct StandardNames {
    shadowed: HashSet<String>,
}

impl StandardNames {
    pub(crate) fn of(toks: &[Tok]) -> StandardNames {
        let mut shadowed = HashSet::new();
        collect_bound_names(toks, &mut shadowed);
        StandardNames { shadowed }
    }

    fn is_standard(&self, name: &str) -> bool {
        STANDARD_MACROS.contains(&name) && !self.shadowed.contains(name)
    }

    /// The context of the group at `toks[i]`, which sits in `outer`.
    pub(crate) fn context_of(&self, toks: &[Tok], i: usize, outer: Context) -> Context {
        if outer == Context::FileMacro {
            return outer;
        }
        if !is_macro_body(toks, i) {
            return outer;
        }
        let is_rules = i >= 3 && toks[i - 2].is_punct("!");
        let name = if is_rules { None } else { toks[i - 2].ident() };
        match name {
            // `macro_rules!` itself cannot be rebound, but a file that tries
            // gets no benefit of the doubt.
            None if self.shadowed.contains("macro_rules") => Context::FileMacro,
            None => Context::Macro,
            Some(name) if self.is_standard(name) => Context::Macro,
            Some(_) => Context::FileMacro,
        }
    }
}

/// Names bound by `macro_rules! name` or `as name`, anywhere.
fn collect_bound_names(toks: &[Tok], out: &mut HashSet<String>) {
    for (i, tok) in toks.iter().enumerate() {
        let defines =
            i >= 2 && toks[i - 1].is_punct("!") && toks[i - 2].ident() == Some("macro_rules");
        let renames = i >= 1 && toks[i - 1].keyword() == Some("as");
        if (defines || renames)
            && let Some(name) = tok.ident()
        {
            out.insert(name.to_owned());
        }
        if let Tok::Group { inner, .. } = tok {
            collect_bound_names(inner, out);
        }
    }
}

/// What one counted token costs and where it starts: the one record that
/// both the per-line costs and the per-item costs (`items.rs`) are sums of,
/// so every view of a file adds up to the same count. A delimiter pair is
/// recorded where its opening delimiter starts, which pays for it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct TokenCost {
    pub pos: Pos,
    pub cost: usize,
    /// The token starts on a `#DEBUG` line.
    pub debug: bool,
}

/// The costs of the counted tokens, in the order they are counted (source
/// order). Free tokens are not recorded.
pub(crate) struct Tally<'a> {
    pub costs: Vec<TokenCost>,
    /// `debug_lines[n]`: line `n` (1-based) is a `#DEBUG` line.
    pub debug_lines: &'a [bool],
    /// Where a closure's parameter list closes (`spelling::closure_closers`).
    pub closure_closers: &'a HashSet<Pos>,
    /// Where the free `()` of a C# property read opens (`spelling::property_reads`).
    pub property_reads: &'a HashSet<Pos>,
    /// Where the free `{` of an `if` that stands for C#'s `?:` opens
    /// (`spelling::ternary_braces`).
    pub ternary_braces: &'a HashSet<Pos>,
}

impl Tally<'_> {
    fn add(&mut self, pos: Pos, cost: usize) {
        if cost == 0 {
            return;
        }
        let debug = self.debug_lines.get(pos.line).copied().unwrap_or(false);
        self.costs.push(TokenCost { pos, cost, debug });
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
        Some([first, path @ ..]) if first.keyword() == Some("in") && is_plain_path(path) => 2,
        _ => 1,
    }
}

/// `a::b::c` or `::a`: identifiers joined by `::`, nothing else, so a free
/// `pub(in ...)` can only ever hold a module path.
fn is_plain_path(toks: &[Tok]) -> bool {
    let toks = match toks.first() {
        Some(t) if t.is_punct("::") => &toks[1..],
        _ => toks,
    };
    !toks.is_empty()
        && toks.len() % 2 == 1
        && toks.iter().enumerate().all(|(k, t)| {
            if k % 2 == 0 {
                t.ident().is_some()
            } else {
                t.is_punct("::")
            }
        })
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

pub(crate) fn count(toks: &[Tok], ctx: Context, standard: &StandardNames, tally: &mut Tally) {
    // What the rules make free in code costs 1 in a file macro's arguments:
    // there a matcher reads it back (`pub(in $($code:tt)*)`, a run of `;`).
    let syntax_is_free = ctx != Context::FileMacro;
    let mut i = 0;
    while i < toks.len() {
        let vis = visibility_len(toks, i);
        if vis > 0 && syntax_is_free {
            i += vis;
            continue;
        }
        // A doc comment is free where it documents code. Inside a macro
        // invocation it is not: a `macro_rules!` matcher can capture its text
        // as a string literal (`#[doc = $s:literal]`), so it would carry data
        // for free. There it costs what it is, an attribute with a string.
        let doc = doc_attr_len(toks, i);
        if doc > 0 && ctx == Context::Code {
            i += doc;
            continue;
        }
        let spelled = if syntax_is_free {
            spelling::free_len(toks, i)
        } else {
            0
        };
        if spelled > 0 {
            i += spelled;
            continue;
        }
        if syntax_is_free && let Some(list) = spelling::derive_list(toks, i) {
            count_derive(toks, i, list, ctx, standard, tally);
            i += 2;
            continue;
        }
        let tok = &toks[i];
        let at = tok.pos();
        match tok {
            Tok::Ident { .. } | Tok::Lifetime { .. } => tally.add(at, 1),
            Tok::Punct { op, .. } => {
                let free =
                    op == ";" || op == "," || op == "|" && tally.closure_closers.contains(&at);
                if !syntax_is_free || !free {
                    tally.add(at, 1);
                }
            }
            Tok::Lit {
                kind: LitKind::Str,
                chars,
                ..
            } => tally.add(at, *chars),
            Tok::Lit {
                kind: LitKind::Other,
                ..
            } => tally.add(at, 1),
            Tok::Group { delim, inner, .. } => {
                // The pair costs 1, paid by the opening delimiter, everywhere:
                // where the closer goes is structure that the opener paid for
                // (at most two bits a pair), not free data. An invisible
                // (`None`) group never comes from source text.
                let read = syntax_is_free
                    && *delim == Delimiter::Parenthesis
                    && inner.is_empty()
                    && tally.property_reads.contains(&at);
                let ternary = syntax_is_free
                    && *delim == Delimiter::Brace
                    && tally.ternary_braces.contains(&at);
                if *delim != Delimiter::None && !read && !ternary {
                    tally.add(at, 1);
                }
                count(inner, standard.context_of(toks, i, ctx), standard, tally);
            }
        }
        i += 1;
    }
}

/// `#[derive(...)]` at `toks[i]` with `list` in it: `# [ derive (` and the
/// list's names but `Default` (rule 2; a list of `Default` alone is free
/// whole, in `spelling::free_len`).
fn count_derive(
    toks: &[Tok],
    i: usize,
    list: &[Tok],
    ctx: Context,
    standard: &StandardNames,
    tally: &mut Tally,
) {
    tally.add(toks[i].pos(), 1);
    if let [
        Tok::Group {
            pos: bracket,
            inner,
            ..
        },
    ] = &toks[i + 1..i + 2]
    {
        tally.add(*bracket, 1);
        tally.add(inner[0].pos(), 1);
        tally.add(inner[1].pos(), 1);
    }
    let named: Vec<Tok> = list
        .iter()
        .filter(|t| !spelling::is_default(t))
        .cloned()
        .collect();
    count(&named, ctx, standard, tally);
}

//! Turns a proc-macro2 token stream into the lexical tokens the rules count.
//!
//! proc-macro2 hands out punctuation one character at a time (`>>=` arrives
//! as `>` `>` `=` with `Spacing::Joint` between them) and a lifetime as a
//! joint `'` followed by an identifier. The challenge counts tokens as the
//! Rust reference lexes them, so joint runs are re-joined here by maximal
//! munch over the reference's list of multi-character punctuation.

use proc_macro2::{Delimiter, Spacing, TokenStream, TokenTree};

/// A 1-based source position. Positions order as they read: by line, then
/// by column.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) struct Pos {
    pub line: usize,
    pub column: usize,
}

impl Pos {
    /// Where `span` starts.
    pub(crate) fn of(span: proc_macro2::Span) -> Pos {
        Pos::at(span.start())
    }

    /// proc-macro2's position (0-based column) as a 1-based one.
    pub(crate) fn at(place: proc_macro2::LineColumn) -> Pos {
        Pos {
            line: place.line,
            column: place.column + 1,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum LitKind {
    /// Any string literal: costs its length in source characters.
    Str,
    /// Numbers, chars and bytes: cost 1.
    Other,
}

/// One lexical token; a group stands for its delimiter pair and contents.
#[derive(Debug, Clone)]
pub(crate) enum Tok {
    Ident {
        /// The name without any `r#` prefix: `r#std` names `std`.
        name: String,
        raw: bool,
        pos: Pos,
    },
    Punct {
        op: String,
        pos: Pos,
    },
    /// A lifetime or a label, `'a` (the quote and its name are one token).
    Lifetime {
        /// The name without the quote or any `r#` prefix: `'_` names `_`.
        name: String,
        raw: bool,
        pos: Pos,
    },
    Lit {
        kind: LitKind,
        chars: usize,
        pos: Pos,
    },
    Group {
        delim: Delimiter,
        inner: Vec<Tok>,
        pos: Pos,
    },
}

impl Tok {
    pub(crate) fn pos(&self) -> Pos {
        match self {
            Tok::Ident { pos, .. }
            | Tok::Punct { pos, .. }
            | Tok::Lifetime { pos, .. }
            | Tok::Lit { pos, .. }
            | Tok::Group { pos, .. } => *pos,
        }
    }

    /// The identifier's name if this is a non-raw identifier (keywords are
    /// never raw: `r#unsafe` is an ordinary name to the compiler).
    pub(crate) fn keyword(&self) -> Option<&str> {
        match self {
            Tok::Ident {
                name, raw: false, ..
            } => Some(name),
            _ => None,
        }
    }

    /// The identifier's name, raw or not.
    pub(crate) fn ident(&self) -> Option<&str> {
        match self {
            Tok::Ident { name, .. } => Some(name),
            _ => None,
        }
    }

    pub(crate) fn is_punct(&self, want: &str) -> bool {
        matches!(self, Tok::Punct { op, .. } if op == want)
    }

    pub(crate) fn group(&self, want: Delimiter) -> Option<&[Tok]> {
        match self {
            Tok::Group { delim, inner, .. } if *delim == want => Some(inner),
            _ => None,
        }
    }
}

/// The multi-character punctuation of the Rust reference, longest first.
const MULTI: [&str; 24] = [
    "<<=", ">>=", "...", "..=", "::", "->", "=>", "==", "!=", "<=", ">=", "&&", "||", "+=", "-=",
    "*=", "/=", "%=", "^=", "&=", "|=", "<<", ">>", "..",
];

pub(crate) fn lex(stream: TokenStream) -> Vec<Tok> {
    let trees: Vec<TokenTree> = stream.into_iter().collect();
    let mut out = Vec::with_capacity(trees.len());
    let mut i = 0;
    while i < trees.len() {
        match &trees[i] {
            TokenTree::Ident(id) => {
                let (name, raw) = unraw(id.to_string());
                out.push(Tok::Ident {
                    name,
                    raw,
                    pos: Pos::of(id.span()),
                });
                i += 1;
            }
            TokenTree::Literal(lit) => {
                let text = lit.to_string();
                out.push(Tok::Lit {
                    kind: lit_kind(&text),
                    chars: text.chars().count(),
                    pos: Pos::of(lit.span()),
                });
                i += 1;
            }
            TokenTree::Group(g) => {
                out.push(Tok::Group {
                    delim: g.delimiter(),
                    inner: lex(g.stream()),
                    pos: Pos::of(g.span_open()),
                });
                i += 1;
            }
            TokenTree::Punct(p) if p.as_char() == '\'' => {
                // A lifetime or label: the quote and its name are one token.
                let pos = Pos::of(p.span());
                i += 1;
                let text = match trees.get(i) {
                    Some(TokenTree::Ident(id)) => {
                        i += 1;
                        id.to_string()
                    }
                    _ => String::new(),
                };
                let (name, raw) = unraw(text);
                out.push(Tok::Lifetime { name, raw, pos });
            }
            TokenTree::Punct(_) => {
                // Gather the run of joint punctuation, stopping before a quote
                // (which starts a lifetime, never part of an operator).
                let mut run = Vec::new();
                while let Some(TokenTree::Punct(p)) = trees.get(i) {
                    if p.as_char() == '\'' {
                        break;
                    }
                    run.push(p.clone());
                    i += 1;
                    if p.spacing() == Spacing::Alone {
                        break;
                    }
                }
                let mut k = 0;
                while k < run.len() {
                    let width = [3, 2]
                        .into_iter()
                        .find(|&w| {
                            k + w <= run.len() && {
                                let s: String = run[k..k + w].iter().map(|p| p.as_char()).collect();
                                MULTI.contains(&s.as_str())
                            }
                        })
                        .unwrap_or(1);
                    let op: String = run[k..k + width].iter().map(|p| p.as_char()).collect();
                    out.push(Tok::Punct {
                        op,
                        pos: Pos::of(run[k].span()),
                    });
                    k += width;
                }
            }
        }
    }
    out
}

/// An identifier's name without its `r#` prefix, and whether it had one.
fn unraw(text: String) -> (String, bool) {
    match text.strip_prefix("r#") {
        Some(rest) => (rest.to_owned(), true),
        None => (text, false),
    }
}

fn lit_kind(text: &str) -> LitKind {
    let is_str = text.starts_with('"')
        || ["r\"", "r#", "b\"", "br\"", "br#", "c\"", "cr\"", "cr#"]
            .iter()
            .any(|p| text.starts_with(p));
    if is_str { LitKind::Str } else { LitKind::Other }
}

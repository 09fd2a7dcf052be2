//! The items of a parsed file: each with its kind, its name and the stretch
//! of source it covers (docs/rules.md, "Where the tokens go").

use std::collections::{HashMap, HashSet};

use proc_macro2::{Delimiter, Spacing, TokenStream, TokenTree};
use quote::ToTokens;

use super::ItemKind;
use crate::tokens::Pos;

/// One item of the outline.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Outlined {
    pub kind: ItemKind,
    /// Unique in the outline: a repeated kind and name gets ` #2`, ` #3`...
    pub name: String,
    /// The line of the item's first token after its outer attributes.
    pub line: usize,
    /// Where its first token (its first outer attribute, if any) starts.
    pub start: Pos,
    /// Just past its last token.
    pub end: Pos,
}

/// The rows of `file`: the items of the file and of its inline modules, and
/// the members of its impls and traits, in source order (a parent before its
/// members).
pub(crate) fn outline(file: &syn::File) -> Vec<Outlined> {
    let mut walker = Walker::default();
    walker.items(&file.items, "");
    walker.rows
}

/// The longest name a row gets, in characters: names come from the file,
/// which a hostile author may make a name as long as itself.
const MAX_NAME_CHARS: usize = 100;

#[derive(Default)]
struct Walker {
    rows: Vec<Outlined>,
    taken: HashSet<(ItemKind, String)>,
    /// The last number [`Walker::unique`] gave each name.
    numbers: HashMap<(ItemKind, String), usize>,
}

impl Walker {
    fn items(&mut self, items: &[syn::Item], prefix: &str) {
        for item in items {
            self.item(item, prefix);
        }
    }

    fn item(&mut self, item: &syn::Item, prefix: &str) {
        use syn::Item;
        let (kind, name) = match item {
            Item::Fn(f) => (ItemKind::Fn, word(&f.sig.ident)),
            Item::Struct(s) => (ItemKind::Struct, word(&s.ident)),
            Item::Enum(e) => (ItemKind::Enum, word(&e.ident)),
            Item::Union(u) => (ItemKind::Union, word(&u.ident)),
            Item::Const(c) => (ItemKind::Const, word(&c.ident)),
            Item::Static(s) => (ItemKind::Static, word(&s.ident)),
            Item::Type(t) => (ItemKind::Type, word(&t.ident)),
            Item::TraitAlias(t) => (ItemKind::Trait, word(&t.ident)),
            Item::Use(u) => (ItemKind::Use, compact(u.tree.to_token_stream())),
            Item::ExternCrate(e) => (ItemKind::ExternCrate, word(&e.ident)),
            Item::ForeignMod(f) => (ItemKind::Extern, compact(f.abi.to_token_stream())),
            Item::Macro(m) => match &m.ident {
                Some(name) => (ItemKind::MacroRules, word(name)),
                None => (ItemKind::Macro, macro_name(&m.mac)),
            },
            Item::Impl(i) => return self.impl_block(i, prefix),
            Item::Trait(t) => return self.trait_block(t, prefix),
            Item::Mod(m) => return self.module(m, prefix),
            other => (ItemKind::Other, compact(other.to_token_stream())),
        };
        self.push(kind, format!("{prefix}{name}"), item.to_token_stream());
    }

    /// The block's own row (`impl Trait for Type`, `impl Type`), then its
    /// members (`impl Trait for Type::method`, `Type::method`).
    fn impl_block(&mut self, block: &syn::ItemImpl, prefix: &str) {
        let ty = compact(block.self_ty.to_token_stream());
        let (head, owner) = match &block.trait_ {
            Some((bang, path, _)) => {
                let bang = if bang.is_some() { "!" } else { "" };
                let path = compact(path.to_token_stream());
                let head = printable(&format!("impl {bang}{path} for {ty}"));
                (head.clone(), head)
            }
            None => (format!("impl {ty}"), ty),
        };
        self.push(
            ItemKind::Impl,
            format!("{prefix}{head}"),
            block.to_token_stream(),
        );
        for member in &block.items {
            use syn::ImplItem;
            let (kind, name) = match member {
                ImplItem::Fn(f) => (ItemKind::Fn, word(&f.sig.ident)),
                ImplItem::Const(c) => (ItemKind::Const, word(&c.ident)),
                ImplItem::Type(t) => (ItemKind::Type, word(&t.ident)),
                ImplItem::Macro(m) => (ItemKind::Macro, macro_name(&m.mac)),
                other => (ItemKind::Other, compact(other.to_token_stream())),
            };
            let tokens = member.to_token_stream();
            self.push(kind, format!("{prefix}{owner}::{name}"), tokens);
        }
    }

    /// The trait's own row (`Trait`), then its members (`Trait::method`).
    fn trait_block(&mut self, block: &syn::ItemTrait, prefix: &str) {
        let owner = printable(&format!("{prefix}{}", word(&block.ident)));
        self.push(ItemKind::Trait, owner.clone(), block.to_token_stream());
        for member in &block.items {
            use syn::TraitItem;
            let (kind, name) = match member {
                TraitItem::Fn(f) => (ItemKind::Fn, word(&f.sig.ident)),
                TraitItem::Const(c) => (ItemKind::Const, word(&c.ident)),
                TraitItem::Type(t) => (ItemKind::Type, word(&t.ident)),
                TraitItem::Macro(m) => (ItemKind::Macro, macro_name(&m.mac)),
                other => (ItemKind::Other, compact(other.to_token_stream())),
            };
            self.push(kind, format!("{owner}::{name}"), member.to_token_stream());
        }
    }

    /// The module's own row (`m`), then its items (`m::item`).
    fn module(&mut self, module: &syn::ItemMod, prefix: &str) {
        // Bounded here, as the prefix of every name inside.
        let path = printable(&format!("{prefix}{}", word(&module.ident)));
        self.push(ItemKind::Mod, path.clone(), module.to_token_stream());
        if let Some((_, items)) = &module.content {
            self.items(items, &format!("{path}::"));
        }
    }

    fn push(&mut self, kind: ItemKind, name: String, tokens: TokenStream) {
        let Some((start, end, line)) = extent(tokens) else {
            // An item with no tokens has nothing to own.
            return;
        };
        let name = self.unique(kind, printable(&name));
        self.rows.push(Outlined {
            kind,
            name,
            line,
            start,
            end,
        });
    }

    /// `name`, or `name #2`, `name #3`... when an earlier row has its kind
    /// and name: two `impl MyBot` blocks, two calls of one macro. Each name
    /// remembers the last number it gave, so a file of many repeats is not
    /// searched from `#2` each time.
    fn unique(&mut self, kind: ItemKind, name: String) -> String {
        let number = self.numbers.entry((kind, name.clone())).or_insert(1);
        loop {
            let candidate = match *number {
                1 => name.clone(),
                k => format!("{name} #{k}"),
            };
            if self.taken.insert((kind, candidate.clone())) {
                return candidate;
            }
            *number += 1;
        }
    }
}

/// `path!`, the name of a macro call.
fn macro_name(mac: &syn::Macro) -> String {
    format!("{}!", compact(mac.path.to_token_stream()))
}

/// Where the tokens of an item start and end, and the line of its first
/// token after its outer attributes (`#` `[...]`, doc comments included).
/// Spans of no length are left out: they were not read from the file (syn
/// gives a token it makes up the call site's span).
fn extent(tokens: TokenStream) -> Option<(Pos, Pos, usize)> {
    let trees: Vec<TokenTree> = tokens
        .into_iter()
        .filter(|tree| tree.span().start() != tree.span().end())
        .collect();
    let start = trees.iter().map(|t| Pos::at(t.span().start())).min()?;
    let end = trees.iter().map(|t| Pos::at(t.span().end())).max()?;
    let mut first = 0;
    while is_pound(trees.get(first)) && is_bracketed(trees.get(first + 1)) {
        first += 2;
    }
    let line = trees
        .get(first)
        .map_or(start.line, |t| t.span().start().line);
    Some((start, end, line))
}

fn is_pound(tree: Option<&TokenTree>) -> bool {
    matches!(tree, Some(TokenTree::Punct(p)) if p.as_char() == '#')
}

fn is_bracketed(tree: Option<&TokenTree>) -> bool {
    matches!(tree, Some(TokenTree::Group(g)) if g.delimiter() == Delimiter::Bracket)
}

/// `name` fit to print: a control character (which a string literal in a
/// name may hold) as its escape, and at most [`MAX_NAME_CHARS`] characters,
/// a longer name ending in `…`.
fn printable(name: &str) -> String {
    let mut out = String::new();
    for c in name.chars() {
        if c.is_control() {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    if out.chars().count() > MAX_NAME_CHARS {
        out = out.chars().take(MAX_NAME_CHARS - 1).collect();
        out.push('…');
    }
    out
}

/// Tokens written out as a person would: words apart, punctuation close
/// (`Vec<Vec<u8>>`, `&mut Board`, `framework::prelude::*`), a space after
/// `,`, `;` and `:` and around `=`, `+`, `->` and `=>`.
/// Every part of a name is [`printable`] on its own, so that a long part
/// repeated in many names (an impl's type in each method's) stays short.
fn compact(tokens: TokenStream) -> String {
    let mut out = String::new();
    write_compact(tokens, &mut out);
    printable(&out)
}

/// An identifier as a part of a name.
fn word(ident: &proc_macro2::Ident) -> String {
    printable(&ident.to_string())
}

fn write_compact(tokens: TokenStream, out: &mut String) {
    // Whether the last thing written was a word, which a next word must be
    // kept apart from (`mut Board`, `dyn Fn`).
    let mut after_word = false;
    let mut trees = tokens.into_iter().peekable();
    while let Some(tree) = trees.next() {
        match tree {
            TokenTree::Ident(_) | TokenTree::Literal(_) => {
                if after_word {
                    out.push(' ');
                }
                out.push_str(&tree.to_string());
                after_word = true;
            }
            TokenTree::Punct(p) => {
                // A run of joint characters is one operator (`->`, `::`, `'a`'s quote).
                let mut op = p.as_char().to_string();
                let mut spacing = p.spacing();
                while spacing == Spacing::Joint {
                    let Some(TokenTree::Punct(next)) = trees.peek() else {
                        break;
                    };
                    op.push(next.as_char());
                    spacing = next.spacing();
                    trees.next();
                }
                let spaced = matches!(op.as_str(), "=" | "+" | "->" | "=>");
                if spaced {
                    out.push(' ');
                }
                out.push_str(&op);
                if spaced || matches!(op.as_str(), "," | ";" | ":") {
                    out.push(' ');
                }
                after_word = false;
            }
            TokenTree::Group(g) => {
                let (open, close) = match g.delimiter() {
                    Delimiter::Parenthesis => ("(", ")"),
                    Delimiter::Brace => ("{", "}"),
                    Delimiter::Bracket => ("[", "]"),
                    Delimiter::None => ("", ""),
                };
                out.push_str(open);
                write_compact(g.stream(), out);
                out.push_str(close);
                after_word = false;
            }
        }
    }
    let trimmed = out.trim_end().len();
    out.truncate(trimmed);
}

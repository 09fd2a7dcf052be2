//! What a bot's file may use of the type system: an allow list, not a list of spellings.
//!
//! rustc's coherence holes (rust-lang/rust#57893, #152783, #133361 and their kin) all
//! give one type two impls of one trait that disagree about an associated type, and
//! the type is always a trait object: `dyn Trait<Assoc = A>` implements `Trait` by
//! itself, with `Assoc = A`, and a second impl reaches the same type another way (a
//! `?Sized` blanket impl, a projection, an alias of one). A transmute in safe Rust
//! follows. Each new spelling of the second impl passed a checker that refused the
//! spellings it knew, so the rules refuse the class instead, in four parts; the first
//! two each close it alone for what a file can write, the last two take away what every
//! technique found is built from:
//! - no trait object: the `dyn` keyword is refused anywhere ([`Rule::TraitObject`]); a
//!   keyword is one token, which no macro can assemble from parts;
//! - an impl is for one of the file's own structs, enums or unions, named as written
//!   (generic arguments allowed), never for a generic parameter, a reference, a tuple,
//!   a projection, an alias of anything else, a type macro or a macro variable, so its
//!   self type is never a trait object ([`Rule::ImplSelfType`]);
//! - a trait of the file's own has no generic parameters and no associated types
//!   ([`Rule::TraitDefinition`]): the trait whose object disagrees cannot be the file's;
//! - a type alias (or an associated type) has no generic parameters and stands for no
//!   projection, `impl Trait`, type macro or macro variable ([`Rule::TypeAlias`]).
//!
//! Every bot of the kit, its lab and its tests, and the C#/Rust pairs fit inside
//! (`tests/soundness.rs` checks them); `?Sized` stays refused as well
//! ([`Rule::MaybeSized`]).

use std::collections::HashSet;

use proc_macro2::Delimiter;

use super::{Rule, Violation};
use crate::count::{Context, StandardNames};
use crate::tokens::{Pos, Tok};

/// Runs the type-system checks over the whole file.
pub(super) fn check(toks: &[Tok], standard: &StandardNames, out: &mut Vec<Violation>) {
    let own = own_types(toks);
    let walk = Walk {
        own: &own,
        standard,
    };
    walk.group(toks, None, Context::Code, out);
}

/// The names the file gives its own structs, enums and unions, anywhere in it, and its
/// aliases of them (`type MyBot = Engine;`).
fn own_types(toks: &[Tok]) -> HashSet<String> {
    let mut own = HashSet::new();
    let mut aliases = Vec::new();
    collect_definitions(toks, &mut own, &mut aliases);
    // Aliases of aliases: until nothing more is learnt.
    while let Some(at) = aliases.iter().position(|(_, target)| own.contains(target)) {
        let (alias, _) = aliases.swap_remove(at);
        own.insert(alias);
    }
    own
}

fn collect_definitions(
    toks: &[Tok],
    own: &mut HashSet<String>,
    aliases: &mut Vec<(String, String)>,
) {
    for (i, tok) in toks.iter().enumerate() {
        let name = toks.get(i + 1).and_then(Tok::ident);
        match (tok.keyword(), name) {
            (Some("struct" | "enum"), Some(name)) => {
                own.insert(name.to_owned());
            }
            (Some("union"), Some(name))
                if toks
                    .get(i + 2)
                    .is_some_and(|t| t.is_punct("<") || t.group(Delimiter::Brace).is_some()) =>
            {
                own.insert(name.to_owned());
            }
            // `type A = B;` or `type A = B<...>;`, whose target is a name alone.
            (Some("type"), Some(name)) if toks.get(i + 2).is_some_and(|t| t.is_punct("=")) => {
                let value = until_end(&toks[i + 3..]);
                if let Some(target) = value.first().and_then(Tok::ident)
                    && (value.len() == 1 || value[1].is_punct("<"))
                {
                    aliases.push((name.to_owned(), target.to_owned()));
                }
            }
            _ => {}
        }
        if let Tok::Group { inner, .. } = tok {
            collect_definitions(inner, own, aliases);
        }
    }
}

struct Walk<'a> {
    own: &'a HashSet<String>,
    standard: &'a StandardNames,
}

impl Walk<'_> {
    /// Checks the tokens of one group (`delim` `None` for the file), in context `ctx`.
    fn group(
        &self,
        toks: &[Tok],
        delim: Option<Delimiter>,
        ctx: Context,
        out: &mut Vec<Violation>,
    ) {
        for (i, tok) in toks.iter().enumerate() {
            match tok.keyword() {
                Some("dyn") => out.push(Violation::new(
                    Rule::TraitObject,
                    tok.pos(),
                    "`dyn` is refused: a trait object implements its traits by itself, and \
                     rustc lets a second impl reach it (rust-lang/rust#57893, #152783)",
                )),
                Some("impl") => self.impl_header(toks, i, delim, ctx, out),
                Some("type") => alias(&toks[i + 1..], tok.pos(), out),
                Some("trait") => trait_definition(&toks[i + 1..], tok.pos(), out),
                _ => {}
            }
            if let Tok::Group { inner, delim, .. } = tok {
                let inner_ctx = self.standard.context_of(toks, i, ctx);
                self.group(inner, Some(*delim), inner_ctx, out);
            }
        }
    }

    /// The `impl` at `toks[i]`: a trait impl's self type (after `for`), or an inherent
    /// impl's where an item can start, must be one of the file's own types.
    fn impl_header(
        &self,
        toks: &[Tok],
        i: usize,
        delim: Option<Delimiter>,
        ctx: Context,
        out: &mut Vec<Violation>,
    ) {
        let (params, rest) = generics(&toks[i + 1..]);
        let (trait_path, self_type) = match after_for(rest) {
            Some((trait_path, self_type)) => (trait_path, until_body(self_type)),
            // In a file macro's arguments every `impl` may end up an item's.
            None if ctx == Context::FileMacro || item_position(toks, i, delim) => {
                (&[][..], until_body(rest))
            }
            // `impl Trait` as a type.
            None => return,
        };
        let pos = toks[i].pos();
        if let Some(what) =
            hidden_type(trait_path, &params).or_else(|| hidden_type(self_type, &params))
        {
            out.push(Violation::new(
                Rule::ImplSelfType,
                pos,
                format!("an impl header with {what}: an impl is written out for a type of the file's own"),
            ));
        } else if let Some(what) = self.not_own(self_type, &params) {
            out.push(Violation::new(
                Rule::ImplSelfType,
                pos,
                format!("an impl for {what}: a bot implements traits only for its own structs, enums and unions"),
            ));
        }
    }

    /// What the self type `ty` is if it is not one of the file's own types named alone
    /// (with generic arguments, if any).
    fn not_own(&self, ty: &[Tok], params: &[&str]) -> Option<String> {
        let Some(name) = ty.first().and_then(Tok::ident) else {
            return Some(match ty.first() {
                None => "a self type that is not written out".to_owned(),
                Some(t) if t.is_punct("&") || t.is_punct("&&") => "a reference".to_owned(),
                Some(t) if t.group(Delimiter::Parenthesis).is_some() => "a tuple".to_owned(),
                Some(t) if t.group(Delimiter::Bracket).is_some() => {
                    "an array or a slice".to_owned()
                }
                Some(_) => "a type that is not a name".to_owned(),
            });
        };
        let arguments = ty.len() == 1 || (ty[1].is_punct("<") && closes_at_end(&ty[1..]));
        if params.contains(&name) {
            Some(format!("its own generic parameter `{name}` (every type)"))
        } else if !arguments {
            Some(format!(
                "`{}`, which is not a type the file defines",
                shown(ty)
            ))
        } else if !self.own.contains(name) {
            Some(format!(
                "`{name}`, which is not a struct, enum or union the file defines"
            ))
        } else {
            None
        }
    }
}

/// Whether an item can start at `toks[i]`: first in the file, a block or a macro's
/// body, or after `;`, a block or an attribute. A tuple's first element (`(impl Fn(),
/// u8)`) is a type, unless the parentheses are a macro's (`m!(impl ...)`, `=> (...)`,
/// `$(...)*`).
fn item_position(toks: &[Tok], i: usize, delim: Option<Delimiter>) -> bool {
    match i.checked_sub(1).map(|j| &toks[j]) {
        Some(prev) => {
            prev.is_punct(";")
                || prev.group(Delimiter::Brace).is_some()
                || prev.group(Delimiter::Bracket).is_some()
                || matches!(prev.keyword(), Some("unsafe" | "default"))
        }
        None => delim != Some(Delimiter::Parenthesis),
    }
}

/// `rest` follows a `type` keyword: an alias (or associated type) takes no generic
/// parameters and stands for a type written out, not a projection, `impl Trait`, type
/// macro or macro variable.
fn alias(rest: &[Tok], pos: Pos, out: &mut Vec<Violation>) {
    let rest = match rest.first() {
        Some(t) if t.is_punct("$") => rest.get(1..).unwrap_or_default(),
        _ => rest,
    };
    let Some(rest) = rest.get(1..) else {
        return;
    };
    if rest.first().is_some_and(|t| t.is_punct("<")) {
        out.push(Violation::new(
            Rule::TypeAlias,
            pos,
            "a generic type alias (`type Id<X> = X;`): it can carry a projection where no \
             rule reads it",
        ));
        return;
    }
    let Some(eq) = top_level(rest).find(|&j| rest[j].is_punct("=") || rest[j].is_punct(";")) else {
        return;
    };
    if !rest[eq].is_punct("=") {
        return;
    }
    let value = until_end(&rest[eq + 1..]);
    if let Some(what) = hidden_type(value, &[]).or_else(|| opaque(value)) {
        out.push(Violation::new(
            Rule::TypeAlias,
            pos,
            format!("a type alias for {what}: an alias names a type written out"),
        ));
    }
}

/// `impl Trait` anywhere in `ty`.
fn opaque(ty: &[Tok]) -> Option<&'static str> {
    ty.iter()
        .any(|t| match t {
            Tok::Group { inner, .. } => opaque(inner).is_some(),
            t => t.keyword() == Some("impl"),
        })
        .then_some("`impl Trait`")
}

/// `rest` follows a `trait` keyword: a trait the file defines has no generic
/// parameters and declares no associated type.
fn trait_definition(rest: &[Tok], pos: Pos, out: &mut Vec<Violation>) {
    let rest = match rest.first() {
        Some(t) if t.is_punct("$") => rest.get(1..).unwrap_or_default(),
        _ => rest,
    };
    // `impl<T> Trait for X` names a trait; only `trait Name` defines one.
    let Some(after_name) = rest.get(1..).filter(|_| rest[0].ident().is_some()) else {
        return;
    };
    let message = if after_name.first().is_some_and(|t| t.is_punct("<")) {
        "a trait of the file's own with generic parameters"
    } else if after_name
        .iter()
        .find_map(|t| t.group(Delimiter::Brace))
        .is_some_and(|body| body.iter().any(|t| t.keyword() == Some("type")))
    {
        "a trait of the file's own with an associated type"
    } else {
        return;
    };
    out.push(Violation::new(
        Rule::TraitDefinition,
        pos,
        format!("{message}: the trait a trait object disagrees with would be the file's"),
    ));
}

/// What in `ty` (one type, or a trait path) is not written out: a projection
/// (`<X as Trait>::Name`, `X<..>::Name`, `T::Name` on a generic parameter in `params`
/// or `Self`), a type macro (`m!()`) or a macro variable (`$t`), anywhere in it.
fn hidden_type(ty: &[Tok], params: &[&str]) -> Option<&'static str> {
    for (j, t) in ty.iter().enumerate() {
        let next_is_path = ty.get(j + 1).is_some_and(|n| n.is_punct("::"));
        let what = if (t.is_punct(">") || t.is_punct(">>")) && next_is_path {
            "a projection (`<X as Trait>::Name`)"
        } else if next_is_path
            && t.keyword()
                .is_some_and(|n| n == "Self" || params.contains(&n))
        {
            "a projection on a generic parameter (`T::Name`)"
        } else if t.is_punct("$") && ty.get(j + 1).and_then(Tok::keyword) != Some("crate") {
            "a macro variable"
        } else if t.ident().is_some() && ty.get(j + 1).is_some_and(|n| n.is_punct("!")) {
            "a type macro"
        } else if let Tok::Group { inner, .. } = t {
            match hidden_type(inner, params) {
                Some(what) => what,
                None => continue,
            }
        } else {
            continue;
        };
        return Some(what);
    }
    None
}

/// `ty` written back as text, for a message.
fn shown(ty: &[Tok]) -> String {
    ty.iter()
        .map(|t| match t {
            Tok::Ident { name, .. } => name.clone(),
            Tok::Punct { op, .. } => op.clone(),
            _ => "..".to_owned(),
        })
        .collect::<Vec<_>>()
        .join("")
}

/// The names of the generic parameters at the start of `rest` (`<T, const N:
/// usize>`), and what follows them. Lifetimes are not names a path can start with,
/// so they are left out.
fn generics(rest: &[Tok]) -> (Vec<&str>, &[Tok]) {
    if !rest.first().is_some_and(|t| t.is_punct("<")) {
        return (Vec::new(), rest);
    }
    let mut names = Vec::new();
    let mut depth = 0i32;
    for (j, t) in rest.iter().enumerate() {
        depth += angle_change(t);
        if depth <= 0 {
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

/// The trait path and what follows the `for` of an impl header in `rest` (the tokens
/// after its generics), or `None` for an inherent impl or an `impl Trait` type. A
/// higher-ranked `for<...>` is passed over.
fn after_for(rest: &[Tok]) -> Option<(&[Tok], &[Tok])> {
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
            return Some((&rest[..j], &rest[j + 1..]));
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

/// `ty` up to (not including) the `;` that ends an alias.
fn until_end(ty: &[Tok]) -> &[Tok] {
    let end = top_level(ty)
        .find(|&j| ty[j].is_punct(";"))
        .unwrap_or(ty.len());
    &ty[..end]
}

/// Whether the angle brackets opened by `toks[0]` close at its last token and not before.
fn closes_at_end(toks: &[Tok]) -> bool {
    let mut depth = 0i32;
    for (j, t) in toks.iter().enumerate() {
        depth += angle_change(t);
        if depth <= 0 {
            return j == toks.len() - 1;
        }
    }
    false
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

//! `'static` only on a reference to a type the file names.
//!
//! A closure that captures nothing is `'static` even when it returns a
//! borrow, and rustc 1.95 concludes from `T: 'static` that `T`'s associated
//! types are `'static` too (rust-lang/rust#84366). So a generic function
//! bounded `T: Iterator + 'static`, handed `iter::from_fn(|| None)` and a
//! borrow as `T::Item`, may keep the borrow forever: the lifetime extension
//! of #25860 with no named lifetime at all. The bound is the one thing the
//! technique must write, as `T: 'static`, `+ 'static`, or an implied one:
//! `&'static T` or a type's lifetime argument (`slice::Iter<'static, T>`)
//! makes rustc assume `T: 'static` too. So `'static` is allowed only on a
//! reference (`&'static str`, `&'static [i32; 64]`), and only when the type
//! referred to mentions no generic parameter, `Self` or `impl Trait`.

use std::collections::HashSet;

use super::{Rule, Violation};
use crate::tokens::Tok;

/// Refuses every `'static` in `toks` that bounds a type or may stand for a
/// bound on a generic one.
pub(super) fn check(toks: &[Tok], out: &mut Vec<Violation>) {
    let mut generic = HashSet::new();
    generic_names(toks, &mut generic);
    walk(toks, &generic, out);
}

fn walk(toks: &[Tok], generic: &HashSet<&str>, out: &mut Vec<Violation>) {
    for (i, tok) in toks.iter().enumerate() {
        match tok {
            Tok::Lifetime {
                name,
                raw: false,
                pos,
            } if name == "static" => {
                let reference = i > 0 && (toks[i - 1].is_punct("&") || toks[i - 1].is_punct("&&"));
                let message = if !reference {
                    "`'static` as a bound or a lifetime argument"
                } else if referred_type(&toks[i + 1..])
                    .iter()
                    .any(|t| mentions(t, generic))
                {
                    "`&'static` on a type that mentions a generic parameter"
                } else {
                    continue;
                };
                out.push(Violation::new(
                    Rule::StaticBound,
                    *pos,
                    format!(
                        "{message}: rustc takes a `'static` type's associated types to be \
                         `'static` too, which a closure's are not (rust-lang/rust#84366)"
                    ),
                ));
            }
            Tok::Group { inner, .. } => walk(inner, generic, out),
            _ => {}
        }
    }
}

/// The tokens of the type after `&'static` in `rest`: up to the `,`, `;`,
/// `=`, `|`, block or closing `>` that ends it.
fn referred_type(rest: &[Tok]) -> &[Tok] {
    let mut depth = 0i32;
    for (j, t) in rest.iter().enumerate() {
        if let Tok::Punct { op, .. } = t {
            match op.as_str() {
                "<" => depth += 1,
                ">" => depth -= 1,
                ">>" => depth -= 2,
                "," | ";" | "=" | "|" | "=>" if depth == 0 => return &rest[..j],
                _ => {}
            }
            if depth < 0 {
                return &rest[..j];
            }
        } else if depth == 0 && t.group(proc_macro2::Delimiter::Brace).is_some() {
            return &rest[..j];
        }
    }
    rest
}

/// Whether `t` is, or holds, a generic parameter's name, `Self`, `impl` or a
/// macro variable (which could be any of them).
fn mentions(t: &Tok, generic: &HashSet<&str>) -> bool {
    match t {
        Tok::Ident { name, .. } => {
            generic.contains(name.as_str()) || name == "Self" || t.keyword() == Some("impl")
        }
        Tok::Punct { op, .. } => op == "$",
        Tok::Group { inner, .. } => inner.iter().any(|t| mentions(t, generic)),
        _ => false,
    }
}

/// The names of every generic type parameter the file declares (`<T: Ord,
/// const N: usize>` after `fn f`, `struct S`, `impl` and the like).
fn generic_names<'a>(toks: &'a [Tok], out: &mut HashSet<&'a str>) {
    const DECLARES: &[&str] = &["fn", "struct", "enum", "union", "trait", "type"];
    for (i, tok) in toks.iter().enumerate() {
        let opens = toks.get(i + 1).is_some_and(|t| t.is_punct("<"));
        let declares = tok.keyword() == Some("impl")
            || (i > 0 && toks[i - 1].keyword().is_some_and(|k| DECLARES.contains(&k)));
        if opens && declares {
            params(&toks[i + 1..], out);
        }
        if let Tok::Group { inner, .. } = tok {
            generic_names(inner, out);
        }
    }
}

/// The parameter names of the generics list that `list` starts with.
fn params<'a>(list: &'a [Tok], out: &mut HashSet<&'a str>) {
    let mut depth = 0i32;
    for (j, t) in list.iter().enumerate() {
        if let Tok::Punct { op, .. } = t {
            depth += match op.as_str() {
                "<" => 1,
                ">" => -1,
                ">>" => -2,
                _ => 0,
            };
        }
        if depth <= 0 {
            return;
        }
        let starts = depth == 1 && (j == 0 || t.is_punct(","));
        if starts {
            let k = j + 1 + usize::from(list.get(j + 1).and_then(Tok::keyword) == Some("const"));
            if let Some(name) = list.get(k).and_then(Tok::ident) {
                out.insert(name);
            }
        }
    }
}

//! Inheritance between the file's own classes (`class TTEntry : ValuedMove`): the derived
//! class gets copies of its base's instance members and becomes a class of its own.
//!
//! That keeps C#'s meaning as long as no derived instance is ever used as its base: every
//! object's methods are then those of its runtime type, which is what virtual dispatch
//! picks (a copied base method calls the derived class's overrides, as C# does). A
//! derived instance stored where a base is expected is a Rust type error, so that case
//! fails loudly rather than changing meaning. A base's constructors and a derived
//! member named like one of its base's (hiding, overloading) are refused.

use crate::ast::*;
use crate::error::PortError;

type R<T> = Result<T, PortError>;

/// Flattens every derivation between the file's classes, then drops a base the file
/// names nowhere else (`class IChessBot : ChessChallenge.API.IChessBot`, only derived
/// from).
pub(super) fn flatten(unit: &mut Unit, src: &str) -> R<()> {
    for t in &mut unit.types {
        comparer_as_interface(t);
    }
    let mut bases = Vec::new();
    let mut done = vec![false; unit.types.len()];
    for t in 0..unit.types.len() {
        flatten_one(unit, t, &mut done, 0, &mut bases)?;
    }
    unit.types.retain(|t| !only_derived_from(t, &bases, src));
    // A kept base that is a bot would leave two bots, and the runner makes only one.
    let bot = TypeRef::Named("IChessBot".into(), Vec::new());
    if let Some(t) = unit
        .types
        .iter()
        .find(|t| bases.contains(&t.name) && t.bases.contains(&bot))
    {
        return Err(unsupported(t, "a bot class another class derives from"));
    }
    Ok(())
}

/// `class C : Comparer<T>` as `class C : IComparer<T>`: what the file can do with one
/// (pass it to `Sort`, call its `Compare`) only reaches the `Compare` it overrides, as
/// with an `IComparer<T>` (the abstract class adds statics and the non-generic
/// interface, which C# reaches only through the type's name or a cast).
fn comparer_as_interface(t: &mut TypeDecl) {
    if let Some(TypeRef::Named(name, args)) = t.bases.first_mut()
        && name == "Comparer"
        && args.len() == 1
    {
        *name = "IComparer".into();
    }
}

/// The index of the file's class `t` derives from. A base named like the class itself
/// is not the class (C# forbids that) but the API's (`ChessChallenge.API.IChessBot`).
fn base_class(unit: &Unit, t: usize) -> Option<usize> {
    let decl = &unit.types[t];
    let TypeRef::Named(name, args) = decl.bases.first()? else {
        return None;
    };
    if decl.kind != TypeKind::Class || !args.is_empty() || *name == decl.name {
        return None;
    }
    unit.types
        .iter()
        .position(|b| b.name == *name && b.kind == TypeKind::Class)
}

fn flatten_one(
    unit: &mut Unit,
    t: usize,
    done: &mut [bool],
    depth: usize,
    bases: &mut Vec<String>,
) -> R<()> {
    if done[t] {
        return Ok(());
    }
    let Some(b) = base_class(unit, t) else {
        done[t] = true;
        return Ok(());
    };
    if depth > unit.types.len() {
        return Err(unsupported(&unit.types[t], "a cycle of base classes"));
    }
    flatten_one(unit, b, done, depth + 1, bases)?;
    let inherited = inherited_members(&unit.types[t], &unit.types[b])?;
    let base_bases = unit.types[b].bases.clone();
    let name = unit.types[b].name.clone();
    let decl = &mut unit.types[t];
    decl.members.extend(inherited);
    decl.bases.remove(0);
    decl.bases.extend(base_bases);
    bases.push(name);
    done[t] = true;
    Ok(())
}

/// The members `derived` copies from `base`: its instance fields and methods, but for
/// those `derived` overrides. They come after the derived class's own, so that the field
/// initialisers run in C#'s order (the derived class's first).
fn inherited_members(derived: &TypeDecl, base: &TypeDecl) -> R<Vec<Member>> {
    let mut out = Vec::new();
    for m in &base.members {
        let names: Vec<&str> = match m {
            Member::Field(f) => f.vars.iter().map(|v| v.0.as_str()).collect(),
            Member::Method(md) => vec![md.name.as_str()],
            Member::Comment(_) => continue,
        };
        if let Member::Method(md) = m {
            if md.name == ".ctor" {
                return Err(PortError::unsupported(
                    md.span,
                    "a constructor of a class another derives from",
                    &base.name,
                ));
            }
            if overridden(derived, md) {
                continue;
            }
        }
        if let Some(clash) = derived.members.iter().find(|d| declares(d, &names)) {
            let span = match clash {
                Member::Field(f) => f.span,
                Member::Method(md) => md.span,
                Member::Comment(_) => derived.span,
            };
            return Err(PortError::unsupported(
                span,
                "a member named like one of its base class's (hiding or overloading it)",
                names[0],
            ));
        }
        let is_static = match m {
            Member::Field(f) => f.is_static || f.is_const,
            Member::Method(md) => md.is_static,
            Member::Comment(_) => true,
        };
        if !is_static {
            out.push(m.clone());
        }
    }
    Ok(out)
}

/// Whether `derived` overrides the virtual (or abstract) `m` with the same signature.
fn overridden(derived: &TypeDecl, m: &MethodDecl) -> bool {
    m.dispatch == Dispatch::Virtual
        && derived.members.iter().any(|d| {
            matches!(d, Member::Method(o) if o.dispatch == Dispatch::Override
                && o.name == m.name
                && o.is_property == m.is_property
                && o.params.len() == m.params.len()
                && o.params.iter().zip(&m.params).all(|(a, b)| a.ty == b.ty && a.mode == b.mode))
        })
}

fn declares(member: &Member, names: &[&str]) -> bool {
    match member {
        Member::Field(f) => f.vars.iter().any(|v| names.contains(&v.0.as_str())),
        Member::Method(md) => names.contains(&md.name.as_str()),
        Member::Comment(_) => false,
    }
}

/// Whether `t` is a base class with no static members that the source names only in its
/// declaration and in its derived classes' base lists.
fn only_derived_from(t: &TypeDecl, bases: &[String], src: &str) -> bool {
    let derived = bases.iter().filter(|b| **b == t.name).count();
    let has_static = t.members.iter().any(|m| match m {
        Member::Field(f) => f.is_static || f.is_const,
        Member::Method(md) => md.is_static,
        Member::Comment(_) => false,
    });
    derived > 0 && !has_static && mentions(src, &t.name) == derived + 1
}

/// How many times `src` names `name` as an identifier that is not a qualified name's last
/// part (comments and strings count too, which only keeps a class).
fn mentions(src: &str, name: &str) -> usize {
    let ident = |c: char| c.is_alphanumeric() || c == '_';
    src.match_indices(name)
        .filter(|(at, _)| {
            let before = src[..*at].chars().next_back();
            let after = src[at + name.len()..].chars().next();
            !before.is_some_and(|c| ident(c) || c == '.') && !after.is_some_and(ident)
        })
        .count()
}

fn unsupported(t: &TypeDecl, construct: &str) -> PortError {
    PortError::unsupported(t.span, construct, &t.name)
}

//! Finalizers (`~Bot() { ... }`). C# runs one on the collector's thread, at a time it
//! leaves open, after its object became unreachable. One whose body only empties
//! collections that the object's own fields alone reach cannot change play: by then
//! nothing can see those collections. That one is dropped; any other is refused.

use tree_sitter::Node;

use super::{Lower, R};
use crate::ast::*;

/// The collections whose `Clear` no other code can observe once their owner is gone
/// (it calls nothing of the file's).
const COLLECTIONS: [&str; 8] = [
    "List",
    "Dictionary",
    "HashSet",
    "Queue",
    "Stack",
    "SortedSet",
    "SortedDictionary",
    "LinkedList",
];

impl<'a> Lower<'a> {
    /// Checks that finalizer `node` of `decl` (whose members are all read) only clears
    /// collections its instance alone holds.
    pub(super) fn finalizer(&self, node: Node<'a>, decl: &TypeDecl) -> R<()> {
        let refuse = |why: &str| {
            self.unsupported(
                node,
                &format!(
                    "a finalizer (C# runs it at an unknown time on the collector's thread) {why}"
                ),
            )
        };
        let body = match node.child_by_field_name("body") {
            Some(b) => self.body(b)?,
            None => return Err(refuse("without a body")),
        };
        let stmts = match body {
            Body::Block(stmts) => stmts,
            Body::Expr(e) => vec![Stmt {
                span: e.span,
                kind: StmtKind::Expr(*e),
            }],
            Body::None => Vec::new(),
        };
        for s in &stmts {
            let field = match &s.kind {
                StmtKind::Empty | StmtKind::Comment(_) => continue,
                StmtKind::Expr(e) => cleared_field(e),
                _ => None,
            };
            let Some(field) = field else {
                return Err(refuse("doing more than clearing collections"));
            };
            if !own_collection(decl, field) {
                return Err(refuse(&format!(
                    "clearing `{field}`, not a collection field of its instance"
                )));
            }
            if !unshared(self.src, field) {
                return Err(refuse(&format!(
                    "clearing `{field}`, a collection other code may also hold"
                )));
            }
        }
        Ok(())
    }
}

/// `f.Clear()` or `this.f.Clear()`: `f`.
fn cleared_field(e: &Expr) -> Option<&str> {
    let ExprKind::Call(callee, args) = &e.kind else {
        return None;
    };
    let ExprKind::Member(target, method, _) = &callee.kind else {
        return None;
    };
    if method != "Clear" || !args.is_empty() {
        return None;
    }
    match &target.kind {
        ExprKind::Name(f, _) => Some(f),
        ExprKind::Member(this, f, _) if matches!(this.kind, ExprKind::This) => Some(f),
        _ => None,
    }
}

/// Whether `decl` declares `name` as an instance field holding one of [`COLLECTIONS`].
fn own_collection(decl: &TypeDecl, name: &str) -> bool {
    decl.members.iter().any(|m| {
        matches!(m, Member::Field(f) if !f.is_static
            && !f.is_const
            && f.vars.iter().any(|v| v.0 == name)
            && matches!(&f.ty, TypeRef::Named(t, _) if COLLECTIONS.contains(&t.as_str())))
    })
}

/// Whether every mention of `field` in `src` reaches through it (`f.M`, `f[i]`) or gives
/// it a new collection (`f = new ...`): then the collection it holds is never handed to
/// other code, which alone could still see it after its owner is gone.
fn unshared(src: &str, field: &str) -> bool {
    let ident = |c: char| c.is_alphanumeric() || c == '_';
    src.match_indices(field).all(|(at, _)| {
        let before = src[..at].chars().next_back();
        let rest = &src[at + field.len()..];
        if before.is_some_and(ident) || rest.chars().next().is_some_and(ident) {
            return true;
        }
        let rest = rest.trim_start();
        if rest.starts_with('.') || rest.starts_with('[') || rest.starts_with("?.") {
            return true;
        }
        match rest.strip_prefix('=') {
            Some(value) if !value.starts_with('=') => {
                let value = value.trim_start();
                value.starts_with("new ") || value.starts_with("new(")
            }
            _ => false,
        }
    })
}

#[cfg(test)]
mod tests {
    use super::unshared;

    #[test]
    fn a_field_handed_on_is_shared() {
        let src = "Dictionary<int, int> tt = new(); void F() { tt[1] = 2; tt.Clear(); }";
        assert!(unshared(src, "tt"));
        assert!(!unshared(&format!("{src} void G() {{ H(tt); }}"), "tt"));
        assert!(!unshared(
            &format!("{src} void G() {{ var x = tt; }}"),
            "tt"
        ));
        assert!(!unshared(
            &format!("{src} void G() {{ tt = other; }}"),
            "tt"
        ));
    }
}

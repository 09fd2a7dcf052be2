//! `goto` and labels, where a label and its gotos are in one block: a forward `goto`
//! leaves a labelled block that ends at the label; a backward one continues a labelled
//! loop that starts at the label and ends with the last statement jumping back.

use super::decls::{FileEmitter, GotoLabel};
use super::names::snake;
use super::{R, unsupported};
use crate::ast::*;

/// Whether `s` (not counting lambdas and local functions) contains `goto label`.
pub(crate) fn jumps_to(s: &Stmt, label: &str) -> bool {
    let any = |v: &[Stmt]| v.iter().any(|s| jumps_to(s, label));
    match &s.kind {
        StmtKind::Goto(l) => l == label,
        StmtKind::Block(v) => any(v),
        StmtKind::If(_, a, b) => {
            jumps_to(a, label) || b.as_deref().is_some_and(|b| jumps_to(b, label))
        }
        StmtKind::While(_, b) | StmtKind::Do(b, _) | StmtKind::Foreach { body: b, .. } => {
            jumps_to(b, label)
        }
        StmtKind::For { body, .. } => jumps_to(body, label),
        StmtKind::Labeled(_, inner) => jumps_to(inner, label),
        StmtKind::Switch(_, sections) => sections.iter().any(|sec| any(&sec.body)),
        StmtKind::Try {
            body,
            catches,
            finally,
        } => {
            any(body) || catches.iter().any(|c| any(&c.body)) || finally.as_deref().is_some_and(any)
        }
        _ => false,
    }
}

/// Whether `s` has a `break` or `continue` of a loop around it (one a new loop or
/// labelled block around it would capture).
fn escapes(s: &Stmt) -> bool {
    let any = |v: &[Stmt]| v.iter().any(escapes);
    match &s.kind {
        StmtKind::Break | StmtKind::Continue => true,
        StmtKind::Block(v) => any(v),
        StmtKind::If(_, a, b) => escapes(a) || b.as_deref().is_some_and(escapes),
        StmtKind::Labeled(_, inner) => escapes(inner),
        StmtKind::Try { body, catches, .. } => any(body) || catches.iter().any(|c| any(&c.body)),
        StmtKind::Switch(_, sections) => sections.iter().any(|sec| {
            sec.body
                .iter()
                .any(|s| matches!(s.kind, StmtKind::Continue) || escapes_continue(s))
        }),
        _ => false,
    }
}

fn escapes_continue(s: &Stmt) -> bool {
    match &s.kind {
        StmtKind::Continue => true,
        StmtKind::Block(v) => v.iter().any(escapes_continue),
        StmtKind::If(_, a, b) => escapes_continue(a) || b.as_deref().is_some_and(escapes_continue),
        _ => false,
    }
}

impl FileEmitter<'_, '_> {
    /// A block's statements with its labels: `None` if it has none.
    pub(crate) fn labelled_stmts(&mut self, stmts: &[Stmt]) -> R<Option<String>> {
        let Some(k) = stmts
            .iter()
            .position(|s| matches!(s.kind, StmtKind::Labeled(..)))
        else {
            return Ok(None);
        };
        let StmtKind::Labeled(label, inner) = &stmts[k].kind else {
            unreachable!("a label")
        };
        let rust = format!("'{}", snake(label).trim_end_matches('_'));
        let first_forward = stmts[..k].iter().position(|s| jumps_to(s, label));
        let last_backward = stmts[k..]
            .iter()
            .rposition(|s| jumps_to(s, label))
            .map(|j| j + k);
        let mut out = String::new();
        // Statements before any forward jump, then the forward region as a block.
        let start = first_forward.unwrap_or(k);
        out.push_str(&self.stmts_body(&stmts[..start])?);
        if let Some(i) = first_forward {
            if stmts[i..k].iter().any(escapes) {
                return Err(unsupported(
                    stmts[i].span,
                    "a `goto` past a `break` or `continue`",
                    label,
                ));
            }
            self.goto_labels.push(GotoLabel {
                cs: label.clone(),
                code: format!("break {rust}"),
                depth: self.goto_depth(),
            });
            let region = self.stmts_body(&stmts[i..k]);
            self.goto_labels.pop();
            out.push_str(&format!("{rust}: {{\n{}}}\n", Self::indent(&region?)));
        }
        let mut rest: Vec<Stmt> = vec![(**inner).clone()];
        rest.extend_from_slice(&stmts[k + 1..]);
        match last_backward {
            Some(j) if j > k || jumps_to(inner, label) => {
                let end = j.max(k) - k + 1;
                if rest[..end].iter().any(escapes) {
                    return Err(unsupported(
                        stmts[k].span,
                        "a `goto` back past a `break` or `continue`",
                        label,
                    ));
                }
                // Locals declared in the loop stay visible after it: declared before it.
                let (declared, region_stmts) = hoist_locals(&rest[..end]);
                out.push_str(&self.stmts_body(&declared)?);
                self.goto_labels.push(GotoLabel {
                    cs: label.clone(),
                    code: format!("continue {rust}"),
                    depth: self.goto_depth(),
                });
                let region = self.stmts_body(&region_stmts);
                self.goto_labels.pop();
                out.push_str(&format!(
                    "{rust}: loop {{\n{}    break;\n}}\n",
                    Self::indent(&region?)
                ));
                out.push_str(&self.stmts_body(&rest[end..])?);
            }
            _ => out.push_str(&self.stmts_body(&rest)?),
        }
        Ok(Some(out))
    }

    /// `goto label;`.
    pub(crate) fn goto(&mut self, label: &str, s: &Stmt) -> R<String> {
        let depth = self.goto_depth();
        match self.goto_labels.iter().rev().find(|g| g.cs == label) {
            Some(g) if g.depth == depth => Ok(format!("{};\n", g.code)),
            Some(_) => Err(unsupported(
                s.span,
                "a `goto` out of a `try` or lambda",
                label,
            )),
            None => Err(unsupported(
                s.span,
                "a `goto` to a label in another block",
                label,
            )),
        }
    }

    fn goto_depth(&self) -> (usize, u32) {
        (self.fr().try_exits.len(), self.fr().lambda_depth)
    }
}

/// `T x = e;` statements of `stmts` (at its top level, the label's own included) split
/// into a declaration `T x;` and an assignment `x = e;`.
pub(super) fn hoist_locals(stmts: &[Stmt]) -> (Vec<Stmt>, Vec<Stmt>) {
    let mut declared = Vec::new();
    let mut region = Vec::new();
    for s in stmts {
        let (inner, label) = match &s.kind {
            StmtKind::Labeled(l, inner) => (&**inner, Some(l.clone())),
            _ => (s, None),
        };
        let rewritten = match &inner.kind {
            StmtKind::Local {
                ty,
                vars,
                is_const: false,
            } if *ty != TypeRef::Var => {
                let names = vars
                    .iter()
                    .map(|(n, _, sp)| (n.clone(), None, *sp))
                    .collect();
                declared.push(Stmt {
                    kind: StmtKind::Local {
                        ty: ty.clone(),
                        vars: names,
                        is_const: false,
                    },
                    span: inner.span,
                });
                let assigns: Vec<Stmt> = vars
                    .iter()
                    .filter_map(|(n, init, sp)| {
                        let init = init.clone()?;
                        let target = Expr::new(ExprKind::Name(n.clone(), Vec::new()), *sp, (0, 0));
                        let assign = Expr::new(
                            ExprKind::Assign(None, Box::new(target), Box::new(init)),
                            *sp,
                            (0, 0),
                        );
                        Some(Stmt {
                            kind: StmtKind::Expr(assign),
                            span: *sp,
                        })
                    })
                    .collect();
                Stmt {
                    kind: StmtKind::Block(assigns),
                    span: inner.span,
                }
            }
            _ => inner.clone(),
        };
        region.push(match label {
            Some(l) => Stmt {
                kind: StmtKind::Labeled(l, Box::new(rewritten)),
                span: s.span,
            },
            None => rewritten,
        });
    }
    (declared, region)
}

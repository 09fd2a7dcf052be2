//! Base-library calls with an `out` result that LINQ's table does not cover.

use super::decls::FileEmitter;
use super::{Prec, R, Val, snippet, unsupported};
use crate::ast::{Arg, Expr, ExprKind};
use crate::types::{INT, LONG, Ty};

impl FileEmitter<'_, '_> {
    /// `Math.DivRem(a, b, out r)`: C#'s overloads are `int` and `long`, chosen by the
    /// `out` variable's type (an `out` argument must match its parameter exactly).
    pub(crate) fn div_rem(&mut self, args: &[Arg], e: &Expr) -> R<Val> {
        let out = &args[2].expr;
        let t = match &out.kind {
            ExprKind::DeclVar(tr, _) => self.p.resolve(tr, &self.type_params, out.span)?,
            _ => {
                let saved = self.learned.clone();
                let t = self.expr(out, None).map(|v| v.ty).unwrap_or(Ty::Unknown);
                self.learned = saved;
                t
            }
        };
        if t != INT && t != LONG {
            return Err(unsupported(
                e.span,
                "`Math.DivRem` but of `int` or `long` with an `out` variable",
                snippet(self.src, e),
            ));
        }
        let mut vals = Vec::new();
        for a in &args[..2] {
            let v = self.expr(&a.expr, Some(&t))?;
            vals.push(self.coerce(v, &t, &a.expr)?);
        }
        let r = self.ref_arg(out, &t)?;
        let code = format!(
            "cs::div_rem({}, {}, {})",
            vals[0].code, vals[1].code, r.code
        );
        let mut v = Val::new(code, t, Prec::Primary)
            .absorb(&vals[0])
            .absorb(&vals[1])
            .absorb(&r);
        v.effects = true;
        Ok(v)
    }
}

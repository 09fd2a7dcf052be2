//! `DateTime` and `TimeSpan` operators on the runtime's `cs::DateTime` and `cs::TimeSpan`:
//! the difference of two readings of the clock, sums of spans, and comparisons.

use super::decls::FileEmitter;
use super::{Prec, R, Val};
use crate::ast::{BinOp, Expr};
use crate::types::Ty;

const DATE: Ty = Ty::Api("DateTime");
const SPAN: Ty = Ty::Api("TimeSpan");

/// Whether `t` is a type of this module.
pub(crate) fn is_time(t: &Ty) -> bool {
    *t == DATE || *t == SPAN
}

impl FileEmitter<'_, '_> {
    /// `a op b` where an operand is a `DateTime` or a `TimeSpan`: C#'s operators of those
    /// structs (`DateTime - DateTime` is a `TimeSpan`; `<`, `==`... compare ticks).
    pub(crate) fn time_op(&mut self, op: BinOp, a: Val, b: Val, e: &Expr) -> R<Val> {
        let (code, ty, prec) = match (op, &a.ty, &b.ty) {
            (BinOp::Sub, x, y) if *x == DATE && *y == DATE => {
                let code = format!("{}.minus({})", a.at(Prec::Primary), b.code);
                (code, SPAN, Prec::Primary)
            }
            (BinOp::Add | BinOp::Sub, x, y) if *x == SPAN && *y == SPAN => {
                let method = if op == BinOp::Add { "plus" } else { "minus" };
                let code = format!("{}.{method}({})", a.at(Prec::Primary), b.code);
                (code, SPAN, Prec::Primary)
            }
            (_, x, y) if op.is_comparison() && x == y => {
                let code = format!("{} {} {}", a.at(Prec::BitOr), op.rust(), b.at(Prec::BitOr));
                (code, Ty::Bool, Prec::Cmp)
            }
            _ => {
                return Err(self.operands_refused(op, &a, &b, e));
            }
        };
        Ok(Val::new(code, ty, prec).absorb(&a).absorb(&b))
    }
}

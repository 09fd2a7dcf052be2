//! `BigInteger` operators on the runtime's `cs::BigInteger` (2048 bits, panicking where
//! C#'s value would outgrow them): shifts, masks, arithmetic, comparisons, and the
//! conversions from and to C#'s integers.

use super::decls::FileEmitter;
use super::{Prec, R, Val, snippet, unsupported};
use crate::ast::{BinOp, Expr, ExprKind};
use crate::types::{IntTy, Ty};

pub(crate) const BIG: Ty = Ty::Api("BigInteger");

impl FileEmitter<'_, '_> {
    /// `a op b` where an operand is a `BigInteger`: the other, an integer, converts
    /// implicitly (C#'s implicit conversions from every integral type).
    pub(crate) fn big_op(&mut self, op: BinOp, a: Val, b: Val, e: &Expr) -> R<Val> {
        let refuse = |this: &Self| this.operands_refused(op, &a, &b, e);
        let shift = match op {
            BinOp::Shr => "shr",
            BinOp::Shl => "shl",
            _ => "",
        };
        // C#'s shift count is an `int`: a narrower integer converts implicitly.
        if !shift.is_empty() && a.ty == BIG && b.ty.int().is_some_and(|i| i.bits() <= 32) {
            let code = format!(
                "{}.{shift}({} as i32)",
                a.at(Prec::Primary),
                b.at(Prec::Cast)
            );
            return Ok(Val::new(code, BIG, Prec::Primary).absorb(&a).absorb(&b));
        }
        let method = match op {
            BinOp::And => "and",
            BinOp::Or => "or",
            BinOp::Xor => "xor",
            BinOp::Add => "add",
            BinOp::Sub => "sub",
            BinOp::Mul => "mul",
            BinOp::Div => "div",
            BinOp::Rem => "rem",
            _ if op.is_comparison() => "",
            _ => return Err(refuse(self)),
        };
        let (Some(x), Some(y)) = (self.to_big(&a), self.to_big(&b)) else {
            return Err(refuse(self));
        };
        let (code, ty, prec) = if method.is_empty() {
            let code = format!("{x} {} {y}", op.rust());
            (code, Ty::Bool, Prec::Cmp)
        } else {
            (format!("{x}.{method}({y})"), BIG, Prec::Primary)
        };
        Ok(Val::new(code, ty, prec).absorb(&a).absorb(&b))
    }

    /// `BigInteger.Parse(s)`: of `d.ToString()`, a decimal, read from the decimal itself
    /// (exact, with no text made); of another string, read from the text.
    pub(crate) fn big_parse(&mut self, arg: &Expr) -> R<Val> {
        if let ExprKind::Call(f, args) = &arg.kind
            && args.is_empty()
            && let ExprKind::Member(d, name, _) = &f.kind
            && name == "ToString"
        {
            let v = self.expr(d, None)?;
            if v.ty == Ty::Decimal {
                let code = format!(
                    "cs::BigInteger::parse_decimal_text({}.get_bits())",
                    v.at(Prec::Primary)
                );
                return Ok(Val::new(code, BIG, Prec::Primary).absorb(&v));
            }
        }
        let v = self.expr(arg, Some(&Ty::Str))?;
        let v = self.coerce(v, &Ty::Str, arg)?;
        let code = format!("cs::BigInteger::parse(&{})", v.at(Prec::Unary));
        Ok(Val::new(code, BIG, Prec::Primary).absorb(&v))
    }

    /// `BigInteger.Pow(a, n)`: `a` a `BigInteger` or an integer, `n` an `int`.
    pub(crate) fn big_pow(&mut self, args: &[crate::ast::Arg], e: &Expr) -> R<Val> {
        let a = self.expr(&args[0].expr, None)?;
        let n = self.expr(&args[1].expr, Some(&Ty::Int(IntTy::I32)))?;
        let n = self.coerce(n, &Ty::Int(IntTy::I32), &args[1].expr)?;
        let Some(base) = self.to_big(&a) else {
            return Err(unsupported(
                e.span,
                format!("`BigInteger.Pow` of a `{}`", a.ty.cs()),
                snippet(self.src, e),
            ));
        };
        let code = format!("{base}.pow({})", n.code);
        Ok(Val::new(code, BIG, Prec::Primary).absorb(&a).absorb(&n))
    }

    /// A `BigInteger` operand's code: itself, or an integer converted.
    fn to_big(&self, v: &Val) -> Option<String> {
        match &v.ty {
            t if *t == BIG => Some(v.at(Prec::Primary)),
            Ty::Int(_) | Ty::Char => Some(format!(
                "cs::BigInteger::from_i128({} as i128)",
                v.at(Prec::Cast)
            )),
            _ => None,
        }
    }

    /// `(T)big` to an integer type: C#'s explicit conversion, which throws out of range.
    pub(crate) fn big_to_int(&self, v: Val, to: IntTy) -> R<Val> {
        let rust = Ty::Int(to);
        let code = format!("{}.to_int::<{}>()", v.at(Prec::Primary), to.rust());
        Ok(Val::new(code, rust, Prec::Primary).absorb(&v))
    }

    /// `(BigInteger)n` and the implicit conversion of an integer.
    pub(crate) fn int_to_big(&self, v: Val) -> Val {
        let code = format!("cs::BigInteger::from_i128({} as i128)", v.at(Prec::Cast));
        Val::new(code, BIG, Prec::Primary).absorb(&v)
    }
}

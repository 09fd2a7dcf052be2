//! C#'s `decimal` on the runtime's exact `cs::Decimal`: its operators (an integer
//! operand converting implicitly), its conversions, and `Math`'s rounding of it. A
//! `float` or `double` never mixes with a decimal implicitly (C# has no such conversion).

use super::decls::FileEmitter;
use super::expr::{konst, next, op_prec};
use super::{Const, Prec, R, Val, snippet, unsupported};
use crate::ast::{Arg, BinOp, Expr, ExprKind};
use crate::types::{IntTy, Ty};

impl FileEmitter<'_, '_> {
    /// `a op b` where an operand is a `decimal`: arithmetic (checked always, as C#'s
    /// decimal throws `OverflowException` in unchecked code too) or a comparison.
    pub(crate) fn decimal_op(
        &mut self,
        op: BinOp,
        a: Val,
        b: Val,
        l: &Expr,
        r: &Expr,
        e: &Expr,
    ) -> R<Val> {
        let arithmetic = matches!(
            op,
            BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div | BinOp::Rem
        );
        let operand = |v: &Val| matches!(v.ty, Ty::Decimal | Ty::Int(_) | Ty::Char);
        if !(arithmetic || op.is_comparison()) || !operand(&a) || !operand(&b) {
            return Err(self.operands_refused(op, &a, &b, e));
        }
        let a = self.coerce(a, &Ty::Decimal, l)?;
        let b = self.coerce(b, &Ty::Decimal, r)?;
        let prec = op_prec(op);
        let code = format!("{} {} {}", a.at(prec), op.rust(), b.at(next(prec)));
        let ty = if arithmetic { Ty::Decimal } else { Ty::Bool };
        Ok(Val::new(code, ty, prec).absorb(&a).absorb(&b))
    }

    /// An integer's implicit conversion to `decimal` (exact): a constant as a decimal
    /// constant.
    pub(crate) fn int_to_decimal(&self, v: Val) -> Val {
        if let Some(Const::Int(n)) = v.konst {
            let k = Const::Decimal(n.unsigned_abs(), 0, n < 0);
            return konst(
                Val::new(super::expr::decimal_code(&k), Ty::Decimal, Prec::Primary),
                k,
            );
        }
        let code = match v.ty {
            Ty::Char => format!("cs::Decimal::from({} as u16)", v.at(Prec::Cast)),
            _ => format!("cs::Decimal::from({})", v.code),
        };
        Val::new(code, Ty::Decimal, Prec::Primary).absorb(&v)
    }

    /// `(T)v` to or from `decimal`: from an integer exact; from a `double` or `float` at
    /// 15 or 7 significant digits (.NET's conversion); to an integer toward zero,
    /// throwing out of range; to a `double` or `float` as .NET divides.
    pub(crate) fn decimal_cast(&mut self, v: Val, to: &Ty, e: &Expr) -> R<Val> {
        let code = match (&v.ty, to) {
            (from, Ty::Decimal) if from == to => return Ok(v),
            (Ty::Int(_) | Ty::Char, Ty::Decimal) => return Ok(self.int_to_decimal(v)),
            (Ty::F64, Ty::Decimal) => format!("cs::Decimal::from_f64({})", v.code),
            (Ty::F32, Ty::Decimal) => format!("cs::Decimal::from_f32({})", v.code),
            (Ty::Decimal, Ty::F64) => format!("{}.to_f64()", v.at(Prec::Primary)),
            (Ty::Decimal, Ty::F32) => format!("{}.to_f32()", v.at(Prec::Primary)),
            (Ty::Decimal, Ty::Int(i)) => {
                format!("{}.to_{}()", v.at(Prec::Primary), i.rust())
            }
            _ => {
                return Err(unsupported(
                    e.span,
                    format!("a conversion from `{}` to `{}`", v.ty.cs(), to.cs()),
                    snippet(self.src, e),
                ));
            }
        };
        Ok(Val::new(code, to.clone(), Prec::Primary).absorb(&v))
    }

    /// Whether `x` is a `decimal` (typed without emitting it).
    pub(crate) fn is_decimal(&mut self, x: &Expr) -> bool {
        let (learned, pre) = (self.learned.clone(), self.f().pre.clone());
        let t = self.expr(x, None).map(|v| v.ty);
        (self.learned, self.f().pre) = (learned, pre);
        matches!(t, Ok(Ty::Decimal))
    }

    /// `Math.Floor`, `Ceiling`, `Truncate`, `Round` of a decimal (and `decimal.Floor`...):
    /// `Round` with halves to even, of `digits` places when given; a `MidpointRounding`
    /// is refused.
    pub(crate) fn decimal_math(&mut self, name: &str, args: &[Arg], e: &Expr) -> R<Val> {
        let mode = |a: &Arg| {
            matches!(&a.expr.kind, ExprKind::Member(t, ..)
            if matches!(&t.kind, ExprKind::Name(n, _) if n == "MidpointRounding"))
        };
        let method = match (name, args.len()) {
            _ if args[1..].iter().any(mode) => "",
            ("Floor", 1) => "floor",
            ("Ceiling", 1) => "ceiling",
            ("Truncate", 1) => "truncate",
            ("Round", 1) => "round",
            ("Round", 2) => "round_digits",
            _ => "",
        };
        if method.is_empty() {
            return Err(unsupported(
                e.span,
                format!("`{name}` of a `decimal` with these arguments"),
                snippet(self.src, e),
            ));
        }
        let d = self.expr(&args[0].expr, None)?;
        let mut code = format!("{}.{method}(", d.at(Prec::Primary));
        let mut out = Val::new("", Ty::Decimal, Prec::Primary).absorb(&d);
        if let Some(a) = args.get(1) {
            let n = self.expr(&a.expr, Some(&Ty::Int(IntTy::I32)))?;
            let n = self.coerce(n, &Ty::Int(IntTy::I32), &a.expr)?;
            code.push_str(&n.code);
            out = out.absorb(&n);
        }
        code.push(')');
        out.code = code;
        Ok(out)
    }
}

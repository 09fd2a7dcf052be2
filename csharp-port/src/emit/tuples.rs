//! `System.Tuple<..>`: a class around a value tuple (`cs::Tuple`), nullable and shared,
//! whose `==` compares references and whose `Equals` compares items.

use super::decls::FileEmitter;
use super::{Prec, R, Val, snippet, unsupported};
use crate::ast::{Arg, BinOp, Expr};
use crate::types::{Ty, same_shape};

impl FileEmitter<'_, '_> {
    /// `a == b` of two `Tuple<..>`s: C#'s reference equality (the class declares no
    /// `operator ==`; only `Equals` compares the items).
    pub(crate) fn tuple_class_identity(&mut self, op: BinOp, a: Val, b: Val, e: &Expr) -> R<Val> {
        if !same_shape(&a.ty, &b.ty) {
            return Err(unsupported(
                e.span,
                format!("`==` of a `{}` and a `{}`", a.ty.cs(), b.ty.cs()),
                snippet(self.src, e),
            ));
        }
        let not = if op == BinOp::Ne { "!" } else { "" };
        let code = format!(
            "{not}cs::Tuple::ref_eq(&{}, &{})",
            a.at(Prec::Unary),
            b.at(Prec::Unary)
        );
        Ok(Val::new(code, Ty::Bool, Prec::Unary).absorb(&a).absorb(&b))
    }

    /// `t.Item1`...: a copy of the item (a property of the class, so a struct item's
    /// mutating method changes a copy, as in C#).
    pub(crate) fn tuple_class_item(&mut self, v: &Val, items: &[Ty], name: &str) -> Option<Val> {
        let i = name
            .strip_prefix("Item")
            .and_then(|n| n.parse::<usize>().ok())
            .filter(|n| (1..=items.len()).contains(n))?
            - 1;
        let mut code = format!("{}.{i}", v.at(Prec::Primary));
        if !self.p.is_copy(&items[i]) {
            code.push_str(".clone()");
        }
        let mut out = Val::new(code, items[i].clone(), Prec::Primary).absorb(v);
        out.place = false;
        Some(out)
    }

    /// A method of a `Tuple<..>`: `Equals`, by items, throwing on a null receiver.
    pub(crate) fn tuple_class_call(
        &mut self,
        v: Val,
        name: &str,
        args: &[Arg],
        e: &Expr,
    ) -> R<Val> {
        let [arg] = args else {
            return Err(unsupported(
                e.span,
                format!("the method `{name}` of a `{}`", v.ty.cs()),
                snippet(self.src, e),
            ));
        };
        if name != "Equals" {
            return Err(unsupported(
                e.span,
                format!("the method `{name}` of a `{}`", v.ty.cs()),
                snippet(self.src, e),
            ));
        }
        let x = self.expr(&arg.expr, Some(&v.ty))?;
        let x = self.coerce(x, &v.ty, &arg.expr)?;
        let code = format!(
            "cs::Tuple::equals(&{}, &{})",
            v.at(Prec::Unary),
            x.at(Prec::Unary)
        );
        Ok(Val::new(code, Ty::Bool, Prec::Primary)
            .absorb(&v)
            .absorb(&x))
    }

    /// `Tuple.Create(a, b)`: a `Tuple<A, B>` of the arguments' own types (C# infers the
    /// type arguments from them).
    pub(crate) fn tuple_create(&mut self, items: &[Expr], e: &Expr) -> R<Val> {
        let mut v = self.tuple(items, e, None)?;
        let Ty::Tuple(tys, _) = v.ty else {
            unreachable!("`tuple` gives a tuple");
        };
        if tys.iter().any(|t| matches!(t, Ty::Null | Ty::Unknown)) {
            return Err(unsupported(
                e.span,
                "`Tuple.Create` with an item of no type (`null`)",
                snippet(self.src, e),
            ));
        }
        v.ty = super::ty::tuple_class(tys, e.span)?;
        v.code = format!("cs::Tuple::new({})", v.code);
        v.prec = Prec::Primary;
        Ok(v)
    }

    /// The items of a `Tuple<..>` as a value tuple, for a deconstruction (its
    /// `Deconstruct`, which throws on a null tuple); other values as they are.
    pub(crate) fn tuple_class_items(&mut self, v: Val) -> Val {
        let Ty::TupleClass(items) = &v.ty else {
            return v;
        };
        let n = items.len();
        let ty = Ty::Tuple(items.clone(), vec![None; n]);
        let mut out = Val::new(
            format!("{}.items()", v.at(Prec::Primary)),
            ty,
            Prec::Primary,
        )
        .absorb(&v);
        out.place = false;
        out
    }

    /// A tuple's items from constructor arguments, each converted to its item type.
    pub(crate) fn tuple_items(
        &mut self,
        args: &[Arg],
        items: &[Ty],
        vals: &mut Vec<Val>,
    ) -> R<String> {
        let mut codes = Vec::new();
        for (a, t) in args.iter().zip(items) {
            let v = self.expr(&a.expr, Some(t))?;
            let v = self.coerce(v, t, &a.expr)?;
            let v = self.owned(v);
            codes.push(v.code.clone());
            vals.push(v);
        }
        Ok(if codes.len() == 1 {
            format!("({},)", codes[0])
        } else {
            format!("({})", codes.join(", "))
        })
    }
}

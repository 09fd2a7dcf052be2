//! `Queue<T>`, `Stack<T>` and `PriorityQueue<TElement, TPriority>` on the runtime's
//! `cs::Queue`, `cs::Stack` and `cs::PriorityQueue` (which keeps .NET's heap, so equal
//! priorities come out in .NET's order).

use super::decls::FileEmitter;
use super::{Prec, R, Val, snippet, unsupported};
use crate::ast::{Arg, Expr};
use crate::types::{INT, Ty};

impl FileEmitter<'_, '_> {
    /// `new Queue<T>()`, `new Stack<T>()`, `new PriorityQueue<E, P>()`; a capacity
    /// argument changes nothing C# can see.
    pub(crate) fn new_coll(&mut self, ty: &Ty, args: &[Arg], has_init: bool, e: &Expr) -> R<Val> {
        let mut out = Val::new("", ty.clone(), Prec::Primary);
        if let [a] = args {
            let v = self.expr(&a.expr, None)?;
            let capacity = a.name.as_deref().is_none_or(|n| n == "capacity");
            if v.ty.int().is_none() || !capacity {
                return Err(unsupported(
                    e.span,
                    format!("this `{}` constructor", ty.cs()),
                    snippet(self.src, e),
                ));
            }
            out = out.absorb(&v);
        }
        if args.len() > 1 || has_init {
            return Err(unsupported(
                e.span,
                format!("this `{}` constructor", ty.cs()),
                snippet(self.src, e),
            ));
        }
        if let Ty::Coll("PriorityQueue", targs) = ty
            && !targs[1].is_numeric()
        {
            // The runtime orders priorities by C#'s default comparison of numbers; a
            // type of the file's own would need its `IComparable`.
            return Err(unsupported(
                e.span,
                format!("a `PriorityQueue` of `{}` priorities", targs[1].cs()),
                snippet(self.src, e),
            ));
        }
        out.code = format!("{}::new()", self.rty(ty, e.span)?.replacen('<', "::<", 1));
        Ok(out)
    }

    /// A method of a queue, stack or priority queue.
    pub(crate) fn coll_call(&mut self, v: Val, name: &str, args: &[Arg], e: &Expr) -> R<Val> {
        let Ty::Coll(kind, targs) = v.ty.clone() else {
            unreachable!("coll_call on a collection of this module")
        };
        let r = v.at(Prec::Primary);
        let elem = targs[0].clone();
        let out_arg = |this: &mut Self, i: usize, t: &Ty| this.ref_arg(&args[i].expr, t);
        let (code, ty, vals): (String, Ty, Vec<Val>) = match (kind, name, args.len()) {
            ("Queue", "Enqueue", 1) | ("Stack", "Push", 1) => {
                let a = self.coll_arg(&args[0], &elem)?;
                let method = if kind == "Queue" { "enqueue" } else { "push" };
                (format!("{r}.{method}({})", a.code), Ty::Void, vec![a])
            }
            ("Queue", "Dequeue", 0) | ("Stack", "Pop", 0) | ("Queue" | "Stack", "Peek", 0) => {
                let method = super::names::snake(name);
                (format!("{r}.{method}()"), elem.clone(), vec![])
            }
            ("Queue", "TryDequeue", 1) | ("Stack", "TryPop" | "TryPeek", 1) => {
                let a = out_arg(self, 0, &elem)?;
                let method = super::names::snake(name);
                (format!("{r}.{method}({})", a.code), Ty::Bool, vec![a])
            }
            ("Queue" | "Stack", "Contains", 1) => {
                let a = self.coll_arg(&args[0], &elem)?;
                (
                    format!("{r}.contains(&{})", a.at(Prec::Unary)),
                    Ty::Bool,
                    vec![a],
                )
            }
            ("Queue" | "Stack" | "PriorityQueue", "Clear", 0) => {
                (format!("{r}.clear()"), Ty::Void, vec![])
            }
            // Capacity only: nothing C# can observe.
            ("Queue" | "Stack", "TrimExcess", 0) => ("()".into(), Ty::Void, vec![]),
            ("PriorityQueue", "Enqueue", 2) => {
                let a = self.coll_arg(&args[0], &elem)?;
                let p = self.coll_arg(&args[1], &targs[1])?;
                (
                    format!("{r}.enqueue({}, {})", a.code, p.code),
                    Ty::Void,
                    vec![a, p],
                )
            }
            ("PriorityQueue", "Dequeue" | "Peek", 0) => {
                let method = super::names::snake(name);
                (format!("{r}.{method}()"), elem.clone(), vec![])
            }
            ("PriorityQueue", "TryDequeue" | "TryPeek", 2) => {
                let a = out_arg(self, 0, &elem)?;
                let p = out_arg(self, 1, &targs[1])?;
                let method = super::names::snake(name);
                (
                    format!("{r}.{method}({}, {})", a.code, p.code),
                    Ty::Bool,
                    vec![a, p],
                )
            }
            // A queue and a stack are sequences: LINQ walks them in `foreach`'s order.
            ("Queue" | "Stack", _, _) => return self.linq(v, name, args, e),
            _ => {
                return Err(unsupported(
                    e.span,
                    format!("the method `{name}` of a `{}`", v.ty.cs()),
                    snippet(self.src, e),
                ));
            }
        };
        let mut out = Val::new(code, ty, Prec::Primary).absorb(&v);
        for a in &vals {
            out = out.absorb(a);
        }
        out.effects = true;
        Ok(out)
    }

    /// `Count` of a queue, stack or priority queue.
    pub(crate) fn coll_count(&mut self, v: Val) -> Val {
        let code = format!("{}.count()", v.at(Prec::Primary));
        Val::new(code, INT, Prec::Primary).absorb(&v)
    }

    fn coll_arg(&mut self, a: &Arg, t: &Ty) -> R<Val> {
        let v = self.expr(&a.expr, Some(t))?;
        let v = self.coerce(v, t, &a.expr)?;
        Ok(self.owned(v))
    }
}

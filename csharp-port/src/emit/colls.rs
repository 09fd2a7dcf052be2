//! `Queue<T>`, `Stack<T>`, `PriorityQueue<TElement, TPriority>`, `LinkedList<T>` and
//! `SortedSet<T>` on the runtime's types of those names (which keep .NET's orders: the
//! priority queue's heap, the sorted set's default comparer).

use super::decls::FileEmitter;
use super::{Prec, R, Val, snippet, unsupported};
use crate::ast::{Arg, Expr};
use crate::types::{INT, Ty};

impl FileEmitter<'_, '_> {
    /// `new Queue<T>()`, `new Stack<T>()`, `new PriorityQueue<E, P>()`; a capacity
    /// argument changes nothing C# can see.
    pub(crate) fn new_coll(&mut self, ty: &Ty, args: &[Arg], has_init: bool, e: &Expr) -> R<Val> {
        let mut out = Val::new("", ty.clone(), Prec::Primary);
        if let (Ty::Coll("LinkedListNode", targs), [a], false) = (ty, args, has_init) {
            let v = self.coll_arg(a, &targs[0])?;
            out.code = format!("cs::LinkedListNode::detached({})", v.code);
            return Ok(out.absorb(&v));
        }
        if let Ty::Coll("BitArray", _) = ty {
            return self.new_bit_array(args, has_init, e);
        }
        if let Ty::Coll("StringBuilder", _) = ty {
            return self.new_builder(args, has_init, e);
        }
        let sized = !matches!(
            ty,
            Ty::Coll("LinkedList" | "SortedSet" | "LinkedListNode", _)
        );
        if let [a] = args {
            let v = self.expr(&a.expr, None)?;
            let capacity = a.name.as_deref().is_none_or(|n| n == "capacity");
            if v.ty.int().is_none() || !capacity || !sized {
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
        if kind == "BitArray" {
            return self.bit_array_call(v, name, args, e);
        }
        if kind == "StringBuilder" {
            return self.builder_call(v, name, args, e);
        }
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
            ("LinkedList", _, _) => return self.linked_call(v, &elem, name, args, e),
            ("SortedSet", _, _) => return self.sorted_set_call(v, &elem, name, args, e),
            // A queue and a stack are sequences: LINQ walks them in `foreach`'s order.
            ("Queue" | "Stack" | "IGrouping", _, _) => return self.linq(v, name, args, e),
            ("IEnumerator", "MoveNext", 0) => (format!("{r}.move_next()"), Ty::Bool, vec![]),
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

    /// A property of a collection of this module (see [`has_member`]).
    pub(crate) fn coll_member(&mut self, v: Val, name: &str, e: &Expr) -> R<Val> {
        let Ty::Coll(kind, targs) = v.ty.clone() else {
            unreachable!("coll_member on a collection of this module")
        };
        let (method, ty) = match (kind, name) {
            ("LinkedList", "First" | "Last") => (
                super::names::snake(name),
                Ty::Coll("LinkedListNode", targs.clone()),
            ),
            ("LinkedListNode", "Value") | ("SortedSet", "Min" | "Max") => {
                (super::names::snake(name), targs[0].clone())
            }
            ("BitArray" | "StringBuilder", "Count" | "Length") => ("length".to_string(), INT),
            ("IGrouping", "Key") => ("key".to_string(), targs[0].clone()),
            ("IEnumerator", "Current") => ("current".to_string(), targs[0].clone()),
            (_, "Count") => ("count".to_string(), INT),
            _ => {
                return Err(unsupported(
                    e.span,
                    format!("the member `{name}` of a `{}`", v.ty.cs()),
                    snippet(self.src, e),
                ));
            }
        };
        let code = format!("{}.{method}()", v.at(Prec::Primary));
        Ok(Val::new(code, ty, Prec::Primary).absorb(&v))
    }

    /// A method of a `LinkedList<T>`: `AddLast`, `AddFirst` and `Remove` of a value or of
    /// a node, `RemoveFirst`, `RemoveLast`, `Contains`, `Clear`, and LINQ.
    fn linked_call(&mut self, v: Val, elem: &Ty, name: &str, args: &[Arg], e: &Expr) -> R<Val> {
        let r = v.at(Prec::Primary);
        let node_ty = Ty::Coll("LinkedListNode", vec![elem.clone()]);
        let (code, ty, vals) = match (name, args) {
            ("AddLast" | "AddFirst" | "Remove", [a]) => {
                let x = self.expr(&a.expr, None)?;
                let method = super::names::snake(name);
                if x.ty == node_ty {
                    let x = self.owned(x);
                    let code = format!("{r}.{method}_node(&{})", x.at(Prec::Unary));
                    (code, Ty::Void, vec![x])
                } else {
                    let x = self.coerce(x, elem, &a.expr)?;
                    let x = self.owned(x);
                    if name == "Remove" {
                        let code = format!("{r}.remove(&{})", x.at(Prec::Unary));
                        (code, Ty::Bool, vec![x])
                    } else {
                        (format!("{r}.{method}({})", x.code), node_ty, vec![x])
                    }
                }
            }
            ("RemoveFirst" | "RemoveLast" | "Clear", []) => {
                let method = super::names::snake(name);
                (format!("{r}.{method}()"), Ty::Void, vec![])
            }
            ("Contains", [a]) => {
                let x = self.coll_arg(a, elem)?;
                let code = format!("{r}.contains(&{})", x.at(Prec::Unary));
                (code, Ty::Bool, vec![x])
            }
            _ => return self.linq(v, name, args, e),
        };
        Ok(self.effect_call(code, ty, &v, &vals))
    }

    /// A method of a `SortedSet<T>`: `Add`, `Remove`, `Contains`, `Clear`, and LINQ.
    fn sorted_set_call(&mut self, v: Val, elem: &Ty, name: &str, args: &[Arg], e: &Expr) -> R<Val> {
        let r = v.at(Prec::Primary);
        let (code, ty, vals) = match (name, args) {
            ("Add" | "Remove" | "Contains", [a]) => {
                let x = self.coll_arg(a, elem)?;
                let code = if name == "Add" {
                    format!("{r}.add({})", x.code)
                } else {
                    let method = super::names::snake(name);
                    format!("{r}.{method}(&{})", x.at(Prec::Unary))
                };
                (code, Ty::Bool, vec![x])
            }
            ("Clear", []) => (format!("{r}.clear()"), Ty::Void, vec![]),
            _ => return self.linq(v, name, args, e),
        };
        Ok(self.effect_call(code, ty, &v, &vals))
    }

    /// `new BitArray(bytes)`, `new BitArray(length)`, `new BitArray(length, value)`.
    fn new_bit_array(&mut self, args: &[Arg], has_init: bool, e: &Expr) -> R<Val> {
        let bytes = Ty::Array(Box::new(Ty::Int(crate::types::IntTy::U8)), 1);
        let mut vals = Vec::new();
        for a in args {
            let v = self.expr(&a.expr, None)?;
            vals.push(self.owned(v));
        }
        let code = match vals.as_slice() {
            [b] if b.ty == bytes && !has_init => {
                format!("cs::BitArray::from_bytes(&{})", b.at(Prec::Unary))
            }
            [n] if n.ty.int().is_some() && !has_init => {
                let n = self.coerce(n.clone(), &INT, &args[0].expr)?;
                format!("cs::BitArray::with_length({}, false)", n.code)
            }
            [n, b] if n.ty.int().is_some() && b.ty == Ty::Bool && !has_init => {
                let n = self.coerce(n.clone(), &INT, &args[0].expr)?;
                format!("cs::BitArray::with_length({}, {})", n.code, b.code)
            }
            _ => {
                return Err(unsupported(
                    e.span,
                    "this `BitArray` constructor",
                    snippet(self.src, e),
                ));
            }
        };
        let none = Val::new("", Ty::Void, Prec::Primary);
        Ok(self.effect_call(code, Ty::Coll("BitArray", vec![]), &none, &vals))
    }

    /// `Get(i)` and `Set(i, value)` of a `BitArray`.
    fn bit_array_call(&mut self, v: Val, name: &str, args: &[Arg], e: &Expr) -> R<Val> {
        let r = v.at(Prec::Primary);
        let (code, ty, vals) = match (name, args) {
            ("Get", [i]) => {
                let i = self.coll_arg(i, &INT)?;
                (format!("{r}.get({})", i.code), Ty::Bool, vec![i])
            }
            ("Set", [i, b]) => {
                let i = self.coll_arg(i, &INT)?;
                let b = self.coll_arg(b, &Ty::Bool)?;
                let code = format!("{r}.set({}, {})", i.code, b.code);
                (code, Ty::Void, vec![i, b])
            }
            _ => {
                return Err(unsupported(
                    e.span,
                    format!("the method `{name}` of a `BitArray`"),
                    snippet(self.src, e),
                ));
            }
        };
        Ok(self.effect_call(code, ty, &v, &vals))
    }

    /// `new StringBuilder()`, `new StringBuilder(text)`, `new StringBuilder(capacity)`.
    fn new_builder(&mut self, args: &[Arg], has_init: bool, e: &Expr) -> R<Val> {
        let ty = Ty::Coll("StringBuilder", vec![]);
        let v = match args {
            [a] => Some(self.expr(&a.expr, None)?),
            _ => None,
        };
        let code = match &v {
            None if args.is_empty() && !has_init => "cs::StringBuilder::new()".to_string(),
            Some(s) if s.ty == Ty::Str && !has_init => {
                format!("cs::StringBuilder::with_text(&{})", s.at(Prec::Unary))
            }
            // A capacity changes nothing C# can see.
            Some(n) if n.ty.int().is_some() && !has_init => {
                format!("{{ let _ = {}; cs::StringBuilder::new() }}", n.code)
            }
            _ => {
                return Err(unsupported(
                    e.span,
                    "this `StringBuilder` constructor",
                    snippet(self.src, e),
                ));
            }
        };
        let none = Val::new("", Ty::Void, Prec::Primary);
        let vals: Vec<Val> = v.into_iter().collect();
        Ok(self.effect_call(code, ty, &none, &vals))
    }

    /// `Append` of a string or a `char`, and `ToString()`, of a `StringBuilder`.
    fn builder_call(&mut self, v: Val, name: &str, args: &[Arg], e: &Expr) -> R<Val> {
        let r = v.at(Prec::Primary);
        let (code, ty, vals) = match (name, args) {
            ("Append", [a]) => {
                let x = self.expr(&a.expr, None)?;
                let code = match x.ty {
                    Ty::Str => format!("{r}.append(&{})", x.at(Prec::Unary)),
                    Ty::Char => format!("{r}.append_char({})", x.code),
                    // Other values' text (numbers, moves) as C# writes it is not done here.
                    _ => {
                        return Err(unsupported(
                            e.span,
                            format!("`Append` of a `{}`", x.ty.cs()),
                            snippet(self.src, e),
                        ));
                    }
                };
                (code, Ty::Void, vec![x])
            }
            ("ToString", []) => (format!("{r}.text()"), Ty::Str, vec![]),
            _ => {
                return Err(unsupported(
                    e.span,
                    format!("the method `{name}` of a `StringBuilder`"),
                    snippet(self.src, e),
                ));
            }
        };
        Ok(self.effect_call(code, ty, &v, &vals))
    }

    fn effect_call(&self, code: String, ty: Ty, v: &Val, vals: &[Val]) -> Val {
        let mut out = Val::new(code, ty, Prec::Primary).absorb(v);
        for a in vals {
            out = out.absorb(a);
        }
        out.effects = true;
        out
    }

    pub(crate) fn coll_arg(&mut self, a: &Arg, t: &Ty) -> R<Val> {
        let v = self.expr(&a.expr, Some(t))?;
        let v = self.coerce(v, t, &a.expr)?;
        Ok(self.owned(v))
    }
}

/// Whether `name` is a property of the collection type `t` that [`coll_member`] reads.
///
/// [`coll_member`]: FileEmitter::coll_member
pub(crate) fn has_member(t: &Ty, name: &str) -> bool {
    match t {
        Ty::Coll("LinkedList", _) => matches!(name, "Count" | "First" | "Last"),
        Ty::Coll("LinkedListNode", _) => name == "Value",
        Ty::Coll("SortedSet", _) => matches!(name, "Count" | "Min" | "Max"),
        Ty::Coll("BitArray", _) => matches!(name, "Count" | "Length"),
        Ty::Coll("StringBuilder", _) => name == "Length",
        Ty::Coll("IGrouping", _) => name == "Key",
        Ty::Coll("IEnumerator", _) => name == "Current",
        Ty::Coll(..) => name == "Count",
        _ => false,
    }
}

/// The element type of `x[i]` on a `BitArray` (`bool`) or a `StringBuilder` (`char`).
pub(crate) fn indexed_elem(t: &Ty) -> Ty {
    match t {
        Ty::Coll("StringBuilder", _) => Ty::Char,
        _ => Ty::Bool,
    }
}

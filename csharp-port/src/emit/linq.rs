//! Collections' own methods and LINQ, on the runtime's `cs::Array`, `cs::List`,
//! `cs::Dictionary`, `cs::HashSet` and `cs::Seq`.

use super::call::typed;
use super::decls::FileEmitter;
use super::{Const, Prec, R, Val, snippet, unsupported};
use crate::ast::*;
use crate::types::{IntTy, Ty};

const INT: Ty = Ty::Int(IntTy::I32);

impl FileEmitter<'_, '_> {
    /// One argument converted to `t`.
    fn arg_as(&mut self, a: &Arg, t: &Ty) -> R<Val> {
        let v = self.expr(&a.expr, Some(t))?;
        let v = self.coerce(v, t, &a.expr)?;
        let v = self.owned(v);
        if let Some(acc) = self.arg_acc.take() {
            self.arg_acc = Some(acc.absorb(&v));
        }
        Ok(v)
    }

    /// `Sort()` of the collection `r` of the file's own struct `name`: by its
    /// `IComparable<T>.CompareTo`, as C#'s default comparer orders structs.
    pub(crate) fn struct_sort(&mut self, r: &str, name: &str, e: &Expr) -> R<String> {
        let f = self.struct_comparison(name, "Sort()", e)?;
        Ok(format!("{r}.sort_by_comparison({f})"))
    }

    /// The closure `|a, b| a.compare_to(b)` of the file's own struct `name`'s
    /// `IComparable<T>.CompareTo`, which `Comparer<T>.Default` calls for `what`.
    fn struct_comparison(&mut self, name: &str, what: &str, e: &Expr) -> R<String> {
        let compare = (self.p.type_index(name))
            .map(|t| self.p.methods(t, "CompareTo"))
            .and_then(|ms| ms.into_iter().find(|m| m.params.len() == 1).cloned());
        let Some(m) = compare.filter(|m| !self.takes_bot(&m.key)) else {
            return Err(unsupported(
                e.span,
                format!(
                    "`{what}` of `{name}`s without a `CompareTo` that needs nothing of the bot"
                ),
                snippet(self.src, e),
            ));
        };
        self.note_call(&m.key);
        let t = self.p.rust_type_name(name);
        let a = if self.mutates(&m.key) { "mut a" } else { "a" };
        Ok(format!("|{a}: {t}, b: {t}| a.{}(b)", m.rust))
    }

    /// `Max()`/`Min()` of the file's own structs: by their `CompareTo`, as .NET's
    /// `Comparer<T>.Default` compares each next element with the best so far.
    fn struct_extreme(&mut self, name: &str, elem: &str, e: &Expr) -> R<String> {
        let f = self.struct_comparison(elem, &format!("{name}()"), e)?;
        Ok(format!("{}_by_comparison({f})", name.to_lowercase()))
    }

    /// A collection's own method (not LINQ), if `name` is one.
    // One arm per List/Dictionary/HashSet method: a table.
    #[allow(clippy::too_many_lines)]
    pub(crate) fn collection_own(
        &mut self,
        v: &Val,
        name: &str,
        args: &[Arg],
        e: &Expr,
    ) -> R<Option<Val>> {
        let r = v.at(Prec::Primary);
        let elem = v.ty.element().unwrap_or(Ty::Unknown);
        let (code, ty): (String, Ty) = match (&v.ty, name, args.len()) {
            // A view of the same elements: the array's handle, shared.
            (Ty::Array(..), "AsSpan" | "Slice", 0) => (format!("{r}.clone()"), v.ty.clone()),
            (Ty::Array(..), "AsSpan" | "Slice", 1) => {
                let a = self.arg_as(&args[0], &INT)?;
                (format!("{r}.slice_from({})", a.code), v.ty.clone())
            }
            (Ty::Array(..), "AsSpan" | "Slice", 2) => {
                let a = self.arg_as(&args[0], &INT)?;
                let b = self.arg_as(&args[1], &INT)?;
                (format!("{r}.slice({}, {})", a.code, b.code), v.ty.clone())
            }
            (Ty::Array(..), "Fill", 1) => {
                let a = self.arg_as(&args[0], &elem)?;
                (format!("{r}.fill({})", a.code), Ty::Void)
            }
            (Ty::Array(..), "Clear", 0) => (format!("{r}.clear()"), Ty::Void),
            (Ty::Array(..), "Sort", 0) => (self.default_sort(v, e)?, Ty::Void),
            (Ty::Array(..), "Clone", 0) => (format!("{r}.copy()"), v.ty.clone()),
            (Ty::Array(..), "GetLength", 1) => {
                let a = self.arg_as(&args[0], &INT)?;
                (format!("{r}.get_length({})", a.code), INT)
            }
            // `PieceList[]` is held as a sequence (see `resolve`): its one dimension.
            (Ty::Seq(item), "GetLength", 1) if **item == Ty::Api("PieceList") => {
                let a = self.arg_as(&args[0], &INT)?;
                if a.konst != Some(Const::Int(0)) {
                    return Err(unsupported(
                        e.span,
                        "`GetLength` of a dimension but the first of `PieceList[]`",
                        snippet(self.src, e),
                    ));
                }
                let owned = self.owned(v.clone());
                (format!("{}.count()", owned.at(Prec::Primary)), INT)
            }
            (Ty::Array(..), "CopyTo", 1 | 2) => {
                // The source is read once, before the arguments, as C# evaluates it.
                let source = self.temp("source");
                let a = self.arg_as(&args[0], &v.ty)?;
                let at = match args.get(1) {
                    Some(i) => self.arg_as(i, &INT)?.code,
                    None => "0".into(),
                };
                (
                    format!(
                        "{{ let {source} = {r}.clone(); {source}.copy_range(0, &{}, {at}, {source}.len()) }}",
                        a.at(Prec::Unary)
                    ),
                    Ty::Void,
                )
            }
            (Ty::Array(..) | Ty::List(_), "IndexOf", 1) => {
                let a = self.arg_as(&args[0], &elem)?;
                (format!("{r}.index_of(&{})", a.at(Prec::Unary)), INT)
            }
            (Ty::Array(..) | Ty::List(_), "LastIndexOf", 1) => {
                let a = self.arg_as(&args[0], &elem)?;
                (format!("{r}.last_index_of(&{})", a.at(Prec::Unary)), INT)
            }
            // A collection's capacity is not seen: trimming it changes nothing a bot reads.
            (Ty::List(_) | Ty::Dict(_, _, "SortedList"), "TrimExcess", 0) => {
                ("()".into(), Ty::Void)
            }
            // A hash collection's free list may go: the runtime checks it has none.
            (Ty::Dict(_, _, "Dictionary") | Ty::Set(_), "TrimExcess", 0) => {
                (format!("{r}.trim_excess()"), Ty::Void)
            }
            // .NET calls each element's parameterless constructor, and does nothing when
            // the element type is not a value type or has none: C#'s built-in value types
            // and the API's have none.
            (Ty::Array(..), "Initialize", 0) if elem.is_copy(&|_| false) => ("()".into(), Ty::Void),
            (Ty::Array(..), "Initialize", 0) => {
                return Err(unsupported(
                    e.span,
                    format!(
                        "`Initialize` of a `{}` (it runs a struct's parameterless constructor on each element)",
                        v.ty.cs()
                    ),
                    snippet(self.src, e),
                ));
            }
            // `SetValue(object value, int index)`: the value first, as C# evaluates it.
            (Ty::Array(_, 1), "SetValue", 2) => {
                let a = self.arg_as(&args[0], &elem)?;
                let i = self.arg_as(&args[1], &INT)?;
                (format!("{r}.set_value({}, {})", a.code, i.code), Ty::Void)
            }
            (Ty::Array(..) | Ty::List(_) | Ty::Set(_), "Contains", 1) => {
                let a = self.arg_as(&args[0], &elem)?;
                (format!("{r}.contains(&{})", a.at(Prec::Unary)), Ty::Bool)
            }
            (Ty::List(_), "Add", 1) => {
                let a = self.arg_as(&args[0], &elem)?;
                (format!("{r}.add({})", a.code), Ty::Void)
            }
            (Ty::List(_), "AddRange", 1) => {
                let a = self.expr(&args[0].expr, None)?;
                let a = self.owned(a);
                (
                    format!("{r}.add_range({})", self.iterable(&a, &args[0].expr)?),
                    Ty::Void,
                )
            }
            (Ty::List(_), "Insert", 2) => {
                let i = self.arg_as(&args[0], &INT)?;
                let a = self.arg_as(&args[1], &elem)?;
                (format!("{r}.insert({}, {})", i.code, a.code), Ty::Void)
            }
            (Ty::List(_), "InsertRange", 2) => {
                let i = self.arg_as(&args[0], &INT)?;
                let a = self.expr(&args[1].expr, None)?;
                let a = self.owned(a);
                (
                    format!(
                        "{r}.insert_range({}, {})",
                        i.code,
                        self.iterable(&a, &args[1].expr)?
                    ),
                    Ty::Void,
                )
            }
            (Ty::List(_), "RemoveAt", 1) => {
                let i = self.arg_as(&args[0], &INT)?;
                (format!("{r}.remove_at({})", i.code), Ty::Void)
            }
            (Ty::List(_), "RemoveRange", 2) => {
                let i = self.arg_as(&args[0], &INT)?;
                let n = self.arg_as(&args[1], &INT)?;
                (
                    format!("{r}.remove_range({}, {})", i.code, n.code),
                    Ty::Void,
                )
            }
            (Ty::List(_) | Ty::Set(_), "Remove", 1) => {
                let a = self.arg_as(&args[0], &elem)?;
                (format!("{r}.remove(&{})", a.at(Prec::Unary)), Ty::Bool)
            }
            (Ty::List(_) | Ty::Dict(..) | Ty::Set(_), "Clear", 0) => {
                (format!("{r}.clear()"), Ty::Void)
            }
            (Ty::List(_), "Sort", 0) => (self.default_sort(v, e)?, Ty::Void),
            (Ty::Array(..), "Sort", 2) => {
                let items = self.expr(&args[0].expr, None)?;
                if !matches!(items.ty, Ty::Array(..)) {
                    return Ok(None);
                }
                let items = self.owned(items);
                return self
                    .sort_items_by_comparison(v, &items, &args[1], e)
                    .map(Some);
            }
            (Ty::List(_) | Ty::Array(..), "Sort", 1) => {
                return self.sort_with(v, &args[0], e).map(Some);
            }
            (
                Ty::List(_) | Ty::Array(..),
                "Find" | "Exists" | "FindIndex" | "FindLast" | "TrueForAll" | "RemoveAll",
                1,
            ) => {
                let f = self.selector(&args[0], vec![elem.clone()])?;
                let (call, ty) = match name {
                    "Find" => (
                        format!("linq().first_or_default_where({})", f.code),
                        elem.clone(),
                    ),
                    "FindLast" => (
                        format!("linq().reverse().first_or_default_where({})", f.code),
                        elem.clone(),
                    ),
                    "Exists" => (format!("linq().any_where({})", f.code), Ty::Bool),
                    "TrueForAll" => (format!("linq().all({})", f.code), Ty::Bool),
                    "FindIndex" => (format!("linq().find_index({})", f.code), INT),
                    "RemoveAll" if matches!(v.ty, Ty::List(_)) => {
                        let mut out =
                            Val::new(format!("{r}.remove_all({})", f.code), INT, Prec::Primary)
                                .absorb(v)
                                .absorb(&f);
                        out.effects = true;
                        return Ok(Some(out));
                    }
                    _ => {
                        return Err(unsupported(
                            e.span,
                            "`RemoveAll` of an array",
                            snippet(self.src, e),
                        ));
                    }
                };
                let mut out = Val::new(format!("{r}.{call}"), ty, Prec::Primary)
                    .absorb(v)
                    .absorb(&f);
                out.effects = true;
                return Ok(Some(out));
            }
            (Ty::List(_), "Reverse", 0) => (format!("{r}.reverse()"), Ty::Void),
            (Ty::Array(_, 1), "Reverse", 0) if self.reverses_a_span(e)? => {
                (format!("{r}.reverse()"), Ty::Void)
            }
            (Ty::List(_), "ConvertAll", 1) => {
                let f = self.selector(&args[0], vec![elem.clone()])?;
                let ret = func_ret(&f.ty);
                let mut out = Val::new(
                    format!("{r}.convert_all({})", f.code),
                    Ty::List(Box::new(ret)),
                    Prec::Primary,
                )
                .absorb(v)
                .absorb(&f);
                out.effects = true;
                return Ok(Some(out));
            }
            (Ty::List(_), "ToArray", 0) => (
                format!("{r}.to_array()"),
                Ty::Array(Box::new(elem.clone()), 1),
            ),
            (Ty::Set(_), "ExceptWith", 1) => {
                let a = self.expr(&args[0].expr, None)?;
                let a = self.owned(a);
                (
                    format!("{r}.except_with({})", self.iterable(&a, &args[0].expr)?),
                    Ty::Void,
                )
            }
            (Ty::Set(_), "Add", 1) => {
                let a = self.arg_as(&args[0], &elem)?;
                (format!("{r}.add({})", a.code), Ty::Bool)
            }
            (Ty::Dict(k, val, _), _, _) => match self.dict_call(&r, k, val, name, args)? {
                Some(x) => x,
                None => return Ok(None),
            },
            _ => return Ok(None),
        };
        let _ = e;
        let mut out = Val::new(code, ty, Prec::Primary).absorb(v);
        out.effects = true;
        Ok(Some(out))
    }

    fn dict_call(
        &mut self,
        r: &str,
        k: &Ty,
        v: &Ty,
        name: &str,
        args: &[Arg],
    ) -> R<Option<(String, Ty)>> {
        Ok(Some(match (name, args.len()) {
            ("ContainsKey", 1) => {
                let a = self.arg_as(&args[0], k)?;
                (
                    format!("{r}.contains_key(&{})", a.at(Prec::Unary)),
                    Ty::Bool,
                )
            }
            ("Remove", 1) => {
                let a = self.arg_as(&args[0], k)?;
                (format!("{r}.remove(&{})", a.at(Prec::Unary)), Ty::Bool)
            }
            ("Add" | "TryAdd", 2) => {
                let a = self.arg_as(&args[0], k)?;
                let b = self.arg_as(&args[1], v)?;
                let method = if name == "Add" { "add" } else { "try_add" };
                (
                    format!("{r}.{method}({}, {})", a.code, b.code),
                    if name == "Add" { Ty::Void } else { Ty::Bool },
                )
            }
            ("TryGetValue", 2) => {
                let a = self.arg_as(&args[0], k)?;
                let out = self.ref_arg(&args[1].expr, v)?;
                (
                    format!("{r}.try_get_value(&{}, {})", a.at(Prec::Unary), out.code),
                    Ty::Bool,
                )
            }
            ("GetValueOrDefault", 2) => {
                let a = self.arg_as(&args[0], k)?;
                let b = self.arg_as(&args[1], v)?;
                (
                    format!("{r}.get_value_or(&{}, {})", a.at(Prec::Unary), b.code),
                    v.clone(),
                )
            }
            ("GetValueOrDefault", 1) => {
                let a = self.arg_as(&args[0], k)?;
                (
                    format!("{r}.get_value_or_default(&{})", a.at(Prec::Unary)),
                    v.clone(),
                )
            }
            _ => return Ok(None),
        }))
    }

    /// Something a `foreach` or `AddRange` can walk, as a Rust iterator expression.
    pub(crate) fn iterable(&mut self, v: &Val, e: &Expr) -> R<String> {
        Ok(match &v.ty {
            Ty::Array(..)
            | Ty::List(_)
            | Ty::Dict(..)
            | Ty::Set(_)
            | Ty::Coll("Queue" | "Stack" | "LinkedList" | "SortedSet" | "IGrouping", _) => {
                format!("{}.iter()", v.at(Prec::Primary))
            }
            Ty::Seq(_) => v.code.clone(),
            Ty::Api("PieceList") => format!("cs::Piece::in_list(&{})", v.at(Prec::Unary)),
            other => {
                return Err(unsupported(
                    e.span,
                    format!("a sequence of type `{}`", other.cs()),
                    snippet(self.src, e),
                ));
            }
        })
    }

    /// A lambda argument whose result is converted to `ret`.
    fn selector_returning(&mut self, a: &Arg, params: Vec<Ty>, ret: Ty) -> R<Val> {
        if matches!(a.expr.kind, ExprKind::Lambda(..)) {
            return self.expr(&a.expr, Some(&Ty::Func(params, Box::new(ret))));
        }
        self.selector(a, params)
    }

    /// A lambda (or method group) argument for an element of type `elem`.
    pub(crate) fn selector(&mut self, a: &Arg, params: Vec<Ty>) -> R<Val> {
        if let ExprKind::Member(target, name, _) = &a.expr.kind
            && let ExprKind::Name(class, _) = &target.kind
        {
            let param = params
                .first()
                .map(|t| self.rty(t, a.expr.span))
                .transpose()?
                .unwrap_or_default();
            let code = match (class.as_str(), name.as_str()) {
                ("decimal" | "Decimal", "GetBits") => Some((
                    format!("|d: {param}| cs::Array::from(d.get_bits())"),
                    Ty::Array(Box::new(INT), 1),
                )),
                ("BitConverter", "GetBytes") => Some((
                    format!("|x: {param}| cs::Array::from(x.to_le_bytes())"),
                    Ty::Array(Box::new(Ty::Int(IntTy::U8)), 1),
                )),
                _ => None,
            };
            if let Some((code, ret)) = code {
                return Ok(Val::new(
                    code,
                    Ty::Func(params, Box::new(ret)),
                    Prec::Assign,
                ));
            }
        }
        let want = Ty::Func(params, Box::new(Ty::Unknown));
        let v = self.expr(&a.expr, Some(&want))?;
        if !matches!(v.ty, Ty::Func(..)) {
            return Err(unsupported(
                a.expr.span,
                "a LINQ argument that is not a lambda",
                snippet(self.src, &a.expr),
            ));
        }
        Ok(v)
    }

    /// `seq.Cast<T>()` of a sequence whose elements are `T` (`Enum.GetValues(typeof(T))`'s
    /// values): the sequence itself, as C#'s `Cast` returns its source when it already has
    /// that element type.
    fn cast_to_own_element(&mut self, v: Val, elem: &Ty, e: &Expr) -> R<Val> {
        let target = match &e.kind {
            ExprKind::Call(f, _) => match &f.kind {
                ExprKind::Member(_, _, targs) if targs.len() == 1 => {
                    Some(self.p.resolve(&targs[0], &self.type_params, e.span)?)
                }
                _ => None,
            },
            _ => None,
        };
        if target.as_ref() == Some(elem) {
            return Ok(v);
        }
        Err(unsupported(
            e.span,
            "`Cast` to another element type",
            snippet(self.src, e),
        ))
    }

    /// A collection's own count, which LINQ's `Count()` and `Any()` read (.NET's
    /// `Enumerable` does for an `ICollection<T>`) rather than walking a copy.
    fn collection_count(v: &Val) -> Option<String> {
        let method = match &v.ty {
            Ty::Array(_, 1) => "len()",
            Ty::List(_) | Ty::Dict(..) | Ty::Set(_) => "count()",
            _ => return None,
        };
        Some(format!("{}.{method}", v.at(Prec::Primary)))
    }

    /// A LINQ method.
    // One arm per LINQ method: a table.
    #[allow(clippy::too_many_lines)]
    pub(crate) fn linq(&mut self, v: Val, name: &str, args: &[Arg], e: &Expr) -> R<Val> {
        let elem = v.ty.element().ok_or_else(|| {
            unsupported(
                e.span,
                format!("LINQ on a `{}`", v.ty.cs()),
                snippet(self.src, e),
            )
        })?;
        if args.is_empty()
            && matches!(name, "Count" | "Any")
            && let Some(n) = Self::collection_count(&v)
        {
            return Ok(if name == "Count" {
                Val::new(n, INT, Prec::Primary).absorb(&v)
            } else {
                Val::new(format!("{n} != 0"), Ty::Bool, Prec::Cmp).absorb(&v)
            });
        }
        let source = match &v.ty {
            Ty::Seq(_) => self.owned(v.clone()).code,
            Ty::Array(..) | Ty::List(_) | Ty::Dict(..) | Ty::Set(_) => {
                format!("{}.linq()", v.at(Prec::Primary))
            }
            Ty::Api("PieceList") => {
                format!("cs::Seq::from(cs::Piece::in_list(&{}))", v.at(Prec::Unary))
            }
            Ty::Coll("Queue" | "Stack" | "LinkedList" | "SortedSet" | "IGrouping", _) => {
                format!("{}.iter().collect::<cs::Seq<_>>()", v.at(Prec::Primary))
            }
            Ty::Str => format!(
                "cs::Seq::from({}.encode_utf16().collect::<Vec<u16>>())",
                v.at(Prec::Primary)
            ),
            _ => {
                return Err(unsupported(
                    e.span,
                    format!("LINQ on a `{}`", v.ty.cs()),
                    snippet(self.src, e),
                ));
            }
        };
        if name == "Cast" && args.is_empty() && matches!(v.ty, Ty::Seq(_)) {
            return self.cast_to_own_element(v, &elem, e);
        }
        let seq = |t: Ty| Ty::Seq(Box::new(t));
        let one = |this: &mut Self, params: Vec<Ty>| -> R<Val> { this.selector(&args[0], params) };
        let (call, ty, lambda): (String, Ty, Option<Val>) = match (name, args.len()) {
            ("Select", 1) => {
                let two = matches!(&args[0].expr.kind, ExprKind::Lambda(ps, _) if ps.len() == 2);
                let f = if two {
                    one(self, vec![elem.clone(), INT])?
                } else {
                    one(self, vec![elem.clone()])?
                };
                let ret = func_ret(&f.ty);
                let method = if two { "select_indexed" } else { "select" };
                (format!("{method}({})", f.code), seq(ret), Some(f))
            }
            ("SelectMany", 1) if matches!(&args[0].expr.kind, ExprKind::Lambda(ps, _) if ps.len() == 2) =>
            {
                let f = self.selector_returning(
                    &args[0],
                    vec![elem.clone(), INT],
                    Ty::Seq(Box::new(Ty::Unknown)),
                )?;
                let inner = func_ret(&f.ty).element().unwrap_or(Ty::Unknown);
                (
                    format!("select_many_indexed({})", f.code),
                    seq(inner),
                    Some(f),
                )
            }
            ("SelectMany", 1) => {
                let f = self.selector_returning(
                    &args[0],
                    vec![elem.clone()],
                    Ty::Seq(Box::new(Ty::Unknown)),
                )?;
                let inner = func_ret(&f.ty).element().unwrap_or(Ty::Unknown);
                (format!("select_many({})", f.code), seq(inner), Some(f))
            }
            ("Where", 1) => {
                let two = matches!(&args[0].expr.kind, ExprKind::Lambda(ps, _) if ps.len() == 2);
                let f = if two {
                    one(self, vec![elem.clone(), INT])?
                } else {
                    one(self, vec![elem.clone()])?
                };
                let method = if two { "where_indexed" } else { "where_" };
                (format!("{method}({})", f.code), seq(elem.clone()), Some(f))
            }
            ("Chunk", 1) => {
                let n = self.arg_as(&args[0], &INT)?;
                (
                    format!("chunk({})", n.code),
                    seq(Ty::Array(Box::new(elem.clone()), 1)),
                    Some(n),
                )
            }
            ("Append", 1) => {
                let x = self.arg_as(&args[0], &elem)?;
                (format!("append({})", x.code), seq(elem.clone()), Some(x))
            }
            ("OrderBy" | "OrderByDescending" | "ThenBy" | "ThenByDescending", 1) => {
                let f = one(self, vec![elem.clone()])?;
                (
                    format!("{}({})", super::names::snake(name), f.code),
                    seq(elem.clone()),
                    Some(f),
                )
            }
            (
                "Count" | "Any" | "First" | "FirstOrDefault" | "Last" | "LastOrDefault" | "Max"
                | "Min" | "Sum" | "Average",
                1,
            ) => {
                let f = one(self, vec![elem.clone()])?;
                let ret = func_ret(&f.ty);
                let (method, ty) = match name {
                    "Count" => ("count_where", INT),
                    "Any" => ("any_where", Ty::Bool),
                    "First" => ("first_where", elem.clone()),
                    "FirstOrDefault" => ("first_or_default_where", elem.clone()),
                    // .NET walks a list from its end and stops at the first match,
                    // the runtime walks forward: the same for a lambda without effects.
                    "Last" | "LastOrDefault" if f.effects => {
                        return Err(unsupported(
                            e.span,
                            "`Last` with a predicate that has effects",
                            snippet(self.src, e),
                        ));
                    }
                    "Last" => ("last_where", elem.clone()),
                    "LastOrDefault" => ("last_or_default_where", elem.clone()),
                    "Max" => ("max_of", ret.clone()),
                    "Min" => ("min_of", ret.clone()),
                    "Sum" => ("sum_of", ret.clone()),
                    _ if ret == Ty::Decimal => return Err(decimal_average(self, e)),
                    _ => ("average_of", Ty::F64),
                };
                (format!("{method}({})", f.code), ty, Some(f))
            }
            ("SkipWhile" | "TakeWhile", 1) if !matches!(&args[0].expr.kind, ExprKind::Lambda(ps, _) if ps.len() == 2) =>
            {
                let f = one(self, vec![elem.clone()])?;
                (
                    format!("{}({})", super::names::snake(name), f.code),
                    seq(elem.clone()),
                    Some(f),
                )
            }
            // The API's `PieceList.GetEnumerator` is an iterator block (`yield return`):
            // `Current` is `default(Piece)` before the first `MoveNext`. Other collections'
            // enumerators differ (an array's throws there, a list's checks for changes).
            ("GetEnumerator", 0) if v.ty == Ty::Api("PieceList") => (
                "get_enumerator()".into(),
                Ty::Coll("IEnumerator", vec![elem.clone()]),
                None,
            ),
            ("GroupBy", 1) => {
                let f = one(self, vec![elem.clone()])?;
                let key = func_ret(&f.ty);
                (
                    format!("group_by({})", f.code),
                    seq(Ty::Coll("IGrouping", vec![key, elem.clone()])),
                    Some(f),
                )
            }
            ("All" | "MaxBy" | "MinBy", 1) => {
                let f = one(self, vec![elem.clone()])?;
                let ty = if name == "All" {
                    Ty::Bool
                } else {
                    elem.clone()
                };
                (
                    format!("{}({})", super::names::snake(name), f.code),
                    ty,
                    Some(f),
                )
            }
            ("ForEach", 1) => {
                // An `Action<T>`: a lambda's expression body (`x => total += x`) is a
                // statement, its value dropped.
                let f = self.selector_returning(&args[0], vec![elem.clone()], Ty::Void)?;
                (
                    format!("to_vec().into_iter().for_each({})", f.code),
                    Ty::Void,
                    Some(f),
                )
            }
            ("Count", 0) => ("count()".into(), INT, None),
            ("Any", 0) => ("any()".into(), Ty::Bool, None),
            ("Max" | "Min", 0) if matches!(elem, Ty::Struct(_)) => {
                let Ty::Struct(s) = &elem else {
                    unreachable!("matched a struct")
                };
                (self.struct_extreme(name, s, e)?, elem.clone(), None)
            }
            (
                "First" | "FirstOrDefault" | "Last" | "LastOrDefault" | "Max" | "Min" | "Distinct"
                | "Reverse",
                0,
            ) => {
                let ty = if matches!(name, "Distinct" | "Reverse") {
                    seq(elem.clone())
                } else {
                    elem.clone()
                };
                (format!("{}()", super::names::snake(name)), ty, None)
            }
            ("Sum", 0) => ("sum()".into(), elem.clone(), None),
            ("Average", 0) if elem == Ty::Decimal => return Err(decimal_average(self, e)),
            ("Average", 0) => ("average()".into(), Ty::F64, None),
            ("ToArray", 0) => (
                "to_array()".into(),
                Ty::Array(Box::new(elem.clone()), 1),
                None,
            ),
            ("ToList", 0) => ("to_list()".into(), Ty::List(Box::new(elem.clone())), None),
            ("ToHashSet", 0) => (
                "to_hash_set()".into(),
                Ty::Set(Box::new(elem.clone())),
                None,
            ),
            ("Take" | "Skip" | "ElementAt", 1) => {
                let n = self.arg_as(&args[0], &INT)?;
                let ty = if name == "ElementAt" {
                    elem.clone()
                } else {
                    seq(elem.clone())
                };
                (
                    format!("{}({})", super::names::snake(name), n.code),
                    ty,
                    Some(n),
                )
            }
            ("Contains", 1) => {
                let x = self.arg_as(&args[0], &elem)?;
                (
                    format!("contains(&{})", x.at(Prec::Unary)),
                    Ty::Bool,
                    Some(x),
                )
            }
            ("Except" | "Intersect", 1) => {
                let x = self.expr(&args[0].expr, None)?;
                let x = self.owned(x);
                let it = self.iterable(&x, &args[0].expr)?;
                (
                    format!("{}({it})", super::names::snake(name)),
                    seq(elem.clone()),
                    Some(x),
                )
            }
            ("TakeLast", 1) => {
                let n = self.arg_as(&args[0], &INT)?;
                (format!("take_last({})", n.code), seq(elem.clone()), Some(n))
            }
            ("DefaultIfEmpty", 1) => {
                let x = self.arg_as(&args[0], &elem)?;
                (
                    format!("default_if_empty({})", x.code),
                    seq(elem.clone()),
                    Some(x),
                )
            }
            ("Union", 1) => {
                let x = self.expr(&args[0].expr, None)?;
                let x = self.owned(x);
                let it = self.iterable(&x, &args[0].expr)?;
                (
                    format!("concat({it}).distinct()"),
                    seq(elem.clone()),
                    Some(x),
                )
            }
            ("FindAll", 1) => {
                let f = one(self, vec![elem.clone()])?;
                (
                    format!("where_({}).to_list()", f.code),
                    Ty::List(Box::new(elem.clone())),
                    Some(f),
                )
            }
            ("ToDictionary", 2) => {
                let k = self.selector(&args[0], vec![elem.clone()])?;
                let v = self.selector(&args[1], vec![elem.clone()])?;
                let ty = Ty::Dict(
                    Box::new(func_ret(&k.ty)),
                    Box::new(func_ret(&v.ty)),
                    "Dictionary",
                );
                (
                    format!("to_dictionary({}, {})", k.code, v.code),
                    ty,
                    Some(k.absorb(&v)),
                )
            }
            ("Concat", 1) => {
                let x = self.expr(&args[0].expr, None)?;
                let x = self.owned(x);
                let it = self.iterable(&x, &args[0].expr)?;
                (format!("concat({it})"), seq(elem.clone()), Some(x))
            }
            ("Aggregate", 2) => {
                let seed = self.expr(&args[0].expr, None)?;
                let seed = self.owned(seed);
                let f = self.selector(&args[1], vec![seed.ty.clone(), elem.clone()])?;
                let ty = seed.ty.clone();
                (
                    format!("aggregate({}, {})", seed.code, f.code),
                    ty,
                    Some(f.absorb(&seed)),
                )
            }
            ("Aggregate", 1) => {
                let f = self.selector(&args[0], vec![elem.clone(), elem.clone()])?;
                (format!("reduce({})", f.code), elem.clone(), Some(f))
            }
            ("Zip", 2) => {
                let x = self.expr(&args[0].expr, None)?;
                let x = self.owned(x);
                let other = x.ty.element().unwrap_or(Ty::Unknown);
                let it = self.iterable(&x, &args[0].expr)?;
                let f = self.selector(&args[1], vec![elem.clone(), other])?;
                let ret = func_ret(&f.ty);
                (
                    format!("zip({it}, {})", f.code),
                    seq(ret),
                    Some(f.absorb(&x)),
                )
            }
            _ => {
                return Err(unsupported(
                    e.span,
                    format!("the LINQ method `{name}` with {} arguments", args.len()),
                    snippet(self.src, e),
                ));
            }
        };
        let mut out = Val::new(format!("{source}.{call}"), ty, Prec::Primary).absorb(&v);
        if let Some(l) = lambda {
            out = out.absorb(&l);
        }
        let _ = typed;
        Ok(out)
    }
}

/// A function type's result.
pub(crate) fn func_ret(t: &Ty) -> Ty {
    match t {
        Ty::Func(_, r) => (**r).clone(),
        _ => Ty::Unknown,
    }
}

/// `Average()` of decimals: C#'s is a `decimal`, the runtime's average a `double`.
fn decimal_average(f: &FileEmitter<'_, '_>, e: &Expr) -> crate::error::PortError {
    unsupported(e.span, "`Average` of `decimal`s", snippet(f.src, e))
}

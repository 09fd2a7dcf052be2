//! `new`: objects, arrays (with C#'s `decimal` literals as `decimal.GetBits` sees them),
//! and lambdas.

use super::decls::{FileEmitter, LocalKind, Scope};
use super::{Prec, R, Val, snippet, unsupported};
use crate::ast::*;
use crate::types::{IntTy, Ty};

const INT: Ty = Ty::Int(IntTy::I32);

impl FileEmitter<'_, '_> {
    /// `new T(args) { init }` and target-typed `new(args)`.
    // One arm per `new` target (arrays, collections, Random, Move, the file's own types): a table.
    #[allow(clippy::too_many_lines)]
    pub(crate) fn new_object(
        &mut self,
        t: Option<&TypeRef>,
        args: &[Arg],
        init: Option<&[Expr]>,
        e: &Expr,
        want: Option<&Ty>,
    ) -> R<Val> {
        let ty = match t {
            Some(t) => self.p.resolve(t, &self.type_params, e.span)?,
            None => want.cloned().filter(|w| *w != Ty::Unknown).ok_or_else(|| {
                unsupported(
                    e.span,
                    "`new()` without a target type",
                    snippet(self.src, e),
                )
            })?,
        };
        if let (Some(TypeRef::Named(n, _)), Ty::Array(_, 1), [array], None) = (t, &ty, args, init)
            && matches!(n.as_str(), "Span" | "ReadOnlySpan")
        {
            return self.span_over(array, &ty, e);
        }
        let mut vals = Vec::new();
        let code = match &ty {
            Ty::List(elem) => match (args.len(), init) {
                (0, Some(items)) => {
                    let items = self.elements(items, elem)?;
                    vals.extend(items.iter().cloned());
                    let codes: Vec<String> = items.into_iter().map(|v| v.code).collect();
                    format!("cs::List::from(vec![{}])", codes.join(", "))
                }
                (0, None) => format!("cs::List::<{}>::new()", self.rty(elem, e.span)?),
                (1, init) => {
                    let a = self.expr(&args[0].expr, None)?;
                    let list = if a.ty.int().is_some() {
                        format!("cs::List::<{}>::new()", self.rty(elem, e.span)?)
                    } else {
                        let a = self.owned(a);
                        let it = self.iterable(&a, &args[0].expr)?;
                        vals.push(a);
                        format!("cs::List::from_iter({it})")
                    };
                    self.list_adds(list, init.unwrap_or(&[]), elem, &mut vals)?
                }
                _ => {
                    return Err(unsupported(
                        e.span,
                        "this `List` constructor",
                        snippet(self.src, e),
                    ));
                }
            },
            Ty::Coll(..) => return self.new_coll(&ty, args, init.is_some(), e),
            Ty::Dict(..) | Ty::Set(_) => {
                if let Some(a) = args.first() {
                    let v = self.expr(&a.expr, None)?;
                    if v.ty.int().is_none() {
                        return Err(unsupported(
                            e.span,
                            "a dictionary or set made from another",
                            snippet(self.src, e),
                        ));
                    }
                }
                let mut code = format!("{}::new()", self.rty(&ty, e.span)?.replacen('<', "::<", 1));
                if let Some(items) = init.filter(|i| !i.is_empty()) {
                    let adds = self.collection_adds(&ty, items, &mut vals)?;
                    code = format!("{{ let slot = {code}; {adds}slot }}");
                }
                code
            }
            Ty::Api("Random") => match args {
                [] => "Random::new()".into(),
                [seed] => {
                    let v = self.expr(&seed.expr, Some(&INT))?;
                    let v = self.coerce(v, &INT, &seed.expr)?;
                    let code = format!("Random::with_seed({})", v.code);
                    vals.push(v);
                    code
                }
                _ => {
                    return Err(unsupported(
                        e.span,
                        "this `Random` constructor",
                        snippet(self.src, e),
                    ));
                }
            },
            Ty::Api("Move") => self.new_move(args, e, &mut vals)?,
            Ty::Api("Vector2") if init.is_none() => self.new_vector2(args, e, &mut vals)?,
            Ty::Api("BigInteger") => match args {
                [d] => {
                    let v = self.expr(&d.expr, Some(&Ty::Decimal))?;
                    let v = self.coerce(v, &Ty::Decimal, &d.expr)?;
                    let code = format!(
                        "cs::BigInteger::from_decimal({}.get_bits())",
                        v.at(Prec::Primary)
                    );
                    vals.push(v);
                    code
                }
                _ => {
                    return Err(unsupported(
                        e.span,
                        "this `BigInteger` constructor",
                        snippet(self.src, e),
                    ));
                }
            },
            Ty::Api("Square") => self.new_square(args, e, &mut vals)?,
            Ty::Struct(name) => self.new_struct(name, args, init, e, &mut vals)?,
            Ty::Class(name) if self.p.is_ref_class(name) => {
                self.new_class(name, args, init, e, &mut vals)?
            }
            Ty::Tuple(items, _) if args.is_empty() && init.is_none() => {
                self.default_value(&Ty::Tuple(items.clone(), Vec::new()), e.span)?
            }
            Ty::Tuple(items, _) if args.len() == items.len() && init.is_none() => {
                self.tuple_items(args, items, &mut vals)?
            }
            Ty::TupleClass(items) if args.len() == items.len() && init.is_none() => {
                format!(
                    "cs::Tuple::new({})",
                    self.tuple_items(args, items, &mut vals)?
                )
            }
            Ty::Object => "()".into(),
            // Its message is never read (see `is_system_exception`).
            Ty::Api("Exception")
                if args.iter().all(|a| matches!(a.expr.kind, ExprKind::Str(_)))
                    && init.is_none() =>
            {
                "()".into()
            }
            Ty::Str if init.is_none() => self.new_string(args, e, &mut vals)?,
            // `new int()`, `new Piece()`: a value type's parameterless constructor gives
            // its default value (ECMA-334, "Default constructors").
            Ty::Bool
            | Ty::Int(_)
            | Ty::F32
            | Ty::F64
            | Ty::Char
            | Ty::Enum(_)
            | Ty::Api("Piece" | "PieceType")
                if args.is_empty() && init.is_none_or(<[Expr]>::is_empty) =>
            {
                self.default_value(&ty, e.span)?
            }
            Ty::Class(name)
                if self.p.type_index(name).is_some_and(|i| {
                    self.p.unit.types[i]
                        .bases
                        .iter()
                        .any(|b| matches!(b, TypeRef::Named(n, _) if n == "Exception"))
                }) =>
            {
                "()".into()
            }
            Ty::Api("Board") => {
                return Err(unsupported(
                    e.span,
                    "a second board (`new Board`)",
                    snippet(self.src, e),
                ));
            }
            other => {
                return Err(unsupported(
                    e.span,
                    format!("`new {}`", other.cs()),
                    snippet(self.src, e),
                ));
            }
        };
        let mut out = Val::new(code, ty, Prec::Primary);
        for v in &vals {
            out = out.absorb(v);
        }
        Ok(out)
    }

    /// `new Span<T>(array)`: a span over the whole array, sharing its elements (the port
    /// types a span as the array it views, `cs::Array` sharing its cells between clones).
    fn span_over(&mut self, array: &Arg, ty: &Ty, e: &Expr) -> R<Val> {
        let v = self.expr(&array.expr, Some(ty))?;
        if v.ty != *ty || array.mode != PassMode::Value {
            return Err(unsupported(
                e.span,
                format!("a `{}` over a `{}`", ty.cs(), v.ty.cs()),
                snippet(self.src, e),
            ));
        }
        Ok(self.owned(v))
    }

    /// `new Vector2(x, y)`: each converted to `float` as C# converts an argument.
    fn new_vector2(&mut self, args: &[Arg], e: &Expr, vals: &mut Vec<Val>) -> R<String> {
        let [x, y] = args else {
            return Err(unsupported(
                e.span,
                "this `Vector2` constructor",
                snippet(self.src, e),
            ));
        };
        let mut codes = Vec::new();
        for a in [x, y] {
            let v = self.expr(&a.expr, Some(&Ty::F32))?;
            let v = self.coerce(v, &Ty::F32, &a.expr)?;
            codes.push(v.code.clone());
            vals.push(v);
        }
        Ok(format!("cs::Vector2::new({}, {})", codes[0], codes[1]))
    }

    /// `new string(chars)` and `new string(c, count)`.
    fn new_string(&mut self, args: &[Arg], e: &Expr, vals: &mut Vec<Val>) -> R<String> {
        let chars = Ty::Array(Box::new(Ty::Char), 1);
        let plain: Vec<Val> = args
            .iter()
            .map(|a| self.expr(&a.expr, None))
            .collect::<R<_>>()?;
        let code = match plain.as_slice() {
            [a] if a.ty == chars => format!("cs::string_from_chars(&{})", a.at(Prec::Unary)),
            [c, n] if c.ty == Ty::Char && n.ty.int().is_some() => {
                let n = self.coerce(n.clone(), &INT, &args[1].expr)?;
                format!("cs::string_of_char({}, {})", c.code, n.code)
            }
            _ => {
                return Err(unsupported(
                    e.span,
                    "this `string` constructor",
                    snippet(self.src, e),
                ));
            }
        };
        vals.extend(plain);
        Ok(code)
    }

    fn new_move(&mut self, args: &[Arg], e: &Expr, vals: &mut Vec<Val>) -> R<String> {
        match args {
            [] => Ok("Move::NULL".into()),
            [text, board] => {
                let s = self.expr(&text.expr, Some(&Ty::Str))?;
                let b = self.expr(&board.expr, Some(&Ty::Api("Board")))?;
                let code = if s.effects || s.mut_self {
                    // The text first, as C# evaluates it: its call may move the board.
                    let t = self.temp("uci");
                    format!(
                        "{{ let {t} = {}; cs::move_from_uci(&{}, &{t}) }}",
                        s.code,
                        b.at(Prec::Unary)
                    )
                } else {
                    format!(
                        "cs::move_from_uci(&{}, &{})",
                        b.at(Prec::Unary),
                        s.at(Prec::Unary)
                    )
                };
                vals.push(s);
                vals.push(b);
                Ok(code)
            }
            _ => Err(unsupported(
                e.span,
                "this `Move` constructor",
                snippet(self.src, e),
            )),
        }
    }

    fn new_square(&mut self, args: &[Arg], e: &Expr, vals: &mut Vec<Val>) -> R<String> {
        let first = match args.first() {
            Some(a) => self.expr(&a.expr, None)?,
            None => return Ok("Square::A1".into()),
        };
        let code = match (args.len(), &first.ty) {
            (1, Ty::Str) => format!(
                "{}.parse::<Square>().expect(\"a square\")",
                first.at(Prec::Primary)
            ),
            (1, _) => {
                let i = self.coerce(first.clone(), &INT, &args[0].expr)?;
                format!("cs::square({})", i.code)
            }
            (2, _) => {
                let f = self.coerce(first.clone(), &INT, &args[0].expr)?;
                let r = self.expr(&args[1].expr, Some(&INT))?;
                let r = self.coerce(r, &INT, &args[1].expr)?;
                let code = format!("cs::square_at({}, {})", f.code, r.code);
                vals.push(r);
                code
            }
            _ => {
                return Err(unsupported(
                    e.span,
                    "this `Square` constructor",
                    snippet(self.src, e),
                ));
            }
        };
        vals.push(first);
        Ok(code)
    }

    fn new_struct(
        &mut self,
        name: &str,
        args: &[Arg],
        init: Option<&[Expr]>,
        e: &Expr,
        vals: &mut Vec<Val>,
    ) -> R<String> {
        let t = self
            .p
            .type_index(name)
            .ok_or_else(|| unsupported(e.span, "a struct", name))?;
        let rust = self.p.types[t].rust.clone();
        let parameterless = self.p.types[t]
            .methods
            .iter()
            .any(|m| m.cs == ".ctor" && m.params.is_empty());
        // `new S()` runs a parameterless constructor the struct declares (C# 10), else it
        // is the default value.
        let mut code = if args.is_empty() && !parameterless {
            format!("{rust}::default()")
        } else {
            let ctors: Vec<_> = self.p.types[t]
                .methods
                .iter()
                .filter(|m| m.cs == ".ctor")
                .cloned()
                .collect();
            let ctor = self.pick_overload(&ctors, args, e)?;
            let named;
            let args = if args.iter().any(|a| a.name.is_some()) {
                named = self.named_positional(&ctor, args, e)?;
                &named[..]
            } else {
                args
            };
            let args = self.args_with_defaults(&ctor.params, &ctor.defaults, args, e)?;
            let codes = self.ctor_arg_codes(&ctor, &args, vals);
            vals.extend(args);
            format!(
                "{rust}::{}({})",
                ctor.rust.replacen("construct", "new", 1),
                codes.join(", ")
            )
        };
        if let Some(items) = init.filter(|i| !i.is_empty()) {
            let sets = self.struct_sets(t, items, vals)?;
            code = format!("{{ let mut slot = {code}; {sets}slot }}");
        }
        Ok(code)
    }

    /// An object initialiser's (or `with`'s) `F = v` items as statements on a struct's
    /// `slot`, in C#'s order.
    fn struct_sets(&mut self, t: usize, items: &[Expr], vals: &mut Vec<Val>) -> R<String> {
        self.field_sets(t, items, vals, |field, value| {
            format!("slot.{field} = {value}; ")
        })
    }

    /// An initialiser's `F = v` items of type `t` as statements, each written by `set`
    /// (a field's Rust name and the value's code), in C#'s order.
    fn field_sets(
        &mut self,
        t: usize,
        items: &[Expr],
        vals: &mut Vec<Val>,
        set: impl Fn(&str, &str) -> String,
    ) -> R<String> {
        let mut sets = String::new();
        for item in items {
            let ExprKind::Assign(None, target, value) = &item.kind else {
                return Err(unsupported(
                    item.span,
                    "this object initialiser",
                    snippet(self.src, item),
                ));
            };
            let ExprKind::Name(field, _) = &target.kind else {
                return Err(unsupported(
                    item.span,
                    "this object initialiser",
                    snippet(self.src, item),
                ));
            };
            let f = self
                .p
                .field(t, field)
                .cloned()
                .ok_or_else(|| unsupported(item.span, format!("the field `{field}`"), field))?;
            if super::delegates::vanishes(&f.ty) {
                self.board_field_init(value, item)?;
                continue;
            }
            let v = self.expr(value, Some(&f.ty))?;
            let v = self.coerce(v, &f.ty, value)?;
            let v = self.owned(v);
            sets.push_str(&set(&f.rust, &v.code));
            vals.push(v);
        }
        Ok(sets)
    }

    /// `e with { F = v, ... }` on a struct: a copy of `e`, then the members set in
    /// order. (A record class's `with` clones an object, which the port does not do.)
    pub(crate) fn with(&mut self, target: &Expr, items: &[Expr], e: &Expr) -> R<Val> {
        let v = self.expr(target, None)?;
        let Ty::Struct(name) = v.ty.clone() else {
            return Err(unsupported(
                e.span,
                format!("a `with` expression on a `{}`", v.ty.cs()),
                snippet(self.src, e),
            ));
        };
        let t = self
            .p
            .type_index(&name)
            .ok_or_else(|| unsupported(e.span, "a struct", &name))?;
        let v = self.owned(v);
        let mut vals = vec![v.clone()];
        let sets = self.struct_sets(t, items, &mut vals)?;
        let code = format!("{{ let mut slot = {}; {sets}slot }}", v.code);
        let mut out = Val::new(code, Ty::Struct(name), Prec::Primary);
        for x in &vals {
            out = out.absorb(x);
        }
        Ok(out)
    }

    /// A constructor call's argument codes: without the board and timer (the bot's),
    /// with the bot last if the constructor takes it.
    fn ctor_arg_codes(
        &mut self,
        ctor: &super::program::MethodInfo,
        args: &[Val],
        vals: &mut Vec<Val>,
    ) -> Vec<String> {
        self.note_call(&ctor.key);
        let mut codes: Vec<String> = args
            .iter()
            .zip(&ctor.params)
            .filter(|(_, p)| !super::delegates::vanishes(&p.0))
            .map(|(a, _)| a.code.clone())
            .collect();
        if self.takes_bot(&ctor.key) {
            let bot = self.bot_self();
            codes.push(bot.to_string());
            // Handing over `self` borrows it mutably for the call.
            let mut marker = Val::new(bot, Ty::Void, Prec::Primary);
            marker.effects = true;
            marker.reads_self = bot == "self";
            marker.mut_self = bot == "self";
            vals.push(marker);
        }
        codes
    }

    /// `F = board` in an object initialiser: the board (or timer) is the bot's, which
    /// the new value does not keep; anything else is refused.
    fn board_field_init(&mut self, value: &Expr, item: &Expr) -> R<()> {
        let v = self.expr(value, None)?;
        if !super::delegates::vanishes(&v.ty) || v.effects {
            return Err(unsupported(
                item.span,
                "an assignment to a board or timer field of something else",
                snippet(self.src, item),
            ));
        }
        Ok(())
    }

    /// `new C(args) { F = v }` of a class of the file's own.
    fn new_class(
        &mut self,
        name: &str,
        args: &[Arg],
        init: Option<&[Expr]>,
        e: &Expr,
        vals: &mut Vec<Val>,
    ) -> R<String> {
        let t = self
            .p
            .type_index(name)
            .ok_or_else(|| unsupported(e.span, "a class", name))?;
        let rust = self.p.types[t].rust.clone();
        let ctors: Vec<_> = self.p.types[t]
            .methods
            .iter()
            .filter(|m| m.cs == ".ctor")
            .cloned()
            .collect();
        let mut code = if ctors.is_empty() {
            if !args.is_empty() {
                return Err(unsupported(
                    e.span,
                    "arguments to a class without a constructor",
                    snippet(self.src, e),
                ));
            }
            format!("{rust}::new()")
        } else {
            let ctor = self.pick_overload(&ctors, args, e)?;
            let named;
            let args = if args.iter().any(|a| a.name.is_some()) {
                named = self.named_positional(&ctor, args, e)?;
                &named[..]
            } else {
                args
            };
            let args = self.args_with_defaults(&ctor.params, &ctor.defaults, args, e)?;
            let codes = self.ctor_arg_codes(&ctor, &args, vals);
            vals.extend(args);
            format!(
                "{rust}::{}({})",
                ctor.rust.replacen("construct", "new", 1),
                codes.join(", ")
            )
        };
        if let Some(items) = init.filter(|i| !i.is_empty()) {
            let sets = self.field_sets(t, items, vals, |field, value| {
                format!("slot.{field}.set({value}); ")
            })?;
            code = format!("{{ let slot = {code}; {sets}slot }}");
        }
        Ok(code)
    }

    /// `list` with a collection initialiser's elements added after what it was made with.
    fn list_adds(
        &mut self,
        list: String,
        items: &[Expr],
        elem: &Ty,
        vals: &mut Vec<Val>,
    ) -> R<String> {
        if items.is_empty() {
            return Ok(list);
        }
        let items = self.elements(items, elem)?;
        let adds: String = items
            .iter()
            .map(|v| format!("slot.add({}); ", v.code))
            .collect();
        vals.extend(items);
        Ok(format!("{{ let slot = {list}; {adds}slot }}"))
    }

    /// A collection initialiser's `Add` calls: `{ { k, v }, ... }` for a dictionary,
    /// `{ a, b }` for a set.
    fn collection_adds(&mut self, ty: &Ty, items: &[Expr], vals: &mut Vec<Val>) -> R<String> {
        let mut adds = String::new();
        for item in items {
            // `[k] = v` sets through the indexer: a later equal key replaces the value,
            // where `Add` would throw.
            if let (Ty::Dict(k, v, _), ExprKind::Assign(None, target, value)) = (ty, &item.kind)
                && let ExprKind::ElementBinding(keys) = &target.kind
                && let [key] = keys.as_slice()
            {
                let key_v = self.expr(key, Some(k))?;
                let key_v = self.coerce(key_v, k, key)?;
                let key_v = self.owned(key_v);
                let value_v = self.expr(value, Some(v))?;
                let value_v = self.coerce(value_v, v, value)?;
                let value_v = self.owned(value_v);
                adds.push_str(&format!("slot.set({}, {}); ", key_v.code, value_v.code));
                vals.push(key_v);
                vals.push(value_v);
                continue;
            }
            match (ty, &item.kind) {
                (
                    Ty::Dict(k, v, _),
                    ExprKind::NewArray {
                        elem: None,
                        init: Some(pair),
                        ..
                    },
                ) if pair.len() == 2 => {
                    let key = self.expr(&pair[0], Some(k))?;
                    let key = self.coerce(key, k, &pair[0])?;
                    let value = self.expr(&pair[1], Some(v))?;
                    let value = self.coerce(value, v, &pair[1])?;
                    let value = self.owned(value);
                    adds.push_str(&format!("slot.add({}, {}); ", key.code, value.code));
                    vals.push(key);
                    vals.push(value);
                }
                (Ty::Set(t), _) => {
                    let x = self.expr(item, Some(t))?;
                    let x = self.coerce(x, t, item)?;
                    adds.push_str(&format!("slot.add({}); ", x.code));
                    vals.push(x);
                }
                _ => {
                    return Err(unsupported(
                        item.span,
                        "this collection initialiser",
                        snippet(self.src, item),
                    ));
                }
            }
        }
        Ok(adds)
    }

    /// Elements converted to `elem`.
    fn elements(&mut self, items: &[Expr], elem: &Ty) -> R<Vec<Val>> {
        let mut out = Vec::new();
        for item in items {
            let v = self.expr(item, Some(elem))?;
            let v = if *elem == Ty::Unknown {
                v
            } else {
                self.coerce(v, elem, item)?
            };
            out.push(self.owned(v));
        }
        Ok(out)
    }

    /// `new T[n]`, `new T[a, b]`, `new T[] { ... }`, `new[] { ... }`, `{ ... }`,
    /// `stackalloc T[n]`.
    pub(crate) fn new_array(
        &mut self,
        elem: Option<&TypeRef>,
        rank: u8,
        sizes: &[Expr],
        init: Option<&[Expr]>,
        e: &Expr,
        want: Option<&Ty>,
    ) -> R<Val> {
        let elem_ty = match elem {
            Some(t) => self.p.resolve(t, &self.type_params, e.span)?,
            None => match want {
                Some(Ty::Array(t, _)) | Some(Ty::List(t)) | Some(Ty::Seq(t)) => (**t).clone(),
                _ => self.infer_elements(init.unwrap_or(&[]), e)?,
            },
        };
        let rank = match (elem, want) {
            (None, Some(Ty::Array(_, r))) => *r,
            _ => rank,
        };
        let rust_elem = self.rty(&elem_ty, e.span)?;
        let array_ty = Ty::Array(Box::new(elem_ty.clone()), rank);
        let mut acc = Val::new("", array_ty.clone(), Prec::Primary);
        if let Some(items) = init {
            if rank > 1 {
                return self.md_literal(items, &elem_ty, rank, e);
            }
            let vals = self.elements(items, &elem_ty)?;
            for v in &vals {
                acc = acc.absorb(v);
            }
            let codes: Vec<String> = vals.into_iter().map(|v| v.code).collect();
            acc.code = if codes.is_empty() {
                format!("cs::Array::<{rust_elem}>::new(0)")
            } else if codes.iter().map(String::len).sum::<usize>() > 60 {
                format!(
                    "cs::Array::from(vec![\n{}])",
                    FileEmitter::indent(
                        &codes.iter().map(|c| format!("{c},\n")).collect::<String>()
                    )
                )
            } else {
                format!("cs::Array::from(vec![{}])", codes.join(", "))
            };
            if matches!(want, Some(Ty::List(_))) {
                acc.code = acc.code.replace("cs::Array::from(", "cs::List::from(");
                acc.ty = Ty::List(Box::new(elem_ty));
            }
            return Ok(acc);
        }
        let mut dims = Vec::new();
        for s in sizes {
            let v = self.expr(s, Some(&INT))?;
            let t = crate::types::unary_promote(&v.ty).unwrap_or(INT);
            let v = self.coerce(v, &t, s)?;
            acc = acc.absorb(&v);
            dims.push(v);
        }
        acc.code = match dims.as_slice() {
            [n] => format!("cs::Array::<{rust_elem}>::new({})", n.code),
            many => {
                let list: Vec<String> = many
                    .iter()
                    .map(|d| {
                        if d.konst.is_some() {
                            d.code.clone()
                        } else {
                            format!("{} as usize", d.at(Prec::Cast))
                        }
                    })
                    .collect();
                format!("cs::Array::<{rust_elem}>::new_md([{}])", list.join(", "))
            }
        };
        Ok(acc)
    }

    /// The element type of `{ a, b, c }` without a declared type: the first element's.
    fn infer_elements(&mut self, items: &[Expr], e: &Expr) -> R<Ty> {
        let first = items.first().ok_or_else(|| {
            unsupported(
                e.span,
                "an empty array without a type",
                snippet(self.src, e),
            )
        })?;
        let saved = self.learned.clone();
        let mut best = self.expr(first, None)?.ty;
        for item in &items[1..] {
            let t = self.expr(item, None)?.ty;
            if let Some(p) = crate::types::promote(&best, &t)
                && p != best
                && crate::types::implicit_numeric(&best, &p)
            {
                best = p;
            }
        }
        self.learned = saved;
        Ok(best)
    }

    /// `{ { 1, 2 }, { 3, 4 } }` for a `T[,]`: its shape and elements in row-major order.
    fn md_literal(&mut self, items: &[Expr], elem: &Ty, rank: u8, e: &Expr) -> R<Val> {
        let mut shape = vec![items.len()];
        let mut flat = Vec::new();
        let mut level: Vec<&Expr> = items.iter().collect();
        for _ in 1..rank {
            let mut next = Vec::new();
            let mut width = None;
            for item in &level {
                let ExprKind::NewArray {
                    init: Some(inner), ..
                } = &item.kind
                else {
                    return Err(unsupported(
                        item.span,
                        "a multi-dimensional array literal",
                        snippet(self.src, item),
                    ));
                };
                if *width.get_or_insert(inner.len()) != inner.len() {
                    return Err(unsupported(
                        item.span,
                        "a ragged multi-dimensional array literal",
                        snippet(self.src, item),
                    ));
                }
                next.extend(inner.iter());
            }
            shape.push(width.unwrap_or(0));
            level = next;
        }
        let mut acc = Val::new("", Ty::Array(Box::new(elem.clone()), rank), Prec::Primary);
        for x in level {
            let v = self.expr(x, Some(elem))?;
            let v = self.coerce(v, elem, x)?;
            acc = acc.absorb(&v);
            flat.push(v.code);
        }
        let dims: Vec<String> = shape.iter().map(usize::to_string).collect();
        let _ = e;
        acc.code = format!(
            "cs::Array::from_md([{}], vec![{}])",
            dims.join(", "),
            flat.join(", ")
        );
        Ok(acc)
    }

    /// A lambda, its parameters typed from `want` (a `Func`).
    pub(crate) fn lambda(
        &mut self,
        params: &[(String, Option<TypeRef>)],
        body: &LambdaBody,
        e: &Expr,
        want: Option<&Ty>,
    ) -> R<Val> {
        let (wanted_params, wanted_ret) = match want {
            Some(Ty::Func(ps, r)) => (ps.clone(), Some((**r).clone())),
            _ => (Vec::new(), None),
        };
        let warnings = self.warnings.len();
        self.scopes.push(Scope::default());
        let (names, types) = self.lambda_params(params, &wanted_params, e)?;
        self.f().lambda_depth += 1;
        let ret_hint = wanted_ret.clone().filter(|r| *r != Ty::Unknown);
        self.lambda_ret.push(ret_hint.clone());
        self.lambda_widen.push((ret_hint.is_none(), None));
        let result = match body {
            // An `Action`'s expression body is a statement: its value is dropped.
            LambdaBody::Expr(x) if wanted_ret == Some(Ty::Void) => {
                let stmt = Stmt {
                    kind: StmtKind::Expr((**x).clone()),
                    span: x.span,
                };
                self.block_body(std::slice::from_ref(&stmt)).map(|code| {
                    Val::new(
                        format!("{{\n{}}}", FileEmitter::indent(&code)),
                        Ty::Void,
                        Prec::Primary,
                    )
                })
            }
            LambdaBody::Expr(x) => self
                .expr(x, ret_hint.as_ref())
                .and_then(|v| match &ret_hint {
                    Some(r) if *r != Ty::Void => self.coerce(v, r, x),
                    _ => Ok(v),
                })
                .map(|v| self.owned(v)),
            LambdaBody::Block(stmts) => self.block_body(stmts).map(|code| {
                let ret = self
                    .lambda_ret
                    .last()
                    .cloned()
                    .flatten()
                    .unwrap_or(Ty::Void);
                let tail = super::items::unreachable_tail(stmts, &ret);
                Val::new(
                    format!("{{\n{}}}", FileEmitter::indent(&format!("{code}{tail}"))),
                    ret,
                    Prec::Primary,
                )
            }),
        };
        self.lambda_ret.pop();
        let widened = self.lambda_widen.pop().and_then(|w| w.1);
        self.f().lambda_depth -= 1;
        self.scopes.pop();
        let v = result?;
        if let Some(wider) = widened {
            self.warnings.truncate(warnings);
            let want = Ty::Func(types, Box::new(wider));
            return self.lambda(params, body, e, Some(&want));
        }
        let body_code = if matches!(body, LambdaBody::Expr(_)) && v.ty != Ty::Void && v.bare_literal
        {
            super::call::typed(&v)
        } else {
            v.code.clone()
        };
        let code = format!("|{}| {body_code}", names.join(", "));
        let ret = match (&v.ty, body) {
            (t, LambdaBody::Expr(_)) => t.clone(),
            (t, _) => t.clone(),
        };
        let mut out = Val::new(code, Ty::Func(types, Box::new(ret)), Prec::Assign);
        out.effects = v.effects;
        out.mut_self = v.mut_self;
        out.reads_self = v.reads_self;
        Ok(out)
    }

    /// Declares a lambda's parameters, typed as written or from the wanted delegate's:
    /// their Rust spellings and types.
    fn lambda_params(
        &mut self,
        params: &[(String, Option<TypeRef>)],
        wanted_params: &[Ty],
        e: &Expr,
    ) -> R<(Vec<String>, Vec<Ty>)> {
        let mut names = Vec::new();
        let mut types = Vec::new();
        for (i, (name, t)) in params.iter().enumerate() {
            let ty = match t {
                Some(t) => self.p.resolve(t, &self.type_params, e.span)?,
                None => wanted_params.get(i).cloned().ok_or_else(|| {
                    unsupported(
                        e.span,
                        "a lambda whose parameter types this translator cannot tell",
                        snippet(self.src, e),
                    )
                })?,
            };
            // A board or timer parameter is the one `think` was handed: no Rust parameter.
            if let Some(kind) = match ty {
                Ty::Api("Board") => Some(LocalKind::Board),
                Ty::Api("Timer") => Some(LocalKind::Timer),
                _ => None,
            } {
                self.declare(name, ty.clone(), kind);
                types.push(ty);
                continue;
            }
            let l = self.declare(name, ty.clone(), LocalKind::Value);
            // Typed, so a method call on the parameter needs no inference.
            let rust_ty = self.rty(&ty, e.span)?;
            names.push(format!("{}: {rust_ty}", l.rust));
            types.push(ty);
        }
        Ok((names, types))
    }
}

//! Member accesses and calls: the file's own methods and local functions, the API's
//! members (through the table in `api`), `Math`, `Array`, collections and LINQ; element
//! access; `new`; lambdas.

use super::api::{self, ApiEntry};
use super::decls::{FileEmitter, LocalKind, Scope};
use super::program::MethodInfo;
use super::{Const, Prec, R, Val, snippet, unsupported};
use crate::ast::*;
use crate::types::unary_promote;
use crate::types::{IntTy, Ty, promote};
use std::collections::BTreeMap;

/// What a callee or member target names.
enum Target {
    /// A type (its C# name): a static member follows.
    Type(String),
    /// A value.
    Value(Val),
}

impl FileEmitter<'_, '_> {
    /// Whether `name` names a type here (the file's own, the API's, a C# keyword type).
    fn type_name(&self, name: &str) -> bool {
        self.find_local(name).is_none()
            && self.p.field(self.fr().class, name).is_none()
            && (self.p.type_index(name).is_some()
                || api::is_static_class(name)
                || matches!(
                    name,
                    "Enum"
                        | "MemoryExtensions"
                        | "Tuple"
                        | "String"
                        | "Char"
                        | "Random"
                        | "BigInteger"
                )
                || matches!(
                    name,
                    "PieceType"
                        | "Move"
                        | "Square"
                        | "Board"
                        | "BitboardHelper"
                        | "int"
                        | "long"
                        | "ulong"
                        | "uint"
                        | "short"
                        | "ushort"
                        | "byte"
                        | "sbyte"
                        | "double"
                        | "float"
                        | "Int32"
                        | "Int64"
                        | "UInt64"
                        | "UInt32"
                        | "Int16"
                        | "UInt16"
                        | "Byte"
                        | "SByte"
                        | "Single"
                        | "Double"
                        | "string"
                        | "char"
                        | "bool"
                        | "decimal"
                        | "Decimal"
                ))
    }

    /// `Level.High` where a field or local `Level` has the file's enum type `Level`:
    /// C# reads `High` as the enum's member (ECMA-334, "Identical simple names and type
    /// names"), since a value of an enum has no member of that name.
    fn enum_member_of_same_named(&self, n: &str, name: &str) -> bool {
        let Some(t) = self.p.type_index(n) else {
            return false;
        };
        let is_member = self.p.types[t].enum_values.iter().any(|(m, _)| m == name);
        let value_ty = match self.find_local(n) {
            Some(l) => Some(l.ty),
            None => self.p.field(self.fr().class, n).map(|f| f.ty.clone()),
        };
        is_member && value_ty == Some(Ty::Enum(n.to_string()))
    }

    fn target(&mut self, e: &Expr) -> R<Target> {
        match &e.kind {
            ExprKind::Name(n, _) if self.type_name(n) => Ok(Target::Type(n.clone())),
            ExprKind::Member(inner, n, _) if is_namespace(inner) => Ok(Target::Type(n.clone())),
            _ => Ok(Target::Value(self.expr(e, None)?)),
        }
    }

    /// `target.name` (not called).
    pub(crate) fn member(&mut self, target: &Expr, name: &str, e: &Expr) -> R<Val> {
        if let ExprKind::Name(n, _) = &target.kind
            && self.enum_member_of_same_named(n, name)
        {
            return self.static_member(n, name, e);
        }
        if let Some(v) = self.view_count(target, name, e)? {
            return Ok(v);
        }
        match self.target(target)? {
            Target::Type(t) => self.static_member(&t, name, e),
            Target::Value(v) => self.instance_member(v, name, e),
        }
    }

    /// `d.Keys.Count` / `d.Values.Count` of a dictionary `d`: both views have as many
    /// elements as `d` has entries (`Dictionary<K, V>.KeyCollection.Count`), so this is
    /// `d.Count`. Other `x.Keys.Count` are read as usual.
    fn view_count(&mut self, target: &Expr, name: &str, e: &Expr) -> R<Option<Val>> {
        let ExprKind::Member(inner, view, targs) = &target.kind else {
            return Ok(None);
        };
        if name != "Count"
            || !matches!(view.as_str(), "Keys" | "Values")
            || !targs.is_empty()
            || is_namespace(inner)
            || matches!(&inner.kind, ExprKind::Name(n, _) if self.enum_member_of_same_named(n, view))
        {
            return Ok(None);
        }
        let viewed = match self.target(inner)? {
            Target::Value(v) if matches!(v.ty, Ty::Dict(..)) => {
                return self.instance_member(v, name, e).map(Some);
            }
            Target::Value(v) => self.instance_member(v, view, target)?,
            Target::Type(t) => self.static_member(&t, view, target)?,
        };
        self.instance_member(viewed, name, e).map(Some)
    }

    /// `Type.name` of a `using static` type.
    pub(crate) fn static_member_of(&mut self, t: &str, name: &str, e: &Expr) -> R<Val> {
        self.static_member(t, name, e)
    }

    fn static_member(&mut self, t: &str, name: &str, e: &Expr) -> R<Val> {
        if t == "PieceType" {
            let code = match name {
                "None" => "cs::NONE",
                "Pawn" => "cs::PAWN",
                "Knight" => "cs::KNIGHT",
                "Bishop" => "cs::BISHOP",
                "Rook" => "cs::ROOK",
                "Queen" => "cs::QUEEN",
                "King" => "cs::KING",
                _ => {
                    return Err(unsupported(
                        e.span,
                        format!("`PieceType.{name}`"),
                        snippet(self.src, e),
                    ));
                }
            };
            let n = ["None", "Pawn", "Knight", "Bishop", "Rook", "Queen", "King"]
                .iter()
                .position(|x| *x == name)
                .unwrap_or(0);
            let mut v = Val::new(code, Ty::Api("PieceType"), Prec::Primary);
            v.konst = Some(Const::Int(n as i128));
            return Ok(v);
        }
        if let Some(i) = self.p.type_index(t) {
            let info = &self.p.types[i];
            if let Some((_, value)) = info.enum_values.iter().find(|(n, _)| n == name) {
                let mut v = Val::new(
                    self.p.enum_const(t, name),
                    Ty::Enum(t.to_string()),
                    Prec::Primary,
                );
                v.konst = Some(Const::Int(*value));
                return Ok(v);
            }
            if let Some(v) = self.field_val(i, name, e)? {
                return Ok(v);
            }
            if let Some(m) = self
                .p
                .methods(i, name)
                .into_iter()
                .find(|m| m.is_property)
                .cloned()
            {
                return self.own_call(&m, None, &[], e);
            }
            return Err(unsupported(
                e.span,
                format!("the member `{t}.{name}`"),
                snippet(self.src, e),
            ));
        }
        if (t, name) == ("Random", "Shared") {
            // .NET's shared generator is seeded unpredictably; a generator seeded by the
            // host, as `new Random()`'s are, draws numbers as unpredictable.
            return Ok(Val::new("Random::new()", Ty::Api("Random"), Prec::Primary));
        }
        let class = canonical_class(t);
        let entry = api::lookup(class, name)
            .into_iter()
            .find(|x| x.params == "-");
        let Some(entry) = entry else {
            return Err(unsupported(
                e.span,
                format!("the member `{t}.{name}`"),
                snippet(self.src, e),
            ));
        };
        let mut v = self.apply(entry, None, Vec::new(), e)?;
        if let Some(k) = limit_const(class, name) {
            v.konst = Some(k);
        }
        Ok(v)
    }

    /// A method or local function named as a value where a delegate is wanted (a method
    /// group: `moves.Sort(CompareMoves)`), written as the lambda C# makes of it,
    /// `(a, b) => CompareMoves(a, b)`: the same calls with the same arguments, the
    /// receiver being `this`, which a delegate binds when it is made, as the lambda does.
    pub(crate) fn method_group(&mut self, want: &Ty, e: &Expr) -> R<Option<Val>> {
        match self.method_group_lambda(e, Some(want)) {
            Some(lambda) => self.expr(&lambda, Some(want)).map(Some),
            None => Ok(None),
        }
    }

    /// `object.Method` of an object of a class of the file's own, where a delegate is
    /// wanted (`moves.OrderBy(new Rater { Best = best }.Rate)`): the delegate binds the
    /// object when it is made (ECMA-334, "Method group conversions"), so the port
    /// evaluates `object` once, into the closure it moves, which calls the method on it.
    /// `None` if `object` is no such object or `Method` no single instance method of it.
    pub(crate) fn bound_method_group(
        &mut self,
        target: &Expr,
        name: &str,
        want: &Ty,
        e: &Expr,
    ) -> R<Option<Val>> {
        let saved = (self.learned.clone(), self.warnings.len());
        let class = match self.target(target) {
            Ok(Target::Value(v)) => match v.ty {
                Ty::Class(c) if self.p.is_ref_class(&c) => Some(c),
                _ => None,
            },
            _ => None,
        };
        self.learned = saved.0;
        self.warnings.truncate(saved.1);
        let Some((class, decl)) = class.and_then(|c| self.bound_method(&c, name, want)) else {
            return Ok(None);
        };
        let recv = self.expr(target, None)?;
        let recv = self.owned(recv);
        self.scopes.push(Scope::default());
        let bound = self.declare(BOUND, Ty::Class(class.clone()), LocalKind::Value);
        let receiver = ExprKind::Member(
            Box::new(Expr::new(
                ExprKind::Name(BOUND.into(), Vec::new()),
                e.span,
                e.range,
            )),
            name.to_string(),
            Vec::new(),
        );
        let lambda = self.expr(&forwarding_lambda(receiver, &decl, e), Some(want));
        self.scopes.pop();
        let lambda = lambda?;
        // The closure moves the object in; the bot it may need (`self`, or `bot` in a
        // method of another class) it borrows, as a lambda's closure does.
        let mut lets = format!("let {} = {}; ", bound.rust, recv.code);
        let mut body = lambda.code.clone();
        if mentions(&body, "self") {
            let this = if lambda.mut_self {
                "&mut *self"
            } else {
                "&*self"
            };
            lets.push_str(&format!("let bound_bot = {this}; "));
            body = rename_word(&body, "self", "bound_bot");
        }
        if mentions(&body, "bot") {
            lets.push_str("let bot = &mut *bot; ");
        }
        let code = format!("{{ {lets}move {body} }}");
        let mut v = Val::new(code, lambda.ty.clone(), Prec::Primary).absorb(&recv);
        v.effects |= lambda.effects;
        v.mut_self |= lambda.mut_self;
        v.reads_self |= lambda.reads_self;
        Ok(Some(v))
    }

    /// The one instance method `name` of the file's class `class` that a delegate of
    /// type `want` can be made of (as in `method_group_lambda`).
    fn bound_method(&self, class: &str, name: &str, want: &Ty) -> Option<(String, MethodDecl)> {
        let t = self.p.type_index(class)?;
        let arity = match want {
            Ty::Func(ps, _) => ps.len(),
            _ => return None,
        };
        let fitting: Vec<MethodDecl> = (self.p.methods(t, name).into_iter())
            .filter(|m| !m.is_static && !m.is_property)
            .map(|m| self.p.method_decl(m).clone())
            .filter(|d| d.params.len() == arity)
            .collect();
        let [decl] = fitting.as_slice() else {
            return None;
        };
        let plain =
            decl.type_params.is_empty() && decl.params.iter().all(|p| p.mode == PassMode::Value);
        plain.then(|| (class.to_string(), decl.clone()))
    }

    /// Whether `e` names a method or local function and nothing else (a method group).
    pub(crate) fn is_method_group(&self, e: &Expr) -> bool {
        self.method_group_lambda(e, None).is_some()
    }

    /// The lambda C# makes of the method group `e` (a simple name of a method or local
    /// function, neither generic nor with `ref`/`out` parameters; one of that name, or
    /// the one whose parameter count the wanted delegate has).
    pub(crate) fn method_group_lambda(&self, e: &Expr, want: Option<&Ty>) -> Option<Expr> {
        if let ExprKind::Member(t, m, targs) = &e.kind {
            return char_method_group(t, m, targs, e);
        }
        let ExprKind::Name(n, targs) = &e.kind else {
            return None;
        };
        let class = self.fr().class;
        if !targs.is_empty()
            || self.find_local(n).is_some()
            || self.p.field(class, n).is_some()
            || self.p.field(self.p.bot, n).is_some()
        {
            return None;
        }
        let arity = match want {
            Some(Ty::Func(ps, _)) => Some(ps.len()),
            _ => None,
        };
        let decls: Vec<MethodDecl> = match self.find_local_fn(n) {
            Some(lf) => vec![lf.decl],
            None => self
                .p
                .methods(class, n)
                .into_iter()
                .chain(if class == self.p.bot {
                    Vec::new()
                } else {
                    self.p.methods(self.p.bot, n)
                })
                .filter(|m| !m.is_property)
                .map(|m| self.p.method_decl(m).clone())
                .collect(),
        };
        let fitting: Vec<&MethodDecl> = decls
            .iter()
            .filter(|d| arity.is_none_or(|a| a == d.params.len()))
            .collect();
        let [decl] = fitting.as_slice() else {
            return None;
        };
        if !decl.type_params.is_empty()
            || decl.params.iter().any(|p| p.mode != PassMode::Value)
            || decl.params.iter().any(|p| {
                // Its `&mut Random` parameter is no delegate's.
                self.p.resolve(&p.ty, &decl.type_params, p.span).ok() == Some(Ty::Api("Random"))
            })
        {
            return None;
        }
        Some(forwarding_lambda(
            ExprKind::Name(n.clone(), Vec::new()),
            decl,
            e,
        ))
    }

    /// `value.name`, for a property pattern.
    pub(crate) fn instance_member_of(&mut self, v: Val, name: &str, e: &Expr) -> R<Val> {
        self.instance_member(v, name, e)
    }

    // One arm per C# instance member (a table of the API's and the base library's members).
    #[allow(clippy::too_many_lines)]
    fn instance_member(&mut self, v: Val, name: &str, e: &Expr) -> R<Val> {
        let v = self.non_null(v, e)?;
        let ty = v.ty.clone();
        match &ty {
            Ty::Api("DateTime")
                if matches!(name, "Hour" | "Minute" | "Second")
                    && self.src.contains("DateTime.Now") =>
            {
                // The port's `DateTime.Now` is the UTC clock: its hour is not the local one.
                return Err(unsupported(
                    e.span,
                    format!("the member `{name}` of a `DateTime` in a file reading `DateTime.Now`"),
                    snippet(self.src, e),
                ));
            }
            Ty::Api(class) => {
                if let Some(entry) = api::lookup(class, name)
                    .into_iter()
                    .find(|x| x.params == "-")
                {
                    return self.apply(entry, Some(v), Vec::new(), e);
                }
            }
            Ty::Array(_, _) if name == "Length" => {
                return Ok(self.method_on(v, "len()", Ty::Int(IntTy::I32)));
            }
            Ty::Array(_, _) if name == "IsEmpty" => {
                return Ok(self.method_on(v, "is_empty()", Ty::Bool));
            }
            Ty::Array(_, _) if name == "Rank" => {
                return Ok(self.method_on(v, "rank()", Ty::Int(IntTy::I32)));
            }
            Ty::List(_) | Ty::Dict(..) | Ty::Set(_) if name == "Count" => {
                return Ok(self.method_on(v, "count()", Ty::Int(IntTy::I32)));
            }
            Ty::Coll(..) if super::colls::has_member(&ty, name) => {
                return self.coll_member(v, name, e);
            }
            Ty::Dict(k, _, _) if name == "Keys" => {
                return Ok(self
                    .method_on(v, "keys()", Ty::Seq(k.clone()))
                    .seq_from_vec());
            }
            Ty::Dict(_, val, _) if name == "Values" => {
                return Ok(self
                    .method_on(v, "values()", Ty::Seq(val.clone()))
                    .seq_from_vec());
            }
            Ty::Seq(_) if name == "Length" => {
                let owned = self.owned(v);
                return Ok(self.method_on(owned, "count()", Ty::Int(IntTy::I32)));
            }
            Ty::Str if name == "Length" => {
                let entry = api::lookup("string", "Length")
                    .into_iter()
                    .next()
                    .expect("the table has string.Length");
                return self.apply(entry, Some(v), Vec::new(), e);
            }
            Ty::TupleClass(items) => {
                if let Some(out) = self.tuple_class_item(&v, items, name) {
                    return Ok(out);
                }
            }
            Ty::Tuple(items, names) => {
                let index = names
                    .iter()
                    .position(|n| n.as_deref() == Some(name))
                    .or_else(|| {
                        name.strip_prefix("Item")
                            .and_then(|n| n.parse::<usize>().ok())
                            .map(|n| n - 1)
                    });
                if let Some(i) = index.filter(|i| *i < items.len()) {
                    let mut out = Val::new(
                        format!("{}.{i}", v.at(Prec::Primary)),
                        items[i].clone(),
                        Prec::Primary,
                    )
                    .absorb(&v);
                    out.place = v.place;
                    return Ok(out);
                }
            }
            Ty::Struct(s) | Ty::Class(s) => {
                if let Some(t) = self.p.type_index(s) {
                    if t == self.p.bot && v.code == "self" {
                        return self.name_in(t, name, e);
                    }
                    if let Some(f) = self.p.field(t, name).cloned()
                        && !f.is_static
                        && super::delegates::vanishes(&f.ty)
                    {
                        // The one board or timer, which the bot keeps (the type does not).
                        if v.effects {
                            return Err(unsupported(
                                e.span,
                                "a board or timer field of a value whose reading has effects",
                                snippet(self.src, e),
                            ));
                        }
                        return Ok(self.bot_board_or_timer(&f.ty));
                    }
                    if let Some(f) = self.p.field(t, name).cloned()
                        && !f.is_static
                        && self.p.is_ref_class(s)
                    {
                        let code = format!("{}.{}.get()", v.at(Prec::Primary), f.rust);
                        return Ok(Val::new(code, f.ty.clone(), Prec::Primary).absorb(&v));
                    }
                    if let Some(f) = self.p.field(t, name).cloned()
                        && !f.is_static
                    {
                        let mut out = Val::new(
                            format!("{}.{}", v.at(Prec::Primary), f.rust),
                            f.ty.clone(),
                            Prec::Primary,
                        )
                        .absorb(&v);
                        out.place = v.place;
                        return Ok(out);
                    }
                    if let Some(m) = self
                        .p
                        .methods(t, name)
                        .into_iter()
                        .find(|m| m.is_property)
                        .cloned()
                    {
                        return self.own_call(&m, Some(v), &[], e);
                    }
                }
            }
            Ty::Nullable(inner) if name == "Value" => {
                let out = Val::new(
                    format!("{}.unwrap()", v.at(Prec::Primary)),
                    (**inner).clone(),
                    Prec::Primary,
                )
                .absorb(&v);
                return Ok(out);
            }
            Ty::Nullable(_) if name == "HasValue" => {
                return Ok(Val::new(
                    format!("{}.is_some()", v.at(Prec::Primary)),
                    Ty::Bool,
                    Prec::Primary,
                )
                .absorb(&v));
            }
            _ => {}
        }
        Err(unsupported(
            e.span,
            format!("the member `{name}` of a `{}`", ty.cs()),
            snippet(self.src, e),
        ))
    }

    /// A name looked up as a member of type `t` (for `this.x`).
    fn name_in(&mut self, t: usize, name: &str, e: &Expr) -> R<Val> {
        if let Some(v) = self.field_val(t, name, e)? {
            return Ok(v);
        }
        if let Some(m) = self
            .p
            .methods(t, name)
            .into_iter()
            .find(|m| m.is_property)
            .cloned()
        {
            return self.own_call(&m, None, &[], e);
        }
        Err(unsupported(
            e.span,
            format!("the member `{name}`"),
            snippet(self.src, e),
        ))
    }

    fn method_on(&self, v: Val, method: &str, ty: Ty) -> Val {
        let code = format!("{}.{method}", v.at(Prec::Primary));
        let prec = if method.contains(" as ") {
            Prec::Cast
        } else {
            Prec::Primary
        };
        Val::new(code, ty, prec).absorb(&v)
    }

    /// A call `callee(args)`.
    pub(crate) fn call(
        &mut self,
        callee: &Expr,
        args: &[Arg],
        e: &Expr,
        want: Option<&Ty>,
    ) -> R<Val> {
        match &callee.kind {
            ExprKind::Name(n, _) => self.call_name(n, args, e, want),
            ExprKind::Member(target, name, _)
                if name == ".ctor" && matches!(target.kind, ExprKind::This) =>
            {
                self.chained_constructor(args, e)
            }
            ExprKind::NullMember(target, name) => self.null_call(target, name, args, callee, e),
            ExprKind::Member(target, name, targs) => match self.target(target)? {
                Target::Type(t) => self.static_call(&t, name, targs, args, e, want),
                Target::Value(v) => self.instance_or_extension(v, target, name, args, e),
            },
            _ => Err(unsupported(
                e.span,
                "a call of a computed function",
                snippet(self.src, e),
            )),
        }
    }

    /// `r?.M(args)`. On a value the port never holds as null (the API's objects, arrays and
    /// collections) it is `r.M(args)`, its value lifted to `T?` as C# lifts a value type's.
    /// On an instance of the file's own class it runs only if `r` is not null, and only
    /// as a statement of a `void` method.
    fn null_call(
        &mut self,
        target: &Expr,
        name: &str,
        args: &[Arg],
        callee: &Expr,
        e: &Expr,
    ) -> R<Val> {
        let saved = self.learned.clone();
        let t = self.expr(target, None)?.ty;
        self.learned = saved;
        match t {
            Ty::Api(_) | Ty::Array(..) | Ty::List(_) | Ty::Dict(..) | Ty::Set(_) | Ty::Seq(_) => {
                let member = Expr {
                    kind: ExprKind::Member(Box::new(target.clone()), name.into(), Vec::new()),
                    ..callee.clone()
                };
                let v = self.call(&member, args, e, None)?;
                let value_type = !v.ty.is_reference()
                    && !matches!(v.ty, Ty::Void | Ty::Nullable(_) | Ty::Unknown);
                if !value_type {
                    return Ok(v);
                }
                let ty = Ty::Nullable(Box::new(v.ty.clone()));
                Ok(Val {
                    code: format!("Some({})", v.code),
                    ty,
                    prec: Prec::Primary,
                    place: false,
                    konst: None,
                    ..v
                })
            }
            Ty::Class(_) => self.null_checked_call(target, name, args, e),
            other => Err(unsupported(
                e.span,
                format!("`?.` on a `{}`", other.cs()),
                snippet(self.src, e),
            )),
        }
    }

    /// `r?.M(args);` of a class instance `r` and a `void` method: `M` runs if `r` is not
    /// null. `r` is read once, as C# reads it.
    fn null_checked_call(&mut self, target: &Expr, name: &str, args: &[Arg], e: &Expr) -> R<Val> {
        let recv = self.expr(target, None)?;
        let recv = self.owned(recv);
        let tmp = self.temp("receiver");
        let mut named = Val::new(tmp.clone(), recv.ty.clone(), Prec::Primary);
        named.place = true;
        let call = self.instance_call(named, name, args, e)?;
        if call.ty != Ty::Void {
            return Err(unsupported(
                e.span,
                "a null-conditional call with a value, on a class instance",
                snippet(self.src, e),
            ));
        }
        let code = format!(
            "{{ let {tmp} = {}; if !{tmp}.is_null() {{ {}; }} }}",
            recv.code, call.code
        );
        Ok(Val::new(code, Ty::Void, Prec::Primary)
            .absorb(&recv)
            .absorb(&call))
    }

    /// `: this(args)` (lowered to the constructor body's first statement): the chosen
    /// constructor's `construct`, run on the instance being built. The instance's field
    /// initialisers ran before, in `new`, once: C# runs them in the constructor chained
    /// to, after evaluating `args`, which the port requires to change nothing.
    fn chained_constructor(&mut self, args: &[Arg], e: &Expr) -> R<Val> {
        let t = self.fr().class;
        if t == self.p.bot {
            return Err(unsupported(
                e.span,
                "the bot's constructor calling another",
                snippet(self.src, e),
            ));
        }
        let ctors: Vec<MethodInfo> = self.p.types[t]
            .methods
            .iter()
            .filter(|m| m.cs == ".ctor")
            .cloned()
            .collect();
        let is_struct = self.p.types[t].kind == TypeKind::Struct;
        if args.is_empty() && is_struct && !ctors.iter().any(|m| m.params.is_empty()) {
            // `: this()` of a struct without a parameterless constructor: the default
            // value, which `new` starts from; C# runs no field initialiser for it.
            let has_inits = self.p.types[t]
                .fields
                .iter()
                .any(|f| !f.is_static && self.p.field_decl(f).1.is_some());
            if has_inits {
                return Err(unsupported(
                    e.span,
                    "`: this()` in a struct with field initialisers",
                    snippet(self.src, e),
                ));
            }
            return Ok(Val::new("()", Ty::Void, Prec::Primary));
        }
        let m = self.pick_overload(&ctors, args, e)?;
        let vals = self.args_with_defaults(&m.params, &m.defaults, args, e)?;
        if vals.iter().any(|v| v.effects) {
            return Err(unsupported(
                e.span,
                "a constructor call `: this(...)` whose arguments change state",
                snippet(self.src, e),
            ));
        }
        self.note_call(&m.key);
        let codes: Vec<String> = vals.iter().map(|v| v.code.clone()).collect();
        let mut out = Val::new(
            format!("self.{}({})", m.rust, codes.join(", ")),
            Ty::Void,
            Prec::Primary,
        );
        for v in &vals {
            out = out.absorb(v);
        }
        out.effects = true;
        out.reads_self = true;
        out.mut_self = is_struct;
        Ok(out)
    }

    /// `r.name(args)`: the receiver's own method, else an extension method `name` whose
    /// receiver parameter takes `r`'s type (C# tries instance methods first).
    fn instance_or_extension(
        &mut self,
        v: Val,
        target: &Expr,
        name: &str,
        args: &[Arg],
        e: &Expr,
    ) -> R<Val> {
        let own_fen = || {
            self.p
                .types
                .iter()
                .flat_map(|t| &t.methods)
                .any(|m| m.cs == "GetFenString")
        };
        if name == "Normalize" && args.is_empty() && is_fen_call(target) && !own_fen() {
            // A FEN is ASCII, which every Unicode normalisation leaves as it is.
            return Ok(v);
        }
        let extensions = self.extensions(name, &v.ty);
        if extensions.is_empty() {
            return self.instance_call(v, name, args, e);
        }
        let (learned, warnings, pre) = (
            self.learned.clone(),
            self.warnings.len(),
            self.fr().pre.len(),
        );
        match self.instance_call(v, name, args, e) {
            Ok(out) => Ok(out),
            Err(_) => {
                self.learned = learned;
                self.warnings.truncate(warnings);
                self.f().pre.truncate(pre);
                let mut full = vec![Arg {
                    mode: PassMode::Value,
                    expr: target.clone(),
                    name: None,
                }];
                full.extend(args.iter().cloned());
                let m = self.pick_overload(&extensions, &full, e)?;
                self.own_call(&m, None, &full, e)
            }
        }
    }

    /// The file's extension methods called `name` whose receiver takes a `receiver`.
    fn extensions(&self, name: &str, receiver: &Ty) -> Vec<MethodInfo> {
        fn takes(param: &Ty, value: &Ty) -> bool {
            match (param, value) {
                (Ty::Param(_), _) => true,
                (Ty::Array(p, r), Ty::Array(v, s)) => r == s && takes(p, v),
                (Ty::List(p), Ty::List(v)) => takes(p, v),
                _ => param == value,
            }
        }
        self.p
            .types
            .iter()
            .flat_map(|t| &t.methods)
            .filter(|m| {
                m.cs == name
                    && m.is_static
                    && self.p.method_decl(m).is_extension
                    && m.params.first().is_some_and(|p| takes(&p.0, receiver))
            })
            .cloned()
            .collect()
    }

    fn call_name(&mut self, n: &str, args: &[Arg], e: &Expr, want: Option<&Ty>) -> R<Val> {
        if let Some(l) = self.find_local(n)
            && l.kind == LocalKind::Delegate
        {
            return self.delegate_call(&l, args, e);
        }
        if let Some(l) = self.find_local(n)
            && l.kind == LocalKind::Closure
        {
            let Ty::Func(params, ret) = l.ty.clone() else {
                return Err(unsupported(e.span, "a call of this local", n));
            };
            let f = self.local_val(&l);
            let vals = self.args_for(
                &params
                    .iter()
                    .map(|p| (p.clone(), PassMode::Value, false))
                    .collect::<Vec<_>>(),
                args,
                e,
            )?;
            // A board or timer argument is the one the closure has (see `lambda`).
            let codes: Vec<String> = vals
                .iter()
                .zip(&params)
                .filter(|(_, p)| !super::delegates::vanishes(p))
                .map(|(v, _)| v.code.clone())
                .collect();
            let mut out = Val::new(
                format!("{}({})", f.code, codes.join(", ")),
                (*ret).clone(),
                Prec::Primary,
            );
            out.effects = true;
            for v in &vals {
                out = out.absorb(v);
            }
            return Ok(out);
        }
        if let Some(lf) = self.find_local_fn(n) {
            return self.local_fn_call(&lf.info, args, e);
        }
        let class = self.fr().class;
        let candidates: Vec<MethodInfo> = self.p.methods(class, n).into_iter().cloned().collect();
        if !candidates.is_empty() {
            let m = self.pick_overload(&candidates, args, e)?;
            return self.own_call(&m, None, args, e);
        }
        if class != self.p.bot {
            let candidates: Vec<MethodInfo> = self
                .p
                .methods(self.p.bot, n)
                .into_iter()
                .filter(|m| m.is_static)
                .cloned()
                .collect();
            if !candidates.is_empty() {
                let m = self.pick_overload(&candidates, args, e)?;
                return self.own_call(&m, None, args, e);
            }
        }
        for u in self.p.using_static.clone() {
            if api::has(canonical_class(&u), n)
                || matches!(
                    (u.as_str(), n),
                    ("Math", "Max" | "Min" | "Abs" | "Sign" | "Clamp")
                )
                || u == "Convert" && n.starts_with("To")
            {
                return self.static_call(&u, n, &[], args, e, want);
            }
        }
        Err(unsupported(
            e.span,
            format!("a call of `{n}` (no method of that name here)"),
            snippet(self.src, e),
        ))
    }

    /// The overload whose parameters fit the arguments best.
    pub(crate) fn pick_overload(
        &mut self,
        candidates: &[MethodInfo],
        args: &[Arg],
        e: &Expr,
    ) -> R<MethodInfo> {
        let fits: Vec<&MethodInfo> = candidates
            .iter()
            .filter(|m| {
                let required = m
                    .params
                    .iter()
                    .filter(|p| !p.2 && p.1 != PassMode::Params)
                    .count();
                let variadic = m.params.iter().any(|p| p.1 == PassMode::Params);
                args.len() >= required && (variadic || args.len() <= m.params.len())
            })
            .collect();
        match fits.as_slice() {
            [one] => Ok((*one).clone()),
            [] => Err(unsupported(
                e.span,
                "a call matching no overload",
                snippet(self.src, e),
            )),
            many => {
                // Several fit by count: compare the arguments' types.
                let mut types = Vec::new();
                for a in args {
                    let saved = self.learned.clone();
                    let t = self
                        .expr(&a.expr, None)
                        .map(|v| v.ty)
                        .unwrap_or(Ty::Unknown);
                    self.learned = saved;
                    types.push(t);
                }
                let exact = many.iter().find(|m| {
                    m.params.len() == args.len()
                        && m.params.iter().zip(&types).all(|(p, t)| p.0 == *t)
                });
                let close = many.iter().find(|m| {
                    m.params
                        .iter()
                        .zip(&types)
                        .all(|(p, t)| p.0 == *t || crate::types::implicit_numeric(t, &p.0))
                });
                exact.or(close).map(|m| (*m).clone()).ok_or_else(|| {
                    unsupported(
                        e.span,
                        "an overloaded call this translator cannot resolve",
                        snippet(self.src, e),
                    )
                })
            }
        }
    }

    /// A call of a method of the file's own (of the bot's struct, or of a struct value).
    pub(crate) fn own_call(
        &mut self,
        m: &MethodInfo,
        recv: Option<Val>,
        args: &[Arg],
        e: &Expr,
    ) -> R<Val> {
        let instance;
        let m = if m.type_params.is_empty() {
            m
        } else {
            instance = self.generic_instance(m, args, e)?;
            &instance
        };
        let positional;
        let args = if args.iter().any(|a| a.name.is_some()) {
            positional = self.named_positional(m, args, e)?;
            &positional[..]
        } else {
            args
        };
        let bot_level = m.owner == self.p.bot || m.is_static;
        let vals = self.args_with_defaults(&m.params, &m.defaults, args, e)?;
        let mutating = self.mutates(&m.key);
        self.note_call(&m.key);
        let (mut recv_code, recv_val) = match (&recv, bot_level) {
            (Some(r), false) => (r.at(Prec::Primary), Some(r.clone())),
            // From another type's method, the bot is its `bot` parameter.
            (_, true) => (self.bot_self().to_string(), None),
            (None, false) => ("self".to_string(), None),
        };
        let tail = if !bot_level && self.takes_bot(&m.key) {
            self.bot_self()
        } else {
            ""
        };
        // The bot handed to the callee cannot be borrowed by its receiver too: a shared
        // instance is read into a temporary first, as C# reads the receiver first.
        let mut bind = String::new();
        if !tail.is_empty() && mentions(&recv_code, tail) {
            if !self.p.is_ref_class(&m_owner_cs(self.p, m)) {
                return Err(unsupported(
                    e.span,
                    "a struct method that uses the board, timer or bot called on a field of the bot",
                    snippet(self.src, e),
                ));
            }
            let t = self.temp("receiver");
            bind = format!("let {t} = {}.clone(); ", recv_code);
            recv_code = t;
        }
        let (vals, swap) = self.board_swap_args(m, vals, e)?;
        let (arg_codes, kept) = self.own_call_args(m, vals.clone(), &mut bind);
        if !tail.is_empty()
            && arg_codes
                .iter()
                .any(|c| c.starts_with(&format!("&mut {tail}.")))
        {
            // The callee could reach the field through the bot while it holds the
            // reference: no copy written back after the call would be C#'s alias.
            return Err(unsupported(
                e.span,
                "a field of the bot passed by `ref` to a method that uses the board, timer or bot",
                snippet(self.src, e),
            ));
        }
        let borrows_self = recv_code.starts_with("self") || tail == "self";
        let mut out = self.call_code(&recv_code, &m.rust, arg_codes, &kept, borrows_self, tail);
        if !bind.is_empty() {
            out.code = format!("{{ {bind}{} }}", out.code);
        }
        out.ty = m.ret.clone();
        out.effects = true;
        if recv_code == "self" && bot_level || tail == "self" {
            out.reads_self = true;
            out.mut_self |= mutating || tail == "self";
        }
        if let Some(r) = recv_val {
            out = out.absorb(&r);
            if mutating && r.reads_self {
                out.mut_self = true;
            }
        }
        if let Some((board, setup)) = swap {
            out = self.swap_board_into_call(&board, &setup, out, e)?;
        }
        if m.ret_ref {
            out.code = format!("{}.get()", out.code);
        }
        Ok(out)
    }

    /// `F(a, debug: false)`, `new(a, b, last: true)`: the arguments in their parameters'
    /// order, a skipped optional parameter given its default (a constant). C# evaluates
    /// arguments in the order written: when that is not the parameters' order, every
    /// argument must be a literal or a local, whose order of evaluation cannot matter.
    pub(crate) fn named_positional(&self, m: &MethodInfo, args: &[Arg], e: &Expr) -> R<Vec<Arg>> {
        let decl = self.p.method_decl(m);
        let refuse = |what: &str| Err(unsupported(e.span, what, snippet(self.src, e)));
        let mut slots: Vec<Option<Arg>> = vec![None; decl.params.len()];
        let mut order = Vec::new();
        for (i, a) in args.iter().enumerate() {
            let at = match &a.name {
                Some(n) => match decl.params.iter().position(|p| p.name == *n) {
                    Some(at) => at,
                    None => return refuse("a named argument no parameter has"),
                },
                None => i,
            };
            match slots.get_mut(at) {
                Some(slot @ None) => {
                    *slot = Some(Arg {
                        name: None,
                        ..a.clone()
                    })
                }
                _ => return refuse("a named argument out of its parameter's position"),
            }
            order.push(at);
        }
        let reordered = order.windows(2).any(|w| w[0] > w[1]);
        if reordered && !args.iter().all(|a| self.order_free(&a.expr)) {
            return refuse("named arguments out of order whose evaluation order matters");
        }
        let last = slots.iter().rposition(Option::is_some).map_or(0, |i| i + 1);
        let mut out = Vec::new();
        for (slot, p) in slots.into_iter().zip(&decl.params).take(last) {
            match (slot, &p.default) {
                (Some(a), _) => out.push(a),
                (None, Some(d)) => out.push(Arg {
                    mode: PassMode::Value,
                    expr: d.clone(),
                    name: None,
                }),
                (None, None) => return refuse("a named argument skipping a required parameter"),
            }
        }
        Ok(out)
    }

    /// A literal or a local: evaluating it has no effect and nothing else an argument
    /// does can change it.
    fn order_free(&self, x: &Expr) -> bool {
        match &x.kind {
            ExprKind::Int(..)
            | ExprKind::Real(..)
            | ExprKind::Bool(_)
            | ExprKind::Char(_)
            | ExprKind::Str(_)
            | ExprKind::Null => true,
            ExprKind::Name(n, _) => self.find_local(n).is_some(),
            _ => false,
        }
    }

    /// A generic method's parameter and return types with its type arguments inferred
    /// from the arguments' types (ECMA-334 12.6.3, for parameters that name them
    /// directly or as an array's, a list's... element); Rust infers the same ones.
    fn generic_instance(&mut self, m: &MethodInfo, args: &[Arg], e: &Expr) -> R<MethodInfo> {
        let mut found = BTreeMap::new();
        for (p, a) in m.params.iter().zip(args) {
            if a.mode != PassMode::Value || !mentions_param(&p.0) {
                continue;
            }
            let (learned, warnings, pre) = (
                self.learned.clone(),
                self.warnings.len(),
                self.fr().pre.len(),
            );
            let probed = self.expr(&a.expr, None).map(|v| v.ty);
            self.learned = learned;
            self.warnings.truncate(warnings);
            self.f().pre.truncate(pre);
            if let Ok(t) = probed
                && !unify(&p.0, &t, &mut found)
            {
                return Err(unsupported(
                    e.span,
                    "a generic method call whose type arguments differ between arguments",
                    snippet(self.src, e),
                ));
            }
        }
        if let Some(missing) = m.type_params.iter().find(|t| !found.contains_key(*t)) {
            return Err(unsupported(
                e.span,
                format!("a generic method call that does not fix `{missing}` by an argument"),
                snippet(self.src, e),
            ));
        }
        let mut out = m.clone();
        for p in &mut out.params {
            p.0 = substitute(&p.0, &found);
        }
        out.ret = substitute(&m.ret, &found);
        Ok(out)
    }

    /// The arguments' codes without those for `Board` and `Timer` parameters (which are
    /// the bot's own, never passed).
    /// The arguments of a call of the bot's own `Think`, which keeps its Rust
    /// parameters: the bot's board and timer, taken out for the call. `think` stores them
    /// back first thing, so the caller sees the board as the callee left it, C#'s one
    /// board object (a board made from a FEN is swapped in around the call first).
    /// Returns the statements that take them and the names they are taken into.
    fn think_args(&mut self) -> (String, Vec<String>) {
        let mut taken = String::new();
        let mut names = Vec::new();
        for (what, t) in [("board", Ty::Api("Board")), ("timer", Ty::Api("Timer"))] {
            let name = self.temp(what);
            let place = self.bot_board_or_timer(&t).code;
            taken.push_str(&format!("let {name} = std::mem::take(&mut {place}); "));
            names.push(name);
        }
        (taken, names)
    }

    /// A method's arguments without the board and timer, which the callee reaches
    /// through the bot; the bot's `Think` excepted (see [`Self::think_args`], whose
    /// statements go into `bind`).
    fn own_call_args(
        &mut self,
        m: &MethodInfo,
        vals: Vec<Val>,
        bind: &mut String,
    ) -> (Vec<String>, Vec<Val>) {
        if m.owner == self.p.bot && m.cs == "Think" && !m.is_static {
            let (taken, names) = self.think_args();
            bind.push_str(&taken);
            return (names, Vec::new());
        }
        self.board_free_args(m, vals)
    }

    fn board_free_args(&self, m: &MethodInfo, vals: Vec<Val>) -> (Vec<String>, Vec<Val>) {
        let mut codes = Vec::new();
        let mut kept = Vec::new();
        for (i, v) in vals.into_iter().enumerate() {
            if matches!(
                m.params.get(i).map(|p| &p.0),
                Some(Ty::Api("Board" | "Timer"))
            ) {
                continue;
            }
            codes.push(v.code.clone());
            kept.push(v);
        }
        (codes, kept)
    }

    /// `recv.name(args)`, its arguments moved into temporaries first when one of them
    /// needs `&mut self` while the receiver borrows `self`.
    fn call_code(
        &mut self,
        recv: &str,
        name: &str,
        codes: Vec<String>,
        vals: &[Val],
        borrows_self: bool,
        tail: &str,
    ) -> Val {
        let conflict = borrows_self && vals.iter().any(|v| v.mut_self);
        let mut out = Val::new("", Ty::Void, Prec::Primary);
        for v in vals {
            out = out.absorb(v);
        }
        let with_tail = |mut names: Vec<String>| {
            if !tail.is_empty() {
                names.push(tail.to_string());
            }
            names.join(", ")
        };
        if !conflict {
            out.code = format!("{recv}.{name}({})", with_tail(codes));
            return out;
        }
        let mut setup = String::new();
        let mut names = Vec::new();
        let mut write_back = String::new();
        for (i, c) in codes.into_iter().enumerate() {
            let t = self.temp("arg");
            let by_ref_field = vals.get(i).is_some_and(|v| v.place);
            match c.strip_prefix("&mut self.") {
                // A field of the bot passed by `ref` to the bot's own method: a temporary
                // written back after the call (for a reference type the two share the
                // contents; a callee that also reads the field through `this` while it
                // holds the reference would see the old value).
                Some(field) if by_ref_field => {
                    setup.push_str(&format!("let mut {t} = self.{field}.clone(); "));
                    names.push(format!("&mut {t}"));
                    write_back.push_str(&format!("self.{field} = {t}; "));
                }
                // A delegate (a closure or a delegate parameter passed on) evaluates
                // nothing: written in place, it borrows what it captures only for the call.
                _ if vals.get(i).is_some_and(|v| matches!(v.ty, Ty::Func(..))) => names.push(c),
                _ => {
                    setup.push_str(&format!("let {t} = {c}; "));
                    names.push(t);
                }
            }
        }
        out.code = if write_back.is_empty() {
            format!("{{ {setup}{recv}.{name}({}) }}", with_tail(names))
        } else {
            let r = self.temp("result");
            format!(
                "{{ {setup}let {r} = {recv}.{name}({}); {write_back}{r} }}",
                with_tail(names)
            )
        };
        out
    }

    /// A lifted local function's call: its arguments, then its captured locals.
    fn local_fn_call(&mut self, m: &MethodInfo, args: &[Arg], e: &Expr) -> R<Val> {
        let vals = self.args_with_defaults(&m.params, &m.defaults, args, e)?;
        self.note_call(&m.key);
        let (vals, swap) = self.board_swap_args(m, vals, e)?;
        let (mut codes, mut kept) = self.board_free_args(m, vals.clone());
        let captures: Vec<(String, u32)> = self
            .facts
            .captures
            .get(&m.key)
            .map(|c| c.iter().cloned().collect())
            .unwrap_or_default();
        let current = self.fns.len() - 1;
        for (owner, id) in &captures {
            let local = self
                .scopes
                .iter()
                .flat_map(|s| &s.locals)
                .find(|l| l.owner == *owner && l.id == *id)
                .cloned();
            let Some(local) = local else {
                return Err(unsupported(
                    e.span,
                    "a local function capturing a variable declared after the call",
                    snippet(self.src, e),
                ));
            };
            if local.frame < current {
                let key = self.fr().key.clone();
                self.learned
                    .captures
                    .entry(key)
                    .or_default()
                    .insert((owner.clone(), *id));
            }
            self.note_assigned(&local);
            let through_ref = local.frame < current || local.kind == LocalKind::Ref;
            codes.push(if through_ref {
                format!("&mut *{}", self.local_name(&local))
            } else {
                format!("&mut {}", local.rust)
            });
        }
        let mutating = self.mutates(&m.key);
        kept.resize(codes.len(), Val::new("", Ty::Void, Prec::Primary));
        let tail = if self.takes_bot(&m.key) {
            self.bot_self()
        } else {
            ""
        };
        let mut out = self.call_code("self", &m.rust, codes, &kept, true, tail);
        out.ty = m.ret.clone();
        out.effects = true;
        out.reads_self = true;
        out.mut_self |= mutating;
        if let Some((board, setup)) = swap {
            out = self.swap_board_into_call(&board, &setup, out, e)?;
        }
        if m.ret_ref {
            out.code = format!("{}.get()", out.code);
        }
        Ok(out)
    }

    /// The arguments for parameters `params`: converted, `ref`/`out` as `&mut`, defaults
    /// filled in, `params` packed into an array.
    pub(crate) fn args_for(
        &mut self,
        params: &[(Ty, PassMode, bool)],
        args: &[Arg],
        e: &Expr,
    ) -> R<Vec<Val>> {
        self.args_with_defaults(params, &[], args, e)
    }

    /// [`args_for`](Self::args_for) with the parameters' default values.
    pub(crate) fn args_with_defaults(
        &mut self,
        params: &[(Ty, PassMode, bool)],
        defaults: &[Option<Expr>],
        args: &[Arg],
        e: &Expr,
    ) -> R<Vec<Val>> {
        if args.iter().any(|a| a.name.is_some()) {
            return Err(unsupported(
                e.span,
                "a named argument",
                snippet(self.src, e),
            ));
        }
        let mut out = Vec::new();
        for (i, (pt, mode, has_default)) in params.iter().enumerate() {
            if *mode == PassMode::Params {
                let mut items = Vec::new();
                let Ty::Array(elem, _) = pt else {
                    return Err(unsupported(
                        e.span,
                        "a `params` parameter",
                        snippet(self.src, e),
                    ));
                };
                for a in &args[i.min(args.len())..] {
                    let v = self.expr(&a.expr, Some(elem))?;
                    if matches!(v.ty, Ty::Array(..) | Ty::Null) && args.len() == i + 1 {
                        // One argument of the array's type is the array itself (C#'s
                        // normal form); another array's covariance stays refused.
                        if v.ty != *pt {
                            return Err(unsupported(
                                e.span,
                                format!("a `{}` passed as `params {}`", v.ty.cs(), pt.cs()),
                                snippet(self.src, e),
                            ));
                        }
                        out.push(self.owned(v));
                        return Ok(out);
                    }
                    let v = self.coerce(v, elem, &a.expr)?;
                    items.push(self.owned(v));
                }
                let codes: Vec<String> = items.iter().map(|v| v.code.clone()).collect();
                let mut v = Val::new(
                    format!("cs::Array::from(vec![{}])", codes.join(", ")),
                    pt.clone(),
                    Prec::Primary,
                );
                for x in &items {
                    v = v.absorb(x);
                }
                out.push(v);
                break;
            }
            let Some(a) = args.get(i) else {
                if *has_default {
                    out.push(self.default_arg(defaults, params, i, e)?);
                    continue;
                }
                return Err(unsupported(
                    e.span,
                    "a call with too few arguments",
                    snippet(self.src, e),
                ));
            };
            // `ref Board`: there is one board, which no callee may replace (an
            // assignment of a board is refused), so the reference is the board.
            let board_ref = *mode == PassMode::Ref && super::delegates::vanishes(pt);
            match mode {
                PassMode::Ref | PassMode::Out if !board_ref => {
                    out.push(self.ref_arg(&a.expr, pt)?);
                }
                // A `Random` parameter is `&mut` (items.rs): the caller's generator.
                PassMode::Value if *pt == Ty::Api("Random") => {
                    out.push(self.random_arg(&a.expr, pt)?);
                }
                PassMode::Value if matches!(pt, Ty::Func(..)) => {
                    out.push(self.delegate_arg(&a.expr, pt)?);
                }
                _ => {
                    let v = self.expr(&a.expr, Some(pt))?;
                    if *pt == Ty::Api("Board") && v.ty == super::boards::OWNED {
                        // Swapped in for the call (`swap_board_into_call`).
                        out.push(v);
                        continue;
                    }
                    let v = self.coerce(v, pt, &a.expr)?;
                    out.push(self.owned(v));
                }
            }
        }
        Ok(out)
    }

    /// An argument of a `Random` parameter, which is `&mut` (items.rs): the caller's
    /// generator, or a new one no one else holds.
    fn random_arg(&mut self, x: &Expr, pt: &Ty) -> R<Val> {
        if let ExprKind::New(..) = x.kind {
            let v = self.expr(x, Some(pt))?;
            return Ok(Val::new(format!("&mut {}", v.code), pt.clone(), Prec::Unary).absorb(&v));
        }
        self.ref_arg(x, pt).map_err(|_| {
            unsupported(
                x.span,
                "a `Random` argument that is no variable or field (the callee would draw from a copy)",
                snippet(self.src, x),
            )
        })
    }

    /// An optional parameter's default value (C# writes it into the call).
    fn default_arg(
        &mut self,
        defaults: &[Option<Expr>],
        params: &[(Ty, PassMode, bool)],
        i: usize,
        e: &Expr,
    ) -> R<Val> {
        let Some(Some(d)) = defaults.get(i) else {
            return Err(unsupported(
                e.span,
                format!("a call leaving out argument {}", i + 1),
                snippet(self.src, e),
            ));
        };
        let t = params[i].0.clone();
        let v = self.expr(d, Some(&t))?;
        self.coerce(v, &t, d)
    }

    /// A `ref` or `out` argument: `&mut` the place (an `out var` declared before the
    /// statement).
    pub(crate) fn ref_arg(&mut self, x: &Expr, t: &Ty) -> R<Val> {
        if let ExprKind::DeclVar(tr, name) = &x.kind {
            let declared = self.p.resolve(tr, &self.type_params, x.span)?;
            let ty = if declared == Ty::Unknown {
                t.clone()
            } else {
                declared
            };
            let l = self.declare(name, ty.clone(), LocalKind::Value);
            self.note_assigned(&l);
            let rust_ty = self.rty(&ty, x.span)?;
            let default = self.default_value(&ty, x.span)?;
            self.f()
                .pre
                .push(format!("let mut {}: {rust_ty} = {default};\n", l.rust));
            let mut v = Val::new(format!("&mut {}", l.rust), ty, Prec::Unary);
            v.effects = true;
            return Ok(v);
        }
        if let ExprKind::Name(n, _) = &x.kind
            && n == "_"
            && self.find_local(n).is_none()
        {
            // `out _`: a value nobody reads.
            let t_name = self.temp("discarded");
            let rust_ty = self.rty(t, x.span)?;
            let default = self.default_value(t, x.span)?;
            self.f()
                .pre
                .push(format!("let mut {t_name}: {rust_ty} = {default};\n"));
            let mut v = Val::new(format!("&mut {t_name}"), t.clone(), Prec::Unary);
            v.effects = true;
            return Ok(v);
        }
        if let ExprKind::Name(n, _) = &x.kind
            && let Some(l) = self.find_local(n)
        {
            self.note_assigned(&l);
            let current = self.fns.len() - 1;
            if l.frame < current {
                let key = self.fr().key.clone();
                self.learned
                    .captures
                    .entry(key)
                    .or_default()
                    .insert((l.owner.clone(), l.id));
            }
            let code = match l.kind {
                LocalKind::Ref => format!("&mut *{}", l.rust),
                _ if l.frame < current => format!("&mut *{}", self.local_name(&l)),
                LocalKind::Value => format!("&mut {}", l.rust),
                _ => {
                    return Err(unsupported(
                        x.span,
                        "this variable passed by `ref`",
                        snippet(self.src, x),
                    ));
                }
            };
            let mut v = Val::new(code, l.ty.clone(), Prec::Unary);
            v.effects = true;
            return Ok(v);
        }
        let v = self.expr(x, None)?;
        if v.place && v.code.starts_with("self.") && !v.code.contains('(') {
            self.note_mutation();
            let mut out = Val::new(format!("&mut {}", v.code), v.ty.clone(), Prec::Unary);
            out.effects = true;
            out.mut_self = true;
            out.reads_self = true;
            out.place = true;
            return Ok(out);
        }
        Err(unsupported(
            x.span,
            "this `ref` or `out` argument",
            snippet(self.src, x),
        ))
    }

    /// `Type.name(args)`: a static method of the file's own, or of the API or `System`.
    // One arm per C# static member (Math, BitOperations, BitboardHelper, ...): a table.
    #[allow(clippy::too_many_lines)]
    fn static_call(
        &mut self,
        t: &str,
        name: &str,
        targs: &[TypeRef],
        args: &[Arg],
        e: &Expr,
        want: Option<&Ty>,
    ) -> R<Val> {
        let _ = want;
        if let Some(i) = self.p.type_index(t) {
            let candidates: Vec<MethodInfo> =
                self.p.methods(i, name).into_iter().cloned().collect();
            if candidates.is_empty() {
                return Err(unsupported(
                    e.span,
                    format!("the method `{t}.{name}`"),
                    snippet(self.src, e),
                ));
            }
            let m = self.pick_overload(&candidates, args, e)?;
            return self.own_call(&m, None, args, e);
        }
        let class = canonical_class(t);
        match (class, name) {
            ("Math" | "MathF", "Max" | "Min" | "Abs" | "Sign" | "Clamp") => {
                return self.math(name, args, e);
            }
            ("Math" | "decimal", "Floor" | "Ceiling" | "Truncate" | "Round")
                if !args.is_empty() && (class == "decimal" || self.is_decimal(&args[0].expr)) =>
            {
                return self.decimal_math(name, args, e);
            }
            ("Enumerable", "Reverse") if args.len() == 1 => {
                let target = self.expr(&args[0].expr, None)?;
                return self.linq(target, "Reverse", &[], e);
            }
            ("Array", "ForEach") if args.len() == 2 => {
                let target = self.expr(&args[0].expr, None)?;
                return self.linq(target, "ForEach", &args[1..], e);
            }
            ("BigInteger", "Parse") if args.len() == 1 => return self.big_parse(&args[0].expr),
            ("BigInteger", "Pow") if args.len() == 2 => return self.big_pow(args, e),
            ("Board", "CreateBoardFromFEN") if args.len() == 1 => {
                return self.create_board_from_fen(&args[0].expr, e);
            }
            ("Tuple", "Create") => {
                let items: Vec<Expr> = args.iter().map(|a| a.expr.clone()).collect();
                return self.tuple_create(&items, e);
            }
            ("Array", "ConvertAll") if args.len() == 2 => {
                let target = self.expr(&args[0].expr, None)?;
                let selected = self.linq(target, "Select", &args[1..], e)?;
                return Ok(Val::new(
                    format!("{}.to_array()", selected.code),
                    Ty::Array(Box::new(selected.ty.element().unwrap_or(Ty::Unknown)), 1),
                    Prec::Primary,
                )
                .absorb(&selected));
            }
            ("Array", "Copy") if args.len() == 5 => {
                let vals = self.plain_args(args)?;
                let int = Ty::Int(IntTy::I32);
                let mut conv = Vec::new();
                for (i, (v, a)) in vals.into_iter().zip(args).enumerate() {
                    conv.push(if i == 0 || i == 2 {
                        v
                    } else {
                        self.coerce(v, &int, &a.expr)?
                    });
                }
                let code = format!(
                    "{}.copy_range({}, &{}, {}, {})",
                    conv[0].at(Prec::Primary),
                    conv[1].code,
                    conv[2].at(Prec::Unary),
                    conv[3].code,
                    conv[4].code
                );
                let mut out = Val::new(code, Ty::Void, Prec::Primary);
                for v in &conv {
                    out = out.absorb(v);
                }
                out.effects = true;
                return Ok(out);
            }
            ("Array", "Find" | "Exists" | "FindIndex" | "TrueForAll") if args.len() == 2 => {
                let target = self.expr(&args[0].expr, None)?;
                return self.collection_call(target, name, &args[1..], e);
            }
            ("MemoryExtensions", "Sort") if args.len() == 2 => {
                let target = self.expr(&args[0].expr, None)?;
                return self.sort_with(&target, &args[1], e);
            }
            ("Array", "Empty") if args.is_empty() && targs.len() == 1 => {
                let elem = self.p.resolve(&targs[0], &[], e.span)?;
                let code = format!("cs::Array::<{}>::default()", self.rty(&elem, e.span)?);
                return Ok(Val::new(code, Ty::Array(Box::new(elem), 1), Prec::Primary));
            }
            ("Array", _) => return self.array_static(name, args, e),
            ("Enum", "GetValues") => {
                // `Enum.GetValues(typeof(PieceType))`: every value, `None` included.
                let named = match (args.first().map(|a| &a.expr.kind), targs.first()) {
                    (Some(ExprKind::TypeOf(TypeRef::Named(n, _))), _)
                    | (None, Some(TypeRef::Named(n, _))) => Some(n.clone()),
                    // `x.GetType()` of a `PieceType` value is `typeof(PieceType)`.
                    (Some(ExprKind::Call(callee, none)), _) if none.is_empty() => {
                        match &callee.kind {
                            ExprKind::Member(x, m, _) if m == "GetType" => {
                                let (learned, warnings) =
                                    (self.learned.clone(), self.warnings.len());
                                let t = self.expr(x, None).map(|v| v.ty);
                                self.learned = learned;
                                self.warnings.truncate(warnings);
                                t.ok()
                                    .filter(|t| *t == Ty::Api("PieceType"))
                                    .map(|_| "PieceType".into())
                            }
                            _ => None,
                        }
                    }
                    _ => None,
                };
                if let Some(n @ ("Square" | "Move" | "Piece")) = named.as_deref() {
                    return self.get_values_of_a_struct(n, e);
                }
                if named.as_deref() != Some("PieceType") {
                    let what = "`Enum.GetValues` of this type";
                    return Err(unsupported(e.span, what, snippet(self.src, e)));
                }
                return Ok(Val::new(
                    "cs::Seq::range(0, 7)",
                    Ty::Seq(Box::new(Ty::Api("PieceType"))),
                    Prec::Primary,
                ));
            }
            ("Convert", _) => return self.convert(name, args, e),
            ("Enum", "ToObject") if args.len() == 2 => return self.enum_to_object(args, e),
            ("Buffer", "BlockCopy") if args.len() == 5 => return self.block_copy(args, e),
            // `Debug`'s calls are `[Conditional("DEBUG")]`: gone from a release build with
            // their arguments. Console output is dropped, its arguments' effects kept.
            ("Debug", _) => return Ok(Val::new("()", Ty::Void, Prec::Primary)),
            ("Console" | "DivertedConsole", _) => return self.console_effects(args),
            ("Enumerable", "Repeat") => {
                let vals = self.plain_args(args)?;
                if vals.len() == 2 {
                    let elem = vals[0].ty.clone();
                    let code = format!(
                        "cs::Seq::from(vec![{}; {} as usize])",
                        vals[0].code,
                        vals[1].at(Prec::Cast)
                    );
                    return Ok(Val::new(code, Ty::Seq(Box::new(elem)), Prec::Primary)
                        .absorb(&vals[0])
                        .absorb(&vals[1]));
                }
            }
            ("Enumerable", _) if !args.is_empty() && !matches!(name, "Range" | "Repeat") => {
                // `Enumerable.Sum(xs)` is the extension method `xs.Sum()` called by name.
                let target = self.expr(&args[0].expr, None)?;
                return self.linq(target, name, &args[1..], e);
            }
            ("Math", "DivRem") if args.len() == 3 => return self.div_rem(args, e),
            ("string", "Equals") if args.len() == 2 => return self.string_equals(args, e),
            ("string", "Format") => return self.string_format(args, e),
            ("string", "Concat") if args.len() == 1 => return self.string_concat(&args[0], e),
            ("Math" | "MathF", "ReciprocalSqrtEstimate" | "ReciprocalEstimate") => {
                return Err(unsupported(
                    e.span,
                    format!(
                        "`{t}.{name}` (its value is the machine's: a hardware estimate on ARM64 \
                         and AVX-512 machines, the exact value elsewhere; .NET 7 or later only)"
                    ),
                    snippet(self.src, e),
                ));
            }
            ("Environment", "Exit" | "FailFast") => {
                return Err(unsupported(
                    e.span,
                    format!("`Environment.{name}`: a bot must not end the program that hosts it"),
                    snippet(self.src, e),
                ));
            }
            ("Enumerable", "Empty") => {
                let elem = targs
                    .first()
                    .map(|t| self.p.resolve(t, &self.type_params, e.span))
                    .transpose()?
                    .unwrap_or(Ty::Unknown);
                return Ok(Val::new(
                    "cs::Seq::default()",
                    Ty::Seq(Box::new(elem)),
                    Prec::Primary,
                ));
            }
            _ => {}
        }
        let entries = api::lookup(class, name);
        if entries.is_empty() {
            return Err(unsupported(
                e.span,
                format!("the method `{t}.{name}`"),
                snippet(self.src, e),
            ));
        }
        self.api_call(&entries, None, args, e)
    }

    /// `string.Equals(a, b)`: ordinal equality, as `a == b`.
    fn string_equals(&mut self, args: &[Arg], e: &Expr) -> R<Val> {
        let vals = self.plain_args(args)?;
        if vals.iter().any(|v| v.ty != Ty::Str) {
            return Err(unsupported(
                e.span,
                "`string.Equals` of these arguments",
                snippet(self.src, e),
            ));
        }
        let code = format!("{} == {}", vals[0].at(Prec::BitOr), vals[1].at(Prec::BitOr));
        Ok(Val::new(code, Ty::Bool, Prec::Cmp)
            .absorb(&vals[0])
            .absorb(&vals[1]))
    }

    /// `Enum.ToObject(typeof(E), n)`: the boxed `E` of the integer `n`, which a bot unboxes
    /// at once (`(E)Enum.ToObject(...)`): the cast `(E)n`, typed `E` (the cast of it
    /// to `E` keeps it).
    fn enum_to_object(&mut self, args: &[Arg], e: &Expr) -> R<Val> {
        let ExprKind::TypeOf(t) = &args[0].expr.kind else {
            return Err(unsupported(
                e.span,
                "`Enum.ToObject` of a type not named by `typeof`",
                snippet(self.src, e),
            ));
        };
        let n = self.expr(&args[1].expr, None)?;
        if n.ty.int().is_none() {
            return Err(unsupported(
                e.span,
                format!("`Enum.ToObject` of a `{}`", n.ty.cs()),
                snippet(self.src, e),
            ));
        }
        let cast = Expr::new(
            ExprKind::Cast(t.clone(), Box::new(args[1].expr.clone())),
            e.span,
            e.range,
        );
        let v = self.expr(&cast, None)?;
        if !v.ty.is_enum() {
            return Err(unsupported(
                e.span,
                format!("`Enum.ToObject` of `{}`, which is not an enum", v.ty.cs()),
                snippet(self.src, e),
            ));
        }
        Ok(v)
    }

    /// `Buffer.BlockCopy(src, srcOffset, dst, dstOffset, count)` between one-dimensional
    /// arrays of numeric types (`char`'s `u16` among them).
    fn block_copy(&mut self, args: &[Arg], e: &Expr) -> R<Val> {
        let vals = self.plain_args(args)?;
        let mut conv = Vec::new();
        for (i, (v, a)) in vals.into_iter().zip(args).enumerate() {
            if i == 0 || i == 2 {
                let Ty::Array(elem, 1) = &v.ty else {
                    return Err(unsupported(
                        e.span,
                        format!("`Buffer.BlockCopy` of a `{}`", v.ty.cs()),
                        snippet(self.src, e),
                    ));
                };
                if !matches!(**elem, Ty::Int(_) | Ty::F32 | Ty::F64 | Ty::Char) {
                    return Err(unsupported(
                        e.span,
                        format!("`Buffer.BlockCopy` of a `{}`", v.ty.cs()),
                        snippet(self.src, e),
                    ));
                }
                conv.push(v);
            } else {
                conv.push(self.coerce(v, &Ty::Int(IntTy::I32), &a.expr)?);
            }
        }
        let code = format!(
            "cs::block_copy(&{}, {}, &{}, {}, {})",
            conv[0].at(Prec::Unary),
            conv[1].code,
            conv[2].at(Prec::Unary),
            conv[3].code,
            conv[4].code
        );
        let mut out = Val::new(code, Ty::Void, Prec::Primary);
        for v in &conv {
            out = out.absorb(v);
        }
        out.effects = true;
        Ok(out)
    }

    /// A console call, whose output the port drops: its arguments are still evaluated
    /// where that has an effect (a call of the file's own, an assignment), as C#
    /// evaluates them before writing. An argument the port cannot evaluate is dropped only
    /// when it has no effect for certain (no call, assignment or increment in it).
    fn console_effects(&mut self, args: &[Arg]) -> R<Val> {
        let mut code = String::new();
        let mut out = Val::new("()", Ty::Void, Prec::Primary);
        for a in args {
            match self.expr(&a.expr, None) {
                Ok(v) if v.effects => {
                    code.push_str(&format!("let _ = {}; ", v.code));
                    out = out.absorb(&v);
                }
                Ok(_) => {}
                Err(_) if !self.may_have_effects(&self.src[a.expr.range.0..a.expr.range.1]) => {}
                Err(err) => return Err(err),
            }
        }
        if !code.is_empty() {
            out.code = format!("{{ {code}}}");
            out.effects = true;
        }
        Ok(out)
    }

    /// Whether C# text may change something when evaluated: an assignment, an
    /// increment or a call of a method of the file's own (the API's reads change nothing).
    fn may_have_effects(&self, text: &str) -> bool {
        let bytes = text.as_bytes();
        let assigns = (0..bytes.len()).any(|i| {
            bytes[i] == b'='
                && !matches!(bytes.get(i + 1), Some(b'=' | b'>'))
                && !matches!(
                    i.checked_sub(1).map(|j| bytes[j]),
                    Some(b'=' | b'!' | b'<' | b'>')
                )
        });
        let own_call = self.p.types.iter().any(|t| {
            t.methods.iter().any(|m| {
                text.match_indices(m.cs.as_str()).any(|(at, _)| {
                    text[at + m.cs.len()..].trim_start().starts_with('(')
                        && !text[..at].ends_with(|c: char| c.is_alphanumeric() || c == '_')
                })
            })
        });
        assigns || text.contains("++") || text.contains("--") || own_call
    }

    /// `string.Concat(xs)` of a sequence of strings or chars: their texts joined.
    fn string_concat(&mut self, arg: &Arg, e: &Expr) -> R<Val> {
        let v = self.expr(&arg.expr, None)?;
        let v = self.owned(v);
        let it = match v.ty.element() {
            Some(Ty::Str) if !matches!(v.ty, Ty::Str) => self.iterable(&v, &arg.expr)?,
            Some(Ty::Char) if !matches!(v.ty, Ty::Str) => format!(
                "{}.into_iter().map(cs::char_to_string)",
                self.iterable(&v, &arg.expr)?
            ),
            _ => {
                return Err(unsupported(
                    e.span,
                    format!("`string.Concat` of a `{}`", v.ty.cs()),
                    snippet(self.src, e),
                ));
            }
        };
        let code = format!("cs::string_concat({it})");
        Ok(Val::new(code, Ty::Str, Prec::Primary).absorb(&v))
    }

    /// Arguments by value, with their own types.
    pub(crate) fn plain_args(&mut self, args: &[Arg]) -> R<Vec<Val>> {
        let mut out = Vec::new();
        for a in args {
            let v = self.expr(&a.expr, None)?;
            out.push(self.owned(v));
        }
        Ok(out)
    }

    /// `Math.Max` and friends: the integer or floating form by the arguments' type.
    fn math(&mut self, name: &str, args: &[Arg], e: &Expr) -> R<Val> {
        let vals = self.plain_args(args)?;
        // Math has an overload for every numeric type: arguments all of one type keep it
        // (`Math.Max(sbyte, sbyte)` is an `sbyte`).
        let plain = |t: &Ty| {
            if t.is_enum() {
                Ty::Int(IntTy::I32)
            } else {
                t.clone()
            }
        };
        let first = plain(&vals[0].ty);
        if first.is_numeric() && first != Ty::Char && vals.iter().all(|v| plain(&v.ty) == first) {
            return self.math_in(name, vals, first, args, e);
        }
        let mut t = unary_promote(&vals[0].ty).ok_or_else(|| {
            unsupported(
                e.span,
                format!("`Math.{name}` of a `{}`", vals[0].ty.cs()),
                snippet(self.src, e),
            )
        })?;
        for v in &vals[1..] {
            let vt = unary_promote(&v.ty).unwrap_or(Ty::Unknown);
            t = promote(&t, &vt)
                .or_else(|| {
                    if v.konst.is_some() {
                        Some(t.clone())
                    } else {
                        None
                    }
                })
                .ok_or_else(|| {
                    unsupported(
                        e.span,
                        format!("`Math.{name}` of a `{}` and a `{}`", t.cs(), v.ty.cs()),
                        snippet(self.src, e),
                    )
                })?;
        }
        self.math_in(name, vals, t, args, e)
    }

    /// `Math.name(vals)` computed in type `t`.
    fn math_in(&mut self, name: &str, vals: Vec<Val>, t: Ty, args: &[Arg], e: &Expr) -> R<Val> {
        let mut conv = Vec::new();
        for (v, a) in vals.into_iter().zip(args) {
            let v = if v.ty.is_enum() {
                Val {
                    ty: Ty::Int(IntTy::I32),
                    ..v
                }
            } else {
                v
            };
            conv.push(self.coerce(v, &t, &a.expr)?);
        }
        let float = matches!(t, Ty::F32 | Ty::F64);
        let code = match (name, conv.as_slice()) {
            // C#'s is NaN if either is; Rust's `min`/`max` ignore a NaN.
            ("Max" | "Min", [a, b]) if float => {
                let suffix = if t == Ty::F64 { "f64" } else { "f32" };
                format!(
                    "cs::{}_{suffix}({}, {})",
                    name.to_lowercase(),
                    a.code,
                    b.code
                )
            }
            ("Max" | "Min", [a, b]) => format!("{}.{}({})", typed(a), name.to_lowercase(), b.code),
            ("Abs" | "Sign", [a]) if t == Ty::Decimal => {
                format!("{}.{}()", a.at(Prec::Primary), name.to_lowercase())
            }
            ("Abs", [a]) => format!("cs::abs({})", a.code),
            ("Sign", [a]) => format!("cs::sign({})", a.code),
            ("Clamp", [a, lo, hi]) => format!("{}.clamp({}, {})", typed(a), lo.code, hi.code),
            _ => {
                return Err(unsupported(
                    e.span,
                    format!("`Math.{name}` with these arguments"),
                    snippet(self.src, e),
                ));
            }
        };
        let ret = if name == "Sign" {
            Ty::Int(IntTy::I32)
        } else {
            t
        };
        let mut out = Val::new(code, ret, Prec::Primary);
        for v in &conv {
            out = out.absorb(v);
        }
        Ok(out)
    }

    // One arm per `Array.*` method: a table.
    #[allow(clippy::too_many_lines)]
    fn array_static(&mut self, name: &str, args: &[Arg], e: &Expr) -> R<Val> {
        if let Some(v) = self.array_predicate(name, args, e)? {
            return Ok(v);
        }
        if name == "Resize" {
            let [a, n] = args else {
                return Err(unsupported(
                    e.span,
                    "`Array.Resize` with these arguments",
                    snippet(self.src, e),
                ));
            };
            let n = self.expr(&n.expr, Some(&Ty::Int(IntTy::I32)))?;
            let n = self.coerce(n, &Ty::Int(IntTy::I32), e)?;
            let place = self.place(&a.expr)?;
            let read = self.read_place(&place);
            let code = self.write_place(&place, &format!("{}.resized({})", read, n.code))?;
            let mut v = Val::new(code, Ty::Void, Prec::Assign).absorb(&n);
            v.effects = true;
            v.mut_self |= place.is_self_field();
            return Ok(v);
        }
        if let ("Sort", [keys, items, comparer]) = (name, args) {
            let keys = self.expr(&keys.expr, None)?;
            let items = self.expr(&items.expr, None)?;
            if matches!(items.ty, Ty::Array(..)) {
                return self.sort_items_by_comparison(&keys, &items, comparer, e);
            }
            if items.ty.int().is_some() {
                return self.sort_range(keys, items, comparer, e);
            }
            return Err(unsupported(
                e.span,
                "`Array.Sort` with these arguments",
                snippet(self.src, e),
            ));
        }
        let vals = if name == "Sort" && args.len() == 2 {
            let first = self.expr(&args[0].expr, None)?;
            let second = match &args[1].expr.kind {
                _ if self.is_method_group(&args[1].expr) => Val::new(
                    "",
                    Ty::Func(Vec::new(), Box::new(Ty::Unknown)),
                    Prec::Primary,
                ),
                ExprKind::Lambda(..) => Val::new(
                    "",
                    Ty::Func(Vec::new(), Box::new(Ty::Unknown)),
                    Prec::Primary,
                ),
                _ => self.expr(&args[1].expr, None)?,
            };
            vec![first, second]
        } else {
            self.plain_args(args)?
        };
        let recv = |i: usize| vals.get(i).map(|v| v.at(Prec::Primary)).unwrap_or_default();
        let code = match (name, vals.len()) {
            ("Sort", 1) => self.default_sort(&vals[0], e)?,
            ("Sort", 2) if matches!(vals[1].ty, Ty::Array(..)) => {
                format!("{}.sort_with_items(&{})", recv(0), vals[1].at(Prec::Unary))
            }
            ("Sort", 2) => return self.sort_by_comparison(&vals[0], &args[1], e),
            ("Sort", 4) if matches!(vals[1].ty, Ty::Array(..)) => format!(
                "{}.slice({}, {}).sort_with_items(&{}.slice({}, {}))",
                recv(0),
                vals[2].code,
                vals[3].code,
                vals[1].at(Prec::Primary),
                vals[2].code,
                vals[3].code
            ),
            ("Reverse", 1) => format!("{}.reverse()", recv(0)),
            ("Fill", 2) => format!("{}.fill({})", recv(0), vals[1].code),
            ("Clear", 1) => format!("{}.clear()", recv(0)),
            ("Clear", 3) => format!(
                "{}.clear_range({}, {})",
                recv(0),
                vals[1].code,
                vals[2].code
            ),
            // `Enum.GetValues(...)`'s values: an array in C#, a sequence in the port.
            ("IndexOf", 2) if matches!(vals[0].ty, Ty::Seq(_)) => format!(
                "{}.to_array().index_of(&{})",
                recv(0),
                vals[1].at(Prec::Unary)
            ),
            ("IndexOf", 2) => format!("{}.index_of(&{})", recv(0), vals[1].at(Prec::Unary)),
            ("Copy", 3) => format!(
                "{}.copy_to(&{}, {})",
                recv(0),
                vals[1].at(Prec::Unary),
                vals[2].at(Prec::Unary)
            ),
            _ => {
                return Err(unsupported(
                    e.span,
                    format!("`Array.{name}` with these arguments"),
                    snippet(self.src, e),
                ));
            }
        };
        let ty = if name == "IndexOf" {
            Ty::Int(IntTy::I32)
        } else {
            Ty::Void
        };
        let mut out = Val::new(code, ty, Prec::Primary);
        for v in &vals {
            out = out.absorb(v);
        }
        out.effects = true;
        Ok(out)
    }

    /// `Array.Sort(a, index, length)`: the `length` elements from `index` sorted as
    /// `Array.Sort(a)` sorts (.NET checks the range first: `ArgumentException` if it
    /// leaves the array, as `slice`).
    fn sort_range(&mut self, keys: Val, index: Val, length: &Arg, e: &Expr) -> R<Val> {
        // A `T[]?` field: null throws `ArgumentNullException` in C#, a panic here.
        let keys = self.non_null(keys, e)?;
        let keys = self.owned(keys);
        let index = self.coerce(index, &Ty::Int(IntTy::I32), e)?;
        let length = self.expr(&length.expr, None)?;
        let length = self.coerce(length, &Ty::Int(IntTy::I32), e)?;
        if !matches!(keys.ty, Ty::Array(_, 1)) {
            return Err(unsupported(
                e.span,
                format!("`Array.Sort` of a range of a `{}`", keys.ty.cs()),
                snippet(self.src, e),
            ));
        }
        // The range is a view sharing the array's elements, sorted as a whole array is
        // (by `Comparer<T>.Default`: an element type of the file's own by its
        // `IComparable`; see `cs::Array::sort_by_comparison` for .NET's algorithm).
        let range = Val::new(
            format!(
                "{}.slice({}, {})",
                keys.at(Prec::Primary),
                index.code,
                length.code
            ),
            keys.ty.clone(),
            Prec::Primary,
        );
        let code = self.default_sort(&range, e)?;
        let mut out = Val::new(code, Ty::Void, Prec::Primary)
            .absorb(&keys)
            .absorb(&index)
            .absorb(&length);
        out.effects = true;
        Ok(out)
    }

    /// `Enum.GetValues(typeof(Square))` of an API struct, which is no enum: .NET throws
    /// `ArgumentException` when the call runs, so the port throws there too (a `catch`
    /// around it catches it), typed as the values C#'s `foreach` would have read.
    fn get_values_of_a_struct(&mut self, name: &str, e: &Expr) -> R<Val> {
        let api = match name {
            "Square" => "Square",
            "Move" => "Move",
            _ => "Piece",
        };
        let ty = Ty::Seq(Box::new(Ty::Api(api)));
        let code = format!(
            "cs::throw::<{}>(\"ArgumentException: Enum.GetValues of {name}, which is not an enum (line {})\")",
            self.rty(&ty, e.span)?,
            e.span.line
        );
        let mut v = Val::new(code, ty, Prec::Primary);
        v.effects = true;
        Ok(v)
    }

    /// `Array.FindAll(a, m => ...)`, `Array.Exists(a, ...)` and the other `Array`
    /// methods taking a predicate: the list's methods of the same name, the predicate
    /// typed by the array's element.
    fn array_predicate(&mut self, name: &str, args: &[Arg], e: &Expr) -> R<Option<Val>> {
        let [array, predicate] = args else {
            return Ok(None);
        };
        if !matches!(
            name,
            "FindAll" | "Find" | "Exists" | "FindIndex" | "FindLast" | "TrueForAll"
        ) {
            return Ok(None);
        }
        let a = self.expr(&array.expr, None)?;
        let Ty::Array(elem, 1) = a.ty.clone() else {
            return Ok(None);
        };
        if name != "FindAll" {
            return self.collection_own(&a, name, std::slice::from_ref(predicate), e);
        }
        let f = self.selector(predicate, vec![(*elem).clone()])?;
        let code = format!(
            "{}.linq().where_({}).to_array()",
            a.at(Prec::Primary),
            f.code
        );
        Ok(Some(
            Val::new(code, a.ty.clone(), Prec::Primary)
                .absorb(&a)
                .absorb(&f),
        ))
    }

    /// `span.Sort(items)` (keys and items) or `span.Sort((a, b) => ...)`.
    pub(crate) fn sort_with(&mut self, target: &Val, arg: &Arg, e: &Expr) -> R<Val> {
        if !matches!(arg.expr.kind, ExprKind::Lambda(..)) && !self.is_method_group(&arg.expr) {
            let items = self.expr(&arg.expr, None)?;
            if matches!(items.ty, Ty::Array(..)) {
                let code = format!(
                    "{}.sort_with_items(&{})",
                    target.at(Prec::Primary),
                    items.at(Prec::Unary)
                );
                let mut out = Val::new(code, Ty::Void, Prec::Primary)
                    .absorb(target)
                    .absorb(&items);
                out.effects = true;
                return Ok(out);
            }
        }
        self.sort_by_comparison(target, arg, e)
    }

    /// `Convert.ToInt32(x)` and friends, by the argument's type.
    fn convert(&mut self, name: &str, args: &[Arg], e: &Expr) -> R<Val> {
        if let ("ToString", [a, base]) = (name, args) {
            // `Convert.ToString(x, 2)`: the digits in base 2, 8 or 16 (two's complement
            // for a negative number, as C#'s).
            let v = self.expr(&a.expr, None)?;
            let b = self.expr(&base.expr, None)?;
            let spec = match b.konst {
                Some(Const::Int(2)) => "b",
                Some(Const::Int(8)) => "o",
                Some(Const::Int(16)) => "x",
                _ => {
                    return Err(unsupported(
                        e.span,
                        "`Convert.ToString` in this base",
                        snippet(self.src, e),
                    ));
                }
            };
            let code = format!("format!(\"{{:{spec}}}\", {})", v.code);
            return Ok(Val::new(code, Ty::Str, Prec::Primary).absorb(&v));
        }
        let [a] = args else {
            return Err(unsupported(
                e.span,
                format!("`Convert.{name}` with these arguments"),
                snippet(self.src, e),
            ));
        };
        let v = self.expr(&a.expr, None)?;
        let from = if v.ty.is_enum() {
            Ty::Int(IntTy::I32)
        } else {
            v.ty.clone()
        };
        let (code, ty) = match (name, &from) {
            ("ToInt32", Ty::Bool) => (format!("{} as i32", v.at(Prec::Cast)), Ty::Int(IntTy::I32)),
            ("ToDouble", Ty::Bool) => (format!("{} as i32 as f64", v.at(Prec::Cast)), Ty::F64),
            ("ToBoolean", Ty::Int(_)) => (format!("{} != 0", v.at(Prec::BitOr)), Ty::Bool),
            ("ToInt32", Ty::F64 | Ty::F32) => (
                format!("cs::convert_to_int32({} as f64)", v.at(Prec::Cast)),
                Ty::Int(IntTy::I32),
            ),
            ("ToInt32", Ty::Int(IntTy::I32)) => (v.code.clone(), Ty::Int(IntTy::I32)),
            // A `char`'s code and a `bool`'s 0 or 1 always fit.
            ("ToInt32", Ty::Char) => (format!("{} as i32", v.at(Prec::Cast)), Ty::Int(IntTy::I32)),
            ("ToByte", Ty::Bool) => (format!("{} as u8", v.at(Prec::Cast)), Ty::Int(IntTy::U8)),
            ("ToInt64", Ty::Bool) => (format!("{} as i64", v.at(Prec::Cast)), Ty::Int(IntTy::I64)),
            ("ToUInt32", Ty::Int(IntTy::I32 | IntTy::I64)) => (
                // OverflowException on a negative value: a panic, which `catch` catches.
                format!(
                    "u32::try_from({}).expect(\"Convert.ToUInt32 overflows\")",
                    v.code
                ),
                Ty::Int(IntTy::U32),
            ),
            ("ToInt32", Ty::Int(_)) => (
                format!(
                    "i32::try_from({}).expect(\"Convert.ToInt32 overflows\")",
                    v.code
                ),
                Ty::Int(IntTy::I32),
            ),
            ("ToDouble", Ty::Int(_) | Ty::F32 | Ty::F64) => {
                (format!("{} as f64", v.at(Prec::Cast)), Ty::F64)
            }
            ("ToString", _) => (format!("{}.to_string()", self.text(&v, e)?), Ty::Str),
            _ => {
                return Err(unsupported(
                    e.span,
                    format!("`Convert.{name}` of a `{}`", v.ty.cs()),
                    snippet(self.src, e),
                ));
            }
        };
        let prec = if code.ends_with("f64")
            || (code.ends_with("i32") || code.ends_with("i64") || code.ends_with("u8"))
                && code.contains(" as ")
        {
            Prec::Cast
        } else if code.contains(" != ") {
            Prec::Cmp
        } else {
            Prec::Primary
        };
        Ok(Val::new(code, ty, prec).absorb(&v))
    }

    /// A sort's `Comparison<T>` (a lambda, a method group or a stateless comparer of the
    /// file's own) for the keys of `target`.
    fn comparison_of(&mut self, target: &Val, comparison: &Arg, e: &Expr) -> R<Val> {
        let elem = target
            .ty
            .element()
            .ok_or_else(|| unsupported(e.span, "a sort of this", snippet(self.src, e)))?;
        let want = Ty::Func(vec![elem.clone(), elem], Box::new(Ty::Int(IntTy::I32)));
        let f = match self.comparer_lambda(&comparison.expr)? {
            Some(lambda) => self.expr(&lambda, Some(&want))?,
            None => self.expr(&comparison.expr, Some(&want))?,
        };
        if !matches!(f.ty, Ty::Func(..)) {
            return Err(unsupported(
                e.span,
                "a sort by a comparer object",
                snippet(self.src, e),
            ));
        }
        Ok(f)
    }

    /// `Array.Sort(keys, items, comparer)` and `keys.Sort(items, comparison)`.
    pub(crate) fn sort_items_by_comparison(
        &mut self,
        keys: &Val,
        items: &Val,
        comparison: &Arg,
        e: &Expr,
    ) -> R<Val> {
        let f = self.comparison_of(keys, comparison, e)?;
        let code = format!(
            "{}.sort_with_items_by_comparison(&{}, {})",
            keys.at(Prec::Primary),
            items.at(Prec::Unary),
            f.code
        );
        let mut out = Val::new(code, Ty::Void, Prec::Primary)
            .absorb(keys)
            .absorb(items)
            .absorb(&f);
        out.effects = true;
        Ok(out)
    }

    /// `Sort((a, b) => ...)` of an array or list.
    pub(crate) fn sort_by_comparison(
        &mut self,
        target: &Val,
        comparison: &Arg,
        e: &Expr,
    ) -> R<Val> {
        let f = self.comparison_of(target, comparison, e)?;
        let code = format!(
            "{}.sort_by_comparison({})",
            target.at(Prec::Primary),
            f.code
        );
        let mut out = Val::new(code, Ty::Void, Prec::Primary)
            .absorb(target)
            .absorb(&f);
        out.effects = true;
        Ok(out)
    }

    /// `Sort()` of an array or list: by C#'s default comparison, which for a class of the
    /// file's own is its `CompareTo` as .NET's `Comparer<T>.Default` calls it: for
    /// `IComparable<T>`, nulls first, then `x.CompareTo(y)`; for the non-generic
    /// `IComparable`, `0` for the same reference first (`Comparer.Default.Compare`).
    pub(crate) fn default_sort(&mut self, target: &Val, e: &Expr) -> R<String> {
        let r = target.at(Prec::Primary);
        let class = match target.ty.element() {
            Some(Ty::Class(class)) => class,
            Some(Ty::Struct(name)) => return self.struct_sort(&r, &name, e),
            _ => return Ok(format!("{r}.sort()")),
        };
        let Some(t) = self
            .p
            .type_index(&class)
            .filter(|_| self.p.is_ref_class(&class))
        else {
            return Ok(format!("{r}.sort()"));
        };
        let compare_to = self.p.methods(t, "CompareTo").into_iter().find(|m| {
            !m.is_static && m.params.len() == 1 && m.params[0].0 == Ty::Class(class.clone())
        });
        let Some(m) = compare_to.cloned() else {
            return Ok(format!("{r}.sort()"));
        };
        if self.takes_bot(&m.key) {
            return Err(unsupported(
                e.span,
                "a sort by a `CompareTo` that uses the board, timer or bot",
                snippet(self.src, e),
            ));
        }
        self.note_call(&m.key);
        let generic = self.p.unit.types[t]
            .bases
            .iter()
            .any(|b| matches!(b, TypeRef::Named(n, a) if n == "IComparable" && a.len() == 1));
        let same = if generic { "" } else { "if a == b { 0 } else " };
        Ok(format!(
            "{r}.sort_by_comparison(|a, b| {same}if a.is_null() {{ if b.is_null() {{ 0 }} else {{ -1 }} }} else if b.is_null() {{ 1 }} else {{ a.{}(b) }})",
            m.rust
        ))
    }

    /// `Sort(comparer)` with an `IComparer<T>` of the file's own as the lambda
    /// `(a, b) => comparer.Compare(a, b)`, when that is exact: the comparer is a name or a
    /// `new` of a class without fields or constructors, so every instance is alike and
    /// naming it again at each comparison changes nothing (.NET sorts by an `IComparer`
    /// with the same introsort as by a `Comparison`).
    fn comparer_lambda(&mut self, x: &Expr) -> R<Option<Expr>> {
        if !matches!(x.kind, ExprKind::Name(..) | ExprKind::New(..)) || self.is_method_group(x) {
            return Ok(None);
        }
        let saved = self.learned.clone();
        let t = self.expr(x, None).map(|v| v.ty);
        self.learned = saved;
        let Ok(Ty::Class(class)) = t else {
            return Ok(None);
        };
        let Some(i) = self.p.type_index(&class) else {
            return Ok(None);
        };
        let info = &self.p.types[i];
        let stateless = i != self.p.bot
            && info.fields.is_empty()
            && !info.methods.iter().any(|m| m.cs == ".ctor");
        let compare = info.methods.iter().find(|m| {
            m.cs == "Compare"
                && m.params.len() == 2
                && !m.is_static
                && m.params.iter().all(|p| p.1 == PassMode::Value)
        });
        let (true, Some(compare)) = (stateless, compare) else {
            return Ok(None);
        };
        let decl = self.p.method_decl(compare);
        let callee = ExprKind::Member(Box::new(x.clone()), "Compare".into(), Vec::new());
        Ok(Some(forwarding_lambda(callee, decl, x)))
    }

    /// `value.name(args)`.
    // One arm per receiver type: a table.
    #[allow(clippy::too_many_lines)]
    fn instance_call(&mut self, v: Val, name: &str, args: &[Arg], e: &Expr) -> R<Val> {
        let v = self.non_null(v, e)?;
        let ty = v.ty.clone();
        match &ty {
            Ty::Api("DateTime") if name == "ToOADate" && self.src.contains("DateTime.Now") => {
                // The port's `DateTime.Now` is the UTC clock: its date is not the local one.
                return Err(unsupported(
                    e.span,
                    "`ToOADate` of a `DateTime` in a file reading `DateTime.Now`",
                    snippet(self.src, e),
                ));
            }
            Ty::Api("Random") => return self.random_call(v, name, args, e),
            Ty::Api("PieceType") => return self.object_call(v, name, args, e),
            Ty::Str if api::has("string", name) => {
                let entries = api::lookup("string", name);
                return self.api_call(&entries, Some(v), args, e);
            }
            Ty::Api("PieceList") if !api::has("PieceList", name) => {
                return self.linq(v, name, args, e);
            }
            Ty::Api("PieceList")
                if !api::lookup("PieceList", name)
                    .iter()
                    .any(|x| x.params != "-") =>
            {
                return self.linq(v, name, args, e);
            }
            Ty::Api(class) => {
                let entries = api::lookup(class, name);
                if !entries.is_empty() {
                    return self.api_call(&entries, Some(v), args, e);
                }
                if name == "ToString" || name == "Equals" || name == "GetHashCode" {
                    return self.object_call(v, name, args, e);
                }
            }
            Ty::Array(..) | Ty::List(_) | Ty::Dict(..) | Ty::Set(_) | Ty::Seq(_) => {
                return self.collection_call(v, name, args, e);
            }
            Ty::Coll(..) => return self.coll_call(v, name, args, e),
            Ty::Struct(s) | Ty::Class(s) => {
                if let Some(t) = self.p.type_index(s) {
                    let candidates: Vec<MethodInfo> =
                        self.p.methods(t, name).into_iter().cloned().collect();
                    if !candidates.is_empty() {
                        let m = self.pick_overload(&candidates, args, e)?;
                        if t == self.p.bot {
                            return self.own_call(&m, None, args, e);
                        }
                        let (v, readonly) = self.struct_receiver(v, t);
                        if self.mutates(&m.key) && (readonly || !v.place) {
                            return self.call_on_copy(&m, v, args, e);
                        }
                        return self.own_call(&m, Some(v), args, e);
                    }
                }
                if name == "Equals" && self.p.is_ref_class(s) {
                    return self.class_equals(v, args, e);
                }
            }
            // LINQ on a string walks its chars (`s.Count(c => c == '1')`).
            Ty::Str if !matches!(name, "ToString" | "Equals" | "CompareTo") => {
                return self.linq(v, name, args, e);
            }
            Ty::Int(_)
            | Ty::F64
            | Ty::F32
            | Ty::Bool
            | Ty::Char
            | Ty::Enum(_)
            | Ty::Str
            | Ty::Tuple(..) => return self.object_call(v, name, args, e),
            Ty::TupleClass(_) => return self.tuple_class_call(v, name, args, e),
            // Only its text: a decimal's bits are not its value (`1.0m == 1.00m`).
            Ty::Decimal if name == "ToString" && args.is_empty() => {
                return self.object_call(v, name, args, e);
            }
            _ => {}
        }
        Err(unsupported(
            e.span,
            format!("the method `{name}` of a `{}`", ty.cs()),
            snippet(self.src, e),
        ))
    }

    /// `a.Equals(b)` on a class of the file's own that declares no `Equals`:
    /// `object.Equals`, reference equality, which throws on a null `a`.
    fn class_equals(&mut self, v: Val, args: &[Arg], e: &Expr) -> R<Val> {
        let [arg] = args else {
            return Err(unsupported(
                e.span,
                "`Equals` with other than one argument",
                snippet(self.src, e),
            ));
        };
        if arg.mode != PassMode::Value || arg.name.is_some() {
            return Err(unsupported(
                e.span,
                "an unusual argument of `Equals`",
                snippet(self.src, e),
            ));
        }
        let x = self.expr(&arg.expr, Some(&v.ty))?;
        let x = self.coerce(x, &v.ty, &arg.expr)?;
        if x.ty != v.ty {
            return Err(unsupported(
                e.span,
                format!("`Equals` of a `{}` with a `{}`", v.ty.cs(), x.ty.cs()),
                snippet(self.src, e),
            ));
        }
        let code = format!(
            "cs::Obj::equals(&{}, &{})",
            v.at(Prec::Unary),
            x.at(Prec::Unary)
        );
        let mut out = Val::new(code, Ty::Bool, Prec::Primary)
            .absorb(&v)
            .absorb(&x);
        out.reads_self |= v.reads_self || x.reads_self;
        Ok(out)
    }

    /// A struct method's receiver: a local it may change is `let mut` (the first pass
    /// cannot tell which methods change their struct, so any local receiver is); a
    /// `foreach` variable is read-only in C#, which calls the method on a copy of it.
    fn struct_receiver(&mut self, v: Val, t: usize) -> (Val, bool) {
        if self.p.types[t].kind != TypeKind::Struct || !v.place {
            return (v, false);
        }
        let current = self.fns.len() - 1;
        let local = self
            .scopes
            .iter()
            .rev()
            .flat_map(|s| s.locals.iter().rev())
            .find(|l| l.frame == current && l.kind == LocalKind::Value && l.rust == v.code)
            .cloned();
        if let Some(l) = local {
            if self.readonly_locals.contains(&(l.owner.clone(), l.id)) {
                return (v, true);
            }
            self.note_assigned(&l);
        }
        (v, false)
    }

    /// A struct method that changes its struct, called on a value that is not a
    /// variable (or is a read-only `foreach` variable): C# calls it on a temporary copy
    /// (ECMA-334, "Method invocations"), which is dropped after the call.
    fn call_on_copy(&mut self, m: &MethodInfo, v: Val, args: &[Arg], e: &Expr) -> R<Val> {
        let copy = self.owned(v);
        let t = self.temp("copy");
        let mut named = Val::new(t.clone(), copy.ty.clone(), Prec::Primary);
        named.place = true;
        let call = self.own_call(m, Some(named), args, e)?;
        let mut out = call.absorb(&copy);
        out.code = format!("{{ let mut {t} = {}; {} }}", copy.code, out.code);
        out.prec = Prec::Primary;
        Ok(out)
    }

    fn object_call(&mut self, v: Val, name: &str, args: &[Arg], e: &Expr) -> R<Val> {
        let vals = self.plain_args(args)?;
        let code = match (name, vals.as_slice()) {
            ("ToString", [f]) if v.ty.int().is_some() => self.int_format(&v, f, e)?,
            ("GetHashCode", [])
                if matches!(
                    v.ty,
                    Ty::Api("Move") | Ty::Int(IntTy::I32 | IntTy::U32 | IntTy::I64 | IntTy::U64)
                ) =>
            {
                format!("cs::hash_code({})", v.code)
            }
            ("ToString", []) if v.ty == Ty::Str => format!("{}.to_string()", v.at(Prec::Primary)),
            ("ToString", []) => format!("{}.to_string()", self.text(&v, e)?),
            ("Equals", [x]) if x.ty == Ty::Nullable(Box::new(v.ty.clone())) => {
                format!("Some({}) == {}", v.code, x.at(Prec::BitOr))
            }
            ("Equals", [x]) => format!("{} == {}", v.at(Prec::BitOr), x.at(Prec::BitOr)),

            ("CompareTo", [x]) => format!(
                "cs::compare(&{}, &{}) as i32",
                v.at(Prec::Unary),
                x.at(Prec::Unary)
            ),
            _ => {
                return Err(unsupported(
                    e.span,
                    format!("the method `{name}` of a `{}`", v.ty.cs()),
                    snippet(self.src, e),
                ));
            }
        };
        let ty = match name {
            "ToString" => Ty::Str,
            "Equals" => Ty::Bool,
            _ => Ty::Int(IntTy::I32),
        };
        let prec = if name == "Equals" {
            Prec::Cmp
        } else if name == "CompareTo" {
            Prec::Cast
        } else {
            Prec::Primary
        };
        let mut out = Val::new(code, ty, prec).absorb(&v);
        for x in &vals {
            out = out.absorb(x);
        }
        Ok(out)
    }

    /// An integer's `ToString(format)`, for the formats `cs::format_int` knows (`D16`,
    /// `X`), given as a constant.
    pub(crate) fn int_format(&self, v: &Val, f: &Val, e: &Expr) -> R<String> {
        let known = |s: &str| {
            let (kind, digits) = s.split_at(s.len().min(1));
            matches!(kind, "D" | "d" | "X" | "x")
                && digits.len() <= 2
                && digits.bytes().all(|b| b.is_ascii_digit())
        };
        match (&f.konst, v.ty.int()) {
            (Some(Const::Str(s)), Some(i)) if known(s) => Ok(format!(
                "cs::format_int({} as i128, {}, {s:?})",
                v.at(Prec::Cast),
                i.bits()
            )),
            _ => Err(unsupported(
                e.span,
                format!("`ToString` of a `{}` with this format", v.ty.cs()),
                snippet(self.src, e),
            )),
        }
    }

    /// A call through the API table: the first row whose parameters the arguments fit.
    fn api_call(
        &mut self,
        entries: &[&'static ApiEntry],
        recv: Option<Val>,
        args: &[Arg],
        e: &Expr,
    ) -> R<Val> {
        let arity: Vec<&&ApiEntry> = entries
            .iter()
            .filter(|x| x.params != "-" && param_list(x.params).len() == args.len())
            .collect();
        let mut last_err = None;
        for entry in &arity {
            let params = param_list(entry.params);
            let mut vals = Vec::new();
            let mut ok = true;
            for (p, a) in params.iter().zip(args) {
                let (is_ref, tname) = match p.strip_prefix("ref ") {
                    Some(rest) => (true, rest),
                    None => (false, *p),
                };
                let pt = parse_api_type(tname);
                if is_ref {
                    match self.ref_arg(&a.expr, &pt) {
                        Ok(v) => vals.push(v),
                        Err(err) => {
                            ok = false;
                            last_err = Some(err);
                            break;
                        }
                    }
                    continue;
                }
                let saved = self.learned.clone();
                let v = self.expr(&a.expr, Some(&pt))?;
                let v = if pt == Ty::Api("PieceType") && v.ty.int().is_some() {
                    Val {
                        ty: pt.clone(),
                        ..v
                    }
                } else {
                    v
                };
                match self.coerce(v, &pt, &a.expr) {
                    // The table's rows only read a `Board` argument (its occupancy): a
                    // clone would copy the board's whole history on every call.
                    Ok(v) if pt == Ty::Api("Board") => vals.push(v),
                    Ok(v) => vals.push(self.owned(v)),
                    Err(err) => {
                        self.learned = saved;
                        ok = false;
                        last_err = Some(err);
                        break;
                    }
                }
            }
            if ok {
                return self.apply(entry, recv, vals, e);
            }
        }
        Err(last_err.unwrap_or_else(|| {
            unsupported(
                e.span,
                "this API call (no overload with these arguments)",
                snippet(self.src, e),
            )
        }))
    }

    /// Fills a table row's template.
    fn apply(
        &mut self,
        entry: &ApiEntry,
        recv: Option<Val>,
        mut args: Vec<Val>,
        e: &Expr,
    ) -> R<Val> {
        let mut setup = String::new();
        if recv.as_ref().is_some_and(|r| r.reads_self) && args.iter().any(|a| a.mut_self) {
            // An argument changes the bot while the board (or timer) would be borrowed
            // from it: the arguments first.
            for a in &mut args {
                let t = self.temp("arg");
                setup.push_str(&format!("let {t} = {}; ", a.code));
                a.code = t;
                a.prec = Prec::Primary;
                a.bare_literal = false;
            }
        }
        let mut code = entry.rust.to_string();
        let mut out = Val::new("", parse_api_type(entry.ret), Prec::Primary);
        if let Some(r) = &recv {
            code = code.replace("{r}", &r.at(Prec::Primary));
            out = out.absorb(r);
        }
        for (i, a) in args.iter().enumerate() {
            let placeholder = format!("{{{i}}}");
            let followed_by_dot = code.contains(&format!("{placeholder}."));
            let text = if followed_by_dot {
                typed(a)
            } else {
                a.code.clone()
            };
            let text = if followed_by_dot && a.prec < Prec::Primary {
                format!("({text})")
            } else {
                text
            };
            code = code.replace(&placeholder, &text);
            out = out.absorb(a);
        }
        if entry.mutates {
            out.mut_self = recv.as_ref().is_some_and(|r| r.reads_self);
            out.effects = true;
            if out.mut_self {
                self.note_mutation();
            }
        }
        if code.contains("self.") {
            out.reads_self = true;
        }
        out.prec = if code.starts_with("if ") {
            Prec::Assign
        } else if code.contains(" as ") {
            Prec::Cast
        } else {
            Prec::Primary
        };
        let _ = e;
        out.mut_self |= args.iter().any(|a| a.mut_self);
        if setup.is_empty() {
            out.code = code;
        } else {
            out.code = format!("{{ {setup}{code} }}");
            out.prec = Prec::Primary;
        }
        Ok(out)
    }

    /// `Random`'s methods, on the kit's `Random`.
    fn random_call(&mut self, v: Val, name: &str, args: &[Arg], e: &Expr) -> R<Val> {
        let vals = self.plain_args(args)?;
        let int = Ty::Int(IntTy::I32);
        let long = Ty::Int(IntTy::I64);
        let param = if name == "NextInt64" { &long } else { &int };
        let mut conv = Vec::new();
        for (x, a) in vals.into_iter().zip(args) {
            conv.push(self.coerce(x, param, &a.expr)?);
        }
        // A field of another type's object is a `Var`, whose `get()` is a copy: the
        // generator is drawn from in place, its arguments read first.
        let shared = v.code.strip_suffix(".get()").map(str::to_string);
        let mut setup = String::new();
        if shared.is_some() {
            for (i, c) in conv.iter_mut().enumerate() {
                setup.push_str(&format!("let random_arg_{i} = {}; ", c.code));
                c.code = format!("random_arg_{i}");
            }
        }
        let r = if shared.is_some() {
            "g".to_string()
        } else {
            v.at(Prec::Primary)
        };
        let (code, ty) = match (name, conv.as_slice()) {
            ("Next", []) => (format!("{r}.next()"), int.clone()),
            ("Next", [max]) => (format!("{r}.next_max({})", max.code), int.clone()),
            ("Next", [min, max]) => (
                format!("{r}.next_range({}, {})", min.code, max.code),
                int.clone(),
            ),
            ("NextDouble", []) => (format!("{r}.next_double()"), Ty::F64),
            ("NextInt64", [max]) => (format!("{r}.next_int64_max({})", max.code), long.clone()),
            // .NET's seeded `NextSingle` is `(float)Sample()`, the sample `NextDouble` gives.
            ("NextSingle", []) => (format!("({r}.next_double() as f32)"), Ty::F32),
            _ => {
                return Err(unsupported(
                    e.span,
                    format!("`Random.{name}` with these arguments"),
                    snippet(self.src, e),
                ));
            }
        };
        let code = match shared {
            Some(var) => format!("{{ {setup}{var}.with(|g| {code}) }}"),
            None => code,
        };
        let mut out = Val::new(code, ty, Prec::Primary).absorb(&v);
        for x in &conv {
            out = out.absorb(x);
        }
        out.effects = true;
        if v.reads_self {
            out.mut_self = true;
            self.note_mutation();
        }
        Ok(out)
    }

    /// Element access `target[i, ...]`.
    /// Whether the simple name `n` is a field here: the type's own, or (as in
    /// `name`) the bot's, which a nested type names too.
    pub(crate) fn names_field(&self, n: &str) -> bool {
        let class = self.fr().class;
        self.p.field(class, n).is_some()
            || class != self.p.bot && self.p.field(self.p.bot, n).is_some()
    }

    pub(crate) fn index(&mut self, target: &Expr, idx: &[Expr], e: &Expr) -> R<Val> {
        if let ExprKind::Name(n, _) = &target.kind
            && self.find_local(n).is_none()
            && !self.names_field(n)
        {
            // `Hist[m]`: the parser's repair of `Hist(m) += ...`, a ref-returning call.
            let args: Vec<Arg> = idx
                .iter()
                .map(|x| Arg {
                    mode: PassMode::Value,
                    expr: x.clone(),
                    name: None,
                })
                .collect();
            return self.call_name(n, &args, e, None);
        }
        let t = self.expr(target, None)?;
        let t = self.non_null(t, e)?;
        let (recv, elem_code, elem_ty) = self.element(t, idx, e)?;
        let mut v = Val::new(elem_code, elem_ty, Prec::Primary).absorb(&recv);
        v.reads_self |= recv.reads_self;
        Ok(v)
    }

    /// `lists[a..b]` of a sequence C# holds as an array: a new one of those elements.
    fn seq_range(
        &mut self,
        t: Val,
        (lo, hi): (Option<&Expr>, Option<&Expr>),
        elem: Ty,
        e: &Expr,
    ) -> R<(Val, String, Ty)> {
        let r = t.at(Prec::Primary);
        if hi.is_none() && t.effects {
            // `F()[a..]` would call `F` again for the end.
            return Err(unsupported(
                e.span,
                "an open range of a call",
                snippet(self.src, e),
            ));
        }
        let lo = match lo {
            Some(l) => self.int_arg(l)?,
            None => Val::new("0", Ty::Int(IntTy::I32), Prec::Primary),
        };
        let hi = match hi {
            Some(h) => self.int_arg(h)?,
            None => Val::new(format!("{r}.count()"), Ty::Int(IntTy::I32), Prec::Primary),
        };
        let code = format!("{r}.slice_range({}, {})", lo.code, hi.code);
        let recv = t.clone().absorb(&lo).absorb(&hi);
        Ok((recv, code, Ty::Seq(Box::new(elem))))
    }

    /// The code reading `target[idx]`, with the target and the element's type.
    // C#'s element access in one place: arrays, multi-dimensional arrays, lists, dictionaries, spans, strings, piece lists.
    #[allow(clippy::too_many_lines)]
    pub(crate) fn element(&mut self, t: Val, idx: &[Expr], e: &Expr) -> R<(Val, String, Ty)> {
        let r = t.at(Prec::Primary);
        match t.ty.clone() {
            Ty::Array(elem, rank) => {
                if idx.len() == 1
                    && let ExprKind::Range(lo, hi) = &idx[0].kind
                {
                    let lo = match lo {
                        Some(l) => self.int_arg(l)?.code,
                        None => "0".into(),
                    };
                    let mut code = match hi {
                        Some(h) => {
                            format!("{r}.slice({lo}, {} - {lo})", self.int_arg(h)?.at(Prec::Add))
                        }
                        None => format!("{r}.slice_from({lo})"),
                    };
                    if !self.range_of_a_span(e)? {
                        // An array's range is a new array (`RuntimeHelpers.GetSubArray`).
                        code = format!("{code}.copy()");
                    }
                    return Ok((t.clone(), code, Ty::Array(elem, 1)));
                }
                if idx.len() != rank as usize {
                    return Err(unsupported(
                        e.span,
                        "an index of the wrong rank",
                        snippet(self.src, e),
                    ));
                }
                let sub = self.subscript(idx, &r)?;
                if t.reads_self && sub.mut_self {
                    // The index changes the bot while the array would be borrowed from it:
                    // the array first (C#'s order), then the index.
                    let (a, i) = (self.temp("array"), self.temp("index"));
                    let code = format!(
                        "{{ let {a} = {r}.clone(); let {i} = {}; {a}.get({i}) }}",
                        sub.code
                    );
                    return Ok((t.clone().absorb(&sub), code, (*elem).clone()));
                }
                Ok((
                    t.clone().absorb(&sub),
                    format!("{r}.get({})", sub.code),
                    (*elem).clone(),
                ))
            }
            Ty::List(elem) => {
                if let ExprKind::FromEnd(inner) = &idx[0].kind {
                    // `list[^i]`: the list, then `i`, then its `Count` (C#'s order).
                    let i = self.int_arg(inner)?;
                    let (l, n) = (self.temp("list"), self.temp("from_end"));
                    let code = format!(
                        "{{ let {l} = {r}.clone(); let {n} = {}; {l}.get({l}.count() - {n}) }}",
                        i.code
                    );
                    return Ok((t.clone().absorb(&i), code, (*elem).clone()));
                }
                let i = self.int_arg(&idx[0])?;
                Ok((
                    t.clone().absorb(&i),
                    format!("{r}.get({})", i.code),
                    (*elem).clone(),
                ))
            }
            Ty::Dict(k, v, _) => {
                let key = self.expr(&idx[0], Some(&k))?;
                let key = self.coerce(key, &k, &idx[0])?;
                Ok((
                    t.clone().absorb(&key),
                    format!("{r}.get(&{})", key.at(Prec::Unary)),
                    (*v).clone(),
                ))
            }
            Ty::Api("PieceList") => {
                let i = self.int_arg(&idx[0])?;
                Ok((
                    t.clone().absorb(&i),
                    format!("cs::Piece::of_list(&{r}, {})", i.code),
                    Ty::Api("Piece"),
                ))
            }
            Ty::Seq(elem) => {
                if let ExprKind::Range(lo, hi) = &idx[0].kind {
                    return self.seq_range(t.clone(), (lo.as_deref(), hi.as_deref()), *elem, e);
                }
                let i = self.int_arg(&idx[0])?;
                Ok((
                    t.clone().absorb(&i),
                    format!("{r}.get({})", i.code),
                    (*elem).clone(),
                ))
            }
            Ty::Str => {
                // `s[i..]` is `s.Substring(i)` (an end would need C#'s check that it is
                // not before the start).
                if let ExprKind::Range(Some(lo), None) = &idx[0].kind {
                    let lo = self.int_arg(lo)?;
                    let code = format!("cs::substring(&{r}, {}, -1)", lo.code);
                    return Ok((t.clone().absorb(&lo), code, Ty::Str));
                }
                let i = self.int_arg(&idx[0])?;
                Ok((
                    t.clone().absorb(&i),
                    format!("cs::char_at(&{r}, {})", i.code),
                    Ty::Char,
                ))
            }
            Ty::Coll("BitArray" | "StringBuilder", _) => {
                let i = self.int_arg(&idx[0])?;
                let elem = super::colls::indexed_elem(&t.ty);
                Ok((t.clone().absorb(&i), format!("{r}.get({})", i.code), elem))
            }
            other => Err(unsupported(
                e.span,
                format!("an element access on a `{}`", other.cs()),
                snippet(self.src, e),
            )),
        }
    }

    /// Whether the range `e` (`x[a..b]` of a `Ty::Array`) is of a span, a view sharing
    /// the elements, rather than of an array, which C# copies. The port types both alike,
    /// so a target that is not an `AsSpan()` is taken for an array only in a file that
    /// names no span type.
    fn range_of_a_span(&self, e: &Expr) -> R<bool> {
        let ExprKind::Index(target, _) = &e.kind else {
            return Ok(false);
        };
        if let ExprKind::Call(callee, _) = &target.kind
            && let ExprKind::Member(_, name, _) = &callee.kind
            && name == "AsSpan"
        {
            return Ok(true);
        }
        let ambiguous = match &target.kind {
            ExprKind::Name(n, _) | ExprKind::Member(_, n, _) => self.declares_span(n),
            _ => ["Span<", "ReadOnlySpan<", "Memory<"]
                .iter()
                .any(|t| self.src.contains(t)),
        };
        if ambiguous {
            return Err(unsupported(
                e.span,
                "a range of a value that may be an array (C# copies) or a span (C# shares) in a file with both",
                snippet(self.src, e),
            ));
        }
        Ok(false)
    }

    /// Whether the file declares the name `n` (a variable, field, parameter or method)
    /// with a span type: a name is a span's only there, as the port types spans and
    /// arrays alike.
    pub(crate) fn declares_span(&self, n: &str) -> bool {
        ["Span<", "ReadOnlySpan<", "Memory<"].iter().any(|t| {
            self.src.match_indices(t).any(|(at, _)| {
                let rest = &self.src[at..];
                let after = rest
                    .find('>')
                    .map_or("", |end| rest[end + 1..].trim_start());
                starts_with_word(after, n)
            })
        })
    }

    /// Whether the file declares the name `n` with an array type (`T[] n`), and whether
    /// with `var` and a value that may be a span (`AsSpan`, `Slice`, a span).
    fn declares_array_or_span_var(&self, n: &str) -> (bool, bool) {
        let (mut array, mut span) = (false, false);
        for (at, _) in self.src.match_indices(n) {
            let before = self.src[..at].trim_end();
            if self.src[..at].ends_with(|c: char| c.is_alphanumeric() || c == '_')
                || !starts_with_word(&self.src[at..], n)
            {
                continue;
            }
            if before.ends_with(']') {
                array = true;
            } else if before.ends_with("var")
                && !before[..before.len() - 3].ends_with(|c: char| c.is_alphanumeric() || c == '_')
            {
                let rest = &self.src[at..];
                let init = &rest[..rest.find(';').unwrap_or(rest.len())];
                if ["AsSpan", "Slice", "Span<", "stackalloc"]
                    .iter()
                    .any(|t| init.contains(t))
                {
                    span = true;
                } else {
                    array = true;
                }
            }
        }
        (array, span)
    }

    /// Whether `x.Reverse()` (the call `e`) is a span's, which reverses it in place
    /// (`MemoryExtensions.Reverse`), rather than an array's, which C# 10 binds to LINQ's
    /// `Enumerable.Reverse`: a reversed copy. An error where the file leaves it open.
    pub(crate) fn reverses_a_span(&self, e: &Expr) -> R<bool> {
        let ExprKind::Call(callee, _) = &e.kind else {
            return Ok(false);
        };
        let ExprKind::Member(target, _, _) = &callee.kind else {
            return Ok(false);
        };
        let name = match &target.kind {
            ExprKind::Call(f, _) => match &f.kind {
                ExprKind::Member(_, n, _) if n == "AsSpan" => return Ok(true),
                ExprKind::Member(_, n, _) | ExprKind::Name(n, _) => Some(n),
                _ => None,
            },
            ExprKind::Name(n, _) | ExprKind::Member(_, n, _) => Some(n),
            // No array holds spans: an element is an array.
            ExprKind::Index(..) => return Ok(false),
            _ => None,
        };
        let (span, array) = match name {
            Some(n) => {
                let (array, var_span) = self.declares_array_or_span_var(n);
                (self.declares_span(n) || var_span, array)
            }
            None => {
                let spans = ["Span<", "AsSpan", "Memory<"];
                (spans.iter().any(|t| self.src.contains(t)), true)
            }
        };
        if span && array {
            return Err(unsupported(
                e.span,
                "`Reverse()` of a value that may be a span (reversed in place) or an array (LINQ's reversed copy) in a file with both",
                snippet(self.src, e),
            ));
        }
        Ok(span)
    }

    /// An array subscript: an integer, or a tuple of them (`^i` counts from the end).
    pub(crate) fn subscript(&mut self, idx: &[Expr], recv: &str) -> R<Val> {
        let mut codes = Vec::new();
        let mut acc = Val::new("", Ty::Void, Prec::Primary);
        for x in idx {
            let v = if let ExprKind::FromEnd(inner) = &x.kind {
                let i = self.int_arg(inner)?;
                Val::new(
                    format!("{recv}.len() - {}", i.at(Prec::Mul)),
                    Ty::Int(IntTy::I32),
                    Prec::Add,
                )
                .absorb(&i)
            } else {
                self.int_arg(x)?
            };
            acc = acc.absorb(&v);
            codes.push(v.code);
        }
        acc.code = if codes.len() == 1 {
            codes.remove(0)
        } else {
            format!("({})", codes.join(", "))
        };
        Ok(acc)
    }

    /// An integer index argument (C# accepts `int`, `uint`, `long`, `ulong`).
    pub(crate) fn int_arg(&mut self, x: &Expr) -> R<Val> {
        let v = self.expr(x, None)?;
        match unary_promote(&v.ty) {
            Some(t) if t.int().is_some() => {
                let v = if v.ty.is_enum() {
                    Val {
                        ty: Ty::Int(IntTy::I32),
                        ..v
                    }
                } else {
                    v
                };
                self.coerce(v, &t, x)
            }
            _ => Err(unsupported(
                x.span,
                format!("an index of type `{}`", v.ty.cs()),
                snippet(self.src, x),
            )),
        }
    }

    /// `ref target` of a ref local's initialiser: a `cs::ElemRef` and the element type.
    pub(crate) fn ref_target(&mut self, init: &Expr) -> R<(String, Ty)> {
        let inner = match &init.kind {
            ExprKind::Ref(inner) => inner,
            _ => init,
        };
        match &inner.kind {
            ExprKind::Index(target, idx) => {
                let t = self.expr(target, None)?;
                let Ty::Array(elem, _) = t.ty.clone() else {
                    return Err(unsupported(
                        init.span,
                        "a ref local to something not an array element",
                        snippet(self.src, init),
                    ));
                };
                let r = t.at(Prec::Primary);
                let sub = self.subscript(idx, &r)?;
                Ok((format!("{r}.at({})", sub.code), *elem))
            }
            ExprKind::Call(..) | ExprKind::Name(..) => {
                let v = self.expr(inner, None)?;
                match v.code.strip_suffix(".get()") {
                    Some(r) => Ok((r.to_string(), v.ty)),
                    None => Err(unsupported(
                        init.span,
                        "a ref local to a variable",
                        snippet(self.src, init),
                    )),
                }
            }
            _ => Err(unsupported(
                init.span,
                "this ref local",
                snippet(self.src, init),
            )),
        }
    }

    /// A `ref` return's value: the element reference.
    pub(crate) fn ref_expr(&mut self, e: &Expr) -> R<String> {
        Ok(self.ref_target(e)?.0)
    }

    /// Methods of arrays, lists, dictionaries, sets and LINQ sequences.
    fn collection_call(&mut self, v: Val, name: &str, args: &[Arg], e: &Expr) -> R<Val> {
        let outer = self.arg_acc.replace(Val::new("", Ty::Void, Prec::Primary));
        let own = self.collection_own(&v, name, args, e);
        let args_flags = std::mem::replace(&mut self.arg_acc, outer);
        if let Some(mut out) = own? {
            if let Some(flags) = args_flags {
                out = out.absorb(&flags);
            }
            let recv = v.at(Prec::Primary);
            if out.mut_self && v.reads_self && !v.mut_self && out.code.starts_with(&recv) {
                // An argument changes the bot while the collection would be borrowed from
                // it: the collection (a shared reference) first, as C# evaluates it.
                let t = self.temp("target");
                out.code = format!(
                    "{{ let {t} = {recv}.clone(); {t}{} }}",
                    &out.code[recv.len()..]
                );
            }
            return Ok(out);
        }
        self.linq(v, name, args, e)
    }
}

impl Val {
    /// A `Vec` result made a LINQ sequence.
    fn seq_from_vec(mut self) -> Val {
        self.code = format!("cs::Seq::from({})", self.code);
        self
    }
}

/// `a`'s code with a type suffix if it is a bare literal (a method receiver needs one).
pub(crate) fn typed(a: &Val) -> String {
    if a.bare_literal {
        let suffix = match &a.ty {
            Ty::Int(i) => i.rust(),
            Ty::F64 => "f64",
            Ty::F32 => "f32",
            _ => "",
        };
        if !suffix.is_empty() && !a.code.ends_with(suffix) {
            let code = a.code.trim_start_matches('-');
            let neg = a.code.starts_with('-');
            return if neg {
                format!("(-{code}_{suffix})")
            } else {
                format!("{code}_{suffix}")
            };
        }
    }
    a.at(Prec::Primary)
}

/// The table's class for a name C# spells several ways.
pub(super) fn canonical_class(t: &str) -> &str {
    match t {
        "Int32" => "int",
        "Int64" => "long",
        "UInt64" => "ulong",
        "UInt32" => "uint",
        "Double" => "double",
        "Single" => "float",
        "Int16" => "short",
        "UInt16" => "ushort",
        "Byte" => "byte",
        "SByte" => "sbyte",
        "Decimal" => "decimal",
        "String" => "string",
        "Char" => "char",
        other => other,
    }
}

/// The parameters of a table row.
fn param_list(params: &str) -> Vec<&str> {
    if params.is_empty() {
        Vec::new()
    } else {
        params.split(", ").collect()
    }
}

/// A table row's C# type name as a [`Ty`].
pub(crate) fn parse_api_type(name: &str) -> Ty {
    let name = name.trim();
    if let Some(elem) = name.strip_suffix("[]") {
        return Ty::Array(Box::new(parse_api_type(elem)), 1);
    }
    if let Some(inner) = name
        .strip_prefix("IEnumerable<")
        .and_then(|n| n.strip_suffix('>'))
    {
        return Ty::Seq(Box::new(parse_api_type(inner)));
    }
    if let Some(inner) = name.strip_prefix("Span<").and_then(|n| n.strip_suffix('>')) {
        return Ty::Array(Box::new(parse_api_type(inner)), 1);
    }
    if let Some(t) = crate::types::predefined(name) {
        return t;
    }
    match name {
        "Move" => Ty::Api("Move"),
        "Square" => Ty::Api("Square"),
        "Board" => Ty::Api("Board"),
        "Piece" => Ty::Api("Piece"),
        "PieceList" => Ty::Api("PieceList"),
        "PieceType" => Ty::Api("PieceType"),
        "Timer" => Ty::Api("Timer"),
        "DateTime" => Ty::Api("DateTime"),
        "TimeSpan" => Ty::Api("TimeSpan"),
        "Vector2" => Ty::Api("Vector2"),
        "Guid" => Ty::Api("Guid"),
        "BigInteger" => Ty::Api("BigInteger"),
        "ASCIIEncoding" => Ty::Api("ASCIIEncoding"),
        _ => Ty::Unknown,
    }
}

/// Whether `e` names a namespace (`System`, `System.Numerics`, `ChessChallenge.API`).
fn is_namespace(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Name(n, _) => matches!(n.as_str(), "System" | "ChessChallenge"),
        ExprKind::Member(inner, n, _) => {
            is_namespace(inner)
                && matches!(
                    n.as_str(),
                    "API"
                        | "Numerics"
                        | "Linq"
                        | "Collections"
                        | "Generic"
                        | "Runtime"
                        | "Intrinsics"
                )
        }
        _ => false,
    }
}

/// `(T0 arg0, T1 arg1) => callee(arg0, arg1)` for the method `decl`, placed at `e`.
/// `char.IsLetter` and the other `char` tests named as a method group (`s.Count(char.IsDigit)`):
/// the lambda `c => char.IsLetter(c)`; the API's `char` members have one overload each.
fn char_method_group(t: &Expr, m: &str, targs: &[TypeRef], e: &Expr) -> Option<Expr> {
    let ExprKind::Name(class, none) = &t.kind else {
        return None;
    };
    if !targs.is_empty() || !none.is_empty() || !matches!(class.as_str(), "char" | "Char") {
        return None;
    }
    let [entry] = api::lookup("char", m)[..] else {
        return None;
    };
    if entry.params != "char" {
        return None;
    }
    let at = |kind| Expr::new(kind, e.span, e.range);
    let arg = Arg {
        mode: PassMode::Value,
        expr: at(ExprKind::Name("arg0".into(), Vec::new())),
        name: None,
    };
    let call = at(ExprKind::Call(Box::new(at(e.kind.clone())), vec![arg]));
    let param = (
        "arg0".to_string(),
        Some(TypeRef::Named("char".into(), Vec::new())),
    );
    Some(at(ExprKind::Lambda(
        vec![param],
        LambdaBody::Expr(Box::new(call)),
    )))
}

fn forwarding_lambda(callee: ExprKind, decl: &MethodDecl, e: &Expr) -> Expr {
    let at = |kind| Expr::new(kind, e.span, e.range);
    let params: Vec<(String, Option<TypeRef>)> = (0..decl.params.len())
        .map(|i| (format!("arg{i}"), Some(decl.params[i].ty.clone())))
        .collect();
    let args = params
        .iter()
        .map(|(p, _)| Arg {
            mode: PassMode::Value,
            expr: at(ExprKind::Name(p.clone(), Vec::new())),
            name: None,
        })
        .collect();
    let call = at(ExprKind::Call(Box::new(at(callee)), args));
    at(ExprKind::Lambda(params, LambdaBody::Expr(Box::new(call))))
}

/// The C# name of the object a bound method group's closure holds (see
/// `bound_method_group`), declared in a scope of its own around the forwarding lambda,
/// which names nothing else of the file.
const BOUND: &str = "bound_method_target";

/// `code` with every word `from` (not part of a longer name) written `to`.
fn rename_word(code: &str, from: &str, to: &str) -> String {
    let mut out = String::with_capacity(code.len());
    let mut word = String::new();
    for c in code.chars().chain(std::iter::once(' ')) {
        if c.is_alphanumeric() || c == '_' {
            word.push(c);
            continue;
        }
        out.push_str(if word == from { to } else { &word });
        word.clear();
        out.push(c);
    }
    out.pop();
    out
}

/// Whether `code` names the variable `name` (not as part of a longer name).
fn mentions(code: &str, name: &str) -> bool {
    code.split(|c: char| !c.is_alphanumeric() && c != '_')
        .any(|w| w == name)
}

/// The C# name of the type declaring `m`.
fn m_owner_cs(p: &super::program::Program, m: &MethodInfo) -> String {
    p.types[m.owner].cs.clone()
}

/// Matches a parameter type against an argument's, recording its type parameters'
/// types; false where one would get two.
fn unify(param: &Ty, arg: &Ty, found: &mut BTreeMap<String, Ty>) -> bool {
    match (param, arg) {
        (Ty::Param(n), t) if *t != Ty::Unknown && *t != Ty::Null => {
            found.entry(n.clone()).or_insert_with(|| t.clone()) == t
        }
        (Ty::Array(p, r), Ty::Array(a, s)) if r == s => unify(p, a, found),
        (Ty::List(p), Ty::List(a))
        | (Ty::Set(p), Ty::Set(a))
        | (Ty::Seq(p), Ty::Seq(a))
        | (Ty::Nullable(p), Ty::Nullable(a)) => unify(p, a, found),
        (Ty::Dict(pk, pv, p), Ty::Dict(ak, av, a)) if p == a => {
            unify(pk, ak, found) && unify(pv, av, found)
        }
        (Ty::Tuple(ps, _), Ty::Tuple(xs, _)) if ps.len() == xs.len() => {
            ps.iter().zip(xs).all(|(p, a)| unify(p, a, found))
        }
        _ => true,
    }
}

/// `t` with its type parameters replaced by `found`'s types.
fn substitute(t: &Ty, found: &BTreeMap<String, Ty>) -> Ty {
    let sub = |x: &Ty| Box::new(substitute(x, found));
    match t {
        Ty::Param(n) => found.get(n).cloned().unwrap_or_else(|| t.clone()),
        Ty::Array(e, r) => Ty::Array(sub(e), *r),
        Ty::List(e) => Ty::List(sub(e)),
        Ty::Set(e) => Ty::Set(sub(e)),
        Ty::Seq(e) => Ty::Seq(sub(e)),
        Ty::Nullable(e) => Ty::Nullable(sub(e)),
        Ty::Dict(k, v, kind) => Ty::Dict(sub(k), sub(v), kind),
        Ty::Tuple(items, names) => Ty::Tuple(
            items.iter().map(|i| substitute(i, found)).collect(),
            names.clone(),
        ),
        Ty::Coll(name, args) => Ty::Coll(name, args.iter().map(|a| substitute(a, found)).collect()),
        Ty::Func(ps, r) => Ty::Func(ps.iter().map(|p| substitute(p, found)).collect(), sub(r)),
        _ => t.clone(),
    }
}

fn mentions_param(t: &Ty) -> bool {
    format!("{t:?}").contains("Param(")
}

/// `x.GetFenString()`: a string of ASCII characters only.
fn is_fen_call(x: &Expr) -> bool {
    matches!(&x.kind, ExprKind::Call(f, a)
        if a.is_empty() && matches!(&f.kind, ExprKind::Member(_, n, _) if n == "GetFenString"))
}

/// `int.MaxValue` and the like are constants: `const int M = int.MaxValue - 1;`.
/// `float.MaxValue` is finite, the largest `float` (ECMA-334 8.3.7), and `float.MinValue`
/// its negation: constants too.
fn limit_const(class: &str, name: &str) -> Option<Const> {
    let ty = crate::types::predefined(class)?;
    if let Ty::Int(i) = ty {
        let (lo, hi) = i.range();
        return match name {
            "MaxValue" => Some(Const::Int(hi)),
            "MinValue" => Some(Const::Int(lo)),
            _ => None,
        };
    }
    let largest = match ty {
        Ty::F32 => f64::from(f32::MAX),
        Ty::F64 => f64::MAX,
        _ => return None,
    };
    match name {
        "MaxValue" => Some(Const::Float(largest)),
        "MinValue" => Some(Const::Float(-largest)),
        _ => None,
    }
}

/// Whether `text` starts with the identifier `word` (not a longer one).
fn starts_with_word(text: &str, word: &str) -> bool {
    text.starts_with(word)
        && !text[word.len()..].starts_with(|c: char| c.is_alphanumeric() || c == '_')
}

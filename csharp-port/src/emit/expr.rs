//! Expressions: literals, names, operators and conversions, each with C#'s type and
//! meaning.

use super::decls::{FileEmitter, LocalKind};
use super::{Const, Prec, R, Val, snippet, unsupported};
use crate::PortError;
use crate::ast::*;
use crate::types::{IntTy, Ty, implicit_numeric, promote, unary_promote};

/// A Rust integer or float literal of `value` for the C# type `t` (suffixed when `t` is
/// not Rust's default `i32`/`f64`, unless `bare`).
pub(crate) fn int_literal(value: i128, t: &Ty, bare: bool) -> String {
    let suffix = match t {
        Ty::Int(IntTy::I32) | Ty::Enum(_) | Ty::Api("PieceType") => "",
        Ty::Int(i) => i.rust(),
        Ty::Char => "u16",
        Ty::F32 => "f32",
        _ => "",
    };
    let body = match t {
        Ty::F32 | Ty::F64 => format!("{value}.0"),
        _ => value.to_string(),
    };
    if bare || suffix.is_empty() {
        body
    } else {
        format!("{body}_{suffix}")
    }
}

impl FileEmitter<'_, '_> {
    /// The refusal of `a op b` for its operands' types.
    pub(crate) fn operands_refused(&self, op: BinOp, a: &Val, b: &Val, e: &Expr) -> PortError {
        unsupported(
            e.span,
            format!(
                "`{}` between `{}` and `{}`",
                op.rust(),
                a.ty.cs(),
                b.ty.cs()
            ),
            snippet(self.src, e),
        )
    }

    /// An expression, with `want` the type its context expects (for target-typed `new()`,
    /// lambdas, collection literals).
    // One arm per expression kind of the AST: the dispatch table.
    #[allow(clippy::too_many_lines)]
    pub(crate) fn expr(&mut self, e: &Expr, want: Option<&Ty>) -> R<Val> {
        match &e.kind {
            ExprKind::Int(v, t) => Ok(self.int_lit(*v, t, e)),
            ExprKind::Real(text, t) => self.real_lit(text, t, e),
            ExprKind::Bool(b) => Ok(konst(
                Val::new(b.to_string(), Ty::Bool, Prec::Primary),
                Const::Bool(*b),
            )),
            ExprKind::Char(c) => Ok(konst(
                Val::new(format!("{c}_u16"), Ty::Char, Prec::Primary),
                Const::Int(i128::from(*c)),
            )),
            ExprKind::Str(s) => Ok(konst(
                Val::new(format!("{s:?}.to_string()"), Ty::Str, Prec::Primary),
                Const::Str(s.clone()),
            )),
            ExprKind::Interp(parts) => self.interp(parts),
            ExprKind::Null => Ok(Val::new("None", Ty::Null, Prec::Primary)),
            ExprKind::Default(t) => {
                let t = match t {
                    Some(t) => self.p.resolve(t, &self.type_params, e.span)?,
                    None => want.cloned().ok_or_else(|| {
                        unsupported(e.span, "`default` without a type", "default")
                    })?,
                };
                let code = self.default_value(&t, e.span)?;
                Ok(Val::new(code, t, Prec::Primary))
            }
            ExprKind::Name(n, _) => match want {
                Some(Ty::Func(..))
                    if let Some(l) = self.find_local(n)
                        && l.kind == LocalKind::Delegate =>
                {
                    self.delegate_as_closure(&l, e)
                }
                Some(want @ Ty::Func(..)) if self.find_local(n).is_none() => {
                    match self.method_group(want, e)? {
                        Some(v) => Ok(v),
                        None => self.name(n, e),
                    }
                }
                _ => self.name(n, e),
            },
            ExprKind::This => {
                let mut v = Val::new("self", self.this_type(e)?, Prec::Primary);
                v.reads_self = true;
                v.place = true;
                Ok(v)
            }
            ExprKind::Member(target, name, _) => match want {
                Some(want @ Ty::Func(..)) => match self.method_group(want, e)? {
                    Some(v) => Ok(v),
                    None => match self.bound_method_group(target, name, want, e)? {
                        Some(v) => Ok(v),
                        None => self.member(target, name, e),
                    },
                },
                _ => self.member(target, name, e),
            },
            ExprKind::NullMember(target, name) => {
                let saved = self.learned.clone();
                let t = self.expr(target, None)?.ty;
                self.learned = saved;
                match t {
                    // The port never holds these as null: `?.` is `.`.
                    Ty::Api(_)
                    | Ty::Array(..)
                    | Ty::List(_)
                    | Ty::Dict(..)
                    | Ty::Set(_)
                    | Ty::Seq(_) => self.member(target, name, e),
                    Ty::Class(c) if self.p.is_ref_class(&c) => {
                        self.null_member_of_class(target, name, e)
                    }
                    // A C# struct here is a compile error: these are classes (a record).
                    Ty::Class(c) | Ty::Struct(c) => Err(unsupported(
                        e.span,
                        format!(
                            "`?.` on a `{c}`, which the port holds as a value, never null (C#'s may be null here, as after a `TryGetValue` that finds nothing)"
                        ),
                        snippet(self.src, e),
                    )),
                    other => Err(unsupported(
                        e.span,
                        format!("`?.` on a `{}`", other.cs()),
                        snippet(self.src, e),
                    )),
                }
            }
            ExprKind::Call(callee, args) => self.call(callee, args, e, want),
            ExprKind::Index(target, idx) => self.index(target, idx, e),
            ExprKind::Unary(op, x) => self.unary(*op, x, e),
            ExprKind::IncDec(op, x) => self.incdec(*op, x, e, true),
            ExprKind::Binary(op, l, r) => self.binary(*op, l, r, e),
            ExprKind::Assign(op, l, r) => self.assign(*op, l, r, e, true),
            ExprKind::Cond(c, a, b) => self.cond(c, a, b, e, want),
            ExprKind::Cast(t, x) => self.cast(t, x, e),
            ExprKind::New(t, args, init) => {
                self.new_object(t.as_ref(), args, init.as_deref(), e, want)
            }
            ExprKind::With(target, items) => self.with(target, items, e),
            ExprKind::As(x, t) => self.as_conversion(x, t, e),
            ExprKind::NewArray {
                elem,
                rank,
                sizes,
                init,
            } => self.new_array(elem.as_ref(), *rank, sizes, init.as_deref(), e, want),
            ExprKind::Lambda(params, body) => self.lambda(params, body, e, want),
            ExprKind::Tuple(items, names) => {
                let mut v = self.tuple(items, e, want)?;
                let names = tuple_names(items, names);
                if let Ty::Tuple(tys, wanted) = &v.ty
                    && names.iter().any(Option::is_some)
                    && wanted.iter().all(Option::is_none)
                {
                    // `(first: 1, second: 2)` and `(move, score)`: the literal's own names.
                    v.ty = Ty::Tuple(tys.clone(), names);
                }
                Ok(v)
            }
            ExprKind::Is(x, p) => self.is_pattern(x, p, e),
            ExprKind::Switch(x, arms) => self.switch_expr(x, arms, e, want),
            ExprKind::Checked(true, x) => self.in_checked(e, |s| s.expr(x, want)),
            ExprKind::Checked(false, x) => {
                let v = self.unchecked(|s| s.expr(x, want))?;
                match (&v.konst, v.ty.int()) {
                    // `unchecked(...)` constants wrap as C# computes them.
                    (Some(Const::Int(n)), Some(i)) => Ok(konst(
                        Val::new(
                            int_literal(i.wrap(*n), &v.ty, false),
                            v.ty.clone(),
                            Prec::Unary,
                        ),
                        Const::Int(i.wrap(*n)),
                    )),
                    _ => Ok(v),
                }
            }
            ExprKind::Throw(_) => Ok(Val::new(
                "abort_search()",
                want.cloned().unwrap_or(Ty::Void),
                Prec::Primary,
            )),
            ExprKind::Ref(_) => Err(unsupported(e.span, "`ref` here", snippet(self.src, e))),
            ExprKind::DeclVar(..) => Err(unsupported(
                e.span,
                "a declaration here",
                snippet(self.src, e),
            )),
            ExprKind::TypeOf(_) => Err(unsupported(e.span, "`typeof`", snippet(self.src, e))),
            ExprKind::Range(..) | ExprKind::FromEnd(_) => Err(unsupported(
                e.span,
                "a range or index from the end here",
                snippet(self.src, e),
            )),
            ExprKind::ElementBinding(_) => Err(unsupported(
                e.span,
                "an index initialiser here",
                snippet(self.src, e),
            )),
            ExprKind::Resolved(..) | ExprKind::Convert(_) => {
                Err(unsupported(e.span, "an expression", snippet(self.src, e)))
            }
        }
    }

    fn this_type(&self, e: &Expr) -> R<Ty> {
        let class = self.fr().class;
        if class == self.p.bot {
            return Ok(Ty::Class(self.p.types[class].cs.clone()));
        }
        self.p
            .own_type(&self.p.types[class].cs)
            .ok_or_else(|| unsupported(e.span, "`this`", "this"))
    }

    fn int_lit(&mut self, value: u64, t: &Ty, e: &Expr) -> Val {
        let text = snippet(self.src, e).replace(['u', 'U', 'l', 'L'], "");
        // A constant the source spells otherwise (`sizeof(long)`) is written as a number.
        let text = if !text.starts_with(|c: char| c.is_ascii_digit()) {
            value.to_string()
        } else {
            text
        };
        let suffix = match t {
            Ty::Int(IntTy::I32) => String::new(),
            Ty::Int(i) => format!("_{}", i.rust()),
            _ => String::new(),
        };
        let mut v = Val::new(format!("{text}{suffix}"), t.clone(), Prec::Primary);
        v.konst = Some(Const::Int(i128::from(value)));
        v.bare_literal = suffix.is_empty();
        v
    }

    fn real_lit(&mut self, text: &str, t: &Ty, e: &Expr) -> R<Val> {
        if *t == Ty::Decimal {
            let d = parse_decimal(text)
                .ok_or_else(|| unsupported(e.span, "this decimal literal", text))?;
            let mut v = Val::new(decimal_code(&d), Ty::Decimal, Prec::Primary);
            v.konst = Some(d);
            return Ok(v);
        }
        let value: f64 = text
            .parse()
            .map_err(|_| unsupported(e.span, "this real literal", text))?;
        let mut code = text.to_string();
        if !code.contains(['.', 'e', 'E']) {
            code.push_str(".0");
        } else if code.starts_with('.') {
            code.insert(0, '0');
        } else if code.contains('.')
            && !code
                .chars()
                .nth(code.find('.').unwrap_or(0) + 1)
                .is_some_and(|c| c.is_ascii_digit())
        {
            code = code.replacen('.', ".0", 1);
        }
        if *t == Ty::F32 {
            code.push_str("_f32");
        }
        let mut v = Val::new(code, t.clone(), Prec::Primary);
        v.konst = Some(Const::Float(value));
        v.bare_literal = *t == Ty::F64;
        Ok(v)
    }

    /// Code whose `Display` is `v`'s text as C# writes it (`$"{v}"`, `"" + v`,
    /// `v.ToString()`); a value whose C# text the port does not give is refused.
    pub(crate) fn text(&self, v: &Val, e: &Expr) -> R<String> {
        Ok(match &v.ty {
            Ty::Str | Ty::Int(_) | Ty::Decimal => v.at(Prec::Primary),
            Ty::Char => format!("cs::char_to_string({})", v.code),
            Ty::Bool => format!("cs::bool_text({})", v.code),
            Ty::F64 => format!("cs::double_text({})", v.code),
            Ty::F32 => format!("cs::float_text({})", v.code),
            Ty::Api("Move") => format!("cs::move_text({})", v.code),
            Ty::Api("Square") => format!("cs::square_text({})", v.code),
            Ty::Api("PieceType") => format!("cs::piece_type_text({})", v.code),
            Ty::Api("Piece") => format!("cs::piece_text({})", v.code),
            other => {
                return Err(unsupported(
                    e.span,
                    format!("the text of a `{}`", other.cs()),
                    snippet(self.src, e),
                ));
            }
        })
    }

    fn interp(&mut self, parts: &[InterpPart]) -> R<Val> {
        let mut fmt = String::new();
        let mut args = Vec::new();
        let mut acc = Val::new("", Ty::Str, Prec::Primary);
        for p in parts {
            match p {
                InterpPart::Text(t) => fmt.push_str(&t.replace('{', "{{").replace('}', "}}")),
                InterpPart::Value(e, format, align) => {
                    let v = self.expr(e, None)?;
                    acc = acc.absorb(&v);
                    let text = match format.as_deref() {
                        None => self.text(&v, e)?,
                        Some(f)
                            if f.len() == 2
                                && (f.starts_with('F') || f.starts_with('f'))
                                && matches!(v.ty, Ty::F64 | Ty::F32) =>
                        {
                            format!("format!(\"{{:.{}}}\", {})", &f[1..], v.code)
                        }
                        Some(f) => {
                            return Err(unsupported(
                                e.span,
                                format!("the format `{f}` in an interpolated string"),
                                snippet(self.src, e),
                            ));
                        }
                    };
                    fmt.push_str("{}");
                    args.push(super::format::aligned(text, *align));
                }
            }
        }
        let args: String = args.iter().map(|a| format!(", {a}")).collect();
        acc.code = format!("format!({fmt:?}{args})");
        Ok(acc)
    }

    /// A simple name: a local, a field, a constant, an enum member, a property.
    fn name(&mut self, n: &str, e: &Expr) -> R<Val> {
        if let Some(local) = self.find_local(n) {
            return Ok(self.local_val(&local));
        }
        let class = self.fr().class;
        if let Some(v) = self.field_val(class, n, e)? {
            return Ok(v);
        }
        // A nested type names the bot's statics (another type's method reaches them
        // through its `bot` parameter).
        if class != self.p.bot
            && let Some(v) = self.field_val(self.p.bot, n, e)?
        {
            return Ok(v);
        }
        // `using static` classes' and enums' members (`Pawn`, `PI`).
        for u in self.p.using_static.clone() {
            let known = (u == "PieceType"
                && ["None", "Pawn", "Knight", "Bishop", "Rook", "Queen", "King"].contains(&n))
                || super::api::lookup(super::call::canonical_class(&u), n)
                    .iter()
                    .any(|x| x.params == "-")
                || self
                    .p
                    .type_index(&u)
                    .is_some_and(|i| self.p.types[i].enum_values.iter().any(|(m, _)| m == n));
            if known {
                return self.static_member_of(&u, n, e);
            }
        }
        // A property getter of the type (or the bot's) named without parentheses.
        for t in [class, self.p.bot] {
            if let Some(m) = self
                .p
                .methods(t, n)
                .into_iter()
                .find(|m| m.is_property)
                .cloned()
            {
                return self.own_call(&m, None, &[], e);
            }
        }
        Err(unsupported(
            e.span,
            format!("the name `{n}` (not a local, field or constant this translator knows)"),
            n,
        ))
    }

    /// A local's value.
    pub(crate) fn local_val(&mut self, l: &super::decls::Local) -> Val {
        let current = self.fns.len() - 1;
        let captured =
            l.frame < current && l.kind != LocalKind::Board && l.kind != LocalKind::Timer;
        if captured {
            let key = self.fr().key.clone();
            // A lambda inside a local function reads its captures like the function does.
            self.learned
                .captures
                .entry(key)
                .or_default()
                .insert((l.owner.clone(), l.id));
            self.note_assigned(l);
        }
        let (code, prec) = match l.kind {
            LocalKind::Board => return self.bot_board_or_timer(&Ty::Api("Board")),
            LocalKind::Timer => return self.bot_board_or_timer(&Ty::Api("Timer")),
            LocalKind::Elem => (format!("{}.get()", l.rust), Prec::Primary),
            LocalKind::Ref => (format!("*{}", self.local_name(l)), Prec::Unary),
            LocalKind::Value | LocalKind::Closure | LocalKind::Delegate if captured => {
                (format!("*{}", self.local_name(l)), Prec::Unary)
            }
            LocalKind::Value | LocalKind::Closure | LocalKind::Delegate => {
                (l.rust.clone(), Prec::Primary)
            }
        };
        let mut v = Val::new(code, l.ty.clone(), prec);
        v.place = l.kind != LocalKind::Elem;
        v
    }

    /// A field (or constant) `n` of type `t`, if it has one.
    pub(crate) fn field_val(&mut self, t: usize, n: &str, e: &Expr) -> R<Option<Val>> {
        let Some(f) = self.p.field(t, n).cloned() else {
            return Ok(None);
        };
        if f.is_const {
            let k = self.field_const(t, n);
            let mut v = Val::new(f.rust.clone(), f.ty.clone(), Prec::Primary);
            v.konst = k;
            return Ok(Some(v));
        }
        if matches!(f.ty, Ty::Api("Board" | "Timer")) {
            // Every board field holds the one `think` was handed (an assignment of
            // another is refused), kept in the bot.
            return Ok(Some(self.bot_board_or_timer(&f.ty)));
        }
        let bot_level = f.is_static || t == self.p.bot;
        if bot_level && !self.fr().bot_level {
            if t == self.p.bot && !f.is_static {
                return Err(unsupported(
                    e.span,
                    "an instance field of the bot read from another type's method",
                    n,
                ));
            }
            // A static lives in the bot's struct, reached through the `bot` parameter.
            let bot = self.bot_self();
            let mut v = Val::new(format!("{bot}.{}", f.rust), f.ty.clone(), Prec::Primary);
            v.place = true;
            return Ok(Some(v));
        }
        if !bot_level && self.p.is_ref_class(&self.p.types[t].cs) {
            // A field of a class instance: a `cs::Var`.
            return Ok(Some(Val::new(
                format!("self.{}.get()", f.rust),
                f.ty.clone(),
                Prec::Primary,
            )));
        }
        let mut v = Val::new(format!("self.{}", f.rust), f.ty.clone(), Prec::Primary);
        v.reads_self = true;
        v.place = true;
        Ok(Some(v))
    }

    /// The board or timer `think` was handed, kept in the bot's struct.
    pub(crate) fn bot_board_or_timer(&mut self, ty: &Ty) -> Val {
        let bot = self.bot_self();
        let field = if *ty == Ty::Api("Board") {
            &self.board
        } else {
            &self.timer
        };
        let mut v = Val::new(format!("{bot}.{field}"), ty.clone(), Prec::Primary);
        // Through `bot`, a parameter apart from `self`, it borrows nothing of `self`.
        v.reads_self = bot == "self";
        v.place = true;
        v
    }

    /// [`Self::owned`] where the value is stored or returned: a `Random` read from a
    /// variable or field is refused, since C#'s `Random` is a class (a second name for
    /// one generator) and the port's is a value (a copy would draw its own numbers).
    pub(crate) fn owned_stored(&mut self, v: Val, x: &Expr) -> R<Val> {
        if v.ty == Ty::Api("Random") && v.place {
            return Err(unsupported(
                x.span,
                "a `Random` stored or returned from a variable or field (C# would share one generator; the port's copy would draw its own numbers)",
                snippet(self.src, x),
            ));
        }
        Ok(self.owned(v))
    }

    /// A non-`Copy` place read as a value: cloned (for C#'s references, the reference).
    pub(crate) fn owned(&mut self, mut v: Val) -> Val {
        if v.place && !self.p.is_copy(&v.ty) && !matches!(v.ty, Ty::Null | Ty::Unknown) {
            v.code = format!("{}.clone()", v.at(Prec::Primary));
            v.prec = Prec::Primary;
            v.place = false;
        }
        v
    }

    // C#'s unary operators (+ - ! ~ ++ -- and their prefix/postfix forms) by operand type, side by side.
    #[allow(clippy::too_many_lines)]
    fn unary(&mut self, op: UnOp, x: &Expr, e: &Expr) -> R<Val> {
        // `-2147483648` is an `int` in C#, though `2147483648` alone is a `uint`.
        if op == UnOp::Neg
            && let ExprKind::Int(v, Ty::Int(IntTy::U32 | IntTy::U64)) = &x.kind
            && (*v == 1 << 31 || *v == 1 << 63)
            && !snippet(self.src, x)
                .to_ascii_lowercase()
                .contains(['u', 'l'])
        {
            let t = if *v == 1 << 31 {
                Ty::Int(IntTy::I32)
            } else {
                Ty::Int(IntTy::I64)
            };
            let code = if *v == 1 << 31 {
                "i32::MIN"
            } else {
                "i64::MIN"
            };
            return Ok(konst(
                Val::new(code, t, Prec::Primary),
                Const::Int(-(i128::from(*v))),
            ));
        }
        let v = self.expr(x, None)?;
        if let (UnOp::Neg, Some(Const::Decimal(value, scale, negative))) = (op, &v.konst) {
            let k = Const::Decimal(*value, *scale, !negative);
            return Ok(konst(
                Val::new(decimal_code(&k), Ty::Decimal, Prec::Primary),
                k,
            ));
        }
        match op {
            UnOp::Not => {
                let v = self.coerce(v, &Ty::Bool, x)?;
                let k = match v.konst {
                    Some(Const::Bool(b)) => Some(Const::Bool(!b)),
                    _ => None,
                };
                let mut out =
                    Val::new(format!("!{}", v.at(Prec::Unary)), Ty::Bool, Prec::Unary).absorb(&v);
                out.konst = k;
                Ok(out)
            }
            UnOp::Neg | UnOp::Plus | UnOp::BitNot => {
                let t = unary_promote(&v.ty).ok_or_else(|| {
                    unsupported(
                        e.span,
                        format!(
                            "`{}` on a `{}`",
                            if op == UnOp::BitNot { "~" } else { "-" },
                            v.ty.cs()
                        ),
                        snippet(self.src, e),
                    )
                })?;
                let t = if op == UnOp::Neg && t == Ty::Int(IntTy::U32) {
                    Ty::Int(IntTy::I64)
                } else {
                    t
                };
                if op == UnOp::Neg && t == Ty::Int(IntTy::U64) {
                    return Err(unsupported(
                        e.span,
                        "`-` on a `ulong`",
                        snippet(self.src, e),
                    ));
                }
                if op == UnOp::BitNot && matches!(t, Ty::F32 | Ty::F64) {
                    return Err(unsupported(
                        e.span,
                        "`~` on a floating-point value",
                        snippet(self.src, e),
                    ));
                }
                let inner = self.coerce(v, &t, x)?;
                let k = match (&inner.konst, t.int()) {
                    (Some(Const::Int(n)), Some(i)) => Some(Const::Int(i.wrap(match op {
                        UnOp::Neg => -n,
                        UnOp::BitNot => !n,
                        _ => *n,
                    }))),
                    (Some(Const::Float(f)), None) if op == UnOp::Neg => Some(Const::Float(-f)),
                    (Some(Const::Float(f)), None) => Some(Const::Float(*f)),
                    _ => None,
                };
                let sym = match op {
                    UnOp::Neg => "-",
                    UnOp::BitNot => "!",
                    _ => "",
                };
                let code = if sym.is_empty() {
                    inner.code.clone()
                } else if op == UnOp::Neg && k.is_none() && t.int().is_some() && self.is_checked() {
                    format!(
                        "{}.checked_neg().expect({OVERFLOW})",
                        inner.at(Prec::Primary)
                    )
                } else {
                    format!("{sym}{}", inner.at(Prec::Unary))
                };
                let mut out = Val::new(
                    code,
                    t,
                    if sym.is_empty() {
                        inner.prec
                    } else {
                        Prec::Unary
                    },
                )
                .absorb(&inner);
                out.konst = k;
                out.bare_literal = inner.bare_literal;
                Ok(out)
            }
        }
    }

    fn binary(&mut self, op: BinOp, l: &Expr, r: &Expr, e: &Expr) -> R<Val> {
        if matches!(op, BinOp::AndAlso | BinOp::OrElse) {
            return self.short_circuit(op, l, r);
        }
        if let Some(m) = self.user_operator(op, l, r, e)? {
            let args = [l, r].map(|x| Arg {
                mode: PassMode::Value,
                expr: x.clone(),
                name: None,
            });
            return self.own_call(&m, None, &args, e);
        }
        let a = self.expr(l, None)?;
        let want_b = if matches!(r.kind, ExprKind::Default(None) | ExprKind::New(None, ..)) {
            Some(a.ty.clone())
        } else {
            None
        };
        let b = self.expr(r, want_b.as_ref())?;
        if op == BinOp::Coalesce {
            return self.coalesce(a, r, e);
        }
        if (a.ty == Ty::Str || b.ty == Ty::Str) && a.ty != Ty::Null && b.ty != Ty::Null {
            return self.string_op(op, a, b, e);
        }
        if super::time::is_time(&a.ty) || super::time::is_time(&b.ty) {
            return self.time_op(op, a, b, e);
        }
        if a.ty == super::bigint::BIG || b.ty == super::bigint::BIG {
            return self.big_op(op, a, b, e);
        }
        if a.ty == Ty::Decimal || b.ty == Ty::Decimal {
            return self.decimal_op(op, a, b, l, r, e);
        }
        if op.is_shift() {
            return self.shift(op, a, b, l, r, e);
        }
        let lifted = matches!(a.ty, Ty::Nullable(_)) || matches!(b.ty, Ty::Nullable(_));
        if op.is_comparison() && (lifted || !a.ty.is_numeric() && !b.ty.is_numeric()) {
            return self.equality(op, a, b, l, r, e);
        }
        if matches!(op, BinOp::And | BinOp::Or | BinOp::Xor) && a.ty == Ty::Bool && b.ty == Ty::Bool
        {
            let prec = op_prec(op);
            let code = format!("{} {} {}", a.at(prec), op.rust(), b.at(next(prec)));
            return Ok(Val::new(code, Ty::Bool, prec).absorb(&a).absorb(&b));
        }
        let t = self.operand_type(&a, &b, op, e)?;
        let enum_result = self.enum_operator(op, &a, &b);
        if (lifted || enum_result.is_some()) && matches!(op, BinOp::Add | BinOp::Sub | BinOp::Mul) {
            self.refuse_if_checked("nullable or enum arithmetic", e)?;
        }
        let a = self.coerce_operand(a, &t, l)?;
        let b = self.coerce_operand(b, &t, r)?;
        let result = if op.is_comparison() {
            Ty::Bool
        } else {
            t.clone()
        };
        let konst = fold_binary(op, &a.konst, &b.konst, &t);
        let (code, prec) = self.arithmetic(op, &a, &b, &t, konst.is_some());
        let mut v = Val::new(code, result, prec).absorb(&a).absorb(&b);
        v.konst = konst;
        match enum_result {
            Some(rt) => self.enum_result(v, &t, rt, e),
            None => Ok(v),
        }
    }

    /// `l && r`, `l || r`: `bool` operands, folded when both are constants.
    fn short_circuit(&mut self, op: BinOp, l: &Expr, r: &Expr) -> R<Val> {
        let a = self.expr(l, Some(&Ty::Bool))?;
        let a = self.coerce(a, &Ty::Bool, l)?;
        let b = self.expr(r, Some(&Ty::Bool))?;
        let b = self.coerce(b, &Ty::Bool, r)?;
        let prec = if op == BinOp::AndAlso {
            Prec::And
        } else {
            Prec::Or
        };
        let code = format!("{} {} {}", a.at(prec), op.rust(), b.at(next(prec)));
        let mut v = Val::new(code, Ty::Bool, prec).absorb(&a).absorb(&b);
        if let (Some(Const::Bool(x)), Some(Const::Bool(y))) = (&a.konst, &b.konst) {
            v.konst = Some(Const::Bool(if op == BinOp::AndAlso {
                *x && *y
            } else {
                *x || *y
            }));
        }
        Ok(v)
    }

    /// The operator of the file's own types that `l op r` calls (ECMA-334 12.4.5): one
    /// whose parameters are the operands' types exactly; other operand types are
    /// refused rather than resolved.
    pub(crate) fn user_operator(
        &mut self,
        op: BinOp,
        l: &Expr,
        r: &Expr,
        e: &Expr,
    ) -> R<Option<super::program::MethodInfo>> {
        let Some(name) = op.method_name() else {
            return Ok(None);
        };
        let declared: Vec<_> = (self.p.types.iter())
            .flat_map(|t| t.methods.iter().filter(|m| m.cs == name))
            .cloned()
            .collect();
        if declared.is_empty() {
            return Ok(None);
        }
        let (learned, pre) = (self.learned.clone(), self.f().pre.clone());
        let tl = self.expr(l, None).map(|v| v.ty);
        let tr = self.expr(r, None).map(|v| v.ty);
        (self.learned, self.f().pre) = (learned, pre);
        let (Ok(tl), Ok(tr)) = (tl, tr) else {
            return Ok(None);
        };
        let own =
            |t: &Ty| matches!(t, Ty::Class(n) | Ty::Struct(n) if self.p.type_index(n).is_some());
        if !own(&tl) && !own(&tr) {
            return Ok(None);
        }
        let exact = declared
            .into_iter()
            .find(|m| m.params.len() == 2 && m.params[0].0 == tl && m.params[1].0 == tr);
        match exact {
            Some(m) => Ok(Some(m)),
            None => Err(unsupported(
                e.span,
                format!(
                    "an operator of the file's own on `{}` and `{}`",
                    tl.cs(),
                    tr.cs()
                ),
                snippet(self.src, e),
            )),
        }
    }

    /// The type of C#'s enum operators (ECMA-334 12.10.5, 12.10.6, 12.13.3): `E + U`,
    /// `U + E`, `E - U` and `E & E`, `E | E`, `E ^ E` are an `E`; `E - E` is its
    /// underlying type `U`.
    fn enum_operator(&self, op: BinOp, a: &Val, b: &Val) -> Option<Ty> {
        let int_for = |x: &Val, enum_ty: &Ty| {
            let u = self.enum_int(enum_ty);
            x.ty.int().is_some()
                && (implicit_numeric(&x.ty, &u)
                    || matches!(x.konst, Some(Const::Int(n))
                        if u.int().is_some_and(|i| n >= i.range().0 && n <= i.range().1)))
        };
        let (ea, eb) = (a.ty.is_enum(), b.ty.is_enum());
        match op {
            BinOp::Add if ea && int_for(b, &a.ty) => Some(a.ty.clone()),
            BinOp::Add if eb && int_for(a, &b.ty) => Some(b.ty.clone()),
            BinOp::Sub if ea && int_for(b, &a.ty) => Some(a.ty.clone()),
            BinOp::Sub if ea && a.ty == b.ty => Some(self.enum_int(&a.ty)),
            BinOp::And | BinOp::Or | BinOp::Xor if ea && a.ty == b.ty => Some(a.ty.clone()),
            _ => None,
        }
    }

    /// `v`, computed in `t`, as the enum operator's result `rt`: the port's enum values
    /// are their underlying integers, so only the width changes (C#'s unchecked
    /// conversion wraps).
    fn enum_result(&self, mut v: Val, t: &Ty, rt: Ty, e: &Expr) -> R<Val> {
        let repr = if rt.is_enum() {
            self.enum_int(&rt)
        } else {
            rt.clone()
        };
        if repr != *t {
            v.code = self.convert_code(t, &repr, &v.at(Prec::Cast), e.span)?;
            v.prec = Prec::Cast;
            v.konst = None;
        }
        v.ty = rt;
        Ok(v)
    }

    /// The type C# computes `a op b` in (binary numeric promotion, with C#'s rule that an
    /// `int` constant converts to any type its value fits).
    fn operand_type(&self, a: &Val, b: &Val, op: BinOp, e: &Expr) -> R<Ty> {
        let num = |t: &Ty| {
            if t.is_enum() {
                Ty::Int(IntTy::I32)
            } else {
                t.clone()
            }
        };
        let (ta, tb) = (num(&a.ty), num(&b.ty));
        // `uint + 1`: overload resolution prefers `uint + uint`, the `int` constant
        // converting to `uint` (ECMA-334 12.6.4.5, better conversion target).
        for (x, tx, other) in [(a, &ta, &tb), (b, &tb, &ta)] {
            if let (Some(Const::Int(n)), Ty::Int(IntTy::I32), Ty::Int(IntTy::U32)) =
                (&x.konst, tx, other)
                && *n >= 0
            {
                return Ok(other.clone());
            }
        }
        if let Some(t) = promote(&ta, &tb) {
            return Ok(t);
        }
        // `ulong & 0xFF`: an `int` constant that fits converts to `ulong` (a `long` one
        // too); the `ulong` operand of `1UL - 1` does not convert to `int`.
        for (x, tx, other) in [(a, &ta, &tb), (b, &tb, &ta)] {
            if let (Some(Const::Int(n)), Some(o)) = (&x.konst, other.int())
                && *n >= 0
                && *n <= o.range().1
                && matches!(
                    (tx, o),
                    (Ty::Int(IntTy::I32), _) | (Ty::Int(IntTy::I64), IntTy::U64)
                )
            {
                return Ok(other.clone());
            }
        }
        Err(self.operands_refused(op, a, b, e))
    }

    /// An operand converted to the operation's type.
    fn coerce_operand(&mut self, v: Val, t: &Ty, x: &Expr) -> R<Val> {
        if v.ty.is_enum() && t.int().is_some() {
            let repr = self.enum_int(&v.ty);
            let v = Val { ty: repr, ..v };
            return self.coerce(v, t, x);
        }
        self.coerce(v, t, x)
    }

    fn enum_int(&self, t: &Ty) -> Ty {
        match t {
            Ty::Enum(n) => Ty::Int(self.p.enum_repr(n)),
            _ => Ty::Int(IntTy::I32),
        }
    }

    fn shift(&mut self, op: BinOp, a: Val, b: Val, l: &Expr, r: &Expr, e: &Expr) -> R<Val> {
        let t = unary_promote(&a.ty)
            .filter(|t| t.int().is_some())
            .ok_or_else(|| {
                unsupported(
                    e.span,
                    format!("a shift of a `{}`", a.ty.cs()),
                    snippet(self.src, e),
                )
            })?;
        let a = self.coerce(a, &t, l)?;
        let bits = t.int().map_or(32, IntTy::bits) as i128;
        let count_ty = unary_promote(&b.ty).unwrap_or(Ty::Int(IntTy::I32));
        let b = self.coerce(b, &count_ty, r)?;
        let (count, masked_const) = match &b.konst {
            // C# masks the count: `1 << 40` on an int is `1 << 8`.
            Some(Const::Int(n)) => {
                let m = n & (bits - 1);
                (m.to_string(), Some(m))
            }
            _ => (format!("({} & {})", b.at(Prec::BitAnd), bits - 1), None),
        };
        let prec = Prec::Shift;
        let code = if op == BinOp::UShr {
            let i = t.int().unwrap_or(IntTy::I32);
            let unsigned = match i {
                IntTy::I32 => "u32",
                IntTy::I64 => "u64",
                _ => i.rust(),
            };
            format!(
                "(({} as {unsigned}) >> {count}) as {}",
                a.at(Prec::Cast),
                i.rust()
            )
        } else {
            format!("{} {} {count}", left(&a, Prec::Shift, op), op.rust())
        };
        let mut v = Val::new(
            code,
            t.clone(),
            if op == BinOp::UShr { Prec::Cast } else { prec },
        )
        .absorb(&a)
        .absorb(&b);
        if let (Some(Const::Int(x)), Some(c), Some(i)) = (&a.konst, masked_const, t.int()) {
            let value = match op {
                BinOp::Shl => i.wrap(x << c),
                BinOp::Shr => i.wrap(x >> c),
                _ => i.wrap((x & ((1i128 << bits) - 1)) >> c),
            };
            v.konst = Some(Const::Int(value));
            if masked_const
                != b.konst.as_ref().and_then(|k| {
                    if let Const::Int(n) = k {
                        Some(*n)
                    } else {
                        None
                    }
                })
                || value != i.wrap(value)
            {
                v.code = int_literal(value, &t, false);
                v.prec = Prec::Primary;
            }
        }
        Ok(v)
    }

    // C#'s equality rules (numeric, lifted nullable, null against value types, moves, references) side by side.
    #[allow(clippy::too_many_lines)]
    fn equality(&mut self, op: BinOp, a: Val, b: Val, l: &Expr, r: &Expr, e: &Expr) -> R<Val> {
        if !matches!(op, BinOp::Eq | BinOp::Ne) {
            if a.ty.is_enum() || b.ty.is_enum() {
                let t = self.enum_int(if a.ty.is_enum() { &a.ty } else { &b.ty });
                let a = self.coerce_operand(a, &t, l)?;
                let b = self.coerce_operand(b, &t, r)?;
                let code = format!(
                    "{} {} {}",
                    left(&a, Prec::BitOr, op),
                    op.rust(),
                    b.at(Prec::BitOr)
                );
                return Ok(Val::new(code, Ty::Bool, Prec::Cmp).absorb(&a).absorb(&b));
            }
            if let Some(v) = self.lifted_relational(op, &a, &b) {
                return Ok(v);
            }
            return Err(self.operands_refused(op, &a, &b, e));
        }
        if let (Ty::TupleClass(_), Ty::TupleClass(_)) = (&a.ty, &b.ty) {
            return self.tuple_class_identity(op, a, b, e);
        }
        if self.p.unit.has_anonymous && matches!(a.ty, Ty::Tuple(..)) {
            // The tuple may be an anonymous type's instance, whose `==` compares references.
            return Err(unsupported(
                e.span,
                "`==` on a tuple in a file with anonymous types",
                snippet(self.src, e),
            ));
        }
        if a.ty == Ty::Null || b.ty == Ty::Null {
            let other = if a.ty == Ty::Null { &b } else { &a };
            let code = match &other.ty {
                Ty::Nullable(t) if **t == Ty::Api("Timer") => {
                    format!("!{}", other.at(Prec::Unary))
                }
                Ty::Nullable(_) => format!("{}.is_none()", other.at(Prec::Primary)),
                Ty::Class(c) if self.p.is_ref_class(c) => {
                    format!("{}.is_null()", other.at(Prec::Primary))
                }
                Ty::Coll("LinkedListNode", _) => format!("{}.is_null()", other.at(Prec::Primary)),
                // `GetPieceList(PieceType.None, ..)` is C#'s null list.
                Ty::Api("PieceList") => format!("cs::list_is_null(&{})", other.at(Prec::Unary)),
                Ty::Api("Board" | "Timer") if !other.effects => {
                    self.warn(e.span, format!("a `{}` compared with `null`: never null in the port (nor in C# when the API gives it)", other.ty.cs()));
                    "false".into()
                }
                Ty::Api("Random") => {
                    return Err(unsupported(
                        e.span,
                        format!(
                            "a `{}` compared with `null` (the port's is never null)",
                            other.ty.cs()
                        ),
                        snippet(self.src, e),
                    ));
                }
                Ty::TupleClass(_) => format!("{}.is_null()", other.at(Prec::Primary)),
                t if t.is_reference() => format!("{}.is_empty()", other.at(Prec::Primary)),
                // A value of a non-nullable value type is never null (C#'s lifted `==`).
                Ty::Api(_) | Ty::Struct(_) | Ty::Int(_) | Ty::Bool | Ty::F64 | Ty::F32
                    if !other.effects =>
                {
                    "false".into()
                }
                _ => {
                    return Err(unsupported(
                        e.span,
                        "a comparison with `null`",
                        snippet(self.src, e),
                    ));
                }
            };
            if matches!(other.ty, Ty::Array(..)) {
                self.warn(e.span, "an array compared with `null`: the port's arrays are never null; an empty array stands for it");
            }
            let code = if op == BinOp::Ne {
                format!("!{code}")
            } else {
                code
            };
            return Ok(Val::new(code, Ty::Bool, Prec::Unary).absorb(other));
        }
        if let (Ty::Nullable(x), y) | (y, Ty::Nullable(x)) = (&a.ty, &b.ty)
            && **x == *y
        {
            // `m == n` with one a `Move?`: C#'s lifted `==`, false when it is null.
            let (opt, plain) = if matches!(a.ty, Ty::Nullable(_)) {
                (&a, &b)
            } else {
                (&b, &a)
            };
            let code = format!("{} {} Some({})", opt.at(Prec::BitOr), op.rust(), plain.code);
            return Ok(Val::new(code, Ty::Bool, Prec::Cmp).absorb(&a).absorb(&b));
        }
        let t = if a.ty == b.ty {
            a.ty.clone()
        } else if a.ty.is_enum() && b.ty.int().is_some() {
            b.ty.clone()
        } else {
            a.ty.clone()
        };
        let a = self.coerce_operand(a, &t, l)?;
        let b = self.coerce_operand(b, &t, r)?;
        let code = format!("{} {} {}", a.at(Prec::BitOr), op.rust(), b.at(Prec::BitOr));
        let mut v = Val::new(code, Ty::Bool, Prec::Cmp).absorb(&a).absorb(&b);
        if let (Some(x), Some(y)) = (&a.konst, &b.konst) {
            v.konst = Some(Const::Bool((x == y) == (op == BinOp::Eq)));
        }
        Ok(v)
    }

    /// `x < y` with `x` or `y` a `T?` and the other a `T` or `T?`: C#'s lifted operator,
    /// false when either is null (ECMA-334 12.4.8).
    fn lifted_relational(&self, op: BinOp, a: &Val, b: &Val) -> Option<Val> {
        let inner = |t: &Ty| match t {
            Ty::Nullable(x) => ((**x).clone(), true),
            t => (t.clone(), false),
        };
        let ((ta, na), (tb, nb)) = (inner(&a.ty), inner(&b.ty));
        if !(na || nb) {
            return None;
        }
        // The operands' binary numeric promotion, as for the operator lifted.
        let t = promote(&ta, &tb).filter(Ty::is_numeric)?;
        let span = crate::error::Span::default();
        let x = self.convert_code(&ta, &t, "x", span).ok()?;
        let y = self.convert_code(&tb, &t, "y", span).ok()?;
        let pat = |n: bool, x: &str| {
            if n {
                format!("Some({x})")
            } else {
                x.to_string()
            }
        };
        let code = format!(
            "match ({}, {}) {{ ({}, {}) => ({x}) {} ({y}), _ => false }}",
            a.code,
            b.code,
            pat(na, "x"),
            pat(nb, "y"),
            op.rust()
        );
        Some(Val::new(code, Ty::Bool, Prec::Primary).absorb(a).absorb(b))
    }

    /// `a ?? b`: `b` is evaluated only when `a` is null.
    fn coalesce(&mut self, a: Val, r: &Expr, e: &Expr) -> R<Val> {
        let Ty::Nullable(inner) = a.ty.clone() else {
            return Err(unsupported(
                e.span,
                format!("`??` on a `{}`", a.ty.cs()),
                snippet(self.src, e),
            ));
        };
        if let ExprKind::Throw(_) = r.kind {
            let code = format!("{}.unwrap_or_else(|| abort_search())", a.at(Prec::Primary));
            return Ok(Val::new(code, (*inner).clone(), Prec::Primary).absorb(&a));
        }
        let b = self.expr(r, Some(&inner))?;
        let b = self.coerce(b, &inner, r)?;
        let b = self.owned(b);
        let code = format!("{}.unwrap_or_else(|| {})", a.at(Prec::Primary), b.code);
        Ok(Val::new(code, (*inner).clone(), Prec::Primary)
            .absorb(&a)
            .absorb(&b))
    }

    fn string_op(&mut self, op: BinOp, a: Val, b: Val, e: &Expr) -> R<Val> {
        match op {
            BinOp::Add => {
                let code = format!(
                    "format!(\"{{}}{{}}\", {}, {})",
                    self.text(&a, e)?,
                    self.text(&b, e)?
                );
                Ok(Val::new(code, Ty::Str, Prec::Primary).absorb(&a).absorb(&b))
            }
            BinOp::Eq | BinOp::Ne => {
                let code = format!("{} {} {}", a.at(Prec::BitOr), op.rust(), b.at(Prec::BitOr));
                Ok(Val::new(code, Ty::Bool, Prec::Cmp).absorb(&a).absorb(&b))
            }
            _ => Err(unsupported(
                e.span,
                "this string operation",
                snippet(self.src, e),
            )),
        }
    }

    fn cond(&mut self, c: &Expr, a: &Expr, b: &Expr, e: &Expr, want: Option<&Ty>) -> R<Val> {
        let cond = self.condition(c)?;
        let x = self.expr(a, want)?;
        let y = self.expr(b, want.or(Some(&x.ty)))?;
        let t = match (&x.ty, &y.ty) {
            (p, q) if p == q => p.clone(),
            // `c ? null : m` of a value type has no natural type; C# types it by its
            // target (C# 9's target-typed conditional).
            (Ty::Null, Ty::Api("Timer")) | (Ty::Api("Timer"), Ty::Null) if matches!(want, Some(Ty::Nullable(w)) if **w == Ty::Api("Timer")) => {
                want.cloned().unwrap_or(Ty::Unknown)
            }
            (Ty::Null, q) | (q, Ty::Null)
                if !q.is_reference()
                    && !matches!(q, Ty::Nullable(_))
                    && matches!(want, Some(Ty::Nullable(_))) =>
            {
                want.cloned().unwrap_or(Ty::Unknown)
            }
            // `T` converts implicitly to `T?`.
            (Ty::Nullable(p), q) | (q, Ty::Nullable(p)) if **p == *q => Ty::Nullable(p.clone()),
            // `var s = c ? null : "x"`: a string that may be null.
            (Ty::Null, Ty::Str) | (Ty::Str, Ty::Null) if want.is_none_or(|w| *w == Ty::Unknown) => {
                Ty::Nullable(Box::new(Ty::Str))
            }
            (Ty::Null, q) => q.clone(),
            (p, Ty::Null) => p.clone(),
            (p, q) if implicit_numeric(q, p) || constant_converts(&y, p) => p.clone(),
            (p, q) if implicit_numeric(p, q) || constant_converts(&x, q) => q.clone(),
            (p, q) => match promote(p, q) {
                Some(t) => t,
                None => match want {
                    Some(w) => w.clone(),
                    None => {
                        return Err(unsupported(
                            e.span,
                            format!("`?:` between `{}` and `{}`", p.cs(), q.cs()),
                            snippet(self.src, e),
                        ));
                    }
                },
            },
        };
        let x = self.coerce(x, &t, a)?;
        let y = self.coerce(y, &t, b)?;
        let x = self.owned(x);
        let y = self.owned(y);
        let code = format!("if {cond} {{ {} }} else {{ {} }}", x.code, y.code);
        let mut v = Val::new(code, t, Prec::Assign).absorb(&x).absorb(&y);
        v.reads_self |= cond.contains("self.");
        Ok(v)
    }

    /// `(T)a.GetValue(i)` of a `T[]`: the element, boxed and unboxed as the same type
    /// (to another type C# throws `InvalidCastException`, so that stays refused).
    fn get_value_as(&mut self, x: &Expr, to: &Ty) -> R<Option<Val>> {
        let ExprKind::Call(callee, args) = &x.kind else {
            return Ok(None);
        };
        let (ExprKind::Member(target, name, _), [index]) = (&callee.kind, args.as_slice()) else {
            return Ok(None);
        };
        if name != "GetValue" || index.mode != PassMode::Value || index.name.is_some() {
            return Ok(None);
        }
        let saved = self.learned.clone();
        let t = self.expr(target, None).map(|v| v.ty);
        self.learned = saved;
        match t {
            Ok(Ty::Array(elem, 1)) if *elem == *to => self
                .index(target, std::slice::from_ref(&index.expr), x)
                .map(Some),
            _ => Ok(None),
        }
    }

    /// `(Array)x`: C#'s untyped array, only ever cast on at once
    /// (`(sbyte[])(Array)bytes` reads the bytes as signed).
    fn cast_to_array(&mut self, x: &Expr, e: &Expr) -> R<Val> {
        let v = self.expr(x, None)?;
        match v.ty {
            Ty::Array(..) => Ok(v),
            _ => Err(unsupported(
                e.span,
                "a cast to `Array`",
                snippet(self.src, e),
            )),
        }
    }

    /// `e as T` where `e` already has type `T` (a class, so `null` stays `null`): the
    /// value itself (ECMA-334 12.12.13, an identity conversion). Others are refused.
    fn as_conversion(&mut self, x: &Expr, t: &TypeRef, e: &Expr) -> R<Val> {
        let to = self.p.resolve(t, &self.type_params, e.span)?;
        let v = self.expr(x, Some(&to))?;
        if v.ty == to && matches!(to, Ty::Class(_)) {
            return Ok(v);
        }
        Err(unsupported(
            e.span,
            format!("an `as` conversion from `{}` to `{}`", v.ty.cs(), to.cs()),
            snippet(self.src, e),
        ))
    }

    /// `(float)BitConverter.ToHalf(bytes, i)` (or `(double)`): the half's value, which
    /// both hold exactly. A `Half` kept as one (its own rounding) is not translated.
    fn half_as_float(&mut self, x: &Expr, to: &Ty) -> R<Option<Val>> {
        let ExprKind::Call(callee, args) = &x.kind else {
            return Ok(None);
        };
        let ExprKind::Member(class, name, _) = &callee.kind else {
            return Ok(None);
        };
        if name != "ToHalf"
            || !matches!(&class.kind, ExprKind::Name(c, _) if c == "BitConverter")
            || !matches!(to, Ty::F32 | Ty::F64)
            || args.len() != 2
        {
            return Ok(None);
        }
        let bytes = self.expr(&args[0].expr, None)?;
        let bytes = self.owned(bytes);
        if bytes.ty != Ty::Array(Box::new(Ty::Int(IntTy::U8)), 1) {
            return Ok(None);
        }
        let at = self.expr(&args[1].expr, None)?;
        let at = self.coerce(at, &Ty::Int(IntTy::I32), &args[1].expr)?;
        let mut code = format!("cs::half_at(&{}, {})", bytes.at(Prec::Unary), at.code);
        if *to == Ty::F64 {
            code = format!("f64::from({code})");
        }
        Ok(Some(
            Val::new(code, to.clone(), Prec::Primary)
                .absorb(&bytes)
                .absorb(&at),
        ))
    }

    // C#'s explicit conversions (ECMA-334 §10.3) in the order the specification lists them.
    #[allow(clippy::too_many_lines)]
    fn cast(&mut self, t: &TypeRef, x: &Expr, e: &Expr) -> R<Val> {
        if matches!(t, TypeRef::Named(n, _) if n == "Array") {
            return self.cast_to_array(x, e);
        }
        let to = self.p.resolve(t, &self.type_params, e.span)?;
        if let Some(v) = self.get_value_as(x, &to)? {
            return Ok(v);
        }
        if let Some(v) = self.half_as_float(x, &to)? {
            return Ok(v);
        }
        let v = self.expr(x, Some(&to))?;
        if v.ty == to {
            return Ok(v);
        }
        if v.konst.is_none() && !implicit_numeric(&v.ty, &to) && to.int().is_some() {
            // A narrowing cast throws out of range there.
            self.refuse_if_checked("an explicit integer conversion", e)?;
        }
        if v.ty == Ty::Nullable(Box::new(to.clone())) {
            // `(Move)m` of a `Move?`: its value; C# throws if it has none, Rust panics.
            return Ok(Val::new(
                format!("{}.unwrap()", v.at(Prec::Primary)),
                to,
                Prec::Primary,
            )
            .absorb(&v));
        }
        if let (Ty::Array(from, 1), Ty::Array(into, 1)) = (&v.ty, &to)
            && from.int().is_some()
            && into.int().is_some()
            && from.int().map(crate::types::IntTy::bits)
                == into.int().map(crate::types::IntTy::bits)
        {
            // `(sbyte[])(Array)bytes`: the same bytes read as another integer type of
            // their size. The port copies them (C# aliases the array; bots only read it).
            let rust = self.rty(into, e.span)?;
            let code = format!(
                "cs::Array::from({}.iter().map(|x| x as {rust}).collect::<Vec<_>>())",
                v.at(Prec::Primary)
            );
            return Ok(Val::new(code, to, Prec::Primary).absorb(&v));
        }
        if let (Ty::Seq(from), Ty::Array(into, 1)) = (&v.ty, &to)
            && from == into
            && is_enum_get_values(x)
        {
            // `(PieceType[])Enum.GetValues(typeof(PieceType))`: C#'s call returns a new
            // array of the values, which the cast only types.
            return Ok(Val::new(
                format!("{}.to_array()", v.at(Prec::Primary)),
                to,
                Prec::Primary,
            )
            .absorb(&v));
        }
        if v.ty == super::bigint::BIG
            && let Some(i) = to.int()
        {
            return self.big_to_int(v, i);
        }
        if to == super::bigint::BIG && matches!(v.ty, Ty::Int(_) | Ty::Char) {
            return Ok(self.int_to_big(v));
        }
        if to == Ty::Api("BigInteger") && v.ty == Ty::Decimal {
            return Ok(Val::new(
                format!(
                    "cs::BigInteger::from_decimal({}.get_bits())",
                    v.at(Prec::Primary)
                ),
                to,
                Prec::Primary,
            )
            .absorb(&v));
        }
        if v.ty == Ty::Decimal || to == Ty::Decimal {
            return self.decimal_cast(v, &to, e);
        }
        let k = match (&v.konst, to.int(), &to) {
            (Some(Const::Int(n)), Some(i), _) => Some(Const::Int(i.wrap(*n))),
            // Out of the target's range .NET's result is the runtime's, not a constant's.
            (Some(Const::Float(f)), Some(i), _)
                if i.wrap(f.trunc() as i128) as f64 == f.trunc() =>
            {
                Some(Const::Int(i.wrap(*f as i128)))
            }
            (Some(Const::Int(n)), None, Ty::F32 | Ty::F64) => Some(Const::Float(*n as f64)),
            (Some(Const::Float(f)), None, Ty::F32 | Ty::F64) => Some(Const::Float(*f)),
            _ => None,
        };
        let from = if v.ty.is_enum() {
            self.enum_int(&v.ty)
        } else {
            v.ty.clone()
        };
        let to_num = if to.is_enum() {
            self.enum_int(&to)
        } else {
            to.clone()
        };
        if !(from.is_numeric() && to_num.is_numeric()) {
            if let (Ty::Null, _) = (&from, &to) {
                return Ok(Val::new("None", to, Prec::Primary));
            }
            return Err(unsupported(
                e.span,
                format!("a conversion from `{}` to `{}`", v.ty.cs(), to.cs()),
                snippet(self.src, e),
            ));
        }
        let code = self.convert_code(&from, &to_num, &v.at(Prec::Cast), e.span)?;
        let mut out = Val::new(
            code.clone(),
            to,
            if code == v.code { v.prec } else { Prec::Cast },
        )
        .absorb(&v);
        out.konst = k;
        Ok(out)
    }

    /// The Rust code converting `code` (of type `from`) to `to`.
    pub(crate) fn convert_code(
        &self,
        from: &Ty,
        to: &Ty,
        code: &str,
        span: crate::error::Span,
    ) -> R<String> {
        if from == to {
            return Ok(code.to_string());
        }
        let rust_to = self.rty(to, span)?;
        let rust_from = self.rty(from, span)?;
        if rust_to == rust_from {
            return Ok(code.to_string());
        }
        if matches!(from, Ty::F32 | Ty::F64) && (to.int().is_some() || *to == Ty::Char) {
            // Rust's `as` saturates; .NET gives `int.MinValue` and such (`cs::float_to`).
            return Ok(format!("cs::float_to::<{rust_to}>({})", unparen(code)));
        }
        Ok(format!("{code} as {rust_to}"))
    }

    /// `v` converted implicitly to `to`, as C# converts an assigned value, an argument,
    /// a returned value or an operand; an error where C# has no implicit conversion.
    // C#'s implicit conversions (ECMA-334 §10.2) in the order the specification lists them.
    #[allow(clippy::too_many_lines)]
    pub(crate) fn coerce(&mut self, mut v: Val, to: &Ty, e: &Expr) -> R<Val> {
        if let ExprKind::This = e.kind {
            match &v.ty {
                // A class's methods take `&self`; the shared `cs::Obj` C#'s `this` is
                // comes from the instance's `cs::This`.
                Ty::Class(name) if self.p.is_ref_class(name) && !self.fr().bot_level => {
                    self.learned.this_value.insert(name.clone());
                    v.code = format!("self.{}.get()", super::items::THIS_FIELD);
                    v.place = false;
                }
                Ty::Class(_) => {
                    return Err(unsupported(
                        e.span,
                        "`this` of a class passed or stored as a value",
                        "this",
                    ));
                }
                // A struct's `this` as a value is a copy of it.
                t if self.p.is_copy(t) => {
                    v.code = "*self".into();
                    v.prec = Prec::Unary;
                }
                _ => {}
            }
        }
        if v.ty == *to || *to == Ty::Unknown {
            return Ok(v);
        }
        if crate::types::same_shape(&v.ty, to) {
            // The same type with other tuple element names.
            return Ok(Val {
                ty: to.clone(),
                ..v
            });
        }
        let from = v.ty.clone();
        match (&from, to) {
            (Ty::Null | Ty::Api("Timer"), Ty::Nullable(t)) if **t == Ty::Api("Timer") => {
                self.timer_presence(v, e)
            }
            // The port's `Timer` is always the bot's: a null one would be read as it.
            (Ty::Nullable(t), Ty::Api("Timer")) if **t == Ty::Api("Timer") => Err(unsupported(
                e.span,
                "a `Timer?` that may be null where C# expects a `Timer`",
                snippet(self.src, e),
            )),
            (Ty::Int(_) | Ty::Char, t) if *t == super::bigint::BIG => Ok(self.int_to_big(v)),
            (Ty::Int(_) | Ty::Char, Ty::F32 | Ty::F64)
            | (Ty::F32, Ty::F64)
            | (Ty::Int(_) | Ty::Char, Ty::Int(_)) => self.numeric_coerce(v, to, e),
            (Ty::Int(_) | Ty::Char, Ty::Decimal) => Ok(self.int_to_decimal(v)),
            (Ty::Enum(_) | Ty::Api("PieceType"), Ty::Int(_))
                if v.konst == Some(Const::Int(0)) || self.enum_int(&from) == *to =>
            {
                Ok(Val {
                    ty: to.clone(),
                    ..v
                })
            }
            (Ty::Int(_), Ty::Enum(_) | Ty::Api("PieceType")) if v.konst == Some(Const::Int(0)) => {
                Ok(Val {
                    ty: to.clone(),
                    ..v
                })
            }
            (Ty::Null, Ty::Nullable(_)) => Ok(Val {
                ty: to.clone(),
                ..v
            }),
            (_, Ty::Nullable(inner)) if **inner == from => {
                // A place of a type not `Copy` (a string) is cloned, not moved, into `Some`.
                let v = self.owned(v);
                let code = format!("Some({})", v.code);
                Ok(Val {
                    code,
                    ty: to.clone(),
                    prec: Prec::Primary,
                    ..v
                })
            }
            (_, Ty::Nullable(inner)) => {
                let inner_v = self.coerce(v, inner, e)?;
                let code = format!("Some({})", inner_v.code);
                Ok(Val {
                    code,
                    ty: to.clone(),
                    prec: Prec::Primary,
                    ..inner_v
                })
            }
            (Ty::Array(a, 1) | Ty::List(a) | Ty::Set(a), Ty::Seq(b)) if a == b => {
                let code = format!("{}.linq()", v.at(Prec::Primary));
                Ok(Val {
                    code,
                    ty: to.clone(),
                    prec: Prec::Primary,
                    place: false,
                    ..v
                })
            }
            (Ty::Seq(a), Ty::Seq(b)) if a == b || **b == Ty::Unknown => Ok(v),
            (Ty::Api("PieceList"), Ty::Seq(_)) => {
                let code = format!("cs::Seq::from(cs::Piece::in_list(&{}))", v.at(Prec::Unary));
                Ok(Val {
                    code,
                    ty: Ty::Seq(Box::new(Ty::Api("Piece"))),
                    prec: Prec::Primary,
                    place: false,
                    ..v
                })
            }
            (Ty::Array(..) | Ty::List(_) | Ty::Set(_), Ty::Seq(b)) if **b == Ty::Unknown => Ok(v),
            (Ty::Tuple(xs, _), Ty::Tuple(ys, names)) if xs == ys => Ok(Val {
                ty: Ty::Tuple(ys.clone(), names.clone()),
                ..v
            }),
            (Ty::Null, Ty::Array(..) | Ty::List(_) | Ty::Dict(..) | Ty::Set(_) | Ty::Seq(_)) => {
                self.warn(e.span, "`null` for a collection: the port's collections are never null, an empty one stands for it");
                Ok(Val {
                    code: "Default::default()".into(),
                    ty: to.clone(),
                    prec: Prec::Primary,
                    ..v
                })
            }
            (Ty::Null, Ty::Coll("LinkedListNode", _)) => Ok(Val {
                code: "cs::LinkedListNode::null()".into(),
                ty: to.clone(),
                prec: Prec::Primary,
                ..v
            }),
            (Ty::Null, Ty::TupleClass(_)) => Ok(Val {
                code: "cs::Tuple::null()".into(),
                ty: to.clone(),
                prec: Prec::Primary,
                ..v
            }),
            (Ty::Null, Ty::Class(c)) if self.p.is_ref_class(c) => Ok(Val {
                code: "cs::Obj::null()".into(),
                ty: to.clone(),
                prec: Prec::Primary,
                ..v
            }),
            (Ty::Class(_), Ty::Object) | (Ty::Null, _) if to.is_reference() => {
                if from == Ty::Null {
                    return Err(unsupported(
                        e.span,
                        format!("`null` as a `{}`", to.cs()),
                        snippet(self.src, e),
                    ));
                }
                Ok(v)
            }
            _ => Err(unsupported(
                e.span,
                format!("a `{}` where C# expects a `{}`", from.cs(), to.cs()),
                snippet(self.src, e),
            )),
        }
    }

    /// A `null` or the bot's timer as a `Timer?`, which the port holds as whether it
    /// is null.
    fn timer_presence(&mut self, v: Val, e: &Expr) -> R<Val> {
        if v.effects {
            return Err(unsupported(
                e.span,
                "a `Timer` with side effects as a `Timer?`",
                snippet(self.src, e),
            ));
        }
        let code = if v.ty == Ty::Null { "false" } else { "true" };
        let ty = Ty::Nullable(Box::new(Ty::Api("Timer")));
        Ok(Val::new(code, ty, Prec::Primary))
    }

    /// A `T?` of a reference type (a `Random` or array field that may be null) read for
    /// a member, an element or as a `T`: its value, panicking where C# throws
    /// `NullReferenceException`. A generator is borrowed in place (a copy would draw
    /// its own numbers), so only from a field of the bot's struct; an array is shared.
    pub(crate) fn non_null(&mut self, v: Val, e: &Expr) -> R<Val> {
        let Ty::Nullable(inner) = &v.ty else {
            return Ok(v);
        };
        let inner = (**inner).clone();
        let code = match &inner {
            // A `Timer?` is whether it is null; when not, it is the bot's one timer.
            Ty::Api("Timer") => {
                let timer = self.bot_board_or_timer(&inner);
                let code = format!(
                    "(if {} {{ &{} }} else {{ panic!(\"NullReferenceException\") }})",
                    v.at(Prec::Primary),
                    timer.code
                );
                let mut out = Val::new(code, inner, Prec::Primary)
                    .absorb(&v)
                    .absorb(&timer);
                out.place = false;
                return Ok(out);
            }
            Ty::Api("Random") if v.place && !v.code.ends_with(".get()") => format!(
                "{}.as_mut().expect(\"NullReferenceException\")",
                v.at(Prec::Primary)
            ),
            // A `Var`'s `get()` is already a copy of the (shared) reference.
            Ty::Array(..) | Ty::Str if v.code.ends_with(".get()") => {
                format!("{}.expect(\"NullReferenceException\")", v.code)
            }
            // An array's clone shares it; a string's copies an immutable value.
            Ty::Array(..) | Ty::Str => format!(
                "{}.clone().expect(\"NullReferenceException\")",
                v.at(Prec::Primary)
            ),
            t if t.is_reference() => {
                return Err(unsupported(
                    e.span,
                    format!("a `{}` that may be null, read here", t.cs()),
                    snippet(self.src, e),
                ));
            }
            _ => return Ok(v),
        };
        let mut out = Val::new(code, inner, Prec::Primary).absorb(&v);
        out.place = false;
        Ok(out)
    }

    /// `x?.F` of a class instance: the target evaluated once; null when it is null,
    /// else its member (a value type's wrapped in `T?`, ECMA-334 12.8.8).
    fn null_member_of_class(&mut self, target: &Expr, name: &str, e: &Expr) -> R<Val> {
        let recv = self.expr(target, None)?;
        let recv = self.owned(recv);
        let tmp = self.temp("receiver");
        let mut named = Val::new(tmp.clone(), recv.ty.clone(), Prec::Primary);
        named.place = true;
        let member = self.instance_member_of(named, name, e)?;
        let member = self.owned(member);
        let (some, ty) = match &member.ty {
            Ty::Nullable(_) => (member.code.clone(), member.ty.clone()),
            t if !t.is_reference() && !matches!(t, Ty::Void | Ty::Unknown) => (
                format!("Some({})", member.code),
                Ty::Nullable(Box::new(t.clone())),
            ),
            t => {
                return Err(unsupported(
                    e.span,
                    format!("`?.` giving a `{}` of a class instance", t.cs()),
                    snippet(self.src, e),
                ));
            }
        };
        let code = format!(
            "{{ let {tmp} = {}; if {tmp}.is_null() {{ None }} else {{ {some} }} }}",
            recv.code
        );
        let mut v = Val::new(code, ty, Prec::Primary)
            .absorb(&recv)
            .absorb(&member);
        v.place = false;
        Ok(v)
    }

    fn numeric_coerce(&mut self, v: Val, to: &Ty, e: &Expr) -> R<Val> {
        let from = v.ty.clone();
        if let Some(Const::Int(n)) = v.konst {
            let fits = match to.int() {
                Some(i) => n >= i.range().0 && n <= i.range().1,
                None => true,
            };
            // C#'s implicit constant conversions (ECMA-334 10.2.11): an `int` constant to
            // any integer type it fits, a non-negative `long` constant to `ulong`.
            let constant_fits = fits
                && (from == Ty::Int(IntTy::I32)
                    || from == Ty::Int(IntTy::I64) && *to == Ty::Int(IntTy::U64));
            let literal_fits = fits && from.int().is_some() && to.int().is_some() && v.bare_literal;
            if !(implicit_numeric(&from, to) || constant_fits || literal_fits) {
                return Err(unsupported(
                    e.span,
                    format!("a `{}` where C# expects a `{}`", from.cs(), to.cs()),
                    snippet(self.src, e),
                ));
            }
            if v.bare_literal || v.prec == Prec::Primary && is_plain_literal(&v.code) {
                // A literal: written in the target type.
                let code = if matches!(to, Ty::F32 | Ty::F64) {
                    int_literal(n, to, *to == Ty::F64)
                } else {
                    relabel_literal(&v.code, to)
                };
                let mut out = Val {
                    code,
                    ty: to.clone(),
                    ..v
                };
                out.bare_literal = *to == Ty::F64 || to.int().is_some();
                if *to == Ty::F32 {
                    out.code = format!("{n}.0_f32");
                }
                return Ok(out);
            }
            let code = self.convert_code(&from, to, &v.at(Prec::Cast), e.span)?;
            let mut out = Val {
                code,
                ty: to.clone(),
                prec: Prec::Cast,
                ..v
            };
            out.konst = Some(Const::Int(n));
            return Ok(out);
        }
        if let Some(Const::Float(f)) = v.konst
            && *to == Ty::F64
        {
            let _ = f;
            let code = v.code.trim_end_matches("_f32").to_string();
            return Ok(Val {
                code: format!("{code} as f64"),
                ty: to.clone(),
                prec: Prec::Cast,
                ..v
            });
        }
        if !implicit_numeric(&from, to) {
            return Err(unsupported(
                e.span,
                format!(
                    "a `{}` where C# expects a `{}` (an explicit cast in C#)",
                    from.cs(),
                    to.cs()
                ),
                snippet(self.src, e),
            ));
        }
        let code = self.convert_code(&from, to, &v.at(Prec::Cast), e.span)?;
        let prec = if code == v.code { v.prec } else { Prec::Cast };
        Ok(Val {
            code,
            ty: to.clone(),
            prec,
            bare_literal: false,
            ..v
        })
    }

    /// The constant value of `e` as a `t`, if C# folds it.
    pub(crate) fn fold_const(&mut self, e: &Expr, t: &Ty) -> Option<Const> {
        let saved = std::mem::take(&mut self.warnings);
        let depth = self.fns.len();
        if depth == 0 {
            self.enter_fn("const".into(), self.p.bot, Ty::Void, false, true);
        }
        let v = self
            .expr(e, Some(t))
            .ok()
            .and_then(|v| self.coerce(v, t, e).ok());
        if depth == 0 {
            self.leave_fn();
        }
        self.warnings = saved;
        v.and_then(|v| v.konst)
    }

    /// A `const` item's value: a literal of its type.
    pub(crate) fn const_item_value(
        &mut self,
        e: &Expr,
        t: &Ty,
        span: crate::error::Span,
    ) -> R<String> {
        match self.fold_const(e, t) {
            Some(Const::Int(n)) => Ok(int_literal(n, t, true)),
            Some(Const::Float(f)) => Ok(format_float(f, t)),
            Some(Const::Bool(b)) => Ok(b.to_string()),
            Some(Const::Str(s)) => Ok(format!("{s:?}")),
            _ => Err(unsupported(
                span,
                "a constant this translator cannot compute",
                snippet(self.src, e),
            )),
        }
    }

    /// A constant as a `match` pattern.
    pub(crate) fn const_pattern(&self, k: &Const, t: &Ty, e: &Expr) -> R<String> {
        Ok(match k {
            Const::Int(n) => int_literal(*n, t, true),
            Const::Bool(b) => b.to_string(),
            Const::Str(s) => format!("{s:?}"),
            _ => {
                return Err(unsupported(
                    e.span,
                    "this `case` constant",
                    snippet(self.src, e),
                ));
            }
        })
    }

    /// A tuple, its elements converted to the wanted tuple's types.
    pub(crate) fn tuple(&mut self, items: &[Expr], e: &Expr, want: Option<&Ty>) -> R<Val> {
        let wanted: Option<(Vec<Ty>, Vec<Option<String>>)> = match want {
            Some(Ty::Tuple(ts, ns)) if ts.len() == items.len() => Some((ts.clone(), ns.clone())),
            _ => None,
        };
        let mut codes = Vec::new();
        let mut tys = Vec::new();
        let mut acc = Val::new("", Ty::Void, Prec::Primary);
        for (i, item) in items.iter().enumerate() {
            let w = wanted.as_ref().map(|(ts, _)| ts[i].clone());
            let v = self.expr(item, w.as_ref())?;
            let v = match &w {
                Some(w) => self.coerce(v, w, item)?,
                None => v,
            };
            let v = self.owned(v);
            acc = acc.absorb(&v);
            tys.push(v.ty.clone());
            codes.push(v.code);
        }
        let names = wanted
            .map(|(_, n)| n)
            .unwrap_or_else(|| vec![None; items.len()]);
        let _ = e;
        acc.code = format!("({})", codes.join(", "));
        acc.ty = Ty::Tuple(tys, names);
        Ok(acc)
    }

    /// `(p, q)` on a tuple: each element matching its pattern, left to right (a tuple
    /// has no `Deconstruct` of its own; other types' are not translated).
    fn positional_cond(&mut self, items: &[Pattern], subject: &str, t: &Ty, e: &Expr) -> R<String> {
        let Ty::Tuple(tys, _) = t else {
            return Err(unsupported(
                e.span,
                format!("a positional pattern on a `{}`", t.cs()),
                snippet(self.src, e),
            ));
        };
        if tys.len() != items.len() {
            return Err(unsupported(
                e.span,
                "a positional pattern of another arity",
                snippet(self.src, e),
            ));
        }
        let mut conds = Vec::new();
        for (i, (p, ty)) in items.iter().zip(tys).enumerate() {
            let elem = format!("{subject}.{i}");
            conds.push(self.pattern_cond(p, &elem, ty, e)?);
        }
        Ok(format!("({})", conds.join(" && ")))
    }

    fn is_pattern(&mut self, x: &Expr, p: &Pattern, e: &Expr) -> R<Val> {
        let v = self.expr(x, None)?;
        let v = self.owned(v);
        let needs_temp = v.effects
            || !matches!(
                p,
                Pattern::Const(_) | Pattern::Type(..) | Pattern::Var(_) | Pattern::Discard
            );
        let (subject, setup) = if needs_temp {
            let t = self.temp("value");
            (t.clone(), format!("let {t} = {}; ", v.code))
        } else {
            (v.at(Prec::BitOr), String::new())
        };
        let cond = self.pattern_cond(p, &subject, &v.ty, e)?;
        let code = if setup.is_empty() {
            cond
        } else {
            format!("{{ {setup}{cond} }}")
        };
        Ok(Val::new(
            code,
            Ty::Bool,
            if setup.is_empty() {
                Prec::Cmp
            } else {
                Prec::Primary
            },
        )
        .absorb(&v))
    }

    /// A pattern's test of `subject` (of type `t`) as a Rust condition.
    // One arm per C# pattern kind.
    #[allow(clippy::too_many_lines)]
    pub(crate) fn pattern_cond(
        &mut self,
        p: &Pattern,
        subject: &str,
        t: &Ty,
        e: &Expr,
    ) -> R<String> {
        Ok(match p {
            Pattern::Discard => "true".into(),
            Pattern::Const(c) => {
                if matches!(c.kind, ExprKind::Null) {
                    return Ok(match t {
                        Ty::Nullable(_) => format!("{subject}.is_none()"),
                        Ty::Class(c) if self.p.is_ref_class(c) => format!("{subject}.is_null()"),
                        Ty::Array(..) | Ty::List(_) | Ty::Dict(..) | Ty::Set(_) => {
                            format!("{subject}.is_empty()")
                        }
                        Ty::Api(_) | Ty::Struct(_) => "false".into(),
                        _ => {
                            return Err(unsupported(
                                e.span,
                                "`is null` on this type",
                                snippet(self.src, e),
                            ));
                        }
                    });
                }
                let v = self.expr(c, Some(t))?;
                let v = self.coerce(v, t, c)?;
                format!("{subject} == {}", v.at(Prec::BitOr))
            }
            Pattern::Relational(op, c) => {
                let v = self.expr(c, Some(t))?;
                let v = self.coerce(v, t, c)?;
                format!("{subject} {} {}", op.rust(), v.at(Prec::BitOr))
            }
            Pattern::Not(inner) => format!("!({})", self.pattern_cond(inner, subject, t, e)?),
            Pattern::Property(ty, subs) => {
                if let Some(tr) = ty {
                    let pt = self.p.resolve(tr, &self.type_params, e.span)?;
                    if pt != *t {
                        return Err(unsupported(
                            e.span,
                            format!("a property pattern of a `{}` on a `{}`", pt.cs(), t.cs()),
                            snippet(self.src, e),
                        ));
                    }
                }
                let mut conds = Vec::new();
                for (path, pattern) in subs {
                    let mut v = Val::new(subject.to_string(), t.clone(), Prec::Primary);
                    for name in path {
                        v = self.instance_member_of(v, name, e)?;
                    }
                    let code = if v.prec == Prec::Cast {
                        format!("({})", v.code)
                    } else {
                        v.at(Prec::BitOr)
                    };
                    conds.push(self.pattern_cond(pattern, &code, &v.ty.clone(), e)?);
                }
                if conds.is_empty() {
                    "true".into()
                } else {
                    format!("({})", conds.join(" && "))
                }
            }
            Pattern::Positional(items) => self.positional_cond(items, subject, t, e)?,
            Pattern::And(a, b) => format!(
                "({} && {})",
                self.pattern_cond(a, subject, t, e)?,
                self.pattern_cond(b, subject, t, e)?
            ),
            Pattern::Or(a, b) => format!(
                "({} || {})",
                self.pattern_cond(a, subject, t, e)?,
                self.pattern_cond(b, subject, t, e)?
            ),
            Pattern::Type(tr, name) => {
                let pt = self.p.resolve(tr, &self.type_params, e.span)?;
                let inner = match t {
                    Ty::Nullable(inner) => (**inner).clone(),
                    other => other.clone(),
                };
                if pt != inner {
                    return Err(unsupported(
                        e.span,
                        format!("a type test of a `{}` for `{}`", t.cs(), pt.cs()),
                        snippet(self.src, e),
                    ));
                }
                // A type test is false on null (ECMA-334, "The is operator").
                let nullable = matches!(t, Ty::Nullable(_));
                match name {
                    None if nullable => format!("{subject}.is_some()"),
                    None => "true".into(),
                    Some(n) => {
                        let l = self.declare(n, pt.clone(), LocalKind::Value);
                        let rust_ty = self.rty(&pt, e.span)?;
                        let default = self.default_value(&pt, e.span)?;
                        self.f()
                            .pre
                            .push(format!("let mut {}: {rust_ty} = {default};\n", l.rust));
                        if nullable {
                            let x = self.temp("value");
                            format!(
                                "{{ let {x} = {subject}.clone(); if let Some({x}) = {x} {{ {} = {x}; true }} else {{ false }} }}",
                                l.rust
                            )
                        } else {
                            format!("{{ {} = {subject}; true }}", l.rust)
                        }
                    }
                }
            }
            Pattern::Var(n) => {
                let l = self.declare(n, t.clone(), LocalKind::Value);
                let rust_ty = self.rty(t, e.span)?;
                let default = self.default_value(t, e.span)?;
                self.f()
                    .pre
                    .push(format!("let mut {}: {rust_ty} = {default};\n", l.rust));
                format!("{{ {} = {subject}; true }}", l.rust)
            }
        })
    }

    fn switch_expr(
        &mut self,
        x: &Expr,
        arms: &[(Pattern, Option<Expr>, Expr)],
        e: &Expr,
        want: Option<&Ty>,
    ) -> R<Val> {
        let v = self.expr(x, None)?;
        let v = self.owned(v);
        let subject = self.temp("value");
        let mut out_ty: Option<Ty> = want.cloned();
        let mut values = Vec::new();
        for (_, _, result) in arms {
            let r = self.expr(result, out_ty.as_ref())?;
            if out_ty.is_none() && r.ty != Ty::Null && !matches!(result.kind, ExprKind::Throw(_)) {
                out_ty = Some(r.ty.clone());
            }
            values.push(r);
        }
        let mut t = out_ty.ok_or_else(|| {
            unsupported(
                e.span,
                "a switch expression without a type",
                snippet(self.src, e),
            )
        })?;
        if t == Ty::Str
            && want.is_none_or(|w| *w == Ty::Unknown)
            && values.iter().any(|r| r.ty == Ty::Null)
        {
            // `var s = x switch { .., _ => null }`: a string that may be null.
            t = Ty::Nullable(Box::new(Ty::Str));
        }
        let mut acc = Val::new("", t.clone(), Prec::Assign).absorb(&v);
        let mut code = format!("{{\n    let {subject} = {};\n    ", v.code);
        let mut first = true;
        for ((pattern, guard, result), r) in arms.iter().zip(values) {
            let r = if matches!(result.kind, ExprKind::Throw(_)) {
                r
            } else {
                self.coerce(r, &t, result)?
            };
            let r = self.owned(r);
            acc = acc.absorb(&r);
            let mut cond = self.pattern_cond(pattern, &subject, &v.ty, e)?;
            if let Some(g) = guard {
                cond = format!("{cond} && {}", self.condition(g)?);
            }
            let branch = if cond == "true" {
                format!("{{ {} }}", r.code)
            } else {
                format!("if {cond} {{ {} }} else ", r.code)
            };
            code.push_str(&branch);
            first = false;
            if cond == "true" {
                break;
            }
        }
        if !code.trim_end().ends_with('}') || code.trim_end().ends_with("else") {
            code.push_str("{ panic!(\"no switch arm matches\") }");
        }
        let _ = first;
        code.push_str("\n}");
        acc.code = code;
        acc.prec = Prec::Primary;
        Ok(acc)
    }
}

/// A left operand's code: `x as i64 < y` and `x as u64 << 3` read as generics to
/// Rust, so a cast before `<` or `<<` keeps parentheses.
fn left(a: &Val, prec: Prec, op: BinOp) -> String {
    let ends_with_cast = a
        .code
        .rsplit_once(" as ")
        .is_some_and(|(_, t)| t.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'));
    if ends_with_cast && matches!(op, BinOp::Lt | BinOp::Le | BinOp::Shl) {
        format!("({})", a.code)
    } else {
        a.at(prec)
    }
}

/// Whether `code` is one integer literal (`42`, `0xFF_u64`, `0b1010`).
fn is_plain_literal(code: &str) -> bool {
    !code.is_empty()
        && code.starts_with(|c: char| c.is_ascii_digit())
        && code.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// An integer literal's code given another integer type: its digits, the new suffix.
fn relabel_literal(code: &str, to: &Ty) -> String {
    let digits = match code.rfind("_") {
        Some(i) if code[i + 1..].starts_with(['i', 'u']) => &code[..i],
        _ => code,
    };
    match to {
        Ty::Int(IntTy::I32) => digits.to_string(),
        Ty::Int(i) => format!("{digits}_{}", i.rust()),
        _ => digits.to_string(),
    }
}

/// `v` with the constant value `k`.
pub(crate) fn konst(mut v: Val, k: Const) -> Val {
    v.konst = Some(k);
    v
}

/// The Rust precedence of a binary operator.
pub(crate) fn op_prec(op: BinOp) -> Prec {
    match op {
        BinOp::Mul | BinOp::Div | BinOp::Rem => Prec::Mul,
        BinOp::Add | BinOp::Sub => Prec::Add,
        BinOp::Shl | BinOp::Shr | BinOp::UShr => Prec::Shift,
        BinOp::And => Prec::BitAnd,
        BinOp::Xor => Prec::BitXor,
        BinOp::Or => Prec::BitOr,
        BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => Prec::Cmp,
        BinOp::AndAlso => Prec::And,
        BinOp::OrElse => Prec::Or,
        BinOp::Coalesce => Prec::Assign,
    }
}

/// The precedence a right operand needs (one tighter: Rust's operators are left
/// associative, and comparisons do not chain).
pub(crate) fn next(p: Prec) -> Prec {
    match p {
        Prec::Assign => Prec::Range,
        Prec::Range => Prec::Or,
        Prec::Or => Prec::And,
        Prec::And => Prec::Cmp,
        Prec::Cmp => Prec::BitOr,
        Prec::BitOr => Prec::BitXor,
        Prec::BitXor => Prec::BitAnd,
        Prec::BitAnd => Prec::Shift,
        Prec::Shift => Prec::Add,
        Prec::Add => Prec::Mul,
        Prec::Mul => Prec::Cast,
        Prec::Cast => Prec::Unary,
        Prec::Unary | Prec::Primary => Prec::Primary,
    }
}

fn fold_binary(op: BinOp, a: &Option<Const>, b: &Option<Const>, t: &Ty) -> Option<Const> {
    match (a.as_ref()?, b.as_ref()?) {
        (Const::Int(x), Const::Int(y)) => {
            let i = t.int()?;
            let (x, y) = (*x, *y);
            Some(match op {
                BinOp::Add => Const::Int(i.wrap(x + y)),
                BinOp::Sub => Const::Int(i.wrap(x - y)),
                BinOp::Mul => Const::Int(i.wrap(x.checked_mul(y)?)),
                BinOp::Div if y != 0 => Const::Int(i.wrap(x / y)),
                BinOp::Rem if y != 0 => Const::Int(i.wrap(x % y)),
                BinOp::And => Const::Int(i.wrap(x & y)),
                BinOp::Or => Const::Int(i.wrap(x | y)),
                BinOp::Xor => Const::Int(i.wrap(x ^ y)),
                BinOp::Eq => Const::Bool(x == y),
                BinOp::Ne => Const::Bool(x != y),
                BinOp::Lt => Const::Bool(x < y),
                BinOp::Le => Const::Bool(x <= y),
                BinOp::Gt => Const::Bool(x > y),
                BinOp::Ge => Const::Bool(x >= y),
                _ => return None,
            })
        }
        (Const::Float(_) | Const::Int(_), Const::Float(_) | Const::Int(_)) => {
            let f = |k: &Const| match k {
                Const::Float(f) => *f,
                Const::Int(n) => *n as f64,
                _ => 0.0,
            };
            let (x, y) = (f(a.as_ref()?), f(b.as_ref()?));
            let x = if *t == Ty::F32 { x as f32 as f64 } else { x };
            Some(match op {
                BinOp::Add => Const::Float(x + y),
                BinOp::Sub => Const::Float(x - y),
                BinOp::Mul => Const::Float(x * y),
                BinOp::Div => Const::Float(x / y),
                _ => return None,
            })
        }
        _ => None,
    }
}

/// A float constant as a Rust literal of type `t`.
pub(crate) fn format_float(f: f64, t: &Ty) -> String {
    let mut s = format!("{f:?}");
    if !s.contains(['.', 'e', 'E']) && !s.contains("inf") && !s.contains("NaN") {
        s.push_str(".0");
    }
    if *t == Ty::F32 { format!("{s}_f32") } else { s }
}

/// A decimal constant as `decimal.GetBits` gives it: `[lo, mid, hi, flags]`, the flags
/// holding the scale in bits 16-23 and the sign in bit 31 (Microsoft's documentation of
/// `Decimal.GetBits`).
pub(crate) fn decimal_code(d: &Const) -> String {
    let Const::Decimal(value, scale, negative) = d else {
        return String::new();
    };
    let word = |shift: u32| ((value >> shift) & 0xFFFF_FFFF) as u32 as i32;
    let flags = (scale << 16) | if *negative { 1 << 31 } else { 0 };
    let flags = if *negative {
        format!("0x{flags:X}_u32 as i32")
    } else if flags == 0 {
        "0".into()
    } else {
        format!("0x{flags:X}")
    };
    format!(
        "cs::Decimal::from_bits([{}, {}, {}, {flags}])",
        word(0),
        word(32),
        word(64)
    )
}

/// A decimal literal's 96-bit integer and scale, as .NET stores `123.45m` (12345, 2),
/// trailing zeros kept (`1.50m` is 150, 2). The C# compiler reads a literal with
/// `decimal.TryParse` (Roslyn's lexer), whose `NumberToDecimal` keeps the digits that fit
/// 96 bits and 28 places and rounds the rest half to even, the whole tail deciding a
/// tie: `0.61803398874989484820458683436563m` is `0.6180339887498948482045868344m`.
/// `None` for a literal beyond the decimal's range (a compile error in C#).
pub(crate) fn parse_decimal(text: &str) -> Option<Const> {
    const LIMIT: u128 = 1 << 96;
    let text = text.trim();
    // In i64: an exponent near i32's ends must not wrap the point's place around.
    let (mantissa, exponent) = match text.find(['e', 'E']) {
        Some(i) => (&text[..i], i64::from(text[i + 1..].parse::<i32>().ok()?)),
        None => (text, 0),
    };
    let (int_part, frac) = match mantissa.find('.') {
        Some(i) => (&mantissa[..i], &mantissa[i + 1..]),
        None => (mantissa, ""),
    };
    let all = format!("{int_part}{frac}");
    let digits: Vec<u8> = all
        .trim_start_matches('0')
        .bytes()
        .map(|c| c - b'0')
        .collect();
    // The decimal point's place after the first significant digit (.NET's `Scale`).
    let places = frac.len() as i64 - exponent;
    let point = digits.len() as i64 - places;
    if digits.is_empty() {
        return Some(Const::Decimal(0, places.clamp(0, 28) as u32, false));
    }
    let (mut value, mut e, mut taken) = (0u128, point, 0);
    while e > 0 || (taken < digits.len() && e > -28) {
        let c = digits.get(taken).copied().unwrap_or(0);
        if value * 10 + u128::from(c) >= LIMIT {
            break;
        }
        value = value * 10 + u128::from(c);
        taken += usize::from(taken < digits.len());
        e -= 1;
    }
    if let Some(&c) = digits.get(taken) {
        let tail = digits[taken + 1..].iter().any(|&d| d != 0);
        if c > 5 || c == 5 && (tail || value & 1 == 1) {
            value += 1;
            if value == LIMIT {
                value = LIMIT / 10 + 1;
                e += 1;
            }
        }
    }
    if e > 0 {
        return None;
    }
    if e <= -29 {
        return Some(Const::Decimal(0, 28, false));
    }
    Some(Const::Decimal(value, (-e) as u32, false))
}

/// Whether `x` is a call of `Enum.GetValues` (`System.Enum.GetValues` included).
fn is_enum_get_values(x: &Expr) -> bool {
    let ExprKind::Call(f, _) = &x.kind else {
        return false;
    };
    let ExprKind::Member(owner, name, _) = &f.kind else {
        return false;
    };
    let owner_is_enum = match &owner.kind {
        ExprKind::Name(n, _) | ExprKind::Member(_, n, _) => n == "Enum",
        _ => false,
    };
    name == "GetValues" && owner_is_enum
}

/// A tuple literal's element names: those written (`(first: a, ...)`), else those C#
/// infers from an element that is a name or a member access (`(move, x.score)` names
/// its elements `move` and `score`), unless the name is one of a tuple's own members
/// (`Item1`, `Rest`, `ToString`...) or two elements would share it (C# 7.1, "Inferred
/// tuple element names").
fn tuple_names(items: &[Expr], written: &[Option<String>]) -> Vec<Option<String>> {
    let inferred: Vec<Option<String>> = items
        .iter()
        .map(|x| match &x.kind {
            ExprKind::Name(n, _) | ExprKind::Member(_, n, _) => Some(n.clone()),
            _ => None,
        })
        .collect();
    let reserved = |n: &str| {
        matches!(
            n,
            "Rest" | "ToString" | "GetHashCode" | "Equals" | "GetType" | "CompareTo"
        ) || n
            .strip_prefix("Item")
            .is_some_and(|d| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit()))
    };
    let all: Vec<Option<&String>> = written
        .iter()
        .zip(&inferred)
        .map(|(w, i)| w.as_ref().or(i.as_ref()))
        .collect();
    written
        .iter()
        .zip(&inferred)
        .map(|(w, i)| {
            w.clone().or_else(|| {
                i.clone().filter(|n| {
                    !reserved(n) && all.iter().filter(|o| o.is_some_and(|m| m == n)).count() == 1
                })
            })
        })
        .collect()
}

/// Whether an integer constant converts implicitly to integer type `to` (ECMA-334
/// 10.2.11: an `int` constant that fits, a non-negative `long` constant to `ulong`; and,
/// as `numeric_coerce` takes them, a bare literal that fits). `c ? 0xff :
/// 0xff00000000000000` is a `ulong`: the `ulong` constant does not fit an `int`.
fn constant_converts(v: &Val, to: &Ty) -> bool {
    let (Some(Const::Int(n)), Some(i), Some(_)) = (&v.konst, to.int(), v.ty.int()) else {
        return false;
    };
    let fits = *n >= i.range().0 && *n <= i.range().1;
    fits && (v.ty == Ty::Int(IntTy::I32)
        || v.ty == Ty::Int(IntTy::I64) && *to == Ty::Int(IntTy::U64)
        || v.bare_literal)
}

/// What a `checked` operation that overflows panics with (C#'s `OverflowException`).
const OVERFLOW: &str = "\"arithmetic overflow in a `checked` context (OverflowException)\"";

impl FileEmitter<'_, '_> {
    /// `f` written in a `checked` context (C#'s `checked(...)` and `checked { ... }`).
    pub(crate) fn in_checked<T>(&mut self, e: &Expr, f: impl FnOnce(&mut Self) -> R<T>) -> R<T> {
        if self.fns.is_empty() {
            return Err(unsupported(
                e.span,
                "`checked` outside a method",
                snippet(self.src, e),
            ));
        }
        let outer = std::mem::replace(&mut self.f().checked, true);
        let out = f(self);
        self.f().checked = outer;
        out
    }

    /// `f` written in an `unchecked` context.
    pub(crate) fn unchecked<T>(&mut self, f: impl FnOnce(&mut Self) -> R<T>) -> R<T> {
        if !self.is_checked() {
            return f(self);
        }
        let outer = std::mem::replace(&mut self.f().checked, false);
        let out = f(self);
        self.f().checked = outer;
        out
    }

    /// `a op b` computed in `t`, and its precedence: in `checked` code, integer `+`, `-`
    /// and `*` that panic on overflow (a constant is folded: C# refuses one that overflows).
    fn arithmetic(&self, op: BinOp, a: &Val, b: &Val, t: &Ty, konst: bool) -> (String, Prec) {
        let checked = match op {
            BinOp::Add => "checked_add",
            BinOp::Sub => "checked_sub",
            BinOp::Mul => "checked_mul",
            _ => "",
        };
        if self.is_checked() && !checked.is_empty() && !konst && t.int().is_some() {
            let (x, y) = (a.at(Prec::Primary), b.at(Prec::Assign));
            return (
                format!("{x}.{checked}({y}).expect({OVERFLOW})"),
                Prec::Primary,
            );
        }
        let prec = op_prec(op);
        let code = format!("{} {} {}", left(a, prec, op), op.rust(), b.at(next(prec)));
        (code, prec)
    }

    /// Inside `checked` code.
    pub(crate) fn is_checked(&self) -> bool {
        self.fns.last().is_some_and(|f| f.checked)
    }

    /// A refusal of `what` inside `checked` code, where C# throws on overflow and the
    /// port's operation would wrap.
    pub(crate) fn refuse_if_checked(&self, what: &str, e: &Expr) -> R<()> {
        if self.is_checked() {
            return Err(unsupported(
                e.span,
                format!("{what} in a `checked` context"),
                snippet(self.src, e),
            ));
        }
        Ok(())
    }
}

/// `code` without the parentheses around the whole of it, if it has them.
fn unparen(code: &str) -> &str {
    let Some(inner) = code.strip_prefix('(').and_then(|c| c.strip_suffix(')')) else {
        return code;
    };
    let mut depth = 0i32;
    for c in inner.chars() {
        depth += match c {
            '(' => 1,
            ')' => -1,
            _ => 0,
        };
        if depth < 0 {
            return code;
        }
    }
    inner
}

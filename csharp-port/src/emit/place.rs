//! Places and what changes them: assignments, compound assignments, `++` and `--`, in
//! C#'s order of evaluation.

use super::decls::{FileEmitter, LocalKind};
use super::expr::op_prec;
use super::{Prec, R, Val, snippet, unsupported};
use crate::ast::*;
use crate::types::unary_promote;
use crate::types::{IntTy, Ty, promote};

/// Where an assignment writes.
#[derive(Debug, Clone)]
pub(crate) enum Place {
    /// A Rust place expression: `x`, `*x`, `self.x`, `s.field`, `self.t.0`.
    Direct {
        /// The place's code.
        code: String,
        /// Its C# type.
        ty: Ty,
        /// It is a field of the bot (writing it needs `&mut self`).
        self_field: bool,
    },
    /// An element of a shared array, list or dictionary, or a ref local's element:
    /// read with `get`, written with `set`, changed in place with `with`.
    Cell {
        /// The collection (or the `cs::ElemRef`).
        recv: String,
        /// The subscript (`None` for an `ElemRef`).
        sub: Option<String>,
        /// A dictionary (its `get` and `with` take the key by reference).
        dict: bool,
        /// A field path inside the element (`.score`, `.0`).
        path: String,
        /// The type at the end of the path.
        ty: Ty,
        /// The receiver's code reads `self`.
        reads_self: bool,
        /// The receiver or subscript has effects (evaluate them once).
        effects: bool,
    },
}

impl Place {
    /// The place's C# type.
    pub(crate) fn ty(&self) -> &Ty {
        match self {
            Place::Direct { ty, .. } | Place::Cell { ty, .. } => ty,
        }
    }

    /// Whether writing it changes the bot's own fields.
    pub(crate) fn is_self_field(&self) -> bool {
        matches!(
            self,
            Place::Direct {
                self_field: true,
                ..
            }
        )
    }
}

impl FileEmitter<'_, '_> {
    /// The place `e` names.
    pub(crate) fn place(&mut self, e: &Expr) -> R<Place> {
        match &e.kind {
            ExprKind::Name(n, _) => {
                if let Some(l) = self.find_local(n) {
                    return self.local_place(&l, e);
                }
                let v = self.expr(e, None)?;
                if self.is_ref_property(n) {
                    return self.ref_result_place(v, e);
                }
                self.direct_or_var(v, e)
            }
            ExprKind::Member(target, name, _) => {
                if let ExprKind::This = target.kind {
                    let v = self.expr(e, None)?;
                    return self.direct_or_var(v, e);
                }
                let saved = self.learned.clone();
                let target_ty = self.expr(target, None).map(|v| v.ty);
                self.learned = saved;
                if let Ok(Ty::Class(c)) = &target_ty
                    && self.p.is_ref_class(c)
                {
                    let v = self.expr(e, None)?;
                    return self.direct_or_var(v, e);
                }
                if let ExprKind::Name(n, _) = &target.kind
                    && self.is_ref_property(n)
                {
                    // `P.F = x` of a `ref T P => ref a[i];`: the element's field.
                    let base = self.place(target)?;
                    return self.member_place(base, name, e);
                }
                let target_is_value = !matches!(&target.kind, ExprKind::Name(n, _) if self.find_local(n).is_none() && self.p.field(self.fr().class, n).is_none());
                if !target_is_value {
                    let v = self.expr(e, None)?;
                    return self.direct_from(v, e);
                }
                let base = self.place(target)?;
                self.member_place(base, name, e)
            }
            ExprKind::Index(target, idx) => self.index_place(target, idx, e),
            ExprKind::Call(..) => {
                let v = self.expr(e, None)?;
                self.ref_result_place(v, e)
            }
            _ => Err(unsupported(
                e.span,
                "an assignment to this",
                snippet(self.src, e),
            )),
        }
    }

    /// The element a ref-returning method's or property's value (`r.get()`) reads.
    fn ref_result_place(&mut self, v: Val, e: &Expr) -> R<Place> {
        match v.code.strip_suffix(".get()") {
            Some(r) => Ok(Place::Cell {
                recv: r.to_string(),
                sub: None,
                dict: false,
                path: String::new(),
                ty: v.ty,
                reads_self: v.reads_self,
                effects: v.effects,
            }),
            None => Err(unsupported(
                e.span,
                "an assignment to a call",
                snippet(self.src, e),
            )),
        }
    }

    /// `n` names a ref-returning property of the current type (not hidden by a local).
    fn is_ref_property(&self, n: &str) -> bool {
        self.find_local(n).is_none()
            && self.p.types[self.fr().class]
                .methods
                .iter()
                .any(|m| m.cs == n && m.is_property && m.ret_ref)
    }

    fn local_place(&mut self, l: &super::decls::Local, e: &Expr) -> R<Place> {
        self.note_assigned(l);
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
            LocalKind::Delegate => {
                return Err(unsupported(
                    e.span,
                    "an assignment of a delegate parameter",
                    snippet(self.src, e),
                ));
            }
            LocalKind::Value | LocalKind::Closure if l.frame < current => {
                format!("*{}", self.local_name(l))
            }
            LocalKind::Value | LocalKind::Closure => l.rust.clone(),
            LocalKind::Ref => format!("*{}", self.local_name(l)),
            LocalKind::Elem => {
                return Ok(Place::Cell {
                    recv: l.rust.clone(),
                    sub: None,
                    dict: false,
                    path: String::new(),
                    ty: l.ty.clone(),
                    reads_self: false,
                    effects: false,
                });
            }
            LocalKind::Board | LocalKind::Timer => {
                return Err(unsupported(
                    e.span,
                    "an assignment of a board or timer other than the one `Think` gets",
                    snippet(self.src, e),
                ));
            }
        };
        Ok(Place::Direct {
            code,
            ty: l.ty.clone(),
            self_field: false,
        })
    }

    /// A field of a class instance (`x.f.get()`, a `cs::Var`) as a cell; anything else
    /// as a direct place.
    fn direct_or_var(&mut self, v: Val, e: &Expr) -> R<Place> {
        if !v.place
            && let Some(recv) = v.code.strip_suffix(".get()")
            && recv.rsplit('.').next().is_some_and(|f| !f.contains('('))
        {
            return Ok(Place::Cell {
                recv: recv.to_string(),
                sub: None,
                dict: false,
                path: String::new(),
                ty: v.ty,
                reads_self: v.reads_self,
                effects: v.effects,
            });
        }
        self.direct_from(v, e)
    }

    fn direct_from(&mut self, v: Val, e: &Expr) -> R<Place> {
        if !v.place {
            return Err(unsupported(
                e.span,
                "an assignment to something that is not a variable",
                snippet(self.src, e),
            ));
        }
        if matches!(v.ty, Ty::Api("Board" | "Timer")) {
            return Err(unsupported(
                e.span,
                "an assignment of a board or timer other than the one `Think` gets",
                snippet(self.src, e),
            ));
        }
        let self_field = v.code.starts_with("self.");
        Ok(Place::Direct {
            code: v.code,
            ty: v.ty,
            self_field,
        })
    }

    fn member_place(&mut self, base: Place, name: &str, e: &Expr) -> R<Place> {
        let (field, ty) = self.member_path(base.ty(), name, e)?;
        Ok(match base {
            Place::Direct {
                code, self_field, ..
            } => {
                let code = if code.starts_with('*') {
                    format!("({code}).{field}")
                } else {
                    format!("{code}.{field}")
                };
                Place::Direct {
                    code,
                    ty,
                    self_field,
                }
            }
            Place::Cell {
                recv,
                sub,
                dict,
                path,
                reads_self,
                effects,
                ..
            } => Place::Cell {
                recv,
                sub,
                dict,
                path: format!("{path}.{field}"),
                ty,
                reads_self,
                effects,
            },
        })
    }

    /// The Rust field (or tuple index) for the member `name` of a `t`, and its type.
    fn member_path(&self, t: &Ty, name: &str, e: &Expr) -> R<(String, Ty)> {
        match t {
            Ty::Tuple(items, names) => {
                let index = names
                    .iter()
                    .position(|n| n.as_deref() == Some(name))
                    .or_else(|| {
                        name.strip_prefix("Item")
                            .and_then(|n| n.parse::<usize>().ok())
                            .map(|n| n - 1)
                    });
                match index.filter(|i| *i < items.len()) {
                    Some(i) => Ok((i.to_string(), items[i].clone())),
                    None => Err(unsupported(
                        e.span,
                        format!("the tuple element `{name}`"),
                        snippet(self.src, e),
                    )),
                }
            }
            Ty::Struct(s) => {
                let t = self
                    .p
                    .type_index(s)
                    .ok_or_else(|| unsupported(e.span, "a struct", s))?;
                let f = self
                    .p
                    .field(t, name)
                    .filter(|f| !f.is_static)
                    .ok_or_else(|| {
                        unsupported(e.span, format!("the field `{name}`"), snippet(self.src, e))
                    })?;
                Ok((f.rust.clone(), f.ty.clone()))
            }
            _ => Err(unsupported(
                e.span,
                format!("an assignment to a member of a `{}`", t.cs()),
                snippet(self.src, e),
            )),
        }
    }

    fn index_place(&mut self, target: &Expr, idx: &[Expr], e: &Expr) -> R<Place> {
        if let ExprKind::Name(n, _) = &target.kind
            && self.find_local(n).is_none()
            && !self.names_field(n)
        {
            let v = self.index(target, idx, e)?;
            return match v.code.strip_suffix(".get()") {
                Some(r) => Ok(Place::Cell {
                    recv: r.to_string(),
                    sub: None,
                    dict: false,
                    path: String::new(),
                    ty: v.ty,
                    reads_self: v.reads_self,
                    effects: v.effects,
                }),
                None => Err(unsupported(
                    e.span,
                    "an assignment to a call",
                    snippet(self.src, e),
                )),
            };
        }
        let t = self.expr(target, None)?;
        let t = self.non_null(t, e)?;
        let recv = t.at(Prec::Primary);
        match t.ty.clone() {
            Ty::Array(elem, _) => {
                let sub = self.subscript(idx, &recv)?;
                Ok(Place::Cell {
                    recv,
                    sub: Some(sub.code.clone()),
                    dict: false,
                    path: String::new(),
                    ty: *elem,
                    reads_self: t.reads_self || sub.reads_self,
                    effects: t.effects || sub.effects,
                })
            }
            Ty::List(elem) => {
                let sub = self.subscript(idx, &recv)?;
                Ok(Place::Cell {
                    recv,
                    sub: Some(sub.code.clone()),
                    dict: false,
                    path: String::new(),
                    ty: *elem,
                    reads_self: t.reads_self || sub.reads_self,
                    effects: t.effects || sub.effects,
                })
            }
            Ty::Coll("BitArray" | "StringBuilder", _) => self.bit_place(&t, recv, &idx[0]),
            Ty::Dict(k, v, _) => {
                let key = self.expr(&idx[0], Some(&k))?;
                let key = self.coerce(key, &k, &idx[0])?;
                let key = self.owned(key);
                Ok(Place::Cell {
                    recv,
                    sub: Some(key.at(Prec::Unary)),
                    dict: true,
                    path: String::new(),
                    ty: *v,
                    reads_self: t.reads_self || key.reads_self,
                    effects: t.effects || key.effects,
                })
            }
            other => Err(unsupported(
                e.span,
                format!("an assignment to an element of a `{}`", other.cs()),
                snippet(self.src, e),
            )),
        }
    }

    /// `bits[i]` of a `BitArray` or `sb[i]` of a `StringBuilder`: a cell of the shared
    /// value.
    fn bit_place(&mut self, t: &Val, recv: String, i: &Expr) -> R<Place> {
        let i = self.int_arg(i)?;
        Ok(Place::Cell {
            recv,
            sub: Some(i.code.clone()),
            dict: false,
            path: String::new(),
            ty: super::colls::indexed_elem(&t.ty),
            reads_self: t.reads_self || i.reads_self,
            effects: t.effects || i.effects,
        })
    }

    /// The code reading a place.
    pub(crate) fn read_place(&self, p: &Place) -> String {
        match p {
            Place::Direct { code, .. } => code.clone(),
            Place::Cell {
                recv,
                sub,
                dict,
                path,
                ..
            } => {
                let sub = match sub {
                    Some(s) if *dict => format!("&{s}"),
                    Some(s) => s.clone(),
                    None => String::new(),
                };
                format!("{recv}.get({sub}){path}")
            }
        }
    }

    /// The statement writing `value` to a place.
    pub(crate) fn write_place(&mut self, p: &Place, value: &str) -> R<String> {
        self.note_place_write(p);
        Ok(match p {
            Place::Direct { code, .. } => format!("{code} = {value}"),
            Place::Cell {
                recv, sub, path, ..
            } if path.is_empty() => match sub {
                Some(s) => format!("{recv}.set({s}, {value})"),
                None => format!("{recv}.set({value})"),
            },
            Place::Cell { .. } => self.modify_place(p, &format!("= {value}")),
        })
    }

    /// `place op rhs` applied in place (`op` is `+= v`, `= v`...): for a shared element,
    /// inside its `with`.
    fn modify_place(&self, p: &Place, op: &str) -> String {
        match p {
            Place::Direct { code, .. } => format!("{code} {op}"),
            Place::Cell {
                recv,
                sub,
                dict,
                path,
                ..
            } => {
                let inner = if path.is_empty() {
                    format!("*slot {op}")
                } else {
                    format!("slot{path} {op}")
                };
                match sub {
                    Some(s) if *dict => format!("{recv}.with(&{s}, |slot| {inner})"),
                    Some(s) => format!("{recv}.with({s}, |slot| {inner})"),
                    None => format!("{recv}.with(|slot| {inner})"),
                }
            }
        }
    }

    /// A value computed from the place inside its `with` closure (`body` reads and
    /// writes `{p}`, the place inside).
    fn with_place(&self, p: &Place, body: &str) -> String {
        match p {
            Place::Direct { code, .. } => format!("{{ {} }}", body.replace("{p}", code)),
            Place::Cell {
                recv,
                sub,
                dict,
                path,
                ..
            } => {
                let inner = if path.is_empty() {
                    "*slot".to_string()
                } else {
                    format!("slot{path}")
                };
                let body = body.replace("{p}", &inner);
                match sub {
                    Some(s) if *dict => format!("{recv}.with(&{s}, |slot| {{ {body} }})"),
                    Some(s) => format!("{recv}.with({s}, |slot| {{ {body} }})"),
                    None => format!("{recv}.with(|slot| {{ {body} }})"),
                }
            }
        }
    }

    fn note_place_write(&mut self, p: &Place) {
        if p.is_self_field() {
            self.note_mutation();
        }
    }

    /// `l = r` and `l op= r`.
    pub(crate) fn assign(
        &mut self,
        op: Option<BinOp>,
        l: &Expr,
        r: &Expr,
        e: &Expr,
        as_value: bool,
    ) -> R<Val> {
        if let ExprKind::Name(n, _) = &l.kind
            && n == "_"
            && op.is_none()
            && self.find_local("_").is_none()
        {
            // `_ = e;`: the value for its effects only.
            let v = self.expr(r, None)?;
            let mut out =
                Val::new(format!("let _ = {}", v.code), Ty::Void, Prec::Assign).absorb(&v);
            out.effects = true;
            return Ok(out);
        }
        if let ExprKind::Tuple(targets, _) = &l.kind {
            if as_value || op.is_some() {
                return Err(unsupported(
                    e.span,
                    "a tuple assignment used as a value",
                    snippet(self.src, e),
                ));
            }
            return self.tuple_assign(targets, r, e);
        }
        if op.is_none() && self.is_board_or_timer(l) {
            // `this.board = board;`: every board is the one `think` was handed.
            let v = self.expr(r, None)?;
            if !matches!(v.ty, Ty::Api("Board" | "Timer")) {
                return Err(unsupported(
                    e.span,
                    "an assignment to a board or timer field of something else",
                    snippet(self.src, e),
                ));
            }
            let mut out = Val::new(
                if as_value {
                    v.code.clone()
                } else {
                    String::new()
                },
                v.ty.clone(),
                Prec::Primary,
            );
            out.reads_self = true;
            return Ok(out);
        }
        if let Some(out) = self.property_set(op, l, r, e, as_value)? {
            return Ok(out);
        }
        let place = self.place(l)?;
        let t = place.ty().clone();
        let rhs = match op {
            None => {
                let v = self.expr(r, Some(&t))?;
                let v = self.coerce(v, &t, r)?;
                self.check_owned_board_assign(&v, e)?;
                self.owned_stored(v, r)?
            }
            Some(_) => self.expr(r, None)?,
        };
        let mut out = Val::new(
            "",
            if as_value { t.clone() } else { Ty::Void },
            Prec::Assign,
        )
        .absorb(&rhs);
        out.effects = true;
        out.mut_self |= place.is_self_field();
        out.reads_self |= place.is_self_field();
        if let Place::Cell { reads_self, .. } = &place {
            out.reads_self |= *reads_self;
        }
        out.code = match op {
            None => self.plain_assign(&place, rhs, as_value)?,
            Some(op) => self.compound(&place, op, rhs, r, e, as_value)?,
        };
        if as_value {
            out.prec = Prec::Primary;
        }
        Ok(out)
    }

    /// An assignment to a property with a setter body: a call of its setter `set_P` (and
    /// a compound assignment with an operator of the file's own, refused). A
    /// compound one is `set_P((T)(P op value))` (ECMA-334 12.21.4), which reads the
    /// receiver twice: only a local or `this`, which a second read does not change.
    fn property_set(
        &mut self,
        op: Option<BinOp>,
        l: &Expr,
        r: &Expr,
        e: &Expr,
        as_value: bool,
    ) -> R<Option<Val>> {
        if let Some(op) = op
            && self.user_operator(op, l, r, e)?.is_some()
        {
            return Err(unsupported(
                e.span,
                "a compound assignment with an operator of the file's own",
                snippet(self.src, e),
            ));
        }
        let setters = self.p.types.iter().flat_map(|t| &t.methods);
        if !setters.clone().any(|m| m.cs.starts_with("set_")) {
            return Ok(None);
        }
        let (recv, name) = match &l.kind {
            ExprKind::Name(n, _) if self.find_local(n).is_none() => (None, n),
            ExprKind::Member(t, n, _) => (Some(&**t), n),
            _ => return Ok(None),
        };
        let owner = match recv {
            None
            | Some(Expr {
                kind: ExprKind::This,
                ..
            }) => Some(self.fr().class),
            Some(t) => {
                let (learned, pre) = (self.learned.clone(), self.f().pre.clone());
                let ty = self.expr(t, None).map(|v| v.ty);
                (self.learned, self.f().pre) = (learned, pre);
                match ty {
                    Ok(Ty::Class(c) | Ty::Struct(c)) => self.p.type_index(&c),
                    _ => None,
                }
            }
        };
        let setter = owner.and_then(|t| {
            let found = self.p.methods(t, &format!("set_{name}"));
            let getter = self.p.methods(t, name).into_iter().find(|m| m.is_property);
            found.first().cloned().cloned().zip(getter.cloned())
        });
        let Some((setter, getter)) = setter else {
            return Ok(None);
        };
        let simple = match recv {
            None => true,
            Some(t) => match &t.kind {
                ExprKind::This => true,
                ExprKind::Name(n, _) => self.find_local(n).is_some(),
                _ => false,
            },
        };
        if as_value || (op.is_some() && !simple) {
            return Err(unsupported(
                e.span,
                "this assignment to a property with a setter body",
                snippet(self.src, e),
            ));
        }
        let value = match op {
            None => r.clone(),
            Some(op) => {
                let ty = self.p.method_decl(&getter).ret.clone();
                let binary = ExprKind::Binary(op, Box::new(l.clone()), Box::new(r.clone()));
                let binary = Expr::new(binary, e.span, e.range);
                Expr::new(ExprKind::Cast(ty, Box::new(binary)), e.span, e.range)
            }
        };
        let args = [Arg {
            mode: PassMode::Value,
            expr: value,
            name: None,
        }];
        let recv = match recv {
            Some(t) if !matches!(t.kind, ExprKind::This) => Some(self.expr(t, None)?),
            _ => None,
        };
        self.own_call(&setter, recv, &args, e).map(Some)
    }

    fn plain_assign(&mut self, place: &Place, rhs: Val, as_value: bool) -> R<String> {
        let cell_first = matches!(place, Place::Cell { .. }) && (rhs.effects || rhs.mut_self);
        if cell_first {
            // C# evaluates the array and the index before the value.
            return self.cell_assign_in_order(
                place,
                |_old| "v".to_string(),
                &rhs.code,
                as_value,
                false,
            );
        }
        let write = self.write_place(place, &rhs.code)?;
        if !as_value {
            return Ok(write);
        }
        let copy = self.p.is_copy(place.ty());
        let read = self.read_place(place);
        Ok(if copy {
            format!("{{ {write}; {read} }}")
        } else {
            format!("{{ {write}; {read}.clone() }}")
        })
    }

    /// An assignment to a shared element whose value has effects: the collection and
    /// subscript first (into temporaries), then the old value if `reads_old`, then the
    /// value, then the write: C#'s order.
    fn cell_assign_in_order(
        &mut self,
        place: &Place,
        new_value: impl Fn(&str) -> String,
        rhs: &str,
        as_value: bool,
        reads_old: bool,
    ) -> R<String> {
        let Place::Cell {
            recv,
            sub,
            dict,
            path,
            ty,
            ..
        } = place
        else {
            unreachable!("a cell place")
        };
        let r = self.temp("target");
        // A collection (a shared reference) is held by a clone; an element reference or a
        // class's field by a borrow of it.
        let mut code = if sub.is_some() {
            format!("let {r} = {recv}.clone(); ")
        } else {
            format!("let {r} = &{recv}; ")
        };
        let s = match sub {
            Some(s) => {
                let t = self.temp("index");
                code.push_str(&format!("let {t} = {s}; "));
                Some(t)
            }
            None => None,
        };
        let key = |s: &str| {
            if *dict {
                format!("&{s}")
            } else {
                s.to_string()
            }
        };
        let get_arg = s.as_deref().map(key).unwrap_or_default();
        if reads_old {
            code.push_str(&format!("let old = {r}.get({get_arg}){path}; "));
        }
        code.push_str(&format!("let v = {rhs}; "));
        let value = new_value("old");
        let with_arg = match &s {
            Some(s) => format!("{}, ", key(s)),
            None => String::new(),
        };
        let target = if path.is_empty() {
            "*slot".to_string()
        } else {
            format!("slot{path}")
        };
        let set_arg = match &s {
            Some(s) => format!("{s}, "),
            None => String::new(),
        };
        let result = if path.is_empty() {
            // A whole element: `set` (which also adds a dictionary's missing key, as
            // C#'s indexer does).
            let read = if as_value {
                format!("; {r}.get({get_arg})")
            } else {
                String::new()
            };
            let _ = ty;
            format!("{r}.set({set_arg}{value}){read}")
        } else if as_value {
            format!("{r}.with({with_arg}|slot| {{ {target} = {value}; {target}.clone() }})")
        } else {
            format!("{r}.with({with_arg}|slot| {target} = {value})")
        };
        self.note_place_write(place);
        Ok(format!("{{ {code}{result} }}"))
    }

    /// `place op= rhs`, with C#'s conversions: `x op= y` is `x = (T)(x op y)`.
    fn compound(
        &mut self,
        place: &Place,
        op: BinOp,
        rhs: Val,
        r: &Expr,
        e: &Expr,
        as_value: bool,
    ) -> R<String> {
        let t = place.ty().clone();
        // `x op= y` converts back to `x`'s type, which throws there too.
        if !matches!(op, BinOp::And | BinOp::Or | BinOp::Xor)
            && !matches!(t, Ty::F32 | Ty::F64 | Ty::Str | Ty::Decimal)
        {
            self.refuse_if_checked("a compound assignment", e)?;
        }
        self.note_place_write(place);
        if op == BinOp::Coalesce && !as_value {
            return self.coalesce_assign(place, &t, rhs, r, e);
        }
        if t == super::bigint::BIG {
            return self.big_compound(place, op, rhs, e, as_value);
        }
        if t == Ty::Str && op == BinOp::Add {
            let read = self.read_place(place);
            let text = self.text(&rhs, r)?;
            return self.write_place(place, &format!("format!(\"{{}}{{}}\", {read}, {text})"));
        }
        let (op_code, promoted) = self.compound_operation(&t, op, rhs.clone(), r, e)?;
        let same_type = promoted.is_none();
        let promoted = promoted.as_ref();
        let impure = rhs.effects || rhs.mut_self;
        match place {
            Place::Direct { code, .. } => {
                let text = if same_type && !impure {
                    format!("{code} {}= {op_code}", op.rust())
                } else {
                    format!(
                        "{code} = {}",
                        self.recompute(code, &t, op, &op_code, promoted, e)?
                    )
                };
                Ok(if as_value {
                    format!("{{ {text}; {code} }}")
                } else {
                    text
                })
            }
            Place::Cell { .. } if impure => {
                let expr = self.recompute("old", &t, op, "v", promoted, e)?;
                self.cell_assign_in_order(place, |_| expr.clone(), &op_code, as_value, true)
            }
            Place::Cell { .. } => {
                let body = if same_type {
                    format!("{{p}} {}= {op_code}", op.rust())
                } else {
                    format!(
                        "{{p}} = {}",
                        self.recompute("{p}", &t, op, &op_code, promoted, e)?
                    )
                };
                Ok(if as_value {
                    self.with_place(place, &format!("{body}; {{p}}"))
                } else {
                    self.with_place(place, &body)
                })
            }
        }
    }

    /// `x op= y` of a `BigInteger` variable or field: `x = x op y`. An element's place
    /// would be computed twice, and a value use needs a block: both stay refused.
    pub(crate) fn big_compound(
        &mut self,
        place: &Place,
        op: BinOp,
        rhs: Val,
        e: &Expr,
        as_value: bool,
    ) -> R<String> {
        let Place::Direct { code, .. } = place else {
            return Err(unsupported(
                e.span,
                "a compound assignment to a `BigInteger` element",
                snippet(self.src, e),
            ));
        };
        if as_value {
            return Err(unsupported(
                e.span,
                "a `BigInteger` compound assignment used as a value",
                snippet(self.src, e),
            ));
        }
        let old = Val::new(code.clone(), super::bigint::BIG, Prec::Primary);
        let v = self.big_op(op, old, rhs, e)?;
        self.write_place(place, &v.code)
    }

    /// `x ??= y` as a statement: `y` is evaluated and assigned only when `x` is null.
    fn coalesce_assign(
        &mut self,
        place: &Place,
        t: &Ty,
        rhs: Val,
        r: &Expr,
        e: &Expr,
    ) -> R<String> {
        let test = match t {
            Ty::Nullable(_) => "is_none",
            Ty::Class(c) if self.p.is_ref_class(c) => "is_null",
            _ => {
                return Err(unsupported(
                    e.span,
                    format!("`??=` of a `{}` with a `{}`", t.cs(), rhs.ty.cs()),
                    snippet(self.src, e),
                ));
            }
        };
        if let Place::Cell { effects: true, .. } = place {
            // The place's receiver would be evaluated twice.
            return Err(unsupported(
                e.span,
                "`??=` of an element whose receiver or index has side effects",
                snippet(self.src, e),
            ));
        }
        let v = self.coerce(rhs, t, r)?;
        let v = self.owned(v);
        let read = self.read_place(place);
        let write = self.write_place(place, &v.code)?;
        Ok(format!("if {read}.{test}() {{ {write}; }}"))
    }

    /// The right operand's code for `place op= rhs`, and the type the operation is done
    /// in if not the place's own (the result is then converted back).
    fn compound_operation(
        &mut self,
        t: &Ty,
        op: BinOp,
        rhs: Val,
        r: &Expr,
        e: &Expr,
    ) -> R<(String, Option<Ty>)> {
        if op.is_shift() {
            let promoted = unary_promote(t).ok_or_else(|| {
                unsupported(
                    e.span,
                    format!("a shift of a `{}`", t.cs()),
                    snippet(self.src, e),
                )
            })?;
            let bits = promoted.int().map_or(32, IntTy::bits) as i128;
            let count = self.coerce(
                rhs.clone(),
                &unary_promote(&rhs.ty).unwrap_or(Ty::Int(IntTy::I32)),
                r,
            )?;
            let code = match &count.konst {
                Some(super::Const::Int(n)) => (n & (bits - 1)).to_string(),
                _ => format!("({} & {})", count.at(Prec::BitAnd), bits - 1),
            };
            if op == BinOp::UShr {
                return Err(unsupported(e.span, "`>>>=`", snippet(self.src, e)));
            }
            return Ok((code, (promoted != *t).then_some(promoted)));
        }
        if *t == Ty::Bool && matches!(op, BinOp::And | BinOp::Or | BinOp::Xor) {
            let v = self.coerce(rhs, &Ty::Bool, r)?;
            return Ok((v.at(op_prec(op)), None));
        }
        let base = if t.is_enum() {
            Ty::Int(IntTy::I32)
        } else {
            t.clone()
        };
        let rhs_ty = if rhs.ty.is_enum() {
            Ty::Int(IntTy::I32)
        } else {
            rhs.ty.clone()
        };
        // `u |= 128` of a `uint`: a non-negative `int` constant converts to `uint`, and
        // overload resolution prefers `uint | uint` (as for `u | 128`).
        let uint_constant = base == Ty::Int(IntTy::U32)
            && rhs_ty == Ty::Int(IntTy::I32)
            && matches!(rhs.konst, Some(super::Const::Int(n)) if n >= 0);
        let promoted = (if uint_constant {
            Some(base.clone())
        } else {
            promote(&base, &rhs_ty)
        })
        .or_else(|| {
            if rhs.konst.is_some() {
                Some(base.clone())
            } else {
                None
            }
        })
        .ok_or_else(|| {
            unsupported(
                e.span,
                format!(
                    "`{}=` of a `{}` with a `{}`",
                    op.rust(),
                    t.cs(),
                    rhs.ty.cs()
                ),
                snippet(self.src, e),
            )
        })?;
        if promoted == Ty::Decimal && base != Ty::Decimal {
            // `i += 1.5m`: C# has no implicit conversion of the decimal back to `i`.
            return Err(unsupported(
                e.span,
                format!("`{}=` of a `{}` with a `decimal`", op.rust(), t.cs()),
                snippet(self.src, e),
            ));
        }
        if promoted == base {
            let v = self.coerce(Val { ty: rhs_ty, ..rhs }, &base, r)?;
            return Ok((v.at(super::expr::next(op_prec(op))), None));
        }
        let v = self.coerce(Val { ty: rhs_ty, ..rhs }, &promoted, r)?;
        Ok((v.at(super::expr::next(op_prec(op))), Some(promoted)))
    }

    /// `(place op rhs)` computed in the promoted type and converted back to `t`.
    fn recompute(
        &self,
        place: &str,
        t: &Ty,
        op: BinOp,
        rhs: &str,
        promoted: Option<&Ty>,
        e: &Expr,
    ) -> R<String> {
        let sym = op.rust();
        let Some(promoted) = promoted else {
            return Ok(format!("{place} {sym} {rhs}"));
        };
        let base = if t.is_enum() {
            Ty::Int(IntTy::I32)
        } else {
            t.clone()
        };
        // The place read in the operation's type (`long` for `uint |= int`, not the
        // place's own promotion), as the right operand was converted to it.
        let rt = self.rty(promoted, e.span)?;
        let back = self.rty(&base, e.span)?;
        Ok(format!("({place} as {rt} {sym} {rhs}) as {back}"))
    }

    /// Whether `e` names a `Board` or `Timer` variable or field.
    fn is_board_or_timer(&mut self, e: &Expr) -> bool {
        let saved = self.learned.clone();
        let t = self.expr(e, None).map(|v| v.ty);
        self.learned = saved;
        matches!(t, Ok(Ty::Api("Board" | "Timer")))
    }

    /// `++x`, `x--`...
    pub(crate) fn incdec(&mut self, op: IncDec, x: &Expr, e: &Expr, as_value: bool) -> R<Val> {
        let place = self.place(x)?;
        let t = place.ty().clone();
        if !matches!(t, Ty::F32 | Ty::F64 | Ty::Decimal) {
            self.refuse_if_checked("`++` or `--`", e)?;
        }
        let one = match &t {
            Ty::F32 | Ty::F64 => "1.0",
            Ty::Decimal => "cs::Decimal::ONE",
            Ty::Int(_) | Ty::Char | Ty::Enum(_) | Ty::Api("PieceType") => "1",
            other => {
                return Err(unsupported(
                    e.span,
                    format!("`++` on a `{}`", other.cs()),
                    snippet(self.src, e),
                ));
            }
        };
        let sym = if matches!(op, IncDec::PreInc | IncDec::PostInc) {
            "+="
        } else {
            "-="
        };
        self.note_place_write(&place);
        let code = if !as_value {
            self.modify_place(&place, &format!("{sym} {one}"))
        } else {
            let body = match op {
                IncDec::PreInc | IncDec::PreDec => format!("{{p}} {sym} {one}; {{p}}"),
                IncDec::PostInc | IncDec::PostDec => {
                    format!("let old = {{p}}; {{p}} {sym} {one}; old")
                }
            };
            self.with_place(&place, &body)
        };
        let mut out = Val::new(
            code,
            if as_value { t } else { Ty::Void },
            if as_value {
                Prec::Primary
            } else {
                Prec::Assign
            },
        );
        out.effects = true;
        out.mut_self = place.is_self_field();
        out.reads_self = place.is_self_field();
        if let Place::Cell { reads_self, .. } = &place {
            out.reads_self = *reads_self;
        }
        Ok(out)
    }

    /// `(a, b) = e`, `(int x, var y) = e` and `(a, _) = e`: the value first, then each
    /// target (declared where the tuple declares it).
    fn tuple_assign(&mut self, targets: &[Expr], r: &Expr, e: &Expr) -> R<Val> {
        let v = self.expr(r, None)?;
        let v = self.tuple_class_items(v);
        let Ty::Tuple(items, _) = v.ty.clone() else {
            return Err(unsupported(
                e.span,
                "a deconstruction of something not a tuple",
                snippet(self.src, e),
            ));
        };
        if items.len() != targets.len() {
            return Err(unsupported(
                e.span,
                "a deconstruction of the wrong arity",
                snippet(self.src, e),
            ));
        }
        let v = self.owned(v);
        let tmp = self.temp("values");
        let mut code = format!("let {tmp} = {}; ", v.code);
        let mut out = Val::new("", Ty::Void, Prec::Primary).absorb(&v);
        for (i, (t, item_ty)) in targets.iter().zip(&items).enumerate() {
            match &t.kind {
                ExprKind::Name(n, _) if n == "_" && self.find_local("_").is_none() => {}
                ExprKind::DeclVar(tr, name) => {
                    let declared = self.p.resolve(tr, &self.type_params, t.span)?;
                    let ty = if declared == Ty::Unknown {
                        item_ty.clone()
                    } else {
                        declared
                    };
                    let l = self.declare(name, ty.clone(), LocalKind::Value);
                    let rust_ty = self.rty(&ty, t.span)?;
                    let default = self.default_value(&ty, t.span)?;
                    self.f()
                        .pre
                        .push(format!("let mut {}: {rust_ty} = {default};\n", l.rust));
                    let conv = self.convert_code(item_ty, &ty, &format!("{tmp}.{i}"), t.span)?;
                    code.push_str(&format!("{} = {conv}; ", l.rust));
                }
                _ => {
                    let p = self.place(t)?;
                    let conv = self.convert_code(item_ty, p.ty(), &format!("{tmp}.{i}"), t.span)?;
                    code.push_str(&format!("{}; ", self.write_place(&p, &conv)?));
                    out.mut_self |= p.is_self_field();
                }
            }
        }
        out.code = format!("{{ {code}}}");
        out.effects = true;
        Ok(out)
    }
}

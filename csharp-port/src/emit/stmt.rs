//! Statements.

use super::decls::{FileEmitter, LocalKind, Scope, TryExits, comment};
use super::names::snake;
use super::{R, Val, unsupported};
use crate::ast::*;
use crate::types::{Ty, implicit_numeric};

impl FileEmitter<'_, '_> {
    /// A function body's statements in a new scope.
    pub(crate) fn block_body(&mut self, stmts: &[Stmt]) -> R<String> {
        self.scopes.push(Scope::default());
        let out = self.stmts(stmts);
        self.scopes.pop();
        out
    }

    /// Statements of a block (its local functions declared first: C# lets a block call
    /// them before their declaration).
    pub(crate) fn stmts(&mut self, stmts: &[Stmt]) -> R<String> {
        for s in stmts {
            if let StmtKind::LocalFn(decl) = &s.kind {
                self.declare_local_fn(decl)?;
            }
        }
        self.stmts_body(stmts)
    }

    /// A block's statements, its local functions declared.
    pub(crate) fn stmts_body(&mut self, stmts: &[Stmt]) -> R<String> {
        if let Some(out) = self.labelled_stmts(stmts)? {
            return Ok(out);
        }
        let mut out = String::new();
        for (i, s) in stmts.iter().enumerate() {
            let code = match self.dropped_board_undo(s, &stmts[i + 1..]) {
                Some(code) => code,
                None => self.stmt(s)?,
            };
            let pre = self.take_pre();
            out.push_str(&pre);
            out.push_str(&code);
        }
        Ok(out)
    }

    /// A statement in a scope of its own (`if` and loop bodies).
    pub(crate) fn scoped(&mut self, s: &Stmt) -> R<String> {
        self.scopes.push(Scope::default());
        let out = match &s.kind {
            StmtKind::Block(stmts) => self.stmts(stmts),
            _ => {
                let code = self.stmt(s)?;
                let pre = self.take_pre();
                Ok(format!("{pre}{code}"))
            }
        };
        self.scopes.pop();
        out
    }

    fn stmt(&mut self, s: &Stmt) -> R<String> {
        match &s.kind {
            StmtKind::Comment(c) => Ok(format!("{}\n", comment(c))),
            StmtKind::Empty => Ok(String::new()),
            StmtKind::Block(stmts) => {
                self.scopes.push(Scope::default());
                let body = self.stmts(stmts);
                self.scopes.pop();
                Ok(format!("{{\n{}}}\n", Self::indent(&body?)))
            }
            StmtKind::Local { ty, vars, is_const } => self.local_stmt(ty, vars, *is_const, s),
            StmtKind::Deconstruct { names, value } => self.deconstruct(names, value),
            StmtKind::Expr(
                x @ Expr {
                    kind: ExprKind::Checked(true, e),
                    ..
                },
            ) => self.in_checked(x, |s| s.expr_stmt(e)),
            StmtKind::Expr(e) => self.expr_stmt(e),
            StmtKind::If(c, then, alt) => self.if_stmt(c, then, alt.as_deref()),
            StmtKind::While(c, body) => {
                let cond = self.condition(c)?;
                // `out` variables the condition declares: before the loop (each test
                // assigns them), not left for the body's first statement to declare.
                let pre = self.take_pre();
                let body = self.loop_body(body, None)?;
                let head = if cond == "true" {
                    "loop".to_string()
                } else {
                    format!("while {cond}")
                };
                let code = format!("{head} {{\n{}}}\n", Self::indent(&body));
                if pre.is_empty() {
                    return Ok(code);
                }
                Ok(format!("{{\n{}}}\n", Self::indent(&format!("{pre}{code}"))))
            }
            StmtKind::Do(body, c) => self.do_stmt(body, c),
            StmtKind::For {
                init,
                cond,
                update,
                body,
            } => self.for_stmt(init, cond.as_ref(), update, body),
            StmtKind::Foreach {
                ty,
                names,
                iter,
                body,
            } => self.foreach(ty, names, iter, body, s),
            StmtKind::Return(e) => self.return_stmt(e.as_ref(), s),
            StmtKind::Break => self.break_stmt(),
            StmtKind::Continue => self.continue_stmt(),
            StmtKind::Throw(_) => Ok("abort_search();\n".into()),
            StmtKind::Try {
                body,
                catches,
                finally,
            } => self.try_stmt(body, catches, finally.as_deref(), s),
            StmtKind::Switch(v, sections) => self.switch_stmt(v, sections, s),
            StmtKind::Goto(label) => self.goto(label, s),
            StmtKind::Labeled(_, inner) => self.stmt(inner),
            StmtKind::LocalFn(decl) => {
                if decl.ret == TypeRef::Var {
                    self.infer_local_fn_ret(decl)?;
                }
                self.lift_local_fn(decl)?;
                Ok(String::new())
            }
        }
    }

    fn local_decl(
        &mut self,
        ty: &TypeRef,
        vars: &[(String, Option<Expr>, crate::error::Span)],
        is_const: bool,
        s: &Stmt,
    ) -> R<String> {
        let declared = self.p.resolve(ty, &self.type_params, s.span)?;
        let is_ref = matches!(ty, TypeRef::Ref(_));
        let mut out = String::new();
        for (name, init, span) in vars {
            let mut t = declared.clone();
            if matches!(t, Ty::Api("Board" | "Timer")) {
                let kind = if t == Ty::Api("Board") {
                    LocalKind::Board
                } else {
                    LocalKind::Timer
                };
                if let Some(init) = init {
                    let (code, owned) = self.board_local_init(name, init, &t, *span)?;
                    out.push_str(&code);
                    if owned {
                        continue;
                    }
                }
                self.declare(name, t, kind);
                continue;
            }
            if is_ref {
                let init = init
                    .as_ref()
                    .ok_or_else(|| unsupported(*span, "a ref local without a value", name))?;
                let (code, elem_ty) = self.ref_target(init)?;
                let l = self.declare(name, elem_ty, LocalKind::Elem);
                out.push_str(&format!("let {} = {code};\n", l.rust));
                continue;
            }
            let value = match init {
                Some(init) => {
                    if let (Ty::Func(..) | Ty::Unknown, ExprKind::Lambda(..)) = (&t, &init.kind) {
                        let v = self.expr(init, Some(&t))?;
                        let l = self.declare(name, v.ty.clone(), LocalKind::Closure);
                        out.push_str(&format!("let {} = {};\n", l.rust, v.code));
                        continue;
                    }
                    let v = self.expr(init, if t == Ty::Unknown { None } else { Some(&t) })?;
                    if t == Ty::Unknown && v.ty == super::boards::OWNED {
                        out.push_str(&self.owned_board_local(name, v, *span)?);
                        continue;
                    }
                    if t == Ty::Unknown {
                        t = match &v.ty {
                            Ty::Null => return Err(unsupported(*span, "`var` of `null`", name)),
                            other => other.clone(),
                        };
                    }
                    let v = self.coerce(v, &t, init)?;
                    Some(self.owned_stored(v, init)?)
                }
                None => None,
            };
            let l = self.declare(name, t.clone(), LocalKind::Value);
            let mutable =
                if !is_const && (self.is_reassigned(&l.owner, l.id) || t == Ty::Api("Random")) {
                    "mut "
                } else {
                    ""
                };
            let rust_ty = self.rty(&t, *span)?;
            match value {
                Some(v) => out.push_str(&format!(
                    "let {mutable}{}: {rust_ty} = {};\n",
                    l.rust, v.code
                )),
                // A piece list has no default: C# assigns it before any read, and so must Rust.
                None if t == Ty::Api("PieceList") => {
                    out.push_str(&format!("let {mutable}{}: {rust_ty};\n", l.rust))
                }
                None => out.push_str(&format!(
                    "let {mutable}{}: {rust_ty} = {};\n",
                    l.rust,
                    self.default_value(&t, *span)?
                )),
            }
        }
        Ok(out)
    }

    fn local_stmt(
        &mut self,
        ty: &TypeRef,
        vars: &[(String, Option<Expr>, crate::error::Span)],
        is_const: bool,
        s: &Stmt,
    ) -> R<String> {
        let mut out = String::new();
        for var in vars {
            out += &match var {
                (name, Some(init), span)
                    if !is_const && *ty != TypeRef::Var && reads_own_name(init, name) =>
                {
                    self.declared_then_assigned(ty, name, init, *span, s)?
                }
                _ => self.local_decl(ty, std::slice::from_ref(var), is_const, s)?,
            };
        }
        Ok(out)
    }

    /// `Move m = F(out m) ? m : G();`: the variable is in scope in its own initialiser,
    /// which must assign it before reading it (definite assignment): declared first,
    /// then assigned.
    fn declared_then_assigned(
        &mut self,
        ty: &TypeRef,
        name: &str,
        init: &Expr,
        span: crate::error::Span,
        s: &Stmt,
    ) -> R<String> {
        let decl = self.local_decl(ty, &[(name.to_string(), None, span)], false, s)?;
        Ok(decl + &self.stmt(&assign_stmt(name, init, span))?)
    }

    fn deconstruct(&mut self, names: &[(Option<String>, TypeRef)], value: &Expr) -> R<String> {
        let v = self.expr(value, None)?;
        let v = self.tuple_class_items(v);
        let Ty::Tuple(items, _) = v.ty.clone() else {
            return Err(unsupported(
                value.span,
                "a deconstruction of something not a tuple",
                super::snippet(self.src, value),
            ));
        };
        if items.len() != names.len() {
            return Err(unsupported(
                value.span,
                "a deconstruction of the wrong arity",
                super::snippet(self.src, value),
            ));
        }
        let v = self.owned(v);
        let mut pats = Vec::new();
        for ((name, _), ty) in names.iter().zip(&items) {
            match name {
                None => pats.push("_".to_string()),
                Some(n) => {
                    let l = self.declare(n, ty.clone(), LocalKind::Value);
                    let mutable = if self.is_reassigned(&l.owner, l.id) {
                        "mut "
                    } else {
                        ""
                    };
                    pats.push(format!("{mutable}{}", l.rust));
                }
            }
        }
        Ok(format!("let ({}) = {};\n", pats.join(", "), v.code))
    }

    fn expr_stmt(&mut self, e: &Expr) -> R<String> {
        if let Some((class, name)) = console_call(e) {
            // Output to the console: a UCI engine's stdout is the protocol's.
            self.warn(
                e.span,
                format!("`{class}.{name}` dropped (an engine's output is the UCI protocol)"),
            );
            // Its arguments' effects stay (`Debug`'s go with the call in a release build).
            let effects = if class == "Debug" {
                String::new()
            } else {
                let v = self.expr(e, None)?;
                if v.code == "()" {
                    String::new()
                } else {
                    format!("{};\n", v.code)
                }
            };
            return Ok(format!(
                "{effects}// {}\n",
                super::snippet(self.src, e)
                    .lines()
                    .next()
                    .unwrap_or("")
                    .trim()
            ));
        }
        if let ExprKind::Call(callee, args) = &e.kind
            && let ExprKind::Member(target, name, _) = &callee.kind
            && let ExprKind::Name(class, _) = &target.kind
            && class == "GC"
            && (name == "Collect" && args.is_empty() || name == "WaitForPendingFinalizers")
        {
            // Asking .NET to collect garbage changes no value a bot computes (the port has
            // no finalizers to run): only the time it takes, which Rust has no collector
            // to spend.
            return Ok(format!("// {}\n", super::snippet(self.src, e)));
        }
        let v = self.expr_as_stmt(e)?;
        if v.code.is_empty() || v.code == "()" {
            return Ok(String::new());
        }
        Ok(format!("{};\n", v.code))
    }

    /// An `if` condition or loop condition: a `bool`.
    pub(crate) fn condition(&mut self, c: &Expr) -> R<String> {
        let v = self.expr(c, Some(&Ty::Bool))?;
        let v = self.coerce(v, &Ty::Bool, c)?;
        Ok(v.code)
    }

    fn if_stmt(&mut self, c: &Expr, then: &Stmt, alt: Option<&Stmt>) -> R<String> {
        let cond = self.condition(c)?;
        let pre = self.take_pre();
        let then = self.scoped(then)?;
        let mut out = format!("{pre}if {cond} {{\n{}}}", Self::indent(&then));
        match alt {
            None => out.push('\n'),
            Some(Stmt {
                kind: StmtKind::If(c2, t2, a2),
                ..
            }) => {
                let inner = self.if_stmt(c2, t2, a2.as_deref())?;
                if inner.starts_with("if ") {
                    out.push_str(&format!(" else {inner}"));
                } else {
                    out.push_str(&format!(" else {{\n{}}}\n", Self::indent(&inner)));
                }
            }
            Some(alt) => {
                let alt = self.scoped(alt)?;
                out.push_str(&format!(" else {{\n{}}}\n", Self::indent(&alt)));
            }
        }
        Ok(out)
    }

    /// A loop's body; `continue` inside it jumps to `label` (a block around the body, so
    /// a `for` loop's update and a `do` loop's condition still run) when one is given.
    /// A loop's body. With `labels` (the loop's and its body's, for a `for` loop with
    /// updates or a `do` loop whose body uses `continue`), the body is a labelled block
    /// that `continue` leaves (so the update or the condition still runs), and `break`
    /// names the loop (Rust refuses an unlabelled `break` through a labelled block).
    fn loop_body(&mut self, body: &Stmt, labels: Option<(String, String)>) -> R<String> {
        self.f().loop_depth += 1;
        if let Some(n) = self.f().loops_in_try.last_mut() {
            *n += 1;
        }
        let depth = self.fr().loop_depth;
        let (next, outer) = labels.clone().unwrap_or_default();
        self.continue_labels.push((depth, next, outer));
        let out = self.scoped(body);
        self.continue_labels.pop();
        if let Some(n) = self.f().loops_in_try.last_mut() {
            *n -= 1;
        }
        self.f().loop_depth -= 1;
        let out = out?;
        Ok(match labels {
            Some((next, _)) => format!("{next}: {{\n{}}}\n", Self::indent(&out)),
            None => out,
        })
    }

    /// Labels for a loop whose body `continue` must leave: `'next` and `'outer` (with
    /// the loop depth when nested).
    fn loop_labels(&self, body: &Stmt) -> Option<(String, String)> {
        if !continues(body) {
            return None;
        }
        let depth = self.fr().loop_depth + 1;
        Some(if depth == 1 {
            ("'next".into(), "'outer".into())
        } else {
            (format!("'next_{depth}"), format!("'outer_{depth}"))
        })
    }

    fn do_stmt(&mut self, body: &Stmt, c: &Expr) -> R<String> {
        let labels = self.loop_labels(body);
        let outer = labels
            .as_ref()
            .map(|(_, o)| format!("{o}: "))
            .unwrap_or_default();
        let body = self.loop_body(body, labels)?;
        let cond = self.condition(c)?;
        let pre = self.take_pre();
        let tail = if cond == "true" {
            String::new()
        } else {
            format!("{pre}if !({cond}) {{\n    break;\n}}\n")
        };
        Ok(format!(
            "{outer}loop {{\n{}}}\n",
            Self::indent(&format!("{body}{tail}"))
        ))
    }

    fn for_stmt(
        &mut self,
        init: &[Stmt],
        cond: Option<&Expr>,
        update: &[Expr],
        body: &Stmt,
    ) -> R<String> {
        self.scopes.push(Scope::default());
        let result = self.for_inner(init, cond, update, body);
        self.scopes.pop();
        result
    }

    fn for_inner(
        &mut self,
        init: &[Stmt],
        cond: Option<&Expr>,
        update: &[Expr],
        body: &Stmt,
    ) -> R<String> {
        let mut out = String::new();
        for s in init {
            let code = self.stmt(s)?;
            out.push_str(&self.take_pre());
            out.push_str(&code);
        }
        let cond = match cond {
            Some(c) => Some(self.condition(c)?),
            None => None,
        };
        let cond_pre = self.take_pre();
        if !cond_pre.is_empty() {
            return Err(unsupported(
                body.span,
                "an `out` variable in a `for` condition",
                "",
            ));
        }
        let labels = if update.is_empty() {
            None
        } else {
            self.loop_labels(body)
        };
        let outer = labels
            .as_ref()
            .map(|(_, o)| format!("{o}: "))
            .unwrap_or_default();
        let body_code = self.loop_body(body, labels)?;
        let mut updates = String::new();
        for u in update {
            let v = self.expr_as_stmt(u)?;
            updates.push_str(&self.take_pre());
            updates.push_str(&format!("{};\n", v.code));
        }
        let inner = format!("{body_code}{updates}");
        let head = match cond {
            Some(c) if c != "true" => format!("{outer}while {c} {{\n"),
            _ => format!("{outer}loop {{\n"),
        };
        out.push_str(&format!("{head}{}}}\n", Self::indent(&inner)));
        if init.is_empty() {
            Ok(out)
        } else {
            Ok(format!("{{\n{}}}\n", Self::indent(&out)))
        }
    }

    fn foreach(
        &mut self,
        ty: &TypeRef,
        names: &[String],
        iter: &Expr,
        body: &Stmt,
        s: &Stmt,
    ) -> R<String> {
        let v = self.expr(iter, None)?;
        let v = self.non_null(v, iter)?;
        let elem = v.ty.element().ok_or_else(|| {
            unsupported(
                iter.span,
                format!("a `foreach` over a `{}`", v.ty.cs()),
                super::snippet(self.src, iter),
            )
        })?;
        let declared = self.p.resolve(ty, &self.type_params, s.span)?;
        let iter_code = match &v.ty {
            Ty::Array(..)
            | Ty::List(_)
            | Ty::Dict(..)
            | Ty::Set(_)
            | Ty::Coll("Queue" | "Stack" | "LinkedList" | "SortedSet" | "IGrouping", _) => {
                format!("{}.iter()", v.at(super::Prec::Primary))
            }
            Ty::Seq(_) => self.owned(v.clone()).code,
            Ty::Str => format!(
                "{}.encode_utf16().collect::<Vec<u16>>()",
                v.at(super::Prec::Primary)
            ),
            Ty::Api("PieceList") => format!("cs::Piece::in_list(&{})", v.at(super::Prec::Unary)),
            _ => {
                return Err(unsupported(
                    iter.span,
                    format!("a `foreach` over a `{}`", v.ty.cs()),
                    super::snippet(self.src, iter),
                ));
            }
        };
        self.scopes.push(Scope::default());
        let pattern = if names.len() == 1 {
            let t = if declared == Ty::Unknown {
                elem.clone()
            } else {
                declared.clone()
            };
            let l = self.declare(&names[0], t.clone(), LocalKind::Value);
            self.readonly_locals.insert((l.owner.clone(), l.id));
            if t != elem {
                // `foreach (int x in bytes)`: C# converts each element.
                let conv = self.convert_code(&elem, &t, &l.rust, iter.span)?;
                let pre = format!("let {} = {conv};\n", l.rust);
                let body = self.loop_body(body, None)?;
                self.scopes.pop();
                return Ok(format!(
                    "for {} in {iter_code} {{\n{}}}\n",
                    l.rust,
                    Self::indent(&format!("{pre}{body}"))
                ));
            }
            l.rust
        } else {
            self.deconstruction(names, &elem, &declared, iter)?
        };
        let body = self.loop_body(body, None)?;
        self.scopes.pop();
        Ok(format!(
            "for {pattern} in {iter_code} {{\n{}}}\n",
            Self::indent(&body)
        ))
    }

    /// The pattern of a deconstructing `foreach`: one local a tuple element, each of the
    /// element's type (C# would convert to a declared type; that is refused).
    fn deconstruction(
        &mut self,
        names: &[String],
        elem: &Ty,
        declared: &Ty,
        iter: &Expr,
    ) -> R<String> {
        let Ty::Tuple(items, _) = elem else {
            return Err(unsupported(
                iter.span,
                "a deconstructing `foreach` over non-tuples",
                "",
            ));
        };
        if let Ty::Tuple(wanted, _) = declared
            && wanted
                .iter()
                .zip(items)
                .any(|(w, t)| *w != Ty::Unknown && w != t)
        {
            return Err(unsupported(
                iter.span,
                "a deconstructing `foreach` that converts the elements",
                "",
            ));
        }
        let mut pats = Vec::new();
        for (n, t) in names.iter().zip(items) {
            if n == "_" {
                pats.push("_".to_string());
            } else {
                pats.push(self.declare(n, t.clone(), LocalKind::Value).rust);
            }
        }
        Ok(format!("({})", pats.join(", ")))
    }

    fn return_stmt(&mut self, e: Option<&Expr>, s: &Stmt) -> R<String> {
        let in_lambda = self.fr().lambda_depth > 0;
        let value = match e {
            None => None,
            Some(e) if self.fr().ret_ref && !in_lambda => Some(self.ref_expr(e)?),
            Some(e) => {
                let ret = if in_lambda {
                    self.lambda_ret.last().cloned().flatten()
                } else {
                    Some(self.fr().ret.clone())
                };
                let v = self.expr(e, ret.as_ref())?;
                let v = match &ret {
                    Some(r) if in_lambda && self.widens_lambda(r, &v.ty) => v,
                    Some(r) if *r != Ty::Unknown => self.coerce(v, r, e)?,
                    _ => v,
                };
                if in_lambda
                    && let Some(slot) = self.lambda_ret.last_mut()
                    && slot.is_none()
                {
                    *slot = Some(v.ty.clone());
                }
                Some(self.owned_stored(v, e)?.code)
            }
        };
        if !in_lambda && !self.fr().try_exits.is_empty() {
            if let Some(x) = self.f().try_exits.last_mut() {
                x.returns = true;
            }
            let _ = s;
            return Ok(match value {
                Some(v) => format!("return cs::Flow::Return({v});\n"),
                None => "return cs::Flow::Return(());\n".into(),
            });
        }
        Ok(match value {
            Some(v) => format!("return {v};\n"),
            None => "return;\n".into(),
        })
    }

    /// A `return` of a lambda whose type the first `return` inferred, of a wider
    /// numeric type: noted, for the lambda to be written again with it.
    fn widens_lambda(&mut self, inferred: &Ty, ty: &Ty) -> bool {
        let Some((true, wider)) = self.lambda_widen.last_mut() else {
            return false;
        };
        let current = wider.clone().unwrap_or_else(|| inferred.clone());
        if *ty == current || !ty.is_numeric() || !implicit_numeric(&current, ty) {
            return false;
        }
        *wider = Some(ty.clone());
        true
    }

    fn break_stmt(&mut self) -> R<String> {
        if let Some(label) = self.switch_labels.last().cloned()
            && label.1 == self.fr().loop_depth
        {
            self.switch_break_used = true;
            return Ok(format!("break {};\n", label.0));
        }
        if self.leaves_try() {
            if let Some(x) = self.f().try_exits.last_mut() {
                x.breaks = true;
            }
            return Ok("return cs::Flow::Break;\n".into());
        }
        let depth = self.fr().loop_depth;
        match self
            .continue_labels
            .iter()
            .rev()
            .find(|(d, _, _)| *d == depth)
        {
            Some((_, _, outer)) if !outer.is_empty() => Ok(format!("break {outer};\n")),
            _ => Ok("break;\n".into()),
        }
    }

    fn continue_stmt(&mut self) -> R<String> {
        if self.leaves_try() {
            if let Some(x) = self.f().try_exits.last_mut() {
                x.continues = true;
            }
            return Ok("return cs::Flow::Continue;\n".into());
        }
        let depth = self.fr().loop_depth;
        match self
            .continue_labels
            .iter()
            .rev()
            .find(|(d, _, _)| *d == depth)
        {
            Some((_, label, _)) if !label.is_empty() => Ok(format!("break {label};\n")),
            _ => Ok("continue;\n".into()),
        }
    }

    /// Whether a `break` or `continue` here leaves the innermost `try` body's closure.
    fn leaves_try(&self) -> bool {
        let f = self.fr();
        f.lambda_depth == 0 && f.loops_in_try.last().is_some_and(|n| *n == 0)
    }

    // `try`/`catch`/`finally` lowered in one place: the body's break/continue/return travel through one control-flow enum.
    #[allow(clippy::too_many_lines)]
    fn try_stmt(
        &mut self,
        body: &[Stmt],
        catches: &[Catch],
        finally: Option<&[Stmt]>,
        s: &Stmt,
    ) -> R<String> {
        if catches.iter().any(|c| c.filtered) {
            return Err(unsupported(
                s.span,
                "a `catch` with a `when` filter",
                "catch when",
            ));
        }
        self.f().loops_in_try.push(0);
        self.f().try_exits.push(TryExits::default());
        let inner = self.block_body(body);
        self.f().loops_in_try.pop();
        let exits = self.f().try_exits.pop().unwrap_or_default();
        let inner = inner?;
        let catch_code = match catches.first() {
            Some(c) => {
                if let Some(name) = &c.name
                    && reads_exception(&c.body, name)
                {
                    return Err(unsupported(
                        s.span,
                        "a `catch` that reads its exception",
                        name,
                    ));
                }
                self.block_body(&c.body)?
            }
            None => String::new(),
        };
        let finally_code = match finally {
            Some(f) => self.block_body(f)?,
            None => String::new(),
        };
        let uses_flow = exits.returns || exits.breaks || exits.continues;
        if catches.is_empty() {
            return self.try_finally(&inner, &exits, &finally_code, s);
        }
        // The `finally` written after the `catch` would be skipped by a `return`,
        // `break` or `continue` out of the `try` or the `catch`, or an exception out of
        // the `catch`, where C# runs it.
        if finally.is_some() {
            return Err(unsupported(
                s.span,
                "a `try` with both `catch` and `finally`",
                "try/catch/finally",
            ));
        }
        let mut out = String::new();
        if !uses_flow {
            let closure = format!("cs::try_catch(|| {{\n{}}})", Self::indent(&inner));
            if catches.is_empty() {
                return Err(unsupported(
                    s.span,
                    "a `try` without `catch`",
                    "try/finally",
                ));
            }
            if catch_code.trim().is_empty() {
                out.push_str(&format!("{closure};\n"));
            } else {
                out.push_str(&format!(
                    "if {closure}.is_none() {{\n{}}}\n",
                    Self::indent(&catch_code)
                ));
            }
        } else {
            if catches.is_empty() {
                return Err(unsupported(
                    s.span,
                    "a `try` without `catch`",
                    "try/finally",
                ));
            }
            let mut arms = self.flow_arms(&exits, |p| format!("Some({p})"))?;
            arms.push_str("Some(_) => {}\n");
            arms.push_str(&format!("None => {{\n{}}}\n", Self::indent(&catch_code)));
            // Without a `return` inside, nothing names the flow's value type.
            let flow_ty = if exits.returns {
                ""
            } else {
                " -> cs::Flow<()>"
            };
            let closure = format!(
                "cs::try_catch(||{flow_ty} {{\n{}}})",
                Self::indent(&format!("{inner}cs::Flow::Normal\n"))
            );
            out.push_str(&format!("match {closure} {{\n{}}}\n", Self::indent(&arms)));
        }
        out.push_str(&finally_code);
        Ok(out)
    }

    /// The `match` arms that carry a `return`, `break` or `continue` out of a `try`'s
    /// closure, each pattern written by `pattern` (`Some(..)` for `try_catch`'s result).
    fn flow_arms(&mut self, exits: &TryExits, pattern: impl Fn(&str) -> String) -> R<String> {
        let mut arms = String::new();
        if exits.returns {
            let ret_void = self.fr().ret == Ty::Void;
            let nested = !self.fr().try_exits.is_empty();
            if let Some(outer) = self.f().try_exits.last_mut() {
                outer.returns = true;
            }
            let action = match (nested, ret_void) {
                (true, _) => "return cs::Flow::Return(value)",
                (false, true) => "return",
                (false, false) => "return value",
            };
            let bind = if !nested && ret_void { "_" } else { "value" };
            let p = pattern(&format!("cs::Flow::Return({bind})"));
            arms.push_str(&format!("{p} => {action},\n"));
        }
        if exits.breaks {
            let code = self.break_stmt()?;
            let p = pattern("cs::Flow::Break");
            arms.push_str(&format!(
                "{p} => {},\n",
                code.trim_end().trim_end_matches(';')
            ));
        }
        if exits.continues {
            let code = self.continue_stmt()?;
            let p = pattern("cs::Flow::Continue");
            arms.push_str(&format!(
                "{p} => {},\n",
                code.trim_end().trim_end_matches(';')
            ));
        }
        Ok(arms)
    }

    /// `try { } finally { }`: the body in a closure whose exception, `return`, `break` or
    /// `continue` waits until the `finally` block, written after it, has run.
    fn try_finally(
        &mut self,
        inner: &str,
        exits: &TryExits,
        finally_code: &str,
        s: &Stmt,
    ) -> R<String> {
        let body = format!("try_{}_{}", s.span.line, s.span.column);
        let mut arms = self.flow_arms(exits, |p| p.to_string())?;
        let (closure, after) = if arms.is_empty() {
            (
                format!("cs::try_finally(|| {{\n{}}})", Self::indent(inner)),
                format!("cs::after_finally({body});\n"),
            )
        } else {
            arms.push_str("_ => {}\n");
            let flow_ty = if exits.returns {
                ""
            } else {
                " -> cs::Flow<()>"
            };
            let closure = format!(
                "cs::try_finally(||{flow_ty} {{\n{}}})",
                Self::indent(&format!("{inner}cs::Flow::Normal\n"))
            );
            (
                closure,
                format!(
                    "match cs::after_finally({body}) {{\n{}}}\n",
                    Self::indent(&arms)
                ),
            )
        };
        Ok(format!("let {body} = {closure};\n{finally_code}{after}"))
    }

    fn switch_stmt(&mut self, v: &Expr, sections: &[SwitchSection], s: &Stmt) -> R<String> {
        let Some((declared, sections)) = shared_section_locals(sections) else {
            return self.switch_match(v, sections, s);
        };
        // A local of one section is in scope in the whole switch block (ECMA-334
        // 13.8.3): declared before the `match`, assigned where C# declares it.
        self.scopes.push(Scope::default());
        let decls = self.stmts(&declared);
        let inner = decls.and_then(|d| Ok(d + &self.switch_match(v, &sections, s)?));
        self.scopes.pop();
        Ok(format!("{{\n{}}}\n", Self::indent(&inner?)))
    }

    fn switch_match(&mut self, v: &Expr, sections: &[SwitchSection], s: &Stmt) -> R<String> {
        let value = self.expr(v, None)?;
        let value = self.owned(value);
        let label = format!("'switch_{}", self.fr().loop_depth);
        let depth = self.fr().loop_depth;
        self.switch_labels.push((label.clone(), depth));
        let outer_used = std::mem::replace(&mut self.switch_break_used, false);
        let mut arms = String::new();
        let mut has_default = false;
        let mut any_guard = false;
        for section in sections {
            let mut pats = Vec::new();
            let mut guard = None;
            for l in &section.labels {
                match l {
                    None => {
                        has_default = true;
                        pats.push("_".to_string());
                    }
                    Some((p, g)) => {
                        let (pat, pguard) = self.pattern_arm(p, &value.ty, s)?;
                        pats.push(pat);
                        if let Some(g) = g {
                            let gv = self.condition(g)?;
                            guard = Some(match pguard {
                                Some(pg) => format!("{pg} && {gv}"),
                                None => gv,
                            });
                        } else if pguard.is_some() {
                            guard = pguard;
                        }
                    }
                }
            }
            if guard.is_some() && pats.len() > 1 {
                return Err(unsupported(
                    s.span,
                    "a switch section with several labels and a `when`",
                    "",
                ));
            }
            let mut body = section.body.clone();
            if let Some(last) = body.last()
                && matches!(last.kind, StmtKind::Break)
            {
                body.pop();
            }
            self.scopes.push(Scope::default());
            let code = self.stmts(&body);
            self.scopes.pop();
            let code = code?;
            let pats = if pats.contains(&"_".to_string()) {
                "_".to_string()
            } else {
                pats.join(" | ")
            };
            any_guard |= guard.is_some();
            let guard = guard.map(|g| format!(" if {g}")).unwrap_or_default();
            arms.push_str(&format!("{pats}{guard} => {{\n{}}}\n", Self::indent(&code)));
        }
        if !has_default {
            arms.push_str("_ => {}\n");
        }
        self.switch_labels.pop();
        let used = std::mem::replace(&mut self.switch_break_used, outer_used);
        // A guard may not name the variable its match reads (docs/rules.md,
        // `match-guard`); C# reads the switch's value once, before any `when`, so a
        // temporary holding it means the same.
        let m = if any_guard && value.place {
            let subject = self.temp("switch_value");
            format!(
                "let {subject} = {};\nmatch {subject} {{\n{}}}\n",
                value.code,
                Self::indent(&arms)
            )
        } else {
            format!("match {} {{\n{}}}\n", value.code, Self::indent(&arms))
        };
        if used {
            Ok(format!("{label}: {{\n{}}}\n", Self::indent(&m)))
        } else {
            Ok(m)
        }
    }

    /// Declares a block's local function (its name, parameters and return type).
    fn declare_local_fn(&mut self, decl: &MethodDecl) -> R<()> {
        let owner = self.fr().class;
        let parent = self.fr().key.clone();
        let key = format!("{parent}/{}", decl.name);
        let base = snake(&decl.name);
        let rust = self.local_fn_name(&base);
        let info = self.p.method_info(decl, owner, 0, rust, key)?;
        self.scopes
            .last_mut()
            .expect("a scope")
            .fns
            .push(super::decls::LocalFn {
                info,
                decl: decl.clone(),
            });
        Ok(())
    }

    /// A method name for a lifted local function that no method of its type has.
    fn local_fn_name(&mut self, base: &str) -> String {
        let class = self.fr().class;
        let mut taken: std::collections::HashSet<String> = self.p.types[class]
            .methods
            .iter()
            .map(|m| m.rust.clone())
            .collect();
        if class == self.p.bot {
            for t in &self.p.types {
                taken.extend(
                    t.methods
                        .iter()
                        .filter(|m| m.is_static)
                        .map(|m| m.rust.clone()),
                );
            }
        }
        taken.extend(self.lifted_names.iter().cloned());
        let name = super::names::fresh(base.to_string(), &mut taken);
        self.lifted_names.push(name.clone());
        name
    }

    /// Writes a local function as a method of its type, taking the locals it captures.
    fn lift_local_fn(&mut self, decl: &MethodDecl) -> R<()> {
        let lf = self
            .find_local_fn(&decl.name)
            .ok_or_else(|| unsupported(decl.span, "a local function", &decl.name))?;
        let info = lf.info.clone();
        if !info.type_params.is_empty() {
            return Err(unsupported(
                decl.span,
                "a generic local function",
                &decl.name,
            ));
        }
        let parent = self.fr().key.clone();
        self.learned.parent.insert(info.key.clone(), parent);
        let class = self.fr().class;
        let bot_level = self.fr().bot_level;
        let captures: Vec<(String, u32)> = self
            .facts
            .captures
            .get(&info.key)
            .map(|c| c.iter().cloned().collect())
            .unwrap_or_default();
        let outer_locals: Vec<super::decls::Local> = captures
            .iter()
            .filter_map(|(owner, id)| {
                self.scopes
                    .iter()
                    .flat_map(|s| &s.locals)
                    .find(|l| l.owner == *owner && l.id == *id)
                    .cloned()
            })
            .collect();
        self.enter_fn(
            info.key.clone(),
            class,
            info.ret.clone(),
            info.ret_ref,
            bot_level,
        );
        let mut params = self.params(&lf.decl, &info)?;
        for l in &outer_locals {
            let ty = self.rty(&l.ty, decl.span)?;
            // A parameter of the local function may have the captured local's name.
            let name = super::names::fresh(l.rust.clone(), &mut self.f().taken);
            params.push(format!("{name}: &mut {ty}"));
            self.f().capture_names.insert((l.owner.clone(), l.id), name);
        }
        let body = self.body(&lf.decl.body, decl.span);
        self.leave_fn();
        let body = body?;
        let receiver = if self.mutates(&info.key) {
            "&mut self"
        } else {
            "&self"
        };
        let ret = self.ret_type(&info, decl.span)?;
        let mut all = vec![receiver.to_string()];
        all.extend(params);
        all.extend(self.bot_param(&info.key, bot_level));
        let text = format!(
            "fn {}({}){ret} {{\n{}}}\n\n",
            info.rust,
            all.join(", "),
            Self::indent(&body)
        );
        self.lifted.push((class, text));
        Ok(())
    }

    /// A `case` label as a Rust pattern, with a guard for what a pattern cannot say.
    fn pattern_arm(&mut self, p: &Pattern, ty: &Ty, s: &Stmt) -> R<(String, Option<String>)> {
        match p {
            Pattern::Discard => Ok(("_".into(), None)),
            Pattern::Const(e) => {
                let v = self.expr(e, Some(ty))?;
                let v = self.coerce(v, ty, e)?;
                if let Some(k) = &v.konst {
                    return Ok((self.const_pattern(k, ty, e)?, None));
                }
                if v.code.chars().all(|c| {
                    c.is_ascii_uppercase()
                        || c.is_ascii_digit()
                        || c == '_'
                        || c == ':'
                        || c.is_ascii_lowercase()
                }) && !v.effects
                {
                    return Ok((v.code, None));
                }
                Err(unsupported(
                    e.span,
                    "a `case` that is not a constant",
                    super::snippet(self.src, e),
                ))
            }
            Pattern::Relational(op, e) => {
                let v = self.expr(e, Some(ty))?;
                let v = self.coerce(v, ty, e)?;
                Ok((
                    "x".into(),
                    Some(format!("x {} {}", op.rust(), v.at(super::Prec::Shift))),
                ))
            }
            Pattern::Or(a, b) => {
                let (pa, ga) = self.pattern_arm(a, ty, s)?;
                let (pb, gb) = self.pattern_arm(b, ty, s)?;
                if ga.is_some() || gb.is_some() {
                    return Err(unsupported(
                        s.span,
                        "an `or` of relational patterns in a `case`",
                        "",
                    ));
                }
                Ok((format!("{pa} | {pb}"), None))
            }
            Pattern::Positional(_) => {
                // The guard reads the subject's elements; it declares no variable.
                let at = Expr::new(ExprKind::Null, s.span, (0, 0));
                let cond = self.pattern_cond(p, "x", ty, &at)?;
                Ok(("x".into(), Some(cond)))
            }
            _ => Err(unsupported(s.span, "this `case` pattern", "")),
        }
    }

    /// An expression statement's value, for the statement's effect.
    pub(crate) fn expr_as_stmt(&mut self, e: &Expr) -> R<Val> {
        match &e.kind {
            ExprKind::IncDec(op, target) => self.incdec(*op, target, e, false),
            ExprKind::Assign(op, l, r) => self.assign(*op, l, r, e, false),
            _ => self.expr(e, None),
        }
    }
}

/// Whether `s` contains a `continue` of the loop whose body it is (not of a nested loop).
fn continues(s: &Stmt) -> bool {
    match &s.kind {
        StmtKind::Continue => true,
        StmtKind::Block(stmts) => stmts.iter().any(continues),
        StmtKind::If(_, a, b) => continues(a) || b.as_deref().is_some_and(continues),
        StmtKind::Try {
            body,
            catches,
            finally,
        } => {
            body.iter().any(continues)
                || catches.iter().any(|c| c.body.iter().any(continues))
                || finally.as_ref().is_some_and(|f| f.iter().any(continues))
        }
        StmtKind::Switch(_, sections) => sections.iter().any(|sec| sec.body.iter().any(continues)),
        _ => false,
    }
}

/// The sections with their typed locals split into declarations and assignments, when
/// another section names one of them; `None` when none does.
fn shared_section_locals(sections: &[SwitchSection]) -> Option<(Vec<Stmt>, Vec<SwitchSection>)> {
    let texts: Vec<String> = sections.iter().map(|s| format!("{:?}", s.body)).collect();
    let shared = sections.iter().enumerate().any(|(i, section)| {
        section.body.iter().any(|st| match &st.kind {
            StmtKind::Local {
                ty,
                vars,
                is_const: false,
            } if *ty != TypeRef::Var => {
                vars.iter().any(|(name, _, _)| {
                    // The debug text of the other sections' trees names each use.
                    let used = format!("Name({name:?}, ");
                    texts
                        .iter()
                        .enumerate()
                        .any(|(j, t)| j != i && t.contains(&used))
                })
            }
            _ => false,
        })
    });
    if !shared {
        return None;
    }
    let mut declared = Vec::new();
    let sections = sections
        .iter()
        .map(|section| {
            let (decls, body) = super::gotos::hoist_locals(&section.body);
            declared.extend(decls);
            SwitchSection {
                labels: section.labels.clone(),
                body,
            }
        })
        .collect();
    Some((declared, sections))
}

/// `name = value;`.
fn assign_stmt(name: &str, value: &Expr, span: crate::error::Span) -> Stmt {
    let target = Expr::new(ExprKind::Name(name.to_string(), Vec::new()), span, (0, 0));
    let assign = Expr::new(
        ExprKind::Assign(None, Box::new(target), Box::new(value.clone())),
        span,
        value.range,
    );
    Stmt {
        kind: StmtKind::Expr(assign),
        span,
    }
}

/// `Console.WriteLine(...)` and the like: the class and method, for a call the port drops.
fn console_call(e: &Expr) -> Option<(&str, &str)> {
    if let ExprKind::Call(callee, _) = &e.kind
        && let ExprKind::Member(target, name, _) = &callee.kind
        && let ExprKind::Name(class, _) = &target.kind
        && matches!(class.as_str(), "Console" | "DivertedConsole" | "Debug")
        && matches!(name.as_str(), "WriteLine" | "Write" | "Assert" | "Print")
    {
        return Some((class, name));
    }
    None
}

/// Whether a `catch` body reads its exception `name` other than by rethrowing it (the
/// port's `throw` aborts the search whatever is thrown) or in console output (dropped).
fn reads_exception(body: &[Stmt], name: &str) -> bool {
    body.iter().any(|st| {
        let benign = match &st.kind {
            StmtKind::Throw(Some(e)) => matches!(&e.kind, ExprKind::Name(n, _) if n == name),
            StmtKind::Expr(e) => console_call(e).is_some(),
            _ => false,
        };
        !benign && format!("{st:?}").contains(&format!("\"{name}\""))
    })
}

/// Whether a local's initialiser names the local itself (its debug text names each use;
/// a lambda parameter of the same name, which C# lets shadow it, is not that).
fn reads_own_name(init: &Expr, name: &str) -> bool {
    let text = format!("{init:?}");
    let param = [format!("[({name:?}, "), format!(", ({name:?}, ")];
    text.contains(&format!("Name({name:?}, ")) && !param.iter().any(|p| text.contains(p))
}

//! Items: the file's own enums and structs, the bot's struct, its `Default`, its `Bot`
//! impl and its methods.

use super::decls::{FileEmitter, LocalKind};
use super::program::{MethodInfo, kept_field};
use super::{R, unsupported};
use crate::ast::*;
use crate::error::Span;
use crate::types::Ty;

/// The field through which a class's instance reaches itself as a `cs::Obj` (C#'s
/// `this` as a value).
pub(crate) const THIS_FIELD: &str = "this_obj";

impl FileEmitter<'_, '_> {
    /// An enum (as constants) or a struct with its impl.
    pub(crate) fn own_type(&mut self, t: usize) -> R<String> {
        let info = &self.p.types[t];
        let decl = &self.p.unit.types[t];
        match info.kind {
            TypeKind::Enum => {
                let repr = info.enum_repr.rust();
                for (name, value) in &info.enum_values {
                    let c = format!(
                        "const {}: {repr} = {value};\n",
                        self.p.enum_const(&info.cs, name)
                    );
                    self.consts.push(c);
                }
                self.consts.push("\n".into());
                Ok(String::new())
            }
            TypeKind::Struct => self.struct_item(t),
            TypeKind::Class | TypeKind::Record => {
                let instance = info.fields.iter().any(|f| !f.is_static)
                    || info.methods.iter().any(|m| !m.is_static);
                let exception = decl
                    .bases
                    .iter()
                    .any(|b| matches!(b, TypeRef::Named(n, _) if n == "Exception"));
                if instance && !exception {
                    return self.class_item(t);
                }
                // A static class: its members live in the bot's struct.
                Ok(String::new())
            }
        }
    }

    fn struct_item(&mut self, t: usize) -> R<String> {
        let info = &self.p.types[t];
        let decl = &self.p.unit.types[t];
        let name = info.rust.clone();
        let copy = self.p.is_copy(&Ty::Struct(info.cs.clone()));
        let mut fields = String::new();
        let mut defaults = String::new();
        let mut derive_default = true;
        let has_ctor = info.methods.iter().any(|m| m.cs == ".ctor");
        for f in info.fields.iter().filter(|f| kept_field(f)) {
            let (_, init) = self.p.field_decl(f);
            // C# refuses field initialisers in a struct without a constructor (CS8983).
            if init.is_some() && !has_ctor {
                return Err(unsupported(
                    f.span,
                    "a struct field with an initialiser and no constructor",
                    &f.cs,
                ));
            }
            fields.push_str(&format!(
                "    pub {}: {},\n",
                f.rust,
                self.rty(&f.ty, f.span)?
            ));
            let value = self.default_value(&f.ty, f.span)?;
            if value.contains("Square::A1") || value.contains("Move::NULL") {
                derive_default = false;
            }
            defaults.push_str(&format!("            {}: {value},\n", f.rust));
        }
        let mut out = FileEmitter::comments(&decl.comments);
        let derives = match (copy, derive_default) {
            (true, true) => "Clone, Copy, Default, PartialEq",
            (true, false) => "Clone, Copy, PartialEq",
            (false, true) => "Clone, Default, PartialEq",
            (false, false) => "Clone, PartialEq",
        };
        out.push_str(&format!(
            "#[derive({derives})]\npub struct {name} {{\n{fields}}}\n\n"
        ));
        if !derive_default {
            out.push_str(&format!(
                "impl Default for {name} {{\n    fn default() -> Self {{\n        {name} {{\n{defaults}        }}\n    }}\n}}\n\n"
            ));
        }
        let methods: Vec<MethodInfo> = info
            .methods
            .iter()
            .filter(|m| !m.is_static)
            .cloned()
            .collect();
        if !methods.is_empty() {
            let mut body = String::new();
            for ctor in methods.iter().filter(|m| m.cs == ".ctor") {
                body.push_str(&self.struct_new(ctor)?);
            }
            for m in &methods {
                body.push_str(&self.method(m)?);
            }
            body.push_str(&self.take_lifted(t));
            out.push_str(&format!(
                "impl {name} {{\n{}}}\n\n",
                FileEmitter::indent(&body)
            ));
        }
        Ok(out)
    }

    /// `new S(args)`: a default value, the field initialisers (which C# runs in every
    /// declared constructor, while `default(S)` and a `new S()` without a declared
    /// parameterless constructor leave them out), then the constructor's body.
    fn struct_new(&mut self, ctor: &MethodInfo) -> R<String> {
        let inits = self.initialisers(ctor.owner, |f, v| format!("slot.{f} = {v};\n"))?;
        let (params, names) = self.new_params(ctor)?;
        // One `new` for each constructor: `new`, `new_2`... beside `construct`, `construct_2`.
        Ok(format!(
            "pub fn {}({}) -> Self {{
    let mut slot = Self::default();
{}    slot.{}({});
    slot
}}

",
            ctor.rust.replacen("construct", "new", 1),
            params.join(", "),
            FileEmitter::indent(&inits),
            ctor.rust,
            names.join(", ")
        ))
    }

    fn take_lifted(&mut self, t: usize) -> String {
        let mut out = String::new();
        let lifted = std::mem::take(&mut self.lifted);
        for (owner, text) in lifted {
            if owner == t {
                out.push_str(&text);
            } else {
                self.lifted.push((owner, text));
            }
        }
        out
    }

    /// The bot's fields: its own, and every type's statics.
    fn bot_fields(&self) -> Vec<super::program::FieldInfo> {
        let mut out = Vec::new();
        for (t, info) in self.p.types.iter().enumerate() {
            for f in &info.fields {
                if !f.is_const
                    && (f.is_static || t == self.p.bot)
                    && !matches!(f.ty, Ty::Api("Board" | "Timer"))
                {
                    out.push(f.clone());
                }
            }
        }
        out
    }

    /// The bot's struct, `Default`, `Bot` impl and methods.
    pub(crate) fn bot_struct(&mut self) -> R<String> {
        let decl = &self.p.unit.types[self.p.bot];
        let mut out = FileEmitter::comments(&decl.comments);
        let mut fields = String::new();
        for f in self.bot_fields() {
            fields.push_str(&format!("    {}: {},\n", f.rust, self.rty(&f.ty, f.span)?));
        }
        fields.push_str(&format!(
            "    {}: Board,\n    {}: Timer,\n",
            self.board, self.timer
        ));
        out.push_str(&format!("pub struct MyBot {{\n{fields}}}\n\n"));
        self.constants()?;
        out.push_str(&self.bot_default()?);
        let mut think = None;
        let mut methods = String::new();
        for t in 0..self.p.types.len() {
            let list: Vec<MethodInfo> = self.p.types[t]
                .methods
                .iter()
                .filter(|m| (t == self.p.bot || m.is_static) && m.cs != ".ctor")
                .cloned()
                .collect();
            for m in list {
                if t == self.p.bot && m.cs == "Think" && !m.is_static {
                    think = Some(self.think(&m)?);
                } else {
                    methods.push_str(&self.method(&m)?);
                }
            }
        }
        let think =
            think.ok_or_else(|| unsupported(decl.span, "a bot without `Think`", &decl.name))?;
        out.push_str(&format!(
            "impl Bot for MyBot {{\n{}}}\n\n",
            FileEmitter::indent(&think)
        ));
        methods.push_str(&self.take_lifted(self.p.bot));
        for t in 0..self.p.types.len() {
            if self.p.types[t].kind != TypeKind::Struct {
                methods.push_str(&self.take_lifted(t));
            }
        }
        if !methods.trim().is_empty() {
            out.push_str(&format!(
                "impl MyBot {{\n{}}}\n",
                FileEmitter::indent(methods.trim_end())
            ));
        }
        Ok(out)
    }

    /// `const` fields as `const` items.
    fn constants(&mut self) -> R<()> {
        for t in 0..self.p.types.len() {
            let consts: Vec<_> = self.p.types[t]
                .fields
                .iter()
                .filter(|f| f.is_const)
                .cloned()
                .collect();
            for f in consts {
                let (_, init) = self.p.field_decl(&f);
                let init =
                    init.ok_or_else(|| unsupported(f.span, "a constant without a value", &f.cs))?;
                let value = self.const_item_value(init, &f.ty, f.span)?;
                let ty = self.rty(&f.ty, f.span)?;
                let ty = if ty == "String" {
                    "&str".to_string()
                } else {
                    ty
                };
                self.consts
                    .push(format!("const {}: {ty} = {value};\n", f.rust));
            }
        }
        Ok(())
    }

    /// `impl Default for MyBot`: the fields' initialisers, then the constructor's body.
    fn bot_default(&mut self) -> R<String> {
        let bot = self.p.bot;
        self.enter_fn("MyBot.default".into(), bot, Ty::Void, false, true);
        let mut literal = String::new();
        let mut later = String::new();
        for f in self.bot_fields() {
            let (_, init) = self.p.field_decl(&f);
            let value = match init {
                Some(init) => {
                    let v = self.expr(init, Some(&f.ty))?;
                    let v = self.coerce(v, &f.ty, init)?;
                    if v.reads_self {
                        later.push_str(&format!("self.{} = {};\n", f.rust, v.code));
                        self.default_value(&f.ty, f.span)?
                    } else {
                        v.code
                    }
                }
                None => self.default_value(&f.ty, f.span)?,
            };
            literal.push_str(&format!("    {}: {value},\n", f.rust));
        }
        literal.push_str(&format!(
            "    {}: Board::default(),\n    {}: Timer::default(),\n",
            self.board, self.timer
        ));
        self.leave_fn();
        let ctor = self.p.types[bot]
            .methods
            .iter()
            .find(|m| m.cs == ".ctor")
            .cloned();
        let mut construct = String::new();
        if let Some(ctor) = &ctor {
            if !ctor.params.is_empty() {
                let decl = self.p.method_decl(ctor);
                return Err(unsupported(
                    decl.span,
                    "a bot constructor with parameters",
                    "MyBot(...)",
                ));
            }
            let mut m = ctor.clone();
            m.rust = "construct".into();
            construct = self.method_with_prefix(&m, &later)?;
            later.clear();
        } else if !later.is_empty() {
            construct = format!(
                "fn construct(&mut self) {{\n{}}}\n",
                FileEmitter::indent(&later)
            );
        }
        let mut out = String::from("impl Default for MyBot {\n    fn default() -> Self {\n");
        let call = !construct.is_empty();
        out.push_str(&format!(
            "        {}MyBot {{\n{}        }}{}\n",
            if call { "let mut bot = " } else { "" },
            FileEmitter::indent(&FileEmitter::indent(&literal)),
            if call {
                ";\n        bot.construct();\n        bot"
            } else {
                ""
            }
        ));
        out.push_str("    }\n}\n\n");
        if call {
            self.lifted.push((bot, construct));
        }
        Ok(out)
    }

    /// `Think` as `Bot::think`.
    fn think(&mut self, m: &MethodInfo) -> R<String> {
        let decl = self.p.method_decl(m);
        if decl.params.len() != 2 {
            return Err(unsupported(
                decl.span,
                "a `Think` without (Board, Timer)",
                "Think",
            ));
        }
        self.enter_fn(m.key.clone(), m.owner, m.ret.clone(), false, true);
        let b = self.declare(&decl.params[0].name, Ty::Api("Board"), LocalKind::Board);
        let t = self.declare(&decl.params[1].name, Ty::Api("Timer"), LocalKind::Timer);
        let mut body = format!(
            "self.{} = {};\nself.{} = {};\n",
            self.board, b.rust, self.timer, t.rust
        );
        body.push_str(&self.body(&decl.body, decl.span)?);
        self.leave_fn();
        Ok(format!(
            "{}fn think(&mut self, {}: Board, {}: Timer) -> Move {{\n{}}}\n",
            FileEmitter::comments(&decl.comments),
            b.rust,
            t.rust,
            FileEmitter::indent(&body)
        ))
    }

    /// A method (of the bot's struct, or of a struct of the file's own).
    pub(crate) fn method(&mut self, m: &MethodInfo) -> R<String> {
        self.method_with_prefix(m, "")
    }

    fn method_with_prefix(&mut self, m: &MethodInfo, prefix: &str) -> R<String> {
        let decl = self.p.method_decl(m);
        if m.ret == Ty::Api("Board") {
            // The port's boards are values: the caller would get a copy, whose
            // `MakeMove` the board it came from (a field, the handed one) would not see.
            return Err(unsupported(
                decl.span,
                "a method returning a `Board` (the port's would return a copy, not the same board)",
                &decl.name,
            ));
        }
        let bot_level = m.owner == self.p.bot || m.is_static;
        // A generic method is a Rust generic one: its `T` values are cloned where C#
        // copies them, which shares a reference type's object and copies a value
        // type's, as C# does; arrays of them need `Default`.
        let generics = if m.type_params.is_empty() {
            String::new()
        } else {
            let bounded: Vec<String> = m
                .type_params
                .iter()
                .map(|t| format!("{t}: Clone + Default"))
                .collect();
            format!("<{}>", bounded.join(", "))
        };
        let outer = std::mem::replace(&mut self.type_params, m.type_params.clone());
        self.enter_fn(m.key.clone(), m.owner, m.ret.clone(), m.ret_ref, bot_level);
        let params = self.params(decl, m);
        let body = params.and_then(|params| Ok((params, self.body(&decl.body, decl.span)?)));
        self.leave_fn();
        self.type_params = outer;
        let (params, body) = body?;
        let body = format!("{prefix}{body}");
        let class_method =
            m.owner != self.p.bot && !m.is_static && self.p.types[m.owner].kind == TypeKind::Class;
        let receiver = if class_method {
            "&self"
        } else if self.mutates(&m.key) || m.cs == ".ctor" {
            "&mut self"
        } else {
            "&self"
        };
        let ret = self.ret_type(m, decl.span)?;
        let mut all = vec![receiver.to_string()];
        all.extend(params);
        all.extend(self.bot_param(&m.key, bot_level));
        Ok(format!(
            "{}fn {}{generics}({}){} {{\n{}}}\n\n",
            FileEmitter::comments(&decl.comments),
            m.rust,
            all.join(", "),
            ret,
            FileEmitter::indent(&body)
        ))
    }

    /// The parameter through which a function of another type reaches the bot, if it
    /// does (see `Facts::needs_bot`).
    pub(crate) fn bot_param(&self, key: &str, bot_level: bool) -> Option<String> {
        (!bot_level && self.takes_bot(key)).then(|| "bot: &mut MyBot".to_string())
    }

    /// ` -> T`, or nothing for `void`.
    pub(crate) fn ret_type(&self, m: &MethodInfo, span: Span) -> R<String> {
        Ok(match (&m.ret, m.ret_ref) {
            (Ty::Void, _) => String::new(),
            (t, true) => format!(" -> cs::ElemRef<{}>", self.rty(t, span)?),
            (t, false) => format!(" -> {}", self.rty(t, span)?),
        })
    }

    /// Declares a method's parameters and gives their Rust spellings (`Board` and
    /// `Timer` parameters are the bot's own and disappear).
    pub(crate) fn params(&mut self, decl: &MethodDecl, m: &MethodInfo) -> R<Vec<String>> {
        let mut out = Vec::new();
        for (p, (ty, mode, _)) in decl.params.iter().zip(&m.params) {
            // The board and timer are the bot's own (`self.board`); another type's
            // method reads them through its `bot` parameter.
            match ty {
                Ty::Api("Board") => {
                    self.declare(&p.name, ty.clone(), LocalKind::Board);
                    continue;
                }
                Ty::Api("Timer") => {
                    self.declare(&p.name, ty.clone(), LocalKind::Timer);
                    continue;
                }
                _ => {}
            }
            if let (Ty::Func(ps, ret), PassMode::Value) = (ty, mode) {
                let rust_ty = self.delegate_param_ty(ps, ret, p.span)?;
                let l = self.declare(&p.name, ty.clone(), LocalKind::Delegate);
                out.push(format!("{}: {rust_ty}", l.rust));
                continue;
            }
            let rust_ty = self.rty(ty, p.span)?;
            match mode {
                PassMode::Ref | PassMode::Out => {
                    let l = self.declare(&p.name, ty.clone(), LocalKind::Ref);
                    out.push(format!("{}: &mut {rust_ty}", l.rust));
                }
                PassMode::Params => {
                    let l = self.declare(&p.name, ty.clone(), LocalKind::Value);
                    let mutable = if self.is_reassigned(&l.owner, l.id) {
                        "mut "
                    } else {
                        ""
                    };
                    out.push(format!("{mutable}{}: {rust_ty}", l.rust));
                }
                PassMode::Value | PassMode::In => {
                    if matches!(ty, Ty::Func(..)) {
                        return Err(unsupported(p.span, "a delegate parameter", &p.name));
                    }
                    if *ty == Ty::Api("Random") {
                        // C# passes the generator's reference: the callee's draws advance
                        // the caller's. `&mut` shares it; only an assignment to the
                        // parameter (C#'s rebinds the callee's copy alone) would differ.
                        let l = self.declare(&p.name, ty.clone(), LocalKind::Ref);
                        if self.is_reassigned(&l.owner, l.id) {
                            return Err(unsupported(
                                p.span,
                                "a `Random` parameter assigned or passed on in its method",
                                &p.name,
                            ));
                        }
                        out.push(format!("{}: &mut {rust_ty}", l.rust));
                        continue;
                    }
                    let l = self.declare(&p.name, ty.clone(), LocalKind::Value);
                    let mutable = if self.is_reassigned(&l.owner, l.id) {
                        "mut "
                    } else {
                        ""
                    };
                    out.push(format!("{mutable}{}: {rust_ty}", l.rust));
                }
            }
        }
        Ok(out)
    }

    /// A method's body.
    pub(crate) fn body(&mut self, body: &Body, span: Span) -> R<String> {
        match body {
            Body::Block(stmts) => {
                let code = self.block_body(stmts)?;
                Ok(format!(
                    "{code}{}",
                    unreachable_tail(stmts, &self.fr().ret.clone())
                ))
            }
            Body::Expr(e) => {
                let ret = self.fr().ret.clone();
                if ret == Ty::Void {
                    let v = self.expr(e, None)?;
                    let pre = self.take_pre();
                    Ok(format!("{pre}{};\n", v.code))
                } else if self.fr().ret_ref {
                    let code = self.ref_expr(e)?;
                    let pre = self.take_pre();
                    Ok(format!("{pre}{code}\n"))
                } else {
                    let v = self.expr(e, Some(&ret))?;
                    let v = self.coerce(v, &ret, e)?;
                    let pre = self.take_pre();
                    Ok(format!("{pre}{}\n", v.code))
                }
            }
            Body::None => Err(unsupported(span, "a method without a body", "")),
        }
    }

    /// Statements written so far for the current statement's out variables.
    pub(crate) fn take_pre(&mut self) -> String {
        let pre = std::mem::take(&mut self.f().pre);
        pre.concat()
    }
}

/// What ends a value-returning body whose last statement is not a `return`: C# proved
/// the end unreachable (after a `try` that returns on every path, a `switch` whose every
/// section returns...), and Rust's weaker analysis needs to be told.
pub(crate) fn unreachable_tail(stmts: &[Stmt], ret: &Ty) -> &'static str {
    let last = stmts.iter().rev().find(|s| {
        !matches!(
            s.kind,
            StmtKind::Comment(_) | StmtKind::Empty | StmtKind::LocalFn(_)
        )
    });
    match last {
        _ if *ret == Ty::Void => "",
        Some(Stmt {
            kind: StmtKind::Return(_) | StmtKind::Throw(_),
            ..
        }) => "",
        _ => "unreachable!(\"C# proves every path returns\")\n",
    }
}

impl FileEmitter<'_, '_> {
    /// A class of the file's own whose instances the bot makes: a struct of
    /// `cs::Var` fields, shared as `cs::Obj`; `new` runs the field initialisers and the
    /// constructor; every method takes `&self` (the fields change through `Var`).
    pub(crate) fn class_item(&mut self, t: usize) -> R<String> {
        let decl = &self.p.unit.types[t];
        let interfaces = ["IComparer", "IComparable", "IEquatable", "Exception"];
        if let Some(base) = decl
            .bases
            .iter()
            .find(|b| !matches!(b, TypeRef::Named(n, _) if interfaces.contains(&n.as_str())))
        {
            let name = match base {
                TypeRef::Named(n, _) => n.clone(),
                _ => String::new(),
            };
            return Err(unsupported(
                decl.span,
                "a class deriving from another",
                &name,
            ));
        }
        let info = &self.p.types[t];
        let name = info.rust.clone();
        let mut fields = String::new();
        for f in info.fields.iter().filter(|f| kept_field(f)) {
            fields.push_str(&format!(
                "    pub {}: cs::Var<{}>,\n",
                f.rust,
                self.rty(&f.ty, f.span)?
            ));
        }
        // `cs::Obj::new` or, for a class whose `this` is a value, `new_cyclic`.
        let mut make = format!("cs::Obj::new({name}::default())");
        if self.facts.this_value.contains(&info.cs) {
            if info.fields.iter().any(|f| f.rust == THIS_FIELD) {
                return Err(unsupported(
                    decl.span,
                    format!("a class with a field `{THIS_FIELD}` whose `this` is a value"),
                    &info.cs,
                ));
            }
            fields.push_str(&format!("    pub {THIS_FIELD}: cs::This<{name}>,\n"));
            make = format!(
                "cs::Obj::new_cyclic(|this| {name} {{ {THIS_FIELD}: this, ..{name}::default() }})"
            );
        }
        let mut out = FileEmitter::comments(&decl.comments);
        out.push_str(&format!(
            "#[derive(Default)]\npub struct {name} {{\n{fields}}}\n\n"
        ));
        let mut body = String::new();
        let ctors: Vec<MethodInfo> = info
            .methods
            .iter()
            .filter(|m| m.cs == ".ctor")
            .cloned()
            .collect();
        let inits = self.initialisers(t, |f, v| format!("this.{f}.set({v});\n"))?;
        if ctors.is_empty() {
            body.push_str(&format!(
                "pub fn new() -> cs::Obj<{name}> {{\n    let this = {make};\n{}    this\n}}\n\n",
                FileEmitter::indent(&inits)
            ));
        }
        for ctor in &ctors {
            body.push_str(&self.class_new(&name, &make, ctor, &inits)?);
        }
        let methods: Vec<MethodInfo> = info
            .methods
            .iter()
            .filter(|m| !m.is_static)
            .cloned()
            .collect();
        for m in &methods {
            body.push_str(&self.method(m)?);
        }
        body.push_str(&self.take_lifted(t));
        out.push_str(&format!(
            "impl {name} {{\n{}}}\n\n",
            FileEmitter::indent(body.trim_end())
        ));
        Ok(out)
    }

    /// The field initialisers of type `t`, as statements setting the new value's fields
    /// (`set` writes one from the field's name and the value).
    fn initialisers(&mut self, t: usize, set: impl Fn(&str, &str) -> String) -> R<String> {
        let fields: Vec<_> = self.p.types[t]
            .fields
            .iter()
            .filter(|f| kept_field(f))
            .cloned()
            .collect();
        self.enter_fn(
            format!("{}.init", self.p.types[t].cs),
            t,
            Ty::Void,
            false,
            false,
        );
        let mut out = String::new();
        for f in fields {
            let (_, init) = self.p.field_decl(&f);
            if let Some(init) = init {
                let v = self.expr(init, Some(&f.ty))?;
                let v = self.coerce(v, &f.ty, init)?;
                let v = self.owned(v);
                out.push_str(&set(&f.rust, &v.code));
            }
        }
        self.leave_fn();
        let key = format!("{}.init", self.p.types[t].cs);
        if self.takes_bot(&key) {
            return Err(unsupported(
                self.p.unit.types[t].span,
                "a field initialiser that uses the board, timer or bot, in a type other than the bot",
                &self.p.types[t].cs,
            ));
        }
        Ok(out)
    }

    /// The parameters of `new` for constructor `ctor` (without the board and timer,
    /// which are the bot's; with the bot if the constructor takes it), and the names
    /// `new` passes to `construct`.
    fn new_params(&self, ctor: &MethodInfo) -> R<(Vec<String>, Vec<String>)> {
        let decl = self.p.method_decl(ctor);
        let mut params = Vec::new();
        let mut names = Vec::new();
        for (p, (ty, mode, _)) in decl.params.iter().zip(&ctor.params) {
            if *mode != PassMode::Value && *mode != PassMode::In {
                return Err(unsupported(
                    p.span,
                    "a constructor with `ref` or `out` parameters",
                    &p.name,
                ));
            }
            if super::delegates::vanishes(ty) {
                continue;
            }
            let mut n = super::names::snake(&p.name);
            if n == "bot" {
                n = "bot_2".into();
            }
            params.push(format!("{n}: {}", self.rty(ty, p.span)?));
            names.push(n);
        }
        if let Some(bot) = self.bot_param(&ctor.key, false) {
            params.push(bot);
            names.push("bot".into());
        }
        Ok((params, names))
    }

    /// `new Name(args)` for one constructor: `new`, `new_2`... beside `construct`,
    /// `construct_2`.
    fn class_new(&mut self, name: &str, make: &str, ctor: &MethodInfo, inits: &str) -> R<String> {
        let (params, names) = self.new_params(ctor)?;
        let new_name = ctor.rust.replacen("construct", "new", 1);
        Ok(format!(
            "pub fn {new_name}({}) -> cs::Obj<{name}> {{\n    let this = {make};\n{}    this.{}({});\n    this\n}}\n\n",
            params.join(", "),
            FileEmitter::indent(inits),
            ctor.rust,
            names.join(", ")
        ))
    }
}

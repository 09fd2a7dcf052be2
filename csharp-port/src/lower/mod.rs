//! tree-sitter's concrete syntax tree into the crate's own tree ([`crate::ast`]): the
//! subset of C# bots use, and an error naming the construct for anything else.

mod delegates;
mod expr;
mod finalizer;
mod inherit;
mod precedence;
mod stmt;

use std::collections::{HashMap, HashSet};

use tree_sitter::Node;

use crate::ast::*;
use crate::error::{PortError, Span};

type R<T> = Result<T, PortError>;

/// A declarator of a variable declaration: its name, initialiser and place.
type Declarator = (String, Option<Expr>, Span);

/// The lowering's state: the source and the `#define`d symbols.
pub struct Lower<'a> {
    src: &'a str,
    defines: HashSet<String>,
    /// An anonymous type was read (lowered to a named tuple).
    anonymous: std::cell::Cell<bool>,
    /// The prefix operator a misread cast lent to its binary operator (`(a) * v[1]`,
    /// read `(a)(*v)[1]`), lowered as its operand alone.
    lent_prefix: std::cell::Cell<Option<usize>>,
    /// The file's delegate types (`delegate bool D(Board b);`), each as the `Func` or
    /// `Action` of the same signature.
    delegate_types: HashMap<String, TypeRef>,
    /// The local arrays of method groups in scope (see [`delegates::delegate_array`]).
    delegate_arrays: std::cell::RefCell<HashMap<String, delegates::Table>>,
}

/// Lowers a whole file.
pub fn lower_unit(root: Node, src: &str) -> R<Unit> {
    let mut lower = Lower {
        src,
        defines: HashSet::new(),
        anonymous: std::cell::Cell::new(false),
        lent_prefix: std::cell::Cell::new(None),
        delegate_types: HashMap::new(),
        delegate_arrays: Default::default(),
    };
    lower.delegate_types = lower.delegate_decls(root)?;
    let mut unit = Unit::default();
    let mut comments = Vec::new();
    lower.unit_items(root, &mut unit, &mut comments)?;
    let tables = delegates::delegate_tables(&unit, src);
    if !tables.is_empty() {
        // Again, with each call of a table's delegates read as the table's switch.
        lower.delegate_arrays.replace(tables.clone());
        unit = Unit::default();
        comments.clear();
        lower.unit_items(root, &mut unit, &mut comments)?;
        delegates::drop_tables(&mut unit, &tables);
    }
    unit.has_anonymous = lower.anonymous.get();
    inherit::flatten(&mut unit, src)?;
    delegates::lambda_fields_as_methods(&mut unit, src);
    Ok(unit)
}

impl<'a> Lower<'a> {
    fn text(&self, node: Node) -> &'a str {
        &self.src[node.byte_range()]
    }

    fn unsupported(&self, node: Node, construct: &str) -> PortError {
        PortError::unsupported(Span::of(node), construct, self.text(node))
    }

    /// The first named child that is not a comment.
    pub(super) fn first_child(&self, node: Node<'a>) -> Option<Node<'a>> {
        let mut cursor = node.walk();
        node.named_children(&mut cursor)
            .find(|c| c.kind() != "comment")
    }

    /// [`first_child`](Self::first_child), or the `this` token (which the grammar leaves
    /// unnamed) where `this` alone is the expression: `=> this`, `return this;`.
    pub(super) fn first_child_or_this(&self, node: Node<'a>) -> Option<Node<'a>> {
        self.first_child(node).or_else(|| {
            let mut cursor = node.walk();
            node.children(&mut cursor).find(|c| c.kind() == "this")
        })
    }

    fn ident(&self, node: Node) -> String {
        self.text(node).trim_start_matches('@').to_string()
    }

    /// The named children of `node`, with `#if` blocks resolved and `#region` lines
    /// skipped.
    fn children(&self, node: Node<'a>) -> R<Vec<Node<'a>>> {
        let mut out = Vec::new();
        let mut cursor = node.walk();
        for child in node.named_children(&mut cursor) {
            self.flatten_preproc(child, &mut out)?;
        }
        Ok(out)
    }

    pub(super) fn flatten_preproc(&self, node: Node<'a>, out: &mut Vec<Node<'a>>) -> R<()> {
        match node.kind() {
            "preproc_region" | "preproc_endregion" | "preproc_pragma" | "preproc_nullable"
            | "preproc_line" | "preproc_warning" | "preproc_error" => Ok(()),
            "preproc_define" | "preproc_undef" => {
                let mut cursor = node.walk();
                let name = node.named_children(&mut cursor).last();
                if let Some(name) = name {
                    let name = self.text(name).trim().to_string();
                    if node.kind() == "preproc_define" {
                        // `#define` must precede code, so it is seen before any `#if`.
                        let _ = name;
                    }
                }
                Ok(())
            }
            "preproc_if" | "preproc_elif" => self.preproc_if(node, out),
            "preproc_else" => {
                let mut cursor = node.walk();
                for child in node.named_children(&mut cursor) {
                    self.flatten_preproc(child, out)?;
                }
                Ok(())
            }
            _ => {
                out.push(node);
                Ok(())
            }
        }
    }

    fn preproc_if(&self, node: Node<'a>, out: &mut Vec<Node<'a>>) -> R<()> {
        let condition = node
            .child_by_field_name("condition")
            .ok_or_else(|| self.unsupported(node, "a `#if` without a condition"))?;
        let taken = self.preproc_condition(condition)?;
        let alternative = node.child_by_field_name("alternative");
        let mut cursor = node.walk();
        for child in node.named_children(&mut cursor) {
            if child.id() == condition.id() || Some(child.id()) == alternative.map(|a| a.id()) {
                continue;
            }
            if taken {
                self.flatten_preproc(child, out)?;
            }
        }
        if !taken && let Some(alt) = alternative {
            self.flatten_preproc(alt, out)?;
        }
        Ok(())
    }

    /// A `#if` condition: symbols are undefined (a release build of the challenge)
    /// unless the file `#define`s them.
    fn preproc_condition(&self, node: Node) -> R<bool> {
        match node.kind() {
            "identifier" => Ok(self.defines.contains(self.text(node))),
            "boolean_literal" => Ok(self.text(node) == "true"),
            "prefix_unary_expression" => {
                let inner = self
                    .first_child(node)
                    .ok_or_else(|| self.unsupported(node, "`#if`"))?;
                Ok(!self.preproc_condition(inner)?)
            }
            "parenthesized_expression" => {
                let inner = self
                    .first_child(node)
                    .ok_or_else(|| self.unsupported(node, "`#if`"))?;
                self.preproc_condition(inner)
            }
            "binary_expression" => {
                let (l, r) = (
                    node.child_by_field_name("left"),
                    node.child_by_field_name("right"),
                );
                let op = node.child_by_field_name("operator").map(|o| self.text(o));
                match (l, r, op) {
                    (Some(l), Some(r), Some("&&")) => {
                        Ok(self.preproc_condition(l)? && self.preproc_condition(r)?)
                    }
                    (Some(l), Some(r), Some("||")) => {
                        Ok(self.preproc_condition(l)? || self.preproc_condition(r)?)
                    }
                    _ => Err(self.unsupported(node, "this `#if` condition")),
                }
            }
            _ => Err(self.unsupported(node, "this `#if` condition")),
        }
    }

    fn comment_text(&self, node: Node) -> String {
        self.text(node).trim_end().to_string()
    }

    fn unit_items(&mut self, node: Node<'a>, unit: &mut Unit, comments: &mut Vec<String>) -> R<()> {
        self.collect_defines(node);
        for child in self.children(node)? {
            match child.kind() {
                "comment" => comments.push(self.comment_text(child)),
                "using_directive" => self.using(child, unit),
                "delegate_declaration" => {}
                "namespace_declaration" | "file_scoped_namespace_declaration" => {
                    let body = child.child_by_field_name("body").unwrap_or(child);
                    if unit.types.is_empty() {
                        unit.leading_comments.append(comments);
                    }
                    self.unit_items(body, unit, comments)?;
                }
                "declaration_list" => self.unit_items(child, unit, comments)?,
                "class_declaration"
                | "struct_declaration"
                | "record_declaration"
                | "enum_declaration"
                | "record_struct_declaration" => {
                    if unit.types.is_empty() {
                        unit.leading_comments.append(comments);
                    }
                    let pending = std::mem::take(comments);
                    self.type_decl(child, pending, &mut unit.types)?;
                }
                "identifier" | "qualified_name" | "extern_alias_directive" => {}
                "global_statement" => {
                    return Err(self.unsupported(child, "a top-level statement"));
                }
                "interface_declaration" => {
                    return Err(self.unsupported(child, "an interface declaration"));
                }
                _ => return Err(self.unsupported(child, &format!("a `{}`", child.kind()))),
            }
        }
        Ok(())
    }

    fn collect_defines(&mut self, node: Node) {
        let mut cursor = node.walk();
        for child in node.named_children(&mut cursor) {
            if child.kind() == "preproc_define" {
                let text = self.text(child).trim();
                if let Some(name) = text.strip_prefix("#define") {
                    self.defines.insert(name.trim().to_string());
                }
            }
        }
    }

    fn using(&self, node: Node, unit: &mut Unit) {
        let text = self.text(node);
        if let Some(rest) = text.strip_prefix("using static") {
            let name = rest.trim().trim_end_matches(';').trim();
            unit.using_static.push(name.to_string());
        }
    }

    /// The delegate types declared anywhere in the file, by name. A delegate type is
    /// C#'s `Func` or `Action` of its signature in all a bot can do with one: it is
    /// made from a lambda or method and called; one delegate type is never converted
    /// to another, so no code tells them apart.
    fn delegate_decls(&self, root: Node<'a>) -> R<HashMap<String, TypeRef>> {
        let mut out = HashMap::new();
        let mut stack = vec![root];
        while let Some(node) = stack.pop() {
            if node.kind() == "delegate_declaration" {
                let (name, ty) = self.delegate_decl(node)?;
                out.insert(name, ty);
                continue;
            }
            let mut cursor = node.walk();
            stack.extend(node.named_children(&mut cursor));
        }
        Ok(out)
    }

    /// `delegate R D(A a, B b);` as `D` and `Func<A, B, R>` (`Action<A, B>` for `void`).
    fn delegate_decl(&self, node: Node<'a>) -> R<(String, TypeRef)> {
        let field = |f: &str| {
            node.child_by_field_name(f)
                .ok_or_else(|| self.unsupported(node, "this delegate declaration"))
        };
        if node.child_by_field_name("type_parameters").is_some() {
            return Err(self.unsupported(node, "a generic delegate type"));
        }
        let params = self.params(field("parameters")?)?;
        if params
            .iter()
            .any(|p| p.mode != PassMode::Value || p.default.is_some())
        {
            return Err(self.unsupported(
                node,
                "a delegate type with a `ref`, `out`, `in`, `params` or optional parameter",
            ));
        }
        let mut args: Vec<TypeRef> = params.into_iter().map(|p| p.ty).collect();
        let ret = self.ty(field("type")?)?;
        let kind = if ret == TypeRef::Named("void".into(), Vec::new()) {
            "Action"
        } else {
            args.push(ret);
            "Func"
        };
        Ok((
            self.ident(field("name")?),
            TypeRef::Named(kind.into(), args),
        ))
    }

    fn modifiers(&self, node: Node) -> Vec<&'a str> {
        let mut cursor = node.walk();
        node.children(&mut cursor)
            .filter(|c| c.kind() == "modifier")
            .map(|c| self.text(c))
            .collect()
    }

    fn type_decl(
        &mut self,
        node: Node<'a>,
        comments: Vec<String>,
        out: &mut Vec<TypeDecl>,
    ) -> R<()> {
        let kind = match node.kind() {
            "class_declaration" => TypeKind::Class,
            "struct_declaration" | "record_struct_declaration" => TypeKind::Struct,
            "record_declaration" => {
                if self.text(node).contains("record struct") {
                    TypeKind::Struct
                } else {
                    TypeKind::Record
                }
            }
            _ => TypeKind::Enum,
        };
        let name_node = node
            .child_by_field_name("name")
            .ok_or_else(|| self.unsupported(node, "a type without a name"))?;
        let mut decl = TypeDecl {
            name: self.ident(name_node),
            kind,
            bases: Vec::new(),
            is_static: self.modifiers(node).contains(&"static"),
            members: Vec::new(),
            primary: Vec::new(),
            enum_members: Vec::new(),
            span: Span::of(node),
            comments,
        };
        let mut nested = Vec::new();
        let mut cursor = node.walk();
        for child in node.named_children(&mut cursor) {
            match child.kind() {
                "type_parameter_list" => {
                    return Err(self.unsupported(child, "a generic type of the file's own"));
                }
                "base_list" => decl.bases = self.base_list(child)?,
                "parameter_list" => decl.primary = self.params(child)?,
                _ => {}
            }
        }
        if !decl.primary.is_empty() {
            if kind == TypeKind::Class {
                return Err(self.unsupported(node, "a class's primary constructor"));
            }
            // A positional record: its parameters are its properties, set by its
            // constructor. Its data is immutable, so a `record` class can be a value.
            decl.kind = TypeKind::Struct;
            primary_members(&mut decl);
        }
        if let Some(body) = node.child_by_field_name("body") {
            if kind == TypeKind::Enum {
                self.enum_body(body, &mut decl)?;
            } else {
                self.members(body, &mut decl, &mut nested)?;
            }
        }
        out.push(decl);
        out.append(&mut nested);
        Ok(())
    }

    fn base_list(&self, node: Node) -> R<Vec<TypeRef>> {
        let mut bases = Vec::new();
        for child in self.children(node)? {
            if child.kind() == "argument_list" {
                return Err(self.unsupported(child, "a base class constructor call"));
            }
            bases.push(self.ty(child)?);
        }
        Ok(bases)
    }

    fn enum_body(&self, body: Node<'a>, decl: &mut TypeDecl) -> R<()> {
        for child in self.children(body)? {
            if child.kind() == "enum_member_declaration" {
                let name = child
                    .child_by_field_name("name")
                    .ok_or_else(|| self.unsupported(child, "an enum member"))?;
                let value = match child.child_by_field_name("value") {
                    Some(v) => Some(self.expr(v)?),
                    None => None,
                };
                decl.enum_members.push((self.ident(name), value));
            }
        }
        Ok(())
    }

    fn members(
        &mut self,
        body: Node<'a>,
        decl: &mut TypeDecl,
        nested: &mut Vec<TypeDecl>,
    ) -> R<()> {
        let mut comments = Vec::new();
        let mut finalizers = Vec::new();
        for child in self.children(body)? {
            let member = match child.kind() {
                "comment" => {
                    comments.push(self.comment_text(child));
                    continue;
                }
                "field_declaration" | "event_field_declaration" => {
                    if child.kind() == "event_field_declaration" {
                        return Err(self.unsupported(child, "an event"));
                    }
                    Member::Field(self.field(child)?)
                }
                "method_declaration" | "constructor_declaration" => {
                    Member::Method(self.method(child, std::mem::take(&mut comments))?)
                }
                "property_declaration" => {
                    let (getter, setter) = self.property(child, std::mem::take(&mut comments))?;
                    if let Some(setter) = setter {
                        decl.members.push(setter);
                    }
                    getter
                }
                "delegate_declaration" => continue,
                "class_declaration"
                | "struct_declaration"
                | "record_declaration"
                | "enum_declaration"
                | "record_struct_declaration" => {
                    self.type_decl(child, std::mem::take(&mut comments), nested)?;
                    continue;
                }
                "operator_declaration" => {
                    Member::Method(self.operator(child, std::mem::take(&mut comments))?)
                }
                "conversion_operator_declaration" => {
                    return Err(self.unsupported(child, "a conversion operator of the file's own"));
                }
                "indexer_declaration" => return Err(self.unsupported(child, "an indexer")),
                "destructor_declaration" => {
                    finalizers.push(child);
                    continue;
                }
                _ => return Err(self.unsupported(child, &format!("a member `{}`", child.kind()))),
            };
            for c in comments.drain(..) {
                decl.members.push(Member::Comment(c));
            }
            decl.members.push(member);
        }
        for c in comments {
            decl.members.push(Member::Comment(c));
        }
        for f in finalizers {
            self.finalizer(f, decl)?;
        }
        Ok(())
    }

    fn field(&self, node: Node<'a>) -> R<FieldDecl> {
        let mods = self.modifiers(node);
        let decl = self
            .children(node)?
            .into_iter()
            .find(|c| c.kind() == "variable_declaration")
            .ok_or_else(|| self.unsupported(node, "a field"))?;
        let (ty, vars) = self.variable_declaration(decl)?;
        Ok(FieldDecl {
            ty,
            vars,
            is_static: mods.contains(&"static"),
            is_const: mods.contains(&"const"),
            span: Span::of(node),
            is_auto_property: false,
        })
    }

    /// `T a = 1, b` into its type and its variables.
    fn variable_declaration(&self, node: Node<'a>) -> R<(TypeRef, Vec<Declarator>)> {
        let ty_node = node
            .child_by_field_name("type")
            .ok_or_else(|| self.unsupported(node, "a declaration without a type"))?;
        let ty = self.ty(ty_node)?;
        let mut vars = Vec::new();
        for child in self.children(node)? {
            if child.kind() != "variable_declarator" {
                continue;
            }
            let name = child
                .child_by_field_name("name")
                .ok_or_else(|| self.unsupported(child, "a deconstruction here"))?;
            let mut init = None;
            for part in self.children(child)? {
                if part.id() == name.id() || part.kind() == "comment" {
                    continue;
                }
                if part.kind() == "bracketed_argument_list" {
                    return Err(self.unsupported(part, "a fixed-size buffer"));
                }
                init = Some(self.expr(part)?);
            }
            if init.is_none() {
                // `Node n = this;`: the grammar leaves `this` unnamed.
                let mut cursor = child.walk();
                let this = child.children(&mut cursor).find(|c| c.kind() == "this");
                if let Some(this) = this {
                    init = Some(self.expr(this)?);
                }
            }
            vars.push((self.ident(name), init, Span::of(child)));
        }
        Ok((ty, vars))
    }

    /// A property as a field (an auto property) or a getter, and its setter if it has a
    /// body: the method `set_P(value)` (the name the CLI gives it, which C# reserves).
    fn property(&self, node: Node<'a>, comments: Vec<String>) -> R<(Member, Option<Member>)> {
        let mods = self.modifiers(node);
        let ty = self.ty(node
            .child_by_field_name("type")
            .ok_or_else(|| self.unsupported(node, "a property"))?)?;
        // `ref T P => ref a[i];`: a ref-returning getter, as a ref-returning method.
        let (ty, ret_ref) = match ty {
            TypeRef::Ref(inner) => (*inner, true),
            t => (t, false),
        };
        let name = self.ident(
            node.child_by_field_name("name")
                .ok_or_else(|| self.unsupported(node, "a property"))?,
        );
        let is_static = mods.contains(&"static");
        let span = Span::of(node);
        let getter = |body: Body| {
            Member::Method(MethodDecl {
                name: name.clone(),
                ret: ty.clone(),
                ret_ref,
                params: Vec::new(),
                type_params: Vec::new(),
                body,
                is_static,
                is_property: true,
                is_extension: false,
                dispatch: Dispatch::of(&mods),
                span,
                comments: comments.clone(),
            })
        };
        if let Some(value) = node.child_by_field_name("value") {
            let inner = if value.kind() == "arrow_expression_clause" {
                self.first_child(value)
                    .ok_or_else(|| self.unsupported(value, "a property"))?
            } else {
                // `{ get; set; } = value`: an auto property with an initialiser.
                return Ok((
                    Member::Field(FieldDecl {
                        ty,
                        vars: vec![(name.clone(), Some(self.expr(value)?), span)],
                        is_static,
                        is_const: false,
                        span,
                        is_auto_property: true,
                    }),
                    None,
                ));
            };
            return Ok((getter(Body::Expr(Box::new(self.expr(inner)?))), None));
        }
        let accessors = node
            .child_by_field_name("accessors")
            .ok_or_else(|| self.unsupported(node, "a property"))?;
        let (get_body, set_body) = self.accessor_bodies(node, accessors)?;
        match (get_body, set_body) {
            (Some(body), None) => Ok((getter(body), None)),
            (None, None) => Ok((
                Member::Field(FieldDecl {
                    ty,
                    vars: vec![(name, None, span)],
                    is_static,
                    is_const: false,
                    span,
                    is_auto_property: true,
                }),
                None,
            )),
            (Some(get), Some(set)) => {
                let setter = setter(&name, ty.clone(), set, is_static, Dispatch::of(&mods), span);
                Ok((getter(get), Some(setter)))
            }
            (None, Some(_)) => {
                Err(self.unsupported(node, "a property with a setter body and no getter body"))
            }
        }
    }

    /// The `get` and `set` bodies of a property's accessors (an `init` body is refused).
    fn accessor_bodies(
        &self,
        node: Node<'a>,
        accessors: Node<'a>,
    ) -> R<(Option<Body>, Option<Body>)> {
        let (mut get_body, mut set_body) = (None, None);
        for acc in self.children(accessors)? {
            if acc.kind() != "accessor_declaration" {
                continue;
            }
            let acc_name = acc
                .child_by_field_name("name")
                .map(|n| self.text(n))
                .unwrap_or("");
            match (acc_name, acc.child_by_field_name("body")) {
                ("get", Some(b)) => get_body = Some(self.body(b)?),
                ("set", Some(b)) => set_body = Some(self.body(b)?),
                ("init", Some(_)) => {
                    return Err(self.unsupported(node, "a property with an `init` body"));
                }
                _ => {}
            }
        }
        Ok((get_body, set_body))
    }

    /// A binary arithmetic or bitwise operator as the static method C# makes of it
    /// (`op_Addition`), which `a + b` on the type's values calls. Comparisons are
    /// refused: the port writes `==` on classes as reference equality.
    fn operator(&self, node: Node<'a>, comments: Vec<String>) -> R<MethodDecl> {
        let token = node
            .child_by_field_name("operator")
            .map(|o| self.text(o))
            .unwrap_or("");
        let name = BinOp::from_token(token).and_then(BinOp::method_name);
        let mut decl = self.method_like(node, true, true, comments)?;
        match name {
            Some(name) if decl.params.len() == 2 => {
                decl.name = name.into();
                Ok(decl)
            }
            _ => Err(self.unsupported(node, "this operator of the file's own")),
        }
    }

    fn method(&self, node: Node<'a>, comments: Vec<String>) -> R<MethodDecl> {
        let mods = self.modifiers(node);
        let is_ctor = node.kind() == "constructor_declaration";
        let mut decl = self.method_like(node, is_ctor, mods.contains(&"static"), comments)?;
        decl.dispatch = Dispatch::of(&mods);
        if let Some(init) = self
            .children(node)?
            .into_iter()
            .find(|c| c.kind() == "constructor_initializer")
        {
            self.chain_constructor(init, &mut decl)?;
        }
        Ok(decl)
    }

    /// `: this(args)`: the other constructor's call, as the body's first statement
    /// (`this..ctor(args)`, which the emitter writes as a call of its `construct`).
    fn chain_constructor(&self, init: Node<'a>, decl: &mut MethodDecl) -> R<()> {
        let is_this = {
            let mut cursor = init.walk();
            init.children(&mut cursor).any(|c| c.kind() == "this")
        };
        if !is_this {
            return Err(self.unsupported(init, "a constructor calling its base (`: base(...)`)"));
        }
        let args = self.args(
            self.children(init)?
                .into_iter()
                .find(|c| c.kind() == "argument_list"),
        )?;
        let span = Span::of(init);
        let range = (init.start_byte(), init.end_byte());
        let e = |kind| Expr::new(kind, span, range);
        let callee = e(ExprKind::Member(
            Box::new(e(ExprKind::This)),
            ".ctor".into(),
            Vec::new(),
        ));
        let call = Stmt {
            kind: StmtKind::Expr(e(ExprKind::Call(Box::new(callee), args))),
            span,
        };
        let body = match std::mem::replace(&mut decl.body, Body::None) {
            Body::Block(stmts) => stmts,
            Body::Expr(x) => vec![Stmt {
                span: x.span,
                kind: StmtKind::Expr(*x),
            }],
            Body::None => Vec::new(),
        };
        decl.body = Body::Block(std::iter::once(call).chain(body).collect());
        Ok(())
    }

    /// A method, constructor or local function.
    fn method_like(
        &self,
        node: Node<'a>,
        is_ctor: bool,
        is_static: bool,
        comments: Vec<String>,
    ) -> R<MethodDecl> {
        let name = if is_ctor {
            ".ctor".to_string()
        } else {
            self.ident(
                node.child_by_field_name("name")
                    .ok_or_else(|| self.unsupported(node, "a method"))?,
            )
        };
        let ret_node = node
            .child_by_field_name("returns")
            .or_else(|| node.child_by_field_name("type"));
        let (ret, ret_ref) = match ret_node {
            None => (TypeRef::Named("void".into(), Vec::new()), false),
            Some(r) => match self.ty(r)? {
                TypeRef::Ref(inner) => (*inner, true),
                t => (t, false),
            },
        };
        let params = match node.child_by_field_name("parameters") {
            Some(p) => self.params(p)?,
            None => Vec::new(),
        };
        let is_extension = node
            .child_by_field_name("parameters")
            .and_then(|p| {
                let mut cursor = p.walk();
                p.named_children(&mut cursor)
                    .find(|c| c.kind() == "parameter")
            })
            .is_some_and(|first| self.modifiers(first).contains(&"this"));
        let mut type_params = Vec::new();
        if let Some(tp) = node.child_by_field_name("type_parameters") {
            for t in self.children(tp)? {
                type_params.push(self.ident(t));
            }
        }
        let body = match node.child_by_field_name("body") {
            Some(b) => self.body(b)?,
            None => Body::None,
        };
        Ok(MethodDecl {
            name,
            ret,
            ret_ref,
            params,
            type_params,
            body,
            is_static,
            is_property: false,
            is_extension,
            dispatch: Dispatch::Plain,
            span: Span::of(node),
            comments,
        })
    }

    fn body(&self, node: Node<'a>) -> R<Body> {
        match node.kind() {
            "block" => Ok(Body::Block(self.block(node)?)),
            "arrow_expression_clause" => {
                let e = self
                    .first_child_or_this(node)
                    .ok_or_else(|| self.unsupported(node, "a body"))?;
                Ok(Body::Expr(Box::new(self.expr(e)?)))
            }
            _ => Err(self.unsupported(node, "this body")),
        }
    }

    fn params(&self, node: Node<'a>) -> R<Vec<Param>> {
        let mut params = Vec::new();
        for p in self.children(node)? {
            if p.kind() != "parameter" {
                continue;
            }
            let first = params.is_empty();
            let mods = self.modifiers(p);
            let text = self.text(p);
            let mode = if mods.contains(&"ref") || text.starts_with("ref ") {
                PassMode::Ref
            } else if mods.contains(&"out") || text.starts_with("out ") {
                PassMode::Out
            } else if mods.contains(&"in") || text.starts_with("in ") {
                PassMode::In
            } else if mods.contains(&"params") || text.starts_with("params ") {
                PassMode::Params
            } else {
                // An extension method's receiver is its first parameter, passed by value.
                if mods.contains(&"this") && !first {
                    return Err(self.unsupported(p, "an extension method"));
                }
                PassMode::Value
            };
            let name = self.ident(
                p.child_by_field_name("name")
                    .ok_or_else(|| self.unsupported(p, "a parameter"))?,
            );
            let ty = match p.child_by_field_name("type") {
                Some(t) => self.ty(t)?,
                None => TypeRef::Var,
            };
            let mut default = None;
            for c in self.children(p)? {
                let is_field = Some(c.id()) == p.child_by_field_name("type").map(|t| t.id())
                    || Some(c.id()) == p.child_by_field_name("name").map(|t| t.id());
                if !is_field && !matches!(c.kind(), "modifier" | "attribute_list" | "comment") {
                    default = Some(self.expr(c)?);
                }
            }
            params.push(Param {
                name,
                ty,
                mode,
                default,
                span: Span::of(p),
            });
        }
        // `params T[] name`: the grammar gives it no `parameter` node of its own, only
        // the list's `type` and `name` fields (it is the last parameter).
        let field = |f: &str| node.children_by_field_name(f, &mut node.walk()).last();
        if let (Some(ty), Some(name)) = (field("type"), field("name")) {
            params.push(Param {
                name: self.ident(name),
                ty: self.ty(ty)?,
                mode: PassMode::Params,
                default: None,
                span: Span::of(ty),
            });
        }
        Ok(params)
    }

    /// A type as written.
    // One arm per tree-sitter type node kind: the dispatch table.
    #[allow(clippy::too_many_lines)]
    fn ty(&self, node: Node<'a>) -> R<TypeRef> {
        match node.kind() {
            "implicit_type" => Ok(TypeRef::Var),
            "predefined_type" | "identifier" => {
                let name = self.ident(node);
                if let Some(t) = self.delegate_types.get(&name) {
                    return Ok(t.clone());
                }
                Ok(if name == "var" {
                    TypeRef::Var
                } else {
                    TypeRef::Named(name, Vec::new())
                })
            }
            "qualified_name" => {
                let name = node
                    .child_by_field_name("name")
                    .ok_or_else(|| self.unsupported(node, "a type"))?;
                self.ty(name)
            }
            "alias_qualified_name" => {
                let name = node
                    .child_by_field_name("name")
                    .ok_or_else(|| self.unsupported(node, "a type"))?;
                self.ty(name)
            }
            "generic_name" => {
                let mut name = String::new();
                let mut args = Vec::new();
                for c in self.children(node)? {
                    match c.kind() {
                        "identifier" => name = self.ident(c),
                        "type_argument_list" => {
                            for a in self.children(c)? {
                                args.push(self.ty(a)?);
                            }
                        }
                        _ => {}
                    }
                }
                Ok(TypeRef::Named(name, args))
            }
            "array_type" => self.array_type(node),
            "tuple_type" => {
                let mut items = Vec::new();
                for e in self.children(node)? {
                    if e.kind() != "tuple_element" {
                        continue;
                    }
                    let t = e
                        .child_by_field_name("type")
                        .ok_or_else(|| self.unsupported(e, "a tuple element"))?;
                    let name = e.child_by_field_name("name").map(|n| self.ident(n));
                    items.push((self.ty(t)?, name));
                }
                Ok(TypeRef::Tuple(items))
            }
            "nullable_type" => {
                let inner = node
                    .child_by_field_name("type")
                    .ok_or_else(|| self.unsupported(node, "a type"))?;
                Ok(TypeRef::Nullable(Box::new(self.ty(inner)?)))
            }
            "ref_type" => {
                let inner = node
                    .child_by_field_name("type")
                    .ok_or_else(|| self.unsupported(node, "a type"))?;
                Ok(TypeRef::Ref(Box::new(self.ty(inner)?)))
            }
            "scoped_type" => {
                let inner = self
                    .first_child(node)
                    .ok_or_else(|| self.unsupported(node, "a type"))?;
                self.ty(inner)
            }
            "pointer_type" | "function_pointer_type" => {
                Err(self.unsupported(node, "a pointer type"))
            }
            _ => Err(self.unsupported(node, &format!("the type `{}`", node.kind()))),
        }
    }

    /// The rank of `[]`, `[,]`, `[5]`, `[2, 3]`.
    /// `T[,][]`: C# reads the specifiers left to right from the outermost array (a
    /// two-dimensional array of `T[]`), while the tree nests the last one outermost.
    fn array_type(&self, node: Node<'a>) -> R<TypeRef> {
        let mut ranks = Vec::new();
        let mut base = node;
        while base.kind() == "array_type" {
            ranks.push(base.child_by_field_name("rank").map_or(1, |r| self.rank(r)));
            base = base
                .child_by_field_name("type")
                .ok_or_else(|| self.unsupported(node, "a type"))?;
        }
        // `ranks` is last-specifier-first: the innermost array type comes first.
        let mut ty = self.ty(base)?;
        for rank in ranks {
            ty = TypeRef::Array(Box::new(ty), rank);
        }
        Ok(ty)
    }

    fn rank(&self, node: Node) -> u8 {
        let mut cursor = node.walk();
        // A comment between the sizes (`[36/*filters*/, 12]`) is no dimension.
        let sizes = node
            .named_children(&mut cursor)
            .filter(|c| c.kind() != "comment")
            .count();
        if sizes > 0 {
            return sizes as u8;
        }
        self.text(node).matches(',').count() as u8 + 1
    }
}

/// A positional record's parameters as public fields, and its constructor setting them.
/// A property's setter with body `body`, as the method `set_P(value)`.
fn setter(
    name: &str,
    ty: TypeRef,
    body: Body,
    is_static: bool,
    dispatch: Dispatch,
    span: Span,
) -> Member {
    let value = Param {
        name: "value".into(),
        ty,
        mode: PassMode::Value,
        default: None,
        span,
    };
    Member::Method(MethodDecl {
        name: format!("set_{name}"),
        ret: TypeRef::Named("void".into(), Vec::new()),
        ret_ref: false,
        params: vec![value],
        type_params: Vec::new(),
        body,
        is_static,
        is_property: false,
        is_extension: false,
        dispatch,
        span,
        comments: Vec::new(),
    })
}

fn primary_members(decl: &mut TypeDecl) {
    let span = decl.span;
    let mut body = Vec::new();
    for p in &decl.primary {
        decl.members.push(Member::Field(FieldDecl {
            ty: p.ty.clone(),
            vars: vec![(p.name.clone(), None, p.span)],
            is_static: false,
            is_const: false,
            span: p.span,
            is_auto_property: true,
        }));
        let e = |kind| Expr::new(kind, p.span, (0, 0));
        let this_field = e(ExprKind::Member(
            Box::new(e(ExprKind::This)),
            p.name.clone(),
            Vec::new(),
        ));
        let param = e(ExprKind::Name(p.name.clone(), Vec::new()));
        let assign = e(ExprKind::Assign(
            None,
            Box::new(this_field),
            Box::new(param),
        ));
        body.push(Stmt {
            kind: StmtKind::Expr(assign),
            span: p.span,
        });
    }
    decl.members.push(Member::Method(MethodDecl {
        name: ".ctor".into(),
        ret: TypeRef::Named("void".into(), Vec::new()),
        ret_ref: false,
        params: decl.primary.clone(),
        type_params: Vec::new(),
        body: Body::Block(body),
        is_static: false,
        is_property: false,
        is_extension: false,
        dispatch: Dispatch::Plain,
        span,
        comments: Vec::new(),
    }));
}

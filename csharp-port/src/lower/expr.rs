//! Expressions, literals and patterns.

use tree_sitter::Node;

use super::{Lower, R};
use crate::ast::*;
use crate::error::Span;
use crate::types::{IntTy, Ty};

impl<'a> Lower<'a> {
    fn mk(&self, node: Node, kind: ExprKind) -> Expr {
        Expr::new(kind, Span::of(node), (node.start_byte(), node.end_byte()))
    }

    fn sub(&self, node: Node<'a>, field: &str) -> R<Expr> {
        let child = node.child_by_field_name(field).ok_or_else(|| {
            self.unsupported(node, &format!("a `{}` without its {field}", node.kind()))
        })?;
        self.expr(child)
    }

    pub(super) fn first_named(&self, node: Node<'a>) -> R<Node<'a>> {
        self.children(node)?
            .into_iter()
            .find(|c| c.kind() != "comment")
            .ok_or_else(|| self.unsupported(node, &format!("an empty `{}`", node.kind())))
    }

    /// One expression.
    // One arm per tree-sitter expression node kind: the dispatch table.
    #[allow(clippy::too_many_lines)]
    pub(super) fn expr(&self, node: Node<'a>) -> R<Expr> {
        if matches!(
            node.kind(),
            "binary_expression" | "conditional_access_expression" | "cast_expression"
        ) && self.misread_chain(node)
        {
            if node.kind() == "cast_expression" && !self.misread_cast_alone(node) {
                return Err(self.unsupported(
                    node,
                    "a binary operator after `(name)` under another operator",
                ));
            }
            return self.reread_binary_chain(node);
        }
        let kind = match node.kind() {
            "parenthesized_expression" => return self.expr(self.first_named(node)?),
            "integer_literal" => self.int_literal(node)?,
            "real_literal" => self.real_literal(node)?,
            "boolean_literal" => ExprKind::Bool(self.text(node) == "true"),
            "null_literal" => ExprKind::Null,
            "character_literal" => ExprKind::Char(self.char_literal(node)?),
            "string_literal" | "verbatim_string_literal" | "raw_string_literal" => {
                ExprKind::Str(self.string_literal(node)?)
            }
            "interpolated_string_expression" => self.interpolated(node)?,
            "identifier" => ExprKind::Name(self.ident(node), Vec::new()),
            "generic_name" => match self.ty(node)? {
                TypeRef::Named(name, args) => ExprKind::Name(name, args),
                _ => return Err(self.unsupported(node, "a generic name")),
            },
            "predefined_type" => ExprKind::Name(self.ident(node), Vec::new()),
            "qualified_name" | "alias_qualified_name" => self.qualified(node)?,
            "this_expression" | "this" => ExprKind::This,
            "base_expression" | "base" => return Err(self.unsupported(node, "`base`")),
            "member_access_expression" => self.member_access(node)?,
            "invocation_expression" => {
                let callee = self.sub(node, "function")?;
                let args = self.args(node.child_by_field_name("arguments"))?;
                match self.delegate_array_call(&callee, &args, node) {
                    Some(kind) => kind,
                    None => ExprKind::Call(Box::new(callee), args),
                }
            }
            "element_access_expression" => {
                let target = self.sub(node, "expression")?;
                let subscript = node
                    .child_by_field_name("subscript")
                    .ok_or_else(|| self.unsupported(node, "an element access"))?;
                let args = self.args(Some(subscript))?;
                if args
                    .iter()
                    .any(|a| a.mode != PassMode::Value || a.name.is_some())
                {
                    return Err(self.unsupported(node, "an unusual index"));
                }
                ExprKind::Index(Box::new(target), args.into_iter().map(|a| a.expr).collect())
            }
            "element_binding_expression" => {
                // The grammar nests the arguments in a `bracketed_argument_list` or not.
                let mut cursor = node.walk();
                let list = node
                    .named_children(&mut cursor)
                    .find(|c| c.kind() == "bracketed_argument_list")
                    .unwrap_or(node);
                let args = self.args(Some(list))?;
                if args
                    .iter()
                    .any(|a| a.mode != PassMode::Value || a.name.is_some())
                {
                    return Err(self.unsupported(node, "an unusual index"));
                }
                ExprKind::ElementBinding(args.into_iter().map(|a| a.expr).collect())
            }
            "binary_expression" => self.binary(node)?,
            "assignment_expression" => self.assignment(node)?,
            "prefix_unary_expression" => self.prefix(node)?,
            "postfix_unary_expression" => self.postfix(node)?,
            "conditional_expression" => ExprKind::Cond(
                Box::new(self.sub(node, "condition")?),
                Box::new(self.sub(node, "consequence")?),
                Box::new(self.sub(node, "alternative")?),
            ),
            "cast_expression" => {
                let ty = self.ty(node
                    .child_by_field_name("type")
                    .ok_or_else(|| self.unsupported(node, "a cast"))?)?;
                ExprKind::Cast(ty, Box::new(self.sub(node, "value")?))
            }
            "object_creation_expression" => self.object_creation(node)?,
            "implicit_object_creation_expression" => {
                let mut args = Vec::new();
                let mut init = None;
                for c in self.children(node)? {
                    match c.kind() {
                        "argument_list" => args = self.args(Some(c))?,
                        "initializer_expression" => init = Some(self.initializer(c)?),
                        _ => {}
                    }
                }
                ExprKind::New(None, args, init)
            }
            "array_creation_expression" | "stackalloc_expression" => self.array_creation(node)?,
            "implicit_array_creation_expression" | "implicit_stackalloc_expression" => {
                let init = self
                    .children(node)?
                    .into_iter()
                    .find(|c| c.kind() == "initializer_expression")
                    .ok_or_else(|| self.unsupported(node, "an array creation"))?;
                ExprKind::NewArray {
                    elem: None,
                    rank: 1,
                    sizes: Vec::new(),
                    init: Some(self.initializer(init)?),
                }
            }
            "initializer_expression" => ExprKind::NewArray {
                elem: None,
                rank: 1,
                sizes: Vec::new(),
                init: Some(self.initializer(node)?),
            },
            "collection_expression" => self.collection_expression(node)?,
            "lambda_expression" | "anonymous_method_expression" => self.lambda(node)?,
            "tuple_expression" => {
                let args = self.args(Some(node))?;
                let names = args.iter().map(|a| a.name.clone()).collect();
                ExprKind::Tuple(args.into_iter().map(|a| a.expr).collect(), names)
            }
            "is_pattern_expression" => {
                let e = self.sub(node, "expression")?;
                let p = self.pattern(
                    node.child_by_field_name("pattern")
                        .ok_or_else(|| self.unsupported(node, "`is`"))?,
                )?;
                self.is_then_logic(e, p, node)
            }
            "is_expression" => {
                let e = self.sub(node, "left")?;
                let t = node
                    .child_by_field_name("right")
                    .ok_or_else(|| self.unsupported(node, "`is`"))?;
                ExprKind::Is(Box::new(e), Box::new(Pattern::Type(self.ty(t)?, None)))
            }
            "switch_expression" => self.switch_expr(node)?,
            "ref_expression" => ExprKind::Ref(Box::new(self.expr(self.first_named(node)?)?)),
            "declaration_expression" => {
                let t = self.ty(node
                    .child_by_field_name("type")
                    .ok_or_else(|| self.unsupported(node, "a declaration"))?)?;
                let n = node
                    .child_by_field_name("name")
                    .ok_or_else(|| self.unsupported(node, "a declaration"))?;
                ExprKind::DeclVar(t, self.ident(n))
            }
            "checked_expression" => {
                let checked = self.text(node).trim_start().starts_with("checked");
                ExprKind::Checked(checked, Box::new(self.expr(self.first_named(node)?)?))
            }
            "typeof_expression" => ExprKind::TypeOf(
                self.ty(node
                    .child_by_field_name("type")
                    .ok_or_else(|| self.unsupported(node, "typeof"))?)?,
            ),
            "default_expression" => ExprKind::Default(match node.child_by_field_name("type") {
                Some(t) => Some(self.ty(t)?),
                None => None,
            }),
            "throw_expression" => ExprKind::Throw(
                match self
                    .children(node)?
                    .into_iter()
                    .find(|c| c.kind() != "comment")
                {
                    Some(e) => Some(Box::new(self.expr(e)?)),
                    None => None,
                },
            ),
            "range_expression" => self.range(node)?,
            "sizeof_expression" => self.size_of(node)?,
            "conditional_access_expression" => {
                let target = self.sub(node, "condition")?;
                let binding = self
                    .children(node)?
                    .into_iter()
                    .find(|c| c.kind() == "member_binding_expression")
                    .ok_or_else(|| {
                        self.unsupported(node, "a null-conditional element access (`?[`)")
                    })?;
                let name = binding
                    .child_by_field_name("name")
                    .ok_or_else(|| self.unsupported(node, "`?.`"))?;
                ExprKind::NullMember(Box::new(target), self.ident(name))
            }
            "as_expression" => {
                let ty = node
                    .child_by_field_name("right")
                    .ok_or_else(|| self.unsupported(node, "an `as` conversion"))?;
                ExprKind::As(Box::new(self.sub(node, "left")?), self.ty(ty)?)
            }
            "query_expression" => self.query(node)?,
            "anonymous_object_creation_expression" => self.anonymous_object(node)?,
            "with_expression" => self.with(node)?,
            "await_expression" => return Err(self.unsupported(node, "`await`")),
            "pointer_indirection_expression" | "address_of_expression" => {
                return Err(self.unsupported(node, "a pointer"));
            }
            other => return Err(self.unsupported(node, &format!("the expression `{other}`"))),
        };
        Ok(self.mk(node, kind))
    }

    /// `new { Score = s, index }`: a tuple named by its members (the port's anonymous
    /// type: its members are read-only and its `Equals` compares them, as a tuple's).
    /// `e with { F = v }`: each `F = v` as an assignment, as an object initialiser's.
    fn with(&self, node: Node<'a>) -> R<ExprKind> {
        let mut target = None;
        let mut items = Vec::new();
        for child in self.children(node)? {
            match child.kind() {
                "comment" => {}
                "with_initializer" => {
                    let parts: Vec<Node<'a>> = self
                        .children(child)?
                        .into_iter()
                        .filter(|c| c.kind() != "comment")
                        .collect();
                    let [name, value] = parts.as_slice() else {
                        return Err(self.unsupported(child, "this `with` member"));
                    };
                    let field = self.mk(*name, ExprKind::Name(self.ident(*name), Vec::new()));
                    let value = self.expr(*value)?;
                    let assign = ExprKind::Assign(None, Box::new(field), Box::new(value));
                    items.push(self.mk(child, assign));
                }
                _ if target.is_none() => target = Some(self.expr(child)?),
                _ => return Err(self.unsupported(child, "this `with` expression")),
            }
        }
        let target = target.ok_or_else(|| self.unsupported(node, "a `with` expression"))?;
        Ok(ExprKind::With(Box::new(target), items))
    }

    fn anonymous_object(&self, node: Node<'a>) -> R<ExprKind> {
        let mut members: Vec<Vec<Node<'a>>> = vec![Vec::new()];
        let mut cursor = node.walk();
        for child in node.children(&mut cursor) {
            match child.kind() {
                "," => members.push(Vec::new()),
                "new" | "{" | "}" | "comment" => {}
                _ => members.last_mut().expect("one at least").push(child),
            }
        }
        members.retain(|m| !m.is_empty());
        if members.len() < 2 {
            return Err(self.unsupported(node, "an anonymous type of fewer than two members"));
        }
        let (mut items, mut names) = (Vec::new(), Vec::new());
        for m in members {
            let (name, value) = match m.as_slice() {
                [name, eq, value] if eq.kind() == "=" => (self.ident(*name), *value),
                [value] => (self.projected_name(*value)?, *value),
                _ => return Err(self.unsupported(node, "this anonymous type's member")),
            };
            items.push(self.expr(value)?);
            names.push(Some(name));
        }
        self.anonymous.set(true);
        Ok(ExprKind::Tuple(items, names))
    }

    /// The member name C# gives `new { x }` and `new { a.B }`: `x` and `B`.
    fn projected_name(&self, value: Node<'a>) -> R<String> {
        match value.kind() {
            "identifier" => Ok(self.ident(value)),
            "member_access_expression" => value
                .child_by_field_name("name")
                .map(|n| self.ident(n))
                .ok_or_else(|| self.unsupported(value, "this anonymous type's member")),
            _ => Err(self.unsupported(value, "this anonymous type's member")),
        }
    }

    fn qualified(&self, node: Node<'a>) -> R<ExprKind> {
        let q = node.child_by_field_name("qualifier");
        let n = node
            .child_by_field_name("name")
            .ok_or_else(|| self.unsupported(node, "a name"))?;
        let name = self.ident(n);
        match q {
            Some(q) => Ok(ExprKind::Member(Box::new(self.expr(q)?), name, Vec::new())),
            None => Ok(ExprKind::Name(name, Vec::new())),
        }
    }

    fn member_access(&self, node: Node<'a>) -> R<ExprKind> {
        if let Some(kind) = self.misread_is_pattern(node)? {
            return Ok(kind);
        }
        let target = self.sub(node, "expression")?;
        let name_node = node
            .child_by_field_name("name")
            .ok_or_else(|| self.unsupported(node, "a member access"))?;
        if self.text(node).contains("->") {
            return Err(self.unsupported(node, "a pointer member access"));
        }
        let (name, targs) = match self.ty(name_node)? {
            TypeRef::Named(name, args) => (name, args),
            _ => return Err(self.unsupported(node, "a member access")),
        };
        Ok(ExprKind::Member(Box::new(target), name, targs))
    }

    /// tree-sitter reads `x is PieceType.Queen ? 1 : 2` as `(x is PieceType).Queen ? ...`:
    /// put the member back into the pattern.
    fn misread_is_pattern(&self, node: Node<'a>) -> R<Option<ExprKind>> {
        let Some(target) = node.child_by_field_name("expression") else {
            return Ok(None);
        };
        if target.kind() != "is_pattern_expression" {
            return Ok(None);
        }
        let (Some(subject), Some(pattern), Some(name)) = (
            target.child_by_field_name("expression"),
            target.child_by_field_name("pattern"),
            node.child_by_field_name("name"),
        ) else {
            return Ok(None);
        };
        let inner = self
            .first_child(pattern)
            .filter(|_| pattern.kind() == "constant_pattern");
        let Some(inner) =
            inner.filter(|i| matches!(i.kind(), "identifier" | "member_access_expression"))
        else {
            return Ok(None);
        };
        let constant = ExprKind::Member(Box::new(self.expr(inner)?), self.ident(name), Vec::new());
        let constant = Expr::new(
            constant,
            Span::of(inner),
            (inner.start_byte(), name.end_byte()),
        );
        Ok(Some(ExprKind::Is(
            Box::new(self.expr(subject)?),
            Box::new(Pattern::Const(constant)),
        )))
    }

    /// `M(a.b * c)`: tree-sitter reads a declaration of a pointer variable, which C# allows
    /// only after `out` (ECMA-334 12.17); as a value argument it is a product.
    fn misread_product(&self, node: Node<'a>) -> Option<R<Expr>> {
        let ty = node.child_by_field_name("type")?;
        let name = node.child_by_field_name("name")?;
        let target = ty.child_by_field_name("type")?;
        let misread = node.kind() == "declaration_expression"
            && ty.kind() == "pointer_type"
            && matches!(target.kind(), "identifier" | "qualified_name");
        misread.then(|| {
            let factor = self.mk(name, ExprKind::Name(self.ident(name), Vec::new()));
            let kind = ExprKind::Binary(BinOp::Mul, Box::new(self.expr(target)?), Box::new(factor));
            Ok(self.mk(node, kind))
        })
    }

    /// The arguments of an argument list (or a tuple, or a subscript).
    pub(super) fn args(&self, node: Option<Node<'a>>) -> R<Vec<Arg>> {
        let Some(node) = node else {
            return Ok(Vec::new());
        };
        let mut args = Vec::new();
        for a in self.children(node)? {
            if a.kind() != "argument" {
                continue;
            }
            let mut mode = PassMode::Value;
            let mut cursor = a.walk();
            for c in a.children(&mut cursor) {
                match c.kind() {
                    "ref" => mode = PassMode::Ref,
                    "out" => mode = PassMode::Out,
                    "in" => mode = PassMode::In,
                    _ => {}
                }
            }
            let name_node = a.child_by_field_name("name");
            // `this` alone is an anonymous token of the grammar, not a named child.
            let this = (a.named_child_count() == usize::from(name_node.is_some()))
                .then(|| a.child(a.child_count().saturating_sub(1)))
                .flatten()
                .filter(|c| c.kind() == "this");
            let value = self
                .children(a)?
                .into_iter()
                .find(|c| Some(c.id()) != name_node.map(|n| n.id()) && c.kind() != "comment")
                .or(this)
                .ok_or_else(|| self.unsupported(a, "an argument"))?;
            let expr = match self.misread_product(value) {
                Some(product) if mode == PassMode::Value => product?,
                _ => self.expr(value)?,
            };
            args.push(Arg {
                mode,
                expr,
                name: name_node.map(|n| self.ident(n)),
            });
        }
        Ok(args)
    }

    fn binary(&self, node: Node<'a>) -> R<ExprKind> {
        if let Some(new) = self.misread_new(node)? {
            return Ok(new);
        }
        let op_node = node
            .child_by_field_name("operator")
            .ok_or_else(|| self.unsupported(node, "a binary expression"))?;
        let op = BinOp::from_token(self.text(op_node)).ok_or_else(|| {
            self.unsupported(node, &format!("the operator `{}`", self.text(op_node)))
        })?;
        Ok(ExprKind::Binary(
            op,
            Box::new(self.sub(node, "left")?),
            Box::new(self.sub(node, "right")?),
        ))
    }

    fn assignment(&self, node: Node<'a>) -> R<ExprKind> {
        let op_node = node
            .child_by_field_name("operator")
            .ok_or_else(|| self.unsupported(node, "an assignment"))?;
        let token = self.text(op_node);
        let op = if token == "=" {
            None
        } else {
            let bin = token.trim_end_matches('=');
            Some(
                BinOp::from_token(bin)
                    .ok_or_else(|| self.unsupported(node, &format!("the operator `{token}`")))?,
            )
        };
        Ok(ExprKind::Assign(
            op,
            Box::new(self.sub(node, "left")?),
            Box::new(self.sub(node, "right")?),
        ))
    }

    pub(super) fn operator_token(&self, node: Node) -> &'a str {
        let mut cursor = node.walk();
        let token = node.children(&mut cursor).find(|c| !c.is_named());
        token.map_or("", |t| self.text(t))
    }

    fn prefix(&self, node: Node<'a>) -> R<ExprKind> {
        if self.lent_prefix.get() == Some(node.id()) {
            return Ok(self.expr(self.first_named(node)?)?.kind);
        }
        let operand = Box::new(self.expr(self.first_named(node)?)?);
        Ok(match self.operator_token(node) {
            "-" => ExprKind::Unary(UnOp::Neg, operand),
            "+" => ExprKind::Unary(UnOp::Plus, operand),
            "!" => ExprKind::Unary(UnOp::Not, operand),
            "~" => ExprKind::Unary(UnOp::BitNot, operand),
            "++" => ExprKind::IncDec(IncDec::PreInc, operand),
            "--" => ExprKind::IncDec(IncDec::PreDec, operand),
            "^" => ExprKind::FromEnd(operand),
            "&" | "*" => return Err(self.unsupported(node, "a pointer")),
            other => return Err(self.unsupported(node, &format!("the prefix operator `{other}`"))),
        })
    }

    fn postfix(&self, node: Node<'a>) -> R<ExprKind> {
        let operand = self.expr(self.first_named(node)?)?;
        Ok(match self.operator_token(node) {
            "++" => ExprKind::IncDec(IncDec::PostInc, Box::new(operand)),
            "--" => ExprKind::IncDec(IncDec::PostDec, Box::new(operand)),
            // `x!`: the null-forgiving operator changes nothing at run time.
            "!" => return Ok(operand.kind),
            other => return Err(self.unsupported(node, &format!("the postfix operator `{other}`"))),
        })
    }

    fn object_creation(&self, node: Node<'a>) -> R<ExprKind> {
        let ty = self.ty(node
            .child_by_field_name("type")
            .ok_or_else(|| self.unsupported(node, "`new`"))?)?;
        let args = self.args(node.child_by_field_name("arguments"))?;
        let init = match node.child_by_field_name("initializer") {
            Some(i) => Some(self.initializer(i)?),
            None => None,
        };
        Ok(ExprKind::New(Some(ty), args, init))
    }

    /// `new List<T>(a) { x }`: tree-sitter's C# grammar reads `((new List) < T) > ((a) {
    /// x })`, comparisons of a cast of an initialiser, where C# reads the creation of a
    /// `List<T>` from `a` with `x` added. A `new` with neither arguments nor an
    /// initialiser is no C# expression, so such a tree is always that misreading.
    fn misread_new(&self, node: Node<'a>) -> R<Option<ExprKind>> {
        let field = |n: Node<'a>, f: &str| n.child_by_field_name(f);
        let op = |n: Node<'a>| field(n, "operator").map(|o| self.text(o));
        let (Some(less), Some(cast)) = (field(node, "left"), field(node, "right")) else {
            return Ok(None);
        };
        let (Some(new), Some(arg_ty)) = (field(less, "left"), field(less, "right")) else {
            return Ok(None);
        };
        let (Some(ty), Some(arg), Some(init)) = (
            field(new, "type"),
            field(cast, "type"),
            field(cast, "value"),
        ) else {
            return Ok(None);
        };
        let bare_new = new.kind() == "object_creation_expression"
            && field(new, "arguments").is_none()
            && field(new, "initializer").is_none();
        if op(node) != Some(">")
            || less.kind() != "binary_expression"
            || op(less) != Some("<")
            || !bare_new
            || ty.kind() != "identifier"
            || cast.kind() != "cast_expression"
            || arg.kind() != "identifier"
            || init.kind() != "initializer_expression"
        {
            return Ok(None);
        }
        let ty = TypeRef::Named(self.ident(ty), vec![self.ty(arg_ty)?]);
        let arg = Arg {
            mode: PassMode::Value,
            expr: self.mk(arg, ExprKind::Name(self.ident(arg), Vec::new())),
            name: None,
        };
        Ok(Some(ExprKind::New(
            Some(ty),
            vec![arg],
            Some(self.initializer(init)?),
        )))
    }

    fn array_creation(&self, node: Node<'a>) -> R<ExprKind> {
        let ty_node = node
            .child_by_field_name("type")
            .ok_or_else(|| self.unsupported(node, "an array creation"))?;
        let init = match self
            .children(node)?
            .into_iter()
            .find(|c| c.kind() == "initializer_expression")
        {
            Some(i) => Some(self.initializer(i)?),
            None => None,
        };
        if ty_node.kind() != "array_type" {
            return Err(self.unsupported(node, "an array creation"));
        }
        // `new int[8][]`: the sizes are on the innermost rank with sizes; the element
        // type is what remains (`int[]`).
        let (elem, rank, sizes) = self.split_array_type(ty_node)?;
        Ok(ExprKind::NewArray {
            elem: Some(elem),
            rank,
            sizes,
            init,
        })
    }

    /// `int[8][]` into the element type `int[]`, the rank 1 and the sizes `[8]`.
    fn split_array_type(&self, node: Node<'a>) -> R<(TypeRef, u8, Vec<Expr>)> {
        let mut ranks = Vec::new();
        let mut base = node;
        while base.kind() == "array_type" {
            let rank = base
                .child_by_field_name("rank")
                .ok_or_else(|| self.unsupported(base, "an array type"))?;
            ranks.push(rank);
            base = base
                .child_by_field_name("type")
                .ok_or_else(|| self.unsupported(base, "an array type"))?;
        }
        // Source order of the specifiers is innermost-first in the tree: reverse.
        ranks.reverse();
        let first = ranks[0];
        let sizes: Vec<Expr> = self
            .children(first)?
            .into_iter()
            .filter(|c| c.kind() != "comment")
            .map(|c| self.expr(c))
            .collect::<R<_>>()?;
        let mut elem = self.ty(base)?;
        for r in ranks.iter().skip(1).rev() {
            if r.named_child_count() > 0 {
                return Err(self.unsupported(node, "sizes on an inner array rank"));
            }
            elem = TypeRef::Array(Box::new(elem), self.rank(*r));
        }
        Ok((elem, self.rank(first), sizes))
    }

    /// The elements of `{ a, b }` (an element may itself be `{ ... }`).
    fn initializer(&self, node: Node<'a>) -> R<Vec<Expr>> {
        self.children(node)?
            .into_iter()
            .filter(|c| c.kind() != "comment")
            .map(|c| self.expr(c))
            .collect()
    }

    fn collection_expression(&self, node: Node<'a>) -> R<ExprKind> {
        let mut items = Vec::new();
        for c in self.children(node)? {
            if c.kind() == "comment" {
                continue;
            }
            let inner = if c.kind() == "collection_element" {
                self.first_named(c)?
            } else {
                c
            };
            if inner.kind() == "spread_element" {
                return Err(self.unsupported(inner, "a spread (`..`) in a collection expression"));
            }
            let inner = if inner.kind() == "expression_element" {
                self.first_named(inner)?
            } else {
                inner
            };
            items.push(self.expr(inner)?);
        }
        Ok(ExprKind::NewArray {
            elem: None,
            rank: 1,
            sizes: Vec::new(),
            init: Some(items),
        })
    }

    fn lambda(&self, node: Node<'a>) -> R<ExprKind> {
        if node.kind() == "anonymous_method_expression" {
            return Err(self.unsupported(node, "an anonymous method (`delegate { }`)"));
        }
        let mut params = Vec::new();
        if let Some(p) = node.child_by_field_name("parameters") {
            match p.kind() {
                "implicit_parameter" | "identifier" => params.push((self.ident(p), None)),
                _ => {
                    for param in self.params(p)? {
                        if param.mode != PassMode::Value {
                            return Err(
                                self.unsupported(node, "a lambda with ref or out parameters")
                            );
                        }
                        let ty = if param.ty == TypeRef::Var {
                            None
                        } else {
                            Some(param.ty)
                        };
                        params.push((param.name, ty));
                    }
                }
            }
        }
        let body = node
            .child_by_field_name("body")
            .ok_or_else(|| self.unsupported(node, "a lambda"))?;
        let body = if body.kind() == "block" {
            LambdaBody::Block(self.block(body)?)
        } else {
            LambdaBody::Expr(Box::new(self.expr(body)?))
        };
        Ok(ExprKind::Lambda(params, body))
    }

    fn switch_expr(&self, node: Node<'a>) -> R<ExprKind> {
        let mut value = None;
        let mut arms = Vec::new();
        for c in self.children(node)? {
            match c.kind() {
                "comment" => {}
                "switch_expression_arm" => {
                    let parts: Vec<Node> = self
                        .children(c)?
                        .into_iter()
                        .filter(|p| p.kind() != "comment")
                        .collect();
                    let (pat, rest) = parts
                        .split_first()
                        .ok_or_else(|| self.unsupported(c, "a switch arm"))?;
                    let pattern = self.pattern(*pat)?;
                    let (guard, result) = match rest {
                        [w, r] if w.kind() == "when_clause" => {
                            (Some(self.expr(self.first_named(*w)?)?), self.expr(*r)?)
                        }
                        [r] => (None, self.expr(*r)?),
                        _ => return Err(self.unsupported(c, "a switch arm")),
                    };
                    arms.push((pattern, guard, result));
                }
                _ if value.is_none() => value = Some(self.expr(c)?),
                _ => return Err(self.unsupported(c, "a switch expression")),
            }
        }
        let value = value.ok_or_else(|| self.unsupported(node, "a switch expression"))?;
        Ok(ExprKind::Switch(Box::new(value), arms))
    }

    fn range(&self, node: Node<'a>) -> R<ExprKind> {
        let text = self.text(node);
        let parts: Vec<Node> = self.children(node)?;
        let dots = text.find("..").unwrap_or(0) + node.start_byte();
        let mut lo = None;
        let mut hi = None;
        for p in parts {
            if p.end_byte() <= dots {
                lo = Some(Box::new(self.expr(p)?));
            } else {
                hi = Some(Box::new(self.expr(p)?));
            }
        }
        Ok(ExprKind::Range(lo, hi))
    }

    /// A pattern of `is` or `switch`.
    /// `x is P && y`: the grammar reads `P && y` as the pattern's constant, where C#
    /// ends the pattern before `&&` and `||`; this gives `(x is P) && y` back.
    fn is_then_logic(&self, subject: Expr, mut pattern: Pattern, node: Node<'a>) -> ExprKind {
        let mut tails = Vec::new();
        while let Some(tail) = self.logic_tail(&mut pattern) {
            tails.push(tail);
        }
        let (span, range) = (Span::of(node), (node.start_byte(), node.end_byte()));
        let mut kind = ExprKind::Is(Box::new(subject), Box::new(pattern));
        for tail in tails.into_iter().rev() {
            let left = Box::new(Expr::new(kind, span, range));
            kind = match tail {
                Tail::Logic(op, right) => ExprKind::Binary(op, left, Box::new(right)),
                Tail::Cond(yes, no) => ExprKind::Cond(left, Box::new(yes), Box::new(no)),
            };
        }
        kind
    }

    /// The last `&& y`, `|| y` or `? a : b` of the rightmost constant in `p`, taken out
    /// of it (not one the source parenthesises: `x is (a && b)` is a constant).
    fn logic_tail(&self, p: &mut Pattern) -> Option<Tail> {
        if let Some((left, op, right)) = self.split_inner_logic(p) {
            *p = left;
            return Some(Tail::Logic(op, right));
        }
        self.logic_tail_right(p)
    }

    /// `x is 3 or 4 && y is 5 or 6`: the grammar reads `(3 or (4 && y is 5)) or 6`, the
    /// `&&` inside a constant that is not the pattern's last; C# reads
    /// `(x is 3 or 4) && (y is 5 or 6)`. The pattern before the `&&`, the operator,
    /// and what follows it with the later combinators moved into its last `is`.
    fn split_inner_logic(&self, p: &Pattern) -> Option<(Pattern, BinOp, Expr)> {
        let comb = |and: bool, a: Pattern, b: Pattern| {
            let (a, b) = (Box::new(a), Box::new(b));
            if and {
                Pattern::And(a, b)
            } else {
                Pattern::Or(a, b)
            }
        };
        match p {
            Pattern::And(a, b) | Pattern::Or(a, b) => {
                let and = matches!(p, Pattern::And(..));
                if let Some((b, op, r)) = self.split_inner_logic(b) {
                    return Some((comb(and, (**a).clone(), b), op, r));
                }
                let (a, op, r) = self.split_inner_logic(a)?;
                let r = self.attach_pattern(&r, and, b)?;
                Some((a, op, r))
            }
            Pattern::Not(inner) => {
                let (inner, op, r) = self.split_inner_logic(inner)?;
                Some((Pattern::Not(Box::new(inner)), op, r))
            }
            Pattern::Const(e) | Pattern::Relational(_, e) => match &e.kind {
                ExprKind::Binary(op @ (BinOp::AndAlso | BinOp::OrElse), l, r)
                    if !self.src[..e.range.0].trim_end().ends_with('(') && ends_in_is(r) =>
                {
                    let left = match p {
                        Pattern::Relational(rel, _) => Pattern::Relational(*rel, (**l).clone()),
                        _ => Pattern::Const((**l).clone()),
                    };
                    Some((left, *op, (**r).clone()))
                }
                _ => None,
            },
            _ => None,
        }
    }

    /// `y is q` (or `a && y is q`) with `and`/`or` `extra` after `q`; `None` where
    /// the precedence could differ (`and` after a `q` that is an `or`).
    fn attach_pattern(&self, e: &Expr, and: bool, extra: &Pattern) -> Option<Expr> {
        let kind = match &e.kind {
            ExprKind::Is(x, q) if !(and && matches!(**q, Pattern::Or(..))) => {
                let (q, extra) = (Box::new((**q).clone()), Box::new(extra.clone()));
                let q = if and {
                    Pattern::And(q, extra)
                } else {
                    Pattern::Or(q, extra)
                };
                ExprKind::Is(x.clone(), Box::new(q))
            }
            ExprKind::Binary(op @ (BinOp::AndAlso | BinOp::OrElse), l, r) => ExprKind::Binary(
                *op,
                l.clone(),
                Box::new(self.attach_pattern(r, and, extra)?),
            ),
            _ => return None,
        };
        Some(Expr::new(kind, e.span, e.range))
    }

    fn logic_tail_right(&self, p: &mut Pattern) -> Option<Tail> {
        let leaf = match p {
            Pattern::Const(e) | Pattern::Relational(_, e) => e,
            Pattern::Not(inner) | Pattern::And(_, inner) | Pattern::Or(_, inner) => {
                return self.logic_tail_right(inner);
            }
            _ => return None,
        };
        if self.src[..leaf.range.0].trim_end().ends_with('(') {
            return None;
        }
        let (rest, tail) = match &leaf.kind {
            ExprKind::Binary(op @ (BinOp::AndAlso | BinOp::OrElse), l, r) => {
                ((**l).clone(), Tail::Logic(*op, (**r).clone()))
            }
            ExprKind::Cond(c, yes, no) => {
                ((**c).clone(), Tail::Cond((**yes).clone(), (**no).clone()))
            }
            _ => return None,
        };
        *leaf = rest;
        Some(tail)
    }

    pub(super) fn pattern(&self, node: Node<'a>) -> R<Pattern> {
        Ok(match node.kind() {
            "constant_pattern" => self.pattern(self.first_named(node)?)?,
            // `(0, _)`: the grammar reads a tuple of constants and discards as a
            // tuple expression.
            "tuple_expression" => Pattern::Positional(
                self.children(node)?
                    .into_iter()
                    .filter(|c| c.kind() == "argument")
                    .map(|a| match a.child_by_field_name("name") {
                        Some(_) => {
                            Err(self.unsupported(a, "a positional pattern naming an element"))
                        }
                        None => self.pattern(self.first_named(a)?),
                    })
                    .collect::<R<Vec<_>>>()?,
            ),
            "identifier" if self.text(node) == "_" => Pattern::Discard,
            "discard" => Pattern::Discard,
            "relational_pattern" => {
                let op = BinOp::from_token(self.operator_token(node))
                    .ok_or_else(|| self.unsupported(node, "a relational pattern"))?;
                Pattern::Relational(op, self.expr(self.first_named(node)?)?)
            }
            "negated_pattern" => Pattern::Not(Box::new(self.pattern(self.first_named(node)?)?)),
            "parenthesized_pattern" => self.pattern(self.first_named(node)?)?,
            "and_pattern" | "or_pattern" => {
                let l = node
                    .child_by_field_name("left")
                    .ok_or_else(|| self.unsupported(node, "a pattern"))?;
                let r = node
                    .child_by_field_name("right")
                    .ok_or_else(|| self.unsupported(node, "a pattern"))?;
                let (l, r) = (Box::new(self.pattern(l)?), Box::new(self.pattern(r)?));
                if node.kind() == "and_pattern" {
                    Pattern::And(l, r)
                } else {
                    Pattern::Or(l, r)
                }
            }
            "declaration_pattern" => {
                let t = node
                    .child_by_field_name("type")
                    .ok_or_else(|| self.unsupported(node, "a pattern"))?;
                let name = node.child_by_field_name("name").map(|n| self.ident(n));
                Pattern::Type(self.ty(t)?, name)
            }
            "type_pattern" => {
                let t = node
                    .child_by_field_name("type")
                    .ok_or_else(|| self.unsupported(node, "a pattern"))?;
                Pattern::Type(self.ty(t)?, None)
            }
            "var_pattern" => match node.child_by_field_name("name") {
                Some(n) => Pattern::Var(self.ident(n)),
                None => return Err(self.unsupported(node, "a deconstructing `var` pattern")),
            },
            "predefined_type" | "identifier" | "qualified_name" | "generic_name"
                if self
                    .text(node)
                    .chars()
                    .next()
                    .is_some_and(|c| c.is_uppercase() || c.is_lowercase()) =>
            {
                // A bare name in a pattern: a constant (an enum member) or a type.
                Pattern::Const(self.expr(node)?)
            }
            "recursive_pattern" => self.property_pattern(node)?,
            "positional_pattern_clause" => self.positional(node)?,
            "positional_pattern" | "property_pattern_clause" => {
                return Err(self.unsupported(node, "a positional pattern"));
            }
            "list_pattern" => return Err(self.unsupported(node, "a list pattern")),
            _ => Pattern::Const(self.expr(node)?),
        })
    }

    /// A LINQ query as the method calls C# makes of it: `from x in s where c orderby k
    /// select e` is `s.Where(x => c).OrderBy(x => k).Select(x => e)`; a second `from y in
    /// f(x)` is `SelectMany(x => f(x))` when the clauses after it name only `y`.
    // A LINQ query's clauses (from, let, where, orderby, select, group) in one pass, in source order.
    #[allow(clippy::too_many_lines)]
    fn query(&self, node: Node<'a>) -> R<ExprKind> {
        let mut current: Option<Expr> = None;
        let mut var = String::new();
        let span = Span::of(node);
        let range = (node.start_byte(), node.end_byte());
        let call = |target: Expr, method: &str, var: &str, body: Expr| {
            let lambda = Expr::new(
                ExprKind::Lambda(
                    vec![(var.to_string(), None)],
                    LambdaBody::Expr(Box::new(body)),
                ),
                span,
                range,
            );
            let callee = Expr::new(
                ExprKind::Member(Box::new(target), method.to_string(), Vec::new()),
                span,
                range,
            );
            Expr::new(
                ExprKind::Call(
                    Box::new(callee),
                    vec![Arg {
                        mode: PassMode::Value,
                        expr: lambda,
                        name: None,
                    }],
                ),
                span,
                range,
            )
        };
        for clause in self.children(node)? {
            match clause.kind() {
                "comment" => {}
                "from_clause" => {
                    let name = clause
                        .child_by_field_name("name")
                        .ok_or_else(|| self.unsupported(clause, "a `from` clause"))?;
                    if clause.child_by_field_name("type").is_some() {
                        return Err(self.unsupported(clause, "a typed `from` clause"));
                    }
                    let source = self
                        .children(clause)?
                        .into_iter()
                        .rfind(|c| c.id() != name.id() && c.kind() != "comment")
                        .ok_or_else(|| self.unsupported(clause, "a `from` clause"))?;
                    let source = self.expr(source)?;
                    current = Some(match current.take() {
                        None => source,
                        Some(outer) => call(outer, "SelectMany", &var, source),
                    });
                    var = self.ident(name);
                }
                "where_clause" => {
                    let cond = self.expr(self.first_named(clause)?)?;
                    let target = current
                        .take()
                        .ok_or_else(|| self.unsupported(clause, "a query"))?;
                    current = Some(call(target, "Where", &var, cond));
                }
                "order_by_clause" => {
                    let mut cursor = clause.walk();
                    let parts: Vec<Node> = clause.children(&mut cursor).collect();
                    let mut first = true;
                    for (i, part) in parts.iter().enumerate() {
                        if !part.is_named() || part.kind() == "comment" {
                            continue;
                        }
                        let descending = parts
                            .get(i + 1)
                            .is_some_and(|n| self.text(*n) == "descending");
                        let method = match (first, descending) {
                            (true, false) => "OrderBy",
                            (true, true) => "OrderByDescending",
                            (false, false) => "ThenBy",
                            (false, true) => "ThenByDescending",
                        };
                        first = false;
                        let key = self.expr(*part)?;
                        let target = current
                            .take()
                            .ok_or_else(|| self.unsupported(clause, "a query"))?;
                        current = Some(call(target, method, &var, key));
                    }
                }
                "select_clause" => {
                    let e = self.first_named(clause)?;
                    let target = current
                        .take()
                        .ok_or_else(|| self.unsupported(clause, "a query"))?;
                    current = Some(if self.text(e) == var {
                        target
                    } else {
                        call(target, "Select", &var, self.expr(e)?)
                    });
                }
                other => {
                    return Err(self.unsupported(
                        clause,
                        &format!("a query's `{}`", other.trim_end_matches("_clause")),
                    ));
                }
            }
        }
        current
            .map(|e| e.kind)
            .ok_or_else(|| self.unsupported(node, "an empty query"))
    }

    /// `T { A: p, B.C: q }`.
    fn property_pattern(&self, node: Node<'a>) -> R<Pattern> {
        let ty = match node.child_by_field_name("type") {
            Some(t) => Some(self.ty(t)?),
            None => None,
        };
        if node.child_by_field_name("name").is_some() {
            return Err(self.unsupported(node, "a property pattern that declares a variable"));
        }
        let mut subs = Vec::new();
        let parts = self
            .children(node)?
            .into_iter()
            .filter(|c| c.kind().ends_with("pattern_clause"))
            .count();
        for part in self.children(node)? {
            match part.kind() {
                "property_pattern_clause" => {
                    for sub in self.children(part)? {
                        if sub.kind() != "subpattern" {
                            continue;
                        }
                        let parts: Vec<Node> = self
                            .children(sub)?
                            .into_iter()
                            .filter(|c| c.kind() != "comment")
                            .collect();
                        let [path, pattern] = parts.as_slice() else {
                            return Err(self.unsupported(sub, "a property pattern"));
                        };
                        subs.push((self.member_path(*path)?, self.pattern(*pattern)?));
                    }
                }
                "positional_pattern_clause" if ty.is_none() && parts == 1 => {
                    return self.positional(part);
                }
                "positional_pattern_clause" => {
                    return Err(self.unsupported(part, "a positional pattern"));
                }
                _ => {}
            }
        }
        Ok(Pattern::Property(ty, subs))
    }

    /// `(p, q)` with no type and no names: a tuple's elements matching `p` and `q`.
    fn positional(&self, clause: Node<'a>) -> R<Pattern> {
        let mut items = Vec::new();
        for sub in self.children(clause)? {
            if sub.kind() != "subpattern" {
                continue;
            }
            let parts: Vec<Node> = self
                .children(sub)?
                .into_iter()
                .filter(|c| c.kind() != "comment")
                .collect();
            let [pattern] = parts.as_slice() else {
                return Err(self.unsupported(sub, "a positional pattern naming an element"));
            };
            items.push(self.pattern(*pattern)?);
        }
        Ok(Pattern::Positional(items))
    }

    /// `A` or `A.B.C` as names.
    fn member_path(&self, node: Node<'a>) -> R<Vec<String>> {
        match node.kind() {
            "identifier" => Ok(vec![self.ident(node)]),
            "member_access_expression" => {
                let target = node
                    .child_by_field_name("expression")
                    .ok_or_else(|| self.unsupported(node, "a property path"))?;
                let name = node
                    .child_by_field_name("name")
                    .ok_or_else(|| self.unsupported(node, "a property path"))?;
                let mut path = self.member_path(target)?;
                path.push(self.ident(name));
                Ok(path)
            }
            _ => Err(self.unsupported(node, "a property path")),
        }
    }

    /// `sizeof(T)` of a predefined type: an `int` constant (ECMA-334, "The sizeof
    /// operator").
    fn size_of(&self, node: Node) -> R<ExprKind> {
        let t = self.first_named(node)?;
        let bytes = match self.text(t).trim() {
            "sbyte" | "byte" | "bool" => 1,
            "short" | "ushort" | "char" => 2,
            "int" | "uint" | "float" => 4,
            "long" | "ulong" | "double" => 8,
            "decimal" => 16,
            _ => return Err(self.unsupported(node, "`sizeof` of this type")),
        };
        Ok(ExprKind::Int(bytes, Ty::Int(IntTy::I32)))
    }

    fn int_literal(&self, node: Node) -> R<ExprKind> {
        let text = self.text(node).replace('_', "");
        let lower = text.to_ascii_lowercase();
        let digits_end = lower.trim_end_matches(['u', 'l']).len();
        let (digits, suffix) = lower.split_at(digits_end);
        let value: u64 = if let Some(hex) = digits.strip_prefix("0x") {
            u64::from_str_radix(hex, 16)
        } else if let Some(bin) = digits.strip_prefix("0b") {
            u64::from_str_radix(bin, 2)
        } else {
            digits.parse()
        }
        .map_err(|_| self.unsupported(node, "an integer literal out of range"))?;
        let fits = |t: IntTy| (value as i128) <= t.range().1;
        let candidates: &[IntTy] = match suffix {
            "" => &[IntTy::I32, IntTy::U32, IntTy::I64, IntTy::U64],
            "u" => &[IntTy::U32, IntTy::U64],
            "l" => &[IntTy::I64, IntTy::U64],
            _ => &[IntTy::U64],
        };
        let ty = candidates
            .iter()
            .copied()
            .find(|t| fits(*t))
            .ok_or_else(|| self.unsupported(node, "an integer literal out of range"))?;
        Ok(ExprKind::Int(value, Ty::Int(ty)))
    }

    fn real_literal(&self, node: Node) -> R<ExprKind> {
        let text = self.text(node).replace('_', "");
        let last = text.chars().last().unwrap_or('0').to_ascii_lowercase();
        let (body, ty) = match last {
            'f' => (&text[..text.len() - 1], Ty::F32),
            'd' => (&text[..text.len() - 1], Ty::F64),
            'm' => (&text[..text.len() - 1], Ty::Decimal),
            _ => (text.as_str(), Ty::F64),
        };
        Ok(ExprKind::Real(body.to_string(), ty))
    }

    fn char_literal(&self, node: Node) -> R<u16> {
        let text = self.text(node);
        let inner = text
            .strip_prefix('\'')
            .and_then(|t| t.strip_suffix('\''))
            .ok_or_else(|| self.unsupported(node, "a character literal"))?;
        let s = unescape(inner).ok_or_else(|| self.unsupported(node, "this escape sequence"))?;
        let units: Vec<u16> = s.encode_utf16().collect();
        match units.as_slice() {
            [u] => Ok(*u),
            _ => Err(self.unsupported(node, "a character literal")),
        }
    }

    fn string_literal(&self, node: Node) -> R<String> {
        let text = self.text(node);
        if let Some(v) = text.strip_prefix("@\"").and_then(|t| t.strip_suffix('"')) {
            return Ok(v.replace("\"\"", "\""));
        }
        if text.starts_with("\"\"\"") {
            return Err(self.unsupported(node, "a raw string literal"));
        }
        let inner = text
            .strip_prefix('"')
            .and_then(|t| t.strip_suffix('"'))
            .ok_or_else(|| self.unsupported(node, "a string literal"))?;
        unescape(inner).ok_or_else(|| self.unsupported(node, "this escape sequence"))
    }

    fn interpolated(&self, node: Node<'a>) -> R<ExprKind> {
        let text = self.text(node);
        if text.starts_with("$@") || text.starts_with("@$") || text.starts_with("$\"\"\"") {
            return Err(self.unsupported(node, "a verbatim or raw interpolated string"));
        }
        let mut parts = Vec::new();
        for c in self.children(node)? {
            match c.kind() {
                "string_content" => parts.push(InterpPart::Text(self.text(c).to_string())),
                "escape_sequence" => parts.push(InterpPart::Text(
                    unescape(self.text(c))
                        .ok_or_else(|| self.unsupported(c, "this escape sequence"))?,
                )),
                "interpolation" => {
                    let mut value = None;
                    let mut format = None;
                    let mut align = 0;
                    for p in self.children(c)? {
                        match p.kind() {
                            "interpolation_brace" | "comment" => {}
                            "interpolation_format_clause" => {
                                format = Some(self.text(p).trim_start_matches(':').to_string())
                            }
                            "interpolation_alignment_clause" => {
                                let text = self.text(p).trim_start_matches(',').trim();
                                align = text.replace(' ', "").parse().map_err(|_| {
                                    self.unsupported(
                                        p,
                                        "an alignment in an interpolated string that is not an integer literal",
                                    )
                                })?;
                            }
                            _ => value = Some(self.expr(p)?),
                        }
                    }
                    let value = value.ok_or_else(|| self.unsupported(c, "an interpolation"))?;
                    parts.push(InterpPart::Value(value, format, align));
                }
                _ => {}
            }
        }
        Ok(ExprKind::Interp(parts))
    }
}

/// C#'s escape sequences in a string or character literal.
fn unescape(s: &str) -> Option<String> {
    let mut out = String::new();
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        let e = chars.next()?;
        out.push(match e {
            'n' => '\n',
            't' => '\t',
            'r' => '\r',
            '0' => '\0',
            '\\' => '\\',
            '\'' => '\'',
            '"' => '"',
            'a' => '\u{7}',
            'b' => '\u{8}',
            'f' => '\u{c}',
            'v' => '\u{b}',
            'u' | 'x' => {
                let hex: String = chars
                    .clone()
                    .take(4)
                    .take_while(|c| c.is_ascii_hexdigit())
                    .collect();
                for _ in 0..hex.len() {
                    chars.next();
                }
                char::from_u32(u32::from_str_radix(&hex, 16).ok()?)?
            }
            _ => return None,
        });
    }
    Some(out)
}

/// Whether `e` is `y is q`, or `a && y is q`, that later pattern combinators belong to.
fn ends_in_is(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Is(..) => true,
        ExprKind::Binary(BinOp::AndAlso | BinOp::OrElse, _, r) => ends_in_is(r),
        _ => false,
    }
}

/// What follows a pattern that the grammar read into its last constant.
enum Tail {
    /// `&& y`, `|| y`.
    Logic(BinOp, Expr),
    /// `? a : b`.
    Cond(Expr, Expr),
}

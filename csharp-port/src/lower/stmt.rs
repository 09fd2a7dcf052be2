//! Statements.

use tree_sitter::Node;

use super::{Lower, R};
use crate::ast::*;
use crate::error::Span;

impl<'a> Lower<'a> {
    /// The statements of a block (comments kept as statements).
    pub(super) fn block(&self, node: Node<'a>) -> R<Vec<Stmt>> {
        let mut out = Vec::new();
        let mut arrays = Vec::new();
        for child in self.children(node)? {
            let stmt = self.stmt(child)?;
            // Its method groups are read at each call instead, the same methods: the
            // declaration itself does nothing C# can observe.
            if let Some((name, elems)) = super::delegates::delegate_array(&stmt, self.src) {
                let old = self
                    .delegate_arrays
                    .borrow_mut()
                    .insert(name.clone(), elems);
                arrays.push((name, old));
                continue;
            }
            out.push(stmt);
        }
        for (name, old) in arrays.into_iter().rev() {
            let mut map = self.delegate_arrays.borrow_mut();
            match old {
                Some(elems) => map.insert(name, elems),
                None => map.remove(&name),
            };
        }
        Ok(super::delegates::recursive_lambdas(out, self.src))
    }

    fn stmt_at(&self, node: Node, kind: StmtKind) -> Stmt {
        Stmt {
            kind,
            span: Span::of(node),
        }
    }

    fn field_node(&self, node: Node<'a>, field: &str) -> R<Node<'a>> {
        node.child_by_field_name(field).ok_or_else(|| {
            self.unsupported(node, &format!("a `{}` without its {field}", node.kind()))
        })
    }

    /// One statement.
    // One arm per tree-sitter statement node kind: the dispatch table.
    #[allow(clippy::too_many_lines)]
    pub(super) fn stmt(&self, node: Node<'a>) -> R<Stmt> {
        let kind = match node.kind() {
            "comment" => StmtKind::Comment(self.comment_text(node)),
            "block" => StmtKind::Block(self.block(node)?),
            "empty_statement" => StmtKind::Empty,
            "expression_statement" => {
                let e = self
                    .first_child(node)
                    .ok_or_else(|| self.unsupported(node, "a statement"))?;
                StmtKind::Expr(self.expr(e)?)
            }
            "local_declaration_statement" => self.local_decl(node)?,
            "if_statement" => {
                let cond = self.expr(self.field_node(node, "condition")?)?;
                let then = self.stmt(self.field_node(node, "consequence")?)?;
                let alt = match node.child_by_field_name("alternative") {
                    Some(a) => Some(Box::new(self.stmt(a)?)),
                    None => None,
                };
                StmtKind::If(cond, Box::new(then), alt)
            }
            "while_statement" => StmtKind::While(
                self.expr(self.field_node(node, "condition")?)?,
                Box::new(self.stmt(self.field_node(node, "body")?)?),
            ),
            "do_statement" => StmtKind::Do(
                Box::new(self.stmt(self.field_node(node, "body")?)?),
                self.expr(self.field_node(node, "condition")?)?,
            ),
            "for_statement" => self.for_stmt(node)?,
            "foreach_statement" => self.foreach(node)?,
            "return_statement" => StmtKind::Return(match self.first_child_or_this(node) {
                Some(e) if e.kind() != "comment" => Some(self.expr(e)?),
                _ => None,
            }),
            "break_statement" => StmtKind::Break,
            "continue_statement" => StmtKind::Continue,
            "throw_statement" => StmtKind::Throw(match self.first_child(node) {
                Some(e) if e.kind() != "comment" => Some(self.expr(e)?),
                _ => None,
            }),
            "try_statement" => self.try_stmt(node)?,
            "switch_statement" => self.switch_stmt(node)?,
            "local_function_statement" => {
                let mods = self.modifiers(node);
                let decl = self.method_like(node, false, mods.contains(&"static"), Vec::new())?;
                StmtKind::LocalFn(Box::new(decl))
            }
            "checked_statement" => {
                let checked = self.text(node).trim_start().starts_with("checked");
                let block = node
                    .named_children(&mut node.walk())
                    .find(|c| c.kind() == "block")
                    .ok_or_else(|| self.unsupported(node, "an `unchecked` block"))?;
                let stmts = self.block(block)?;
                if checked {
                    StmtKind::Block(self.checked_stmts(node, stmts)?)
                } else {
                    StmtKind::Block(stmts)
                }
            }
            "goto_statement" => {
                let text = self.text(node);
                let label = text
                    .trim_start_matches("goto")
                    .trim()
                    .trim_end_matches(';')
                    .trim();
                if label.starts_with("case")
                    || label.starts_with("default")
                    || !label.chars().all(|c| c.is_alphanumeric() || c == '_')
                {
                    return Err(self.unsupported(node, "`goto case`"));
                }
                StmtKind::Goto(label.to_string())
            }
            "labeled_statement" => {
                let parts = self.children(node)?;
                let label = parts
                    .iter()
                    .find(|c| c.kind() == "identifier")
                    .ok_or_else(|| self.unsupported(node, "a label"))?;
                let inner = parts
                    .iter()
                    .find(|c| c.kind() != "identifier" && c.kind() != "comment");
                let inner = match inner {
                    Some(s) => self.stmt(*s)?,
                    None => Stmt {
                        kind: StmtKind::Empty,
                        span: Span::of(node),
                    },
                };
                StmtKind::Labeled(self.ident(*label), Box::new(inner))
            }
            "preproc_if" => {
                let mut nodes = Vec::new();
                self.flatten_preproc(node, &mut nodes)?;
                StmtKind::Block(
                    nodes
                        .into_iter()
                        .map(|n| self.stmt(n))
                        .collect::<R<Vec<Stmt>>>()?,
                )
            }
            "yield_statement" => return Err(self.unsupported(node, "an iterator (`yield`)")),
            "using_statement" => return Err(self.unsupported(node, "a `using` statement")),
            "lock_statement" => return Err(self.unsupported(node, "`lock`")),
            "unsafe_statement" | "fixed_statement" => {
                return Err(self.unsupported(node, "unsafe code"));
            }
            other => return Err(self.unsupported(node, &format!("the statement `{other}`"))),
        };
        Ok(self.stmt_at(node, kind))
    }

    fn local_decl(&self, node: Node<'a>) -> R<StmtKind> {
        let is_const = self.modifiers(node).contains(&"const");
        let decl = self
            .children(node)?
            .into_iter()
            .find(|c| c.kind() == "variable_declaration")
            .ok_or_else(|| self.unsupported(node, "a declaration"))?;
        // `var (a, b) = e;`
        let declarators: Vec<Node> = self
            .children(decl)?
            .into_iter()
            .filter(|c| c.kind() == "variable_declarator")
            .collect();
        if let [one] = declarators.as_slice()
            && let Some(pattern) = self
                .children(*one)?
                .into_iter()
                .find(|c| c.kind() == "tuple_pattern")
        {
            let value = self
                .children(*one)?
                .into_iter()
                .find(|c| c.id() != pattern.id() && c.kind() != "comment")
                .ok_or_else(|| self.unsupported(node, "a deconstruction without a value"))?;
            let names = self
                .tuple_pattern_names(pattern)?
                .into_iter()
                .map(|n| (n, TypeRef::Var))
                .collect();
            return Ok(StmtKind::Deconstruct {
                names,
                value: self.expr(value)?,
            });
        }
        let (ty, vars) = self.variable_declaration(decl)?;
        if let Some(f) = super::delegates::local_as_fn(&ty, &vars, is_const, self.src) {
            return Ok(StmtKind::LocalFn(Box::new(f)));
        }
        Ok(StmtKind::Local { ty, vars, is_const })
    }

    /// The names of `(a, b, _)`.
    pub(super) fn tuple_pattern_names(&self, node: Node<'a>) -> R<Vec<Option<String>>> {
        let mut names = Vec::new();
        for c in self.children(node)? {
            match c.kind() {
                "identifier" => names.push(Some(self.ident(c))),
                "discard" => names.push(None),
                "comment" => {}
                _ => return Err(self.unsupported(c, "a nested deconstruction")),
            }
        }
        Ok(names)
    }

    fn for_stmt(&self, node: Node<'a>) -> R<StmtKind> {
        let mut init = Vec::new();
        let mut update = Vec::new();
        let mut cursor = node.walk();
        for (i, child) in node.children(&mut cursor).enumerate() {
            match node.field_name_for_child(i as u32) {
                Some("initializer") if child.is_named() => {
                    if child.kind() == "variable_declaration" {
                        let (ty, vars) = self.variable_declaration(child)?;
                        init.push(self.stmt_at(
                            child,
                            StmtKind::Local {
                                ty,
                                vars,
                                is_const: false,
                            },
                        ));
                    } else {
                        init.push(self.stmt_at(child, StmtKind::Expr(self.expr(child)?)));
                    }
                }
                Some("update") if child.is_named() => update.push(self.expr(child)?),
                _ => {}
            }
        }
        let cond = match node.child_by_field_name("condition") {
            Some(c) => Some(self.expr(c)?),
            None => None,
        };
        let body = Box::new(self.stmt(self.field_node(node, "body")?)?);
        Ok(StmtKind::For {
            init,
            cond,
            update,
            body,
        })
    }

    fn foreach(&self, node: Node<'a>) -> R<StmtKind> {
        let left = self.field_node(node, "left")?;
        let ty = match node.child_by_field_name("type") {
            Some(t) => self.ty(t)?,
            None => TypeRef::Var,
        };
        let mut ty = ty;
        let names = match left.kind() {
            "identifier" => vec![self.ident(left)],
            // `foreach ((PieceType t, int v) in pairs)`: each element's declared type.
            "tuple_expression" => {
                let ExprKind::Tuple(items, _) = self.expr(left)?.kind else {
                    return Err(self.unsupported(left, "this `foreach` variable"));
                };
                let mut names = Vec::new();
                let mut types = Vec::new();
                for item in items {
                    let ExprKind::DeclVar(t, name) = item.kind else {
                        return Err(self.unsupported(left, "this `foreach` variable"));
                    };
                    names.push(name);
                    types.push((t, None));
                }
                ty = TypeRef::Tuple(types);
                names
            }
            "tuple_pattern" => self
                .tuple_pattern_names(left)?
                .into_iter()
                .map(|n| n.unwrap_or_else(|| "_".into()))
                .collect(),
            _ => return Err(self.unsupported(left, "this `foreach` variable")),
        };
        Ok(StmtKind::Foreach {
            ty,
            names,
            iter: self.expr(self.field_node(node, "right")?)?,
            body: Box::new(self.stmt(self.field_node(node, "body")?)?),
        })
    }

    fn try_stmt(&self, node: Node<'a>) -> R<StmtKind> {
        let body = self.block(self.field_node(node, "body")?)?;
        let mut catches = Vec::new();
        let mut finally = None;
        for child in self.children(node)? {
            match child.kind() {
                "catch_clause" => {
                    let mut catch = Catch {
                        ty: None,
                        name: None,
                        body: self.block(self.field_node(child, "body")?)?,
                        filtered: false,
                    };
                    for part in self.children(child)? {
                        match part.kind() {
                            "catch_declaration" => {
                                if let Some(t) = part.child_by_field_name("type") {
                                    catch.ty = Some(self.ty(t)?);
                                }
                                catch.name =
                                    part.child_by_field_name("name").map(|n| self.ident(n));
                            }
                            "catch_filter_clause" => catch.filtered = true,
                            _ => {}
                        }
                    }
                    catches.push(catch);
                }
                "finally_clause" => {
                    let block = self
                        .children(child)?
                        .into_iter()
                        .find(|c| c.kind() == "block")
                        .ok_or_else(|| self.unsupported(child, "`finally`"))?;
                    finally = Some(self.block(block)?);
                }
                _ => {}
            }
        }
        Ok(StmtKind::Try {
            body,
            catches,
            finally,
        })
    }

    fn switch_stmt(&self, node: Node<'a>) -> R<StmtKind> {
        let value = self.expr(self.field_node(node, "value")?)?;
        let body = self.field_node(node, "body")?;
        let mut sections: Vec<SwitchSection> = Vec::new();
        let mut pending_labels = Vec::new();
        for section in self.children(body)? {
            if section.kind() != "switch_section" {
                continue;
            }
            let mut labels = std::mem::take(&mut pending_labels);
            let mut stmts = Vec::new();
            let mut cursor = section.walk();
            let mut guard_for_last: Option<Expr> = None;
            let children: Vec<Node> = section.children(&mut cursor).collect();
            for child in children {
                match child.kind() {
                    "default" => labels.push(None),
                    "when_clause" => {
                        let e = self
                            .first_child(child)
                            .ok_or_else(|| self.unsupported(child, "`when`"))?;
                        guard_for_last = Some(self.expr(e)?);
                    }
                    k if k.ends_with("pattern") || k == "discard" => {
                        labels.push(Some((self.pattern(child)?, None)))
                    }
                    _ if child.is_named() => stmts.push(self.stmt(child)?),
                    _ => {}
                }
                if let Some(g) = guard_for_last.take()
                    && let Some(Some((_, guard))) = labels.last_mut()
                {
                    *guard = Some(g);
                }
            }
            if stmts.iter().all(|s| matches!(s.kind, StmtKind::Comment(_))) {
                pending_labels = labels;
                continue;
            }
            sections.push(SwitchSection {
                labels,
                body: stmts,
            });
        }
        if !pending_labels.is_empty() {
            sections.push(SwitchSection {
                labels: pending_labels,
                body: Vec::new(),
            });
        }
        Ok(StmtKind::Switch(value, sections))
    }
}

impl Lower<'_> {
    /// A `checked` block's statements, each expression marked `checked` (the emitter
    /// writes overflow checks in them). Other statements stay refused: their nested
    /// statements would need the mark too.
    fn checked_stmts(&self, node: Node, stmts: Vec<Stmt>) -> R<Vec<Stmt>> {
        stmts
            .into_iter()
            .map(|s| match s.kind {
                StmtKind::Expr(x) => {
                    let (span, range) = (x.span, x.range);
                    let checked = ExprKind::Checked(true, Box::new(x));
                    Ok(Stmt {
                        kind: StmtKind::Expr(Expr::new(checked, span, range)),
                        span: s.span,
                    })
                }
                StmtKind::Comment(_) | StmtKind::Empty => Ok(s),
                _ => Err(self.unsupported(
                    node,
                    "a `checked` block of statements other than expressions",
                )),
            })
            .collect()
    }
}

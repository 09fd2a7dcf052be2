//! `a && c?.Key == k`: tree-sitter's C# grammar reads `?.` as binding looser than the
//! binary operators before it (`(a && c)?.Key == k`), where C# reads `c?.Key` as a
//! primary expression (ECMA-334 12.8.8). Such a chain is taken apart into its operands
//! and operators in source order, the `?.` put back on the operand before it, and the
//! chain built again by C#'s operator precedence.
//!
//! `(x) + 1` and `(a[i, 0]) - b`: the grammar reads a cast of `+1`, where C# reads a
//! parenthesized expression, since `x` is an expression and `+`/`-` follows
//! (ECMA-334 12.9.7); such a "cast" is taken apart the same way.

use tree_sitter::Node;

use super::Lower;
use crate::ast::{BinOp, Expr, ExprKind};
use crate::error::Span;

impl<'a> Lower<'a> {
    /// Whether `node`'s binary chain holds a `?.` whose target the grammar read as a
    /// binary expression, or a binary operator it read as a cast (`misread_cast`).
    pub(super) fn misread_chain(&self, node: Node<'a>) -> bool {
        let field = |f: &str| node.child_by_field_name(f);
        match node.kind() {
            "binary_expression" => [field("left"), field("right")]
                .into_iter()
                .flatten()
                .any(|c| self.misread_chain(c)),
            "conditional_access_expression" => field("condition")
                .is_some_and(|c| c.kind() == "binary_expression" || self.misread_chain(c)),
            "cast_expression" => self.misread_cast(node),
            _ => false,
        }
    }

    /// `(x) * y`, `(a.b) & !c`, `(x) - y`: tree-sitter reads a cast of a prefix `*`, `&`,
    /// `-` or `+`, where C# (ECMA-334 12.9.7, the cast's grammar ambiguity) reads a
    /// binary operator: a parenthesised name is also an expression, and none of those
    /// tokens may follow a cast to such a name (`(int)-y` stays a cast).
    pub(super) fn misread_cast(&self, node: Node<'a>) -> bool {
        self.lent_operator(node).is_some()
    }

    /// A misread cast's prefix operator: the value itself (`(x) - y`) or the leftmost
    /// operand of its postfix chain, where the grammar binds `*` and `&` looser than
    /// `[]`, `.` and `()` (`(a) * v[1]` read `(a)((*v)[1])`).
    fn lent_operator(&self, node: Node<'a>) -> Option<Node<'a>> {
        let ty = node.child_by_field_name("type")?;
        let mut value = node.child_by_field_name("value")?;
        if node.kind() != "cast_expression" || !self.expression_like(ty) {
            return None;
        }
        loop {
            value = match value.kind() {
                "prefix_unary_expression" => {
                    let op = self.operator_token(value);
                    return matches!(op, "*" | "&" | "-" | "+").then_some(value);
                }
                "element_access_expression" | "member_access_expression" => {
                    value.child_by_field_name("expression")?
                }
                "invocation_expression" => value.child_by_field_name("function")?,
                _ => return None,
            };
        }
    }

    /// Whether a misread cast is a whole expression (its parent binds looser than any
    /// binary operator), so reading it again alone keeps C#'s meaning. Under a unary
    /// operator or a cast (`-(x) - y`) the grammar has also misplaced that operator.
    pub(super) fn misread_cast_alone(&self, node: Node<'a>) -> bool {
        node.parent().is_some_and(|p| {
            matches!(
                p.kind(),
                "argument"
                    | "equals_value_clause"
                    | "variable_declarator"
                    | "parenthesized_expression"
                    | "return_statement"
                    | "expression_statement"
                    | "assignment_expression"
                    | "conditional_expression"
                    | "arrow_expression_clause"
                    | "lambda_expression"
                    | "initializer_expression"
                    | "interpolation"
                    | "if_statement"
                    | "while_statement"
                    | "do_statement"
                    | "for_statement"
                    | "switch_expression_arm"
            )
        })
    }

    /// Whether a type node is also an expression: a name, or `a[i, 0]`, an array type
    /// with sizes, which no cast can name.
    fn expression_like(&self, ty: Node<'a>) -> bool {
        match ty.kind() {
            "identifier" | "qualified_name" => true,
            "array_type" => {
                ty.child_by_field_name("type")
                    .is_some_and(|t| self.expression_like(t))
                    && ty
                        .child_by_field_name("rank")
                        .is_some_and(|r| r.named_child_count() > 0)
            }
            _ => false,
        }
    }

    /// A type node `expression_like` as the expression it is.
    fn type_as_expr(&self, ty: Node<'a>) -> super::R<Expr> {
        if ty.kind() != "array_type" {
            return self.expr(ty);
        }
        let part = |f: &str| {
            ty.child_by_field_name(f)
                .ok_or_else(|| self.unsupported(ty, "an element access"))
        };
        let target = self.type_as_expr(part("type")?)?;
        let idx = self
            .children(part("rank")?)?
            .into_iter()
            .filter(|c| c.kind() != "comment")
            .map(|c| self.expr(c))
            .collect::<super::R<Vec<_>>>()?;
        Ok(Expr::new(
            ExprKind::Index(Box::new(target), idx),
            Span::of(ty),
            (ty.start_byte(), ty.end_byte()),
        ))
    }

    /// The chain at `node` read again by C#'s precedence.
    pub(super) fn reread_binary_chain(&self, node: Node<'a>) -> super::R<Expr> {
        let (mut operands, mut ops) = (Vec::new(), Vec::new());
        self.flatten_chain(node, &mut operands, &mut ops)?;
        let mut out: Vec<Expr> = Vec::new();
        let mut pending: Vec<BinOp> = Vec::new();
        let mut operands = operands.into_iter();
        out.extend(operands.next());
        for (op, operand) in ops.into_iter().zip(operands) {
            while let Some(&top) = pending.last()
                && (level(top) > level(op) || level(top) == level(op) && op != BinOp::Coalesce)
            {
                pending.pop();
                reduce(&mut out, top);
            }
            pending.push(op);
            out.push(operand);
        }
        while let Some(top) = pending.pop() {
            reduce(&mut out, top);
        }
        out.pop()
            .ok_or_else(|| self.unsupported(node, "an empty binary expression"))
    }

    fn flatten_chain(
        &self,
        node: Node<'a>,
        operands: &mut Vec<Expr>,
        ops: &mut Vec<BinOp>,
    ) -> super::R<()> {
        match node.kind() {
            "binary_expression" => {
                let part = |f: &str| {
                    node.child_by_field_name(f)
                        .ok_or_else(|| self.unsupported(node, "a binary expression"))
                };
                let op_node = part("operator")?;
                let op = BinOp::from_token(self.text(op_node)).ok_or_else(|| {
                    self.unsupported(node, &format!("the operator `{}`", self.text(op_node)))
                })?;
                self.flatten_chain(part("left")?, operands, ops)?;
                ops.push(op);
                self.flatten_chain(part("right")?, operands, ops)
            }
            "conditional_access_expression" if self.misread_chain(node) => {
                let condition = node
                    .child_by_field_name("condition")
                    .ok_or_else(|| self.unsupported(node, "`?.`"))?;
                self.flatten_chain(condition, operands, ops)?;
                let name = self
                    .children(node)?
                    .into_iter()
                    .find(|c| c.kind() == "member_binding_expression")
                    .and_then(|b| b.child_by_field_name("name"))
                    .ok_or_else(|| {
                        self.unsupported(node, "a null-conditional element access (`?[`)")
                    })?;
                let target = operands
                    .pop()
                    .ok_or_else(|| self.unsupported(node, "`?.`"))?;
                let range = (target.range.0, node.end_byte());
                let span = target.span;
                operands.push(Expr::new(
                    ExprKind::NullMember(Box::new(target), self.ident(name)),
                    span,
                    range,
                ));
                Ok(())
            }
            "cast_expression" if self.misread_cast(node) => {
                let part = |f: &str| {
                    node.child_by_field_name(f)
                        .ok_or_else(|| self.unsupported(node, "a cast"))
                };
                let value = part("value")?;
                let lent = self
                    .lent_operator(node)
                    .ok_or_else(|| self.unsupported(node, "a cast"))?;
                operands.push(self.type_as_expr(part("type")?)?);
                let token = self.operator_token(lent);
                ops.push(
                    BinOp::from_token(token).ok_or_else(|| {
                        self.unsupported(node, &format!("the operator `{token}`"))
                    })?,
                );
                if lent.id() == value.id() {
                    return self.flatten_chain(self.first_named(value)?, operands, ops);
                }
                self.lent_prefix.set(Some(lent.id()));
                let operand = self.expr(value);
                self.lent_prefix.set(None);
                operands.push(operand?);
                Ok(())
            }
            _ => {
                operands.push(self.expr(node)?);
                Ok(())
            }
        }
    }
}

/// C#'s precedence of a binary operator (ECMA-334 12.4.2), higher binding tighter.
fn level(op: BinOp) -> u8 {
    use BinOp::*;
    match op {
        Mul | Div | Rem => 13,
        Add | Sub => 12,
        Shl | Shr | UShr => 11,
        Lt | Le | Gt | Ge => 10,
        Eq | Ne => 9,
        And => 8,
        Xor => 7,
        Or => 6,
        AndAlso => 5,
        OrElse => 4,
        Coalesce => 3,
    }
}

fn reduce(out: &mut Vec<Expr>, op: BinOp) {
    let (Some(r), Some(l)) = (out.pop(), out.pop()) else {
        return;
    };
    let (span, range): (Span, _) = (l.span, (l.range.0, r.range.1));
    out.push(Expr::new(
        ExprKind::Binary(op, Box::new(l), Box::new(r)),
        span,
        range,
    ));
}

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
    /// binary expression.
    pub(super) fn misread_null_member(&self, node: Node<'a>) -> bool {
        let field = |f: &str| node.child_by_field_name(f);
        match node.kind() {
            "binary_expression" => [field("left"), field("right")]
                .into_iter()
                .flatten()
                .any(|c| self.misread_null_member(c)),
            "conditional_access_expression" => field("condition")
                .is_some_and(|c| c.kind() == "binary_expression" || self.misread_null_member(c)),
            "cast_expression" => self.misread_cast(node).is_some(),
            _ => false,
        }
    }

    /// For a "cast" C# reads as `(expr) + operand` or `(expr) - operand`: the operator
    /// and the prefix expression's operand.
    fn misread_cast(&self, node: Node<'a>) -> Option<(BinOp, Node<'a>)> {
        let (ty, value) = (
            node.child_by_field_name("type")?,
            node.child_by_field_name("value")?,
        );
        if value.kind() != "prefix_unary_expression" || !self.expression_like(ty) {
            return None;
        }
        let op = match self.operator_token(value) {
            "+" => BinOp::Add,
            "-" => BinOp::Sub,
            _ => return None,
        };
        let operand = self
            .children(value)
            .ok()?
            .into_iter()
            .find(|c| c.kind() != "comment")?;
        Some((op, operand))
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
            "cast_expression" if self.misread_cast(node).is_some() => {
                let Some((op, operand)) = self.misread_cast(node) else {
                    unreachable!("checked by the guard")
                };
                let ty = node
                    .child_by_field_name("type")
                    .ok_or_else(|| self.unsupported(node, "a cast"))?;
                operands.push(self.type_as_expr(ty)?);
                ops.push(op);
                self.flatten_chain(operand, operands, ops)
            }
            "conditional_access_expression" if self.misread_null_member(node) => {
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

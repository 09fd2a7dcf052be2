//! A second board: `Board.CreateBoardFromFEN(fen)`, a board the bot owns beside the one
//! `Think` was handed.
//!
//! Every other `Board` of a port is the handed one (`self.board`), so the port keeps an
//! owned board apart by type: its C# type is `Board`, the port's is `OwnedBoard`, a Rust
//! `Board` local. The API's members work on it as on the handed board; any other use
//! (another name for it, a field, a collection, a return) fails the type check, since
//! copying a Rust `Board` would break C#'s sharing of the one object.
//!
//! Passed to a method of the file's own, whose `Board` parameter is the handed board,
//! the owned board is swapped into `self.board` for the call and back after it: the
//! callee's moves land on the owned board, as C#'s reference makes them. That is C#'s
//! meaning only when the callee can reach no other board (the file keeps no board in a
//! field or collection, and the callee takes one board) and the swap back always runs
//! (the file catches no exception, so none unwinds past it into code that goes on).

use super::decls::FileEmitter;
use super::program::MethodInfo;
use super::{Prec, R, Val, snippet, unsupported};
use crate::ast::{Expr, ExprKind, Stmt, StmtKind};
use crate::error::Span;
use crate::types::Ty;

/// An owned board passed to a method, and the statements binding the call's other
/// arguments (see `board_swap_args`).
pub(crate) type BoardSwap = Option<(Val, String)>;

/// The port's type of a board made by `Board.CreateBoardFromFEN`.
pub(crate) const OWNED: Ty = Ty::Api("OwnedBoard");

impl FileEmitter<'_, '_> {
    /// `Board.CreateBoardFromFEN(fen)`.
    pub(crate) fn create_board_from_fen(&mut self, fen: &Expr, e: &Expr) -> R<Val> {
        let v = self.expr(fen, Some(&Ty::Str))?;
        let v = self.coerce(v, &Ty::Str, fen)?;
        let code = format!("cs::board_from_fen(&{})", v.at(Prec::Unary));
        let _ = e;
        Ok(Val::new(code, OWNED, Prec::Primary).absorb(&v))
    }

    /// `Board name = value;` where `value` is a new owned board: a `let mut` local.
    pub(crate) fn owned_board_local(&mut self, name: &str, v: Val, span: Span) -> R<String> {
        if v.place {
            return Err(unsupported(
                span,
                "a second name for a board made by `Board.CreateBoardFromFEN`",
                name,
            ));
        }
        let l = self.declare(name, OWNED, super::decls::LocalKind::Value);
        Ok(format!("let mut {}: Board = {};\n", l.rust, v.code))
    }

    /// `Board name = init;` or `Timer name = init;`: the statement it takes, and whether
    /// `init` made an owned board (declared here) rather than naming the handed one.
    pub(crate) fn board_local_init(
        &mut self,
        name: &str,
        init: &Expr,
        t: &Ty,
        span: Span,
    ) -> R<(String, bool)> {
        let v = self.expr(init, Some(t))?;
        if v.ty == OWNED {
            return Ok((self.owned_board_local(name, v, span)?, true));
        }
        // Another name for the handed board: only the value's effects remain.
        let code = if v.effects {
            format!("{};\n", v.code)
        } else {
            String::new()
        };
        Ok((code, false))
    }

    /// Refuses an assignment of an owned board that is not a new one (`a = b;` would
    /// copy the board where C# shares it).
    pub(crate) fn check_owned_board_assign(&self, value: &Val, e: &Expr) -> R<()> {
        if value.ty == OWNED && value.place {
            return Err(unsupported(
                e.span,
                "a second name for a board made by `Board.CreateBoardFromFEN`",
                snippet(self.src, e),
            ));
        }
        Ok(())
    }

    /// `call`, a call of the file's own method that passes the owned board `board` to
    /// its `Board` parameter, with the board swapped in for it. `setup` binds the other
    /// arguments to the temporaries the call names (evaluated before the swap, as C#
    /// evaluates them before the call).
    pub(crate) fn swap_board_into_call(
        &mut self,
        board: &Val,
        setup: &str,
        mut call: Val,
        e: &Expr,
    ) -> R<Val> {
        self.check_board_swap(e)?;
        let mut pre = setup.to_string();
        let target = if board.place {
            format!("&mut {}", board.code)
        } else {
            let t = self.temp("board");
            pre.push_str(&format!("let mut {t}: Board = {}; ", board.code));
            format!("&mut {t}")
        };
        let r = self.temp("result");
        let swap = format!("std::mem::swap(&mut self.{}, {target});", self.board);
        call.code = format!("{{ {pre}{swap} let {r} = {}; {swap} {r} }}", call.code);
        call.prec = Prec::Primary;
        call.effects = true;
        call.reads_self = true;
        call.mut_self = true;
        self.note_mutation();
        Ok(call)
    }

    /// The conditions under which swapping an owned board in keeps C#'s meaning.
    fn check_board_swap(&self, e: &Expr) -> R<()> {
        let refuse = |why: &str| {
            Err(unsupported(
                e.span,
                format!("a board made by `Board.CreateBoardFromFEN` passed to a method {why}"),
                snippet(self.src, e),
            ))
        };
        if !self.fr().bot_level {
            return refuse("from a method of a type other than the bot");
        }
        let kept = self
            .p
            .types
            .iter()
            .flat_map(|t| &t.fields)
            .any(|f| board_ty(&f.ty));
        if kept {
            return refuse("where the file keeps a board in a field");
        }
        if self
            .src
            .split(|c: char| !c.is_alphanumeric() && c != '_')
            .any(|w| w == "catch")
        {
            return refuse("where the file catches exceptions");
        }
        Ok(())
    }
}

impl FileEmitter<'_, '_> {
    /// `b.UndoSkipTurn();` on an owned board `b` declared in this block, which none of the
    /// block's later statements names: `cs::undo_skip_turn_dropped`. C#'s unmakes the last
    /// game state whatever made it (so `UndoMove` before `UndoSkipTurn` throws nothing,
    /// and leaves a board no position is); with no read after, not throwing is all that
    /// shows. `rest` is the block's statements after `s`.
    pub(crate) fn dropped_board_undo(&self, s: &Stmt, rest: &[Stmt]) -> Option<String> {
        let StmtKind::Expr(e) = &s.kind else {
            return None;
        };
        let ExprKind::Call(callee, args) = &e.kind else {
            return None;
        };
        let ExprKind::Member(target, member, _) = &callee.kind else {
            return None;
        };
        let ExprKind::Name(name, targs) = &target.kind else {
            return None;
        };
        if member != "UndoSkipTurn" || !args.is_empty() || !targs.is_empty() {
            return None;
        }
        let local = self.scopes.last()?.locals.iter().find(|l| &l.cs == name)?;
        // Any later mention (the AST's text quotes every name) keeps the checked undo.
        if local.ty != OWNED || format!("{rest:?}").contains(&format!("{name:?}")) {
            return None;
        }
        Some(format!(
            "cs::undo_skip_turn_dropped(&mut {});\n",
            self.local_name(local)
        ))
    }
}

/// Whether a field of type `t` holds a board, directly or in a collection, tuple or
/// array.
fn board_ty(t: &Ty) -> bool {
    format!("{t:?}").contains("\"Board\"")
}

impl FileEmitter<'_, '_> {
    /// The arguments `vals` of a call of `m`, and, if one passes an owned board to a
    /// `Board` parameter, that board and the statements binding the other arguments to
    /// the temporaries that now stand in `vals` (for `swap_board_into_call`).
    pub(crate) fn board_swap_args(
        &mut self,
        m: &MethodInfo,
        vals: Vec<Val>,
        e: &Expr,
    ) -> R<(Vec<Val>, BoardSwap)> {
        let owned = vals.iter().filter(|v| v.ty == OWNED).count();
        if owned == 0 {
            return Ok((vals, None));
        }
        let refuse = |why: &str| {
            Err(unsupported(
                e.span,
                format!("a board made by `Board.CreateBoardFromFEN` passed to {why}"),
                snippet(self.src, e),
            ))
        };
        let boards = m.params.iter().filter(|p| p.0 == Ty::Api("Board")).count();
        if owned > 1 || boards > 1 {
            return refuse("a method that takes several boards");
        }
        if m.owner != self.p.bot && !m.is_static {
            return refuse("a method of a type other than the bot");
        }
        let mut setup = String::new();
        let mut board = None;
        let mut out = Vec::new();
        for mut v in vals {
            if v.ty == OWNED {
                board = Some(v.clone());
            } else {
                if v.code.starts_with("&mut self") {
                    return refuse("a method with a field passed by `ref`");
                }
                let t = self.temp("arg");
                setup.push_str(&format!("let {t} = {}; ", v.code));
                v.code = t;
                v.prec = Prec::Primary;
            }
            out.push(v);
        }
        Ok((out, board.map(|b| (b, setup))))
    }
}

//! Skipping a turn in check, as C#'s `ForceSkipTurn` does: the side that passed stays in
//! check, a position no game reaches and cozy-chess refuses to hold.
//!
//! The board still keeps it as a cozy position, built by playing a move whose result is it
//! (one of the passing side's pieces "arrives" on its own square from an empty one), so
//! every query reads it as it reads any position: side to move, bitboards, attacks, key,
//! FEN. What cozy would get wrong from there is routed here by `push_limit == 0`: the
//! moves (the king may not be taken) and what follows a move (cozy only looks for checks
//! by the piece that moved, while the passing side may still be in check from a knight or
//! pawn that did not), which is rebuilt from scratch.

use cozy_chess as cz;

use super::{Board, Move, MoveList, movegen};

impl Board {
    /// Passes the turn whether or not the side to move is in check: C#'s `ForceSkipTurn`.
    /// Out of check it is [`skip_turn`](Self::skip_turn). In check the opponent gets the
    /// move with the king still attacked; then:
    ///
    /// - [`is_in_check`](Self::is_in_check) is `false` (the side to move is not the one
    ///   in check), as in C#;
    /// - the opponent's moves are its legal moves, **without** taking the king, which C#
    ///   offers: the kit never takes a king. Playing one of them gives a real position,
    ///   in which the side that passed may still be in check;
    /// - bitboards, attacks ([`is_square_attacked`](Self::is_square_attacked)), the key
    ///   and the clocks are those of the position after a null move (except when the side
    ///   that passed has nothing but its king and the rooks it may castle with: then this
    ///   one position shows it without castling rights; the next has them again);
    /// - [`undo_skip_turn`](Self::undo_skip_turn) (or [`undo_move`](Self::undo_move))
    ///   restores the position exactly: the side to move is in check again, where C#'s
    ///   board would wrongly say it is not.
    ///
    /// A null-move search normally skips only out of check ([`skip_turn`](Self::skip_turn)
    /// refuses in check); this is for bots written the C# way, and for evaluations that
    /// look at the opponent's moves or attacks in any position.
    ///
    /// ```
    /// use framework::prelude::*;
    /// // White is in check from the bishop on b4.
    /// let mut b = Board::from_fen("4k3/8/8/8/1b6/8/8/4K2R w K - 0 1").unwrap();
    /// let before = b.clone();
    /// assert!(!b.skip_turn());
    /// b.force_skip_turn();
    /// assert!(!b.is_white_to_move() && !b.is_in_check());
    /// assert!(b.legal_moves().iter().all(|m| m.to() != Square::E1)); // the king is not taken
    /// b.undo_skip_turn();
    /// assert_eq!(b, before);
    /// assert!(b.is_in_check());
    /// ```
    #[doc(alias = "ForceSkipTurn")]
    pub fn force_skip_turn(&mut self) {
        if self.skip_turn() {
            return;
        }
        let passed = pass_in_check(self.inner());
        let index = self.states.len();
        self.push_position(Move::NULL, |top| *top = passed);
        self.forced.push(index);
        self.push_limit = 0;
    }

    /// The entries of `forced` still on the stack.
    pub(super) fn live_forced(&self) -> &[usize] {
        let len = self.states.len();
        &self.forced[..self.forced.partition_point(|&i| i < len)]
    }

    /// `true` if the current position is a turn skipped in check.
    pub(super) fn is_forced_position(&self) -> bool {
        self.live_forced().last() == Some(&(self.states.len() - 1))
    }

    /// `true` if `mv` would take the opponent's king: possible only after a turn skipped
    /// in check, and never legal.
    pub(super) fn takes_the_king(&self, mv: Move) -> bool {
        self.is_forced_position() && mv.to() == self.king_square(!self.side_to_move())
    }

    /// `legal_moves_into` while a turn skipped in check is on the stack.
    #[cold]
    #[inline(never)]
    pub(super) fn legal_moves_near_forced(&self, list: &mut MoveList, captures_only: bool) {
        movegen::legal_moves_into(self.inner(), list, captures_only);
        if self.is_forced_position() {
            let king = self.king_square(!self.side_to_move());
            *list = list.iter().copied().filter(|m| m.to() != king).collect();
        }
    }

    /// Pushes what `play` makes of the current position, a turn skipped in check, rebuilt
    /// so that its checks are all found.
    ///
    /// # Panics
    /// If `play` takes the king (only an illegal move does).
    #[cold]
    #[inline(never)]
    pub(super) fn push_after_forced(&mut self, mv: Move, play: impl FnOnce(&mut cz::Board)) {
        let passed = self.inner();
        let before = &self.states[self.states.len() - 2];
        let mut next = passed.clone();
        play(&mut next);
        let Some(next) = rebuild(&next, before) else {
            panic!(
                "make_move: {mv} is not legal after a turn skipped in check ({}): only taking \
                 the king leaves no position",
                self.fen()
            )
        };
        self.write_next(self.states.len(), mv, |top| *top = next);
    }
}

/// The position after the side to move passes while in check: the opponent to move, the
/// same pieces, no en-passant square, the clocks as after any null move. Built by playing,
/// from a position cozy accepts, a move of one of the passer's pieces from an empty square
/// onto its own; the passer's castling rights survive unless only the king can make that
/// move (then `rebuild` takes them from the position before).
pub(super) fn pass_in_check(board: &cz::Board) -> cz::Board {
    let us = board.side_to_move();
    let ours = board.colors(us);
    let king = board.pieces(cz::Piece::King);
    // The king last: its move would cost the castling rights.
    for square in (ours & !king).into_iter().chain(ours & king) {
        let Some(piece) = board.piece_on(square) else {
            continue;
        };
        for from in !board.occupied() {
            if let Some(passed) = arrive(board, piece, from, square) {
                return passed;
            }
        }
    }
    unreachable!("a side in check always has a piece that can arrive from an empty square")
}

/// `board` with `piece` of the side to move played from `from` (empty) onto its own
/// square `to`, if the position with it on `from` is one cozy accepts and the move plays
/// as a plain move (no double pawn push, no promotion).
fn arrive(
    board: &cz::Board,
    piece: cz::Piece,
    from: cz::Square,
    to: cz::Square,
) -> Option<cz::Board> {
    let us = board.side_to_move();
    if piece == cz::Piece::Pawn {
        let double_push = matches!(from.rank(), cz::Rank::Second | cz::Rank::Seventh)
            && matches!(to.rank(), cz::Rank::Fourth | cz::Rank::Fifth);
        if double_push || matches!(from.rank(), cz::Rank::First | cz::Rank::Eighth) {
            return None;
        }
    }
    let mut builder = cz::BoardBuilder::from_board(board);
    *builder.square_mut(to) = None;
    *builder.square_mut(from) = Some((piece, us));
    builder.en_passant = None;
    if piece == cz::Piece::King {
        builder.castle_rights[us as usize] = cz::CastleRights::EMPTY;
    }
    let mut passed = builder.build().ok()?;
    passed.play_unchecked(cz::Move {
        from,
        to,
        promotion: None,
    });
    passed.set_halfmove_clock(board.halfmove_clock().saturating_add(1).min(100));
    passed.set_fullmove_number(board.fullmove_number());
    if us == cz::Color::Black {
        passed.set_fullmove_number(board.fullmove_number().saturating_add(1));
    }
    Some(passed)
}

/// `next` built again from its pieces, so its checks and pins are computed from scratch,
/// with the castling rights the side that passed had `before` it passed (those its rook
/// or king still allow). `None` if `next` has lost a king.
///
/// After a double pawn push, cozy accepts an en-passant square only with the checks a
/// double push can give (by the pawn, or discovered through its origin), while here the
/// side that passed may still be in check from before. Such a square is dropped: taking
/// en passant could then only be legal by blocking a check on that very square.
fn rebuild(next: &cz::Board, before: &cz::Board) -> Option<cz::Board> {
    let passer = before.side_to_move();
    let mut builder = cz::BoardBuilder::from_board(next);
    let had = *before.castle_rights(passer);
    let mut tries = [had, had, had, *next.castle_rights(passer)];
    tries[1].long = None;
    tries[2].short = None;
    let en_passant = [builder.en_passant, None];
    en_passant.into_iter().find_map(|square| {
        builder.en_passant = square;
        tries.into_iter().find_map(|rights| {
            builder.castle_rights[passer as usize] = rights;
            builder.build().ok()
        })
    })
}

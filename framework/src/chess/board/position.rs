//! [`Position`]: one position, played on in place, for reading games in bulk.

use std::sync::LazyLock;

use cozy_chess as cz;

use super::{Board, by_destination, from_cz_color, from_cz_sq};
use crate::chess::attacks::to_cz_color;
use crate::chess::fen::{self, FenError};
use crate::chess::{Bitboard, Color, Move, PieceType, Square};

/// A position without a history, played on in place: what replaying a game's moves to
/// check them needs, and no more. A [`Board`] keeps every position of its game, for
/// repetitions and undo, so each of its moves copies one; a `Position`'s moves do not.
/// What needs a whole board (a message's FEN, weighing an ambiguous move) takes
/// [`to_board`](Self::to_board).
#[derive(Debug, Clone)]
pub(crate) struct Position {
    inner: cz::Board,
    /// Half-moves since the last capture or pawn move, not capped at 100 as cozy's are.
    halfmove: u32,
    /// Plies since the game's start: the starting FEN's, then those played here.
    ply: u32,
}

impl Position {
    /// The standard starting position.
    pub(crate) fn startpos() -> Position {
        // cozy builds its start from scratch, which costs a reader more than a game's
        // first few moves: it is built once.
        static START: LazyLock<cz::Board> = LazyLock::new(cz::Board::startpos);
        Position {
            inner: START.clone(),
            halfmove: 0,
            ply: 0,
        }
    }

    /// The position of a FEN, read as [`Board::from_fen`] reads it.
    pub(crate) fn from_fen(text: &str) -> Result<Position, FenError> {
        let parsed = fen::parse(text)?;
        Ok(Position {
            inner: parsed.inner,
            halfmove: parsed.halfmove,
            ply: parsed.start_ply,
        })
    }

    /// The current position of `board`.
    #[cfg(test)]
    pub(crate) fn of(board: &Board) -> Position {
        Position {
            inner: board.inner().clone(),
            halfmove: board.halfmove(),
            ply: board.ply_count().unsigned_abs(),
        }
    }

    /// A board that starts at this position (with no history before it).
    pub(crate) fn to_board(&self) -> Board {
        Board::from_inner(self.inner.clone(), self.halfmove, self.ply)
    }

    pub(crate) fn side_to_move(&self) -> Color {
        from_cz_color(self.inner.side_to_move())
    }

    /// As [`Board::fullmove_number`].
    pub(crate) fn fullmove_number(&self) -> u32 {
        self.ply / 2 + 1
    }

    pub(crate) fn king_square(&self, color: Color) -> Square {
        from_cz_sq(self.inner.king(to_cz_color(color)))
    }

    /// The one legal move of the side to move's `piece`s to `to`, promoting to
    /// `promotion`, from a square in `hints`; `None` for none or several (see
    /// `by_destination::unique_move_to`).
    pub(crate) fn unique_move_to(
        &self,
        piece: PieceType,
        to: Square,
        promotion: Option<PieceType>,
        hints: Bitboard,
    ) -> Option<Move> {
        by_destination::unique_move_to(&self.inner, piece, to, promotion, hints)
    }

    /// Plays `mv`, which must be legal here (as every move this position reads is).
    pub(crate) fn play(&mut self, mv: Move) {
        debug_assert!(self.to_board().is_legal(mv), "illegal move {mv:?}");
        self.halfmove = if mv.piece() == PieceType::Pawn || mv.is_capture() {
            0
        } else {
            self.halfmove + 1
        };
        self.ply += 1;
        self.inner.play_unchecked(mv.to_cz());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Played in place, a position reads as the board that played the same moves:
    /// the same FEN (the clock past cozy's cap of 100, castling and a reset included), side
    /// and move number.
    #[test]
    fn a_position_follows_the_board_that_plays_the_same_moves() {
        let start = "4k3/8/8/8/8/8/7P/R3K2R w KQ - 97 60";
        let mut board = Board::from_fen(start).unwrap();
        let mut position = Position::from_fen(start).unwrap();
        for uci in ["a1a2", "e8d8", "a2a1", "d8e8", "e1g1", "e8d7", "h2h4"] {
            let mv = board.parse_uci(uci).unwrap();
            board.make_move(mv);
            position.play(mv);
            assert_eq!(position.to_board().fen(), board.fen(), "after {uci}");
            assert_eq!(position.side_to_move(), board.side_to_move());
            assert_eq!(
                position.fullmove_number(),
                board.fullmove_number().unsigned_abs()
            );
            assert_eq!(Position::of(&board).to_board().fen(), board.fen());
        }
        assert_eq!(board.fen(), "8/3k4/8/8/7P/8/8/R4RK1 b - h3 0 63");
    }
}

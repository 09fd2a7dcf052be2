//! The chess core: [`Board`], [`Move`], [`Bitboard`], attack tables, rules and FEN.
//!
//! Positions, playing a move and the attack tables are cozy-chess's; the kit wraps them in
//! its own types (no cozy-chess type appears in this API), generates the legal moves
//! itself, straight into its own moves and in cozy's order, and adds what cozy lacks:
//! undo, game history, repetition, insufficient material, attack queries and standard
//! `e1g1` castling notation.
//!
//! ```
//! use framework::prelude::*;
//! let mut board = Board::startpos();
//! let captures_first = {
//!     let mut moves = board.legal_moves();
//!     moves.sort_by_key(|m| !m.is_capture());
//!     moves
//! };
//! board.make_move(captures_first[0]);
//! assert_eq!(board.ply_count(), 1);
//! board.undo_move();
//! ```

mod attacks;
mod bitboard;
mod board;
mod fen;
mod movegen;
mod moves;
pub mod perft;
mod piece_list;
mod rules;
mod types;

// rustdoc keeps no alias of a function it inlines from a private module, so the C# names
// the attack functions answer to are given on their re-exports.
#[doc(alias = "GetKingAttacks")]
pub use attacks::king_attacks;
#[doc(alias = "GetKnightAttacks")]
pub use attacks::knight_attacks;
#[doc(alias = "GetPawnAttacks")]
pub use attacks::pawn_attacks;
#[doc(alias = "GetPieceAttacks")]
pub use attacks::piece_attacks;
#[doc(alias = "GetSliderAttacks")]
pub use attacks::slider_attacks;
pub use attacks::{bishop_attacks, queen_attacks, rook_attacks};
pub use bitboard::{Bitboard, BitboardIter};
pub use board::Board;
pub(crate) use board::Position;
pub use fen::FenError;
pub use moves::{MAX_MOVES, Move, MoveError, MoveList, MoveListIntoIter};
pub use piece_list::{ListIndex, PieceList};
pub use rules::{DrawReason, Outcome};
pub use types::{Color, Piece, PieceType, Square, SquareParseError};

//! Attack tables, as free functions so bots can call them in few tokens.
//!
//! They delegate to cozy-chess's precomputed tables (magic-free sliding lookups).

use cozy_chess as cz;

use super::{Bitboard, Color, PieceType, Square};

/// The cozy square for ours. `& 63` lets the optimiser drop cozy's range check.
#[inline(always)]
pub(crate) fn to_cz_sq(sq: Square) -> cz::Square {
    match cz::Square::try_index(sq.index() & 63) {
        Some(s) => s,
        None => unreachable!(),
    }
}

#[inline(always)]
pub(crate) fn to_cz_color(c: Color) -> cz::Color {
    match c {
        Color::White => cz::Color::White,
        Color::Black => cz::Color::Black,
    }
}

#[inline(always)]
pub(crate) fn to_cz_bb(bb: Bitboard) -> cz::BitBoard {
    cz::BitBoard(bb.0)
}

/// Squares a knight on `sq` attacks.
///
/// ```
/// use framework::prelude::*;
/// assert_eq!(knight_attacks(Square::A1).count(), 2);
/// ```
#[inline(always)]
pub fn knight_attacks(sq: Square) -> Bitboard {
    Bitboard(cz::get_knight_moves(to_cz_sq(sq)).0)
}

/// Squares a king on `sq` attacks.
///
/// ```
/// use framework::prelude::*;
/// assert_eq!(king_attacks(Square::E4).count(), 8);
/// ```
#[inline(always)]
pub fn king_attacks(sq: Square) -> Bitboard {
    Bitboard(cz::get_king_moves(to_cz_sq(sq)).0)
}

/// Squares a pawn of `color` on `sq` attacks (diagonally forward). `color` may be a `bool`
/// (`true` is White), as C#'s `GetPawnAttacks(square, isWhite)` takes.
///
/// ```
/// use framework::prelude::*;
/// let a = pawn_attacks(Square::E4, Color::White);
/// assert!(a.contains(Square::D5) && a.contains(Square::F5) && a.count() == 2);
/// assert_eq!(pawn_attacks(Square::E4, true), a);
/// ```
#[inline(always)]
pub fn pawn_attacks(sq: Square, color: impl Into<Color>) -> Bitboard {
    Bitboard(cz::get_pawn_attacks(to_cz_sq(sq), to_cz_color(color.into())).0)
}

/// Squares a bishop on `sq` attacks, stopping at (and including) the first piece of
/// `blockers` on each diagonal.
///
/// ```
/// use framework::prelude::*;
/// assert_eq!(bishop_attacks(Square::A1, Bitboard::EMPTY).count(), 7);
/// assert_eq!(bishop_attacks(Square::A1, Square::C3.bitboard()).count(), 2);
/// ```
#[inline(always)]
pub fn bishop_attacks(sq: Square, blockers: Bitboard) -> Bitboard {
    Bitboard(cz::get_bishop_moves(to_cz_sq(sq), to_cz_bb(blockers)).0)
}

/// Squares a rook on `sq` attacks, stopping at (and including) the first blocker on each line.
///
/// ```
/// use framework::prelude::*;
/// assert_eq!(rook_attacks(Square::A1, Bitboard::EMPTY).count(), 14);
/// ```
#[inline(always)]
pub fn rook_attacks(sq: Square, blockers: Bitboard) -> Bitboard {
    Bitboard(cz::get_rook_moves(to_cz_sq(sq), to_cz_bb(blockers)).0)
}

/// Squares a queen on `sq` attacks: rook and bishop attacks combined.
///
/// ```
/// use framework::prelude::*;
/// assert_eq!(queen_attacks(Square::D4, Bitboard::EMPTY).count(), 27);
/// ```
#[inline(always)]
pub fn queen_attacks(sq: Square, blockers: Bitboard) -> Bitboard {
    bishop_attacks(sq, blockers) | rook_attacks(sq, blockers)
}

/// Squares a slider of type `piece_type` on `sq` attacks, stopping at `blockers`: C#'s
/// `GetSliderAttacks`, with its meaning: **the empty set for a pawn, knight or king** (and
/// for no piece, `None`), which are not sliders. [`piece_attacks`] gives every type's
/// attacks.
///
/// `piece_type` is a [`PieceType`] or an `Option<PieceType>` (what
/// [`PieceType::from_number`] gives for C#'s `(PieceType)n`); `blockers` a [`Bitboard`], a
/// `u64` or `&board` (its occupied squares, C#'s overload that takes a `Board`).
///
/// ```
/// use framework::prelude::*;
/// let board = Board::startpos();
/// assert_eq!(slider_attacks(PieceType::Rook, Square::A1, &board).count(), 2);
/// assert_eq!(slider_attacks(PieceType::Queen, Square::D4, Bitboard::EMPTY).count(), 27);
/// assert!(slider_attacks(PieceType::Knight, Square::G1, &board).is_empty());
/// assert!(slider_attacks(PieceType::King, Square::E1, 0).is_empty());
/// // C#'s `(PieceType)Min(5, n)` for n from 0 (no piece) to 6 (the king, read as a queen)
/// let n: i32 = 6;
/// assert_eq!(slider_attacks(PieceType::from_number(n.min(5)), Square::D4, 0).count(), 27);
/// assert!(slider_attacks(PieceType::from_number(0), Square::D4, 0).is_empty());
/// ```
#[inline]
pub fn slider_attacks(
    piece_type: impl Into<Option<PieceType>>,
    sq: Square,
    blockers: impl Into<Bitboard>,
) -> Bitboard {
    match piece_type.into() {
        Some(PieceType::Bishop) => bishop_attacks(sq, blockers.into()),
        Some(PieceType::Rook) => rook_attacks(sq, blockers.into()),
        Some(PieceType::Queen) => queen_attacks(sq, blockers.into()),
        _ => Bitboard::EMPTY,
    }
}

/// Squares a piece of type `piece_type` on `sq` attacks: C#'s `GetPieceAttacks`. `color`
/// only matters for pawns, `blockers` only for sliders. Pawn pushes are not attacks and are
/// not included. `blockers` is a [`Bitboard`], a `u64` or `&board` (its occupied squares,
/// C#'s overload that takes a `Board`); `color` a [`Color`] or a `bool` (`true` is White).
///
/// ```
/// use framework::prelude::*;
/// let b = Board::startpos();
/// let a = piece_attacks(PieceType::Knight, Square::G1, b.occupied(), Color::White);
/// assert!(a.contains(Square::F3));
/// assert_eq!(piece_attacks(PieceType::Knight, Square::G1, &b, true), a);
/// ```
#[inline]
pub fn piece_attacks(
    piece_type: PieceType,
    sq: Square,
    blockers: impl Into<Bitboard>,
    color: impl Into<Color>,
) -> Bitboard {
    match piece_type {
        PieceType::Pawn => pawn_attacks(sq, color),
        PieceType::Knight => knight_attacks(sq),
        PieceType::King => king_attacks(sq),
        slider => slider_attacks(slider, sq, blockers),
    }
}

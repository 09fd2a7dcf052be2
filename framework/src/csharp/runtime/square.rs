//! C#'s `Square` as ports make it: `new Square(index)` and `new Square(file, rank)`
//! check nothing, so a bot may hold a square off the board and read its `File`, `Rank`,
//! `Index` and `Name`; the API members that index an array with it throw.

use crate::chess::Square;

/// `new Square(index)`: any index, as C#'s constructor keeps it. The kit's own
/// [`Square::from_index`] panics off the board instead.
///
/// ```
/// use framework::prelude::*;
/// assert_eq!(cs::square(28), Square::E4);
/// let off = cs::square(-1); // a1's left neighbour by index arithmetic
/// assert_eq!((off.file(), off.rank(), off.index() as i32), (7, -1, -1));
/// assert_eq!(off.to_string(), "h0");
/// ```
#[inline(always)]
pub const fn square(index: i32) -> Square {
    Square::unchecked(index)
}

/// `new Square(file, rank)`: index `rank * 8 + file` (wrapping, as C#'s unchecked `int`s),
/// off the board or not. The kit's own [`Square::new`] panics off the board instead.
///
/// ```
/// use framework::prelude::*;
/// assert_eq!(cs::square_at(4, 3), Square::E4);
/// // File -1 of rank 1 is h1 by index (C#'s File is the index's low three bits).
/// assert_eq!(cs::square_at(-1, 1), Square::H1);
/// assert_eq!(cs::square_at(8, 7).index() as i32, 64);
/// ```
#[inline(always)]
pub const fn square_at(file: i32, rank: i32) -> Square {
    Square::unchecked(rank.wrapping_mul(8).wrapping_add(file))
}

/// The square, checked as C#'s API checks it by indexing a 64-entry array with `Index`:
/// off the board it panics as C#'s `IndexOutOfRangeException`.
#[track_caller]
#[inline(always)]
pub(crate) fn on_board(square: Square) -> Square {
    if !(0..64).contains(&square.raw()) {
        out_of_range(square);
    }
    square
}

#[cold]
#[track_caller]
fn out_of_range(square: Square) -> ! {
    panic!(
        "IndexOutOfRangeException: square index {} is off the board",
        square.raw()
    )
}

/// `BitboardHelper.GetKnightAttacks(square)`; panics off the board, as C#'s table read.
#[track_caller]
pub fn knight_attacks(square: Square) -> u64 {
    crate::chess::knight_attacks(on_board(square)).0
}

/// `BitboardHelper.GetKingAttacks(square)`; panics off the board.
#[track_caller]
pub fn king_attacks(square: Square) -> u64 {
    crate::chess::king_attacks(on_board(square)).0
}

/// `BitboardHelper.GetPawnAttacks(square, white)`; panics off the board.
#[track_caller]
pub fn pawn_attacks(square: Square, white: bool) -> u64 {
    crate::chess::pawn_attacks(on_board(square), white).0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_kit_constructors_stay_strict() {
        assert!(std::panic::catch_unwind(|| Square::from_index(-1)).is_err());
        assert!(std::panic::catch_unwind(|| Square::from_index(64)).is_err());
        assert!(std::panic::catch_unwind(|| Square::new(-1, 1)).is_err());
        assert!(std::panic::catch_unwind(|| Square::new(0, 8)).is_err());
        assert_eq!(Square::try_new(-1, 1), None);
    }

    #[test]
    fn the_port_constructors_keep_any_index_as_csharp() {
        let off = square_at(0, -1);
        assert_eq!((off.index() as i32, off.file(), off.rank()), (-8, 0, -1));
        assert_eq!(off.to_string(), "a0");
        assert_eq!(square(100).to_string(), "e13");
        assert_ne!(square(-1), square(63));
        assert_eq!(square(-1).bitboard(), Square::H8.bitboard());
        assert_eq!(square_at(i32::MAX, 1), square(i32::MIN + 7));
    }

    #[test]
    fn on_board_squares_pass() {
        assert_eq!(
            knight_attacks(Square::A1),
            crate::chess::knight_attacks(Square::A1).0
        );
        assert_eq!(on_board(square(63)), Square::H8);
    }

    #[test]
    #[should_panic(expected = "IndexOutOfRangeException")]
    fn an_index_off_the_board_throws_where_csharp_indexes_a_table() {
        knight_attacks(square(64));
    }
}

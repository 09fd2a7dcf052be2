//! 64-bit square sets.

use std::fmt;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

use super::Square;

/// A set of squares, one bit per square (bit 0 = a1, bit 63 = h8).
///
/// ```
/// use framework::prelude::*;
/// let mut bb = Bitboard::EMPTY;
/// bb.set(Square::E4);
/// bb |= Square::D5.bitboard();
/// assert!(bb.contains(Square::E4));
/// assert_eq!(bb.count(), 2);
/// assert_eq!(bb.pop_lsb(), Some(Square::E4));
/// assert_eq!(bb.iter().collect::<Vec<_>>(), vec![Square::D5]);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Bitboard(pub u64);

impl Bitboard {
    /// No squares.
    pub const EMPTY: Bitboard = Bitboard(0);
    /// All 64 squares.
    pub const FULL: Bitboard = Bitboard(!0);
    /// The 32 light squares.
    pub const LIGHT_SQUARES: Bitboard = Bitboard(0x55AA_55AA_55AA_55AA);
    /// The 32 dark squares.
    pub const DARK_SQUARES: Bitboard = Bitboard(!0x55AA_55AA_55AA_55AA);

    /// All squares of `file` (0 = a … 7 = h), as [`Square::file`] gives it. (Not named
    /// `file`, so that rustdoc's search for C#'s `File` finds [`Square::file`] first.)
    ///
    /// ```
    /// use framework::prelude::*;
    /// assert_eq!(Bitboard::of_file(Square::E4.file()).count(), 8);
    /// assert!(Bitboard::of_file(4).contains(Square::E8));
    /// ```
    #[inline(always)]
    pub const fn of_file(file: i32) -> Bitboard {
        Bitboard(0x0101_0101_0101_0101 << (file & 7))
    }

    /// All squares of `rank` (0 = first … 7 = eighth), as [`Square::rank`] gives it.
    #[inline(always)]
    pub const fn of_rank(rank: i32) -> Bitboard {
        Bitboard(0xFF << ((rank & 7) * 8))
    }

    /// `true` if `sq` is in the set.
    #[doc(alias = "SquareIsSet")]
    #[inline(always)]
    pub const fn contains(self, sq: Square) -> bool {
        self.0 >> sq.index() & 1 != 0
    }

    /// Adds `sq`.
    #[doc(alias = "SetSquare")]
    #[inline(always)]
    pub fn set(&mut self, sq: Square) {
        self.0 |= 1 << sq.index();
    }

    /// Removes `sq`.
    #[doc(alias = "ClearSquare")]
    #[inline(always)]
    pub fn clear(&mut self, sq: Square) {
        self.0 &= !(1 << sq.index());
    }

    /// Adds `sq` if absent, removes it if present.
    #[doc(alias = "ToggleSquare")]
    #[inline(always)]
    pub fn toggle(&mut self, sq: Square) {
        self.0 ^= 1 << sq.index();
    }

    /// The number of squares in the set: C#'s `GetNumberOfSetBits`, an `i32` as there.
    #[doc(alias = "GetNumberOfSetBits")]
    #[doc(alias = "PopCount")]
    #[inline(always)]
    pub const fn count(self) -> i32 {
        self.0.count_ones() as i32
    }

    /// `true` if no square is set.
    #[inline(always)]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// `true` if at least one square is set.
    #[inline(always)]
    pub const fn is_nonempty(self) -> bool {
        self.0 != 0
    }

    /// The lowest-index square, or `None` if empty.
    #[inline(always)]
    pub const fn lsb(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Some(Square::at(self.0.trailing_zeros() as u8))
        }
    }

    /// Removes and returns the lowest-index square, or `None` if empty.
    #[doc(alias = "ClearAndGetIndexOfLSB")]
    #[inline(always)]
    pub fn pop_lsb(&mut self) -> Option<Square> {
        let sq = self.lsb()?;
        self.0 &= self.0 - 1;
        Some(sq)
    }

    /// Iterates over the squares in index order (a1 first).
    #[inline(always)]
    pub const fn iter(self) -> BitboardIter {
        BitboardIter(self)
    }
}

/// Iterator over the squares of a [`Bitboard`], lowest index first.
#[derive(Debug, Clone)]
pub struct BitboardIter(Bitboard);

impl Iterator for BitboardIter {
    type Item = Square;
    #[inline(always)]
    fn next(&mut self) -> Option<Square> {
        self.0.pop_lsb()
    }
    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for BitboardIter {}

impl IntoIterator for Bitboard {
    type Item = Square;
    type IntoIter = BitboardIter;
    #[inline(always)]
    fn into_iter(self) -> BitboardIter {
        BitboardIter(self)
    }
}

impl FromIterator<Square> for Bitboard {
    fn from_iter<I: IntoIterator<Item = Square>>(iter: I) -> Bitboard {
        let mut bb = Bitboard::EMPTY;
        for sq in iter {
            bb.set(sq);
        }
        bb
    }
}

impl From<Square> for Bitboard {
    #[inline(always)]
    fn from(sq: Square) -> Bitboard {
        sq.bitboard()
    }
}

macro_rules! bit_ops {
    ($($tr:ident $f:ident $atr:ident $af:ident $op:tt),*) => {$(
        impl $tr for Bitboard {
            type Output = Bitboard;
            #[inline(always)]
            fn $f(self, rhs: Bitboard) -> Bitboard { Bitboard(self.0 $op rhs.0) }
        }
        impl $atr for Bitboard {
            #[inline(always)]
            fn $af(&mut self, rhs: Bitboard) { self.0 = self.0 $op rhs.0; }
        }
    )*};
}
bit_ops!(BitOr bitor BitOrAssign bitor_assign |, BitAnd bitand BitAndAssign bitand_assign &, BitXor bitxor BitXorAssign bitxor_assign ^);

/// C# computes bitboards as `ulong`: a `Bitboard` and a `u64` combine either way round into
/// a `Bitboard`, so a mask computed as a number needs no wrapping.
///
/// ```
/// use framework::prelude::*;
/// let board = Board::startpos();
/// let s = Square::E2.index();
/// let ahead = (0x0101_0101_0101_0100u64 << s) & board.pieces(PieceType::Pawn, Color::White);
/// assert_eq!(ahead.count(), 0);
/// assert_eq!((board.occupied() & 0xFF).count(), 8);
/// assert!(board.occupied() & 1 << 63 != 0);
/// ```
macro_rules! u64_ops {
    ($($tr:ident $f:ident $atr:ident $af:ident $op:tt),*) => {$(
        impl $tr<u64> for Bitboard {
            type Output = Bitboard;
            #[inline(always)]
            fn $f(self, rhs: u64) -> Bitboard { Bitboard(self.0 $op rhs) }
        }
        impl $tr<Bitboard> for u64 {
            type Output = Bitboard;
            #[inline(always)]
            fn $f(self, rhs: Bitboard) -> Bitboard { Bitboard(self $op rhs.0) }
        }
        impl $atr<u64> for Bitboard {
            #[inline(always)]
            fn $af(&mut self, rhs: u64) { self.0 = self.0 $op rhs; }
        }
    )*};
}
u64_ops!(BitOr bitor BitOrAssign bitor_assign |, BitAnd bitand BitAndAssign bitand_assign &, BitXor bitxor BitXorAssign bitxor_assign ^);

/// `bb == 0`, `bb != 0`: C#'s test of a `ulong` bitboard.
impl PartialEq<u64> for Bitboard {
    #[inline(always)]
    fn eq(&self, other: &u64) -> bool {
        self.0 == *other
    }
}

/// A `ulong` bitboard of C#'s, as a set.
impl From<u64> for Bitboard {
    #[inline(always)]
    fn from(bits: u64) -> Bitboard {
        Bitboard(bits)
    }
}

/// The board's occupied squares: what C#'s attack functions that take a `Board` read from
/// it (`GetSliderAttacks(type, square, board)`), so [`slider_attacks`](super::slider_attacks)
/// and [`piece_attacks`](super::piece_attacks) take `&board` for their blockers.
impl From<&super::Board> for Bitboard {
    #[inline(always)]
    fn from(board: &super::Board) -> Bitboard {
        board.occupied()
    }
}

impl Not for Bitboard {
    type Output = Bitboard;
    #[inline(always)]
    fn not(self) -> Bitboard {
        Bitboard(!self.0)
    }
}

/// Draws the set as an 8x8 grid, rank 8 at the top, `X` for members and `.` otherwise.
///
/// ```
/// use framework::prelude::*;
/// let grid = Square::A1.bitboard().to_string();
/// assert!(grid.ends_with("X . . . . . . .\n"));
/// ```
impl fmt::Display for Bitboard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for rank in (0..8).rev() {
            for file in 0..8 {
                let c = if self.contains(Square::new(file, rank)) {
                    'X'
                } else {
                    '.'
                };
                if file > 0 {
                    f.write_str(" ")?;
                }
                write!(f, "{c}")?;
            }
            f.write_str("\n")?;
        }
        Ok(())
    }
}

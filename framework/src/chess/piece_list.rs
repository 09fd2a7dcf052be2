//! Piece lists: the squares of one colour's pieces of one type, as the C# challenge's
//! `PieceList` gives them, read from the board's bitboards when asked for.

use std::ops::{Deref, Index};

use super::types::is_type_methods;
use super::{Board, Color, Piece, PieceType, Square};

/// The most pieces of one type and colour a board can hold: sixteen pieces a side, one of
/// them the king.
const CAPACITY: usize = 15;

/// The squares of one colour's pieces of one type, lowest square (a1) first: C#'s
/// `PieceList`. A snapshot: it does not follow moves made after it was taken.
///
/// Its [`len`](Self::len) is C#'s `Count`, an `i32` as there (so one side's count less
/// the other's may go negative), and `list[i]` takes an `i32` or a `usize`. It derefs to a
/// slice of squares, so `iter()` and the slice's methods work, and iterating it gives each
/// piece's square (C#'s `piece.Square`); the type and colour are the list's
/// ([`piece_type`](Self::piece_type), [`color`](Self::color), [`is_white`](Self::is_white)).
///
/// ```
/// use framework::prelude::*;
/// let board = Board::from_fen("1n2k3/8/8/8/8/8/8/1N2K1N1 w - - 0 1").unwrap();
/// let knights = board.piece_list(PieceType::Knight, Color::White);
/// assert_eq!(knights.len(), 2);
/// assert_eq!(knights[0], Square::B1);
/// assert!(knights.is_white());
/// let files: Vec<i32> = knights.iter().map(|s| s.file()).collect();
/// assert_eq!(files, [1, 6]);
/// let theirs = board.piece_list(PieceType::Knight, false);
/// assert_eq!(theirs.len() - knights.len(), -1); // C#'s `Count`, signed
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct PieceList {
    piece: Piece,
    len: u8,
    squares: [Square; CAPACITY],
}

impl PieceList {
    /// The list of `piece`'s squares on `board`.
    fn of(board: &Board, piece: Piece) -> PieceList {
        let mut list = PieceList {
            piece,
            ..PieceList::default()
        };
        for square in board.pieces(piece.piece_type(), piece.color()) {
            list.squares[usize::from(list.len)] = square;
            list.len += 1;
        }
        list
    }

    /// The type of the pieces in the list: C#'s `TypeOfPieceInList`.
    #[doc(alias = "TypeOfPieceInList")]
    #[inline(always)]
    pub const fn piece_type(&self) -> PieceType {
        self.piece.piece_type()
    }

    /// The colour of the pieces in the list.
    #[inline(always)]
    pub const fn color(&self) -> Color {
        self.piece.color()
    }

    /// `true` for a list of White's pieces: C#'s `IsWhitePieceList`.
    #[doc(alias = "IsWhitePieceList")]
    #[inline(always)]
    pub const fn is_white(&self) -> bool {
        self.piece.is_white()
    }

    /// The type and colour of the pieces in the list.
    #[inline(always)]
    pub const fn piece(&self) -> Piece {
        self.piece
    }

    is_type_methods!(self, self.piece.piece_type());

    /// How many pieces the list holds: C#'s `Count`, an `i32` as there. (The slice the list
    /// derefs to has its `usize` length as `iter().len()`.)
    #[doc(alias = "Count")]
    #[inline(always)]
    pub const fn len(&self) -> i32 {
        self.len as i32
    }

    /// `true` if no piece of the list's type and colour is on the board.
    #[inline(always)]
    pub const fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// C#'s null list, which `GetPieceList(PieceType.None, ..)` gives: only the C#
    /// runtime makes it, and its readers check for it before they read (its length is
    /// past the buffer, so a read that did not would panic, not see pieces).
    pub(crate) const fn null() -> PieceList {
        PieceList {
            piece: Piece::new(PieceType::Pawn, Color::White),
            len: u8::MAX,
            squares: [Square::A1; CAPACITY],
        }
    }

    /// Whether this is the C# runtime's [`null`](Self::null) list.
    pub(crate) const fn is_null(&self) -> bool {
        self.len == u8::MAX
    }
}

/// An empty list of White's pawns: what a new `PieceList[]` holds in a C# port (C#'s are
/// nulls, which a bot fills from the board before it reads them). A bot that reads one
/// before filling it sees no pieces rather than C#'s `NullReferenceException`.
///
/// ```
/// use framework::prelude::*;
/// let empty = PieceList::default();
/// assert!(empty.is_empty() && empty.len() == 0 && empty.iter().next().is_none());
/// let lists: [PieceList; 12] = Default::default(); // C#'s `new PieceList[12]`
/// assert!(lists.iter().all(PieceList::is_empty));
/// ```
impl Default for PieceList {
    fn default() -> Self {
        PieceList {
            piece: Piece::new(PieceType::Pawn, Color::White),
            len: 0,
            squares: [Square::A1; CAPACITY],
        }
    }
}

impl Deref for PieceList {
    type Target = [Square];
    /// The squares, lowest first.
    #[inline(always)]
    fn deref(&self) -> &[Square] {
        &self.squares[..usize::from(self.len)]
    }
}

/// `list[i]`: the square of the list's `i`th piece (C#'s `list[i].Square`), for an `i32`
/// as C# indexes, or a `usize`.
///
/// ```
/// use framework::prelude::*;
/// let rooks = Board::startpos().piece_list(PieceType::Rook, Color::White);
/// let last: i32 = rooks.len() - 1;
/// assert_eq!((rooks[0], rooks[last], rooks[1usize]), (Square::A1, Square::H1, Square::H1));
/// ```
impl<I: ListIndex> Index<I> for PieceList {
    type Output = Square;
    #[inline(always)]
    fn index(&self, i: I) -> &Square {
        &self.squares[..usize::from(self.len)][i.position()]
    }
}

/// What indexes a [`PieceList`]: an `i32` (C#'s index) or a `usize`. One impl of `Index` for
/// both keeps a literal index (`list[0]`) unambiguous.
pub trait ListIndex: sealed::Sealed + Copy {
    /// The position in the list; a negative `i32` panics as an index out of range.
    fn position(self) -> usize;
}

impl ListIndex for usize {
    #[inline(always)]
    fn position(self) -> usize {
        self
    }
}

impl ListIndex for i32 {
    #[inline(always)]
    fn position(self) -> usize {
        usize::try_from(self).unwrap_or_else(|_| panic!("index {self} is negative"))
    }
}

mod sealed {
    pub trait Sealed {}
    impl Sealed for usize {}
    impl Sealed for i32 {}
}

impl IntoIterator for PieceList {
    type Item = Square;
    type IntoIter = std::iter::Take<std::array::IntoIter<Square, CAPACITY>>;
    /// Each piece's square, lowest first (C#'s `foreach (Piece p in list)` with `p.Square`).
    #[inline(always)]
    fn into_iter(self) -> Self::IntoIter {
        self.squares.into_iter().take(usize::from(self.len))
    }
}

impl<'a> IntoIterator for &'a PieceList {
    type Item = &'a Square;
    type IntoIter = std::slice::Iter<'a, Square>;
    #[inline(always)]
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl std::fmt::Debug for PieceList {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "PieceList({} ", self.piece)?;
        f.debug_list()
            .entries(self.iter().map(ToString::to_string))
            .finish()?;
        f.write_str(")")
    }
}

impl Board {
    /// The list of `color`'s pieces of type `piece_type`: C#'s `GetPieceList`. `color` may
    /// be a `bool` (`true` is White), as C#'s `white`. For only the squares as a set,
    /// [`pieces`](Board::pieces) is cheaper.
    ///
    /// ```
    /// use framework::prelude::*;
    /// let board = Board::startpos();
    /// let king = board.piece_list(PieceType::King, Color::White);
    /// assert_eq!(king[0], Square::E1);
    /// assert_eq!(king.piece(), Piece::new(PieceType::King, Color::White));
    /// ```
    #[doc(alias = "GetPieceList")]
    pub fn piece_list(&self, piece_type: PieceType, color: impl Into<Color>) -> PieceList {
        PieceList::of(self, Piece::new(piece_type, color.into()))
    }

    /// All twelve piece lists, in C#'s order: White's pawns, knights, bishops, rooks,
    /// queens and king, then Black's in the same order (C#'s `GetAllPieceLists`). Lists
    /// of pieces no longer on the board are there, empty, so `lists[i]` is always the
    /// same type and colour.
    ///
    /// ```
    /// use framework::prelude::*;
    /// // Material, the C# way: every list, each piece, signed by its colour.
    /// const VALUES: [i32; 6] = [100, 300, 320, 500, 900, 0];
    /// let board = Board::from_fen("4k3/8/8/8/8/8/3PP3/R3K3 w Q - 0 1").unwrap();
    /// let mut score = 0;
    /// for list in board.piece_lists() {
    ///     for _square in list {
    ///         score += VALUES[list.piece_type().index()] * list.color().sign();
    ///     }
    /// }
    /// assert_eq!(score, 700);
    /// assert_eq!(board.piece_lists()[3][0], Square::A1); // White's rooks
    /// assert!(board.piece_lists()[10].is_empty()); // Black's queens
    /// ```
    #[doc(alias = "GetAllPieceLists")]
    pub fn piece_lists(&self) -> [PieceList; 12] {
        std::array::from_fn(|i| {
            let color = if i < 6 { Color::White } else { Color::Black };
            PieceList::of(self, Piece::new(PieceType::ALL[i % 6], color))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    #[should_panic(expected = "index -1 is negative")]
    fn a_negative_index_panics() {
        let rooks = Board::startpos().piece_list(PieceType::Rook, Color::White);
        let _ = rooks[-1];
    }

    #[test]
    #[should_panic(expected = "out of bounds")]
    fn an_index_past_the_last_piece_panics() {
        let king = Board::startpos().piece_list(PieceType::King, Color::White);
        let _ = king[1];
    }
}

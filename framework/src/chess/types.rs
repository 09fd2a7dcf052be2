//! Colours, piece types, pieces and squares.

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

/// A side: White or Black.
///
/// ```
/// use framework::prelude::*;
/// assert_eq!(!Color::White, Color::Black);
/// assert_eq!(Color::Black.index(), 1);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    /// The side that moves first.
    White = 0,
    /// The side that moves second.
    Black = 1,
}

impl Color {
    /// Both colours, White first.
    pub const ALL: [Color; 2] = [Color::White, Color::Black];

    /// `true` for White.
    #[inline(always)]
    pub const fn is_white(self) -> bool {
        matches!(self, Color::White)
    }

    /// 0 for White, 1 for Black: handy for indexing `[T; 2]` tables.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// +1 for White, -1 for Black, to turn a White-relative score into a side-relative one.
    #[inline(always)]
    pub const fn sign(self) -> i32 {
        match self {
            Color::White => 1,
            Color::Black => -1,
        }
    }
}

/// C#'s `white` flags: `true` is White. So the API calls that take a colour take a `bool`
/// too (`board.king_square(true)`, `board.pieces(PieceType::Pawn, board.is_white_to_move())`),
/// as C#'s `GetKingSquare(white)` does.
///
/// ```
/// use framework::prelude::*;
/// assert_eq!(Color::from(true), Color::White);
/// assert_eq!(Color::from(false), Color::Black);
/// let board = Board::startpos();
/// assert_eq!(board.king_square(false), Square::E8);
/// ```
impl From<bool> for Color {
    #[inline(always)]
    fn from(white: bool) -> Color {
        if white { Color::White } else { Color::Black }
    }
}

impl std::ops::Not for Color {
    type Output = Color;
    #[inline(always)]
    fn not(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Color::White => "white",
            Color::Black => "black",
        })
    }
}

/// The kind of a piece, without its colour.
///
/// Its values are C#'s numbers, pawn 1 … king 6, so C#'s cast `(int)pieceType` is
/// `piece_type as i32` (and `piece_type as usize` indexes a C# table as it is); C#'s
/// `PieceType.None`, 0, is an absent piece, `Option::None`.
///
/// ```
/// use framework::prelude::*;
/// assert_eq!(PieceType::Queen as i32, 5); // C#'s (int)PieceType.Queen
/// assert_eq!(PieceType::Queen.index(), 4);
/// assert_eq!(PieceType::from_char('n'), Some(PieceType::Knight));
/// assert_eq!(PieceType::Rook.to_char(), 'r');
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum PieceType {
    /// Pawn.
    Pawn = 1,
    /// Knight.
    Knight = 2,
    /// Bishop.
    Bishop = 3,
    /// Rook.
    Rook = 4,
    /// Queen.
    Queen = 5,
    /// King.
    King = 6,
}

impl PieceType {
    /// All six piece types, in index order (pawn first).
    pub const ALL: [PieceType; 6] = [
        PieceType::Pawn,
        PieceType::Knight,
        PieceType::Bishop,
        PieceType::Rook,
        PieceType::Queen,
        PieceType::King,
    ];

    /// 0 (pawn) to 5 (king), for indexing tables such as piece values. C#'s numbering,
    /// where the pawn is 1, is [`number`](Self::number).
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize - 1
    }

    /// The piece type with the given index 0..6, if any.
    #[inline]
    pub const fn from_index(index: usize) -> Option<PieceType> {
        if index < 6 {
            Some(Self::ALL[index])
        } else {
            None
        }
    }

    /// The C# challenge's number for this type: pawn 1, knight 2, bishop 3, rook 4,
    /// queen 5, king 6 (C#'s `(int)PieceType`, where 0 is `None`). A table indexed this
    /// way keeps a C# bot's constants as they are; [`Move::captured_number`] gives 0 for no
    /// capture, so `VALUES[m.captured_number()]` needs no `match`.
    ///
    /// [`Move::captured_number`]: super::Move::captured_number
    ///
    /// ```
    /// use framework::prelude::*;
    /// const VALUES: [i32; 7] = [0, 100, 300, 320, 500, 900, 0]; // None, P, N, B, R, Q, K
    /// assert_eq!(VALUES[PieceType::Rook.number()], 500);
    /// assert_eq!(PieceType::Pawn.number(), PieceType::Pawn.index() + 1);
    /// ```
    #[doc(alias = "PieceType")]
    #[inline(always)]
    pub const fn number(self) -> usize {
        self as usize
    }

    /// The piece type with the C# challenge's number `number` (1 = pawn … 6 = king): what
    /// C#'s `(PieceType)i` cast gives. `None` for 0 (C#'s `PieceType.None`) and above 6.
    ///
    /// Takes an `i32` as C#'s cast does, or a `usize` such as [`number`](Self::number) gives;
    /// a negative number is `None` too.
    ///
    /// ```
    /// use framework::prelude::*;
    /// assert_eq!(PieceType::from_number(1), Some(PieceType::Pawn));
    /// assert_eq!(PieceType::from_number(6), Some(PieceType::King));
    /// assert_eq!(PieceType::from_number(0), None);
    /// let i: i32 = 5;
    /// assert_eq!(PieceType::from_number(i.min(5)), Some(PieceType::Queen));
    /// assert_eq!(PieceType::from_number(PieceType::Rook.number()), Some(PieceType::Rook));
    /// assert_eq!(PieceType::from_number(-1), None);
    /// ```
    #[doc(alias = "(PieceType)")]
    #[inline]
    pub fn from_number(number: impl TryInto<usize>) -> Option<PieceType> {
        match number.try_into().ok()? {
            0 => None,
            n => Self::from_index(n - 1),
        }
    }

    /// Lower-case letter: `p n b r q k`.
    #[inline]
    pub const fn to_char(self) -> char {
        match self {
            PieceType::Pawn => 'p',
            PieceType::Knight => 'n',
            PieceType::Bishop => 'b',
            PieceType::Rook => 'r',
            PieceType::Queen => 'q',
            PieceType::King => 'k',
        }
    }

    /// Parses a letter of either case (`'N'` or `'n'`).
    #[inline]
    pub const fn from_char(c: char) -> Option<PieceType> {
        match c.to_ascii_lowercase() {
            'p' => Some(PieceType::Pawn),
            'n' => Some(PieceType::Knight),
            'b' => Some(PieceType::Bishop),
            'r' => Some(PieceType::Rook),
            'q' => Some(PieceType::Queen),
            'k' => Some(PieceType::King),
            _ => None,
        }
    }
}

impl fmt::Display for PieceType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.to_char())
    }
}

/// C#'s `IsPawn` ... `IsKing` for a piece and for a piece list: `is_pawn()` costs a bot
/// 4 tokens where `piece_type() == PieceType::Pawn` costs 7.
macro_rules! is_type_methods {
    ($self:ident, $piece_type:expr) => {
        is_type_methods!(@one $self, $piece_type, is_pawn, Pawn, "IsPawn");
        is_type_methods!(@one $self, $piece_type, is_knight, Knight, "IsKnight");
        is_type_methods!(@one $self, $piece_type, is_bishop, Bishop, "IsBishop");
        is_type_methods!(@one $self, $piece_type, is_rook, Rook, "IsRook");
        is_type_methods!(@one $self, $piece_type, is_queen, Queen, "IsQueen");
        is_type_methods!(@one $self, $piece_type, is_king, King, "IsKing");
    };
    (@one $self:ident, $piece_type:expr, $name:ident, $variant:ident, $alias:literal) => {
        #[doc = concat!("`true` for a [`PieceType::", stringify!($variant), "`]: C#'s `", $alias, "`.")]
        #[doc(alias = $alias)]
        #[inline(always)]
        pub const fn $name(&$self) -> bool {
            matches!($piece_type, PieceType::$variant)
        }
    };
}
pub(crate) use is_type_methods;

/// A piece: a [`PieceType`] and a [`Color`].
///
/// ```
/// use framework::prelude::*;
/// let p = Piece::new(PieceType::Knight, Color::White);
/// assert_eq!(p.to_char(), 'N');
/// assert_eq!(Piece::from_char('q'), Some(Piece::new(PieceType::Queen, Color::Black)));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Piece {
    piece_type: PieceType,
    color: Color,
}

impl Piece {
    /// A piece of the given type and colour.
    #[inline(always)]
    pub const fn new(piece_type: PieceType, color: Color) -> Piece {
        Piece { piece_type, color }
    }

    /// The type of the piece.
    #[inline(always)]
    pub const fn piece_type(self) -> PieceType {
        self.piece_type
    }

    /// The colour of the piece.
    #[inline(always)]
    pub const fn color(self) -> Color {
        self.color
    }

    /// `true` if the piece is White's.
    #[inline(always)]
    pub const fn is_white(self) -> bool {
        self.color.is_white()
    }

    is_type_methods!(self, self.piece_type);

    /// The FEN letter: upper case for White, lower case for Black.
    #[inline]
    pub const fn to_char(self) -> char {
        let c = self.piece_type.to_char();
        if self.color.is_white() {
            c.to_ascii_uppercase()
        } else {
            c
        }
    }

    /// Parses a FEN letter (`'K'` is the White king, `'k'` the Black one).
    #[inline]
    pub const fn from_char(c: char) -> Option<Piece> {
        match PieceType::from_char(c) {
            Some(pt) => Some(Piece::new(
                pt,
                if c.is_ascii_uppercase() {
                    Color::White
                } else {
                    Color::Black
                },
            )),
            None => None,
        }
    }
}

impl fmt::Display for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.to_char())
    }
}

/// One of the 64 squares, indexed a1 = 0, b1 = 1, …, h8 = 63.
///
/// The index is an `i32`, as C#'s `Square.Index` is an `int`: the kit's constructors
/// ([`new`](Self::new), [`from_index`](Self::from_index), [`try_new`](Self::try_new))
/// give only squares on the board, but a C# port's `new Square(-1)` keeps its index
/// ([`cs::square`](crate::csharp::runtime::square)), as C#'s does.
///
/// ```
/// use framework::prelude::*;
/// let e4: Square = "e4".parse().unwrap();
/// assert_eq!(e4, Square::E4);
/// assert_eq!(e4, Square::new(4, 3));
/// assert_eq!((e4.file(), e4.rank()), (4, 3));
/// assert_eq!(e4.index(), 28);
/// assert_eq!(e4.flip(), Square::E5);
/// assert_eq!(e4.to_string(), "e4");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(i32);

/// The error returned when a string is not a square name such as `e4`.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("`{0}` is not a square (expected a file a-h and a rank 1-8, like `e4`)")]
pub struct SquareParseError(pub String);

macro_rules! square_consts {
    ($($name:ident = $idx:expr),* $(,)?) => {
        impl Square {
            $(
                #[doc = concat!("The square ", stringify!($name), ".")]
                pub const $name: Square = Square($idx);
            )*
        }
    };
}

square_consts! {
    A1 = 0, B1 = 1, C1 = 2, D1 = 3, E1 = 4, F1 = 5, G1 = 6, H1 = 7,
    A2 = 8, B2 = 9, C2 = 10, D2 = 11, E2 = 12, F2 = 13, G2 = 14, H2 = 15,
    A3 = 16, B3 = 17, C3 = 18, D3 = 19, E3 = 20, F3 = 21, G3 = 22, H3 = 23,
    A4 = 24, B4 = 25, C4 = 26, D4 = 27, E4 = 28, F4 = 29, G4 = 30, H4 = 31,
    A5 = 32, B5 = 33, C5 = 34, D5 = 35, E5 = 36, F5 = 37, G5 = 38, H5 = 39,
    A6 = 40, B6 = 41, C6 = 42, D6 = 43, E6 = 44, F6 = 45, G6 = 46, H6 = 47,
    A7 = 48, B7 = 49, C7 = 50, D7 = 51, E7 = 52, F7 = 53, G7 = 54, H7 = 55,
    A8 = 56, B8 = 57, C8 = 58, D8 = 59, E8 = 60, F8 = 61, G8 = 62, H8 = 63,
}

impl Square {
    /// The square on `file` (0 = a … 7 = h) and `rank` (0 = first rank … 7 = eighth):
    /// C#'s `new Square(file, rank)`, which takes `int`s, as [`file`](Self::file) and
    /// [`rank`](Self::rank) give them.
    ///
    /// ```
    /// use framework::prelude::*;
    /// let e4 = Square::E4;
    /// assert_eq!(Square::new(e4.file(), e4.rank() + 1), Square::E5);
    /// ```
    ///
    /// # Panics
    /// If `file` or `rank` is off the board (below 0 or 8 or more); [`try_new`](Self::try_new)
    /// checks instead.
    #[inline(always)]
    pub const fn new(file: i32, rank: i32) -> Square {
        assert!(
            file >= 0 && file < 8 && rank >= 0 && rank < 8,
            "file and rank must be in 0..8"
        );
        Square(rank * 8 + file)
    }

    /// The square on `file` and `rank`, or `None` if either is off the board.
    /// Takes signed values so offsets such as `file - 1` can be checked directly.
    #[inline]
    pub const fn try_new(file: i32, rank: i32) -> Option<Square> {
        if file >= 0 && file < 8 && rank >= 0 && rank < 8 {
            Some(Square(rank * 8 + file))
        } else {
            None
        }
    }

    /// The square with index `index` (a1 = 0 … h8 = 63): C#'s `new Square(index)`. Takes
    /// any integer type: C#'s `int`, or the `usize` of [`index`](Self::index).
    ///
    /// ```
    /// use framework::prelude::*;
    /// assert_eq!(Square::from_index(28), Square::E4);
    /// assert_eq!(Square::from_index(Square::E4.index() ^ 56), Square::E5);
    /// ```
    ///
    /// # Panics
    /// If `index` is negative or 64 or more.
    #[inline(always)]
    pub fn from_index(index: impl TryInto<u8>) -> Square {
        match index.try_into() {
            Ok(index) if index < 64 => Square(index as i32),
            _ => panic!("square index must be in 0..64"),
        }
    }

    /// The square with index `index`, which the caller knows is below 64.
    #[inline(always)]
    pub(crate) const fn at(index: u8) -> Square {
        debug_assert!(index < 64);
        Square((index & 63) as i32)
    }

    /// The square with index `index`, on the board or not: C#'s `new Square(index)`, which
    /// checks nothing. For C# ports ([`cs::square`](crate::csharp::runtime::square)).
    #[inline(always)]
    pub(crate) const fn unchecked(index: i32) -> Square {
        Square(index)
    }

    /// The index as C#'s `int`, negative or 64 and more for a C# port's square off the board.
    #[inline(always)]
    pub(crate) const fn raw(self) -> i32 {
        self.0
    }

    /// All 64 squares in index order.
    pub const ALL: [Square; 64] = {
        let mut all = [Square(0); 64];
        let mut i = 0;
        while i < 64 {
            all[i] = Square(i as i32);
            i += 1;
        }
        all
    };

    /// The index a1 = 0 … h8 = 63: C#'s `Index`, as a `usize`, ready to index a table.
    /// (A C# port's square off the board, index -1 say, gives a `usize` past any table, as
    /// C#'s index throws there.)
    #[doc(alias = "Index")]
    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The file, 0 (a) to 7 (h): C#'s `File`, an `int` as there, so `sq.file() - 3` may
    /// go negative. The index's low three bits, as C#'s, for a port's square off the board.
    #[doc(alias = "File")]
    #[inline(always)]
    pub const fn file(self) -> i32 {
        self.0 & 7
    }

    /// The rank, 0 (first rank) to 7 (eighth rank): C#'s `Rank`, an `int`. The index shifted
    /// right by three, as C#'s, for a port's square off the board (-1 for index -1).
    #[doc(alias = "Rank")]
    #[inline(always)]
    pub const fn rank(self) -> i32 {
        self.0 >> 3
    }

    /// Mirrors the square vertically (e2 <-> e7): the same square seen from Black's side.
    #[inline(always)]
    pub const fn flip(self) -> Square {
        Square(self.0 ^ 56)
    }

    /// The square as seen from `color`'s side: unchanged for White, [`flip`](Self::flip)ped for Black.
    /// Lets one piece-square table serve both colours. `color` may be a `bool` (`true` is White).
    #[inline(always)]
    pub fn relative_to(self, color: impl Into<Color>) -> Square {
        match color.into() {
            Color::White => self,
            Color::Black => self.flip(),
        }
    }

    /// `true` for light squares (h1 is light, a1 is dark).
    #[inline(always)]
    pub const fn is_light(self) -> bool {
        (self.file() + self.rank()) % 2 == 1
    }

    /// The one-bit [`Bitboard`](super::Bitboard) of this square. A port's square off the
    /// board gives the bit of its index's low six bits, as C#'s `1ul << Index` does.
    #[inline(always)]
    pub const fn bitboard(self) -> super::Bitboard {
        super::Bitboard(1u64 << (self.0 & 63))
    }
}

/// a1, square 0: C#'s `default(Square)`, and what a new `Square[]` holds (so a kit
/// `Table` or C# port's array of squares starts as C#'s does).
///
/// ```
/// use framework::prelude::*;
/// assert_eq!(Square::default(), Square::A1);
/// assert_eq!(<[Square; 3]>::default(), [Square::A1; 3]);
/// ```
impl Default for Square {
    #[inline(always)]
    fn default() -> Self {
        Square::A1
    }
}

/// The name, `e4`. A port's square off the board is named as C#'s `Name` names it: the
/// file's letter and the rank plus one as a number (`h0` for index -1, `a9` for 64).
impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}{}",
            (b'a' + (self.0 & 7) as u8) as char,
            self.rank() + 1
        )
    }
}

impl FromStr for Square {
    type Err = SquareParseError;
    fn from_str(s: &str) -> Result<Square, SquareParseError> {
        match s.as_bytes() {
            [f @ b'a'..=b'h', r @ b'1'..=b'8'] => Ok(Square::at((r - b'1') * 8 + f - b'a')),
            _ => Err(SquareParseError(s.to_string())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csharps_ints_make_squares_and_piece_types() {
        assert_eq!(Square::from_index(63i32), Square::H8);
        assert_eq!(Square::from_index(0usize), Square::A1);
        assert_eq!(Square::new(7, 0), Square::H1);
        assert_eq!((Square::H8.file(), Square::H8.rank()), (7, 7));
        for pt in PieceType::ALL {
            assert_eq!(pt as i32, pt.index() as i32 + 1);
            assert_eq!(PieceType::from_number(pt as i32), Some(pt));
        }
        assert_eq!(PieceType::from_number(7), None);
    }

    #[test]
    #[should_panic(expected = "square index must be in 0..64")]
    fn a_negative_square_index_panics() {
        Square::from_index(-1);
    }

    #[test]
    #[should_panic(expected = "file and rank must be in 0..8")]
    fn a_file_off_the_board_panics() {
        Square::new(-1, 3);
    }
}

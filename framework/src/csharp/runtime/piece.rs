//! C#'s `Piece` and `PieceType` as C# bots compute with them: piece types are C#'s
//! numbers (`None` 0, `Pawn` 1 ... `King` 6), and the API calls that take one take the
//! number.

use crate::chess::{
    Board, Move, PieceList, PieceType, Square, king_attacks, knight_attacks, pawn_attacks,
};

/// `PieceType.None`.
pub const NONE: i32 = 0;
/// `PieceType.Pawn`.
pub const PAWN: i32 = 1;
/// `PieceType.Knight`.
pub const KNIGHT: i32 = 2;
/// `PieceType.Bishop`.
pub const BISHOP: i32 = 3;
/// `PieceType.Rook`.
pub const ROOK: i32 = 4;
/// `PieceType.Queen`.
pub const QUEEN: i32 = 5;
/// `PieceType.King`.
pub const KING: i32 = 6;

/// The kit's `PieceType` of C#'s number; `None` for `PieceType.None` and numbers C# has
/// no piece for.
pub fn piece_type(number: i32) -> Option<PieceType> {
    PieceType::from_number(usize::try_from(number).ok()?)
}

/// C#'s `Piece`: a type (C#'s number, 0 for an empty square), a colour and the square it
/// was found on.
///
/// ```
/// use framework::prelude::*;
/// let board = Board::startpos();
/// let p = cs::Piece::at(&board, Square::G1); // board.GetPiece(new Square("g1"))
/// assert!(p.is_knight() && p.is_white && p.piece_type == cs::KNIGHT);
/// assert!(cs::Piece::at(&board, Square::E4).is_null());
/// ```
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Piece {
    /// `PieceType` (C#'s number).
    pub piece_type: i32,
    /// `IsWhite`.
    pub is_white: bool,
    /// `Square`.
    pub square: Square,
}

/// `default(Piece)`: C#'s null piece, on a1.
impl Default for Piece {
    fn default() -> Self {
        Piece::new(NONE, false, Square::A1)
    }
}

impl Piece {
    /// `board.GetPiece(square)`; panics off the board, as C#'s read of its 64 squares
    /// throws `IndexOutOfRangeException`.
    #[track_caller]
    pub fn at(board: &Board, square: Square) -> Piece {
        match board.piece_at(super::on_board(square)) {
            Some(p) => Piece {
                piece_type: p.piece_type().number() as i32,
                is_white: p.is_white(),
                square,
            },
            None => Piece {
                piece_type: NONE,
                is_white: false,
                square,
            },
        }
    }

    /// `new Piece(type, white, square)`.
    pub fn new(piece_type: i32, is_white: bool, square: Square) -> Piece {
        Piece {
            piece_type,
            is_white,
            square,
        }
    }

    /// The pieces of a piece list, as C#'s `foreach (Piece p in list)` gives them.
    #[track_caller]
    pub fn in_list(list: &PieceList) -> Vec<Piece> {
        let list = non_null(list);
        let piece_type = list.piece_type().number() as i32;
        list.iter()
            .map(|&square| Piece {
                piece_type,
                is_white: list.is_white(),
                square,
            })
            .collect()
    }

    /// `list[i]` and `list.GetPiece(i)`. C#'s piece list reads its fixed-size buffer
    /// without checking `i` against `Count`: past the list's pieces it gives the list's
    /// type on a stale square. Here the square past them is a1; an index past the
    /// buffer (or negative) panics as C#'s throws.
    #[track_caller]
    pub fn of_list(list: &PieceList, index: i32) -> Piece {
        let list = non_null(list);
        let i = usize::try_from(index)
            .ok()
            .filter(|i| *i < 16)
            .expect("index out of range");
        let square = list.get(i).copied().unwrap_or(Square::A1);
        Piece::new(list.piece_type().number() as i32, list.is_white(), square)
    }

    /// `IsNull`: no piece (an empty square).
    pub fn is_null(&self) -> bool {
        self.piece_type == NONE
    }

    /// `IsPawn`.
    pub fn is_pawn(&self) -> bool {
        self.piece_type == PAWN
    }

    /// `IsKnight`.
    pub fn is_knight(&self) -> bool {
        self.piece_type == KNIGHT
    }

    /// `IsBishop`.
    pub fn is_bishop(&self) -> bool {
        self.piece_type == BISHOP
    }

    /// `IsRook`.
    pub fn is_rook(&self) -> bool {
        self.piece_type == ROOK
    }

    /// `IsQueen`.
    pub fn is_queen(&self) -> bool {
        self.piece_type == QUEEN
    }

    /// `IsKing`.
    pub fn is_king(&self) -> bool {
        self.piece_type == KING
    }
}

/// `board.MakeMove(move)`: as C#'s, it does nothing with `Move.NullMove`, which C# bots
/// reach as `FirstOrDefault()` of no moves or `new Move()` (the kit's
/// [`Board::make_move`] takes legal moves only). The move comes first, as C# evaluates it
/// before the call: it may read the board.
///
/// ```
/// use framework::prelude::*;
/// let mut board = Board::default();
/// cs::make_move(Move::NULL, &mut board);
/// cs::undo_move(Move::NULL, &mut board);
/// assert_eq!(board, Board::default());
/// cs::make_move(board.legal_moves_vec()[0], &mut board);
/// assert_eq!(board.ply_count(), 1);
/// ```
pub fn make_move(mv: Move, board: &mut Board) {
    if !mv.is_null() {
        board.make_move(mv);
    }
}

/// `board.UndoMove(move)`: undoes the last move made, and nothing for `Move.NullMove`, as
/// [`make_move`] made nothing of it.
pub fn undo_move(mv: Move, board: &mut Board) {
    if !mv.is_null() {
        board.undo_move();
    }
}

/// `board.UndoSkipTurn()` on a board of the bot's own (`Board.CreateBoardFromFEN`) that
/// nothing reads afterwards. C#'s unmakes the last game state whatever made it: after
/// `UndoMove` out of order (`MakeMove(m); ForceSkipTurn(); UndoMove(m); UndoSkipTurn();`)
/// it leaves a board in no position, which is harmless only because nothing reads it.
/// This takes back the last move or skipped turn, and panics where C#'s throws
/// (`InvalidOperationException`: nothing left to undo).
///
/// ```
/// use framework::prelude::*;
/// let mut own = cs::board_from_fen(&Board::startpos().fen());
/// let m = own.parse_uci("e2e4").unwrap();
/// cs::make_move(m, &mut own);
/// own.force_skip_turn();
/// cs::undo_move(m, &mut own); // takes back the skipped turn
/// cs::undo_skip_turn_dropped(&mut own); // and this the move: C#'s board is now read no more
/// ```
#[track_caller]
pub fn undo_skip_turn_dropped(board: &mut Board) {
    match board.history_moves().last() {
        Some(m) if m.is_null() => board.undo_skip_turn(),
        Some(_) => board.undo_move(),
        None => panic!("InvalidOperationException: UndoSkipTurn with nothing to undo"),
    }
}

/// `board.GetPieceBitboard(type, white)`: 0 for `PieceType.None`.
pub fn pieces(board: &Board, piece_type: i32, white: bool) -> u64 {
    self::piece_type(piece_type).map_or(0, |t| board.pieces(t, white).0)
}

/// `board.GetPieceList(type, white)`: C#'s null for `PieceType.None` (C#'s table of lists
/// has no list there), which only [`list_is_null`] may read; every other reader throws
/// C#'s `NullReferenceException`, a panic.
///
/// ```
/// use framework::prelude::*;
/// let board = Board::startpos();
/// let none = cs::piece_list(&board, cs::NONE, true);
/// assert!(cs::list_is_null(&none) && !cs::list_is_null(&cs::piece_list(&board, cs::PAWN, false)));
/// assert_eq!(cs::try_catch(|| cs::list_count(&none)), None);
/// ```
pub fn piece_list(board: &Board, piece_type: i32, white: bool) -> PieceList {
    self::piece_type(piece_type).map_or(PieceList::null(), |t| board.piece_list(t, white))
}

/// `list == null`: only a list [`piece_list`] gave for `PieceType.None` is.
pub fn list_is_null(list: &PieceList) -> bool {
    list.is_null()
}

/// `list.Count`.
///
/// ```
/// use framework::prelude::*;
/// let board = Board::startpos();
/// assert_eq!(cs::list_count(&cs::piece_list(&board, cs::KNIGHT, true)), 2);
/// ```
#[track_caller]
pub fn list_count(list: &PieceList) -> i32 {
    non_null(list).len()
}

/// `list.IsWhitePieceList`.
#[track_caller]
pub fn list_is_white(list: &PieceList) -> bool {
    non_null(list).is_white()
}

/// `list.TypeOfPieceInList`, C#'s number.
#[track_caller]
pub fn list_type(list: &PieceList) -> i32 {
    non_null(list).piece_type().number() as i32
}

/// The list, or C#'s `NullReferenceException` (a panic) for a null one.
#[track_caller]
fn non_null(list: &PieceList) -> &PieceList {
    assert!(
        !list.is_null(),
        "NullReferenceException: a null PieceList (GetPieceList of PieceType.None)"
    );
    list
}

/// `BitboardHelper.GetSliderAttacks(type, square, blockers)`: a rook's, bishop's or
/// queen's attacks, 0 for any other type (as C#'s).
///
/// ```
/// use framework::prelude::*;
/// assert_eq!(cs::slider_attacks(cs::KNIGHT, Square::A1, 0), 0);
/// assert_eq!(cs::slider_attacks(cs::ROOK, Square::A1, !0), Square::A2.bitboard().0 | Square::B1.bitboard().0);
/// ```
///
/// A slider's square off the board panics, as C#'s table read throws
/// `IndexOutOfRangeException`; the other types never read the square.
#[track_caller]
pub fn slider_attacks(piece_type: i32, square: Square, blockers: u64) -> u64 {
    match piece_type {
        BISHOP | ROOK | QUEEN => {
            let square = super::on_board(square);
            crate::chess::slider_attacks(self::piece_type(piece_type), square, blockers).0
        }
        _ => 0,
    }
}

/// `BitboardHelper.GetPieceAttacks(type, square, blockers, white)`: 0 for `None` (and
/// numbers C# has no piece for); a square off the board panics for a piece, as C#'s
/// table read throws.
#[track_caller]
pub fn piece_attacks(piece_type: i32, square: Square, blockers: u64, white: bool) -> u64 {
    match piece_type {
        PAWN => pawn_attacks(super::on_board(square), white).0,
        KNIGHT => knight_attacks(super::on_board(square)).0,
        KING => king_attacks(super::on_board(square)).0,
        _ => slider_attacks(piece_type, square, blockers),
    }
}

/// `BitboardHelper.ClearAndGetIndexOfLSB(ref bb)`: the index of the lowest set bit,
/// cleared; 64 for an empty bitboard (C#'s `BitOperations.TrailingZeroCount`).
// Hidden from rustdoc: its name is the C# name spelled in Rust, so the docs' search would
// rank it above `Bitboard::pop_lsb`, the member a bot written by hand uses; ports call it.
#[doc(hidden)]
pub fn clear_and_get_index_of_lsb(bitboard: &mut u64) -> i32 {
    let index = bitboard.trailing_zeros() as i32;
    *bitboard &= bitboard.wrapping_sub(1);
    index
}

/// `move.RawValue`: C#'s 16-bit encoding of a move, start square | target square << 6 |
/// flag << 12 (flags: en passant 1, castling 2, a pawn's double step 3, promotion to a
/// queen 4, knight 5, rook 6, bishop 7). The kit's [`Move::raw`](crate::chess::Move::raw)
/// packs other bits, and its low 16 lack the target square: C# bots key tables and compare
/// hash moves by this value.
///
/// ```
/// use framework::prelude::*;
/// let board = Board::startpos();
/// let m = board.parse_uci("g1f3").unwrap();
/// assert_eq!(cs::raw_value(m), 6 | 21 << 6);
/// assert_eq!(cs::raw_value(board.parse_uci("e2e4").unwrap()), 12 | 28 << 6 | 3 << 12);
/// let b = Board::from_fen("r3k3/1P6/8/8/8/8/8/4K2R w K - 0 1").unwrap();
/// assert_eq!(cs::raw_value(b.parse_uci("e1g1").unwrap()), 4 | 6 << 6 | 2 << 12);
/// assert_eq!(cs::raw_value(b.parse_uci("b7a8n").unwrap()), 49 | 56 << 6 | 5 << 12);
/// assert_eq!(cs::raw_value(Move::NULL), 0);
/// ```
pub fn raw_value(m: crate::chess::Move) -> u16 {
    let flag = match m.promotion() {
        Some(PieceType::Queen) => 4,
        Some(PieceType::Knight) => 5,
        Some(PieceType::Rook) => 6,
        Some(_) => 7,
        None if m.is_en_passant() => 1,
        None if m.is_castle() => 2,
        None if m.piece() == PieceType::Pawn && m.from().index().abs_diff(m.to().index()) == 16 => {
            3
        }
        None => 0,
    };
    (m.from().index() | m.to().index() << 6 | flag << 12) as u16
}

/// A C# `char`'s text (`c.ToString()`, `"a" + c`): the UTF-16 unit as a character.
pub fn char_to_string(c: u16) -> String {
    String::from_utf16_lossy(&[c])
}

/// `Board.CreateBoardFromFEN(fen)`: a second board, the bot's own, at that position with
/// no history before it (C#'s too starts its repetition history and move list there).
/// Its loaded position is its search root: C#'s board takes `GameMoveHistory` and
/// `GameRepetitionHistory` when it is made, so moves made on it never join them.
/// Panics on a malformed FEN, as C#'s `LoadPosition` throws.
///
/// ```
/// use framework::prelude::*;
/// let mut board = Board::startpos();
/// let e4 = board.parse_uci("e2e4").unwrap();
/// board.make_move(e4);
/// let mut copy = cs::board_from_fen(&board.fen());
/// assert_eq!((copy.fen(), copy.ply_count()), (board.fen(), 1));
/// let e5 = copy.parse_uci("e7e5").unwrap();
/// copy.make_move(e5);
/// assert!(copy.root_history_moves().is_empty());
/// assert_eq!(copy.root_repetition_keys().len(), 1);
/// ```
#[track_caller]
pub fn board_from_fen(fen: &str) -> Board {
    let mut board =
        Board::from_fen(fen).unwrap_or_else(|e| panic!("a FEN the board cannot read: {e}"));
    board.mark_search_root();
    board
}

/// `new Move("e2e4", board)`: the move those squares and that board's pieces make, legal
/// or not (C#'s constructor checks nothing; an opening book then looks for it among the
/// legal moves). Panics on a malformed name.
///
/// ```
/// use framework::prelude::*;
/// let board = Board::startpos();
/// assert_eq!(cs::move_from_uci(&board, "e2e4"), board.parse_uci("e2e4").unwrap());
/// let illegal = cs::move_from_uci(&board, "e2e5");
/// assert_eq!((illegal.from(), illegal.to()), (Square::E2, Square::E5));
/// assert!(!board.legal_moves().contains(&illegal));
/// ```
#[track_caller]
pub fn move_from_uci(board: &Board, name: &str) -> crate::chess::Move {
    if let Ok(m) = board.parse_uci(name) {
        return m;
    }
    let square = |s: &str| {
        s.parse::<Square>()
            .unwrap_or_else(|_| panic!("a move name like e2e4, not {name:?}"))
    };
    let (from, to) = (
        square(name.get(0..2).unwrap_or("")),
        square(name.get(2..4).unwrap_or("")),
    );
    let promotion = name.chars().nth(4).and_then(PieceType::from_char);
    let piece = board
        .piece_at(from)
        .map_or(PieceType::Pawn, |p| p.piece_type());
    let captured = board.piece_at(to).map(|p| p.piece_type());
    let castle = piece == PieceType::King && (from.file() - to.file()).abs() == 2;
    let en_passant = piece == PieceType::Pawn && from.file() != to.file() && captured.is_none();
    let captured = if en_passant {
        Some(PieceType::Pawn)
    } else {
        captured
    };
    crate::chess::Move::new(from, to, piece, captured, promotion, en_passant, castle)
}

/// `BitboardHelper.SetSquare(ref bb, square)`. These four shift by the square's index,
/// and C#'s shift of a `ulong` counts only the low six bits: a square off the board
/// stands for the square of its index `& 63` (index -1 for h8), as there.
///
/// ```
/// use framework::prelude::*;
/// let mut bb = 0u64;
/// cs::set_square(&mut bb, cs::square(-1));
/// assert_eq!(bb, Square::H8.bitboard().0);
/// assert!(cs::square_is_set(bb, cs::square(63)));
/// ```
pub fn set_square(bitboard: &mut u64, square: Square) {
    *bitboard |= square.bitboard().0;
}

/// `BitboardHelper.ClearSquare(ref bb, square)`.
pub fn clear_square(bitboard: &mut u64, square: Square) {
    *bitboard &= !square.bitboard().0;
}

/// `BitboardHelper.ToggleSquare(ref bb, square)`.
pub fn toggle_square(bitboard: &mut u64, square: Square) {
    *bitboard ^= square.bitboard().0;
}

/// `BitboardHelper.SquareIsSet(bb, square)`.
pub fn square_is_set(bitboard: u64, square: Square) -> bool {
    bitboard & square.bitboard().0 != 0
}

/// `board.GetLegalMovesNonAlloc(ref moves, capturesOnly)`: writes the legal moves to the
/// start of `moves` and makes `moves` the span of them, as C#'s does.
///
/// ```
/// use framework::prelude::*;
/// let mut moves = cs::Array::<Move>::new(256); // Span<Move> moves = stackalloc Move[256];
/// cs::legal_moves_into(&Board::startpos(), &mut moves, false);
/// assert_eq!(moves.len(), 20);
/// ```
#[track_caller]
pub fn legal_moves_into(
    board: &Board,
    moves: &mut super::Array<crate::chess::Move>,
    captures_only: bool,
) {
    let list = board.moves(captures_only);
    for (i, m) in list.iter().enumerate() {
        moves.set(i, *m);
    }
    *moves = moves.slice(0, list.len());
}

/// `board.GameRepetitionHistory`: the keys of
/// [`Board::root_repetition_keys`](crate::chess::Board::root_repetition_keys), newest
/// first, as C#'s `Stack<ulong>.ToArray()` gives them: the handed position's key first.
///
/// ```
/// use framework::prelude::*;
/// let mut b = Board::startpos();
/// let mv = b.parse_uci("g1f3").unwrap();
/// b.make_move(mv);
/// let history = cs::game_repetition_history(&b);
/// assert_eq!(history.len(), 2);
/// assert_eq!(history.get(0), b.key());
/// ```
pub fn game_repetition_history(board: &Board) -> super::Array<u64> {
    let keys = board.root_repetition_keys();
    super::Array::from(keys.iter().rev().copied().collect::<Vec<u64>>())
}

/// `Buffer.GetByte(array, index)`: byte `index` of an `int` array's memory, little-endian
/// as .NET lays it out.
#[track_caller]
pub fn buffer_get_byte(array: &super::Array<i32>, index: i32) -> u8 {
    let i = usize::try_from(index).expect("index out of range");
    array.get(i / 4).to_le_bytes()[i % 4]
}

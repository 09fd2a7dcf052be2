//! The [`Board`]: a cozy-chess position plus the history cozy does not keep.

use std::fmt;
use std::str::FromStr;

use cozy_chess as cz;

use super::attacks::{to_cz_color, to_cz_sq};
use super::fen::{self, FenError};
use super::movegen::{self, from_cz_piece};
use super::{
    Bitboard, Color, DrawReason, Move, MoveError, MoveList, Outcome, Piece, PieceType, Square,
    bishop_attacks, king_attacks, knight_attacks, pawn_attacks, rook_attacks,
};

mod by_destination;
mod forced;
mod position;

pub(crate) use position::Position;

/// Zobrist keys for the en-passant file. cozy hashes the en-passant file after every
/// double push; the kit only hashes it when a capture is actually legal (FIDE's rule for
/// repetition), so it uses cozy's ep-free hash and its own file keys.
const EP_KEYS: [u64; 8] = {
    let mut keys = [0u64; 8];
    let mut state: u64 = 0x9E37_79B9_7F4A_7C15 ^ 0xC0FF_EE00_E9A5_5A17;
    let mut i = 0;
    while i < 8 {
        // splitmix64
        state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        keys[i] = z ^ (z >> 31);
        i += 1;
    }
    keys
};

/// Positions reserved at a time: by [`Board::clone`] up front, and by the first move
/// played on a board built from a FEN. A search never grows the stacks after that (the
/// longest game plus a deep search fits, and growth is amortised anyway).
const RESERVE: usize = 256;

// `push_position` copies positions bitwise and `undo_move` forgets them without dropping.
const _: () = assert!(!std::mem::needs_drop::<cz::Board>());

/// A chess position with its game history.
///
/// Built on cozy-chess's copy-make board: the board keeps a stack of every position of the
/// game, [`make_move`](Self::make_move) pushes a copy of the top and plays the move on it,
/// and [`undo_move`](Self::undo_move) pops. A [`clone`](Clone::clone) (the copy a bot
/// searches with) comes with room for 256 more positions, so neither allocates during a
/// search; a board built from a FEN holds just its position until the first move, so
/// stored boards (a parsed game's start) stay small.
///
/// The history covers the whole game, including moves the host played before handing the
/// board to a bot, so repetition detection and [`history_moves`](Self::history_moves) see them.
///
/// ```
/// use framework::prelude::*;
/// let mut board = Board::startpos();
/// let mv = board.parse_uci("e2e4").unwrap();
/// board.make_move(mv);
/// assert_eq!(board.fen(), "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1");
/// board.undo_move();
/// assert_eq!(board, Board::startpos());
/// ```
pub struct Board {
    /// Every position of the game, oldest first; the last is the current one. Never empty.
    /// cozy's boards carry a fifty-move counter capped at 100; the real one is derived
    /// from it (see `halfmove`), so positions need no field of their own for it.
    states: Vec<cz::Board>,
    /// Plies played before the starting FEN.
    start_ply: u32,
    /// The starting FEN's halfmove clock (cozy's first board holds it capped at 100).
    start_halfmove: u32,
    /// One key per position of the game, then one move per position after the first.
    /// Only these vectors' allocations are used: their own lengths stay 0, and the
    /// entries `..states.len()` and `..states.len() - 1` are initialised, so a move
    /// updates one length, not three (see [`history_keys`](Self::history_keys)).
    keys: Vec<u64>,
    moves: Vec<Move>,
    /// The stack length at which `push_position` leaves its straight path:
    /// `states.capacity()`, or 0 while a turn skipped in check is on the stack (see
    /// `forced`), so one comparison covers both and the hot path pays nothing for either.
    push_limit: usize,
    /// The indices in `states` of turns skipped in check ([`force_skip_turn`](Self::force_skip_turn)):
    /// positions cozy cannot hold, whose successors are rebuilt. Entries at or past
    /// `states.len()` were undone and are forgotten at the next push.
    forced: Vec<usize>,
    /// `states.len()` when the board was handed to a bot's `think`
    /// ([`mark_search_root`](Self::mark_search_root)), 0 for none: the one position at which
    /// [`is_repeated_position`](Self::is_repeated_position) ignores the game's history.
    search_root: usize,
}

impl PartialEq for Board {
    fn eq(&self, other: &Board) -> bool {
        self.states == other.states
            && self.start_ply == other.start_ply
            && self.start_halfmove == other.start_halfmove
            && self.history_keys() == other.history_keys()
            && self.history_moves() == other.history_moves()
    }
}

impl Eq for Board {}

impl Clone for Board {
    /// Clones keep a reserve of 256 positions, so a bot's copy does not allocate
    /// during its search.
    fn clone(&self) -> Self {
        let mut board = Board {
            states: Vec::new(),
            start_ply: self.start_ply,
            start_halfmove: self.start_halfmove,
            keys: Vec::new(),
            moves: Vec::new(),
            push_limit: 0,
            forced: self.live_forced().to_vec(),
            search_root: self.search_root,
        };
        board.reserve_stacks(self.states.len() + RESERVE);
        board.states.extend_from_slice(&self.states);
        board.keys.extend_from_slice(self.history_keys());
        board.moves.extend_from_slice(self.history_moves());
        // SAFETY: the entries just copied stay initialised; see `Board::keys`.
        unsafe {
            board.keys.set_len(0);
            board.moves.set_len(0);
        }
        board
    }
}

impl Default for Board {
    fn default() -> Self {
        Board::startpos()
    }
}

impl FromStr for Board {
    type Err = FenError;
    fn from_str(s: &str) -> Result<Board, FenError> {
        Board::from_fen(s)
    }
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Board({})", self.fen())
    }
}

/// Prints [`diagram`](Board::diagram).
impl fmt::Display for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.diagram())
    }
}

#[inline(always)]
fn from_cz_sq(sq: cz::Square) -> Square {
    Square::at(sq as u8)
}

#[inline(always)]
fn from_cz_color(c: cz::Color) -> Color {
    match c {
        cz::Color::White => Color::White,
        cz::Color::Black => Color::Black,
    }
}

/// The kit's Zobrist key of `b`: cozy's hash, with the en-passant file only when an
/// en-passant capture is legal (see [`Board::key`]).
#[inline(always)]
fn key_of(b: &cz::Board) -> u64 {
    match b.en_passant() {
        None => b.hash(),
        Some(file) => key_after_double_push(b, file),
    }
}

/// [`key_of`] after a double push onto `file`: cozy's hash without its en-passant file,
/// and the kit's own file key if a pawn beside the pushed one may take it en passant.
/// Most double pushes land beside no enemy pawn, which a table tells. Out of line and
/// a leaf in that common case, so the hot path of `make_move` keeps its registers.
/// Marked cold so that path, the move without en passant, falls straight through.
#[cold]
#[inline(never)]
fn key_after_double_push(b: &cz::Board, file: cz::File) -> u64 {
    let key = b.hash_without_ep();
    let stm = b.side_to_move();
    let capturers =
        BESIDE_PUSHED[stm as usize][file as usize] & b.colored_pieces(stm, cz::Piece::Pawn).0;
    if capturers == 0 {
        return key;
    }
    key_with_capturers(b, file, capturers, key)
}

/// The squares beside a pawn that just advanced two squares on each file, by the colour
/// of the side that may take it: where an en-passant capturer stands.
const BESIDE_PUSHED: [[u64; 8]; 2] = {
    let mut table = [[0; 8]; 2];
    let mut file = 0;
    while file < 8 {
        // White takes on the fifth rank (index 4), Black on the fourth (index 3).
        let beside = (1_u64 << file >> 1) | (1_u64 << file << 1 & 0xFF);
        table[0][file] = beside << 32;
        table[1][file] = beside << 24;
        file += 1;
    }
    table
};

/// [`key_after_double_push`] when pawns stand beside the pushed one: `key`, with the
/// file's key if one of `capturers` may take. Out of line: rare.
#[inline(never)]
fn key_with_capturers(b: &cz::Board, file: cz::File, capturers: u64, key: u64) -> u64 {
    let dest = cz::Square::new(file, cz::Rank::Sixth.relative_to(b.side_to_move()));
    if movegen::en_passant_capturers(b, capturers, dest) == 0 {
        return key;
    }
    key ^ EP_KEYS[file as usize]
}

impl Board {
    /// A board holding just `inner`. Nothing is reserved beyond it: boards that are only
    /// stored (a parsed game's start, say) stay small, while one that is played on grows
    /// its stacks in steps of [`RESERVE`] and a [`clone`](Clone::clone), the copy a bot
    /// searches with, comes with that reserve already made.
    fn from_inner(inner: cz::Board, halfmove: u32, start_ply: u32) -> Board {
        let mut keys = vec![key_of(&inner)];
        // SAFETY: the key stays initialised; see `Board::keys`.
        unsafe { keys.set_len(0) };
        Board {
            states: vec![inner],
            start_ply,
            start_halfmove: halfmove,
            keys,
            moves: Vec::new(),
            push_limit: 1,
            forced: Vec::new(),
            search_root: 0,
        }
    }

    /// The standard starting position.
    ///
    /// ```
    /// use framework::prelude::*;
    /// assert_eq!(Board::startpos().legal_moves().len(), 20);
    /// ```
    pub fn startpos() -> Board {
        Board::from_inner(cz::Board::startpos(), 0, 0)
    }

    /// Parses a FEN string. The halfmove clock and fullmove number may be omitted
    /// (as in EPD), defaulting to 0 and 1. Only standard-chess castling rights (`KQkq`)
    /// are accepted. Errors name the field at fault.
    ///
    /// ```
    /// use framework::prelude::*;
    /// let b = Board::from_fen("8/8/8/8/8/8/8/K6k w - - 0 1").unwrap();
    /// assert_eq!(b.king_square(Color::Black), Square::H1);
    /// assert!(matches!(Board::from_fen("8/8/8/8/8/8/8/K6k x - - 0 1"), Err(FenError::SideToMove(_))));
    /// ```
    #[doc(alias = "CreateBoardFromFEN")]
    pub fn from_fen(fen: &str) -> Result<Board, FenError> {
        let p = fen::parse(fen)?;
        Ok(Board::from_inner(p.inner, p.halfmove, p.start_ply))
    }

    /// The FEN of the position the board was created from, before any move of its history:
    /// C#'s `GameStartFenString`.
    ///
    /// ```
    /// use framework::prelude::*;
    /// let mut b = Board::startpos();
    /// let e4 = b.parse_uci("e2e4").unwrap();
    /// b.make_move(e4);
    /// assert_eq!(b.start_fen(), Board::startpos().fen());
    /// ```
    #[doc(alias = "GameStartFenString")]
    pub fn start_fen(&self) -> String {
        Board::from_inner(self.states[0].clone(), self.start_halfmove, self.start_ply).fen()
    }

    /// The position as FEN. The en-passant square is written after every double pawn
    /// push, as most tools do, whether or not a capture is possible (that possibility
    /// only matters to [`key`](Self::key)). The halfmove clock is the real one, even past 100.
    ///
    /// ```
    /// use framework::prelude::*;
    /// let fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 120 70";
    /// assert_eq!(Board::from_fen(fen).unwrap().fen(), fen);
    /// ```
    #[doc(alias = "GetFenString")]
    pub fn fen(&self) -> String {
        let mut s = String::with_capacity(90);
        for rank in (0..8).rev() {
            let mut empty = 0;
            for file in 0..8 {
                match self.piece_at(Square::new(file, rank)) {
                    None => empty += 1,
                    Some(p) => {
                        if empty > 0 {
                            s.push((b'0' + empty) as char);
                            empty = 0;
                        }
                        s.push(p.to_char());
                    }
                }
            }
            if empty > 0 {
                s.push((b'0' + empty) as char);
            }
            if rank > 0 {
                s.push('/');
            }
        }
        s.push_str(if self.is_white_to_move() {
            " w "
        } else {
            " b "
        });
        let before = s.len();
        for (color, short, c) in [
            (Color::White, true, 'K'),
            (Color::White, false, 'Q'),
            (Color::Black, true, 'k'),
            (Color::Black, false, 'q'),
        ] {
            let has = if short {
                self.has_kingside_castle_right(color)
            } else {
                self.has_queenside_castle_right(color)
            };
            if has {
                s.push(c);
            }
        }
        if s.len() == before {
            s.push('-');
        }
        s.push(' ');
        match self.en_passant_square() {
            Some(sq) => s.push_str(&sq.to_string()),
            None => s.push('-'),
        }
        s.push_str(&format!(" {} {}", self.halfmove(), self.fullmove_number()));
        s
    }

    /// A text diagram (rank 8 at the top, upper case for White) followed by the FEN and
    /// key, for debugging.
    ///
    /// ```
    /// use framework::prelude::*;
    /// assert!(Board::startpos().diagram().contains("r n b q k b n r"));
    /// ```
    #[doc(alias = "CreateDiagram")]
    pub fn diagram(&self) -> String {
        let mut s = String::new();
        for rank in (0..8).rev() {
            s.push_str(&format!("{} ", rank + 1));
            for file in 0..8 {
                let c = self
                    .piece_at(Square::new(file, rank))
                    .map_or('.', |p| p.to_char());
                s.push(' ');
                s.push(c);
            }
            s.push('\n');
        }
        s.push_str("   a b c d e f g h\n");
        s.push_str(&format!("FEN: {}\nKey: {:016x}\n", self.fen(), self.key()));
        s
    }

    // ----- move generation -----

    /// All legal moves, in a stack-allocated [`MoveList`].
    ///
    /// ```
    /// use framework::prelude::*;
    /// let b = Board::startpos();
    /// assert_eq!(b.legal_moves().iter().filter(|m| m.piece() == PieceType::Knight).count(), 4);
    /// ```
    #[doc(alias = "GetLegalMoves")]
    #[inline]
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.legal_moves_into(&mut list, false);
        list
    }

    /// The legal captures only, en passant included. Promotions are included only when
    /// they capture: a quiet promotion is not a capture (the C# challenge's meaning of
    /// "captures only"), so quiescence searches that want queening pushes must add them.
    ///
    /// ```
    /// use framework::prelude::*;
    /// let b = Board::from_fen("4k3/1P6/8/8/8/8/8/4K2r w - - 0 1").unwrap();
    /// assert!(b.captures().is_empty()); // b7b8q does not capture; nothing takes h1
    /// ```
    #[inline]
    pub fn captures(&self) -> MoveList {
        let mut list = MoveList::new();
        self.legal_moves_into(&mut list, true);
        list
    }

    /// The legal captures when `captures_only`, else all legal moves: C#'s
    /// `GetLegalMoves(capturesOnly)`, for a search that picks one or the other by a
    /// computed condition (a quiescence search that is also the main search). Nothing is
    /// allocated: the list is on the stack, as [`legal_moves`](Self::legal_moves)' is.
    ///
    /// ```
    /// use framework::prelude::*;
    /// let b = Board::from_fen("4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1").unwrap();
    /// let depth = 0;
    /// assert_eq!(b.moves(depth <= 0), b.captures());
    /// assert_eq!(b.moves(false), b.legal_moves());
    /// ```
    #[doc(alias = "GetLegalMoves")]
    #[inline]
    pub fn moves(&self, captures_only: bool) -> MoveList {
        let mut list = MoveList::new();
        self.legal_moves_into(&mut list, captures_only);
        list
    }

    /// Appends the legal moves (or only the captures, as in [`captures`](Self::captures))
    /// to `list` after clearing it. Lets a search reuse one buffer per ply.
    #[doc(alias = "GetLegalMovesNonAlloc")]
    #[inline]
    pub fn legal_moves_into(&self, list: &mut MoveList, captures_only: bool) {
        if self.push_limit == 0 {
            return self.legal_moves_near_forced(list, captures_only);
        }
        movegen::legal_moves_into(self.inner(), list, captures_only);
    }

    /// All legal moves in a heap-allocated `Vec`, for code that wants to own or store them.
    pub fn legal_moves_vec(&self) -> Vec<Move> {
        self.legal_moves().to_vec()
    }

    /// The number of legal moves, counted without listing them (much faster than
    /// `legal_moves().len()`; used by bulk-counting perft and handy for mobility).
    ///
    /// ```
    /// use framework::prelude::*;
    /// assert_eq!(Board::startpos().legal_move_count(), 20);
    /// ```
    #[inline]
    pub fn legal_move_count(&self) -> usize {
        if self.push_limit == 0 && self.is_forced_position() {
            return self.legal_moves().len();
        }
        let mut n = 0;
        self.inner().generate_moves(|pm| {
            n += pm.len();
            false
        });
        n
    }

    /// `true` if the side to move has at least one legal move.
    #[inline]
    pub fn has_legal_moves(&self) -> bool {
        if self.push_limit == 0 && self.is_forced_position() {
            return !self.legal_moves().is_empty();
        }
        self.inner().generate_moves(|_| true)
    }

    /// The full [`Move`] for `from`-`to`(-`promotion`) if that is legal here.
    /// Castling may be given king-to-destination (e1g1) or king-takes-rook (e1h1).
    fn build_move(&self, from: Square, to: Square, promotion: Option<PieceType>) -> Option<Move> {
        by_destination::build_move(self.inner(), from, to, promotion)
    }

    /// Parses a UCI move (`e2e4`, `e7e8q`) and checks it is legal here, filling in the
    /// piece information. Castling is accepted as `e1g1` or as king-takes-rook `e1h1`.
    ///
    /// ```
    /// use framework::prelude::*;
    /// let b = Board::from_fen("4k3/8/8/8/8/8/8/4K2R w K - 0 1").unwrap();
    /// assert_eq!(b.parse_uci("e1h1").unwrap(), b.parse_uci("e1g1").unwrap());
    /// assert!(b.parse_uci("e1g1").unwrap().is_castle());
    /// assert!(matches!(b.parse_uci("e2e4"), Err(MoveError::Illegal(_))));
    /// assert!(matches!(b.parse_uci("hello"), Err(MoveError::Syntax(_))));
    /// ```
    pub fn parse_uci(&self, s: &str) -> Result<Move, MoveError> {
        let syntax = || MoveError::Syntax(s.to_string());
        if !s.is_ascii() || !(4..=5).contains(&s.len()) {
            return Err(syntax());
        }
        let from: Square = s[0..2].parse().map_err(|_| syntax())?;
        let to: Square = s[2..4].parse().map_err(|_| syntax())?;
        let promotion = match s.as_bytes().get(4) {
            None => None,
            Some(&c) => match PieceType::from_char(c as char) {
                Some(
                    p
                    @ (PieceType::Knight | PieceType::Bishop | PieceType::Rook | PieceType::Queen),
                ) => Some(p),
                _ => return Err(syntax()),
            },
        };
        self.build_move(from, to, promotion)
            .filter(|&mv| self.push_limit != 0 || !self.takes_the_king(mv))
            .ok_or_else(|| MoveError::Illegal(s.to_string()))
    }

    /// `true` if `mv` is legal here *and* its piece information matches the position
    /// (so a move kept from another position, e.g. a stale transposition-table move, is
    /// rejected rather than played with wrong capture data).
    ///
    /// ```
    /// use framework::prelude::*;
    /// let b = Board::startpos();
    /// let mv = b.legal_moves()[0];
    /// assert!(b.is_legal(mv));
    /// assert!(!b.is_legal(Move::NULL));
    /// ```
    pub fn is_legal(&self, mv: Move) -> bool {
        if mv.is_null() || self.push_limit == 0 && self.takes_the_king(mv) {
            return false;
        }
        self.build_move(mv.from(), mv.to(), mv.promotion()) == Some(mv)
    }

    // ----- making and unmaking -----

    /// The current position.
    #[inline(always)]
    fn inner(&self) -> &cz::Board {
        match self.states.last() {
            Some(s) => s,
            None => unreachable!("Board::states is never empty"),
        }
    }

    /// Half-moves since the last capture or pawn move. cozy's counter is exact below
    /// 100 (it resets on the same moves and only stops counting at 100); past that the
    /// history tells.
    #[inline]
    fn halfmove(&self) -> u32 {
        let capped = u32::from(self.inner().halfmove_clock());
        if capped < 100 {
            capped
        } else {
            self.halfmove_past_cap()
        }
    }

    /// [`halfmove`](Self::halfmove) once cozy's counter has stopped: the moves since the
    /// last capture or pawn move (skipped turns count), or since the starting FEN's clock.
    #[cold]
    fn halfmove_past_cap(&self) -> u32 {
        let resets = |m: &Move| !m.is_null() && (m.piece() == PieceType::Pawn || m.is_capture());
        let moves = self.history_moves();
        match moves.iter().rposition(resets) {
            Some(i) => (moves.len() - 1 - i) as u32,
            None => self.start_halfmove + moves.len() as u32,
        }
    }

    /// Plays `mv`, which must be legal in this position (as every move from
    /// [`legal_moves`](Self::legal_moves) or [`parse_uci`](Self::parse_uci) is).
    /// Playing an illegal move is a logic error: the board may be corrupted or panic;
    /// use [`try_make_move`](Self::try_make_move) for untrusted input.
    #[doc(alias = "MakeMove")]
    #[inline(always)]
    pub fn make_move(&mut self, mv: Move) {
        debug_assert!(self.is_legal(mv), "illegal move {mv:?} in {}", self.fen());
        self.push_position(mv, move |top| top.play_unchecked(mv.to_cz()));
    }

    /// Pushes a copy of the current position, lets `play` turn it into the next one,
    /// and records its key and `mv`. One capacity check covers all three stacks.
    #[inline(always)]
    fn push_position(&mut self, mv: Move, play: impl FnOnce(&mut cz::Board)) {
        let n = self.states.len();
        if n >= self.push_limit {
            return self.push_position_slow(mv, play);
        }
        self.write_next(n, mv, play);
    }

    /// `push_position` off its straight path: the stacks are full, or a turn skipped in
    /// check is on the stack. Out of line and not merging back, so the straight path keeps
    /// its registers.
    #[cold]
    #[inline(never)]
    fn push_position_slow(&mut self, mv: Move, play: impl FnOnce(&mut cz::Board)) {
        if self.prepare_push() {
            self.push_after_forced(mv, play);
        } else {
            self.write_next(self.states.len(), mv, play);
        }
    }

    /// `push_position` once there is room for position `n` (`states.len()`): the copy,
    /// the move played on it, its key.
    #[inline(always)]
    fn write_next(&mut self, n: usize, mv: Move, play: impl FnOnce(&mut cz::Board)) {
        debug_assert_eq!(n, self.states.len());
        self.debug_check_stacks();
        // SAFETY: `n >= 1` (the stack is never empty) and, by the capacity invariant of
        // `reserve_stacks`, slot `n` of `states` and `keys` and slot `n - 1` of `moves`
        // are allocated; `states`' length covers all three (see `Board::keys`). `cz::Board` is plain data (bitboards and small integers; its
        // `Clone` is a field-wise copy and it has no `Drop`, checked below), as are `u64`
        // and `Move`, so writing them bitwise into spare capacity is what `push` would
        // do. The lengths are set last, so a panic in `play` leaves the board as it was.
        unsafe {
            // The move is stored first, so it need not be kept across `play`'s call.
            self.moves.as_mut_ptr().add(n - 1).write(mv);
            let states = self.states.as_mut_ptr();
            // Copy the top once, straight into the next slot, as cozy's own copy-make does.
            std::ptr::copy_nonoverlapping(states.add(n - 1), states.add(n), 1);
            let top = &mut *states.add(n);
            play(top);
            // The key first: it may call out, and nothing else need survive that call.
            let key = key_of(top);
            self.keys.as_mut_ptr().add(n).write(key);
            self.states.set_len(n + 1);
        }
    }

    /// Makes room for at least `additional` more positions in all three stacks at once,
    /// keeping the invariant `push_position` relies on to check only one capacity:
    /// `keys.capacity() >= states.capacity()` and `moves.capacity() + 1 >= states.capacity()`.
    #[cold]
    #[inline(never)]
    fn reserve_stacks(&mut self, additional: usize) {
        let n = self.states.len();
        self.states.reserve(additional);
        let cap = self.states.capacity();
        // Reallocation keeps a vector's elements, not its spare capacity, so the
        // initialised entries are counted in for the duration.
        // SAFETY: see `Board::keys`: entries `..n` and `..n - 1` are initialised.
        unsafe {
            self.keys.set_len(n);
            self.moves.set_len(n.saturating_sub(1));
        }
        self.keys.reserve(cap - n);
        self.moves.reserve(cap - n);
        // SAFETY: the entries stay initialised; see `Board::keys`.
        unsafe {
            self.keys.set_len(0);
            self.moves.set_len(0);
        }
        self.set_push_limit();
    }

    /// Makes room for one more position, and says whether the current position is a turn
    /// skipped in check (which the caller then plays from through
    /// [`push_after_forced`](Self::push_after_forced)).
    fn prepare_push(&mut self) -> bool {
        let live = self.live_forced().len();
        self.forced.truncate(live);
        if self.states.len() == self.states.capacity() {
            self.reserve_stacks(RESERVE);
        }
        self.set_push_limit();
        self.is_forced_position()
    }

    /// Keeps `push_limit` as its field's documentation says.
    fn set_push_limit(&mut self) {
        self.push_limit = if self.forced.is_empty() {
            self.states.capacity()
        } else {
            0
        };
    }

    /// The stacks' length and capacity invariants, checked in debug builds.
    #[inline(always)]
    fn debug_check_stacks(&self) {
        debug_assert!(!self.states.is_empty());
        debug_assert!(self.keys.is_empty() && self.moves.is_empty());
        debug_assert!(self.keys.capacity() >= self.states.capacity());
        debug_assert!(self.moves.capacity() + 1 >= self.states.capacity());
        debug_assert!(self.push_limit <= self.states.capacity());
    }

    /// Plays `mv` if it is legal (see [`is_legal`](Self::is_legal)); otherwise leaves the
    /// board unchanged and returns an error.
    pub fn try_make_move(&mut self, mv: Move) -> Result<(), MoveError> {
        if !self.is_legal(mv) {
            return Err(MoveError::Illegal(mv.to_string()));
        }
        self.make_move(mv);
        Ok(())
    }

    /// Takes back the last move or skipped turn, restoring the position, key, clocks and
    /// history exactly. Can undo moves played before the board was handed to a bot.
    ///
    /// # Panics
    /// If there is nothing to undo (the board is at the position it was created from).
    #[doc(alias = "UndoMove")]
    #[inline(always)]
    pub fn undo_move(&mut self) {
        let n = self.states.len() - 1;
        assert!(n > 0, "undo_move: no move to undo");
        self.debug_check_stacks();
        // SAFETY: `1 <= n < states.len()`; positions are plain data without `Drop`, so
        // forgetting the last one is sound. Keys and moves follow `states`' length.
        unsafe { self.states.set_len(n) };
    }

    /// Passes the turn (a null move, recorded as [`Move::NULL`]) and returns `true`, or
    /// refuses and returns `false` if the side to move is in check: C#'s `TrySkipTurn`.
    /// Counts as a half-move for the fifty-move counter and clears any en-passant
    /// possibility. [`force_skip_turn`](Self::force_skip_turn) passes in check too.
    ///
    /// ```
    /// use framework::prelude::*;
    /// let mut b = Board::startpos();
    /// assert!(b.skip_turn());
    /// assert!(!b.is_white_to_move());
    /// b.undo_skip_turn();
    /// assert_eq!(b, Board::startpos());
    /// ```
    #[doc(alias = "TrySkipTurn")]
    pub fn skip_turn(&mut self) -> bool {
        let Some(board) = self.inner().null_move() else {
            return false;
        };
        self.push_position(Move::NULL, |top| *top = board);
        true
    }

    /// Takes back a [`skip_turn`](Self::skip_turn).
    ///
    /// # Panics
    /// If the last thing played was not a skipped turn.
    #[doc(alias = "UndoSkipTurn")]
    pub fn undo_skip_turn(&mut self) {
        assert!(
            self.history_moves().last().is_some_and(|m| m.is_null()),
            "undo_skip_turn: last move was not a skipped turn"
        );
        self.undo_move();
        let live = self.live_forced().len();
        self.forced.truncate(live);
        self.set_push_limit();
    }

    // ----- game state -----

    /// `true` if the side to move is in check.
    #[doc(alias = "IsInCheck")]
    #[inline(always)]
    pub fn is_in_check(&self) -> bool {
        !self.inner().checkers().is_empty()
    }

    /// The pieces giving check to the side to move.
    #[inline(always)]
    pub fn checkers(&self) -> Bitboard {
        Bitboard(self.inner().checkers().0)
    }

    /// `true` if the side to move is checkmated.
    #[doc(alias = "IsInCheckmate")]
    pub fn is_checkmate(&self) -> bool {
        self.is_in_check() && !self.has_legal_moves()
    }

    /// `true` if the side to move is stalemated.
    #[doc(alias = "IsInStalemate")]
    pub fn is_stalemate(&self) -> bool {
        !self.is_in_check() && !self.has_legal_moves()
    }

    /// Search-time repetition test: `true` if the current position (same placement, side
    /// to move, castling rights and en-passant possibility, i.e. the same [`key`](Self::key))
    /// already occurred at least once since the last capture or pawn move. Bots use this to
    /// score a repetition as a draw early, as the C# challenge's `IsRepeatedPosition` does.
    /// The arbiter only rules a draw at the third occurrence ([`draw_reason`](Self::draw_reason)).
    ///
    /// ```
    /// use framework::prelude::*;
    /// let mut b = Board::startpos();
    /// for m in ["g1f3", "g8f6", "f3g1", "f6g8"] {
    ///     let mv = b.parse_uci(m).unwrap();
    ///     b.make_move(mv);
    /// }
    /// assert!(b.is_repeated_position());
    /// assert!(!b.is_drawn()); // only the second occurrence
    /// ```
    ///
    /// As in C#, the position a bot's `think` is handed is never a repetition, even if the
    /// game has been there before ([`mark_search_root`](Self::mark_search_root)): a search
    /// must still find a move there. Every position the search reaches, the handed one
    /// among them, counts again from the next ply on.
    #[doc(alias = "IsRepeatedPosition")]
    #[inline]
    pub fn is_repeated_position(&self) -> bool {
        self.states.len() != self.search_root && self.repetitions(1)
    }

    /// Marks the current position as the root of a search: the host calls it on the board
    /// it hands to [`Bot::think`](crate::bot::Bot::think), as C#'s `Board` leaves the handed
    /// position out of its repetition history. At that position
    /// [`is_repeated_position`](Self::is_repeated_position) and
    /// [`is_search_draw`](Self::is_search_draw) ignore earlier visits, so a bot that
    /// scores repetitions as draws still searches its root. Call it to run `think`
    /// yourself as a game does. The arbiter's rulings ([`is_drawn`](Self::is_drawn)) never
    /// depend on it.
    ///
    /// ```
    /// use framework::prelude::*;
    /// let mut b = Board::startpos();
    /// for m in ["g1f3", "g8f6", "f3g1", "f6g8"] {
    ///     let mv = b.parse_uci(m).unwrap();
    ///     b.make_move(mv);
    /// }
    /// b.mark_search_root();
    /// assert!(!b.is_repeated_position()); // the root: the bot must still move
    /// for m in ["g1f3", "g8f6"] {
    ///     let mv = b.parse_uci(m).unwrap();
    ///     b.make_move(mv);
    /// }
    /// assert!(b.is_repeated_position()); // seen in the game before: a draw to a search
    /// ```
    pub fn mark_search_root(&mut self) {
        self.search_root = self.states.len();
    }

    /// `true` if the current position occurred at least `times` times before, looking back
    /// no further than the last irreversible move.
    #[inline]
    fn repetitions(&self, times: usize) -> bool {
        let keys = self.history_keys();
        let n = keys.len();
        let cur = keys[n - 1];
        let window = (self.halfmove() as usize).min(n - 1);
        let mut seen = 0;
        // Same side to move means an even distance; two skipped turns can repeat in 2 plies.
        let mut back = 2;
        while back <= window {
            if keys[n - 1 - back] == cur {
                seen += 1;
                if seen >= times {
                    return true;
                }
            }
            back += 2;
        }
        false
    }

    /// `true` if the current position is on the board for at least the third time
    /// (FIDE threefold repetition, automatically applied by the arbiter).
    pub fn is_threefold_repetition(&self) -> bool {
        self.repetitions(2)
    }

    /// `true` once 100 half-moves have passed without a capture or pawn move. Note that a
    /// checkmate on the 100th half-move still wins: [`outcome`](Self::outcome) checks mate first.
    #[doc(alias = "IsFiftyMoveDraw")]
    #[inline]
    pub fn is_fifty_move_draw(&self) -> bool {
        self.inner().halfmove_clock() >= 100
    }

    /// `true` if neither side has mating material, with the C# challenge's rules: no pawns,
    /// rooks or queens, and either at most one minor piece in total, or exactly one bishop
    /// each on same-coloured squares.
    ///
    /// ```
    /// use framework::prelude::*;
    /// assert!(Board::from_fen("8/8/4k3/8/8/3NK3/8/8 w - - 0 1").unwrap().is_insufficient_material());
    /// assert!(!Board::from_fen("8/8/4k3/8/8/2NNK3/8/8 w - - 0 1").unwrap().is_insufficient_material());
    /// ```
    #[doc(alias = "IsInsufficientMaterial")]
    pub fn is_insufficient_material(&self) -> bool {
        let b = self.inner();
        if !(b.pieces(cz::Piece::Pawn) | b.pieces(cz::Piece::Rook) | b.pieces(cz::Piece::Queen))
            .is_empty()
        {
            return false;
        }
        let minors = (b.pieces(cz::Piece::Knight) | b.pieces(cz::Piece::Bishop)).len();
        if minors <= 1 {
            return true;
        }
        let wb = b.colored_pieces(cz::Color::White, cz::Piece::Bishop);
        let bb = b.colored_pieces(cz::Color::Black, cz::Piece::Bishop);
        if minors == 2 && wb.len() == 1 && bb.len() == 1 {
            let light = Bitboard::LIGHT_SQUARES.0;
            return (wb.0 & light != 0) == (bb.0 & light != 0);
        }
        false
    }

    /// The arbiter's draw ruling, if the game is drawn: stalemate, the fifty-move rule,
    /// threefold repetition ([`is_threefold_repetition`](Self::is_threefold_repetition), not
    /// the search-time [`is_repeated_position`](Self::is_repeated_position)) or insufficient
    /// material, checked in that order. `None` if the side to move is checkmated, even on
    /// the 100th half-move.
    pub fn draw_reason(&self) -> Option<DrawReason> {
        let has_moves = self.has_legal_moves();
        if !has_moves {
            return if self.is_in_check() {
                None
            } else {
                Some(DrawReason::Stalemate)
            };
        }
        if self.is_fifty_move_draw() {
            Some(DrawReason::FiftyMove)
        } else if self.is_threefold_repetition() {
            Some(DrawReason::Repetition)
        } else if self.is_insufficient_material() {
            Some(DrawReason::InsufficientMaterial)
        } else {
            None
        }
    }

    /// `true` if the arbiter rules the game drawn (see [`draw_reason`](Self::draw_reason)):
    /// a position on the board for the **third** time, and the rest.
    ///
    /// **Not C#'s `IsDraw()`**, which is already true at the first repetition; that one is
    /// [`is_search_draw`](Self::is_search_draw), what a search should score as a draw. (The
    /// kit called this one `is_draw` before 0.2: rustdoc's search put it first for C#'s
    /// `IsDraw`, the member it is not.)
    ///
    /// ```
    /// use framework::prelude::*;
    /// let mut b = Board::startpos();
    /// for m in ["g1f3", "g8f6", "f3g1", "f6g8"] {
    ///     let mv = b.parse_uci(m).unwrap();
    ///     b.make_move(mv);
    /// }
    /// assert!(!b.is_drawn()); // the start position's second time: the game goes on
    /// assert!(b.is_search_draw()); // but a search scores it as a draw
    /// ```
    pub fn is_drawn(&self) -> bool {
        self.draw_reason().is_some()
    }

    /// C#'s `IsDraw()`: `true` if the position is drawn for a search's purposes: the
    /// fifty-move rule, insufficient material, stalemate, or a position that has occurred
    /// **once** before ([`is_repeated_position`](Self::is_repeated_position)): repeating
    /// gains nothing, so a search scores it as a draw without waiting for the third time.
    /// The arbiter's ruling, which waits, is [`is_drawn`](Self::is_drawn).
    ///
    /// ```
    /// use framework::prelude::*;
    /// assert!(Board::from_fen("8/8/4k3/8/8/3NK3/8/8 w - - 0 1").unwrap().is_search_draw());
    /// assert!(Board::from_fen("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1").unwrap().is_search_draw()); // stalemate
    /// assert!(!Board::startpos().is_search_draw());
    /// ```
    #[doc(alias = "IsDraw")]
    pub fn is_search_draw(&self) -> bool {
        self.is_fifty_move_draw()
            || self.is_insufficient_material()
            || self.is_repeated_position()
            || self.is_stalemate()
    }

    /// The arbiter's ruling: `Some` once the game is over (checkmate first, then the draws
    /// of [`draw_reason`](Self::draw_reason)), `None` while it goes on.
    pub fn outcome(&self) -> Option<Outcome> {
        if self.is_checkmate() {
            return Some(Outcome::Checkmate {
                winner: !self.side_to_move(),
            });
        }
        self.draw_reason().map(Outcome::Draw)
    }

    // ----- queries -----

    /// The side to move.
    #[inline(always)]
    pub fn side_to_move(&self) -> Color {
        from_cz_color(self.inner().side_to_move())
    }

    /// `true` if White is to move.
    #[doc(alias = "IsWhiteToMove")]
    #[inline(always)]
    pub fn is_white_to_move(&self) -> bool {
        self.inner().side_to_move() == cz::Color::White
    }

    /// `true` if `color` may still castle kingside (the right, not whether it is legal now).
    /// `color` may be a `bool` (`true` is White), as C#'s `white` parameter.
    #[doc(alias = "HasKingsideCastleRight")]
    #[inline]
    pub fn has_kingside_castle_right(&self, color: impl Into<Color>) -> bool {
        self.inner()
            .castle_rights(to_cz_color(color.into()))
            .short
            .is_some()
    }

    /// `true` if `color` may still castle queenside (the right, not whether it is legal now).
    /// `color` may be a `bool` (`true` is White).
    #[doc(alias = "HasQueensideCastleRight")]
    #[inline]
    pub fn has_queenside_castle_right(&self, color: impl Into<Color>) -> bool {
        self.inner()
            .castle_rights(to_cz_color(color.into()))
            .long
            .is_some()
    }

    /// The square behind a pawn that just advanced two squares, as FEN writes it, whether or
    /// not an en-passant capture is possible.
    #[inline]
    pub fn en_passant_square(&self) -> Option<Square> {
        let stm = self.inner().side_to_move();
        self.inner()
            .en_passant()
            .map(|f| from_cz_sq(cz::Square::new(f, cz::Rank::Sixth.relative_to(stm))))
    }

    /// The square of `color`'s king. `color` may be a `bool` (`true` is White), as C#'s
    /// `GetKingSquare(white)` takes.
    ///
    /// ```
    /// use framework::prelude::*;
    /// let board = Board::startpos();
    /// assert_eq!(board.king_square(Color::White), Square::E1);
    /// assert_eq!(board.king_square(!board.is_white_to_move()), Square::E8);
    /// ```
    #[doc(alias = "GetKingSquare")]
    #[inline(always)]
    pub fn king_square(&self, color: impl Into<Color>) -> Square {
        from_cz_sq(self.inner().king(to_cz_color(color.into())))
    }

    /// The piece on `sq`, if any.
    ///
    /// ```
    /// use framework::prelude::*;
    /// assert_eq!(Board::startpos().piece_at(Square::D8), Some(Piece::new(PieceType::Queen, Color::Black)));
    /// ```
    #[doc(alias = "GetPiece")]
    #[inline]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        let s = to_cz_sq(sq);
        let color = self.inner().color_on(s)?;
        let p = self.inner().piece_on(s)?;
        Some(Piece::new(from_cz_piece(p), from_cz_color(color)))
    }

    /// The squares of `color`'s pieces of type `piece_type`. `color` may be a `bool` (`true`
    /// is White), as C#'s `GetPieceBitboard(type, white)` takes.
    ///
    /// ```
    /// use framework::prelude::*;
    /// assert_eq!(Board::startpos().pieces(PieceType::Pawn, Color::White), Bitboard::of_rank(1));
    /// assert_eq!(Board::startpos().pieces(PieceType::Pawn, false), Bitboard::of_rank(6));
    /// ```
    #[doc(alias = "GetPieceBitboard")]
    #[inline(always)]
    pub fn pieces(&self, piece_type: PieceType, color: impl Into<Color>) -> Bitboard {
        Bitboard(
            self.inner()
                .colored_pieces(to_cz_color(color.into()), fen::to_cz_piece(piece_type))
                .0,
        )
    }

    /// The squares of all pieces of type `piece_type`, both colours.
    #[inline(always)]
    pub fn pieces_of_type(&self, piece_type: PieceType) -> Bitboard {
        Bitboard(self.inner().pieces(fen::to_cz_piece(piece_type)).0)
    }

    /// The squares of all of `color`'s pieces (`color` may be a `bool`, `true` for White).
    #[inline(always)]
    pub fn color_bitboard(&self, color: impl Into<Color>) -> Bitboard {
        Bitboard(self.inner().colors(to_cz_color(color.into())).0)
    }

    /// The squares of White's pieces.
    #[doc(alias = "WhitePiecesBitboard")]
    #[inline(always)]
    pub fn white(&self) -> Bitboard {
        self.color_bitboard(Color::White)
    }

    /// The squares of Black's pieces.
    #[doc(alias = "BlackPiecesBitboard")]
    #[inline(always)]
    pub fn black(&self) -> Bitboard {
        self.color_bitboard(Color::Black)
    }

    /// All occupied squares.
    #[doc(alias = "AllPiecesBitboard")]
    #[inline(always)]
    pub fn occupied(&self) -> Bitboard {
        Bitboard(self.inner().occupied().0)
    }

    /// `color`'s pieces that attack `sq` in the current occupancy (pawns by their capture
    /// direction; pinned pieces count, as they still give check). `color` may be a `bool`.
    #[inline]
    pub fn attackers_to(&self, sq: Square, color: impl Into<Color>) -> Bitboard {
        let color = color.into();
        let occ = self.occupied();
        let them = self.color_bitboard(color);
        let b = |p| self.pieces_of_type(p);
        let diag = b(PieceType::Bishop) | b(PieceType::Queen);
        let orth = b(PieceType::Rook) | b(PieceType::Queen);
        them & ((pawn_attacks(sq, !color) & b(PieceType::Pawn))
            | (knight_attacks(sq) & b(PieceType::Knight))
            | (king_attacks(sq) & b(PieceType::King))
            | (bishop_attacks(sq, occ) & diag)
            | (rook_attacks(sq, occ) & orth))
    }

    /// `true` if any of `color`'s pieces attacks `sq` (`color` may be a `bool`).
    #[inline]
    pub fn is_attacked_by(&self, sq: Square, color: impl Into<Color>) -> bool {
        !self.attackers_to(sq, color).is_empty()
    }

    /// `true` if the opponent of the side to move attacks `sq`.
    ///
    /// ```
    /// use framework::prelude::*;
    /// let b = Board::startpos();
    /// assert!(b.is_square_attacked(Square::F6));
    /// assert!(!b.is_square_attacked(Square::E4));
    /// ```
    #[doc(alias = "SquareIsAttackedByOpponent")]
    #[inline]
    pub fn is_square_attacked(&self, sq: Square) -> bool {
        self.is_attacked_by(sq, !self.side_to_move())
    }

    /// The Zobrist key of the position, updated incrementally. Two positions have equal
    /// keys exactly when FIDE counts them as the same for repetition: same placement, side
    /// to move, castling rights, and en-passant square *only if* an en-passant capture is
    /// legal. Clocks are not included.
    ///
    /// ```
    /// use framework::prelude::*;
    /// // After 1.e4 no black pawn can take en passant, so the e3 square does not count.
    /// let a = Board::from_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1").unwrap();
    /// let b = Board::from_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1").unwrap();
    /// assert_eq!(a.key(), b.key());
    /// ```
    #[doc(alias = "ZobristKey")]
    #[inline(always)]
    pub fn key(&self) -> u64 {
        let keys = self.history_keys();
        keys[keys.len() - 1]
    }

    /// The keys of every position of the game, oldest first: the starting position's,
    /// then one per move or skipped turn; the last is [`key`](Self::key).
    #[inline(always)]
    pub fn history_keys(&self) -> &[u64] {
        // SAFETY: the first `states.len()` keys are initialised (see `Board::keys`).
        unsafe { std::slice::from_raw_parts(self.keys.as_ptr(), self.states.len()) }
    }

    /// The keys C#'s `GameRepetitionHistory` holds, oldest first: the positions from the
    /// one after the game's last capture or pawn move (or the starting position) to the
    /// search root ([`mark_search_root`](Self::mark_search_root)) included; with no root
    /// marked, to the current position. Moves a search makes after the root are not in
    /// it, as C# takes the array when it hands the board to `Think`; a FEN's halfmove
    /// clock does not shorten it, as C# starts its history at the loaded position.
    ///
    /// ```
    /// use framework::prelude::*;
    /// let mut b = Board::startpos();
    /// for m in ["e2e4", "g8f6", "g1f3"] {
    ///     let mv = b.parse_uci(m).unwrap();
    ///     b.make_move(mv);
    /// }
    /// b.mark_search_root();
    /// let mv = b.parse_uci("f6g8").unwrap();
    /// b.make_move(mv);
    /// assert_eq!(b.root_repetition_keys(), &b.history_keys()[1..4]);
    /// ```
    #[doc(alias = "GameRepetitionHistory")]
    pub fn root_repetition_keys(&self) -> &[u64] {
        let end = self.positions_to_root();
        // The move that made position `i + 1` is `moves[i]`; a reset one starts afresh.
        let resets = |m: &Move| !m.is_null() && (m.piece() == PieceType::Pawn || m.is_capture());
        let start = self.history_moves()[..end - 1]
            .iter()
            .rposition(resets)
            .map_or(0, |i| i + 1);
        &self.history_keys()[start..end]
    }

    /// The moves C#'s `GameMoveHistory` holds, oldest first: those of the game up to the
    /// search root ([`mark_search_root`](Self::mark_search_root)); with no root marked,
    /// every move since the board was created. Moves a search makes after the root are not
    /// in it, as C# takes the array when it hands the board to `Think`: a bot that times
    /// its search by the game's length reads the same length at every depth.
    ///
    /// ```
    /// use framework::prelude::*;
    /// let mut b = Board::startpos();
    /// for m in ["e2e4", "e7e5"] {
    ///     let mv = b.parse_uci(m).unwrap();
    ///     b.make_move(mv);
    /// }
    /// b.mark_search_root();
    /// let mv = b.parse_uci("g1f3").unwrap();
    /// b.make_move(mv);
    /// assert_eq!(b.root_history_moves(), &b.history_moves()[..2]);
    /// assert_eq!(b.history_moves().len(), 3);
    /// ```
    #[doc(alias = "GameMoveHistory")]
    pub fn root_history_moves(&self) -> &[Move] {
        &self.history_moves()[..self.positions_to_root() - 1]
    }

    /// The positions of the game up to the search root, the root included; with no root
    /// marked, up to the current position.
    fn positions_to_root(&self) -> usize {
        if self.search_root == 0 {
            self.states.len()
        } else {
            self.search_root
        }
    }

    /// Every move of the game since the board was created from its FEN (including those
    /// the host played before the bot got the board, and those a search has made since),
    /// oldest first; skipped turns appear as [`Move::NULL`]. C#'s `GameMoveHistory` stops
    /// at the search root: [`root_history_moves`](Self::root_history_moves).
    #[inline(always)]
    pub fn history_moves(&self) -> &[Move] {
        // SAFETY: the first `states.len() - 1` moves are initialised (see `Board::keys`).
        unsafe { std::slice::from_raw_parts(self.moves.as_ptr(), self.states.len() - 1) }
    }

    /// Half-moves played in the game: those implied by the starting FEN's fullmove number
    /// and side to move, `(fullmove - 1) * 2 + (1 if Black)`, plus those made since.
    ///
    /// ```
    /// use framework::prelude::*;
    /// let b = Board::from_fen("4k3/8/8/8/8/8/8/4K3 b - - 0 10").unwrap();
    /// assert_eq!(b.ply_count(), 19);
    /// ```
    #[doc(alias = "PlyCount")]
    #[inline(always)]
    pub fn ply_count(&self) -> i32 {
        (self.start_ply + (self.states.len() - 1) as u32) as i32
    }

    /// Half-moves since the last capture or pawn move (not capped at 100): C#'s
    /// `FiftyMoveCounter`, an `i32` as there.
    #[doc(alias = "FiftyMoveCounter")]
    #[inline(always)]
    pub fn fifty_move_counter(&self) -> i32 {
        self.halfmove() as i32
    }

    /// The FEN fullmove number: 1 at the start, incremented after each Black move.
    #[inline(always)]
    pub fn fullmove_number(&self) -> i32 {
        self.ply_count() / 2 + 1
    }
}

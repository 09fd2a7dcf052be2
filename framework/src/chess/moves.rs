//! Moves and fixed-capacity move lists.

use std::fmt;
use std::mem::MaybeUninit;
use std::ops::{Deref, DerefMut};

use cozy_chess as cz;
use thiserror::Error;

use super::{PieceType, Square};

/// A move, packed into 32 bits with everything a bot usually asks about it:
/// from and to squares, the moving piece, the captured piece, the promotion and
/// the en-passant and castling flags.
///
/// Castling is written king-to-destination (`e1g1`, `e1c1`), as in UCI for standard chess.
/// Moves are created by the [`Board`](super::Board) (by generation or
/// [`parse_uci`](super::Board::parse_uci)), since the piece information needs the position.
///
/// ```
/// use framework::prelude::*;
/// let board = Board::startpos();
/// let mv = board.parse_uci("g1f3").unwrap();
/// assert_eq!(mv.from(), Square::G1);
/// assert_eq!(mv.piece(), PieceType::Knight);
/// assert!(!mv.is_capture());
/// assert_eq!(mv.to_string(), "g1f3");
/// assert_eq!(Move::NULL.to_string(), "0000");
/// ```
///
/// Moves are ordered by their raw value (an arbitrary but fixed order), so a
/// bot can sort or take the maximum of `(score, move)` tuples:
///
/// ```
/// use framework::prelude::*;
/// let board = Board::startpos();
/// let best = board.legal_moves().iter().map(|&m| (m.to().rank(), m)).max();
/// assert_eq!(best.unwrap().0, 3);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Move(u32);

// A move's three low bytes hold cozy-chess's move fields, each at the byte offset rustc
// gives it in cozy's `Move`: the origin and destination as square indices, and the
// promotion as a `PieceType` index (0 for none) in the low bits of its byte. So
// `Move::to_cz`, which runs on every move a search makes, masks and reinterprets instead
// of building cozy's move field by field. The kit's own fields fill the rest.
const FROM_SHIFT: u32 = 8 * std::mem::offset_of!(cz::Move, from) as u32;
const TO_SHIFT: u32 = 8 * std::mem::offset_of!(cz::Move, to) as u32;
const PROMO_SHIFT: u32 = 8 * std::mem::offset_of!(cz::Move, promotion) as u32;
const EP_BIT: u32 = 1 << (PROMO_SHIFT + 3);
const PIECE_SHIFT: u32 = 24;
const CAPTURED_SHIFT: u32 = 27;
/// Castling stores what turns the king's destination into its rook's square (cozy's
/// destination) by XOR on the file bits: 1 for g -> h, 2 for c -> a; 0 for other moves.
const CASTLE_SHIFT: u32 = 30;
const CASTLE_MASK: u32 = 3 << CASTLE_SHIFT;
/// Every bit a move made by the board can have set.
const VALID_BITS: u32 = !(3 << (FROM_SHIFT + 6) | 3 << (TO_SHIFT + 6) | 0xF0 << PROMO_SHIFT);

// The three fields take the three low bytes, in some order.
const _: () = assert!(std::mem::size_of::<cz::Move>() == 3);
const _: () =
    assert!(FROM_SHIFT | TO_SHIFT | PROMO_SHIFT == 24 && FROM_SHIFT ^ TO_SHIFT ^ PROMO_SHIFT == 24);

/// The byte rustc stores for each promotion code (a `PieceType` index, 0 for none) in
/// cozy's move: what [`Move::to_cz`] writes in its promotion byte.
// SAFETY: `Option<cz::Piece>` is one byte without padding (transmute checks the size),
// so reading a valid value's byte is sound.
const CZ_PROMOTION_BYTES: [u8; 8] = unsafe {
    use std::mem::transmute;
    let none = transmute::<Option<cz::Piece>, u8>(None);
    [
        none,
        transmute::<Option<cz::Piece>, u8>(Some(cz::Piece::Knight)),
        transmute::<Option<cz::Piece>, u8>(Some(cz::Piece::Bishop)),
        transmute::<Option<cz::Piece>, u8>(Some(cz::Piece::Rook)),
        transmute::<Option<cz::Piece>, u8>(Some(cz::Piece::Queen)),
        none,
        none,
        none,
    ]
};

/// The bits of cozy's two squares in a `Move` (and in the word `to_cz` builds).
const CZ_SQUARE_BITS: u32 = 63 << FROM_SHIFT | 63 << TO_SHIFT;

// `to_cz` writes square indices below 64 as cozy's squares' bytes: each must be the
// byte of the square with that index. Checked for every index, whatever rustc does.
const _: () = {
    let mut i = 0;
    while i < 64 {
        // SAFETY: `cz::Square` is one byte without padding (transmute checks the size).
        let byte = unsafe { std::mem::transmute::<cz::Square, u8>(cz::Square::index_const(i)) };
        assert!(byte as usize == i);
        i += 1;
    }
};

impl Move {
    /// The null move ("0000"): what [`Board::skip_turn`](super::Board::skip_turn) records,
    /// and a convenient "no move" value.
    pub const NULL: Move = Move(0);

    /// Packs a move. `captured` is the piece taken (a pawn for en passant), `promotion`
    /// the piece a pawn becomes. Prefer getting moves from the board: it fills these in
    /// correctly.
    #[inline(always)]
    pub const fn new(
        from: Square,
        to: Square,
        piece: PieceType,
        captured: Option<PieceType>,
        promotion: Option<PieceType>,
        en_passant: bool,
        castle: bool,
    ) -> Move {
        let cap = match captured {
            Some(c) => c.index() as u32 + 1,
            None => 0,
        };
        let promo = match promotion {
            Some(p) => p.index() as u32,
            None => 0,
        };
        Move(
            (from.index() as u32) << FROM_SHIFT
                | (to.index() as u32) << TO_SHIFT
                | (piece.index() as u32) << PIECE_SHIFT
                | cap << CAPTURED_SHIFT
                | promo << PROMO_SHIFT
                | if en_passant { EP_BIT } else { 0 }
                | if !castle {
                    0
                } else if to.index() & 4 != 0 {
                    1 << CASTLE_SHIFT
                } else {
                    2 << CASTLE_SHIFT
                },
        )
    }

    /// The base of the moves of a `piece` on square index `from` (below 64), for
    /// [`with_destination`](Self::with_destination).
    #[inline(always)]
    pub(crate) const fn base(from: u32, piece: PieceType) -> Move {
        Move(from << FROM_SHIFT | (piece.index() as u32) << PIECE_SHIFT)
    }

    /// A [`base`](Self::base) move sent to square
    /// index `to`, capturing the piece whose `PieceType` index is `captured_code - 1`
    /// (0 for no capture). Lets move generation skip `new`'s option handling.
    #[inline(always)]
    pub(crate) const fn with_destination(self, to: u32, captured_code: u32) -> Move {
        Move(self.0 | to << TO_SHIFT | captured_code << CAPTURED_SHIFT)
    }

    /// The promotion as its `PieceType` index, 0 for none (a pawn never promotes to a
    /// pawn), always below 8: a table index for move conversion.
    #[inline(always)]
    pub(crate) const fn promotion_code(self) -> usize {
        (self.0 >> PROMO_SHIFT & 7) as usize
    }

    /// The raw bits with the destination replaced by cozy-chess's (castling is the king
    /// taking its own rook there).
    #[inline(always)]
    pub(crate) const fn cz_bits(self) -> u32 {
        self.0 ^ (self.0 >> (CASTLE_SHIFT - TO_SHIFT) & 3 << TO_SHIFT)
    }

    /// `true` unless the move castles or promotes: then cozy's move is the origin and
    /// destination of [`raw`](Self::raw) alone.
    #[inline(always)]
    pub(crate) const fn is_plain(self) -> bool {
        self.0 & (CASTLE_MASK | 7 << PROMO_SHIFT) == 0
    }

    /// cozy's form of the move. This runs on every move a search makes, so it is a mask
    /// and an OR for the common move (and a lookup more for castling and promotions):
    /// the bytes of cozy's move are assembled in a word and reinterpreted.
    #[inline(always)]
    pub(crate) fn to_cz(self) -> cz::Move {
        let word = if self.is_plain() {
            self.0 & CZ_SQUARE_BITS | (CZ_PROMOTION_BYTES[0] as u32) << PROMO_SHIFT
        } else {
            self.cz_bits() & CZ_SQUARE_BITS
                | (CZ_PROMOTION_BYTES[self.promotion_code()] as u32) << PROMO_SHIFT
        };
        let [a, b, c, _] = word.to_le_bytes();
        // SAFETY: cozy's move is three one-byte fields (checked above) at the byte
        // offsets the shifts come from. The origin and destination bytes are indices
        // below 64, each the byte of the square with that index (checked above for all
        // 64); the promotion byte is one of `CZ_PROMOTION_BYTES`, each a valid value's.
        unsafe { std::mem::transmute::<[u8; 3], cz::Move>([a, b, c]) }
    }

    /// The packed value, for transposition tables and killer slots.
    /// [`from_raw`](Self::from_raw) restores it.
    #[doc(alias = "RawValue")]
    #[inline(always)]
    pub const fn raw(self) -> u32 {
        self.0
    }

    /// Rebuilds a move from [`raw`](Self::raw). Values not produced by `raw` give
    /// meaningless moves; check them with [`Board::is_legal`](super::Board::is_legal).
    #[inline(always)]
    pub const fn from_raw(raw: u32) -> Move {
        Move(raw & VALID_BITS)
    }

    /// The square the piece leaves (the king's square for castling).
    #[doc(alias = "StartSquare")]
    #[inline(always)]
    pub const fn from(self) -> Square {
        Square::at((self.0 >> FROM_SHIFT & 63) as u8)
    }

    /// The square the piece lands on (g1/c1/g8/c8 for castling).
    #[doc(alias = "TargetSquare")]
    #[inline(always)]
    pub const fn to(self) -> Square {
        Square::at((self.0 >> TO_SHIFT & 63) as u8)
    }

    /// The type of the moving piece (a pawn for promotions, the king for castling).
    #[doc(alias = "MovePieceType")]
    #[inline(always)]
    pub const fn piece(self) -> PieceType {
        match PieceType::from_index((self.0 >> PIECE_SHIFT & 7) as usize) {
            Some(p) => p,
            None => PieceType::Pawn,
        }
    }

    /// The captured piece type, if any (a pawn for en passant).
    #[doc(alias = "CapturePieceType")]
    #[inline(always)]
    pub const fn captured(self) -> Option<PieceType> {
        let c = (self.0 >> CAPTURED_SHIFT & 7) as usize;
        if c == 0 {
            None
        } else {
            PieceType::from_index(c - 1)
        }
    }

    /// The promotion piece type, if this is a promotion.
    #[doc(alias = "PromotionPieceType")]
    #[inline(always)]
    pub const fn promotion(self) -> Option<PieceType> {
        let p = (self.0 >> PROMO_SHIFT & 7) as usize;
        if p == 0 {
            None
        } else {
            PieceType::from_index(p)
        }
    }

    /// The moving piece's C# number, pawn 1 … king 6 ([`PieceType::number`]): C#'s
    /// `(int)move.MovePieceType`.
    ///
    /// ```
    /// use framework::prelude::*;
    /// let mv = Board::startpos().parse_uci("g1f3").unwrap();
    /// assert_eq!(mv.piece_number(), 2);
    /// ```
    #[doc(alias = "MovePieceType")]
    #[inline(always)]
    pub const fn piece_number(self) -> usize {
        self.piece().number()
    }

    /// The captured piece's C# number, pawn 1 … queen 5, or 0 when the move captures
    /// nothing: C#'s `(int)move.CapturePieceType`, so a table of values indexed by it needs
    /// no `match` on an `Option` (a pawn for en passant).
    ///
    /// ```
    /// use framework::prelude::*;
    /// const VALUES: [i32; 7] = [0, 100, 300, 320, 500, 900, 0];
    /// let b = Board::from_fen("4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1").unwrap();
    /// let take = b.parse_uci("e4d5").unwrap();
    /// let push = b.parse_uci("e4e5").unwrap();
    /// assert_eq!((take.captured_number(), push.captured_number()), (1, 0));
    /// assert_eq!(VALUES[take.captured_number()] - VALUES[push.captured_number()], 100);
    /// ```
    #[doc(alias = "CapturePieceType")]
    #[inline(always)]
    pub const fn captured_number(self) -> usize {
        (self.0 >> CAPTURED_SHIFT & 7) as usize
    }

    /// The promotion piece's C# number, knight 2 … queen 5, or 0 when the move does not
    /// promote: C#'s `(int)move.PromotionPieceType`.
    ///
    /// ```
    /// use framework::prelude::*;
    /// let b = Board::from_fen("4k3/P7/8/8/8/8/8/4K3 w - - 0 1").unwrap();
    /// assert_eq!(b.parse_uci("a7a8q").unwrap().promotion_number(), 5);
    /// assert_eq!(b.parse_uci("e1e2").unwrap().promotion_number(), 0);
    /// ```
    #[doc(alias = "PromotionPieceType")]
    #[inline(always)]
    pub const fn promotion_number(self) -> usize {
        match self.promotion_code() {
            0 => 0,
            code => code + 1,
        }
    }

    /// `true` if the move takes a piece (including en passant).
    #[inline(always)]
    pub const fn is_capture(self) -> bool {
        self.0 & (7 << CAPTURED_SHIFT) != 0
    }

    /// `true` for en-passant captures.
    #[inline(always)]
    pub const fn is_en_passant(self) -> bool {
        self.0 & EP_BIT != 0
    }

    /// `true` for castling (either side).
    #[doc(alias = "IsCastles")]
    #[inline(always)]
    pub const fn is_castle(self) -> bool {
        self.0 & CASTLE_MASK != 0
    }

    /// `true` for promotions (including capture-promotions).
    #[inline(always)]
    pub const fn is_promotion(self) -> bool {
        self.0 & (7 << PROMO_SHIFT) != 0
    }

    /// `true` for [`Move::NULL`].
    #[inline(always)]
    pub const fn is_null(self) -> bool {
        self.0 == 0
    }
}

/// UCI notation: `e2e4`, `e7e8q`, `e1g1` for castling, `0000` for the null move.
impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_null() {
            return f.write_str("0000");
        }
        write!(f, "{}{}", self.from(), self.to())?;
        if let Some(p) = self.promotion() {
            write!(f, "{}", p.to_char())?;
        }
        Ok(())
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Move({self}")?;
        write!(f, " {:?}", self.piece())?;
        if let Some(c) = self.captured() {
            write!(f, " x{c:?}")?;
        }
        if self.is_en_passant() {
            f.write_str(" ep")?;
        }
        if self.is_castle() {
            f.write_str(" castle")?;
        }
        f.write_str(")")
    }
}

/// Why [`Board::parse_uci`](super::Board::parse_uci) rejected a string.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum MoveError {
    /// Not UCI syntax (`e2e4`, `e7e8q`, `0000`).
    #[error("`{0}` is not a UCI move (expected e.g. `e2e4` or `e7e8q`)")]
    Syntax(String),
    /// Well-formed, but not a legal move in the position.
    #[error("`{0}` is not legal in this position")]
    Illegal(String),
}

/// The capacity of a [`MoveList`]: more moves than any position the kit
/// accepts can have.
///
/// A position reachable in a game has at most 218 legal moves, but a FEN may
/// describe any placement with at most 16 pieces a side (say a king and 15
/// queens), which no game reaches. The bound covers those too: a king has at
/// most 8 moves and 2 castlings, and each of the other 15 pieces at most 27
/// (a queen in the centre of an empty board; a pawn has at most 12).
pub const MAX_MOVES: usize = 10 + 15 * 27;

/// A list of up to [`MAX_MOVES`] moves stored inline (on the stack), so generating
/// moves allocates nothing. Dereferences to `[Move]`, so slices' methods
/// (`iter`, `len`, `sort_by_key`, indexing, `contains`) all work.
///
/// ```
/// use framework::prelude::*;
/// let board = Board::startpos();
/// let mut moves = board.legal_moves();
/// assert_eq!(moves.len(), 20);
/// moves.sort_by_key(|m| m.to().rank());
/// for mv in &moves { assert!(board.is_legal(*mv)); }
/// ```
pub struct MoveList {
    moves: [MaybeUninit<Move>; MAX_MOVES],
    len: usize,
}

impl MoveList {
    /// An empty list.
    #[inline(always)]
    pub const fn new() -> MoveList {
        MoveList {
            moves: [const { MaybeUninit::uninit() }; MAX_MOVES],
            len: 0,
        }
    }

    /// Appends a move.
    ///
    /// # Panics
    /// If the list already holds [`MAX_MOVES`] moves.
    #[inline(always)]
    pub fn push(&mut self, mv: Move) {
        assert!(self.len < MAX_MOVES, "MoveList overflow");
        self.moves[self.len] = MaybeUninit::new(mv);
        self.len += 1;
    }

    /// Removes and returns the last move.
    #[inline]
    pub fn pop(&mut self) -> Option<Move> {
        if self.len == 0 {
            return None;
        }
        self.len -= 1;
        // SAFETY: indices below the old `len` were initialised by `push`.
        Some(unsafe { self.moves[self.len].assume_init() })
    }

    /// Empties the list.
    #[inline(always)]
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// The moves as a slice.
    #[inline(always)]
    pub fn as_slice(&self) -> &[Move] {
        // SAFETY: the first `len` elements were initialised by `push`; `Move` is `Copy`.
        unsafe { std::slice::from_raw_parts(self.moves.as_ptr().cast::<Move>(), self.len) }
    }

    /// The moves as a mutable slice (for in-place sorting).
    #[inline(always)]
    pub fn as_mut_slice(&mut self) -> &mut [Move] {
        // SAFETY: as in `as_slice`.
        unsafe { std::slice::from_raw_parts_mut(self.moves.as_mut_ptr().cast::<Move>(), self.len) }
    }

    /// The list sorted by `key`, lowest first: C#'s LINQ `moves.OrderBy(m => key)`. Stable as
    /// LINQ's is (moves of equal keys keep their order), and `key` is asked once a move, as
    /// LINQ does, so a key may read tables that change.
    ///
    /// ```
    /// use framework::prelude::*;
    /// let board = Board::from_fen("4k3/8/8/3q4/4P3/8/8/4K3 w - - 0 1").unwrap();
    /// let moves = board.legal_moves().order_by(|m| !m.is_capture());
    /// assert_eq!(moves[0].to_string(), "e4d5"); // the capture first
    /// ```
    #[doc(alias = "OrderBy")]
    pub fn order_by<K: Ord>(mut self, mut key: impl FnMut(Move) -> K) -> MoveList {
        self.as_mut_slice().sort_by_cached_key(|&m| key(m));
        self
    }

    /// The list sorted by `key`, highest first: C#'s LINQ `moves.OrderByDescending(m => key)`,
    /// stable as LINQ's is, `key` asked once a move.
    ///
    /// ```
    /// use framework::prelude::*;
    /// let board = Board::from_fen("4k3/8/8/3q4/3RP3/8/8/4K3 w - - 0 1").unwrap();
    /// // Most valuable victim first, then the least valuable attacker: a tuple key, as C#'s.
    /// let moves = board.legal_moves().order_by_descending(|m| (m.captured(), -(m.piece() as i32)));
    /// assert_eq!(moves[0].to_string(), "e4d5"); // the pawn takes the queen
    /// assert_eq!(moves[1].to_string(), "d4d5"); // the rook takes it
    /// ```
    #[doc(alias = "OrderByDescending")]
    pub fn order_by_descending<K: Ord>(mut self, mut key: impl FnMut(Move) -> K) -> MoveList {
        self.as_mut_slice()
            .sort_by_cached_key(|&m| std::cmp::Reverse(key(m)));
        self
    }
}

impl Default for MoveList {
    fn default() -> Self {
        MoveList::new()
    }
}

impl Clone for MoveList {
    fn clone(&self) -> Self {
        let mut out = MoveList::new();
        for &m in self.as_slice() {
            out.push(m);
        }
        out
    }
}

impl fmt::Debug for MoveList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}

impl PartialEq for MoveList {
    fn eq(&self, other: &Self) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl Eq for MoveList {}

impl Deref for MoveList {
    type Target = [Move];
    #[inline(always)]
    fn deref(&self) -> &[Move] {
        self.as_slice()
    }
}

impl DerefMut for MoveList {
    #[inline(always)]
    fn deref_mut(&mut self) -> &mut [Move] {
        self.as_mut_slice()
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = std::slice::Iter<'a, Move>;
    #[inline(always)]
    fn into_iter(self) -> Self::IntoIter {
        self.as_slice().iter()
    }
}

/// Writes a [`MoveList`]'s moves with the length kept in a local (a register, once
/// inlined): move generation writes through it without reloading and storing the list's
/// length for every move. Passed by value to functions that are not inlined (and handed
/// back), so its length never has to live in memory. See [`MoveList::refill`].
pub(crate) struct MoveWriter<'a> {
    moves: &'a mut [MaybeUninit<Move>; MAX_MOVES],
    len: usize,
}

impl MoveWriter<'_> {
    /// Appends `mv`.
    ///
    /// # Panics
    /// If the list already holds [`MAX_MOVES`] moves.
    #[inline(always)]
    pub(crate) fn push(&mut self, mv: Move) {
        assert!(self.len < MAX_MOVES, "MoveList overflow");
        self.moves[self.len] = MaybeUninit::new(mv);
        self.len += 1;
    }
}

impl MoveList {
    /// Clears the list and fills it through the writer `fill` is given and hands back.
    #[inline(always)]
    pub(crate) fn refill(&mut self, fill: impl FnOnce(MoveWriter<'_>) -> MoveWriter<'_>) {
        // A panic in `fill` leaves the list empty (every entry below `len` stays initialised).
        self.len = 0;
        let written = fill(MoveWriter {
            moves: &mut self.moves,
            len: 0,
        });
        self.len = written.len;
    }
}

/// By-value iterator over a [`MoveList`].
pub struct MoveListIntoIter {
    list: MoveList,
    next: usize,
}

impl Iterator for MoveListIntoIter {
    type Item = Move;
    #[inline(always)]
    fn next(&mut self) -> Option<Move> {
        let m = self.list.as_slice().get(self.next).copied();
        self.next += 1;
        m
    }
    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.list.len.saturating_sub(self.next);
        (n, Some(n))
    }
}

impl ExactSizeIterator for MoveListIntoIter {}

impl IntoIterator for MoveList {
    type Item = Move;
    type IntoIter = MoveListIntoIter;
    #[inline(always)]
    fn into_iter(self) -> MoveListIntoIter {
        MoveListIntoIter {
            list: self,
            next: 0,
        }
    }
}

impl Extend<Move> for MoveList {
    fn extend<I: IntoIterator<Item = Move>>(&mut self, iter: I) {
        for m in iter {
            self.push(m);
        }
    }
}

impl FromIterator<Move> for MoveList {
    fn from_iter<I: IntoIterator<Item = Move>>(iter: I) -> Self {
        let mut l = MoveList::new();
        l.extend(iter);
        l
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::Board;

    /// `(from, to, promotion)` of a cozy move, comparable and sortable.
    fn key(m: cz::Move) -> (usize, usize, Option<usize>) {
        (
            m.from as usize,
            m.to as usize,
            m.promotion.map(|p| p as usize),
        )
    }

    /// Every legal move's cozy form is a move cozy itself generates, and the other way
    /// round: plain moves, captures, castling both ways, en passant and promotions.
    #[test]
    fn cozy_form_is_cozys_own_move() {
        for fen in [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
            "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
        ] {
            let board = Board::from_fen(fen).unwrap();
            let raw: cz::Board = fen.parse().unwrap();
            let mut theirs = Vec::new();
            raw.generate_moves(|pm| {
                theirs.extend(pm.into_iter().map(key));
                false
            });
            let mut ours: Vec<_> = board.legal_moves().iter().map(|m| key(m.to_cz())).collect();
            theirs.sort_unstable();
            ours.sort_unstable();
            assert_eq!(ours, theirs, "{fen}");
        }
    }

    /// Whatever a bot hands `from_raw`, the cozy form is a valid cozy move (the
    /// reinterpretation in `to_cz` relies on it).
    #[test]
    fn any_raw_value_has_a_valid_cozy_form() {
        let mut x: u32 = 0x9E37_79B9;
        for i in 0..200_000u32 {
            // A xorshift walk, plus every single-bit and all-ones pattern.
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            let raw = match i {
                0..32 => 1 << i,
                32 => u32::MAX,
                _ => x,
            };
            let m = Move::from_raw(raw).to_cz();
            assert!((m.from as usize) < 64 && (m.to as usize) < 64);
            assert!(matches!(
                m.promotion,
                None | Some(
                    cz::Piece::Knight | cz::Piece::Bishop | cz::Piece::Rook | cz::Piece::Queen
                )
            ));
        }
    }

    /// LINQ's sorts: stable (equal keys keep the generator's order) and the key asked once
    /// a move, however the sort compares.
    #[test]
    fn order_by_is_stable_and_asks_each_key_once() {
        let board = Board::startpos();
        let moves = board.legal_moves();
        let mut asked = 0;
        let by_rank = moves.clone().order_by(|m| {
            asked += 1;
            m.to().rank()
        });
        assert_eq!(asked, moves.len());
        let expected: Vec<Move> = (0..8)
            .flat_map(|rank| moves.iter().copied().filter(move |m| m.to().rank() == rank))
            .collect();
        assert_eq!(by_rank.as_slice(), expected.as_slice());
        let down = moves.clone().order_by_descending(|m| m.to().rank());
        let expected: Vec<Move> = (0..8)
            .rev()
            .flat_map(|rank| moves.iter().copied().filter(move |m| m.to().rank() == rank))
            .collect();
        assert_eq!(down.as_slice(), expected.as_slice());
    }
}

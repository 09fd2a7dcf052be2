//! Legal move generation straight into the kit's [`Move`]s, which carry the moving and
//! captured pieces and the castling and en-passant flags.
//!
//! The moves come in cozy-chess's order (that of its `generate_moves`), which bots see
//! (`legal_moves()[0]`), so it is kept exactly: pawns, en-passant captures, knights,
//! bishops, rooks, queens, then the king; within a kind, unpinned pieces then pinned
//! ones, each by ascending square; within a piece, its promotions (queen, rook, bishop,
//! knight) or castlings first, then its captures, then its quiet moves, each by
//! ascending destination. `tests/move_order.rs` holds it to cozy's own generator.
//!
//! Legality is decided as cozy's generator decides it (cozy-chess 0.3, MIT), from the
//! pin and check sets cozy's board keeps and its attack tables: a pinned piece moves
//! along its pin, and not at all in check; in check by one piece, the others capture
//! the checker or block; an en-passant capture may not bare the king to a slider; the
//! king steps onto squares no piece of theirs attacks with the king gone from its
//! square, and castles across empty, unattacked squares. Generating here instead of
//! converting cozy's per-piece move sets saves a call per piece and a pass per move.

use cozy_chess as cz;

use super::moves::MoveWriter;
use super::{Move, MoveList, PieceType, Square};

/// Squares where a pawn arrival is a promotion.
const PROMO_RANKS: u64 = 0xFF00_0000_0000_00FF;
/// The ranks a pawn reaches by one step from its starting rank, per colour.
const RANK_3: u64 = 0x0000_0000_00FF_0000;
const RANK_6: u64 = 0x0000_FF00_0000_0000;

/// Clears `list` and fills it with the legal moves of `b`, or only its captures (en
/// passant and capture-promotions included) when `captures_only`.
#[inline]
pub(super) fn legal_moves_into(b: &cz::Board, list: &mut MoveList, captures_only: bool) {
    list.refill(|out| {
        let generator = Generator::new(b, captures_only);
        let checkers = b.checkers().0;
        let white = b.side_to_move() == cz::Color::White;
        let out = if checkers & checkers.wrapping_sub(1) != 0 {
            // Double check: only the king may move.
            out
        } else {
            match (checkers == 0, white) {
                (true, true) => generator.pieces::<true, false>(out),
                (true, false) => generator.pieces::<false, false>(out),
                (false, true) => generator.pieces::<true, true>(out),
                (false, false) => generator.pieces::<false, true>(out),
            }
        };
        generator.king_moves(checkers == 0 && !captures_only, out)
    });
}

/// What generation needs to know about the position, gathered once.
struct Generator<'a> {
    board: &'a cz::Board,
    them: u64,
    occupied: u64,
    king: cz::Square,
    pinned: u64,
    /// The destinations kept for every piece but the king: not our own pieces; when in
    /// check, the checker or a square between it and our king; when only captures are
    /// asked for, their pieces.
    target: u64,
    /// The king's destinations kept: not our own pieces, and only theirs when only
    /// captures are asked for.
    king_target: u64,
    /// The captured-piece code of each square, bit-sliced: bit `i` of the code of
    /// square `sq` is `victims[i] >> sq & 1`.
    victims: [u64; 3],
    /// Their pieces by how they attack, for the king's safety and en passant.
    their: Attackers,
}

/// The other side's pieces, grouped by how they attack.
struct Attackers {
    pawns: u64,
    knights: u64,
    king: u64,
    /// Bishops and queens.
    diagonal: u64,
    /// Rooks and queens.
    orthogonal: u64,
}

/// The cozy square of index `i` (below 64). `& 63` lets the optimiser drop cozy's range check.
#[inline(always)]
fn cz_square(i: u32) -> cz::Square {
    match cz::Square::try_index(i as usize & 63) {
        Some(s) => s,
        None => unreachable!(),
    }
}

/// The squares of `bb`, lowest first, as indices.
#[inline(always)]
fn squares(mut bb: u64) -> impl Iterator<Item = u32> {
    std::iter::from_fn(move || {
        if bb == 0 {
            return None;
        }
        let sq = bb.trailing_zeros();
        bb &= bb - 1;
        Some(sq)
    })
}

/// The colour cozy calls the side to move when it is `WHITE`.
#[inline(always)]
const fn color<const WHITE: bool>() -> cz::Color {
    if WHITE {
        cz::Color::White
    } else {
        cz::Color::Black
    }
}

impl<'a> Generator<'a> {
    #[inline(always)]
    fn new(b: &'a cz::Board, captures_only: bool) -> Generator<'a> {
        let stm = b.side_to_move();
        let ours = b.colors(stm).0;
        let them = b.colors(!stm).0;
        let king = cz_square(b.colored_pieces(stm, cz::Piece::King).0.trailing_zeros());
        let checkers = b.checkers().0;
        // With two checkers only the king moves, and it does not use `target`.
        let check_target = if checkers == 0 {
            !0
        } else {
            let checker = cz_square(checkers.trailing_zeros());
            cz::get_between_rays(checker, king).0 | checkers
        };
        let only = if captures_only { them } else { !0 };
        let pieces = |p| b.pieces(p).0;
        let (pawns, knights, bishops) = (
            pieces(cz::Piece::Pawn),
            pieces(cz::Piece::Knight),
            pieces(cz::Piece::Bishop),
        );
        let (rooks, queens) = (pieces(cz::Piece::Rook), pieces(cz::Piece::Queen));
        Generator {
            board: b,
            them,
            occupied: ours | them,
            king,
            pinned: b.pinned().0,
            target: check_target & !ours & only,
            king_target: !ours & only,
            // Codes: pawn 1, knight 2, bishop 3, rook 4, queen 5 (kings are never taken).
            victims: [pawns | bishops | queens, knights | bishops, rooks | queens],
            their: Attackers {
                pawns: pawns & them,
                knights: knights & them,
                king: pieces(cz::Piece::King) & them,
                diagonal: (bishops | queens) & them,
                orthogonal: (rooks | queens) & them,
            },
        }
    }

    /// The moves of every piece but the king, for the side to move (`WHITE`), in or out
    /// of check by one piece (`IN_CHECK`; pinned pieces cannot help then).
    #[inline(always)]
    fn pieces<'w, const WHITE: bool, const IN_CHECK: bool>(
        &self,
        mut out: MoveWriter<'w>,
    ) -> MoveWriter<'w> {
        let ours = |p| self.board.colored_pieces(color::<WHITE>(), p).0;
        let pawns = ours(cz::Piece::Pawn);
        out = self.pawns::<WHITE, IN_CHECK>(pawns, out);
        out = self.en_passant::<WHITE>(pawns, out);
        for from in squares(ours(cz::Piece::Knight) & !self.pinned) {
            let to = cz::get_knight_moves(cz_square(from)).0 & self.target;
            out = self.plain(Move::base(from, PieceType::Knight), to, out);
        }
        let bishop = |sq, occ| cz::get_bishop_moves(sq, occ).0;
        let rook = |sq, occ| cz::get_rook_moves(sq, occ).0;
        let queen = |sq, occ| bishop(sq, occ) | rook(sq, occ);
        let bishops = ours(cz::Piece::Bishop);
        out = self.sliders::<IN_CHECK>(bishops, PieceType::Bishop, bishop, out);
        let rooks = ours(cz::Piece::Rook);
        out = self.sliders::<IN_CHECK>(rooks, PieceType::Rook, rook, out);
        let queens = ours(cz::Piece::Queen);
        self.sliders::<IN_CHECK>(queens, PieceType::Queen, queen, out)
    }

    /// The moves of the sliders `pieces` of kind `piece`, which attack as `attacks`.
    #[inline(always)]
    fn sliders<'w, const IN_CHECK: bool>(
        &self,
        pieces: u64,
        piece: PieceType,
        attacks: impl Fn(cz::Square, cz::BitBoard) -> u64,
        mut out: MoveWriter<'w>,
    ) -> MoveWriter<'w> {
        let occupied = cz::BitBoard(self.occupied);
        for from in squares(pieces & !self.pinned) {
            let to = attacks(cz_square(from), occupied) & self.target;
            out = self.plain(Move::base(from, piece), to, out);
        }
        if !IN_CHECK {
            for from in squares(pieces & self.pinned) {
                let along_pin = self.along_pin(from);
                let to = attacks(cz_square(from), occupied) & self.target & along_pin;
                out = self.plain(Move::base(from, piece), to, out);
            }
        }
        out
    }

    /// The line through our king and the pinned piece on `from`: where it may go.
    #[inline(always)]
    fn along_pin(&self, from: u32) -> u64 {
        cz::get_line_rays(self.king, cz_square(from)).0
    }

    /// The pushes and captures of `pawns` (en passant apart).
    #[inline(always)]
    fn pawns<'w, const WHITE: bool, const IN_CHECK: bool>(
        &self,
        pawns: u64,
        mut out: MoveWriter<'w>,
    ) -> MoveWriter<'w> {
        let empty = !self.occupied;
        let up = |bb: u64| if WHITE { bb << 8 } else { bb >> 8 };
        let third = if WHITE { RANK_3 } else { RANK_6 };
        let destinations = |from: u32| {
            let one = up(1 << from) & empty;
            let two = up(one & third) & empty;
            let captures = cz::get_pawn_attacks(cz_square(from), color::<WHITE>()).0;
            one | two | captures & self.them
        };
        for from in squares(pawns & !self.pinned) {
            out = self.pawn(from, destinations(from) & self.target, out);
        }
        if !IN_CHECK {
            for from in squares(pawns & self.pinned) {
                let to = destinations(from) & self.target & self.along_pin(from);
                out = self.pawn(from, to, out);
            }
        }
        out
    }

    /// Writes the moves of the pawn on `from` to `to`: promotions first.
    #[inline(always)]
    fn pawn<'w>(&self, from: u32, to: u64, mut out: MoveWriter<'w>) -> MoveWriter<'w> {
        let promotions = to & PROMO_RANKS;
        if promotions != 0 {
            out = self.promotions(from, promotions, out);
        }
        self.plain(Move::base(from, PieceType::Pawn), to & !PROMO_RANKS, out)
    }

    /// Writes a pawn's promotions on the squares of `to`, each to a queen, rook,
    /// bishop and knight. Out of line: they are rare, and keeping them out keeps the
    /// common path short.
    #[inline(never)]
    fn promotions<'w>(&self, from: u32, to: u64, mut out: MoveWriter<'w>) -> MoveWriter<'w> {
        let from = Square::from_index(from as u8);
        for sq in squares(to) {
            let dest = Square::from_index(sq as u8);
            let captured = self.victim(sq);
            for promotion in [
                PieceType::Queen,
                PieceType::Rook,
                PieceType::Bishop,
                PieceType::Knight,
            ] {
                let promotion = Some(promotion);
                let mv = Move::new(from, dest, PieceType::Pawn, captured, promotion, false, false);
                out.push(mv);
            }
        }
        out
    }

    /// The en-passant captures of `pawns`, if the last move was a double push.
    #[inline(always)]
    fn en_passant<'w, const WHITE: bool>(
        &self,
        pawns: u64,
        out: MoveWriter<'w>,
    ) -> MoveWriter<'w> {
        let Some(file) = self.board.en_passant() else {
            return out;
        };
        let rank = if WHITE {
            cz::Rank::Sixth
        } else {
            cz::Rank::Third
        };
        let dest = cz::Square::new(file, rank);
        let capturers = cz::get_pawn_attacks(dest, !color::<WHITE>()).0 & pawns;
        if capturers == 0 {
            return out;
        }
        self.en_passant_captures(capturers, dest, out)
    }

    /// Writes the en-passant captures onto `dest` of those of `capturers` that may take
    /// (see [`en_passant_capturers`]). Out of line: rare.
    #[inline(never)]
    fn en_passant_captures<'w>(
        &self,
        capturers: u64,
        dest: cz::Square,
        mut out: MoveWriter<'w>,
    ) -> MoveWriter<'w> {
        let to = Square::from_index(dest as u8);
        for from in squares(en_passant_capturers(self.board, capturers, dest)) {
            let from = Square::from_index(from as u8);
            let pawn = Some(PieceType::Pawn);
            out.push(Move::new(from, to, PieceType::Pawn, pawn, None, true, false));
        }
        out
    }

    /// The king's moves: castlings (when `castling` may be considered) first, then
    /// its steps onto safe squares.
    #[inline(always)]
    fn king_moves<'w>(&self, castling: bool, mut out: MoveWriter<'w>) -> MoveWriter<'w> {
        if castling {
            let rights = self.board.castle_rights(self.board.side_to_move());
            if rights.long.is_some() || rights.short.is_some() {
                out = self.castles(rights, out);
            }
        }
        let mut safe = 0;
        for to in squares(cz::get_king_moves(self.king).0 & self.king_target) {
            if self.king_safe_on(cz_square(to)) {
                safe |= 1 << to;
            }
        }
        self.plain(Move::base(self.king as u32, PieceType::King), safe, out)
    }

    /// `true` if no piece of theirs attacks `sq` once our king has left its square.
    /// A slider's attack is only looked up if one of theirs is on its lines at all.
    #[inline(always)]
    fn king_safe_on(&self, sq: cz::Square) -> bool {
        let their = &self.their;
        let blockers = cz::BitBoard(self.occupied ^ 1 << self.king as u32 | 1 << sq as u32);
        let color = self.board.side_to_move();
        let slides = |rays: cz::BitBoard, attacks: fn(_, _) -> cz::BitBoard, sliders: u64| {
            rays.0 & sliders != 0 && attacks(sq, blockers).0 & sliders != 0
        };
        cz::get_knight_moves(sq).0 & their.knights == 0
            && cz::get_pawn_attacks(sq, color).0 & their.pawns == 0
            && cz::get_king_moves(sq).0 & their.king == 0
            && !slides(cz::get_bishop_rays(sq), cz::get_bishop_moves, their.diagonal)
            && !slides(cz::get_rook_rays(sq), cz::get_rook_moves, their.orthogonal)
    }

    /// Writes the legal castlings with `rights`, queenside first (cozy's order: by the
    /// rook's square), king-to-destination (`e1c1`, `e1g1`). Out of line: most
    /// positions have no castling rights left.
    #[inline(never)]
    fn castles<'w>(&self, rights: &cz::CastleRights, mut out: MoveWriter<'w>) -> MoveWriter<'w> {
        let back = cz::Rank::First.relative_to(self.board.side_to_move());
        let on_back = |file| cz::Square::new(file, back);
        if let Some(rook) = rights.long {
            let (king_to, rook_to) = (on_back(cz::File::C), on_back(cz::File::D));
            out = self.castle(on_back(rook), king_to, rook_to, out);
        }
        if let Some(rook) = rights.short {
            let (king_to, rook_to) = (on_back(cz::File::G), on_back(cz::File::F));
            out = self.castle(on_back(rook), king_to, rook_to, out);
        }
        out
    }

    /// Writes our king's castling with the rook on `rook`, ending on `king_to` and
    /// `rook_to`, if it is legal: every square either crosses is empty but for the two
    /// of them, the rook is not pinned, and the squares the king crosses and ends on
    /// are not attacked.
    #[inline(always)]
    fn castle<'w>(
        &self,
        rook: cz::Square,
        king_to: cz::Square,
        rook_to: cz::Square,
        mut out: MoveWriter<'w>,
    ) -> MoveWriter<'w> {
        let others = self.occupied ^ 1 << self.king as u32 ^ 1 << rook as u32;
        let must_be_safe = cz::get_between_rays(self.king, king_to).0 | 1 << king_to as u32;
        let must_be_empty =
            must_be_safe | cz::get_between_rays(self.king, rook).0 | 1 << rook_to as u32;
        if others & must_be_empty == 0
            && self.pinned >> rook as u32 & 1 == 0
            && squares(must_be_safe).all(|sq| self.king_safe_on(cz_square(sq)))
        {
            let from = Square::from_index(self.king as u8);
            let to = Square::from_index(king_to as u8);
            out.push(Move::new(from, to, PieceType::King, None, None, false, true));
        }
        out
    }

    /// `PieceType` index + 1 of the piece on square index `sq`, branch-free: the
    /// captured-piece code of a [`Move`].
    #[inline(always)]
    fn victim_code(&self, sq: u32) -> u32 {
        (self.victims[0] >> sq & 1) as u32
            | ((self.victims[1] >> sq & 1) as u32) << 1
            | ((self.victims[2] >> sq & 1) as u32) << 2
    }

    /// The piece of theirs on square index `sq`, if any.
    #[inline(always)]
    fn victim(&self, sq: u32) -> Option<PieceType> {
        if self.them >> sq & 1 == 0 {
            return None;
        }
        PieceType::from_index(self.victim_code(sq) as usize - 1)
    }

    /// Writes the moves of the piece of `base` to `to`, none of them special: captures,
    /// then quiet moves. Built arithmetically: just the destination and (for captures)
    /// the victim code per move.
    #[inline(always)]
    fn plain<'w>(&self, base: Move, to: u64, mut out: MoveWriter<'w>) -> MoveWriter<'w> {
        for sq in squares(to & self.them) {
            out.push(base.with_destination(sq, self.victim_code(sq)));
        }
        for sq in squares(to & !self.them) {
            out.push(base.with_destination(sq, 0));
        }
        out
    }
}

/// Those of `capturers`, pawns of the side to move in `b` beside the pawn that just
/// advanced two squares, that may take it en passant onto `dest`, by cozy's rule (its
/// generator's, and so the kit's, for the moves and for [`Board::key`]): none in double
/// check, and each only if the capture bares our king to no slider on the rank or
/// diagonal it opens or the line it leaves open (a pinned capturer is judged the same
/// way). A single check needs no test of its own: cozy's board refuses an en-passant
/// square no double push can have led to, so the check comes from the pushed pawn,
/// which the capture takes, or from a slider, which the test sees.
///
/// [`Board::key`]: super::Board::key
pub(super) fn en_passant_capturers(b: &cz::Board, capturers: u64, dest: cz::Square) -> u64 {
    let checkers = b.checkers().0;
    if checkers & checkers.wrapping_sub(1) != 0 {
        return 0;
    }
    let stm = b.side_to_move();
    let king = cz_square(b.colored_pieces(stm, cz::Piece::King).0.trailing_zeros());
    let them = b.colors(!stm).0;
    let theirs = |p, q| them & (b.pieces(p).0 | b.pieces(q).0);
    let diagonal = theirs(cz::Piece::Bishop, cz::Piece::Queen);
    let orthogonal = theirs(cz::Piece::Rook, cz::Piece::Queen);
    let victim = cz::Square::new(dest.file(), cz::Rank::Fifth.relative_to(stm)) as u32;
    let mut legal = 0;
    for from in squares(capturers) {
        let after = b.occupied().0 ^ 1 << victim ^ 1 << from | 1 << dest as u32;
        let after = cz::BitBoard(after);
        let bares = |rays: cz::BitBoard, moves: fn(_, _) -> cz::BitBoard, sliders: u64| {
            rays.0 & sliders != 0 && moves(king, after).0 & sliders != 0
        };
        if !bares(cz::get_bishop_rays(king), cz::get_bishop_moves, diagonal)
            && !bares(cz::get_rook_rays(king), cz::get_rook_moves, orthogonal)
        {
            legal |= 1 << from;
        }
    }
    legal
}

#[inline(always)]
pub(super) fn from_cz_piece(p: cz::Piece) -> PieceType {
    match p {
        cz::Piece::Pawn => PieceType::Pawn,
        cz::Piece::Knight => PieceType::Knight,
        cz::Piece::Bishop => PieceType::Bishop,
        cz::Piece::Rook => PieceType::Rook,
        cz::Piece::Queen => PieceType::Queen,
        cz::Piece::King => PieceType::King,
    }
}

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
/// The ranks a pawn promotes from, per colour.
const RANK_2: u64 = 0x0000_0000_0000_FF00;
const RANK_7: u64 = 0x00FF_0000_0000_0000;
const FILE_A: u64 = 0x0101_0101_0101_0101;
const FILE_H: u64 = FILE_A << 7;

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

/// What generation needs to know about the position, gathered once. Functions that are
/// not inlined take the board, not this, so it can live in registers.
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

/// The square of the side to move's king.
#[inline(always)]
fn our_king(b: &cz::Board) -> cz::Square {
    cz_square(
        b.colored_pieces(b.side_to_move(), cz::Piece::King)
            .0
            .trailing_zeros(),
    )
}

impl<'a> Generator<'a> {
    #[inline(always)]
    fn new(b: &'a cz::Board, captures_only: bool) -> Generator<'a> {
        let stm = b.side_to_move();
        let ours = b.colors(stm).0;
        let them = b.colors(!stm).0;
        let king = our_king(b);
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

    /// The pushes and captures of `pawns` (en passant apart), pawn by pawn in
    /// ascending order: those that cannot promote all at once ([`pawn_set`]), those
    /// about to promote (rank 7 for White, the highest squares; rank 2 for Black, the
    /// lowest) one by one, then the pinned ones.
    ///
    /// [`pawn_set`]: Self::pawn_set
    #[inline(always)]
    fn pawns<'w, const WHITE: bool, const IN_CHECK: bool>(
        &self,
        pawns: u64,
        mut out: MoveWriter<'w>,
    ) -> MoveWriter<'w> {
        let free = pawns & !self.pinned;
        let promoting = free & if WHITE { RANK_7 } else { RANK_2 };
        if !WHITE {
            out = self.pawns_one_by_one::<WHITE>(promoting, 0, out);
        }
        out = self.pawn_set::<WHITE>(free & !promoting, out);
        if WHITE {
            out = self.pawns_one_by_one::<WHITE>(promoting, 0, out);
        }
        if !IN_CHECK {
            out = self.pawns_one_by_one::<WHITE>(pawns & self.pinned, self.pinned, out);
        }
        out
    }

    /// The moves of `pawns` (none about to promote), computed for all of them at once
    /// by shifting the set, then written pawn by pawn: captures towards the a-file and
    /// towards the h-file, then pushes, each in ascending order of destination.
    #[inline(always)]
    fn pawn_set<'w, const WHITE: bool>(
        &self,
        pawns: u64,
        mut out: MoveWriter<'w>,
    ) -> MoveWriter<'w> {
        // Each set is shifted back to the pawns' own squares, so one bit test per kind
        // of move tells a pawn's moves.
        let forward = |bb: u64, by: u32| if WHITE { bb << by } else { bb >> by };
        let back = |bb: u64, by: u32| if WHITE { bb >> by } else { bb << by };
        let (empty, third) = (!self.occupied, if WHITE { RANK_3 } else { RANK_6 });
        let (towards_a, towards_h) = if WHITE { (7, 9) } else { (9, 7) };
        let captures = self.them & self.target;
        let to_a = back(forward(pawns & !FILE_A, towards_a) & captures, towards_a);
        let to_h = back(forward(pawns & !FILE_H, towards_h) & captures, towards_h);
        let one = forward(pawns, 8) & empty;
        let two = back(forward(one & third, 8) & empty & self.target, 16);
        let one = back(one & self.target, 8);
        let destination = |from: u32, by: u32| if WHITE { from + by } else { from - by };
        for from in squares(to_a | to_h | one | two) {
            let base = Move::base(from, PieceType::Pawn);
            let push = |out: &mut MoveWriter<'_>, set: u64, by: u32, victim: bool| {
                if set >> from & 1 != 0 {
                    let to = destination(from, by);
                    let code = if victim { self.victim_code(to) } else { 0 };
                    out.push(base.with_destination(to, code));
                }
            };
            push(&mut out, to_a, towards_a, true);
            push(&mut out, to_h, towards_h, true);
            // Ascending: the single push first for White, the double push for Black.
            if WHITE {
                push(&mut out, one, 8, false);
                push(&mut out, two, 16, false);
            } else {
                push(&mut out, two, 16, false);
                push(&mut out, one, 8, false);
            }
        }
        out
    }

    /// The moves of `pawns`, one at a time, each kept to `along_pin` if pinned.
    #[inline(always)]
    fn pawns_one_by_one<'w, const WHITE: bool>(
        &self,
        pawns: u64,
        pinned: u64,
        mut out: MoveWriter<'w>,
    ) -> MoveWriter<'w> {
        let empty = !self.occupied;
        let up = |bb: u64| if WHITE { bb << 8 } else { bb >> 8 };
        let third = if WHITE { RANK_3 } else { RANK_6 };
        for from in squares(pawns) {
            let one = up(1 << from) & empty;
            let two = up(one & third) & empty;
            let captures = cz::get_pawn_attacks(cz_square(from), color::<WHITE>()).0;
            let mut to = (one | two | captures & self.them) & self.target;
            if pinned >> from & 1 != 0 {
                to &= self.along_pin(from);
            }
            out = self.pawn(from, to, out);
        }
        out
    }

    /// Writes the moves of the pawn on `from` to `to`: promotions first.
    #[inline(always)]
    fn pawn<'w>(&self, from: u32, to: u64, mut out: MoveWriter<'w>) -> MoveWriter<'w> {
        let promotions = to & PROMO_RANKS;
        if promotions != 0 {
            out = promotions_of(self.board, from, promotions, out);
        }
        self.plain(Move::base(from, PieceType::Pawn), to & !PROMO_RANKS, out)
    }

    /// The en-passant captures of `pawns`, if the last move was a double push.
    #[inline(always)]
    fn en_passant<'w, const WHITE: bool>(&self, pawns: u64, out: MoveWriter<'w>) -> MoveWriter<'w> {
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
        en_passant_captures(self.board, capturers, dest, out)
    }

    /// The king's moves: castlings (when `castling` may be considered) first, then
    /// its steps onto safe squares.
    #[inline(always)]
    fn king_moves<'w>(&self, castling: bool, mut out: MoveWriter<'w>) -> MoveWriter<'w> {
        let steps = cz::get_king_moves(self.king).0 & self.king_target;
        let rights = self.board.castle_rights(self.board.side_to_move());
        let castling = castling && (rights.long.is_some() || rights.short.is_some());
        if steps == 0 {
            if castling {
                out = castles(self.board, rights, None, out);
            }
            return out;
        }
        let safety = Safety::new(self.board);
        let mut safe = 0;
        for to in squares(steps) {
            if safety.king_safe_on(cz_square(to)) {
                safe |= 1 << to;
            }
        }
        if castling {
            // Written before the steps; the squares next to the king are judged once.
            let judged = Judged {
                squares: steps,
                safe,
            };
            out = castles(self.board, rights, Some((&safety, judged)), out);
        }
        self.plain(Move::base(self.king as u32, PieceType::King), safe, out)
    }

    /// `PieceType` index + 1 of the piece on square index `sq`, branch-free: the
    /// captured-piece code of a [`Move`].
    #[inline(always)]
    fn victim_code(&self, sq: u32) -> u32 {
        (self.victims[0] >> sq & 1) as u32
            | ((self.victims[1] >> sq & 1) as u32) << 1
            | ((self.victims[2] >> sq & 1) as u32) << 2
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

/// Writes the promotions of the pawn on `from` on the squares of `to`, each to a queen,
/// rook, bishop and knight. Out of line: they are rare, and keeping them out keeps the
/// common path short.
#[inline(never)]
fn promotions_of<'w>(b: &cz::Board, from: u32, to: u64, mut out: MoveWriter<'w>) -> MoveWriter<'w> {
    let from = Square::at(from as u8);
    for sq in squares(to) {
        let dest = Square::at(sq as u8);
        let captured = b.piece_on(cz_square(sq)).map(from_cz_piece);
        for promotion in [
            PieceType::Queen,
            PieceType::Rook,
            PieceType::Bishop,
            PieceType::Knight,
        ] {
            let promotion = Some(promotion);
            let mv = Move::new(
                from,
                dest,
                PieceType::Pawn,
                captured,
                promotion,
                false,
                false,
            );
            out.push(mv);
        }
    }
    out
}

/// Writes the en-passant captures onto `dest` of those of `capturers` that may take
/// (see [`en_passant_capturers`]). Out of line: rare.
#[inline(never)]
fn en_passant_captures<'w>(
    b: &cz::Board,
    capturers: u64,
    dest: cz::Square,
    mut out: MoveWriter<'w>,
) -> MoveWriter<'w> {
    let to = Square::at(dest as u8);
    for from in squares(en_passant_capturers(b, capturers, dest)) {
        let from = Square::at(from as u8);
        let pawn = Some(PieceType::Pawn);
        out.push(Move::new(
            from,
            to,
            PieceType::Pawn,
            pawn,
            None,
            true,
            false,
        ));
    }
    out
}

/// Writes the legal castlings with `rights`, queenside first (cozy's order: by the
/// rook's square), king-to-destination (`e1c1`, `e1g1`). Out of line: most positions
/// have no castling rights left, or pieces between king and rook.
#[inline(never)]
fn castles<'w>(
    b: &cz::Board,
    rights: &cz::CastleRights,
    judged: Option<(&Safety, Judged)>,
    mut out: MoveWriter<'w>,
) -> MoveWriter<'w> {
    let stm = b.side_to_move();
    let king = our_king(b);
    let [long, short] = &STANDARD_CASTLINGS[stm as usize];
    let castling = |right: Option<cz::File>, standard: &Castling, king_to, rook_to| {
        let rook = cz::Square::new(right?, cz::Rank::First.relative_to(stm));
        let castling = if standard.king == king && standard.rook == rook {
            *standard
        } else {
            let on_back = |file| cz::Square::new(file, cz::Rank::First.relative_to(stm));
            Castling::new(king, rook, on_back(king_to), on_back(rook_to))
        };
        castling.is_open(b).then_some(castling)
    };
    let long = castling(rights.long, long, cz::File::C, cz::File::D);
    let short = castling(rights.short, short, cz::File::G, cz::File::F);
    if long.is_none() && short.is_none() {
        return out;
    }
    let own;
    let (safety, judged) = match judged {
        Some((safety, judged)) => (safety, judged),
        None => {
            own = Safety::new(b);
            let nothing = Judged {
                squares: 0,
                safe: 0,
            };
            (&own, nothing)
        }
    };
    for castling in [long, short] {
        if let Some(castling) = castling
            && castling.is_safe(safety, &judged)
        {
            out.push(castling.mv);
        }
    }
    out
}

/// Squares whose safety for the king is already known: `squares`, of which `safe` are safe.
struct Judged {
    squares: u64,
    safe: u64,
}

/// The castlings of standard chess by colour, queenside then kingside: the only ones a
/// position the kit accepts has (its FEN parser takes `KQkq` rights alone), worked out
/// once. [`castles`] still works any other out, as cozy would.
const STANDARD_CASTLINGS: [[Castling; 2]; 2] = {
    use cz::Square as S;
    [
        [
            Castling::new(S::E1, S::A1, S::C1, S::D1),
            Castling::new(S::E1, S::H1, S::G1, S::F1),
        ],
        [
            Castling::new(S::E8, S::A8, S::C8, S::D8),
            Castling::new(S::E8, S::H8, S::G8, S::F8),
        ],
    ]
};

/// One castling of our king: legal if it [is open](Self::is_open) and [safe](Self::is_safe).
#[derive(Clone, Copy)]
struct Castling {
    king: cz::Square,
    rook: cz::Square,
    /// The squares the king crosses and ends on.
    must_be_safe: u64,
    /// The squares the king and rook cross and end on.
    must_be_empty: u64,
    /// The king's and the rook's squares.
    movers: u64,
    /// The move, king-to-destination.
    mv: Move,
}

impl Castling {
    /// The castling of the king on `king` with the rook on `rook`, ending on `king_to`
    /// and `rook_to`.
    const fn new(
        king: cz::Square,
        rook: cz::Square,
        king_to: cz::Square,
        rook_to: cz::Square,
    ) -> Castling {
        let must_be_safe = cz::get_between_rays(king, king_to).0 | 1 << king_to as u32;
        let from = Square::at(king as u8);
        let to = Square::at(king_to as u8);
        Castling {
            king,
            rook,
            must_be_safe,
            must_be_empty: must_be_safe | cz::get_between_rays(king, rook).0 | 1 << rook_to as u32,
            movers: 1 << king as u32 | 1 << rook as u32,
            mv: Move::new(from, to, PieceType::King, None, None, false, true),
        }
    }

    /// `true` if every square the king and rook cross or end on is empty but for the two
    /// of them, and the rook is not pinned.
    #[inline(always)]
    fn is_open(&self, b: &cz::Board) -> bool {
        (b.occupied().0 ^ self.movers) & self.must_be_empty == 0 && !b.pinned().has(self.rook)
    }

    /// `true` if no square the king crosses or ends on is attacked (some may be
    /// `judged` already).
    #[inline(always)]
    fn is_safe(&self, safety: &Safety, judged: &Judged) -> bool {
        if self.must_be_safe & judged.squares & !judged.safe != 0 {
            return false;
        }
        let mut path = self.must_be_safe & !judged.squares;
        while path != 0 {
            if !safety.king_safe_on(cz_square(path.trailing_zeros())) {
                return false;
            }
            path &= path - 1;
        }
        true
    }
}

/// What tells whether a square is safe for the side to move's king.
struct Safety {
    occupied: u64,
    king: cz::Square,
    color: cz::Color,
    their_pawns: u64,
    their_knights: u64,
    their_king: u64,
    /// Their bishops and queens.
    diagonal: u64,
    /// Their rooks and queens.
    orthogonal: u64,
}

impl Safety {
    #[inline(always)]
    fn new(b: &cz::Board) -> Safety {
        let color = b.side_to_move();
        let them = b.colors(!color).0;
        let theirs = |p| them & b.pieces(p).0;
        let queens = theirs(cz::Piece::Queen);
        Safety {
            occupied: b.occupied().0,
            king: our_king(b),
            color,
            their_pawns: theirs(cz::Piece::Pawn),
            their_knights: theirs(cz::Piece::Knight),
            their_king: theirs(cz::Piece::King),
            diagonal: theirs(cz::Piece::Bishop) | queens,
            orthogonal: theirs(cz::Piece::Rook) | queens,
        }
    }

    /// `true` if no piece of theirs attacks `sq` once our king has left its square.
    /// A slider's attack is only looked up if one of theirs is on its lines at all.
    #[inline(always)]
    fn king_safe_on(&self, sq: cz::Square) -> bool {
        let blockers = cz::BitBoard(self.occupied ^ 1 << self.king as u32 | 1 << sq as u32);
        let slides = |rays: cz::BitBoard, attacks: fn(_, _) -> cz::BitBoard, sliders: u64| {
            rays.0 & sliders != 0 && attacks(sq, blockers).0 & sliders != 0
        };
        cz::get_knight_moves(sq).0 & self.their_knights == 0
            && cz::get_pawn_attacks(sq, self.color).0 & self.their_pawns == 0
            && cz::get_king_moves(sq).0 & self.their_king == 0
            && !slides(cz::get_bishop_rays(sq), cz::get_bishop_moves, self.diagonal)
            && !slides(cz::get_rook_rays(sq), cz::get_rook_moves, self.orthogonal)
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
#[inline(always)]
pub(super) fn en_passant_capturers(b: &cz::Board, capturers: u64, dest: cz::Square) -> u64 {
    let checkers = b.checkers().0;
    if checkers & checkers.wrapping_sub(1) != 0 {
        return 0;
    }
    let king = our_king(b);
    let victim = cz::Square::new(dest.file(), cz::Rank::Fifth.relative_to(b.side_to_move()));
    // Out of check, only a square the capture empties on a line through our king can
    // let a slider in; most captures empty none.
    let opens_victim = cz::get_line_rays(king, victim).0 != 0;
    let mut doubtful = 0;
    for from in squares(capturers) {
        if checkers != 0 || opens_victim || cz::get_line_rays(king, cz_square(from)).0 != 0 {
            doubtful |= 1 << from;
        }
    }
    if doubtful == 0 {
        return capturers;
    }
    capturers & !exposing(b, king, doubtful, victim, dest)
}

/// Those of `capturers` whose en-passant capture of the pawn on `victim`, landing on
/// `dest`, lets a slider of theirs attack our `king`. Out of line: rare.
#[inline(never)]
fn exposing(
    b: &cz::Board,
    king: cz::Square,
    capturers: u64,
    victim: cz::Square,
    dest: cz::Square,
) -> u64 {
    let mut exposing = 0;
    for from in squares(capturers) {
        if bares_king(b, king, cz_square(from), victim, dest) {
            exposing |= 1 << from;
        }
    }
    exposing
}

/// `true` if a slider of theirs attacks our `king` once the pawn on `from` has taken the
/// one on `victim` en passant, landing on `dest`.
#[inline(always)]
fn bares_king(
    b: &cz::Board,
    king: cz::Square,
    from: cz::Square,
    victim: cz::Square,
    dest: cz::Square,
) -> bool {
    let them = b.colors(!b.side_to_move()).0;
    let theirs = |p, q| them & (b.pieces(p).0 | b.pieces(q).0);
    let diagonal = theirs(cz::Piece::Bishop, cz::Piece::Queen);
    let orthogonal = theirs(cz::Piece::Rook, cz::Piece::Queen);
    let after = b.occupied().0 ^ 1 << victim as u32 ^ 1 << from as u32 | 1 << dest as u32;
    let after = cz::BitBoard(after);
    let slides = |rays: cz::BitBoard, moves: fn(_, _) -> cz::BitBoard, sliders: u64| {
        rays.0 & sliders != 0 && moves(king, after).0 & sliders != 0
    };
    slides(cz::get_bishop_rays(king), cz::get_bishop_moves, diagonal)
        || slides(cz::get_rook_rays(king), cz::get_rook_moves, orthogonal)
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

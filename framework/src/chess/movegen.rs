//! Legal move generation: cozy-chess's per-piece move sets turned into the kit's [`Move`]s,
//! which carry the moving and captured pieces and the castling and en-passant flags.

use cozy_chess as cz;

use super::moves::MoveWriter;
use super::{Move, MoveList, PieceType, Square};

/// Squares where a pawn arrival is a promotion.
const PROMO_RANKS: u64 = 0xFF00_0000_0000_00FF;

/// What the conversion needs to know about the position, gathered once per generation.
/// The closure cozy calls for each piece reads it through one reference. Per-piece
/// facts are tables indexed by cozy's piece, so a piece's moves take no branch on its
/// kind unless it has special moves.
struct Generator {
    them: u64,
    /// The en-passant square as a bitboard (empty if none).
    ep: u64,
    /// Per piece: the destinations kept (all, or only captures; pawns alone may capture
    /// onto the empty en-passant square).
    targets: [u64; 6],
    /// Per piece: the destinations that are not one plain move: a pawn's promotions and
    /// en-passant capture, the king's castlings (cozy's king takes its own rook).
    specials: [u64; 6],
    /// The captured-piece code of each square, bit-sliced: bit `i` of the code of
    /// square `sq` is `victims[i] >> sq & 1`.
    victims: [u64; 3],
}

/// Clears `list` and fills it with the legal moves of `b`, or only its captures (en
/// passant and capture-promotions included) when `captures_only`.
#[inline]
pub(super) fn legal_moves_into(b: &cz::Board, list: &mut MoveList, captures_only: bool) {
    list.clear();
    let generator = Generator::new(b, captures_only);
    b.generate_moves(|pm| {
        generator.piece_moves(pm, list);
        false
    });
}

impl Generator {
    #[inline(always)]
    fn new(b: &cz::Board, captures_only: bool) -> Generator {
        let stm = b.side_to_move();
        let ours = b.colors(stm).0;
        let them = b.colors(!stm).0;
        let ep = match b.en_passant() {
            Some(f) => {
                cz::Square::new(f, cz::Rank::Sixth.relative_to(stm))
                    .bitboard()
                    .0
            }
            None => 0,
        };
        let (target, pawn_target) = if captures_only {
            (them, them | ep)
        } else {
            (!0, !0)
        };
        let pieces = |p| b.pieces(p).0;
        let (pawns, knights, bishops) = (
            pieces(cz::Piece::Pawn),
            pieces(cz::Piece::Knight),
            pieces(cz::Piece::Bishop),
        );
        let (rooks, queens) = (pieces(cz::Piece::Rook), pieces(cz::Piece::Queen));
        Generator {
            them,
            ep,
            targets: [pawn_target, target, target, target, target, target],
            specials: [PROMO_RANKS | ep, 0, 0, 0, 0, ours],
            // Codes: pawn 1, knight 2, bishop 3, rook 4, queen 5 (kings are never taken).
            victims: [pawns | bishops | queens, knights | bishops, rooks | queens],
        }
    }

    /// `PieceType` index + 1 of the piece on square index `sq`, branch-free: the
    /// captured-piece code of a [`Move`].
    #[inline(always)]
    fn victim_code(&self, sq: u32) -> u32 {
        (self.victims[0] >> sq & 1) as u32
            | ((self.victims[1] >> sq & 1) as u32) << 1
            | ((self.victims[2] >> sq & 1) as u32) << 2
    }

    /// Writes the moves of one piece.
    #[inline(always)]
    fn piece_moves(&self, pm: cz::PieceMoves, list: &mut MoveList) {
        let to = pm.to.0 & self.targets[pm.piece as usize];
        let special = to & self.specials[pm.piece as usize];
        if special != 0 {
            // A tail call: the common path below then calls nothing and keeps all it
            // needs in scratch registers.
            return self.special_piece_moves(pm, to, special, list);
        }
        self.plain_moves(pm, to, &mut MoveWriter::new(list));
    }

    /// Writes the moves to `to` of a piece, none of them special. Built arithmetically:
    /// one base move per piece, then just the destination and (for captures) the
    /// victim code per move.
    #[inline(always)]
    fn plain_moves(&self, pm: cz::PieceMoves, to: u64, out: &mut MoveWriter<'_>) {
        let from = Square::from_index(pm.from as u8);
        let piece = from_cz_piece(pm.piece);
        let base = Move::new(from, from, piece, None, None, false, false).without_destination();
        let mut caps = to & self.them;
        let mut quiets = to & !self.them;
        while caps != 0 {
            let sq = caps.trailing_zeros();
            caps &= caps - 1;
            out.push(base.with_destination(sq, self.victim_code(sq)));
        }
        while quiets != 0 {
            let sq = quiets.trailing_zeros();
            quiets &= quiets - 1;
            out.push(base.with_destination(sq, 0));
        }
    }

    /// Writes the moves to `to` of a piece with `special` destinations among them: a
    /// king's castlings (cozy encodes them as the king taking its own rook), a pawn's
    /// promotions and en-passant capture. Out of line: they are rare, and keeping them
    /// out keeps the common path short.
    #[inline(never)]
    fn special_piece_moves(&self, pm: cz::PieceMoves, to: u64, special: u64, list: &mut MoveList) {
        let mut out = MoveWriter::new(list);
        self.special_moves(pm, special, &mut out);
        self.plain_moves(pm, to ^ special, &mut out);
    }

    /// Writes a piece's `special` destinations (see `special_piece_moves`).
    #[inline(always)]
    fn special_moves(&self, pm: cz::PieceMoves, special: u64, out: &mut MoveWriter<'_>) {
        let from = Square::from_index(pm.from as u8);
        if pm.piece == cz::Piece::King {
            let mut castles = special;
            while castles != 0 {
                let rook = Square::from_index(castles.trailing_zeros() as u8);
                castles &= castles - 1;
                let file = if rook.file() > from.file() { 6 } else { 2 };
                let dest = Square::new(file, from.rank());
                out.push(Move::new(
                    from,
                    dest,
                    PieceType::King,
                    None,
                    None,
                    false,
                    true,
                ));
            }
            return;
        }
        let mut promos = special & PROMO_RANKS;
        while promos != 0 {
            let sq = promos.trailing_zeros();
            promos &= promos - 1;
            let dest = Square::from_index(sq as u8);
            let cap = if self.them >> sq & 1 != 0 {
                PieceType::from_index(self.victim_code(sq) as usize - 1)
            } else {
                None
            };
            for p in [
                PieceType::Queen,
                PieceType::Rook,
                PieceType::Bishop,
                PieceType::Knight,
            ] {
                out.push(Move::new(
                    from,
                    dest,
                    PieceType::Pawn,
                    cap,
                    Some(p),
                    false,
                    false,
                ));
            }
        }
        if special & self.ep != 0 {
            let dest = Square::from_index(self.ep.trailing_zeros() as u8);
            out.push(Move::new(
                from,
                dest,
                PieceType::Pawn,
                Some(PieceType::Pawn),
                None,
                true,
                false,
            ));
        }
    }
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

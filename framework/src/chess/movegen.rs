//! Legal move generation: cozy-chess's per-piece move sets turned into the kit's [`Move`]s,
//! which carry the moving and captured pieces and the castling and en-passant flags.

use cozy_chess as cz;

use super::moves::MoveWriter;
use super::{Move, MoveList, PieceType, Square};

/// Squares where a pawn arrival is a promotion.
const PROMO_RANKS: u64 = 0xFF00_0000_0000_00FF;

/// What the conversion needs to know about the position, gathered once per generation.
/// The closure cozy calls for each piece reads it through one reference.
struct Generator {
    ours: u64,
    them: u64,
    /// The en-passant square as a bitboard (empty if none).
    ep: u64,
    /// Destinations kept for pieces other than pawns, and for pawns (which alone may
    /// capture onto the empty en-passant square).
    target: u64,
    pawn_target: u64,
    knights: u64,
    bishops: u64,
    rooks: u64,
    queens: u64,
}

/// Clears `list` and fills it with the legal moves of `b`, or only its captures (en
/// passant and capture-promotions included) when `captures_only`.
#[inline]
pub(super) fn legal_moves_into(b: &cz::Board, list: &mut MoveList, captures_only: bool) {
    list.clear();
    let generator = Generator::new(b, captures_only);
    b.generate_moves(|pm| {
        generator.piece_moves(pm, &mut MoveWriter::new(list));
        false
    });
}

impl Generator {
    #[inline(always)]
    fn new(b: &cz::Board, captures_only: bool) -> Generator {
        let stm = b.side_to_move();
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
        Generator {
            ours: b.colors(stm).0,
            them,
            ep,
            target,
            pawn_target,
            knights: b.pieces(cz::Piece::Knight).0,
            bishops: b.pieces(cz::Piece::Bishop).0,
            rooks: b.pieces(cz::Piece::Rook).0,
            queens: b.pieces(cz::Piece::Queen).0,
        }
    }

    /// `PieceType` index + 1 of the piece on square index `sq` (kings are never
    /// captured), branch-free: the captured-piece code of a [`Move`].
    #[inline(always)]
    fn victim_code(&self, sq: u32) -> u32 {
        1 + (self.knights >> sq & 1) as u32
            + 2 * (self.bishops >> sq & 1) as u32
            + 3 * (self.rooks >> sq & 1) as u32
            + 4 * (self.queens >> sq & 1) as u32
    }

    /// Writes the moves of one piece.
    #[inline(always)]
    fn piece_moves(&self, pm: cz::PieceMoves, out: &mut MoveWriter<'_>) {
        let piece = from_cz_piece(pm.piece);
        let from = Square::from_index(pm.from as u8);
        let mut to = pm.to.0;
        if piece == PieceType::Pawn {
            to &= self.pawn_target;
            to = self.pawn_specials(from, to, out);
        } else {
            to &= self.target;
            if piece == PieceType::King {
                to = self.castles(from, to, out);
            }
        }
        // The common case, built arithmetically: one base move per piece, then just the
        // destination and (for captures) the victim code per move.
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

    /// Writes a king's castling moves (cozy encodes them as the king taking its own
    /// rook) and returns its other destinations.
    #[inline(always)]
    fn castles(&self, from: Square, to: u64, out: &mut MoveWriter<'_>) -> u64 {
        let mut castles = to & self.ours;
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
        to & !self.ours
    }

    /// Writes a pawn's promotions and en-passant capture and returns its other destinations.
    #[inline(always)]
    fn pawn_specials(&self, from: Square, mut to: u64, out: &mut MoveWriter<'_>) -> u64 {
        let mut promos = to & PROMO_RANKS;
        to &= !PROMO_RANKS;
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
        if to & self.ep != 0 {
            to &= !self.ep;
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
        to
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

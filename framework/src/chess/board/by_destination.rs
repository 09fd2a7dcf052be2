//! Reading one move by its destination: the legal move of a named piece to a named
//! square, found by looking back from the square at the few places the piece could have
//! come from, each checked alone, instead of generating every move. What reading SAN in
//! bulk needs (see [`Position`](super::position::Position)).

use cozy_chess as cz;

use super::from_cz_color;
use crate::chess::attacks::to_cz_sq;
use crate::chess::fen::to_cz_piece;
use crate::chess::movegen::from_cz_piece;
use crate::chess::{Bitboard, Color, Move, PieceType, Square, king_attacks, knight_attacks};

/// The one legal move of the side to move's `piece`s to `to` (promoting to
/// `promotion`) from a square in `hints` (the origin file or rank a SAN move names);
/// `None` if there is none or more than one. What reading one SAN move needs:
/// instead of generating every move, the squares a piece could come from are found by
/// looking from `to` (a knight on `x` reaches `to` if a knight on `to` reaches `x`; a
/// pawn comes from one of six squares behind; a castling king from its own square),
/// and each is checked alone. A king move given king-takes-rook is read as castling
/// (see `build_move`), which counts only if it lands on `to`.
pub(super) fn unique_move_to(
    b: &cz::Board,
    piece: PieceType,
    to: Square,
    promotion: Option<PieceType>,
    hints: Bitboard,
) -> Option<Move> {
    let stm = b.side_to_move();
    let ours = Bitboard(b.colored_pieces(stm, to_cz_piece(piece)).0);
    // A slider's origins are its rays from `to` on an empty board, the path checked for
    // each candidate alone: two small tables, where attacks through the pieces would
    // take the large magic table, which a reader misses in the cache at every move.
    let to_cz = to_cz_sq(to);
    let origins = match piece {
        // A king reaches `to` from next door, or castles there from the e-file.
        PieceType::King if matches!(to.file(), 2 | 6) => king_attacks(to) | ours,
        PieceType::King => king_attacks(to),
        PieceType::Knight => knight_attacks(to),
        PieceType::Bishop => Bitboard(cz::get_bishop_rays(to_cz).0),
        PieceType::Rook => Bitboard(cz::get_rook_rays(to_cz).0),
        PieceType::Queen => Bitboard((cz::get_bishop_rays(to_cz) | cz::get_rook_rays(to_cz)).0),
        PieceType::Pawn => Bitboard(pawn_origins(to, from_cz_color(stm))),
    };
    let candidates = Bitboard(origins.0 & ours.0 & hints.0);
    // Pieces other than kings (castling) and pawns (their own rules) take the short
    // check. One loop per check, so the short one carries nothing of the others.
    match piece {
        PieceType::Pawn => the_one(candidates, to, |from| pawn_move_to(b, from, to, promotion)),
        // A king next door steps (castling never starts there); one further away castles.
        PieceType::King if promotion.is_none() => the_one(candidates, to, |from| {
            if king_attacks(to).contains(from) {
                king_step_to(b, from, to)
            } else {
                build_move(b, from, to, None)
            }
        }),
        PieceType::King => the_one(candidates, to, |from| build_move(b, from, to, promotion)),
        _ if promotion.is_some() => None,
        _ => the_one(candidates, to, |from| piece_move_to(b, piece, from, to)),
    }
}

/// The one move to `to` that `legal` finds from the squares of `candidates`; `None` for
/// none or several.
#[inline(always)]
fn the_one(
    candidates: Bitboard,
    to: Square,
    mut legal: impl FnMut(Square) -> Option<Move>,
) -> Option<Move> {
    let mut found = None;
    for from in candidates {
        if let Some(mv) = legal(from).filter(|mv| mv.to() == to) {
            if found.is_some() {
                return None;
            }
            found = Some(mv);
        }
    }
    found
}

/// [`build_move`] for a knight, bishop, rook or queen on `from` found among the squares
/// that piece reaches from `to` on an empty board: only what can still make the move
/// illegal is checked, a piece in a slider's path, a piece of ours on `to`, a pin off
/// its line, a check it does not answer.
fn piece_move_to(b: &cz::Board, piece: PieceType, from: Square, to: Square) -> Option<Move> {
    let stm = b.side_to_move();
    let (from_cz, to_cz) = (to_cz_sq(from), to_cz_sq(to));
    // A knight's squares have nothing between them.
    let blocked = !(cz::get_between_rays(from_cz, to_cz) & b.occupied()).is_empty();
    if blocked || b.colors(stm).has(to_cz) {
        return None;
    }
    if !keeps_king_safe(b, from_cz, to_cz) {
        return None;
    }
    let captured = b.piece_on(to_cz).map(from_cz_piece);
    Some(Move::new(from, to, piece, captured, None, false, false))
}

/// [`build_move`] for our pawn on `from`, found among the squares
/// a pawn reaches `to` from: its step or double step to an empty square, or its
/// capture of a piece of theirs, with the promotion the last rank needs and no other;
/// then the pin and the check as for a piece. En passant, rare, is left to cozy.
fn pawn_move_to(
    b: &cz::Board,
    from: Square,
    to: Square,
    promotion: Option<PieceType>,
) -> Option<Move> {
    let stm = b.side_to_move();
    let white = stm == cz::Color::White;
    let (from_cz, to_cz) = (to_cz_sq(from), to_cz_sq(to));
    let last_rank = if white { 7 } else { 0 };
    let promotes = matches!(
        promotion,
        Some(PieceType::Knight | PieceType::Bishop | PieceType::Rook | PieceType::Queen)
    );
    if promotion.is_some() != promotes || promotes != (to.rank() == last_rank) {
        return None;
    }
    let forward = if white {
        to.rank() - from.rank()
    } else {
        from.rank() - to.rank()
    };
    let captured = b.piece_on(to_cz).map(from_cz_piece);
    if from.file() == to.file() {
        let start_rank = if white { 1 } else { 6 };
        let middle = Square::new(to.file(), (from.rank() + to.rank()) / 2);
        let clear = match forward {
            1 => captured.is_none(),
            2 => {
                from.rank() == start_rank
                    && captured.is_none()
                    && !b.occupied().has(to_cz_sq(middle))
            }
            _ => false,
        };
        if !clear {
            return None;
        }
    } else if forward != 1 || from.file().abs_diff(to.file()) != 1 {
        return None;
    } else if captured.is_none() {
        return build_move(b, from, to, promotion);
    } else if !b.colors(!stm).has(to_cz) {
        return None;
    }
    if !keeps_king_safe(b, from_cz, to_cz) {
        return None;
    }
    Some(Move::new(
        from,
        to,
        PieceType::Pawn,
        captured,
        promotion,
        false,
        false,
    ))
}

/// [`build_move`] for our king stepping from `from` to `to` next door (no castling):
/// legal if `to` holds none of ours and none of theirs attacks it once the king
/// has left `from`. Sliders are found on their empty-board rays and their paths checked,
/// as in [`unique_move_to`].
fn king_step_to(b: &cz::Board, from: Square, to: Square) -> Option<Move> {
    let stm = b.side_to_move();
    let (from_cz, to_cz) = (to_cz_sq(from), to_cz_sq(to));
    if b.colors(stm).has(to_cz) {
        return None;
    }
    let them = b.colors(!stm);
    let blockers = b.occupied() ^ from_cz.bitboard();
    let slides = |rays: cz::BitBoard, kinds: cz::BitBoard| {
        (rays & them & kinds)
            .into_iter()
            .any(|at| (cz::get_between_rays(at, to_cz) & blockers).is_empty())
    };
    let queens = b.pieces(cz::Piece::Queen);
    let attacked = !(cz::get_knight_moves(to_cz) & them & b.pieces(cz::Piece::Knight)).is_empty()
        || !(cz::get_pawn_attacks(to_cz, stm) & them & b.pieces(cz::Piece::Pawn)).is_empty()
        || !(cz::get_king_moves(to_cz) & them & b.pieces(cz::Piece::King)).is_empty()
        || slides(
            cz::get_bishop_rays(to_cz),
            b.pieces(cz::Piece::Bishop) | queens,
        )
        || slides(cz::get_rook_rays(to_cz), b.pieces(cz::Piece::Rook) | queens);
    if attacked {
        return None;
    }
    let captured = b.piece_on(to_cz).map(from_cz_piece);
    Some(Move::new(
        from,
        to,
        PieceType::King,
        captured,
        None,
        false,
        false,
    ))
}

/// Whether moving a piece other than the king from `from` to `to` (a move it can
/// make, en passant aside) leaves its king safe: off no pin's line, and answering a
/// single check by capturing the checker or blocking it.
#[inline(always)]
fn keeps_king_safe(b: &cz::Board, from: cz::Square, to: cz::Square) -> bool {
    let king = b.king(b.side_to_move());
    if b.pinned().has(from) && !cz::get_line_rays(king, from).has(to) {
        return false;
    }
    let checkers = b.checkers();
    if checkers.is_empty() {
        return true;
    }
    let Some(checker) = checkers.next_square() else {
        return true;
    };
    checkers.len() == 1 && (cz::get_between_rays(king, checker) | checker.bitboard()).has(to)
}

/// The full [`Move`] for `from`-`to`(-`promotion`) if that is legal here.
/// Castling may be given king-to-destination (e1g1) or king-takes-rook (e1h1).
pub(super) fn build_move(
    b: &cz::Board,
    from: Square,
    to: Square,
    promotion: Option<PieceType>,
) -> Option<Move> {
    let stm = b.side_to_move();
    let piece = from_cz_piece(b.piece_on(to_cz_sq(from))?);
    if b.color_on(to_cz_sq(from)) != Some(stm) {
        return None;
    }
    if piece == PieceType::King && from.rank() == to.rank() {
        let rights = b.castle_rights(stm);
        let castle_to = if to.file() == 6 || to.file() == 7 && from.file() == 4 {
            rights.short.map(|_| 6)
        } else if to.file() == 2 || to.file() == 0 && from.file() == 4 {
            rights.long.map(|_| 2)
        } else {
            None
        };
        let is_castle_shape =
            from.file() == 4 && (to.file().abs_diff(4) == 2 || b.colors(stm).has(to_cz_sq(to)));
        if is_castle_shape {
            let file = castle_to?;
            let mv = Move::new(
                from,
                Square::new(file, from.rank()),
                PieceType::King,
                None,
                None,
                false,
                true,
            );
            return b.is_legal(mv.to_cz()).then_some(mv);
        }
    }
    let captured = b.piece_on(to_cz_sq(to)).map(from_cz_piece);
    let ep = piece == PieceType::Pawn && captured.is_none() && from.file() != to.file();
    let captured = if ep { Some(PieceType::Pawn) } else { captured };
    let mv = Move::new(from, to, piece, captured, promotion, ep, false);
    b.is_legal(mv.to_cz()).then_some(mv)
}

/// The squares a pawn of `color` could reach `to` from: one or two ranks behind it, on its
/// file or the next ones (a superset: each candidate is checked by the board).
fn pawn_origins(to: Square, color: Color) -> u64 {
    const FILE_A: u64 = 0x0101_0101_0101_0101;
    const FILE_H: u64 = FILE_A << 7;
    let bit = 1u64 << to.index();
    // `to` and its neighbours on its rank (a shift off the board's edge wraps onto the
    // other edge's file, which is cut), then moved one and two ranks back.
    let row = bit | (bit << 1 & !FILE_A) | (bit >> 1 & !FILE_H);
    if color == Color::White {
        row >> 8 | row >> 16
    } else {
        row << 8 | row << 16
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The shifted masks are the squares one and two ranks behind `to` on its file and
    /// the next ones, for every square and colour: none lost or wrapped at an edge.
    #[test]
    fn pawn_origins_are_the_squares_behind() {
        for index in 0..64u8 {
            let to = Square::from_index(index);
            for color in [Color::White, Color::Black] {
                let step = if color == Color::White { -1 } else { 1 };
                let (file, rank) = (to.file(), to.rank());
                let mut expected = 0u64;
                for r in [rank + step, rank + 2 * step] {
                    for f in file - 1..=file + 1 {
                        if (0..8).contains(&r) && (0..8).contains(&f) {
                            expected |= 1 << (r * 8 + f);
                        }
                    }
                }
                assert_eq!(pawn_origins(to, color), expected, "{to:?} {color:?}");
            }
        }
    }
}

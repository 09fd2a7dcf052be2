//! No position the FEN parser accepts can overflow a [`MoveList`]: positions
//! no game reaches (a king and 15 queens) included.

use framework::prelude::*;

/// The densest position a simulated-annealing search over placements of a king
/// and 15 queens found (against a boxed-in black king): 241 legal moves, more
/// than the 218 any reachable position has.
const DENSE: &str = "krQ4Q/pp2Q3/1Q4Q1/3Q4/Q4Q1Q/Q1Q4Q/4Q3/1Q4QK w - - 0 1";

#[test]
fn the_capacity_is_the_arithmetic_bound() {
    // King: 8 steps and 2 castlings; any other piece: at most a central queen's 27.
    let queen_on_d4 = Board::from_fen("6k1/8/8/8/3Q4/8/8/7K w - - 0 1").unwrap();
    let queen_moves = queen_on_d4
        .legal_moves()
        .iter()
        .filter(|m| m.piece() == PieceType::Queen)
        .count();
    assert_eq!(queen_moves, 27);
    assert!(MAX_MOVES >= 10 + 15 * queen_moves);
}

#[test]
fn a_position_past_218_moves_lists_them_all() {
    let board = Board::from_fen(DENSE).unwrap();
    let moves = board.legal_moves();
    assert_eq!(moves.len(), 241);
    assert_eq!(board.legal_move_count(), 241);
    assert!(moves.iter().all(|&m| board.is_legal(m)));
    let mut reused = MoveList::new();
    board.legal_moves_into(&mut reused, false);
    assert_eq!(reused.as_slice(), moves.as_slice());
}

/// Puts `piece` on a random empty square (pawns not on the first or last rank).
fn put(cells: &mut [char; 64], piece: char, next: &mut impl FnMut(usize) -> usize) {
    for _ in 0..64 {
        let square = next(64);
        let pawn_rank = square / 8 == 0 || square / 8 == 7;
        if cells[square] == '.' && !(pawn_rank && piece.eq_ignore_ascii_case(&'p')) {
            cells[square] = piece;
            return;
        }
    }
}

/// A random placement: both kings, then up to 15 more pieces a side, mostly queens.
fn random_fen(next: &mut impl FnMut(usize) -> usize) -> String {
    let mut cells = ['.'; 64];
    put(&mut cells, 'K', next);
    put(&mut cells, 'k', next);
    let white = next(16);
    for _ in 0..white {
        put(
            &mut cells,
            *['Q', 'Q', 'Q', 'R', 'B', 'N', 'P'].get(next(7)).unwrap(),
            next,
        );
    }
    for _ in 0..next(16) {
        put(&mut cells, *['q', 'r', 'p'].get(next(3)).unwrap(), next);
    }
    let mut placement = String::new();
    for rank in (0..8).rev() {
        let mut empty = 0;
        for file in 0..8 {
            match cells[rank * 8 + file] {
                '.' => empty += 1,
                piece => {
                    if empty > 0 {
                        placement.push_str(&empty.to_string());
                        empty = 0;
                    }
                    placement.push(piece);
                }
            }
        }
        if empty > 0 {
            placement.push_str(&empty.to_string());
        }
        if rank > 0 {
            placement.push('/');
        }
    }
    let side = if next(2) == 0 { 'w' } else { 'b' };
    format!("{placement} {side} - - 0 1")
}

#[test]
fn random_crowded_positions_never_overflow() {
    let mut state = 0x9E37_79B9_7F4A_7C15_u64;
    let mut next = |n: usize| {
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        ((state >> 33) as usize) % n
    };
    let (mut accepted, mut most) = (0, 0);
    for _ in 0..20_000 {
        let fen = random_fen(&mut next);
        let Ok(board) = Board::from_fen(&fen) else {
            continue;
        };
        accepted += 1;
        let moves = board.legal_moves();
        assert_eq!(moves.len(), board.legal_move_count(), "{fen}");
        assert!(board.captures().len() <= moves.len(), "{fen}");
        most = most.max(moves.len());
    }
    assert!(accepted > 1000, "only {accepted} positions accepted");
    assert!(
        most > 100,
        "the crowded positions were not crowded: at most {most} moves"
    );
}

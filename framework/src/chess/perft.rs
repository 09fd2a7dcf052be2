//! Perft: counting the leaf nodes of the legal move tree, to check move generation.
//!
//! Not in the prelude; use `framework::chess::perft::perft`.

use super::{Board, Move, MoveList};

/// Leaf count at `depth`, making and undoing every move through the public [`Board`]
/// API, leaves included: exercises exactly what a search does.
///
/// ```
/// use framework::chess::{Board, perft::perft};
/// assert_eq!(perft(&mut Board::startpos(), 3), 8_902);
/// ```
pub fn perft(board: &mut Board, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut list = MoveList::new();
    board.legal_moves_into(&mut list, false);
    let mut nodes = 0;
    for &mv in list.iter() {
        board.make_move(mv);
        nodes += perft(board, depth - 1);
        board.undo_move();
    }
    nodes
}

/// Leaf count at `depth`, counting the last ply's moves in bulk
/// ([`Board::legal_move_count`]) instead of playing them: the fast variant.
///
/// ```
/// use framework::chess::{Board, perft::perft_bulk};
/// assert_eq!(perft_bulk(&mut Board::startpos(), 4), 197_281);
/// ```
pub fn perft_bulk(board: &mut Board, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => board.legal_move_count() as u64,
        _ => {
            let list = board.legal_moves();
            let mut nodes = 0;
            for &mv in list.iter() {
                board.make_move(mv);
                nodes += perft_bulk(board, depth - 1);
                board.undo_move();
            }
            nodes
        }
    }
}

/// The bulk leaf count below each legal move at `depth` (the "divide" view used to find
/// move-generation bugs against a reference engine). Empty for `depth == 0`.
///
/// ```
/// use framework::chess::{Board, perft::perft_divide};
/// let div = perft_divide(&mut Board::startpos(), 2);
/// assert_eq!(div.len(), 20);
/// assert!(div.iter().all(|&(_, n)| n == 20));
/// ```
pub fn perft_divide(board: &mut Board, depth: u32) -> Vec<(Move, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    board
        .legal_moves()
        .into_iter()
        .map(|mv| {
            board.make_move(mv);
            let n = perft_bulk(board, depth - 1);
            board.undo_move();
            (mv, n)
        })
        .collect()
}

//! What the benchmarks share: raw cozy-chess doing the kit's work, for the
//! same-run reference figures.

#![allow(dead_code)] // each bench target uses only part of this module

use cozy_chess as cz;

/// cozy's moves for one position, flattened into a stack buffer as the kit's `MoveList` is.
pub fn cozy_moves(board: &cz::Board) -> ([cz::Move; 256], usize) {
    let mut buf = [cz::Move {
        from: cz::Square::A1,
        to: cz::Square::A1,
        promotion: None,
    }; 256];
    let mut n = 0;
    board.generate_moves(|pm| {
        for mv in pm {
            buf[n] = mv;
            n += 1;
        }
        false
    });
    (buf, n)
}

/// Raw cozy copy-make perft, playing every move down to the leaves (like `perft`).
pub fn cozy_perft(board: &cz::Board, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let (moves, n) = cozy_moves(board);
    let mut nodes = 0;
    for &mv in &moves[..n] {
        let mut child = board.clone();
        child.play_unchecked(mv);
        nodes += cozy_perft(&child, depth - 1);
    }
    nodes
}

/// Raw cozy bulk-counting perft (like `perft_bulk`): the last ply is counted, not played.
pub fn cozy_perft_bulk(board: &cz::Board, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => {
            let mut n = 0;
            board.generate_moves(|pm| {
                n += pm.len() as u64;
                false
            });
            n
        }
        _ => {
            let (moves, n) = cozy_moves(board);
            let mut nodes = 0;
            for &mv in &moves[..n] {
                let mut child = board.clone();
                child.play_unchecked(mv);
                nodes += cozy_perft_bulk(&child, depth - 1);
            }
            nodes
        }
    }
}

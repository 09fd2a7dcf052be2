//! What the benchmarks share: raw cozy-chess doing the kit's work, for the
//! same-run reference figures.
//!
//! The reference is written as a careful cozy-chess user would write it, so a ratio
//! against it is not flattered: moves go into an uninitialised stack buffer, filled in
//! place (as the kit's `MoveList` is), not into a zeroed array copied out by value.

#![allow(dead_code)] // each bench target uses only part of this module

use std::mem::MaybeUninit;

use cozy_chess as cz;

/// Room for one position's moves: more than any position the references are run on has
/// (a position reachable in a game has at most 218).
pub const COZY_BUFFER: usize = 256;

/// An uninitialised buffer for [`cozy_moves_into`].
pub type CozyBuffer = [MaybeUninit<cz::Move>; COZY_BUFFER];

/// A fresh [`CozyBuffer`] (nothing is written until moves are).
#[inline(always)]
pub fn cozy_buffer() -> CozyBuffer {
    [const { MaybeUninit::uninit() }; COZY_BUFFER]
}

/// cozy's legal moves of `board`, flattened into `buf`: cozy's generation into an array.
///
/// # Panics
/// If the position has more than [`COZY_BUFFER`] moves.
#[inline(always)]
pub fn cozy_moves_into<'a>(board: &cz::Board, buf: &'a mut CozyBuffer) -> &'a [cz::Move] {
    let mut n = 0;
    board.generate_moves(|pm| {
        for mv in pm {
            buf[n].write(mv);
            n += 1;
        }
        false
    });
    // SAFETY: the first `n` entries were just written; `cz::Move` is `Copy`.
    unsafe { std::slice::from_raw_parts(buf.as_ptr().cast::<cz::Move>(), n) }
}

/// Raw cozy copy-make perft, playing every move down to the leaves (like `perft`).
pub fn cozy_perft(board: &cz::Board, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut buf = cozy_buffer();
    let mut nodes = 0;
    for &mv in cozy_moves_into(board, &mut buf) {
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
            let mut buf = cozy_buffer();
            let mut nodes = 0;
            for &mv in cozy_moves_into(board, &mut buf) {
                let mut child = board.clone();
                child.play_unchecked(mv);
                nodes += cozy_perft_bulk(&child, depth - 1);
            }
            nodes
        }
    }
}

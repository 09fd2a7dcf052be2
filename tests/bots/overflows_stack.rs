//! Fault injection: recurses without end.
use framework::prelude::*;

#[derive(Default)]
pub struct MyBot;

/// Each frame hands the next a reference into its own stack, so the
/// recursion cannot be turned into a loop.
fn deeper(board: &Board, trail: &[u64; 64]) -> u64 {
    let here = [board.key() ^ trail[1]; 64];
    here[7] ^ deeper(board, &here)
}

impl Bot for MyBot {
    fn think(&mut self, board: &mut Board, _timer: &Timer) -> Move {
        let total = deeper(board, &[0; 64]);
        board.legal_moves()[total as usize % 2]
    }
}

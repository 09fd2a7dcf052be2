//! Secrets test: an ordinary bot within the rules. The tests build it the way each
//! path does, then put the memory-scanning bot (`scans_memory.rs`) in the cache in
//! its place, as if that bot had passed the checker through a hole in it.
use framework::prelude::*;

#[derive(Default)]
pub struct MyBot;

impl Bot for MyBot {
    fn think(&mut self, board: Board, _timer: Timer) -> Move {
        board.legal_moves()[0]
    }
}

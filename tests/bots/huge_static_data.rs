//! Build-bounds test: a 100 MB static of non-zero bytes, never used. A bot may declare
//! it (52 tokens at 800 MB): rustc evaluates it, and an incremental build stores the
//! whole array in its query cache on disk, where nothing else ever reads it.
use framework::prelude::*;

static TABLE: [u8; 100_000_000] = [1; 100_000_000];

#[derive(Default)]
pub struct MyBot;

impl Bot for MyBot {
    fn think(&mut self, board: Board, _timer: Timer) -> Move {
        board.legal_moves()[0]
    }
}

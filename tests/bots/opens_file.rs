//! Sandbox test: reads a file while thinking (the rules refuse `std::fs`; the
//! test harness builds this bot without the rules check).
use framework::prelude::*;

#[derive(Default)]
pub struct MyBot;

impl Bot for MyBot {
    fn think(&mut self, board: Board, _timer: Timer) -> Move {
        let secret = std::fs::read("/etc/hostname").map_or(0, |bytes| bytes.len());
        board.legal_moves()[secret % 2]
    }
}

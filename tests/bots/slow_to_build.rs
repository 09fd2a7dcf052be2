//! Fault injection: takes longer than the 5 s limit to construct.
use framework::prelude::*;

pub struct MyBot;

impl Default for MyBot {
    fn default() -> Self {
        let start = std::time::Instant::now();
        while start.elapsed().as_millis() < 5_500 {}
        MyBot
    }
}

impl Bot for MyBot {
    fn think(&mut self, board: Board, _timer: Timer) -> Move {
        board.legal_moves()[0]
    }
}

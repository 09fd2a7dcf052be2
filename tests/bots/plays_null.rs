//! Fault injection: answers with the null move.
use framework::prelude::*;

#[derive(Default)]
pub struct MyBot;

impl Bot for MyBot {
    fn think(&mut self, _board: Board, _timer: Timer) -> Move {
        Move::NULL
    }
}

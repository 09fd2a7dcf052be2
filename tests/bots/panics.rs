//! Fault injection: panics on its first move.
use framework::prelude::*;

#[derive(Default)]
pub struct MyBot;

impl Bot for MyBot {
    fn think(&mut self, _board: Board, _timer: Timer) -> Move {
        panic!("deliberate panic in think")
    }
}

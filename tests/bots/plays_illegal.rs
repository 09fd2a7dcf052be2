//! Fault injection: answers with a move that is not legal.
use framework::prelude::*;

#[derive(Default)]
pub struct MyBot;

impl Bot for MyBot {
    fn think(&mut self, board: &mut Board, _timer: &Timer) -> Move {
        // A king two squares forward is never legal from the start position.
        board.parse_uci("e1e3").unwrap_or(Move::NULL)
    }
}

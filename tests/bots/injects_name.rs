//! Fault injection: a name with line breaks, which would add protocol lines
//! (a stale `bestmove`, a fake `info`) to the engine's `id name` answer.
use framework::prelude::*;

#[derive(Default)]
pub struct MyBot;

impl Bot for MyBot {
    const NAME: &'static str = "Tiny\nbestmove e2e4\ninfo string pwned";

    fn think(&mut self, board: Board, _timer: Timer) -> Move {
        board.legal_moves()[0]
    }
}

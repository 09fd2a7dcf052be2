//! Fault injection: answers with a move of the side not to move.
use framework::prelude::*;

#[derive(Default)]
pub struct MyBot;

impl Bot for MyBot {
    fn think(&mut self, mut board: Board, _timer: Timer) -> Move {
        board.skip_turn();
        let theirs = board.legal_moves()[0];
        board.undo_skip_turn();
        theirs
    }
}

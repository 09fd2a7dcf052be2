use framework::prelude::*;

#[derive(Default)]
pub struct MyBot;

impl Bot for MyBot {
    fn think(&mut self, board: &mut Board, _timer: &Timer) -> Move {
        board.legal_moves()[0]
    }
}

use framework::prelude::*;

#[derive(Default)]
pub struct MyBot;

impl Bot for MyBot {
    fn think(&mut self, board: Board, _timer: Timer) -> Move {
        let count: u32 = "not a number";
        board.legal_moves()[count as usize]
    }
}

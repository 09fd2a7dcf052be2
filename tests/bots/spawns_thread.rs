//! Sandbox test: searches on a second thread (bots think on one thread).
use framework::prelude::*;

#[derive(Default)]
pub struct MyBot;

impl Bot for MyBot {
    fn think(&mut self, board: Board, _timer: Timer) -> Move {
        let moves = board.legal_moves();
        let helper = std::thread::spawn(move || moves.len());
        let count = helper.join().unwrap_or(1);
        board.legal_moves()[count % 2]
    }
}

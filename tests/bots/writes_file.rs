//! Sandbox test: writes a file next to the engine (a book, a log, a message
//! to a later game).
use framework::prelude::*;

#[derive(Default)]
pub struct MyBot;

impl Bot for MyBot {
    fn think(&mut self, board: Board, _timer: Timer) -> Move {
        let path = std::env::temp_dir().join("challenge-sandbox-escape.txt");
        let wrote = std::fs::write(path, board.fen()).is_ok();
        board.legal_moves()[usize::from(wrote)]
    }
}

//! Sandbox test: starts another program (fork and exec).
use framework::prelude::*;

#[derive(Default)]
pub struct MyBot;

impl Bot for MyBot {
    fn think(&mut self, board: Board, _timer: Timer) -> Move {
        let ran = std::process::Command::new("true").status().is_ok();
        board.legal_moves()[usize::from(ran)]
    }
}

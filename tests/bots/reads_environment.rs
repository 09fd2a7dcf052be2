//! Sandbox test: reads the process environment while thinking, which needs
//! no system call (the rules refuse `std::env`; the test harness builds this
//! bot without the rules check).
use framework::prelude::*;

#[derive(Default)]
pub struct MyBot;

impl Bot for MyBot {
    fn think(&mut self, board: Board, _timer: Timer) -> Move {
        let names: Vec<String> = std::env::vars_os()
            .map(|(name, _)| name.to_string_lossy().into_owned())
            .collect();
        eprintln!("environment seen by the bot: [{}]", names.join(","));
        board.legal_moves()[0]
    }
}

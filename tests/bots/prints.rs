//! Fault injection: prints to stdout, including things that look like UCI.
use framework::prelude::*;

#[derive(Default)]
pub struct MyBot;

impl Bot for MyBot {
    fn think(&mut self, board: Board, _timer: Timer) -> Move {
        println!("bestmove a1a1");
        println!("thinking about {}", board.fen());
        print!("no newline");
        board.legal_moves()[0]
    }
}

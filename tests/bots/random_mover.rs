//! A test bot that plays a random legal move with the kit's `Random`, kept for the game
//! (the host seeds it per game from the runner's `--seed`, through the UCI option `Seed`).
use framework::prelude::*;

#[derive(Default)]
pub struct MyBot {
    rng: Random,
}

impl Bot for MyBot {
    fn think(&mut self, board: Board, _timer: Timer) -> Move {
        let moves = board.legal_moves();
        moves[self.rng.next_max(moves.len())]
    }
}

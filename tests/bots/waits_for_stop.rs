//! Test bot: thinks until its clock runs out or the host says `stop`,
//! reporting its progress as it goes.
use framework::prelude::*;

#[derive(Default)]
pub struct MyBot;

impl Bot for MyBot {
    fn think(&mut self, board: Board, timer: Timer) -> Move {
        let moves = board.legal_moves();
        let mut depth = 0;
        while timer.ms_remaining() > 0 {
            depth += 1;
            report(depth, 0, &moves[..1]);
            let until = timer.ms_elapsed_this_turn() + 20;
            while timer.ms_elapsed_this_turn() < until && timer.ms_remaining() > 0 {}
        }
        moves[0]
    }
}

//! Fault injection: never returns a move, whatever its clock says.
use framework::prelude::*;

#[derive(Default)]
pub struct MyBot;

impl Bot for MyBot {
    fn think(&mut self, board: Board, timer: Timer) -> Move {
        // Reading the clock is a side effect the optimiser must keep.
        while timer.ms_elapsed_this_turn() < i32::MAX {}
        board.legal_moves()[0]
    }
}

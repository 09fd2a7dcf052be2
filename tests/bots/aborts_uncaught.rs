//! Calls `abort_search` with no `try_search` around it: the engine must end with a message
//! instead of leaving the client waiting for a move.
use framework::prelude::*;

#[derive(Default)]
pub struct MyBot;

impl Bot for MyBot {
    fn think(&mut self, _board: Board, _timer: Timer) -> Move {
        abort_search()
    }
}

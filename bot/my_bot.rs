use framework::prelude::*;

#[derive(Default)]
pub struct MyBot;

impl Bot for MyBot {
    /// Plays the first legal move. A searching bot keeps to the client's limits with
    /// two calls on the timer: `for depth in 1..=timer.max_depth()` for its iterative
    /// deepening, and `timer.should_stop(budget_ms, nodes)` after each move it
    /// searches, with the time it means to spend and the nodes it has counted.
    fn think(&mut self, board: Board, _timer: Timer) -> Move {
        board.legal_moves()[0]
    }
}

//! A deterministic test bot: plays a capture if it has one (the one leaving the fewest replies), else its first move.
//!
//! It never reads the clock: the same position always gets the same move, so a
//! tournament of such bots has the same results wherever and however it is played. Each
//! move costs a fixed amount of work (making every move and counting the replies, 100,000
//! times in turn) so that a game lasts long enough to be interrupted.
use framework::prelude::*;

#[derive(Default)]
pub struct MyBot;

impl Bot for MyBot {
    fn think(&mut self, mut board: Board, _timer: Timer) -> Move {
        let moves = board.legal_moves();
        let n = moves.len();
        let mut replies = vec![0usize; n];
        for i in 0..100_000 {
            let k = i % n;
            board.make_move(moves[k]);
            replies[k] += board.legal_move_count();
            board.undo_move();
        }
        let best = (0..n).filter(|&k| moves[k].is_capture()).min_by_key(|&k| replies[k]).unwrap_or(0);
        moves[best]
    }
}

//! A simple opponent for first tests: it mates in one when it can, otherwise
//! takes the most valuable piece on offer, otherwise plays a random move.
//!
//! Limits: it looks one ply ahead, so any `go depth` is deep enough; under `go nodes N` it
//! tries at most N moves (a node each) and plays the best of those. With a depth or node
//! limit its random choices start from a fixed seed, so its games repeat move for move.
use framework::prelude::*;

#[derive(Default)]
pub struct MyBot {
    /// State of the random number generator (0 until the first move seeds it).
    seed: u64,
}

impl Bot for MyBot {
    fn think(&mut self, mut board: Board, timer: Timer) -> Move {
        if self.seed == 0 {
            // Seeded from the clock so that games differ, unless the client asks for
            // a reproducible search.
            self.seed = if timer.limits().is_fixed() {
                1
            } else {
                std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .map_or(1, |since| since.as_nanos() as u64)
                    | 1
            };
        }
        // Knuth's MMIX linear congruential generator.
        self.seed = self
            .seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let moves = board.legal_moves();
        let mut best = moves[(self.seed >> 33) as usize % moves.len()];
        let mut best_value = 0;
        let mut nodes = 0;
        for &mv in moves.iter() {
            if timer.should_stop(i32::MAX, nodes) {
                break;
            }
            nodes += 1;
            board.make_move(mv);
            let mate = board.is_checkmate();
            board.undo_move();
            if mate {
                return mv;
            }
            let value = mv
                .captured()
                .map_or(0, |piece| [1, 3, 3, 5, 9, 0][piece.index()]);
            if value > best_value {
                best = mv;
                best_value = value;
            }
        }
        best
    }
}

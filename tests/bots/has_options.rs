//! Test bot: declares two UCI options and plays by them, so the host's options can be
//! seen from outside. It plays the legal move at `First + thoughts` (modulo the number of
//! legal moves), `thoughts` counting the moves it was asked for since it was constructed:
//! a fresh bot (after `ucinewgame` or `Clear Hash`) starts again at `First`. Before its
//! move it reports one iteration per unit of `Depth`, having counted `100 * depth` nodes
//! through `should_stop`.
use framework::prelude::*;

#[derive(Default)]
pub struct MyBot {
    first: i64,
    depth: i64,
    thoughts: i64,
}

impl Bot for MyBot {
    const OPTIONS: &'static [(&'static str, i64, i64, i64)] =
        &[("First Move", 0, 0, 300), ("Depth", 2, 1, 9)];

    fn set_option(&mut self, name: &str, value: i64) {
        if name == "Depth" {
            self.depth = value
        } else {
            self.first = value
        }
    }

    fn think(&mut self, board: Board, timer: Timer) -> Move {
        let moves = board.legal_moves();
        for depth in 1..=self.depth {
            timer.should_stop(i32::MAX, 100 * depth as u64);
            report(depth as u32, 0, &moves[..1]);
        }
        self.thoughts += 1;
        moves[((self.first + self.thoughts - 1) as usize) % moves.len()]
    }
}

//! Fault injection: allocates far past the 256 MiB limit, a chunk at a time. Zeroed
//! chunks: the limit counts what is asked for, and untouched pages cost no time, so
//! the bot meets the limit at once even on a loaded machine (filling each chunk took
//! longer than the smoke test's deadline there, and it was refused for time instead).
use framework::prelude::*;

#[derive(Default)]
pub struct MyBot {
    hoard: Vec<Vec<u8>>,
}

impl Bot for MyBot {
    fn think(&mut self, board: Board, _timer: Timer) -> Move {
        for _ in 0..1024 {
            self.hoard.push(vec![0u8; 1 << 20]);
        }
        board.legal_moves()[self.hoard.len() % 2]
    }
}

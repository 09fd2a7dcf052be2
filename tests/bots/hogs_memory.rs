//! Fault injection: allocates far past the 256 MiB limit, a chunk at a time.
use framework::prelude::*;

#[derive(Default)]
pub struct MyBot {
    hoard: Vec<Vec<u8>>,
}

impl Bot for MyBot {
    fn think(&mut self, board: &mut Board, _timer: &Timer) -> Move {
        for _ in 0..1024 {
            self.hoard.push(vec![1; 1 << 20]);
        }
        board.legal_moves()[self.hoard.len() % 2]
    }
}

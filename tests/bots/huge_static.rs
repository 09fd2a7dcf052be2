//! Sandbox test: a 320 MiB static table, which never passes through the
//! counting allocator.
use framework::prelude::*;
use std::sync::Mutex;

static TABLE: Mutex<[u8; 5 << 26]> = Mutex::new([0; 5 << 26]);

#[derive(Default)]
pub struct MyBot;

impl Bot for MyBot {
    fn think(&mut self, board: Board, _timer: Timer) -> Move {
        let mut table = TABLE.lock().unwrap_or_else(|e| e.into_inner());
        for page in table.chunks_mut(4096) {
            page[0] = 1;
        }
        board.legal_moves()[table.len() % 2]
    }
}

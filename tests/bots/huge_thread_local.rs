//! Sandbox test: 160 MiB of thread-local storage, one copy per host thread
//! (320 MiB), which never passes through the counting allocator. Larger
//! tables already fail their build: rustc evaluates the const initialiser
//! within the 4 GiB build limit.
use framework::prelude::*;
use std::cell::RefCell;

thread_local! {
    static TABLE: RefCell<[u8; 5 << 25]> = const { RefCell::new([0; 5 << 25]) };
}

#[derive(Default)]
pub struct MyBot;

impl Bot for MyBot {
    fn think(&mut self, board: Board, _timer: Timer) -> Move {
        let touched = TABLE.with_borrow_mut(|table| {
            for page in table.chunks_mut(4096) {
                page[0] = 1;
            }
            table.len()
        });
        board.legal_moves()[touched % 2]
    }
}

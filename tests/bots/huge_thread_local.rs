//! Sandbox test: 512 MiB of thread-local storage, which never passes through
//! the counting allocator.
use framework::prelude::*;
use std::cell::RefCell;

thread_local! {
    static TABLE: RefCell<[u8; 1 << 29]> = const { RefCell::new([0; 1 << 29]) };
}

#[derive(Default)]
pub struct MyBot;

impl Bot for MyBot {
    fn think(&mut self, board: &mut Board, _timer: &Timer) -> Move {
        let touched = TABLE.with_borrow_mut(|table| {
            for page in table.chunks_mut(4096) {
                page[0] = 1;
            }
            table.len()
        });
        board.legal_moves()[touched % 2]
    }
}

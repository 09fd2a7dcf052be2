//! Build-limit test: constant evaluation that never ends, so the build
//! itself would run forever (rustc's own guard, a deny-by-default lint,
//! is one attribute away).
#![allow(long_running_const_eval)]
use framework::prelude::*;

const fn spin() -> u64 {
    let mut n: u64 = 0;
    loop {
        n = n.wrapping_add(1);
        if n == u64::MAX {
            n = 0;
        }
    }
}

const NEVER: u64 = spin();

#[derive(Default)]
pub struct MyBot;

impl Bot for MyBot {
    fn think(&mut self, board: Board, _timer: Timer) -> Move {
        board.legal_moves()[(NEVER % 2) as usize]
    }
}

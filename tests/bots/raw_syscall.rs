//! Sandbox test: a system call made directly with inline assembly, as a bot
//! that slipped past the checker could: `kill(1, 0)` probes another process.
//! The filter sees every system call, however it is made.
use framework::prelude::*;

#[derive(Default)]
pub struct MyBot;

#[cfg(target_arch = "x86_64")]
fn probe_init() -> isize {
    let result: isize;
    // SAFETY: the kill system call with signal 0 only checks the process exists.
    unsafe {
        std::arch::asm!("syscall", inlateout("rax") 62isize => result, in("rdi") 1, in("rsi") 0,
            lateout("rcx") _, lateout("r11") _);
    }
    result
}

#[cfg(target_arch = "aarch64")]
fn probe_init() -> isize {
    let result: isize;
    // SAFETY: the kill system call with signal 0 only checks the process exists.
    unsafe {
        std::arch::asm!("svc 0", in("x8") 129isize, inlateout("x0") 1isize => result, in("x1") 0);
    }
    result
}

impl Bot for MyBot {
    fn think(&mut self, board: Board, _timer: Timer) -> Move {
        let alive = probe_init() == 0;
        board.legal_moves()[usize::from(alive)]
    }
}

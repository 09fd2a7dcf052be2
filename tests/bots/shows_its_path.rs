//! Neutral-start test: a bot that says what names its own process, as any bot can read
//! it from its memory: its arguments (`argv`, on the initial stack) and the auxiliary
//! vector's `AT_EXECFN` (the path the kernel executed, also on the initial stack). It
//! reports them on stderr when asked to move, then panics, so the report comes back
//! through the runner's fault record. (`/proc/self/exe` it cannot read: the sandbox
//! refuses `readlink`; the test reads it from outside, as the same link.)
//!
//! It uses `extern` and `unsafe`, which the rules refuse: the tests build it without the
//! rules check, as an author who found a hole in the checker could.
use framework::prelude::*;

unsafe extern "C" {
    fn getauxval(kind: core::ffi::c_ulong) -> core::ffi::c_ulong;
}

/// `AT_EXECFN` in the auxiliary vector (linux/auxvec.h).
const AT_EXECFN: core::ffi::c_ulong = 31;

#[derive(Default)]
pub struct MyBot;

impl Bot for MyBot {
    fn think(&mut self, _board: Board, _timer: Timer) -> Move {
        let argv: Vec<String> = std::env::args().collect();
        // SAFETY: glibc's copy of the auxiliary vector, read without a system call;
        // `AT_EXECFN` points at a NUL-terminated string on the initial stack.
        let execfn = unsafe {
            let at = getauxval(AT_EXECFN);
            if at == 0 {
                "(none)".to_string()
            } else {
                core::ffi::CStr::from_ptr(at as *const core::ffi::c_char)
                    .to_string_lossy()
                    .into_owned()
            }
        };
        eprintln!("names: argv {argv:?}; AT_EXECFN {execfn}");
        panic!("reported")
    }
}

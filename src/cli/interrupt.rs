//! Ctrl-C for every command: the one place the process's handler is installed. Each
//! command asks once for what it needs: a flag to stop at the next safe point
//! ([`stop_flag`], [`stop_flag_saying`]) or a last act before the program ends
//! ([`last_act`]).

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

/// A flag the first Ctrl-C sets, for a command that stops at its next safe point
/// (`match`, `tune`, `analyze`, `sweep`: what is finished is on disk). A second press
/// leaves at once, with the signal's exit code 130.
pub(super) fn stop_flag() -> Arc<AtomicBool> {
    let stop = Arc::new(AtomicBool::new(false));
    let flag = Arc::clone(&stop);
    let presses = AtomicUsize::new(0);
    install(move || {
        flag.store(true, Ordering::SeqCst);
        if presses.fetch_add(1, Ordering::SeqCst) >= 1 {
            std::process::exit(130);
        }
    });
    stop
}

/// A flag every Ctrl-C sets after saying `line` on stderr, for a command that must
/// always finish its stop itself (`worker`: it gives the games in play back to the
/// store, so no press ends it at once).
#[cfg(feature = "server")]
pub(super) fn stop_flag_saying(line: &'static str) -> Arc<AtomicBool> {
    let stop = Arc::new(AtomicBool::new(false));
    let flag = Arc::clone(&stop);
    install(move || {
        eprintln!("{line}");
        flag.store(true, Ordering::Relaxed);
    });
    stop
}

/// On Ctrl-C, runs `act` (`play` saves the game) and ends the program as the signal
/// would, with exit code 130.
pub(super) fn last_act(act: impl Fn() + Send + 'static) {
    install(move || {
        act();
        std::process::exit(130);
    });
}

/// Installs the process's one handler. `ctrlc` takes one per process and each command
/// asks once; should it refuse (no signal support), Ctrl-C keeps its default, which
/// ends the program, so the command runs on without a handler.
fn install(handler: impl FnMut() + Send + 'static) {
    let _ = ctrlc::set_handler(handler);
}

//! A closed pipe ends the program quietly, as it ends other Unix tools: `challenge ... |
//! head` (or `2>&1 | head`) stops when `head` has read enough, without a panic message
//! and exit code 101.
//!
//! Rust ignores `SIGPIPE` in every program, so a write to a pipe nobody reads fails with
//! `EPIPE`, and `println!`/`eprintln!` panic on that failure. The signal stays ignored:
//! the runner writes to engines' pipes, and an engine that died must be a fault of that
//! game, not the end of the match. Only a print to the program's own stdout or stderr
//! that fails this way ends the program, by the signal's default action, so the shell
//! sees what it sees for any Unix tool (128 + 13 = 141).

use std::panic::PanicHookInfo;

/// Installs the panic hook that ends the program quietly when a print to stdout or stderr
/// found the pipe closed; every other panic is reported as before.
pub fn end_quietly_on_closed_pipe() {
    let report = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        if is_closed_pipe(info) {
            end_by_closed_pipe();
        }
        report(info);
    }));
}

/// Whether the panic is `println!`'s or `eprintln!`'s on a closed pipe: the standard
/// library panics with "failed printing to stdout: " (or stderr) and the error.
fn is_closed_pipe(info: &PanicHookInfo<'_>) -> bool {
    let payload = info.payload();
    let message = payload
        .downcast_ref::<String>()
        .map(String::as_str)
        .or_else(|| payload.downcast_ref::<&str>().copied())
        .unwrap_or_default();
    message.starts_with("failed printing to std") && message.contains(&broken_pipe_text())
}

/// How the system words `EPIPE` in an error's text.
#[cfg(unix)]
fn broken_pipe_text() -> String {
    std::io::Error::from_raw_os_error(libc::EPIPE).to_string()
}

#[cfg(not(unix))]
fn broken_pipe_text() -> String {
    std::io::Error::from(std::io::ErrorKind::BrokenPipe).to_string()
}

/// Ends the process as `SIGPIPE`'s default action does.
#[cfg(unix)]
fn end_by_closed_pipe() -> ! {
    // SAFETY: restoring a signal's default action and raising it are async-signal-safe
    // calls with constant arguments; nothing else runs in between.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
        libc::raise(libc::SIGPIPE);
    }
    // Not reached: the default action of SIGPIPE ends the process.
    std::process::exit(128 + libc::SIGPIPE)
}

#[cfg(not(unix))]
fn end_by_closed_pipe() -> ! {
    std::process::exit(1)
}

//! The protocol channel: the only way lines reach the UCI client.
//!
//! A bot may print whatever it likes; to keep that out of the protocol, the
//! host moves the real stdout to a private file descriptor and points fd 1 at
//! stderr. Everything the protocol says goes through [`send`].

use std::fs::File;
use std::io::{LineWriter, Write};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, OnceLock};
use std::time::Instant;

use crate::chess::Move;

struct Channel {
    out: Mutex<LineWriter<File>>,
    /// When the current `go` started, for the `time` field of `info` lines.
    search_start: Mutex<Instant>,
}

static CHANNEL: OnceLock<Channel> = OnceLock::new();

/// The most nodes the bot has passed to `Timer::should_stop` in the current search
/// ([`NO_NODES`] before its first call): the host ties each search's timer to it, so
/// [`report`] can say how many nodes each iteration took without the bot passing them.
pub(crate) static SEARCH_NODES: AtomicU64 = AtomicU64::new(NO_NODES);

/// [`SEARCH_NODES`] before the bot has counted anything in this search.
const NO_NODES: u64 = u64::MAX;

/// Takes over the process's stdout for the protocol. Called once, first
/// thing, by the host. Returns the protocol's descriptor (the sandbox keeps
/// it open).
pub(crate) fn take_stdout() -> std::io::Result<i32> {
    std::io::stdout().flush()?;
    let protocol = redirect_stdout_to_stderr()?;
    let fd = raw_fd(&protocol);
    let channel = Channel {
        out: Mutex::new(LineWriter::new(protocol)),
        search_start: Mutex::new(Instant::now()),
    };
    // A second call keeps the first channel: the redirection is already done.
    let _ = CHANNEL.set(channel);
    Ok(fd)
}

#[cfg(unix)]
fn raw_fd(file: &File) -> i32 {
    use std::os::fd::AsRawFd;
    file.as_raw_fd()
}

#[cfg(not(unix))]
fn raw_fd(_file: &File) -> i32 {
    -1
}

#[cfg(unix)]
fn redirect_stdout_to_stderr() -> std::io::Result<File> {
    use std::os::fd::FromRawFd;
    // SAFETY: dup/dup2 on the process's own standard descriptors; the new
    // descriptor is owned by the returned File and by nothing else.
    unsafe {
        let protocol_fd = libc::dup(1);
        if protocol_fd < 0 || libc::dup2(2, 1) < 0 {
            return Err(std::io::Error::last_os_error());
        }
        Ok(File::from_raw_fd(protocol_fd))
    }
}

#[cfg(not(unix))]
fn redirect_stdout_to_stderr() -> std::io::Result<File> {
    Err(std::io::Error::other(
        "the UCI host needs a Unix system to keep bot output off the protocol",
    ))
}

/// Sends one protocol line to the client.
pub(crate) fn send(line: &str) {
    if let Some(channel) = CHANNEL.get() {
        let mut out = channel.out.lock().unwrap_or_else(|e| e.into_inner());
        // A client that has gone away cannot be told anything; the host
        // notices on stdin and exits.
        let _ = writeln!(out, "{line}");
    }
}

pub(crate) fn mark_search_start() {
    SEARCH_NODES.store(NO_NODES, Ordering::Relaxed);
    if let Some(channel) = CHANNEL.get() {
        *channel
            .search_start
            .lock()
            .unwrap_or_else(|e| e.into_inner()) = Instant::now();
    }
}

/// Reports search progress to the UCI client as an `info` line: the depth
/// reached, the score in centipawns from the bot's point of view, and the
/// principal variation (which may be empty).
///
/// When the bot counts its nodes through [`Timer::should_stop`](crate::timer::Timer::should_stop),
/// the line also carries `nodes` (the most it has passed there so far this search, so
/// cumulative over the iterations, as UCI engines report them) and `nps`, for no tokens
/// of the bot's: `info depth 3 score cp 25 nodes 1834 nps 917000 time 2 pv e2e4`.
/// Called after each iteration of an iterative deepening, that is what a bench's depth
/// table reads.
///
/// Outside a UCI engine (in tests, say) it does nothing.
///
/// ```
/// use framework::prelude::*;
/// let board = Board::startpos();
/// let best = board.legal_moves()[0];
/// report(3, 25, &[best]);
/// ```
pub fn report(depth: u32, score_cp: i32, pv: &[Move]) {
    let Some(channel) = CHANNEL.get() else {
        return;
    };
    let elapsed = channel
        .search_start
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .elapsed()
        .as_millis();
    let mut line = format!("info depth {depth} score cp {score_cp}");
    let nodes = SEARCH_NODES.load(Ordering::Relaxed);
    if nodes != NO_NODES {
        let nps = u128::from(nodes) * 1000 / elapsed.max(1);
        line.push_str(&format!(" nodes {nodes} nps {nps}"));
    }
    line.push_str(&format!(" time {elapsed}"));
    if !pv.is_empty() {
        line.push_str(" pv");
        for mv in pv {
            line.push(' ');
            line.push_str(&mv.to_string());
        }
    }
    send(&line);
}

/// The longest engine name the host announces in `id name`.
pub const MAX_NAME_CHARS: usize = 64;

/// Control characters and the Unicode line and paragraph separators.
pub(crate) fn is_line_breaking(c: char) -> bool {
    c.is_control() || matches!(c, '\u{2028}' | '\u{2029}' | '\u{85}')
}

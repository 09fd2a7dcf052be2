//! Running one step of a build (cargo or rustc) under its bounds: the clock, the
//! watched disk footprint, and the platform's limits; its output kept within bounds.

use std::io::Read;
use std::path::Path;
use std::process::{Child, Command, ExitStatus};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use super::cache::Usage;
use super::layout::crate_paths;
use super::platform;

/// Compiler messages kept for the error report; a bot whose build prints
/// more gets the beginning.
const MAX_MESSAGE_BYTES: usize = 256 * 1024;

/// The bounds of one `cargo build` step.
#[derive(Debug, Clone, Copy)]
pub(super) struct Step<'a> {
    /// The time on the clock, past which the process group is killed.
    pub(super) time: Duration,
    /// The largest file any process of the step may write (`RLIMIT_FSIZE`, bytes).
    pub(super) file_limit: u64,
    /// The bot's build output, measured while the step runs.
    pub(super) watch: Option<Watch<'a>>,
}

/// What one bot's build has on disk, and how much it may have.
#[derive(Debug, Clone, Copy)]
pub(super) struct Watch<'a> {
    /// The build directory.
    pub(super) dir: &'a Path,
    /// The bot's crate.
    pub(super) crate_name: &'a str,
    /// Bytes.
    pub(super) cap: u64,
}

impl Watch<'_> {
    /// Bytes the bot's build has on disk now (see [`crate_paths`]).
    pub(super) fn footprint(&self) -> u64 {
        let mut usage = Usage::default();
        for path in crate_paths(self.dir, self.crate_name) {
            usage.add(&path);
        }
        usage.bytes
    }
}

/// Runs one step (cargo, or rustc) under its bounds: address space (`memory_mb`) and
/// file size for the process and every process it starts, the clock, and the watched
/// disk footprint; past the clock or the footprint the whole process group is killed.
/// Returns what the step printed on stdout (bounded).
pub(super) fn run_bounded(
    mut command: Command,
    step: &Step,
    memory_mb: u64,
) -> Result<String, StepFailure> {
    platform::bound(&mut command, memory_mb, step.file_limit);
    let mut child = command.spawn().map_err(StepFailure::Spawn)?;
    let said = read_bounded(child.stdout.take());
    let messages = read_bounded(child.stderr.take());
    let ended = supervise(&mut child, step);
    let text = |pipe: JoinHandle<Vec<u8>>| {
        pipe.join()
            .map(|bytes| String::from_utf8_lossy(&bytes).into_owned())
            .unwrap_or_default()
    };
    let (said, messages) = (text(said), text(messages));
    match ended {
        Ended::TimedOut => Err(StepFailure::TimedOut(step.time)),
        Ended::OverDisk(bytes) => Err(StepFailure::OverDisk(bytes)),
        Ended::Exited(status) if status.success() => Ok(said),
        Ended::Exited(status) => Err(StepFailure::Exited { status, messages }),
    }
}

/// Reads a pipe to its end on a thread, keeping the first [`MAX_MESSAGE_BYTES`].
fn read_bounded(pipe: Option<impl Read + Send + 'static>) -> JoinHandle<Vec<u8>> {
    std::thread::spawn(move || {
        let mut kept = Vec::new();
        if let Some(mut pipe) = pipe {
            let mut chunk = [0u8; 8192];
            while let Ok(n @ 1..) = pipe.read(&mut chunk) {
                let room = MAX_MESSAGE_BYTES.saturating_sub(kept.len());
                kept.extend_from_slice(&chunk[..n.min(room)]);
            }
        }
        kept
    })
}

/// How a supervised step ended.
enum Ended {
    Exited(ExitStatus),
    TimedOut,
    /// Killed with this many bytes of the bot's build on disk.
    OverDisk(u64),
}

/// How often the watched footprint is measured (a walk of a few directories).
const WATCH_EVERY: Duration = Duration::from_millis(200);

/// Waits for the step, killing its process group when the clock runs out or the
/// watched footprint passes its cap.
fn supervise(child: &mut Child, step: &Step) -> Ended {
    let deadline = Instant::now() + step.time;
    let mut next_look = Instant::now() + WATCH_EVERY;
    let stop = loop {
        match child.try_wait() {
            Ok(Some(status)) => return Ended::Exited(status),
            Ok(None) if Instant::now() < deadline => {}
            _ => break Ended::TimedOut,
        }
        if let Some(watch) = step.watch.filter(|_| Instant::now() >= next_look) {
            let bytes = watch.footprint();
            if bytes > watch.cap {
                break Ended::OverDisk(bytes);
            }
            next_look = Instant::now() + WATCH_EVERY;
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    platform::kill_group(child);
    let _ = child.wait();
    stop
}

/// Why a step did not succeed.
#[derive(Debug)]
pub(super) enum StepFailure {
    /// The program could not be run at all.
    Spawn(std::io::Error),
    /// Still running when the clock ran out; the process group was killed.
    TimedOut(Duration),
    /// Killed with this many bytes of the bot's build on disk.
    OverDisk(u64),
    /// It failed: how it ended, and what it said on stderr (bounded).
    Exited {
        /// How it ended.
        status: ExitStatus,
        /// What it said.
        messages: String,
    },
}

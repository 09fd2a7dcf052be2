//! How many builds this process runs at once, and the slots they take: bounded by the
//! machine's cores and memory, or `--build-jobs`.

use std::fs;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Condvar, Mutex};

use super::limits::{BuildLimits, DEFAULT_BUILD_MEMORY_MB};

/// Builds this process runs at once; 0 until set (then [`default_build_jobs`]).
static BUILD_JOBS: AtomicUsize = AtomicUsize::new(0);
/// Builds under way in this process, and the wake-up of those waiting for a slot.
static RUNNING: (Mutex<usize>, Condvar) = (Mutex::new(0), Condvar::new());

/// How many builds the machine's memory allows at once: its memory over the memory
/// limit of one build ([`BUILD_MEMORY_ENV`](super::limits::BUILD_MEMORY_ENV)), at least 1. Where the memory cannot be
/// read, 1.
pub fn memory_build_slots() -> usize {
    let per_build = BuildLimits::from_env().map_or(DEFAULT_BUILD_MEMORY_MB, |l| l.memory_mb);
    let total_mb = fs::read_to_string("/proc/meminfo").ok().and_then(|info| {
        let line = info.lines().find(|line| line.starts_with("MemTotal:"))?;
        let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
        Some(kib / 1024)
    });
    total_mb.map_or(1, |total| {
        usize::try_from(total / per_build.max(1))
            .unwrap_or(usize::MAX)
            .max(1)
    })
}

/// The default number of builds at once: half the machine's cores (the other half plays
/// games meanwhile), at least 1, and no more than [`memory_build_slots`].
pub fn default_build_jobs() -> usize {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    (cores / 2).max(1).min(memory_build_slots())
}

/// Sets how many builds this process runs at once (`--build-jobs`); never more than
/// [`memory_build_slots`], never fewer than 1. Returns the number in force.
pub fn set_build_jobs(jobs: usize) -> usize {
    let jobs = jobs.clamp(1, memory_build_slots());
    BUILD_JOBS.store(jobs, Ordering::Relaxed);
    RUNNING.1.notify_all();
    jobs
}

/// How many builds this process runs at once (see [`set_build_jobs`]).
pub fn build_jobs() -> usize {
    match BUILD_JOBS.load(Ordering::Relaxed) {
        0 => default_build_jobs(),
        jobs => jobs,
    }
}

/// One of this process's [`build_jobs`] build slots, held while a build runs.
pub(super) struct BuildSlot;

impl BuildSlot {
    /// Waits for a free slot. Every build is bounded, so the wait is too.
    pub(super) fn take() -> BuildSlot {
        let (running, freed) = &RUNNING;
        let mut count = running.lock().unwrap_or_else(|p| p.into_inner());
        while *count >= build_jobs() {
            count = freed.wait(count).unwrap_or_else(|p| p.into_inner());
        }
        *count += 1;
        BuildSlot
    }
}

impl Drop for BuildSlot {
    fn drop(&mut self) {
        let (running, freed) = &RUNNING;
        let mut count = running.lock().unwrap_or_else(|p| p.into_inner());
        *count -= 1;
        freed.notify_all();
    }
}

//! The fallback where there is no Unix: only the time limit and the watched footprint
//! hold, and a build's process is killed alone.

use std::fs::Metadata;
use std::process::{Child, Command, ExitStatus};

/// No limits but the clock and the watched footprint.
pub(crate) fn bound(_command: &mut Command, _memory_mb: u64, _file_limit: u64) {}

/// Kills the build's process.
pub(crate) fn kill_group(child: &mut Child) {
    let _ = child.kill();
}

/// A process that ended without an exit code was stopped abnormally.
pub(crate) fn aborted(status: ExitStatus) -> bool {
    status.code().is_none()
}

/// No signals here.
pub(crate) fn signal(_status: ExitStatus) -> Option<i32> {
    None
}

/// No file size limit here.
pub(crate) fn file_limit_signal() -> Option<i32> {
    None
}

/// Hard links are not told apart here: every file counts.
pub(crate) fn linked_file(_meta: &Metadata) -> Option<(u64, u64)> {
    None
}

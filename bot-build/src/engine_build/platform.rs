//! What differs between platforms in a build, behind one small interface (so `cfg` sits
//! here alone): bounding a build's processes and killing them, reading how a process
//! ended, and telling hard links apart.

#[cfg(not(unix))]
mod other;
#[cfg(unix)]
mod unix;

#[cfg(not(unix))]
pub(super) use other::{aborted, bound, file_limit_signal, kill_group, linked_file, signal};
#[cfg(unix)]
pub(super) use unix::{aborted, bound, file_limit_signal, kill_group, linked_file, signal};

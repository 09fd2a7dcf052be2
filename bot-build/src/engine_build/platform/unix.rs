//! The Unix side of a build's processes: a process group of their own, resource limits,
//! death with the kit's process, and what a signal says.

use std::fs::Metadata;
use std::os::unix::fs::MetadataExt;
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::process::{Child, Command, ExitStatus};

use crate::engine_build::limits::MIB;

/// A process group of its own (so a timeout kills rustc with cargo), death with the
/// kit's process, an address-space limit, a file size limit and no core files.
pub(crate) fn bound(command: &mut Command, memory_mb: u64, file_limit: u64) {
    command.process_group(0);
    let bytes = memory_mb.saturating_mul(MIB);
    let parent = std::process::id();
    // SAFETY: setrlimit, prctl and getppid are async-signal-safe and touch only this
    // child.
    unsafe {
        command.pre_exec(move || {
            die_with_parent(parent)?;
            for (resource, value) in [
                (libc::RLIMIT_AS, bytes),
                (libc::RLIMIT_FSIZE, file_limit),
                (libc::RLIMIT_CORE, 0),
            ] {
                let limit = libc::rlimit {
                    rlim_cur: value,
                    rlim_max: value,
                };
                if libc::setrlimit(resource, &limit) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
            }
            Ok(())
        });
    }
}

/// Ends the compiler when the process that started it dies (a killed server or worker):
/// the build runs in a process group of its own, which no Ctrl-C or kill of the parent
/// reaches, and its time limit is enforced by the parent. The thread that spawns a
/// build waits for it, so that thread outlives the build unless the process dies.
#[cfg(target_os = "linux")]
fn die_with_parent(parent: u32) -> std::io::Result<()> {
    // SAFETY: prctl and getppid only read and set this process's own attributes.
    unsafe {
        if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL) != 0 {
            return Err(std::io::Error::last_os_error());
        }
        // The parent may have died before the request took effect.
        if libc::getppid().unsigned_abs() != parent {
            return Err(std::io::Error::other(
                "the kit exited before the build began",
            ));
        }
    }
    Ok(())
}

#[cfg(all(unix, not(target_os = "linux")))]
fn die_with_parent(_parent: u32) -> std::io::Result<()> {
    Ok(())
}

/// Kills the build's whole process group: cargo and every rustc it started.
pub(crate) fn kill_group(child: &mut Child) {
    // The group's id is the child's pid (`process_group(0)`).
    let group = i32::try_from(child.id()).unwrap_or(0);
    if group > 0 {
        // SAFETY: signals only the build's own process group.
        unsafe {
            libc::kill(-group, libc::SIGKILL);
        }
    }
}

/// A process killed by `abort` (how rustc and LLVM end when an allocation fails).
pub(crate) fn aborted(status: ExitStatus) -> bool {
    status.signal() == Some(libc::SIGABRT)
}

/// The signal that ended the process, if one did.
pub(crate) fn signal(status: ExitStatus) -> Option<i32> {
    status.signal()
}

/// The signal a process gets for writing past its file size limit (`SIGXFSZ`).
pub(crate) fn file_limit_signal() -> Option<i32> {
    Some(libc::SIGXFSZ)
}

/// The (device, inode) of a file with more than one hard link, so it is counted once.
pub(crate) fn linked_file(meta: &Metadata) -> Option<(u64, u64)> {
    (meta.nlink() >= 2).then(|| (meta.dev(), meta.ino()))
}

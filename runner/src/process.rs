//! What an engine process starts with: which environment, which descriptors.
//!
//! A bot is native code. Whatever hole its author finds in the rules checker or in
//! rustc, its process can read every byte of its own memory, so nothing secret may be
//! in that memory to begin with. The environment is copied onto a new process's
//! initial stack by the kernel, where clearing it later (`remove_var`) leaves the
//! text in place; descriptors are inherited unless closed. So the runner decides both
//! at spawn, before any of the bot's code exists:
//!
//! - a bot built by the kit ([`EngineEnv::Empty`]) starts with an empty environment
//!   and no arguments: the bots' host needs neither;
//! - an external engine the host installed ([`EngineEnv::Inherited`], e.g.
//!   Stockfish) keeps the runner's environment (its own settings, `PATH`, `HOME`),
//!   less every variable of the kit's own (`CHALLENGE_*`: the organiser token, the
//!   store's connection string, the developer switches);
//! - every engine gets its three pipes and no other descriptor.

use std::process::Command;

/// The prefix of the kit's own environment variables, which no engine is given.
pub const KIT_ENV_PREFIX: &str = "CHALLENGE_";

/// The environment an engine process starts with.
///
/// ```
/// use runner::EngineEnv;
/// assert_eq!(EngineEnv::default(), EngineEnv::Empty);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum EngineEnv {
    /// Nothing: the environment of every bot the kit builds. Its process holds
    /// nothing of the host's but the UCI lines it is sent.
    #[default]
    Empty,
    /// The runner's environment without the kit's own variables (`CHALLENGE_*`),
    /// for external engines, which may need theirs (`PATH`, a network file's
    /// location, a licence variable).
    Inherited,
}

/// Sets what the process `command` will start with: the environment `env` asks for,
/// and no descriptor beyond its standard three (every other one is marked
/// close-on-exec in the child just before `exec`, so none the runner's process
/// holds, leaked or not, reaches the engine).
///
/// ```
/// # #[cfg(target_os = "linux")] {
/// use std::process::Command;
/// use runner::{EngineEnv, isolate};
/// let mut command = Command::new("/bin/sh");
/// command.args(["-c", "echo \"[$CHALLENGE_ADMIN_TOKEN][$HOME]\""]);
/// command.env("CHALLENGE_ADMIN_TOKEN", "secret");
/// isolate(&mut command, EngineEnv::Empty);
/// let out = command.output().unwrap();
/// assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "[][]");
/// # }
/// ```
pub fn isolate(command: &mut Command, env: EngineEnv) {
    match env {
        EngineEnv::Empty => {
            command.env_clear();
        }
        EngineEnv::Inherited => {
            for (name, _) in std::env::vars_os() {
                if name.to_string_lossy().starts_with(KIT_ENV_PREFIX) {
                    command.env_remove(name);
                }
            }
        }
    }
    close_other_descriptors_on_exec(command);
}

#[cfg(target_os = "linux")]
fn close_other_descriptors_on_exec(command: &mut Command) {
    use std::os::unix::process::CommandExt;
    // SAFETY: the closure runs in the child between fork and exec, where only
    // async-signal-safe calls are allowed: it makes system calls and nothing else.
    // Marking close-on-exec rather than closing keeps the descriptor std uses to
    // report a failed exec working until the exec itself.
    unsafe {
        command.pre_exec(|| {
            if libc::close_range(
                3,
                libc::c_uint::MAX,
                libc::CLOSE_RANGE_CLOEXEC as libc::c_int,
            ) == 0
            {
                return Ok(());
            }
            // Kernels before 5.11 lack the flag: mark them one by one, up to the
            // descriptor limit.
            let limit = libc::sysconf(libc::_SC_OPEN_MAX).clamp(3, 1 << 20) as libc::c_int;
            for fd in 3..limit {
                let flags = libc::fcntl(fd, libc::F_GETFD);
                if flags >= 0 {
                    libc::fcntl(fd, libc::F_SETFD, flags | libc::FD_CLOEXEC);
                }
            }
            Ok(())
        });
    }
}

#[cfg(all(unix, not(target_os = "linux")))]
fn close_other_descriptors_on_exec(_command: &mut Command) {
    // std opens every descriptor of its own close-on-exec; without close_range
    // there is no cheap way to be sure of the rest, and the kit's sandbox exists
    // on Linux only.
}

#[cfg(not(unix))]
fn close_other_descriptors_on_exec(_command: &mut Command) {}

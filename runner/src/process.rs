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
//! - every engine gets its three pipes and no other descriptor;
//! - a bot starts from a neutral name ([`NEUTRAL_NAME`]): its executable is copied into
//!   a sealed anonymous file and executed from there, so its arguments, the auxiliary
//!   vector's `AT_EXECFN`, `/proc/self/exe` and its working directory name nothing of
//!   the host (not the organiser's home, user name or build directory). Scrubbing known
//!   strings from what a bot prints cannot stop a bot that encodes them (reversed, in
//!   hex); a string that is not in the process cannot be encoded.

use std::io;
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
    /// nothing of the host's but the UCI lines it is sent: it starts from a neutral
    /// name (see the module documentation) in the root directory.
    #[default]
    Empty,
    /// The runner's environment without the kit's own variables (`CHALLENGE_*`),
    /// for external engines, which may need theirs (`PATH`, a network file's
    /// location, a licence variable).
    Inherited,
}

/// The name a bot's process starts under: its `argv[0]`, and the name of the sealed
/// file its executable runs from (`/proc/self/exe` reads `/memfd:engine (deleted)`).
pub const NEUTRAL_NAME: &str = "engine";

/// Sets what the process `command` will start with: the environment `env` asks for,
/// and no descriptor beyond its standard three (every other one is marked
/// close-on-exec in the child just before `exec`, so none the runner's process
/// holds, leaked or not, reaches the engine). A bot ([`EngineEnv::Empty`]) whose
/// program is an executable image starts from a sealed copy of it under
/// [`NEUTRAL_NAME`], in `/` unless `command` names a working directory; a script
/// (`#!`) starts as it is (its interpreter needs its path).
///
/// # Errors
/// The program cannot be read, or the sealed copy cannot be made.
///
/// ```
/// # #[cfg(target_os = "linux")] {
/// use std::process::Command;
/// use runner::{EngineEnv, isolate};
/// let mut command = Command::new("/bin/sh");
/// command.args(["-c", "echo \"[$CHALLENGE_ADMIN_TOKEN][$HOME][$0][$(pwd)]\""]);
/// command.env("CHALLENGE_ADMIN_TOKEN", "secret");
/// isolate(&mut command, EngineEnv::Empty).unwrap();
/// let out = command.output().unwrap();
/// assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "[][][engine][/]");
/// # }
/// ```
pub fn isolate(command: &mut Command, env: EngineEnv) -> io::Result<()> {
    // First: the child runs its `pre_exec` steps in order, and a neutral start execs
    // in its own step, after which no later step runs.
    close_other_descriptors_on_exec(command);
    match env {
        EngineEnv::Empty => {
            command.env_clear();
            neutral::start_neutrally(command)?;
        }
        EngineEnv::Inherited => {
            for (name, _) in std::env::vars_os() {
                if name.to_string_lossy().starts_with(KIT_ENV_PREFIX) {
                    command.env_remove(name);
                }
            }
        }
    }
    Ok(())
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

#[cfg(target_os = "linux")]
mod neutral {
    //! A bot's executable run from a sealed anonymous copy (`memfd_create`, sealed
    //! against every change, then `fexecve`): the kernel then records no path of the
    //! host for the process. `argv[0]` is [`NEUTRAL_NAME`], `AT_EXECFN` is
    //! `/dev/fd/N`, `/proc/self/exe` is `/memfd:engine (deleted)`.

    use std::ffi::{CString, OsStr};
    use std::fs::File;
    use std::io::{self, Read, Seek, SeekFrom};
    use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
    use std::os::unix::ffi::OsStrExt;
    use std::os::unix::process::CommandExt;
    use std::path::PathBuf;
    use std::process::Command;

    use super::NEUTRAL_NAME;

    /// Makes `command` start its program from a sealed copy, under the neutral name,
    /// in `/` unless it names a directory. A script is left to start as it is.
    pub(super) fn start_neutrally(command: &mut Command) -> io::Result<()> {
        let mut file = File::open(resolve(command.get_program())?)?;
        let mut magic = [0u8; 4];
        let read = file.read(&mut magic)?;
        if read < 4 || magic != *b"\x7fELF" {
            return Ok(());
        }
        file.seek(SeekFrom::Start(0))?;
        let image = sealed_copy(&mut file)?;
        let argv: Vec<CString> = std::iter::once(OsStr::new(NEUTRAL_NAME))
            .chain(command.get_args())
            .map(|arg| CString::new(arg.as_bytes()))
            .collect::<Result<_, _>>()
            .map_err(|_| io::Error::new(io::ErrorKind::InvalidInput, "an argument holds NUL"))?;
        if command.get_current_dir().is_none() {
            command.current_dir("/");
        }
        // The pointers are made here, before `fork`: the child may not allocate.
        let pointers: Vec<usize> = argv
            .iter()
            .map(|arg| arg.as_ptr() as usize)
            .chain(std::iter::once(0))
            .collect();
        // SAFETY: the closure runs in the child between fork and exec and only makes the
        // `fexecve` system call (async-signal-safe), on memory prepared before the fork
        // and kept alive by the closure (`argv`, `pointers`, `image`). A bot's
        // environment is empty: `envp` is a lone null.
        unsafe {
            command.pre_exec(move || {
                let _alive = &argv;
                let envp: [*const libc::c_char; 1] = [std::ptr::null()];
                libc::fexecve(
                    image.as_raw_fd(),
                    pointers.as_ptr().cast::<*const libc::c_char>(),
                    envp.as_ptr(),
                );
                Err(io::Error::last_os_error())
            });
        }
        Ok(())
    }

    /// The program's path: as given when it names a directory, else found on the
    /// runner's `PATH` (or the system's default one), as `exec` would.
    fn resolve(program: &OsStr) -> io::Result<PathBuf> {
        if program.as_bytes().contains(&b'/') {
            return Ok(PathBuf::from(program));
        }
        let path = std::env::var_os("PATH").unwrap_or_else(|| "/usr/bin:/bin".into());
        std::env::split_paths(&path)
            .map(|dir| dir.join(program))
            .find(|candidate| candidate.is_file())
            .ok_or_else(|| {
                io::Error::new(
                    io::ErrorKind::NotFound,
                    format!("{} is not on the PATH", program.to_string_lossy()),
                )
            })
    }

    /// A sealed anonymous file holding the executable `program`: nothing can write, grow
    /// or shrink it once sealed, so what runs is what was copied.
    fn sealed_copy(program: &mut File) -> io::Result<OwnedFd> {
        let name = CString::new(NEUTRAL_NAME).expect("no NUL in the name");
        let flags = libc::MFD_CLOEXEC | libc::MFD_ALLOW_SEALING;
        // SAFETY: `name` is a valid C string; the result is checked.
        let mut fd = unsafe { libc::memfd_create(name.as_ptr(), flags | libc::MFD_EXEC) };
        if fd < 0 && io::Error::last_os_error().raw_os_error() == Some(libc::EINVAL) {
            // Kernels before 6.3 know no MFD_EXEC: their anonymous files are executable.
            // SAFETY: as above.
            fd = unsafe { libc::memfd_create(name.as_ptr(), flags) };
        }
        if fd < 0 {
            return Err(io::Error::last_os_error());
        }
        // SAFETY: `fd` was just created and is owned by nothing else.
        let image = unsafe { OwnedFd::from_raw_fd(fd) };
        let mut copy = File::from(image);
        io::copy(program, &mut copy)?;
        let seals =
            libc::F_SEAL_SEAL | libc::F_SEAL_SHRINK | libc::F_SEAL_GROW | libc::F_SEAL_WRITE;
        // SAFETY: a plain fcntl on a descriptor this function owns.
        if unsafe { libc::fcntl(copy.as_raw_fd(), libc::F_ADD_SEALS, seals) } < 0 {
            return Err(io::Error::last_os_error());
        }
        Ok(OwnedFd::from(copy))
    }
}

#[cfg(not(target_os = "linux"))]
mod neutral {
    //! Elsewhere a bot starts from its path: the kit's sandbox exists on Linux only.

    pub(super) fn start_neutrally(_command: &mut std::process::Command) -> std::io::Result<()> {
        Ok(())
    }
}

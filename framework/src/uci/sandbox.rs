//! The OS sandbox of a bot engine: once the host has set itself up, the
//! process can do nothing but think and talk on the pipes it already has.
//!
//! Why an OS layer when the challenge rules already refuse files, sockets and
//! processes? The rules are checked on source text, and a hole in the checker
//! would otherwise be a hole in the tournament host. Here the kernel refuses:
//!
//! - **Resource limits** (set for soft and hard, so they cannot be raised):
//!   `RLIMIT_AS` caps every byte of address space (heap, thread stacks,
//!   thread-locals, statics, allocator reservations), which the counting
//!   allocator alone cannot see; `RLIMIT_CORE` 0 (no core files),
//!   `RLIMIT_FSIZE` 0 (no file growth), `RLIMIT_NOFILE` small, `RLIMIT_NPROC`
//!   0 (no new processes or threads).
//! - **A seccomp filter** (built with `seccompiler`, applied to every thread
//!   with `TSYNC`) allowing only what thinking needs: reading and writing the
//!   open descriptors, memory management without executable mappings,
//!   futexes, clocks, sleeping, signals to the engine's own threads, exit.
//!   Opening files, sockets, `exec`, `fork`, new threads and everything else
//!   is refused.
//!
//! A refused call raises `SIGSYS`; the host's handler names the call on
//! stderr and the process then dies of `SIGSYS`, which the runner reports as
//! "the sandbox stopped a forbidden system call". If the handler cannot run
//! (glibc blocks every signal around the `clone3` that starts a thread or a
//! process), the kernel kills the process with `SIGSYS` all the same, and
//! only the runner's message names the cause.
//!
//! The sandbox exists on Linux (x86_64 and aarch64). On other systems
//! [`enter`] does nothing: the rules checker and the counting allocator are
//! then the only layers.
//!
//! [`NO_SANDBOX_ENV`] turns the sandbox off. It is a developer switch for
//! measuring the sandbox's cost: a bot cannot set it (the host reads it
//! before the bot exists) and the match runner removes it from every engine's
//! environment, so no challenge game runs without the sandbox.

/// Setting this environment variable to `1` makes the host skip the sandbox
/// (developer switch for benchmarks; the match runner never passes it on).
pub const NO_SANDBOX_ENV: &str = "CHALLENGE_NO_SANDBOX";

/// Whether the sandbox is to be entered: always, unless [`NO_SANDBOX_ENV`] is `1`.
pub(crate) fn wanted() -> bool {
    std::env::var_os(NO_SANDBOX_ENV).is_none_or(|value| value != "1")
}

/// Readies the process for the sandbox; call it before the host starts any
/// thread. glibc gives each new thread a malloc arena of its own, and
/// trimming such an arena reads `/proc/sys/vm/overcommit_memory` (found by
/// running the reference bots under the filter): with one arena for all
/// threads, memory is only ever returned with `brk` and `munmap`.
///
/// It also empties the environment, so `std::env` finds nothing. That is no
/// protection of secrets: the kernel's copy of the environment stays on the
/// initial stack, readable by a bot that reads memory. The runner starts every
/// bot with an empty environment instead (`runner::isolate`).
pub(crate) fn prepare() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt only changes the allocator's settings; no thread but
    // this one exists yet.
    unsafe {
        libc::mallopt(libc::M_ARENA_MAX, 1);
    }
    clear_environment();
}

fn clear_environment() {
    let names: Vec<std::ffi::OsString> = std::env::vars_os().map(|(name, _)| name).collect();
    for name in names {
        // SAFETY: no thread but this one exists yet (see `prepare`), so no
        // other code reads the environment while it changes.
        unsafe { std::env::remove_var(name) };
    }
}

#[cfg(all(
    target_os = "linux",
    any(target_arch = "x86_64", target_arch = "aarch64")
))]
pub(crate) use linux::enter;

/// Elsewhere the sandbox is a no-op (see the module documentation).
#[cfg(not(all(
    target_os = "linux",
    any(target_arch = "x86_64", target_arch = "aarch64")
)))]
pub(crate) fn enter(_protocol_fd: i32) -> std::io::Result<()> {
    Ok(())
}

#[cfg(all(
    target_os = "linux",
    any(target_arch = "x86_64", target_arch = "aarch64")
))]
mod linux {
    use std::collections::BTreeMap;
    use std::io;

    use seccompiler::{
        BpfProgram, SeccompAction, SeccompCmpArgLen, SeccompCmpOp, SeccompCondition, SeccompFilter,
        SeccompRule,
    };

    use crate::uci::memory::allowance;

    /// Room in the address space beyond what the host has mapped when the
    /// sandbox closes: the bot's heap allowance twice over (the allocator
    /// reserves more than it hands out, glibc's per-thread arenas reserve 64
    /// MiB each) plus slack. The counting allocator stops a bot at its exact
    /// allowance long before this; this cap holds what it cannot see.
    fn address_space_room() -> u64 {
        const SLACK: u64 = 256 * 1024 * 1024;
        (allowance() as u64).saturating_mul(2).saturating_add(SLACK)
    }

    /// Descriptors a sandboxed engine may hold: the standard three and the
    /// protocol channel are all it ever has.
    const MAX_FILES: u64 = 8;

    /// Closes the sandbox: from here on the process may only think.
    ///
    /// Call it after every thread of the host is running and before the bot
    /// is constructed. `protocol_fd` is the descriptor the protocol is
    /// written to; it stays open with the standard three.
    pub(crate) fn enter(protocol_fd: i32) -> io::Result<()> {
        close_other_descriptors(protocol_fd);
        limit_resources(protocol_fd)?;
        install_sigsys_reporter()?;
        let filter = build_filter()?;
        seccompiler::apply_filter_all_threads(&filter)
            .map_err(|err| io::Error::other(format!("cannot install the seccomp filter: {err}")))
    }

    /// Anything the engine inherited beyond its pipes (a descriptor a
    /// careless parent leaked) is closed, so the filter's "read and write
    /// what is open" means exactly the pipes.
    fn close_other_descriptors(protocol_fd: i32) {
        let keep = protocol_fd.max(2) as u32;
        // SAFETY: closes descriptors this process owns and nothing refers to:
        // the host only ever uses 0, 1, 2 and the protocol descriptor.
        unsafe {
            for (first, last) in [(3, keep.saturating_sub(1)), (keep + 1, u32::MAX)] {
                if first <= last {
                    libc::close_range(first, last, 0);
                }
            }
        }
    }

    fn limit_resources(protocol_fd: i32) -> io::Result<()> {
        let address_space = mapped_bytes()?.saturating_add(address_space_room());
        set_limit(libc::RLIMIT_AS, address_space)?;
        set_limit(libc::RLIMIT_CORE, 0)?;
        set_limit(libc::RLIMIT_NOFILE, MAX_FILES)?;
        set_limit(libc::RLIMIT_NPROC, 0)?;
        // A limit of 0 on file size would also kill an engine whose stderr or
        // protocol a user sent to a file (`challenge uci bot 2>log`); the
        // filter already stops every other file, so the limit is set only
        // when none of the open descriptors is one.
        if ![0, 1, 2, protocol_fd].into_iter().any(is_regular_file) {
            set_limit(libc::RLIMIT_FSIZE, 0)?;
        }
        Ok(())
    }

    fn set_limit(resource: libc::__rlimit_resource_t, value: u64) -> io::Result<()> {
        let limit = libc::rlimit {
            rlim_cur: value,
            rlim_max: value,
        };
        // SAFETY: plain system call on a valid struct.
        if unsafe { libc::setrlimit(resource, &limit) } != 0 {
            return Err(io::Error::last_os_error());
        }
        Ok(())
    }

    fn is_regular_file(fd: i32) -> bool {
        // SAFETY: fstat fills a zeroed struct we own; a closed fd is an error.
        unsafe {
            let mut stat: libc::stat = std::mem::zeroed();
            libc::fstat(fd, &mut stat) == 0 && (stat.st_mode & libc::S_IFMT) == libc::S_IFREG
        }
    }

    /// The process's whole address space now, from `/proc/self/statm`.
    fn mapped_bytes() -> io::Result<u64> {
        let statm = std::fs::read_to_string("/proc/self/statm")?;
        let pages: u64 = statm
            .split_whitespace()
            .next()
            .and_then(|field| field.parse().ok())
            .ok_or_else(|| io::Error::other("cannot read /proc/self/statm"))?;
        // SAFETY: sysconf has no preconditions.
        let page = unsafe { libc::sysconf(libc::_SC_PAGESIZE) }.max(4096) as u64;
        Ok(pages * page)
    }

    /// What the filter allows; everything else raises `SIGSYS`.
    fn build_filter() -> io::Result<BpfProgram> {
        let filter = SeccompFilter::new(
            allowed_calls()?,
            SeccompAction::Trap,
            SeccompAction::Allow,
            std::env::consts::ARCH
                .try_into()
                .map_err(|err| io::Error::other(format!("{err}")))?,
        )
        .map_err(|err| io::Error::other(format!("{err}")))?;
        filter
            .try_into()
            .map_err(|err| io::Error::other(format!("cannot compile the seccomp filter: {err}")))
    }

    /// The system calls thinking needs, found by running the kit's bots
    /// (including panics, stack overflows and the memory limit) under the
    /// filter. Each entry is allowed outright or under argument conditions.
    fn allowed_calls() -> io::Result<BTreeMap<i64, Vec<SeccompRule>>> {
        let mut calls: BTreeMap<i64, Vec<SeccompRule>> = [
            // The pipes that are already open, and closing them.
            libc::SYS_read,
            libc::SYS_write,
            libc::SYS_readv,
            libc::SYS_writev,
            libc::SYS_close,
            // Memory: the allocator and thread stacks.
            libc::SYS_brk,
            libc::SYS_munmap,
            libc::SYS_mremap,
            libc::SYS_madvise,
            // Threads already running talk and wait.
            libc::SYS_futex,
            libc::SYS_sched_yield,
            libc::SYS_getpid,
            libc::SYS_gettid,
            // Time.
            libc::SYS_clock_gettime,
            libc::SYS_clock_getres,
            libc::SYS_clock_nanosleep,
            libc::SYS_nanosleep,
            // Hash maps seed themselves from the kernel.
            libc::SYS_getrandom,
            // Signals: returning from handlers, masks, the alternate stack
            // the stack-overflow report runs on.
            libc::SYS_rt_sigreturn,
            libc::SYS_rt_sigprocmask,
            libc::SYS_sigaltstack,
            libc::SYS_restart_syscall,
            // The end.
            libc::SYS_exit,
            libc::SYS_exit_group,
        ]
        .into_iter()
        .map(|call| (call, Vec::new()))
        .collect();
        #[cfg(target_arch = "x86_64")]
        calls.insert(libc::SYS_gettimeofday, Vec::new());

        // Mappings, but never executable ones: no code the compiler did not make.
        let no_exec = rule(2, SeccompCmpOp::MaskedEq(libc::PROT_EXEC as u64), 0)?;
        calls.insert(libc::SYS_mmap, vec![no_exec.clone()]);
        calls.insert(libc::SYS_mprotect, vec![no_exec]);
        // Signal handlers may change, except the one that reports the sandbox.
        calls.insert(
            libc::SYS_rt_sigaction,
            vec![rule(0, SeccompCmpOp::Ne, libc::SIGSYS as u64)?],
        );
        // Signals only to this process's own threads (`abort` after a stack
        // overflow, the sandbox report), never to another process.
        // SAFETY: getpid has no preconditions.
        let pid = unsafe { libc::getpid() } as u64;
        calls.insert(libc::SYS_tgkill, vec![rule(0, SeccompCmpOp::Eq, pid)?]);
        Ok(calls)
    }

    fn rule(arg: u8, op: SeccompCmpOp, value: u64) -> io::Result<SeccompRule> {
        let condition = SeccompCondition::new(arg, SeccompCmpArgLen::Dword, op, value)
            .map_err(|err| io::Error::other(format!("{err}")))?;
        SeccompRule::new(vec![condition]).map_err(|err| io::Error::other(format!("{err}")))
    }

    /// Installs the handler that names a refused call before the process dies.
    fn install_sigsys_reporter() -> io::Result<()> {
        // SAFETY: installs a handler that only calls async-signal-safe
        // functions (write, getpid, gettid, tgkill) on stack buffers.
        unsafe {
            let mut action: libc::sigaction = std::mem::zeroed();
            let handler: extern "C" fn(libc::c_int, *mut libc::siginfo_t, *mut libc::c_void) =
                on_forbidden_call;
            action.sa_sigaction = handler as usize;
            // One shot: the report is made once, and the SIGSYS it re-raises
            // then takes the default action (death by SIGSYS).
            action.sa_flags = libc::SA_SIGINFO | libc::SA_RESETHAND;
            libc::sigemptyset(&mut action.sa_mask);
            if libc::sigaction(libc::SIGSYS, &action, std::ptr::null_mut()) != 0 {
                return Err(io::Error::last_os_error());
            }
        }
        Ok(())
    }

    /// Where `si_syscall` lives in a 64-bit Linux `siginfo_t` (three `int`s,
    /// padding, then the `_sigsys` member `{ void *call_addr; int syscall; }`):
    /// the `libc` crate does not expose the field.
    const SI_SYSCALL_OFFSET: usize = 24;

    extern "C" fn on_forbidden_call(
        _signal: libc::c_int,
        info: *mut libc::siginfo_t,
        _context: *mut libc::c_void,
    ) {
        // SAFETY: the kernel hands a valid siginfo_t for SIGSYS; the write and
        // the signal calls are async-signal-safe and allowed by the filter.
        unsafe {
            let number = info
                .cast::<u8>()
                .add(SI_SYSCALL_OFFSET)
                .cast::<i32>()
                .read_unaligned();
            let mut message = Message::default();
            message.push("sandbox: the bot made a forbidden system call (");
            message.push(call_name(i64::from(number)));
            message.push(", number ");
            message.push_number(number.unsigned_abs() as usize);
            message.push("); the engine is stopped\n");
            libc::write(2, message.bytes.as_ptr().cast(), message.len);
            // Pending until the handler returns, then fatal: the handler was
            // reset to the default action on entry.
            libc::syscall(
                libc::SYS_tgkill,
                libc::getpid(),
                libc::gettid(),
                libc::SIGSYS,
            );
        }
    }

    /// The names of the calls a bot is most likely to try, for the report.
    fn call_name(number: i64) -> &'static str {
        #[cfg(target_arch = "x86_64")]
        let legacy: &[(i64, &str)] = &[
            (libc::SYS_open, "open"),
            (libc::SYS_creat, "creat"),
            (libc::SYS_fork, "fork"),
            (libc::SYS_vfork, "vfork"),
            (libc::SYS_stat, "stat"),
            (libc::SYS_unlink, "unlink"),
        ];
        #[cfg(not(target_arch = "x86_64"))]
        let legacy: &[(i64, &str)] = &[];
        let common: &[(i64, &str)] = &[
            (libc::SYS_openat, "openat"),
            (libc::SYS_socket, "socket"),
            (libc::SYS_connect, "connect"),
            (libc::SYS_execve, "execve"),
            (libc::SYS_execveat, "execveat"),
            (libc::SYS_clone, "clone"),
            (libc::SYS_clone3, "clone3"),
            (libc::SYS_kill, "kill"),
            (libc::SYS_ioctl, "ioctl"),
            (libc::SYS_statx, "statx"),
            (libc::SYS_newfstatat, "newfstatat"),
            (libc::SYS_mmap, "mmap (executable)"),
            (libc::SYS_mprotect, "mprotect (executable)"),
            (libc::SYS_prlimit64, "prlimit64"),
            (libc::SYS_setrlimit, "setrlimit"),
            (libc::SYS_ptrace, "ptrace"),
            (libc::SYS_rt_sigaction, "rt_sigaction (SIGSYS)"),
            (libc::SYS_tgkill, "tgkill (another process)"),
            (libc::SYS_dup, "dup"),
            (libc::SYS_dup3, "dup3"),
            (libc::SYS_pipe2, "pipe2"),
            (libc::SYS_fcntl, "fcntl"),
            (libc::SYS_prctl, "prctl"),
            (libc::SYS_sched_getaffinity, "sched_getaffinity"),
        ];
        legacy
            .iter()
            .chain(common)
            .find(|(n, _)| *n == number)
            .map_or("a system call a bot has no use for", |(_, name)| name)
    }

    /// A message built without allocating: we are in a signal handler.
    struct Message {
        bytes: [u8; 200],
        len: usize,
    }

    impl Default for Message {
        fn default() -> Self {
            Message {
                bytes: [0; 200],
                len: 0,
            }
        }
    }

    impl Message {
        fn push(&mut self, text: &str) {
            for &byte in text.as_bytes() {
                if self.len < self.bytes.len() {
                    self.bytes[self.len] = byte;
                    self.len += 1;
                }
            }
        }

        fn push_number(&mut self, mut value: usize) {
            let mut digits = [0u8; 20];
            let mut start = digits.len();
            loop {
                start -= 1;
                digits[start] = b'0' + (value % 10) as u8;
                value /= 10;
                if value == 0 {
                    break;
                }
            }
            for &digit in &digits[start..] {
                self.push(std::str::from_utf8(&[digit]).unwrap_or("?"));
            }
        }
    }
}

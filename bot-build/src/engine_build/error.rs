//! Why a build did not produce an engine ([`BuildError`]): the bot's fault or the host's,
//! and its words for the host's user or for whoever sent the bot file.

use std::path::{Path, PathBuf};
use std::process::ExitStatus;
use std::time::Duration;

use super::limits::{BUILD_DIR_LIMIT_ENV, BUILD_DISK_ENV, BUILD_MEMORY_ENV, BUILD_TIMEOUT_ENV};
use super::limits::{BadSetting, BuildLimits, MAX_ENGINE_BYTES, MIB};
use super::platform;
use crate::bots::BotFile;

/// Why a bot file did not become an engine: the bot and what went wrong.
///
/// [`BuildError::is_bots_fault`] says whose fault it is: the bot's (it does not compile,
/// or its build met a bound of time, memory or disk, or its engine is too large), or the
/// host's (cargo could not run, a file of the build could not be written, a lock was held
/// too long, the kit's framework did not build, a bad setting). Its `Display` is
/// [`BuildError::explain`] for [`Reader::Host`].
///
/// ```
/// use bot_build::{BotFile, BuildError, BuildErrorKind, Reader};
/// let bot = BotFile { name: "mine".into(), path: "/srv/sources/0a1b.rs".into() };
/// let error = BuildError {
///     bot,
///     kind: BuildErrorKind::Compile { messages: "error: expected `;`\n --> src/bot.rs:3:9".into() },
/// };
/// assert!(error.is_bots_fault());
/// assert!(error.to_string().contains("--> /srv/sources/0a1b.rs:3:9"));
/// let sent = error.explain(Reader::Sender { file: "mine.rs", scrub: &|text| text.to_string() });
/// assert_eq!(sent, "bot `mine` does not compile:\nerror: expected `;`\n --> mine.rs:3:9");
/// ```
#[derive(Debug)]
pub struct BuildError {
    /// The bot being built.
    pub bot: BotFile,
    /// What went wrong.
    pub kind: BuildErrorKind,
}

/// What went wrong in a build (see [`BuildError`]). The first five are the bot's fault.
#[derive(Debug)]
#[non_exhaustive]
pub enum BuildErrorKind {
    /// The bot does not compile; `messages` is what rustc said (bounded), naming the
    /// bot's copy in its generated crate `src/bot.rs`.
    Compile {
        /// The compiler's messages.
        messages: String,
    },
    /// Still compiling when the time limit came; the build was killed.
    TimedOut {
        /// The limit.
        limit: Duration,
    },
    /// The build ran out of its memory limit.
    OutOfMemory {
        /// The limit, MiB.
        limit_mb: u64,
        /// The compiler's messages.
        messages: String,
    },
    /// The build wrote more than its disk limit: measured (with the bytes seen), or a
    /// process was stopped by the file size limit (with what the compiler said).
    OverDisk {
        /// The limit, MiB.
        limit_mb: u64,
        /// The bytes seen on disk, when measured.
        seen: Option<u64>,
        /// The compiler's messages, when the file size limit stopped it.
        messages: Option<String>,
    },
    /// The engine executable is larger than [`MAX_ENGINE_BYTES`].
    EngineTooLarge {
        /// Its size.
        bytes: u64,
    },
    /// A program of the build (cargo, rustc) could not be run.
    Spawn {
        /// Which.
        program: String,
        /// Why.
        error: std::io::Error,
    },
    /// A file or folder of the build could not be made, written, read or removed.
    Io {
        /// What was being done to it: `create`, `write`, `copy the engine to`, ...
        doing: &'static str,
        /// The file or folder.
        path: PathBuf,
        /// Why.
        error: std::io::Error,
    },
    /// Another build held a lock of the build directory for longer than any build may take.
    LockHeld {
        /// The lock file.
        path: PathBuf,
        /// How long this build waited.
        waited: Duration,
    },
    /// The kit's own framework, compiled before the bot, did not build.
    Framework {
        /// What cargo said, or why it could not be used.
        messages: String,
    },
    /// The build directory cannot hold the new engine within its bound, even with every
    /// other engine and bot build removed.
    DirectoryFull {
        /// The build directory.
        dir: PathBuf,
        /// The least it would hold, bytes.
        least: u64,
        /// Its bound, bytes.
        bound: u64,
    },
    /// A build setting (an environment variable) has a bad value; the message names it.
    Setting {
        /// Which variable and value, and what it should be.
        message: String,
    },
}

/// Who reads a rendered [`BuildError`].
#[derive(Clone, Copy)]
pub enum Reader<'a> {
    /// The host's own user (the command line, a server's log): every path is shown.
    Host,
    /// Whoever sent the bot file (a web entrant): the bot file is called `file`, no path
    /// of the host is shown, and the compiler's messages go through `scrub` (which should
    /// remove the host's paths; the bot's own `src/bot.rs` is renamed after it).
    Sender {
        /// The bot file's name for its sender.
        file: &'a str,
        /// Cleans the compiler's messages of host detail.
        scrub: &'a dyn Fn(&str) -> String,
    },
}

impl BuildError {
    /// Whether the bot is at fault (a compile error, or a bound of time, memory, disk or
    /// engine size); otherwise the host failed, and the bot was not judged.
    pub fn is_bots_fault(&self) -> bool {
        self.kind.is_bots_fault()
    }

    /// The error in words for `reader`: `bot `NAME` ` and the bot's fault
    /// ([`BuildError::cause`]), or `cannot build the bot `NAME`: ` and the host's.
    pub fn explain(&self, reader: Reader<'_>) -> String {
        let name = &self.bot.name;
        let cause = self.cause(reader);
        if self.is_bots_fault() {
            format!("bot `{name}` {cause}")
        } else {
            format!("cannot build the bot `{name}`: {cause}")
        }
    }

    /// What went wrong, without the bot's name: for the bot's fault a sentence that
    /// follows its name (`does not compile:` and the compiler's messages, which name the
    /// file as `reader` knows it); for the host's, what failed (for
    /// [`Reader::Sender`], without the host's paths or its tools' output).
    pub fn cause(&self, reader: Reader<'_>) -> String {
        let host_file = self.bot.path.display().to_string();
        let (file, scrub) = match reader {
            Reader::Host => (host_file.as_str(), None),
            Reader::Sender { file, scrub } => (file, Some(scrub)),
        };
        // Cargo names the copy by its path inside the generated crate.
        let said = |text: &str| {
            let text = scrub.map_or_else(|| text.to_string(), |scrub| scrub(text));
            text.replace("src/bot.rs:", &format!("{file}:"))
                .trim_end()
                .to_string()
        };
        self.kind.words(&said, scrub.is_some())
    }
}

impl BuildErrorKind {
    /// Whether the bot is at fault (see [`BuildError::is_bots_fault`]).
    pub fn is_bots_fault(&self) -> bool {
        matches!(
            self,
            BuildErrorKind::Compile { .. }
                | BuildErrorKind::TimedOut { .. }
                | BuildErrorKind::OutOfMemory { .. }
                | BuildErrorKind::OverDisk { .. }
                | BuildErrorKind::EngineTooLarge { .. }
        )
    }

    /// Whether a bound stopped the build: disk, time or memory. Nothing of such a build
    /// stays: its state is of no use to the next build (a killed rustc leaves its
    /// incremental session unfinished) and may be huge. A build that merely does not
    /// compile keeps its state for the author's next edit.
    pub(super) fn met_a_bound(&self) -> bool {
        self.is_bots_fault() && !matches!(self, BuildErrorKind::Compile { .. })
    }

    /// The kind in words, every kind by name (a new one cannot render as nothing): the
    /// bot's fault as the sentence after its name, with `said` quoting the compiler; the
    /// host's fault with every detail, or, `public`, in words that name no path of the
    /// host and quote no output of its tools (for someone who cannot act on them).
    fn words(&self, said: &dyn Fn(&str) -> String, public: bool) -> String {
        match self {
            BuildErrorKind::Compile { messages } => {
                format!("does not compile:\n{}", said(messages))
            }
            BuildErrorKind::TimedOut { limit } => format!(
                "did not build: the build took longer than {} s \
                 (const evaluation that never ends?) and was stopped; \
                 {BUILD_TIMEOUT_ENV} sets the limit in seconds",
                limit.as_secs()
            ),
            BuildErrorKind::OutOfMemory { limit_mb, messages } => format!(
                "did not build: the build ran out of its {limit_mb} MiB memory limit \
                 (a huge constant or array?); {BUILD_MEMORY_ENV} sets the limit\n{}",
                said(messages)
            ),
            BuildErrorKind::OverDisk {
                limit_mb,
                seen,
                messages,
            } => over_disk(*limit_mb, *seen, messages.as_deref().map(said)),
            BuildErrorKind::EngineTooLarge { bytes } => format!(
                "did not build: its engine executable is {} MiB, over the {} MiB \
                 an engine may take; a large static or const array is the usual cause; \
                 nothing of this build was kept",
                bytes.div_ceil(MIB),
                MAX_ENGINE_BYTES / MIB
            ),
            BuildErrorKind::Spawn { program, error } if public => {
                format!("cannot run {program} ({})", error.kind())
            }
            BuildErrorKind::Spawn { program, error } => format!("cannot run {program}: {error}"),
            BuildErrorKind::Io { doing, error, .. } if public => {
                format!("cannot {doing} a file of the build ({})", error.kind())
            }
            BuildErrorKind::Io { doing, path, error } => {
                format!("cannot {doing} {}: {error}", path.display())
            }
            BuildErrorKind::LockHeld { .. } if public => {
                "another build held the builder too long".into()
            }
            BuildErrorKind::LockHeld { path, waited } => format!(
                "another build held {} for more than {} s; is a `challenge` process stuck?",
                path.display(),
                waited.as_secs()
            ),
            BuildErrorKind::Framework { .. } if public => {
                "the kit's framework did not build".into()
            }
            BuildErrorKind::Framework { messages } => format!(
                "the kit's framework did not build:\n{}",
                messages.trim_end()
            ),
            BuildErrorKind::DirectoryFull { .. } if public => "the build directory is full".into(),
            BuildErrorKind::DirectoryFull { dir, least, bound } => {
                directory_full(dir, *least, *bound)
            }
            BuildErrorKind::Setting { .. } if public => {
                "a build setting of the server is wrong".into()
            }
            BuildErrorKind::Setting { message } => message.clone(),
        }
    }
}

/// A build past its disk limit: measured (`seen` bytes), or stopped by the file size
/// limit (with what the compiler said, `quoted`).
fn over_disk(limit_mb: u64, seen: Option<u64>, quoted: Option<String>) -> String {
    let how = match (seen, &quoted) {
        (Some(bytes), _) => format!("; {} MiB seen", bytes.div_ceil(MIB)),
        (None, Some(_)) => ", which bounds each file too".to_string(),
        (None, None) => String::new(),
    };
    let quoted = match (seen, quoted) {
        (None, Some(text)) => format!("\n{text}"),
        _ => String::new(),
    };
    format!(
        "did not build: the build wrote more than {limit_mb} MiB \
         (limit {BUILD_DISK_ENV}{how}); a large static or const array is the usual \
         cause; nothing of this build was kept{quoted}"
    )
}

/// The build directory cannot hold the new engine within its bound.
fn directory_full(dir: &Path, least: u64, bound: u64) -> String {
    format!(
        "the build directory {} would hold {} MiB with this bot's engine even after \
         removing every other engine and bot build, over its bound of {} MiB (limit \
         {BUILD_DIR_LIMIT_ENV}); raise the bound or build elsewhere \
         (CHALLENGE_BUILD_DIR); nothing of this build was kept",
        dir.display(),
        least.div_ceil(MIB),
        bound / MIB
    )
}

/// The kind alone, for the host's user: the bot's fault as its sentence after the bot's
/// name, the host's with every detail.
impl std::fmt::Display for BuildErrorKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.words(&|text| text.trim_end().to_string(), false))
    }
}

impl std::error::Error for BuildErrorKind {}

impl std::fmt::Display for BuildError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.explain(Reader::Host))
    }
}

// The cause is part of the words (`Display`), so it is not given again as a source.
impl std::error::Error for BuildError {}

impl From<BadSetting> for BuildErrorKind {
    fn from(bad: BadSetting) -> BuildErrorKind {
        BuildErrorKind::Setting { message: bad.0 }
    }
}

/// What a failed compile of the bot was, from how rustc ended and what it said: the file
/// size limit, the memory limit, or the bot's own code.
pub(super) fn failed_compile(
    status: ExitStatus,
    messages: String,
    limits: &BuildLimits,
) -> BuildErrorKind {
    if hit_file_limit(status, &messages) {
        BuildErrorKind::OverDisk {
            limit_mb: limits.disk_mb,
            seen: None,
            messages: Some(messages),
        }
    } else if ran_out_of_memory(status, &messages) {
        BuildErrorKind::OutOfMemory {
            limit_mb: limits.memory_mb,
            messages,
        }
    } else {
        BuildErrorKind::Compile { messages }
    }
}

/// Whether a failed build looks like the memory limit: rustc and LLVM say
/// so in words, or the compiler is killed by `abort`.
fn ran_out_of_memory(status: ExitStatus, messages: &str) -> bool {
    let said = [
        "memory allocation of",
        "out of memory",
        "Cannot allocate memory",
    ]
    .iter()
    .any(|words| messages.contains(words));
    said || platform::aborted(status)
}

/// Whether a failed build met the file size limit: a process killed by `SIGXFSZ` (cargo
/// names the signal of a rustc it ran by number, gcc that of the linker in words), or a
/// write refused with `EFBIG`.
fn hit_file_limit(status: ExitStatus, messages: &str) -> bool {
    let lower = messages.to_lowercase();
    let said = ["sigxfsz", "file size limit exceeded", "(os error 27)"]
        .iter()
        .any(|words| lower.contains(words));
    let killed = platform::file_limit_signal().is_some_and(|signal| {
        platform::signal(status) == Some(signal)
            || [format!("(signal: {signal})"), format!("(signal: {signal},")]
                .iter()
                .any(|words| messages.contains(words.as_str()))
    });
    said || killed
}

/// A file or folder of the build that could not be dealt with: a closure for `map_err`.
pub(super) fn io(
    doing: &'static str,
    path: &Path,
) -> impl FnOnce(std::io::Error) -> BuildErrorKind {
    let path = path.to_path_buf();
    move |error| BuildErrorKind::Io { doing, path, error }
}

#[cfg(test)]
mod tests;

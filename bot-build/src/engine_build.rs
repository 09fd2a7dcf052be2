//! Turning a bot file into a UCI engine executable.
//!
//! Mechanism: a generated standalone crate per bot (its own `[workspace]`, so it
//! never attaches to a parent), all sharing one cargo target directory. That
//! gives cargo's own incremental machinery for free: the framework is compiled
//! once in release mode and every later bot only compiles its one file and
//! links. A bot keeps its crate (named after the bot's name and path, not its
//! source) from one edit to the next, and the crate is compiled incrementally,
//! so rebuilding after a one-line change recompiles only what the change
//! touched: under a second instead of a full optimised compile of the bot. The bot file is copied into the crate as a module (`src/bot.rs`),
//! so inner attributes and `//!` docs work as in any Rust file, and compiler
//! messages are mapped back to the bot file's own path (the line numbers are
//! already its own). A build script with `quote` would have to re-parse the
//! bot and re-emit it, losing the file's spans; a generated crate keeps them.
//! The crate's own files are generated from typed values (`quote` for its
//! `main.rs`, `toml` for its manifest), so no bot name or path can break or
//! inject into them.
//!
//! A bot file is untrusted code, and compiling it runs its constant evaluation and
//! macros: every build is bounded in time ([`BUILD_TIMEOUT_ENV`], 30 s), memory
//! ([`BUILD_MEMORY_ENV`], 4 GiB of address space for cargo and rustc) and disk
//! ([`BUILD_DISK_ENV`], 256 MiB: no file cargo, rustc or the linker writes may be larger,
//! and the bot's whole build output, watched while it runs and measured after, may not be
//! either), and killed as a process group past any of them, so a bot's build never holds
//! the build lock for longer. An engine executable over [`MAX_ENGINE_BYTES`] is refused.
//! A build stopped by a disk bound leaves nothing behind. The kit's framework is compiled
//! first in a step of its own (trusted code, with a longer bound), so the bot's limits
//! are spent on the bot alone.
//!
//! The caller says whose code it is ([`BuildKind`]): the author's own bot is
//! compiled incrementally in a crate kept for the next edit; someone else's (a
//! submission, a stored entry) with no incremental state, keeping nothing but the
//! engine, since incremental state is where a huge `static` lands on disk.
//!
//! Finished executables are cached by a hash of the bot's source, its name,
//! the kit's version and a fingerprint of the framework's sources, so a second
//! use of an unchanged bot starts at once, and any change rebuilds.
//!
//! The build directory stays bounded: after each build the least recently used engines
//! beyond [`KEEP_ENGINES_ENV`] (64) are removed, except those used in the last day, and
//! the build state of all but the [`KEPT_CRATES`] most recently built bots; then, while
//! the whole directory is larger than [`BUILD_DIR_LIMIT_ENV`] (4 GiB), the least recently
//! used bot builds and engines go, and a build that cannot fit even then fails. [`clean`]
//! empties it (`challenge clean`).
//!
//! [`BUILD_TIMEOUT_ENV`]: limits::BUILD_TIMEOUT_ENV
//! [`BUILD_MEMORY_ENV`]: limits::BUILD_MEMORY_ENV
//! [`BUILD_DISK_ENV`]: limits::BUILD_DISK_ENV
//! [`BUILD_DIR_LIMIT_ENV`]: limits::BUILD_DIR_LIMIT_ENV
//! [`MAX_ENGINE_BYTES`]: limits::MAX_ENGINE_BYTES
//! [`KEEP_ENGINES_ENV`]: cache::KEEP_ENGINES_ENV
//! [`KEPT_CRATES`]: cache::KEPT_CRATES

//!
//! The parts, one job each: `crate_files` (the generated crate and the cache key),
//! `limits` (the bounds from the environment), `error` ([`BuildError`], whose fault and
//! in whose words), `command` (rustc's and cargo's command lines), `supervise` (a step
//! under its bounds) with `platform` (what differs between platforms), `layout` (paths
//! and locks in the build directory), `framework` (the kit's framework, compiled once),
//! `cache` (cached engines, eviction, `clean`), `slots` (builds at once), and `job` (one
//! build, from crate to cached engine).

mod cache;
mod command;
mod crate_files;
mod error;
mod framework;
mod job;
mod layout;
mod limits;
mod platform;
mod slots;
mod supervise;

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::SystemTime;

use anyhow::{Context, Result};

use crate::bots::{BotFile, KIT_ROOT, LimitPolicy};
use cache::cached;
use crate_files::{cache_key, crate_name};
use error::io;
use job::Job;
use layout::{Share, crate_lock, lock_file, sanitize};
use limits::BuildLimits;
use slots::BuildSlot;

pub use cache::clean;
pub use error::{BuildError, BuildErrorKind, Reader};
pub use slots::{build_jobs, default_build_jobs, set_build_jobs};

/// What a build reports while it runs, to the observer its caller passes (see the crate's
/// documentation on reporting). Its `Display` is the line a person reads.
#[derive(Debug)]
pub enum BuildEvent<'a> {
    /// The bot a name or path given by the author resolved to (the file and where it
    /// came from: [`BotFile::origin`]), before it is checked and built.
    Resolved {
        /// The bot.
        bot: &'a BotFile,
    },
    /// The bot's engine was not cached: it is being compiled.
    Compiling {
        /// The bot's name.
        bot: &'a str,
    },
    /// A build's leftovers could not be removed; the next eviction or `challenge clean`
    /// tries again. The build itself is unaffected.
    CannotRemove {
        /// The bot's name.
        bot: &'a str,
        /// Why.
        error: anyhow::Error,
    },
    /// Tidying or bounding the build directory after a build failed; the build itself
    /// is kept.
    CannotTrim {
        /// The build directory.
        dir: &'a Path,
        /// Which bound was being kept: the engine count or the directory's size.
        what: CacheBound,
        /// Why.
        error: anyhow::Error,
    },
}

/// The bounds kept on the build directory after each build.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CacheBound {
    /// The number of cached engines ([`KEEP_ENGINES_ENV`](cache::KEEP_ENGINES_ENV)).
    Engines,
    /// The directory's size ([`BUILD_DIR_LIMIT_ENV`](limits::BUILD_DIR_LIMIT_ENV)).
    Size,
}

impl std::fmt::Display for BuildEvent<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BuildEvent::Resolved { bot } => write!(f, "bot {}: {}", bot.name, bot.origin()),
            BuildEvent::Compiling { bot } => write!(f, "building bot `{bot}` ..."),
            BuildEvent::CannotRemove { bot, error } => {
                write!(f, "warning: cannot remove the build of `{bot}`: {error:#}")
            }
            BuildEvent::CannotTrim { dir, what, error } => {
                let verb = match what {
                    CacheBound::Engines => "trim",
                    CacheBound::Size => "bound",
                };
                write!(
                    f,
                    "warning: cannot {verb} the bot cache in {}: {error:#}",
                    dir.display()
                )
            }
        }
    }
}

/// Where bot builds happen and finished engines are kept: `target/bots` in the
/// kit, or `$CHALLENGE_BUILD_DIR`.
pub fn build_dir() -> PathBuf {
    std::env::var_os("CHALLENGE_BUILD_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(KIT_ROOT).join("target").join("bots"))
}

/// What an engine's host enforces when it runs, fixed when the engine is built (its
/// generated `main.rs` says it, so engines of one bot with different limits are different
/// engines in the cache).
///
/// ```
/// use bot_build::EngineLimits;
/// assert_eq!(EngineLimits::default().memory_bytes, framework::uci::MEMORY_LIMIT_BYTES);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EngineLimits {
    /// What the bot may allocate beyond the host's baseline: the challenge's 256 MiB
    /// for every bot of a challenge; more only for opponents built from C# entries,
    /// whose tournament did not enforce its limit.
    pub memory_bytes: usize,
}

impl Default for EngineLimits {
    /// The challenge's limits.
    fn default() -> EngineLimits {
        EngineLimits {
            memory_bytes: ::framework::uci::MEMORY_LIMIT_BYTES,
        }
    }
}

/// A built engine: the executable a bot file became (a path; the process started from it
/// is a `runner::Engine`).
#[derive(Debug, Clone)]
pub struct BuiltEngine {
    /// The executable.
    pub path: PathBuf,
    /// The limits it was built with (what its host enforces).
    pub limits: EngineLimits,
    /// Whether it came from the cache.
    pub cached: bool,
    /// When the bot's own compile step started and ended (`None` for a cache hit): what
    /// shows that builds of different bots ran at the same time.
    pub compiled: Option<(SystemTime, SystemTime)>,
}

/// Whose code a build compiles, which decides what build state it may leave behind.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BuildKind {
    /// The author's own bot file (`challenge build`, `match`, `bench`, `play`, `uci`):
    /// compiled incrementally in a crate kept for the next edit, so a one-line change
    /// rebuilds in about a second.
    Local,
    /// Someone else's code (`challenge submit`, the server's submissions, the stored
    /// entries `challenge run` and `challenge worker` build): compiled with no incremental
    /// state, and its crate's build state is removed once the engine is copied out, so
    /// the engine is all that stays. A stored version is built once, so incremental
    /// state would buy nothing, and it is where a bot's huge constants land on disk (an
    /// 800 MB `static` leaves an 800 MB query cache).
    Untrusted,
}

/// Resolves a bot the author named (`my_bot` or a path), says which file that is
/// ([`BuildEvent::Resolved`]), checks it against the rules and builds it as the author's
/// own (`Local`), returning the bot and its engine executable.
pub fn prepare(
    spec: &str,
    policy: LimitPolicy,
    observe: &(dyn Fn(BuildEvent<'_>) + Sync),
) -> Result<(BotFile, BuiltEngine)> {
    let bot = crate::bots::resolve(spec)?;
    observe(BuildEvent::Resolved { bot: &bot });
    crate::bots::check(&bot, policy)?;
    let engine = build(&bot, BuildKind::Local, observe)
        .with_context(|| format!("cannot build bot `{}`", bot.name))?;
    Ok((bot, engine))
}

/// Builds (or finds in the cache) the engine executable for the bot file `bot`; `kind`
/// says whose code it is; what happens meanwhile goes to `observe`. A compile error is
/// the error returned. Builds of different bots run at the same time, [`build_jobs`] of
/// them at most in this process.
pub fn build(
    bot: &BotFile,
    kind: BuildKind,
    observe: &(dyn Fn(BuildEvent<'_>) + Sync),
) -> Result<BuiltEngine, BuildError> {
    build_with(bot, kind, EngineLimits::default(), observe)
}

/// [`build`] of an engine whose host enforces `limits` instead of the challenge's.
pub fn build_with(
    bot: &BotFile,
    kind: BuildKind,
    limits: EngineLimits,
    observe: &(dyn Fn(BuildEvent<'_>) + Sync),
) -> Result<BuiltEngine, BuildError> {
    let source = read_source(bot)?;
    build_source_in(&build_dir(), bot, &source, kind, limits, observe)
}

/// [`build`] with the build directory `dir` instead of [`build_dir`].
pub fn build_in(
    dir: &Path,
    bot: &BotFile,
    kind: BuildKind,
    observe: &(dyn Fn(BuildEvent<'_>) + Sync),
) -> Result<BuiltEngine, BuildError> {
    let source = read_source(bot)?;
    build_source_in(dir, bot, &source, kind, EngineLimits::default(), observe)
}

fn read_source(bot: &BotFile) -> Result<Vec<u8>, BuildError> {
    fs::read(&bot.path).map_err(|error| BuildError {
        bot: bot.clone(),
        kind: io("read", &bot.path)(error),
    })
}

/// [`build`] of a bot whose source is in hand (a submission as it was received): the
/// bytes are written once, into the bot's generated crate; `bot.path` names the bot in
/// its crate, its cache key and its messages, and need not exist.
pub fn build_source(
    bot: &BotFile,
    source: &[u8],
    kind: BuildKind,
    observe: &(dyn Fn(BuildEvent<'_>) + Sync),
) -> Result<BuiltEngine, BuildError> {
    build_source_in(
        &build_dir(),
        bot,
        source,
        kind,
        EngineLimits::default(),
        observe,
    )
}

fn build_source_in(
    dir: &Path,
    bot: &BotFile,
    source: &[u8],
    kind: BuildKind,
    engine_limits: EngineLimits,
    observe: &(dyn Fn(BuildEvent<'_>) + Sync),
) -> Result<BuiltEngine, BuildError> {
    let built = (|| {
        let limits = BuildLimits::from_env()?;
        let key = cache_key(bot, source, engine_limits);
        let bin = dir.join("bin");
        let executable = bin.join(format!("bot_{}_{key}", sanitize(&bot.name)));
        if let Some(engine) = cached(&executable, engine_limits) {
            return Ok(engine);
        }
        fs::create_dir_all(&bin).map_err(io("create", &bin))?;
        let _slot = BuildSlot::take();
        // Every build holds the directory's lock shared, so `clean` (which takes it alone)
        // never empties the directory under a build; builds do not exclude each other.
        let _directory = lock_file(&dir.join(".lock"), limits.lock_wait(), Share::Shared)?;
        // Two builds of the same bot would share its crate: the second waits for the
        // first (one build, bounded by the limits) and then finds its engine cached.
        let crate_name = crate_name(bot);
        let crate_lock = crate_lock(dir, &crate_name);
        let _crate = lock_file(&crate_lock, limits.lock_wait(), Share::Alone)?;
        if let Some(engine) = cached(&executable, engine_limits) {
            return Ok(engine);
        }
        let job = Job {
            bot,
            kind,
            dir,
            crate_name,
            limits,
            engine_limits,
            observe,
        };
        let compiled = job.run(source, &executable)?;
        Ok(BuiltEngine {
            path: executable,
            limits: engine_limits,
            cached: false,
            compiled: Some(compiled),
        })
    })();
    built.map_err(|kind: BuildErrorKind| BuildError {
        bot: bot.clone(),
        kind,
    })
}

/// Builds the engines of `bots` (see [`build`]), [`build_jobs`] at a time, taking them in
/// the order given (put first the engines needed first); one result per bot, in order.
pub fn build_all(
    bots: &[BotFile],
    kind: BuildKind,
    observe: &(dyn Fn(BuildEvent<'_>) + Sync),
) -> Vec<Result<BuiltEngine, BuildError>> {
    build_all_with(bots, kind, &|_| EngineLimits::default(), observe)
}

/// [`build_all`] with each bot's engine built to the limits `limits` gives it (see
/// [`build_with`]).
pub fn build_all_with(
    bots: &[BotFile],
    kind: BuildKind,
    limits: &(dyn Fn(&BotFile) -> EngineLimits + Sync),
    observe: &(dyn Fn(BuildEvent<'_>) + Sync),
) -> Vec<Result<BuiltEngine, BuildError>> {
    let next = AtomicUsize::new(0);
    let results: Vec<Mutex<Option<Result<BuiltEngine, BuildError>>>> =
        bots.iter().map(|_| Mutex::new(None)).collect();
    std::thread::scope(|scope| {
        for _ in 0..build_jobs().min(bots.len()) {
            scope.spawn(|| {
                loop {
                    let index = next.fetch_add(1, Ordering::Relaxed);
                    let Some(bot) = bots.get(index) else { break };
                    let built = build_with(bot, kind, limits(bot), observe);
                    *results[index].lock().unwrap_or_else(|p| p.into_inner()) = Some(built);
                }
            });
        }
    });
    results
        .into_iter()
        .zip(bots)
        .map(|(slot, bot)| {
            slot.into_inner()
                .unwrap_or_else(|p| p.into_inner())
                .unwrap_or_else(|| {
                    Err(BuildError {
                        bot: bot.clone(),
                        kind: BuildErrorKind::Spawn {
                            program: "a build thread".into(),
                            error: std::io::Error::other("it stopped"),
                        },
                    })
                })
        })
        .collect()
}

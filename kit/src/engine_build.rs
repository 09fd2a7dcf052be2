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
//! A bot file is untrusted code, and compiling it runs its constant
//! evaluation and macros: every build is bounded in time
//! ([`BUILD_TIMEOUT_ENV`], 30 s), memory ([`BUILD_MEMORY_ENV`], 4 GiB of
//! address space for cargo and rustc) and disk ([`BUILD_DISK_ENV`], 256 MiB: no
//! file cargo, rustc or the linker writes may be larger, and the bot's whole build
//! output, watched while it runs and measured after, may not be either), and killed
//! as a process group past any of them, so a bot's build never holds the build lock
//! for longer. An engine executable over [`MAX_ENGINE_BYTES`] is refused. A build
//! stopped by a disk bound leaves nothing behind. The kit's framework is compiled
//! first in a step of its own (trusted code, with a longer bound), so the bot's
//! limits are spent on the bot alone.
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
//! The build directory stays bounded: after each build the least recently used
//! engines beyond [`KEEP_ENGINES_ENV`] (64) are removed, except those used in
//! the last day, and the build state of all but the [`KEPT_CRATES`] most
//! recently built bots; then, while the whole directory is larger than
//! [`BUILD_DIR_LIMIT_ENV`] (4 GiB), the least recently used bot builds and engines
//! go, and a build that cannot fit even then fails. [`clean`] empties it
//! (`challenge clean`).

use std::fs::{self, File};
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Condvar, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant, SystemTime};

use anyhow::{Context, Result, bail};
use quote::quote;
use sha2::{Digest, Sha256};

use crate::bots::{BotFile, KIT_ROOT, LimitPolicy};

/// The first 16 hex digits of a source's SHA-256: a version's identity, and the name its
/// file is written under.
pub fn content_hash(source: &str) -> String {
    Sha256::digest(source.as_bytes())[..8]
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Writes a stored source to `<dir>/sources/<hash>.rs` (unless it is already there) and
/// returns the bot file to build, named after the entry: how a submission, a tournament
/// and a worker turn a source from the store into a file to build.
pub fn materialize(dir: &Path, name: &str, source: &str) -> Result<BotFile> {
    let folder = dir.join("sources");
    fs::create_dir_all(&folder).with_context(|| format!("cannot create {}", folder.display()))?;
    let path = folder.join(format!("{}.rs", content_hash(source)));
    let fresh = fs::read_to_string(&path).is_ok_and(|text| text == source);
    if !fresh {
        let partial = path.with_extension("partial");
        fs::write(&partial, source)
            .with_context(|| format!("cannot write {}", partial.display()))?;
        fs::rename(&partial, &path).with_context(|| format!("cannot write {}", path.display()))?;
    }
    Ok(BotFile {
        name: name.to_string(),
        path,
    })
}

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
    /// The number of cached engines ([`KEEP_ENGINES_ENV`]).
    Engines,
    /// The directory's size ([`BUILD_DIR_LIMIT_ENV`]).
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

const KIT_VERSION: &str = env!("CARGO_PKG_VERSION");
const FRAMEWORK_FINGERPRINT: &str = env!("CHALLENGE_FRAMEWORK_FINGERPRINT");

/// Where bot builds happen and finished engines are kept: `target/bots` in the
/// kit, or `$CHALLENGE_BUILD_DIR`.
pub fn build_dir() -> PathBuf {
    std::env::var_os("CHALLENGE_BUILD_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(KIT_ROOT).join("target").join("bots"))
}

/// A built engine.
#[derive(Debug, Clone)]
pub struct Engine {
    /// The executable.
    pub path: PathBuf,
    /// Whether it came from the cache.
    pub cached: bool,
    /// When the bot's own compile step started and ended (`None` for a cache hit): what
    /// shows that builds of different bots ran at the same time.
    pub compiled: Option<(SystemTime, SystemTime)>,
}

/// The cache key of a bot: everything its engine executable depends on.
pub fn cache_key(bot: &BotFile, source: &[u8]) -> String {
    let crate_name = crate_name(bot);
    short_hash(&[
        source,
        bot.name.as_bytes(),
        KIT_VERSION.as_bytes(),
        FRAMEWORK_FINGERPRINT.as_bytes(),
        manifest(&crate_name).as_bytes(),
        main_rs(bot).as_bytes(),
    ])
}

/// The name of a bot's generated crate: the same for every version of the bot (so cargo
/// compiles an edit incrementally), different for bots of the same name elsewhere.
///
/// Every variant of one bot (`my_bot@DEPTH=2`, see [`crate::variants`]) shares one crate,
/// named after the folder of its variants: a variant differs from the one built before it
/// only in a literal, so cargo compiles it incrementally (about half a second for a
/// reference bot) where a crate of its own would compile the whole bot (about five).
fn crate_name(bot: &BotFile) -> String {
    crate_name_in(bot, &crate::bots::variants_dir())
}

/// [`crate_name`] with the variants' folder `variants`.
fn crate_name_in(bot: &BotFile, variants: &Path) -> String {
    let family = crate::variants::family(&bot.path, variants);
    let (name, path) = match &family {
        Some(dir) => (
            bot.name.split('@').next().unwrap_or_default(),
            dir.as_path(),
        ),
        None => (bot.name.as_str(), bot.path.as_path()),
    };
    let path = path.display().to_string();
    let origin = short_hash(&[name.as_bytes(), path.as_bytes()]);
    format!("bot_{}_{}", sanitize(name), &origin[..8])
}

/// 16 hex digits of SHA-256 over the parts, each prefixed by its length.
fn short_hash(parts: &[&[u8]]) -> String {
    let mut hasher = Sha256::new();
    for part in parts {
        hasher.update((part.len() as u64).to_le_bytes());
        hasher.update(part);
    }
    hasher.finalize()[..8]
        .iter()
        .map(|byte| format!("{byte:02x}"))
        .collect()
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
) -> Result<(BotFile, Engine)> {
    let bot = crate::bots::resolve(spec)?;
    observe(BuildEvent::Resolved { bot: &bot });
    crate::bots::check(&bot, policy)?;
    let engine = build(&bot, BuildKind::Local, observe)
        .with_context(|| format!("cannot build bot `{}`", bot.name))?;
    Ok((bot, engine))
}

/// Builds (or finds in the cache) the engine executable for `bot`; `kind` says whose
/// code it is; what happens meanwhile goes to `observe`. A compile error is the error
/// returned. Builds of different bots run at the same time, [`build_jobs`] of them at
/// most in this process.
pub fn build(
    bot: &BotFile,
    kind: BuildKind,
    observe: &(dyn Fn(BuildEvent<'_>) + Sync),
) -> Result<Engine> {
    build_in(&build_dir(), bot, kind, observe)
}

/// [`build`] with the build directory `dir` instead of [`build_dir`].
pub fn build_in(
    dir: &Path,
    bot: &BotFile,
    kind: BuildKind,
    observe: &(dyn Fn(BuildEvent<'_>) + Sync),
) -> Result<Engine> {
    let limits = BuildLimits::from_env()?;
    let source =
        fs::read(&bot.path).with_context(|| format!("cannot read {}", bot.path.display()))?;
    let key = cache_key(bot, &source);
    let executable = dir
        .join("bin")
        .join(format!("bot_{}_{key}", sanitize(&bot.name)));
    if let Some(engine) = cached(&executable) {
        return Ok(engine);
    }

    fs::create_dir_all(dir.join("bin"))
        .with_context(|| format!("cannot create {}", dir.display()))?;
    let _slot = BuildSlot::take();
    // Every build holds the directory's lock shared, so `clean` (which takes it alone)
    // never empties the directory under a build; builds do not exclude each other.
    let _directory = lock_file(&dir.join(".lock"), limits.lock_wait(), Share::Shared)?;
    // Two builds of the same bot would share its crate: the second waits for the
    // first (one build, bounded by the limits) and then finds its engine cached.
    let crate_name = crate_name(bot);
    let _crate = lock_file(
        &crate_lock(dir, &crate_name),
        limits.lock_wait(),
        Share::Alone,
    )?;
    if let Some(engine) = cached(&executable) {
        return Ok(engine);
    }
    let job = Job {
        bot,
        kind,
        dir,
        crate_name,
        limits,
        observe,
    };
    let compiled = job.run(&source, &executable)?;
    Ok(Engine {
        path: executable,
        cached: false,
        compiled: Some(compiled),
    })
}

/// One build, holding its bot's crate lock.
struct Job<'a> {
    bot: &'a BotFile,
    kind: BuildKind,
    /// The build directory ([`build_dir`]).
    dir: &'a Path,
    crate_name: String,
    limits: BuildLimits,
    observe: &'a (dyn Fn(BuildEvent<'_>) + Sync),
}

impl Job<'_> {
    /// Compiles the bot, installs its engine at `executable` and bounds the build
    /// directory. A build stopped by a bound leaves nothing behind, and neither does an
    /// untrusted one (but its engine).
    /// Returns when the bot's own compile step started and ended.
    fn run(&self, source: &[u8], executable: &Path) -> Result<(SystemTime, SystemTime)> {
        write_crate(&self.crate_dir(), &self.crate_name, self.bot, source)?;
        let scratch = self.scratch();
        fs::create_dir_all(&scratch)
            .with_context(|| format!("cannot create {}", scratch.display()))?;
        (self.observe)(BuildEvent::Compiling {
            bot: &self.bot.name,
        });
        let compiled = self.compile();
        // The compiler's scratch space is never needed after the build.
        let _ = fs::remove_dir_all(&scratch);
        let window = match compiled {
            Ok(window) => window,
            Err(failure) => {
                if self.kind == BuildKind::Untrusted || failure.met_a_bound() {
                    self.forget();
                }
                bail!("{}", failure.explain(self.bot, &self.limits));
            }
        };
        let built = self.engine_out();
        // Copy to a temporary name first so a half-written file is never taken
        // for a cached engine.
        let partial = executable.with_extension("partial");
        fs::copy(&built, &partial)
            .with_context(|| format!("cannot copy the engine from {}", built.display()))?;
        fs::rename(&partial, executable)?;
        mark_used(executable);
        match self.kind {
            BuildKind::Untrusted => self.forget(),
            BuildKind::Local => {
                let _ = fs::write(self.crate_dir().join(BUILT_MARK), b"");
            }
        }
        // Bounding the directory looks at every build in it: one at a time.
        let _trim = lock_file(
            &named_lock(self.dir, "framework"),
            self.limits.lock_wait(),
            Share::Alone,
        )?;
        self.trim(executable)?;
        Ok(window)
    }

    /// Where rustc writes the bot's engine and its intermediate files: a directory of the
    /// bot's own (named like cargo's entries for the crate, so [`crate_paths`] counts and
    /// removes it), which no other build writes to.
    fn out_dir(&self) -> PathBuf {
        bot_out_dir(self.dir, &self.crate_name)
    }

    fn engine_out(&self) -> PathBuf {
        self.out_dir().join(&self.crate_name)
    }

    fn crate_dir(&self) -> PathBuf {
        self.dir.join("crates").join(&self.crate_name)
    }

    /// The temporary directory of the bot's build (`TMPDIR` for cargo, rustc and the
    /// linker): inside the build directory, so what they write there is measured and
    /// removed with the rest.
    fn scratch(&self) -> PathBuf {
        scratch_dir(self.dir, &self.crate_name)
    }

    /// Compiles the framework (a no-op once built), then the bot under every bound,
    /// then checks what the bot's build left on disk. Returns when the bot's step ran.
    fn compile(&self) -> Result<(SystemTime, SystemTime), BuildFailure> {
        let framework = self.framework()?;
        let watch = Watch {
            dir: self.dir,
            crate_name: &self.crate_name,
            cap: self.limits.disk_bytes(),
        };
        let bot = Step {
            time: self.limits.time,
            file_limit: self.limits.disk_bytes(),
            watch: Some(watch),
        };
        let out = self.out_dir();
        fs::create_dir_all(&out).map_err(BuildFailure::Spawn)?;
        let started = SystemTime::now();
        let command = rustc_command(self, &framework);
        run_bounded(command, &bot, self.limits.memory_mb)?;
        let ended = SystemTime::now();
        // The watch looks a few times a second; this is the last word.
        let wrote = watch.footprint();
        if wrote > watch.cap {
            return Err(BuildFailure::OverDisk(Some(wrote)));
        }
        let bytes = fs::metadata(self.engine_out()).map_or(0, |meta| meta.len());
        if bytes > MAX_ENGINE_BYTES {
            return Err(BuildFailure::EngineTooLarge(bytes));
        }
        Ok((started, ended))
    }

    /// The compiled framework, compiled first if need be: by cargo (trusted code, in a
    /// step of its own so the bot's bounds are spent on the bot alone; its largest file is
    /// about 6 MB), in the shared target directory, one build at a time. That is the only
    /// part of a build that waits for other builds, and once the framework is compiled it
    /// is a check of under a second, made once per process.
    fn framework(&self) -> Result<Framework, BuildFailure> {
        let _lock = lock_file(
            &named_lock(self.dir, "framework"),
            self.limits.lock_wait(),
            Share::Alone,
        )
        .map_err(|err| BuildFailure::Spawn(std::io::Error::other(format!("{err:#}"))))?;
        if let Some(known) = known_framework(self.dir) {
            return Ok(known);
        }
        let step = Step {
            time: FRAMEWORK_BUILD_LIMIT,
            file_limit: FRAMEWORK_FILE_LIMIT,
            watch: None,
        };
        let command = cargo_command(
            &self.crate_dir(),
            self.dir,
            &["-p", "framework", "--message-format=json"],
            self.kind,
            &self.scratch(),
        );
        let said = run_bounded(command, &step, self.limits.memory_mb)?;
        let framework = framework_artifact(&said, self.dir).ok_or_else(|| {
            BuildFailure::Spawn(std::io::Error::other(
                "cargo did not name the compiled framework library",
            ))
        })?;
        remember_framework(self.dir, &framework);
        Ok(framework)
    }

    /// Removes the bot's generated crate and everything cargo keeps for it. Best effort:
    /// what cannot be removed now goes at the next eviction or `challenge clean`.
    fn forget(&self) {
        if let Err(error) = remove_crate(self.dir, &self.crate_name) {
            (self.observe)(BuildEvent::CannotRemove {
                bot: &self.bot.name,
                error,
            });
        }
    }

    /// Bounds the build directory after a build: the engine count (a tidy-up, so a
    /// failure is only a warning), then its size, which may refuse the build.
    fn trim(&self, executable: &Path) -> Result<()> {
        let dir = self.dir;
        if let Err(error) = evict(dir, executable, keep_engines()?) {
            (self.observe)(BuildEvent::CannotTrim {
                dir,
                what: CacheBound::Engines,
                error,
            });
        }
        let bound = self.limits.dir_bytes();
        match fit_dir(dir, executable, &self.crate_name, bound) {
            Ok(Fit::Fits(_)) => Ok(()),
            Err(error) => {
                (self.observe)(BuildEvent::CannotTrim {
                    dir,
                    what: CacheBound::Size,
                    error,
                });
                Ok(())
            }
            Ok(Fit::Overfull { least }) => {
                let _ = remove_counted(executable);
                let _ = remove_counted(&use_stamp(executable));
                self.forget();
                bail!(
                    "bot `{}` did not build: the build directory {} would hold {} MiB with \
                     this bot's engine even after removing every other engine and bot build, \
                     over its bound of {} MiB (limit {BUILD_DIR_LIMIT_ENV}); raise the bound \
                     or build elsewhere (CHALLENGE_BUILD_DIR); nothing of this build was kept",
                    self.bot.name,
                    dir.display(),
                    least.div_ceil(MIB),
                    bound / MIB
                )
            }
        }
    }
}

/// The cached engine at `executable`, marked as just used (for eviction), if any.
fn cached(executable: &Path) -> Option<Engine> {
    if !executable.is_file() {
        return None;
    }
    mark_used(executable);
    Some(Engine {
        path: executable.to_path_buf(),
        cached: true,
        compiled: None,
    })
}

/// The file whose modification time says when an engine was last used: beside the
/// engines, in `used/`, so the engine itself is never touched after its build.
fn use_stamp(executable: &Path) -> PathBuf {
    let bin = executable.parent().unwrap_or(Path::new("."));
    let name = executable.file_name().unwrap_or_default();
    bin.parent().unwrap_or(bin).join("used").join(name)
}

/// Records that `executable` was used now. Best effort: a cache on a read-only disk
/// still works, only less fairly evicted.
fn mark_used(executable: &Path) {
    let stamp = use_stamp(executable);
    if let Some(dir) = stamp.parent() {
        let _ = fs::create_dir_all(dir);
    }
    if let Ok(file) = File::create(&stamp) {
        let _ = file.set_modified(SystemTime::now());
    }
}

/// Writes the generated crate, leaving files whose content is unchanged untouched (a
/// rewritten file would make cargo compile it again).
fn write_crate(crate_dir: &Path, crate_name: &str, bot: &BotFile, source: &[u8]) -> Result<()> {
    fs::create_dir_all(crate_dir.join("src"))?;
    // The kit's lock file pins the framework's dependencies to the versions the
    // kit was tested with, and lets cargo resolve without the network.
    let kit_lock = fs::read(Path::new(KIT_ROOT).join("Cargo.lock")).unwrap_or_default();
    for (path, content) in [
        (
            crate_dir.join("Cargo.toml"),
            manifest(crate_name).into_bytes(),
        ),
        (crate_dir.join("Cargo.lock"), kit_lock),
        (
            crate_dir.join("src").join("main.rs"),
            main_rs(bot).into_bytes(),
        ),
        (crate_dir.join("src").join("bot.rs"), source.to_vec()),
    ] {
        if content.is_empty() || fs::read(&path).is_ok_and(|old| old == content) {
            continue;
        }
        fs::write(&path, content).with_context(|| format!("cannot write {}", path.display()))?;
    }
    Ok(())
}

/// The generated crate's manifest, serialized by `toml` (so the framework's
/// path is escaped as TOML, whatever it holds).
fn manifest(crate_name: &str) -> String {
    let framework = Path::new(KIT_ROOT).join("framework");
    let table = |pairs: Vec<(&str, toml::Value)>| {
        toml::Value::Table(pairs.into_iter().map(|(k, v)| (k.to_string(), v)).collect())
    };
    let text = |value: &str| toml::Value::String(value.to_string());
    let manifest = table(vec![
        (
            "package",
            table(vec![
                ("name", text(crate_name)),
                ("version", text("0.0.0")),
                ("edition", text("2024")),
                ("publish", toml::Value::Boolean(false)),
            ]),
        ),
        (
            "dependencies",
            table(vec![(
                "framework",
                table(vec![("path", text(&framework.display().to_string()))]),
            )]),
        ),
        // Its own workspace: never attached to the kit's or any parent's.
        ("workspace", table(vec![])),
        // The framework (compiled once) is a plain optimised release build; the bot's
        // own crate is compiled incrementally, so an edit recompiles only what it
        // touched, in 16 codegen units as a release build has (incremental's default
        // of 256 would split the bot's search finer and inline less). LTO stays off:
        // it would recompile the framework into every link.
        (
            "profile",
            table(vec![(
                "release",
                table(vec![
                    ("opt-level", toml::Value::Integer(3)),
                    ("debug", toml::Value::Boolean(false)),
                    ("strip", toml::Value::Boolean(true)),
                    ("lto", toml::Value::Boolean(false)),
                    ("incremental", toml::Value::Boolean(false)),
                    (
                        "package",
                        table(vec![(
                            crate_name,
                            table(vec![
                                ("incremental", toml::Value::Boolean(true)),
                                ("codegen-units", toml::Value::Integer(16)),
                            ]),
                        )]),
                    ),
                ]),
            )]),
        ),
    ]);
    toml::to_string(&manifest).unwrap_or_default()
}

/// The generated crate's `main.rs`, built as tokens: the bot's name is a
/// string literal token and its path a doc attribute's value, each escaped
/// by `quote`, so neither can end the literal or the comment early.
fn main_rs(bot: &BotFile) -> String {
    // `{:?}` keeps the comment one printable line (no bare CR in a doc comment).
    let origin = format!(
        " Generated by `challenge build` for {:?}",
        bot.path.display().to_string()
    );
    let name = bot.name.as_str();
    let tokens = quote! {
        #![doc = #origin]
        #[global_allocator]
        static ALLOCATOR: framework::uci::LimitedAllocator = framework::uci::LimitedAllocator;
        // A bot's unused helpers are its author's business: no warnings.
        #[allow(warnings)]
        mod bot;
        fn main() {
            framework::uci::run::<bot::MyBot>(#name);
        }
    };
    match syn::parse2::<syn::File>(tokens) {
        Ok(file) => prettyplease::unparse(&file),
        // Unreachable: the tokens above form a file whatever the two values are.
        Err(err) => format!("compile_error!({:?});", err.to_string()),
    }
}

/// Builds this process runs at once; 0 until set (then [`default_build_jobs`]).
static BUILD_JOBS: AtomicUsize = AtomicUsize::new(0);
/// Builds under way in this process, and the wake-up of those waiting for a slot.
static RUNNING: (Mutex<usize>, Condvar) = (Mutex::new(0), Condvar::new());

/// How many builds the machine's memory allows at once: its memory over the memory
/// limit of one build ([`BUILD_MEMORY_ENV`]), at least 1. Where the memory cannot be
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
struct BuildSlot;

impl BuildSlot {
    /// Waits for a free slot. Every build is bounded, so the wait is too.
    fn take() -> BuildSlot {
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

/// Builds the engines of `bots` (see [`build`]), [`build_jobs`] at a time, taking them in
/// the order given (put first the engines needed first); one result per bot, in order.
pub fn build_all(
    bots: &[BotFile],
    kind: BuildKind,
    observe: &(dyn Fn(BuildEvent<'_>) + Sync),
) -> Vec<Result<Engine>> {
    let next = AtomicUsize::new(0);
    let results: Vec<Mutex<Option<Result<Engine>>>> =
        bots.iter().map(|_| Mutex::new(None)).collect();
    std::thread::scope(|scope| {
        for _ in 0..build_jobs().min(bots.len()) {
            scope.spawn(|| {
                loop {
                    let index = next.fetch_add(1, Ordering::Relaxed);
                    let Some(bot) = bots.get(index) else { break };
                    let built = build(bot, kind, observe);
                    *results[index].lock().unwrap_or_else(|p| p.into_inner()) = Some(built);
                }
            });
        }
    });
    results
        .into_iter()
        .map(|slot| {
            slot.into_inner()
                .unwrap_or_else(|p| p.into_inner())
                .unwrap_or_else(|| Err(anyhow::anyhow!("the build thread stopped")))
        })
        .collect()
}

/// Names the variable that sets how many seconds one bot's build may take.
pub const BUILD_TIMEOUT_ENV: &str = "CHALLENGE_BUILD_TIMEOUT";
/// Names the variable that sets the address space (MiB) cargo and rustc get per build.
pub const BUILD_MEMORY_ENV: &str = "CHALLENGE_BUILD_MEMORY_MB";
/// Names the variable that sets how much (MiB) one bot's build may write: its objects,
/// incremental state, scratch files and engine, and the largest file cargo, rustc or the
/// linker may write while building it.
pub const BUILD_DISK_ENV: &str = "CHALLENGE_BUILD_DISK_MB";
/// Names the variable that bounds (MiB) the whole build directory: the framework, every
/// cached engine and every kept bot build.
pub const BUILD_DIR_LIMIT_ENV: &str = "CHALLENGE_BUILD_DIR_MB";
/// The largest engine executable a build may produce: a reference bot's is about 5 MB,
/// and anything near this size is a bot carrying a huge table in its binary.
pub const MAX_ENGINE_BYTES: u64 = 64 * MIB;

const MIB: u64 = 1024 * 1024;
/// A reference bot (`bot/*.rs`) is submitted, built from an empty engine cache and
/// smoke-tested in 4 to 6 s on two cores shared with other compilers; 30 s is five times
/// the slowest, and bounds how long one submission holds a server's builder (a bot whose
/// build runs to the limit is what a flood of submissions sends).
const DEFAULT_BUILD_SECONDS: u64 = 30;
const DEFAULT_BUILD_MEMORY_MB: u64 = 4096;
/// A reference bot's build leaves 15 to 20 MB with its incremental state (and its engine);
/// an ordinary bot stays far below this, a bot with a huge `static` or `const` does not.
const DEFAULT_BUILD_DISK_MB: u64 = 256;
/// The framework (about 40 MB), the default 64 kept engines (about 5 MB each) and 8 kept
/// bot builds (about 20 MB each) need under 1 GB; this leaves room for bigger bots.
const DEFAULT_BUILD_DIR_MB: u64 = 4096;
/// The kit's own framework (trusted code, compiled once per kit version)
/// may take this long: a cold build on a slow machine takes minutes.
const FRAMEWORK_BUILD_LIMIT: Duration = Duration::from_secs(15 * 60);
/// The largest file the framework's own build step may write (its largest is about
/// 6 MB): a sanity bound that no bot's setting can lower.
const FRAMEWORK_FILE_LIMIT: u64 = 1024 * MIB;
/// Compiler messages kept for the error report; a bot whose build prints
/// more gets the beginning.
const MAX_MESSAGE_BYTES: usize = 256 * 1024;

/// The bounds of one build.
#[derive(Debug, Clone, Copy)]
struct BuildLimits {
    time: Duration,
    memory_mb: u64,
    disk_mb: u64,
    dir_mb: u64,
}

impl BuildLimits {
    fn from_env() -> Result<BuildLimits> {
        BuildLimits::from_vars(|name| std::env::var(name).ok())
    }

    /// The limits from variables looked up by name (the environment, or a test's table).
    fn from_vars(var: impl Fn(&str) -> Option<String>) -> Result<BuildLimits> {
        let number = |name: &str, default| parse_limit(name, var(name).as_deref(), default);
        Ok(BuildLimits {
            time: Duration::from_secs(number(BUILD_TIMEOUT_ENV, DEFAULT_BUILD_SECONDS)?),
            memory_mb: number(BUILD_MEMORY_ENV, DEFAULT_BUILD_MEMORY_MB)?,
            disk_mb: number(BUILD_DISK_ENV, DEFAULT_BUILD_DISK_MB)?,
            dir_mb: number(BUILD_DIR_LIMIT_ENV, DEFAULT_BUILD_DIR_MB)?,
        })
    }

    fn disk_bytes(&self) -> u64 {
        self.disk_mb.saturating_mul(MIB)
    }

    fn dir_bytes(&self) -> u64 {
        self.dir_mb.saturating_mul(MIB)
    }

    /// How long a build waits for the build lock: as long as the longest
    /// build that can hold it, with room for copying the result.
    fn lock_wait(&self) -> Duration {
        FRAMEWORK_BUILD_LIMIT + self.time + Duration::from_secs(30)
    }
}

fn env_number(name: &str, default: u64) -> Result<u64> {
    parse_limit(name, std::env::var(name).ok().as_deref(), default)
}

/// A limit's value: `default` when unset, else a whole number from 1 to 2^40.
fn parse_limit(name: &str, text: Option<&str>, default: u64) -> Result<u64> {
    match text {
        None => Ok(default),
        Some(text) => match text.trim().parse::<u64>() {
            Ok(value) if (1..=1 << 40).contains(&value) => Ok(value),
            _ => bail!("{name}=`{text}` is not a whole number from 1 to 2^40"),
        },
    }
}

/// How a lock file is held.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Share {
    /// Beside other shared holders (builds hold the directory's lock so).
    Shared,
    /// By one holder only.
    Alone,
}

/// Takes the lock file at `path` (made if missing), waiting at most `wait`: every holder
/// is bounded by the build limits, so the wait is too.
fn lock_file(path: &Path, wait: Duration, share: Share) -> Result<File> {
    if let Some(parent) = path.parent() {
        fs::create_dir_all(parent)
            .with_context(|| format!("cannot create {}", parent.display()))?;
    }
    let lock = File::create(path).with_context(|| format!("cannot create {}", path.display()))?;
    let deadline = Instant::now() + wait;
    loop {
        let tried = match share {
            Share::Shared => lock.try_lock_shared(),
            Share::Alone => lock.try_lock(),
        };
        match tried {
            Ok(()) => return Ok(lock),
            Err(std::fs::TryLockError::WouldBlock) if Instant::now() < deadline => {
                std::thread::sleep(Duration::from_millis(50));
            }
            Err(std::fs::TryLockError::WouldBlock) => bail!(
                "another build held {} for more than {} s; is a `challenge` process stuck?",
                path.display(),
                wait.as_secs()
            ),
            Err(std::fs::TryLockError::Error(err)) => {
                return Err(err).with_context(|| format!("cannot lock {}", path.display()));
            }
        }
    }
}

/// The lock file of one part of the build directory: `locks/NAME/.lock`.
fn named_lock(dir: &Path, name: &str) -> PathBuf {
    dir.join("locks").join(name).join(".lock")
}

/// The lock a bot's build holds on its crate; named by a hash of the crate's name, so no
/// file outside the bot's own build is named after the bot.
fn crate_lock(dir: &Path, crate_name: &str) -> PathBuf {
    named_lock(
        dir,
        &format!("crate-{}", short_hash(&[crate_name.as_bytes()])),
    )
}

/// Whether a build of the crate is under way (in this process or another): its lock is
/// held. A crate without a lock file has never been built by this kit version.
fn crate_busy(dir: &Path, crate_name: &str) -> bool {
    let Ok(lock) = File::open(crate_lock(dir, crate_name)) else {
        return false;
    };
    matches!(lock.try_lock(), Err(std::fs::TryLockError::WouldBlock))
}

/// See `Job::out_dir`.
fn bot_out_dir(dir: &Path, crate_name: &str) -> PathBuf {
    dir.join("target")
        .join("release")
        .join("deps")
        .join(format!("{crate_name}-engine"))
}

/// Why a build did not produce an engine.
#[derive(Debug)]
enum BuildFailure {
    /// Cargo could not be run at all.
    Spawn(std::io::Error),
    /// Still compiling when the time limit came; the build was killed.
    TimedOut(Duration),
    /// The bot's build wrote more than its disk limit: measured (with the bytes seen), or
    /// a process was stopped by the file size limit.
    OverDisk(Option<u64>),
    /// The engine executable is larger than [`MAX_ENGINE_BYTES`].
    EngineTooLarge(u64),
    /// The compiler failed; `messages` is what it said (bounded).
    Failed {
        status: ExitStatus,
        messages: String,
    },
}

impl BuildFailure {
    /// Whether a bound stopped the build: disk, time or memory. Nothing of such a build
    /// stays: its state is of no use to the next build (a killed rustc leaves its
    /// incremental session unfinished) and may be huge. A build that merely does not
    /// compile keeps its state for the author's next edit.
    fn met_a_bound(&self) -> bool {
        match self {
            BuildFailure::OverDisk(_)
            | BuildFailure::EngineTooLarge(_)
            | BuildFailure::TimedOut(_) => true,
            BuildFailure::Failed { status, messages } => {
                hit_file_limit(*status, messages) || ran_out_of_memory(*status, messages)
            }
            BuildFailure::Spawn(_) => false,
        }
    }

    fn explain(&self, bot: &BotFile, limits: &BuildLimits) -> String {
        let name = &bot.name;
        // `seen` says how the bound was met; `said` is what the compiler said, if anything.
        let disk = |seen: &str, said: &str| {
            format!(
                "bot `{name}` did not build: the build wrote more than {} MiB \
                 (limit {BUILD_DISK_ENV}{seen}); a large static or const array is the usual \
                 cause; nothing of this build was kept{said}",
                limits.disk_mb
            )
        };
        match self {
            BuildFailure::Spawn(err) => {
                format!("cannot run cargo to build the bot `{name}`: {err}")
            }
            BuildFailure::TimedOut(limit) => format!(
                "bot `{name}` did not build: the build took longer than {} s \
                 (const evaluation that never ends?) and was stopped; \
                 {BUILD_TIMEOUT_ENV} sets the limit in seconds",
                limit.as_secs()
            ),
            BuildFailure::OverDisk(Some(bytes)) => {
                disk(&format!("; {} MiB seen", bytes.div_ceil(MIB)), "")
            }
            BuildFailure::OverDisk(None) => disk("", ""),
            BuildFailure::EngineTooLarge(bytes) => format!(
                "bot `{name}` did not build: its engine executable is {} MiB, over the {} MiB \
                 an engine may take; a large static or const array is the usual cause; \
                 nothing of this build was kept",
                bytes.div_ceil(MIB),
                MAX_ENGINE_BYTES / MIB
            ),
            BuildFailure::Failed { status, messages } => {
                // Cargo names the copy by its path inside the generated crate.
                let messages = messages.replace("src/bot.rs:", &format!("{}:", bot.path.display()));
                if hit_file_limit(*status, &messages) {
                    disk(
                        ", which bounds each file too",
                        &format!("\n{}", messages.trim_end()),
                    )
                } else if ran_out_of_memory(*status, &messages) {
                    format!(
                        "bot `{name}` did not build: the build ran out of its {} MiB memory limit \
                         (a huge constant or array?); {BUILD_MEMORY_ENV} sets the limit\n{}",
                        limits.memory_mb,
                        messages.trim_end()
                    )
                } else {
                    format!(
                        "bot `{name}` does not compile ({}):\n{}",
                        bot.path.display(),
                        messages.trim_end()
                    )
                }
            }
        }
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
    #[cfg(unix)]
    let aborted = {
        use std::os::unix::process::ExitStatusExt;
        status.signal() == Some(libc::SIGABRT)
    };
    #[cfg(not(unix))]
    let aborted = status.code().is_none();
    said || aborted
}

/// Whether a failed build met the file size limit: a process killed by `SIGXFSZ` (cargo
/// names the signal of a rustc it ran by number, gcc that of the linker in words), or a
/// write refused with `EFBIG`.
fn hit_file_limit(status: ExitStatus, messages: &str) -> bool {
    let lower = messages.to_lowercase();
    let said = ["sigxfsz", "file size limit exceeded", "(os error 27)"]
        .iter()
        .any(|words| lower.contains(words));
    #[cfg(unix)]
    let killed = {
        use std::os::unix::process::ExitStatusExt;
        let signal = libc::SIGXFSZ;
        status.signal() == Some(signal)
            || [format!("(signal: {signal})"), format!("(signal: {signal},")]
                .iter()
                .any(|words| messages.contains(words.as_str()))
    };
    #[cfg(not(unix))]
    let killed = {
        let _ = status;
        false
    };
    said || killed
}

/// The bounds of one `cargo build` step.
#[derive(Debug, Clone, Copy)]
struct Step<'a> {
    /// The time on the clock, past which the process group is killed.
    time: Duration,
    /// The largest file any process of the step may write (`RLIMIT_FSIZE`, bytes).
    file_limit: u64,
    /// The bot's build output, measured while the step runs.
    watch: Option<Watch<'a>>,
}

/// What one bot's build has on disk, and how much it may have.
#[derive(Debug, Clone, Copy)]
struct Watch<'a> {
    dir: &'a Path,
    crate_name: &'a str,
    /// Bytes.
    cap: u64,
}

impl Watch<'_> {
    /// Bytes the bot's build has on disk now (see [`crate_paths`]).
    fn footprint(&self) -> u64 {
        let mut usage = Usage::default();
        for path in crate_paths(self.dir, self.crate_name) {
            usage.add(&path);
        }
        usage.bytes
    }
}

/// The compiled framework a bot's crate is compiled against.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Framework {
    /// `libframework-*.rlib`.
    rlib: PathBuf,
    /// The directory of its dependencies (`-L dependency=`).
    deps: PathBuf,
}

/// The framework compiled earlier in this process for each build directory.
static FRAMEWORKS: Mutex<Vec<(PathBuf, Framework)>> = Mutex::new(Vec::new());

/// The framework this process compiled (or found fresh) in `dir`, if it is still there
/// (`challenge clean --all` removes it).
fn known_framework(dir: &Path) -> Option<Framework> {
    let known = FRAMEWORKS.lock().unwrap_or_else(|p| p.into_inner());
    known
        .iter()
        .find(|(at, _)| at == dir)
        .map(|(_, framework)| framework.clone())
        .filter(|framework| framework.rlib.is_file())
}

fn remember_framework(dir: &Path, framework: &Framework) {
    let mut known = FRAMEWORKS.lock().unwrap_or_else(|p| p.into_inner());
    known.retain(|(at, _)| at != dir);
    known.push((dir.to_path_buf(), framework.clone()));
}

/// The framework library named in cargo's JSON messages (`--message-format=json`), when
/// it lies in `dir`'s target directory.
fn framework_artifact(messages: &str, dir: &Path) -> Option<Framework> {
    let deps = dir.join("target").join("release").join("deps");
    messages.lines().find_map(|line| {
        let message: serde_json::Value = serde_json::from_str(line).ok()?;
        if message["reason"] != "compiler-artifact" || message["target"]["name"] != "framework" {
            return None;
        }
        // Cargo names the library's copy in `release/` (rewritten by every framework
        // build) and its metadata in `deps/`; the library beside that is the one to use.
        let rlib = message["filenames"]
            .as_array()?
            .iter()
            .filter_map(|name| name.as_str())
            .map(PathBuf::from)
            .find(|name| {
                name.starts_with(&deps)
                    && name
                        .extension()
                        .is_some_and(|e| e == "rmeta" || e == "rlib")
            })?
            .with_extension("rlib");
        rlib.is_file().then(|| Framework {
            rlib,
            deps: deps.clone(),
        })
    })
}

/// The compiler cargo uses: `$RUSTC`, else the `rustc` beside `$CARGO` (the toolchain
/// the kit was run by), else `rustc` on the path.
fn rustc_program() -> std::ffi::OsString {
    if let Some(rustc) = std::env::var_os("RUSTC") {
        return rustc;
    }
    std::env::var_os("CARGO")
        .map(|cargo| Path::new(&cargo).with_file_name("rustc"))
        .filter(|rustc| rustc.is_file())
        .map_or_else(|| "rustc".into(), PathBuf::into_os_string)
}

/// rustc on the bot's generated crate, against the compiled `framework`, with the flags
/// cargo passes for the crate's release profile (opt-level 3, 16 codegen units, stripped,
/// no LTO; incremental for a `Local` build only), so the engine is the one cargo would
/// make. Run by the kit rather than cargo so builds of different bots share nothing but
/// the compiled framework, which they only read: cargo's target directory allows one
/// cargo at a time. Output goes to the bot's own directory, `TMPDIR` to its scratch.
fn rustc_command(job: &Job, framework: &Framework) -> Command {
    let crate_dir = job.crate_dir();
    let name = job.crate_name.as_str();
    let mut command = Command::new(rustc_program());
    command
        .current_dir(&crate_dir)
        .args(["--crate-name", name, "--edition=2024", "src/main.rs"])
        .args(["--crate-type", "bin", "--emit=link"])
        .args(["-C", "opt-level=3", "-C", "embed-bitcode=no"])
        .args(["-C", "codegen-units=16", "-C", "strip=symbols"])
        .arg("-C")
        .arg(format!("metadata={}", short_hash(&[name.as_bytes()])))
        .arg("-o")
        .arg(job.engine_out())
        .arg("-L")
        .arg(format!("dependency={}", framework.deps.display()))
        .arg("--extern")
        .arg(format!("framework={}", framework.rlib.display()));
    if job.kind == BuildKind::Local {
        let incremental = job
            .dir
            .join("target")
            .join("release")
            .join("incremental")
            .join(format!("{name}-engine"));
        command
            .arg("-C")
            .arg(format!("incremental={}", incremental.display()));
    }
    // What cargo tells a crate about itself (`env!("CARGO_PKG_NAME")` and the like).
    for (var, value) in [
        ("CARGO_PKG_NAME", name),
        ("CARGO_CRATE_NAME", name),
        ("CARGO_BIN_NAME", name),
        ("CARGO_PKG_VERSION", "0.0.0"),
        ("CARGO_PKG_VERSION_MAJOR", "0"),
        ("CARGO_PKG_VERSION_MINOR", "0"),
        ("CARGO_PKG_VERSION_PATCH", "0"),
        ("CARGO_PKG_VERSION_PRE", ""),
        ("CARGO_PRIMARY_PACKAGE", "1"),
    ] {
        command.env(var, value);
    }
    command
        .env("CARGO_MANIFEST_DIR", &crate_dir)
        .env("TMPDIR", job.scratch())
        // A parent cargo's jobserver is not handed down: rustc runs its own.
        .env_remove("CARGO_MAKEFLAGS")
        .env_remove("MAKEFLAGS")
        .env_remove("MFLAGS")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    command
}

/// `cargo build` of the generated crate in `crate_dir`, with the kit's target directory,
/// `extra` arguments, the incremental setting of `kind` and `scratch` as its `TMPDIR`.
fn cargo_command(
    crate_dir: &Path,
    dir: &Path,
    extra: &[&str],
    kind: BuildKind,
    scratch: &Path,
) -> Command {
    let mut command = Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()));
    command
        .args(["build", "--release", "--quiet", "--manifest-path"])
        .arg(crate_dir.join("Cargo.toml"))
        .args(extra)
        .env("CARGO_TARGET_DIR", dir.join("target"))
        .env("TMPDIR", scratch)
        .env_remove("RUSTFLAGS")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    match kind {
        // The manifest's profile decides: incremental for the bot's crate only.
        BuildKind::Local => command.env_remove("CARGO_INCREMENTAL"),
        // Overrides the profile for every crate of the build. The framework is never
        // incremental, so its compiled state serves both kinds of build.
        BuildKind::Untrusted => command.env("CARGO_INCREMENTAL", "0"),
    };
    command
}

/// Runs one step (cargo, or rustc) under its bounds: address space (`memory_mb`) and
/// file size for the process and every process it starts, the clock, and the watched
/// disk footprint; past the clock or the footprint the whole process group is killed.
/// Returns what the step printed on stdout (bounded).
fn run_bounded(mut command: Command, step: &Step, memory_mb: u64) -> Result<String, BuildFailure> {
    bound(&mut command, memory_mb, step.file_limit);
    let mut child = command.spawn().map_err(BuildFailure::Spawn)?;
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
        Ended::TimedOut => Err(BuildFailure::TimedOut(step.time)),
        Ended::OverDisk(bytes) => Err(BuildFailure::OverDisk(Some(bytes))),
        Ended::Exited(status) if status.success() => Ok(said),
        Ended::Exited(status) => Err(BuildFailure::Failed { status, messages }),
    }
}

/// A process group of its own (so a timeout kills rustc with cargo), death with the
/// kit's process, an address-space limit, a file size limit and no core files.
#[cfg(unix)]
fn bound(command: &mut Command, memory_mb: u64, file_limit: u64) {
    use std::os::unix::process::CommandExt;
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
#[cfg(unix)]
fn kill_group(child: &mut Child) {
    // The group's id is the child's pid (`process_group(0)`).
    let group = i32::try_from(child.id()).unwrap_or(0);
    if group > 0 {
        // SAFETY: signals only the build's own process group.
        unsafe {
            libc::kill(-group, libc::SIGKILL);
        }
    }
}

#[cfg(not(unix))]
fn kill_group(child: &mut Child) {
    let _ = child.kill();
}

/// Elsewhere only the time limit and the watched footprint hold.
#[cfg(not(unix))]
fn bound(_command: &mut Command, _memory_mb: u64, _file_limit: u64) {}

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
    kill_group(child);
    let _ = child.wait();
    stop
}

/// Names the variable that sets how many engines the cache keeps (beyond those used in
/// the last day).
pub const KEEP_ENGINES_ENV: &str = "CHALLENGE_KEEP_ENGINES";
const DEFAULT_KEEP_ENGINES: u64 = 64;
/// Engines used this recently are never evicted, however many there are: a
/// tournament builds its whole field before the first game and must find it there.
const RECENT_USE: Duration = Duration::from_secs(24 * 60 * 60);
/// How many bots keep their generated crate and incremental build state (tens of MB
/// each) for a quick rebuild after an edit.
pub const KEPT_CRATES: usize = 8;
/// The file whose time says when a bot's crate was last built.
const BUILT_MARK: &str = ".built";

fn keep_engines() -> Result<usize> {
    Ok(usize::try_from(env_number(KEEP_ENGINES_ENV, DEFAULT_KEEP_ENGINES)?).unwrap_or(usize::MAX))
}

/// What [`clean`] or an eviction removed.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Freed {
    /// Engine executables removed.
    pub engines: usize,
    /// Bots whose generated crate and build state were removed.
    pub crates: usize,
    /// Bytes freed on disk (file sizes).
    pub bytes: u64,
}

/// Bounds the number of engines and bot builds after a build: removes the least recently
/// used engines beyond `keep` (never one used in the last day, nor the one just built)
/// and the build state of all but the [`KEPT_CRATES`] most recently built bots.
fn evict(dir: &Path, just_built: &Path, keep: usize) -> Result<Freed> {
    let mut freed = Freed::default();
    let now = SystemTime::now();
    for (index, (path, used)) in by_recent_use(&dir.join("bin"), use_stamp)?
        .into_iter()
        .enumerate()
    {
        let recent = now.duration_since(used).unwrap_or_default() < RECENT_USE;
        if index >= keep && !recent && path != just_built {
            freed.bytes += remove_counted(&path)? + remove_counted(&use_stamp(&path))?;
            freed.engines += 1;
        }
    }
    let crates = by_recent_use(&dir.join("crates"), |path| path.join(BUILT_MARK))?;
    for (path, _) in crates.into_iter().skip(KEPT_CRATES) {
        // A crate another build is compiling right now is not this build's to remove.
        if let Some(name) = path.file_name().and_then(|n| n.to_str())
            && !crate_busy(dir, name)
        {
            freed.bytes += remove_crate(dir, name)?;
            freed.crates += 1;
        }
    }
    Ok(freed)
}

/// Whether the build directory fits its bound after a build.
#[derive(Debug, PartialEq, Eq)]
enum Fit {
    /// It fits, after removing what was freed.
    Fits(Freed),
    /// It holds at least this many bytes even with everything evictable gone; nothing
    /// was removed.
    Overfull { least: u64 },
}

/// Something the size bound may remove.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Victim {
    /// A bot's generated crate and build state, by crate name.
    Crate(String),
    /// An engine executable (with its use stamp).
    Engine(PathBuf),
}

/// Brings the build directory under `bound` bytes, counting every file in it once (the
/// framework, engines, bot builds, anything else), by removing what
/// [`eviction_order`] gives, first things first, until it fits. Never the engine just
/// built nor the bot's own crate; when even removing everything else would not do,
/// removes nothing and says so.
fn fit_dir(dir: &Path, just_built: &Path, crate_name: &str, bound: u64) -> Result<Fit> {
    let mut total = Usage::of(dir);
    if total <= bound {
        return Ok(Fit::Fits(Freed::default()));
    }
    let crates = by_recent_use(&dir.join("crates"), |path| path.join(BUILT_MARK))?
        .into_iter()
        .filter(|(path, _)| !path.ends_with(crate_name))
        .filter(|(path, _)| {
            let name = path
                .file_name()
                .and_then(|n| n.to_str())
                .unwrap_or_default();
            !crate_busy(dir, name)
        })
        .collect();
    let engines = by_recent_use(&dir.join("bin"), use_stamp)?
        .into_iter()
        .filter(|(path, _)| path != just_built)
        .collect();
    let victims: Vec<(Victim, u64)> = eviction_order(crates, engines, SystemTime::now())
        .into_iter()
        .map(|victim| {
            let bytes = Usage::of_all(&victim_paths(dir, &victim));
            (victim, bytes)
        })
        .collect();
    let evictable: u64 = victims.iter().map(|(_, bytes)| bytes).sum();
    if total.saturating_sub(evictable) > bound {
        return Ok(Fit::Overfull {
            least: total - evictable,
        });
    }
    let mut freed = Freed::default();
    for (victim, bytes) in victims {
        if total <= bound {
            break;
        }
        for path in victim_paths(dir, &victim) {
            remove_counted(&path)?;
        }
        match victim {
            Victim::Crate(_) => freed.crates += 1,
            Victim::Engine(_) => freed.engines += 1,
        }
        freed.bytes += bytes;
        total = total.saturating_sub(bytes);
    }
    Ok(Fit::Fits(freed))
}

/// The order in which the size bound removes things, from lists of bot crates and
/// engines each most recently used first: bot builds first (they only make the next
/// edit quicker), least recently built first; then engines not used in the last day,
/// least recently used first; and only then engines in use (a tournament's field), as
/// a disk that is full helps no tournament.
fn eviction_order(
    crates: Vec<(PathBuf, SystemTime)>,
    engines: Vec<(PathBuf, SystemTime)>,
    now: SystemTime,
) -> Vec<Victim> {
    let recent = |used: &SystemTime| now.duration_since(*used).unwrap_or_default() < RECENT_USE;
    let (in_use, idle): (Vec<_>, Vec<_>) = engines.into_iter().partition(|(_, used)| recent(used));
    let crates = crates.into_iter().rev().filter_map(|(path, _)| {
        let name = path.file_name()?.to_str()?;
        Some(Victim::Crate(name.to_string()))
    });
    let engines = idle
        .into_iter()
        .rev()
        .chain(in_use.into_iter().rev())
        .map(|(path, _)| Victim::Engine(path));
    crates.chain(engines).collect()
}

/// The files and folders that make up a victim.
fn victim_paths(dir: &Path, victim: &Victim) -> Vec<PathBuf> {
    match victim {
        Victim::Crate(name) => crate_paths(dir, name),
        Victim::Engine(path) => vec![path.clone(), use_stamp(path)],
    }
}

/// The entries of `dir`, most recently used first: by the modification time of the
/// entry's `stamp` file, or of the entry itself when it has none.
fn by_recent_use(
    dir: &Path,
    stamp: impl Fn(&Path) -> PathBuf,
) -> Result<Vec<(PathBuf, SystemTime)>> {
    let mut entries = Vec::new();
    let Ok(listing) = fs::read_dir(dir) else {
        return Ok(entries);
    };
    let modified = |path: &Path| fs::symlink_metadata(path).and_then(|meta| meta.modified());
    for entry in listing {
        let path = entry?.path();
        let used = modified(&stamp(&path))
            .or_else(|_| modified(&path))
            .unwrap_or(SystemTime::UNIX_EPOCH);
        entries.push((path, used));
    }
    entries.sort_by_key(|entry| std::cmp::Reverse(entry.1));
    Ok(entries)
}

/// The temporary directory a bot's build is given (see `Job::scratch`).
fn scratch_dir(dir: &Path, crate_name: &str) -> PathBuf {
    dir.join("tmp").join(crate_name)
}

/// Everything one bot's build has in the build directory: its generated crate, its
/// scratch directory, and what cargo keeps for it in the shared target directory (the
/// executable and its dep-info, and in `deps/`, `.fingerprint/` and `incremental/`
/// every entry named after the crate: objects, the linked engine, the incremental
/// state). Crate names end in a hash and these entries add `-` and cargo's own hash, so
/// one bot's prefix never matches another's entries.
fn crate_paths(dir: &Path, crate_name: &str) -> Vec<PathBuf> {
    let release = dir.join("target").join("release");
    let mut paths = vec![
        dir.join("crates").join(crate_name),
        scratch_dir(dir, crate_name),
        release.join(crate_name),
        release.join(format!("{crate_name}.d")),
    ];
    let prefix = format!("{crate_name}-");
    for sub in ["deps", ".fingerprint", "incremental"] {
        let Ok(listing) = fs::read_dir(release.join(sub)) else {
            continue;
        };
        paths.extend(listing.flatten().map(|entry| entry.path()).filter(|path| {
            path.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with(&prefix))
        }));
    }
    paths
}

/// Removes a bot's generated crate and everything cargo keeps for it in the shared
/// target directory; returns the bytes freed.
fn remove_crate(dir: &Path, crate_name: &str) -> Result<u64> {
    let mut bytes = 0;
    for path in crate_paths(dir, crate_name) {
        bytes += remove_counted(&path)?;
    }
    Ok(bytes)
}

/// Bytes on disk under some paths, each file counted once however many hard links it
/// has (cargo links the executable in `target/release` to its copy in `deps`).
#[derive(Debug, Default)]
struct Usage {
    bytes: u64,
    /// (device, inode) of files with more than one link, already counted.
    linked: std::collections::HashSet<(u64, u64)>,
}

impl Usage {
    fn of(path: &Path) -> u64 {
        Usage::of_all(&[path.to_path_buf()])
    }

    fn of_all(paths: &[PathBuf]) -> u64 {
        let mut usage = Usage::default();
        for path in paths {
            usage.add(path);
        }
        usage.bytes
    }

    /// Adds a file, or every file under a directory (links not followed).
    fn add(&mut self, path: &Path) {
        let Ok(meta) = fs::symlink_metadata(path) else {
            return;
        };
        if meta.is_dir() {
            for entry in fs::read_dir(path).into_iter().flatten().flatten() {
                self.add(&entry.path());
            }
        } else if self.first_sight(&meta) {
            self.bytes += meta.len();
        }
    }

    #[cfg(unix)]
    fn first_sight(&mut self, meta: &fs::Metadata) -> bool {
        use std::os::unix::fs::MetadataExt;
        meta.nlink() < 2 || self.linked.insert((meta.dev(), meta.ino()))
    }

    #[cfg(not(unix))]
    fn first_sight(&mut self, _meta: &fs::Metadata) -> bool {
        true
    }
}

/// Removes a file or a directory tree (nothing if it does not exist); returns its size.
fn remove_counted(path: &Path) -> Result<u64> {
    let Ok(meta) = fs::symlink_metadata(path) else {
        return Ok(0);
    };
    let bytes = disk_size(path);
    if meta.is_dir() {
        fs::remove_dir_all(path)
    } else {
        fs::remove_file(path)
    }
    .with_context(|| format!("cannot remove {}", path.display()))?;
    Ok(bytes)
}

/// The size of a file, or of every file under a directory (links not followed).
fn disk_size(path: &Path) -> u64 {
    let Ok(meta) = fs::symlink_metadata(path) else {
        return 0;
    };
    if !meta.is_dir() {
        return meta.len();
    }
    fs::read_dir(path)
        .into_iter()
        .flatten()
        .flatten()
        .map(|entry| disk_size(&entry.path()))
        .sum()
}

/// Empties the bot cache in `dir` (normally [`build_dir`]): every engine executable,
/// every bot's generated crate and its build state. With `everything`, the compiled
/// framework goes too (the next build compiles it again, about a minute on 2 cores).
/// Waits for a build in progress to finish first.
///
/// ```no_run
/// let freed = kit::engine_build::clean(&kit::engine_build::build_dir(), false).unwrap();
/// println!("{} engines removed, {} bytes freed", freed.engines, freed.bytes);
/// ```
pub fn clean(dir: &Path, everything: bool) -> Result<Freed> {
    let mut freed = Freed::default();
    if !dir.is_dir() {
        return Ok(freed);
    }
    // Alone: every build holds this lock shared, so none is under way while it empties.
    let wait = BuildLimits::from_env()?.lock_wait();
    let _lock = lock_file(&dir.join(".lock"), wait, Share::Alone)?;
    for (path, _) in by_recent_use(&dir.join("bin"), use_stamp)? {
        freed.bytes += remove_counted(&path)?;
        freed.engines += 1;
    }
    freed.bytes += remove_counted(&dir.join("used"))?;
    for (path, _) in by_recent_use(&dir.join("crates"), Path::to_path_buf)? {
        if let Some(name) = path.file_name().and_then(|n| n.to_str()) {
            freed.bytes += remove_crate(dir, name)?;
            freed.crates += 1;
        }
    }
    freed.bytes += remove_orphans(&dir.join("target").join("release"))?;
    // Scratch directories of builds that were killed before they could tidy up.
    freed.bytes += remove_counted(&dir.join("tmp"))?;
    if everything {
        freed.bytes += remove_counted(&dir.join("target"))?;
    }
    Ok(freed)
}

/// Removes what cargo kept for bot crates whose generated crate is already gone (left
/// by earlier versions of the kit, which named a crate after each version of a bot).
fn remove_orphans(release: &Path) -> Result<u64> {
    let mut bytes = 0;
    for sub in [".", "deps", ".fingerprint", "incremental"] {
        let Ok(listing) = fs::read_dir(release.join(sub)) else {
            continue;
        };
        for entry in listing {
            let path = entry?.path();
            if path
                .file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with("bot_"))
            {
                bytes += remove_counted(&path)?;
            }
        }
    }
    Ok(bytes)
}

/// A crate-name-safe form of a bot name (names may be paths).
fn sanitize(name: &str) -> String {
    let stem = Path::new(name)
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let cleaned: String = stem
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '_'
            }
        })
        .take(40)
        .collect();
    if cleaned.is_empty() {
        "bot".into()
    } else {
        cleaned
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bot(name: &str) -> BotFile {
        BotFile {
            name: name.into(),
            path: PathBuf::from(format!("/tmp/{name}.rs")),
        }
    }

    #[test]
    fn cache_key_depends_on_source_and_name() {
        let a = cache_key(&bot("a"), b"fn x() {}");
        assert_eq!(a, cache_key(&bot("a"), b"fn x() {}"));
        assert_ne!(a, cache_key(&bot("a"), b"fn y() {}"));
        assert_ne!(a, cache_key(&bot("b"), b"fn x() {}"));
        assert_eq!(a.len(), 16);
    }

    /// The string literal passed to `framework::uci::run` in a generated `main.rs`.
    fn announced_name(main: &str) -> String {
        let file = syn::parse_file(main).expect("the generated main.rs parses");
        let items: Vec<_> = file.items.iter().collect();
        assert_eq!(items.len(), 3, "allocator, bot module, main only:\n{main}");
        let syn::Item::Fn(main_fn) = items[2] else {
            panic!("main comes last:\n{main}")
        };
        assert_eq!(main_fn.block.stmts.len(), 1, "{main}");
        let syn::Stmt::Expr(syn::Expr::Call(call), _) = &main_fn.block.stmts[0] else {
            panic!("main only calls the host:\n{main}")
        };
        let [
            syn::Expr::Lit(syn::ExprLit {
                lit: syn::Lit::Str(name),
                ..
            }),
        ] = call.args.iter().collect::<Vec<_>>()[..]
        else {
            panic!("the host gets one string literal:\n{main}")
        };
        name.value()
    }

    #[test]
    fn hostile_names_and_paths_stay_data_in_the_generated_main() {
        for hostile in [
            "plain",
            "quo\"te",
            "new\nline",
            "carriage\rreturn",
            "*/ fn evil() {} /*",
            "\"); std::process::exit(0); (\"",
            "back\\slash\\",
            "ünïcødé ♞ \u{202e}rtl",
            "#![no_main]",
            "\0nul",
        ] {
            let bot = BotFile {
                name: hostile.to_string(),
                path: PathBuf::from(format!("/tmp/{hostile}/bot.rs")),
            };
            let main = main_rs(&bot);
            assert_eq!(announced_name(&main), hostile, "{main}");
            assert!(!main.contains('\r'), "no bare CR in comments: {main:?}");
            assert!(main.contains("#[global_allocator]"), "{main}");
            assert!(main.contains("#[allow(warnings)]\nmod bot;"), "{main}");
        }
    }

    #[test]
    fn the_manifest_escapes_values_as_toml() {
        let text = manifest("bot_x_0123");
        let parsed: toml::Table = text.parse().expect("valid TOML");
        assert_eq!(parsed["package"]["name"].as_str(), Some("bot_x_0123"));
        assert_eq!(
            parsed["dependencies"]["framework"]["path"].as_str(),
            Some(Path::new(KIT_ROOT).join("framework").to_str().unwrap())
        );
        assert!(parsed["workspace"].as_table().is_some_and(|t| t.is_empty()));
        let release = &parsed["profile"]["release"];
        assert_eq!(release["opt-level"].as_integer(), Some(3));
        assert_eq!(release["incremental"].as_bool(), Some(false));
        let bot = &release["package"]["bot_x_0123"];
        assert_eq!(bot["incremental"].as_bool(), Some(true));
        assert_eq!(bot["codegen-units"].as_integer(), Some(16));
    }

    #[test]
    fn build_limits_from_the_environment_name_bad_values() {
        assert_eq!(parse_limit(BUILD_TIMEOUT_ENV, None, 120).unwrap(), 120);
        assert_eq!(parse_limit(BUILD_TIMEOUT_ENV, Some(" 5 "), 120).unwrap(), 5);
        for bad in ["", "abc", "0", "-3", "1.5", "99999999999999999999"] {
            let err = parse_limit(BUILD_TIMEOUT_ENV, Some(bad), 120).unwrap_err();
            assert!(
                err.to_string().starts_with("CHALLENGE_BUILD_TIMEOUT="),
                "{err}"
            );
        }
    }

    #[test]
    fn disk_bounds_from_the_environment_have_defaults_and_name_bad_values() {
        let vars = |pairs: &'static [(&'static str, &'static str)]| {
            move |name: &str| {
                pairs
                    .iter()
                    .find(|(key, _)| *key == name)
                    .map(|(_, value)| value.to_string())
            }
        };
        let limits = BuildLimits::from_vars(vars(&[])).unwrap();
        assert_eq!(limits.disk_bytes(), DEFAULT_BUILD_DISK_MB * MIB);
        assert_eq!(limits.dir_bytes(), DEFAULT_BUILD_DIR_MB * MIB);
        let limits = BuildLimits::from_vars(vars(&[
            (BUILD_DISK_ENV, "16"),
            (BUILD_DIR_LIMIT_ENV, "100"),
        ]))
        .unwrap();
        assert_eq!(
            (limits.disk_bytes(), limits.dir_bytes()),
            (16 * MIB, 100 * MIB)
        );
        for (name, bad) in [
            (BUILD_DISK_ENV, "0"),
            (BUILD_DISK_ENV, "256M"),
            (BUILD_DIR_LIMIT_ENV, "-1"),
            (BUILD_DIR_LIMIT_ENV, "2000000000000"),
        ] {
            let table = [(name, bad)];
            let err = BuildLimits::from_vars(|key| {
                table
                    .iter()
                    .find(|(k, _)| *k == key)
                    .map(|(_, v)| v.to_string())
            })
            .unwrap_err();
            assert_eq!(
                err.to_string(),
                format!("{name}=`{bad}` is not a whole number from 1 to 2^40")
            );
        }
    }

    fn env_of(command: &Command, name: &str) -> Option<Option<String>> {
        command
            .get_envs()
            .find(|(key, _)| *key == name)
            .map(|(_, value)| value.map(|v| v.to_string_lossy().into_owned()))
    }

    #[test]
    fn untrusted_builds_keep_no_incremental_state_and_local_ones_follow_the_manifest() {
        let (crate_dir, dir, scratch) = (Path::new("/c"), Path::new("/d"), Path::new("/d/tmp/x"));
        let untrusted = cargo_command(crate_dir, dir, &[], BuildKind::Untrusted, scratch);
        assert_eq!(
            env_of(&untrusted, "CARGO_INCREMENTAL"),
            Some(Some("0".into()))
        );
        let local = cargo_command(crate_dir, dir, &[], BuildKind::Local, scratch);
        // Removed: a user's own CARGO_INCREMENTAL would override the manifest's profile.
        assert_eq!(env_of(&local, "CARGO_INCREMENTAL"), Some(None));
        for command in [&untrusted, &local] {
            assert_eq!(env_of(command, "TMPDIR"), Some(Some("/d/tmp/x".into())));
            assert_eq!(
                env_of(command, "CARGO_TARGET_DIR"),
                Some(Some("/d/target".into()))
            );
        }
    }

    #[test]
    fn a_bots_footprint_is_its_own_files_each_counted_once() {
        let dir = fake_build_dir("footprint", &[], &["bot_b_1", "bot_b_10"]);
        let release = dir.join("target").join("release");
        // Cargo hard-links the engine in `release/` to its copy in `deps/`.
        fs::remove_file(release.join("bot_b_1")).unwrap();
        fs::hard_link(
            release.join("deps").join("bot_b_1-abcd"),
            release.join("bot_b_1"),
        )
        .unwrap();
        let scratch = scratch_dir(&dir, "bot_b_1");
        fs::create_dir_all(&scratch).unwrap();
        fs::write(scratch.join("ccXYZ.o"), [0u8; 7]).unwrap();
        let watch = |crate_name| Watch {
            dir: &dir,
            crate_name,
            cap: 0,
        };
        // bot.rs 10, deps 30 (linked as release/bot_b_1), incremental 40, scratch 7.
        assert_eq!(watch("bot_b_1").footprint(), 10 + 30 + 40 + 7);
        assert_eq!(watch("bot_b_10").footprint(), 10 + 20 + 30 + 40);
        assert_eq!(watch("bot_never_built").footprint(), 0);
        assert_eq!(remove_crate(&dir, "bot_b_1").unwrap(), 10 + 2 * 30 + 40 + 7);
        assert!(!scratch.exists());
        assert_eq!(
            watch("bot_b_10").footprint(),
            100,
            "the other bot keeps its files"
        );
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn the_size_bound_takes_bot_builds_then_idle_engines_then_engines_in_use() {
        let now = SystemTime::now();
        let ago = |hours: u64| now - Duration::from_secs(hours * 3600);
        let crates = vec![
            (PathBuf::from("/d/crates/bot_new"), ago(1)),
            (PathBuf::from("/d/crates/bot_old"), ago(50)),
        ];
        let engines = vec![
            (PathBuf::from("/d/bin/playing"), ago(0)),
            (PathBuf::from("/d/bin/this_morning"), ago(5)),
            (PathBuf::from("/d/bin/last_week"), ago(24 * 7)),
            (PathBuf::from("/d/bin/last_month"), ago(24 * 30)),
        ];
        let engine = |name: &str| Victim::Engine(PathBuf::from("/d/bin").join(name));
        assert_eq!(
            eviction_order(crates, engines, now),
            [
                Victim::Crate("bot_old".into()),
                Victim::Crate("bot_new".into()),
                engine("last_month"),
                engine("last_week"),
                engine("this_morning"),
                engine("playing"),
            ]
        );
    }

    #[test]
    fn the_build_directory_is_brought_under_its_bound_or_the_build_is_refused() {
        let engines = [("built", 0), ("today", 0), ("old", 3)];
        let dir = fake_build_dir("fit", &engines, &["bot_a_1", "bot_b_2", "bot_c_3"]);
        let just_built = dir.join("bin").join("built");
        // The framework 1000, three engines of 100, three bot builds of 100.
        let total = Usage::of(&dir);
        assert_eq!(total, 1000 + 3 * 100 + 3 * 100);
        assert_eq!(
            fit_dir(&dir, &just_built, "bot_a_1", total).unwrap(),
            Fit::Fits(Freed::default())
        );
        // Fitting 1 byte less takes the least recently built other bot (bot_c_3).
        let freed = Freed {
            engines: 0,
            crates: 1,
            bytes: 100,
        };
        let fit = fit_dir(&dir, &just_built, "bot_a_1", total - 1).unwrap();
        assert_eq!(fit, Fit::Fits(freed));
        assert_eq!(names(&dir.join("crates")), ["bot_a_1", "bot_b_2"]);
        // Then the other bot build and the idle engine before the one used today.
        let fit = fit_dir(&dir, &just_built, "bot_a_1", 1000 + 2 * 100 + 100).unwrap();
        let freed = Freed {
            engines: 1,
            crates: 1,
            bytes: 200,
        };
        assert_eq!(fit, Fit::Fits(freed));
        assert_eq!(names(&dir.join("bin")), ["built", "today"]);
        // Never the new engine, its bot's build or the framework: past that, refused,
        // and nothing else is removed for a build that cannot stay anyway.
        let least = 1000 + 100 + 100;
        let fit = fit_dir(&dir, &just_built, "bot_a_1", least - 1).unwrap();
        assert_eq!(fit, Fit::Overfull { least });
        assert_eq!(names(&dir.join("bin")), ["built", "today"]);
        assert_eq!(Usage::of(&dir), least + 100);
        fs::remove_dir_all(&dir).unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn disk_failures_name_the_cause_and_the_limit() {
        use std::os::unix::process::ExitStatusExt;
        let limits = BuildLimits::from_vars(|_| None).unwrap();
        let bot = bot("big");
        let exit_101 = ExitStatus::from_raw(101 << 8);
        let rustc_killed = BuildFailure::Failed {
            status: exit_101,
            messages: "error: could not compile `bot_big` (bin \"bot_big\")\nCaused by:\n  \
                       process didn't exit successfully: `rustc ...` (signal: 25, SIGXFSZ: \
                       file size limit exceeded)"
                .into(),
        };
        let rustc_killed_by_number = BuildFailure::Failed {
            status: exit_101,
            messages: "process didn't exit successfully: `rustc --crate-name bot_big` \
                       (signal: 25)"
                .into(),
        };
        let linker_killed = BuildFailure::Failed {
            status: exit_101,
            messages: "collect2: fatal error: ld terminated with signal 25 [File size limit \
                       exceeded]"
                .into(),
        };
        for failure in [
            BuildFailure::OverDisk(Some(300 * MIB)),
            BuildFailure::OverDisk(None),
            rustc_killed,
            rustc_killed_by_number,
            linker_killed,
        ] {
            assert!(failure.met_a_bound(), "{failure:?}");
            let text = failure.explain(&bot, &limits);
            assert!(
                text.starts_with("bot `big` did not build: the build wrote more than 256 MiB"),
                "{text}"
            );
            assert!(text.contains("(limit CHALLENGE_BUILD_DISK_MB"), "{text}");
            assert!(
                text.contains(
                    "); a large static or const array is the usual cause; \
                     nothing of this build was kept"
                ),
                "{text}"
            );
        }
        let text = BuildFailure::EngineTooLarge(100 * MIB).explain(&bot, &limits);
        assert!(
            text.contains("its engine executable is 100 MiB, over the 64 MiB an engine may take"),
            "{text}"
        );
        let compile_error = BuildFailure::Failed {
            status: exit_101,
            messages: "error[E0308]: mismatched types".into(),
        };
        assert!(
            !compile_error.met_a_bound(),
            "its state serves the next edit"
        );
        assert!(BuildFailure::TimedOut(Duration::from_secs(1)).met_a_bound());
        assert!(
            compile_error
                .explain(&bot, &limits)
                .starts_with("bot `big` does not compile")
        );
    }

    /// A fresh directory laid out as a build directory: engines in `bin/` used
    /// `days_ago`, bot crates with their cargo state, and the compiled framework.
    fn fake_build_dir(test: &str, engines: &[(&str, u64)], crates: &[&str]) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("kit-{test}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        let release = dir.join("target").join("release");
        for sub in ["deps", ".fingerprint", "incremental"] {
            fs::create_dir_all(release.join(sub)).unwrap();
        }
        fs::create_dir_all(dir.join("bin")).unwrap();
        fs::write(
            release.join("deps").join("libframework-0123.rlib"),
            [0u8; 1000],
        )
        .unwrap();
        for (name, days_ago) in engines {
            let path = dir.join("bin").join(name);
            fs::write(&path, [0u8; 100]).unwrap();
            let used = SystemTime::now() - Duration::from_secs(days_ago * 86_400 + 60);
            File::options()
                .append(true)
                .open(&path)
                .unwrap()
                .set_modified(used)
                .unwrap();
        }
        for (age, name) in crates.iter().enumerate() {
            let crate_dir = dir.join("crates").join(name);
            fs::create_dir_all(crate_dir.join("src")).unwrap();
            fs::write(crate_dir.join("src").join("bot.rs"), [0u8; 10]).unwrap();
            let mark = crate_dir.join(BUILT_MARK);
            fs::write(&mark, b"").unwrap();
            let built = SystemTime::now() - Duration::from_secs(60 * (age as u64 + 1));
            File::options()
                .append(true)
                .open(&mark)
                .unwrap()
                .set_modified(built)
                .unwrap();
            fs::write(release.join(name), [0u8; 20]).unwrap();
            fs::write(release.join("deps").join(format!("{name}-abcd")), [0u8; 30]).unwrap();
            fs::create_dir_all(release.join("incremental").join(format!("{name}-x1"))).unwrap();
            let session = release
                .join("incremental")
                .join(format!("{name}-x1"))
                .join("s");
            fs::write(session, [0u8; 40]).unwrap();
        }
        dir
    }

    fn names(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = fs::read_dir(dir)
            .into_iter()
            .flatten()
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn eviction_keeps_recent_engines_and_the_newest_bot_crates() {
        let crates: Vec<String> = (0..KEPT_CRATES + 2).map(|i| format!("bot_b_{i}")).collect();
        // `bot_b_1` is a prefix of `bot_b_10`: its eviction must not take the other's files.
        let crate_refs: Vec<&str> = crates.iter().map(String::as_str).collect();
        let dir = fake_build_dir(
            "evict",
            &[
                ("new", 0),
                ("today", 0),
                ("old1", 3),
                ("old2", 5),
                ("old3", 9),
                ("built", 30),
                ("reused", 40),
            ],
            &crate_refs,
        );
        // Built long ago, but used from the cache just now: its stamp says so.
        mark_used(&dir.join("bin").join("reused"));
        let just_built = dir.join("bin").join("built");
        fs::write(dir.join("crates").join("bot_b_0").join(BUILT_MARK), b"").unwrap();
        let freed = evict(&dir, &just_built, 2).unwrap();
        // Kept: the two most recent, everything used today, and the one just built.
        assert_eq!(names(&dir.join("bin")), ["built", "new", "reused", "today"]);
        assert_eq!(freed.engines, 3);
        assert_eq!(names(&dir.join("used")), ["reused"]);
        // Of the crates, the newest KEPT_CRATES stay (bot_b_0 was just marked as built).
        let kept: Vec<String> = crates[..KEPT_CRATES].to_vec();
        let mut kept_sorted = kept.clone();
        kept_sorted.sort();
        assert_eq!(names(&dir.join("crates")), kept_sorted);
        assert_eq!(freed.crates, 2);
        let release = dir.join("target").join("release");
        for gone in &crates[KEPT_CRATES..] {
            assert!(!release.join(gone).exists(), "{gone}");
            assert!(!release.join("deps").join(format!("{gone}-abcd")).exists());
            assert!(
                !release
                    .join("incremental")
                    .join(format!("{gone}-x1"))
                    .exists()
            );
        }
        for stays in &kept {
            assert!(
                release.join("deps").join(format!("{stays}-abcd")).exists(),
                "{stays}"
            );
        }
        assert!(release.join("deps").join("libframework-0123.rlib").exists());
        assert_eq!(freed.bytes, 3 * 100 + 2 * (10 + 20 + 30 + 40));
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn clean_empties_the_cache_and_counts_what_it_freed() {
        let dir = fake_build_dir("clean", &[("a", 0), ("b", 2)], &["bot_a_1", "bot_c_2"]);
        // An older kit left a crate's build state without its crate directory.
        let orphan = dir
            .join("target")
            .join("release")
            .join("deps")
            .join("bot_old_99-ff");
        fs::write(&orphan, [0u8; 5]).unwrap();
        mark_used(&dir.join("bin").join("a"));
        let freed = clean(&dir, false).unwrap();
        assert!(!dir.join("used").exists());
        assert_eq!(
            freed,
            Freed {
                engines: 2,
                crates: 2,
                bytes: 2 * 100 + 2 * (10 + 20 + 30 + 40) + 5,
            }
        );
        assert!(names(&dir.join("bin")).is_empty());
        assert!(names(&dir.join("crates")).is_empty());
        assert!(!orphan.exists());
        let framework = dir
            .join("target")
            .join("release")
            .join("deps")
            .join("libframework-0123.rlib");
        assert!(framework.exists(), "the framework stays for the next build");
        assert_eq!(clean(&dir, false).unwrap(), Freed::default());
        let freed = clean(&dir, true).unwrap();
        assert_eq!(freed.bytes, 1000);
        assert!(!dir.join("target").exists());
        fs::remove_dir_all(&dir).unwrap();
        assert_eq!(
            clean(&dir, true).unwrap(),
            Freed::default(),
            "no directory, nothing to do"
        );
    }

    #[test]
    fn a_bot_keeps_its_crate_across_edits_and_bots_elsewhere_get_their_own() {
        let a = bot("a");
        let elsewhere = BotFile {
            name: "a".into(),
            path: PathBuf::from("/elsewhere/a.rs"),
        };
        assert_eq!(crate_name(&a), crate_name(&a.clone()));
        assert_ne!(crate_name(&a), crate_name(&elsewhere));
        assert!(crate_name(&a).starts_with("bot_a_"));
        assert_ne!(
            cache_key(&a, b"fn x() {}"),
            cache_key(&elsewhere, b"fn x() {}")
        );
    }

    #[test]
    fn the_variants_of_a_bot_share_a_crate_of_their_own() {
        let root = std::env::temp_dir().join(format!("kit-crate-name-{}", std::process::id()));
        let crate_name = |bot: &BotFile| crate_name_in(bot, &root);
        let base = Path::new("/nowhere/shared_crate_test.rs");
        let source = "const D: i32 = 3; // vary 1..=4\n";
        let variant = |spec| {
            let made =
                crate::variants::write(&root, "shared_crate_test", base, source, spec).unwrap();
            BotFile {
                name: made.name,
                path: made.path,
            }
        };
        let (one, two) = (variant("D=1"), variant("D=2"));
        assert_eq!(crate_name(&one), crate_name(&two));
        assert!(crate_name(&one).starts_with("bot_shared_crate_test_"));
        let plain = BotFile {
            name: "shared_crate_test".into(),
            path: base.into(),
        };
        assert_ne!(
            crate_name(&one),
            crate_name(&plain),
            "the bot keeps its own"
        );
        // Not a variant: a file of the same name beside the variants' folder.
        let beside = BotFile {
            name: one.name.clone(),
            path: root.join("shared_crate_test@D=1.rs"),
        };
        assert_ne!(crate_name(&one), crate_name(&beside));
        assert_ne!(cache_key(&one, b"x"), cache_key(&two, b"x"));
        fs::remove_dir_all(&root).unwrap();
    }

    #[test]
    fn unchanged_crate_files_are_not_rewritten() {
        let dir = std::env::temp_dir().join(format!("kit-write-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        let a = bot("a");
        write_crate(&dir, "bot_a_x", &a, b"fn one() {}").unwrap();
        let main = dir.join("src").join("main.rs");
        let old = SystemTime::now() - Duration::from_secs(3600);
        File::options()
            .append(true)
            .open(&main)
            .unwrap()
            .set_modified(old)
            .unwrap();
        write_crate(&dir, "bot_a_x", &a, b"fn two() {}").unwrap();
        assert_eq!(fs::metadata(&main).unwrap().modified().unwrap(), old);
        assert_eq!(
            fs::read(dir.join("src").join("bot.rs")).unwrap(),
            b"fn two() {}"
        );
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn sanitized_names_are_crate_names() {
        assert_eq!(sanitize("my_bot"), "my_bot");
        assert_eq!(sanitize("../elsewhere/Fancy-Bot.rs"), "fancy_bot");
        assert_eq!(sanitize(""), "bot");
    }
}

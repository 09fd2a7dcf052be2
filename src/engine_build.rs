//! Turning a bot file into a UCI engine executable.
//!
//! Mechanism: a generated standalone crate per bot (its own `[workspace]`, so it
//! never attaches to a parent), all sharing one cargo target directory. That
//! gives cargo's own incremental machinery for free: the framework is compiled
//! once in release mode and every later bot only compiles its one file and
//! links. The bot file is copied into the crate as a module (`src/bot.rs`),
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
//! ([`BUILD_TIMEOUT_ENV`], 120 s) and memory ([`BUILD_MEMORY_ENV`], 4 GiB of
//! address space for cargo and rustc), and killed as a process group past
//! either, so a bot's build never holds the build lock for longer. The kit's
//! framework is compiled first in a step of its own (trusted code, with a
//! longer bound), so the bot's limit is spent on the bot alone.
//!
//! Finished executables are cached by a hash of the bot's source, its name,
//! the kit's version and a fingerprint of the framework's sources, so a second
//! use of an unchanged bot starts at once, and any change rebuilds.

use std::fs::{self, File};
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use quote::quote;
use sha2::{Digest, Sha256};

use crate::bots::{BotFile, KIT_ROOT};

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
}

/// The cache key of a bot: everything its engine executable depends on.
pub fn cache_key(bot: &BotFile, source: &[u8]) -> String {
    let mut hasher = Sha256::new();
    for part in [
        source,
        bot.name.as_bytes(),
        KIT_VERSION.as_bytes(),
        FRAMEWORK_FINGERPRINT.as_bytes(),
        manifest("").as_bytes(),
        main_rs(bot).as_bytes(),
    ] {
        hasher.update((part.len() as u64).to_le_bytes());
        hasher.update(part);
    }
    hasher.finalize()[..8]
        .iter()
        .map(|byte| format!("{byte:02x}"))
        .collect()
}

/// Builds (or finds in the cache) the engine executable for `bot`.
/// Cargo's progress and any compile errors go to stderr.
pub fn build(bot: &BotFile) -> Result<Engine> {
    let limits = BuildLimits::from_env()?;
    let source =
        fs::read(&bot.path).with_context(|| format!("cannot read {}", bot.path.display()))?;
    let key = cache_key(bot, &source);
    let crate_name = format!("bot_{}_{key}", sanitize(&bot.name));
    let dir = build_dir();
    let executable = dir.join("bin").join(&crate_name);
    if executable.is_file() {
        return Ok(Engine {
            path: executable,
            cached: true,
        });
    }

    fs::create_dir_all(dir.join("bin"))
        .with_context(|| format!("cannot create {}", dir.display()))?;
    // One build at a time: parallel matches would otherwise race on the
    // shared target directory's final copy step. Every holder is bounded by
    // the limits, so the wait is too.
    let _lock = lock_builds(&dir, &limits)?;
    if executable.is_file() {
        return Ok(Engine {
            path: executable,
            cached: true,
        });
    }

    let crate_dir = dir.join("crates").join(&crate_name);
    write_crate(&crate_dir, &crate_name, bot, &source)?;
    eprintln!("building bot `{}` ...", bot.name);
    let compiled = compile_framework(&crate_dir, &dir, &limits)
        .and_then(|()| compile(&crate_dir, &dir, &[], limits.time, &limits));
    if let Err(failure) = compiled {
        let _ = fs::remove_dir_all(&crate_dir);
        bail!("{}", failure.explain(bot, &limits));
    }
    let built = dir.join("target").join("release").join(&crate_name);
    // Copy to a temporary name first so a half-written file is never taken
    // for a cached engine.
    let partial = executable.with_extension("partial");
    fs::copy(&built, &partial)
        .with_context(|| format!("cannot copy the engine from {}", built.display()))?;
    fs::rename(&partial, &executable)?;
    let _ = fs::remove_dir_all(&crate_dir);
    Ok(Engine {
        path: executable,
        cached: false,
    })
}

fn write_crate(crate_dir: &Path, crate_name: &str, bot: &BotFile, source: &[u8]) -> Result<()> {
    fs::create_dir_all(crate_dir.join("src"))?;
    fs::write(crate_dir.join("Cargo.toml"), manifest(crate_name))?;
    // The kit's lock file pins the framework's dependencies to the versions the
    // kit was tested with, and lets cargo resolve without the network.
    let kit_lock = Path::new(KIT_ROOT).join("Cargo.lock");
    if kit_lock.is_file() {
        fs::copy(kit_lock, crate_dir.join("Cargo.lock"))?;
    }
    fs::write(crate_dir.join("src").join("main.rs"), main_rs(bot))?;
    fs::write(crate_dir.join("src").join("bot.rs"), source)?;
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
        (
            "profile",
            table(vec![(
                "release",
                table(vec![
                    ("opt-level", toml::Value::Integer(3)),
                    ("debug", toml::Value::Boolean(false)),
                    ("incremental", toml::Value::Boolean(false)),
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

/// Names the variable that sets how many seconds one bot's build may take.
pub const BUILD_TIMEOUT_ENV: &str = "CHALLENGE_BUILD_TIMEOUT";
/// Names the variable that sets the address space (MiB) cargo and rustc get per build.
pub const BUILD_MEMORY_ENV: &str = "CHALLENGE_BUILD_MEMORY_MB";

const DEFAULT_BUILD_SECONDS: u64 = 120;
const DEFAULT_BUILD_MEMORY_MB: u64 = 4096;
/// The kit's own framework (trusted code, compiled once per kit version)
/// may take this long: a cold build on a slow machine takes minutes.
const FRAMEWORK_BUILD_LIMIT: Duration = Duration::from_secs(15 * 60);
/// Compiler messages kept for the error report; a bot whose build prints
/// more gets the beginning.
const MAX_MESSAGE_BYTES: usize = 256 * 1024;

/// The bounds of one build.
#[derive(Debug, Clone, Copy)]
struct BuildLimits {
    time: Duration,
    memory_mb: u64,
}

impl BuildLimits {
    fn from_env() -> Result<BuildLimits> {
        Ok(BuildLimits {
            time: Duration::from_secs(env_number(BUILD_TIMEOUT_ENV, DEFAULT_BUILD_SECONDS)?),
            memory_mb: env_number(BUILD_MEMORY_ENV, DEFAULT_BUILD_MEMORY_MB)?,
        })
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

/// Takes the build lock, waiting at most [`BuildLimits::lock_wait`].
fn lock_builds(dir: &Path, limits: &BuildLimits) -> Result<File> {
    let path = dir.join(".lock");
    let lock = File::create(&path).with_context(|| format!("cannot create {}", path.display()))?;
    let deadline = Instant::now() + limits.lock_wait();
    loop {
        match lock.try_lock() {
            Ok(()) => return Ok(lock),
            Err(std::fs::TryLockError::WouldBlock) if Instant::now() < deadline => {
                std::thread::sleep(Duration::from_millis(100));
            }
            Err(std::fs::TryLockError::WouldBlock) => bail!(
                "another build held {} for more than {} s; is a `challenge` process stuck?",
                path.display(),
                limits.lock_wait().as_secs()
            ),
            Err(std::fs::TryLockError::Error(err)) => {
                return Err(err).with_context(|| format!("cannot lock {}", path.display()));
            }
        }
    }
}

/// Compiles the framework the generated crate depends on (a no-op when it
/// is already built), so the bot's own time limit is spent on the bot.
fn compile_framework(
    crate_dir: &Path,
    dir: &Path,
    limits: &BuildLimits,
) -> Result<(), BuildFailure> {
    compile(
        crate_dir,
        dir,
        &["-p", "framework"],
        FRAMEWORK_BUILD_LIMIT,
        limits,
    )
}

/// Why a build did not produce an engine.
#[derive(Debug)]
enum BuildFailure {
    /// Cargo could not be run at all.
    Spawn(std::io::Error),
    /// Still compiling when the time limit came; the build was killed.
    TimedOut(Duration),
    /// The compiler failed; `messages` is what it said (bounded).
    Failed {
        status: ExitStatus,
        messages: String,
    },
}

impl BuildFailure {
    fn explain(&self, bot: &BotFile, limits: &BuildLimits) -> String {
        let name = &bot.name;
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
            BuildFailure::Failed { status, messages } => {
                // Cargo names the copy by its path inside the generated crate.
                let messages = messages.replace("src/bot.rs:", &format!("{}:", bot.path.display()));
                if ran_out_of_memory(*status, &messages) {
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

/// Runs `cargo build` for the generated crate with the limits applied:
/// address space for cargo and every rustc it starts, and `time` on the
/// clock, past which the whole process group is killed.
fn compile(
    crate_dir: &Path,
    dir: &Path,
    extra: &[&str],
    time: Duration,
    limits: &BuildLimits,
) -> Result<(), BuildFailure> {
    let mut command = Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()));
    command
        .args(["build", "--release", "--quiet", "--manifest-path"])
        .arg(crate_dir.join("Cargo.toml"))
        .args(extra)
        .env("CARGO_TARGET_DIR", dir.join("target"))
        .env_remove("RUSTFLAGS")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    bound(&mut command, limits.memory_mb);
    let mut child = command.spawn().map_err(BuildFailure::Spawn)?;
    let messages = read_bounded(child.stderr.take());
    let status = wait_or_kill(&mut child, time);
    let messages = messages
        .join()
        .map(|bytes| String::from_utf8_lossy(&bytes).into_owned())
        .unwrap_or_default();
    match status {
        None => Err(BuildFailure::TimedOut(time)),
        Some(status) if status.success() => Ok(()),
        Some(status) => Err(BuildFailure::Failed { status, messages }),
    }
}

/// A process group of its own (so a timeout kills rustc with cargo), an
/// address-space limit and no core files.
#[cfg(unix)]
fn bound(command: &mut Command, memory_mb: u64) {
    use std::os::unix::process::CommandExt;
    command.process_group(0);
    let bytes = memory_mb.saturating_mul(1024 * 1024);
    // SAFETY: setrlimit is async-signal-safe and touches only this child.
    unsafe {
        command.pre_exec(move || {
            for (resource, value) in [(libc::RLIMIT_AS, bytes), (libc::RLIMIT_CORE, 0)] {
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

/// Elsewhere only the time limit holds.
#[cfg(not(unix))]
fn bound(_command: &mut Command, _memory_mb: u64) {}

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

/// The exit status, or `None` after killing the child's process group when
/// `time` ran out first.
fn wait_or_kill(child: &mut Child, time: Duration) -> Option<ExitStatus> {
    let deadline = Instant::now() + time;
    loop {
        match child.try_wait() {
            Ok(Some(status)) => return Some(status),
            Ok(None) if Instant::now() < deadline => std::thread::sleep(Duration::from_millis(50)),
            _ => break,
        }
    }
    kill_group(child);
    let _ = child.wait();
    None
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
        assert_eq!(
            parsed["profile"]["release"]["opt-level"].as_integer(),
            Some(3)
        );
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
    fn sanitized_names_are_crate_names() {
        assert_eq!(sanitize("my_bot"), "my_bot");
        assert_eq!(sanitize("../elsewhere/Fancy-Bot.rs"), "fancy_bot");
        assert_eq!(sanitize(""), "bot");
    }
}

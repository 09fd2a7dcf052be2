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
//!
//! Finished executables are cached by a hash of the bot's source, its name,
//! the kit's version and a fingerprint of the framework's sources, so a second
//! use of an unchanged bot starts at once, and any change rebuilds.

use std::fs::{self, File};
use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{Context, Result, bail};
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
    // shared target directory's final copy step.
    let lock = File::create(dir.join(".lock"))?;
    lock.lock()
        .with_context(|| format!("cannot lock {}", dir.display()))?;
    if executable.is_file() {
        return Ok(Engine {
            path: executable,
            cached: true,
        });
    }

    let crate_dir = dir.join("crates").join(&crate_name);
    write_crate(&crate_dir, &crate_name, bot, &source)?;
    eprintln!("building bot `{}` ...", bot.name);
    let output = Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()))
        .args(["build", "--release", "--quiet", "--manifest-path"])
        .arg(crate_dir.join("Cargo.toml"))
        .env("CARGO_TARGET_DIR", dir.join("target"))
        .env_remove("RUSTFLAGS")
        .output()
        .context("cannot run cargo to build the bot")?;
    if !output.status.success() {
        // Cargo names the copy by its path inside the generated crate.
        let messages = String::from_utf8_lossy(&output.stderr)
            .replace("src/bot.rs:", &format!("{}:", bot.path.display()));
        let _ = fs::remove_dir_all(&crate_dir);
        bail!(
            "bot `{}` does not compile ({}):\n{}",
            bot.name,
            bot.path.display(),
            messages.trim_end()
        );
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

fn manifest(crate_name: &str) -> String {
    let framework = Path::new(KIT_ROOT).join("framework");
    format!(
        r#"[package]
name = "{crate_name}"
version = "0.0.0"
edition = "2024"
publish = false

[dependencies]
framework = {{ path = {framework:?} }}

# Its own workspace: never attached to the kit's or any parent's.
[workspace]

[profile.release]
opt-level = 3
debug = false
incremental = false
"#,
        framework = framework.display().to_string()
    )
}

fn main_rs(bot: &BotFile) -> String {
    format!(
        "// Generated by `challenge build` for {path}\n\
         #[global_allocator]\n\
         static ALLOCATOR: framework::uci::LimitedAllocator = framework::uci::LimitedAllocator;\n\
         // A bot's unused helpers are its author's business: no warnings.\n\
         #[allow(warnings)]\n\
         mod bot;\n\
         fn main() {{\n    framework::uci::run::<bot::MyBot>({name:?});\n}}\n",
        path = bot.path.display(),
        name = bot.name,
    )
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

    #[test]
    fn sanitized_names_are_crate_names() {
        assert_eq!(sanitize("my_bot"), "my_bot");
        assert_eq!(sanitize("../elsewhere/Fancy-Bot.rs"), "fancy_bot");
        assert_eq!(sanitize(""), "bot");
    }
}

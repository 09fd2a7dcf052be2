//! Finding bot files and checking them against the challenge rules before they run.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};

/// The kit's own checkout, where `bot/` and `framework/` live.
pub const KIT_ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// A bot file and the name it goes by.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BotFile {
    /// `my_bot` for `bot/my_bot.rs`; the path as given for files elsewhere.
    pub name: String,
    /// The file itself.
    pub path: PathBuf,
}

/// The folder of the kit's own bots.
pub fn bot_dir() -> PathBuf {
    Path::new(KIT_ROOT).join("bot")
}

/// Resolves `spec` as a bot name in `bot/` (`evil_bot`) or a path to a `.rs` file.
pub fn resolve(spec: &str) -> Result<BotFile> {
    let as_path = Path::new(spec);
    if as_path.is_file() {
        let path = as_path
            .canonicalize()
            .with_context(|| format!("cannot open bot file {spec}"))?;
        let in_bot_dir = bot_dir()
            .canonicalize()
            .is_ok_and(|dir| path.parent() == Some(dir.as_path()));
        let name = match path.file_stem() {
            Some(stem) if in_bot_dir => stem.to_string_lossy().into_owned(),
            _ => spec.to_string(),
        };
        return Ok(BotFile { name, path });
    }
    let stem = spec.strip_suffix(".rs").unwrap_or(spec);
    let candidate = bot_dir().join(format!("{stem}.rs"));
    if !stem.contains(['/', '\\']) && candidate.is_file() {
        return Ok(BotFile {
            name: stem.to_string(),
            path: candidate,
        });
    }
    bail!(
        "no bot `{spec}`: it is not a file, and {} does not exist (bots in bot/: {})",
        candidate.display(),
        available().join(", ")
    )
}

/// The names of the bots in `bot/`, sorted.
pub fn available() -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(bot_dir())
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|entry| {
            let path = entry.path();
            (path.extension()? == "rs").then(|| path.file_stem()?.to_str().map(str::to_string))?
        })
        .collect();
    names.sort();
    names
}

/// What the kit does with a bot file over the token limit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LimitPolicy {
    /// Refuse it (the default: the limit is the challenge).
    Enforce,
    /// Run it anyway, to experiment; rule violations are still refused.
    AllowOverLimit,
}

/// Counts and checks a bot file; refuses it when it breaks a rule, or when
/// it is over the limit and the policy enforces the limit.
pub fn check(bot: &BotFile, policy: LimitPolicy) -> Result<()> {
    let report = token_counter::analyze_file(&bot.path)
        .with_context(|| format!("cannot check bot `{}`", bot.name))?;
    let display = bot.path.display().to_string();
    if !report.violations.is_empty() {
        bail!(
            "bot `{}` breaks the challenge rules:\n{}",
            bot.name,
            report.render(&display)
        );
    }
    if !report.within_limit() && policy == LimitPolicy::Enforce {
        bail!(
            "bot `{}` is over the token limit:\n{}\n(pass --allow-over-limit to run it anyway while experimenting)",
            bot.name,
            report.render(&display)
        );
    }
    Ok(())
}

/// Resolves, checks and builds a bot, returning its engine executable.
pub fn prepare(spec: &str, policy: LimitPolicy) -> Result<crate::engine_build::Engine> {
    let bot = resolve(spec)?;
    check(&bot, policy)?;
    crate::engine_build::build(&bot)
}

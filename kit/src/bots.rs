//! Finding bot files and checking them against the challenge rules before they run.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};

/// The kit's own checkout, where `bot/` and `framework/` live (the workspace root, one
/// level above this crate; `build.rs` resolves it).
pub const KIT_ROOT: &str = env!("CHALLENGE_KIT_ROOT");

/// A bot file and the name it goes by.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BotFile {
    /// The file's name without `.rs`: `my_bot` for `bot/my_bot.rs` and for
    /// `/tmp/x/my_bot.rs` alike (the engine's `id name` unless the bot sets
    /// its own, and the player's name in matches).
    pub name: String,
    /// The file itself.
    pub path: PathBuf,
}

/// The folder of the kit's own bots, bundled with it.
pub fn bot_dir() -> PathBuf {
    Path::new(KIT_ROOT).join("bot")
}

/// The folder of the kit's lab bots: experiments that may exceed the token limit
/// (see [`LimitPolicy`]).
pub fn lab_dir() -> PathBuf {
    bot_dir().join("lab")
}

/// The folder of the user's own bots: `bot/` in the current directory, where a bare
/// name is looked up first.
pub fn local_bot_dir() -> PathBuf {
    PathBuf::from("bot")
}

/// Where the files the kit makes go (variants, a tuning's state): `target/` in the
/// current directory, beside the user's `bot/`, never in the kit's own checkout (unless
/// that is where the command runs).
pub fn work_target_dir() -> PathBuf {
    let here = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("."));
    here.join("target")
}

/// Resolves `spec`: a path to a file (`../bots/new.rs`, `bot/my_bot.rs`), from the
/// current directory; else a bot by name (`my_bot`, `my_bot.rs`), from the current
/// directory's `bot/` first, then from the kit's bundled bots; else a path from the kit's
/// root (`bot/evil_bot.rs`, and `bot/lab/tt_lab.rs` for a lab bot). [`BotFile::origin`]
/// says which file that was.
///
/// `BOT@NAME=VALUE[,NAME=VALUE...]` (when no file has that name) is a variant of the bot
/// `BOT`: its file with those marked constants set (see [`crate::variants`]), written under
/// [`variants_dir`] and named `BOT@` and the settings in the file's order.
///
/// ```
/// let bot = kit::bots::resolve("evil_bot").unwrap();
/// assert_eq!(bot.name, "evil_bot");
/// assert_eq!(kit::bots::resolve("bot/evil_bot.rs").unwrap(), bot);
/// assert!(kit::bots::resolve("no_such_bot").is_err());
/// let err = kit::bots::resolve("turochamp_faithful@DEPTH=9").unwrap_err();
/// assert!(format!("{err:#}").contains("`DEPTH=9` is outside its mark `vary 1..=4`"));
/// assert_eq!(kit::bots::resolve("bot/lab/tt_lab.rs").unwrap().name, "tt_lab");
/// ```
pub fn resolve(spec: &str) -> Result<BotFile> {
    let plain = resolve_file(spec);
    match spec.rsplit_once('@') {
        Some((base, settings)) if plain.is_err() => resolve_variant(spec, base, settings),
        _ => plain,
    }
}

/// Names the variable that moves [`variants_dir`].
pub const VARIANTS_DIR_ENV: &str = "CHALLENGE_VARIANTS_DIR";

/// Where variants' files are written: `target/variants` in the current directory
/// ([`work_target_dir`]), or `$CHALLENGE_VARIANTS_DIR`. Never `bot/`: a variant is made,
/// not written by hand.
pub fn variants_dir() -> PathBuf {
    std::env::var_os(VARIANTS_DIR_ENV)
        .filter(|dir| !dir.is_empty())
        .map(PathBuf::from)
        .unwrap_or_else(|| work_target_dir().join("variants"))
}

/// The variant `spec` names: `settings` (the text after its `@`) applied to the bot `base`.
fn resolve_variant(spec: &str, base: &str, settings: &str) -> Result<BotFile> {
    let bot = resolve_file(base).with_context(|| {
        format!("no bot `{spec}`: it is not a file, nor a variant of a bot (BOT@NAME=VALUE)")
    })?;
    let source = token_counter::read_source(&bot.path)?;
    let made = crate::variants::write(&variants_dir(), &bot.name, &bot.path, &source, settings)
        .with_context(|| format!("cannot make the variant `{spec}` of {}", bot.path.display()))?;
    Ok(BotFile {
        name: made.name,
        path: made.path,
    })
}

/// [`resolve`] for a bot file itself (no variant).
fn resolve_file(spec: &str) -> Result<BotFile> {
    let as_path = Path::new(spec);
    if as_path.is_file() {
        return from_path(as_path, spec);
    }
    let stem = spec.strip_suffix(".rs").unwrap_or(spec);
    let bare = !stem.is_empty() && !stem.contains(['/', '\\']);
    let found = if bare {
        [local_bot_dir(), bot_dir()]
            .into_iter()
            .map(|dir| dir.join(format!("{stem}.rs")))
            .find(|candidate| candidate.is_file())
    } else {
        // A path from the kit's root, to one of its bundled or lab bots.
        let from_kit_root = Path::new(KIT_ROOT).join(spec);
        (as_path.is_relative()
            && from_kit_root
                .parent()
                .is_some_and(|dir| dir == bot_dir() || dir == lab_dir())
            && from_kit_root.is_file())
        .then_some(from_kit_root)
    };
    match found {
        Some(file) => from_path(&file, spec),
        None => bail!("{}", not_found(spec, stem, bare)),
    }
}

/// Why `spec` names no bot: the places looked in, and the bots there are.
fn not_found(spec: &str, stem: &str, bare: bool) -> String {
    let here = local_bot_dir();
    let full = |dir: &Path| std::path::absolute(dir).unwrap_or_else(|_| dir.to_path_buf());
    let looked = if bare {
        format!(
            "it is not a file, nor {} here ({}), nor one of the kit's bots in {}",
            here.join(format!("{stem}.rs")).display(),
            full(&here).display(),
            bot_dir().display()
        )
    } else {
        "it is not a file".to_string()
    };
    format!(
        "no bot `{spec}`: {looked} (bots by name: {})",
        available().join(", ")
    )
}

/// The bot file at `file` (which exists), named by its stem.
fn from_path(file: &Path, spec: &str) -> Result<BotFile> {
    let path = file
        .canonicalize()
        .with_context(|| format!("cannot open bot file {spec}"))?;
    let name = path
        .file_stem()
        .map(|stem| stem.to_string_lossy().into_owned())
        .filter(|stem| !stem.is_empty())
        .unwrap_or_else(|| "bot".to_string());
    Ok(BotFile { name, path })
}

impl BotFile {
    /// Which file the bot is, as a command's header says it: `/home/me/work/bot/my_bot.rs`;
    /// a bot bundled with the kit is marked so unless the command runs in the kit's own
    /// checkout ([`is_bundled`]), and a variant names the file it was made from.
    ///
    /// ```
    /// let bot = kit::bots::resolve("evil_bot").unwrap();
    /// assert!(bot.origin().starts_with(&bot.path.display().to_string()));
    /// ```
    pub fn origin(&self) -> String {
        let base = crate::variants::base_of(&self.path, &variants_dir());
        let file = base.as_deref().unwrap_or(&self.path);
        let mut said = match &base {
            Some(base) => format!(
                "a variant of {} (its file: {})",
                base.display(),
                self.path.display()
            ),
            None => self.path.display().to_string(),
        };
        if is_bundled(file) {
            said.push_str(", bundled with the kit");
        }
        said
    }
}

/// Whether `file` is one of the kit's own bots while the user works elsewhere: it lies in
/// the kit's `bot/` (or `bot/lab/`), and the current directory's `bot/` is not that
/// folder (it is another one, or there is none).
pub fn is_bundled(file: &Path) -> bool {
    let canonical = |dir: PathBuf| dir.canonicalize().ok();
    let kit = canonical(bot_dir());
    let in_kit = file
        .parent()
        .and_then(|dir| canonical(dir.to_path_buf()))
        .is_some_and(|dir| Some(&dir) == kit.as_ref() || Some(dir) == canonical(lab_dir()));
    in_kit && canonical(local_bot_dir()) != kit
}

/// The files `challenge tokens` counts: each given path that names a file
/// as it is; a bot name (or a path from the kit's root) resolved as
/// [`resolve`] does, so the command takes the same names as `match` from any
/// directory; anything else as given, for the counter to report. A variant
/// (`BOT@NAME=VALUE`) is made and its file counted; one that cannot be made is
/// an error saying why.
pub fn count_paths(specs: &[PathBuf]) -> Result<Vec<PathBuf>> {
    specs
        .iter()
        .map(|spec| {
            if spec.is_file() {
                return Ok(spec.clone());
            }
            let Some(text) = spec.to_str() else {
                return Ok(spec.clone());
            };
            match resolve(text) {
                Ok(bot) => Ok(bot.path),
                Err(err) if text.contains('@') => Err(err),
                Err(_) => Ok(spec.clone()),
            }
        })
        .collect()
}

/// The names of the bots a bare name finds: the current directory's `bot/` and the kit's
/// bundled ones, sorted, each once.
pub fn available() -> Vec<String> {
    let mut names: Vec<String> = [local_bot_dir(), bot_dir()]
        .iter()
        .filter_map(|dir| std::fs::read_dir(dir).ok())
        .flatten()
        .flatten()
        .filter_map(|entry| {
            let path = entry.path();
            (path.extension()? == "rs").then(|| path.file_stem()?.to_str().map(str::to_string))?
        })
        .collect();
    names.sort();
    names.dedup();
    names
}

/// What the kit does with a bot file over the token limit in its local commands
/// (`build`, `match`, `bench`, `play`, `uci`). A submission is judged by
/// `challenge submit`'s own check, which always enforces the limit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LimitPolicy {
    /// Refuse it (the default: the limit is the challenge), unless it is one of the
    /// kit's lab bots (a file directly in [`lab_dir`]): instruments for experiments,
    /// such as the transposition-table lab, that say in their header that they are
    /// over the limit and are no entries.
    Enforce,
    /// Run it anyway, to experiment; rule violations are still refused.
    AllowOverLimit,
}

/// Whether `bot` is one of the kit's lab bots: its file (symbolic links resolved, as
/// [`resolve`] does) lies directly in [`lab_dir`], or it is a variant of such a file.
///
/// ```
/// use kit::bots::{is_lab_bot, resolve};
/// assert!(is_lab_bot(&resolve("bot/lab/tt_lab.rs").unwrap()));
/// assert!(!is_lab_bot(&resolve("evil_bot").unwrap()));
/// ```
pub fn is_lab_bot(bot: &BotFile) -> bool {
    let Ok(lab) = lab_dir().canonicalize() else {
        return false;
    };
    let in_lab = |path: &Path| {
        path.canonicalize()
            .is_ok_and(|path| path.parent() == Some(lab.as_path()))
    };
    in_lab(&bot.path)
        || crate::variants::base_of(&bot.path, &variants_dir()).is_some_and(|base| in_lab(&base))
}

/// Counts and checks a bot file; refuses it when it breaks a rule, or when
/// it is over the limit and the policy enforces the limit (lab bots excepted).
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
    if !report.within_limit() && policy == LimitPolicy::Enforce && !is_lab_bot(bot) {
        bail!(
            "bot `{}` is over the token limit:\n{}\n(pass --allow-over-limit to run it anyway while experimenting)",
            bot.name,
            report.render(&display)
        );
    }
    Ok(())
}

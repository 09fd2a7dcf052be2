//! The cache of built engines and its bounds: a cached engine and its use, eviction by
//! count and age after each build, the directory's size bound, and `clean`.

use std::fs::{self, File};
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use anyhow::{Context, Result};

use super::layout::{Share, crate_busy, crate_paths, lock_file, use_stamp};
use super::limits::{BadSetting, BuildLimits, env_number};
use super::platform;
use super::{BuiltEngine, EngineLimits};

/// The cached engine at `executable` (built with `limits`, which its cache key holds),
/// marked as just used (for eviction), if any.
pub(super) fn cached(executable: &Path, limits: EngineLimits) -> Option<BuiltEngine> {
    if !executable.is_file() {
        return None;
    }
    mark_used(executable);
    Some(BuiltEngine {
        path: executable.to_path_buf(),
        limits,
        cached: true,
        compiled: None,
    })
}

/// Records that `executable` was used now. Best effort: a cache on a read-only disk
/// still works, only less fairly evicted.
pub(super) fn mark_used(executable: &Path) {
    let stamp = use_stamp(executable);
    if let Some(dir) = stamp.parent() {
        let _ = fs::create_dir_all(dir);
    }
    if let Ok(file) = File::create(&stamp) {
        let _ = file.set_modified(SystemTime::now());
    }
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
pub(super) const BUILT_MARK: &str = ".built";

/// How many engines the cache keeps ([`KEEP_ENGINES_ENV`]).
pub(super) fn keep_engines() -> Result<usize, BadSetting> {
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
pub(super) fn evict(dir: &Path, just_built: &Path, keep: usize) -> Result<Freed> {
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
pub(super) enum Fit {
    /// It fits, after removing what was freed.
    Fits(Freed),
    /// It holds at least this many bytes even with everything evictable gone; nothing
    /// was removed.
    Overfull {
        /// Bytes.
        least: u64,
    },
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
pub(super) fn fit_dir(dir: &Path, just_built: &Path, crate_name: &str, bound: u64) -> Result<Fit> {
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

/// Removes a bot's generated crate and everything cargo keeps for it in the shared
/// target directory; returns the bytes freed.
pub(super) fn remove_crate(dir: &Path, crate_name: &str) -> Result<u64> {
    let mut bytes = 0;
    for path in crate_paths(dir, crate_name) {
        bytes += remove_counted(&path)?;
    }
    Ok(bytes)
}

/// Bytes on disk under some paths, each file counted once however many hard links it
/// has (cargo links the executable in `target/release` to its copy in `deps`).
#[derive(Debug, Default)]
pub(super) struct Usage {
    /// Counted so far.
    pub(super) bytes: u64,
    /// (device, inode) of files with more than one link, already counted.
    linked: std::collections::HashSet<(u64, u64)>,
}

impl Usage {
    /// Bytes under `path`.
    pub(super) fn of(path: &Path) -> u64 {
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
    pub(super) fn add(&mut self, path: &Path) {
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

    fn first_sight(&mut self, meta: &fs::Metadata) -> bool {
        platform::linked_file(meta).is_none_or(|file| self.linked.insert(file))
    }
}

/// Removes a file or a directory tree (nothing if it does not exist); returns its size.
pub(super) fn remove_counted(path: &Path) -> Result<u64> {
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

/// Empties the bot cache in `dir` (normally [`build_dir`](crate::build_dir)): every engine executable,
/// every bot's generated crate and its build state. With `everything`, the compiled
/// framework goes too (the next build compiles it again, about a minute on 2 cores).
/// Waits for a build in progress to finish first.
///
/// ```no_run
/// let freed = bot_build::clean(&bot_build::build_dir(), false).unwrap();
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

#[cfg(test)]
mod tests;

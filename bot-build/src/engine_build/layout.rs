//! Where things are in the build directory, and its locks: the names of engines, bot
//! crates and their build state, scratch folders and lock files.

use std::fs::{self, File};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use sha2::{Digest, Sha256};

use super::error::{BuildErrorKind, io};

/// 16 hex digits of SHA-256 over the parts, each prefixed by its length.
pub(super) fn short_hash(parts: &[&[u8]]) -> String {
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

/// How a lock file is held.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Share {
    /// Beside other shared holders (builds hold the directory's lock so).
    Shared,
    /// By one holder only.
    Alone,
}

/// Takes the lock file at `path` (made if missing), waiting at most `wait`: every holder
/// is bounded by the build limits, so the wait is too.
pub(super) fn lock_file(path: &Path, wait: Duration, share: Share) -> Result<File, BuildErrorKind> {
    if let Some(parent) = path.parent() {
        fs::create_dir_all(parent).map_err(io("create", parent))?;
    }
    let lock = File::create(path).map_err(io("create", path))?;
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
            Err(std::fs::TryLockError::WouldBlock) => {
                return Err(BuildErrorKind::LockHeld {
                    path: path.to_path_buf(),
                    waited: wait,
                });
            }
            Err(std::fs::TryLockError::Error(err)) => return Err(io("lock", path)(err)),
        }
    }
}

/// The lock file of one part of the build directory: `locks/NAME/.lock`.
pub(super) fn named_lock(dir: &Path, name: &str) -> PathBuf {
    dir.join("locks").join(name).join(".lock")
}

/// The lock a bot's build holds on its crate; named by a hash of the crate's name, so no
/// file outside the bot's own build is named after the bot.
pub(super) fn crate_lock(dir: &Path, crate_name: &str) -> PathBuf {
    named_lock(
        dir,
        &format!("crate-{}", short_hash(&[crate_name.as_bytes()])),
    )
}

/// Whether a build of the crate is under way (in this process or another): its lock is
/// held. A crate without a lock file has never been built by this kit version.
pub(super) fn crate_busy(dir: &Path, crate_name: &str) -> bool {
    let Ok(lock) = File::open(crate_lock(dir, crate_name)) else {
        return false;
    };
    matches!(lock.try_lock(), Err(std::fs::TryLockError::WouldBlock))
}

/// Where rustc writes a bot's engine and its intermediate files: a directory of the
/// bot's own (named like cargo's entries for the crate, so [`crate_paths`] counts and
/// removes it), which no other build writes to.
pub(super) fn bot_out_dir(dir: &Path, crate_name: &str) -> PathBuf {
    dir.join("target")
        .join("release")
        .join("deps")
        .join(format!("{crate_name}-engine"))
}

/// The file whose modification time says when an engine was last used: beside the
/// engines, in `used/`, so the engine itself is never touched after its build.
pub(super) fn use_stamp(executable: &Path) -> PathBuf {
    let bin = executable.parent().unwrap_or(Path::new("."));
    let name = executable.file_name().unwrap_or_default();
    bin.parent().unwrap_or(bin).join("used").join(name)
}

/// The temporary directory of a bot's build (`TMPDIR` for cargo, rustc and the
/// linker): inside the build directory, so what they write there is measured and
/// removed with the rest.
pub(super) fn scratch_dir(dir: &Path, crate_name: &str) -> PathBuf {
    dir.join("tmp").join(crate_name)
}

/// Everything one bot's build has in the build directory: its generated crate, its
/// scratch directory, and what cargo keeps for it in the shared target directory (the
/// executable and its dep-info, and in `deps/`, `.fingerprint/` and `incremental/`
/// every entry named after the crate: objects, the linked engine, the incremental
/// state). Crate names end in a hash and these entries add `-` and cargo's own hash, so
/// one bot's prefix never matches another's entries.
pub(super) fn crate_paths(dir: &Path, crate_name: &str) -> Vec<PathBuf> {
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

/// A crate-name-safe form of a bot name (names may be paths).
pub(super) fn sanitize(name: &str) -> String {
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

    #[test]
    fn sanitized_names_are_crate_names() {
        assert_eq!(sanitize("my_bot"), "my_bot");
        assert_eq!(sanitize("../elsewhere/Fancy-Bot.rs"), "fancy_bot");
        assert_eq!(sanitize(""), "bot");
    }
}

//! Stored sources as files to build: a version's identity (its content hash) and the
//! file it is written to under the challenge's work directory, `sources/<hash>.rs`.

use std::fs;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use bot_build::BotFile;
use sha2::{Digest, Sha256};

/// The first 16 hex digits of a source's SHA-256: a version's identity, and the name its
/// file is written under.
pub(crate) fn content_hash(source: &str) -> String {
    Sha256::digest(source.as_bytes())[..8]
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// The bot a stored source is built as, named after its entry: its file is
/// `<dir>/sources/<hash>.rs`, whether or not it is written (the path names the bot's
/// crate and cache key, so a submission's engine is the one its tournament finds cached).
pub(crate) fn stored_bot(dir: &Path, name: &str, source: &str) -> BotFile {
    BotFile {
        name: name.to_string(),
        path: sources_dir(dir).join(format!("{}.rs", content_hash(source))),
    }
}

fn sources_dir(dir: &Path) -> PathBuf {
    dir.join("sources")
}

/// Writes a stored source to `<dir>/sources/<hash>.rs` (unless it is already there) and
/// returns the bot file to build, named after the entry: how a tournament and a worker
/// turn a source from the store into a file to build.
pub(crate) fn materialize(dir: &Path, name: &str, source: &str) -> Result<BotFile> {
    let folder = sources_dir(dir);
    fs::create_dir_all(&folder).with_context(|| format!("cannot create {}", folder.display()))?;
    let bot = stored_bot(dir, name, source);
    let path = &bot.path;
    let fresh = fs::read_to_string(path).is_ok_and(|text| text == source);
    if !fresh {
        let partial = path.with_extension("partial");
        fs::write(&partial, source)
            .with_context(|| format!("cannot write {}", partial.display()))?;
        fs::rename(&partial, path).with_context(|| format!("cannot write {}", path.display()))?;
    }
    Ok(bot)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_source_is_written_once_under_its_hash_and_named_after_its_entry() {
        let dir = std::env::temp_dir().join(format!("league-sources-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        assert_eq!(content_hash("fn main() {}"), "ef32637cb9c3ec2e");
        let bot = materialize(&dir, "mine", "fn main() {}").unwrap();
        assert_eq!(bot, stored_bot(&dir, "mine", "fn main() {}"));
        assert_eq!(bot.path, dir.join("sources").join("ef32637cb9c3ec2e.rs"));
        assert_eq!(fs::read_to_string(&bot.path).unwrap(), "fn main() {}");
        fs::remove_dir_all(&dir).unwrap();
    }
}

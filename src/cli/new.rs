//! `challenge new DIR`: a bot folder anywhere, laid out as the kit's own `bot/`: the
//! starter bot `DIR/bot/my_bot.rs`, and around the folder the crate `bots` that editors
//! and clippy read (`DIR/bot/Cargo.toml`, which depends on this kit's framework by its
//! path, its lock file and `crate/`, whose build script makes every bot file a module).

use std::io::{ErrorKind, Write};
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

/// Make a bot folder anywhere: DIR/bot/my_bot.rs and the crate an editor needs to check it.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The folder to make, or to complete: what its `bot/` already has is kept as it is.
    dir: PathBuf,
}

/// The kit's `bot/Cargo.toml`: the crate's manifest, whose framework is `../framework`.
const KIT_MANIFEST: &str = include_str!("../../bot/Cargo.toml");
/// The line of [`KIT_MANIFEST`] that names the framework, relative to the kit's `bot/`.
const FRAMEWORK_LINE: &str = "framework = { path = \"../framework\" }";

/// What `DIR/bot/` gets: each file's path under it and its text.
fn files() -> Result<Vec<(&'static str, String)>> {
    Ok(vec![
        ("my_bot.rs", include_str!("../../bot/my_bot.rs").into()),
        ("Cargo.toml", manifest(bot_build::KIT_ROOT)?),
        ("Cargo.lock", include_str!("../../bot/Cargo.lock").into()),
        (
            "crate/build.rs",
            include_str!("../../bot/crate/build.rs").into(),
        ),
        (
            "crate/lib.rs",
            include_str!("../../bot/crate/lib.rs").into(),
        ),
        (
            "crate/modules.rs",
            include_str!("../../bot/crate/modules.rs").into(),
        ),
    ])
}

/// The kit's manifest with the framework named by its absolute path under `kit`, written
/// as a TOML string (escaped, whatever the path holds).
fn manifest(kit: &str) -> Result<String> {
    let framework = Path::new(kit).join("framework");
    let path = toml::Value::String(framework.display().to_string());
    anyhow::ensure!(
        KIT_MANIFEST.contains(FRAMEWORK_LINE),
        "the kit's bot/Cargo.toml has no line `{FRAMEWORK_LINE}` to point at its framework"
    );
    Ok(KIT_MANIFEST.replace(FRAMEWORK_LINE, &format!("framework = {{ path = {path} }}")))
}

/// Writes each file `DIR/bot/` lacks, never over one it has, and says what it did and
/// what to do next.
pub fn run(args: &Args) -> Result<()> {
    let bot = args.dir.join("bot");
    let (mut wrote, mut kept) = (Vec::new(), Vec::new());
    for (name, text) in files()? {
        if write_new(&bot.join(name), &text)? {
            wrote.push(name);
        } else {
            kept.push(name);
        }
    }
    let shown = std::path::absolute(&bot).unwrap_or(bot);
    println!("bot folder {}", shown.display());
    if !wrote.is_empty() {
        println!("  wrote: {}", wrote.join(", "));
    }
    if !kept.is_empty() {
        println!("  kept as they were: {}", kept.join(", "));
    }
    let dir = args.dir.display();
    println!("next: cd {dir} && challenge tokens && challenge match my_bot evil_bot");
    println!(
        "editor: open {dir} with rust-analyzer (every bot/*.rs is checked as you type); \
         `cargo clippy` in {dir}/bot checks them all"
    );
    Ok(())
}

/// Writes `text` to `path` unless a file is there already (then `false`). The text goes
/// to a temporary file beside it first, which takes the name only if it is free, so an
/// interrupted write leaves no half file and a file that appears meanwhile is kept.
fn write_new(path: &Path, text: &str) -> Result<bool> {
    let dir = path.parent().expect("a file under bot/");
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    if path.exists() {
        return Ok(false);
    }
    let cannot = || format!("cannot write {}", path.display());
    let mut file = tempfile::NamedTempFile::new_in(dir).with_context(cannot)?;
    file.write_all(text.as_bytes()).with_context(cannot)?;
    match file.persist_noclobber(path) {
        Ok(_) => Ok(true),
        Err(err) if err.error.kind() == ErrorKind::AlreadyExists => Ok(false),
        Err(err) => Err(err.error).with_context(cannot),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_manifest_names_the_kits_framework_by_its_absolute_path() {
        let text = manifest("/opt/my \"kit\"").unwrap();
        let value: toml::Table = text.parse().unwrap();
        assert_eq!(
            value["dependencies"]["framework"]["path"].as_str(),
            Some("/opt/my \"kit\"/framework")
        );
        // A workspace of its own: never a member of a workspace it happens to sit in.
        assert!(value.contains_key("workspace"), "{text}");
        assert_eq!(value["package"]["build"].as_str(), Some("crate/build.rs"));
    }

    #[test]
    fn a_file_that_is_there_is_kept() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("bot").join("crate").join("lib.rs");
        assert!(write_new(&path, "new").unwrap());
        assert!(!write_new(&path, "newer").unwrap());
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "new");
        let names: Vec<_> = std::fs::read_dir(path.parent().unwrap())
            .unwrap()
            .map(|entry| entry.unwrap().file_name())
            .collect();
        assert_eq!(names, ["lib.rs"], "no temporary file left behind");
    }
}

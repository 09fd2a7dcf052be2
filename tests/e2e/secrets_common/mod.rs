//! Helpers for the secrets tests (`tests/e2e/secrets.rs`, `tests/e2e/secrets_served.rs`): the
//! marker a test plants where a host keeps its secrets, the memory-scanning bot put in
//! the cache in place of the ordinary `decoy.rs`, and the check of what its scan reported.

#![allow(dead_code)]

use std::path::{Path, PathBuf};

use crate::common::{build_unchecked, kit_root};

/// What the tests plant; `scans_memory.rs` holds it XOR-ed.
pub const MARKER: &str = "kit-planted-secret-4f9c2e";

/// The runner's environment with the marker in it, as an organiser's server or a
/// worker would have it.
pub fn marked_env() -> Vec<(String, String)> {
    vec![
        ("CHALLENGE_ADMIN_TOKEN".into(), format!("{MARKER}-token")),
        ("SOME_CLOUD_KEY".into(), format!("{MARKER}-cloud")),
    ]
}

/// The scanner's report in `text`: its region count and whether it found the marker.
/// The report is `memory scan: marker absent; N regions, M KiB` (or `marker FOUND`),
/// its verdict first because fault records cap the line.
pub fn report(text: &str) -> Option<(usize, bool)> {
    let line = text
        .lines()
        .find(|line| line.contains("memory scan: marker "))?;
    let at = line.find("memory scan: marker ")? + "memory scan: marker ".len();
    let (verdict, rest) = line[at..].split_once("; ")?;
    let regions = rest.split(' ').next()?.parse().ok()?;
    Some((regions, verdict == "FOUND"))
}

/// The scan ran over many mappings and did not find the marker.
pub fn assert_nothing_found(path: &str, text: &str) {
    let Some((regions, found)) = report(text) else {
        panic!("{path}: the scanner's report is not in the output:\n{text}");
    };
    assert!(
        regions >= 8,
        "{path}: only {regions} regions scanned:\n{text}"
    );
    assert!(!found, "{path}: the bot found the host's secret:\n{text}");
}

/// The scanner engine, built once per test binary.
pub fn scanner() -> PathBuf {
    static SCANNER: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    SCANNER
        .get_or_init(|| build_unchecked("scans_memory"))
        .clone()
}

/// The cached engines built from a bot named `name` in the build directory `build_dir`.
fn engines_of(build_dir: &Path, name: &str) -> Vec<PathBuf> {
    let prefix = format!("bot_{name}_");
    let Ok(entries) = std::fs::read_dir(build_dir.join("bin")) else {
        return Vec::new();
    };
    entries
        .map(|entry| entry.unwrap().path())
        .filter(|path| {
            let file = path.file_name().unwrap().to_string_lossy();
            file.starts_with(&prefix) && !file.contains('.')
        })
        .collect()
}

/// Puts the scanner in place of every cached engine built from a bot named `name`
/// in the build directory `build_dir` (a rename, so an engine running meanwhile is
/// not disturbed).
pub fn plant(build_dir: &Path, name: &str) -> usize {
    let engines = engines_of(build_dir, name);
    // Tests that run at once plant the same engines: each copy needs a name of its own,
    // or one test's rename takes away the copy another is about to rename.
    static PLANTED: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    for path in &engines {
        let n = PLANTED.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let partial = path.with_extension(format!("planting{}_{n}", std::process::id()));
        std::fs::copy(scanner(), &partial).unwrap();
        std::fs::rename(&partial, path).unwrap();
    }
    assert!(
        !engines.is_empty(),
        "no engine of {name} in {}",
        build_dir.join("bin").display()
    );
    engines.len()
}

/// Removes the cached engines of `name` (a scanner planted by an earlier run among
/// them), so the path under test builds the genuine bot again. The bot's build state
/// stays, so that build is quick.
pub fn unplant(build_dir: &Path, name: &str) {
    for path in engines_of(build_dir, name) {
        match std::fs::remove_file(&path) {
            Err(err) if err.kind() != std::io::ErrorKind::NotFound => {
                panic!("cannot remove {}: {err}", path.display())
            }
            _ => {}
        }
    }
}

/// The kit's build directory (where `challenge` without `CHALLENGE_BUILD_DIR` builds).
pub fn kit_build_dir() -> PathBuf {
    kit_root().join("target").join("bots")
}

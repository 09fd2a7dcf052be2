//! End-to-end tests of the disk bounds of a bot's build: a bot with a huge `static`
//! is stopped at the per-build disk limit and leaves nothing behind; an untrusted build
//! (a submission) keeps no incremental state while the author's own build does; and a
//! build directory over its bound refuses a build it cannot fit, and evicts to fit one
//! it can.
//!
//! Each test builds in a scratch build directory seeded with the kit's compiled
//! framework (copied from `target/bots`, so no test compiles the framework again).

#![cfg(target_os = "linux")]

use crate::common;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use common::{build, kit_root, scratch_dir, test_bot};

/// `challenge` with its bot cache in `build_dir` and `env` set; whether it succeeded,
/// and its stderr.
fn challenge_in(build_dir: &Path, args: &[&str], env: &[(&str, &str)]) -> (bool, String) {
    let mut command = Command::new(crate::common::challenge_exe());
    command
        .args(args)
        .env("CHALLENGE_BUILD_DIR", build_dir)
        .current_dir(kit_root());
    for (name, value) in env {
        command.env(name, value);
    }
    let output = command.output().expect("challenge runs");
    (
        output.status.success(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

/// A build directory holding the compiled framework and nothing of any bot: the kit's
/// own `target/bots/target` (warmed by building `my_bot`), copied once per test run
/// with its times and hard links (`cp -a`, so cargo finds it fresh) under the
/// directory's lock, and bots removed.
/// At a fixed place in the kit's `target/`, replaced by each run.
fn seed() -> &'static Path {
    static SEED: OnceLock<PathBuf> = OnceLock::new();
    SEED.get_or_init(|| {
        build("my_bot");
        let seed = kit_root()
            .join("target")
            .join("tmp")
            .join("build-bounds-seed");
        let _ = std::fs::remove_dir_all(&seed);
        std::fs::create_dir_all(&seed).unwrap();
        let kit_builds = kit_root().join("target").join("bots");
        // Other tests build bots in the kit's directory meanwhile, and a build's
        // incremental files come and go: the copy holds the directory's lock alone, as
        // `challenge clean` does, so no build runs under it.
        let lock = std::fs::File::create(kit_builds.join(".lock")).unwrap();
        lock.lock().unwrap();
        copy_tree(&kit_builds.join("target"), &seed);
        drop(lock);
        let release = seed.join("target").join("release");
        for sub in [".", "deps", ".fingerprint", "incremental"] {
            for entry in std::fs::read_dir(release.join(sub)).unwrap().flatten() {
                if entry.file_name().to_string_lossy().starts_with("bot_") {
                    let path = entry.path();
                    if path.is_dir() {
                        std::fs::remove_dir_all(&path).unwrap();
                    } else {
                        std::fs::remove_file(&path).unwrap();
                    }
                }
            }
        }
        seed
    })
}

/// `cp -a FROM INTO/`.
fn copy_tree(from: &Path, into: &Path) {
    let status = Command::new("cp")
        .arg("-a")
        .arg(from)
        .arg(into)
        .status()
        .expect("cp runs");
    assert!(
        status.success(),
        "cp -a {} {}",
        from.display(),
        into.display()
    );
}

/// A fresh build directory for one test, with the framework compiled.
fn warm_build_dir(test: &str) -> PathBuf {
    let dir = scratch_dir(test);
    copy_tree(&seed().join("target"), &dir);
    dir
}

/// Every file under `dir`, relative to it.
fn files(dir: &Path) -> BTreeSet<PathBuf> {
    let mut found = BTreeSet::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(folder) = stack.pop() {
        for entry in std::fs::read_dir(&folder).into_iter().flatten().flatten() {
            let path = entry.path();
            if entry.file_type().unwrap().is_dir() {
                stack.push(path);
            } else {
                found.insert(path.strip_prefix(dir).unwrap().to_path_buf());
            }
        }
    }
    found
}

/// Every file or folder under `dir` whose name contains `needle`.
fn named(dir: &Path, needle: &str) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(folder) = stack.pop() {
        for entry in std::fs::read_dir(&folder).into_iter().flatten().flatten() {
            if entry.file_name().to_string_lossy().contains(needle) {
                found.push(entry.path());
            }
            if entry.file_type().unwrap().is_dir() {
                stack.push(entry.path());
            }
        }
    }
    found
}

/// The files a build may add or touch whatever it builds: the build lock and cargo's
/// own notes.
fn is_bookkeeping(path: &Path) -> bool {
    let name = path.file_name().unwrap().to_string_lossy();
    [".lock", ".cargo-lock", ".rustc_info.json"].contains(&name.as_ref())
}

#[test]
fn a_huge_static_is_stopped_at_the_disk_limit_and_leaves_nothing_behind() {
    let dir = warm_build_dir("build-bounds-disk");
    let before = files(&dir);
    let bot = test_bot("huge_static_data");
    let (ok, stderr) = challenge_in(
        &dir,
        &["build", bot.to_str().unwrap()],
        &[("CHALLENGE_BUILD_DISK_MB", "32")],
    );
    assert!(!ok, "the build is refused:\n{stderr}");
    assert!(
        stderr.contains(
            "bot `huge_static_data` did not build: the build wrote more than 32 MiB \
             (limit CHALLENGE_BUILD_DISK_MB"
        ),
        "{stderr}"
    );
    assert!(
        stderr.contains("a large static or const array is the usual cause"),
        "{stderr}"
    );
    assert_eq!(named(&dir, "huge_static_data"), Vec::<PathBuf>::new());
    let left: Vec<_> = files(&dir)
        .difference(&before)
        .filter(|path| !is_bookkeeping(path))
        .cloned()
        .collect();
    assert_eq!(left, Vec::<PathBuf>::new(), "files the failed build left");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_submission_keeps_only_its_engine_and_the_authors_own_build_stays_incremental() {
    let dir = warm_build_dir("build-bounds-kinds");
    let challenge = scratch_dir("build-bounds-kinds-challenge");
    let starter = kit_root().join("bot").join("my_bot.rs");
    let submit = [
        "submit",
        starter.to_str().unwrap(),
        "--name",
        "entrant",
        "--dir",
        challenge.to_str().unwrap(),
    ];
    let (ok, stderr) = challenge_in(&dir, &submit, &[]);
    assert!(ok, "{stderr}");
    let release = dir.join("target").join("release");
    assert_eq!(named(&release, "bot_entrant_"), Vec::<PathBuf>::new());
    assert_eq!(
        named(&dir.join("crates"), "bot_entrant_"),
        Vec::<PathBuf>::new()
    );
    assert_eq!(
        named(&dir.join("bin"), "bot_entrant_").len(),
        1,
        "its engine"
    );

    let (ok, stderr) = challenge_in(&dir, &["build", starter.to_str().unwrap()], &[]);
    assert!(ok, "{stderr}");
    let incremental = named(&release.join("incremental"), "bot_my_bot_");
    assert!(
        incremental.iter().any(|path| path.is_dir()),
        "the author's build keeps its incremental state: {incremental:?}"
    );
    assert_eq!(named(&dir.join("crates"), "bot_my_bot_").len(), 1);
    std::fs::remove_dir_all(&dir).unwrap();
    std::fs::remove_dir_all(&challenge).unwrap();
}

/// Bytes of every file under `dir` (hard links counted each time: an overestimate).
fn apparent_size(dir: &Path) -> u64 {
    files(dir)
        .iter()
        .map(|path| std::fs::metadata(dir.join(path)).unwrap().len())
        .sum()
}

#[test]
fn a_full_build_directory_evicts_old_engines_or_refuses_a_build_it_cannot_fit() {
    let dir = warm_build_dir("build-bounds-dir");
    // An engine of 50 MB, last used a month ago.
    let old = dir.join("bin").join("bot_old_0123456789abcdef");
    std::fs::create_dir_all(old.parent().unwrap()).unwrap();
    std::fs::write(&old, vec![0u8; 50 << 20]).unwrap();
    let month_ago = std::time::SystemTime::now() - std::time::Duration::from_secs(30 * 86_400);
    std::fs::File::options()
        .append(true)
        .open(&old)
        .unwrap()
        .set_modified(month_ago)
        .unwrap();
    let bot = kit_root().join("bot").join("evil_bot.rs");
    let bot = bot.to_str().unwrap();

    // Under 1 MiB the framework alone does not fit: refused, and nothing is evicted
    // for a build that could not stay anyway.
    let (ok, stderr) = challenge_in(&dir, &["build", bot], &[("CHALLENGE_BUILD_DIR_MB", "1")]);
    assert!(!ok);
    assert!(
        stderr.contains("over its bound of 1 MiB (limit CHALLENGE_BUILD_DIR_MB)"),
        "{stderr}"
    );
    assert!(old.exists(), "nothing evicted for a build that cannot fit");
    assert_eq!(named(&dir, "evil_bot"), Vec::<PathBuf>::new());

    // Room for the framework and a new engine, not for the old one too: it goes.
    let room = (apparent_size(&dir) - (50 << 20)) / (1 << 20) + 20;
    let (ok, stderr) = challenge_in(
        &dir,
        &["build", bot],
        &[("CHALLENGE_BUILD_DIR_MB", &room.to_string())],
    );
    assert!(ok, "{stderr}");
    assert!(!old.exists(), "the least recently used engine was evicted");
    assert_eq!(named(&dir.join("bin"), "bot_evil_bot_").len(), 1);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bad_disk_bounds_are_named() {
    for (name, value) in [
        ("CHALLENGE_BUILD_DISK_MB", "0"),
        ("CHALLENGE_BUILD_DIR_MB", "4G"),
    ] {
        let output = Command::new(crate::common::challenge_exe())
            .current_dir(kit_root())
            .args(["build", "tests/bots/prints.rs"])
            .env(name, value)
            .output()
            .expect("challenge runs");
        assert!(!output.status.success());
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(
            stderr.contains(&format!(
                "{name}=`{value}` is not a whole number from 1 to 2^40"
            )),
            "{stderr}"
        );
    }
}

#[test]
fn builds_of_different_bots_run_at_the_same_time() {
    use bot_build::{BuildKind, build_in, set_build_jobs};
    if set_build_jobs(2) < 2 {
        eprintln!("skipped: this machine's memory allows one build at a time");
        return;
    }
    let dir = warm_build_dir("build-bounds-parallel");
    let bots: Vec<_> = ["my_bot", "evil_bot"]
        .iter()
        .map(|name| bot_build::BotFile {
            name: format!("parallel_{name}"),
            path: kit_root().join("bot").join(format!("{name}.rs")),
        })
        .collect();
    let windows: Vec<_> = std::thread::scope(|scope| {
        let builds: Vec<_> = bots
            .iter()
            .map(|bot| scope.spawn(|| build_in(&dir, bot, BuildKind::Untrusted, &|_| {}).unwrap()))
            .collect();
        builds
            .into_iter()
            .map(|build| build.join().unwrap().compiled.expect("not cached"))
            .collect()
    });
    let ((a_start, a_end), (b_start, b_end)) = (windows[0], windows[1]);
    assert!(
        a_start < b_end && b_start < a_end,
        "the two compiles overlap in time: {windows:?}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_disk_bound_holds_while_another_bot_builds_beside_it() {
    let dir = warm_build_dir("build-bounds-parallel-disk");
    let before = files(&dir);
    let huge = test_bot("huge_static_data");
    let honest = kit_root().join("bot").join("my_bot.rs");
    let (huge_result, honest_result) = std::thread::scope(|scope| {
        let huge = scope.spawn(|| {
            challenge_in(
                &dir,
                &["build", huge.to_str().unwrap()],
                &[("CHALLENGE_BUILD_DISK_MB", "32")],
            )
        });
        let honest = scope.spawn(|| challenge_in(&dir, &["build", honest.to_str().unwrap()], &[]));
        (huge.join().unwrap(), honest.join().unwrap())
    });
    let (ok, stderr) = huge_result;
    assert!(!ok, "the huge bot is refused:\n{stderr}");
    assert!(
        stderr.contains("did not build: the build wrote more than 32 MiB"),
        "{stderr}"
    );
    let (ok, stderr) = honest_result;
    assert!(ok, "the bot beside it builds:\n{stderr}");
    assert_eq!(named(&dir, "huge_static_data"), Vec::<PathBuf>::new());
    let left: Vec<_> = files(&dir)
        .difference(&before)
        .filter(|path| !is_bookkeeping(path))
        .filter(|path| !path.to_string_lossy().contains("my_bot"))
        .cloned()
        .collect();
    assert_eq!(left, Vec::<PathBuf>::new(), "files the failed build left");
    std::fs::remove_dir_all(&dir).unwrap();
}

//! The cache's eviction, size bound and `clean`, on directories laid out as a build
//! directory.

use std::fs::{self, File};
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use super::*;
use crate::engine_build::layout::scratch_dir;
use crate::engine_build::supervise::Watch;

#[test]
fn a_bots_footprint_is_its_own_files_each_counted_once() {
    let dir = fake_build_dir("footprint", &[], &["bot_b_1", "bot_b_10"]);
    let release = dir.join("target").join("release");
    // Cargo hard-links the engine in `release/` to its copy in `deps/`.
    fs::remove_file(release.join("bot_b_1")).unwrap();
    fs::hard_link(
        release.join("deps").join("bot_b_1-abcd"),
        release.join("bot_b_1"),
    )
    .unwrap();
    let scratch = scratch_dir(&dir, "bot_b_1");
    fs::create_dir_all(&scratch).unwrap();
    fs::write(scratch.join("ccXYZ.o"), [0u8; 7]).unwrap();
    let watch = |crate_name| Watch {
        dir: &dir,
        crate_name,
        cap: 0,
    };
    // bot.rs 10, deps 30 (linked as release/bot_b_1), incremental 40, scratch 7.
    assert_eq!(watch("bot_b_1").footprint(), 10 + 30 + 40 + 7);
    assert_eq!(watch("bot_b_10").footprint(), 10 + 20 + 30 + 40);
    assert_eq!(watch("bot_never_built").footprint(), 0);
    assert_eq!(remove_crate(&dir, "bot_b_1").unwrap(), 10 + 2 * 30 + 40 + 7);
    assert!(!scratch.exists());
    assert_eq!(
        watch("bot_b_10").footprint(),
        100,
        "the other bot keeps its files"
    );
    fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_size_bound_takes_bot_builds_then_idle_engines_then_engines_in_use() {
    let now = SystemTime::now();
    let ago = |hours: u64| now - Duration::from_secs(hours * 3600);
    let crates = vec![
        (PathBuf::from("/d/crates/bot_new"), ago(1)),
        (PathBuf::from("/d/crates/bot_old"), ago(50)),
    ];
    let engines = vec![
        (PathBuf::from("/d/bin/playing"), ago(0)),
        (PathBuf::from("/d/bin/this_morning"), ago(5)),
        (PathBuf::from("/d/bin/last_week"), ago(24 * 7)),
        (PathBuf::from("/d/bin/last_month"), ago(24 * 30)),
    ];
    let engine = |name: &str| Victim::Engine(PathBuf::from("/d/bin").join(name));
    assert_eq!(
        eviction_order(crates, engines, now),
        [
            Victim::Crate("bot_old".into()),
            Victim::Crate("bot_new".into()),
            engine("last_month"),
            engine("last_week"),
            engine("this_morning"),
            engine("playing"),
        ]
    );
}

#[test]
fn the_build_directory_is_brought_under_its_bound_or_the_build_is_refused() {
    let engines = [("built", 0), ("today", 0), ("old", 3)];
    let dir = fake_build_dir("fit", &engines, &["bot_a_1", "bot_b_2", "bot_c_3"]);
    let just_built = dir.join("bin").join("built");
    // The framework 1000, three engines of 100, three bot builds of 100.
    let total = Usage::of(&dir);
    assert_eq!(total, 1000 + 3 * 100 + 3 * 100);
    assert_eq!(
        fit_dir(&dir, &just_built, "bot_a_1", total).unwrap(),
        Fit::Fits(Freed::default())
    );
    // Fitting 1 byte less takes the least recently built other bot (bot_c_3).
    let freed = Freed {
        engines: 0,
        crates: 1,
        bytes: 100,
    };
    let fit = fit_dir(&dir, &just_built, "bot_a_1", total - 1).unwrap();
    assert_eq!(fit, Fit::Fits(freed));
    assert_eq!(names(&dir.join("crates")), ["bot_a_1", "bot_b_2"]);
    // Then the other bot build and the idle engine before the one used today.
    let fit = fit_dir(&dir, &just_built, "bot_a_1", 1000 + 2 * 100 + 100).unwrap();
    let freed = Freed {
        engines: 1,
        crates: 1,
        bytes: 200,
    };
    assert_eq!(fit, Fit::Fits(freed));
    assert_eq!(names(&dir.join("bin")), ["built", "today"]);
    // Never the new engine, its bot's build or the framework: past that, refused,
    // and nothing else is removed for a build that cannot stay anyway.
    let least = 1000 + 100 + 100;
    let fit = fit_dir(&dir, &just_built, "bot_a_1", least - 1).unwrap();
    assert_eq!(fit, Fit::Overfull { least });
    assert_eq!(names(&dir.join("bin")), ["built", "today"]);
    assert_eq!(Usage::of(&dir), least + 100);
    fs::remove_dir_all(&dir).unwrap();
}

/// A fresh directory laid out as a build directory: engines in `bin/` used
/// `days_ago`, bot crates with their cargo state, and the compiled framework.
fn fake_build_dir(test: &str, engines: &[(&str, u64)], crates: &[&str]) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("kit-{test}-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    let release = dir.join("target").join("release");
    for sub in ["deps", ".fingerprint", "incremental"] {
        fs::create_dir_all(release.join(sub)).unwrap();
    }
    fs::create_dir_all(dir.join("bin")).unwrap();
    fs::write(
        release.join("deps").join("libframework-0123.rlib"),
        [0u8; 1000],
    )
    .unwrap();
    for (name, days_ago) in engines {
        let path = dir.join("bin").join(name);
        fs::write(&path, [0u8; 100]).unwrap();
        let used = SystemTime::now() - Duration::from_secs(days_ago * 86_400 + 60);
        File::options()
            .append(true)
            .open(&path)
            .unwrap()
            .set_modified(used)
            .unwrap();
    }
    for (age, name) in crates.iter().enumerate() {
        let crate_dir = dir.join("crates").join(name);
        fs::create_dir_all(crate_dir.join("src")).unwrap();
        fs::write(crate_dir.join("src").join("bot.rs"), [0u8; 10]).unwrap();
        let mark = crate_dir.join(BUILT_MARK);
        fs::write(&mark, b"").unwrap();
        let built = SystemTime::now() - Duration::from_secs(60 * (age as u64 + 1));
        File::options()
            .append(true)
            .open(&mark)
            .unwrap()
            .set_modified(built)
            .unwrap();
        fs::write(release.join(name), [0u8; 20]).unwrap();
        fs::write(release.join("deps").join(format!("{name}-abcd")), [0u8; 30]).unwrap();
        fs::create_dir_all(release.join("incremental").join(format!("{name}-x1"))).unwrap();
        let session = release
            .join("incremental")
            .join(format!("{name}-x1"))
            .join("s");
        fs::write(session, [0u8; 40]).unwrap();
    }
    dir
}

fn names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[test]
fn eviction_keeps_recent_engines_and_the_newest_bot_crates() {
    let crates: Vec<String> = (0..KEPT_CRATES + 2).map(|i| format!("bot_b_{i}")).collect();
    // `bot_b_1` is a prefix of `bot_b_10`: its eviction must not take the other's files.
    let crate_refs: Vec<&str> = crates.iter().map(String::as_str).collect();
    let dir = fake_build_dir(
        "evict",
        &[
            ("new", 0),
            ("today", 0),
            ("old1", 3),
            ("old2", 5),
            ("old3", 9),
            ("built", 30),
            ("reused", 40),
        ],
        &crate_refs,
    );
    // Built long ago, but used from the cache just now: its stamp says so.
    mark_used(&dir.join("bin").join("reused"));
    let just_built = dir.join("bin").join("built");
    fs::write(dir.join("crates").join("bot_b_0").join(BUILT_MARK), b"").unwrap();
    let freed = evict(&dir, &just_built, 2).unwrap();
    // Kept: the two most recent, everything used today, and the one just built.
    assert_eq!(names(&dir.join("bin")), ["built", "new", "reused", "today"]);
    assert_eq!(freed.engines, 3);
    assert_eq!(names(&dir.join("used")), ["reused"]);
    // Of the crates, the newest KEPT_CRATES stay (bot_b_0 was just marked as built).
    let kept: Vec<String> = crates[..KEPT_CRATES].to_vec();
    let mut kept_sorted = kept.clone();
    kept_sorted.sort();
    assert_eq!(names(&dir.join("crates")), kept_sorted);
    assert_eq!(freed.crates, 2);
    let release = dir.join("target").join("release");
    for gone in &crates[KEPT_CRATES..] {
        assert!(!release.join(gone).exists(), "{gone}");
        assert!(!release.join("deps").join(format!("{gone}-abcd")).exists());
        assert!(
            !release
                .join("incremental")
                .join(format!("{gone}-x1"))
                .exists()
        );
    }
    for stays in &kept {
        assert!(
            release.join("deps").join(format!("{stays}-abcd")).exists(),
            "{stays}"
        );
    }
    assert!(release.join("deps").join("libframework-0123.rlib").exists());
    assert_eq!(freed.bytes, 3 * 100 + 2 * (10 + 20 + 30 + 40));
    fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn clean_empties_the_cache_and_counts_what_it_freed() {
    let dir = fake_build_dir("clean", &[("a", 0), ("b", 2)], &["bot_a_1", "bot_c_2"]);
    // An older kit left a crate's build state without its crate directory.
    let orphan = dir
        .join("target")
        .join("release")
        .join("deps")
        .join("bot_old_99-ff");
    fs::write(&orphan, [0u8; 5]).unwrap();
    mark_used(&dir.join("bin").join("a"));
    let freed = clean(&dir, false).unwrap();
    assert!(!dir.join("used").exists());
    assert_eq!(
        freed,
        Freed {
            engines: 2,
            crates: 2,
            bytes: 2 * 100 + 2 * (10 + 20 + 30 + 40) + 5,
        }
    );
    assert!(names(&dir.join("bin")).is_empty());
    assert!(names(&dir.join("crates")).is_empty());
    assert!(!orphan.exists());
    let framework = dir
        .join("target")
        .join("release")
        .join("deps")
        .join("libframework-0123.rlib");
    assert!(framework.exists(), "the framework stays for the next build");
    assert_eq!(clean(&dir, false).unwrap(), Freed::default());
    let freed = clean(&dir, true).unwrap();
    assert_eq!(freed.bytes, 1000);
    assert!(!dir.join("target").exists());
    fs::remove_dir_all(&dir).unwrap();
    assert_eq!(
        clean(&dir, true).unwrap(),
        Freed::default(),
        "no directory, nothing to do"
    );
}

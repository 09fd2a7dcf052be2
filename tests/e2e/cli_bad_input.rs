//! Bad numbers on the command line and unusable challenge directories get a clear error
//! naming the option or the path, never a wrap-around, a panic or a hang.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn challenge(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_challenge"))
        .args(args)
        .output()
        .expect("challenge runs")
}

fn refused(args: &[&str], mentions: &str) {
    let out = challenge(args);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{args:?} was accepted");
    assert!(!stderr.contains("panicked"), "{args:?} panicked: {stderr}");
    assert!(
        stderr.contains(mentions),
        "{args:?}: `{mentions}` not in: {stderr}"
    );
}

#[test]
fn out_of_range_numbers_are_refused_by_name() {
    refused(&["match", "--games", "18446744073709551615"], "--games");
    refused(&["match", "--games", "-1"], "--games");
    refused(&["match", "--games", "0"], "--games");
    refused(&["match", "-j", "0"], "--concurrency");
    refused(&["match", "--tc", "99999999999999999999+0"], "--tc");
    refused(&["match", "--tc", "inf+nan"], "--tc");
    refused(&["match", "--st", "-0.5"], "--st");
    refused(&["match", "--st", "1e300"], "--st");
    refused(&["match", "--depth", "0"], "--depth");
    refused(&["match", "--timemargin", "-5"], "--timemargin");
    refused(&["match", "--maxmoves", "4294967295"], "--maxmoves");
    refused(
        &[
            "match",
            "--draw",
            "movenumber=-1",
            "movecount=8",
            "score=10",
        ],
        "--draw",
    );
    refused(
        &["match", "--resign", "movecount=3", "score=99999999999"],
        "--resign",
    );
    refused(&["run", "--pairs", "-3"], "--pairs");
    refused(&["run", "--rounds", "0"], "--rounds");
    refused(&["run", "--max-games", "0"], "--max-games");
    refused(&["run", "--format", "knockout"], "knockout");
    refused(&["standings", "--prior", "-1"], "--prior");
    refused(&["standings", "--prior", "NaN"], "--prior");
    refused(&["perft", "99"], "DEPTH");
    refused(&["bench-ratings", "--players", "1"], "--players");
}

fn fixture_copy(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("kit-cli-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/challenge_v0");
    std::fs::copy(fixture.join("challenge.db"), dir.join("challenge.db")).unwrap();
    dir
}

#[test]
fn reading_commands_leave_the_challenge_untouched() {
    let dir = fixture_copy("readonly");
    let before = std::fs::read(dir.join("challenge.db")).unwrap();
    let d = dir.to_str().unwrap();
    for args in [
        vec!["standings", "--dir", d],
        vec!["entries", "--dir", d],
        vec!["export", "--dir", d, "--pgn", "/dev/null"],
    ] {
        let out = challenge(&args);
        assert!(
            out.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    assert_eq!(std::fs::read(dir.join("challenge.db")).unwrap(), before);
    // SQLite may open the write-ahead log's index beside the file; nothing is written.
    let wal = dir.join("challenge.db-wal");
    assert!(!wal.exists() || std::fs::metadata(&wal).unwrap().len() == 0);
    let mut names: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| !n.ends_with("-wal") && !n.ends_with("-shm"))
        .collect();
    names.sort();
    assert_eq!(
        names,
        ["challenge.db"],
        "no run lock, no sources, no new files"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_unusable_challenge_directory_is_named_with_the_fix() {
    let dir = fixture_copy("blocked");
    // A file where the directory should be: no permission trick needed (tests may run
    // as root, who ignores permissions).
    let blocked = dir.join("not-a-dir");
    std::fs::write(&blocked, "").unwrap();
    let inside = blocked.join("challenge");
    let bot = Path::new(env!("CARGO_MANIFEST_DIR")).join("bot/my_bot.rs");
    refused(
        &[
            "submit",
            bot.to_str().unwrap(),
            "--name",
            "x",
            "--dir",
            inside.to_str().unwrap(),
        ],
        inside.to_str().unwrap(),
    );
    let _ = std::fs::remove_dir_all(&dir);
}

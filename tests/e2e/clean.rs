//! End-to-end tests of the bounded bot cache: an edited bot rebuilds in its own crate
//! (one per bot, not one per version), and `challenge clean` empties the cache and says
//! how much it freed.

use crate::common;

use std::path::Path;
use std::process::Command;
use std::time::Duration;

use common::{Engine, build, kit_root, scratch_dir};

/// `challenge` run with its bot cache in `build_dir`.
fn challenge_in(build_dir: &Path, args: &[&str]) -> (bool, String, String) {
    let output = Command::new(crate::common::challenge_exe())
        .args(args)
        .env("CHALLENGE_BUILD_DIR", build_dir)
        .current_dir(kit_root())
        .output()
        .expect("challenge runs");
    (
        output.status.success(),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

#[test]
fn clean_removes_engines_and_bot_builds_and_keeps_the_framework() {
    let dir = scratch_dir("clean-cli");
    let release = dir.join("target").join("release");
    std::fs::create_dir_all(release.join("deps")).unwrap();
    std::fs::create_dir_all(dir.join("bin")).unwrap();
    std::fs::create_dir_all(dir.join("crates").join("bot_x_1").join("src")).unwrap();
    std::fs::write(dir.join("bin").join("bot_x_1234"), vec![0u8; 2_500_000]).unwrap();
    std::fs::write(dir.join("crates/bot_x_1/src/bot.rs"), vec![0u8; 500_000]).unwrap();
    std::fs::write(
        release.join("deps").join("bot_x_1-ab"),
        vec![0u8; 1_000_000],
    )
    .unwrap();
    let framework = release.join("deps").join("libframework-12.rlib");
    std::fs::write(&framework, vec![0u8; 10]).unwrap();

    let (ok, stdout, stderr) = challenge_in(&dir, &["clean"]);
    assert!(ok, "{stderr}");
    assert_eq!(
        stdout.trim(),
        format!(
            "removed 1 engine and 1 bot build from {}: 4.0 MB freed",
            dir.display()
        )
    );
    assert!(!dir.join("bin").join("bot_x_1234").exists());
    assert!(!dir.join("crates").join("bot_x_1").exists());
    assert!(!release.join("deps").join("bot_x_1-ab").exists());
    assert!(framework.exists());

    let (ok, stdout, _) = challenge_in(&dir, &["clean"]);
    assert!(ok);
    assert!(
        stdout.contains("removed 0 engines and 0 bot builds"),
        "{stdout}"
    );
    assert!(stdout.ends_with(": 0 bytes freed\n"), "{stdout}");

    let (ok, stdout, _) = challenge_in(&dir, &["clean", "--all"]);
    assert!(ok);
    assert!(stdout.contains("and the compiled framework"), "{stdout}");
    assert!(stdout.contains(": 10 bytes freed"), "{stdout}");
    assert!(!dir.join("target").exists());

    let missing = dir.join("never-created");
    let (ok, stdout, _) = challenge_in(&missing, &["clean"]);
    assert!(ok);
    assert!(stdout.contains("0 bytes freed"), "{stdout}");
    assert!(!missing.exists(), "clean creates nothing");
}

#[test]
fn an_edited_bot_rebuilds_in_its_own_crate_and_the_new_engine_plays() {
    // A fixed path: the bot is the same bot (and crate) from one test run to the next.
    let dir = kit_root().join("target").join("tmp").join("edit-loop");
    std::fs::create_dir_all(&dir).unwrap();
    let bot = dir.join("edit_loop_probe.rs");
    let starter = std::fs::read_to_string(kit_root().join("bot").join("my_bot.rs")).unwrap();
    std::fs::write(&bot, &starter).unwrap();
    let first = build(&bot);
    // A new source on every run: an engine cached by an earlier run would otherwise
    // skip the build this test is about (and its crate may have been evicted since).
    let nonce = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_nanos();
    let edited =
        starter.replace("legal_moves()[0]", "legal_moves()[1]") + &format!("// edit {nonce}\n");
    assert_ne!(edited, starter, "the edit changes the bot");
    std::fs::write(&bot, &edited).unwrap();
    let second = build(&bot);
    assert_ne!(first, second, "a new engine for the new source");
    assert!(first.exists(), "the previous version stays cached");

    let crates = kit_root().join("target").join("bots").join("crates");
    let ours: Vec<String> = std::fs::read_dir(&crates)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|name| name.starts_with("bot_edit_loop_probe_"))
        .collect();
    assert_eq!(
        ours.len(),
        1,
        "one crate for every version of the bot: {ours:?}"
    );
    let source = crates.join(&ours[0]).join("src").join("bot.rs");
    assert_eq!(std::fs::read_to_string(source).unwrap(), edited);

    let mut engine = Engine::start(&second);
    engine.handshake();
    engine.send("position startpos");
    engine.send("go movetime 50");
    let answer = engine.expect("bestmove", Duration::from_secs(10));
    // legal_moves()[1] from the start position, where [0] is what the starter plays.
    let mut old = Engine::start(&first);
    old.handshake();
    old.send("position startpos");
    old.send("go movetime 50");
    assert_ne!(answer, old.expect("bestmove", Duration::from_secs(10)));
}

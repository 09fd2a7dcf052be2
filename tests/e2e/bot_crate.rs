//! The bot files as the crate `bots` (`bot/Cargo.toml`): cargo and rust-analyzer report
//! an error in a bot at its file and line, pick up a new bot file with no edit anywhere,
//! and find nothing in the kit's bots; and none of the crate's own files is taken for a bot.
//!
//! The checks run on a copy of the crate in a workspace of its own under a temp dir (so a
//! broken bot never touches the checkout), against the kit's framework, in one target
//! folder kept under the kit's `target/tmp/` so later runs are incremental.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Mutex, MutexGuard, PoisonError};

use crate::common::kit_root;
use crate::common::outside::{self, RUST_ANALYZER};
use crate::common_challenge::TempDir;

/// A bot with two deliberate errors: a method `Board` does not have (line 8) and a
/// `Move` where a `u8` is wanted (line 9).
const BROKEN: &str = "use framework::prelude::*;

#[derive(Default)]
pub struct MyBot;

impl Bot for MyBot {
    fn think(&mut self, board: Board, _timer: Timer) -> Move {
        let _ = board.legal_movez();
        let _: u8 = board.legal_moves()[0];
        board.legal_moves()[0]
    }
}
";

/// The lines of `BROKEN` with an error.
const BROKEN_LINES: [usize; 2] = [8, 9];

/// A workspace with a copy of the `bots` crate and the kit's bot files (and lab bots), and
/// besides them a bot added the documented ways: `challenge tune`'s `NAME.tuned.rs` (a
/// stem that is no Rust identifier) and a copy of the starter.
fn workspace(dir: &Path) -> PathBuf {
    let kit = kit_root();
    let root = std::fs::read_to_string(kit.join("Cargo.toml")).unwrap();
    // The kit's `[workspace.package]` (edition, version...) that the crate inherits.
    let package = root
        .split_once("[workspace.package]")
        .and_then(|(_, rest)| rest.split("\n[").next())
        .expect("the kit's Cargo.toml has [workspace.package]");
    let framework = kit.join("framework");
    let framework = framework.to_str().expect("a UTF-8 checkout");
    assert!(!framework.contains(['"', '\\']), "{framework}");
    std::fs::write(
        dir.join("Cargo.toml"),
        format!(
            "[workspace]\nmembers = [\"bot\"]\nresolver = \"3\"\n\n[workspace.package]{package}\n\
             [workspace.dependencies]\nframework = {{ path = \"{framework}\" }}\n"
        ),
    )
    .unwrap();
    std::fs::copy(kit.join("Cargo.lock"), dir.join("Cargo.lock")).unwrap();
    let bot = dir.join("bot");
    for sub in ["crate", "lab"] {
        std::fs::create_dir_all(bot.join(sub)).unwrap();
    }
    std::fs::copy(kit.join("bot/Cargo.toml"), bot.join("Cargo.toml")).unwrap();
    for folder in ["bot", "bot/crate", "bot/lab"] {
        for file in rust_files(&kit.join(folder)) {
            let name = file.file_name().unwrap();
            std::fs::copy(&file, dir.join(folder).join(name)).unwrap();
        }
    }
    for copy in ["my_bot.tuned.rs", "my_new_bot.rs"] {
        std::fs::copy(kit.join("bot/my_bot.rs"), bot.join(copy)).unwrap();
    }
    bot
}

/// The `*.rs` files directly in `dir`.
fn rust_files(dir: &Path) -> Vec<PathBuf> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "rs"))
        .collect()
}

/// The target folder the copies share, run after run.
fn target_dir() -> PathBuf {
    kit_root().join("target").join("tmp").join("bots-crate")
}

/// Held by each test that checks a copy, for all its checks. Every copy's build script
/// writes the same `OUT_DIR` in [`target_dir`] (cargo names it by the package's path within
/// its workspace), so two copies checked at once would read each other's module lists.
fn one_copy_at_a_time() -> MutexGuard<'static, ()> {
    static LOCK: Mutex<()> = Mutex::new(());
    LOCK.lock().unwrap_or_else(PoisonError::into_inner)
}

/// `cargo check -p bots` in `workspace`: each diagnostic's level, file and line.
fn cargo_check(workspace: &Path) -> Vec<(String, PathBuf, usize)> {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let output = Command::new(cargo)
        .args(["check", "--offline", "--message-format=json", "-p", "bots"])
        .current_dir(workspace)
        .env("CARGO_TARGET_DIR", target_dir())
        .output()
        .unwrap();
    let mut found = Vec::new();
    for line in String::from_utf8(output.stdout).unwrap().lines() {
        let message: serde_json::Value = serde_json::from_str(line).unwrap();
        if message["reason"] != "compiler-message" {
            continue;
        }
        let diagnostic = &message["message"];
        for span in diagnostic["spans"].as_array().unwrap() {
            if span["is_primary"] == true {
                found.push((
                    diagnostic["level"].as_str().unwrap().to_string(),
                    PathBuf::from(span["file_name"].as_str().unwrap()),
                    usize::try_from(span["line_start"].as_u64().unwrap()).unwrap(),
                ));
            }
        }
    }
    let errors = found.iter().filter(|(level, ..)| level == "error").count();
    assert_eq!(
        output.status.success(),
        errors == 0,
        "cargo check's status and its {errors} errors disagree:\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    found
}

#[test]
fn cargo_finds_nothing_in_the_bots_and_reports_a_new_broken_bot_at_its_file_and_line() {
    let _only = one_copy_at_a_time();
    let dir = TempDir::new("bots-crate-cargo");
    let bot = workspace(dir.path());
    assert_eq!(cargo_check(dir.path()), [], "the kit's bots are clean");

    // A new file, no other edit: the build script runs again and the bot is checked.
    let broken = bot.join("broken_bot.rs");
    std::fs::write(&broken, BROKEN).unwrap();
    let found = cargo_check(dir.path());
    let lines: BTreeSet<usize> = found
        .iter()
        .filter(|(level, file, _)| level == "error" && *file == broken)
        .map(|&(.., line)| line)
        .collect();
    assert_eq!(lines, BTreeSet::from(BROKEN_LINES), "{found:?}");
    assert!(
        found.iter().all(|(_, file, _)| *file == broken),
        "diagnostics outside the broken bot: {found:?}"
    );
}

/// rust-analyzer's diagnostics of severity `Error` or `Warning` (not its weak warnings,
/// such as code a `#[cfg]` leaves out): each file and line (from 1).
fn rust_analyzer(exe: &Path, workspace: &Path) -> Vec<(PathBuf, usize)> {
    let output = Command::new(exe)
        .arg("diagnostics")
        .arg(workspace)
        .env("CARGO_TARGET_DIR", target_dir())
        .output()
        .unwrap();
    // One diagnostic a line, after the progress text rust-analyzer draws with `\r`:
    // `... at crate bots, file /x/bot/b.rs: Error RustcHardError("E0599") from LineCol { line: 7, ...`
    let text = String::from_utf8_lossy(&output.stdout).into_owned()
        + &String::from_utf8_lossy(&output.stderr);
    let mut found = Vec::new();
    for record in text.split("at crate ").skip(1) {
        let Some((_, rest)) = record.split_once(", file ") else {
            continue;
        };
        let (file, rest) = rest.split_once(": ").unwrap();
        if !(rest.starts_with("Error ") || rest.starts_with("Warning ")) {
            continue;
        }
        let line = rest
            .split_once("line: ")
            .and_then(|(_, n)| n.split_once(',')?.0.trim().parse::<usize>().ok())
            .unwrap_or_else(|| panic!("no line in {record:?}"));
        found.push((PathBuf::from(file), line + 1));
    }
    found
}

#[test]
fn rust_analyzer_reports_a_broken_bot_at_its_file_and_line_and_nothing_in_the_others() {
    let Some(exe) = outside::need(&RUST_ANALYZER) else {
        return;
    };
    let _only = one_copy_at_a_time();
    let dir = TempDir::new("bots-crate-ra");
    let bot = workspace(dir.path());
    let broken = bot.join("broken_bot.rs");
    std::fs::write(&broken, BROKEN).unwrap();
    let found = rust_analyzer(&exe, dir.path());
    let in_bots: Vec<_> = found
        .iter()
        .filter(|(file, _)| file.starts_with(&bot))
        .collect();
    let lines: BTreeSet<usize> = in_bots
        .iter()
        .filter(|(file, _)| *file == broken)
        .map(|&&(_, line)| line)
        .collect();
    assert_eq!(lines, BTreeSet::from(BROKEN_LINES), "{found:?}");
    assert!(
        in_bots.iter().all(|(file, _)| *file == broken),
        "diagnostics outside the broken bot: {in_bots:?}"
    );
}

#[test]
fn none_of_the_crates_own_files_is_taken_for_a_bot() {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let output = Command::new(cargo)
        .args([
            "metadata",
            "--format-version",
            "1",
            "--no-deps",
            "--offline",
        ])
        .current_dir(kit_root())
        .output()
        .unwrap();
    assert!(output.status.success(), "{output:?}");
    let metadata: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let bots = metadata["packages"]
        .as_array()
        .unwrap()
        .iter()
        .find(|package| package["name"] == "bots")
        .expect("the workspace has the package bots");
    let sources: Vec<PathBuf> = bots["targets"]
        .as_array()
        .unwrap()
        .iter()
        .map(|target| PathBuf::from(target["src_path"].as_str().unwrap()))
        .collect();
    assert_eq!(
        sources.len(),
        2,
        "a library and its build script: {sources:?}"
    );
    let scanned = [kit::bots::bot_dir(), kit::bots::lab_dir()];
    let available = kit::bots::available();
    assert!(available.contains(&"my_bot".to_string()), "{available:?}");
    for source in &sources {
        let folder = source.parent().unwrap();
        assert!(
            scanned.iter().all(|dir| dir != folder),
            "{} is where bots are looked for",
            source.display()
        );
        let stem = source.file_stem().unwrap().to_str().unwrap();
        assert!(!available.iter().any(|bot| bot == stem), "{available:?}");
        assert!(
            kit::bots::resolve(stem).is_err(),
            "`{stem}` resolves to a bot"
        );
    }
}

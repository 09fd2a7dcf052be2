//! The bot files as the crate `bots` (`bot/Cargo.toml`), a workspace of its own: cargo
//! and rust-analyzer report an error in a bot at its file and line, pick up a new bot file
//! with no edit anywhere, and find nothing in the kit's bots; none of the crate's own
//! files is taken for a bot; and the kit's own workspace leaves the crate out, so a broken
//! bot breaks none of the kit's builds or tests. `challenge new DIR` makes the same crate
//! anywhere, where cargo and rust-analyzer report a broken bot too.
//!
//! The checks run on copies under a temp dir (so a broken bot never touches the checkout),
//! against the kit's framework, in one target folder kept under the kit's `target/tmp/` so
//! later runs are incremental.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Mutex, MutexGuard, PoisonError};

use crate::common::kit_root;
use crate::common::outside::{self, RUST_ANALYZER};
use crate::common_challenge::TempDir;

/// The crate's naming of bot files as modules (`bot/crate/modules.rs`), with its unit
/// tests: they run here, as the crate is no member of the kit's workspace.
#[path = "../../bot/crate/modules.rs"]
#[allow(dead_code)]
mod modules;

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

/// A copy of the kit's `bot/` (the crate, its lock, the bot files and lab bots) as
/// `dir/bot`, and besides them a bot added the documented ways: `challenge tune`'s
/// `NAME.tuned.rs` (a stem that is no Rust identifier) and a copy of the starter.
fn workspace(dir: &Path) -> PathBuf {
    let kit = kit_root();
    let bot = dir.join("bot");
    for sub in ["crate", "lab"] {
        std::fs::create_dir_all(bot.join(sub)).unwrap();
    }
    for file in ["Cargo.toml", "Cargo.lock"] {
        std::fs::copy(kit.join("bot").join(file), bot.join(file)).unwrap();
    }
    // The copy is elsewhere: its framework is the kit's, by an absolute path.
    let manifest = std::fs::read_to_string(bot.join("Cargo.toml")).unwrap();
    let framework = kit.join("framework");
    let framework = framework.to_str().expect("a UTF-8 checkout");
    assert!(!framework.contains(['"', '\\']), "{framework}");
    let relative = "framework = { path = \"../framework\" }";
    assert!(manifest.contains(relative), "{manifest}");
    std::fs::write(
        bot.join("Cargo.toml"),
        manifest.replace(
            relative,
            &format!("framework = {{ path = \"{framework}\" }}"),
        ),
    )
    .unwrap();
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

/// `cargo check` in the bot crate `workspace`: each diagnostic's level, file and line.
fn cargo_check(workspace: &Path) -> Vec<(String, PathBuf, usize)> {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let output = Command::new(cargo)
        .args(["check", "--offline", "--message-format=json"])
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

/// The lines of `file` that cargo's diagnostics `found` mark as errors.
fn error_lines(found: &[(String, PathBuf, usize)], file: &Path) -> BTreeSet<usize> {
    found
        .iter()
        .filter(|(level, at, _)| level == "error" && at == file)
        .map(|&(.., line)| line)
        .collect()
}

#[test]
fn cargo_finds_nothing_in_the_bots_and_reports_a_new_broken_bot_at_its_file_and_line() {
    let _only = one_copy_at_a_time();
    let dir = TempDir::new("bots-crate-cargo");
    let bot = workspace(dir.path());
    assert_eq!(cargo_check(&bot), [], "the kit's bots are clean");

    // A new file, no other edit: the build script runs again and the bot is checked.
    let broken = bot.join("broken_bot.rs");
    std::fs::write(&broken, BROKEN).unwrap();
    let found = cargo_check(&bot);
    assert_eq!(
        error_lines(&found, &broken),
        BTreeSet::from(BROKEN_LINES),
        "{found:?}"
    );
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
    let found = rust_analyzer(&exe, &bot);
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
            "--manifest-path",
            "bot/Cargo.toml",
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
    let scanned = [bot_build::bot_dir(), bot_build::lab_dir()];
    let available = bot_build::available();
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
            bot_build::resolve(stem).is_err(),
            "`{stem}` resolves to a bot"
        );
    }
}

/// `cargo metadata` of `manifest` (from the kit's root), which must succeed.
fn metadata(args: &[&str]) -> serde_json::Value {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let output = Command::new(cargo)
        .args(["metadata", "--format-version", "1", "--offline"])
        .args(args)
        .current_dir(kit_root())
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "cargo metadata {args:?}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    serde_json::from_slice(&output.stdout).unwrap()
}

/// Each package of a lock file, by name, with its versions.
fn locked(path: &Path) -> Vec<(String, String)> {
    let lock: toml::Table = std::fs::read_to_string(path).unwrap().parse().unwrap();
    lock["package"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            let field = |key: &str| p[key].as_str().unwrap().to_string();
            (field("name"), field("version"))
        })
        .collect()
}

/// A half-written bot in the checkout's `bot/` cannot break the kit's build or tests:
/// the crate is no member of the kit's workspace but one of its own. Its lock file is
/// complete (cargo changes nothing in it) and pins what the kit's pins.
#[test]
fn the_bots_crate_is_a_workspace_of_its_own_locked_as_the_kit_is() {
    let kit = metadata(&["--no-deps"]);
    let crate_manifest = kit_root().join("bot").join("Cargo.toml");
    for package in kit["packages"].as_array().unwrap() {
        let manifest = PathBuf::from(package["manifest_path"].as_str().unwrap());
        assert_ne!(
            manifest, crate_manifest,
            "the kit's workspace has the bots crate"
        );
    }
    let bots = metadata(&["--locked", "--manifest-path", "bot/Cargo.toml"]);
    assert_eq!(
        PathBuf::from(bots["workspace_root"].as_str().unwrap()),
        kit_root().join("bot")
    );
    let kit_lock = locked(&kit_root().join("Cargo.lock"));
    for package in locked(&kit_root().join("bot").join("Cargo.lock")) {
        assert!(
            package.0 == "bots" || kit_lock.contains(&package),
            "bot/Cargo.lock pins {package:?}, which the kit's Cargo.lock does not; write it \
             again from the kit's: cp Cargo.lock bot/Cargo.lock && cargo metadata --offline \
             --manifest-path bot/Cargo.toml > /dev/null"
        );
    }
}

/// `challenge ARGS` run in `dir`.
fn challenge_in(dir: &Path, args: &[&str]) -> std::process::Output {
    Command::new(crate::common::challenge_exe())
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap()
}

/// `challenge new DIR` outside the checkout: the starter and the crate around it, a
/// second run that keeps what is there, `challenge tokens` counting the new bot, and a
/// broken bot reported by cargo at its file and line.
#[test]
fn challenge_new_makes_a_bot_folder_anywhere_where_cargo_reports_a_broken_bot() {
    let _only = one_copy_at_a_time();
    let dir = TempDir::new("bots-new");
    let made = challenge_in(dir.path(), &["new", "work"]);
    let said = String::from_utf8_lossy(&made.stdout);
    assert!(
        made.status.success(),
        "{said}{}",
        String::from_utf8_lossy(&made.stderr)
    );
    assert!(
        said.contains("wrote: my_bot.rs, Cargo.toml, Cargo.lock, crate/build.rs, crate/lib.rs, crate/modules.rs"),
        "{said}"
    );
    let work = dir.path().join("work");
    let bot = work.join("bot");
    let starter = std::fs::read_to_string(kit_root().join("bot/my_bot.rs")).unwrap();
    assert_eq!(
        std::fs::read_to_string(bot.join("my_bot.rs")).unwrap(),
        starter
    );

    let counted = challenge_in(&work, &["tokens"]);
    let count = String::from_utf8_lossy(&counted.stdout);
    assert!(
        count.starts_with("bot/my_bot.rs: ") && count.contains(" / 1024"),
        "{count}"
    );

    // Again, over an edited bot: nothing is overwritten.
    std::fs::write(bot.join("my_bot.rs"), BROKEN).unwrap();
    let again = challenge_in(dir.path(), &["new", "work"]);
    let said = String::from_utf8_lossy(&again.stdout);
    assert!(again.status.success(), "{said}");
    assert!(
        said.contains("kept as they were: my_bot.rs, Cargo.toml"),
        "{said}"
    );
    assert!(!said.contains("wrote"), "{said}");
    assert_eq!(
        std::fs::read_to_string(bot.join("my_bot.rs")).unwrap(),
        BROKEN
    );

    let found = cargo_check(&bot);
    let broken = bot.join("my_bot.rs");
    assert_eq!(
        error_lines(&found, &broken),
        BTreeSet::from(BROKEN_LINES),
        "{found:?}"
    );
}

/// rust-analyzer, given the folder `challenge new` made (as an editor opens it), finds the
/// crate in its `bot/` and reports a broken bot at its lines.
#[test]
fn rust_analyzer_reports_a_broken_bot_in_a_folder_challenge_new_made() {
    let Some(exe) = outside::need(&RUST_ANALYZER) else {
        return;
    };
    let _only = one_copy_at_a_time();
    let dir = TempDir::new("bots-new-ra");
    let made = challenge_in(dir.path(), &["new", "work"]);
    assert!(made.status.success(), "{made:?}");
    let work = dir.path().join("work");
    let broken = work.join("bot").join("my_bot.rs");
    std::fs::write(&broken, BROKEN).unwrap();
    let found = rust_analyzer(&exe, &work);
    let lines: BTreeSet<usize> = found
        .iter()
        .filter(|(file, _)| *file == broken)
        .map(|&(_, line)| line)
        .collect();
    assert_eq!(lines, BTreeSet::from(BROKEN_LINES), "{found:?}");
}

/// `challenge tokens` with no bot named and no `bot/my_bot.rs` here counts nothing (not
/// the kit's starter of that name): it says where it looked and what to do.
#[test]
fn tokens_with_no_bot_in_reach_says_where_it_looked() {
    let dir = TempDir::new("tokens-nothing");
    for args in [&["tokens"][..], &["tokens", "--items"]] {
        let output = challenge_in(dir.path(), args);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(output.stdout.is_empty(), "{args:?} counted something");
        let here = dir.path().canonicalize().unwrap();
        assert!(
            stderr.contains(&format!("there is no bot/my_bot.rs in {}", here.display()))
                && stderr.contains("challenge new ."),
            "{args:?}: {stderr}"
        );
    }
}

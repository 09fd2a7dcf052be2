//! A bot's process holds nothing worth taking, on every path that starts a bot.
//!
//! `tests/bots/scans_memory.rs` reads its own process's memory through a rustc
//! soundness hole, with no `unsafe`, and looks for a marker. Each test here plants
//! that marker where a host keeps its secrets (the runner's environment, as
//! `CHALLENGE_ADMIN_TOKEN` and another variable; its command line; the store's URL),
//! builds the ordinary `decoy.rs` the way the path does, puts the scanner in the
//! cache in the decoy's place (as if it had slipped past the checker), and runs the
//! path again. The scanner reports `marker absent` or `marker FOUND` and then panics,
//! so its report comes back through the path's own fault record.
//!
//! The first test is the control: a process that was given the marker finds it,
//! even though the bots' host empties its environment before the bot exists.

#![cfg(all(
    target_os = "linux",
    any(target_arch = "x86_64", target_arch = "aarch64")
))]

use crate::common;
use crate::secrets_common;

use std::path::PathBuf;
use std::process::{Command, Output};
use std::time::Duration;

use common::{Engine, build, kit_root, scratch_dir, test_bot};
use secrets_common::{
    MARKER, assert_nothing_found, kit_build_dir, marked_env, plant, report, scanner,
};

/// `challenge ARGS` from the kit's root with the marked environment.
fn challenge_marked(args: &[&str]) -> Output {
    Command::new(crate::common::challenge_exe())
        .args(args)
        .envs(marked_env())
        .current_dir(kit_root())
        .output()
        .expect("challenge runs")
}

fn all_output(output: &Output) -> String {
    format!(
        "{}\n{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    )
}

#[test]
fn a_process_given_the_marker_finds_it_though_the_host_empties_its_environment() {
    let env = marked_env();
    let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    let mut engine = Engine::start_with_env(&scanner(), &env);
    engine.send("uci");
    engine.send("ucinewgame");
    engine.send("isready");
    engine.send("position startpos");
    engine.send("go movetime 50");
    engine
        .wait_exit(Duration::from_secs(30))
        .expect("the scanner panics");
    let stderr = engine.stderr();
    let Some((regions, found)) = report(&stderr) else {
        panic!("no report:\n{stderr}");
    };
    assert!(regions >= 8, "{stderr}");
    assert!(
        found,
        "the scanner missed the marker it was given:\n{stderr}"
    );
}

#[test]
fn match_gives_a_bot_nothing_of_the_runners() {
    let decoy = test_bot("decoy");
    let decoy = decoy.to_str().unwrap();
    build(decoy);
    plant(&kit_build_dir(), "decoy");
    let dir = scratch_dir("secrets-match");
    let pgn = dir.join(format!("{MARKER}.pgn"));
    let json = dir.join("summary.json");
    let output = challenge_marked(&[
        "match",
        decoy,
        "evil_bot",
        "--games",
        "2",
        "--st",
        "0.05",
        "--pgn",
        pgn.to_str().unwrap(),
        "--json",
        json.to_str().unwrap(),
    ]);
    let text = format!(
        "{}\n{}",
        all_output(&output),
        std::fs::read_to_string(&json).unwrap_or_default()
    );
    assert_nothing_found("match", &text);
}

/// A challenge directory (its path carries the marker, as an organiser's might) with
/// the decoy and evil_bot entered, and the decoy's engine replaced by the scanner.
/// `name` is the decoy's entry name, its own per test: `plant` replaces engines by
/// name, and a test running meanwhile must not find the scanner in its decoy's place.
fn challenge_with_planted_decoy(test: &str, name: &str) -> PathBuf {
    let dir = scratch_dir(test).join(format!("{MARKER}-challenge"));
    let dir_arg = dir.to_str().unwrap();
    let decoy = test_bot("decoy");
    for (file, entry) in [(decoy.to_str().unwrap(), name), ("bot/evil_bot.rs", "evil")] {
        let output = challenge_marked(&["submit", file, "--name", entry, "--dir", dir_arg]);
        assert!(output.status.success(), "{}", all_output(&output));
    }
    plant(&kit_build_dir(), name);
    dir
}

#[test]
fn run_and_its_stored_games_give_a_bot_nothing_of_the_runners() {
    let dir = challenge_with_planted_decoy("secrets-run", "run_decoy");
    let dir_arg = dir.to_str().unwrap();
    let output = challenge_marked(&["run", "--dir", dir_arg, "--st", "0.05"]);
    let pgn = dir.join("all.pgn");
    let export = challenge_marked(&["export", "--dir", dir_arg, "--pgn", pgn.to_str().unwrap()]);
    assert!(export.status.success(), "{}", all_output(&export));
    // The faulty engine's stderr is the organiser's, in the game's evidence, not in the
    // exported PGN.
    let store = store::SqliteStore::open_read_only(&dir).unwrap();
    let stderr: Vec<String> = store::TournamentStore::games(&store, true)
        .unwrap()
        .into_iter()
        .filter_map(|g| g.evidence)
        .flat_map(|e| e.stderr)
        .collect();
    let text = format!(
        "{}\n{}\n{}",
        all_output(&output),
        std::fs::read_to_string(&pgn).unwrap(),
        stderr.join("\n")
    );
    assert_nothing_found("run", &text);
}

#[test]
fn submits_smoke_test_gives_a_bot_nothing_of_the_runners() {
    let dir = challenge_with_planted_decoy("secrets-submit", "submit_decoy");
    let decoy = test_bot("decoy");
    let output = challenge_marked(&[
        "submit",
        decoy.to_str().unwrap(),
        "--name",
        "submit_decoy",
        "--dir",
        dir.to_str().unwrap(),
    ]);
    assert!(!output.status.success(), "{}", all_output(&output));
    assert_nothing_found("submit", &all_output(&output));
}

/// Builds the decoy as the author's own commands do and plants the scanner over it.
fn planted_local_decoy() -> String {
    let decoy = test_bot("decoy").to_str().unwrap().to_string();
    build(&decoy);
    plant(&kit_build_dir(), "decoy");
    decoy
}

#[test]
fn play_gives_a_bot_nothing_of_the_runners() {
    let decoy = planted_local_decoy();
    let pgn = scratch_dir("secrets-play").join(format!("{MARKER}.pgn"));
    // The human plays Black, so the bot moves (and reports) first; no input ends the
    // game after that.
    let output = Command::new(crate::common::challenge_exe())
        .current_dir(kit_root())
        .args(["play", &decoy, "--color", "black", "--tc", "60+0", "--pgn"])
        .arg(&pgn)
        .envs(marked_env())
        .env("NO_COLOR", "1")
        .stdin(std::process::Stdio::null())
        .output()
        .expect("challenge runs");
    let text = format!(
        "{}\n{}",
        all_output(&output),
        std::fs::read_to_string(&pgn).unwrap_or_default()
    );
    assert_nothing_found("play", &text);
}

#[test]
fn bench_gives_a_bot_nothing_of_the_runners() {
    let decoy = planted_local_decoy();
    let output = challenge_marked(&["bench", &decoy, "--depth", "1"]);
    assert_nothing_found("bench", &all_output(&output));
}

#[test]
fn analyze_gives_its_engine_none_of_the_kits_variables() {
    let dir = scratch_dir("secrets-analyze");
    let games = dir.join("games.pgn");
    std::fs::write(
        &games,
        "[Event \"t\"]\n[White \"a\"]\n[Black \"b\"]\n[Result \"*\"]\n\n1. e4 e5 2. Nf3 *\n",
    )
    .unwrap();
    let output = Command::new(crate::common::challenge_exe())
        .current_dir(kit_root())
        .arg("analyze")
        .arg(&games)
        .arg("--engine")
        .arg(scanner())
        .args(["--depth", "1"])
        .env("CHALLENGE_ADMIN_TOKEN", format!("{MARKER}-token"))
        .env(
            "CHALLENGE_STORE",
            format!("postgres://u:{MARKER}@127.0.0.1/x"),
        )
        .output()
        .expect("challenge runs");
    assert_nothing_found("analyze", &all_output(&output));
}

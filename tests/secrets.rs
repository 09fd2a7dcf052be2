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

mod common;
mod secrets_common;

use std::process::{Command, Output};
use std::time::Duration;

use common::{Engine, build, kit_root, scratch_dir, test_bot};
use secrets_common::{
    MARKER, assert_nothing_found, kit_build_dir, marked_env, plant, report, scanner,
};

/// `challenge ARGS` from the kit's root with the marked environment.
fn challenge_marked(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_challenge"))
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

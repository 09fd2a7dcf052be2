//! A real UCI client, python-chess, drives bot engines through a whole game
//! and through `stop`, `info` and `quit`.

use crate::common;

use std::process::Command;

use common::outside::{self, PYTHON_CHESS};
use common::{build, kit_root, test_bot};

#[test]
fn python_chess_plays_a_whole_game_against_a_bot_engine() {
    let python = outside::require(&PYTHON_CHESS);
    let player = build("evil_bot");
    let stopper = build(test_bot("waits_for_stop"));
    let output = Command::new(&python)
        .arg(kit_root().join("tests/python/uci_game.py"))
        .arg(&player)
        .arg(&stopper)
        .output()
        .expect("python3 runs");
    assert!(
        output.status.success(),
        "stdout:\n{}\nstderr:\n{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(stdout.contains("game over after"), "{stdout}");
    assert!(stdout.contains("stop, info and clock: ok"), "{stdout}");
}

#[test]
fn python_chess_search_limits_reach_the_reference_bot() {
    let python = outside::require(&PYTHON_CHESS);
    let engine = build("turochamp_modern");
    let output = Command::new(&python)
        .arg(kit_root().join("tests/python/uci_limits.py"))
        .arg(&engine)
        .output()
        .expect("python3 runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "stdout:\n{stdout}\nstderr:\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(stdout.contains("depth 2: "), "{stdout}");
    assert!(stdout.contains("search limits: ok"), "{stdout}");
}

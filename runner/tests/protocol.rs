//! `bestmove` only answers a `go`: one sent before any `go`, or a second one for the same
//! `go`, is a protocol violation with its cause named, never the answer to the next `go`.
//! A genuine engine's late answer to a `go` the runner gave up on is not.
#![cfg(unix)]

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use framework::notation::pgn::GameResult;
use runner::{
    Engine, EngineConfig, EngineError, GameSettings, GoParams, Opening, Player, Termination,
    play_game,
};

const SECOND: Duration = Duration::from_secs(5);

/// A shell-script engine: `go` runs `on_go` (with `$n` the number of this `go`, from 1),
/// `ucinewgame` runs `on_new_game`; the rest of the protocol is answered plainly.
fn shell(name: &str, on_go: &str, on_new_game: &str) -> EngineConfig {
    let script = format!(
        "n=0; while read cmd rest; do case $cmd in
            uci) echo uciok;; isready) echo readyok;; quit) exit 0;;
            ucinewgame) {on_new_game};;
            go) n=$((n+1)); {on_go};; esac; done"
    );
    EngineConfig::new(name, "sh").arg("-c").arg(script)
}

fn player(config: EngineConfig) -> Player {
    Player::new(config, "10+0.1".parse().unwrap())
}

fn go() -> GoParams {
    GoParams {
        wtime: Some(10_000),
        btime: Some(10_000),
        ..Default::default()
    }
}

fn protocol_cause(err: EngineError) -> String {
    match err {
        EngineError::Protocol { cause, .. } => cause,
        other => panic!("expected a protocol violation, got {other}"),
    }
}

/// White is `white`; Black answers every `go` with `e7e5` (its only move in these games).
fn game_against(white: EngineConfig) -> runner::GameRecord {
    let black = shell("black", "echo 'bestmove e7e5'", ":");
    let (mut w, mut b) = (None, None);
    play_game(
        [&player(white), &player(black)],
        [&mut w, &mut b],
        &Opening::startpos(),
        &GameSettings::default(),
        &AtomicBool::new(false),
    )
}

#[test]
fn a_bestmove_during_the_handshake_was_sent_before_go() {
    let config = EngineConfig::new("early", "sh").arg("-c").arg(
        "while read cmd rest; do case $cmd in
            uci) echo 'bestmove e2e4'; echo uciok;; isready) echo readyok;; quit) exit 0;;
         esac; done",
    );
    let err = Engine::start(&config, SECOND).unwrap_err();
    assert_eq!(
        err.to_string(),
        "engine `early` broke the protocol: it sent bestmove before go"
    );
}

#[test]
fn a_bestmove_before_the_first_go_ends_the_game_as_a_protocol_violation() {
    // Answering `ucinewgame` with a move: before this, the move was kept and taken
    // for the answer to the first `go`.
    let record = game_against(shell(
        "eager",
        "echo 'bestmove d2d4'",
        "echo 'bestmove e2e4'",
    ));
    assert_eq!(
        record.termination,
        Termination::ProtocolViolation,
        "{}",
        record.detail
    );
    assert_eq!(record.result, GameResult::BlackWins);
    assert_eq!(record.faulty, Some(framework::prelude::Color::White));
    assert_eq!(
        record.detail,
        "White (eager) broke the UCI protocol: it sent bestmove before go"
    );
    assert!(record.moves.is_empty());
}

#[test]
fn a_second_bestmove_for_one_go_ends_the_game_as_a_protocol_violation() {
    // Two answers in one write to the first `go`. Before this, the second was taken for
    // the answer to the next `go` (d2d4, legal), and the game went on out of step.
    let record = game_against(shell(
        "twice",
        "if [ $n = 1 ]; then printf 'bestmove e2e4\\nbestmove d2d4\\n'; else echo 'bestmove g1f3'; fi",
        ":",
    ));
    assert_eq!(
        record.termination,
        Termination::ProtocolViolation,
        "{}",
        record.detail
    );
    assert_eq!(record.result, GameResult::BlackWins);
    assert_eq!(
        record.detail,
        "White (twice) broke the UCI protocol: it sent a second bestmove for one go"
    );
    assert_eq!(record.moves.len(), 2, "1. e4 e5 was played");
}

#[test]
fn a_second_bestmove_is_named_while_waiting_for_readyok_too() {
    let config = shell("twice", "printf 'bestmove e2e4\\nbestmove d2d4\\n'", ":");
    let mut engine = Engine::start(&config, SECOND).unwrap();
    let answer = engine
        .search(Some("position startpos"), &go(), SECOND)
        .unwrap();
    assert_eq!(answer.bestmove, "e2e4");
    let cause = protocol_cause(engine.new_game(SECOND).unwrap_err());
    assert_eq!(cause, "sent a second bestmove for one go");
}

#[test]
fn a_late_answer_to_an_abandoned_go_is_dropped_not_taken_for_the_next() {
    // The first search times out; the engine answers it later, as a genuine engine does.
    // That answer is not a fault, and the next `go` gets its own answer, not the stale one.
    let config = shell(
        "late",
        "if [ $n = 1 ]; then sleep 0.4; fi; echo \"bestmove m$n\"",
        ":",
    );
    let mut engine = Engine::start(&config, SECOND).unwrap();
    let err = engine
        .search(Some("position startpos"), &go(), Duration::from_millis(100))
        .unwrap_err();
    assert!(matches!(err, EngineError::Timeout { .. }), "{err}");
    std::thread::sleep(Duration::from_millis(600));
    let answer = engine
        .search(Some("position startpos"), &go(), SECOND)
        .unwrap();
    assert_eq!(answer.bestmove, "m2");
    // A third `bestmove` for either `go` would be a fault; a clean engine keeps working.
    engine.new_game(SECOND).unwrap();
    let answer = engine
        .search(Some("position startpos"), &go(), SECOND)
        .unwrap();
    assert_eq!(answer.bestmove, "m3");
}

#[test]
fn a_late_answer_arriving_during_isready_is_dropped() {
    let config = shell(
        "late",
        "if [ $n = 1 ]; then sleep 0.3; fi; echo \"bestmove m$n\"",
        ":",
    );
    let mut engine = Engine::start(&config, SECOND).unwrap();
    assert!(
        engine
            .search(Some("position startpos"), &go(), Duration::from_millis(100))
            .is_err()
    );
    // The shell reads `ucinewgame` only after its sleep: the late `bestmove m1` comes
    // before `readyok`.
    engine.new_game(SECOND).unwrap();
    let answer = engine
        .search(Some("position startpos"), &go(), SECOND)
        .unwrap();
    assert_eq!(answer.bestmove, "m2");
}

//! Games between engine processes: normal endings and every kind of fault.

mod common;

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use common::{faulty, instant, instant_engine};
use framework::chess::Board;
use framework::notation::pgn::GameResult;
use runner::{
    AdjudicationRules, Engine, GameSettings, Opening, Player, Termination, TimeControl, play_game,
};

fn tc() -> TimeControl {
    "10+0.1".parse().unwrap()
}

fn play(white: &Player, black: &Player, opening: &Opening) -> runner::GameRecord {
    let (mut w, mut b) = (None::<Engine>, None::<Engine>);
    play_game(
        [white, black],
        [&mut w, &mut b],
        opening,
        &GameSettings::default(),
        &AtomicBool::new(false),
    )
}

#[test]
fn instant_engines_play_a_legal_game_to_a_rules_ending() {
    let a = instant("a", tc());
    let b = instant("b", tc());
    let record = play(&a, &b, &Opening::startpos());
    assert_ne!(record.result, GameResult::Unknown);
    assert!(record.faulty.is_none(), "{}", record.detail);
    let mut board = Board::startpos();
    for m in &record.moves {
        assert!(board.is_legal(m.mv));
        board.make_move(m.mv);
    }
    assert!(board.outcome().is_some());
    assert!(matches!(
        record.termination,
        Termination::Checkmate
            | Termination::Stalemate
            | Termination::Repetition
            | Termination::FiftyMoves
            | Termination::InsufficientMaterial
    ));
}

fn fault_game(fault: &str, at: u32, faulty_white: bool) -> runner::GameRecord {
    let bad = Player::new(faulty("bad", fault, at), tc());
    let good = instant("good", tc());
    let settings = GameSettings {
        margin: Duration::from_millis(200),
        ..GameSettings::default()
    };
    let (mut w, mut b) = (None::<Engine>, None::<Engine>);
    let players = if faulty_white {
        [&bad, &good]
    } else {
        [&good, &bad]
    };
    let record = play_game(
        players,
        [&mut w, &mut b],
        &Opening::startpos(),
        &settings,
        &AtomicBool::new(false),
    );
    let bad_slot = if faulty_white { &mut w } else { &mut b };
    let restart = matches!(fault, "crash" | "memlimit" | "signal" | "stall" | "nostart");
    assert_eq!(
        bad_slot.is_none(),
        restart,
        "{fault}: the faulty engine is replaced only when it died or hung"
    );
    record
}

#[test]
fn every_fault_loses_the_game_for_the_faulty_side_with_its_cause() {
    for (fault, termination) in [
        ("crash", Termination::Crash),
        ("memlimit", Termination::MemoryLimit),
        ("signal", Termination::Crash),
        ("illegal", Termination::IllegalMove),
        ("garbage", Termination::UnparsableMove),
        ("null", Termination::NullMove),
        ("nostart", Termination::FailedStart),
    ] {
        for faulty_white in [true, false] {
            let record = fault_game(fault, 3, faulty_white);
            assert_eq!(
                record.termination, termination,
                "{fault}: {}",
                record.detail
            );
            let expected = if faulty_white {
                GameResult::BlackWins
            } else {
                GameResult::WhiteWins
            };
            assert_eq!(record.result, expected, "{fault}: {}", record.detail);
            assert!(
                record.detail.contains("bad"),
                "{fault}: the detail names the engine: {}",
                record.detail
            );
            if fault != "nostart" {
                assert_eq!(
                    record.moves.len(),
                    if faulty_white { 4 } else { 5 },
                    "{fault} at its third move"
                );
            }
        }
    }
}

/// `bestmove 0000` is what it is, no move, not an illegal one: the host of a kit bot whose
/// `think` returned `Move::NULL` answers so.
#[test]
fn a_null_move_is_named_as_no_move() {
    let record = fault_game("null", 2, false);
    assert_eq!(record.termination.to_string(), "null move");
    assert!(
        record.detail.starts_with(
            "Black (bad) played no move (`bestmove 0000`, what a kit bot answers when its \
             `think` returns `Move::NULL`) although it has legal moves in "
        ),
        "{}",
        record.detail
    );
}

#[test]
fn crash_reports_keep_the_engines_last_stderr_lines() {
    let record = fault_game("crash", 1, true);
    assert!(
        record
            .stderr
            .iter()
            .any(|l| l.contains("bot error: panicked")),
        "{:?}",
        record.stderr
    );
    assert!(record.detail.contains("exit code 101"), "{}", record.detail);
    let record = fault_game("signal", 1, false);
    assert!(record.detail.contains("signal 6"), "{}", record.detail);
    let record = fault_game("memlimit", 1, false);
    assert!(
        record.detail.contains("the 256 MiB memory limit"),
        "{}",
        record.detail
    );
}

#[test]
fn an_engine_over_its_own_allowance_is_told_that_allowance() {
    let bad = Player::new(faulty("bad", "memlimit", 1).memory_limit(1 << 30), tc());
    let good = instant("good", tc());
    let (mut w, mut b) = (None::<Engine>, None::<Engine>);
    let record = play_game(
        [&good, &bad],
        [&mut w, &mut b],
        &Opening::startpos(),
        &GameSettings::default(),
        &AtomicBool::new(false),
    );
    assert_eq!(record.termination, Termination::MemoryLimit);
    assert!(
        record.detail.contains("the 1 GiB memory limit"),
        "{}",
        record.detail
    );
}

#[test]
fn an_engine_that_dies_during_the_handshake_keeps_its_last_words() {
    let record = fault_game("nostart", 1, true);
    assert_eq!(record.termination, Termination::FailedStart);
    assert_eq!(
        record.stderr,
        ["bot error: refusing to start"],
        "{}",
        record.detail
    );
}

#[test]
fn a_nonexistent_command_is_a_failed_start() {
    let ghost = Player::new(
        runner::EngineConfig::new("ghost", "/nonexistent/engine"),
        tc(),
    );
    let good = instant("good", tc());
    let record = play(&good, &ghost, &Opening::startpos());
    assert_eq!(record.termination, Termination::FailedStart);
    assert_eq!(record.result, GameResult::WhiteWins);
    // The record is public: it names the engine and its file, not the host's folders.
    assert!(
        record.detail.contains("ghost") && record.detail.contains("cannot start `…/engine`"),
        "{}",
        record.detail
    );
    assert!(!record.detail.contains("/nonexistent"), "{}", record.detail);
}

#[test]
fn a_stalled_engine_loses_on_time_and_is_replaced() {
    let bad = Player::new(faulty("bad", "stall", 2), "0.3+0".parse().unwrap());
    let good = instant("good", tc());
    let settings = GameSettings {
        margin: Duration::from_millis(50),
        ..GameSettings::default()
    };
    let (mut w, mut b) = (None::<Engine>, None::<Engine>);
    let record = play_game(
        [&bad, &good],
        [&mut w, &mut b],
        &Opening::startpos(),
        &settings,
        &AtomicBool::new(false),
    );
    assert_eq!(record.termination, Termination::Stall, "{}", record.detail);
    assert_eq!(record.result, GameResult::BlackWins);
    assert!(w.is_none() && b.is_some());
}

#[test]
fn a_flag_fall_against_a_lone_king_is_a_draw() {
    // Black has only its king: White's stall cannot lose, Black cannot mate.
    let opening = Opening::from_fen("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1").unwrap();
    let bad = Player::new(faulty("bad", "stall", 1), "0.2+0".parse().unwrap());
    let good = instant("good", tc());
    let settings = GameSettings {
        margin: Duration::from_millis(50),
        ..GameSettings::default()
    };
    let (mut w, mut b) = (None::<Engine>, None::<Engine>);
    let record = play_game(
        [&bad, &good],
        [&mut w, &mut b],
        &opening,
        &settings,
        &AtomicBool::new(false),
    );
    assert_eq!(record.termination, Termination::Stall);
    assert_eq!(record.result, GameResult::Draw, "{}", record.detail);
    assert!(record.detail.contains("cannot possibly mate"));
}

#[test]
fn max_length_adjudication_draws_long_games() {
    let a = instant("a", TimeControl::nodes(1));
    let b = instant("b", TimeControl::nodes(1));
    let settings = GameSettings {
        adjudication: AdjudicationRules {
            max_plies: Some(6),
            ..AdjudicationRules::default()
        },
        ..GameSettings::default()
    };
    let (mut w, mut bb) = (None::<Engine>, None::<Engine>);
    let record = play_game(
        [&a, &b],
        [&mut w, &mut bb],
        &Opening::startpos(),
        &settings,
        &AtomicBool::new(false),
    );
    assert_eq!(record.termination, Termination::MaxLength);
    assert_eq!(record.moves.len(), 6);
    assert_eq!(record.result, GameResult::Draw);
}

#[test]
fn the_engine_client_reads_id_options_and_search_info() {
    let mut engine = Engine::start(&faulty("f", "none", 1), Duration::from_secs(10)).unwrap();
    assert_eq!(engine.id_name(), Some("faulty-none"));
    engine.new_game(Duration::from_secs(10)).unwrap();
    engine.send("position startpos moves e2e4");
    let r = engine
        .go(
            &runner::GoParams {
                nodes: Some(1),
                ..Default::default()
            },
            Duration::from_secs(10),
        )
        .unwrap();
    assert_eq!(r.bestmove, "a7a5");
    assert_eq!(r.info.depth, Some(1));
    assert_eq!(r.info.pv, ["a7a5"]);
    assert_eq!(
        engine.quit(Duration::from_secs(2)),
        runner::ExitInfo::Code(0)
    );
    let _ = instant_engine();
}

#[test]
fn a_stop_request_abandons_a_long_think_without_a_result() {
    let thinker = Player::new(faulty("thinker", "stall", 1), "60+0".parse().unwrap());
    let good = instant("good", tc());
    let stop = AtomicBool::new(false);
    // Started beforehand, so the stop request lands while White is thinking.
    let start = |p: &Player| Some(Engine::start(&p.engine, Duration::from_secs(10)).unwrap());
    let (mut w, mut b) = (start(&thinker), start(&good));
    let record = std::thread::scope(|scope| {
        scope.spawn(|| {
            std::thread::sleep(Duration::from_millis(1000));
            stop.store(true, std::sync::atomic::Ordering::Relaxed);
        });
        play_game(
            [&thinker, &good],
            [&mut w, &mut b],
            &Opening::startpos(),
            &GameSettings::default(),
            &stop,
        )
    });
    assert_eq!(
        record.termination,
        Termination::Interrupted,
        "{}",
        record.detail
    );
    assert_eq!(record.result, GameResult::Unknown);
    assert!(w.is_none(), "an engine that ignored `stop` is not reused");
    assert!(b.is_some());
}

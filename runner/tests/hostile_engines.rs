//! Engines that attack the runner: overlong and endless lines, stderr floods, control
//! characters in everything they say, slow or reported bot construction. Each game ends
//! with the cause named, and nothing the engine said reaches the record unbounded or
//! with a line break in it.

// Tests read as scripts of one scenario each; length is not a smell here.
#![allow(clippy::too_many_lines)]

mod common;

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use common::{faulty, instant};
use framework::notation::pgn::{GameResult, read_games};
use framework::notation::write_game;
use runner::is_one_line;
use runner::{
    Engine, GameRecord, GameSettings, Opening, Player, STDERR_TAIL_BYTES, STDERR_TAIL_LINES,
    Termination, play_game,
};

fn game_with(fault: &str, at: u32, settings: &GameSettings) -> (GameRecord, Option<Engine>) {
    let bad = Player::new(faulty("bad", fault, at), "10+0.1".parse().unwrap());
    let good = instant("good", "10+0.1".parse().unwrap());
    let (mut w, mut b) = (None::<Engine>, None::<Engine>);
    let record = play_game(
        [&bad, &good],
        [&mut w, &mut b],
        &Opening::startpos(),
        settings,
        &AtomicBool::new(false),
    );
    (record, w)
}

fn game(fault: &str, at: u32) -> GameRecord {
    game_with(fault, at, &GameSettings::default()).0
}

/// Everything engine-provided in the record is one printable line, and the PGN is small.
fn assert_contained(record: &GameRecord) {
    assert!(is_one_line(&record.detail), "{:?}", record.detail);
    assert!(record.detail.chars().count() <= runner::MAX_DETAIL_CHARS);
    for line in &record.stderr {
        assert!(is_one_line(line), "{line:?}");
    }
    assert!(record.stderr.len() <= STDERR_TAIL_LINES);
    let stderr_bytes: usize = record.stderr.iter().map(String::len).sum();
    assert!(stderr_bytes <= STDERR_TAIL_BYTES, "{stderr_bytes}");
    let pgn = write_game(&record.to_pgn());
    assert!(pgn.len() < 16 * 1024, "a {} byte PGN", pgn.len());
    assert!(!pgn.contains('\u{1b}') && !pgn.contains('\0') && !pgn.contains('\u{202e}'));
}

#[test]
fn a_line_longer_than_the_limit_is_a_protocol_violation() {
    let record = game("longline", 2);
    assert_eq!(record.termination, Termination::ProtocolViolation);
    assert_eq!(record.result, GameResult::BlackWins);
    assert!(
        record.detail.contains("longer than 64 KiB") && record.detail.contains("bad"),
        "{}",
        record.detail
    );
    assert_eq!(record.moves.len(), 2, "the first move was played normally");
    assert_contained(&record);
}

#[test]
fn endless_output_without_a_newline_ends_the_game_instead_of_filling_memory() {
    let started = Instant::now();
    let (record, slot) = game_with("endless", 1, &GameSettings::default());
    assert_eq!(
        record.termination,
        Termination::ProtocolViolation,
        "{}",
        record.detail
    );
    assert!(slot.is_none(), "the engine is killed, not kept");
    assert!(started.elapsed() < Duration::from_secs(10));
    assert_contained(&record);
}

#[test]
fn a_stderr_flood_without_newlines_keeps_only_a_bounded_tail() {
    let record = game("stderrflood", 1);
    assert_eq!(record.termination, Termination::Crash, "{}", record.detail);
    assert_contained(&record);
    assert_eq!(
        record.stderr.last().map(String::as_str),
        Some("the last words")
    );
    // The 20 MB line was cut to a short one, not dropped: it shows what happened.
    assert!(record.stderr.iter().any(|l| l.starts_with("eeee")));
}

#[test]
fn stderr_with_escapes_and_forged_pgn_is_made_harmless() {
    let record = game("stderrjunk", 1);
    assert_eq!(record.termination, Termination::Crash);
    assert_contained(&record);
    assert_eq!(record.stderr.len(), STDERR_TAIL_LINES);
    assert!(record.stderr.last().unwrap().starts_with("junk 99 "));
    let pgn = write_game(&record.to_pgn());
    // The forged tag stays inside the comment: the PGN reads back as the one real game.
    let read = read_games(&pgn);
    assert!(read.errors.is_empty(), "{:?}\n{pgn}", read.errors);
    assert_eq!(read.games.len(), 1);
    assert_eq!(read.games[0].result, GameResult::BlackWins);
    assert_eq!(read.games[0].tag("Termination"), Some("abandoned"));
    assert_eq!(read.games[0].tag("TerminationDetails"), Some("crash"));
    assert_eq!(
        Termination::from_pgn(&read.games[0]),
        Some(Termination::Crash)
    );
}

/// The places an engine can name about its host, as `faulty.py leakpaths` prints them.
fn host_strings() -> Vec<String> {
    let script = std::fs::canonicalize(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/engines"),
    )
    .unwrap();
    let mut found = vec![
        script.display().to_string(),
        std::env::current_dir().unwrap().display().to_string(),
    ];
    found.extend(std::env::var("HOME").ok());
    if let Ok(host) = std::fs::read_to_string("/proc/sys/kernel/hostname") {
        found.push(host.trim().to_owned());
    }
    found
}

#[test]
fn an_engine_that_prints_where_it_runs_leaves_no_host_detail_in_the_record() {
    let record = game("leakpaths", 1);
    assert_eq!(record.termination, Termination::Crash, "{}", record.detail);
    assert_contained(&record);
    let pgn = write_game(&record.to_pgn());
    for host in host_strings() {
        assert!(!pgn.contains(&host), "{host:?} in the stored game:\n{pgn}");
        for line in &record.stderr {
            assert!(!line.contains(&host), "{host:?} in {line:?}");
        }
    }
    // What the author wrote stays, and so does the file and line a panic names.
    assert_eq!(
        record.stderr.first().map(String::as_str),
        Some("thread 'main' panicked at …/faulty.py:12:5:")
    );
    assert!(record.stderr.iter().any(|l| l == "the author's own words"));
    assert!(
        record
            .stderr
            .iter()
            .any(|l| l.starts_with("cwd <cwd> home ~ host "))
    );
    // The runtime's advice is not the author's.
    assert!(!pgn.contains("RUST_BACKTRACE"), "{pgn}");
}

#[test]
fn a_garbage_bestmove_is_quoted_short_and_printable() {
    let record = game("junkmove", 1);
    assert_eq!(record.termination, Termination::UnparsableMove);
    assert_contained(&record);
    assert!(record.detail.len() < 300, "{}", record.detail);
}

#[test]
fn an_engine_name_is_one_printable_line() {
    let engine = Engine::start(&faulty("n", "badname", 1), Duration::from_secs(10)).unwrap();
    let name = engine.id_name().unwrap().to_string();
    assert!(is_one_line(&name), "{name:?}");
    assert!(name.contains("faulty"), "{name:?}");
    assert!(!name.contains('\u{202e}') && !name.contains('\u{1b}'));
    engine.quit(Duration::from_secs(2));
}

#[test]
fn absurd_numbers_in_info_lines_do_not_break_the_game() {
    let record = game("hugescore", 1);
    assert!(record.faulty.is_none(), "{}", record.detail);
    assert_ne!(record.result, GameResult::Unknown);
}

#[test]
fn a_slow_construction_forfeits_the_game_with_the_limit_named() {
    let settings = GameSettings {
        construction_limit: Some(Duration::from_millis(300)),
        ..GameSettings::default()
    };
    // The second `isready` is the one after `ucinewgame`, where a bot is built for the game.
    let (record, slot) = game_with("slowready", 2, &settings);
    assert_eq!(record.termination, Termination::ConstructionLimit);
    assert_eq!(record.result, GameResult::BlackWins);
    assert!(record.moves.is_empty());
    assert!(
        record.detail.contains("construction limit of 0.3s") && record.detail.contains("bad"),
        "{}",
        record.detail
    );
    assert!(slot.is_some(), "a slow but working engine is kept");
    // At start-up (the first `isready`) too.
    let (record, _) = game_with("slowready", 1, &settings);
    assert_eq!(record.termination, Termination::ConstructionLimit);
    // Also when the construction outlasts the wait for that first `readyok`: the host
    // builds the bot before it answers, so that is no failure to start.
    let impatient = GameSettings {
        handshake_timeout: Duration::from_millis(400),
        ..settings
    };
    let (record, _) = game_with("slowready", 1, &impatient);
    assert_eq!(
        record.termination,
        Termination::ConstructionLimit,
        "{}",
        record.detail
    );
    assert!(
        record.detail.contains("did not send `readyok` within 0.4")
            && record
                .detail
                .contains("past the construction limit of 0.3s"),
        "{}",
        record.detail
    );
    // Without a limit the same engine plays.
    let relaxed = GameSettings {
        construction_limit: None,
        ..GameSettings::default()
    };
    let (record, _) = game_with("slowready", 2, &relaxed);
    assert!(record.faulty.is_none(), "{}", record.detail);
}

#[test]
fn a_breach_reported_by_the_host_forfeits_the_game() {
    let (record, _) = game_with("breach", 2, &GameSettings::default());
    assert_eq!(record.termination, Termination::ConstructionLimit);
    assert!(
        record.detail.contains("took 6001 ms"),
        "the host's report is quoted: {}",
        record.detail
    );
    assert_contained(&record);
}

//! A challenge directory made before the schema was versioned (tests/fixtures/challenge_v0)
//! opens with today's code, is migrated forward, and keeps every game.

use std::path::{Path, PathBuf};

use framework::chess::Color;
use framework::notation::pgn::GameResult;
use kit::challenge::standings::{RatingChoice, store_table};
use runner::Termination;
use serde_json::Value;
use store::{SCHEMA_VERSION, SlotState, SqliteStore, Store, TournamentId};

const FIXTURE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/challenge_v0");

fn copy_fixture(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("kit-migration-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::copy(
        Path::new(FIXTURE).join("challenge.db"),
        dir.join("challenge.db"),
    )
    .unwrap();
    dir
}

/// The fixture's games as its own (old) code stored them.
const GAMES: [(GameResult, Termination, Option<Color>); 6] = [
    (GameResult::WhiteWins, Termination::Checkmate, None),
    (GameResult::Draw, Termination::Repetition, None),
    (GameResult::BlackWins, Termination::Checkmate, None),
    (
        GameResult::WhiteWins,
        Termination::TimeForfeit,
        Some(Color::Black),
    ),
    (
        GameResult::BlackWins,
        Termination::TimeForfeit,
        Some(Color::White),
    ),
    (
        GameResult::BlackWins,
        Termination::TimeForfeit,
        Some(Color::White),
    ),
];

#[test]
fn a_pre_versioning_challenge_opens_migrated_with_every_game() {
    let dir = copy_fixture("rw");
    let store = SqliteStore::open(&dir).unwrap();
    assert_eq!(store.schema_version().unwrap(), SCHEMA_VERSION);
    let games = store.games(true).unwrap();
    assert_eq!(games.len(), GAMES.len());
    for (game, (result, termination, faulty)) in games.iter().zip(GAMES) {
        assert_eq!(
            (game.result, game.termination, game.faulty),
            (result, termination, faulty)
        );
        assert!(
            game.pgn
                .contains(&format!("[Result \"{}\"]", result.as_str()))
        );
    }
    assert_eq!(store.versions().unwrap().len(), 3);
    assert_eq!(store.tournament_count().unwrap(), 1);
    assert!(store.unfinished_tournament().unwrap().is_none());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_standings_are_those_the_old_code_printed() {
    let dir = copy_fixture("standings");
    let store = SqliteStore::open(&dir).unwrap();
    let table = store_table(&store, &RatingChoice::default()).unwrap();
    let old: Value = serde_json::from_str(
        &std::fs::read_to_string(Path::new(FIXTURE).join("standings.json")).unwrap(),
    )
    .unwrap();
    let old_rows = old["rows"].as_array().unwrap();
    assert_eq!(table.rows.len(), old_rows.len());
    assert_eq!(table.games, 6);
    for old_row in old_rows {
        let row = table
            .rows
            .iter()
            .find(|r| r.player.name == old_row["name"].as_str().unwrap())
            .unwrap();
        for (field, value) in [
            ("games", row.games as f64),
            ("points", row.points),
            ("wins", row.wins as f64),
            ("draws", row.draws as f64),
            ("losses", row.losses as f64),
            ("timeouts", row.timeouts as f64),
            ("crashes", row.crashes as f64),
            ("illegal", row.illegal as f64),
        ] {
            assert_eq!(
                old_row[field].as_f64().unwrap(),
                value,
                "{} {field}",
                row.player.name
            );
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_old_schedule_reads_back_typed() {
    let dir = copy_fixture("tournament");
    let mut store = SqliteStore::open(&dir).unwrap();
    // The fixture's only tournament is finished; the slots still read back typed.
    let slots = store.slots(TournamentId(1)).unwrap();
    assert_eq!(slots.len(), 6);
    assert!(
        slots
            .iter()
            .all(|s| matches!(s.state, SlotState::Played(_)))
    );
    assert!(store.claim(TournamentId(1), "t", 10).unwrap().is_empty());
    drop(store);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_read_only_copy_is_read_without_being_changed() {
    let dir = copy_fixture("ro");
    let before = std::fs::read(dir.join("challenge.db")).unwrap();
    let store = SqliteStore::open_read_only(&dir).unwrap();
    assert_eq!(store.games(false).unwrap().len(), 6);
    assert_eq!(store.schema_version().unwrap(), 0);
    drop(store);
    assert_eq!(std::fs::read(dir.join("challenge.db")).unwrap(), before);
    let _ = std::fs::remove_dir_all(&dir);
}

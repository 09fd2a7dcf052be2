//! Stores made by older kits, upgraded by today's code without losing anything:
//!
//! - a challenge directory made before the schema was versioned
//!   (tests/fixtures/challenge_v0), with its games and standings;
//! - a database at each old schema version of both engines, made from the old DDL frozen
//!   in tests/fixtures/legacy_schemas (PostgreSQL counted its own steps then): reading it
//!   is refused, naming `challenge upgrade`, and changes nothing; upgrading keeps every
//!   row, gives exactly the schema of a new store, and the store plays on.

use crate::postgres_server;

use std::path::{Path, PathBuf};

use framework::chess::Color;
use framework::notation::pgn::GameResult;
use results::{RatingChoice, store_table};
use runner::Termination;
use serde_json::Value;
use store::prelude::*;
use store::{
    GameId, JobState, NewGame, PostgresStore, SCHEMA_VERSION, SlotState, SqliteStore, StoreError,
    TournamentId,
};

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
    let table = store_table(&store, &RatingChoice::default(), None).unwrap();
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
fn reading_an_old_copy_is_refused_without_changing_it_until_it_is_upgraded() {
    let dir = copy_fixture("ro");
    let before = std::fs::read(dir.join("challenge.db")).unwrap();
    let err = SqliteStore::open_read_only(&dir).err().unwrap();
    assert!(
        matches!(err, StoreError::OlderSchema { found: 0, .. }),
        "{err:?}"
    );
    assert!(err.to_string().contains("challenge upgrade --dir"), "{err}");
    assert_eq!(std::fs::read(dir.join("challenge.db")).unwrap(), before);
    let upgraded = store::upgrade_store(&store::StoreLocation::Dir(dir.clone())).unwrap();
    assert_eq!((upgraded.from, upgraded.to), (0, SCHEMA_VERSION));
    let store = SqliteStore::open_read_only(&dir).unwrap();
    assert_eq!(store.games(false).unwrap().len(), 6);
    drop(store);
    let _ = std::fs::remove_dir_all(&dir);
}

/// The frozen DDL of an old step.
fn legacy_step(engine: &str, step: u32) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/legacy_schemas")
        .join(format!("{engine}_step{step}.sql"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Rows an old kit at `version` (of its engine's old numbering) could hold, in SQL both
/// engines read: two entries, a round-robin with one of its two games played, and from
/// the versions that had them, the server's state (3) and a worker (PostgreSQL's 2).
fn legacy_rows(version: u32, postgres: bool) -> String {
    let mut sql = String::from(
        "INSERT INTO entries (name, author) VALUES ('alpha', 'ann'), ('beta', NULL);
         INSERT INTO versions (entry_id, number, hash, source, file_name, tokens, debug_tokens)
             VALUES (1, 1, 'h1', 'source a', 'a.rs', 10, 0), (2, 1, 'h2', 'source b', 'b.rs', 12, 1);
         INSERT INTO tournaments (format, pairs, rounds, time_control, openings)
             VALUES ('round-robin', 1, 1, '10+0.1', '[]');
         INSERT INTO participants (tournament_id, entry_id, seed) VALUES (1, 1, 0), (1, 2, 1);
         INSERT INTO slots (tournament_id, round, pair, game_in_pair, white_entry, black_entry, opening)
             VALUES (1, 0, 0, 0, 1, 2, 0), (1, 0, 0, 1, 2, 1, 0);
         INSERT INTO games (tournament_id, slot_id, white_version, black_version, result,
                            termination, faulty, detail, plies, pgn)
             VALUES (1, 1, 1, 2, '1-0', 'checkmate', NULL, 'mate', 31, '[Result \"1-0\"] 1-0');
         UPDATE slots SET game_id = 1 WHERE id = 1;",
    );
    if version >= 3 {
        sql.push_str(
            "INSERT INTO server_settings (name, value) VALUES ('tournament_paused', '1');
             INSERT INTO entry_keys (entry_id, key_hash) VALUES (1, 'k1');
             INSERT INTO jobs (id, entry, state, message) VALUES ('j1', 'alpha', 'accepted', 'stored');",
        );
    }
    if postgres && version >= 2 {
        sql.push_str(
            "INSERT INTO workers (name, host, cores, threads, lease_seconds, kit_version)
                 VALUES ('w1', 'box', 2, 1, 60, '0.0.9');
             UPDATE games SET worker = 'w1';",
        );
    }
    sql
}

/// Everything the old rows said reads back, and the store plays its pending game.
fn check_upgraded(store: &mut dyn Store, version: u32) {
    let names: Vec<_> = store
        .versions()
        .unwrap()
        .into_iter()
        .map(|v| v.name)
        .collect();
    assert_eq!(names, ["alpha", "beta"]);
    let games = store.games(true).unwrap();
    assert_eq!(games.len(), 1);
    assert_eq!(
        (games[0].result, games[0].termination, games[0].pgn.as_str()),
        (
            GameResult::WhiteWins,
            Termination::Checkmate,
            "[Result \"1-0\"] 1-0"
        )
    );
    let t = store
        .unfinished_tournament()
        .unwrap()
        .expect("the old tournament");
    // Its rules are the defaults; it was played before claims needed evidence.
    assert_eq!(t.rules, store::StoredRules::before_stored());
    let states: Vec<_> = store.slots(t.id).unwrap().iter().map(|s| s.state).collect();
    assert_eq!(states, [SlotState::Played(GameId(1)), SlotState::Pending]);
    if version >= 3 {
        assert!(store.server_state().unwrap().tournament_paused);
        assert_eq!(
            store.entry_key_hash("alpha").unwrap().as_deref(),
            Some("k1")
        );
        assert_eq!(store.job("j1").unwrap().unwrap().state, JobState::Accepted);
    }
    let claim = store.claim(t.id, "new", 5).unwrap();
    assert_eq!(claim.len(), 1, "the pending game is handed out");
    let game = NewGame {
        evidence: None,
        white: store::VersionId(2),
        black: store::VersionId(1),
        result: GameResult::Draw,
        termination: Termination::Repetition,
        faulty: None,
        detail: "threefold repetition".into(),
        plies: 12,
        pgn: "1/2-1/2".into(),
    };
    store.record(&claim[0], &game).unwrap();
    assert_eq!(store.games(false).unwrap().len(), 2);
}

/// A SQLite database's schema: each table's columns (name, type, not null, default,
/// key) and the indexes.
fn sqlite_schema(path: &Path) -> Vec<String> {
    let db = rusqlite::Connection::open(path).unwrap();
    let mut lines: Vec<String> = db
        .prepare(
            "SELECT m.name || '.' || c.name || ' ' || c.type || ' ' || c.\"notnull\" || ' '
                    || COALESCE(c.dflt_value, '-') || ' ' || c.pk
             FROM sqlite_master m JOIN pragma_table_info(m.name) c
             WHERE m.type = 'table'
             UNION ALL SELECT 'index ' || name FROM sqlite_master WHERE type = 'index'
             ORDER BY 1",
        )
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .collect::<rusqlite::Result<_>>()
        .unwrap();
    lines.push(format!(
        "user_version {}",
        db.pragma_query_value(None, "user_version", |r| r.get::<_, u32>(0))
            .unwrap()
    ));
    lines
}

#[test]
fn each_old_sqlite_version_upgrades_to_the_schema_of_a_new_directory() {
    let fresh = std::env::temp_dir().join(format!("kit-migration-fresh-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&fresh);
    drop(SqliteStore::create(&fresh).unwrap());
    let new_schema = sqlite_schema(&fresh.join("challenge.db"));
    for version in 1..=3 {
        let dir = std::env::temp_dir().join(format!(
            "kit-migration-sqlite{version}-{}",
            std::process::id()
        ));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let db = rusqlite::Connection::open(dir.join("challenge.db")).unwrap();
        for step in 1..=version {
            db.execute_batch(&legacy_step("sqlite", step)).unwrap();
        }
        db.execute_batch(&legacy_rows(version, false)).unwrap();
        db.pragma_update(None, "user_version", version).unwrap();
        drop(db);

        let before = std::fs::read(dir.join("challenge.db")).unwrap();
        let err = SqliteStore::open_read_only(&dir).err().unwrap();
        assert!(
            matches!(err, StoreError::OlderSchema { found, .. } if found == version),
            "{err:?}"
        );
        assert_eq!(std::fs::read(dir.join("challenge.db")).unwrap(), before);

        let mut store = SqliteStore::open(&dir).unwrap();
        assert_eq!(store.schema_version().unwrap(), SCHEMA_VERSION);
        assert_eq!(
            sqlite_schema(&dir.join("challenge.db")),
            new_schema,
            "version {version}"
        );
        check_upgraded(&mut store, version);
        drop(store);
        let _ = std::fs::remove_dir_all(&dir);
    }
    let _ = std::fs::remove_dir_all(&fresh);
}

/// A PostgreSQL database's schema: columns, constraints, indexes, sequences.
fn pg_schema(db: &mut postgres::Client) -> Vec<String> {
    let mut lines = Vec::new();
    for sql in [
        "SELECT table_name || '.' || column_name || ' ' || data_type || ' ' || is_nullable
                || ' ' || COALESCE(column_default, '-')
         FROM information_schema.columns WHERE table_schema = 'public'",
        "SELECT conrelid::regclass::text || ' ' || conname || ' ' || pg_get_constraintdef(oid)
         FROM pg_constraint WHERE connamespace = 'public'::regnamespace",
        "SELECT indexdef FROM pg_indexes WHERE schemaname = 'public'",
        "SELECT 'sequence ' || sequencename FROM pg_sequences WHERE schemaname = 'public'",
    ] {
        let mut part: Vec<String> = db
            .query(sql, &[])
            .unwrap()
            .iter()
            .map(|r| r.get(0))
            .collect();
        part.sort();
        lines.extend(part);
    }
    lines
}

/// The schema with every table's row count and the version row: all an open could change.
fn pg_snapshot(db: &mut postgres::Client) -> Vec<String> {
    let mut lines = pg_schema(db);
    let tables: Vec<String> = db
        .query(
            "SELECT tablename::text FROM pg_tables WHERE schemaname = 'public' ORDER BY 1",
            &[],
        )
        .unwrap()
        .iter()
        .map(|r| r.get(0))
        .collect();
    for table in tables {
        let n: i64 = db
            .query_one(&format!("SELECT COUNT(*) FROM {table}"), &[])
            .unwrap()
            .get(0);
        lines.push(format!("{table}: {n} rows"));
    }
    let version: i64 = db
        .query_one("SELECT version FROM schema_version", &[])
        .unwrap()
        .get(0);
    lines.push(format!("schema_version {version}"));
    lines
}

#[test]
fn each_old_postgres_version_upgrades_to_the_schema_of_a_new_store() {
    let Some(server) = postgres_server::PgServer::start("legacy") else {
        return;
    };
    let fresh = server.database("fresh");
    drop(PostgresStore::create(&fresh).unwrap());
    let connect = |url: &str| postgres::Client::connect(url, postgres::NoTls).unwrap();
    let new_schema = pg_schema(&mut connect(&fresh));
    for version in 1..=3 {
        let url = server.database(&format!("legacy{version}"));
        let mut db = connect(&url);
        for step in 1..=version {
            db.batch_execute(&legacy_step("postgres", step)).unwrap();
        }
        // What old kits kept: their own step count, in a table without `shared`.
        db.batch_execute(&format!(
            "CREATE TABLE schema_version (version BIGINT NOT NULL);
             INSERT INTO schema_version (version) VALUES ({version});"
        ))
        .unwrap();
        db.batch_execute(&legacy_rows(version, true)).unwrap();
        let before = pg_snapshot(&mut db);

        // Reading needs every step of this kit. Old 1 and 2 count as the shared version
        // 2 (both lack the server's tables, step 3); old 3 had steps 1 to 4, under other
        // numbers, but not the worker functions every process claims through.
        let counts_as = [2, 2, 4][version as usize - 1];
        match PostgresStore::open(&url) {
            Ok(_) => panic!("version {version} opened for use without an upgrade"),
            Err(err) if counts_as == SCHEMA_VERSION => {
                assert!(matches!(err, StoreError::Access { .. }), "{err:?}");
                assert!(
                    err.to_string().contains("challenge upgrade --store URL"),
                    "{err}"
                );
            }
            Err(err) => {
                assert!(
                    matches!(err, StoreError::OlderSchema { found, .. } if found == counts_as),
                    "{err:?}"
                );
                assert!(
                    err.to_string().contains("challenge upgrade --store URL"),
                    "{err}"
                );
            }
        }
        assert_eq!(
            pg_snapshot(&mut db),
            before,
            "opening version {version} changed it"
        );

        let mut store = PostgresStore::create(&url).unwrap();
        assert_eq!(store.schema_version().unwrap(), SCHEMA_VERSION);
        let mut upgraded = pg_schema(&mut db);
        upgraded.retain(|line| !line.starts_with("schema_version."));
        let mut expected = new_schema.clone();
        expected.retain(|line| !line.starts_with("schema_version."));
        assert_eq!(upgraded, expected, "version {version}");
        let shared: bool = db
            .query_one("SELECT shared FROM schema_version", &[])
            .unwrap()
            .get(0);
        assert!(shared);
        if version >= 2 {
            let workers = store.workers().unwrap();
            assert_eq!((workers[0].name.as_str(), workers[0].games), ("w1", 1));
        }
        check_upgraded(&mut store, version);
        // An upgraded store opens for use, and upgrading again changes nothing.
        drop(PostgresStore::open(&url).unwrap());
        let again = store::upgrade_store(&store::StoreLocation::Postgres(url.clone())).unwrap();
        assert_eq!((again.from, again.to), (SCHEMA_VERSION, SCHEMA_VERSION));
    }
}

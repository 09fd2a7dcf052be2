//! Live games on a PostgreSQL store, where `challenge worker`s play and `challenge serve`
//! only shows: a game a worker plays appears on `/live` and its page advances move by
//! move, then ends into the stored game; a worker's role publishes a snapshot only for a
//! slot it holds with its token, never an oversized one, and reads or writes the live
//! table only through `challenge_live`; a game's row goes with its lease (recorded,
//! released, or run out), so finished games leave the table.

// Test scenarios read top to bottom as one story; the length limit is for library code.
#![allow(clippy::too_many_lines)]

use crate::common_challenge;
use crate::postgres_server;
use crate::serve_common;

use std::time::Duration;

use common_challenge::{TempDir, kit_bot, ok_store, wait_for};
use framework::notation::pgn::GameResult;
use league::{RunOptions, schedule_tournament};
use postgres::error::SqlState;
use postgres_server::{PgServer, add_entry, as_role, count, password_of};
use runner::{AdjudicationRules, GameSettings, Termination, TimeControl};
use store::prelude::*;
use store::{
    EntryId, MAX_LIVE_SNAPSHOT_BYTES, NewGame, NewTournament, PostgresStore, SlotId, SlotPlan,
    StoreError, StoredRules, Tournament, TournamentFormat, TournamentId, VersionId,
};

/// Three entries and a round-robin with three slots (entry ids come from their versions).
fn three_slots(org: &mut PostgresStore) -> (TournamentId, [VersionId; 3], [EntryId; 3]) {
    let versions = ["alpha", "beta", "gamma"].map(|name| add_entry(org, name, "// a bot\n").id);
    let entries: Vec<EntryId> = versions
        .iter()
        .map(|v| {
            org.versions()
                .unwrap()
                .into_iter()
                .find(|x| x.id == *v)
                .unwrap()
                .entry_id
        })
        .collect();
    let [a, b, c] = [entries[0], entries[1], entries[2]];
    let settings = Tournament {
        id: TournamentId(0),
        format: TournamentFormat::RoundRobin,
        pairs: 1,
        rounds: 1,
        time_control: TimeControl::clock(Duration::from_secs(1), Duration::ZERO),
        openings: Vec::new(),
        rules: StoredRules::default(),
        finished: false,
    };
    let plan = |pair: u32, white: EntryId, black: EntryId| SlotPlan {
        round: 0,
        pair,
        game_in_pair: 0,
        white,
        black,
        opening: 0,
    };
    let t = org
        .create_tournament(&NewTournament {
            settings: &settings,
            field: &[a, b, c],
            slots: &[plan(0, a, b), plan(1, b, c), plan(2, a, c)],
            byes: &[],
        })
        .unwrap();
    (t, versions, [a, b, c])
}

/// Runs `sql` and expects PostgreSQL's refusal `code`.
fn refused(client: &mut postgres::Client, sql: &str, code: &SqlState) {
    match client.batch_execute(sql) {
        Ok(()) => panic!("allowed: {sql}"),
        Err(err) => assert_eq!(err.code(), Some(code), "{sql}: {err}"),
    }
}

/// The slots in the live table, whatever their lease (what the organiser's role sees).
fn live_rows(db: &mut postgres::Client) -> Vec<i64> {
    db.query("SELECT slot_id FROM live_games ORDER BY slot_id", &[])
        .unwrap()
        .iter()
        .map(|r| r.get(0))
        .collect()
}

#[test]
fn a_workers_role_publishes_only_for_its_own_lease_and_rows_go_with_the_lease() {
    let Some(server) = PgServer::start("livepg") else {
        return;
    };
    let url = server.database("live");
    let mut db = postgres::Client::connect(&url, postgres::NoTls).unwrap();
    let mut org = PostgresStore::create(&url).unwrap();
    let (t, [alpha, beta, _], _) = three_slots(&mut org);
    let said = ok_store(&url, &["workers", "grant", "live_box"]);
    let worker_url = as_role(&url, "live_box", &password_of(&said));
    let mut worker = PostgresStore::open(&worker_url).unwrap();
    assert!(org.live_games(0).unwrap().is_empty());

    // The worker publishes for the slot it holds; the organiser reads it back.
    let claim = worker.claim(t, "live_box", 1).unwrap().pop().unwrap();
    let ticket = worker.live_ticket(&claim).unwrap();
    assert!(!format!("{ticket:?}").contains("token:"), "{ticket:?}");
    worker.publish_live(&ticket, "{\"first\":1}").unwrap();
    let rows = org.live_games(0).unwrap();
    assert_eq!(rows.len(), 1);
    assert_eq!(rows[0].slot, claim.slot.id);
    assert_eq!(rows[0].snapshot.as_deref(), Some("{\"first\":1}"));
    // Asked since that write, the row is listed without its snapshot; a new write is sent.
    let first = rows[0].seq;
    assert_eq!(org.live_games(first).unwrap()[0].snapshot, None);
    worker.publish_live(&ticket, "{\"second\":2}").unwrap();
    let rows = org.live_games(first).unwrap();
    assert!(rows[0].seq > first);
    assert_eq!(rows[0].snapshot.as_deref(), Some("{\"second\":2}"));

    // Never over the size, by the kit's call or by hand.
    let big = "x".repeat(MAX_LIVE_SNAPSHOT_BYTES + 1);
    let err = worker.publish_live(&ticket, &big).unwrap_err();
    assert!(matches!(err, StoreError::Conflict { .. }), "{err:?}");
    assert!(err.to_string().contains("at most"), "{err}");
    worker
        .publish_live(&ticket, &"y".repeat(MAX_LIVE_SNAPSHOT_BYTES))
        .unwrap();

    // The organiser holds the next slot: the worker cannot publish for it, whatever
    // token it tries (its own included), nor touch the table but through the function.
    let org_claim = org.claim(t, "organiser", 1).unwrap().pop().unwrap();
    let theirs = org_claim.slot.id.0;
    let own = worker
        .client()
        .query_one(
            "SELECT id, lease_token FROM challenge_claim($1, 'live_box', 1, 30)",
            &[&t.0],
        )
        .unwrap();
    let (own_slot, own_token): (i64, i64) = (own.get(0), own.get(1));
    let client = worker.client();
    for token in [own_token, 0, 1, own_token + 1, own_token - 1] {
        refused(
            client,
            &format!("SELECT challenge_live({theirs}, {token}, '{{}}')"),
            &SqlState::from_code("KL001"),
        );
    }
    refused(
        client,
        &format!(
            "SELECT challenge_live({own_slot}, {own_token}, repeat('z', {}))",
            MAX_LIVE_SNAPSHOT_BYTES + 1
        ),
        &SqlState::from_code("KL002"),
    );
    refused(
        client,
        &format!("SELECT challenge_live({own_slot}, {own_token}, NULL)"),
        &SqlState::from_code("KL002"),
    );
    for sql in [
        "SELECT * FROM live_games",
        "INSERT INTO live_games (slot_id, seq, snapshot) VALUES (1, 1, '')",
        "UPDATE live_games SET snapshot = ''",
        "DELETE FROM live_games",
        "SELECT nextval('live_snapshots')",
    ] {
        refused(client, sql, &SqlState::INSUFFICIENT_PRIVILEGE);
    }
    client
        .batch_execute(&format!(
            "SELECT challenge_live({own_slot}, {own_token}, '{{}}')"
        ))
        .unwrap();
    assert_eq!(live_rows(&mut db), [claim.slot.id.0, own_slot]);

    // Recording the game deletes its row in the same transaction; the ending is found.
    let game = NewGame {
        evidence: None,
        white: alpha,
        black: beta,
        result: GameResult::WhiteWins,
        termination: Termination::Checkmate,
        faulty: None,
        detail: "mate".into(),
        plies: 3,
        pgn: "1. f3 e5 2. g4 Qh4# 0-1".into(),
    };
    let stored = worker.record(&claim, &game).unwrap();
    assert_eq!(live_rows(&mut db), [own_slot]);
    let ending = org.live_ending(claim.slot.id).unwrap().unwrap();
    assert_eq!(
        (ending.game, ending.result),
        (stored, GameResult::WhiteWins)
    );
    // Publishing after the record is refused: the lease is over.
    let err = worker.publish_live(&ticket, "{}").unwrap_err();
    assert!(matches!(err, StoreError::LeaseLost { .. }), "{err:?}");
    assert_eq!(live_rows(&mut db), [own_slot]);

    // Releasing deletes the row too, and the slot has no ending.
    let released: bool = worker
        .client()
        .query_one("SELECT challenge_release($1, $2)", &[&own_slot, &own_token])
        .unwrap()
        .get(0);
    assert!(released);
    assert!(live_rows(&mut db).is_empty());
    assert_eq!(org.live_ending(SlotId(own_slot)).unwrap(), None);

    // A lease that ran out (its worker died) hides its row from readers after the grace,
    // and the next write of anyone deletes it.
    let ticket = org.live_ticket(&org_claim).unwrap();
    org.publish_live(&ticket, "{}").unwrap();
    let dead = worker.claim(t, "live_box", 1).unwrap().pop().unwrap();
    worker
        .publish_live(&worker.live_ticket(&dead).unwrap(), "{}")
        .unwrap();
    assert_eq!(org.live_games(0).unwrap().len(), 2);
    db.execute(
        "UPDATE slots SET lease_expires = now() - interval '1 second' WHERE id = $1",
        &[&dead.slot.id.0],
    )
    .unwrap();
    assert_eq!(org.live_games(0).unwrap().len(), 2, "late, not yet gone");
    db.execute(
        &format!(
            "UPDATE slots SET lease_expires = now() - interval '{} seconds' WHERE id = $1",
            store::LIVE_GRACE_SECONDS + 1
        ),
        &[&dead.slot.id.0],
    )
    .unwrap();
    let listed: Vec<SlotId> = org.live_games(0).unwrap().iter().map(|g| g.slot).collect();
    assert_eq!(listed, [org_claim.slot.id]);
    assert_eq!(live_rows(&mut db).len(), 2);
    org.publish_live(&ticket, "{\"again\":1}").unwrap();
    assert_eq!(live_rows(&mut db), [org_claim.slot.id.0]);
    assert_eq!(count(&mut db, "SELECT COUNT(*) FROM live_games"), 1);
}

/// The numbers after each `"NAME":` in a live page's embedded frame.
fn numbers(page: &str, name: &str) -> Vec<u64> {
    let key = format!("\"{name}\":");
    page.split(&key)
        .skip(1)
        .filter_map(|rest| {
            let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
            digits.parse().ok()
        })
        .collect()
}

#[test]
fn a_game_played_by_a_worker_shows_live_advances_and_ends_into_the_stored_game() {
    let Some(pg) = PgServer::start("servelive") else {
        return;
    };
    let tmp = TempDir::new("serve-live-pg");
    let url = pg.database("servelive");
    let mut db = postgres::Client::connect(&url, postgres::NoTls).unwrap();
    let mut org = PostgresStore::create(&url).unwrap();
    // One side thinks for its whole move time (300 ms), reporting depth and PV; the
    // other answers at once. Games end after 60 plies, so each lasts about 9 s.
    let read = |bot: &str| std::fs::read_to_string(kit_bot(bot)).unwrap();
    add_entry(&mut org, "thinker", &read("waits_for_stop"));
    add_entry(&mut org, "quick", &read("rule_captures"));
    let options = RunOptions {
        format: TournamentFormat::RoundRobin,
        pairs: 1,
        rounds: 1,
        tc: "0.3/move".parse().unwrap(),
        openings: None,
        plies: 8,
        concurrency: 1,
        max_games: None,
        new: true,
        settings: GameSettings {
            adjudication: AdjudicationRules {
                max_plies: Some(60),
                ..AdjudicationRules::default()
            },
            ..GameSettings::default()
        },
        confirm_claims: false,
        public_stderr: false,
    };
    schedule_tournament(&mut org, &options, &|_| {}).unwrap();
    let server = serve_common::Server::start_store(&url);
    let mut page = serve_common::Client::new(&server);
    let mut worker = serve_common::Worker::start(&url, "w1", tmp.path());

    // The worker's games appear in the now-playing list (after its two builds), and a
    // game's page advances move by move, with what the thinking side says of its search.
    // (A game that ends before three more plies are seen leaves room for the next.)
    let mut first = std::collections::HashMap::new();
    let mut seen_depth = false;
    let mut watched = None;
    wait_for("a game on /live advancing by three plies", 600, || {
        assert!(worker.is_running(), "the worker stopped:\n{}", worker.log());
        let list = page.get("/live").body;
        let keys: Vec<String> = list
            .split("href=\"/live/")
            .skip(1)
            .filter_map(|rest| rest.split('"').next())
            .map(str::to_string)
            .collect();
        for key in keys {
            let game = page.get(&format!("/live/{key}"));
            if game.status != 200 {
                continue;
            }
            seen_depth |= numbers(&game.body, "depth").iter().any(|&d| d > 0);
            let now = numbers(&game.body, "plies")[0];
            if now >= *first.entry(key.clone()).or_insert(now) + 3 {
                watched = Some(key);
                return true;
            }
        }
        false
    });
    assert!(seen_depth, "the thinker's depth was shown");
    let key = watched.unwrap();
    let path = format!("/live/{key}");
    // Once over, its page leads to the stored game.
    let mut stored = String::new();
    wait_for("the game's end", 120, || {
        let game = page.get(&path);
        if game.status / 100 == 3 {
            stored = game.header("location").unwrap_or_default().to_string();
            return true;
        }
        false
    });
    assert!(stored.starts_with("/games/"), "{stored}");
    let game_id: i64 = stored.trim_start_matches("/games/").parse().unwrap();
    let slot: i64 = db
        .query_one("SELECT slot_id FROM games WHERE id = $1", &[&game_id])
        .unwrap()
        .get(0);
    assert_eq!(slot.to_string(), key);

    // Every game over, the live table is empty and nothing is playing.
    wait_for("both games stored", 120, || {
        count(&mut db, "SELECT COUNT(*) FROM games") == 2
    });
    assert_eq!(count(&mut db, "SELECT COUNT(*) FROM live_games"), 0);
    wait_for("an empty now-playing list", 10, || {
        !page.get("/live").body.contains("href=\"/live/")
    });
}

//! `challenge serve --store postgres://…` with two `challenge worker` processes, as an
//! organiser runs a challenge whose games are played on other machines: entries come in
//! through the server's form (into PostgreSQL, not a local directory), the organiser
//! starts a round-robin on the organiser's page, the workers play it, pausing stops their
//! claims (no game is recorded while paused), resuming lets them finish every game once,
//! and the server survives losing its database connection.

use crate::common_challenge;
use crate::postgres_server;
use crate::serve_common;

use std::time::Duration;

use common_challenge::{TempDir, kit_bot, wait_for};
use postgres_server::{PgServer, count};
use serve_common::{ADMIN_TOKEN, Client, Server, Worker, log_in, logs, organiser_action, submit};

/// Deterministic bots that answer at once (`tests/bots/rule_*.rs`), so 24 games are quick.
const BOTS: [(&str, &str); 4] = [
    ("rule_fewest_replies", "fewest"),
    ("rule_most_replies", "most"),
    ("rule_captures", "captures"),
    ("rule_spread", "spread"),
];

/// 4 entries, 2 colour-swapped pairs per encounter: 6 × 2 × 2 games.
const GAMES: i64 = 24;

/// Games recorded, and slots leased by a worker that has not recorded their game yet.
fn games_and_leases(db: &mut postgres::Client) -> (i64, i64) {
    let games = count(db, "SELECT COUNT(*) FROM games");
    let leased = count(
        db,
        "SELECT COUNT(*) FROM slots
         WHERE game_id IS NULL AND lease_token IS NOT NULL AND lease_expires > now()",
    );
    (games, leased)
}

// A test scenario reads top to bottom as one story; the length limit is for library code.
#[allow(clippy::too_many_lines)]
#[test]
fn workers_play_a_tournament_started_in_the_server_and_stop_claiming_while_paused() {
    let Some(pg) = PgServer::start("serve") else {
        return;
    };
    let tmp = TempDir::new("serve-pg");
    let url = pg.database("serve");
    let mut db = postgres::Client::connect(&url, postgres::NoTls).unwrap();
    let server = Server::start_store(&url);

    // Entrants submit through the form: the server checks and builds, the store keeps.
    let mut entrant = Client::new(&server);
    for (bot, name) in BOTS {
        let source = std::fs::read(kit_bot(bot)).unwrap();
        let (job, key) = submit(&mut entrant, name, "", "", &source);
        assert!(job.contains("\"accepted\""), "{name}: {job}");
        assert!(key.is_some(), "{name}: a new entry gets its key");
    }
    assert_eq!(count(&mut db, "SELECT COUNT(*) FROM versions"), 4);
    assert_eq!(count(&mut db, "SELECT COUNT(*) FROM entry_keys"), 4);

    let mut workers = [
        Worker::start(&url, "w1", tmp.path()),
        Worker::start(&url, "w2", tmp.path()),
    ];
    let mut organiser = Client::new(&server);
    assert_eq!(log_in(&mut organiser, ADMIN_TOKEN).status, 303);
    let settings = [
        ("format", "round-robin"),
        ("pairs", "2"),
        ("tc", "0.05/move"),
    ];
    let started = organiser_action(&mut organiser, "start", &settings);
    assert_eq!(started.status, 303, "{}", started.body);
    assert_eq!(
        count(&mut db, "SELECT COUNT(*) FROM slots"),
        GAMES,
        "the server scheduled the tournament in the store"
    );
    let again = organiser_action(&mut organiser, "start", &settings);
    assert_eq!(
        again.status, 409,
        "one tournament at a time: {}",
        again.body
    );
    assert_eq!(count(&mut db, "SELECT COUNT(*) FROM tournaments"), 1);
    wait_for("the status line", 10, || {
        entrant
            .get("/?part=1")
            .body
            .contains("playing (by the workers)")
    });

    // Pause as soon as the workers are playing.
    wait_for("a first game", 300, || games_and_leases(&mut db).0 >= 1);
    assert_eq!(organiser_action(&mut organiser, "pause", &[]).status, 303);
    // Each worker (one game at a time) says so when it sees the switch, after the game
    // it held was recorded: from then on it claims nothing.
    wait_for("both workers to see the pause", 120, || {
        workers
            .iter()
            .all(|w| w.log().contains("the organiser paused the tournament"))
    });
    let paused_at = games_and_leases(&mut db);
    assert_eq!(
        paused_at.1,
        0,
        "no game in play once paused:\n{}",
        logs(&workers)
    );
    assert!(
        paused_at.0 < GAMES,
        "paused before the end: {paused_at:?}\n{}",
        logs(&workers)
    );
    // Workers look again every 0.75 s: five looks each, and nothing new.
    std::thread::sleep(Duration::from_secs(4));
    assert_eq!(
        games_and_leases(&mut db),
        paused_at,
        "no claim and no game while paused:\n{}",
        logs(&workers)
    );
    assert!(entrant.get("/?part=1").body.contains(">paused<"));

    // Resumed, the workers finish every game, once.
    assert_eq!(organiser_action(&mut organiser, "resume", &[]).status, 303);
    wait_for("the end of the tournament", 600, || {
        entrant.get("/?part=1").body.contains(">finished<")
    });
    assert_eq!(count(&mut db, "SELECT COUNT(*) FROM games"), GAMES);
    assert_eq!(
        count(&mut db, "SELECT COUNT(*) FROM slots WHERE game_id IS NULL"),
        0
    );
    assert_eq!(
        count(&mut db, "SELECT COUNT(*) FROM tournaments WHERE finished"),
        1
    );
    assert_eq!(
        count(
            &mut db,
            "SELECT COUNT(*) FROM games WHERE worker NOT IN ('w1', 'w2') OR worker IS NULL"
        ),
        0,
        "every game was played by a worker, none by the server"
    );
    for worker in &mut workers {
        assert!(
            worker.is_running(),
            "{} stopped:\n{}",
            worker.name,
            worker.log()
        );
        assert!(
            worker.log().contains("the tournament was resumed"),
            "{}",
            worker.log()
        );
    }

    // The database drops every connection (a restart, a network cut): the server
    // reconnects and serves its pages from the store again.
    db.execute(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity
         WHERE datname = current_database() AND pid <> pg_backend_pid()",
        &[],
    )
    .unwrap();
    // Meanwhile a page that needs the store says to come back (503, Retry-After), never
    // a server error.
    wait_for("the server to reconnect", 60, || {
        let page = entrant.get("/entries/fewest");
        assert!(
            page.status == 200 || (page.status == 503 && page.header("retry-after").is_some()),
            "{} {}",
            page.status,
            page.body
        );
        page.status == 200 && page.body.contains("fewest")
    });
    drop(server);
}

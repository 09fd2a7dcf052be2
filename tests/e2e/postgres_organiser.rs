//! `challenge serve --store` as the only organiser process of a PostgreSQL store whose
//! games are played by least-privilege workers (`challenge workers grant`): a round-robin
//! started on the organiser's page and a 3-round Swiss scheduled by `challenge run
//! --schedule-only` are both played to the end, their rounds paired and the tournaments
//! finished by the server, though a worker is killed in the middle of a game.

use crate::common_challenge;
use crate::postgres_server;
use crate::serve_common;

use common_challenge::{TempDir, kit_bot, ok_store, wait_for};
use postgres_server::{PgServer, as_role, count, password_of};
use serve_common::{ADMIN_TOKEN, Client, Server, Worker, log_in, logs, organiser_action};

/// Deterministic bots that take a moment per move (`tests/bots/rule_*.rs`), so a worker
/// can be killed while it plays.
const BOTS: [(&str, &str); 4] = [
    ("rule_fewest_replies", "fewest"),
    ("rule_most_replies", "most"),
    ("rule_captures", "captures"),
    ("rule_spread", "spread"),
];

/// The tournament's games stored, its slots, and whether it is finished.
fn progress(db: &mut postgres::Client, tournament: i64) -> (i64, i64, bool) {
    let row = db
        .query_one(
            "SELECT (SELECT COUNT(*) FROM games WHERE tournament_id = $1),
                    (SELECT COUNT(*) FROM slots WHERE tournament_id = $1),
                    (SELECT finished FROM tournaments WHERE id = $1)",
            &[&tournament],
        )
        .unwrap();
    (row.get(0), row.get(1), row.get(2))
}

/// Waits for tournament `t` to be finished by the server, then checks that every slot
/// holds exactly one game, played by the workers' roles.
fn played_to_the_end(db: &mut postgres::Client, t: i64, games: i64, workers: &[Worker]) {
    wait_for(&format!("tournament {t} to be finished"), 600, || {
        progress(db, t).2
    });
    let (stored, slots, _) = progress(db, t);
    assert_eq!((stored, slots), (games, games), "{}", logs(workers));
    let unplayed =
        format!("SELECT COUNT(*) FROM slots WHERE tournament_id = {t} AND game_id IS NULL");
    assert_eq!(count(db, &unplayed), 0);
    let by_others = format!(
        "SELECT COUNT(*) FROM games WHERE tournament_id = {t} AND worker NOT IN ('box1', 'box2')"
    );
    assert_eq!(
        count(db, &by_others),
        0,
        "every game was played by a worker's role"
    );
}

/// Kills `worker` (box1) while it plays a game, starting it again until the kill lands
/// in a game; returns the slot it was playing.
fn kill_in_a_game(
    db: &mut postgres::Client,
    worker: &mut Worker,
    url: &str,
    dir: &std::path::Path,
) -> i64 {
    let playing = "SELECT l.slot_id FROM live_games l JOIN slots s ON s.id = l.slot_id
                   WHERE s.lease_worker = 'box1' AND s.game_id IS NULL";
    for _ in 0..5 {
        wait_for("box1 to play a game", 300, || {
            !db.query(playing, &[]).unwrap().is_empty()
        });
        worker.kill();
        if let Some(row) = db.query(playing, &[]).unwrap().first() {
            return row.get(0);
        }
        *worker = Worker::start(url, "box1", dir);
    }
    panic!("box1's games all ended before it could be killed in one");
}

// A test scenario reads top to bottom as one story; the length limit is for library code.
#[allow(clippy::too_many_lines)]
#[test]
fn serve_alone_organises_tournaments_that_worker_roles_play_through_a_killed_worker() {
    let Some(pg) = PgServer::start("organiser") else {
        return;
    };
    let tmp = TempDir::new("pg-organiser");
    let url = pg.database("organiser");
    for (bot, name) in BOTS {
        ok_store(
            &url,
            &["submit", kit_bot(bot).to_str().unwrap(), "--name", name],
        );
    }
    let server = Server::start_store(&url);
    let mut db = postgres::Client::connect(&url, postgres::NoTls).unwrap();
    let role_url = |role: &str| {
        let said = ok_store(&url, &["workers", "grant", role]);
        as_role(&url, role, &password_of(&said))
    };
    let (box1, box2) = (role_url("box1"), role_url("box2"));
    let mut workers = vec![
        Worker::start(&box1, "box1", tmp.path()),
        Worker::start(&box2, "box2", tmp.path()),
    ];

    // A round-robin started on the organiser's page: 4 entries, one pair each, 12 games.
    let mut organiser = Client::new(&server);
    assert_eq!(log_in(&mut organiser, ADMIN_TOKEN).status, 303);
    let settings = [("format", "round-robin"), ("pairs", "1"), ("tc", "1/move")];
    let started = organiser_action(&mut organiser, "start", &settings);
    assert_eq!(started.status, 303, "{}", started.body);
    let first: i64 = db
        .query_one("SELECT MAX(id) FROM tournaments", &[])
        .unwrap()
        .get(0);

    // box1 is killed while it plays a game (its live row is up): no goodbye, its lease
    // runs out (3 s) and the game is played again by box2. (Should the game end between
    // the look and the kill, box1 starts again and is killed in its next game.)
    let killed_in = kill_in_a_game(&mut db, &mut workers[0], &box1, tmp.path());
    played_to_the_end(&mut db, first, 12, &workers);
    let replayed =
        format!("SELECT COUNT(*) FROM games WHERE slot_id = {killed_in} AND worker = 'box2'");
    assert_eq!(count(&mut db, &replayed), 1, "{}", logs(&workers));
    assert!(workers[1].is_running(), "box2 stopped:\n{}", logs(&workers));
    // The server's pages follow within their refresh (0.5 s).
    let mut visitor = Client::new(&server);
    wait_for("the status line to say finished", 30, || {
        visitor.get("/?part=1").body.contains(">finished<")
    });

    // A 3-round Swiss scheduled from the command line: the server pairs rounds 2 and 3
    // and finishes it (4 entries: 2 pairings a round, 2 games each).
    workers[0] = Worker::start(&box1, "box1", tmp.path());
    let schedule = [
        "run",
        "--schedule-only",
        "--new",
        "--format",
        "swiss",
        "--rounds",
        "3",
        "--st",
        "1",
    ];
    ok_store(&url, &schedule);
    let swiss: i64 = db
        .query_one("SELECT MAX(id) FROM tournaments", &[])
        .unwrap()
        .get(0);
    assert_ne!(swiss, first);
    played_to_the_end(&mut db, swiss, 12, &workers);
    let rounds = format!("SELECT COUNT(DISTINCT round) FROM slots WHERE tournament_id = {swiss}");
    assert_eq!(count(&mut db, &rounds), 3);
    for worker in &mut workers {
        assert!(
            worker.is_running(),
            "{} stopped:\n{}",
            worker.name,
            worker.log()
        );
    }
    let standings: serde_json::Value =
        serde_json::from_str(&ok_store(&url, &["standings", "--json"])).unwrap();
    assert_eq!(standings["games"], 24, "{standings}");
    assert_eq!(standings["refused"], serde_json::json!([]), "{standings}");
    drop(server);
}

//! Workers on a real PostgreSQL server, as separate processes: one is killed with
//! SIGKILL mid-game, its lease runs out and another worker replays the game; every
//! scheduled game is stored exactly once, and the standings equal those of the same
//! tournament played by `challenge run` on SQLite. The bots are deterministic
//! (`tests/bots/rule_*.rs`: a fixed rule, no clock), so both tournaments play the same
//! games.

// Test scenarios read top to bottom as one story; the length limit is for library code.
#![allow(clippy::too_many_lines)]

use crate::common_challenge;
use crate::postgres_server;

use std::path::{Path, PathBuf};
use std::process::{Child, Stdio};
use std::time::{Duration, Instant};

use common_challenge::{TempDir, command, kit_bot, ok, ok_store};
use postgres_server::{PgServer, count};

const BOTS: [(&str, &str); 4] = [
    ("rule_fewest_replies", "fewest"),
    ("rule_most_replies", "most"),
    ("rule_captures", "captures"),
    ("rule_spread", "spread"),
];

/// The tournament both stores play: a 4-entry round-robin, 12 games, short enough.
const RUN: [&str; 6] = ["run", "--tc", "60+1", "--maxmoves", "40", "--pairs"];

/// A worker process, killed if the test ends before it does.
struct Worker {
    name: String,
    child: Child,
    log: PathBuf,
}

impl Worker {
    fn start(url: &str, name: &str, dir: &Path) -> Worker {
        let log = dir.join(format!("{name}.log"));
        let child = command()
            .args(["worker", "--store", url, "--name", name, "--lease", "3"])
            .stdout(Stdio::null())
            .stderr(std::fs::File::create(&log).unwrap())
            .spawn()
            .unwrap();
        Worker {
            name: name.to_string(),
            child,
            log,
        }
    }

    fn pid(&self) -> i32 {
        i32::try_from(self.child.id()).unwrap()
    }

    fn log(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }

    /// Waits for the worker to exit by itself; its exit status.
    fn wait(&mut self, deadline: Instant) -> std::process::ExitStatus {
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status;
            }
            assert!(
                Instant::now() < deadline,
                "worker {} did not finish in time:\n{}",
                self.name,
                self.log()
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }
}

impl Drop for Worker {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn signal(pid: i32, signal: i32) {
    // SAFETY: kill has no memory-safety preconditions; the pid is our own child's.
    assert_eq!(unsafe { libc::kill(pid, signal) }, 0);
}

/// Every game by its place in the schedule: (round, pair, game in pair, result).
type Results = Vec<(i64, i64, i64, String)>;

const RESULTS_SQL: &str = "SELECT s.round, s.pair, s.game_in_pair, g.result
     FROM slots s JOIN games g ON g.slot_id = s.id ORDER BY s.round, s.pair, s.game_in_pair";

fn sqlite_results(dir: &Path) -> Results {
    let db = rusqlite::Connection::open(dir.join("challenge.db")).unwrap();
    let mut stmt = db.prepare(RESULTS_SQL).unwrap();
    stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap()
}

fn pg(url: &str) -> postgres::Client {
    postgres::Client::connect(url, postgres::NoTls).unwrap()
}

/// The standings rows with the rating rounded (the fit sums the games in the order the
/// store returns them, which differs between the two runs by the last bits).
fn rows(json: &str) -> Vec<serde_json::Value> {
    let table: serde_json::Value = serde_json::from_str(json).unwrap();
    table["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|row| {
            let mut row = row.clone();
            for key in ["elo", "interval"] {
                let value = row[key].as_f64().unwrap();
                row[key] = serde_json::json!((value * 1e6).round() / 1e6);
            }
            row
        })
        .collect()
}

/// Stops `worker` mid-game: waits until it has held a lease for a while, freezes it
/// (SIGSTOP), and kills it (SIGKILL) if that game is still unrecorded; a game that just
/// finished lets it go on to the next. Returns the slot it was playing.
fn kill_mid_game(db: &mut postgres::Client, worker: &mut Worker) -> i64 {
    let deadline = Instant::now() + Duration::from_secs(240);
    loop {
        assert!(
            Instant::now() < deadline,
            "{} never played a game:\n{}",
            worker.name,
            worker.log()
        );
        let leased = db
            .query_opt(
                "SELECT id FROM slots WHERE lease_worker = $1 AND game_id IS NULL
                   AND lease_expires > now() AND now() - leased_at > interval '300 milliseconds'",
                &[&worker.name],
            )
            .unwrap();
        let Some(row) = leased else {
            std::thread::sleep(Duration::from_millis(20));
            continue;
        };
        let slot: i64 = row.get(0);
        signal(worker.pid(), libc::SIGSTOP);
        // A commit already sent completes on the server; give it time to.
        std::thread::sleep(Duration::from_millis(300));
        let unrecorded = count(
            db,
            &format!("SELECT COUNT(*) FROM slots WHERE id = {slot} AND game_id IS NULL"),
        );
        if unrecorded == 1 {
            signal(worker.pid(), libc::SIGKILL);
            let _ = worker.child.wait();
            return slot;
        }
        signal(worker.pid(), libc::SIGCONT);
    }
}

#[test]
fn workers_survive_a_kill_and_match_a_local_run() {
    let Some(server) = PgServer::start("workers") else {
        return;
    };
    let tmp = TempDir::new("pg-workers");

    // The reference: the same tournament played by `challenge run` on SQLite.
    let dir = tmp.challenge();
    for (bot, name) in BOTS {
        ok(
            &dir,
            &["submit", kit_bot(bot).to_str().unwrap(), "--name", name],
        );
    }
    let mut run: Vec<&str> = RUN.to_vec();
    run.extend(["1", "-j", "2"]);
    ok(&dir, &run);
    let local = ok(&dir, &["standings", "--json"]);

    // The organiser: entries and the schedule in PostgreSQL, nothing played here.
    let url = server.database("workers");
    for (bot, name) in BOTS {
        ok_store(
            &url,
            &["submit", kit_bot(bot).to_str().unwrap(), "--name", name],
        );
    }
    let mut schedule: Vec<&str> = RUN.to_vec();
    schedule.extend(["1", "--schedule-only"]);
    let said = ok_store(&url, &schedule);
    assert!(said.contains("12 games to play"), "{said}");
    let mut db = pg(&url);
    assert_eq!(count(&mut db, "SELECT COUNT(*) FROM slots"), 12);
    assert_eq!(count(&mut db, "SELECT COUNT(*) FROM games"), 0);

    // A worker of another kit version refuses to play the tournament.
    db.execute("UPDATE tournaments SET kit_version = '0.0.0-old'", &[])
        .unwrap();
    let mut refused = Worker::start(&url, "old", tmp.path());
    let status = refused.wait(Instant::now() + Duration::from_secs(60));
    assert!(!status.success());
    let log = refused.log();
    assert!(
        log.contains("kit 0.0.0-old") && log.contains("one rule set"),
        "{log}"
    );
    assert_eq!(count(&mut db, "SELECT COUNT(*) FROM games"), 0);
    db.execute(
        "UPDATE tournaments SET kit_version = $1",
        &[&store::KIT_VERSION],
    )
    .unwrap();

    // Three workers; the first is killed mid-game.
    let mut first = Worker::start(&url, "w1", tmp.path());
    let mut others = [
        Worker::start(&url, "w2", tmp.path()),
        Worker::start(&url, "w3", tmp.path()),
    ];
    let lost = kill_mid_game(&mut db, &mut first);
    let killed_at: f64 = db
        .query_one("SELECT EXTRACT(EPOCH FROM now())::float8", &[])
        .unwrap()
        .get(0);
    let listing = ok_store(&url, &["workers"]);
    assert!(
        listing.contains("w1") && listing.contains("w2") && listing.contains("w3"),
        "{listing}"
    );
    // The store drops every worker's connection (as a restart or a network cut would):
    // they reconnect and go on.
    db.execute(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity
         WHERE datname = current_database() AND pid <> pg_backend_pid()",
        &[],
    )
    .unwrap();
    let deadline = Instant::now() + Duration::from_secs(300);
    for worker in &mut others {
        let status = worker.wait(deadline);
        assert!(
            status.success(),
            "{} failed:\n{}",
            worker.name,
            worker.log()
        );
    }
    let logs: String = others.iter().map(Worker::log).collect();
    for worker in &others {
        assert!(
            worker.log().contains("reconnected"),
            "{}:\n{}",
            worker.name,
            worker.log()
        );
    }

    // Every scheduled game is stored exactly once; the lost one by another worker, after
    // the killed one's lease ran out.
    assert_eq!(count(&mut db, "SELECT COUNT(*) FROM games"), 12, "{logs}");
    assert_eq!(
        count(&mut db, "SELECT COUNT(DISTINCT slot_id) FROM games"),
        12
    );
    assert_eq!(
        count(&mut db, "SELECT COUNT(*) FROM slots WHERE game_id IS NULL"),
        0
    );
    assert_eq!(
        count(
            &mut db,
            "SELECT COUNT(*) FROM slots s JOIN games g ON g.id = s.game_id WHERE g.slot_id <> s.id"
        ),
        0
    );
    let replayed_by: String = db
        .query_one("SELECT worker FROM games WHERE slot_id = $1", &[&lost])
        .unwrap()
        .get(0);
    assert!(replayed_by == "w2" || replayed_by == "w3", "{replayed_by}");
    // Claimed again only once the lease (3 s, renewed every second) had run out.
    let replayed_at: f64 = db
        .query_one(
            "SELECT EXTRACT(EPOCH FROM leased_at)::float8 FROM slots WHERE id = $1",
            &[&lost],
        )
        .unwrap()
        .get(0);
    assert!(
        replayed_at - killed_at > 1.5,
        "replayed {:.2}s after the kill",
        replayed_at - killed_at
    );
    assert_eq!(
        count(&mut db, "SELECT COUNT(*) FROM tournaments WHERE finished"),
        1
    );

    // The same games with the same results, so the same standings.
    let mut stmt_results: Results = Vec::new();
    for row in db.query(RESULTS_SQL, &[]).unwrap() {
        stmt_results.push((row.get(0), row.get(1), row.get(2), row.get(3)));
    }
    assert_eq!(stmt_results, sqlite_results(&dir));
    let shared = ok_store(&url, &["standings", "--json"]);
    assert_eq!(rows(&shared), rows(&local));

    // The organiser's view: who played what.
    let listing = ok_store(&url, &["workers"]);
    let line = |name: &str| {
        listing
            .lines()
            .find(|l| l.starts_with(name))
            .unwrap_or_else(|| panic!("no {name} in:\n{listing}"))
            .to_string()
    };
    assert!(line("w1").contains("silent"), "{listing}");
    assert!(line("w2").contains("stopped"), "{listing}");
    let games: i64 = ["w2", "w3"]
        .iter()
        .map(|w| {
            line(w)
                .split_whitespace()
                .nth(6)
                .unwrap()
                .parse::<i64>()
                .unwrap()
        })
        .sum();
    let by_first = count(&mut db, "SELECT COUNT(*) FROM games WHERE worker = 'w1'");
    assert_eq!(games + by_first, 12, "{listing}");
    let report = tmp.path().join("report.html");
    ok_store(&url, &["report", "--html", report.to_str().unwrap()]);
    assert!(
        std::fs::read_to_string(&report)
            .unwrap()
            .contains("captures")
    );
}

#[test]
fn a_swiss_tournament_run_on_postgres_pairs_its_rounds_as_on_sqlite() {
    let Some(server) = PgServer::start("swiss") else {
        return;
    };
    let tmp = TempDir::new("pg-swiss");
    let dir = tmp.challenge();
    let url = server.database("swiss");
    let swiss = [
        "run",
        "--format",
        "swiss",
        "--rounds",
        "3",
        "--tc",
        "60+1",
        "--maxmoves",
        "20",
        "-j",
        "2",
    ];
    for (bot, name) in &BOTS[..3] {
        ok(
            &dir,
            &["submit", kit_bot(bot).to_str().unwrap(), "--name", name],
        );
        ok_store(
            &url,
            &["submit", kit_bot(bot).to_str().unwrap(), "--name", name],
        );
    }
    ok(&dir, &swiss);
    // `run --store` schedules and plays here as a worker; the rounds after the first are
    // paired by the worker that finds the round done.
    ok_store(&url, &swiss);
    let mut db = pg(&url);
    assert_eq!(count(&mut db, "SELECT COUNT(*) FROM byes"), 3);
    assert_eq!(
        count(&mut db, "SELECT COUNT(*) FROM tournaments WHERE finished"),
        1
    );
    let mut results: Results = Vec::new();
    for row in db.query(RESULTS_SQL, &[]).unwrap() {
        results.push((row.get(0), row.get(1), row.get(2), row.get(3)));
    }
    assert_eq!(results.len(), 6);
    assert_eq!(results, sqlite_results(&dir));
    assert_eq!(
        rows(&ok_store(&url, &["standings", "--json"])),
        rows(&ok(&dir, &["standings", "--json"]))
    );
}

//! A bot's process holds nothing worth taking on the paths that serve a challenge:
//! `challenge serve` (its submission jobs and its tournament runner) and `challenge
//! worker` on a PostgreSQL store. As in `tests/e2e/secrets.rs`, the marker is planted where
//! the host keeps its secrets (the organiser token and another variable in the
//! environment, the challenge directory on the command line, the password and the
//! application name in the store's URL), the ordinary `decoy.rs` is built the way the
//! path builds it, the memory-scanning bot is put in the cache in its place, and the
//! path runs it: the scanner's report (`marker absent`) comes back in the path's own
//! fault record, the job's refusal or the stored game.

#![cfg(all(
    target_os = "linux",
    any(target_arch = "x86_64", target_arch = "aarch64")
))]
// `postgres_server` includes the outside-program helper by path (the benches use it
// without `common`), so this file holds it twice.

use crate::common;
use crate::common_challenge;
use crate::postgres_server;
use crate::secrets_common;
use crate::serve_common;

use std::path::Path;
use std::process::{Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

use common_challenge::{TempDir, command, kit_bot};
use postgres_server::PgServer;
use secrets_common::{MARKER, assert_nothing_found, kit_build_dir, marked_env, plant, unplant};
use serve_common::{Client, Server, log_in, organiser_action, submit};
use store::prelude::*;
use store::{Game, SqliteStore};

/// What a stored game says about its ending: the runner's sentence, the PGN's comments
/// and the fault's evidence (where the faulty engine's last stderr lines are), each on
/// one line.
fn game_text(detail: &str, pgn: &str, evidence: Option<&str>) -> String {
    let read = framework::notation::pgn::read_games(pgn);
    assert!(read.errors.is_empty(), "the PGN does not read back:\n{pgn}");
    let mut lines = vec![detail.to_string()];
    for game in &read.games {
        lines.extend(game.intro.iter().cloned());
        lines.extend(game.comments.iter().flatten().cloned());
    }
    if let Some(evidence) = evidence {
        let evidence = store::Evidence::from_json(evidence).expect("the evidence reads back");
        lines.extend(evidence.stderr);
    }
    lines.join("\n")
}

/// Polls `look` every 200 ms until it gives something, for at most `seconds`.
fn wait_for<T>(what: &str, seconds: u64, mut look: impl FnMut() -> Option<T>) -> T {
    let deadline = Instant::now() + Duration::from_secs(seconds);
    loop {
        if let Some(found) = look() {
            return found;
        }
        assert!(
            Instant::now() < deadline,
            "timed out after {seconds}s waiting for {what}"
        );
        std::thread::sleep(Duration::from_millis(200));
    }
}

/// A submission job's final state and message (the reason of a refusal).
fn job_outcome(job: &str) -> (String, String) {
    let job: serde_json::Value = serde_json::from_str(job).expect("the job's JSON");
    let field = |name: &str| job[name].as_str().unwrap_or_default().to_string();
    (field("state"), field("message"))
}

/// The first game the challenge in `dir` stores, with its PGN.
fn first_stored_game(dir: &Path) -> Game {
    wait_for("a game of the organiser's tournament", 300, || {
        let store = SqliteStore::open_read_only(dir).ok()?;
        store.games(true).ok()?.into_iter().next()
    })
}

#[test]
fn serve_gives_its_jobs_and_its_tournament_nothing_of_the_servers() {
    let (decoy, evil) = ("served_decoy", "served_evil");
    unplant(&kit_build_dir(), decoy);
    let tmp = TempDir::new("secrets-serve");
    // The challenge directory is on the server's command line: it holds the marker too.
    let dir = tmp.path().join(format!("{MARKER}-challenge"));
    let server = Server::start_with_env(&dir, &marked_env());
    let mut client = Client::new(&server);
    let source = std::fs::read(common::test_bot("decoy")).unwrap();

    // The job builds the decoy, which passes; then the scanner takes its engine's place.
    let (job, key) = submit(&mut client, decoy, "", "", &source);
    assert_eq!(job_outcome(&job).0, "accepted", "{job}");
    let key = key.expect("a new entry's key");
    plant(&kit_build_dir(), decoy);

    // (a) The same file again: the job finds the engine in the cache and smoke-tests it.
    let (job, _) = submit(&mut client, decoy, "", &key, &source);
    let (state, message) = job_outcome(&job);
    assert_eq!(state, "refused", "{job}");
    assert_nothing_found("serve's submission job", &message);

    // (b) The organiser's tournament plays the decoy's stored version: the scanner.
    let evil_source = std::fs::read(kit_bot("evil_bot")).unwrap();
    let (job, _) = submit(&mut client, evil, "", "", &evil_source);
    assert_eq!(job_outcome(&job).0, "accepted", "{job}");
    let mut organiser = Client::new(&server);
    assert_eq!(
        log_in(&mut organiser, &format!("{MARKER}-token")).status,
        303
    );
    let started = organiser_action(
        &mut organiser,
        "start",
        &[
            ("format", "round-robin"),
            ("pairs", "1"),
            ("tc", "0.05/move"),
        ],
    );
    assert_eq!(started.status, 303, "{}", started.body);
    let game = first_stored_game(&dir);
    assert!(game.faulty.is_some(), "{game:?}");
    let evidence = game.evidence.as_ref().map(store::Evidence::to_json);
    assert_nothing_found(
        "serve's tournament runner",
        &game_text(&game.detail, &game.pgn, evidence.as_deref()),
    );
    drop(server);
}

/// Runs `cmd` (its output into `log`), killed if it is not done within `limit`; its exit
/// status and output.
fn run_bounded(mut cmd: Command, log: &Path, limit: Duration) -> (ExitStatus, String) {
    let file = std::fs::File::create(log).unwrap();
    let mut child = cmd
        .stdout(file.try_clone().unwrap())
        .stderr(file)
        .stdin(Stdio::null())
        .spawn()
        .expect("challenge runs");
    let deadline = Instant::now() + limit;
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if Instant::now() >= deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!(
                "not done within {limit:?}:\n{}",
                std::fs::read_to_string(log).unwrap_or_default()
            );
        }
        std::thread::sleep(Duration::from_millis(100));
    };
    (status, std::fs::read_to_string(log).unwrap_or_default())
}

/// `challenge ARGS --store URL` with the marked environment, which must succeed within
/// five minutes; its output.
fn ok_marked(tmp: &TempDir, url: &str, args: &[&str]) -> String {
    let mut cmd = command();
    cmd.args(args).args(["--store", url]).envs(marked_env());
    let log = tmp.path().join(format!("{}.log", args[0]));
    let (status, output) = run_bounded(cmd, &log, Duration::from_secs(300));
    assert!(status.success(), "challenge {args:?} failed:\n{output}");
    output
}

/// The store's URL with the marker in it, as its password and its application name.
fn marked_url(url: &str) -> String {
    let with_password = url.replacen("://kit@", &format!("://kit:{MARKER}-password@"), 1);
    assert_ne!(with_password, url, "{url}");
    format!("{with_password}?application_name={MARKER}")
}

#[test]
fn a_worker_gives_a_bot_nothing_of_its_store_or_its_environment() {
    let Some(server) = PgServer::start("secrets") else {
        return;
    };
    let (decoy, evil) = ("stored_decoy", "stored_evil");
    unplant(&kit_build_dir(), decoy);
    let tmp = TempDir::new("secrets-worker");
    let url = marked_url(&server.database("secrets"));

    // `submit --store` builds where workers on this machine build (the kit's build
    // directory's `store/`): the decoy passes; then the scanner takes its engine's place.
    for (bot, name) in [
        (common::test_bot("decoy"), decoy),
        (kit_bot("evil_bot"), evil),
    ] {
        ok_marked(
            &tmp,
            &url,
            &["submit", bot.to_str().unwrap(), "--name", name],
        );
    }
    plant(&kit_build_dir(), decoy);
    let said = ok_marked(
        &tmp,
        &url,
        &["run", "--st", "0.05", "--pairs", "1", "--schedule-only"],
    );
    assert!(said.contains("2 games to play"), "{said}");

    // The worker finds the decoy's engine in its cache and plays both games with it.
    let said = ok_marked(&tmp, &url, &["worker", "--name", "secrets-worker"]);
    let mut db = postgres::Client::connect(&url, postgres::NoTls).unwrap();
    let games = db
        .query("SELECT detail, pgn, evidence FROM games ORDER BY id", &[])
        .unwrap();
    assert_eq!(games.len(), 2, "{said}");
    for game in games {
        assert_nothing_found(
            "a worker on PostgreSQL",
            &game_text(game.get(0), game.get(1), game.get(2)),
        );
    }
}

//! `challenge serve` beside the command line on one challenge directory: submissions from
//! both at once corrupt nothing, and the organiser's tournament survives a killed server
//! (paused stays paused; resumed, it finishes without playing a game twice).

use crate::common_challenge;
use crate::serve_common;

use std::time::Duration;

use common_challenge::{TempDir, kit_bot, run, wait_for};
use serve_common::{ADMIN_TOKEN, Client, Server, log_in, organiser_action, submit};
use store::prelude::*;
use store::{SlotState, SqliteStore};

#[test]
fn the_cli_and_the_server_share_a_challenge_directory() {
    let dir = TempDir::new("serve-cli");
    let server = Server::start(&dir.challenge());
    // Pages are read all along while both write.
    let reading = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(true));
    let reader = {
        let reading = reading.clone();
        let mut client = Client::new(&server);
        std::thread::spawn(move || {
            let mut pages = 0;
            while reading.load(std::sync::atomic::Ordering::Relaxed) {
                for path in ["/", "/?part=1", "/crosstable"] {
                    assert_eq!(client.get(path).status, 200, "{path}");
                    pages += 1;
                }
            }
            pages
        })
    };
    let cli = {
        let dir = dir.challenge();
        std::thread::spawn(move || {
            run(
                &dir,
                &[
                    "submit",
                    kit_bot("evil_bot").to_str().unwrap(),
                    "--name",
                    "other",
                ],
            )
        })
    };
    let mut client = Client::new(&server);
    let source = std::fs::read(kit_bot("my_bot")).unwrap();
    let (job, key) = submit(&mut client, "mine", "", "", &source);
    assert!(job.contains("\"accepted\""), "{job}");
    assert!(key.is_some());
    let cli = cli.join().unwrap();
    assert!(
        cli.status.success(),
        "{}",
        String::from_utf8_lossy(&cli.stderr)
    );
    wait_for("the CLI's entry on the server's page", 10, || {
        client.get("/?part=1").body.contains(">other</a>")
    });
    reading.store(false, std::sync::atomic::Ordering::Relaxed);
    assert!(reader.join().unwrap() > 0);
    let standings = run(&dir.challenge(), &["standings"]);
    assert!(standings.status.success());
    let text = String::from_utf8_lossy(&standings.stdout);
    assert!(text.contains("mine") && text.contains("other"), "{text}");
    // An entry made on the host has no key: the web cannot take it over.
    let form = client.get("/submit");
    let token = serve_common::csrf_token(&form.body, "/submit");
    let response = client.post_multipart(
        "/submit",
        &[("csrf", &token), ("name", "other")],
        Some(("other.rs", &source)),
    );
    assert_eq!(response.status, 403, "{}", response.body);
    assert!(response.body.contains("no entry key"), "{}", response.body);
}

fn played(dir: &std::path::Path) -> (usize, usize) {
    let store = SqliteStore::open_read_only(dir).unwrap();
    let Some(t) = store.unfinished_tournament().unwrap() else {
        let games = store.games(false).unwrap().len();
        return (games, games);
    };
    let slots = store.slots(t.id).unwrap();
    let done = slots
        .iter()
        .filter(|s| matches!(s.state, SlotState::Played(_)))
        .count();
    (done, slots.len())
}

#[test]
fn a_paused_tournament_stays_paused_across_a_restart_and_resumes_to_the_end() {
    let dir = TempDir::new("serve-restart");
    for (name, bot) in [("mine", "my_bot"), ("other", "evil_bot")] {
        let out = run(
            &dir.challenge(),
            &["submit", kit_bot(bot).to_str().unwrap(), "--name", name],
        );
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let server = Server::start(&dir.challenge());
    let mut organiser = Client::new(&server);
    assert_eq!(log_in(&mut organiser, ADMIN_TOKEN).status, 303);
    let started = organiser_action(
        &mut organiser,
        "start",
        &[
            ("format", "round-robin"),
            ("pairs", "10"),
            ("tc", "0.05/move"),
        ],
    );
    assert_eq!(started.status, 303, "{}", started.body);
    assert_eq!(organiser_action(&mut organiser, "pause", &[]).status, 303);
    // The game in flight finishes; then nothing new starts: the count stays put.
    let mut paused_at = played(&dir.challenge());
    wait_for("the game in flight to finish", 120, || {
        std::thread::sleep(Duration::from_secs(3));
        let now = played(&dir.challenge());
        std::mem::replace(&mut paused_at, now) == now
    });
    assert!(
        paused_at.0 < paused_at.1,
        "paused before the end: {paused_at:?}"
    );
    drop(server); // killed, as by a crash

    let server = Server::start(&dir.challenge());
    let mut client = Client::new(&server);
    wait_for("the paused status", 10, || {
        client.get("/?part=1").body.contains(">paused<")
    });
    std::thread::sleep(Duration::from_secs(2));
    assert_eq!(
        played(&dir.challenge()),
        paused_at,
        "a paused tournament plays nothing"
    );
    let mut organiser = Client::new(&server);
    assert_eq!(log_in(&mut organiser, ADMIN_TOKEN).status, 303);
    assert_eq!(organiser_action(&mut organiser, "resume", &[]).status, 303);
    wait_for("the end of the tournament", 300, || {
        client.get("/?part=1").body.contains(">finished<")
    });
    let store = SqliteStore::open_read_only(&dir.challenge()).unwrap();
    assert!(store.unfinished_tournament().unwrap().is_none());
    assert_eq!(store.games(false).unwrap().len(), 20, "every game once");
}

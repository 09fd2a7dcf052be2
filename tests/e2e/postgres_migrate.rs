//! `challenge migrate --from DIR --to postgres://...` on a real PostgreSQL server: the
//! committed pre-versioning fixture and a freshly played challenge both read back from
//! PostgreSQL exactly as from their directory (entries, standings, every game's PGN),
//! and the copy goes on from there (new entries and tournaments get fresh ids).

use crate::common_challenge;
use crate::postgres_server;

use std::path::Path;

use common_challenge::{TempDir, command, kit_bot, ok, ok_store, text};
use postgres_server::PgServer;

const FIXTURE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/challenge_v0");

fn migrate(dir: &Path, url: &str) -> std::process::Output {
    command()
        .args(["migrate", "--from", dir.to_str().unwrap(), "--to", url])
        .output()
        .unwrap()
}

/// Everything the commands show of a challenge, read from the directory and the store.
fn assert_same_challenge(dir: &Path, url: &str, tmp: &TempDir) {
    for args in [
        &["entries", "--all"][..],
        &["standings", "--json"],
        &["standings", "--csv"],
    ] {
        assert_eq!(ok(dir, args), ok_store(url, args), "{args:?}");
    }
    let from_dir = tmp.path().join("dir.pgn");
    let from_store = tmp.path().join("store.pgn");
    ok(dir, &["export", "--pgn", from_dir.to_str().unwrap()]);
    ok_store(url, &["export", "--pgn", from_store.to_str().unwrap()]);
    let pgn = std::fs::read_to_string(&from_dir).unwrap();
    assert!(pgn.contains("[Result "));
    assert_eq!(pgn, std::fs::read_to_string(&from_store).unwrap());
}

#[test]
fn the_fixture_migrates_with_every_game_and_only_into_an_empty_store() {
    let Some(server) = PgServer::start("migrate-fixture") else {
        return;
    };
    let tmp = TempDir::new("pg-migrate-fixture");
    let dir = tmp.challenge();
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::copy(
        Path::new(FIXTURE).join("challenge.db"),
        dir.join("challenge.db"),
    )
    .unwrap();
    let url = server.database("fixture");
    let output = migrate(&dir, &url);
    assert!(output.status.success(), "{}", text(&output));
    let said = String::from_utf8_lossy(&output.stdout);
    assert!(
        said.contains("3 versions") && said.contains("6 games"),
        "{said}"
    );
    assert_same_challenge(&dir, &url, &tmp);
    // The store can come from the environment instead of `--store`.
    let from_env = command()
        .args(["standings", "--json"])
        .env("CHALLENGE_STORE", &url)
        .output()
        .unwrap();
    assert!(from_env.status.success(), "{}", text(&from_env));
    assert_eq!(
        String::from_utf8_lossy(&from_env.stdout),
        ok(&dir, &["standings", "--json"])
    );

    // A second copy into the same store is refused and changes nothing.
    let again = migrate(&dir, &url);
    assert!(!again.status.success());
    assert!(
        text(&again).contains("already holds a challenge"),
        "{}",
        text(&again)
    );
    assert_same_challenge(&dir, &url, &tmp);
}

#[test]
fn a_played_challenge_migrates_and_goes_on_in_postgres() {
    let Some(server) = PgServer::start("migrate-played") else {
        return;
    };
    let tmp = TempDir::new("pg-migrate-played");
    let dir = tmp.challenge();
    for (bot, name) in [
        ("rule_fewest_replies", "fewest"),
        ("rule_captures", "captures"),
        ("rule_spread", "spread"),
    ] {
        ok(
            &dir,
            &["submit", kit_bot(bot).to_str().unwrap(), "--name", name],
        );
    }
    ok(
        &dir,
        &["run", "--tc", "60+1", "--maxmoves", "20", "-j", "2"],
    );
    ok(&dir, &["withdraw", "spread"]);
    let url = server.database("played");
    let output = migrate(&dir, &url);
    assert!(output.status.success(), "{}", text(&output));
    assert_same_challenge(&dir, &url, &tmp);

    // The copy goes on: a new entry and a new tournament get fresh ids.
    ok_store(
        &url,
        &[
            "submit",
            kit_bot("rule_most_replies").to_str().unwrap(),
            "--name",
            "most",
        ],
    );
    let said = ok_store(
        &url,
        &[
            "run",
            "--new",
            "--schedule-only",
            "--tc",
            "60+1",
            "--maxmoves",
            "20",
        ],
    );
    assert!(said.contains("tournament 2 scheduled: 6 games"), "{said}");
    let entries = ok_store(&url, &["entries"]);
    let status = |name: &str| {
        let line = entries.lines().find(|l| l.starts_with(name)).unwrap_or("");
        line.split_whitespace().last().unwrap_or("").to_string()
    };
    assert_eq!(
        (status("most"), status("spread")),
        ("active".into(), "withdrawn".into()),
        "{entries}"
    );
}

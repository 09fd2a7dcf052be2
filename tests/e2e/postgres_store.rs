//! The PostgreSQL store against a real, throwaway PostgreSQL server: the same behaviour
//! as the SQLite store behind the `Store` trait, leases that are never handed out twice,
//! a result refused once its lease was taken over, and connection errors that name the
//! host but never the password.

use crate::postgres_server;

use std::time::Duration;

use framework::notation::pgn::GameResult;
use postgres_server::PgServer;
use runner::{Termination, TimeControl};
use store::{
    Claim, EntryId, NewGame, NewTournament, NewVersion, PG_SCHEMA_VERSION, PostgresStore, SlotPlan,
    SlotState, Store, StoredRules, Submitted, Tournament, TournamentFormat, TournamentId,
};

fn add(store: &mut dyn Store, name: &str, source: &str) -> Submitted {
    store
        .add_version(&NewVersion {
            name,
            author: Some("tester"),
            source,
            hash: &format!("hash-{source}"),
            file_name: "bot.rs",
            tokens: 10,
            debug_tokens: 1,
        })
        .unwrap()
}

fn entry(submitted: Submitted) -> EntryId {
    match submitted {
        Submitted::New(v) | Submitted::Unchanged(v) | Submitted::Revived(v) => v.entry_id,
    }
}

/// A round-robin of `entries` with one slot per ordered pair.
fn tournament(store: &mut dyn Store, entries: &[EntryId]) -> TournamentId {
    let settings = Tournament {
        id: TournamentId(0),
        format: TournamentFormat::RoundRobin,
        pairs: 1,
        rounds: 1,
        time_control: TimeControl::clock(Duration::from_secs(10), Duration::from_millis(100)),
        openings: Vec::new(),
        rules: StoredRules::default(),
        finished: false,
    };
    let mut slots = Vec::new();
    for &white in entries {
        for &black in entries {
            if white != black {
                slots.push(SlotPlan {
                    round: 0,
                    pair: slots.len() as u32 / 2,
                    game_in_pair: slots.len() as u32 % 2,
                    white,
                    black,
                    opening: 0,
                });
            }
        }
    }
    store
        .create_tournament(&NewTournament {
            settings: &settings,
            field: entries,
            slots: &slots,
            byes: &[],
        })
        .unwrap()
}

fn game(store: &dyn Store, claim: &Claim) -> NewGame {
    let versions = store.versions().unwrap();
    let version = |e: EntryId| versions.iter().find(|v| v.entry_id == e).unwrap().id;
    NewGame {
        white: version(claim.slot.plan.white),
        black: version(claim.slot.plan.black),
        result: GameResult::Draw,
        termination: Termination::Repetition,
        faulty: None,
        detail: "threefold repetition".into(),
        plies: 40,
        pgn: "[Result \"1/2-1/2\"]\n\n1/2-1/2\n".into(),
    }
}

#[test]
fn entries_versions_and_tournaments_behave_as_in_sqlite() {
    let Some(server) = PgServer::start("store") else {
        return;
    };
    let url = server.database("entries");
    let mut store = PostgresStore::connect(&url).unwrap();
    assert_eq!(store.schema_version().unwrap(), PG_SCHEMA_VERSION);
    assert!(matches!(add(&mut store, "beta", "b1"), Submitted::New(_)));
    assert!(matches!(add(&mut store, "alpha", "a1"), Submitted::New(_)));
    assert!(matches!(
        add(&mut store, "alpha", "a1"),
        Submitted::Unchanged(_)
    ));
    let Submitted::New(v2) = add(&mut store, "alpha", "a2") else {
        panic!("a new source is a new version")
    };
    assert_eq!(
        (v2.number, v2.current, v2.player_name().as_str()),
        (2, true, "alpha v2")
    );
    let names: Vec<_> = store
        .versions()
        .unwrap()
        .iter()
        .map(|v| (v.name.clone(), v.number, v.current))
        .collect();
    assert_eq!(
        names,
        [
            ("alpha".into(), 1, false),
            ("alpha".into(), 2, true),
            ("beta".into(), 1, true)
        ]
    );
    assert_eq!(store.source(v2.id).unwrap(), "a2");
    assert!(store.withdraw("beta").unwrap());
    assert!(!store.withdraw("beta").unwrap());
    assert!(store.withdraw("gamma").is_err());
    assert_eq!(store.field().unwrap().len(), 1);
    assert!(matches!(
        add(&mut store, "beta", "b1"),
        Submitted::Revived(_)
    ));

    // Reconnecting finds the schema current and changes nothing.
    drop(store);
    let mut store = PostgresStore::connect(&url).unwrap();
    assert_eq!(store.versions().unwrap().len(), 3);
    let ids: Vec<EntryId> = store.field().unwrap().iter().map(|v| v.entry_id).collect();
    let t = tournament(&mut store, &ids);
    let back = store.unfinished_tournament().unwrap().unwrap();
    assert_eq!(
        (back.id, back.format, back.pairs),
        (t, TournamentFormat::RoundRobin, 1)
    );
    assert_eq!(store.participants(t).unwrap(), ids);
    assert_eq!(store.slots(t).unwrap().len(), 2);
    assert_eq!(store.tournament_count().unwrap(), 1);

    store.withdraw("beta").unwrap();
    // A withdrawn entry's games are never handed out, even before they are cancelled.
    assert!(store.claim(t, "w", 10).unwrap().is_empty());
    assert_eq!(store.cancel_withdrawn(t).unwrap(), 2);
    store.finish_tournament(t).unwrap();
    assert!(store.unfinished_tournament().unwrap().is_none());
}

#[test]
fn claims_are_exclusive_and_a_game_is_stored_once() {
    let Some(server) = PgServer::start("claims") else {
        return;
    };
    let url = server.database("claims");
    let mut a = PostgresStore::connect(&url).unwrap();
    let mut b = PostgresStore::connect(&url).unwrap();
    let ids: Vec<EntryId> = ["x", "y", "z"]
        .iter()
        .map(|n| entry(add(&mut a, n, n)))
        .collect();
    let t = tournament(&mut a, &ids);
    let first = a.claim(t, "a", 4).unwrap();
    let second = b.claim(t, "b", 4).unwrap();
    assert_eq!((first.len(), second.len()), (4, 2));
    let mut all: Vec<_> = first.iter().chain(&second).map(|c| c.slot.id).collect();
    all.sort();
    all.dedup();
    assert_eq!(all.len(), 6, "a slot was handed out twice");
    assert!(a.claim(t, "a", 1).unwrap().is_empty());

    // A released slot goes back to the pool; a recorded one is played.
    b.release(&second[0]).unwrap();
    let again = a.claim(t, "a", 5).unwrap();
    assert_eq!(again.len(), 1);
    assert_eq!(again[0].slot.id, second[0].slot.id);
    let new_game = game(&a, &first[0]);
    let id = a.record(&first[0], &new_game).unwrap();
    assert!(a.record(&first[0], &new_game).is_err(), "recorded twice");
    let slots = b.slots(t).unwrap();
    let played: Vec<_> = slots
        .iter()
        .filter(|s| s.state == SlotState::Played(id))
        .collect();
    assert_eq!(played.len(), 1);
    let games = b.games(true).unwrap();
    assert_eq!(games.len(), 1);
    assert_eq!(
        (games[0].result, games[0].termination),
        (GameResult::Draw, Termination::Repetition)
    );
    assert!(games[0].pgn.contains("1/2-1/2"));
    assert!(b.games(false).unwrap()[0].pgn.is_empty());
}

#[test]
fn a_result_after_the_lease_was_taken_over_is_refused() {
    let Some(server) = PgServer::start("lease") else {
        return;
    };
    let url = server.database("lease");
    let mut slow = PostgresStore::connect(&url).unwrap();
    let mut other = PostgresStore::connect(&url).unwrap();
    let ids: Vec<EntryId> = ["p", "q"]
        .iter()
        .map(|n| entry(add(&mut slow, n, n)))
        .collect();
    let t = tournament(&mut slow, &ids);
    slow.set_lease(Duration::from_secs(2));
    let mine = slow.claim(t, "slow", 1).unwrap();
    assert_eq!(mine.len(), 1);
    // The heartbeat keeps the lease alive past its length while the claim is held...
    std::thread::sleep(Duration::from_secs(3));
    assert!(
        other
            .claim(t, "other", 1)
            .unwrap()
            .iter()
            .all(|c| c.slot.id != mine[0].slot.id)
    );
    // ...until the worker is cut off: here its lease is made to run out.
    other
        .client()
        .execute(
            "UPDATE slots SET lease_expires = now() - interval '1 second' WHERE id = $1",
            &[&mine[0].slot.id.0],
        )
        .unwrap();
    let taken = other.claim(t, "other", 1).unwrap();
    assert_eq!(taken.len(), 1);
    assert_eq!(taken[0].slot.id, mine[0].slot.id);
    let late = slow.record(&mine[0], &game(&slow, &mine[0]));
    let err = format!("{:#}", late.unwrap_err());
    assert!(err.contains("taken over"), "{err}");
    other.record(&taken[0], &game(&other, &taken[0])).unwrap();
    assert_eq!(other.games(false).unwrap().len(), 1);
}

#[test]
fn a_tournament_of_another_kit_version_is_refused() {
    let Some(server) = PgServer::start("version") else {
        return;
    };
    let url = server.database("version");
    let mut store = PostgresStore::connect(&url).unwrap();
    let ids: Vec<EntryId> = ["p", "q"]
        .iter()
        .map(|n| entry(add(&mut store, n, n)))
        .collect();
    let t = tournament(&mut store, &ids);
    store
        .client()
        .execute("UPDATE tournaments SET kit_version = '0.0.0-other'", &[])
        .unwrap();
    let err = format!("{:#}", store.claim(t, "w", 1).unwrap_err());
    assert!(
        err.contains("kit 0.0.0-other") && err.contains("one rule set"),
        "{err}"
    );
}

#[test]
fn connection_errors_name_the_host_and_never_the_password() {
    // A port nothing listens on (bound, then released).
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let url = format!("postgres://kit:s3cr3t-pw@127.0.0.1:{port}/challenge");
    let err = format!("{:#}", PostgresStore::connect(&url).err().unwrap());
    assert!(err.contains(&format!("127.0.0.1:{port}")), "{err}");
    assert!(err.contains("cannot connect"), "{err}");
    assert!(!err.contains("s3cr3t"), "the password leaked: {err}");
    let err = format!(
        "{:#}",
        PostgresStore::connect("postgres://kit:s3cr3t@[::1")
            .err()
            .unwrap()
    );
    assert!(!err.contains("s3cr3t"), "the password leaked: {err}");
}

/// What `challenge serve` keeps between restarts, exercised the same way on both
/// backends (this is the SQLite store's test of it too, run with or without PostgreSQL):
/// switches, the organiser token's hash, entry keys set once, submission jobs, the
/// revision that moves with every game, version and withdrawal, and one game by id.
fn exercise_server_state(store: &mut dyn Store) {
    use store::{GameId, Job, JobState, ServerFlag, ServerState};
    assert_eq!(store.server_state().unwrap(), ServerState::default());
    store
        .set_server_flag(ServerFlag::TournamentPaused, true)
        .unwrap();
    store
        .set_server_flag(ServerFlag::SourcesPublished, true)
        .unwrap();
    store
        .set_server_flag(ServerFlag::SourcesPublished, false)
        .unwrap();
    store.set_admin_token_hash("abc").unwrap();
    let state = store.server_state().unwrap();
    assert!(state.flag(ServerFlag::TournamentPaused));
    assert!(!state.flag(ServerFlag::SourcesPublished) && !state.submissions_closed);
    assert_eq!(state.admin_token_hash.as_deref(), Some("abc"));

    let before = store.revision().unwrap();
    let a = entry(add(store, "a", "a1"));
    let b = entry(add(store, "b", "b1"));
    let added = store.revision().unwrap();
    assert_ne!(before, added);
    assert!(store.set_entry_key_hash("ghost", "k").is_err());
    assert!(store.set_entry_key_hash("a", "k1").unwrap());
    assert!(
        !store.set_entry_key_hash("a", "k2").unwrap(),
        "a key is set once"
    );
    assert_eq!(store.entry_key_hash("a").unwrap().as_deref(), Some("k1"));
    assert_eq!(store.entry_key_hash("b").unwrap(), None);

    let id = tournament(store, &[a, b]);
    let claim = store.claim(id, "w", 1).unwrap().remove(0);
    let new = game(store, &claim);
    let stored = store.record(&claim, &new).unwrap();
    let played = store.revision().unwrap();
    assert!(played.last_game > added.last_game, "a game is a change");
    let back = store.game(stored).unwrap().expect("the game by its id");
    assert_eq!(
        (back.result, back.pgn.as_str()),
        (new.result, new.pgn.as_str())
    );
    assert!(store.game(GameId(stored.0 + 1000)).unwrap().is_none());
    store.withdraw("b").unwrap();
    assert_ne!(
        store.revision().unwrap(),
        played,
        "a withdrawal is a change"
    );

    let mut job = Job {
        id: "j1".into(),
        entry: "a".into(),
        state: JobState::Queued,
        message: "waiting".into(),
        created: String::new(),
    };
    store.save_job(&job).unwrap();
    job.state = JobState::Running;
    store.save_job(&job).unwrap();
    let back = store.job("j1").unwrap().unwrap();
    assert_eq!((back.state, back.entry.as_str()), (JobState::Running, "a"));
    assert!(!back.created.is_empty());
    assert_eq!(store.refuse_unfinished_jobs("restarted").unwrap(), 1);
    let back = store.job("j1").unwrap().unwrap();
    assert_eq!(
        (back.state, back.message.as_str()),
        (JobState::Refused, "restarted")
    );
    assert_eq!(store.job("j2").unwrap(), None);
}

#[test]
fn the_servers_state_behaves_as_in_sqlite() {
    let dir = std::env::temp_dir().join(format!("pg-server-state-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let mut sqlite = store::SqliteStore::create(&dir).unwrap();
    exercise_server_state(&mut sqlite);
    drop(sqlite);
    let _ = std::fs::remove_dir_all(&dir);

    let Some(server) = PgServer::start("server-state") else {
        return;
    };
    let mut store = PostgresStore::connect(&server.database("serve")).unwrap();
    exercise_server_state(&mut store);
}

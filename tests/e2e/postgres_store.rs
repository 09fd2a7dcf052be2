//! The store's behaviour, one suite run on both backends (a SQLite directory and a
//! throwaway PostgreSQL server): entries and versions, tournaments, claims and records,
//! the server's state, the revision, and errors typed by what went wrong. Then what only
//! PostgreSQL does: leases that are never handed out twice and a result refused once its
//! lease was taken over, a tournament of another kit version refused, and connection
//! errors that name the host but never the password.

use crate::postgres_server;

use std::time::Duration;

use framework::notation::pgn::GameResult;
use postgres_server::{Backends, PgServer, ordered_pairs, schedule};
use runner::{Termination, TimeControl};
use store::prelude::*;
use store::{
    Claim, EntryId, GameId, Job, JobState, NewGame, NewVersion, PostgresStore, SCHEMA_VERSION,
    ServerFlag, ServerState, SlotState, StoreError, StoredRules, Submitted, TournamentFormat,
    TournamentId, VersionId,
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

/// A round-robin of `entries` at 10+0.1 with one slot per ordered pair.
fn tournament(store: &mut dyn Store, entries: &[EntryId]) -> TournamentId {
    let tc = TimeControl::clock(Duration::from_secs(10), Duration::from_millis(100));
    schedule(
        store,
        entries,
        &ordered_pairs(entries),
        tc,
        StoredRules::default(),
    )
}

fn game(store: &dyn Store, claim: &Claim) -> NewGame {
    let versions = store.versions().unwrap();
    let version = |e: EntryId| versions.iter().find(|v| v.entry_id == e).unwrap().id;
    NewGame {
        evidence: None,
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
fn entries_versions_and_tournaments_behave_alike() {
    Backends::new("entries").each(|open| {
        let mut store = open();
        assert!(matches!(add(&mut *store, "beta", "b1"), Submitted::New(_)));
        assert!(matches!(add(&mut *store, "alpha", "a1"), Submitted::New(_)));
        assert!(matches!(
            add(&mut *store, "alpha", "a1"),
            Submitted::Unchanged(_)
        ));
        let Submitted::New(v2) = add(&mut *store, "alpha", "a2") else {
            panic!("a new source is a new version")
        };
        assert_eq!(
            (v2.number, v2.current, v2.player_name().as_str()),
            (2, true, "alpha v2")
        );
        // Byte order, whatever the database's collation: `Zed` before `alpha`.
        add(&mut *store, "Zed", "z1");
        let names: Vec<_> = store
            .versions()
            .unwrap()
            .iter()
            .map(|v| (v.name.clone(), v.number, v.current))
            .collect();
        assert_eq!(
            names,
            [
                ("Zed".into(), 1, true),
                ("alpha".into(), 1, false),
                ("alpha".into(), 2, true),
                ("beta".into(), 1, true)
            ]
        );
        assert_eq!(store.source(v2.id).unwrap(), "a2");
        assert!(store.withdraw("Zed").unwrap());
        assert!(store.withdraw("beta").unwrap());
        assert!(!store.withdraw("beta").unwrap());
        assert_eq!(store.field().unwrap().len(), 1);
        let Submitted::Revived(back) = add(&mut *store, "beta", "b1") else {
            panic!("the same source brings a withdrawn entry back")
        };
        assert!(!back.withdrawn && back.current);

        // Opening again finds the schema current and changes nothing.
        drop(store);
        let mut store = open();
        assert_eq!(store.versions().unwrap().len(), 4);
        let ids: Vec<EntryId> = store.field().unwrap().iter().map(|v| v.entry_id).collect();
        let t = tournament(&mut *store, &ids);
        let back = store.unfinished_tournament().unwrap().unwrap();
        assert_eq!(
            (back.id, back.format, back.pairs, back.rules),
            (t, TournamentFormat::RoundRobin, 1, StoredRules::default())
        );
        assert_eq!(store.participants(t).unwrap(), ids);
        assert_eq!(store.slots(t).unwrap().len(), 2);
        assert_eq!(store.tournament_count().unwrap(), 1);

        store.withdraw("beta").unwrap();
        assert_eq!(store.cancel_withdrawn(t).unwrap(), 2);
        assert!(store.claim(t, "w", 10).unwrap().is_empty());
        store.finish_tournament(t).unwrap();
        assert!(store.unfinished_tournament().unwrap().is_none());
    });
}

#[test]
fn a_claim_is_handed_out_once_and_its_game_stored_once() {
    Backends::new("claims").each(|open| {
        let mut store = open();
        let ids: Vec<EntryId> = ["x", "y", "z"]
            .iter()
            .map(|n| entry(add(&mut *store, n, n)))
            .collect();
        let t = tournament(&mut *store, &ids);
        let first = store.claim(t, "a", 4).unwrap();
        let second = store.claim(t, "b", 4).unwrap();
        assert_eq!((first.len(), second.len()), (4, 2));
        let mut all: Vec<_> = first.iter().chain(&second).map(|c| c.slot.id).collect();
        all.sort();
        all.dedup();
        assert_eq!(all.len(), 6, "a slot was handed out twice");
        assert!(store.claim(t, "a", 1).unwrap().is_empty());

        // A released slot goes back to the pool; a recorded one is played, once.
        store.release(&second[0]).unwrap();
        let again = store.claim(t, "c", 5).unwrap();
        assert_eq!(again.len(), 1);
        assert_eq!(again[0].slot.id, second[0].slot.id);
        let new_game = game(&*store, &first[0]);
        let id = store.record(&first[0], &new_game).unwrap();
        let twice = store.record(&first[0], &new_game).unwrap_err();
        assert!(matches!(twice, StoreError::Conflict { .. }), "{twice:?}");
        let played: Vec<_> = store
            .slots(t)
            .unwrap()
            .into_iter()
            .filter(|s| s.state == SlotState::Played(id))
            .collect();
        assert_eq!(played.len(), 1);
        let games = store.games(true).unwrap();
        assert_eq!(games.len(), 1);
        assert_eq!(
            (games[0].result, games[0].termination, games[0].slot),
            (
                GameResult::Draw,
                Termination::Repetition,
                Some(first[0].slot.id)
            )
        );
        assert!(games[0].pgn.contains("1/2-1/2"));
        assert!(store.games(false).unwrap()[0].pgn.is_empty());
    });
}

#[test]
fn missing_things_are_not_found_by_name() {
    Backends::new("missing").each(|open| {
        let mut store = open();
        let location = store.location();
        for err in [
            store.withdraw("gamma").unwrap_err(),
            store.source(VersionId(99)).unwrap_err(),
            store.set_entry_key_hash("gamma", "k").unwrap_err(),
        ] {
            assert!(matches!(err, StoreError::NotFound { .. }), "{err:?}");
            assert!(err.to_string().contains(&location), "{err}");
        }
        assert!(
            store
                .withdraw("gamma")
                .unwrap_err()
                .to_string()
                .contains("`gamma`")
        );
    });
}

/// What `challenge serve` keeps between restarts: switches, the organiser token's hash,
/// entry keys set once, submission jobs, the revision that moves with every game,
/// version and withdrawal, and one game by id.
#[test]
fn the_servers_state_behaves_alike() {
    Backends::new("server-state").each(|open| {
        let mut store = open();
        let store = &mut *store;
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
    });
}

/// A restart fails the submission jobs under way and gives back the invitation use each
/// held; a judged job keeps its use taken.
#[test]
fn a_restart_fails_unfinished_jobs_and_gives_back_their_invitations() {
    Backends::new("jobs").each(|open| {
        let mut store = open();
        let store = &mut *store;
        // Two new entries' jobs, each holding a use of an invitation good for two: one
        // judged (its use stays taken), one a restart interrupts (its use comes back).
        store.add_invitation("inv", 2).unwrap();
        assert!(store.take_invitation("inv").unwrap() && store.take_invitation("inv").unwrap());
        let judged = Job {
            id: "j0".into(),
            entry: "c".into(),
            state: JobState::Accepted,
            message: "accepted".into(),
            created: String::new(),
            invitation: Some("inv".into()),
        };
        store.save_job(&judged).unwrap();
        let mut job = Job {
            id: "j1".into(),
            entry: "a".into(),
            state: JobState::Queued,
            message: "waiting".into(),
            created: String::new(),
            invitation: Some("inv".into()),
        };
        store.save_job(&job).unwrap();
        job.state = JobState::Running;
        store.save_job(&job).unwrap();
        let back = store.job("j1").unwrap().unwrap();
        assert_eq!((back.state, back.entry.as_str()), (JobState::Running, "a"));
        assert_eq!(back.invitation.as_deref(), Some("inv"));
        assert!(!back.created.is_empty());
        assert_eq!(store.fail_unfinished_jobs("restarted").unwrap(), 1);
        let back = store.job("j1").unwrap().unwrap();
        assert_eq!(
            (back.state, back.message.as_str()),
            (JobState::Failed, "restarted")
        );
        assert_eq!(store.invitations().unwrap(), [("inv".to_string(), 1)]);
        assert_eq!(store.fail_unfinished_jobs("again").unwrap(), 0);
        assert_eq!(store.invitations().unwrap(), [("inv".to_string(), 1)]);
        assert_eq!(store.job("j2").unwrap(), None);
    });
}

/// The revision is a fingerprint of the withdrawn set, not a sum of its ids: withdrawing
/// entries 1 and 4 is not withdrawing 2 and 3 (a sum made the two equal, and the
/// server's views missed the change).
#[test]
fn the_revision_tells_withdrawn_sets_with_equal_sums_apart() {
    Backends::new("revision").each(|open| {
        let mut store = open();
        let ids: Vec<EntryId> = ["e1", "e2", "e3", "e4"]
            .iter()
            .map(|n| entry(add(&mut *store, n, n)))
            .collect();
        assert_eq!(ids[3].0 + ids[0].0, ids[1].0 + ids[2].0);
        store.withdraw("e1").unwrap();
        store.withdraw("e4").unwrap();
        let outer = store.revision().unwrap();
        add(&mut *store, "e1", "e1");
        add(&mut *store, "e4", "e4");
        store.withdraw("e2").unwrap();
        store.withdraw("e3").unwrap();
        let inner = store.revision().unwrap();
        assert_eq!(
            (outer.last_game, outer.last_version),
            (inner.last_game, inner.last_version)
        );
        assert_ne!(outer, inner, "withdrawing #1 and #4 looked like #2 and #3");
        // The same set gives the same revision (the views are not rebuilt for nothing).
        assert_eq!(store.revision().unwrap(), inner);
    });
}

#[test]
fn a_result_after_the_lease_was_taken_over_is_refused() {
    let Some(server) = PgServer::start("lease") else {
        return;
    };
    let url = server.database("lease");
    let mut slow = PostgresStore::create(&url).unwrap();
    let mut other = PostgresStore::open(&url).unwrap();
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
    let late = slow.record(&mine[0], &game(&slow, &mine[0])).unwrap_err();
    assert!(
        matches!(late, StoreError::LeaseLost { slot, .. } if slot == mine[0].slot.id),
        "{late:?}"
    );
    assert!(late.to_string().contains("taken over"), "{late}");
    other.record(&taken[0], &game(&other, &taken[0])).unwrap();
    assert_eq!(other.games(false).unwrap().len(), 1);
}

#[test]
fn a_tournament_of_another_kit_version_is_refused() {
    let Some(server) = PgServer::start("version") else {
        return;
    };
    let url = server.database("version");
    let mut store = PostgresStore::create(&url).unwrap();
    let ids: Vec<EntryId> = ["p", "q"]
        .iter()
        .map(|n| entry(add(&mut store, n, n)))
        .collect();
    let t = tournament(&mut store, &ids);
    store
        .client()
        .execute("UPDATE tournaments SET kit_version = '0.0.0-other'", &[])
        .unwrap();
    let err = store.claim(t, "w", 1).unwrap_err();
    assert!(matches!(err, StoreError::OtherKit { .. }), "{err:?}");
    let text = err.to_string();
    assert!(
        text.contains("kit 0.0.0-other") && text.contains("one rule set"),
        "{text}"
    );
}

#[test]
fn opening_for_use_runs_no_ddl_and_needs_a_challenge() {
    let Some(server) = PgServer::start("open") else {
        return;
    };
    let url = server.database("open");
    let err = PostgresStore::open(&url).err().unwrap();
    assert!(matches!(err, StoreError::NotFound { .. }), "{err:?}");
    assert!(err.to_string().contains("challenge submit"), "{err}");
    let mut db = postgres::Client::connect(&url, postgres::NoTls).unwrap();
    let tables: i64 = db
        .query_one(
            "SELECT COUNT(*) FROM pg_tables WHERE schemaname = 'public'",
            &[],
        )
        .unwrap()
        .get(0);
    assert_eq!(tables, 0, "opening to read created tables");
    let mut store = PostgresStore::create(&url).unwrap();
    assert_eq!(store.schema_version().unwrap(), SCHEMA_VERSION);
    drop(store);
    // A newer kit's store is refused, to read and to write.
    db.execute("UPDATE schema_version SET version = version + 1", &[])
        .unwrap();
    for err in [
        PostgresStore::open(&url).err().unwrap(),
        PostgresStore::create(&url).err().unwrap(),
    ] {
        assert!(matches!(err, StoreError::NewerSchema { .. }), "{err:?}");
        assert!(err.to_string().contains("newer than this kit"), "{err}");
    }
}

#[test]
fn a_lost_connection_and_a_missing_privilege_are_told_apart() {
    let Some(server) = PgServer::start("lost") else {
        return;
    };
    let url = server.database("lost");
    let mut store = PostgresStore::create(&url).unwrap();
    add(&mut store, "a", "a1");
    let mut admin = postgres::Client::connect(&url, postgres::NoTls).unwrap();
    admin
        .execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity
             WHERE datname = current_database() AND pid <> pg_backend_pid()",
            &[],
        )
        .unwrap();
    let lost = store.versions().unwrap_err();
    assert!(
        matches!(lost, StoreError::ConnectionLost { .. }),
        "{lost:?}"
    );
    store.reopen().unwrap();
    assert_eq!(store.versions().unwrap().len(), 1);

    admin.batch_execute("CREATE ROLE outsider LOGIN").unwrap();
    let outsider = url.replace("postgres://kit@", "postgres://outsider@");
    let denied = PostgresStore::open(&outsider)
        .and_then(|s| s.versions().map(drop))
        .unwrap_err();
    assert!(
        matches!(denied, StoreError::PermissionDenied { .. }),
        "{denied:?}"
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
    let err = PostgresStore::open(&url).err().unwrap();
    assert!(matches!(err, StoreError::Unreachable { .. }), "{err:?}");
    let err = format!("{:#}", anyhow::Error::from(err));
    assert!(err.contains(&format!("127.0.0.1:{port}")), "{err}");
    assert!(err.contains("cannot connect"), "{err}");
    assert!(!err.contains("s3cr3t"), "the password leaked: {err}");
    let err = PostgresStore::open("postgres://kit:s3cr3t@[::1")
        .err()
        .unwrap();
    assert!(matches!(err, StoreError::BadLocation(_)), "{err:?}");
    let err = format!("{:#}", anyhow::Error::from(err));
    assert!(!err.contains("s3cr3t"), "the password leaked: {err}");
}

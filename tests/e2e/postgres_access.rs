//! Least privilege and encryption on a real PostgreSQL server with TLS on (a throwaway
//! authority's certificate for `db.test`, a `pg_hba.conf` that lets worker roles in only
//! over TLS): the `sslmode`s connect, or are refused, as libpq's would; a role made by
//! `challenge workers grant` reads none of the organiser's or entrants' secrets and
//! writes nothing but its own leases; and `challenge worker` with that role plays a Swiss
//! tournament to the end while an organiser process pairs its rounds.

// Test scenarios read top to bottom as one story; the length limit is for library code.
#![allow(clippy::too_many_lines)]

use crate::common_challenge;
use crate::postgres_server;

use std::path::Path;
use std::process::{Child, Stdio};
use std::time::{Duration, Instant};

use common_challenge::{TempDir, command, kit_bot, ok_store, text};
use framework::notation::pgn::GameResult;
use postgres::error::SqlState;
use postgres_server::{PgServer, TLS_HOST, password_of};
use runner::{Termination, TimeControl};
use store::prelude::*;
use store::{
    Encryption, EntryId, JobState, NewGame, NewTournament, NewVersion, PostgresStore, ServerFlag,
    SlotPlan, StoreError, StoredRules, Tournament, TournamentFormat, TournamentId, VersionId,
};

/// `sslmode=…&sslrootcert=FILE`.
fn tls_params(mode: &str, root: &Path) -> String {
    format!("sslmode={mode}&sslrootcert={}", root.display())
}

fn refused(url: &str) -> String {
    match PostgresStore::open(url) {
        Ok(_) => panic!("{url} connected"),
        // With its causes, as the command line shows it.
        Err(err) => format!("{:#}", anyhow::Error::from(err)),
    }
}

fn encryption(url: &str) -> Encryption {
    let mut store = PostgresStore::open(url).unwrap_or_else(|e| panic!("{url}: {e:#}"));
    store.encryption().unwrap()
}

#[test]
fn sslmodes_connect_or_refuse_as_libpq_would() {
    let Some(server) = PgServer::start_tls("tls") else {
        return;
    };
    let db = server.database("tls");
    drop(PostgresStore::create(&db).unwrap());
    let files = server.tls();
    let at_name = |mode: &str, root: &Path| server.tls_url("kit", "", &db, &tls_params(mode, root));
    // (These assume no ~/.postgresql/root.crt, libpq's default root, on this machine.)

    // verify-full: the right authority and the name in the certificate.
    assert_eq!(
        encryption(&at_name("verify-full", &files.root)),
        Encryption::Verified
    );
    // A certificate from another authority is refused, saying so.
    let err = refused(&at_name("verify-full", &files.wrong_root));
    assert!(
        err.contains("not signed by the root certificate given"),
        "{err}"
    );
    assert!(
        err.contains(&format!("{TLS_HOST}:{}", server.port())),
        "{err}"
    );
    let err = refused(&at_name("verify-ca", &files.wrong_root));
    assert!(
        err.contains("not signed by the root certificate given"),
        "{err}"
    );
    // Another host name than the certificate's: refused by verify-full, not verify-ca.
    let by_address = |params: &str| format!("{db}?{params}");
    let err = refused(&by_address(&tls_params("verify-full", &files.root)));
    assert!(err.contains("not made out to the host in the URL"), "{err}");
    assert_eq!(
        encryption(&by_address(&tls_params("verify-ca", &files.root))),
        Encryption::RootChecked
    );
    // require and prefer (the default) encrypt without checking; disable is plain text.
    assert_eq!(
        encryption(&by_address("sslmode=require")),
        Encryption::Unverified
    );
    assert_eq!(encryption(&db), Encryption::Unverified);
    assert_eq!(encryption(&by_address("sslmode=disable")), Encryption::None);
    // A root certificate makes require check the authority, as in libpq.
    let err = refused(&by_address(&tls_params("require", &files.wrong_root)));
    assert!(
        err.contains("not signed by the root certificate given"),
        "{err}"
    );
    // The machine's authorities never signed the test's.
    assert!(PostgresStore::open(&by_address("sslmode=verify-full&sslrootcert=system")).is_err());
    // Settings that cannot be right are refused before connecting, by name.
    let err = refused(&by_address(
        "sslmode=verify-full&sslrootcert=/nonexistent/root.crt",
    ));
    assert!(err.contains("sslrootcert /nonexistent/root.crt"), "{err}");
    let err = refused(&by_address("sslmode=allow"));
    assert!(
        err.contains("disable, prefer, require, verify-ca, verify-full"),
        "{err}"
    );

    // Any role but the tests' own is let in only over TLS (pg_hba.conf's hostssl).
    let org = PostgresStore::open(&db).unwrap();
    drop(org);
    let granted = ok_store(&db, &["workers", "grant", "tls_worker"]);
    let password = password_of(&granted);
    let as_worker = |params: &str| server.tls_url("tls_worker", &password, &db, params);
    let err = refused(&as_worker("sslmode=disable"));
    assert!(err.contains("pg_hba.conf"), "{err}");
    assert_eq!(
        encryption(&as_worker(&tls_params("verify-full", &files.root))),
        Encryption::Verified
    );
    let err = refused(&server.tls_url(
        "tls_worker",
        "wrong",
        &db,
        &tls_params("verify-full", &files.root),
    ));
    assert!(err.contains("password authentication failed"), "{err}");
}

/// Runs `sql` on `client` and expects PostgreSQL to refuse it for lack of privilege.
fn denied(client: &mut postgres::Client, sql: &str) {
    match client.batch_execute(sql) {
        Ok(()) => panic!("a worker's role may run: {sql}"),
        Err(err) => assert_eq!(
            err.code(),
            Some(&SqlState::INSUFFICIENT_PRIVILEGE),
            "{sql}: {err}"
        ),
    }
}

/// Runs `sql` and expects the worker functions' refusal `code`.
fn refused_by_function(client: &mut postgres::Client, sql: &str, code: &str) -> String {
    match client.batch_execute(sql) {
        Ok(()) => panic!("allowed: {sql}"),
        Err(err) => {
            assert_eq!(err.code(), Some(&SqlState::from_code(code)), "{sql}: {err}");
            err.as_db_error().unwrap().message().to_string()
        }
    }
}

/// Two entries with a version each, and a round-robin of them with two slots.
fn challenge_with_secrets(org: &mut PostgresStore) -> (TournamentId, [VersionId; 3]) {
    let mut versions = Vec::new();
    for name in ["alpha", "beta", "gamma"] {
        let source = format!("// the secret source of {name}\n");
        let hash = format!("hash-{name}");
        let submitted = org
            .add_version(&NewVersion {
                name,
                author: Some("someone"),
                source: &source,
                hash: &hash,
                file_name: "bot.rs",
                tokens: 10,
                debug_tokens: 0,
            })
            .unwrap();
        let store::Submitted::New(version) = submitted else {
            panic!("{submitted:?}");
        };
        versions.push(version);
    }
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
    let (a, b) = (versions[0].entry_id, versions[1].entry_id);
    let plan = |game_in_pair: u32, white: EntryId, black: EntryId| SlotPlan {
        round: 0,
        pair: 0,
        game_in_pair,
        white,
        black,
        opening: 0,
    };
    let t = org
        .create_tournament(&NewTournament {
            settings: &settings,
            field: &[a, b],
            slots: &[plan(0, a, b), plan(1, b, a), plan(2, a, b)],
            byes: &[],
        })
        .unwrap();
    org.set_admin_token_hash("the-organisers-token-hash")
        .unwrap();
    org.set_server_flag(ServerFlag::TournamentPaused, false)
        .unwrap();
    org.set_server_flag(ServerFlag::SubmissionsClosed, true)
        .unwrap();
    assert!(org.set_entry_key_hash("alpha", "alphas-key-hash").unwrap());
    org.save_job(&store::Job {
        id: "job-1".into(),
        entry: "alpha".into(),
        state: JobState::Queued,
        message: "queued".into(),
        created: String::new(),
        invitation: None,
    })
    .unwrap();
    (t, [versions[0].id, versions[1].id, versions[2].id])
}

fn game(white: VersionId, black: VersionId, termination: Termination) -> NewGame {
    NewGame {
        evidence: None,
        white,
        black,
        result: GameResult::Draw,
        termination,
        faulty: None,
        detail: "agreed".into(),
        plies: 2,
        pgn: "1. e4 e5 1/2-1/2".into(),
    }
}

#[test]
fn a_workers_role_reads_and_writes_only_its_own_leases() {
    let Some(server) = PgServer::start_tls("access") else {
        return;
    };
    let db = server.database("access");
    let root = server.tls().root.clone();
    let mut org = PostgresStore::create(&db).unwrap();
    let (t, [white, black, other]) = challenge_with_secrets(&mut org);

    // The organiser makes a worker's role; its password is printed once, with a URL.
    let said = ok_store(&db, &["workers", "grant", "box1"]);
    assert!(said.contains("role box1 created"), "{said}");
    let password = password_of(&said);
    assert!(
        said.contains(&format!(
            "postgres://box1:{password}@127.0.0.1:{}/",
            server.port()
        )),
        "{said}"
    );
    let url = server.tls_url("box1", &password, &db, &tls_params("verify-full", &root));
    // It connects (an up-to-date store runs no DDL, which the role may not).
    let mut worker = PostgresStore::open(&url).unwrap();
    let client = worker.client();

    // No secret is readable: tokens' and keys' hashes, jobs, sources, lease tokens, games.
    for sql in [
        "SELECT key_hash FROM entry_keys",
        "SELECT * FROM jobs",
        "SELECT source FROM versions",
        "SELECT * FROM versions",
        "SELECT lease_token FROM slots",
        "SELECT * FROM games",
        "SELECT * FROM workers",
        "SELECT * FROM worker_roles",
        "SELECT nextval('lease_tokens')",
    ] {
        denied(client, sql);
    }
    // Of the server's settings, only the pause switch.
    let settings: Vec<(String, String)> = client
        .query("SELECT name, value FROM server_settings ORDER BY name", &[])
        .unwrap()
        .iter()
        .map(|r| (r.get(0), r.get(1)))
        .collect();
    assert_eq!(
        settings,
        [("tournament_paused".to_string(), "0".to_string())]
    );
    let state = worker.server_state().unwrap();
    assert_eq!(state.admin_token_hash, None);
    assert!(!state.tournament_paused);
    let client = worker.client();

    // No table is written but through the functions, and no schema is changed.
    for sql in [
        "INSERT INTO games (white_version, black_version, result, termination, detail, plies, pgn) VALUES (1, 2, '1-0', 'checkmate', '', 1, '')",
        "UPDATE slots SET game_id = NULL",
        "UPDATE slots SET lease_expires = now() + interval '1 day'",
        "DELETE FROM entries",
        "UPDATE tournaments SET finished = TRUE",
        "INSERT INTO server_settings (name, value) VALUES ('tournament_paused', '1')",
        "UPDATE workers SET host = 'x'",
        "TRUNCATE games",
        "CREATE TABLE evil (x int)",
        "CREATE FUNCTION public.now() RETURNS timestamptz LANGUAGE sql AS $$ SELECT now() $$",
        "ALTER TABLE slots ADD COLUMN evil int",
        "ALTER TABLE server_settings DISABLE ROW LEVEL SECURITY",
        "DROP TABLE games",
        "DROP FUNCTION challenge_claim(bigint, text, bigint, double precision)",
        "CREATE SCHEMA evil",
        "GRANT SELECT ON entry_keys TO box1",
    ] {
        denied(client, sql);
    }
    // What it may do: read the schedule and the field, announce itself, claim, renew,
    // read the sources of what it plays, record.
    assert!(!worker.can_advance().unwrap());
    assert!(org.can_advance().unwrap());
    assert_eq!(worker.unfinished_tournament().unwrap().unwrap().id, t);
    assert_eq!(worker.slots(t).unwrap().len(), 3);
    assert_eq!(worker.versions().unwrap().len(), 3);
    worker
        .register_worker(&store::NewWorker {
            name: "box1",
            host: "vm",
            cores: 2,
            threads: 1,
            lease: Duration::from_secs(30),
        })
        .unwrap();
    worker.worker_seen("box1").unwrap();
    let claim = worker.claim(t, "box1", 1).unwrap().pop().unwrap();
    assert_eq!(claim.slot.plan.game_in_pair, 0);
    assert_eq!(
        worker.claimed_source(&claim, white).unwrap(),
        "// the secret source of alpha\n"
    );
    assert_eq!(
        worker.claimed_source(&claim, black).unwrap(),
        "// the secret source of beta\n"
    );
    // gamma plays no side of this slot: its source stays closed.
    let err = format!("{:#}", worker.claimed_source(&claim, other).unwrap_err());
    assert!(err.contains("plays no side of slot"), "{err}");

    // The organiser holds the next slot; the worker cannot record, release or read under
    // it, whatever token it tries (its own included).
    let org_claim = org.claim(t, "organiser", 1).unwrap().pop().unwrap();
    let third = org.slots(t).unwrap()[2].id.0;
    let client = worker.client();
    // A temporary table cannot stand in for the store's inside the functions (their
    // search_path puts pg_temp last), though it hides the store's from the session.
    client
        .batch_execute(
            "CREATE TEMP TABLE slots (id bigint); CREATE TEMP TABLE versions (id bigint)",
        )
        .unwrap();
    let row = client
        .query_one(
            "SELECT id, lease_token FROM challenge_claim($1, 'box1', 1, 30)",
            &[&t.0],
        )
        .unwrap();
    let (own_slot, own_token): (i64, i64) = (row.get(0), row.get(1));
    assert_eq!(own_slot, third);
    let theirs = org_claim.slot.id.0;
    for token in [own_token, 0, 1, own_token + 1, own_token - 1] {
        refused_by_function(
            client,
            &format!(
                "SELECT challenge_record({theirs}, {token}, {}, {}, '1-0', 'checkmate', NULL, '', 1, '1-0', NULL)",
                black.0, white.0
            ),
            "KL001",
        );
        refused_by_function(
            client,
            &format!("SELECT challenge_source({theirs}, {token}, {})", white.0),
            "KL001",
        );
        let released: bool = client
            .query_one("SELECT challenge_release($1, $2)", &[&theirs, &token])
            .unwrap()
            .get(0);
        assert!(!released);
    }
    // Renewing takes the token too: its own lease moves, the organiser's does not.
    let renewed: i64 = client
        .query_one(
            "SELECT challenge_renew(ARRAY[$1, 0, 1]::bigint[], 120)",
            &[&own_token],
        )
        .unwrap()
        .get(0);
    assert_eq!(renewed, 1);
    // A game on its own slot is checked: the slot's players, a result and termination
    // the kit writes, bounded texts.
    for (args, why) in [
        (
            format!("{}, {}, '1-0', 'checkmate'", other.0, white.0),
            "not slot",
        ),
        (
            format!("{}, {}, '2-0', 'checkmate'", white.0, black.0),
            "result",
        ),
        (
            format!("{}, {}, '1-0', 'resigned'", white.0, black.0),
            "'resigned'",
        ),
    ] {
        let message = refused_by_function(
            client,
            &format!(
                "SELECT challenge_record({own_slot}, {own_token}, {args}, NULL, '', 1, '1-0', NULL)"
            ),
            "KL002",
        );
        assert!(message.contains(why), "{message}");
    }
    let huge = "x".repeat(17 << 20);
    let message = refused_by_function(
        client,
        &format!(
            "SELECT challenge_record({own_slot}, {own_token}, {}, {}, '1-0', 'checkmate', NULL, '', 1, '{huge}', NULL)",
            white.0, black.0
        ),
        "KL002",
    );
    assert!(message.contains("too large"), "{message}");
    // A game's evidence is bounded and must be a JSON object.
    let long = format!("'{{\"stderr\": \"{}\"}}'", "x".repeat(17 << 10));
    for (evidence, why) in [(long.as_str(), "at most"), ("'not json'", "JSON object")] {
        let message = refused_by_function(
            client,
            &format!(
                "SELECT challenge_record({own_slot}, {own_token}, {}, {}, '1-0', 'checkmate', NULL, '', 1, '1-0', {evidence})",
                white.0, black.0
            ),
            "KL002",
        );
        assert!(message.contains(why), "{message}");
    }
    client
        .batch_execute("DROP TABLE pg_temp.slots, pg_temp.versions")
        .unwrap();

    // Its own claim records, through the store as any worker does.
    let id = worker
        .record(&claim, &game(white, black, Termination::Repetition))
        .unwrap();
    let stored = org.game(id).unwrap().unwrap();
    assert_eq!(stored.slot, Some(claim.slot.id));
    assert_eq!(stored.termination, Termination::Repetition);
    let by: String = org
        .client()
        .query_one("SELECT worker FROM games WHERE id = $1", &[&id.0])
        .unwrap()
        .get(0);
    assert_eq!(by, "box1");
    // The organiser's own lease is untouched, and its game records.
    org.record(&org_claim, &game(black, white, Termination::Checkmate))
        .unwrap();
    worker.worker_stopped("box1").unwrap();

    // Grant refuses roles no grant could restrict, and roles other than the owner's
    // cannot grant at all.
    let output = command()
        .args(["workers", "grant", "kit", "--store", &db])
        .output()
        .unwrap();
    assert!(!output.status.success());
    assert!(text(&output).contains("superuser"), "{}", text(&output));
    let output = command()
        .args(["workers", "grant", "box2", "--store", &url])
        .output()
        .unwrap();
    assert!(!output.status.success());
    assert!(
        text(&output).contains("only the store's owner"),
        "{}",
        text(&output)
    );
    for bad in ["Box", "pg_x", "a;b", "x\"y"] {
        let output = command()
            .args(["workers", "grant", bad, "--store", &db])
            .output()
            .unwrap();
        assert!(!output.status.success(), "{bad}");
        assert!(
            text(&output).contains("lowercase letters"),
            "{}",
            text(&output)
        );
    }

    // A kit whose worker functions differ: the worker's role is refused, naming `challenge
    // upgrade`; the organiser's upgrade installs them and grants box1 again.
    org.client()
        .batch_execute("DROP FUNCTION challenge_access_version()")
        .unwrap();
    let err = refused(&url);
    assert!(err.contains("lacks this kit's worker functions"), "{err}");
    assert!(err.contains("challenge upgrade --store"), "{err}");
    let upgraded = ok_store(&db, &["upgrade"]);
    assert!(
        upgraded.contains("worker functions installed"),
        "{upgraded}"
    );
    let mut again = PostgresStore::open(&url).unwrap();
    assert_eq!(again.claim(t, "box1", 1).unwrap().len(), 0);

    // Revoked: the live connection fails at its next statement, a new one at once.
    let said = ok_store(&db, &["workers", "revoke", "box1"]);
    assert!(said.contains("can no longer"), "{said}");
    let err = again.claim(t, "box1", 1).unwrap_err();
    assert!(
        matches!(err, StoreError::PermissionDenied { .. }),
        "{err:?}"
    );
    let err = refused(&url);
    assert!(err.contains("permission denied"), "{err}");
    // A new password on a role that exists: the old one no longer works.
    let said = ok_store(&db, &["workers", "grant", "box1", "--new-password"]);
    assert!(said.contains("role box1 granted"), "{said}");
    let fresh = password_of(&said);
    assert_ne!(fresh, password);
    assert!(refused(&url).contains("password authentication failed"));
    PostgresStore::open(&server.tls_url("box1", &fresh, &db, &tls_params("verify-full", &root)))
        .unwrap();
}

/// A `challenge` process, killed if the test ends before it does.
struct Process {
    child: Child,
    log: std::path::PathBuf,
}

impl Process {
    fn start(args: &[&str], log: std::path::PathBuf) -> Process {
        let child = command()
            .args(args)
            .stdout(std::fs::File::create(log.with_extension("out")).unwrap())
            .stderr(std::fs::File::create(&log).unwrap())
            .stdin(Stdio::null())
            .spawn()
            .unwrap();
        Process { child, log }
    }

    fn log(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }

    fn wait(&mut self, deadline: Instant) -> std::process::ExitStatus {
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status;
            }
            assert!(Instant::now() < deadline, "did not finish:\n{}", self.log());
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    fn wait_for(&mut self, needle: &str, deadline: Instant) {
        while !self.log().contains(needle) {
            assert!(
                self.child.try_wait().unwrap().is_none(),
                "exited before `{needle}`:\n{}",
                self.log()
            );
            assert!(
                Instant::now() < deadline,
                "no `{needle}` in time:\n{}",
                self.log()
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn count(org: &mut PostgresStore, sql: &str) -> i64 {
    org.client().query_one(sql, &[]).unwrap().get(0)
}

#[test]
fn a_worker_role_plays_a_swiss_tournament_that_an_organiser_pairs() {
    let Some(server) = PgServer::start_tls("swiss") else {
        return;
    };
    let tmp = TempDir::new("pg-access-swiss");
    let db = server.database("swiss");
    for (bot, name) in [
        ("rule_fewest_replies", "fewest"),
        ("rule_most_replies", "most"),
        ("rule_captures", "captures"),
        ("rule_spread", "spread"),
    ] {
        ok_store(
            &db,
            &["submit", kit_bot(bot).to_str().unwrap(), "--name", name],
        );
    }
    let game = ["--tc", "60+1", "--maxmoves", "40"];
    let mut schedule = vec![
        "run",
        "--format",
        "swiss",
        "--rounds",
        "2",
        "--schedule-only",
    ];
    schedule.extend(game);
    ok_store(&db, &schedule);
    let password = password_of(&ok_store(&db, &["workers", "grant", "player"]));
    let url = server.tls_url(
        "player",
        &password,
        &db,
        &tls_params("verify-full", &server.tls().root),
    );

    // The worker's role plays round 1, then cannot pair round 2: it waits.
    let mut worker = Process::start(
        &[
            "worker", "--store", &url, "--name", "player", "--lease", "4",
        ],
        tmp.path().join("worker.log"),
    );
    let deadline = Instant::now() + Duration::from_secs(300);
    worker.wait_for("waits for an organiser process", deadline);
    let mut org = PostgresStore::open(&db).unwrap();
    let round_one = "SELECT COUNT(*) FROM slots WHERE round = 0";
    assert_eq!(count(&mut org, round_one), 4);
    assert_eq!(
        count(&mut org, "SELECT COUNT(*) FROM slots WHERE round > 0"),
        0
    );
    assert_eq!(
        count(
            &mut org,
            "SELECT COUNT(*) FROM games WHERE worker = 'player'"
        ),
        4
    );
    assert_eq!(
        count(&mut org, "SELECT COUNT(*) FROM tournaments WHERE finished"),
        0
    );

    // An organiser process pairs round 2 (and plays beside the worker), then finishes.
    let mut organiser = Process::start(
        &["run", "--store", &db, "--format", "swiss", "--rounds", "2"],
        tmp.path().join("organiser.log"),
    );
    let status = organiser.wait(deadline);
    assert!(status.success(), "organiser:\n{}", organiser.log());
    let status = worker.wait(deadline);
    assert!(status.success(), "worker:\n{}", worker.log());
    assert_eq!(count(&mut org, "SELECT COUNT(*) FROM slots"), 8);
    assert_eq!(
        count(&mut org, "SELECT COUNT(*) FROM slots WHERE game_id IS NULL"),
        0
    );
    assert_eq!(
        count(&mut org, "SELECT COUNT(DISTINCT slot_id) FROM games"),
        8
    );
    assert_eq!(count(&mut org, "SELECT COUNT(*) FROM games"), 8);
    assert_eq!(
        count(&mut org, "SELECT COUNT(*) FROM tournaments WHERE finished"),
        1
    );
    let standings = ok_store(&db, &["standings"]);
    for name in ["fewest", "most", "captures", "spread"] {
        assert!(standings.contains(name), "{standings}");
    }
}

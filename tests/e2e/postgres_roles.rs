//! A worker's role holds only what its lease needs, on a real PostgreSQL server: its
//! claims are bounded in count, lease and hold by the organiser's limits inside the
//! store's functions (whatever it asks); `challenge workers revoke` and `challenge
//! workers free` give its games back; it acts only under its own name; and a result it
//! records is counted only if the game's moves agree, the organiser setting aside a
//! refuted game so its slot is played again.

// Test scenarios read top to bottom as one story; the length limit is for library code.
#![allow(clippy::too_many_lines)]

use crate::common_challenge;
use crate::postgres_server;

use std::time::Duration;

use common_challenge::{command, ok_store, text};
use framework::chess::Color;
use framework::notation::pgn::GameResult;
use league::{Organiser, Progress};
use postgres::error::SqlState;
use postgres_server::{PgServer, add_entry, as_role, count, password_of, schedule};
use runner::{Termination, TimeControl};
use store::prelude::*;
use store::{
    EntryId, Evidence, NewGame, PostgresStore, SlotPlan, StoreError, StoredRules, TournamentId,
    Version,
};

/// Entries named `names` and a round-robin of them, one game per pair (the first named
/// plays White), from the standard start (no openings).
fn round_robin(org: &mut PostgresStore, names: &[&str]) -> (TournamentId, Vec<Version>) {
    let versions: Vec<Version> = names
        .iter()
        .map(|name| add_entry(org, name, "// stands in for a bot\n"))
        .collect();
    let mut slots = Vec::new();
    for (i, a) in versions.iter().enumerate() {
        for b in &versions[i + 1..] {
            slots.push(SlotPlan {
                round: 0,
                pair: slots.len() as u32,
                game_in_pair: 0,
                white: a.entry_id,
                black: b.entry_id,
                opening: 0,
            });
        }
    }
    let field: Vec<EntryId> = versions.iter().map(|v| v.entry_id).collect();
    let tc = TimeControl::clock(Duration::from_secs(10), Duration::ZERO);
    let t = schedule(org, &field, &slots, tc, StoredRules::default());
    (t, versions)
}

/// A role made by `challenge workers grant`, connected as it.
fn worker_role(url: &str, role: &str) -> (String, postgres::Client) {
    let said = ok_store(url, &["workers", "grant", role]);
    let role_url = as_role(url, role, &password_of(&said));
    let client = postgres::Client::connect(&role_url, postgres::NoTls).unwrap();
    (role_url, client)
}

/// The slots `sql` (a `challenge_claim` call) leased.
fn claimed(client: &mut postgres::Client, sql: &str) -> Result<Vec<i64>, postgres::Error> {
    Ok(client
        .query(&format!("SELECT id FROM {sql}"), &[])?
        .iter()
        .map(|r| r.get(0))
        .collect())
}

fn refusal(result: Result<impl std::fmt::Debug, postgres::Error>, code: &SqlState) -> String {
    let err = result.expect_err("refused");
    assert_eq!(err.code(), Some(code), "{err}");
    err.as_db_error().unwrap().message().to_string()
}

/// The functions' refusal of a malformed request.
fn kl002() -> SqlState {
    SqlState::from_code("KL002")
}

#[test]
fn a_roles_claims_are_bounded_by_the_organisers_limits_and_revoke_frees_them() {
    let Some(pg) = PgServer::start("limits") else {
        return;
    };
    let url = pg.database("limits");
    let mut org = PostgresStore::create(&url).unwrap();
    // 7 entries: 21 games, more than a role may hold by default (16).
    let (t, _) = round_robin(&mut org, &["a", "b", "c", "d", "e", "f", "g"]);
    let (box1_url, mut box1) = worker_role(&url, "box1");

    // The finding: one call leased every pending slot for 7 days. A week's lease is
    // refused; a claim of everything gets the role's 16.
    let week = format!("challenge_claim({}, 'box1', 1000, 604800)", t.0);
    let message = refusal(claimed(&mut box1, &week), &kl002());
    assert!(message.contains("at most 300 seconds"), "{message}");
    let all = format!("challenge_claim({}, 'box1', 1000, 60)", t.0);
    assert_eq!(claimed(&mut box1, &all).unwrap().len(), 16);
    assert!(
        claimed(&mut box1, &all).unwrap().is_empty(),
        "16 held already"
    );
    let renew = "SELECT challenge_renew(ARRAY[1]::bigint[], 604800)";
    assert!(refusal(box1.query(renew, &[]), &kl002()).contains("at most 300 seconds"));
    let held = "SELECT COUNT(*) FROM slots WHERE lease_worker = 'box1' AND game_id IS NULL
                AND lease_expires > now()";
    assert_eq!(count(org.client(), held), 16);
    // The organiser's own role is not bounded.
    assert_eq!(org.claim(t, "organiser", 1000).unwrap().len(), 5);

    // Revoked: its games go back to the pool at once, for another role to play.
    let said = ok_store(&url, &["workers", "revoke", "box1"]);
    assert!(
        said.contains("16 games its workers held are free"),
        "{said}"
    );
    assert_eq!(count(org.client(), held), 0);
    let (_, mut box2) = worker_role(&url, "box2");
    let mine = format!("challenge_claim({}, 'box2', 1000, 60)", t.0);
    assert_eq!(claimed(&mut box2, &mine).unwrap().len(), 16);
    assert!(PostgresStore::open(&box1_url).is_err(), "box1 is shut out");

    // The organiser lowers the limits: a role holds 2 games at once, a lease is at most
    // 1 s and a game is kept 2 s at most, renewals included.
    let set = ok_store(
        &url,
        &[
            "workers",
            "limits",
            "--max-leases",
            "2",
            "--max-lease",
            "1",
            "--max-hold",
            "2",
        ],
    );
    assert!(set.contains("hold 2 games at once"), "{set}");
    let (_, mut box3) = worker_role(&url, "box3");
    ok_store(&url, &["workers", "free", "box2"]);
    let three = format!("challenge_claim({}, 'box3', 1000, 1)", t.0);
    let slots = claimed(&mut box3, &three).unwrap();
    assert_eq!(slots.len(), 2);
    assert!(
        refusal(
            claimed(
                &mut box3,
                &format!("challenge_claim({}, 'box3', 1, 5)", t.0)
            ),
            &kl002()
        )
        .contains("at most 1 seconds")
    );
    // Renewing every 0.25 s does not keep a game past its hold.
    let tokens: Vec<i64> = org
        .client()
        .query(
            "SELECT lease_token FROM slots WHERE lease_worker = 'box3' AND game_id IS NULL",
            &[],
        )
        .unwrap()
        .iter()
        .map(|r| r.get(0))
        .collect();
    for _ in 0..14 {
        box3.execute("SELECT challenge_renew($1, 1)", &[&tokens])
            .unwrap();
        std::thread::sleep(Duration::from_millis(250));
    }
    let kept = "SELECT COUNT(*) FROM slots WHERE lease_worker = 'box3' AND lease_expires > now()";
    assert_eq!(count(org.client(), kept), 0, "no game is kept past 2 s");
    let over = "SELECT COUNT(*) FROM slots WHERE lease_worker = 'box3'
                AND lease_expires > leased_at + interval '2 seconds'";
    assert_eq!(count(org.client(), over), 0);
    // Limits that would stop every worker are refused, naming the bound.
    let output = command()
        .args(["workers", "limits", "--max-hold", "0", "--store", &url])
        .output()
        .unwrap();
    assert!(!output.status.success());
    assert!(text(&output).contains("--max-hold"), "{}", text(&output));
}

#[test]
fn a_workers_role_acts_only_under_its_own_name() {
    let Some(pg) = PgServer::start("names") else {
        return;
    };
    let url = pg.database("names");
    let mut org = PostgresStore::create(&url).unwrap();
    let (t, _) = round_robin(&mut org, &["a", "b", "c"]);
    let (box1_url, mut box1) = worker_role(&url, "box1");
    let (_, mut box2) = worker_role(&url, "box2");
    let announce = |name: &str, host: &str| {
        format!("SELECT challenge_announce('{name}', '{host}', 2, 1, 'kit', 60)")
    };
    box2.batch_execute(&announce("box2", "box2-host")).unwrap();

    // The finding: box1 claimed, announced and stopped under box2's name, and rewrote
    // its host. Each is refused now, by PostgreSQL's own privilege error.
    let denied = SqlState::INSUFFICIENT_PRIVILEGE;
    for sql in [
        announce("box2", "evil"),
        format!("SELECT id FROM challenge_claim({}, 'box2', 1, 60)", t.0),
        "SELECT challenge_seen('box2')".to_string(),
        "SELECT challenge_stopped('box2')".to_string(),
        // A name that only starts like box1's is another's.
        announce("box10", "x"),
        announce("box1-2", "x"),
    ] {
        let message = refusal(box1.batch_execute(&sql), &denied);
        assert!(
            message.contains("role box1 acts only as worker box1"),
            "{message}"
        );
    }
    let host: String = org
        .client()
        .query_one("SELECT host FROM workers WHERE name = 'box2'", &[])
        .unwrap()
        .get(0);
    assert_eq!(host, "box2-host");
    let stopped = "SELECT COUNT(*) FROM workers WHERE stopped IS NOT NULL";
    assert_eq!(count(org.client(), stopped), 0);
    // Its own name, and its name with a suffix (several machines of one role), are its.
    box1.batch_execute(&announce("box1", "h1")).unwrap();
    box1.batch_execute(&announce("box1.gpu-2", "h2")).unwrap();
    let claim = format!(
        "SELECT id FROM challenge_claim({}, 'box1.gpu-2', 1, 60)",
        t.0
    );
    assert_eq!(box1.query(&claim, &[]).unwrap().len(), 1);
    // `challenge worker` says so before it plays, and names itself after its role.
    let output = command()
        .args(["worker", "--store", &box1_url, "--name", "box2"])
        .output()
        .unwrap();
    assert!(!output.status.success());
    assert!(
        text(&output).contains("acts only as worker `box1` or `box1.SOMETHING`"),
        "{}",
        text(&output)
    );
}

#[test]
fn workers_free_gives_a_gone_workers_games_back_and_its_late_result_is_refused() {
    let Some(pg) = PgServer::start("free") else {
        return;
    };
    let url = pg.database("free");
    let mut org = PostgresStore::create(&url).unwrap();
    let (t, versions) = round_robin(&mut org, &["a", "b", "c"]);
    let said = ok_store(&url, &["workers", "grant", "box1"]);
    let mut box1 = PostgresStore::open(&as_role(&url, "box1", &password_of(&said))).unwrap();
    box1.set_lease(Duration::from_secs(300));
    let claims = box1.claim(t, "box1", 2).unwrap();
    assert_eq!(claims.len(), 2);
    // Gone for good: its leases would hold the games for 5 minutes; freed, at once.
    let said = ok_store(&url, &["workers", "free", "box1"]);
    assert!(said.contains("2 games worker box1 held are free"), "{said}");
    assert_eq!(org.claim(t, "organiser", 10).unwrap().len(), 3);
    // Had it still been playing, its result comes too late.
    let slot = claims[0].slot.plan;
    let (white, black) = (
        versions.iter().find(|v| v.entry_id == slot.white).unwrap(),
        versions.iter().find(|v| v.entry_id == slot.black).unwrap(),
    );
    let game = NewGame {
        evidence: None,
        white: white.id,
        black: black.id,
        result: GameResult::Draw,
        termination: Termination::Repetition,
        faulty: None,
        detail: String::new(),
        plies: 8,
        pgn: String::new(),
    };
    let err = box1.record(&claims[0], &game).unwrap_err();
    assert!(matches!(err, StoreError::LeaseLost { .. }), "{err:?}");
}

/// A game of `white` against `black` as a worker could record it: these SAN moves, this
/// result and ending.
fn recorded(
    white: &Version,
    black: &Version,
    moves: &str,
    result: GameResult,
    termination: Termination,
    faulty: Option<Color>,
) -> NewGame {
    crate::claims::worker_game([white, black], moves, (result, termination, faulty), None)
}

#[test]
fn a_result_its_moves_refute_is_not_counted_and_its_slot_is_played_again() {
    let Some(pg) = PgServer::start("verdicts") else {
        return;
    };
    let url = pg.database("verdicts");
    let mut org = PostgresStore::create(&url).unwrap();
    let (t, versions) = round_robin(&mut org, &["ann", "bob", "cid"]);
    let said = ok_store(&url, &["workers", "grant", "box1"]);
    let mut box1 = PostgresStore::open(&as_role(&url, "box1", &password_of(&said))).unwrap();
    let [ann, bob, cid] = [&versions[0], &versions[1], &versions[2]];
    let fools_mate = "1. f3 e5 2. g4 Qh4#";
    // The finding: "1-0 checkmate" where Black mates, and a crash that never happened
    // (the game was over, Black mated White), both counted by `standings`. A third game
    // ends in a crash the moves cannot show or refute: counted, as the worker's claim.
    let games = [
        recorded(
            ann,
            bob,
            fools_mate,
            GameResult::WhiteWins,
            Termination::Checkmate,
            None,
        ),
        recorded(
            ann,
            cid,
            fools_mate,
            GameResult::WhiteWins,
            Termination::Crash,
            Some(Color::Black),
        ),
        NewGame {
            evidence: Some(Evidence {
                left_ms: [Some(9900), Some(9900)],
                turn_ms: 40,
                at_start: false,
                answer: None,
                stderr: vec!["thread 'main' panicked".into()],
            }),
            ..recorded(
                bob,
                cid,
                "1. e4 {0.100s} e5 {0.100s}",
                GameResult::BlackWins,
                Termination::Crash,
                Some(Color::White),
            )
        },
    ];
    for game in &games {
        let claim = box1.claim(t, "box1", 1).unwrap().pop().unwrap();
        box1.record(&claim, game).unwrap();
    }

    let table: serde_json::Value =
        serde_json::from_str(&ok_store(&url, &["standings", "--json"])).unwrap();
    assert_eq!(table["games"], 1, "{table}");
    let refused = table["refused"].as_array().unwrap();
    assert_eq!(refused.len(), 2, "{table}");
    assert!(
        refused[0]["reason"]
            .as_str()
            .unwrap()
            .contains("its moves give 0-1"),
        "{table}"
    );
    assert!(
        refused[1]["reason"]
            .as_str()
            .unwrap()
            .contains("by checkmate, not crash"),
        "{table}"
    );
    assert_eq!(refused[0]["worker"], "box1");
    let claimed = table["claimed"].as_array().unwrap();
    assert_eq!(claimed.len(), 1, "{table}");
    assert_eq!(
        (&claimed[0]["termination"], &claimed[0]["worker"]),
        (&"crash".into(), &"box1".into())
    );
    let row = |name: &str| {
        table["rows"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["name"] == name)
            .cloned()
            .unwrap()
    };
    assert_eq!(
        (row("ann")["games"].as_u64(), row("ann")["wins"].as_u64()),
        (Some(0), Some(0))
    );
    assert_eq!(
        (row("cid")["wins"].as_u64(), row("cid")["crashes"].as_u64()),
        (Some(1), Some(0))
    );
    let text = ok_store(&url, &["standings"]);
    assert!(
        text.contains("is not counted: 1-0 is recorded where its moves give 0-1"),
        "{text}"
    );

    // The report marks both kinds.
    let dir = common_challenge::TempDir::new("verdict-report");
    let html = dir.path().join("report.html");
    ok_store(&url, &["report", "--html", html.to_str().unwrap()]);
    let page = std::fs::read_to_string(&html).unwrap();
    assert!(
        page.contains("NOT COUNTED: 1-0 is recorded where its moves give 0-1"),
        "report"
    );
    assert!(
        page.contains("counted as box1, which recorded it, reports it, with its evidence"),
        "report"
    );

    // The organiser's step sets the refuted games aside (kept, in no slot): their slots
    // are played again before the tournament can finish.
    let step = Organiser::default().step(&mut org, &|_| {}).unwrap();
    assert_eq!(
        step,
        Progress::Playing {
            tournament: t,
            pending: 2
        }
    );
    assert_eq!(count(org.client(), "SELECT COUNT(*) FROM games"), 3);
    assert_eq!(
        count(
            org.client(),
            "SELECT COUNT(*) FROM games WHERE slot_id IS NULL"
        ),
        2
    );
    assert_eq!(org.claim(t, "organiser", 10).unwrap().len(), 2);
    assert_eq!(org.unfinished_tournament().unwrap().map(|t| t.id), Some(t));
}

#[test]
fn a_roles_hold_of_a_game_counts_from_its_first_claim_however_often_it_gives_it_back() {
    let Some(pg) = PgServer::start("hold") else {
        return;
    };
    let url = pg.database("hold");
    let mut org = PostgresStore::create(&url).unwrap();
    let (t, _) = round_robin(&mut org, &["a", "b"]);
    ok_store(
        &url,
        &["workers", "limits", "--max-lease", "1", "--max-hold", "3"],
    );
    let said = ok_store(&url, &["workers", "grant", "box1"]);
    let mut box1 = PostgresStore::open(&as_role(&url, "box1", &password_of(&said))).unwrap();
    box1.set_lease(Duration::from_secs(1));
    // The finding: giving the game back and claiming it again restarted the hold, so a
    // role could keep it (and 15 more) forever. Within the hold it may claim it again...
    let first = std::time::Instant::now();
    let mut claim = box1.claim(t, "box1", 1).unwrap().remove(0);
    while first.elapsed() < Duration::from_millis(1500) {
        box1.release(&claim).unwrap();
        claim = box1.claim(t, "box1", 1).unwrap().remove(0);
        std::thread::sleep(Duration::from_millis(200));
    }
    // ...and no lease it gets runs past the hold from its first claim.
    let past = "SELECT COUNT(*) FROM slots WHERE lease_expires > leased_at + interval '3 seconds'
                OR leased_at > (SELECT first_claimed FROM slot_holds WHERE role = 'box1')";
    assert_eq!(count(org.client(), past), 0);
    while first.elapsed() < Duration::from_millis(3500) {
        std::thread::sleep(Duration::from_millis(100));
    }
    box1.release(&claim).unwrap();
    assert!(
        box1.claim(t, "box1", 1).unwrap().is_empty(),
        "its hold of the game is spent"
    );
    let said = ok_store(&url, &["workers", "grant", "box2"]);
    let mut box2 = PostgresStore::open(&as_role(&url, "box2", &password_of(&said))).unwrap();
    box2.set_lease(Duration::from_secs(1));
    assert_eq!(
        box2.claim(t, "box2", 1).unwrap().len(),
        1,
        "another role plays it"
    );
}

#[test]
fn under_confirm_claims_a_claim_counts_once_a_worker_of_another_role_makes_it_too() {
    use crate::claims::{D4, d4_flag, recorded, round_robin as field};
    let Some(pg) = PgServer::start("confirm") else {
        return;
    };
    let url = pg.database("confirm");
    let mut org = PostgresStore::create(&url).unwrap();
    let rules = StoredRules {
        confirm_claims: true,
        ..StoredRules::default()
    };
    let t = field(&mut org, &["ann", "bob"], rules);
    let role = |name: &str| {
        let said = ok_store(&url, &["workers", "grant", name]);
        PostgresStore::open(&as_role(&url, name, &password_of(&said))).unwrap()
    };
    let (mut box1, mut box2) = (role("box1"), role("box2"));
    let flag = (
        GameResult::WhiteWins,
        Termination::TimeForfeit,
        Some(Color::Black),
    );
    let standings = || -> serde_json::Value {
        serde_json::from_str(&ok_store(&url, &["standings", "--json"])).unwrap()
    };

    // box1 claims Black lost on time, with evidence that holds: not counted yet. (box2
    // plays the other game: a mate, which counts.)
    let claim = box1.claim(t, "box1", 1).unwrap().remove(0);
    let game = recorded(&box1, &claim, D4, flag, Some(d4_flag()));
    box1.record(&claim, &game).unwrap();
    let other = box2.claim(t, "box2", 1).unwrap().remove(0);
    let mate = (GameResult::BlackWins, Termination::Checkmate, None);
    let game = recorded(
        &box2,
        &other,
        "1. f3 {0.1s} e5 {0.1s} 2. g4 {0.1s} Qh4# {0.1s}",
        mate,
        None,
    );
    box2.record(&other, &game).unwrap();
    let table = standings();
    assert_eq!(table["games"], 1, "{table}");
    assert_eq!(table["unconfirmed"].as_array().unwrap().len(), 1, "{table}");
    // At the round's end the organiser sets it aside for a replay, which box1's role may
    // not play.
    let step = Organiser::default().step(&mut org, &|_| {}).unwrap();
    assert_eq!(
        step,
        Progress::Playing {
            tournament: t,
            pending: 1
        }
    );
    assert!(box1.claim(t, "box1.other", 1).unwrap().is_empty());
    // box2 plays the pairing again and finds the same: confirmed, counted once.
    let claim = box2.claim(t, "box2", 1).unwrap().remove(0);
    let game = recorded(&box2, &claim, D4, flag, Some(d4_flag()));
    box2.record(&claim, &game).unwrap();
    let table = standings();
    assert_eq!(table["games"], 2, "{table}");
    let claimed = &table["claimed"][0];
    assert_eq!(
        (&claimed["worker"], &claimed["confirmed_by"]),
        (&"box2".into(), &"box1".into())
    );
    let by: Vec<String> = table["claims_by_worker"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| {
            format!(
                "{} {} {} {}",
                w["worker"], w["claimed"], w["confirmed"], w["unconfirmed"]
            )
        })
        .collect();
    assert_eq!(by, ["\"box1\" 0 0 1", "\"box2\" 1 1 0"], "{table}");
    let step = Organiser::default().step(&mut org, &|_| {}).unwrap();
    assert_eq!(step, Progress::Finished { tournament: t });
}

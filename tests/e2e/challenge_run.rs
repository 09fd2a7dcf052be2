//! `challenge run` end to end: a tournament killed with SIGKILL mid-run resumes with no
//! game lost or played twice; faults are charged to the bot that caused them; Swiss
//! rounds, byes, re-submissions and withdrawals behave as documented.

// Test scenarios read top to bottom as one story; the length limit is for library code.
#![allow(clippy::too_many_lines)]

use crate::common_challenge;

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::Stdio;
use std::sync::mpsc;
use std::time::Duration;

use common_challenge::{
    TempDir, command, kit_bot, late_fault_bot, ok, row, run, standings, submit, text,
};
use rusqlite::Connection;

fn count(db: &Connection, sql: &str) -> i64 {
    db.query_row(sql, [], |r| r.get(0)).unwrap()
}

/// Every slot of every tournament has at most one game, every game has its slot, and
/// (for finished tournaments) every slot not cancelled has a game.
fn assert_schedule_consistent(dir: &Path) {
    let db = Connection::open(dir.join("challenge.db")).unwrap();
    assert_eq!(
        count(
            &db,
            "SELECT COUNT(*) FROM (SELECT slot_id FROM games GROUP BY slot_id HAVING COUNT(*) > 1)"
        ),
        0,
        "a slot has two games"
    );
    assert_eq!(
        count(
            &db,
            "SELECT COUNT(*) FROM games g LEFT JOIN slots s ON s.game_id = g.id WHERE s.id IS NULL"
        ),
        0,
        "a game is not the game of its slot"
    );
    assert_eq!(
        count(
            &db,
            "SELECT COUNT(*) FROM slots s JOIN tournaments t ON t.id = s.tournament_id
             WHERE t.finished = 1 AND s.cancelled = 0 AND s.game_id IS NULL"
        ),
        0,
        "a finished tournament has an unplayed slot"
    );
}

#[test]
fn a_tournament_killed_mid_run_resumes_without_losing_or_repeating_games() {
    let tmp = TempDir::new("resume");
    let dir = tmp.challenge();
    submit(&dir, &kit_bot("my_bot"), "starter");
    submit(&dir, &kit_bot("evil_bot"), "evil");
    submit(&dir, &kit_bot("prints"), "printer");

    let mut child = command()
        .args(["run", "--tc", "1+0.05", "--pairs", "2", "-j", "2", "--dir"])
        .arg(&dir)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let (tx, rx) = mpsc::channel();
    let stderr = child.stderr.take().unwrap();
    std::thread::spawn(move || {
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            let _ = tx.send(line);
        }
    });
    let mut log = Vec::new();
    loop {
        let line = rx
            .recv_timeout(Duration::from_secs(300))
            .unwrap_or_else(|_| panic!("no third game; output so far:\n{}", log.join("\n")));
        log.push(line.clone());
        if line.starts_with("tournament 1:") {
            // The lock is taken before the schedule is written: a second run is refused.
            let second = run(&dir, &["run"]);
            assert!(!second.status.success());
            assert!(
                text(&second).contains("another `challenge run` is playing"),
                "{}",
                text(&second)
            );
        }
        if line.starts_with("[3/12]") {
            break;
        }
    }
    child.kill().unwrap(); // SIGKILL: no chance to clean up.
    child.wait().unwrap();

    let db = Connection::open(dir.join("challenge.db")).unwrap();
    let before: Vec<(i64, String)> = db
        .prepare("SELECT id, pgn FROM games ORDER BY id")
        .unwrap()
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    assert!(
        (3..12).contains(&before.len()),
        "{} games after the kill; the run said:\n{}",
        before.len(),
        log.join("\n")
    );
    assert_eq!(
        count(&db, "SELECT COUNT(*) FROM slots"),
        12,
        "the whole schedule is stored up front"
    );
    assert_schedule_consistent(&dir);

    let resumed = run(&dir, &["run"]);
    let resumed_text = text(&resumed);
    assert!(resumed.status.success(), "{resumed_text}");
    assert!(
        resumed_text.contains("resuming tournament 1"),
        "{resumed_text}"
    );
    assert!(
        resumed_text.contains("tournament 1 finished"),
        "{resumed_text}"
    );

    // Nothing lost, nothing repeated: the games from before the kill are still there,
    // unchanged, and every one of the 12 slots has exactly one game.
    assert_eq!(count(&db, "SELECT COUNT(*) FROM games"), 12);
    for (id, pgn) in &before {
        let now: String = db
            .query_row("SELECT pgn FROM games WHERE id = ?1", [id], |r| r.get(0))
            .unwrap();
        assert_eq!(&now, pgn);
    }
    assert_schedule_consistent(&dir);
    // Each encounter played 2 colour-swapped pairs: each ordered pairing twice.
    assert_eq!(
        count(
            &db,
            "SELECT COUNT(*) FROM (SELECT white_entry, black_entry FROM slots
             GROUP BY white_entry, black_entry HAVING COUNT(*) = 2)"
        ),
        6
    );

    let table = standings(&dir);
    let rows = table["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 3);
    let games: u64 = rows.iter().map(|r| r["games"].as_u64().unwrap()).sum();
    let points: f64 = rows.iter().map(|r| r["points"].as_f64().unwrap()).sum();
    assert_eq!(games, 24);
    assert_eq!(points, 12.0);
    for r in rows {
        let wdl = r["wins"].as_u64().unwrap()
            + r["draws"].as_u64().unwrap()
            + r["losses"].as_u64().unwrap();
        assert_eq!(wdl, 8, "{r}");
        assert_eq!(r["status"], "active");
    }
    let elo_sum: f64 = rows.iter().map(|r| r["elo"].as_f64().unwrap()).sum();
    assert!(elo_sum.abs() < 1e-6, "mean rating is 0");

    // The exported PGN rates exactly like the store.
    let pgn = tmp.path().join("all.pgn");
    run(&dir, &["export", "--pgn", pgn.to_str().unwrap()]);
    let exported = std::fs::read_to_string(&pgn).unwrap();
    assert_eq!(exported.matches("[Event ").count(), 12);
    let rated = command()
        .args(["ratings", pgn.to_str().unwrap(), "--json"])
        .output()
        .unwrap();
    assert!(rated.status.success(), "{}", text(&rated));
    let rated: serde_json::Value = serde_json::from_slice(&rated.stdout).unwrap();
    for name in ["starter", "evil", "printer"] {
        let a = row(&table, name)["elo"].as_f64().unwrap();
        let b = row(&rated, name)["elo"].as_f64().unwrap();
        assert!((a - b).abs() < 1e-6, "{name}: {a} vs {b}");
    }

    let again = run(&dir, &["run"]);
    assert!(!again.status.success());
    assert!(text(&again).contains("pass --new"));
}

/// The crasher's games keep its panic message, and the line it names, in their evidence
/// (the organiser's), out of their public PGN; none of it names a path of the machine
/// they were played on (the challenge directory, the kit, the home directory) nor its
/// name.
fn assert_crashes_name_no_host_path(db: &Connection, tmp: &Path) {
    let mut stmt = db
        .prepare("SELECT pgn, detail, evidence FROM games WHERE termination = 'crash'")
        .unwrap();
    let games: Vec<(String, String, String)> = stmt
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    assert!(!games.is_empty());
    let mut host = vec![
        tmp.display().to_string(),
        common_challenge::kit_root().display().to_string(),
    ];
    host.extend(std::env::var("HOME").ok().filter(|h| h.len() > 1));
    host.extend(
        std::fs::read_to_string("/proc/sys/kernel/hostname")
            .ok()
            .map(|h| h.trim().to_owned()),
    );
    for (pgn, detail, evidence) in &games {
        // The bot's stderr is the organiser's evidence, not in the public PGN.
        assert!(
            evidence.contains("late crash") && evidence.contains("bot.rs:"),
            "{evidence}"
        );
        assert!(!pgn.contains("late crash"), "{pgn}");
        for h in &host {
            for text in [pgn, detail, evidence] {
                assert!(!text.contains(h), "{h:?} in:\n{text}");
            }
        }
    }
}

#[test]
fn faults_are_charged_and_swiss_rounds_use_current_versions_and_skip_withdrawn_entries() {
    let tmp = TempDir::new("faults");
    let dir = tmp.challenge();
    let good = std::fs::read_to_string(kit_bot("my_bot")).unwrap();
    let starter = tmp.write("starter.rs", &good);
    submit(&dir, &starter, "starter");
    for (name, fault) in [
        ("crasher", "panic!(\"late crash\")"),
        ("nuller", "return Move::NULL;"),
        ("hanger", "while timer.ms_elapsed_this_turn() < i32::MAX {}"),
    ] {
        let file = tmp.write(&format!("{name}.rs"), &late_fault_bot(10, fault));
        submit(&dir, &file, name);
    }
    let first = run(&dir, &["run", "--tc", "2+0.1", "-j", "2"]);
    assert!(first.status.success(), "{}", text(&first));

    let table = standings(&dir);
    assert!(
        row(&table, "crasher")["crashes"].as_u64().unwrap() >= 2,
        "{table}"
    );
    assert!(
        row(&table, "nuller")["illegal"].as_u64().unwrap() >= 2,
        "{table}"
    );
    assert!(
        row(&table, "hanger")["timeouts"].as_u64().unwrap() >= 2,
        "{table}"
    );
    let s = row(&table, "starter");
    assert_eq!(
        s["crashes"].as_u64().unwrap()
            + s["illegal"].as_u64().unwrap()
            + s["timeouts"].as_u64().unwrap(),
        0
    );
    assert_eq!(
        s["losses"], 0,
        "every opponent faults before it can lose: {table}"
    );
    assert_eq!(s["rank"], 1, "{table}");
    let plain = ok(&dir, &["standings"]);
    assert!(
        plain.contains("crash") && plain.contains("illegal") && plain.contains("±95%"),
        "{plain}"
    );
    let csv = ok(&dir, &["standings", "--csv"]);
    assert_eq!(csv.lines().count(), 5);

    // A new version of the starter, and the hanger withdrawn: a Swiss tournament of three
    // (one bye a round) plays the new version and never the hanger.
    std::fs::write(&starter, format!("// v2\n{good}")).unwrap();
    assert!(submit(&dir, &starter, "starter").contains("v2"));
    ok(&dir, &["withdraw", "hanger"]);
    let swiss = run(
        &dir,
        &[
            "run", "--new", "--format", "swiss", "--rounds", "2", "--tc", "1+0.05",
        ],
    );
    let swiss_text = text(&swiss);
    assert!(swiss.status.success(), "{swiss_text}");
    assert!(swiss_text.contains("round 2 of 2 paired"), "{swiss_text}");
    assert_schedule_consistent(&dir);

    let db = Connection::open(dir.join("challenge.db")).unwrap();
    assert_crashes_name_no_host_path(&db, tmp.path());
    assert_eq!(
        count(&db, "SELECT COUNT(*) FROM games WHERE tournament_id = 2"),
        4
    );
    assert_eq!(
        count(
            &db,
            "SELECT COUNT(DISTINCT entry_id) FROM byes WHERE tournament_id = 2"
        ),
        2
    );
    assert_eq!(
        count(
            &db,
            "SELECT COUNT(*) FROM (SELECT MIN(white_entry, black_entry), MAX(white_entry, black_entry)
             FROM slots WHERE tournament_id = 2 GROUP BY 1, 2 HAVING COUNT(*) > 2)"
        ),
        0,
        "no rematch in the second round"
    );
    assert_eq!(
        count(
            &db,
            "SELECT COUNT(*) FROM games g JOIN versions v ON v.id IN (g.white_version, g.black_version)
             JOIN entries e ON e.id = v.entry_id
             WHERE g.tournament_id = 2 AND (e.name = 'hanger' OR (e.name = 'starter' AND v.number = 1))"
        ),
        0,
        "tournament 2 used an old version or a withdrawn entry"
    );

    let table = standings(&dir);
    assert_eq!(row(&table, "starter")["status"], "replaced");
    assert_eq!(row(&table, "starter v2")["status"], "active");
    assert_eq!(row(&table, "hanger")["status"], "withdrawn");
    assert_eq!(
        row(&table, "hanger")["games"],
        6,
        "a withdrawn entry keeps its games"
    );
}

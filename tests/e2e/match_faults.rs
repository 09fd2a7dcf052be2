//! `challenge match` with misbehaving engines: every fault ends its game with the right
//! result, the PGN standard's Termination tag and a TerminationDetails tag naming it, and the
//! match goes on.

use crate::match_common;

use match_common::{faulty, instant, json, read_pgn_with_python_chess, run_match_ok, scratch};

#[test]
fn a_gauntlet_against_every_kind_of_fault_completes_with_named_terminations() {
    let dir = scratch("match_faults");
    let mut args: Vec<String> = Vec::new();
    args.extend(instant("good", &["tc=10+0.1"]));
    args.extend(faulty("crasher", "crash", 2));
    args.extend(faulty("staller", "stall", 2));
    args.push("tc=0.5+0".into());
    args.extend(faulty("illegal", "illegal", 2));
    args.extend(faulty("garbage", "garbage", 2));
    args.extend(faulty("hog", "memlimit", 2));
    args.extend(faulty("refuser", "nostart", 1));
    args.extend([
        "--engine".into(),
        "name=ghost".into(),
        "cmd=/nonexistent/engine".into(),
    ]);
    args.extend(
        [
            "--format",
            "gauntlet",
            "--games",
            "2",
            "-j",
            "2",
            "--timemargin",
            "50",
            "--pgn",
            "games.pgn",
            "--json",
            "summary.json",
            "-q",
        ]
        .map(String::from),
    );
    let stdout = run_match_ok(&dir, &args);

    let games = read_pgn_with_python_chess(&dir.join("games.pgn"));
    assert_eq!(games.len(), 14, "7 opponents, 2 games each");
    for (white, black, result, termination, ply_tag, plies, errors) in &games {
        assert_eq!(*errors, 0);
        assert_eq!(ply_tag, plies, "PlyCount agrees with the moves");
        let bad = if white == "good" { black } else { white };
        let expected = match bad.as_str() {
            "crasher" => "abandoned; crash",
            "staller" => "time forfeit; stall",
            "illegal" => "rules infraction; illegal move",
            "garbage" => "rules infraction; unparsable move",
            "hog" => "rules infraction; memory limit",
            "refuser" | "ghost" => "abandoned; failed to start",
            other => panic!("unexpected player {other}"),
        };
        assert_eq!(termination, expected, "{white} vs {black}");
        let good_won = if white == "good" { "1-0" } else { "0-1" };
        assert_eq!(result, good_won, "{white} vs {black}: {termination}");
    }

    let summary = json(&dir.join("summary.json"));
    assert_eq!(summary["games_played"], 14);
    let good = &summary["players"][0];
    assert_eq!(good["name"], "good");
    assert_eq!(good["stats"]["wins"], 14);
    assert_eq!(summary["fault_counts"]["failed to start"], 4);
    assert_eq!(summary["fault_counts"]["crash"], 2);
    let crash = summary["faults"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["termination"] == "crash")
        .unwrap();
    assert_eq!(crash["engine"], "crasher");
    assert!(
        crash["stderr"].to_string().contains("bot error: panicked"),
        "{crash}"
    );
    assert!(stdout.contains("Faults:"), "{stdout}");
}

/// An engine that prints where it runs (its own path, the interpreter's, its working and
/// home directories, the host name) and crashes: the PGN `challenge match` writes keeps
/// its words and none of the host's.
#[test]
fn a_crash_comment_names_nothing_of_the_host() {
    let dir = scratch("match_host_detail");
    let mut args: Vec<String> = Vec::new();
    args.extend(instant("good", &["tc=10+0.1"]));
    args.extend(faulty("leaker", "leakpaths", 1));
    args.extend(["--games", "2", "--pgn", "games.pgn", "-q"].map(String::from));
    run_match_ok(&dir, &args);
    let pgn = std::fs::read_to_string(dir.join("games.pgn")).unwrap();
    // PGN wraps long comments: read it as one line.
    let pgn = pgn.split_whitespace().collect::<Vec<_>>().join(" ");
    assert_eq!(pgn.matches("the author's own words").count(), 2, "{pgn}");
    assert!(pgn.contains("panicked at …/faulty.py:12:5"), "{pgn}");
    let mut host = vec![
        dir.display().to_string(),
        env!("CARGO_MANIFEST_DIR").to_owned(),
    ];
    host.extend(std::env::var("HOME").ok().filter(|h| h.len() > 1));
    host.extend(
        std::fs::read_to_string("/proc/sys/kernel/hostname")
            .ok()
            .map(|h| h.trim().to_owned()),
    );
    for h in host {
        assert!(!pgn.contains(&h), "{h:?} in the PGN:\n{pgn}");
    }
}

//! Known opponents and what a match says about each player's search: Stockfish at
//! lichess's levels (`--engine stockfish level=N`, the options and limits actually sent),
//! the search statistics in the summary and in `--json`, nothing for an engine that says
//! nothing, a flagged PV mismatch, a hostile `info` volley that changes nothing, and
//! `--analyze` with a real Stockfish.

use std::path::{Path, PathBuf};

use crate::common::outside::{self, PYTHON_CHESS, STOCKFISH};
use crate::match_common::{KIT, json, run_match, run_match_ok, scratch};

/// `--engine` words for `tests/engines/info_engine.py` in `mode`, logging its input to
/// `log` when given; `lead` goes first (`stockfish level=3`).
fn info_engine(lead: &[&str], name: Option<&str>, mode: &str, log: Option<&Path>) -> Vec<String> {
    let python = outside::require(&PYTHON_CHESS);
    let script = Path::new(KIT).join("tests/engines/info_engine.py");
    let mut words = vec!["--engine".to_string()];
    words.extend(lead.iter().map(|w| w.to_string()));
    if let Some(name) = name {
        words.push(format!("name={name}"));
    }
    words.push(format!("cmd={}", python.display()));
    words.push(format!("arg={}", script.display()));
    words.push(format!("arg={mode}"));
    if let Some(log) = log {
        words.push(format!("arg={}", log.display()));
    }
    words
}

fn args(words: &[Vec<String>], rest: &[&str]) -> Vec<String> {
    let mut all: Vec<String> = words.concat();
    all.extend(rest.iter().map(|s| s.to_string()));
    all
}

/// A short match between two engines (20 moves each at most), its summary as JSON too.
fn short_match(dir: &Path, a: Vec<String>, b: Vec<String>) -> (String, serde_json::Value) {
    let all = args(
        &[a, b],
        &[
            "--games",
            "2",
            "-j",
            "1",
            "--maxmoves",
            "20",
            "--json",
            "summary.json",
            "-q",
        ],
    );
    let stdout = run_match_ok(dir, &all);
    (stdout, json(&dir.join("summary.json")))
}

/// The summary's row of the search table for `name`, split into words.
fn search_row(stdout: &str, name: &str) -> Vec<String> {
    let table = stdout
        .split("Search (")
        .nth(1)
        .unwrap_or_else(|| panic!("no search table:\n{stdout}"));
    let line = table
        .lines()
        .find(|l| l.split_whitespace().next() == Some(name))
        .unwrap_or_else(|| panic!("no row for {name}:\n{stdout}"));
    line.split_whitespace().map(str::to_string).collect()
}

#[test]
fn each_level_sends_lichess_skill_depth_and_movetime() {
    let dir = scratch("known_levels");
    // Levels 1 to 3 are below stock Stockfish's Skill Level range and go out as 0.
    let expected = [
        (1, 0, 5, 50),
        (2, 0, 5, 100),
        (3, 0, 5, 150),
        (4, 3, 5, 200),
        (5, 7, 5, 300),
        (6, 11, 8, 400),
        (7, 16, 13, 500),
        (8, 20, 22, 1000),
    ];
    let mut players = vec![info_engine(&[], Some("first"), "talk", None)];
    for (level, ..) in expected {
        let log = dir.join(format!("level{level}.log"));
        let lead = ["stockfish".to_string(), format!("level={level}")];
        let lead: Vec<&str> = lead.iter().map(String::as_str).collect();
        players.push(info_engine(&lead, None, "talk", Some(&log)));
    }
    let all = args(
        &players,
        &[
            "--format",
            "gauntlet",
            "--games",
            "2",
            "-j",
            "2",
            "--maxmoves",
            "3",
            "--json",
            "s.json",
            "-q",
        ],
    );
    run_match_ok(&dir, &all);
    let summary = json(&dir.join("s.json"));
    for (level, skill, depth, movetime) in expected {
        let log = std::fs::read_to_string(dir.join(format!("level{level}.log"))).unwrap();
        assert!(
            log.contains(&format!("setoption name Skill Level value {skill}\n")),
            "level {level}:\n{log}"
        );
        let gos: Vec<&str> = log.lines().filter(|l| l.starts_with("go")).collect();
        assert!(
            !gos.is_empty(),
            "level {level} was never asked to move:\n{log}"
        );
        for go in gos {
            assert_eq!(
                go,
                format!("go movetime {movetime} depth {depth}"),
                "level {level}"
            );
        }
        let player = &summary["players"][level];
        assert_eq!(player["name"], format!("stockfish-level{level}"));
    }
}

#[test]
fn a_match_reports_depth_speed_time_and_pv_per_player_in_text_and_json() {
    let dir = scratch("known_stats");
    let (stdout, summary) = short_match(
        &dir,
        info_engine(&[], Some("talker"), "talk", None),
        info_engine(&[], Some("quiet"), "silent", None),
    );
    let talker = &summary["players"][0]["search"];
    let moves = talker["moves"].as_u64().unwrap();
    assert!(moves > 0, "{summary}");
    assert_eq!(talker["average_depth"], 7.0);
    assert_eq!(talker["moves_with_depth"], moves);
    assert_eq!(talker["nodes"], 7000 * moves);
    assert!(
        talker["nodes_per_second"].as_f64().unwrap() > 0.0,
        "{talker}"
    );
    assert!(
        talker["time_per_move_ms"].as_f64().unwrap() > 0.0,
        "{talker}"
    );
    assert_eq!(
        (
            talker["pv_moves"].as_u64(),
            talker["pv_mismatches"].as_u64()
        ),
        (Some(moves), Some(0))
    );
    let row = search_row(&stdout, "talker");
    assert_eq!(row[1], "7.00", "{stdout}");
    assert_eq!(
        row[row.len() - 3..],
        ["0".to_string(), "/".into(), moves.to_string()],
        "{stdout}"
    );
    assert!(!stdout.contains("Warning:"), "{stdout}");

    // An engine that sends no `info` has no figures, not zeros; its time is the runner's.
    let quiet = &summary["players"][1]["search"];
    assert!(quiet["moves"].as_u64().unwrap() > 0, "{quiet}");
    for absent in ["average_depth", "nodes_per_second"] {
        assert!(quiet[absent].is_null(), "{absent}: {quiet}");
    }
    assert_eq!(
        (
            quiet["pv_moves"].as_u64(),
            quiet["moves_with_nodes"].as_u64()
        ),
        (Some(0), Some(0))
    );
    assert!(quiet["time_per_move_ms"].as_f64().unwrap() > 0.0, "{quiet}");
    let row = search_row(&stdout, "quiet");
    assert_eq!(
        (
            row[1].as_str(),
            row[2].as_str(),
            row[row.len() - 1].as_str()
        ),
        ("-", "-", "-"),
        "{stdout}"
    );
}

#[test]
fn a_pv_that_does_not_start_with_the_move_played_is_counted_and_flagged() {
    let dir = scratch("known_mismatch");
    let (stdout, summary) = short_match(
        &dir,
        info_engine(&[], Some("liar"), "mismatch", None),
        info_engine(&[], Some("honest"), "talk", None),
    );
    let liar = &summary["players"][0]["search"];
    let moves = liar["moves"].as_u64().unwrap();
    assert!(moves > 0);
    assert_eq!(
        (liar["pv_moves"].as_u64(), liar["pv_mismatches"].as_u64()),
        (Some(moves), Some(moves))
    );
    assert_eq!(summary["players"][1]["search"]["pv_mismatches"], 0);
    let warning = format!(
        "Warning: liar's bestmove did not match the beginning of its last PV {moves} times (of {moves} moves with a PV)"
    );
    assert!(stdout.contains(&warning), "{stdout}");
    assert!(!stdout.contains("Warning: honest"), "{stdout}");
}

#[test]
fn a_hostile_info_volley_neither_faults_the_engine_nor_breaks_the_summary() {
    let dir = scratch("known_hostile");
    let (stdout, summary) = short_match(
        &dir,
        info_engine(&[], Some("hostile"), "hostile", None),
        info_engine(&[], Some("talker"), "talk", None),
    );
    assert_eq!(summary["games_played"], 2, "{summary}");
    assert_eq!(summary["faults"], serde_json::json!([]), "{summary}");
    let hostile = &summary["players"][0]["search"];
    let moves = hostile["moves"].as_u64().unwrap();
    assert!(moves > 0);
    // The last line of each search wins: the largest depth and node count there are, summed
    // without overflow, and its PV (the move played) after all the garbage ones.
    assert_eq!(hostile["average_depth"], f64::from(u32::MAX));
    assert_eq!(hostile["nodes"], u64::MAX);
    assert_eq!(hostile["pv_mismatches"], 0);
    let row = search_row(&stdout, "hostile");
    assert_eq!(row[1], "4294967295.00", "{stdout}");
    assert!(
        stdout.chars().all(|c| c == '\n' || !c.is_control()),
        "{stdout:?}"
    );
}

#[test]
fn a_level_needs_the_stockfish_preset_and_a_level_from_one_to_eight() {
    let dir = scratch("known_bad_level");
    for (words, expected) in [
        (
            vec!["--engine", "stockfish", "level=9"],
            "levels are 1 to 8",
        ),
        (
            vec!["--engine", "stockfish", "level=x"],
            "expected a level from 1 to 8",
        ),
        (
            vec!["--engine", "cmd=/bin/true", "level=3"],
            "--engine stockfish level=3",
        ),
        (vec!["--engine", "stockfish", "bot=evil_bot"], "not bot="),
    ] {
        let mut all: Vec<String> = vec!["evil_bot".into()];
        all.extend(words.iter().map(|w| w.to_string()));
        let out = run_match(&dir, &all);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{words:?}");
        assert!(stderr.contains(expected), "{words:?}: {stderr}");
    }
}

/// The one-step "play, then analyse" against the real Stockfish.
#[test]
fn match_analyze_reports_accuracy_and_acpl_per_player() {
    let Some(stockfish) = outside::need(&STOCKFISH) else {
        return;
    };
    let dir = scratch("known_analyze");
    let sf: PathBuf = stockfish;
    let all: Vec<String> = [
        "evil_bot",
        "--engine",
        "stockfish",
        "level=1",
        &format!("cmd={}", sf.display()),
        "--games",
        "2",
        "-j",
        "2",
        "--maxmoves",
        "30",
        "--analyze",
        "--analyze-depth",
        "4",
        "--analyze-engine",
        &sf.display().to_string(),
        "-q",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    let stdout = run_match_ok(&dir, &all);
    assert!(
        stdout.contains("Results of evil_bot vs stockfish-level1"),
        "{stdout}"
    );
    // The analyser names Stockfish by its `id name` (`Stockfish 15.1`).
    let analysed = stdout
        .lines()
        .find(|l| l.starts_with("2 games analysed by "));
    assert!(
        analysed.is_some_and(|l| l.ends_with(" at depth 4")),
        "{stdout}"
    );
    for player in ["evil_bot", "stockfish-level1"] {
        let row = stdout
            .lines()
            .rev()
            .find(|l| l.split_whitespace().next() == Some(player))
            .unwrap_or_else(|| panic!("no analysis row for {player}:\n{stdout}"));
        let words: Vec<&str> = row.split_whitespace().collect();
        // player, games, moves, ACPL, accuracy...
        assert_eq!(words[1], "2", "{row}");
        assert!(words[3].parse::<u32>().is_ok(), "ACPL in {row}");
        assert!(words[4].ends_with('%'), "accuracy in {row}");
    }
}

/// turochamp_modern plays the move of the last PV it reported. At 3000 nodes a move its last
/// iteration is always cut short; the version that kept a move found in that cut iteration
/// (and reported only completed ones) played 8 moves of 163 against its last PV in exactly
/// this match, which fixed nodes make the same on every run.
#[test]
fn the_reference_bots_play_the_move_their_last_pv_starts_with() {
    let dir = scratch("known_reference_pv");
    let all: Vec<String> = [
        "turochamp_modern",
        "turochamp_faithful",
        "--nodes",
        "3000",
        "--games",
        "4",
        "-j",
        "2",
        "--json",
        "s.json",
        "-q",
    ]
    .map(String::from)
    .to_vec();
    let stdout = run_match_ok(&dir, &all);
    let summary = json(&dir.join("s.json"));
    let modern = &summary["players"][0]["search"];
    assert!(modern["pv_moves"].as_u64().unwrap() > 100, "{modern}");
    assert_eq!(modern["pv_mismatches"], 0, "{stdout}");
    assert!(modern["average_depth"].as_f64().unwrap() >= 2.0, "{modern}");
    // turochamp_faithful reports nothing: no PV, no depth, no nodes (it counts none).
    let faithful = &summary["players"][1]["search"];
    assert_eq!(faithful["pv_moves"], 0, "{faithful}");
    assert!(faithful["average_depth"].is_null(), "{faithful}");
}

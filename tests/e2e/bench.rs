//! End-to-end tests of `challenge bench`: the limit reaches the engine, the numbers come
//! from the engine's own `info` lines, the signature follows the search, suites are scored
//! by their `bm`/`am` moves, and bad input or a failing engine is reported, not fatal.

use crate::common;

use std::path::PathBuf;
use std::process::Output;

use common::outside::{self, STOCKFISH};
use common::{challenge, kit_root};

/// `challenge bench` against the scripted test engine: expects `go`, answers by position.
fn bench_scripted(go: &str, answers: &[&str], extra: &[&str]) -> Output {
    let script = kit_root().join("tests/engines/bench_engine.py");
    let mut args = vec![
        "bench".to_string(),
        "--engine".into(),
        "python3".into(),
        "--engine-arg".into(),
        script.display().to_string(),
        "--engine-arg".into(),
        go.into(),
    ];
    for answer in answers {
        args.push("--engine-arg".into());
        args.push((*answer).into());
    }
    args.extend(extra.iter().map(|s| s.to_string()));
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    challenge(&args)
}

fn text(output: &Output) -> (String, String) {
    (
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

/// The value after `label` on its summary line.
fn summary(stdout: &str, label: &str) -> String {
    stdout
        .lines()
        .find_map(|line| line.strip_prefix(label))
        .unwrap_or_else(|| panic!("no `{label}` line in:\n{stdout}"))
        .trim_start_matches([' ', ':'])
        .to_string()
}

/// The table rows: (depth, nodes) of each position.
fn rows(stdout: &str) -> Vec<(String, String)> {
    stdout
        .lines()
        .filter(|line| line.contains(" bench."))
        .map(|line| {
            // #, id (several words), depth, nodes, ms, nodes/s, bestmove
            let words: Vec<&str> = line.split_whitespace().rev().collect();
            (words[4].to_string(), words[3].to_string())
        })
        .collect()
}

#[test]
fn the_depth_reaches_the_engine_and_its_node_counts_make_the_total() {
    let output = bench_scripted("go depth 3", &["*=e2e4"], &["--depth", "3"]);
    let (stdout, stderr) = text(&output);
    assert!(output.status.success(), "{stdout}\n{stderr}");
    let rows = rows(&stdout);
    assert_eq!(rows.len(), 30, "{stdout}");
    let mut total = 0;
    for (depth, nodes) in &rows {
        assert_eq!(depth, "3", "{stdout}");
        // 1000 per ply plus the FEN's length: the engine got `go depth 3` and the position.
        let nodes: u64 = nodes.parse().unwrap();
        assert!((3020..3100).contains(&nodes), "{stdout}");
        total += nodes;
    }
    assert_eq!(summary(&stdout, "nodes searched"), total.to_string());
    let nps: f64 = summary(&stdout, "nodes/second").parse().unwrap();
    assert!(nps > 0.0, "{stdout}");
    let signature = summary(&stdout, "signature");
    assert_eq!(signature.len(), 16, "{stdout}");
    assert!(
        stdout.contains("bench bench-engine: 30 positions at depth 3"),
        "{stdout}"
    );
}

#[test]
fn the_signature_repeats_and_changes_with_the_search() {
    let signature = |go: &str, answer: &str, limit: &[&str]| {
        let output = bench_scripted(go, &[answer], limit);
        let (stdout, stderr) = text(&output);
        assert!(output.status.success(), "{stdout}\n{stderr}");
        summary(&stdout, "signature")
    };
    let first = signature("go nodes 500", "*=e2e4", &["--nodes", "500"]);
    assert_eq!(
        first,
        signature("go nodes 500", "*=e2e4", &["--nodes", "500"])
    );
    assert_ne!(
        first,
        signature("go nodes 501", "*=e2e4", &["--nodes", "501"])
    );
    assert_ne!(
        first,
        signature("go nodes 500", "*=d2d4", &["--nodes", "500"])
    );
}

#[test]
fn a_time_limit_and_missing_node_counts_are_said_so() {
    let output = bench_scripted("go movetime 20", &["*=nonodes"], &["--movetime", "20"]);
    let (stdout, stderr) = text(&output);
    assert!(output.status.success(), "{stdout}\n{stderr}");
    assert!(
        stdout.contains("nodes searched  : - (the engine reported no `info ... nodes`)"),
        "{stdout}"
    );
    assert!(
        stdout.contains("a time limit: expect it to vary"),
        "{stdout}"
    );
    assert!(
        rows(&stdout).iter().all(|(_, nodes)| nodes == "-"),
        "{stdout}"
    );
}

/// A suite file in a fresh temporary directory.
fn suite_file(name: &str, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("bench-test-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("suite.epd");
    std::fs::write(&path, text).unwrap();
    path
}

const WAC_1: &str = "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1";
const WAC_2: &str = "8/7p/5k2/5p2/p1p2P2/Pr1pPK2/1P1R3P/8";
const WAC_8: &str = "r4q1k/p2bR1rp/2p2Q1N/5p2/5p2/2P5/PP3PPP/R5K1";
const ENDING: &str = "6k1/5ppp/8/8/8/8/8/R5K1";
const KINGS: &str = "4k3/8/8/8/8/8/8/4K3";
const KINGS_2: &str = "4k3/8/8/8/8/8/8/3K4";

#[test]
fn a_suite_is_scored_by_bm_and_am_and_survives_bad_lines_and_engine_failures() {
    let suite = suite_file(
        "score",
        &format!(
            "{WAC_1} w - - bm Qg6; id \"WAC.001\";\n\
             # a comment line\n\
             this line is not EPD\n\
             {WAC_8} w - - am Qxg7+; id \"avoid\";\n\
             {ENDING} w - - bm Ra8#; id \"crashes\";\n\
             {KINGS} w - - bm Kd2; id \"hangs\";\n\
             {KINGS_2} b - - bm Kd7; id \"illegal\";\n\
             {WAC_1} w - - bm Zz9; id \"bad SAN\";\n\
             {WAC_2} b - - bm Rxb2; id \"WAC.002\";\n"
        ),
    );
    let answers = [
        format!("{WAC_1}=g3g6"),
        format!("{WAC_8}=f6g7"),
        format!("{ENDING}=crash"),
        format!("{KINGS}=hang"),
        format!("{WAC_2}=b3b2"),
        "*=e2e5".to_string(),
    ];
    let answers: Vec<&str> = answers.iter().map(String::as_str).collect();
    let suite_arg = suite.display().to_string();
    let output = bench_scripted(
        "go nodes 100",
        &answers,
        &["--suite", &suite_arg, "--nodes", "100", "--timeout", "1"],
    );
    let (stdout, stderr) = text(&output);
    assert!(output.status.success(), "{stdout}\n{stderr}");
    assert!(stderr.contains("skipped line 3: "), "{stderr}");
    assert!(stderr.contains("skipped line 8: "), "{stderr}");
    assert!(stderr.contains("Zz9"), "{stderr}");
    let line = |id: &str| {
        stdout
            .lines()
            .find(|line| line.split_whitespace().nth(1) == Some(id))
            .unwrap_or_else(|| panic!("no line for {id}:\n{stdout}"))
            .to_string()
    };
    assert!(line("WAC.001").contains("ok      Qg6"), "{stdout}");
    assert!(
        line("avoid").contains("failed  Qxg7+ (avoid: Qxg7+)"),
        "{stdout}"
    );
    assert!(line("crashes").contains("no move: engine"), "{stdout}");
    assert!(line("crashes").contains("died"), "{stdout}");
    assert!(line("hangs").contains("no move:"), "{stdout}");
    assert!(line("hangs").contains("no `bestmove` within"), "{stdout}");
    assert!(
        line("illegal").contains("e2e5 (not a legal move)"),
        "{stdout}"
    );
    // After a crash and a hang, the restarted engine still answers.
    assert!(line("WAC.002").contains("ok      Rxb2"), "{stdout}");
    assert!(
        stdout.contains("solved 2 of 6 (33.3%) at 100 nodes"),
        "{stdout}"
    );
    assert!(
        stdout.contains("not solved: avoid crashes hangs illegal\n"),
        "{stdout}"
    );
    assert!(stdout.contains("2 lines of"), "{stdout}");
}

#[test]
fn the_shipped_suites_read_without_a_skipped_line() {
    let wac = std::fs::read_to_string(kit_root().join("suites/wac.epd")).unwrap();
    let file = kit::bench::epd::read_epd(&wac);
    assert!(file.errors.is_empty(), "{:?}", file.errors);
    assert_eq!(file.records.len(), 300);
    assert_eq!(file.records[0].id, "WAC.001");
    assert_eq!(file.records[299].id, "WAC.300");
    assert!(file.records.iter().all(|r| !r.best.is_empty()));
    let bench = kit::bench::bench_positions().unwrap();
    assert_eq!(bench.len(), 30);
    let on_disk = std::fs::read_to_string(kit_root().join("suites/bench.epd")).unwrap();
    assert_eq!(on_disk, kit::bench::BENCH_EPD);
}

#[test]
fn out_of_range_limits_and_bad_arguments_are_clear_errors() {
    for (args, expected) in [
        (
            vec!["bench", "my_bot", "--depth", "0"],
            "0 is not in 1..=64",
        ),
        (
            vec!["bench", "my_bot", "--depth", "65"],
            "65 is not in 1..=64",
        ),
        (vec!["bench", "my_bot", "--nodes", "0"], "--nodes"),
        (vec!["bench", "my_bot", "--movetime", "0"], "--movetime"),
        (
            vec!["bench", "my_bot", "--movetime", "abc"],
            "invalid digit",
        ),
        (vec!["bench", "my_bot", "--timeout", "0"], "--timeout"),
        (
            vec!["bench", "my_bot", "--depth", "3", "--nodes", "9"],
            "cannot be used with",
        ),
        (
            vec!["bench", "my_bot", "--engine", "/bin/true"],
            "cannot be used with",
        ),
        (vec!["bench"], "required"),
        (vec!["bench", "no_such_bot"], "no bot `no_such_bot`"),
        (
            vec!["bench", "--engine", "/nonexistent/engine"],
            "cannot start",
        ),
        (
            vec!["bench", "--engine", "python3", "--option", "Hash"],
            "not NAME=VALUE",
        ),
    ] {
        let output = challenge(&args);
        let (stdout, stderr) = text(&output);
        assert!(!output.status.success(), "{args:?}: {stdout}");
        assert!(stderr.contains(expected), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    }
    let output = bench_scripted("go depth 1", &[], &["--suite", "/nonexistent/suite.epd"]);
    let (_, stderr) = text(&output);
    assert!(
        stderr.contains("cannot read /nonexistent/suite.epd"),
        "{stderr}"
    );
}

#[test]
fn a_bot_is_benched_through_its_built_engine() {
    let output = challenge(&["bench", "my_bot", "--depth", "2"]);
    let (stdout, stderr) = text(&output);
    assert!(output.status.success(), "{stdout}\n{stderr}");
    assert!(
        stdout.contains("bench my_bot: 30 positions at depth 2"),
        "{stdout}"
    );
    let rows = stdout
        .lines()
        .filter(|line| line.contains(" bench."))
        .count();
    assert_eq!(rows, 30, "{stdout}");
    assert!(summary(&stdout, "signature").len() >= 16, "{stdout}");
}

#[test]
fn a_bot_that_counts_its_nodes_reports_them_and_repeats_its_signature() {
    let bench = || {
        let output = challenge(&["bench", "turochamp_modern", "--nodes", "3000"]);
        let (stdout, stderr) = text(&output);
        assert!(output.status.success(), "{stdout}\n{stderr}");
        stdout
    };
    let first = bench();
    let rows = rows(&first);
    assert_eq!(rows.len(), 30, "{first}");
    for (_, nodes) in &rows {
        let nodes: u64 = nodes.parse().unwrap_or_else(|_| panic!("{first}"));
        // The node limit ends the search, a few nodes past it at most.
        assert!((3000..3100).contains(&nodes), "{first}");
    }
    assert_eq!(
        summary(&first, "signature"),
        summary(&bench(), "signature"),
        "a node-limited bench is the same search every time"
    );
}

#[test]
fn stockfish_benches_reproducibly_and_solves_win_at_chess() {
    let Some(stockfish) = outside::need(&STOCKFISH) else {
        return;
    };
    let engine = stockfish.display().to_string();
    let run = |args: &[&str]| {
        let mut all = vec!["bench", "--engine", &engine, "--option", "Threads=1"];
        all.extend_from_slice(args);
        let output = challenge(&all);
        let (stdout, stderr) = text(&output);
        assert!(output.status.success(), "{stdout}\n{stderr}");
        stdout
    };
    let first = run(&["--depth", "8"]);
    let second = run(&["--depth", "8"]);
    assert_eq!(summary(&first, "signature"), summary(&second, "signature"));
    assert_eq!(
        summary(&first, "nodes searched"),
        summary(&second, "nodes searched")
    );
    let nodes: u64 = summary(&first, "nodes searched").parse().unwrap();
    assert!(nodes > 10_000, "{first}");
    let wac = std::fs::read_to_string(kit_root().join("suites/wac.epd")).unwrap();
    let first_ten: String = wac.lines().take(10).map(|l| format!("{l}\n")).collect();
    let suite = suite_file("stockfish", &first_ten);
    let stdout = run(&["--suite", suite.to_str().unwrap(), "--nodes", "200000"]);
    let solved: usize = summary(&stdout, "solved")
        .split_whitespace()
        .next()
        .unwrap()
        .parse()
        .unwrap();
    assert!(solved >= 8, "{stdout}");
}

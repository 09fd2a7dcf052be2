//! End-to-end tests of `challenge bench`: the limit reaches the engine, the numbers come
//! from the engine's own `info` lines, the signature follows the search, suites are scored
//! by their `bm`/`am` moves, games keep the engine's table in sequence mode, the depth
//! table and the CSV and JSON say what the table says, and bad input or a failing engine
//! is reported, not fatal.

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
    assert!(line("crashes").contains("failed: engine"), "{stdout}");
    assert!(line("crashes").contains("died"), "{stdout}");
    assert!(line("hangs").contains("failed: "), "{stdout}");
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
    let file = measure::read_epd(&wac);
    assert!(file.errors.is_empty(), "{:?}", file.errors);
    assert_eq!(file.records.len(), 300);
    assert_eq!(file.records[0].id, "WAC.001");
    assert_eq!(file.records[299].id, "WAC.300");
    assert!(file.records.iter().all(|r| !r.best.is_empty()));
    let bench = measure::bench_positions().unwrap();
    assert_eq!(bench.len(), 30);
    let on_disk = std::fs::read_to_string(kit_root().join("suites/bench.epd")).unwrap();
    assert_eq!(on_disk, measure::BENCH_EPD);
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
        // Checked as `match --engine option.` and `analyze --option` check theirs: a
        // carriage return would end the `setoption` line and start another command.
        (
            vec!["bench", "--engine", "python3", "--option", "Hash=1\rquit"],
            "line breaks or other control characters",
        ),
        (
            vec![
                "bench",
                "--engine",
                "python3",
                "--option",
                "Skill value x=1",
            ],
            "the word `name` or `value`",
        ),
        (
            vec!["bench", "my_bot", "--option", "Hash=16"],
            "engine `my_bot` has no option `Hash`; it declares: Clear Hash, Seed",
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

/// A middlegame (the bench's third position) for the sequence tests.
const MIDDLEGAME: &str = "4rrk1/pp1n3p/3q2pQ/2p1pb2/2PP4/2P3N1/P2B2PP/4RRK1 b - -";

/// `challenge bench BOT --suite FILE ARGS --json -`: the JSON, and the table from stderr.
fn bench_json(bot: &str, suite: &std::path::Path, extra: &[&str]) -> (serde_json::Value, String) {
    let suite = suite.display().to_string();
    let mut args = vec!["bench", bot, "--suite", &suite, "--json", "-"];
    args.extend_from_slice(extra);
    let output = challenge(&args);
    let (stdout, stderr) = text(&output);
    assert!(output.status.success(), "{stdout}\n{stderr}");
    let json = serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("{e}: {stdout}"));
    (json, stderr)
}

fn nodes_by_id(json: &serde_json::Value) -> Vec<(String, u64)> {
    json["positions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            let nodes = p["nodes"].as_u64().unwrap_or_else(|| panic!("{p}"));
            (p["id"].as_str().unwrap().to_string(), nodes)
        })
        .collect()
}

#[test]
fn in_sequence_a_game_keeps_the_bots_table_and_a_new_game_does_not() {
    // The same position twice in game g, then once as game h and once alone: turochamp_modern
    // keeps its transposition table between moves of a game, so its second look is cheaper.
    let suite = suite_file(
        "sequence",
        &format!(
            "{MIDDLEGAME} id \"g.1\";\n{MIDDLEGAME} id \"g.2\";\n\
             {MIDDLEGAME} id \"h.1\";\n{MIDDLEGAME} id \"alone\";\n"
        ),
    );
    let (json, table) = bench_json("turochamp_modern", &suite, &["--depth", "5", "--sequence"]);
    let nodes = nodes_by_id(&json);
    let [(_, g1), (_, g2), (_, h1), (_, alone)] = nodes[..] else {
        panic!("{nodes:?}")
    };
    assert!(g2 < g1 / 2, "the table carried over: {nodes:?}");
    assert_eq!((h1, alone), (g1, g1), "a new game starts afresh: {nodes:?}");
    assert_eq!(json["mode"], "sequence");
    assert_eq!(json["positions"][1]["game"], "g");
    assert_eq!(json["positions"][3]["game"], serde_json::Value::Null);
    assert!(table.contains("3 games in sequence"), "{table}");
    // Without --sequence every search starts from `ucinewgame`: all four cost the same.
    let (json, _) = bench_json("turochamp_modern", &suite, &["--depth", "5"]);
    let independent = nodes_by_id(&json);
    assert!(independent.iter().all(|(_, n)| *n == g1), "{independent:?}");
    assert_eq!(json["mode"], "independent");
}

#[test]
fn the_depth_table_adds_up_a_bots_iterations() {
    let bench = std::fs::read_to_string(kit_root().join("suites/bench.epd")).unwrap();
    let first_five: String = bench
        .lines()
        .filter(|l| !l.starts_with('#'))
        .take(5)
        .map(|l| format!("{l}\n"))
        .collect();
    let suite = suite_file("depths", &first_five);
    let (json, table) = bench_json("turochamp_modern", &suite, &["--depth", "4"]);
    let depths = json["depths"].as_array().unwrap();
    assert_eq!(depths.len(), 4, "{json}");
    let mut before: Option<u64> = None;
    for (row, depth) in depths.iter().zip(1..) {
        assert_eq!(row["depth"], depth);
        assert_eq!(row["positions"], 5);
        let iteration = row["iteration_nodes"].as_u64().unwrap();
        match before {
            None => assert!(row["ebf"].is_null()),
            Some(b) => {
                let ebf = row["ebf"].as_f64().unwrap();
                assert!((ebf - iteration as f64 / b as f64).abs() < 1e-9, "{row}");
            }
        }
        before = Some(iteration);
    }
    // Under a depth limit the last iteration is the whole search: cumulative = total.
    assert_eq!(depths[3]["nodes"], json["totals"]["nodes"]);
    let sum: u64 = depths
        .iter()
        .map(|r| r["iteration_nodes"].as_u64().unwrap())
        .sum();
    assert_eq!(sum, json["totals"]["nodes"].as_u64().unwrap());
    for position in json["positions"].as_array().unwrap() {
        let its = position["iterations"].as_array().unwrap();
        assert_eq!(its.len(), 4, "{position}");
        assert_eq!(its[3]["nodes"], position["nodes"], "{position}");
    }
    assert!(
        table.contains("EBF = iteration(d) / iteration(d-1)"),
        "{table}"
    );
}

#[test]
fn csv_has_its_documented_columns_a_row_per_position_and_a_total() {
    let suite = suite_file(
        "csv",
        &format!(
            "{WAC_1} w - - bm Qg6; id \"WAC.001, with a comma\";\n\
             {ENDING} w - - id \"unscored\";\n\
             {KINGS} w - - bm Kd2; id \"crashes\";\n"
        ),
    );
    let csv_path = suite.with_file_name("run.csv");
    let answers = [
        format!("{WAC_1}=g3g6"),
        format!("{KINGS}=crash"),
        "*=a1a8".to_string(),
    ];
    let answers: Vec<&str> = answers.iter().map(String::as_str).collect();
    let suite_arg = suite.display().to_string();
    let csv_arg = csv_path.display().to_string();
    let output = bench_scripted(
        "go depth 2",
        &answers,
        &["--suite", &suite_arg, "--depth", "2", "--csv", &csv_arg],
    );
    let (stdout, stderr) = text(&output);
    assert!(output.status.success(), "{stdout}\n{stderr}");
    let mut reader = csv::Reader::from_path(&csv_path).unwrap();
    let header: Vec<String> = reader.headers().unwrap().iter().map(String::from).collect();
    assert_eq!(header, measure::CSV_COLUMNS);
    let rows: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
    assert_eq!(rows.len(), 4, "{rows:?}");
    let cell = |row: usize, column: &str| {
        let at = header.iter().position(|h| h == column).unwrap();
        rows[row][at].to_string()
    };
    assert_eq!(cell(0, "id"), "WAC.001, with a comma");
    assert_eq!(
        (cell(0, "kind"), cell(0, "number")),
        ("position".into(), "1".into())
    );
    assert_eq!(
        (cell(0, "depth"), cell(0, "bestmove")),
        ("2".into(), "g3g6".into())
    );
    assert_eq!(
        (cell(0, "move"), cell(0, "solved")),
        ("Qg6".into(), "true".into())
    );
    assert_eq!(
        cell(1, "solved"),
        "",
        "a record without bm/am is not scored"
    );
    assert_eq!(cell(1, "move"), "Ra8#");
    assert!(cell(2, "error").contains("died"), "{rows:?}");
    assert_eq!(cell(2, "nodes"), "");
    let nodes: u64 = (0..2)
        .map(|r| cell(r, "nodes").parse::<u64>().unwrap())
        .sum();
    assert_eq!(cell(3, "kind"), "total");
    assert_eq!(cell(3, "number"), "3");
    assert_eq!(cell(3, "nodes"), nodes.to_string());
    assert_eq!(
        (cell(3, "solved"), cell(3, "error")),
        ("1".into(), "1".into())
    );
    assert!(cell(3, "time_ms").parse::<f64>().unwrap() > 0.0);
    // The table went to stdout as usual, the CSV to its file only.
    assert!(
        stdout.contains("solved 1 of 2 (50.0%) at depth 2"),
        "{stdout}"
    );
    assert!(!stdout.contains("kind,number"), "{stdout}");
}

#[test]
fn csv_to_standard_output_moves_the_table_to_stderr() {
    let output = bench_scripted("go depth 1", &["*=e2e4"], &["--depth", "1", "--csv", "-"]);
    let (stdout, stderr) = text(&output);
    assert!(output.status.success(), "{stdout}\n{stderr}");
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 1 + 30 + 1, "{stdout}");
    assert_eq!(lines[0], measure::CSV_COLUMNS.join(","));
    assert!(lines[31].starts_with("total,30,"), "{stdout}");
    assert!(
        stderr.contains("bench bench-engine: 30 positions"),
        "{stderr}"
    );
    assert!(stderr.contains("signature"), "{stderr}");
}

#[test]
fn split_games_outputs_and_unreadable_files_are_refused_before_any_search() {
    let split = suite_file(
        "split",
        &format!(
            "{KINGS} w - - id \"a.1\";\n{KINGS} w - - id \"b.1\";\n{KINGS} w - - id \"a.2\";\n"
        ),
    );
    let split_arg = split.display().to_string();
    let binary = split.with_file_name("binary.epd");
    std::fs::write(&binary, b"# ok\n\xff\xfe not text\n").unwrap();
    let binary_arg = binary.display().to_string();
    let cases: [(Vec<&str>, String); 6] = [
        (
            vec!["--suite", &split_arg, "--sequence"],
            format!(
                "{split_arg}, line 3: position `a.2` belongs to game `a`, which line 1 began and line 2 left for game `b`"
            ),
        ),
        (vec!["--sequence"], "--suite".into()),
        (
            vec!["--csv", "-", "--json", "-"],
            "both write to standard output".into(),
        ),
        (
            vec!["--suite", &split_arg, "--csv", &split_arg],
            "is the suite being read".into(),
        ),
        (
            vec!["--json", "/nonexistent/dir/run.json"],
            "--json: cannot create /nonexistent/dir/run.json".into(),
        ),
        (
            vec!["--suite", &binary_arg],
            "is not UTF-8 text: line 2".into(),
        ),
    ];
    for (extra, expected) in cases {
        // The engine would answer nothing useful: a refusal must come first.
        let output = bench_scripted("go never", &[], &extra);
        let (stdout, stderr) = text(&output);
        assert!(!output.status.success(), "{extra:?}: {stdout}");
        assert!(stderr.contains(&expected), "{extra:?}: {stderr}");
        assert!(!stdout.contains("bestmove"), "{extra:?}: {stdout}");
    }
    assert!(
        std::fs::read_to_string(&split).unwrap().contains("a.2"),
        "the suite is intact"
    );
}

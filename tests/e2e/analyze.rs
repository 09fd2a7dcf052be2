//! `challenge analyze`: the numbers of a game whose evaluations are fixed by a scripted
//! engine, checked against a hand computation with lichess's formulas; resuming and Ctrl-C;
//! and a real Stockfish run (under CI a missing Stockfish fails it).

// Tests read as scripts of one scenario each; length is not a smell here.
#![allow(clippy::too_many_lines)]

use crate::common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use common::outside::{self, STOCKFISH};

const KIT: &str = env!("CARGO_MANIFEST_DIR");

fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn analyze(dir: &Path, args: &[&str]) -> Output {
    Command::new(crate::common::challenge_exe())
        .arg("analyze")
        .args(args)
        .current_dir(dir)
        .output()
        .expect("run challenge analyze")
}

fn analyze_ok(dir: &Path, args: &[&str]) -> String {
    let out = analyze(dir, args);
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "challenge analyze {args:?} failed\nstdout: {stdout}\nstderr: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    stdout
}

/// `--engine` arguments for the scripted engine with these answers (one per position).
fn scripted(go: &str, answers: &[&str]) -> Vec<String> {
    let script = Path::new(KIT).join("tests/engines/scripted.py");
    let mut args = vec![
        "--engine".to_string(),
        "python3".to_string(),
        "--engine-arg".to_string(),
        script.display().to_string(),
        "--engine-arg".to_string(),
        go.to_string(),
    ];
    for answer in answers {
        args.push("--engine-arg".to_string());
        args.push(answer.to_string());
    }
    args
}

fn strs(args: &[String]) -> Vec<&str> {
    args.iter().map(String::as_str).collect()
}

/// The scholar's mate, with evaluations chosen so that every rule shows.
const SCHOLAR: &str = "[White \"Ann\"]\n[Black \"Bob\"]\n[Result \"1-0\"]\n\n\
    1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n";

/// The engine's answer for each position, from the side to move (UCI's convention). In
/// White's view the evaluations after each move are +0.30, +1.20, +0.20, +0.30, -1.00, #1.
const SCHOLAR_ANSWERS: [&str; 7] = [
    "cp:20:e2e4",  // start (not used as an evaluation: lichess takes +0.15)
    "cp:-30:e7e5", // after 1. e4: +0.30 for White
    "cp:120:g1f3", // after 1... e5: +1.20
    "cp:-20:b8c6", // after 2. Qh5: +0.20
    "cp:30:g1f3",  // after 2... Nc6: +0.30
    "cp:100:g7g6", // after 3. Bc4: -1.00
    "mate:1:h5f7", // after 3... Nf6: White mates in 1
                   // after 4. Qxf7#: checkmate, never asked (the script has no answer)
];

// The hand computation, with lichess's formulas (see src/analyze.rs for their sources).
//
// Win% = 50 + 50 * (2 / (1 + exp(-0.00368208 * cp)) - 1), cp capped at ±1000, mate = ±1000:
//   +0.15 → 51.3804   +0.30 → 52.7588   +1.20 → 60.8700   +0.20 → 51.8402
//   -1.00 → 40.8974   #1 → 97.5447
//
// Centipawn loss (mover's view, capped evaluations, at least 0):
//   White: e4 15→30: 0;  Qh5 120→20: 100;  Bc4 30→-100: 130   → 230 / 3 = 76.7 → ACPL 77
//   Black: e5 30→120: 90; Nc6 20→30: 10;   Nf6 -100→#1 (+1000): 1100 → 1200 / 3 → ACPL 400
//   Qxf7# gives mate on the board: lichess leaves it out of every number.
//
// Judgements (winning chances wc = 2 / (1 + exp(-0.00368208 * cp)) - 1, uncapped; only for
// moves that are not the engine's choice):
//   e4, e5, Nc6 are the engine's moves: none (e5's drop of 0.162 would be an inaccuracy).
//   Qh5: wc(+1.20) - wc(+0.20) = 0.2218 - 0.0368 = 0.1806 ≥ 0.1: Inaccuracy ("Nf3 was best").
//   Bc4: wc(+0.30) - wc(-1.00) = 0.0552 - (-0.1821) = 0.2372 ≥ 0.2: Mistake ("Nf3 was best").
//   Nf6: Black is now mated from -1.00 for White (+1.00 for Black, above -7.00): Blunder.
//
// Move accuracy = 103.1668100711649 * exp(-0.04354415386753951 * drop) - 3.166924740191411 + 1
// (100 when the mover's Win% does not drop), drop in the mover's Win%:
//   White: e4 100;  Qh5 (60.8700 - 51.8402 = 9.0298) 67.4602;  Bc4 (11.8613) 59.3834
//   Black: e5 (8.1112) 70.3015;  Nc6 (0.9186) 96.9549;  Nf6 (56.6473) 6.5886
// Volatility weights: 6 moves → window of 2 positions; weight = population standard
// deviation of the window's Win%, clamped to 0.5..12 (half the difference of two values):
//   e4 0.6892  e5 4.0556  Qh5 4.5149  Nc6 0.5 (0.459)  Bc4 5.9307  Nf6 12 (28.32)
// White: weighted mean (100*0.6892 + 67.4602*4.5149 + 59.3834*5.9307) / 11.1348 = 65.1722;
//        harmonic mean 3 / (1/100 + 1/67.4602 + 1/59.3834) = 72.0058; accuracy 68.5890.
// Black: weighted mean (70.3015*4.0556 + 96.9549*0.5 + 6.5886*12) / 16.5556 = 24.9255;
//        harmonic mean 3 / (1/70.3015 + 1/96.9549 + 1/6.5886) = 17.0150; accuracy 20.9702.

#[test]
fn hand_computed_game_gets_lichess_numbers() {
    let dir = scratch("analyze_hand");
    std::fs::write(dir.join("game.pgn"), SCHOLAR).unwrap();
    let mut args = vec![
        "game.pgn",
        "--depth",
        "7",
        "-o",
        "out.pgn",
        "--json",
        "out.jsonl",
    ];
    let engine = scripted("go depth 7", &SCHOLAR_ANSWERS);
    args.extend(strs(&engine));
    let stdout = analyze_ok(&dir, &args);

    let rows = summary_rows(&stdout);
    assert_eq!(
        rows[0],
        ["Ann", "1", "3", "77", "68.6%", "1", "1", "0"],
        "{stdout}"
    );
    assert_eq!(
        rows[1],
        ["Bob", "1", "3", "400", "21.0%", "0", "0", "1"],
        "{stdout}"
    );
    assert!(
        stdout.starts_with("1 games analysed by scripted at depth 7"),
        "{stdout}"
    );

    let json = std::fs::read_to_string(dir.join("out.jsonl")).unwrap();
    let game: serde_json::Value = serde_json::from_str(json.lines().next().unwrap()).unwrap();
    let close = |v: &serde_json::Value, want: f64| (v.as_f64().unwrap() - want).abs() < 1e-3;
    assert!(
        close(&game["sides"]["white"]["accuracy"], 68.5890),
        "{game}"
    );
    assert!(
        close(&game["sides"]["black"]["accuracy"], 20.9702),
        "{game}"
    );
    let moves = game["moves"].as_array().unwrap();
    let losses: Vec<_> = moves.iter().map(|m| m["cp_loss"].as_i64()).collect();
    let want = [
        Some(0),
        Some(90),
        Some(100),
        Some(10),
        Some(130),
        Some(1100),
        None,
    ];
    assert_eq!(losses, want);
    let accuracies = [100.0, 70.3015, 67.4602, 96.9549, 59.3834, 6.5886];
    for (m, want) in moves.iter().zip(accuracies) {
        assert!(close(&m["accuracy"], want), "{m}");
    }
    assert!(moves[6]["accuracy"].is_null() && moves[6]["eval"].is_null());
    let judged: Vec<_> = moves.iter().map(|m| m["judgement"].as_str()).collect();
    let want = [
        None,
        None,
        Some("Inaccuracy"),
        None,
        Some("Mistake"),
        Some("Blunder"),
        None,
    ];
    assert_eq!(judged, want);

    let pgn = std::fs::read_to_string(dir.join("out.pgn")).unwrap();
    let movetext = pgn.split("\n\n").nth(1).unwrap().split_whitespace();
    assert_eq!(
        movetext.collect::<Vec<_>>().join(" "),
        "1. e4 {[%eval 0.30]} 1... e5 {[%eval 1.20]} 2. Qh5 {[%eval 0.20] Inaccuracy. Nf3 \
         was best.} 2... Nc6 {[%eval 0.30]} 3. Bc4 {[%eval -1.00] Mistake. Nf3 was best.} \
         3... Nf6 {[%eval #1] Blunder. g6 was best.} 4. Qxf7# 1-0"
    );
    assert_eq!(
        python_chess_evals(&dir.join("out.pgn")),
        [
            "cp 30", "cp 120", "cp 20", "cp 30", "cp -100", "mate 1", "none"
        ]
    );
}

/// The rows of the summary table, split into cells (names have no spaces here).
fn summary_rows(stdout: &str) -> Vec<Vec<String>> {
    stdout
        .lines()
        .skip_while(|l| !l.starts_with("player"))
        .skip(1)
        .map(|l| l.split_whitespace().map(String::from).collect())
        .collect()
}

/// Each move's `[%eval]` as python-chess reads it (White's view), for the first game.
fn python_chess_evals(path: &Path) -> Vec<String> {
    let script = r#"
import sys, chess.pgn
game = chess.pgn.read_game(open(sys.argv[1]))
assert not game.errors, game.errors
for node in game.mainline():
    e = node.eval()
    if e is None:
        print("none")
    elif e.white().is_mate():
        print("mate", e.white().mate())
    else:
        print("cp", e.white().score())
"#;
    let out = Command::new("python3")
        .arg("-c")
        .arg(script)
        .arg(path)
        .output()
        .expect("run python3");
    assert!(
        out.status.success(),
        "python-chess could not read {}: {}",
        path.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(String::from)
        .collect()
}

#[test]
fn resumed_run_continues_and_counts_the_earlier_games() {
    let dir = scratch("analyze_resume");
    let two = format!("{SCHOLAR}\n{}", SCHOLAR.replace("Ann", "Cid"));
    std::fs::write(dir.join("games.pgn"), &two).unwrap();
    let engine = scripted("go nodes 500", &SCHOLAR_ANSWERS);
    let mut args = vec!["games.pgn", "--nodes", "500", "-o", "full.pgn", "-q"];
    args.extend(strs(&engine));
    let full = analyze_ok(&dir, &args);

    // An earlier run that finished only the first game.
    let whole = std::fs::read_to_string(dir.join("full.pgn")).unwrap();
    let first = whole.split("\n\n[Event").next().unwrap();
    std::fs::write(dir.join("part.pgn"), format!("{first}\n")).unwrap();
    let mut args = vec![
        "games.pgn",
        "--nodes",
        "500",
        "-o",
        "part.pgn",
        "--resume",
        "-q",
    ];
    args.extend(strs(&engine));
    let resumed = analyze_ok(&dir, &args);

    assert_eq!(resumed, full);
    assert_eq!(
        std::fs::read_to_string(dir.join("part.pgn")).unwrap(),
        whole
    );
    assert_eq!(summary_rows(&full).len(), 3, "{full}");
}

#[test]
fn resume_refuses_an_output_of_other_games() {
    let dir = scratch("analyze_resume_other");
    std::fs::write(dir.join("games.pgn"), SCHOLAR).unwrap();
    std::fs::write(dir.join("out.pgn"), "1. d4 d5 *\n").unwrap();
    let engine = scripted("go depth 1", &SCHOLAR_ANSWERS);
    let mut args = vec!["games.pgn", "--depth", "1", "-o", "out.pgn", "--resume"];
    args.extend(strs(&engine));
    let out = analyze(&dir, &args);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("differs from game 1 of the input"), "{err}");
    assert_eq!(
        std::fs::read_to_string(dir.join("out.pgn")).unwrap(),
        "1. d4 d5 *\n"
    );
}

#[test]
fn an_engine_without_scores_fails_that_game_with_the_reason() {
    let dir = scratch("analyze_no_score");
    std::fs::write(dir.join("game.pgn"), SCHOLAR).unwrap();
    // The script expects `go depth 3` and gets `go depth 4`: it answers without a score.
    let engine = scripted("go depth 3", &SCHOLAR_ANSWERS);
    let mut args = vec!["game.pgn", "--depth", "4", "-o", "out.pgn"];
    args.extend(strs(&engine));
    let out = analyze(&dir, &args);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("game 1: not analysed: engine `scripted` gave no usable score for the position after 0 half-moves"),
        "{stderr}"
    );
    assert!(stdout.contains("0 games analysed") && stdout.contains("(1 could not be analysed)"));
    assert!(!out.status.success(), "a failed game fails the command");
}

#[test]
fn bad_pgn_and_bad_options_are_explained() {
    let dir = scratch("analyze_bad_input");
    std::fs::write(dir.join("bad.pgn"), "1. e4 e4 *\n").unwrap();
    let out = analyze(&dir, &["bad.pgn", "--engine", "/bin/true"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(
        err.contains("skipped game 1") && err.contains("holds no game"),
        "{err}"
    );

    std::fs::write(dir.join("ok.pgn"), SCHOLAR).unwrap();
    let out = analyze(&dir, &["ok.pgn", "--engine", "sf", "--option", "Hash"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("--option `Hash` is not NAME=VALUE"), "{err}");
    // A carriage return or a name with the word `value` would be read as another UCI
    // line or another option: refused as `match --engine option.` refuses them.
    for (option, why) in [
        ("Hash=1\rquit", "line breaks or other control characters"),
        ("Skill value x=1", "the word `name` or `value`"),
    ] {
        let out = analyze(&dir, &["ok.pgn", "--engine", "sf", "--option", option]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            !out.status.success() && err.contains(why),
            "{option:?}: {err}"
        );
    }
    let out = analyze(&dir, &["ok.pgn", "--engine", "./no-such-engine"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("cannot start `./no-such-engine`"), "{err}");
}

#[cfg(unix)]
#[test]
fn ctrl_c_keeps_the_finished_games() {
    let dir = scratch("analyze_ctrl_c");
    let games = "[White \"A\"]\n\n1. e4 e5 *\n\n[White \"B\"]\n\n1. e4 e5 2. Nf3 *\n";
    std::fs::write(dir.join("games.pgn"), games).unwrap();
    // The first game's three positions are answered; the second game's fourth never is.
    let answers = ["cp:20:e2e4", "cp:-30:e7e5", "cp:25:g1f3", "hang"];
    let engine = scripted("go depth 5", &answers);
    let mut child = Command::new(crate::common::challenge_exe())
        .arg("analyze")
        .args(["games.pgn", "--depth", "5", "-o", "out.pgn"])
        .args(&engine)
        .current_dir(&dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(30);
    while !std::fs::read_to_string(dir.join("out.pgn"))
        .is_ok_and(|t| t.contains("1-0") || t.contains("*"))
    {
        assert!(
            Instant::now() < deadline,
            "the first game was never written"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    std::thread::sleep(Duration::from_millis(200));
    let status = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let start = Instant::now();
    let out = loop {
        if child.try_wait().unwrap().is_some() {
            break child.wait_with_output().unwrap();
        }
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "Ctrl-C did not stop the analysis"
        );
        std::thread::sleep(Duration::from_millis(20));
    };
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stdout.starts_with("1 games analysed"), "{stdout}\n{stderr}");
    assert!(
        stderr.contains("stopped by Ctrl-C after 1 of 2 games"),
        "{stderr}"
    );
    assert!(stderr.contains("--resume"), "{stderr}");
    let written = std::fs::read_to_string(dir.join("out.pgn")).unwrap();
    assert_eq!(written.matches("[Event ").count(), 1, "{written}");
}

/// Morphy's Opera game (Paris, 1858).
const OPERA: &str = "[Event \"Paris\"]\n[White \"Morphy\"]\n[Black \"Allies\"]\n[Result \"1-0\"]\n\n\
    1. e4 e5 2. Nf3 d6 3. d4 Bg4 4. dxe5 Bxf3 5. Qxf3 dxe5 6. Bc4 Nf6 7. Qb3 Qe7 8. Nc3 c6 \
    9. Bg5 b5 10. Nxb5 cxb5 11. Bxb5+ Nbd7 12. O-O-O Rd8 13. Rxd7 Rxd7 14. Rd1 Qe6 \
    15. Bxd7+ Nxd7 16. Qb8+ Nxb8 17. Rd8# 1-0\n";

#[test]
fn real_stockfish_analysis_is_read_by_python_chess_and_repeats() {
    let Some(stockfish) = outside::need(&STOCKFISH) else {
        return;
    };
    let dir = scratch("analyze_stockfish");
    std::fs::write(dir.join("opera.pgn"), OPERA).unwrap();
    let sf = stockfish.display().to_string();
    let run = |out: &str| {
        let args = [
            "opera.pgn",
            "--engine",
            &sf,
            "--nodes",
            "20000",
            "--option",
            "Threads=1",
            "-o",
            out,
            "-q",
        ];
        analyze_ok(&dir, &args)
    };
    let first = run("a.pgn");
    let second = run("b.pgn");
    assert!(
        first.starts_with("1 games analysed by Stockfish"),
        "{first}"
    );
    assert_eq!(first, second, "a fixed-node analysis repeats");
    let a = std::fs::read_to_string(dir.join("a.pgn")).unwrap();
    assert_eq!(a, std::fs::read_to_string(dir.join("b.pgn")).unwrap());

    let evals = python_chess_evals(&dir.join("a.pgn"));
    assert_eq!(evals.len(), 33);
    assert_eq!(
        evals.last().unwrap(),
        "none",
        "the mating move has no evaluation"
    );
    assert!(evals[..32].iter().all(|e| e != "none"), "{evals:?}");
    // 16... Nxb8 walks into 17. Rd8#: Stockfish sees the mate in one.
    assert_eq!(evals[31], "mate 1");

    let rows = summary_rows(&first);
    let accuracy = |row: &[String]| row[4].trim_end_matches('%').parse::<f64>().unwrap();
    assert_eq!(
        (rows[0][0].as_str(), rows[1][0].as_str()),
        ("Morphy", "Allies")
    );
    assert!((0.0..=100.0).contains(&accuracy(&rows[1])));
    assert!(
        accuracy(&rows[0]) > accuracy(&rows[1]),
        "Morphy played better than the Allies: {first}"
    );
}

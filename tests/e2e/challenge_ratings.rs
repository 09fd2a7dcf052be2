//! `challenge ratings FILES.pgn` checked against hand-computed maximum-likelihood Elo.

// Tests read as scripts of one scenario each; length is not a smell here.
#![allow(clippy::too_many_lines)]

use crate::common_challenge;

use common_challenge::{TempDir, command, text};

/// One short game between `white` and `black` with `result`.
fn game(white: &str, black: &str, result: &str) -> String {
    format!(
        "[Event \"t\"]\n[White \"{white}\"]\n[Black \"{black}\"]\n[Result \"{result}\"]\n\n1. e4 e5 {result}\n\n"
    )
}

/// `wins`, `draws`, `losses` of `a` against `b`, colours alternating.
fn games(a: &str, b: &str, wins: usize, draws: usize, losses: usize) -> String {
    let mut out = String::new();
    let mut k = 0;
    for (n, score) in [(wins, 1.0), (draws, 0.5), (losses, 0.0)] {
        for _ in 0..n {
            let (w, bl, s) = if k % 2 == 0 {
                (a, b, score)
            } else {
                (b, a, 1.0 - score)
            };
            let result = match s {
                1.0 => "1-0",
                0.0 => "0-1",
                _ => "1/2-1/2",
            };
            out.push_str(&game(w, bl, result));
            k += 1;
        }
    }
    out
}

fn ratings(args: &[&str]) -> (serde_json::Value, String) {
    let output = command()
        .arg("ratings")
        .args(args)
        .arg("--json")
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", text(&output));
    (
        serde_json::from_slice(&output.stdout).unwrap(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

fn elo(table: &serde_json::Value, name: &str) -> (f64, f64) {
    let row = table["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["name"] == name)
        .unwrap_or_else(|| panic!("no {name} in {table}"));
    (
        row["elo"].as_f64().unwrap(),
        row["interval"].as_f64().unwrap(),
    )
}

const SCALE: f64 = std::f64::consts::LN_10 / 400.0;

#[test]
fn three_to_one_without_draws_is_log10_3_apart_and_broken_games_are_skipped() {
    let tmp = TempDir::new("ratings-31");
    let mut text_ = games("A", "B", 3, 0, 1);
    text_.push_str("[White \"A\"]\n[Black \"B\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Ke3 1-0\n\n");
    text_.push_str(&game("A", "B", "*"));
    let file = tmp.write("ab.pgn", &text_);
    // `--strict`: the game whose moves cannot be read is skipped, as before.
    let (table, stderr) = ratings(&[file.to_str().unwrap(), "--prior", "0", "--strict"]);
    let x = 400.0 * 3f64.log10();
    let (a, a_int) = elo(&table, "A");
    let (b, b_int) = elo(&table, "B");
    assert!(
        (a - x / 2.0).abs() < 1e-3 && (b + x / 2.0).abs() < 1e-3,
        "{table}"
    );
    // Fisher information of the difference: N p (1 - p); each rating carries a quarter
    // of the difference's variance.
    let expected = 1.959_964 * (1.0 / (4.0 * 0.75 * 0.25) / 4.0f64).sqrt() / SCALE;
    assert!(
        (a_int - expected).abs() < 1e-2 && (b_int - expected).abs() < 1e-2,
        "{a_int} {expected}"
    );
    assert_eq!(table["games"], 4);
    assert!(
        stderr.contains("ab.pgn:") && stderr.contains("game 5 skipped"),
        "{stderr}"
    );
    assert!(stderr.contains("game 6 skipped: no result"), "{stderr}");

    let (anchored, _) = ratings(&[
        file.to_str().unwrap(),
        "--prior",
        "0",
        "--anchor",
        "B",
        "--strict",
    ]);
    assert!(elo(&anchored, "B").0.abs() < 1e-9);
    assert!((elo(&anchored, "A").0 - x).abs() < 1e-3);
}

#[test]
fn a_draw_heavy_match_fits_the_draw_parameter_too() {
    let tmp = TempDir::new("ratings-draws");
    let file = tmp.write("cd.pgn", &games("C", "D", 3, 4, 1));
    let (table, _) = ratings(&[file.to_str().unwrap(), "--prior", "0"]);
    // The fit reproduces the frequencies: x - d = 400 log10(3/5), -x - d = 400 log10(1/7).
    let x = 200.0 * (21.0f64 / 5.0).log10();
    let d = 200.0 * (35.0f64 / 3.0).log10();
    assert!(
        (elo(&table, "C").0 - elo(&table, "D").0 - x).abs() < 1e-3,
        "{table}"
    );
    assert!(
        (table["draw_elo"].as_f64().unwrap() - d).abs() < 1e-3,
        "{table}"
    );
}

#[test]
fn symmetric_results_rate_everyone_equal_across_files() {
    let tmp = TempDir::new("ratings-sym");
    let one = tmp.write(
        "one.pgn",
        &(games("P", "Q", 2, 2, 2) + &games("Q", "R", 1, 0, 1)),
    );
    let two = tmp.write("two.pgn", &games("R", "P", 1, 4, 1));
    let (table, _) = ratings(&[one.to_str().unwrap(), two.to_str().unwrap()]);
    for name in ["P", "Q", "R"] {
        assert!(elo(&table, name).0.abs() < 1e-6, "{table}");
    }
    let csv = command()
        .args([
            "ratings",
            one.to_str().unwrap(),
            two.to_str().unwrap(),
            "--csv",
        ])
        .output()
        .unwrap();
    let csv = String::from_utf8(csv.stdout).unwrap();
    assert!(csv.starts_with("rank,name,"), "{csv}");
    assert_eq!(csv.lines().count(), 4);
}

#[test]
fn files_without_games_are_an_error() {
    let tmp = TempDir::new("ratings-empty");
    let file = tmp.write("empty.pgn", &game("A", "B", "*"));
    let output = command()
        .args(["ratings", file.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(!output.status.success());
    assert!(
        text(&output).contains("no finished games to rate"),
        "{}",
        text(&output)
    );
    let missing = command()
        .args(["ratings", "/nonexistent/x.pgn"])
        .output()
        .unwrap();
    assert!(text(&missing).contains("cannot read the PGN file /nonexistent/x.pgn"));
    // A file that is not UTF-8 (Latin-1 `é`) is refused, naming the line.
    let latin1 = tmp.path().join("latin1.pgn");
    std::fs::write(
        &latin1,
        b"[White \"Ren\xe9\"]\n[Black \"B\"]\n\n1. e4 1-0\n",
    )
    .unwrap();
    let refused = command()
        .args(["ratings", latin1.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(!refused.status.success());
    assert!(
        text(&refused).contains("cannot read the PGN file")
            && text(&refused).contains("line 1 is not UTF-8 text"),
        "{}",
        text(&refused)
    );
}

/// `white` vs `black` with the given numbers of White wins, draws and Black wins.
fn coloured(
    white: &str,
    black: &str,
    white_wins: usize,
    draws: usize,
    black_wins: usize,
) -> String {
    let mut out = String::new();
    for (n, result) in [(white_wins, "1-0"), (draws, "1/2-1/2"), (black_wins, "0-1")] {
        for _ in 0..n {
            out.push_str(&game(white, black, result));
        }
    }
    out
}

/// The ladder of `scripts/ladder_ml.py`: 16 players, each meeting the next one down 20
/// times (15 wins, 4 draws, 1 loss for the stronger) and the one two steps down 10
/// times (9 wins, 1 draw), colours alternating.
fn ladder() -> String {
    let name = |i: usize| format!("L{i:02}");
    let mut out = String::new();
    for i in 0..16 {
        if i + 1 < 16 {
            out.push_str(&games(&name(i), &name(i + 1), 15, 4, 1));
        }
        if i + 2 < 16 {
            out.push_str(&games(&name(i), &name(i + 2), 9, 1, 0));
        }
    }
    out
}

/// Maximum-likelihood ratings of the ladder, player L00 first, as `scripts/ladder_ml.py`
/// computes them with scipy (BFGS on the likelihood written with BayesElo's `f`).
const LADDER_PRIOR_0: [f64; 8] = [
    2414.9432, 2080.0784, 1761.4044, 1441.0063, 1120.7977, 800.5682, 480.3411, 160.1137,
];
const LADDER_PRIOR_0_DRAWELO: f64 = 163.4883;
const LADDER_PRIOR_2: [f64; 8] = [
    2219.9830, 1915.7496, 1629.8505, 1334.1030, 1037.5616, 741.1245, 444.6737, 148.2246,
];
const LADDER_PRIOR_2_DRAWELO: f64 = 172.1973;

#[test]
fn a_wide_ladder_reaches_the_maximum_likelihood_answer_unclamped() {
    let tmp = TempDir::new("ratings-ladder");
    let file = tmp.write("ladder.pgn", &ladder());
    for (prior, expected, drawelo) in [
        ("0", LADDER_PRIOR_0, LADDER_PRIOR_0_DRAWELO),
        ("2", LADDER_PRIOR_2, LADDER_PRIOR_2_DRAWELO),
    ] {
        let (table, _) = ratings(&[file.to_str().unwrap(), "--prior", prior]);
        for (i, want) in expected.iter().enumerate() {
            // The ladder is symmetric: L15 mirrors L00.
            for (name, sign) in [(format!("L{i:02}"), 1.0), (format!("L{:02}", 15 - i), -1.0)] {
                let got = elo(&table, &name).0;
                assert!(
                    (got - sign * want).abs() < 0.01,
                    "prior {prior}: {name} {got} vs {}",
                    sign * want
                );
            }
        }
        let d = table["draw_elo"].as_f64().unwrap();
        assert!((d - drawelo).abs() < 0.01, "prior {prior}: drawelo {d}");
        let iterations = table["iterations"].as_u64().unwrap();
        assert!(iterations > 1 && iterations < 100, "{iterations}");
    }
}

/// The small field of `scripts/ladder_ml.py`, colours unbalanced on purpose.
fn bayeselo_field() -> String {
    [
        ("P0", "P1", 3, 2, 1),
        ("P1", "P0", 1, 2, 2),
        ("P0", "P2", 4, 1, 0),
        ("P2", "P0", 1, 1, 2),
        ("P1", "P2", 2, 2, 1),
        ("P2", "P1", 1, 3, 1),
        ("P2", "P3", 3, 1, 1),
        ("P3", "P2", 0, 2, 2),
        ("P1", "P3", 4, 0, 0),
        ("P3", "P0", 0, 1, 3),
    ]
    .iter()
    .map(|&(w, b, ww, d, bw)| coloured(w, b, ww, d, bw))
    .collect()
}

#[test]
fn the_bayeselo_model_reproduces_bayeselo_mm_with_its_defaults() {
    let tmp = TempDir::new("ratings-bayeselo");
    let file = tmp.write("field.pgn", &bayeselo_field());
    let (table, _) = ratings(&[file.to_str().unwrap(), "--model", "bayeselo"]);
    // BayesElo's formulas (advantage 32.8, drawelo 97.3, prior 2 as AddPrior spreads it,
    // scale 0.925497, GetVariance intervals), maximised by scipy in scripts/ladder_ml.py.
    let expected = [
        ("P0", 137.7913, 116.9426),
        ("P1", 53.7739, 109.0703),
        ("P2", -15.4670, 104.3454),
        ("P3", -176.0982, 147.4973),
    ];
    for (name, want, interval) in expected {
        let (got, got_interval) = elo(&table, name);
        assert!((got - want).abs() < 0.01, "{name}: {got} vs {want}");
        assert!(
            (got_interval - interval).abs() < 0.01,
            "{name}: ±{got_interval} vs ±{interval}"
        );
    }
    assert!((table["scale"].as_f64().unwrap() - 0.925497).abs() < 1e-6);
    assert_eq!(table["model"], "bayeselo");

    // BayesElo's `offset 1000 P3`: the anchor is printed at the offset, differences kept.
    let (moved, _) = ratings(&[
        file.to_str().unwrap(),
        "--model",
        "bayeselo",
        "--anchor",
        "P3",
        "--offset",
        "1000",
    ]);
    assert!((elo(&moved, "P3").0 - 1000.0).abs() < 1e-9);
    assert!((elo(&moved, "P0").0 - (1000.0 + 137.7913 + 176.0982)).abs() < 0.01);

    // The kit model on the same games differs: no colour term, no scale.
    let (kit, _) = ratings(&[file.to_str().unwrap()]);
    assert!((elo(&kit, "P0").0 - 137.7913).abs() > 1.0, "{kit}");
    let refused = command()
        .args(["ratings", file.to_str().unwrap(), "--drawelo", "50"])
        .output()
        .unwrap();
    assert!(!refused.status.success());
    assert!(
        text(&refused).contains("--model bayeselo"),
        "{}",
        text(&refused)
    );
}

#[test]
fn real_world_tags_are_read_skips_are_counted_and_long_names_are_cut() {
    let tmp = TempDir::new("ratings-tolerant");
    // The length that once panicked the table.
    let long = "L".repeat(65_536);
    let quoted = "SaveBot (or, \"winning bot\" as an alternative)";
    let mut pgn = games("A", quoted, 2, 1, 1);
    pgn.push_str(&games("A", &long, 1, 1, 1));
    // Two broken games: an illegal move and no result.
    pgn.push_str("[White \"A\"]\n[Black \"B\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Ke3 1-0\n\n");
    pgn.push_str(&game("A", "B", "*"));
    let file = tmp.write("t.pgn", &pgn);

    let (table, stderr) = ratings(&[file.to_str().unwrap(), "--strict"]);
    assert_eq!(table["games"], 7);
    assert_eq!(table["skipped"], 2);
    assert!(elo(&table, quoted).0.is_finite(), "{table}");
    assert!(elo(&table, &long).0.is_finite(), "{table}");
    assert!(
        stderr.contains("t.pgn:") && stderr.contains("game 8 skipped"),
        "{stderr}"
    );

    let output = command()
        .args(["ratings", file.to_str().unwrap(), "--strict"])
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", text(&output));
    let out = String::from_utf8(output.stdout).unwrap();
    assert!(out.contains("7 games rated (2 skipped"), "{out}");
    assert!(out.contains("converged in"), "{out}");
    assert!(out.contains(&format!("{}…", "L".repeat(31))), "{out}");
    assert!(!out.contains(&"L".repeat(33)), "{out}");
    // Every table line is as wide as the header, whatever the names.
    let mut lines = out.lines().take_while(|l| !l.contains("games rated"));
    let header = lines.next().unwrap().chars().count();
    assert!(header < 150, "{out}");
    assert!(lines.all(|l| l.chars().count() == header), "{out}");

    let csv = command()
        .args(["ratings", file.to_str().unwrap(), "--csv"])
        .output()
        .unwrap();
    assert!(String::from_utf8(csv.stdout).unwrap().contains(&long));
}

#[test]
fn a_game_whose_moves_cannot_be_read_counts_by_its_result() {
    let tmp = TempDir::new("ratings-unread");
    let mut pgn = games("A", "B", 1, 0, 1);
    // Game 3: an illegal move, a result; game 4: a broken game without a result;
    // game 5: an unclosed comment to the end of the file, White's name missing.
    pgn.push_str("[White \"A\"]\n[Black \"B\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Ke3 1-0\n\n");
    pgn.push_str("[White \"A\"]\n[Black \"B\"]\n\n1. e4 e5 2. Ke3 *\n\n");
    pgn.push_str("[Black \"B\"]\n[Result \"0-1\"]\n\n1. e4 {open\n");
    let file = tmp.write("u.pgn", &pgn);
    let (table, stderr) = ratings(&[file.to_str().unwrap(), "--prior", "0"]);
    assert_eq!(table["games"], 3, "{table}");
    assert_eq!(
        (table["skipped"].as_u64(), table["unread"].as_u64()),
        (Some(2), Some(1))
    );
    // A won two of three: 400 log10(2) apart.
    let x = 400.0 * 2f64.log10();
    assert!(
        (elo(&table, "A").0 - elo(&table, "B").0 - x).abs() < 1e-3,
        "{table}"
    );
    assert!(
        stderr.contains(
            "u.pgn:19: game 3 (A - B) rated by its result 1-0 alone, its moves unread: illegal SAN `Ke3`"
        ) && stderr.contains("(at 2. Ke3)"),
        "{stderr}"
    );
    assert!(
        stderr.contains("u.pgn:24: game 4 skipped: illegal SAN `Ke3`"),
        "{stderr}"
    );
    assert!(
        stderr.contains("u.pgn:29: game 5 skipped: a `{` comment is never closed"),
        "{stderr}"
    );

    let output = command()
        .args(["ratings", file.to_str().unwrap()])
        .output()
        .unwrap();
    let out = String::from_utf8(output.stdout).unwrap();
    assert!(
        out.contains("3 games rated (2 skipped, 1 by their result alone: see the messages above)"),
        "{out}"
    );

    let (strict, _) = ratings(&[file.to_str().unwrap(), "--prior", "0", "--strict"]);
    assert_eq!(
        (strict["games"].as_u64(), strict["skipped"].as_u64()),
        (Some(2), Some(3))
    );

    // `--results-only` does not replay the moves: the illegal move goes unseen.
    let (fast, stderr) = ratings(&[file.to_str().unwrap(), "--prior", "0", "--results-only"]);
    assert_eq!(
        (fast["games"].as_u64(), fast["unread"].as_u64()),
        (Some(3), Some(0))
    );
    assert!(!stderr.contains("Ke3"), "{stderr}");
    assert!(stderr.contains("game 5 skipped: a `{` comment"), "{stderr}");
}

/// The C# challenge's writer wrote `Qca1` with queens on c1 and c3 that can both reach
/// a1; only the c3 queen's move lets White play `Qh6` (from c1) next.
const AMBIGUOUS: &str = "[White \"C\"]\n[Black \"D\"]\n[Result \"1-0\"]\n[SetUp \"1\"]\n\
[FEN \"4k3/8/8/8/8/2Q5/8/2Q3K1 w - - 0 1\"]\n\n1. Qca1 Kd7 2. Qh6 Ke8 3. Qh5+ 1-0\n\n";

#[test]
fn ambiguous_san_that_the_rest_of_the_game_settles_is_read_with_a_warning() {
    let tmp = TempDir::new("ratings-ambiguous");
    let pgn = format!("{}{AMBIGUOUS}", games("C", "D", 1, 1, 1));
    let file = tmp.write("amb.pgn", &pgn);
    let (table, stderr) = ratings(&[file.to_str().unwrap()]);
    assert_eq!(
        (table["games"].as_u64(), table["unread"].as_u64()),
        (Some(4), Some(0))
    );
    assert!(
        stderr.contains(
            "amb.pgn:28: game 4 (C - D): warning: ambiguous SAN `1. Qca1` read as Q3a1, the only one of Q1a1, Q3a1 that keeps the rest of the game legal"
        ),
        "{stderr}"
    );
    // `--strict` reads it as before: skipped, ambiguous.
    let (strict, stderr) = ratings(&[file.to_str().unwrap(), "--strict"]);
    assert_eq!(
        (strict["games"].as_u64(), strict["skipped"].as_u64()),
        (Some(3), Some(1))
    );
    assert!(
        stderr.contains("game 4 skipped: ambiguous SAN `Qca1`"),
        "{stderr}"
    );
}

#[test]
fn a_large_file_read_on_two_threads_says_every_message_in_file_order() {
    // Over 1 MiB, so the file is cut near its middle and read on two threads: every
    // game's message must still come in file order, with its own line and number.
    let tmp = TempDir::new("ratings-large");
    let block = games("A", "B", 1, 0, 1)
        + "[White \"A\"]\n[Black \"B\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Ke3 1-0\n\n"
        + "[White \"A\"]\n[Black \"B\"]\n\n1. e4 e5 2. Ke3 *\n\n";
    let lines = block.lines().count();
    let blocks = (1 << 20) / block.len() + 1;
    let file = tmp.write("big.pgn", &block.repeat(blocks));
    let (table, stderr) = ratings(&[file.to_str().unwrap(), "--prior", "0"]);
    assert_eq!(table["games"].as_u64(), Some(3 * blocks as u64), "{table}");
    assert_eq!(
        (table["skipped"].as_u64(), table["unread"].as_u64()),
        (Some(blocks as u64), Some(blocks as u64))
    );
    let said: Vec<&str> = stderr.lines().collect();
    assert_eq!(said.len(), 2 * blocks, "{stderr}");
    for (i, pair) in said.chunks(2).enumerate() {
        let (game, line) = (4 * i + 3, lines * i + 19);
        let rated = format!("/big.pgn:{line}: game {game} (A - B) rated by its result 1-0 alone");
        let skipped = format!(
            "big.pgn:{}: game {} skipped: illegal SAN `Ke3`",
            line + 5,
            game + 1
        );
        assert!(pair[0].contains(&rated), "block {i}: {}", pair[0]);
        assert!(pair[1].contains(&skipped), "block {i}: {}", pair[1]);
    }
}

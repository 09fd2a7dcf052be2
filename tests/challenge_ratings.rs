//! `challenge ratings FILES.pgn` checked against hand-computed maximum-likelihood Elo.

mod common_challenge;

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
    let (table, stderr) = ratings(&[file.to_str().unwrap(), "--prior", "0"]);
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

    let (anchored, _) = ratings(&[file.to_str().unwrap(), "--prior", "0", "--anchor", "B"]);
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
}

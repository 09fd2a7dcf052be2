//! `challenge sweep` as a user runs it: a small grid of the lab bot over two games of the
//! 1996 positions (results file, figures, a resume that does no work for finished cells,
//! node counts equal to `challenge bench`'s, Ctrl-C that keeps every finished cell), a
//! sweep of a reference bot's constant from the committed definition, and bad definitions
//! refused with their cause before any build.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use crate::common::{challenge, kit_root, scratch_dir};

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn text(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Two short games of the middlegame set, in order: 6 and 11 positions.
fn two_games(dir: &Path) -> PathBuf {
    let suite = text(&kit_root().join("suites/breuker1996.epd"));
    let lines: Vec<&str> = suite
        .lines()
        .filter(|l| {
            l.contains("id \"mg.Kasparov-Ivanchuk.") || l.contains("id \"mg.Short-Kasparov.")
        })
        .collect();
    assert_eq!(lines.len(), 17, "the two games' positions");
    let path = dir.join("two-games.epd");
    std::fs::write(&path, lines.join("\n") + "\n").unwrap();
    path
}

const GRID: &str = r#"
bot = "bot/lab/tt_lab.rs"
[vary]
SCHEME = ["DEEP", "TWOBIG1"]
TT_BITS = "8..=9"
[[suite]]
name = "two-games"
file = "two-games.epd"
depth = 3
[plot]
x = "TT_BITS"
series = "SCHEME"
x_labels = "powers-of-two"
"#;

fn sweep(args: &[&str]) -> Output {
    let mut all = vec!["sweep"];
    all.extend_from_slice(args);
    challenge(&all)
}

/// The results file's rows as (bot, nodes), in file order.
fn rows(results: &Path) -> Vec<(String, u64)> {
    let mut reader = csv::Reader::from_path(results).expect("a CSV file");
    let header = reader.headers().unwrap().clone();
    let at = |name: &str| header.iter().position(|h| h == name).unwrap();
    let (bot, nodes) = (at("bot"), at("nodes"));
    reader
        .records()
        .map(|r| {
            let r = r.unwrap();
            (r[bot].to_string(), r[nodes].parse().unwrap())
        })
        .collect()
}

/// `challenge bench`'s total nodes for a variant over a suite, game by game.
fn bench_nodes(variant: &str, suite: &Path, depth: &str) -> u64 {
    let out = challenge(&[
        "bench",
        variant,
        "--suite",
        suite.to_str().unwrap(),
        "--sequence",
        "--depth",
        depth,
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let line = text
        .lines()
        .find(|l| l.starts_with("nodes searched"))
        .unwrap_or_else(|| panic!("no total in {text}"));
    line.rsplit(' ').next().unwrap().parse().unwrap()
}

#[test]
fn a_small_grid_writes_results_and_figures_resumes_without_work_and_counts_as_bench_does() {
    let dir = scratch_dir("sweep-grid");
    let suite = two_games(&dir);
    let spec = dir.join("grid.toml");
    std::fs::write(&spec, GRID).unwrap();
    let spec = spec.to_str().unwrap();

    let first = sweep(&[spec, "-j", "2"]);
    assert!(first.status.success(), "{}", stderr(&first));
    let results = dir.join("grid.csv");
    let cells = rows(&results);
    let bots: Vec<&str> = cells.iter().map(|(b, _)| b.as_str()).collect();
    assert_eq!(
        bots,
        [
            "bot/lab/tt_lab.rs@SCHEME=DEEP,TT_BITS=8",
            "bot/lab/tt_lab.rs@SCHEME=DEEP,TT_BITS=9",
            "bot/lab/tt_lab.rs@SCHEME=TWOBIG1,TT_BITS=8",
            "bot/lab/tt_lab.rs@SCHEME=TWOBIG1,TT_BITS=9",
        ],
        "every cell, in the grid's order"
    );
    assert!(cells.iter().all(|(_, nodes)| *nodes > 0), "{cells:?}");
    let figure = text(&dir.join("grid-two-games-depth-3.svg"));
    assert!(figure.starts_with("<svg "), "{figure}");
    assert!(figure.contains(">DEEP</text>") && figure.contains(">TWOBIG1</text>"));
    assert!(figure.contains(">256</text>") && figure.contains(">512</text>"));

    // Node counts are bench's, whichever worker of `-j 2` ran the cell.
    assert_eq!(
        cells[0].1,
        bench_nodes("bot/lab/tt_lab.rs@SCHEME=DEEP,TT_BITS=8", &suite, "3")
    );
    assert_eq!(
        cells[3].1,
        bench_nodes("bot/lab/tt_lab.rs@SCHEME=TWOBIG1,TT_BITS=9", &suite, "3")
    );

    // Resumed with everything done: no cell runs and the file is as it was.
    let before = text(&results);
    let again = sweep(&[spec]);
    assert!(again.status.success(), "{}", stderr(&again));
    assert!(
        stderr(&again).contains("4 cells, 4 already in"),
        "{}",
        stderr(&again)
    );
    assert!(stdout(&again).contains("0 cells run"), "{}", stdout(&again));
    assert!(!stderr(&again).contains("building"), "{}", stderr(&again));
    assert_eq!(text(&results), before);

    // A run stopped after two cells: the resumed run does the other two, alone, and
    // finds the counts the first run found with two workers.
    let kept: Vec<&str> = before.lines().take(3).collect();
    std::fs::write(&results, kept.join("\n") + "\n").unwrap();
    let resumed = sweep(&[spec, "-j", "1"]);
    assert!(resumed.status.success(), "{}", stderr(&resumed));
    let said = stderr(&resumed);
    assert!(said.contains("4 cells, 2 already in"), "{said}");
    assert!(
        said.contains("[2/2] bot/lab/tt_lab.rs@SCHEME=TWOBIG1,TT_BITS=9"),
        "{said}"
    );
    assert!(!said.contains("[3/"), "{said}");
    assert_eq!(rows(&results), cells);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_sweep_of_a_reference_bots_constant_runs_from_the_committed_definition() {
    let dir = scratch_dir("sweep-reference");
    let results = dir.join("defended.csv");
    let out = sweep(&[
        "docs/experiments/turochamp-defended.toml",
        "--results",
        results.to_str().unwrap(),
        "-j",
        "2",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let cells = rows(&results);
    let values: Vec<&str> = cells.iter().map(|(b, _)| b.as_str()).collect();
    assert_eq!(
        values,
        [0, 5, 10, 15, 20].map(|v| format!("turochamp_modern@DEFENDED={v}")),
    );
    assert!(cells.iter().all(|(_, nodes)| *nodes > 0), "{cells:?}");
    let figure = text(&dir.join("defended-bench-depth-4-independent.svg"));
    assert!(figure.contains(">all</text>"), "one line: {figure}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The definition `GRID` with `from` replaced by `to`, run; its stderr.
fn refused(name: &str, from: &str, to: &str) -> String {
    let dir = scratch_dir(&format!("sweep-bad-{name}"));
    two_games(&dir);
    assert!(GRID.contains(from), "{from}");
    let spec = dir.join("grid.toml");
    std::fs::write(&spec, GRID.replace(from, to)).unwrap();
    let out = sweep(&[spec.to_str().unwrap()]);
    assert!(!out.status.success(), "{name}: {}", stdout(&out));
    let said = stderr(&out);
    assert!(
        !said.contains("building"),
        "{name}: refused before any build: {said}"
    );
    assert!(!dir.join("grid.csv").exists(), "{name}: no results file");
    let _ = std::fs::remove_dir_all(&dir);
    said
}

#[test]
fn bad_definitions_are_refused_with_their_cause_before_any_build() {
    let cases = [
        (
            "unknown",
            "TT_BITS = ",
            "TT_SIZE = [4]\nTT_BITS = ",
            "vary.TT_SIZE: `TT_SIZE` is not a marked constant of the bot (marked: SCHEME, TT_BITS)",
        ),
        (
            "outside",
            "\"8..=9\"",
            "\"7..=9\"",
            "vary.TT_BITS: `TT_BITS=7` is outside its mark `vary 8..=22`",
        ),
        (
            "scheme",
            "\"DEEP\"",
            "\"SHALLOW\"",
            "`SCHEME=SHALLOW` is outside its mark",
        ),
        (
            "missing",
            "two-games.epd",
            "no-such.epd",
            "suite `two-games`: cannot read",
        ),
        (
            "malformed",
            "depth = 3",
            "depth = ",
            "is not a sweep definition",
        ),
        (
            "ids",
            "depth = 3",
            "ids = \"zz.\"\ndepth = 3",
            "no record of",
        ),
        (
            "plot",
            "series = \"SCHEME\"",
            "series = \"SIZE\"",
            "plot: `SIZE` is not a varied constant",
        ),
    ];
    for (name, from, to, cause) in cases {
        let said = refused(name, from, to);
        assert!(said.contains(cause), "{name}: {said}");
    }
}

#[test]
fn a_results_file_of_another_sweep_is_refused_and_left_alone() {
    let dir = scratch_dir("sweep-other");
    two_games(&dir);
    let spec = dir.join("grid.toml");
    std::fs::write(&spec, GRID).unwrap();
    let cases = [
        (
            "suite,limit,bot,TT_BITS,positions,nodes,time_ms,failed\n",
            "the results file varies TT_BITS, this sweep varies SCHEME, TT_BITS",
        ),
        (
            "suite,limit,bot,SCHEME,TT_BITS,positions,nodes,time_ms,failed\n\
             other,depth 3,\"bot/lab/tt_lab.rs@SCHEME=DEEP,TT_BITS=8\",DEEP,8,17,100,1.0,0\n",
            "holds `bot/lab/tt_lab.rs@SCHEME=DEEP,TT_BITS=8` over other at depth 3, which this sweep does not run",
        ),
        ("SCHEME;TT_BITS\n", "is not a sweep's results file"),
    ];
    for (content, cause) in cases {
        let results = dir.join("grid.csv");
        std::fs::write(&results, content).unwrap();
        let out = sweep(&[spec.to_str().unwrap()]);
        assert!(!out.status.success(), "{content}");
        assert!(stderr(&out).contains(cause), "{}", stderr(&out));
        assert_eq!(text(&results), content, "the file is left as it was");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_bot_that_reports_no_nodes_is_refused_with_the_reason() {
    let dir = scratch_dir("sweep-faithful");
    two_games(&dir);
    let spec = dir.join("faithful.toml");
    std::fs::write(
        &spec,
        "bot = \"turochamp_faithful\"\n[vary]\nDEPTH = [1]\n[[suite]]\nname = \"g\"\n\
         file = \"two-games.epd\"\ndepth = 1\n[plot]\nx = \"DEPTH\"\n",
    )
    .unwrap();
    let out = sweep(&[spec.to_str().unwrap()]);
    assert!(!out.status.success(), "{}", stdout(&out));
    assert!(
        stderr(&out).contains("`turochamp_faithful@DEPTH=1` reported no node count"),
        "{}",
        stderr(&out)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn ctrl_c_keeps_every_finished_cell_and_the_same_command_resumes() {
    let dir = scratch_dir("sweep-stop");
    two_games(&dir);
    let spec = dir.join("grid.toml");
    let grid = GRID
        .replace(
            "[\"DEEP\", \"TWOBIG1\"]",
            "[\"DEEP\", \"NEW\", \"OLD\", \"TWOBIG1\"]",
        )
        .replace("depth = 3", "depth = 5");
    std::fs::write(&spec, grid).unwrap();
    let results = dir.join("grid.csv");
    let child = Command::new(crate::common::challenge_exe())
        .args(["sweep", spec.to_str().unwrap()])
        .current_dir(kit_root())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("challenge runs");
    let deadline = Instant::now() + Duration::from_secs(600);
    while std::fs::read_to_string(&results).map_or(0, |t| t.lines().count()) < 2
        && Instant::now() < deadline
    {
        std::thread::sleep(Duration::from_millis(10));
    }
    // SAFETY: kill(2) on the child's pid, which has not been waited for.
    unsafe { libc::kill(child.id() as libc::pid_t, libc::SIGINT) };
    let out = child.wait_with_output().expect("challenge ends");
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains("stopped: "), "{}", stdout(&out));
    let kept = rows(&results);
    assert!((1..8).contains(&kept.len()), "{kept:?}");

    let resumed = sweep(&[spec.to_str().unwrap()]);
    assert!(resumed.status.success(), "{}", stderr(&resumed));
    let said = stderr(&resumed);
    let already = format!("8 cells, {} already in", kept.len());
    assert!(said.contains(&already), "{said}");
    let all = rows(&results);
    assert_eq!(all.len(), 8);
    for cell in &kept {
        assert!(
            all.contains(cell),
            "a kept cell is kept as it was: {cell:?}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

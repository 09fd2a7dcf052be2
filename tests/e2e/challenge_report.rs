//! `challenge report --html`: a self-contained page, checked as text and rendered in a
//! real headless Chromium (DOM after the script ran, and a screenshot kept for people to
//! look at; without Chromium that half skips, except under CI, where it fails). An author's hostile text goes the
//! whole way from `submit` to the browser without running. (The unit tests of
//! `challenge::report` render a page with hostile text in every field.)

// Tests read as scripts of one scenario each; length is not a smell here.
#![allow(clippy::too_many_lines)]

use crate::common;
use crate::common_challenge;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::outside::{self, CHROMIUM};
use common_challenge::{TempDir, kit_bot, ok, submit};

/// An author whose name would run script if pasted into the page as markup.
const HOSTILE_AUTHOR: &str = "</script><svg onload=\"document.title='pwned'\">{{DATA}}<script>document.title='pwned'</script>";

/// Runs headless chromium on `page` with `extra` arguments; returns its stdout.
fn headless(browser: &Path, page: &Path, profile: &Path, extra: &[&str]) -> String {
    let mut child = Command::new(browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--window-size=1200,1400",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .args(extra)
        .arg(format!("file://{}", page.display()))
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("chromium starts");
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > Duration::from_secs(120) {
            child.kill().unwrap();
            panic!("chromium did not finish within two minutes");
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    let mut out = String::new();
    std::io::Read::read_to_string(&mut child.stdout.take().unwrap(), &mut out).unwrap();
    out
}

#[test]
fn the_report_is_self_contained_and_replays_games_in_a_browser() {
    let tmp = TempDir::new("report");
    let dir = tmp.challenge();
    submit(&dir, &kit_bot("my_bot"), "starter");
    ok(
        &dir,
        &[
            "submit",
            kit_bot("evil_bot").to_str().unwrap(),
            "--name",
            "evil",
            "--author",
            HOSTILE_AUTHOR,
        ],
    );
    ok(&dir, &["run", "--tc", "1+0.05"]);
    let page = tmp.path().join("report.html");
    ok(&dir, &["report", "--html", page.to_str().unwrap()]);
    let html = std::fs::read_to_string(&page).unwrap();

    // Nothing to fetch: no external scripts, styles, images or fonts.
    for needle in ["<link", " src=", "url(", "https://", "@import"] {
        assert!(
            !html.contains(needle),
            "the page refers to something outside: {needle}"
        );
    }
    for needle in ["<svg", "Standings", "Crosstable", "starter", "evil", "±95%"] {
        assert!(html.contains(needle), "no {needle} in the page");
    }
    assert!(
        html.contains("<meta http-equiv=\"Content-Security-Policy\" content=\"default-src &#x27;none&#x27;; script-src &#x27;sha256-"),
        "no content security policy"
    );
    assert!(!html.contains("<svg onload"));
    // `{{DATA}}` in the author stays text: the games are in the page once.
    assert_eq!(html.matches("{\"games\":").count(), 1);
    assert_eq!(
        html.matches("</script>").count(),
        2,
        "only the page's own scripts end"
    );
    let games = page_games(&html);
    assert_eq!(games.len(), 2);
    // Both games of the pair start from the same opening.
    assert_eq!(games[0]["fens"][0], games[1]["fens"][0]);
    for g in &games {
        let plies = g["san"].as_array().unwrap().len();
        assert!(plies > 0, "{g}");
        assert_eq!(g["fens"].as_array().unwrap().len(), plies + 1);
        assert_eq!(g["fens"][0].as_str().unwrap().split('/').count(), 8);
    }

    let Some(browser) = outside::need(&CHROMIUM) else {
        return;
    };
    let profile = tmp.path().join("profile");
    let dom = headless(&browser, &page, &profile, &["--dump-dom"]);
    // The author's text is shown as text, and none of it ran.
    assert!(dom.contains("<title>Chess bot challenge</title>"), "{dom}");
    assert!(
        dom.contains("&lt;svg onload=\"document.title='pwned'\"&gt;{{DATA}}"),
        "{dom}"
    );
    // The script ran: 64 squares drawn, the game list filled, the last move marked.
    let squares =
        dom.matches("<div class=\"light").count() + dom.matches("<div class=\"dark").count();
    assert_eq!(squares, 64, "{dom}");
    assert!(dom.contains("data-i=\"1\""), "the game list was not built");
    assert!(dom.contains("class=\"m cur\""), "no current move marked");
    assert!(dom.contains("class=\"light hl") || dom.contains("class=\"dark hl"));

    let shot = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("challenge-report.png");
    let _ = std::fs::remove_file(&shot);
    headless(
        &browser,
        &page,
        &profile,
        &[&format!("--screenshot={}", shot.display())],
    );
    let png = std::fs::read(&shot).expect("chromium wrote the screenshot");
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
    assert!(
        png.len() > 20_000,
        "a suspiciously small screenshot: {} bytes",
        png.len()
    );
    println!("screenshot of the report: {}", shot.display());
}

/// The games of a page, as its script reads them.
fn page_games(html: &str) -> Vec<serde_json::Value> {
    let start = html
        .find("<script type=\"application/json\" id=\"data\">")
        .unwrap();
    let json = &html[start..];
    let json = &json[json.find('>').unwrap() + 1..json.find("</script>").unwrap()];
    let data: serde_json::Value = serde_json::from_str(json).unwrap();
    data["games"].as_array().unwrap().clone()
}

/// `challenge ARGS` run in `dir`.
fn challenge_in(dir: &Path, args: &[&str]) -> std::process::Output {
    Command::new(crate::common::challenge_exe())
        .current_dir(dir)
        .args(args)
        .output()
        .unwrap()
}

/// `report --pgn FILE` of a match's games, with no challenge anywhere: the standings are
/// rated from the file (it was refused with "no challenge in challenge").
#[test]
fn a_report_of_any_pgn_file_needs_no_store() {
    let tmp = TempDir::new("report-pgn");
    let args = ["match", "evil_bot", "my_bot", "-n", "2", "--nodes", "200"];
    let played = challenge_in(
        tmp.path(),
        &[&args[..], &["-q", "--pgn", "match.pgn"]].concat(),
    );
    assert!(
        played.status.success(),
        "{}",
        common_challenge::text(&played)
    );
    let output = challenge_in(
        tmp.path(),
        &["report", "--pgn", "match.pgn", "-o", "match.html"],
    );
    assert!(
        output.status.success(),
        "{}",
        common_challenge::text(&output)
    );
    let html = std::fs::read_to_string(tmp.path().join("match.html")).unwrap();
    assert_eq!(page_games(&html).len(), 2);
    for name in ["evil_bot", "my_bot"] {
        assert!(
            html.contains(&format!(">{name}<")),
            "{name} is in the standings"
        );
    }
    assert!(html.contains("from match.pgn"), "the page says where from");
    // Naming a store still takes its standings: a missing one is an error saying where.
    let args = [
        "report",
        "--pgn",
        "match.pgn",
        "-o",
        "x.html",
        "--dir",
        "nowhere",
    ];
    let output = challenge_in(tmp.path(), &args);
    assert!(!output.status.success());
    let said = String::from_utf8_lossy(&output.stderr);
    assert!(said.contains("there is no folder"), "{said}");
}

/// `standings --dir PARENT`, the folder a challenge is in: the error names the folder
/// looked in and the `--dir` that works.
#[test]
fn a_missing_challenge_names_the_folder_and_the_challenge_inside_it() {
    let tmp = TempDir::new("report-parent");
    submit(&tmp.challenge(), &kit_bot("my_bot"), "mine");
    let parent = tmp.path().to_str().unwrap();
    let output = challenge_in(tmp.path(), &["standings", "--dir", parent]);
    assert!(!output.status.success());
    let said = String::from_utf8_lossy(&output.stderr);
    let inside = tmp.challenge();
    let hint = format!("pass `--dir {}`", inside.display());
    assert!(said.contains(&hint), "{said}");
    let hinted = challenge_in(
        tmp.path(),
        &["standings", "--dir", inside.to_str().unwrap()],
    );
    assert!(
        hinted.status.success(),
        "{}",
        common_challenge::text(&hinted)
    );
}

/// Two tournaments: each game's label names its tournament (both first games were
/// "round 1, pair 1, game 1"), and `--tournament N` shows one tournament alone.
#[test]
fn the_report_tells_tournaments_apart_and_shows_one_alone() {
    let tmp = TempDir::new("report-tournaments");
    let dir = tmp.challenge();
    submit(&dir, &kit_bot("my_bot"), "starter");
    submit(&dir, &kit_bot("evil_bot"), "evil");
    ok(&dir, &["run", "--tc", "1+0.05"]);
    ok(&dir, &["run", "--tc", "1+0.05", "--new"]);
    let page = tmp.path().join("all.html");
    ok(&dir, &["report", "-o", page.to_str().unwrap()]);
    let games = page_games(&std::fs::read_to_string(&page).unwrap());
    let labels: Vec<&str> = games
        .iter()
        .map(|g| g["round_label"].as_str().unwrap())
        .collect();
    assert_eq!(labels.len(), 4, "{labels:?}");
    assert!(
        labels.contains(&"tournament 1, round 1, pair 1, game 1"),
        "{labels:?}"
    );
    assert!(
        labels.contains(&"tournament 2, round 1, pair 1, game 1"),
        "{labels:?}"
    );
    let second = tmp.path().join("second.html");
    ok(
        &dir,
        &[
            "report",
            "-o",
            second.to_str().unwrap(),
            "--tournament",
            "2",
        ],
    );
    let html = std::fs::read_to_string(&second).unwrap();
    let games = page_games(&html);
    assert_eq!(games.len(), 2);
    assert!(games.iter().all(|g| g["tournament"] == 2), "{games:?}");
    assert!(html.contains("tournament 2 of"), "the page says which");
    let table = ok(&dir, &["standings", "--tournament", "2", "--json"]);
    let table: serde_json::Value = serde_json::from_str(&table).unwrap();
    assert_eq!(table["games"], 2, "{table}");
    let output = common_challenge::run(&dir, &["standings", "--tournament", "7"]);
    let said = String::from_utf8_lossy(&output.stderr);
    assert!(said.contains("it has games of tournaments: 1, 2"), "{said}");
}

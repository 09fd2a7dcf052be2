//! `challenge match` statistics end to end: a deterministic engine against itself, and
//! the PGN file read back by python-chess agreeing with the summary.

use crate::match_common;

use match_common::{instant, json, read_pgn_with_python_chess, run_match_ok, scratch};

#[test]
fn a_deterministic_engine_against_itself_scores_exactly_half_and_the_pgn_agrees() {
    let dir = scratch("match_stats");
    let mut args = instant("a", &["nodes=1"]);
    args.extend(instant("b", &["nodes=1"]));
    args.extend(
        [
            "--games",
            "19",
            "-j",
            "2",
            "--pgn",
            "games.pgn",
            "--json",
            "summary.json",
            "-q",
        ]
        .map(String::from),
    );
    let stdout = run_match_ok(&dir, &args);

    let summary = json(&dir.join("summary.json"));
    assert_eq!(
        summary["games_played"], 20,
        "19 games round up to 10 colour-swapped pairs"
    );
    let a = &summary["players"][0]["stats"];
    assert_eq!(a["score"], 0.5);
    assert_eq!(a["pentanomial"], serde_json::json!([0, 0, 10, 0, 0]));

    let games = read_pgn_with_python_chess(&dir.join("games.pgn"));
    assert_eq!(games.len(), 20);
    let (mut wins, mut draws, mut losses) = (0, 0, 0);
    for (white, _, result, _, ply_tag, plies, errors) in &games {
        assert_eq!(*errors, 0);
        assert_eq!(ply_tag, plies);
        match (white == "a", result.as_str()) {
            (true, "1-0") | (false, "0-1") => wins += 1,
            (_, "1/2-1/2") => draws += 1,
            _ => losses += 1,
        }
    }
    assert_eq!(
        (wins, draws, losses),
        (
            a["wins"].as_u64().unwrap(),
            a["draws"].as_u64().unwrap(),
            a["losses"].as_u64().unwrap()
        )
    );
    assert!(
        stdout.contains(&format!(
            "Games: 20, Wins: {wins}, Losses: {losses}, Draws: {draws}"
        )),
        "{stdout}"
    );
}

#[test]
fn sprt_stops_early_and_says_which_hypothesis_was_accepted() {
    let dir = scratch("match_sprt");
    let mut args = instant("good", &["tc=10+0.1"]);
    args.extend(match_common::faulty("broken", "garbage", 1));
    args.extend(
        [
            "--games",
            "1000",
            "-j",
            "2",
            "--sprt",
            "elo0=0",
            "elo1=20",
            "--json",
            "summary.json",
            "-q",
        ]
        .map(String::from),
    );
    let stdout = run_match_ok(&dir, &args);
    assert!(stdout.contains("SPRT: H1 accepted"), "{stdout}");
    let summary = json(&dir.join("summary.json"));
    assert_eq!(summary["sprt"]["state"], "H1");
    assert!(summary["games_played"].as_u64().unwrap() < 1000);
    // The counts add up even when the SPRT stops with a pair half played (`-j 2`).
    let stats = &summary["pairs"][0]["stats"];
    let count = |key: &str| stats[key].as_u64().unwrap();
    assert_eq!(
        count("games"),
        2 * count("pairs") + count("unpaired_games"),
        "{stats}"
    );
    assert_eq!(count("games"), summary["games_played"].as_u64().unwrap());
}

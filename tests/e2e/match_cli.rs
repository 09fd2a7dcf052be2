//! `challenge match` as a user meets it: bots by name, errors that say what to do,
//! Ctrl-C.

use crate::match_common;

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};

use match_common::{faulty, instant, read_pgn_with_python_chess, run_match, run_match_ok, scratch};

#[test]
fn two_bots_by_name_play_a_short_match() {
    let dir = scratch("match_bots");
    let args = [
        "evil_bot", "my_bot", "--games", "2", "--tc", "2+0.02", "-j", "2", "--pgn", "g.pgn", "-q",
    ]
    .map(String::from);
    let stdout = run_match_ok(&dir, &args);
    assert!(stdout.contains("Results of evil_bot vs my_bot"), "{stdout}");
    let games = read_pgn_with_python_chess(&dir.join("g.pgn"));
    assert_eq!(games.len(), 2);
    assert!(games.iter().all(|g| g.2 != "*" && g.6 == 0));
}

/// Without a terminal, the match says what it plays, a line per game and each fault with
/// its engine's stderr; `-q` keeps only the opening line and the summary.
#[test]
fn progress_lines_name_each_game_and_each_fault() {
    let mut args = instant("good", &[]);
    args.extend(faulty("crasher", "crash", 2));
    args.extend(["--games", "2", "-j", "1"].map(String::from));
    let out = run_match(&scratch("match_progress"), &args);
    let err = String::from_utf8_lossy(&out.stderr);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{err}");
    assert!(
        err.starts_with("Playing 2 games (round-robin, 2 players, "),
        "{err}"
    );
    let finished: Vec<&str> = err
        .lines()
        .filter(|l| l.starts_with("Finished game "))
        .collect();
    assert_eq!(finished.len(), 2, "{err}");
    assert!(
        finished
            .iter()
            .all(|l| l.contains("{crash}") && l.contains("[good: W")),
        "{err}"
    );
    assert!(err.contains("Game 1 (good vs crasher): crash ("), "{err}");
    assert!(err.contains("    crasher stderr: "), "{err}");
    assert!(stdout.contains("Results of good vs crasher"), "{stdout}");

    args.push("-q".into());
    let quiet = run_match(&scratch("match_progress_quiet"), &args);
    let err = String::from_utf8_lossy(&quiet.stderr);
    assert!(quiet.status.success(), "{err}");
    assert_eq!(err.lines().count(), 1, "only the opening line: {err}");
    assert!(String::from_utf8_lossy(&quiet.stdout).contains("Results of good vs crasher"));
}

#[test]
fn one_player_is_refused_with_an_example() {
    let out = run_match(&scratch("match_one"), &["evil_bot".to_string()]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("at least two players") && err.contains("challenge match evil_bot my_bot"),
        "{err}"
    );
}

#[test]
fn malformed_engine_words_are_explained() {
    let mut args = instant("a", &["bogus"]);
    args.extend(instant("b", &[]));
    let out = run_match(&scratch("match_bad_engine"), &args);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("`bogus` is not KEY=VALUE"), "{err}");

    let out = run_match(
        &scratch("match_bad_sprt"),
        &[
            instant("a", &[]),
            instant("b", &[]),
            vec!["--sprt".into(), "elo0=5".into(), "elo1=0".into()],
        ]
        .concat(),
    );
    assert!(String::from_utf8_lossy(&out.stderr).contains("elo0 (5) must be less than elo1 (0)"));
}

#[cfg(unix)]
#[test]
fn ctrl_c_keeps_finished_games_and_prints_the_summary() {
    let dir = scratch("match_ctrl_c");
    // Slow games: the Python engine thinks at the speed of process start-up and pipes.
    let mut args = vec!["match".to_string()];
    args.extend(instant("fast", &["tc=60+1"]));
    args.extend(faulty("slow", "none", 1));
    args.extend(
        [
            "--games",
            "200",
            "-j",
            "1",
            "--pgn",
            "g.pgn",
            "--maxmoves",
            "30",
        ]
        .map(String::from),
    );
    let mut child = Command::new(crate::common::challenge_exe())
        .args(&args)
        .current_dir(&dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let stderr = child.stderr.take().unwrap();
    let mut lines = BufReader::new(stderr).lines();
    // Wait for two finished games, then interrupt.
    let mut finished = 0;
    for line in lines.by_ref() {
        if line.unwrap().starts_with("Finished game") {
            finished += 1;
            if finished == 2 {
                break;
            }
        }
    }
    assert_eq!(finished, 2);
    let status = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let rest: Vec<String> = lines.map_while(Result::ok).collect();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "{rest:?}");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("interrupted"), "{stdout}");
    let reported = 2 + rest
        .iter()
        .filter(|l| l.starts_with("Finished game"))
        .count();
    let games = read_pgn_with_python_chess(&dir.join("g.pgn"));
    assert_eq!(games.len(), reported, "every finished game is in the PGN");
    assert!(
        stdout.contains(&format!("{reported} of 200 games")),
        "{stdout}"
    );
}

/// A bot that plays by the kit's `Random` (`tests/bots/random_mover.rs`): two fixed-node
/// matches with the same `--seed` play the same games move for move, the runner telling
/// each game's engines its seed; another seed plays other games.
#[test]
fn the_same_seed_plays_the_same_games_with_a_bot_that_uses_random() {
    let bot = crate::common::kit_root().join("tests/bots/random_mover.rs");
    let play = |name: &str, seed: &str| {
        let dir = scratch(name);
        let args = [
            bot.to_str().unwrap(),
            "evil_bot",
            "--games",
            "4",
            "--nodes",
            "50",
            "--maxmoves",
            "40",
            "--seed",
            seed,
            "-j",
            "2",
            "--pgn",
            "g.pgn",
            "-q",
        ]
        .map(String::from);
        run_match_ok(&dir, &args);
        games_by_round(&std::fs::read_to_string(dir.join("g.pgn")).unwrap())
    };
    let first = play("seed_a", "7");
    assert_eq!(first.len(), 4, "{first:?}");
    assert_eq!(play("seed_b", "7"), first);
    assert_ne!(play("seed_c", "8"), first);
}

/// Each game's moves and how it ended, by its `Round` tag (games end in any order on two
/// workers). Comments carry times, so they are left out, and so is the line wrapping that
/// their length moves; the `Termination` tag is kept so that a mismatch names a game that
/// ended some other way.
fn games_by_round(pgn: &str) -> std::collections::BTreeMap<String, String> {
    let mut games = std::collections::BTreeMap::<String, String>::new();
    let mut round = String::new();
    for line in pgn.lines() {
        if let Some(rest) = line.strip_prefix("[Round \"") {
            round = rest.trim_end_matches("\"]").to_string();
        } else if line.starts_with("[Termination ") || !line.starts_with('[') {
            let game = games.entry(round.clone()).or_default();
            game.push_str(line);
            game.push(' ');
        }
    }
    for game in games.values_mut() {
        let uncommented: String = game
            .split('{')
            .map(|part| part.split_once('}').map_or(part, |(_, after)| after))
            .collect();
        *game = uncommented.split_whitespace().collect::<Vec<_>>().join(" ");
    }
    games
}

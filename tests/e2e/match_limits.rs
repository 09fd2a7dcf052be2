//! Matches under node and depth limits: the reference bots honour them, so a
//! fixed-node match is reproducible move for move.

use crate::match_common;

use match_common::{run_match_ok, scratch};

/// The movetext of each game in a PGN file, one space between words, with the
/// times in the move comments (`0.004s`, the only thing a clock may change)
/// taken out.
fn movetexts(pgn: &str) -> Vec<String> {
    pgn.split("\n\n")
        .filter(|block| !block.trim_start().starts_with('['))
        .map(|movetext| {
            let mut out = String::new();
            for (i, part) in movetext.split(['{', '}']).enumerate() {
                // Odd parts are comment contents.
                if i % 2 == 1 {
                    let kept: Vec<&str> = part
                        .split_whitespace()
                        .filter(|word| !is_time(word.trim_end_matches(',')))
                        .collect();
                    out.push_str(&format!(" {{{}}} ", kept.join(" ")));
                } else {
                    out.push_str(part);
                }
            }
            out.split_whitespace().collect::<Vec<_>>().join(" ")
        })
        .filter(|text| !text.is_empty())
        .collect()
}

/// `0.004s`.
fn is_time(word: &str) -> bool {
    word.strip_suffix('s')
        .is_some_and(|number| number.parse::<f64>().is_ok())
}

#[test]
fn time_figures_are_all_the_normaliser_removes() {
    let pgn = "[White \"a\"]\n\n1. e4 {+0.20/3 0.004s} 1... e5 {0.000s} 2. Qh5 {-0.10/4\n0.012s, white wins by checkmate} 1-0\n";
    assert_eq!(
        movetexts(pgn),
        ["1. e4 {+0.20/3} 1... e5 {} 2. Qh5 {-0.10/4 white wins by checkmate} 1-0"]
    );
}

fn play(dir: &std::path::Path, limit: &[&str], pgn: &str) -> String {
    let mut args: Vec<String> = ["turochamp_modern", "evil_bot", "--games", "6", "-j", "1"]
        .iter()
        .chain(limit)
        .chain(&["--pgn", pgn, "-q"])
        .map(|s| s.to_string())
        .collect();
    args.push("--maxmoves".into());
    args.push("80".into());
    run_match_ok(dir, &args);
    std::fs::read_to_string(dir.join(pgn)).unwrap()
}

#[test]
fn a_fixed_node_match_repeats_move_for_move() {
    let dir = scratch("match_nodes_twice");
    let first = play(&dir, &["--nodes", "20000"], "first.pgn");
    let second = play(&dir, &["--nodes", "20000"], "second.pgn");
    let (first, second) = (movetexts(&first), movetexts(&second));
    assert_eq!(first.len(), 6, "{first:?}");
    assert_eq!(first, second);
    // The modern bot reports a depth with each move; no game is a copy of another.
    assert!(first.iter().all(|game| game.contains('/')), "{first:?}");
    let distinct: std::collections::BTreeSet<_> = first.iter().collect();
    assert_eq!(distinct.len(), 6);
}

#[test]
fn a_depth_limit_is_the_depth_played() {
    let dir = scratch("match_depth");
    let pgn = play(&dir, &["--depth", "2"], "depth.pgn");
    // Every comment of the modern bot reads `{+0.35/D 0.004s}` with D the depth reached.
    let depths: Vec<u32> = pgn
        .split('{')
        .skip(1)
        .filter_map(|comment| {
            let eval = comment.split_whitespace().next()?;
            eval.split_once('/')?.1.parse().ok()
        })
        .collect();
    assert!(depths.len() > 20, "{pgn}");
    assert!(depths.iter().all(|&d| d == 2), "{depths:?}");
}

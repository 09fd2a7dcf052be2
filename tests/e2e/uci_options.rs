//! The UCI host's options, end to end: what `uci` announces, `setoption` reaching the bot
//! (now and after every construction), `Clear Hash` and `ucinewgame` forgetting the bot,
//! and every refusal answered with an `info string`; the nodes a bot counts reaching its
//! `info depth` lines; an overlong command line refused without ending the engine.

use std::time::Duration;

use crate::common::{Engine, build, test_bot};
use framework::chess::Board;

const WAIT: Duration = Duration::from_secs(10);

/// A `go` from the start position: the `info` lines before `bestmove`, and the move.
fn go(engine: &mut Engine) -> (Vec<String>, String) {
    engine.send("position startpos");
    engine.send("go depth 1");
    let mut lines = engine
        .read_until("bestmove", WAIT)
        .unwrap_or_else(|| panic!("no bestmove; stderr:\n{}", engine.stderr()));
    let best = lines.pop().unwrap();
    (lines, best["bestmove ".len()..].to_string())
}

/// The start position's legal move at `index`, in the order the bot sees them.
fn nth_move(index: usize) -> String {
    let moves = Board::startpos().legal_moves();
    moves[index % moves.len()].to_string()
}

/// The `nodes` of each `info depth` line.
fn depth_nodes(lines: &[String]) -> Vec<(u32, u64)> {
    lines
        .iter()
        .filter(|line| line.starts_with("info depth"))
        .map(|line| {
            let words: Vec<&str> = line.split_whitespace().collect();
            let after = |key: &str| {
                let at = words.iter().position(|w| *w == key).expect(key);
                words[at + 1].to_string()
            };
            (
                after("depth").parse().unwrap(),
                after("nodes").parse().unwrap(),
            )
        })
        .collect()
}

#[test]
fn options_are_announced_set_kept_and_refused_with_a_reason() {
    let mut engine = Engine::start(&build(test_bot("has_options")));
    let hello = engine.handshake();
    for line in [
        "option name Clear Hash type button",
        "option name Seed type spin default 0 min 0 max 2147483647",
        "option name First Move type spin default 0 min 0 max 300",
        "option name Depth type spin default 2 min 1 max 9",
    ] {
        assert!(hello.contains(&line.to_string()), "{hello:?}");
    }
    // The defaults, given to the bot when it was constructed; the host adds the nodes
    // the bot counted through should_stop to each `info depth` line.
    let (info, best) = go(&mut engine);
    assert_eq!(best, nth_move(0));
    assert_eq!(depth_nodes(&info), [(1, 100), (2, 200)], "{info:?}");
    assert!(
        info.iter().any(|l| l.starts_with("info nodes 200 ")),
        "{info:?}"
    );
    // Set on the living bot (names without regard to case): its second move.
    engine.send("setoption name first MOVE value 3");
    assert_eq!(go(&mut engine).1, nth_move(3 + 1));
    // A fresh bot gets the value set, not the default.
    engine.send("setoption name Clear Hash");
    assert_eq!(go(&mut engine).1, nth_move(3));
    engine.send("ucinewgame");
    assert_eq!(go(&mut engine).1, nth_move(3));
    // Refusals: told to the client, nothing changed.
    for (line, reply) in [
        (
            "setoption name Hash value 16",
            "info string unknown option `Hash`; this engine has: Clear Hash, Seed, First Move, Depth",
        ),
        (
            "setoption name Depth value 10",
            "info string option `Depth`: 10 is not in 1..=9; not set",
        ),
        (
            "setoption name Depth value two",
            "info string option `Depth`: `two` is not an integer; not set",
        ),
    ] {
        engine.send(line);
        let said = engine.read_until("info string", WAIT).expect(line);
        assert_eq!(said.last().unwrap(), reply);
    }
    engine.send("setoption Depth 3");
    assert!(
        engine
            .stderr_containing("`setoption` needs `name <NAME> [value <VALUE>]`", WAIT)
            .is_some(),
        "{}",
        engine.stderr()
    );
    engine.send("ucinewgame");
    let (info, best) = go(&mut engine);
    assert_eq!((depth_nodes(&info).len(), best), (2, nth_move(3)));
    engine.send("setoption name Depth value 3");
    let (info, _) = go(&mut engine);
    assert_eq!(
        depth_nodes(&info),
        [(1, 100), (2, 200), (3, 300)],
        "{info:?}"
    );
    engine.send("quit");
    assert!(engine.wait_exit(WAIT).expect("quit ends it").success());
}

#[test]
fn a_bot_without_options_has_the_hosts_own_and_an_overlong_line_is_refused() {
    let mut engine = Engine::start(&build("evil_bot"));
    let hello = engine.handshake();
    let options: Vec<&String> = hello.iter().filter(|l| l.starts_with("option")).collect();
    assert_eq!(
        options,
        [
            "option name Clear Hash type button",
            "option name Seed type spin default 0 min 0 max 2147483647"
        ]
    );
    let long = "x".repeat(framework::uci::MAX_COMMAND_BYTES + 1);
    engine.send(&long);
    engine.send("isready");
    engine.expect("readyok", WAIT);
    let needle = format!(
        "ignored a line of {} bytes",
        framework::uci::MAX_COMMAND_BYTES + 1
    );
    assert!(
        engine.stderr_containing(&needle, WAIT).is_some(),
        "{}",
        engine.stderr()
    );
    engine.send("setoption name Clear Hash");
    let (_, best) = go(&mut engine);
    assert!(
        Board::startpos().parse_uci(&best).is_ok(),
        "a bot cleared still plays: {best}"
    );
}

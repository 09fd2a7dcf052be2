//! The Rust ports of the C#/Rust bot pairs (`tests/csharp_pairs/`, whose token counts
//! `token-counter/tests/csharp_pairs.rs` pins) build with the kit, within its token
//! limit, and play legal chess: a short round robin of the three ports and `evil_bot`,
//! every game read back by python-chess, which replays each move on its own board.

use std::path::PathBuf;
use std::time::Duration;

use framework::chess::Board;

use crate::common::{Engine, build, kit_root};
use crate::match_common::{json, read_pgn_with_python_chess, run_match_ok, scratch};

const PORTS: [&str; 3] = ["pvs", "plain", "golf"];

fn port(name: &str) -> PathBuf {
    kit_root()
        .join("tests")
        .join("csharp_pairs")
        .join(format!("{name}.rs"))
}

#[test]
fn the_rust_ports_build_and_play_legal_games() {
    let dir = scratch("csharp_pairs");
    let mut args: Vec<String> = PORTS
        .iter()
        .map(|name| port(name).display().to_string())
        .collect();
    args.push("evil_bot".into());
    // No `--allow-over-limit`: every port fits in the challenge's limit.
    let options = [
        "--games",
        "2",
        "--tc",
        "1+0.05",
        "--maxmoves",
        "80",
        "--pgn",
        "games.pgn",
        "--json",
        "summary.json",
        "-q",
    ];
    args.extend(options.map(String::from));
    run_match_ok(&dir, &args);

    let games = read_pgn_with_python_chess(&dir.join("games.pgn"));
    assert_eq!(games.len(), 12, "4 players, 6 pairs, 2 games each");
    for (white, black, result, termination, ply_tag, plies, errors) in &games {
        let game = format!("{white} vs {black}: {result} ({termination})");
        assert_eq!(*errors, 0, "python-chess found an illegal move: {game}");
        assert_eq!(ply_tag, plies, "{game}");
        assert!(*plies > 0, "{game}");
        for fault in ["rules infraction", "abandoned", "time forfeit"] {
            assert!(!termination.contains(fault), "{game}");
        }
    }
    let summary = json(&dir.join("summary.json"));
    assert_eq!(summary["games_played"], 12);
    assert_eq!(
        summary["faults"].as_array().map(Vec::len),
        Some(0),
        "{}",
        summary["faults"]
    );
}

/// C#'s `IsDraw()` never sees a repetition at the position `Think` is handed, and the
/// kit's `is_search_draw()` does not either, so the plain port scores draws from its
/// root on, as its C# twin does. Were the root scored as a draw, the port would find
/// no root move in a position the game has been in before: each port answers there with
/// a legal move.
#[test]
fn the_rust_ports_move_from_a_position_the_game_has_been_in_before() {
    let moves = ["g1f3", "g8f6", "f3g1", "f6g8"];
    let mut board = Board::startpos();
    for m in moves {
        let mv = board.parse_uci(m).unwrap();
        board.make_move(mv);
    }
    assert!(
        board.is_search_draw(),
        "the root is the start position again"
    );
    for name in PORTS {
        let mut engine = Engine::start(&build(port(name)));
        engine.handshake();
        engine.send(&format!("position startpos moves {}", moves.join(" ")));
        engine.send("go wtime 3000 btime 3000");
        let best = engine.expect("bestmove", Duration::from_secs(10));
        let mv = best.split_whitespace().nth(1).unwrap_or_default();
        let legal = board
            .parse_uci(mv)
            .is_ok_and(|parsed| board.is_legal(parsed));
        assert!(legal, "{name}: {best:?} ({})", engine.stderr());
        engine.send("quit");
        engine.wait_exit(Duration::from_secs(10));
    }
}

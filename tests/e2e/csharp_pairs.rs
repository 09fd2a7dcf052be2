//! The Rust ports of the C#/Rust bot pairs (`tests/csharp_pairs/`, whose token counts
//! `token-counter/tests/csharp_pairs.rs` pins) build with the kit and play legal chess:
//! a short round robin of the three ports and `evil_bot`, every game read back by
//! python-chess, which replays each move on its own board.

use crate::common::kit_root;
use crate::match_common::{json, read_pgn_with_python_chess, run_match_ok, scratch};

#[test]
fn the_rust_ports_build_and_play_legal_games() {
    let dir = scratch("csharp_pairs");
    let pairs = kit_root().join("tests").join("csharp_pairs");
    let mut args: Vec<String> = ["pvs", "plain", "golf"]
        .iter()
        .map(|name| pairs.join(format!("{name}.rs")).display().to_string())
        .collect();
    args.push("evil_bot".into());
    // The PVS port is over the limit today: that is what its pair measures.
    let options = [
        "--games",
        "2",
        "--tc",
        "1+0.05",
        "--maxmoves",
        "80",
        "--allow-over-limit",
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

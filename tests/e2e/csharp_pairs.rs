//! The Rust ports of the C#/Rust bot pairs (`tests/csharp_pairs/`, whose token counts
//! `token-counter/tests/csharp_pairs.rs` pins) build with the kit, within its token
//! limit, and play legal chess: a short round robin of the three ports and `evil_bot`,
//! every game read back by python-chess, which replays each move on its own board.

use std::path::PathBuf;
use std::time::Duration;

use framework::chess::Board;

use crate::common::{Engine, build, challenge, kit_root};
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

/// The bench positions where the automatic port of `pvs.cs` plays another move than the
/// hand port. C#'s `Array.Sort(keys, moves)` is .NET's unstable introsort, which the
/// automatic port keeps (the `cs` runtime's `sort_with_items`); the hand port orders the
/// moves with the stable `order_by`, so moves with equal keys are searched in another
/// order. With a stable sort in the automatic port's place, the two sign alike.
const PVS_SORT_DIFFERENCES: [&str; 5] = [
    "bench.08 middlegame",
    "bench.19 endgame",
    "bench.25 endgame",
    "bench.26 endgame",
    "bench.27 endgame",
];

/// `challenge bench FILE --depth 1`: under a depth limit the bot's clock is virtual, so a
/// C# bot's search, which stops by its clock and ignores the depth, is the same on every
/// run and machine. Returns the signature and each position's best move.
fn bench_signature(
    bot: &std::path::Path,
    table: &std::path::Path,
) -> (String, Vec<(String, String)>) {
    let (bot, csv_path) = (bot.display().to_string(), table.display().to_string());
    let output = challenge(&[
        "bench",
        &bot,
        "--depth",
        "1",
        "--allow-over-limit",
        "--csv",
        &csv_path,
    ]);
    let text = String::from_utf8_lossy(&output.stdout).into_owned();
    assert!(
        output.status.success(),
        "bench {bot}: {text}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let signature = (text.lines())
        .find_map(|line| line.strip_prefix("signature")?.split(':').nth(1))
        .and_then(|rest| rest.split_whitespace().next())
        .unwrap_or_else(|| panic!("no signature in the bench of {bot}:\n{text}"))
        .to_string();
    let mut rows = csv::Reader::from_path(table).expect("the bench's CSV");
    let header = rows.headers().expect("a header").clone();
    let column = |name: &str| header.iter().position(|h| h == name).expect(name);
    let (id, best, kind) = (column("id"), column("bestmove"), column("kind"));
    let moves = (rows.records())
        .map(|r| r.expect("a CSV row"))
        .filter(|r| &r[kind] == "position")
        .map(|r| (r[id].to_string(), r[best].to_string()))
        .collect();
    (signature, moves)
}

/// Each pair's C# file, ported by `challenge port`, searches as its hand port does:
/// `golf` and `plain` give the same bench signature, and `pvs` the same best move but on
/// the positions its sort changes (see [`PVS_SORT_DIFFERENCES`]). A second run of a
/// hand port signs alike: the signature is the search's, not the machine's load.
#[test]
fn each_pairs_automatic_port_benches_as_its_hand_port() {
    let dir = scratch("csharp_pairs_bench");
    for name in PORTS {
        let source = kit_root()
            .join("tests/csharp_pairs")
            .join(format!("{name}.cs"));
        let auto = dir.join(format!("{name}_auto.rs"));
        let (source_arg, auto_arg) = (source.display().to_string(), auto.display().to_string());
        let ported = challenge(&["port", &source_arg, "-o", &auto_arg]);
        assert!(
            ported.status.success(),
            "{name}: {}",
            String::from_utf8_lossy(&ported.stderr)
        );
        let hand = bench_signature(&port(name), &dir.join(format!("{name}_hand.csv")));
        let again = bench_signature(&port(name), &dir.join(format!("{name}_again.csv")));
        assert_eq!(hand, again, "{name}: the hand port's bench is reproducible");
        let automatic = bench_signature(&auto, &dir.join(format!("{name}_auto.csv")));
        if name != "pvs" {
            assert_eq!(
                automatic, hand,
                "{name}: the automatic port signs as the hand port"
            );
            continue;
        }
        let differing: Vec<&str> = (hand.1.iter().zip(&automatic.1))
            .filter(|(h, a)| h != a)
            .map(|(h, _)| h.0.as_str())
            .collect();
        assert_eq!(
            differing, PVS_SORT_DIFFERENCES,
            "pvs: {hand:?}\n{automatic:?}"
        );
    }
}

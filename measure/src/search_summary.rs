//! The players' search statistics in a match's summary: average depth, nodes per second,
//! time per move and PV mismatches, as a table and as JSON. The figures are
//! [`runner::SearchStats`]'s; a figure an engine never reported is shown as `-` (JSON
//! `null`), never as 0.

use std::fmt::Write as _;

use runner::SearchStats;
use serde_json::{Value, json};

/// A count per second with a k/M/G suffix: `950`, `41.3k`, `1.25M`.
pub fn per_second(x: f64) -> String {
    if x >= 1e9 {
        format!("{:.2}G", x / 1e9)
    } else if x >= 1e6 {
        format!("{:.2}M", x / 1e6)
    } else if x >= 1e3 {
        format!("{:.1}k", x / 1e3)
    } else {
        format!("{x:.0}")
    }
}

/// One player's row: depth, speed, time per move and PV mismatches, `-` where absent.
fn row(stats: &SearchStats) -> [String; 4] {
    let none = || "-".to_string();
    [
        stats
            .average_depth()
            .map_or_else(none, |d| format!("{d:.2}")),
        stats.nodes_per_second().map_or_else(none, per_second),
        stats
            .time_per_move()
            .map_or_else(none, |t| format!("{:.1} ms", t.as_secs_f64() * 1e3)),
        if stats.pv_moves == 0 {
            none()
        } else {
            format!("{} / {}", stats.pv_mismatches, stats.pv_moves)
        },
    ]
}

/// Appends the search table (one row per player, `names` and `stats` in the same order)
/// and a warning per player whose `bestmove` did not start its last PV, as fastchess
/// warns. Nothing when no player made a move.
pub fn search_lines(out: &mut String, names: &[String], stats: &[SearchStats]) {
    if stats.iter().all(|s| s.moves == 0) {
        return;
    }
    let width = names
        .iter()
        .map(|n| n.chars().count())
        .max()
        .unwrap_or(4)
        .max(4);
    let _ = writeln!(
        out,
        "Search (depth, nodes and PV as the engines report them; time per move as measured):"
    );
    let _ = writeln!(
        out,
        "  {:width$} {:>9} {:>8} {:>13} {:>14}",
        "Name", "Avg depth", "Nodes/s", "Time/move", "PV mismatches"
    );
    for (name, stats) in names.iter().zip(stats) {
        let [depth, nps, time, pv] = row(stats);
        let _ = writeln!(
            out,
            "  {name:width$} {depth:>9} {nps:>8} {time:>13} {pv:>14}"
        );
    }
    for (name, stats) in names.iter().zip(stats) {
        if stats.pv_mismatches > 0 {
            let _ = writeln!(
                out,
                "Warning: {name}'s bestmove did not match the beginning of its last PV {} time{} (of {} moves with a PV)",
                stats.pv_mismatches,
                if stats.pv_mismatches == 1 { "" } else { "s" },
                stats.pv_moves
            );
        }
    }
}

/// One player's search statistics as JSON: `moves`, `average_depth`,
/// `nodes_per_second`, `time_per_move_ms` (each `null` when the engine never reported
/// what it needs), `moves_with_depth`, `moves_with_nodes`, `nodes`, `pv_moves` and
/// `pv_mismatches`.
pub fn search_json(stats: &SearchStats) -> Value {
    json!({
        "moves": stats.moves,
        "average_depth": stats.average_depth(),
        "nodes_per_second": stats.nodes_per_second(),
        "time_per_move_ms": stats.time_per_move().map(|t| t.as_secs_f64() * 1e3),
        "moves_with_depth": stats.depth_moves,
        "moves_with_nodes": stats.node_moves,
        // Claimed counts can sum past u64; such a sum says nothing but "huge".
        "nodes": u64::try_from(stats.nodes).unwrap_or(u64::MAX),
        "pv_moves": stats.pv_moves,
        "pv_mismatches": stats.pv_mismatches,
    })
}

/// The examples this module's documentation had, as tests (its items are the crate's own).
#[cfg(test)]
mod documented {
    use super::*;

    #[test]
    fn per_second_as_documented() {
        assert_eq!(per_second(950.4), "950");
        assert_eq!(per_second(41_320.0), "41.3k");
        assert_eq!(per_second(1_254_000.0), "1.25M");
        assert_eq!(per_second(3.1e9), "3.10G");
    }

    #[test]
    fn search_lines_as_documented() {
        use runner::SearchStats;
        use std::time::Duration;
        let talker = SearchStats {
            moves: 2,
            time: Duration::from_millis(200),
            depth_moves: 2,
            depth_sum: 9,
            node_moves: 2,
            nodes: 20_000,
            node_time: Duration::from_millis(200),
            pv_moves: 2,
            pv_mismatches: 1,
        };
        let silent = SearchStats {
            moves: 2,
            time: Duration::from_millis(2),
            ..SearchStats::default()
        };
        let mut out = String::new();
        search_lines(
            &mut out,
            &["talker".into(), "silent".into()],
            &[talker, silent],
        );
        assert!(
            out.contains("  talker      4.50   100.0k      100.0 ms          1 / 2\n"),
            "{out}"
        );
        assert!(
            out.contains("  silent         -        -        1.0 ms              -\n"),
            "{out}"
        );
        assert!(
            out.contains(
                "Warning: talker's bestmove did not match the beginning of its last PV 1 time"
            ),
            "{out}"
        );
    }

    #[test]
    fn search_json_as_documented() {
        use runner::SearchStats;
        let silent = search_json(&SearchStats::default());
        assert!(silent["average_depth"].is_null() && silent["nodes_per_second"].is_null());
        assert_eq!(silent["pv_mismatches"], 0);
    }
}

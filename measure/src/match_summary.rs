//! A match's summary: the text `challenge match` prints and the JSON it writes.

use std::fmt::Write as _;
use std::time::Duration;

use runner::{
    EloEstimate, Player, SearchStats, SprtState, Standings, Stats, StopReason, TimeControl,
    TournamentConfig, TournamentResult,
};

use crate::search_summary::{search_json, search_lines};
use serde_json::{Value, json};

/// `+12.3 ± 45.6`; at a 0% or 100% score, where there is no finite
/// estimate, `n/a` with the score and the one bound the games do give
/// (`n/a (100% score, 95% > -636.4)`).
///
/// ```
/// use runner::Stats;
/// use measure::elo_text;
/// let one_win = Stats { wins: 1, ..Stats::default() };
/// let text = elo_text(&one_win.elo_wdl().unwrap());
/// assert!(text.starts_with("n/a (100% score, 95% > -"), "{text}");
/// let even = Stats { wins: 3, draws: 2, losses: 3, ..Stats::default() };
/// assert!(elo_text(&even.elo_wdl().unwrap()).starts_with("+0.0 ± "));
/// ```
pub fn elo_text(e: &EloEstimate) -> String {
    let signed = |x: f64| {
        if x.is_finite() {
            format!("{:+.1}", if x.abs() < 0.05 { 0.0 } else { x })
        } else if x > 0.0 {
            "+inf".into()
        } else {
            "-inf".into()
        }
    };
    if !e.elo.is_finite() {
        let bound = if e.elo_lower.is_finite() {
            format!(", 95% > {}", signed(e.elo_lower))
        } else if e.elo_upper.is_finite() {
            format!(", 95% < {}", signed(e.elo_upper))
        } else {
            String::new()
        };
        return format!("n/a ({:.0}% score{bound})", e.score * 100.0);
    }
    if e.error.is_finite() {
        format!("{} ± {:.1}", signed(e.elo), e.error)
    } else if e.elo_lower.is_finite() {
        format!("{}, > {}", signed(e.elo), signed(e.elo_lower))
    } else if e.elo_upper.is_finite() {
        format!("{}, < {}", signed(e.elo), signed(e.elo_upper))
    } else {
        format!("{} ± ?", signed(e.elo))
    }
}

/// The 95% interval as `[lower, upper]`, open-ended where unbounded.
pub fn interval_text(e: &EloEstimate) -> String {
    let end = |x: f64| {
        if x.is_finite() {
            format!("{x:+.2}")
        } else if x > 0.0 {
            "+inf".into()
        } else {
            "-inf".into()
        }
    };
    format!("[{}, {}]", end(e.elo_lower), end(e.elo_upper))
}

/// The players' time controls: one when they share it, else one per player.
pub fn describe_tcs(players: &[Player]) -> String {
    let first = players[0].tc;
    if players.iter().all(|p| p.tc == first) {
        describe_tc(&first)
    } else {
        players
            .iter()
            .map(|p| format!("{} {}", p.name(), describe_tc(&p.tc)))
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// A time control with its node and depth limits (`tc 5+0.05, nodes 1000`).
pub fn describe_tc(tc: &TimeControl) -> String {
    let mut parts = Vec::new();
    if tc.base.is_some() || tc.movetime.is_some() {
        parts.push(format!("tc {tc}"));
    }
    if let Some(n) = tc.nodes {
        parts.push(format!("nodes {n}"));
    }
    if let Some(d) = tc.depth {
        parts.push(format!("depth {d}"));
    }
    if parts.is_empty() {
        "no limits".to_string()
    } else {
        parts.join(", ")
    }
}

/// A figure with two decimals, or `n/a` where the statistic is undefined (no variance yet,
/// or a 0% / 100% score).
pub fn fig(x: f64) -> String {
    if x.is_finite() {
        format!("{:.2}", x + 0.0)
    } else {
        "n/a".to_string()
    }
}

/// Appends the W/D/L, Elo and pentanomial lines of one player or encounter.
pub fn stats_lines(out: &mut String, stats: &Stats) {
    let _ = writeln!(
        out,
        "Games: {}, Wins: {}, Losses: {}, Draws: {}, Points: {:.1} ({:.2} %)",
        stats.games(),
        stats.wins,
        stats.losses,
        stats.draws,
        stats.points(),
        stats.score() * 100.0
    );
    if let Some(e) = stats.elo_wdl() {
        let _ = writeln!(
            out,
            "Elo: {} +/- {} (95%: {}), nElo: {} +/- {}, LOS: {} %, DrawRatio: {:.2} %",
            fig(e.elo),
            fig(e.error),
            interval_text(&e),
            fig(e.nelo),
            fig(e.nelo_error),
            fig(e.los * 100.0),
            stats.draw_ratio() * 100.0
        );
    }
    if let Some(e) = stats.elo_penta() {
        let _ = writeln!(
            out,
            "Pairs: {}{}, Ptnml(0-2): {:?}, pair Elo: {} +/- {}, nElo: {} +/- {}, LOS: {} %",
            stats.pairs(),
            unpaired_text(stats.unpaired_games()),
            stats.penta,
            fig(e.elo),
            fig(e.error),
            fig(e.nelo),
            fig(e.nelo_error),
            fig(e.los * 100.0)
        );
    }
}

/// What makes the games add up to the pairs: ` (+1 game whose pair did not finish)`.
fn unpaired_text(unpaired: u64) -> String {
    match unpaired {
        0 => String::new(),
        1 => " (+1 game whose pair did not finish)".to_string(),
        n => format!(" (+{n} games whose pairs did not finish)"),
    }
}

/// Why the match ended, in words.
pub fn stop_text(result: &TournamentResult) -> &'static str {
    match result.stop {
        StopReason::Completed => "all games played",
        StopReason::Interrupted => "interrupted (Ctrl-C); finished games are counted",
        StopReason::Sprt(SprtState::AcceptH1) => "SPRT: H1 accepted (upper bound crossed)",
        StopReason::Sprt(SprtState::AcceptH0) => "SPRT: H0 accepted (lower bound crossed)",
        StopReason::Sprt(SprtState::Continue) => "SPRT running",
    }
}

/// The players ranked by points, with their Elo against the field.
fn standings_table(out: &mut String, s: &Standings) {
    let mut order: Vec<usize> = (0..s.players.len()).collect();
    order.sort_by(|&a, &b| s.player(b).points().total_cmp(&s.player(a).points()));
    let width = s.players.iter().map(|n| n.len()).max().unwrap_or(4).max(4);
    let _ = writeln!(
        out,
        "  # {:width$}  {:>7} {:>6} {:>5} {:>5} {:>5}   Elo vs field",
        "Name", "Points", "Games", "W", "D", "L"
    );
    for (rank, &i) in order.iter().enumerate() {
        let p = s.player(i);
        let elo = p.elo_wdl().map_or("-".to_string(), |e| {
            format!("{} +/- {}", fig(e.elo), fig(e.error))
        });
        let _ = writeln!(
            out,
            "{:>3} {:width$}  {:>7.1} {:>6} {:>5} {:>5} {:>5}   {}",
            rank + 1,
            s.players[i],
            p.points(),
            p.games(),
            p.wins,
            p.draws,
            p.losses,
            elo
        );
    }
}

/// The summary printed at the end: the result (two players) or the standings and every
/// encounter, the SPRT, each player's search statistics (`search`, in the order of the
/// players), the fault counts and the time taken.
pub fn summary_text(
    config: &TournamentConfig,
    result: &TournamentResult,
    search: &[SearchStats],
    first_pair: &str,
    elapsed: Duration,
) -> String {
    let s = &result.standings;
    let mut out = String::new();
    let _ = writeln!(out);
    if config.players.len() == 2 {
        let _ = writeln!(
            out,
            "Results of {first_pair} ({}):",
            describe_tcs(&config.players)
        );
        stats_lines(&mut out, &s.player(0));
    } else {
        let _ = writeln!(
            out,
            "Standings ({}, {}):",
            config.format,
            describe_tcs(&config.players)
        );
        standings_table(&mut out, s);
        for &((a, b), stats) in &s.encounters {
            if stats.games() == 0 {
                continue;
            }
            let _ = writeln!(out, "\n{} vs {}:", s.players[a], s.players[b]);
            stats_lines(&mut out, &stats);
        }
    }
    if let (Some(sprt), Some(llr)) = (config.sprt, result.llr) {
        let _ = writeln!(
            out,
            "SPRT ([{}, {}], alpha {}, beta {}): LLR {:.2} (bounds {:.2}, {:.2})",
            sprt.elo0,
            sprt.elo1,
            sprt.alpha,
            sprt.beta,
            llr,
            sprt.lower_bound(),
            sprt.upper_bound()
        );
    }
    search_lines(&mut out, &s.players, search);
    let mut terminations = std::collections::BTreeMap::new();
    for (t, n) in &s.faults {
        terminations.insert(t.tag(), *n);
    }
    if !terminations.is_empty() {
        let list: Vec<String> = terminations
            .iter()
            .map(|(t, n)| format!("{t} {n}"))
            .collect();
        let _ = writeln!(out, "Faults: {}", list.join(", "));
    }
    let _ = writeln!(
        out,
        "{} of {} games in {:.1}s: {}",
        s.games,
        result.scheduled,
        elapsed.as_secs_f64(),
        stop_text(result)
    );
    out
}

/// One player's or encounter's statistics as JSON.
pub fn stats_json(stats: &Stats) -> Value {
    let elo = |e: Option<runner::EloEstimate>| {
        e.map_or(Value::Null, |e| {
            json!({"score": e.score, "elo": e.elo, "error": e.error, "elo_lower": e.elo_lower, "elo_upper": e.elo_upper, "nelo": e.nelo, "nelo_error": e.nelo_error, "los": e.los})
        })
    };
    json!({
        "games": stats.games(),
        "wins": stats.wins,
        "draws": stats.draws,
        "losses": stats.losses,
        "points": stats.points(),
        "score": stats.score(),
        "draw_ratio": stats.draw_ratio(),
        "pairs": stats.pairs(),
        "unpaired_games": stats.unpaired_games(),
        "pentanomial": stats.penta,
        "elo": elo(stats.elo_wdl()),
        "elo_pentanomial": elo(stats.elo_penta()),
    })
}

/// The whole summary as JSON (`--json`); `search` holds each player's search statistics,
/// in the order of the players.
pub fn summary_json(
    config: &TournamentConfig,
    result: &TournamentResult,
    faults: &[Value],
    search: &[SearchStats],
    elapsed: Duration,
    openings: &str,
    seed: u64,
) -> Value {
    let s: &Standings = &result.standings;
    json!({
        "format": config.format.to_string(),
        "openings": openings,
        "seed": seed,
        "concurrency": config.concurrency,
        "games_scheduled": result.scheduled,
        "games_played": s.games,
        "elapsed_seconds": elapsed.as_secs_f64(),
        "stop": stop_text(result),
        "players": s.players.iter().enumerate().map(|(i, name)| json!({
            "name": name,
            "command": config.players[i].engine.command.display().to_string(),
            "time_control": config.players[i].tc.to_string(),
            "stats": stats_json(&s.player(i)),
            "search": search.get(i).map(search_json),
        })).collect::<Vec<_>>(),
        "pairs": s.encounters.iter().map(|&((a, b), stats)| json!({
            "first": s.players[a],
            "second": s.players[b],
            "stats": stats_json(&stats),
        })).collect::<Vec<_>>(),
        "sprt": config.sprt.map(|sprt| json!({
            "elo0": sprt.elo0, "elo1": sprt.elo1, "alpha": sprt.alpha, "beta": sprt.beta,
            "lower_bound": sprt.lower_bound(), "upper_bound": sprt.upper_bound(),
            "llr": result.llr,
            "state": match result.stop {
                StopReason::Sprt(SprtState::AcceptH1) => "H1",
                StopReason::Sprt(SprtState::AcceptH0) => "H0",
                _ => "continue",
            },
        })),
        "fault_counts": s.faults.iter().map(|(t, n)| (t.tag().to_string(), json!(n))).collect::<serde_json::Map<_, _>>(),
        "faults": faults,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn games_and_pairs_add_up_in_the_summary() {
        // 195 games, 97 pairs: an SPRT stopped the match with one pair half played.
        let mut stats = Stats::default();
        for pair in 0..97 {
            let (a, b) = if pair % 3 == 0 {
                (1.0, 0.5)
            } else {
                (0.5, 0.0)
            };
            stats.add_game(a);
            stats.add_game(b);
            stats.add_pair(a, b);
        }
        stats.add_game(1.0);
        let mut out = String::new();
        stats_lines(&mut out, &stats);
        assert!(out.contains("Games: 195,"), "{out}");
        assert!(
            out.contains("Pairs: 97 (+1 game whose pair did not finish), "),
            "{out}"
        );
        assert_eq!(stats_json(&stats)["unpaired_games"], 1);
        stats.add_game(0.0);
        stats.add_pair(1.0, 0.0);
        let mut out = String::new();
        stats_lines(&mut out, &stats);
        assert!(out.contains("Pairs: 98, "), "{out}");
    }

    #[test]
    fn elo_text_never_shows_an_infinite_estimate() {
        for stats in [
            Stats {
                wins: 1,
                ..Stats::default()
            },
            Stats {
                losses: 4,
                ..Stats::default()
            },
            Stats {
                wins: 5,
                draws: 1,
                ..Stats::default()
            },
        ] {
            let text = elo_text(&stats.elo_wdl().unwrap());
            assert!(!text.contains("inf"), "{text}");
        }
        let lost = Stats {
            losses: 1,
            ..Stats::default()
        };
        let text = elo_text(&lost.elo_wdl().unwrap());
        assert!(text.starts_with("n/a (0% score, 95% < +"), "{text}");
    }
}

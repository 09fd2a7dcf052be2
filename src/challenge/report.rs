//! `challenge report --html FILE`: one self-contained page with the standings, a
//! crosstable, a rating chart with intervals (inline SVG) and every game replayable in
//! the browser. No network is needed to view it: the CSS and script are inline, pieces
//! are Unicode glyphs, and each game carries the board placement of every ply, computed
//! here, so the script only draws.

use std::fmt::Write as _;

use anyhow::{Context, Result};
use framework::chess::Color;
use framework::notation::pgn::read_games;
use serde::Serialize;

use super::standings::{GameFact, RatingChoice, Table, build_table, store_facts};
use super::store::Store;

const TEMPLATE: &str = include_str!("report.html");
const SCRIPT: &str = include_str!("report.js");

/// One game as the page's script replays it.
#[derive(Debug, Clone, Serialize)]
pub struct ReportGame {
    /// The game's number in the store.
    pub id: i64,
    /// `round.pair.game`.
    pub round: String,
    /// White's name.
    pub white: String,
    /// Black's name.
    pub black: String,
    /// `1-0`, `0-1`, `1/2-1/2`.
    pub result: String,
    /// Why it ended.
    pub termination: String,
    /// The runner's sentence about the ending.
    pub detail: String,
    /// The moves in SAN.
    pub san: Vec<String>,
    /// The moves in UCI (for highlighting).
    pub uci: Vec<String>,
    /// The FEN placement field before the first move and after every move.
    pub fens: Vec<String>,
    /// The full-move number of the first move.
    pub first_move: u32,
    /// 1 if Black moves first.
    pub first_black: u32,
}

#[derive(Serialize)]
struct Data<'a> {
    games: &'a [ReportGame],
}

/// Escapes text for HTML.
pub fn esc(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(c),
        }
    }
    out
}

/// Replays a stored PGN into the page's form; `None` if it does not read back.
pub fn report_game(id: i64, pgn: &str, detail: &str) -> Option<ReportGame> {
    let game = read_games(pgn).games.into_iter().next()?;
    let mut board = game.start.clone();
    let placement = |fen: String| fen.split(' ').next().unwrap_or_default().to_string();
    let mut fens = vec![placement(board.fen())];
    let mut uci = Vec::new();
    for &mv in &game.moves {
        uci.push(mv.to_string());
        board.make_move(mv);
        fens.push(placement(board.fen()));
    }
    Some(ReportGame {
        id,
        round: game.tag("Round").unwrap_or("?").to_string(),
        white: game.tag("White").unwrap_or("?").to_string(),
        black: game.tag("Black").unwrap_or("?").to_string(),
        result: game.result.as_str().to_string(),
        termination: game.tag("Termination").unwrap_or("").to_string(),
        detail: detail.to_string(),
        san: game.san_moves(),
        uci,
        fens,
        first_move: game.start.fullmove_number(),
        first_black: u32::from(game.start.side_to_move() == Color::Black),
    })
}

fn standings_html(table: &Table) -> String {
    let mut h = String::from(
        "<h2>Standings</h2>\n<table><tr><th>#</th><th class=\"l\">Name</th><th class=\"l\">Author</th>\
         <th>Ver</th><th>Tokens</th><th>Games</th><th>Points</th><th>W</th><th>D</th><th>L</th>\
         <th>Elo</th><th>±95%</th><th>Crash</th><th>Time</th><th>Illegal</th></tr>\n",
    );
    for r in &table.rows {
        let inactive = r.player.status != "active";
        let _ = writeln!(
            h,
            "<tr{}><td>{}</td><td class=\"l\">{}{}</td><td class=\"l\">{}</td><td>{}</td><td>{}</td>\
             <td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td>\
             <td>{}</td><td>{}</td><td>{}</td></tr>",
            if inactive { " class=\"inactive\"" } else { "" },
            r.rank,
            esc(&r.player.entry),
            if inactive {
                format!(" ({})", esc(&r.player.status))
            } else {
                String::new()
            },
            esc(r.player.author.as_deref().unwrap_or("")),
            r.player.version.map_or(String::new(), |v| format!("v{v}")),
            r.player.tokens.map_or(String::new(), |t| t.to_string()),
            r.games,
            r.points,
            r.wins,
            r.draws,
            r.losses,
            r.elo.map_or("-".into(), |e| format!("{e:+.0}")),
            r.interval.map_or("-".into(), |e| format!("{e:.0}")),
            r.crashes,
            r.timeouts,
            r.illegal
        );
    }
    h.push_str("</table>\n");
    let _ = writeln!(
        h,
        "<p class=\"note\">{} games. Elo by maximum likelihood with draws modelled (BayesElo's model, drawelo {:.0}), {}, 95% intervals from the Fisher information, {} virtual draws per player.</p>",
        table.games,
        table.draw_elo,
        match &table.anchor {
            Some(a) => format!("anchored at {} = 0", esc(a)),
            None => "mean rating 0".to_string(),
        },
        table.prior
    );
    h
}

fn crosstable_html(table: &Table, games: &[GameFact]) -> String {
    // Rows follow the standings; players are indexed by their position in `store_facts`.
    let n = table.rows.len();
    let order: Vec<usize> = table.rows.iter().map(|r| r.index).collect();
    let mut points = vec![0.0f64; n * n];
    let mut count = vec![0usize; n * n];
    for g in games {
        points[g.white * n + g.black] += g.score;
        points[g.black * n + g.white] += 1.0 - g.score;
        count[g.white * n + g.black] += 1;
        count[g.black * n + g.white] += 1;
    }
    let mut h =
        String::from("<h2>Crosstable</h2>\n<table class=\"cross\"><tr><th class=\"l\">Name</th>");
    for k in 1..=n {
        let _ = write!(h, "<th>{k}</th>");
    }
    h.push_str("</tr>\n");
    for (rank, &i) in order.iter().enumerate() {
        let _ = write!(
            h,
            "<tr><td class=\"l\">{} {}</td>",
            rank + 1,
            esc(&table.rows[rank].player.name)
        );
        for &j in &order {
            if i == j {
                h.push_str("<td class=\"self\"></td>");
            } else if count[i * n + j] == 0 {
                h.push_str("<td></td>");
            } else {
                let _ = write!(
                    h,
                    "<td title=\"{} games\">{}/{}</td>",
                    count[i * n + j],
                    points[i * n + j],
                    count[i * n + j]
                );
            }
        }
        h.push_str("</tr>\n");
    }
    h.push_str("</table>\n");
    h
}

/// The rating chart: one row per rated player, a dot at the rating and a bar over its
/// 95% interval, on a shared Elo axis.
pub fn chart_svg(table: &Table) -> String {
    let rated: Vec<(&str, f64, f64)> = table
        .rows
        .iter()
        .filter_map(|r| Some((r.player.name.as_str(), r.elo?, r.interval?)))
        .collect();
    if rated.is_empty() {
        return String::new();
    }
    let lo = rated
        .iter()
        .map(|r| r.1 - r.2)
        .fold(f64::INFINITY, f64::min);
    let hi = rated
        .iter()
        .map(|r| r.1 + r.2)
        .fold(f64::NEG_INFINITY, f64::max);
    let step = nice_step((hi - lo).max(1.0) / 6.0);
    let (lo, hi) = ((lo / step).floor() * step, (hi / step).ceil() * step);
    let (left, width, row) = (180.0, 560.0, 26.0);
    let height = 30.0 + row * rated.len() as f64 + 30.0;
    let x = |elo: f64| left + (elo - lo) / (hi - lo) * width;
    let mut s = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{:.0}\" height=\"{height:.0}\" role=\"img\" aria-label=\"ratings with 95% intervals\" font-family=\"sans-serif\" font-size=\"12\">\n",
        left + width + 30.0
    );
    let mut tick = lo;
    while tick <= hi + step / 2.0 {
        let _ = writeln!(
            s,
            "<line x1=\"{0:.1}\" y1=\"20\" x2=\"{0:.1}\" y2=\"{1:.1}\" stroke=\"#ddd\"/><text x=\"{0:.1}\" y=\"{2:.1}\" text-anchor=\"middle\" fill=\"#555\">{3:+.0}</text>",
            x(tick),
            height - 25.0,
            height - 10.0,
            tick
        );
        tick += step;
    }
    for (k, (name, elo, interval)) in rated.iter().enumerate() {
        let y = 30.0 + row * k as f64 + row / 2.0;
        let _ = writeln!(
            s,
            "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">{}</text>\
             <line x1=\"{:.1}\" y1=\"{y:.1}\" x2=\"{:.1}\" y2=\"{y:.1}\" stroke=\"#4a78b5\" stroke-width=\"4\" stroke-linecap=\"round\"/>\
             <circle cx=\"{:.1}\" cy=\"{y:.1}\" r=\"5\" fill=\"#1c3f73\"><title>{} {:+.1} ± {:.1}</title></circle>",
            left - 10.0,
            y + 4.0,
            esc(name),
            x(elo - interval),
            x(elo + interval),
            x(*elo),
            esc(name),
            elo,
            interval
        );
    }
    s.push_str("</svg>\n");
    s
}

fn nice_step(raw: f64) -> f64 {
    let magnitude = 10f64.powf(raw.log10().floor());
    let fraction = raw / magnitude;
    let nice = if fraction <= 1.0 {
        1.0
    } else if fraction <= 2.0 {
        2.0
    } else if fraction <= 5.0 {
        5.0
    } else {
        10.0
    };
    nice * magnitude
}

/// The whole page.
pub fn render(
    title: &str,
    subtitle: &str,
    table: &Table,
    facts: &[GameFact],
    games: &[ReportGame],
) -> Result<String> {
    let mut body = standings_html(table);
    body.push_str("<h2>Ratings</h2>\n");
    body.push_str(&chart_svg(table));
    body.push_str(&crosstable_html(table, facts));
    // `</` inside the JSON would end the script element early.
    let data = serde_json::to_string(&Data { games })?.replace("</", "<\\/");
    Ok(TEMPLATE
        .replace("{{TITLE}}", &esc(title))
        .replace("{{SUBTITLE}}", &esc(subtitle))
        .replace("{{BODY}}", &body)
        .replace("{{SCRIPT}}", SCRIPT)
        .replace("{{DATA}}", &data))
}

/// Writes the report on `store` to `html`; returns how many games it shows.
pub fn write_report(
    store: &dyn Store,
    html: &std::path::Path,
    rating: &RatingChoice,
) -> Result<usize> {
    let (players, facts) = store_facts(store)?;
    let table = build_table(players, &facts, rating)?;
    let mut games = Vec::new();
    for g in store.games(true)? {
        let replay = report_game(g.id.0, &g.pgn, &g.detail)
            .with_context(|| format!("game {} in the store does not read back as PGN", g.id))?;
        games.push(replay);
    }
    let title = "Chess bot challenge";
    let subtitle = format!(
        "{} players, {} games, from {}. Generated by `challenge report` on {} (UTC).",
        table.rows.len(),
        games.len(),
        store.location(),
        framework::notation::pgn_date(std::time::SystemTime::now())
    );
    let page = render(title, &subtitle, &table, &facts, &games)?;
    std::fs::write(html, page).with_context(|| format!("cannot write {}", html.display()))?;
    Ok(games.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_markup() {
        assert_eq!(
            esc("<a href=\"x\">&'"),
            "&lt;a href=&quot;x&quot;&gt;&amp;&#39;"
        );
    }

    #[test]
    fn replays_a_game_ply_by_ply() {
        let g = report_game(
            1,
            "[White \"a\"]\n[Black \"b\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n",
            "",
        )
        .unwrap();
        assert_eq!(g.san.len(), 7);
        assert_eq!(g.fens.len(), 8);
        assert_eq!(g.fens[1], "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR");
        assert_eq!(g.uci[6], "h5f7");
        assert_eq!(g.san[6], "Qxf7#");
        assert_eq!((g.first_move, g.first_black), (1, 0));
    }

    #[test]
    fn authors_and_names_are_escaped_in_the_page() {
        use crate::challenge::standings::RatingChoice;
        use crate::challenge::standings::{PlayerInfo, build_table};
        let player = |name: &str, author: &str| PlayerInfo {
            name: name.into(),
            entry: name.into(),
            author: Some(author.into()),
            status: "active".into(),
            ..PlayerInfo::default()
        };
        let players = vec![
            player("a", "<script>alert(1)</script>"),
            player("b", "B & co"),
        ];
        let facts = vec![GameFact {
            white: 0,
            black: 1,
            score: 1.0,
            termination: Some(runner::Termination::Checkmate),
            faulty: None,
        }];
        let args = RatingChoice {
            prior: 2.0,
            anchor: None,
        };
        let table = build_table(players, &facts, &args).unwrap();
        let game = report_game(
            1,
            "[White \"a</script>\"]\n[Black \"b\"]\n\n1. e4 1-0\n",
            "",
        )
        .unwrap();
        let page = render("t", "s", &table, &facts, &[game]).unwrap();
        assert!(!page.contains("<script>alert"));
        assert!(page.contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
        assert!(page.contains("B &amp; co"));
        assert_eq!(
            page.matches("</script>").count(),
            2,
            "only the page's own two scripts end"
        );
        assert!(page.contains("<svg"));
    }

    #[test]
    fn nice_steps() {
        assert_eq!(nice_step(37.0), 50.0);
        assert_eq!(nice_step(100.0), 100.0);
        assert_eq!(nice_step(0.3), 0.5);
    }
}

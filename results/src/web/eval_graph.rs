//! The evaluation graph of an analysed game, as inline SVG drawn here (no third-party
//! script): White's winning chances after every ply, read from the `[%eval]` comments
//! `challenge analyze -o` writes, on the scale lichess uses (Win%, so a mate and +10 look
//! alike and small edges stay visible).
//!
//! The SVG holds numbers the kit formatted and text it escaped; the pages insert it as
//! markup from their templates and move its marker with `ChessBoard.evalGraph`.

use std::fmt::Write as _;

use framework::notation::pgn::PgnGame;

use crate::eval::{Eval, parse_eval, win_percent};

/// The graph's size in CSS pixels: as wide as the board.
pub const WIDTH: f64 = 388.0;
/// The graph's height in CSS pixels.
pub const HEIGHT: f64 = 96.0;

/// The evaluation before the first move and after every move (`None` where a comment has
/// none); `None` for a game without any `[%eval]`, which gets no graph.
pub fn evals(game: &PgnGame) -> Option<Vec<Option<Eval>>> {
    let of = |comment: &Option<String>| comment.as_deref().and_then(parse_eval);
    let all: Vec<Option<Eval>> = std::iter::once(of(&game.intro))
        .chain(game.comments.iter().map(of))
        .collect();
    all.iter().any(Option::is_some).then_some(all)
}

/// The graph of `evals` (one per ply, the first before any move) as an `<svg>` element.
/// A ply without an evaluation keeps the one before it (even at the start). The `svg`
/// carries `data-plies` (the last ply) for the page's script; its `line.marker` marks the
/// ply on the board, and every ply has a `<title>` with its move and evaluation.
///
/// `sans` names the moves; they are untrusted text and are escaped.
pub fn svg(evals: &[Option<Eval>], sans: &[String]) -> String {
    let last = evals.len().saturating_sub(1);
    let step = WIDTH / last.max(1) as f64;
    let mut known = Eval::Cp(0);
    let heights: Vec<f64> = evals
        .iter()
        .map(|eval| {
            known = eval.unwrap_or(known);
            HEIGHT * (1.0 - win_percent(known) / 100.0)
        })
        .collect();
    let mut out = String::new();
    let _ = write!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"evalgraph-svg\" width=\"{WIDTH}\" \
         height=\"{HEIGHT}\" viewBox=\"0 0 {WIDTH} {HEIGHT}\" role=\"img\" \
         aria-label=\"evaluation graph: White's winning chances after each move\" \
         data-plies=\"{last}\"><rect width=\"{WIDTH}\" height=\"{HEIGHT}\" fill=\"#3a3a3a\"/>"
    );
    area(&mut out, &heights, step);
    let _ = write!(
        out,
        "<line x1=\"0\" y1=\"{mid}\" x2=\"{WIDTH}\" y2=\"{mid}\" stroke=\"#d08a2c\" \
         stroke-width=\"1\" stroke-dasharray=\"3 3\"/>",
        mid = HEIGHT / 2.0
    );
    titles(&mut out, evals, sans, step);
    let _ = write!(
        out,
        "<line class=\"marker\" x1=\"{WIDTH}\" y1=\"0\" x2=\"{WIDTH}\" y2=\"{HEIGHT}\" \
         stroke=\"#2f7de1\" stroke-width=\"2\"/></svg>"
    );
    out
}

/// White's share, filled white from the bottom up to the curve.
fn area(out: &mut String, heights: &[f64], step: f64) {
    let mut points = format!("0,{HEIGHT}");
    for (ply, y) in heights.iter().enumerate() {
        let _ = write!(points, " {:.1},{y:.1}", ply as f64 * step);
    }
    if heights.len() == 1 {
        let _ = write!(points, " {WIDTH},{:.1}", heights[0]);
    }
    let _ = write!(points, " {WIDTH},{HEIGHT}");
    let _ = write!(out, "<polygon points=\"{points}\" fill=\"#f2f2f2\"/>");
}

/// One transparent column per ply, carrying its move and evaluation as a tooltip.
fn titles(out: &mut String, evals: &[Option<Eval>], sans: &[String], step: f64) {
    for (ply, eval) in evals.iter().enumerate() {
        let x = (ply as f64 - 0.5).max(0.0) * step;
        let move_text = match ply.checked_sub(1).and_then(|i| sans.get(i)) {
            Some(san) => format!("{ply}. {san}"),
            None => "start".to_string(),
        };
        let eval_text = eval.map_or("no evaluation".to_string(), |e| e.to_string());
        let _ = write!(
            out,
            "<rect x=\"{x:.1}\" width=\"{step:.1}\" height=\"{HEIGHT}\" fill=\"transparent\" \
             data-ply=\"{ply}\"><title>{}</title></rect>",
            escape(&format!("{move_text} {eval_text}"))
        );
    }
}

/// Text made safe for SVG/HTML markup, content or attribute.
fn escape(text: &str) -> String {
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

#[cfg(test)]
mod tests {
    use framework::notation::pgn::read_games;

    use super::*;

    #[test]
    fn evals_come_from_the_comments_and_a_game_without_any_has_none() {
        let game = &read_games("1. e4 { [%eval 0.3] } e5 { [%eval -1.5] } 2. Qh5 *").games[0];
        assert_eq!(
            evals(game),
            Some(vec![None, Some(Eval::Cp(30)), Some(Eval::Cp(-150)), None])
        );
        assert_eq!(evals(&read_games("1. e4 { best } *").games[0]), None);
    }

    #[test]
    fn the_graph_is_one_svg_element_with_escaped_moves() {
        let graph = svg(
            &[Some(Eval::Cp(20)), Some(Eval::Mate(-2))],
            &["<b>".to_string()],
        );
        assert!(graph.starts_with("<svg ") && graph.ends_with("</svg>"));
        assert!(graph.contains("1. &lt;b&gt; #-2") && !graph.contains("<b>"));
    }

    #[test]
    fn the_curve_follows_white_s_chances() {
        let graph = svg(
            &[
                Some(Eval::Cp(0)),
                Some(Eval::Mate(3)),
                None,
                Some(Eval::Mate(-1)),
            ],
            &[],
        );
        let points = graph
            .split("points=\"")
            .nth(1)
            .unwrap()
            .split('"')
            .next()
            .unwrap();
        let ys: Vec<f64> = points
            .split(' ')
            .map(|p| p.split(',').nth(1).unwrap().parse().unwrap())
            .collect();
        // Bottom corner, then even, White mating (a short bar from the top), the same
        // again where the comment had no evaluation, Black mating, bottom corner.
        let top = HEIGHT * (1.0 - win_percent(Eval::Mate(3)) / 100.0);
        let bottom = HEIGHT * (1.0 - win_percent(Eval::Mate(-1)) / 100.0);
        assert_eq!(ys.len(), 6);
        assert_eq!(ys[1], HEIGHT / 2.0);
        assert!((ys[2] - top).abs() < 0.06 && (ys[3] - top).abs() < 0.06);
        assert!((ys[4] - bottom).abs() < 0.06);
        assert!(
            top < 5.0 && bottom > HEIGHT - 5.0,
            "mates near the edges: {top} {bottom}"
        );
        assert!(graph.contains("data-plies=\"3\""));
    }

    #[test]
    fn hostile_moves_are_escaped() {
        let sans = ["\"><script>alert(1)</script>".to_string()];
        let graph = svg(&[None, Some(Eval::Cp(5))], &sans);
        assert!(!graph.contains("<script"));
        assert!(graph.contains("&quot;&gt;&lt;script&gt;"));
        assert_eq!(graph.matches("<title>").count(), 2);
    }
}

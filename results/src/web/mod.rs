//! What the kit's web pages share: the board script and style, the evaluation graph, and
//! the words the pages use for a game's place in a run.
//!
//! The report (`challenge report --html`) inlines [`BOARD_JS`], [`BOARD_CSS`] and
//! [`PAGES_CSS`]; the server (`challenge serve`, `challenge play --web`) serves them as
//! static files. Both render the rating chart from one template, [`RATING_CHART`], and
//! say how the ratings were computed with [`method_note`]. Both
//! draw boards and move lists with the script's `ChessBoard.draw(el, fen, opts)` and
//! `ChessBoard.moveList(el, sans, opts)`, so a board is drawn, and tested, once.
//!
//! ```
//! assert!(results::BOARD_JS.contains("const ChessBoard"));
//! assert!(results::BOARD_CSS.contains(".chessboard"));
//! ```

pub(crate) mod eval_graph;

use crate::standings::{StandingsTable, model_words};

/// The board script: defines the global `ChessBoard` with `draw`, `moveList` and
/// `evalGraph` (see the comment at its top for the options).
pub const BOARD_JS: &str = include_str!("board.js");

/// The board's style: squares, pieces, coordinates, highlights, the move list.
pub const BOARD_CSS: &str = include_str!("board.css");

/// The style of what the report and the server's pages both show: notes, the standings
/// and crosstable, the game viewer's layout.
pub const PAGES_CSS: &str = include_str!("pages.css");

/// The rating chart's template, by the name the pages include it by (`{% include
/// "rating_chart.html" %}`): it draws a [`crate::Chart`] given as `chart`, if there is one.
///
/// ```
/// let (name, text) = results::RATING_CHART;
/// assert_eq!(name, "rating_chart.html");
/// assert!(text.contains("ratings with 95% intervals"));
/// ```
pub const RATING_CHART: (&str, &str) = ("rating_chart.html", include_str!("rating_chart.html"));

/// The sentence under a standings table on every page that shows one (the report, the
/// server's standings): games, the rating model, what the ratings are centred on, the
/// intervals and the prior, as the table was fitted.
///
/// ```
/// use results::{ModelName, PgnFacts, PgnReadMode, RatingChoice, build_table, method_note};
/// let pgn = "[White \"ann\"]\n[Black \"bob\"]\n[Result \"1-0\"]\n\n1. e4 1-0\n";
/// let mut facts = PgnFacts::default();
/// facts.read("games.pgn", pgn.as_bytes(), PgnReadMode::default(), &|_| {}).unwrap();
/// let rate = |choice| build_table(facts.players.clone(), &facts.games, &choice).unwrap();
///
/// let kit = method_note(&rate(RatingChoice::default()));
/// assert!(kit.starts_with("1 games. Elo by maximum likelihood (BayesElo's draw model, drawelo "), "{kit}");
/// assert!(kit.ends_with("mean rating 0, 95% intervals from the Fisher information, 2 virtual draws per player."));
///
/// // What `challenge report --model bayeselo --offset 1500` fitted, not the kit's model.
/// let bayeselo = RatingChoice { model: ModelName::Bayeselo, offset: 1500.0, ..RatingChoice::default() };
/// let note = method_note(&rate(bayeselo));
/// assert!(note.contains("Elo by BayesElo's mm model (advantage 32.8, drawelo 97.3"), "{note}");
/// assert!(note.contains("mean rating 1500,"), "{note}");
/// ```
pub fn method_note(table: &StandingsTable) -> String {
    let centre = match &table.anchor {
        Some(a) => format!("anchored at {a} = {}", table.offset),
        None => format!("mean rating {}", table.offset),
    };
    let intervals = match table.model {
        "bayeselo" => "BayesElo's 95% intervals",
        _ => "95% intervals from the Fisher information",
    };
    format!(
        "{} games. Elo by {}, {centre}, {intervals}, {} virtual draws per player.",
        table.games,
        model_words(table),
        table.prior
    )
}

/// A game's `Round` tag in words: `challenge run` writes `round.pair.game`, `challenge
/// match` writes `pair.game`; anything else is shown as it is.
///
/// ```
/// use results::round_label;
/// assert_eq!(round_label("3.1.2"), "round 3, pair 1, game 2");
/// assert_eq!(round_label("4.2"), "pair 4, game 2");
/// assert_eq!(round_label("-"), "-");
/// ```
pub fn round_label(tag: &str) -> String {
    let parts: Vec<&str> = tag.split('.').collect();
    let numbers = parts
        .iter()
        .all(|p| !p.is_empty() && p.len() <= 9 && p.bytes().all(|b| b.is_ascii_digit()));
    match parts.as_slice() {
        [round, pair, game] if numbers => format!("round {round}, pair {pair}, game {game}"),
        [pair, game] if numbers => format!("pair {pair}, game {game}"),
        _ => tag.to_string(),
    }
}

/// The tournament a game's `Event` tag names: `challenge run` and the workers write
/// `Challenge tournament N`; anything else names none.
///
/// ```
/// use results::tournament_of;
/// assert_eq!(tournament_of("Challenge tournament 2"), Some(2));
/// assert_eq!(tournament_of("match"), None);
/// ```
pub fn tournament_of(event: &str) -> Option<i64> {
    let number = event.strip_prefix(TOURNAMENT_EVENT)?;
    number
        .bytes()
        .all(|b| b.is_ascii_digit())
        .then(|| number.parse().ok())
        .flatten()
}

/// The `Event` tag of a tournament's games, before its number.
pub const TOURNAMENT_EVENT: &str = "Challenge tournament ";

/// A game's place in words, its tournament first when it has one, so that the first game
/// of two tournaments is not named alike: the words the report, the stored game's page
/// and the live page all use for one game.
///
/// ```
/// use results::place_label;
/// assert_eq!(place_label(Some(2), "1.1.1"), "tournament 2, round 1, pair 1, game 1");
/// assert_eq!(place_label(None, "4.2"), "pair 4, game 2");
/// ```
pub fn place_label(tournament: Option<i64>, round_tag: &str) -> String {
    let round = round_label(round_tag);
    match tournament {
        Some(t) => format!("tournament {t}, {round}"),
        None => round,
    }
}

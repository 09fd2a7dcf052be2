//! What the kit's web pages share: the board script and style, the evaluation graph, and
//! the words the pages use for a game's place in a run.
//!
//! The report (`challenge report --html`) inlines [`BOARD_JS`] and [`BOARD_CSS`]; the
//! server (`challenge serve`, `challenge play --web`) serves them as static files. Both
//! draw boards and move lists with the script's `ChessBoard.draw(el, fen, opts)` and
//! `ChessBoard.moveList(el, sans, opts)`, so a board is drawn, and tested, once.
//!
//! ```
//! assert!(kit::web::BOARD_JS.contains("const ChessBoard"));
//! assert!(kit::web::BOARD_CSS.contains(".chessboard"));
//! ```

pub mod eval_graph;

/// The board script: defines the global `ChessBoard` with `draw`, `moveList` and
/// `evalGraph` (see the comment at its top for the options).
pub const BOARD_JS: &str = include_str!("board.js");

/// The board's style: squares, pieces, coordinates, highlights, the move list.
pub const BOARD_CSS: &str = include_str!("board.css");

/// A game's `Round` tag in words: `challenge run` writes `round.pair.game`, `challenge
/// match` writes `pair.game`; anything else is shown as it is.
///
/// ```
/// use kit::web::round_label;
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
/// use kit::web::tournament_of;
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
/// use kit::web::place_label;
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

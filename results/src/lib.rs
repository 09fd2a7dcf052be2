//! Reading results: Elo ratings by maximum likelihood, the standings table (from a
//! challenge's store or from PGN files), the self-contained HTML report, and what the web
//! pages share (the board script and style, a game's evaluation graph).
//!
//! - Ratings ([`fit`], [`RatingOptions`], [`ModelName`]): Elo with draws modelled
//!   (BayesElo's model), with 95% intervals; [`rate_against`]: one player rated against
//!   opponents whose ratings are held fixed (a published list).
//! - Standings ([`store_table`], [`build_table`], [`StandingsTable`], [`render_text`],
//!   [`render_csv`]): the table as text, JSON or CSV; [`PgnFacts`] reads PGN files' games
//!   on all cores.
//! - The report ([`write_report`], [`report_game`], [`chart`]): the HTML page and the
//!   parts of it the server's pages show too.
//! - Evaluations ([`Eval`], [`parse_eval`], [`win_percent`]): `[%eval]` comments and
//!   lichess's Win%, which the evaluation graph draws.
//! - Trust ([`Verdicts`], [`check_game`]): whether a stored game's result agrees with its
//!   moves (a worker is not trusted).
//! - [`BOARD_JS`] and [`BOARD_CSS`]: the one board and move list of every page.
//!
//! The library never prints: reading PGN files reports what it skips to the caller's
//! observer as [`PgnWarning`]s, and errors are returned.
//!
//! ```
//! use std::sync::Mutex;
//! use results::{PgnFacts, PgnReadMode, PgnWarning};
//!
//! let pgn = "[White \"A\"]\n[Black \"B\"]\n[Result \"*\"]\n\n1. e4 *\n";
//! let warnings = Mutex::new(Vec::new());
//! let mut facts = PgnFacts::default();
//! let observe = |warning: PgnWarning| warnings.lock().unwrap().push(warning.to_string());
//! facts.read("t.pgn", pgn.as_bytes(), PgnReadMode::default(), &observe).unwrap();
//! assert_eq!(warnings.into_inner().unwrap(), ["t.pgn:1: game 1 skipped: no result (`*`)"]);
//! ```

mod envelope;
mod eval;
mod pgn_facts;
mod ratings;
#[cfg(feature = "store")]
mod report;
mod standings;
#[cfg(feature = "store")]
mod verify;
#[cfg(feature = "store")]
mod web;

pub use eval::{CP_CEILING, Eval, WIN_SLOPE, parse_eval, win_percent, winning_chances};
pub use pgn_facts::{PgnFacts, PgnReadMode, PgnWarning};
pub use ratings::{
    AgainstOptions, BAYESELO_ADVANTAGE, BAYESELO_DRAW_ELO, GameAgainst, HeldRating, Model,
    ModelName, RatedGame, RatingAgainst, RatingChoice, RatingOptions, expected_information, fit,
    fit_from, rate_against, synthetic_games, wide_field_games,
};
#[cfg(feature = "store")]
pub use report::{Chart, chart, report_game, standing_rows, write_pgn_report, write_report};
pub use standings::{
    GameFact, GameNote, StandingsTable, WorkerClaims, build_table, build_table_consuming,
    render_csv, render_text, worker_claims_said,
};
#[cfg(feature = "store")]
pub use standings::{
    clocks_said, facts_of, store_facts, store_table, tournament_facts, tournaments_of,
};
#[cfg(feature = "store")]
pub use verify::{Expected, Verdict, Verdicts, check as check_game};
#[cfg(feature = "store")]
pub use web::{
    BOARD_CSS, BOARD_JS, PAGES_CSS, RATING_CHART, TOURNAMENT_EVENT, method_note, place_label,
    round_label, tournament_of,
};

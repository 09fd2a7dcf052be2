//! The kit's library: everything the `challenge` program does, without its command line.
//!
//! - [`analyze`]: engine analysis of played games (accuracy, centipawn loss, judgements).
//! - [`bench`]: `challenge bench`: fixed positions to a fixed limit, and EPD test suites.
//! - [`bots`]: finding bot files and checking them against the rules.
//! - [`engine_build`]: building a bot file into a UCI engine executable.
//! - [`matches`], [`match_summary`] and [`search_summary`]: `challenge match` (players, output,
//!   summary, each player's search statistics).
//! - [`opponents`]: known opponents, Stockfish at lichess's AI levels (`stockfish level=N`).
//! - [`play`]: a human against a bot, as a game its caller drives (the terminal, a browser).
//! - [`challenge`]: the local challenge (store, submission, tournaments, standings, report).
//! - [`variants`]: variants of a bot file, named by its marked constants (`my_bot@DEPTH=2`).
//! - [`tune`]: `challenge tune`: a bot's `// tune` constants tuned by SPSA from games.
//! - [`sweep`]: a grid of bot variants × suites, its results file and its plots.
//! - [`watch`]: games followed move by move while they are played (live pages).
//! - [`web`]: what the web pages share: the board script and style, the evaluation graph.
//!
//! # Reporting
//!
//! The library never prints. A function that has something to say while it runs (a
//! build starting, a game stored, a line of a PGN file it could not read) takes an
//! observer, `observe: &(dyn Fn(Event) + Sync)`, and calls it with a typed event of its
//! domain: [`engine_build::BuildEvent`], [`matches::MatchEvent`],
//! [`challenge::tournament::TournamentEvent`], [`challenge::worker::WorkerEvent`],
//! [`challenge::pgn_facts::PgnWarning`], [`tune::TuneEvent`], [`sweep::run::SweepEvent`]. The caller decides what to do with each: the
//! command line prints its `Display` (the sentence a person reads), the server logs it, a
//! test collects it, and `&|_| {}` ignores it. Observers are `Sync` because builds and
//! workers report from several threads at once; one that keeps state keeps it behind a
//! lock. A domain whose work includes another's wraps the inner events in a variant
//! (`TournamentEvent::Build`). Errors are not events: they are returned.
//!
//! ```
//! use std::sync::Mutex;
//! use kit::challenge::pgn_facts::{PgnFacts, PgnReadMode, PgnWarning};
//!
//! let pgn = "[White \"A\"]\n[Black \"B\"]\n[Result \"*\"]\n\n1. e4 *\n";
//! let warnings = Mutex::new(Vec::new());
//! let mut facts = PgnFacts::default();
//! let observe = |warning: PgnWarning| warnings.lock().unwrap().push(warning.to_string());
//! facts.read("t.pgn", pgn.as_bytes(), PgnReadMode::default(), &observe).unwrap();
//! assert_eq!(warnings.into_inner().unwrap(), ["t.pgn:1: game 1 skipped: no result (`*`)"]);
//! ```

pub mod analyze;
pub mod bench;
pub mod bots;
pub mod challenge;
pub mod engine_build;
pub mod live_view;
pub mod match_summary;
pub mod matches;
pub mod opponents;
pub mod play;
pub mod search_summary;
pub mod sweep;
pub mod tune;
pub mod variants;
pub mod watch;
pub mod web;

#[cfg(test)]
mod no_print;

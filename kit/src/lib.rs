//! The kit's library: everything the `challenge` program does, without its command line.
//!
//! - [`analyze`]: engine analysis of played games (accuracy, centipawn loss, judgements).
//! - [`bench`]: `challenge bench`: fixed positions to a fixed limit, and EPD test suites.
//! - [`bots`]: finding bot files and checking them against the rules.
//! - [`engine_build`]: building a bot file into a UCI engine executable.
//! - [`matches`] and [`match_summary`]: `challenge match` (players, output, summary).
//! - [`play`]: a human against a bot in the terminal.
//! - [`challenge`]: the local challenge (store, submission, tournaments, standings, report).
//! - [`variants`]: variants of a bot file, named by its marked constants (`my_bot@DEPTH=2`).
//! - [`tune`]: `challenge tune`: a bot's `// tune` constants tuned by SPSA from games.

pub mod analyze;
pub mod bench;
pub mod bots;
pub mod challenge;
pub mod engine_build;
pub mod match_summary;
pub mod matches;
pub mod play;
pub mod tune;
pub mod variants;

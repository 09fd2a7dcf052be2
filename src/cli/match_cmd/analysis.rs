//! `challenge match --analyze`: the games of the match, once played, analysed by Stockfish
//! exactly as `challenge analyze` analyses a PGN file (accuracy, average centipawn loss and
//! judgements per player; [`measure::analyze_games`]), and shown as it shows them.

use std::path::PathBuf;
use std::sync::Mutex;
use std::sync::atomic::AtomicBool;

use anyhow::Result;
use framework::notation::pgn::{GameResult, PgnGame};
use measure::{AnalysisFiles, AnalysisLimit, AnalyzeOptions, analyze_games, find_stockfish};
use runner::GameRecord;

use crate::cli::analyze::Shown;

/// The analysis to run after the match, checked before the first game: a missing
/// Stockfish should not be found out after an hour of games.
pub(super) struct Analysis {
    options: AnalyzeOptions,
    quiet: bool,
    games: Mutex<Vec<PgnGame>>,
}

impl Analysis {
    /// The analysis at `depth` (default 12, as `challenge analyze`) by `engine` (default:
    /// Stockfish, found as for `--engine stockfish`).
    pub(super) fn prepare(
        depth: Option<u32>,
        engine: Option<PathBuf>,
        quiet: bool,
    ) -> Result<Analysis> {
        let engine = match engine {
            Some(engine) => engine,
            None => find_stockfish()?,
        };
        let limit = AnalysisLimit::Depth(depth.unwrap_or(12));
        Ok(Analysis {
            options: AnalyzeOptions::new(engine, limit),
            quiet,
            games: Mutex::new(Vec::new()),
        })
    }

    /// Keeps a finished game for the analysis (one the match abandoned has no result and
    /// nothing to judge).
    pub(super) fn keep(&self, record: &GameRecord) {
        let game = record.to_pgn();
        if game.result != GameResult::Unknown {
            self.games
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .push(game);
        }
    }

    /// Analyses the games kept, in the order they finished.
    pub(super) fn run(self, stop: &AtomicBool) -> Result<()> {
        let games = self.games.into_inner().unwrap_or_else(|e| e.into_inner());
        if games.is_empty() {
            eprintln!("No finished game to analyse");
            return Ok(());
        }
        eprintln!(
            "Analysing {} games with {}",
            games.len(),
            self.options.engine.command.display()
        );
        let files = AnalysisFiles::default();
        let shown = Shown::new(&games, self.quiet);
        let run = analyze_games(self.options, &games, &files, stop, &|event| {
            shown.show(event)
        });
        shown.finish(run?, games.len(), &files)
    }
}

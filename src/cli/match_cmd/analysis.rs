//! `challenge match --analyze`: the games of the match, once played, analysed by Stockfish
//! exactly as `challenge analyze` analyses a PGN file (accuracy, average centipawn loss and
//! judgements per player; [`lab`]).

use std::path::PathBuf;
use std::sync::Mutex;
use std::sync::atomic::AtomicBool;

use anyhow::Result;
use framework::notation::pgn::{GameResult, PgnGame};
use lab::AnalyzeOptions;
use lab::find_stockfish;
use runner::GameRecord;

use crate::cli::analyze::{AnalyzeArgs, analyze_games, analyze_options};

/// The analysis to run after the match, checked before the first game: a missing
/// Stockfish should not be found out after an hour of games.
pub(super) struct Analysis {
    args: AnalyzeArgs,
    options: AnalyzeOptions,
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
        let args = AnalyzeArgs {
            games: PathBuf::from("the match's games"),
            engine,
            engine_args: Vec::new(),
            options: Vec::new(),
            depth,
            nodes: None,
            output: None,
            json: None,
            resume: false,
            timeout: 60.0,
            quiet,
        };
        let options = analyze_options(&args)?;
        Ok(Analysis {
            args,
            options,
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
            self.args.engine.display()
        );
        analyze_games(&self.args, self.options, &games, stop)
    }
}

//! Analysing a list of games one after another, as `challenge analyze` and `challenge
//! match --analyze` do: resuming from an earlier run's output, writing each annotated game
//! (and its JSON line) as soon as it is done, and the lines and table that say how it went.

use std::fmt;
use std::fs::{self, File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};

use anyhow::{Context, Result, ensure};
use framework::notation::pgn::{PgnGame, read_games_from, write_game};
use serde_json::json;

use super::{
    AnalysisLimit, AnalyzeError, AnalyzeOptions, Analyzer, GameAnalysis, PlayerSummary, SideStats,
    rescore_annotated, summarize,
};

/// Where an analysis writes its games, and whether it continues an earlier run.
#[derive(Debug, Clone, Default)]
pub struct AnalysisFiles {
    /// The annotated games, each appended as soon as it is analysed.
    pub output: Option<PathBuf>,
    /// Each game's numbers, move by move, one JSON object per line.
    pub json: Option<PathBuf>,
    /// Keep the games already in `output` (from a stopped run) and analyse the rest.
    pub resume: bool,
}

/// What an analysis of games reports as it goes. Its `Display` is the line to show
/// (the game's name for [`AnalyzeEvent::Started`], for a progress bar's message).
#[derive(Debug, Clone, Copy)]
pub enum AnalyzeEvent<'a> {
    /// This many games were taken from the earlier run's output.
    Resumed(usize),
    /// Game `number` (counted from 1 over all the games) is being analysed.
    Started {
        /// Its number.
        number: usize,
        /// The game.
        game: &'a PgnGame,
    },
    /// One more position searched.
    Position,
    /// Game `number` is analysed (and written).
    Analysed {
        /// Its number.
        number: usize,
        /// The game.
        game: &'a PgnGame,
        /// What the analysis found.
        analysis: &'a GameAnalysis,
    },
    /// Game `number` could not be analysed; the analysis goes on with the next.
    Failed {
        /// Its number.
        number: usize,
        /// The game.
        game: &'a PgnGame,
        /// Why.
        error: &'a AnalyzeError,
    },
}

impl fmt::Display for AnalyzeEvent<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AnalyzeEvent::Resumed(games) => write!(f, "resuming: {games} games already analysed"),
            AnalyzeEvent::Started { number, game } => {
                write!(f, "game {number}: {}", players(game).join(" - "))
            }
            AnalyzeEvent::Position => Ok(()),
            AnalyzeEvent::Analysed {
                number,
                game,
                analysis,
            } => f.write_str(&game_line(*number, game, analysis)),
            AnalyzeEvent::Failed { number, error, .. } => {
                write!(f, "game {number}: not analysed: {error}")
            }
        }
    }
}

/// How an analysis of games went.
#[derive(Debug)]
pub struct AnalysisRun {
    /// Every game analysed, the resumed ones first, with what was found.
    pub games: Vec<(PgnGame, GameAnalysis)>,
    /// Games that could not be analysed.
    pub failed: usize,
    /// Stopped before the last game.
    pub interrupted: bool,
    /// The engine's `id name`.
    pub engine_name: String,
    /// Each position's search.
    pub limit: AnalysisLimit,
}

/// Analyses `games` in order, writing each to `files` as soon as it is done, until the
/// last or until `stop` is set (the search in progress is then abandoned). With
/// `files.resume`, the games already in `files.output` are checked against the first
/// of `games`, re-scored from their comments, and not searched again.
pub fn analyze_games(
    options: AnalyzeOptions,
    games: &[PgnGame],
    files: &AnalysisFiles,
    stop: &AtomicBool,
    observe: &dyn Fn(AnalyzeEvent<'_>),
) -> Result<AnalysisRun> {
    let mut done = match (&files.output, files.resume) {
        (Some(output), true) => resumed_games(output, games)?,
        _ => Vec::new(),
    };
    let mut output = Output::open(files.output.as_deref(), files.resume)?;
    let mut json = Output::open(files.json.as_deref(), files.resume)?;
    let limit = options.limit;
    let mut analyzer = Analyzer::start(options)?;
    let engine_name = analyzer.engine_name().to_string();
    if !done.is_empty() {
        observe(AnalyzeEvent::Resumed(done.len()));
    }
    let mut run = AnalysisRun {
        games: Vec::new(),
        failed: 0,
        interrupted: false,
        engine_name,
        limit,
    };
    let first_number = done.len() + 1;
    for (number, game) in (first_number..).zip(&games[done.len()..]) {
        observe(AnalyzeEvent::Started { number, game });
        match analyzer.analyze(game, stop, || observe(AnalyzeEvent::Position)) {
            Ok(analysis) => {
                output.append(&annotated_text(&analysis.annotated, output.is_empty()))?;
                json.append(&format!("{}\n", game_json(number, game, &analysis)))?;
                observe(AnalyzeEvent::Analysed {
                    number,
                    game,
                    analysis: &analysis,
                });
                run.games.push((game.clone(), analysis));
            }
            Err(err) if err.is_interrupted() || stop.load(Ordering::SeqCst) => {
                run.interrupted = true;
                break;
            }
            Err(error) => {
                observe(AnalyzeEvent::Failed {
                    number,
                    game,
                    error: &error,
                });
                run.failed += 1;
            }
        }
    }
    analyzer.quit();
    done.append(&mut run.games);
    run.games = done;
    Ok(run)
}

/// The games of an earlier, interrupted run, re-scored from their `[%eval]` comments. They
/// must be the first games of the input, or the output belongs to something else.
fn resumed_games(output: &Path, input: &[PgnGame]) -> Result<Vec<(PgnGame, GameAnalysis)>> {
    if !output.exists() {
        return Ok(Vec::new());
    }
    let cannot = || format!("cannot read {} to resume", output.display());
    let file = fs::File::open(output).with_context(cannot)?;
    let read = read_games_from(file).with_context(cannot)?;
    ensure!(
        read.errors.is_empty() && read.games.len() <= input.len(),
        "{} is not an earlier analysis of these games; remove it or leave out --resume",
        output.display()
    );
    let mut resumed = Vec::with_capacity(read.games.len());
    for (i, (annotated, original)) in read.games.into_iter().zip(input).enumerate() {
        ensure!(
            annotated.moves == original.moves && annotated.start == original.start,
            "game {} of {} differs from game {} of the input; remove it or leave out --resume",
            i + 1,
            output.display(),
            i + 1
        );
        let analysis = rescore_annotated(&annotated).with_context(|| {
            format!(
                "game {} of {} lacks the [%eval] comments of an analysis",
                i + 1,
                output.display()
            )
        })?;
        resumed.push((original.clone(), analysis));
    }
    Ok(resumed)
}

/// An output file, written and flushed a game at a time; nothing when none was asked for.
struct Output<'a>(Option<(File, &'a Path)>);

impl<'a> Output<'a> {
    fn open(path: Option<&'a Path>, append: bool) -> Result<Output<'a>> {
        let Some(path) = path else {
            return Ok(Output(None));
        };
        let file = OpenOptions::new()
            .create(true)
            .write(true)
            .append(append)
            .truncate(!append)
            .open(path)
            .with_context(|| format!("cannot write {}", path.display()))?;
        Ok(Output(Some((file, path))))
    }

    fn is_empty(&self) -> bool {
        self.0
            .as_ref()
            .is_none_or(|(file, _)| file.metadata().map(|m| m.len() == 0).unwrap_or(true))
    }

    fn append(&mut self, text: &str) -> Result<()> {
        let Some((file, path)) = &mut self.0 else {
            return Ok(());
        };
        file.write_all(text.as_bytes())
            .and_then(|()| file.flush())
            .with_context(|| format!("cannot write {}", path.display()))
    }
}

/// A game as PGN text to append. A blank line separates games; one before a game keeps
/// appended runs valid.
fn annotated_text(game: &PgnGame, first: bool) -> String {
    if first {
        write_game(game)
    } else {
        format!("\n{}", write_game(game))
    }
}

/// One game's numbers as JSON: players, result, both sides' totals and every move.
///
/// ```
/// use framework::notation::pgn::read_games;
/// use measure::{GameAnalysis, game_json};
/// let game = &read_games("[White \"ann\"]\n[Black \"bob\"]\n\n1. e4 1-0\n").games[0];
/// let analysis = GameAnalysis { moves: Vec::new(), sides: Default::default(), annotated: game.clone() };
/// let json = game_json(3, game, &analysis);
/// assert_eq!((json["game"].as_u64(), json["white"].as_str()), (Some(3), Some("ann")));
/// assert_eq!(json["result"], "1-0");
/// ```
pub fn game_json(number: usize, game: &PgnGame, analysis: &GameAnalysis) -> serde_json::Value {
    let [white, black] = players(game);
    let side = |s: &SideStats| {
        json!({
            "moves": s.moves, "acpl": s.acpl(), "accuracy": s.accuracy,
            "inaccuracies": s.inaccuracies, "mistakes": s.mistakes, "blunders": s.blunders,
        })
    };
    let moves: Vec<serde_json::Value> = analysis
        .moves
        .iter()
        .enumerate()
        .map(|(i, m)| {
            json!({
                "ply": i + 1, "san": m.san, "eval": m.eval.map(|e| e.to_string()),
                "best": m.best, "cp_loss": m.cp_loss, "accuracy": m.accuracy,
                "judgement": m.judgement.map(|j| j.to_string()),
            })
        })
        .collect();
    json!({
        "game": number, "white": white, "black": black, "result": game.result.as_str(),
        "sides": { "white": side(&analysis.sides[0]), "black": side(&analysis.sides[1]) },
        "moves": moves,
    })
}

/// The `White` and `Black` tags, `?` where missing.
fn players(game: &PgnGame) -> [String; 2] {
    ["White", "Black"].map(|tag| game.tag(tag).unwrap_or("?").to_string())
}

/// One analysed game in a line: players, result, each side's figures.
fn game_line(number: usize, game: &PgnGame, analysis: &GameAnalysis) -> String {
    let [white, black] = players(game);
    format!(
        "game {number}: {white} - {black} {}: {white} {}; {black} {}",
        game.result,
        side_text(&analysis.sides[0]),
        side_text(&analysis.sides[1]),
    )
}

fn side_text(side: &SideStats) -> String {
    format!(
        "accuracy {}, ACPL {}, {} inaccuracies, {} mistakes, {} blunders",
        side.accuracy
            .map_or("-".to_string(), |a| format!("{}%", a.round())),
        side.acpl().map_or("-".to_string(), |a| a.to_string()),
        side.inaccuracies,
        side.mistakes,
        side.blunders
    )
}

impl AnalysisRun {
    /// The summary: how many games, by which engine at which limit, then a table of each
    /// player's totals over the games analysed. Each line ends in a line break.
    pub fn summary_text(&self) -> String {
        let mut text = format!(
            "{} games analysed by {} at {}{}\n",
            self.games.len(),
            self.engine_name,
            self.limit,
            if self.failed > 0 {
                format!(" ({} could not be analysed)", self.failed)
            } else {
                String::new()
            }
        );
        let totals = summarize(
            self.games
                .iter()
                .map(|(game, analysis)| (players(game), analysis.sides.clone())),
        );
        if !totals.is_empty() {
            text.push_str(&summary_table(&totals));
        }
        text
    }
}

/// The players' totals as a table, a line each under a header.
fn summary_table(totals: &[PlayerSummary]) -> String {
    let width = totals
        .iter()
        .map(|p| p.name.chars().count())
        .max()
        .unwrap_or(6)
        .max(6);
    let mut text = format!(
        "{:<width$}  {:>5}  {:>5}  {:>4}  {:>8}  {:>11}  {:>8}  {:>8}\n",
        "player", "games", "moves", "ACPL", "accuracy", "inaccuracy", "mistake", "blunder"
    );
    for PlayerSummary { name, games, stats } in totals {
        text.push_str(&format!(
            "{name:<width$}  {games:>5}  {:>5}  {:>4}  {:>8}  {:>11}  {:>8}  {:>8}\n",
            stats.moves,
            stats.acpl().map_or("-".to_string(), |a| a.to_string()),
            stats
                .accuracy
                .map_or("-".to_string(), |a| format!("{a:.1}%")),
            stats.inaccuracies,
            stats.mistakes,
            stats.blunders
        ));
    }
    text
}

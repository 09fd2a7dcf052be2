//! `challenge analyze`: the command line of [`lab`]: reading the games, the
//! progress bar, writing each annotated game as soon as it is done, Ctrl-C and the summary.

use std::fs::{self, File, OpenOptions};
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Duration;

use anyhow::{Context, Result, bail, ensure};
use framework::notation::pgn::{PgnGame, read_games_from, write_game};
use indicatif::{ProgressBar, ProgressStyle};
use runner::EngineConfig;
use serde_json::json;

use lab::{
    AnalysisLimit, AnalyzeOptions, Analyzer, GameAnalysis, PlayerSummary, SideStats,
    rescore_annotated, summarize,
};

/// Check every move of every game with a UCI engine: average centipawn loss, accuracy and
/// inaccuracies / mistakes / blunders per player (lichess's formulas), and the games
/// annotated with `[%eval]` comments.
///
/// Example:
///   challenge analyze games.pgn --engine /usr/games/stockfish --depth 12 -o analysed.pgn
#[derive(clap::Args, Debug)]
pub struct AnalyzeArgs {
    /// The PGN file with the games.
    pub games: PathBuf,
    /// The UCI engine's executable (Debian's Stockfish: /usr/games/stockfish).
    #[arg(long, value_name = "CMD")]
    pub engine: PathBuf,
    /// An argument for the engine's command line (repeatable).
    #[arg(long = "engine-arg", value_name = "ARG", allow_hyphen_values = true)]
    pub engine_args: Vec<String>,
    /// A UCI option for the engine (repeatable), e.g. `--option Hash=64`.
    #[arg(long = "option", value_name = "NAME=VALUE")]
    pub options: Vec<String>,
    /// Search every position to this depth (the default is 12 when --nodes is not given).
    #[arg(long, conflicts_with = "nodes", value_parser = clap::value_parser!(u32).range(1..=100))]
    pub depth: Option<u32>,
    /// Search every position for this many nodes.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    pub nodes: Option<u64>,
    /// Write the annotated games to this PGN file, each as soon as it is analysed.
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Also write each game's numbers, move by move, as one JSON object per line.
    #[arg(long, value_name = "FILE")]
    pub json: Option<PathBuf>,
    /// Keep the games already in --output (from a run stopped by Ctrl-C) and analyse the rest.
    #[arg(long, requires = "output")]
    pub resume: bool,
    /// Seconds one search may take before the engine counts as hung.
    #[arg(long, default_value_t = 60.0, value_name = "SECONDS")]
    pub timeout: f64,
    /// No progress bar and no line per game; only the summary.
    #[arg(short, long)]
    pub quiet: bool,
}

/// Runs `challenge analyze`.
pub fn run(args: AnalyzeArgs) -> Result<()> {
    let options = analyze_options(&args)?;
    let cannot = || format!("cannot read {}", args.games.display());
    let file = fs::File::open(&args.games).with_context(cannot)?;
    let read = read_games_from(file).with_context(cannot)?;
    for error in &read.errors {
        eprintln!("{}: skipped {error}", args.games.display());
    }
    ensure!(
        !read.games.is_empty(),
        "{} holds no game that could be read",
        args.games.display()
    );
    analyze_games(&args, options, &read.games, &ctrl_c_flag())
}

/// Analyses `games` as `challenge analyze` does (`args.games` only names where they came
/// from), stopping after the search in progress once `stop` is set: `challenge match
/// --analyze` hands it the games it just played, and its own Ctrl-C flag.
pub(super) fn analyze_games(
    args: &AnalyzeArgs,
    options: AnalyzeOptions,
    games: &[PgnGame],
    stop: &AtomicBool,
) -> Result<()> {
    let mut done = match (&args.output, args.resume) {
        (Some(output), true) => resumed_games(output, games)?,
        _ => Vec::new(),
    };
    let todo = &games[done.len()..];
    let mut output = open_output(args.output.as_deref(), args.resume)?;
    let mut json = open_output(args.json.as_deref(), args.resume)?;
    let limit = options.limit;
    let mut analyzer = Analyzer::start(options)?;
    let engine_name = analyzer.engine_name().to_string();
    if !done.is_empty() {
        eprintln!("resuming: {} games already analysed", done.len());
    }
    let outcome = analyze_all(
        &mut analyzer,
        todo,
        done.len(),
        stop,
        args,
        [&mut output, &mut json],
    )?;
    analyzer.quit();
    done.extend(outcome.finished);
    print_summary(&done, &engine_name, limit, outcome.failed);
    if outcome.interrupted {
        eprintln!(
            "stopped by Ctrl-C after {} of {} games{}",
            done.len(),
            games.len(),
            if args.output.is_some() {
                "; run again with --resume to analyse the rest"
            } else {
                ""
            }
        );
    }
    ensure!(
        outcome.failed == 0,
        "{} of the games could not be analysed (the reasons are above)",
        outcome.failed
    );
    Ok(())
}

pub(super) fn analyze_options(args: &AnalyzeArgs) -> Result<AnalyzeOptions> {
    ensure!(
        args.timeout.is_finite() && args.timeout > 0.0,
        "--timeout must be a positive number of seconds"
    );
    let mut engine = EngineConfig::new(engine_label(&args.engine), &args.engine).external();
    for arg in &args.engine_args {
        engine = engine.arg(arg);
    }
    for option in &args.options {
        let Some((name, value)) = option.split_once('=') else {
            bail!("--option `{option}` is not NAME=VALUE (e.g. --option Hash=64)");
        };
        ensure!(
            !name.trim().is_empty() && !option.contains('\n'),
            "--option `{option}` needs a name before `=` and no line break"
        );
        engine = engine.option(name.trim(), value.trim());
    }
    let limit = match (args.depth, args.nodes) {
        (_, Some(nodes)) => AnalysisLimit::Nodes(nodes),
        (depth, None) => AnalysisLimit::Depth(depth.unwrap_or(12)),
    };
    Ok(AnalyzeOptions {
        engine,
        limit,
        search_timeout: Duration::from_secs_f64(args.timeout.min(1e6)),
        start_timeout: Duration::from_secs(10),
    })
}

fn engine_label(command: &Path) -> String {
    command
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| command.display().to_string())
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

fn open_output(path: Option<&Path>, append: bool) -> Result<Option<File>> {
    let Some(path) = path else { return Ok(None) };
    let file = OpenOptions::new()
        .create(true)
        .write(true)
        .append(append)
        .truncate(!append)
        .open(path)
        .with_context(|| format!("cannot write {}", path.display()))?;
    Ok(Some(file))
}

/// The first Ctrl-C stops after the search in progress; a second one leaves at once
/// (every finished game is already on disk).
fn ctrl_c_flag() -> Arc<AtomicBool> {
    let stop = Arc::new(AtomicBool::new(false));
    let presses = AtomicUsize::new(0);
    let flag = stop.clone();
    let _ = ctrlc::set_handler(move || {
        flag.store(true, Ordering::SeqCst);
        if presses.fetch_add(1, Ordering::SeqCst) >= 1 {
            std::process::exit(130);
        }
    });
    stop
}

struct Outcome {
    finished: Vec<(PgnGame, GameAnalysis)>,
    failed: usize,
    interrupted: bool,
}

fn analyze_all(
    analyzer: &mut Analyzer,
    games: &[PgnGame],
    first_number: usize,
    stop: &AtomicBool,
    args: &AnalyzeArgs,
    [output, json]: [&mut Option<File>; 2],
) -> Result<Outcome> {
    let bar = progress_bar(games, args.quiet);
    let mut outcome = Outcome {
        finished: Vec::new(),
        failed: 0,
        interrupted: false,
    };
    for (i, game) in games.iter().enumerate() {
        let number = first_number + i + 1;
        bar.set_message(format!("game {number}: {}", players(game).join(" - ")));
        match analyzer.analyze(game, stop, || bar.inc(1)) {
            Ok(analysis) => {
                if let Some(file) = output.as_mut() {
                    write_annotated(file, &analysis.annotated, args.output.as_deref())?;
                }
                if let Some(file) = json.as_mut() {
                    let line = format!("{}\n", game_json(number, game, &analysis));
                    file.write_all(line.as_bytes())
                        .and_then(|()| file.flush())
                        .with_context(|| {
                            format!("cannot write {}", display(args.json.as_deref()))
                        })?;
                }
                if !args.quiet {
                    say(&bar, game_line(number, game, &analysis));
                }
                outcome.finished.push((game.clone(), analysis));
            }
            Err(err) if err.is_interrupted() || stop.load(Ordering::SeqCst) => {
                outcome.interrupted = true;
                break;
            }
            Err(err) => {
                say(&bar, format!("game {number}: not analysed: {err}"));
                bar.inc((game.moves.len() + 1) as u64);
                outcome.failed += 1;
            }
        }
    }
    bar.finish_and_clear();
    Ok(outcome)
}

/// A line on stderr, above the progress bar if there is one.
fn say(bar: &ProgressBar, line: String) {
    if bar.is_hidden() {
        eprintln!("{line}");
    } else {
        bar.println(line);
    }
}

fn progress_bar(games: &[PgnGame], quiet: bool) -> ProgressBar {
    if quiet || !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let positions: usize = games.iter().map(|g| g.moves.len() + 1).sum();
    let bar = ProgressBar::new(positions as u64);
    bar.set_style(
        ProgressStyle::with_template(
            "{bar:20} {pos}/{len} positions {msg} [{elapsed_precise}, {eta} left]",
        )
        .expect("valid progress template"),
    );
    bar.enable_steady_tick(Duration::from_millis(250));
    bar
}

fn display(path: Option<&Path>) -> String {
    path.map_or_else(|| "the output".to_string(), |p| p.display().to_string())
}

fn write_annotated(file: &mut File, game: &PgnGame, path: Option<&Path>) -> Result<()> {
    // A blank line separates games; one before a game keeps appended runs valid.
    let empty = file.metadata().map(|m| m.len() == 0).unwrap_or(true);
    let text = if empty {
        write_game(game)
    } else {
        format!("\n{}", write_game(game))
    };
    file.write_all(text.as_bytes())
        .and_then(|()| file.flush())
        .with_context(|| format!("cannot write {}", display(path)))
}

/// One game's numbers as JSON: players, result, both sides' totals and every move.
fn game_json(number: usize, game: &PgnGame, analysis: &GameAnalysis) -> serde_json::Value {
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

fn players(game: &PgnGame) -> [String; 2] {
    ["White", "Black"].map(|tag| game.tag(tag).unwrap_or("?").to_string())
}

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

fn print_summary(
    done: &[(PgnGame, GameAnalysis)],
    engine: &str,
    limit: AnalysisLimit,
    failed: usize,
) {
    let totals = summarize(
        done.iter()
            .map(|(game, analysis)| (players(game), analysis.sides.clone())),
    );
    println!(
        "{} games analysed by {engine} at {limit}{}",
        done.len(),
        if failed > 0 {
            format!(" ({failed} could not be analysed)")
        } else {
            String::new()
        }
    );
    if totals.is_empty() {
        return;
    }
    let width = totals
        .iter()
        .map(|p| p.name.chars().count())
        .max()
        .unwrap_or(6)
        .max(6);
    println!(
        "{:<width$}  {:>5}  {:>5}  {:>4}  {:>8}  {:>11}  {:>8}  {:>8}",
        "player", "games", "moves", "ACPL", "accuracy", "inaccuracy", "mistake", "blunder"
    );
    for PlayerSummary { name, games, stats } in &totals {
        println!(
            "{name:<width$}  {games:>5}  {:>5}  {:>4}  {:>8}  {:>11}  {:>8}  {:>8}",
            stats.moves,
            stats.acpl().map_or("-".to_string(), |a| a.to_string()),
            stats
                .accuracy
                .map_or("-".to_string(), |a| format!("{a:.1}%")),
            stats.inaccuracies,
            stats.mistakes,
            stats.blunders
        );
    }
}

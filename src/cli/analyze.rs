//! `challenge analyze`: the command line of [`measure`]'s analysis: reading the games, the
//! progress bar, the lines and the summary it reports. [`Shown`] is also how `challenge
//! match --analyze` shows its analysis.

use std::fs;
use std::io::IsTerminal;
use std::path::PathBuf;
use std::time::Duration;

use anyhow::{Context, Result, ensure};
use framework::notation::pgn::{PgnGame, read_games_from};
use indicatif::{ProgressBar, ProgressStyle};

use measure::{
    AnalysisFiles, AnalysisLimit, AnalysisRun, AnalyzeEvent, AnalyzeOptions, analyze_games,
};

use super::args::uci_options;
use super::interrupt;

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
    let files = AnalysisFiles {
        output: args.output.clone(),
        json: args.json.clone(),
        resume: args.resume,
    };
    let stop = interrupt::stop_flag();
    let shown = Shown::new(&read.games, args.quiet);
    let run = analyze_games(options, &read.games, &files, &stop, &|event| {
        shown.show(event)
    });
    shown.finish(run?, read.games.len(), &files)
}

fn analyze_options(args: &AnalyzeArgs) -> Result<AnalyzeOptions> {
    ensure!(
        args.timeout.is_finite() && args.timeout > 0.0,
        "--timeout must be a positive number of seconds"
    );
    let limit = match (args.depth, args.nodes) {
        (_, Some(nodes)) => AnalysisLimit::Nodes(nodes),
        (depth, None) => AnalysisLimit::Depth(depth.unwrap_or(12)),
    };
    let mut options = AnalyzeOptions::new(&args.engine, limit);
    options.search_timeout = Duration::from_secs_f64(args.timeout.min(1e6));
    for arg in &args.engine_args {
        options.engine = options.engine.arg(arg);
    }
    for (name, value) in uci_options(&args.options)? {
        options.engine = options.engine.option(&name, &value);
    }
    Ok(options)
}

/// An analysis on the terminal: a bar of positions with a line per game above it, or
/// the lines alone when stderr is not a terminal; then the summary.
pub(super) struct Shown<'a> {
    games: &'a [PgnGame],
    bar: ProgressBar,
    quiet: bool,
}

impl<'a> Shown<'a> {
    /// The display of an analysis of `games` (`quiet`: no bar and no line per game).
    pub(super) fn new(games: &'a [PgnGame], quiet: bool) -> Shown<'a> {
        Shown {
            games,
            bar: progress_bar(games, quiet),
            quiet,
        }
    }

    /// Shows what the analysis reports.
    pub(super) fn show(&self, event: AnalyzeEvent<'_>) {
        match event {
            AnalyzeEvent::Resumed(done) => {
                let left = self.games.get(done..).unwrap_or_default();
                self.bar.set_length(positions(left));
                self.say(event.to_string());
            }
            AnalyzeEvent::Started { .. } => self.bar.set_message(event.to_string()),
            AnalyzeEvent::Position => self.bar.inc(1),
            AnalyzeEvent::Analysed { .. } if !self.quiet => self.say(event.to_string()),
            AnalyzeEvent::Analysed { .. } => {}
            AnalyzeEvent::Failed { game, .. } => {
                self.say(event.to_string());
                self.bar.inc((game.moves.len() + 1) as u64);
            }
        }
    }

    /// Clears the bar and prints the summary of `run` (of `total` games); an error when a
    /// game could not be analysed.
    pub(super) fn finish(
        self,
        run: AnalysisRun,
        total: usize,
        files: &AnalysisFiles,
    ) -> Result<()> {
        self.bar.finish_and_clear();
        print!("{}", run.summary_text());
        if run.interrupted {
            eprintln!(
                "stopped by Ctrl-C after {} of {total} games{}",
                run.games.len(),
                if files.output.is_some() {
                    "; run again with --resume to analyse the rest"
                } else {
                    ""
                }
            );
        }
        ensure!(
            run.failed == 0,
            "{} of the games could not be analysed (the reasons are above)",
            run.failed
        );
        Ok(())
    }

    /// A line on stderr, above the progress bar if there is one.
    fn say(&self, line: String) {
        if self.bar.is_hidden() {
            eprintln!("{line}");
        } else {
            self.bar.println(line);
        }
    }
}

fn progress_bar(games: &[PgnGame], quiet: bool) -> ProgressBar {
    if quiet || !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(positions(games));
    bar.set_style(
        ProgressStyle::with_template(
            "{bar:20} {pos}/{len} positions {msg} [{elapsed_precise}, {eta} left]",
        )
        .expect("valid progress template"),
    );
    bar.enable_steady_tick(Duration::from_millis(250));
    bar
}

/// The positions the analysis of `games` searches: each game's moves and its start.
fn positions(games: &[PgnGame]) -> u64 {
    games.iter().map(|g| g.moves.len() as u64 + 1).sum()
}

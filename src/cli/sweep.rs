//! `challenge sweep`: a grid of a bot's variants searched over suites, resumable, with a
//! progress bar, and its figures.

use std::io::IsTerminal;
use std::path::PathBuf;
use std::sync::OnceLock;
use std::time::Duration;

use anyhow::Result;
use indicatif::{ProgressBar, ProgressStyle};
use measure::{MAX_JOBS, Sweep, SweepEvent, SweepOptions, SweepOutcome};

use super::args::LimitArgs;
use super::interrupt;

/// Search every variant of a bot's grid (its `// vary` constants) over suites, as a
/// definition file says, and draw the figures: total nodes against one constant, one line
/// per value of another, one figure per suite.
///
/// Each finished cell (one variant over one suite) is appended to the results file at
/// once (default: the definition's path with `.csv`); run the command again to resume:
/// the cells already there are skipped. Ctrl-C stops after the searches in progress and
/// keeps every finished cell. At the end the results are rewritten in the grid's order
/// and the SVG figures written beside them (`RESULTS-SUITE-depth-N.svg`).
///
/// A definition (paths relative to its folder; the bot may also be a kit bot's name):
///   bot = "turochamp_modern"
///   [vary]
///   DEFENDED = [0, 5, 10, 15, 20]
///   [[suite]]
///   name = "bench"
///   file = "../../suites/bench.epd"
///   depth = 4
///   sequence = false
///   [plot]
///   x = "DEFENDED"
/// The bot must report its nodes (`info ... nodes`), as the lab bots and
/// turochamp_modern do.
///
/// Examples:
///   challenge sweep docs/experiments/turochamp-defended.toml
///   challenge sweep docs/experiments/tt-replacement.toml -j 2
///   challenge sweep docs/experiments/tt-replacement.toml --plot-only
#[derive(clap::Args, Debug)]
#[command(verbatim_doc_comment)]
pub struct Args {
    /// The sweep's definition (TOML).
    spec: PathBuf,
    /// The results file (CSV; default: the definition's path with `.csv`).
    #[arg(long, value_name = "FILE")]
    results: Option<PathBuf>,
    /// Cells run at once, each with its own engine (node counts do not depend on it).
    #[arg(long = "jobs", short = 'j', default_value_t = 1, allow_negative_numbers = true,
          value_parser = clap::value_parser!(u32).range(1..=MAX_JOBS as i64))]
    jobs: u32,
    /// Run nothing: rewrite the results file in order and draw the figures from it.
    #[arg(long)]
    plot_only: bool,
    /// Seconds one search may take before the engine counts as hung (that search fails,
    /// and its cell is left out of the figures).
    #[arg(long, value_name = "SECONDS", default_value_t = 600,
          value_parser = clap::value_parser!(u64).range(1..=86_400))]
    timeout: u64,
    #[command(flatten)]
    limit: LimitArgs,
    /// No progress bar or per-cell lines; only the result.
    #[arg(long, short = 'q')]
    quiet: bool,
}

/// Runs `challenge sweep`.
pub fn run(args: &Args) -> Result<()> {
    let mut sweep = Sweep::open(&args.spec, args.results.as_deref())?;
    let progress = Progress::new(args.quiet);
    let observe = |event: SweepEvent<'_>| progress.show(&event);
    if !args.plot_only {
        let options = SweepOptions {
            jobs: args.jobs as usize,
            policy: args.limit.policy(),
            timeout: Duration::from_secs(args.timeout),
        };
        let stop = interrupt::stop_flag();
        let outcome = sweep.run(&options, &stop, &observe);
        progress.finish();
        let outcome = outcome?;
        if outcome.stopped {
            print_stopped(&sweep, outcome);
            return Ok(());
        }
        println!(
            "{} cells run; all {} cells are in {}",
            outcome.ran,
            sweep.spec().cells().len(),
            sweep.results_path().display()
        );
    }
    for path in sweep.write_outputs(&|_| {})? {
        println!("wrote {}", path.display());
    }
    Ok(())
}

fn print_stopped(sweep: &Sweep, outcome: SweepOutcome) {
    println!(
        "stopped: {} cells run, {} left; {} keeps every finished cell, so the same command resumes",
        outcome.ran,
        outcome.left,
        sweep.results_path().display()
    );
}

/// The run on the terminal: a bar of searches with the cells finished above it, or a
/// line per cell when stderr is not a terminal.
struct Progress {
    quiet: bool,
    bar: OnceLock<ProgressBar>,
}

impl Progress {
    fn new(quiet: bool) -> Progress {
        Progress {
            quiet,
            bar: OnceLock::new(),
        }
    }

    fn show(&self, event: &SweepEvent<'_>) {
        match event {
            SweepEvent::Started { searches, .. } => {
                eprintln!("{event}");
                if !self.quiet && *searches > 0 && std::io::stderr().is_terminal() {
                    let _ = self.bar.set(progress_bar(*searches));
                }
            }
            SweepEvent::Searched { failure, .. } => {
                if let Some(bar) = self.bar.get() {
                    bar.inc(1);
                }
                if failure.is_some() {
                    self.say(&event.to_string());
                }
            }
            SweepEvent::CellStarted { variant, .. } => {
                if let Some(bar) = self.bar.get() {
                    bar.set_message(variant.to_string());
                }
            }
            SweepEvent::Build { .. } | SweepEvent::CellFinished { .. } => {
                if !self.quiet {
                    self.say(&event.to_string());
                }
            }
            SweepEvent::Wrote { .. } => {}
        }
    }

    /// A line above the bar, or on its own without one.
    fn say(&self, line: &str) {
        match self.bar.get() {
            Some(bar) => bar.println(line),
            None => eprintln!("{line}"),
        }
    }

    fn finish(&self) {
        if let Some(bar) = self.bar.get() {
            bar.finish_and_clear();
        }
    }
}

fn progress_bar(searches: u64) -> ProgressBar {
    let bar = ProgressBar::new(searches);
    bar.set_style(
        ProgressStyle::with_template("{bar:20} {pos}/{len} searches, {eta} left  {msg}")
            .expect("valid progress template"),
    );
    bar.enable_steady_tick(Duration::from_millis(250));
    bar
}

//! `challenge field DIR`: the C# challenge's entries ported, built and checked into a
//! field to rate bots against (`challenge rate --field DIR`), its table, and the round
//! robin that checks it against the published list; the work itself is [`measure`]'s.

mod port;
mod table;

use std::io::IsTerminal;
use std::path::PathBuf;
use std::sync::Mutex;
use std::time::Duration;

use anyhow::{Context, Result};
use bot_build::BuildEvent;
use indicatif::{ProgressBar, ProgressStyle};
use measure::{FieldEvent, FieldOptions, RoundRobinEvent, RoundRobinOptions};
use runner::TimeControl;

use super::args::time_control;
use super::interrupt;

/// Make a field of the C# challenge's entries to rate bots against.
///
/// DIR is laid out as the challenge's results repository is: Bots/*.cs (each entry),
/// RatingsList.txt (the published BayesElo list) and BotMetaData.json (each entry's name).
/// Each entry is ported to a kit bot file (DIR/field/ID.rs; a Bots/*.rs file is taken as
/// it is), checked against the rules (over 1024 tokens is allowed: a port is an
/// opponent), built, and played twice against evil_bot; DIR/field/field.json keeps what
/// each step came to. Only what changed is done again: Ctrl-C keeps every finished entry
/// and the same command resumes. The entries carry no licence: the ports stay on your
/// machine.
///
/// --round-robin N plays a round robin of N entries spread over the published scale,
/// rates it by the published list's model and prints the Spearman correlation with the
/// published ratings (resumable the same way).
///
/// Examples:
///   git clone --depth 1 https://github.com/SebLague/Tiny-Chess-Bot-Challenge-Results ~/csharp-field
///   challenge field ~/csharp-field
///   challenge field ~/csharp-field --top 30 --table top30.csv
///   challenge field ~/csharp-field --round-robin 24 --tc 5+0.05
#[derive(clap::Args, Debug)]
#[command(verbatim_doc_comment)]
pub struct Args {
    /// The folder of entries: Bots/, RatingsList.txt, BotMetaData.json.
    dir: PathBuf,

    /// Only the entries of the published list's best N rows.
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = clap::value_parser!(u32).range(1..))]
    top: Option<u32>,

    /// Only these entries (ids: Bot_12), comma-separated or repeated.
    #[arg(long, value_name = "ID", value_delimiter = ',')]
    only: Vec<String>,

    /// Try again the steps that failed, even where nothing changed.
    #[arg(long)]
    retry: bool,

    /// The clock of the games played: the two games against evil_bot, or the round
    /// robin's.
    #[arg(long, value_parser = time_control, default_value = "5+0.05")]
    tc: TimeControl,

    /// Entries worked on (or round-robin pairs played) at once (default: the number of
    /// cores).
    #[arg(long = "concurrency", short = 'j', allow_negative_numbers = true, value_parser = clap::value_parser!(u32).range(1..=256))]
    concurrency: Option<u32>,

    /// Also write the table of every entry as CSV to FILE.
    #[arg(long, value_name = "FILE")]
    table: Option<PathBuf>,

    /// Play a round robin of N entries spread over the published scale instead (the
    /// field must be made).
    #[arg(long = "round-robin", value_name = "N", allow_negative_numbers = true, value_parser = clap::value_parser!(u32).range(2..=624))]
    round_robin: Option<u32>,

    /// Games each round-robin pair plays (even: each opening with both colours).
    #[arg(long = "games-per-pair", value_name = "N", default_value_t = 2, allow_negative_numbers = true, value_parser = clap::value_parser!(u32).range(2..=1000))]
    games_per_pair: u32,

    /// The round robin's state file (default: DIR/field/round-robin-N.jsonl).
    #[arg(long, value_name = "FILE", requires = "round_robin")]
    state: Option<PathBuf>,

    /// Begin the round robin anew.
    #[arg(long, requires = "round_robin")]
    fresh: bool,

    /// No progress lines; only the result.
    #[arg(long, short = 'q')]
    quiet: bool,
}

impl Args {
    fn concurrency(&self) -> usize {
        self.concurrency.map_or_else(
            || std::thread::available_parallelism().map_or(1, |n| n.get()),
            |j| j as usize,
        )
    }
}

/// Makes the field (or plays its round robin) and prints the summary.
pub fn run(args: &Args) -> Result<()> {
    if let Some(n) = args.round_robin {
        return round_robin(args, n as usize);
    }
    let options = FieldOptions {
        dir: args.dir.clone(),
        check_tc: args.tc,
        jobs: args.concurrency(),
        only: args.only.clone(),
        top: args.top.map(|n| n as usize),
        retry: args.retry,
    };
    let porter = port::porter(&args.dir)?;
    let progress = Progress::new(args.quiet);
    let stop = interrupt::stop_flag();
    let made = measure::make_field(&options, porter.as_deref(), &stop, &|event| {
        progress.field_event(event);
    });
    progress.finish();
    let field = made.context("cannot make the field")?;
    if let Some(path) = &args.table {
        table::write_csv(&field, path)?;
    }
    print!("{}", table::summary_text(&field, &args.dir, args.tc));
    if stop.load(std::sync::atomic::Ordering::Relaxed) {
        println!("stopped: run the same command again to go on");
    }
    Ok(())
}

fn round_robin(args: &Args, entries: usize) -> Result<()> {
    let options = RoundRobinOptions {
        field: args.dir.clone(),
        entries,
        games_per_pair: args.games_per_pair as usize,
        tc: args.tc,
        settings: runner::GameSettings::default(),
        concurrency: args.concurrency(),
        state: args.state.clone(),
        fresh: args.fresh,
    };
    let progress = Progress::new(args.quiet);
    let stop = interrupt::stop_flag();
    let outcome = measure::round_robin(&options, &stop, &|event| {
        progress.round_robin_event(event);
    });
    progress.finish();
    let outcome = outcome.context("the round robin failed")?;
    print!("{}", table::round_robin_text(&outcome, &options));
    Ok(())
}

/// Progress on stderr: a bar on a terminal, else a line per entry or game.
struct Progress {
    bar: Mutex<Option<ProgressBar>>,
    quiet: bool,
}

impl Progress {
    fn new(quiet: bool) -> Progress {
        Progress {
            bar: Mutex::new(None),
            quiet,
        }
    }

    /// Starts the bar over `total` steps (on a terminal only).
    fn start(&self, total: usize, done: usize) {
        if self.quiet || !std::io::stderr().is_terminal() {
            return;
        }
        let bar = ProgressBar::new(total as u64);
        bar.set_style(
            ProgressStyle::with_template(
                "{bar:30} {pos}/{len} {msg} [{elapsed_precise}, {eta} left]",
            )
            .expect("valid progress template"),
        );
        bar.set_position(done as u64);
        bar.enable_steady_tick(Duration::from_millis(250));
        *self.bar.lock().unwrap_or_else(|p| p.into_inner()) = Some(bar);
    }

    fn say(&self, line: &str) {
        match &*self.bar.lock().unwrap_or_else(|p| p.into_inner()) {
            Some(bar) => bar.println(line),
            None => eprintln!("{line}"),
        }
    }

    /// One step done: the bar moves, or a line says it.
    fn step(&self, line: String) {
        match &*self.bar.lock().unwrap_or_else(|p| p.into_inner()) {
            Some(bar) => {
                bar.inc(1);
                bar.set_message(line);
            }
            None if !self.quiet => eprintln!("{line}"),
            None => {}
        }
    }

    fn finish(&self) {
        if let Some(bar) = &*self.bar.lock().unwrap_or_else(|p| p.into_inner()) {
            bar.finish_and_clear();
        }
    }

    fn field_event(&self, event: FieldEvent<'_>) {
        match event {
            FieldEvent::Read {
                entries,
                matched,
                unmatched,
                list,
            } => self.say(&table::matching_text(entries, matched, unmatched, list)),
            FieldEvent::Started { todo, done } => {
                self.say(&format!(
                    "{todo} entries, {done} of them done before (only what changed is done again)"
                ));
                self.start(todo, 0);
            }
            FieldEvent::Entry {
                entry,
                finished,
                todo,
            } => self.step(format!("{finished}/{todo}: {}", table::entry_status(entry))),
            FieldEvent::Unfinished { id, reason } => {
                self.say(&format!(
                    "{id}: not finished ({reason}); done again next time"
                ));
            }
            // A field builds hundreds of bots: the bar says which entry is done.
            FieldEvent::Build(BuildEvent::Compiling { .. } | BuildEvent::Resolved { .. }) => {}
            FieldEvent::Build(other) => self.say(&other.to_string()),
        }
    }

    fn round_robin_event(&self, event: RoundRobinEvent<'_>) {
        match event {
            RoundRobinEvent::Began {
                entries,
                scheduled,
                resumed,
                state,
            } => {
                self.say(&format!(
                    "round robin of {} entries, published ranks {}: {scheduled} games, {resumed} played before (state {})",
                    entries.len(),
                    entries
                        .iter()
                        .map(|(_, row)| row.rank.to_string())
                        .collect::<Vec<_>>()
                        .join(" "),
                    state.display()
                ));
                self.start(scheduled, resumed);
            }
            RoundRobinEvent::Game {
                game,
                played,
                scheduled,
            } => self.step(format!(
                "game {played}/{scheduled}: {} - {} ({})",
                game.white, game.black, game.termination
            )),
            RoundRobinEvent::Build(BuildEvent::Compiling { .. } | BuildEvent::Resolved { .. }) => {}
            RoundRobinEvent::Build(other) => self.say(&other.to_string()),
        }
    }
}

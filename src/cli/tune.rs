//! `challenge tune`: the command line of a tuning run; the run itself is [`measure`].

use std::io::IsTerminal;
use std::path::PathBuf;
use std::sync::Mutex;
use std::time::Duration;

use anyhow::{Context, Result};
use bot_build::BuildEvent;
use indicatif::{ProgressBar, ProgressStyle};
use measure::{MAX_CONCURRENCY, MAX_ITERATIONS, MAX_PAIRS, TuneLimit};
use measure::{TuneEvent, TuneOutcome, TuneRequest};

use super::args::{LimitArgs, time_control};
use super::interrupt;

/// Tune a bot's constants marked `// tune MIN..=MAX` by SPSA, as fishtest does.
///
/// Each step builds two variants of the bot, θ+ and θ− (each tuned constant moved by ±c_k,
/// a random sign per constant), plays them against each other from the kit's balanced
/// openings (each opening twice, colours swapped), and moves the constants toward the
/// winner by a_k/c_k times the result. At the end it writes BOT.tuned.rs beside the bot (a
/// bot bundled with the kit: in ./bot/; only the marked literals changed), prints the diff
/// and the `challenge match --sprt` command that checks the gain.
///
/// The state file (default ./target/tune/BOT.json) is written after every step: Ctrl-C
/// keeps everything, and running the same command again resumes.
///
/// Defaults (fishtest's, and Stockfish's TUNE() printout): 500 game pairs, one per step,
/// `go nodes 5000` per move, c_end = (max − min)/20 (at least 1 for an integer), r_end =
/// 0.002, A = a tenth of the pairs, alpha 0.602, gamma 0.101, one step per core at once.
///
/// Examples:
///   challenge tune my_bot
///   challenge tune my_bot --iterations 2000 --pairs 4 --r-end 0.02
///   challenge tune bot/lab/x.rs --c-end KNIGHT=30 --tc 2+0.02 -j 2
#[derive(clap::Args, Debug)]
#[command(verbatim_doc_comment)]
pub struct Args {
    /// The bot: a name (./bot/NAME.rs, else the kit's) or a path.
    bot: String,

    /// Game pairs in the run (fishtest's N): the gains decay over them.
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = clap::value_parser!(u64).range(1..=MAX_ITERATIONS))]
    iterations: Option<u64>,

    /// Game pairs each step plays with one pair of variants (one build for them all).
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = clap::value_parser!(u64).range(1..=MAX_PAIRS))]
    pairs: Option<u64>,

    /// Steps played at once (default: the number of cores).
    #[arg(long = "concurrency", short = 'j', allow_negative_numbers = true, value_parser = clap::value_parser!(u32).range(1..=MAX_CONCURRENCY as i64))]
    concurrency: Option<u32>,

    /// The seed of the signs and openings (default: from the clock; kept in the state).
    #[arg(long)]
    seed: Option<u64>,

    /// Node limit per move, with no clock (the default, 5000).
    #[arg(long, allow_negative_numbers = true, value_parser = clap::value_parser!(u64).range(1..), conflicts_with = "tc")]
    nodes: Option<u64>,

    /// A short clock instead of fixed nodes: BASE+INC in seconds (`2+0.02`).
    #[arg(long, value_parser = tc_text)]
    tc: Option<String>,

    /// The perturbation at the end, c_end: `X` for every constant or `NAME=X` for one
    /// (repeatable). Default: a twentieth of the constant's range.
    #[arg(long = "c-end", value_name = "[NAME=]X", value_parser = named_number)]
    c_end: Vec<(Option<String>, f64)>,

    /// The learning rate at the end, r_end: `X` or `NAME=X` (repeatable). Default 0.002.
    #[arg(long = "r-end", value_name = "[NAME=]X", value_parser = named_number)]
    r_end: Vec<(Option<String>, f64)>,

    /// The stability constant A as a fraction of the run's pairs (default 0.1).
    #[arg(long = "a-ratio", value_name = "R")]
    a_ratio: Option<f64>,

    /// Stop after this many steps in a row with a game lost by an engine's fault.
    #[arg(long = "max-crashes", value_name = "N", default_value_t = measure::DEFAULT_MAX_FAULTY, allow_negative_numbers = true, value_parser = clap::value_parser!(u64).range(1..=1000))]
    max_crashes: u64,

    /// The state file (default: target/tune/BOT.json in the current directory).
    #[arg(long, value_name = "FILE")]
    state: Option<PathBuf>,

    /// Begin anew, replacing the state file's run.
    #[arg(long)]
    fresh: bool,

    #[command(flatten)]
    limit: LimitArgs,

    /// No progress line; only the result.
    #[arg(long, short = 'q')]
    quiet: bool,
}

/// `--tc`'s text, once it reads as a time control.
fn tc_text(text: &str) -> Result<String, String> {
    time_control(text).map(|_| text.trim().to_string())
}

/// `X` or `NAME=X`, with `X` a finite number.
fn named_number(text: &str) -> Result<(Option<String>, f64), String> {
    let (name, number) = match text.split_once('=') {
        Some((name, number)) => (Some(name.trim().to_string()), number),
        None => (None, text),
    };
    let value: f64 = number
        .trim()
        .parse()
        .map_err(|_| format!("`{}` is not a number", number.trim()))?;
    if !value.is_finite() {
        return Err(format!("`{}` is not a finite number", number.trim()));
    }
    Ok((name.filter(|n| !n.is_empty()), value))
}

impl Args {
    fn request(&self) -> TuneRequest {
        let limit = match (self.nodes, &self.tc) {
            (Some(n), _) => Some(TuneLimit::Nodes(n)),
            (None, Some(tc)) => Some(TuneLimit::Tc(tc.clone())),
            (None, None) => None,
        };
        TuneRequest {
            state: self.state.clone(),
            fresh: self.fresh,
            iterations: self.iterations,
            pairs: self.pairs,
            concurrency: self.concurrency.map(|j| j as usize),
            seed: self.seed,
            limit,
            c_end: self.c_end.clone(),
            r_end: self.r_end.clone(),
            a_ratio: self.a_ratio,
            max_faulty: self.max_crashes,
            policy: self.limit.policy(),
            ..TuneRequest::new(&self.bot)
        }
    }
}

/// The progress line: redrawn on a terminal, a line per step elsewhere.
struct Progress {
    bar: Option<ProgressBar>,
    quiet: bool,
}

impl Progress {
    fn say(&self, line: &str) {
        match &self.bar {
            Some(bar) => bar.println(line),
            None => eprintln!("{line}"),
        }
    }

    fn event(&self, event: TuneEvent<'_>) {
        match event {
            TuneEvent::Step(report) => match &self.bar {
                Some(bar) => bar.set_message(report.to_string()),
                None if !self.quiet => eprintln!("{report}"),
                None => {}
            },
            // Every step builds two variants: the summary gives their time, not a line each.
            TuneEvent::Build(BuildEvent::Compiling { .. }) => {}
            other => self.say(&other.to_string()),
        }
    }
}

/// Tunes the bot and prints the result.
pub fn run(args: &Args) -> Result<()> {
    let interactive = !args.quiet && std::io::stderr().is_terminal();
    let progress = Mutex::new(Progress {
        bar: interactive.then(|| {
            let bar = ProgressBar::new_spinner();
            bar.set_style(
                ProgressStyle::with_template("{msg} [{elapsed_precise}]")
                    .expect("valid progress template"),
            );
            bar.enable_steady_tick(Duration::from_millis(250));
            bar
        }),
        quiet: args.quiet,
    });
    let stop = interrupt::stop_flag();
    let outcome = measure::tune(&args.request(), &stop, &|event| {
        progress
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .event(event);
    });
    if let Some(bar) = &progress.lock().unwrap_or_else(|p| p.into_inner()).bar {
        bar.finish_and_clear();
    }
    print_outcome(&outcome.context("tuning failed")?);
    Ok(())
}

fn print_outcome(outcome: &TuneOutcome) {
    let state = &outcome.state;
    let plan = &state.plan;
    if outcome.stopped {
        println!(
            "stopped after {} of {} game pairs; run the same command again to resume",
            state.pairs_done(),
            plan.schedule.iterations
        );
    } else {
        println!(
            "tuned over {} game pairs ({} games)",
            plan.schedule.iterations, state.games
        );
    }
    for ((param, theta), (_, written)) in plan
        .params
        .iter()
        .zip(&state.theta)
        .zip(&outcome.tuned.values)
    {
        println!(
            "  {}: {} -> {written} (θ {theta:.2})",
            param.name, param.start
        );
    }
    println!("{}", timing_line(outcome));
    println!("tuned bot: {}", outcome.tuned.path.display());
    print!("{}", outcome.tuned.diff);
    let command: Vec<String> = outcome
        .sprt_command
        .iter()
        .map(|word| shell_word(word))
        .collect();
    println!("is it stronger? challenge {}", command.join(" "));
}

/// `word` as the shell reads it: as it is when every character is plain, else quoted.
fn shell_word(word: &str) -> String {
    let plain = !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "_-./=+:@,".contains(c));
    if plain {
        return word.to_string();
    }
    shlex::try_quote(word).map_or_else(|_| format!("{word:?}"), |q| q.into_owned())
}

/// Time per game pair: builds and bookkeeping against the games' own time.
fn timing_line(outcome: &TuneOutcome) -> String {
    let state = &outcome.state;
    let pairs = state.pairs_done().max(1) as f64;
    let t = &state.timing;
    let (build, book, games) = (t.build / pairs, t.bookkeeping / pairs, t.games / pairs);
    let ratio = if games > 0.0 {
        (build + book) / games
    } else {
        f64::INFINITY
    };
    let mut line = format!(
        "time per game pair: builds {build:.2} s, bookkeeping {:.1} ms, games {games:.2} s: overhead {ratio:.2}x the games' time",
        book * 1000.0
    );
    if ratio > 1.0 && state.plan.pairs == 1 {
        line.push_str(" (--pairs N shares each step's builds among N pairs)");
    }
    line
}

//! `challenge rate BOT --field DIR`: a bot's rating on the C# challenge's published scale,
//! from a gauntlet against the field; the gauntlet itself is [`measure::rate`].

use std::io::IsTerminal;
use std::path::PathBuf;
use std::sync::Mutex;
use std::time::Duration;

use anyhow::{Context, Result};
use bot_build::BuildEvent;
use indicatif::{ProgressBar, ProgressStyle};
use measure::{RateEvent, RateOptions, RateOutcome};
use runner::TimeControl;

use super::args::{LimitArgs, time_control};
use super::interrupt;

/// Rate a bot on the C# challenge's published scale: a gauntlet against the field
/// `challenge field DIR` made, the field's entries held at their published ratings.
///
/// Opponents are chosen as the games come in: first a batch spread over the field, then
/// each colour-swapped pair goes to the entry that narrows the rating's interval most
/// (near the bot's current estimate, a small published interval, not met often yet). It
/// stops when the 95% interval (the games' and the published ratings' own uncertainty
/// together) is within --target, after --games games, or at Ctrl-C. Every game is in the
/// state file (default ./target/rate/BOT.jsonl): the same command resumes.
///
/// Examples:
///   challenge rate my_bot --field ~/csharp-field
///   challenge rate turochamp_modern --field ~/csharp-field --target 30 --games 800
#[derive(clap::Args, Debug)]
#[command(verbatim_doc_comment)]
pub struct Args {
    /// The bot: a name (./bot/NAME.rs, else the kit's) or a path.
    bot: String,

    /// The folder of C# entries `challenge field` made its field in (or the field's
    /// folder, DIR/field).
    #[arg(long, value_name = "DIR")]
    field: PathBuf,

    /// Time control of every game: BASE+INC in seconds.
    #[arg(long, value_parser = time_control, default_value = "5+0.05")]
    tc: TimeControl,

    /// Games played at once (default: the number of cores).
    #[arg(long = "concurrency", short = 'j', allow_negative_numbers = true, value_parser = clap::value_parser!(u32).range(1..=256))]
    concurrency: Option<u32>,

    /// Stop once the rating's 95% interval is within ± this many Elo.
    #[arg(long, value_name = "ELO", default_value_t = 50.0)]
    target: f64,

    /// Stop after this many games in all, whatever the interval.
    #[arg(long, value_name = "N", default_value_t = 400, allow_negative_numbers = true, value_parser = clap::value_parser!(u32).range(2..=100_000))]
    games: u32,

    /// The state file (default: target/rate/BOT.jsonl in the current directory).
    #[arg(long, value_name = "FILE")]
    state: Option<PathBuf>,

    /// Begin anew, replacing the state file's games.
    #[arg(long)]
    fresh: bool,

    #[command(flatten)]
    limit: LimitArgs,

    /// No progress line; only the result.
    #[arg(long, short = 'q')]
    quiet: bool,
}

impl Args {
    fn options(&self) -> RateOptions {
        RateOptions {
            bot: self.bot.clone(),
            policy: self.limit.policy(),
            field: self.field.clone(),
            tc: self.tc,
            settings: runner::GameSettings::default(),
            concurrency: self.concurrency.map_or_else(
                || std::thread::available_parallelism().map_or(1, |n| n.get()),
                |j| j as usize,
            ),
            target: self.target,
            max_games: self.games as usize,
            state: self.state.clone(),
            fresh: self.fresh,
        }
    }
}

/// The progress line: redrawn on a terminal, a line per game elsewhere.
struct Progress {
    bar: Option<ProgressBar>,
    quiet: bool,
}

impl Progress {
    fn new(quiet: bool) -> Progress {
        let interactive = !quiet && std::io::stderr().is_terminal();
        Progress {
            bar: interactive.then(|| {
                let bar = ProgressBar::new_spinner();
                bar.set_style(
                    ProgressStyle::with_template("{msg} [{elapsed_precise}]")
                        .expect("valid progress template"),
                );
                bar.enable_steady_tick(Duration::from_millis(250));
                bar
            }),
            quiet,
        }
    }

    fn say(&self, line: &str) {
        match &self.bar {
            Some(bar) => bar.println(line),
            None => eprintln!("{line}"),
        }
    }

    fn event(&self, event: RateEvent<'_>) {
        match event {
            RateEvent::Began {
                bot,
                opponents,
                state,
                resumed,
            } => {
                let again = if resumed > 0 {
                    format!(", resuming after {resumed} games")
                } else {
                    String::new()
                };
                self.say(&format!(
                    "rating {} against {opponents} entries (state {}{again})",
                    bot.name,
                    state.display()
                ));
            }
            RateEvent::Game {
                game,
                played,
                rating,
            } => {
                let estimate = rating.map_or_else(
                    || "no rating yet".to_string(),
                    |r| format!("{:.0} ± {:.0}", r.elo, r.interval),
                );
                let line = format!(
                    "game {played}: {} - {} {} ({}); rating {estimate}",
                    game.white,
                    game.black,
                    score_text(game.score),
                    game.termination
                );
                match &self.bar {
                    Some(bar) => bar.set_message(line),
                    None if !self.quiet => eprintln!("{line}"),
                    None => {}
                }
            }
            RateEvent::Dropped { id, reason } => {
                self.say(&format!("entry {id} is left out: {reason}"));
            }
            RateEvent::Build(BuildEvent::Compiling { .. } | BuildEvent::Resolved { .. })
                if self.quiet => {}
            RateEvent::Build(event) => self.say(&event.to_string()),
        }
    }
}

fn score_text(white_score: f64) -> &'static str {
    if white_score > 0.75 {
        "1-0"
    } else if white_score < 0.25 {
        "0-1"
    } else {
        "1/2-1/2"
    }
}

/// Rates the bot and prints where it stands.
pub fn run(args: &Args) -> Result<()> {
    let options = args.options();
    measure::check_rate_options(&options)?;
    let progress = Mutex::new(Progress::new(args.quiet));
    let stop = interrupt::stop_flag();
    let outcome = measure::rate(&options, &stop, &|event| {
        progress
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .event(event);
    });
    if let Some(bar) = &progress.lock().unwrap_or_else(|p| p.into_inner()).bar {
        bar.finish_and_clear();
    }
    let outcome = outcome.context("rating failed")?;
    print!("{}", outcome_text(&outcome, &options));
    Ok(())
}

/// What `rate` prints at the end.
fn outcome_text(outcome: &RateOutcome, options: &RateOptions) -> String {
    let mut text = String::new();
    let name = &outcome.bot.name;
    if outcome.stopped {
        text.push_str(&format!(
            "stopped after {} games; run the same command again to resume ({})\n",
            outcome.games,
            outcome.state.display()
        ));
    }
    let Some(rating) = outcome.rating else {
        text.push_str(&format!("{name}: no game finished, no rating yet\n"));
        return text;
    };
    text.push_str(&format!(
        "{name}: {:.0} ± {:.0} on the published scale (95%: games ± {:.0}, published ratings ± {:.0})\n",
        rating.elo, rating.interval, rating.games_interval, rating.held_interval
    ));
    if let Some(place) = outcome.place {
        text.push_str(&format!(
            "about {} of {} (from {} to {})\n",
            ordinal(place.place),
            place.of,
            ordinal(place.best),
            ordinal(place.worst)
        ));
    }
    let (met, low, high) = outcome.opponents;
    let [w, d, l] = outcome.wdl;
    text.push_str(&format!(
        "{} games against {met} entries rated {low:.0} to {high:.0}: +{w} ={d} -{l}, {} lost by {name}'s fault; this run {} at {}, {} at once\n",
        outcome.games,
        outcome.bot_faults,
        duration_text(outcome.elapsed),
        options.tc,
        options.concurrency
    ));
    if !outcome.stopped && rating.interval > options.target {
        text.push_str(&format!(
            "the interval is wider than ± {:.0}: the game limit came first (--games)\n",
            options.target
        ));
    }
    text
}

/// `1st`, `2nd`, `3rd`, `4th`, `11th`, `21st`...
fn ordinal(n: usize) -> String {
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

/// `14m 32s`.
fn duration_text(d: Duration) -> String {
    let s = d.as_secs();
    if s >= 60 {
        format!("{}m {:02}s", s / 60, s % 60)
    } else {
        format!("{s}s")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ordinals_read_as_english() {
        let words: Vec<String> = [1, 2, 3, 4, 11, 12, 13, 21, 57, 102, 111, 624]
            .map(ordinal)
            .to_vec();
        assert_eq!(
            words,
            [
                "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "57th", "102nd",
                "111th", "624th"
            ]
        );
    }
}

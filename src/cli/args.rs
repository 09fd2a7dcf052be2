//! Argument groups shared by several commands, and the value parsers that keep every
//! number in a range the kit can honour (an out-of-range value is a clear error, never a
//! wrap-around or a panic).

use std::time::Duration;

use anyhow::{Context, Result, bail};
use bot_build::LimitPolicy;
use results::ModelName;
use results::RatingChoice;
use runner::{AdjudicationRules, DrawRule, GameSettings, ResignRule, TimeControl};

#[cfg(feature = "server")]
mod challenge_store;
#[cfg(feature = "server")]
pub use challenge_store::{BuildJobs, DirArgs, StoreUrl};

// The value parsers several commands share are the domain's, so `--engine` words and
// options read alike.
pub use measure::{key_values, seconds, time_control};

/// The engine options of `--option NAME=VALUE` (`bench`, `analyze`): split at the first
/// `=` and trimmed, each checked as every UCI option the kit sends is
/// ([`measure::check_uci_option`], as `match --engine option.NAME=VALUE` checks its own), so
/// that no line break or name holding `value` reaches the engine as another command or
/// another option.
pub fn uci_options(options: &[String]) -> Result<Vec<(String, String)>> {
    options
        .iter()
        .map(|option| {
            let shown = option.escape_debug();
            let Some((name, value)) = option.split_once('=') else {
                bail!("--option `{shown}` is not NAME=VALUE (e.g. --option Hash=16)");
            };
            let (name, value) = (name.trim(), value.trim());
            if let Err(why) = measure::check_uci_option(name, value) {
                bail!("--option `{shown}`: {why}");
            }
            Ok((name.to_string(), value.to_string()))
        })
        .collect()
}

/// Rating options shared by `standings`, `ratings` and `report`.
#[derive(clap::Args, Debug, Clone)]
pub struct RatingArgs {
    /// Virtual draws given to each player, spread over its opponents (keeps perfect
    /// scores finite; 0 for the plain maximum-likelihood estimate).
    #[arg(long, default_value_t = 2.0, value_parser = prior, allow_negative_numbers = true)]
    pub prior: f64,
    /// Rate this player at the offset (0 by default) instead of making the mean rating
    /// the offset.
    #[arg(long)]
    pub anchor: Option<String>,
    /// The rating model: `kit` (colour-blind, draw parameter fitted) or `bayeselo`
    /// (BayesElo's `mm` with its defaults, for comparison with published lists).
    #[arg(long, value_enum, default_value_t = ModelArg::Kit)]
    pub model: ModelArg,
    /// White's advantage in Elo, fixed (`--model bayeselo` only; default 32.8).
    #[arg(long, allow_hyphen_values = true)]
    pub advantage: Option<f64>,
    /// The draw parameter in Elo, fixed (`--model bayeselo` only; default 97.3).
    #[arg(long)]
    pub drawelo: Option<f64>,
    /// Added to every printed rating (BayesElo's `offset`).
    #[arg(long, default_value_t = 0.0, allow_hyphen_values = true)]
    pub offset: f64,
}

/// `--model`: the command line's names for the library's rating models.
#[derive(clap::ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum ModelArg {
    /// Colour-blind, draw parameter fitted, mean 0, Fisher-information intervals.
    Kit,
    /// BayesElo's `mm` with its defaults: White advantage and draw parameter fixed,
    /// printed on BayesElo's scale.
    Bayeselo,
}

impl RatingArgs {
    /// The library's rating options (checked when the fit starts).
    pub fn choice(&self) -> RatingChoice {
        RatingChoice {
            prior: self.prior,
            anchor: self.anchor.clone(),
            model: match self.model {
                ModelArg::Kit => ModelName::Kit,
                ModelArg::Bayeselo => ModelName::Bayeselo,
            },
            advantage: self.advantage,
            drawelo: self.drawelo,
            offset: self.offset,
        }
    }
}

/// `--allow-over-limit`.
#[derive(clap::Args, Debug, Clone)]
pub struct LimitArgs {
    /// Run the bot even if it is over the 1024-token limit (rule violations are still refused).
    #[arg(long)]
    pub allow_over_limit: bool,
}

impl LimitArgs {
    /// What to do with a bot over the token limit.
    pub fn policy(&self) -> LimitPolicy {
        if self.allow_over_limit {
            LimitPolicy::AllowOverLimit
        } else {
            LimitPolicy::Enforce
        }
    }
}

/// How games are played, spelled the same for `match` and `run`: the clock and the
/// adjudication rules.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct GameArgs {
    /// Time control: BASE+INC in seconds (`5+0.05`), or MOVES/BASE+INC (`40/60+0`).
    /// Default: 5+0.05 for `match`, 10+0.1 for `run`.
    #[arg(long, value_parser = time_control)]
    pub tc: Option<TimeControl>,

    /// Fixed time per move in seconds (replaces --tc).
    #[arg(long, value_name = "SECONDS", value_parser = seconds, conflicts_with = "tc", allow_negative_numbers = true)]
    pub st: Option<Duration>,

    /// Node limit per move (for engines that support `go nodes`; replaces --tc unless --tc is given too).
    #[arg(long, allow_negative_numbers = true, value_parser = clap::value_parser!(u64).range(1..))]
    pub nodes: Option<u64>,

    /// Depth limit per move (for engines that support `go depth`).
    #[arg(long, allow_negative_numbers = true, value_parser = clap::value_parser!(u32).range(1..=1000))]
    pub depth: Option<u32>,

    /// Milliseconds an engine may overstep its clock before losing on time.
    #[arg(long = "timemargin", value_name = "MS", default_value_t = 100,
          allow_negative_numbers = true, value_parser = clap::value_parser!(u64).range(0..=60_000))]
    pub time_margin: u64,

    /// Adjudicate a draw: `movenumber=40 movecount=8 score=10` (both engines within ±score cp).
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE")]
    pub draw: Option<Vec<String>>,

    /// Adjudicate a loss: `movecount=3 score=600` (loser ≤ −score, winner ≥ score).
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE")]
    pub resign: Option<Vec<String>>,

    /// Draw games reaching this many full moves.
    #[arg(long = "maxmoves", value_name = "N", allow_negative_numbers = true, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    pub max_moves: Option<u32>,
}

impl GameArgs {
    /// The time control: `--st`, else `--tc`, else no clock when only `--nodes` or
    /// `--depth` limit the search, else `default`; `--nodes` and `--depth` apply on top.
    pub fn time_control(&self, default: TimeControl) -> TimeControl {
        let mut tc = match (self.st, self.tc) {
            (Some(st), _) => TimeControl::movetime(st),
            (None, Some(tc)) => tc,
            (None, None) if self.nodes.is_some() || self.depth.is_some() => TimeControl::default(),
            (None, None) => default,
        };
        tc.nodes = self.nodes;
        tc.depth = self.depth;
        tc
    }

    /// Margin and adjudication.
    pub fn settings(&self) -> Result<GameSettings> {
        let mut rules = AdjudicationRules::default();
        if let Some(words) = &self.draw {
            let n = numbers(words, "--draw", &["movenumber", "movecount", "score"])?;
            rules.draw = Some(DrawRule {
                move_number: n[0],
                move_count: n[1],
                score_cp: centipawns(n[2], "--draw")?,
            });
        }
        if let Some(words) = &self.resign {
            let n = numbers(words, "--resign", &["movecount", "score"])?;
            rules.resign = Some(ResignRule {
                move_count: n[0],
                score_cp: centipawns(n[1], "--resign")?,
            });
        }
        rules.max_plies = self.max_moves.map(|m| m * 2);
        Ok(GameSettings {
            margin: Duration::from_millis(self.time_margin),
            adjudication: rules,
            ..GameSettings::default()
        })
    }
}

fn centipawns(value: u32, what: &str) -> Result<i32> {
    i32::try_from(value)
        .ok()
        .filter(|v| *v <= 100_000)
        .with_context(|| format!("{what} score={value}: expected at most 100000 centipawns"))
}

/// Reads `KEY=N` words, every key required once, each a whole number from 0 to 10^6.
fn numbers(words: &[String], what: &str, keys: &[&str]) -> Result<Vec<u32>> {
    let mut out = vec![None; keys.len()];
    for (k, v) in key_values(words, what)? {
        let i = keys
            .iter()
            .position(|x| *x == k)
            .with_context(|| format!("{what}: unknown key `{k}` (expected {})", keys.join(", ")))?;
        let n = v
            .parse::<u32>()
            .ok()
            .filter(|n| *n <= 1_000_000)
            .with_context(|| {
                format!("{what} {k}={v}: expected a whole number from 0 to 1000000")
            })?;
        out[i] = Some(n);
    }
    keys.iter()
        .zip(out)
        .map(|(k, v)| v.with_context(|| format!("{what}: missing {k}=N")))
        .collect()
}

fn prior(text: &str) -> Result<f64, String> {
    let value: f64 = text
        .parse()
        .map_err(|_| format!("`{text}` is not a number"))?;
    if !(value.is_finite() && (0.0..=1e6).contains(&value)) {
        return Err(format!("`{text}`: expected a number from 0 to 1000000"));
    }
    Ok(value)
}

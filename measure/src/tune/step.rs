//! One step of a tuning run: the two variants built, and their game pairs played.

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use anyhow::{Context as _, Result};
use runner::{EngineConfig, GameSettings, Opening, Player, SplitMix64, TimeControl, play_game};

use super::TuneEvent;
use super::spsa::{self, Param};
use super::state::Plan;
use crate::matches::{OpeningChoice, openings};
use bot_build::{BotFile, BuildKind, LimitPolicy};

/// What every step shares: the bot, the openings, how games are played.
pub struct Context {
    bot: BotFile,
    source: String,
    params: Vec<Param>,
    openings: Vec<Opening>,
    tc: TimeControl,
    settings: GameSettings,
    policy: LimitPolicy,
}

impl Context {
    /// The context of `plan`'s steps on `bot`, whose source is `source`.
    pub fn new(bot: &BotFile, source: &str, plan: &Plan, policy: LimitPolicy) -> Result<Context> {
        let (openings, _) = openings(&OpeningChoice {
            file: None,
            plies: None,
            shuffle_seed: None,
        })?;
        Ok(Context {
            bot: bot.clone(),
            source: source.to_string(),
            params: plan.params.clone(),
            openings,
            tc: plan.limit.time_control()?,
            settings: GameSettings::default(),
            policy,
        })
    }
}

/// A step to play.
#[derive(Debug, Clone)]
pub struct Job {
    step: u64,
    /// The values of the `plus` and `minus` players.
    probes: [Vec<f64>; 2],
    /// The opening of each pair, as indices into the context's openings.
    openings: Vec<u64>,
}

impl Job {
    /// Step `step` of `plan`, built around the values `basis`.
    pub fn new(plan: &Plan, step: u64, basis: &[f64]) -> Job {
        let flips = flips(plan, step);
        let k = plan.first_pair(step);
        let mut rng = step_rng(plan.seed, step);
        for _ in &plan.params {
            rng.next_u64();
        }
        Job {
            step,
            probes: plan.schedule.probes(&plan.params, basis, k, &flips),
            openings: (0..plan.pairs_in(step)).map(|_| rng.next_u64()).collect(),
        }
    }
}

/// Step `step`'s own generator: its flips first, then its openings.
fn step_rng(seed: u64, step: u64) -> SplitMix64 {
    let mut mixer = SplitMix64::new(seed ^ step.wrapping_mul(0x9E37_79B9_7F4A_7C15));
    SplitMix64::new(mixer.next_u64())
}

/// `Δ` of step `step`: `+1` or `-1` per parameter.
pub fn flips(plan: &Plan, step: u64) -> Vec<i8> {
    let mut rng = step_rng(plan.seed, step);
    plan.params
        .iter()
        .map(|_| if rng.next_u64() & 1 == 1 { 1 } else { -1 })
        .collect()
}

/// A game of a step that ended by an engine's fault.
#[derive(Debug, Clone, PartialEq)]
pub struct Fault {
    /// The step, from 1.
    pub step: u64,
    /// White's and Black's names.
    pub players: [String; 2],
    /// The faulty engine's name.
    pub engine: String,
    /// The termination's tag (`crash`, `illegal move`, ...).
    pub termination: String,
    /// The runner's sentence about it.
    pub detail: String,
    /// The engine's last stderr lines.
    pub stderr: Vec<String>,
}

impl std::fmt::Display for Fault {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "step {}: {} vs {}: {} lost by {} ({})",
            self.step, self.players[0], self.players[1], self.engine, self.termination, self.detail
        )?;
        for line in &self.stderr {
            write!(f, "\n    {} stderr: {line}", self.engine)?;
        }
        Ok(())
    }
}

/// A step played (or interrupted).
#[derive(Debug)]
pub struct Finished {
    /// The step, from 0.
    pub step: u64,
    /// The `plus` player's wins minus its losses.
    pub result: i64,
    /// Games that ended by an engine's fault.
    pub faults: Vec<Fault>,
    /// Whether the run was halted during the games: the step is not applied.
    pub interrupted: bool,
    /// Games finished.
    pub games: u64,
    /// Building the two engines.
    pub build: Duration,
    /// Playing the games.
    pub play: Duration,
    /// Writing and checking the variants.
    pub bookkeeping: Duration,
}

/// Builds the step's two variants and plays its pairs, each opening twice with colours
/// swapped; stops early (interrupted) once `halt` is set.
pub fn play(
    ctx: &Context,
    job: &Job,
    halt: &AtomicBool,
    observe: &(dyn Fn(TuneEvent<'_>) + Sync),
) -> Result<Finished> {
    let started = Instant::now();
    let bots = [
        variant(ctx, &job.probes[0], job, "+")?,
        variant(ctx, &job.probes[1], job, "−")?,
    ];
    let bookkeeping = started.elapsed();
    let started = Instant::now();
    let mut players = Vec::new();
    for (bot, sign) in bots.iter().zip(["+", "−"]) {
        let engine = bot_build::build(bot, BuildKind::Local, &|event| {
            observe(TuneEvent::Build(event))
        })
        .with_context(|| {
            format!(
                "cannot build the variant `{}` (θ{sign} of step {})",
                bot.name,
                job.step + 1
            )
        })?;
        players.push(Player::new(
            EngineConfig::new(bot.name.clone(), engine.path),
            ctx.tc,
        ));
    }
    let build = started.elapsed();
    let started = Instant::now();
    let mut finished = Finished {
        step: job.step,
        result: 0,
        faults: Vec::new(),
        interrupted: false,
        games: 0,
        build,
        play: Duration::ZERO,
        bookkeeping,
    };
    play_pairs(ctx, job, [&players[0], &players[1]], halt, &mut finished);
    finished.play = started.elapsed();
    Ok(finished)
}

/// The variant of the bot with `values`, written and checked by the rules.
fn variant(ctx: &Context, values: &[f64], job: &Job, sign: &str) -> Result<BotFile> {
    let spec: Vec<String> = ctx
        .params
        .iter()
        .zip(values)
        .map(|(p, &v)| format!("{}={}", p.name, spsa::value_text(p, v)))
        .collect();
    let made = bot_build::write_variant(
        &bot_build::variants_dir(),
        &ctx.bot.name,
        &ctx.bot.path,
        &ctx.source,
        &spec.join(","),
    )
    .with_context(|| {
        format!(
            "cannot make θ{sign} of step {} ({})",
            job.step + 1,
            spec.join(",")
        )
    })?;
    let bot = BotFile {
        name: made.name,
        path: made.path,
    };
    bot_build::check(&bot, ctx.policy)?;
    Ok(bot)
}

/// Plays the job's pairs between `players` (`plus` first), adding to `finished`.
fn play_pairs(
    ctx: &Context,
    job: &Job,
    players: [&Player; 2],
    halt: &AtomicBool,
    finished: &mut Finished,
) {
    let mut slots: [Option<runner::Engine>; 2] = [None, None];
    'pairs: for &pick in &job.openings {
        let opening = &ctx.openings[(pick % ctx.openings.len() as u64) as usize];
        for plus_is_white in [true, false] {
            let [plus_slot, minus_slot] = &mut slots;
            let (order, engines) = if plus_is_white {
                ([players[0], players[1]], [plus_slot, minus_slot])
            } else {
                ([players[1], players[0]], [minus_slot, plus_slot])
            };
            let record = play_game(order, engines, opening, &ctx.settings, halt);
            let Some(white_score) = record.white_score() else {
                finished.interrupted = true;
                break 'pairs;
            };
            let plus = if plus_is_white {
                white_score
            } else {
                1.0 - white_score
            };
            // A win, a draw and a loss of `plus`: 1, 0 and -1.
            let plus_score = (plus * 2.0 - 1.0).round() as i64;
            finished.result += plus_score;
            finished.games += 1;
            if let Some(side) = record.faulty {
                let engine = if side == framework::chess::Color::White {
                    &record.white
                } else {
                    &record.black
                };
                finished.faults.push(Fault {
                    step: job.step + 1,
                    engine: engine.clone(),
                    players: [record.white.clone(), record.black.clone()],
                    termination: record.termination.tag().to_string(),
                    detail: record.detail.clone(),
                    stderr: record.stderr.clone(),
                });
            }
        }
    }
    for engine in slots.into_iter().flatten() {
        engine.quit(Duration::from_millis(300));
    }
}

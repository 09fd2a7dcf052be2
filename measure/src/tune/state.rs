//! The tuner's state file: everything needed to resume a run, written atomically after
//! each step, and checked field by field when read back (it is a file anyone may edit).

use std::collections::BTreeMap;
use std::fs;
use std::io::Write;
use std::path::Path;

use anyhow::{Context, Result, bail, ensure};
use serde::{Deserialize, Serialize};

use super::spsa::{Param, Schedule};

/// The state file's format; a file of another format is refused, never guessed at.
pub const FORMAT: u32 = 1;

/// The largest state file read: a run's state is a few kilobytes.
pub const MAX_STATE_BYTES: u64 = 16 << 20;

/// The most game pairs a run may have.
pub const MAX_ITERATIONS: u64 = 10_000_000;

/// The most game pairs a step may play with one pair of variants.
pub const MAX_PAIRS: u64 = 1000;

/// The most steps played at once.
pub const MAX_CONCURRENCY: usize = 256;

/// The most parameters a run may tune.
pub const MAX_PARAMS: usize = 256;

/// How each move is limited.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum TuneLimit {
    /// `go nodes N` for every move, no clock: a game repeats move for move.
    Nodes(u64),
    /// A clock, as `challenge match --tc` reads it (`2+0.02`).
    Tc(String),
}

impl TuneLimit {
    /// The time control the games are played at.
    pub fn time_control(&self) -> Result<runner::TimeControl> {
        match self {
            TuneLimit::Nodes(n) => Ok(runner::TimeControl {
                nodes: Some(*n),
                ..Default::default()
            }),
            TuneLimit::Tc(text) => Ok(text.parse()?),
        }
    }

    /// The limit as `challenge match` options: `--nodes 5000` or `--tc 2+0.02`.
    pub fn match_args(&self) -> [String; 2] {
        match self {
            TuneLimit::Nodes(n) => ["--nodes".into(), n.to_string()],
            TuneLimit::Tc(text) => ["--tc".into(), text.clone()],
        }
    }
}

/// What a run is: fixed when it starts, kept for its resumption.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Plan {
    /// The schedule: game pairs and gain constants.
    pub schedule: Schedule,
    /// Game pairs played with each pair of variants (fishtest's batch).
    pub pairs: u64,
    /// Steps played at once; a step is built with the values after the steps up to
    /// `concurrency` before it, so the run is the same whatever finishes first.
    pub concurrency: usize,
    /// The seed of the flips and openings.
    pub seed: u64,
    /// How each move is limited.
    pub limit: TuneLimit,
    /// The tuned constants, in the bot's order.
    pub params: Vec<Param>,
}

impl Plan {
    /// Steps in the run: its pairs in steps of `pairs`.
    pub fn steps(&self) -> u64 {
        self.schedule.iterations.div_ceil(self.pairs)
    }

    /// The first pair of step `step` (from 0), counted from 1: its `k`.
    pub fn first_pair(&self, step: u64) -> u64 {
        step * self.pairs + 1
    }

    /// Pairs played in step `step`: `pairs`, or what is left for the last one.
    pub fn pairs_in(&self, step: u64) -> u64 {
        self.pairs.min(self.schedule.iterations - step * self.pairs)
    }

    /// Checks every number: a state file may have been edited by hand.
    pub fn check(&self) -> Result<()> {
        let s = &self.schedule;
        ensure!(
            (1..=MAX_ITERATIONS).contains(&s.iterations),
            "iterations must be from 1 to {MAX_ITERATIONS}, not {}",
            s.iterations
        );
        for (name, value) in [("A", s.big_a), ("alpha", s.alpha), ("gamma", s.gamma)] {
            ensure!(
                value.is_finite() && (0.0..=1e9).contains(&value),
                "{name} must be a finite number from 0, not {value}"
            );
        }
        ensure!(
            (1..=MAX_PAIRS).contains(&self.pairs),
            "pairs per step must be from 1 to {MAX_PAIRS}, not {}",
            self.pairs
        );
        ensure!(
            (1..=MAX_CONCURRENCY).contains(&self.concurrency),
            "concurrency must be from 1 to {MAX_CONCURRENCY}, not {}",
            self.concurrency
        );
        match &self.limit {
            TuneLimit::Nodes(0) => bail!("the node limit must be at least 1"),
            limit => {
                limit.time_control()?;
            }
        }
        ensure!(
            !self.params.is_empty() && self.params.len() <= MAX_PARAMS,
            "a run tunes 1 to {MAX_PARAMS} constants, not {}",
            self.params.len()
        );
        self.params.iter().try_for_each(check_param)
    }
}

/// Checks one parameter's numbers.
pub fn check_param(p: &Param) -> Result<()> {
    let name = &p.name;
    ensure!(
        p.min.is_finite() && p.max.is_finite() && p.min < p.max,
        "`{name}`: its bounds {}..={} are not a range",
        p.min,
        p.max
    );
    ensure!(
        p.start.is_finite() && (p.min..=p.max).contains(&p.start),
        "`{name}` = {} is outside its mark `tune {}..={}`",
        p.start,
        p.min,
        p.max
    );
    ensure!(
        p.c_end.is_finite() && p.c_end > 0.0 && p.c_end <= p.max - p.min,
        "`{name}`: c_end must be above 0 and at most the range's width {}, not {}",
        p.max - p.min,
        p.c_end
    );
    ensure!(
        p.r_end.is_finite() && p.r_end >= 0.0 && p.r_end <= 1e6,
        "`{name}`: r_end must be a finite number from 0, not {}",
        p.r_end
    );
    Ok(())
}

/// A finished step whose result waits for the steps before it to finish.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pending {
    /// The step, from 0.
    pub step: u64,
    /// The `plus` player's wins minus its losses.
    pub result: i64,
    /// Whether a game of the step ended by an engine's fault.
    pub faulty: bool,
}

/// Time spent, in seconds, summed over the steps applied.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
pub struct Timing {
    /// Building the variants' engines (waiting for the bot's build lock included).
    pub build: f64,
    /// Playing the games.
    pub games: f64,
    /// Everything else: writing and checking variants, the update, writing the state.
    pub bookkeeping: f64,
}

/// Everything a run needs to resume.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct State {
    /// [`FORMAT`].
    pub format: u32,
    /// The bot file, as given when the run began.
    pub bot: String,
    /// SHA-256 of the bot's source when the run began, in hex.
    pub source_sha256: String,
    /// What the run is.
    pub plan: Plan,
    /// Steps applied, in order.
    pub steps_done: u64,
    /// The current values, one per parameter.
    pub theta: Vec<f64>,
    /// The values after each of the last steps (by steps applied), from which the steps
    /// in flight were built.
    pub recent: BTreeMap<u64, Vec<f64>>,
    /// Steps finished out of order, waiting for the ones before them.
    pub pending: Vec<Pending>,
    /// Games played in the steps applied.
    pub games: u64,
    /// Steps in a row, up to the last applied, with a game lost by an engine's fault.
    pub faulty_in_a_row: u64,
    /// Time spent.
    pub timing: Timing,
}

impl State {
    /// A fresh run of `plan` on the bot at `bot` whose source hashes to `source_sha256`.
    pub fn new(bot: String, source_sha256: String, plan: Plan) -> State {
        let theta: Vec<f64> = plan.params.iter().map(|p| p.start).collect();
        State {
            format: FORMAT,
            bot,
            source_sha256,
            recent: BTreeMap::from([(0, theta.clone())]),
            theta,
            plan,
            steps_done: 0,
            pending: Vec::new(),
            games: 0,
            faulty_in_a_row: 0,
            timing: Timing::default(),
        }
    }

    /// Whether every step has been applied.
    pub fn finished(&self) -> bool {
        self.steps_done >= self.plan.steps()
    }

    /// Game pairs applied.
    pub fn pairs_done(&self) -> u64 {
        (self.steps_done * self.plan.pairs).min(self.plan.schedule.iterations)
    }

    /// The values step `step` is built with: those after step `step - concurrency`
    /// (the start for the first steps), kept in [`State::recent`].
    pub fn basis(&self, step: u64) -> Option<&Vec<f64>> {
        let after = (step + 1).saturating_sub(self.plan.concurrency as u64);
        self.recent.get(&after)
    }

    /// Records the values after the step just applied, and forgets those no step to come
    /// is built from.
    pub fn remember(&mut self) {
        self.recent.insert(self.steps_done, self.theta.clone());
        let oldest = (self.steps_done + 1).saturating_sub(self.plan.concurrency as u64);
        self.recent.retain(|&after, _| after >= oldest);
    }

    /// Reads and checks a state file.
    pub fn read(path: &Path) -> Result<State> {
        let size = fs::metadata(path)
            .with_context(|| format!("cannot read the tuning state {}", path.display()))?
            .len();
        ensure!(
            size <= MAX_STATE_BYTES,
            "the tuning state {} is {size} bytes, more than a state can be ({MAX_STATE_BYTES})",
            path.display()
        );
        let text = fs::read_to_string(path)
            .with_context(|| format!("cannot read the tuning state {}", path.display()))?;
        let state: State = serde_json::from_str(&text).with_context(|| {
            format!(
                "the tuning state {} is not a state this kit wrote",
                path.display()
            )
        })?;
        state.check().with_context(|| {
            format!("the tuning state {} does not hold together", path.display())
        })?;
        Ok(state)
    }

    /// Checks that the state holds together: its format, its plan, the values within
    /// their bounds, the values every step to come needs.
    pub fn check(&self) -> Result<()> {
        ensure!(
            self.format == FORMAT,
            "its format is {}, and this kit reads format {FORMAT}",
            self.format
        );
        self.plan.check()?;
        let params = &self.plan.params;
        ensure!(
            self.steps_done <= self.plan.steps(),
            "it has {} steps applied of {}",
            self.steps_done,
            self.plan.steps()
        );
        let fits = |values: &Vec<f64>| {
            values.len() == params.len()
                && values
                    .iter()
                    .zip(params)
                    .all(|(v, p)| v.is_finite() && (p.min..=p.max).contains(v))
        };
        ensure!(
            fits(&self.theta),
            "its current values do not fit the constants' bounds"
        );
        ensure!(
            self.recent.values().all(fits) && self.recent.len() <= self.plan.concurrency + 1,
            "its recent values do not fit the constants' bounds"
        );
        let in_flight = self.steps_done
            ..self
                .plan
                .steps()
                .min(self.steps_done + self.plan.concurrency as u64);
        for step in in_flight.clone() {
            ensure!(
                self.basis(step).is_some(),
                "it lacks the values step {} is built from",
                step + 1
            );
        }
        ensure!(
            self.pending.len() <= self.plan.concurrency
                && self.pending.iter().all(|p| in_flight.contains(&p.step)
                    && p.step > self.steps_done
                    && p.result.unsigned_abs() <= 2 * self.plan.pairs),
            "its waiting results are not of steps in flight"
        );
        Ok(())
    }

    /// Writes the state to `path` atomically: a reader (or a run stopped half-way through
    /// the write) sees the old state or the new, never a mix.
    pub fn write(&self, path: &Path) -> Result<()> {
        let text = serde_json::to_string_pretty(self).context("the state is not JSON")?;
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
        }
        let written = || -> std::io::Result<()> {
            let dir = path.parent().filter(|d| !d.as_os_str().is_empty());
            let mut file = tempfile::NamedTempFile::new_in(dir.unwrap_or(Path::new(".")))?;
            file.write_all(text.as_bytes())?;
            file.as_file().sync_all()?;
            file.persist(path).map(drop).map_err(|err| err.error)
        };
        written().with_context(|| format!("cannot write the tuning state {}", path.display()))
    }
}

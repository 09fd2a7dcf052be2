//! `challenge tune`: the constants of a bot marked `// tune MIN..=MAX`, tuned by SPSA
//! (simultaneous perturbation stochastic approximation) from games between two variants of
//! the bot, as fishtest tunes Stockfish's parameters.
//!
//! # The algorithm
//!
//! What fishtest does (`server/fishtest/spsa_handler.py` and `spsa_workflow.py` of
//! official-stockfish/fishtest, the classic algorithm), for a run of `N` game pairs, with
//! `θ` the current values, one per tuned constant:
//!
//! - Per constant, `c_end` (the perturbation at the end) and `r_end` (the learning rate at
//!   the end) give `c = c_end · N^γ` and `a = r_end · c_end² · (A + N)^α`.
//! - At pair `k` (from 1): `c_k = c / k^γ` and `a_k = a / (A + k)^α`, so that `c_N = c_end`
//!   and `a_N / c_N² = r_end`.
//! - `Δ` is a random `+1` or `-1` per constant. The two players are
//!   `θ+ = clamp(θ + c_k Δ)` and `θ− = clamp(θ − c_k Δ)`, each constant clamped to its
//!   mark's bounds; an integer constant is built with its value rounded.
//! - They play a pair of games from one opening, colours swapped; `result` is `θ+`'s wins
//!   minus its losses (−2 to 2).
//! - The update: `θ ← clamp(θ + a_k / c_k · result · Δ)` (fishtest's
//!   `θ + R·c·result·flip` with `R = a_k / c_k²`).
//!
//! With `--pairs P` a step plays `P` pairs with one `θ±` and updates once with their summed
//! result, using the gains of its first pair, as a fishtest worker's batch does (the build
//! of the two variants is then shared by `P` pairs); `k` still counts pairs.
//!
//! # Defaults
//!
//! | setting | default | source |
//! |---|---|---|
//! | `alpha` | 0.602 | [`spsa::ALPHA`]; Spall, fishtest |
//! | `gamma` | 0.101 | [`spsa::GAMMA`]; Spall, fishtest |
//! | `A` | a tenth of the run's pairs, rounded down | [`spsa::A_RATIO`]; fishtest's form |
//! | `c_end` | `(max − min) / 20`, at least 1 for an integer | [`spsa::C_END_PART`]; Stockfish's `TUNE()` printout; [`spsa::MIN_INTEGER_C_END`] |
//! | `r_end` | 0.002 | [`spsa::R_END`]; Stockfish's `TUNE()` printout |
//! | pairs | 500 | [`DEFAULT_ITERATIONS`] |
//! | pairs per step | 1 | [`DEFAULT_PAIRS`] |
//! | moves | `go nodes 5000`, no clock | [`DEFAULT_NODES`] |
//!
//! Fishtest's runs are tens of thousands of pairs; over a few hundred, `r_end` 0.002 moves
//! a constant by little more than its `c_end`, and a short run wants a larger one.
//!
//! # Steps at once, and the same run every time
//!
//! `concurrency` steps are played at once. Step `s` (from 0) is built from the values after
//! step `s − concurrency` (the start for the first ones) and updates are applied in step
//! order, so a run's values depend on its seed and the games alone, never on which step
//! finished first: at fixed nodes, with engines that repeat themselves, a run repeats
//! exactly. The flips `Δ` and the openings of step `s` come from a generator seeded by the
//! run's seed and `s`.
//!
//! # The state
//!
//! The state file ([`state::State`], JSON) holds the plan, the current values, the values
//! the steps in flight were built from, results that finished out of order and the time
//! spent; it is written atomically after every step, so a run stopped at any moment
//! (Ctrl-C) resumes where it was when run again.
//!
//! ```no_run
//! use std::sync::atomic::AtomicBool;
//! let request = measure::TuneRequest::new("my_bot");
//! let outcome = measure::tune(&request, &AtomicBool::new(false), &|event| eprintln!("{event}"))?;
//! print!("{}", outcome.tuned.diff);
//! # Ok::<(), anyhow::Error>(())
//! ```

mod driver;
pub mod spsa;
pub mod state;
mod step;

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::time::{SystemTime, UNIX_EPOCH};

use anyhow::{Context, Result, bail, ensure};
use sha2::{Digest, Sha256};

use bot_build::{BotFile, LimitPolicy, MarkKind, Values};
use driver::Driver;
use spsa::{Param, Schedule};
use state::{Plan, State, TuneLimit};
use step::Context as StepContext;

pub use step::Fault;

/// Game pairs in a run unless given.
pub const DEFAULT_ITERATIONS: u64 = 500;
/// Game pairs per step unless given.
pub const DEFAULT_PAIRS: u64 = 1;
/// The node limit per move unless a limit is given.
pub const DEFAULT_NODES: u64 = 5000;
/// Steps in a row with a game lost by an engine's fault before the run stops, unless
/// given.
pub const DEFAULT_MAX_FAULTY: u64 = 3;

/// What the caller asks for. Every `Option` left `None` takes its default on a fresh run
/// and the state's value on a resumed one; one that is given must agree with the state.
#[derive(Debug, Clone)]
pub struct TuneRequest {
    /// The bot: a name in `bot/` or a path (not a variant).
    pub bot: String,
    /// The state file; `None`: `target/tune/<bot>.json` in the kit.
    pub state: Option<PathBuf>,
    /// Begin anew, replacing any state.
    pub fresh: bool,
    /// Game pairs in the run, `N`.
    pub iterations: Option<u64>,
    /// Game pairs per step.
    pub pairs: Option<u64>,
    /// Steps played at once.
    pub concurrency: Option<usize>,
    /// The seed of the flips and openings (default: from the clock).
    pub seed: Option<u64>,
    /// How moves are limited.
    pub limit: Option<TuneLimit>,
    /// `c_end` overrides: for the constant named, or (`None`) for all.
    pub c_end: Vec<(Option<String>, f64)>,
    /// `r_end` overrides, like `c_end`.
    pub r_end: Vec<(Option<String>, f64)>,
    /// `A` as a fraction of the run's pairs.
    pub a_ratio: Option<f64>,
    /// Steps in a row with a fault before the run stops.
    pub max_faulty: u64,
    /// What to do with a variant over the token limit.
    pub policy: LimitPolicy,
}

impl TuneRequest {
    /// A request for `bot` with every setting left to its default.
    pub fn new(bot: &str) -> TuneRequest {
        TuneRequest {
            bot: bot.to_string(),
            state: None,
            fresh: false,
            iterations: None,
            pairs: None,
            concurrency: None,
            seed: None,
            limit: None,
            c_end: Vec::new(),
            r_end: Vec::new(),
            a_ratio: None,
            max_faulty: DEFAULT_MAX_FAULTY,
            policy: LimitPolicy::Enforce,
        }
    }
}

/// What a run reports while it runs; its `Display` is the line a person reads.
#[derive(Debug)]
pub enum TuneEvent<'a> {
    /// The run begins, or resumes after `resumed` steps.
    Began {
        /// The bot.
        bot: &'a BotFile,
        /// The run.
        plan: &'a Plan,
        /// The state file.
        state: &'a Path,
        /// Steps already applied, when resuming.
        resumed: Option<u64>,
    },
    /// A step was applied.
    Step(&'a StepReport),
    /// A game ended by an engine's fault (a crash, an illegal move, ...).
    Fault(&'a Fault),
    /// A variant's build said something (it is being compiled, a cache warning).
    Build(bot_build::BuildEvent<'a>),
}

/// A step applied: where the run stands.
#[derive(Debug, Clone, PartialEq)]
pub struct StepReport {
    /// Steps applied, this one included.
    pub steps_done: u64,
    /// Steps in the run.
    pub steps: u64,
    /// Game pairs applied.
    pub pairs_done: u64,
    /// Game pairs in the run.
    pub iterations: u64,
    /// The constants' names and their values now.
    pub values: Vec<(String, f64)>,
    /// The `plus` player's wins minus its losses in this step.
    pub result: i64,
    /// Games per second since this session began.
    pub games_per_second: f64,
}

impl std::fmt::Display for TuneEvent<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TuneEvent::Began {
                bot,
                plan,
                state,
                resumed,
            } => {
                let s = &plan.schedule;
                let limit = plan.limit.match_args().join(" ");
                match resumed {
                    Some(done) => write!(
                        f,
                        "resuming the tuning of {} ({}) after {done} of {} steps",
                        bot.name,
                        bot.origin(),
                        plan.steps()
                    )?,
                    None => write!(f, "tuning {} ({})", bot.name, bot.origin())?,
                }
                write!(
                    f,
                    ": {} game pairs, {} per step, {} steps at once, {limit}, seed {}, A {}, alpha {}, gamma {}; state in {}",
                    s.iterations,
                    plan.pairs,
                    plan.concurrency,
                    plan.seed,
                    s.big_a,
                    s.alpha,
                    s.gamma,
                    state.display()
                )?;
                for p in &plan.params {
                    write!(
                        f,
                        "\n  {} = {} in {}..={}: c_end {}, r_end {}",
                        p.name, p.start, p.min, p.max, p.c_end, p.r_end
                    )?;
                    if spsa::probes_round_together(p) {
                        write!(
                            f,
                            " (warning: an integer's variants are built with its value rounded, so with c_end under 0.5 both players mostly get the same value, their games come out even and `{}` hardly moves; give --c-end {}=1 or more)",
                            p.name, p.name
                        )?;
                    }
                }
                Ok(())
            }
            TuneEvent::Step(report) => write!(f, "{report}"),
            TuneEvent::Fault(fault) => write!(f, "{fault}"),
            TuneEvent::Build(event) => write!(f, "{event}"),
        }
    }
}

impl std::fmt::Display for StepReport {
    /// `step 12/500 pairs 12/500 KNIGHT=153.21 result +2 3.4 games/s`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "step {}/{} pairs {}/{}",
            self.steps_done, self.steps, self.pairs_done, self.iterations
        )?;
        for (name, value) in &self.values {
            write!(f, " {name}={value:.2}")?;
        }
        write!(
            f,
            " result {:+} {:.1} games/s",
            self.result, self.games_per_second
        )
    }
}

/// The tuned file written at the end.
#[derive(Debug, Clone, PartialEq)]
pub struct Tuned {
    /// `<bot>.tuned.rs` beside the bot.
    pub path: PathBuf,
    /// Each constant's name and the value written.
    pub values: Vec<(String, String)>,
    /// A unified diff of the bot against the tuned file (changed lines only).
    pub diff: String,
}

/// How a run ended.
#[derive(Debug, Clone)]
pub struct TuneOutcome {
    /// The bot tuned.
    pub bot: BotFile,
    /// The state as written last.
    pub state: State,
    /// Whether the run was stopped (by the caller's flag) before its last step.
    pub stopped: bool,
    /// The tuned file.
    pub tuned: Tuned,
    /// The `challenge match` arguments that test the tuned file against the bot with an
    /// SPRT at the run's limit (after `challenge`).
    pub sprt_command: Vec<String>,
}

/// Tunes the bot `request` names: resumes its state or begins one, plays the steps left
/// until the run ends or `stop` is set, and writes the tuned file.
///
/// Errors: a bot with no `tune` mark, a value outside its mark, a variant that does not
/// build or breaks a rule, an engine's faults in [`TuneRequest::max_faulty`] steps in a row,
/// a state that belongs to another bot or run. The state is kept in every case.
pub fn run(
    request: &TuneRequest,
    stop: &AtomicBool,
    observe: &(dyn Fn(TuneEvent<'_>) + Sync),
) -> Result<TuneOutcome> {
    let bot = tunable_bot(&request.bot, request.policy)?;
    let source = token_counter::read_source(&bot.path)?;
    let params = params(&bot, &source, request)?;
    let state_path = request
        .state
        .clone()
        .unwrap_or_else(|| default_state_path(&bot));
    let _lock = lock_state(&state_path, "challenge tune")?;
    let hash = sha256_hex(source.as_bytes());
    let resume = state_path.exists() && !request.fresh;
    let mut state = if resume {
        resumed(&state_path, &bot, &hash, &params, request)?
    } else {
        State::new(bot.path.display().to_string(), hash, plan(request, params)?)
    };
    state.write(&state_path)?;
    observe(TuneEvent::Began {
        bot: &bot,
        plan: &state.plan,
        state: &state_path,
        resumed: resume.then_some(state.steps_done),
    });
    let ctx = StepContext::new(&bot, &source, &state.plan, request.policy)?;
    let stopped = if state.finished() {
        false
    } else {
        let driver = Driver {
            ctx: &ctx,
            path: &state_path,
            max_faulty: request.max_faulty,
            observe,
        };
        driver.drive(&mut state, stop)?
    };
    let tuned = write_tuned(&bot, &source, &state)?;
    let sprt_command = sprt_command(&tuned.path, &bot.path, &state.plan.limit);
    Ok(TuneOutcome {
        bot,
        state,
        stopped,
        tuned,
        sprt_command,
    })
}

/// The bot to tune: a bot file (a variant has no marks of its own to tune), within the rules.
fn tunable_bot(spec: &str, policy: LimitPolicy) -> Result<BotFile> {
    let bot = bot_build::resolve(spec)?;
    ensure!(
        !bot.name.contains('@'),
        "`{spec}` is a variant: tune the bot file itself; its `// tune` marks are the parameters"
    );
    bot_build::check(&bot, policy)?;
    Ok(bot)
}

/// The bot's `tune` marks as parameters, with the request's `c_end` and `r_end`.
fn params(bot: &BotFile, source: &str, request: &TuneRequest) -> Result<Vec<Param>> {
    let marks = bot_build::marks(source)
        .with_context(|| format!("cannot read the marks of {}", bot.path.display()))?;
    let mut params = Vec::new();
    for mark in marks.iter().filter(|m| m.kind == MarkKind::Tune) {
        let (min, max) = match mark.values {
            Values::Ints { min, max, .. } => (min as f64, max as f64),
            Values::Floats { min, max } => (min, max),
            Values::List(_) => continue,
        };
        let start = match mark.current {
            bot_build::Value::Int(n) => n as f64,
            bot_build::Value::Float(x) => x,
            _ => bail!(
                "`{}` (line {}) is not a number: only numbers are tuned",
                mark.name,
                mark.line
            ),
        };
        let pick = |overrides: &[(Option<String>, f64)], default: f64| {
            overrides
                .iter()
                .rev()
                .find(|(name, _)| name.as_deref().is_none_or(|n| n == mark.name))
                .map_or(default, |(_, value)| *value)
        };
        let param = Param {
            name: mark.name.clone(),
            min,
            max,
            start,
            integer: mark.is_integer(),
            c_end: pick(
                &request.c_end,
                spsa::default_c_end(min, max, mark.is_integer()),
            ),
            r_end: pick(&request.r_end, spsa::R_END),
        };
        state::check_param(&param)
            .with_context(|| format!("cannot tune {}", bot.path.display()))?;
        params.push(param);
    }
    ensure!(
        !params.is_empty(),
        "{} has no `// tune MIN..=MAX` mark: mark each constant to tune with a comment on its line, e.g. `const KNIGHT: i32 = 300; // tune 200..=400`",
        bot.path.display()
    );
    for (name, _) in request.c_end.iter().chain(&request.r_end) {
        if let Some(name) = name {
            ensure!(
                params.iter().any(|p| &p.name == name),
                "`{name}` is not a tuned constant of {} (tuned: {})",
                bot.path.display(),
                params
                    .iter()
                    .map(|p| p.name.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            );
        }
    }
    Ok(params)
}

/// A fresh run's plan.
fn plan(request: &TuneRequest, params: Vec<Param>) -> Result<Plan> {
    let iterations = request.iterations.unwrap_or(DEFAULT_ITERATIONS);
    let a_ratio = request.a_ratio.unwrap_or(spsa::A_RATIO);
    ensure!(
        a_ratio.is_finite() && (0.0..=10.0).contains(&a_ratio),
        "the A ratio must be from 0 to 10, not {a_ratio}"
    );
    let plan = Plan {
        schedule: Schedule::fishtest(iterations, a_ratio),
        pairs: request.pairs.unwrap_or(DEFAULT_PAIRS),
        concurrency: request
            .concurrency
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())),
        seed: request.seed.unwrap_or_else(|| {
            SystemTime::now()
                .duration_since(UNIX_EPOCH)
                .map_or(0, |d| d.as_nanos() as u64)
        }),
        limit: request
            .limit
            .clone()
            .unwrap_or(TuneLimit::Nodes(DEFAULT_NODES)),
        params,
    };
    plan.check()?;
    Ok(plan)
}

/// The state at `path`, checked against the bot and the request.
fn resumed(
    path: &Path,
    bot: &BotFile,
    hash: &str,
    params: &[Param],
    request: &TuneRequest,
) -> Result<State> {
    let state = State::read(path)?;
    let again = "run with --fresh to begin anew (the state is replaced), or give another --state";
    ensure!(
        Path::new(&state.bot) == bot.path,
        "the tuning state {} is of {}, not {}: {again}",
        path.display(),
        state.bot,
        bot.path.display()
    );
    ensure!(
        state.source_sha256 == hash,
        "{} changed since its tuning began (the state {} holds the source it began with): {again}",
        bot.path.display(),
        path.display()
    );
    let differ = differences(&state.plan, params, request);
    ensure!(
        differ.is_empty(),
        "the tuning state {} was begun with other settings: {}; resume without them, or {again}",
        path.display(),
        differ.join(", ")
    );
    Ok(state)
}

/// The settings the request gives that differ from the plan's, as `--option X (state: Y)`.
fn differences(plan: &Plan, params: &[Param], request: &TuneRequest) -> Vec<String> {
    let mut differ = Vec::new();
    let mut compare = |option: &str, given: Option<String>, kept: String| {
        if let Some(given) = given.filter(|g| *g != kept) {
            differ.push(format!("{option} {given} (state: {kept})"));
        }
    };
    let s = &plan.schedule;
    compare(
        "--iterations",
        request.iterations.map(|n| n.to_string()),
        s.iterations.to_string(),
    );
    compare(
        "--pairs",
        request.pairs.map(|n| n.to_string()),
        plan.pairs.to_string(),
    );
    compare(
        "-j",
        request.concurrency.map(|n| n.to_string()),
        plan.concurrency.to_string(),
    );
    compare(
        "--seed",
        request.seed.map(|n| n.to_string()),
        plan.seed.to_string(),
    );
    compare(
        "--a-ratio (A)",
        request
            .a_ratio
            .map(|r| (r * s.iterations as f64).floor().to_string()),
        s.big_a.to_string(),
    );
    compare(
        "limit",
        request.limit.as_ref().map(|l| l.match_args().join(" ")),
        plan.limit.match_args().join(" "),
    );
    for (now, then) in params.iter().zip(&plan.params) {
        let named = |list: &[(Option<String>, f64)]| {
            list.iter()
                .any(|(n, _)| n.as_deref().is_none_or(|n| n == now.name))
        };
        if named(&request.c_end) {
            compare(
                &format!("--c-end {}", now.name),
                Some(now.c_end.to_string()),
                then.c_end.to_string(),
            );
        }
        if named(&request.r_end) {
            compare(
                &format!("--r-end {}", now.name),
                Some(now.r_end.to_string()),
                then.r_end.to_string(),
            );
        }
    }
    differ
}

/// `target/tune/<bot>.json` in the current directory ([`bot_build::work_target_dir`]).
pub fn default_state_path(bot: &BotFile) -> PathBuf {
    bot_build::work_target_dir()
        .join("tune")
        .join(format!("{}.json", bot.name))
}

/// Holds the state's lock file for the run of `command`: two runs on one state would undo
/// each other's work.
pub(crate) fn lock_state(path: &Path, command: &str) -> Result<fs::File> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    }
    let lock_path = path.with_extension("lock");
    let lock = fs::File::create(&lock_path)
        .with_context(|| format!("cannot create {}", lock_path.display()))?;
    match lock.try_lock() {
        Ok(()) => Ok(lock),
        Err(fs::TryLockError::WouldBlock) => bail!(
            "another `{command}` is using the state {} (it holds {})",
            path.display(),
            lock_path.display()
        ),
        Err(fs::TryLockError::Error(err)) => {
            Err(err).with_context(|| format!("cannot lock {}", lock_path.display()))
        }
    }
}

pub(crate) fn sha256_hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// `<stem>.tuned.rs` beside the bot; for a bot bundled with the kit
/// ([`BotFile::origin`] says so), in the current directory's `bot/` instead, where the
/// name `<stem>.tuned` finds it and the kit's checkout stays as it was.
pub fn tuned_path(bot: &BotFile) -> PathBuf {
    let stem = bot
        .path
        .file_stem()
        .map_or_else(|| "bot".into(), |s| s.to_string_lossy().into_owned());
    let file = format!("{stem}.tuned.rs");
    if bot_build::is_bundled(&bot.path) {
        bot_build::local_bot_dir().join(file)
    } else {
        bot.path.with_file_name(file)
    }
}

/// Writes the bot with its tuned constants set to the current values (rounded for
/// integers), and the diff.
fn write_tuned(bot: &BotFile, source: &str, state: &State) -> Result<Tuned> {
    let values: Vec<(String, String)> = state
        .plan
        .params
        .iter()
        .zip(&state.theta)
        .map(|(p, &t)| (p.name.clone(), spsa::value_text(p, t)))
        .collect();
    let text = bot_build::apply(source, &values)
        .with_context(|| format!("cannot set the tuned values in {}", bot.path.display()))?;
    let path = tuned_path(bot);
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    }
    let partial = path.with_extension(format!("rs.{}.partial", std::process::id()));
    fs::write(&partial, &text)
        .and_then(|()| fs::rename(&partial, &path))
        .with_context(|| format!("cannot write the tuned bot {}", path.display()))?;
    let diff = similar::TextDiff::from_lines(source, &text)
        .unified_diff()
        .context_radius(0)
        .header(&bot.path.display().to_string(), &path.display().to_string())
        .to_string();
    Ok(Tuned { path, values, diff })
}

/// `match TUNED BOT LIMIT --sprt ...`: the tuned file against the bot at the run's limit.
fn sprt_command(tuned: &Path, bot: &Path, limit: &TuneLimit) -> Vec<String> {
    let mut args = vec![
        "match".to_string(),
        tuned.display().to_string(),
        bot.display().to_string(),
    ];
    args.extend(limit.match_args());
    args.extend(
        [
            "--games",
            "20000",
            "--sprt",
            "elo0=0",
            "elo1=10",
            "alpha=0.05",
            "beta=0.05",
        ]
        .map(String::from),
    );
    args
}

#[cfg(test)]
mod tests;

//! `challenge bench`: a fixed set of positions searched by an engine to a fixed limit,
//! with the nodes, time, speed and a signature of the search (as engine authors expect
//! from `bench`), and EPD test suites scored by the moves the engine plays.
//!
//! The engine is a real UCI process (a built bot or any external engine): the bench sends
//! the limit in `go` (`go depth N`, `go nodes N` or `go movetime MS`) and reads what the
//! engine says it did from its own `info ... nodes N` lines. The time is the runner's,
//! from writing `go` to reading `bestmove`, so it includes the protocol's cost (small
//! next to any real search).
//!
//! Each search also keeps the engine's `info depth D ... nodes N` lines, one per
//! iteration ([`depths`]): what each extra ply cost, and the effective branching factor.
//!
//! - [`epd`]: reading EPD records (`bm`, `am`, `id`).
//! - [`run_bench`]: any positions (the fixed [`bench_positions`], or a suite's), each
//!   from `ucinewgame` ([`Mode::Independent`]) or game by game ([`Mode::Sequence`], see
//!   [`sequence`]), and the run's signature.
//! - [`suite`]: a test suite's solve rate.
//! - [`export`]: a run as CSV or JSON.

pub mod depths;
pub mod epd;
pub mod export;
pub mod sequence;
pub mod suite;

use std::fmt;
use std::time::Duration;

use anyhow::{Context, Result, bail};
use framework::chess::{Board, Move};
use runner::{Engine, EngineConfig, EngineError, GoParams};
use sha2::{Digest, Sha256};

use depths::Iterations;
use epd::{EpdRecord, read_epd};
use sequence::SplitGame;

/// The bench positions, compiled in so that every copy of the kit benches the same ones
/// (`suites/bench.epd` in the kit, where their source is noted).
pub const BENCH_EPD: &str = include_str!("../../../suites/bench.epd");

/// The fixed positions `challenge bench` searches, in order.
///
/// ```
/// let positions = measure::bench_positions().unwrap();
/// assert_eq!(positions.len(), 30);
/// assert!(positions[0].id.starts_with("bench.01"));
/// ```
pub fn bench_positions() -> Result<Vec<EpdRecord>> {
    let file = read_epd(BENCH_EPD);
    if let Some(err) = file.errors.first() {
        bail!("suites/bench.epd, {err}");
    }
    Ok(file.records)
}

/// How far the engine searches each position: what goes into `go`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BenchLimit {
    /// `go depth N`: plies.
    Depth(u32),
    /// `go nodes N`.
    Nodes(u64),
    /// `go movetime MS`: milliseconds.
    MoveTime(u64),
}

impl BenchLimit {
    /// The `go` parameters for this limit.
    ///
    /// ```
    /// use measure::BenchLimit;
    /// assert_eq!(BenchLimit::Nodes(5000).go().command(), "go nodes 5000");
    /// assert_eq!(BenchLimit::Depth(6).go().command(), "go depth 6");
    /// ```
    pub fn go(self) -> GoParams {
        let mut go = GoParams::default();
        match self {
            BenchLimit::Depth(depth) => go.depth = Some(depth),
            BenchLimit::Nodes(nodes) => go.nodes = Some(nodes),
            BenchLimit::MoveTime(ms) => go.movetime = Some(ms),
        }
        go
    }

    /// Whether a deterministic engine searches the same tree every run under this limit
    /// (a time limit depends on the machine's speed and load).
    pub fn is_reproducible(self) -> bool {
        !matches!(self, BenchLimit::MoveTime(_))
    }
}

impl fmt::Display for BenchLimit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BenchLimit::Depth(depth) => write!(f, "depth {depth}"),
            BenchLimit::Nodes(nodes) => write!(f, "{nodes} nodes"),
            BenchLimit::MoveTime(ms) => write!(f, "{ms} ms per move"),
        }
    }
}

/// What one search produced.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Searched {
    /// The `bestmove` text as the engine sent it.
    pub bestmove: String,
    /// That move, when it is legal in the position.
    pub legal_move: Option<Move>,
    /// The last `info ... nodes N` (`None`: the engine reported no node count).
    pub nodes: Option<u64>,
    /// The last `info depth N`.
    pub depth: Option<u32>,
    /// Each iteration's cumulative node count, from the `info` lines with both.
    pub iterations: Iterations,
    /// From writing `go` to reading `bestmove`.
    pub elapsed: Duration,
}

/// A UCI engine to search positions with, restarted after a crash or a hang so one bad
/// position does not end the run.
pub struct Searcher {
    config: EngineConfig,
    engine: Option<Engine>,
    id_name: String,
    /// How long a search may take past its own limit before the engine counts as hung.
    pub timeout: Duration,
}

/// How long the engine has for the handshake and `isready`.
const HANDSHAKE: Duration = Duration::from_secs(30);

impl Searcher {
    /// Starts the engine (the UCI handshake must succeed, or this is an error). An option
    /// of the config that the engine does not declare is an error naming the ones it
    /// does: an engine ignores (or merely mentions) an option it lacks, and a bench run
    /// with a misspelt option would measure the default without a word.
    pub fn start(config: EngineConfig, timeout: Duration) -> Result<Searcher> {
        let engine = Engine::start(&config, HANDSHAKE)
            .with_context(|| format!("cannot start engine `{}`", config.name))?;
        let declared = engine.declared_options().to_vec();
        for (name, _) in &config.options {
            if !declared.iter().any(|d| d.eq_ignore_ascii_case(name)) {
                engine.kill();
                bail!(
                    "engine `{}` has no option `{name}`; it declares: {}",
                    config.name,
                    if declared.is_empty() {
                        "none".to_string()
                    } else {
                        declared.join(", ")
                    }
                );
            }
        }
        let id_name = engine.id_name().unwrap_or(&config.name).to_string();
        Ok(Searcher {
            config,
            engine: Some(engine),
            id_name,
            timeout,
        })
    }

    /// The engine's `id name` (or its configured name when it sent none).
    pub fn id_name(&self) -> &str {
        &self.id_name
    }

    /// Searches `board` from a fresh game (`ucinewgame` first, so each position's result
    /// does not depend on the ones before it). An error is the engine's failure, said in
    /// words; the engine is restarted for the next search.
    pub fn search(&mut self, board: &Board, limit: BenchLimit) -> Result<Searched, String> {
        self.search_in_game(board, limit, true)
    }

    /// Searches `board` as the next position of the game in progress (`new_game`
    /// false: no `ucinewgame`, so the engine keeps what it learnt) or of a new game.
    /// After a failure the engine is restarted, so the next search starts afresh either
    /// way.
    pub fn search_in_game(
        &mut self,
        board: &Board,
        limit: BenchLimit,
        new_game: bool,
    ) -> Result<Searched, String> {
        let result = self.try_search(board, limit, new_game);
        if result.is_err()
            && let Some(engine) = self.engine.take()
        {
            engine.kill();
        }
        result.map_err(|err| err.explained())
    }

    fn try_search(
        &mut self,
        board: &Board,
        limit: BenchLimit,
        new_game: bool,
    ) -> Result<Searched, EngineError> {
        let engine = match &mut self.engine {
            Some(engine) => engine,
            None => self.engine.insert(Engine::start(&self.config, HANDSHAKE)?),
        };
        if new_game {
            engine.new_game(HANDSHAKE)?;
        }
        let position = format!("position fen {}", board.fen());
        let deadline = match limit {
            BenchLimit::MoveTime(ms) => Duration::from_millis(ms) + self.timeout,
            _ => self.timeout,
        };
        let mut iterations = Iterations::default();
        let result =
            engine.search_observed(Some(&position), &limit.go(), deadline, &mut |line| {
                iterations.observe(line);
            })?;
        Ok(Searched {
            legal_move: board.parse_uci(&result.bestmove).ok(),
            bestmove: result.bestmove,
            nodes: result.info.nodes,
            depth: result.info.depth,
            iterations,
            elapsed: result.elapsed,
        })
    }

    /// Ends the engine with `quit`.
    pub fn quit(mut self) {
        if let Some(engine) = self.engine.take() {
            engine.quit(Duration::from_secs(1));
        }
    }
}

/// One position of a bench run.
#[derive(Debug, Clone)]
pub struct BenchRow {
    /// The position's `id`.
    pub id: String,
    /// Its game in [`Mode::Sequence`] (`None`: a game of its own, or the independent mode).
    pub game: Option<String>,
    /// The search, or why the engine gave none.
    pub result: Result<Searched, String>,
}

/// A whole bench run.
#[derive(Debug, Clone)]
pub struct BenchReport {
    /// One row per position, in order.
    pub rows: Vec<BenchRow>,
}

impl BenchReport {
    /// The nodes of every search that reported them.
    pub fn total_nodes(&self) -> u64 {
        self.searches().filter_map(|s| s.nodes).sum()
    }

    /// Whether every search reported its node count.
    pub fn all_nodes_reported(&self) -> bool {
        self.rows
            .iter()
            .all(|row| row.result.as_ref().is_ok_and(|s| s.nodes.is_some()))
    }

    /// The searches' time added up.
    pub fn total_time(&self) -> Duration {
        self.searches().map(|s| s.elapsed).sum()
    }

    /// Nodes per second over the searches that reported nodes.
    pub fn nodes_per_second(&self) -> Option<f64> {
        let (nodes, time) = self
            .searches()
            .filter_map(|s| Some((s.nodes?, s.elapsed)))
            .fold((0u64, Duration::ZERO), |(n, t), (nodes, elapsed)| {
                (n + nodes, t + elapsed)
            });
        (time > Duration::ZERO && nodes > 0).then(|| nodes as f64 / time.as_secs_f64())
    }

    /// Positions where the engine failed.
    pub fn failures(&self) -> usize {
        self.rows.iter().filter(|row| row.result.is_err()).count()
    }

    /// A short hash of every position's best move, node count and depth: with a fixed
    /// depth or node limit and a deterministic engine, the same on every run and machine,
    /// and different as soon as the search visits a different tree.
    ///
    /// ```
    /// use std::time::Duration;
    /// use measure::{BenchReport, BenchRow, Searched};
    /// let row = |nodes| BenchRow { id: "p".into(), game: None, result: Ok(Searched {
    ///     bestmove: "e2e4".into(), legal_move: None, nodes: Some(nodes), depth: Some(3),
    ///     iterations: Default::default(), elapsed: Duration::from_millis(nodes) }) };
    /// let a = BenchReport { rows: vec![row(100)] };
    /// let b = BenchReport { rows: vec![row(101)] };
    /// assert_ne!(a.signature(), b.signature());
    /// assert_eq!(a.signature().len(), 16);
    /// ```
    pub fn signature(&self) -> String {
        let mut hasher = Sha256::new();
        for row in &self.rows {
            let text = match &row.result {
                Ok(s) => format!(
                    "{}|{}|{}|{}\n",
                    row.id,
                    s.bestmove,
                    s.nodes.map_or("-".into(), |n| n.to_string()),
                    s.depth.map_or("-".into(), |d| d.to_string()),
                ),
                Err(_) => format!("{}|error\n", row.id),
            };
            hasher.update(text.as_bytes());
        }
        hasher.finalize()[..8]
            .iter()
            .map(|byte| format!("{byte:02x}"))
            .collect()
    }

    /// The run's depth table ([`depths`]): one row per depth any search reported.
    pub fn depth_table(&self) -> Vec<depths::DepthRow> {
        depths::depth_table(self.searches().map(|s| &s.iterations))
    }

    fn searches(&self) -> impl Iterator<Item = &Searched> {
        self.rows.iter().filter_map(|row| row.result.as_ref().ok())
    }
}

/// How the positions of a run follow each other.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// Each position from `ucinewgame`: its result does not depend on the others.
    Independent,
    /// Game by game, as in play ([`sequence`]): `ucinewgame` only where a game begins.
    Sequence,
}

/// Searches every position to `limit`, in order, calling `on_row` as each one finishes.
/// In [`Mode::Sequence`] the games are checked first ([`sequence::games`]), so a file
/// whose games are split fails before any search.
pub fn run_bench(
    searcher: &mut Searcher,
    positions: &[EpdRecord],
    limit: BenchLimit,
    mode: Mode,
    mut on_row: impl FnMut(usize, &BenchRow),
) -> Result<BenchReport, SplitGame> {
    let games = match mode {
        Mode::Independent => vec![None; positions.len()],
        Mode::Sequence => sequence::games(positions)?,
    };
    let mut rows: Vec<BenchRow> = Vec::with_capacity(positions.len());
    for (index, (position, game)) in positions.iter().zip(games).enumerate() {
        let new_game = mode == Mode::Independent
            || game.is_none()
            || rows.last().is_none_or(|last| last.game != game);
        let row = BenchRow {
            id: position.id.clone(),
            result: searcher.search_in_game(&position.board, limit, new_game),
            game,
        };
        on_row(index, &row);
        rows.push(row);
    }
    Ok(BenchReport { rows })
}

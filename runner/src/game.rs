//! One game between two engine processes, refereed by the framework's [`Board`].
//!
//! The engines only propose moves; the board decides whether they are legal and when
//! the game is over. Every way an engine can misbehave ends the game with a result and
//! a [`Termination`] naming the cause, never with an error.

use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use framework::chess::{Board, Color, DrawReason, Move, MoveError, Outcome};
use framework::notation::pgn::{GameResult, PgnGame};
use framework::uci::{CONSTRUCTION_LIMIT, SEED};

use super::adjudication::{AdjudicationRules, Adjudicator, Ruling, can_possibly_mate};
use super::clock::{Clock, TimeControl};
use super::engine::{
    Engine, EngineConfig, EngineError, GoParams, SearchInfo, SearchResult, memory_text,
};
use super::host_detail::HostDetail;
use super::observer::{MoveObserver, MoveUpdate};
use super::openings::Opening;
use super::pv_check::PvCheck;
use super::text::{MAX_DETAIL_CHARS, one_line};

/// One participant: how to start its engine and the time control it plays under.
///
/// ```
/// use runner::{EngineConfig, Player, TimeControl};
/// let p = Player::new(EngineConfig::new("sf", "stockfish"), "10+0.1".parse().unwrap());
/// assert_eq!(p.name(), "sf");
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Player {
    /// The engine to run.
    pub engine: EngineConfig,
    /// Its time control.
    pub tc: TimeControl,
}

impl Player {
    /// A player from an engine and a time control.
    pub fn new(engine: EngineConfig, tc: TimeControl) -> Player {
        Player { engine, tc }
    }

    /// The player's name.
    pub fn name(&self) -> &str {
        &self.engine.name
    }
}

/// Everything about how games are run that is not the players or the opening.
///
/// ```
/// use runner::GameSettings;
/// let s = GameSettings::default();
/// assert_eq!(s.margin.as_millis(), 100);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GameSettings {
    /// Time an engine may overstep its clock before it loses on time (pipes and scheduling
    /// are not free).
    pub margin: Duration,
    /// How long to wait for `bestmove` when only nodes or depth limit the search.
    pub untimed_deadline: Duration,
    /// How long past its clock and margin the runner still waits for a `bestmove`: an answer
    /// in that window loses on time ([`Termination::TimeForfeit`]) but the engine is kept;
    /// silence beyond it is a [`Termination::Stall`] and the process is replaced.
    pub stall_grace: Duration,
    /// How long to wait for `uciok` / `readyok`.
    pub handshake_timeout: Duration,
    /// The longest an engine may take to answer `isready` when a game is prepared (a bot
    /// is constructed then); longer forfeits the game with [`Termination::ConstructionLimit`].
    /// `None` for engines that are not bots and may take their time (e.g. loading tables).
    pub construction_limit: Option<Duration>,
    /// Score-based and length adjudication.
    pub adjudication: AdjudicationRules,
    /// This game's seed, told before `ucinewgame` to each engine that announces the kit's
    /// UCI option `Seed` (a kit engine seeds its bot's `Random::new()` with it, so a game
    /// with the same seed makes the same random choices); other engines never get it.
    pub engine_seed: Option<u64>,
}

impl Default for GameSettings {
    fn default() -> Self {
        GameSettings {
            margin: Duration::from_millis(100),
            untimed_deadline: Duration::from_secs(60),
            stall_grace: Duration::from_secs(1),
            // Bot construction happens at the first `isready` and may take up to the
            // construction limit by the rules; twice that leaves room for a loaded machine.
            handshake_timeout: CONSTRUCTION_LIMIT * 2,
            construction_limit: Some(CONSTRUCTION_LIMIT),
            adjudication: AdjudicationRules::default(),
            engine_seed: None,
        }
    }
}

/// Why a game ended. In PGN the `Termination` tag holds the standard's
/// value ([`Termination::pgn_value`]) and the kit's own
/// [`TERMINATION_DETAILS_TAG`] holds the precise cause ([`Termination::tag`]).
///
/// ```
/// use runner::Termination;
/// assert_eq!(Termination::Crash.tag(), "crash");
/// assert_eq!(Termination::Crash.pgn_value(), "abandoned");
/// assert_eq!(Termination::MemoryLimit.to_string(), "memory limit");
/// ```
// `VariantArray` makes `Termination::ALL`, so no hand-kept list can miss a variant.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, strum::VariantArray)]
pub enum Termination {
    /// Checkmate on the board.
    Checkmate,
    /// Stalemate on the board.
    Stalemate,
    /// Threefold repetition.
    Repetition,
    /// Fifty-move rule.
    FiftyMoves,
    /// Neither side has mating material.
    InsufficientMaterial,
    /// A `bestmove` came after the clock (plus margin) ran out.
    TimeForfeit,
    /// No `bestmove` at all by the time the clock (plus margin) ran out.
    Stall,
    /// A well-formed move that is not legal.
    IllegalMove,
    /// No move (`bestmove 0000`, a kit bot's `think` returning `Move::NULL`) although the
    /// side to move has legal moves.
    NullMove,
    /// A `bestmove` that is not a move at all.
    UnparsableMove,
    /// The engine process died (panic, signal, unexpected exit).
    Crash,
    /// The engine exceeded its memory limit (the challenge's 256 MiB, or the allowance
    /// it was built with).
    MemoryLimit,
    /// The engine could not be started or did not complete the UCI handshake.
    FailedStart,
    /// Constructing the bot (answering `isready` when the game was prepared) took longer
    /// than the construction limit.
    ConstructionLimit,
    /// The engine broke the protocol beyond what the runner tolerates (e.g. a line longer
    /// than [`MAX_LINE_BYTES`](crate::MAX_LINE_BYTES)).
    ProtocolViolation,
    /// Drawn by score adjudication.
    AdjudicatedDraw,
    /// Lost by score adjudication.
    AdjudicatedResign,
    /// Drawn for reaching the maximum game length.
    MaxLength,
    /// The match was stopped while the game was in progress (no result).
    Interrupted,
}

/// The PGN tag that keeps a game's precise [`Termination`] beside the
/// standard `Termination` tag, whose values are too coarse to tell a crash
/// from a failed start.
pub const TERMINATION_DETAILS_TAG: &str = "TerminationDetails";

impl Termination {
    /// The value of the PGN standard's `Termination` tag (section 9.8.1):
    /// `normal` for an end on the board, `time forfeit` for a flag or a
    /// stall, `rules infraction` for an illegal or unreadable move and for
    /// breaking the challenge's limits (memory, construction, protocol),
    /// `abandoned` for an engine that crashed or never started (as cutechess
    /// and fastchess mark a disconnection), `adjudication` for the runner's
    /// adjudications and its game-length limit, `unterminated` for a game
    /// the match stopped.
    ///
    /// ```
    /// use runner::Termination;
    /// assert_eq!(Termination::Checkmate.pgn_value(), "normal");
    /// assert_eq!(Termination::Stall.pgn_value(), "time forfeit");
    /// assert_eq!(Termination::IllegalMove.pgn_value(), "rules infraction");
    /// assert_eq!(Termination::MaxLength.pgn_value(), "adjudication");
    /// ```
    pub const fn pgn_value(self) -> &'static str {
        match self {
            Termination::Checkmate
            | Termination::Stalemate
            | Termination::Repetition
            | Termination::FiftyMoves
            | Termination::InsufficientMaterial => "normal",
            Termination::TimeForfeit | Termination::Stall => "time forfeit",
            Termination::IllegalMove
            | Termination::NullMove
            | Termination::UnparsableMove
            | Termination::MemoryLimit
            | Termination::ConstructionLimit
            | Termination::ProtocolViolation => "rules infraction",
            Termination::Crash | Termination::FailedStart => "abandoned",
            Termination::AdjudicatedDraw
            | Termination::AdjudicatedResign
            | Termination::MaxLength => "adjudication",
            Termination::Interrupted => "unterminated",
        }
    }

    /// The kit's precise name for the termination, written to the PGN tag
    /// [`TERMINATION_DETAILS_TAG`] and kept by the challenge's store.
    pub const fn tag(self) -> &'static str {
        match self {
            Termination::Checkmate => "checkmate",
            Termination::Stalemate => "stalemate",
            Termination::Repetition => "threefold repetition",
            Termination::FiftyMoves => "fifty-move rule",
            Termination::InsufficientMaterial => "insufficient material",
            Termination::TimeForfeit => "time forfeit",
            Termination::Stall => "stall",
            Termination::IllegalMove => "illegal move",
            Termination::NullMove => "null move",
            Termination::UnparsableMove => "unparsable move",
            Termination::Crash => "crash",
            Termination::MemoryLimit => "memory limit",
            Termination::FailedStart => "failed to start",
            Termination::ConstructionLimit => "construction limit",
            Termination::ProtocolViolation => "protocol violation",
            Termination::AdjudicatedDraw => "adjudication: draw",
            Termination::AdjudicatedResign => "adjudication: resign",
            Termination::MaxLength => "max game length",
            Termination::Interrupted => "interrupted",
        }
    }

    /// `true` for endings caused by an engine misbehaving.
    pub const fn is_fault(self) -> bool {
        matches!(
            self,
            Termination::TimeForfeit
                | Termination::Stall
                | Termination::IllegalMove
                | Termination::NullMove
                | Termination::UnparsableMove
                | Termination::Crash
                | Termination::MemoryLimit
                | Termination::FailedStart
                | Termination::ConstructionLimit
                | Termination::ProtocolViolation
        )
    }
}

impl fmt::Display for Termination {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.tag())
    }
}

/// One move an engine played, with what it said about it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlayedMove {
    /// The move.
    pub mv: Move,
    /// Depth, score and nodes from the engine's last `info` (the PV is not kept).
    pub info: SearchInfo,
    /// Whether the last PV it reported started with this move.
    pub pv: PvCheck,
    /// Time from `go` to `bestmove`, measured by the runner.
    pub elapsed: Duration,
}

/// A finished (or interrupted) game.
#[derive(Debug, Clone)]
pub struct GameRecord {
    /// White's player name.
    pub white: String,
    /// Black's player name.
    pub black: String,
    /// White's and Black's time controls.
    pub time_controls: [TimeControl; 2],
    /// The opening the game started from.
    pub opening: Opening,
    /// The moves the engines played after the book moves.
    pub moves: Vec<PlayedMove>,
    /// The result (`Unknown` only when interrupted).
    pub result: GameResult,
    /// Why it ended.
    pub termination: Termination,
    /// A sentence explaining the ending, naming the engine for faults.
    pub detail: String,
    /// The side whose engine misbehaved, if any.
    pub faulty: Option<Color>,
    /// The last stderr lines of the misbehaving engine.
    pub stderr: Vec<String>,
    /// When an engine's fault ended the game: the clocks and the turn it ended in.
    pub fault_clock: Option<FaultClock>,
}

/// The clocks when an engine's fault ended a game, and the turn it ended in: with the
/// engine's stderr, what a challenge keeps as the evidence of an ending its moves cannot
/// show.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FaultClock {
    /// Each side's time left when the turn began, White's first (`None`: no clock).
    pub left: [Option<Duration>; 2],
    /// How long the turn lasted until the fault: the search until its answer, the
    /// engine's death or the deadline; before the first move, the engines' start.
    pub turn: Duration,
    /// Whether the fault came before the engines were asked for a move (starting,
    /// constructing the bot).
    pub at_start: bool,
    /// The faulty engine's answer (its `bestmove` word), when that answer was the fault.
    pub answer: Option<String>,
}

impl GameRecord {
    /// A record with no moves yet (result `*`, `Interrupted` until the game ends).
    fn start(players: [&Player; 2], opening: &Opening) -> GameRecord {
        GameRecord {
            white: players[0].name().to_string(),
            black: players[1].name().to_string(),
            time_controls: [players[0].tc, players[1].tc],
            opening: opening.clone(),
            moves: Vec::new(),
            result: GameResult::Unknown,
            termination: Termination::Interrupted,
            detail: String::new(),
            faulty: None,
            stderr: Vec::new(),
            fault_clock: None,
        }
    }

    /// The score for White: 1, ½ or 0 (`None` when unfinished).
    pub fn white_score(&self) -> Option<f64> {
        match self.result {
            GameResult::WhiteWins => Some(1.0),
            GameResult::BlackWins => Some(0.0),
            GameResult::Draw => Some(0.5),
            GameResult::Unknown => None,
        }
    }

    /// Total plies, book moves included.
    pub fn ply_count(&self) -> usize {
        self.opening.moves.len() + self.moves.len()
    }

    /// The game as PGN, with the standard tags (the caller adds `Event`, `Site`,
    /// `Date` and `Round`), `Termination` and [`TERMINATION_DETAILS_TAG`], `PlyCount`, `TimeControl` (or `WhiteTimeControl`
    /// and `BlackTimeControl` when they differ) and a comment per move:
    /// `book`, or score/depth and time as `+0.35/12 0.123s`.
    pub fn to_pgn(&self) -> PgnGame {
        let mut game = PgnGame::from_position(self.opening.start.clone());
        game.set_tag("White", &self.white);
        game.set_tag("Black", &self.black);
        game.set_tag("Result", self.result.as_str());
        let [w, b] = self.time_controls;
        if w == b {
            game.set_tag("TimeControl", &w.to_string());
        } else {
            game.set_tag("WhiteTimeControl", &w.to_string());
            game.set_tag("BlackTimeControl", &b.to_string());
        }
        game.set_tag("Termination", self.termination.pgn_value());
        game.set_tag(TERMINATION_DETAILS_TAG, self.termination.tag());
        game.set_tag("PlyCount", &self.ply_count().to_string());
        for &mv in &self.opening.moves {
            game.push(mv, Some("book".to_string()));
        }
        for played in &self.moves {
            let mut c = String::new();
            if let Some(score) = played.info.score {
                c.push_str(&score.to_string());
                if let Some(depth) = played.info.depth {
                    c.push_str(&format!("/{depth}"));
                }
                c.push(' ');
            }
            c.push_str(&format!("{:.3}s", played.elapsed.as_secs_f64()));
            game.push(played.mv, Some(c));
        }
        let detail = if self.stderr.is_empty() {
            self.detail.clone()
        } else {
            format!("{}; last stderr: {}", self.detail, self.stderr.join(" | "))
        };
        match game.comments.last_mut() {
            Some(Some(c)) => {
                c.push_str(", ");
                c.push_str(&detail);
            }
            Some(slot) => *slot = Some(detail),
            None => game.intro = Some(detail),
        }
        game
    }
}

/// What an engine did wrong, as the game records it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fault {
    /// The side whose engine misbehaved.
    pub side: Color,
    /// Why the game ends.
    pub termination: Termination,
    /// A sentence naming the engine and what it did.
    pub detail: String,
    /// The engine's last stderr lines, when they may explain it.
    pub stderr: Vec<String>,
    /// The engine's answer, when it was the fault (an illegal or unparsable move).
    pub answer: Option<String>,
    /// The engine must be killed and started afresh for the next game.
    pub restart: bool,
}

/// Why [`ask_move`] has no move to give.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NoMove {
    /// The engine misbehaved: the game ends against it.
    Fault(Fault),
    /// `stop` was set during the search; `clean` when the engine still answered `stop`.
    Interrupted {
        /// The engine answered and can be kept.
        clean: bool,
    },
}

/// One move to ask for: the position, both clocks and the rules that judge the answer.
#[derive(Debug)]
pub struct MoveRequest<'a> {
    /// The position the engine sees: `position startpos moves ...` or `position fen ...`.
    pub position: &'a str,
    /// The board in that position (the arbiter of the answer).
    pub board: &'a Board,
    /// Both clocks, indexed by `Color::index()`; the mover's is charged.
    pub clocks: &'a mut [Clock; 2],
    /// Margins and deadlines.
    pub settings: &'a GameSettings,
    /// How the engine is named in a fault's detail (`White (my_bot)`).
    pub who: &'a str,
    /// Abandons the search when set.
    pub stop: Option<&'a AtomicBool>,
}

/// Asks `engine` for the side to move's move: sends the position and `go` with both
/// clocks, waits until the mover's clock plus margin and grace, charges the clock, and
/// checks the answer on the board. Every way the engine can fail is a typed [`Fault`]:
/// a crash, the memory limit or silence ([`engine_fault`]'s mapping), an answer past the
/// clock ([`Termination::TimeForfeit`]), or a move that is unparsable or illegal.
pub fn ask_move(
    engine: &mut Engine,
    request: MoveRequest<'_>,
) -> Result<(Move, SearchResult), NoMove> {
    let MoveRequest {
        position,
        board,
        clocks,
        settings,
        who,
        stop,
    } = request;
    let side = board.side_to_move();
    let i = side.index();
    let limits = go_limits(clocks, side);
    let deadline = clocks[i]
        .deadline(settings.margin, settings.untimed_deadline)
        .saturating_add(settings.stall_grace);
    let result = match engine.search_until(Some(position), &limits, deadline, stop) {
        Ok(result) => result,
        Err(EngineError::Interrupted { clean, .. }) => return Err(NoMove::Interrupted { clean }),
        Err(err) => {
            let mut fault = engine_fault(engine, side, who, err);
            if fault.termination == Termination::Stall && clocks[i].time_control().is_untimed() {
                fault
                    .detail
                    .push_str(" (the runner's limit for untimed searches)");
            }
            return Err(NoMove::Fault(fault));
        }
    };
    if !clocks[i].spend(result.elapsed, settings.margin) {
        return Err(NoMove::Fault(Fault {
            side,
            termination: Termination::TimeForfeit,
            detail: format!(
                "{who} answered after {:.3}s, past its clock and the {}ms margin",
                result.elapsed.as_secs_f64(),
                settings.margin.as_millis()
            ),
            stderr: Vec::new(),
            answer: None,
            restart: false,
        }));
    }
    match board.parse_uci(&result.bestmove) {
        Ok(mv) => Ok((mv, result)),
        Err(err) => {
            let (termination, what) = match err {
                _ if result.bestmove == "0000" || result.bestmove == "(none)" => (
                    Termination::NullMove,
                    format!(
                        "no move (`bestmove {}`{}) although it has legal moves",
                        result.bestmove,
                        if result.bestmove == "0000" {
                            ", what a kit bot answers when its `think` returns `Move::NULL`"
                        } else {
                            ""
                        }
                    ),
                ),
                MoveError::Syntax(_) => (
                    Termination::UnparsableMove,
                    format!("unparsable `bestmove {}`", result.bestmove),
                ),
                MoveError::Illegal(_) => (
                    Termination::IllegalMove,
                    format!("illegal move {}", result.bestmove),
                ),
            };
            Err(NoMove::Fault(Fault {
                side,
                termination,
                detail: format!("{who} played {what} in {}", board.fen()),
                stderr: engine.stderr_tail(),
                answer: Some(result.bestmove),
                restart: false,
            }))
        }
    }
}

fn side_name(side: Color) -> &'static str {
    match side {
        Color::White => "White",
        Color::Black => "Black",
    }
}

/// Makes sure `slot` holds a live engine that has acknowledged `ucinewgame`.
fn prepare(
    slot: &mut Option<Engine>,
    config: &EngineConfig,
    side: Color,
    settings: &GameSettings,
) -> Result<(), Fault> {
    let who = format!("{} ({})", side_name(side), config.name);
    if slot.as_mut().is_some_and(|e| !e.is_alive()) {
        *slot = None;
    }
    if slot.is_none() {
        match Engine::start(config, settings.handshake_timeout) {
            Ok(engine) => *slot = Some(engine),
            // The host builds the bot before its first `readyok`: silence there is the bot's
            // construction past its limit, not a failure to start.
            Err(EngineError::Timeout {
                expected: "readyok",
                waited,
                ..
            }) if settings.construction_limit.is_some() => {
                return Err(Fault {
                    side,
                    termination: Termination::ConstructionLimit,
                    detail: format!(
                        "{who} did not send `readyok` within {:.3}s{}",
                        waited.as_secs_f64(),
                        construction_note(settings)
                    ),
                    stderr: Vec::new(),
                    answer: None,
                    restart: true,
                });
            }
            Err(err) => {
                return Err(Fault {
                    side,
                    termination: Termination::FailedStart,
                    detail: format!("{who} failed to start: {err}"),
                    stderr: err.stderr_tail().to_vec(),
                    answer: None,
                    restart: true,
                });
            }
        }
        let engine = slot.as_mut().expect("engine just started");
        check_construction(engine, side, &who, settings)?;
    }
    let engine = slot.as_mut().expect("engine just ensured");
    tell_seed(engine, settings.engine_seed);
    match engine.new_game(settings.handshake_timeout) {
        Ok(()) => check_construction(engine, side, &who, settings),
        Err(err @ EngineError::Timeout { .. }) if settings.construction_limit.is_some() => {
            let mut fault = engine_fault(engine, side, &who, err);
            fault.termination = Termination::ConstructionLimit;
            fault.detail.push_str(&construction_note(settings));
            Err(fault)
        }
        Err(err) => Err(engine_fault(engine, side, &who, err)),
    }
}

/// Tells `engine` the game's seed, if there is one and the engine announced the kit's `Seed`
/// option (the host seeds `Random::new()` with it for the game that follows).
fn tell_seed(engine: &mut Engine, seed: Option<u64>) {
    let announced = engine
        .declared_options()
        .iter()
        .any(|name| name.eq_ignore_ascii_case(SEED));
    if let (Some(seed), true) = (seed, announced) {
        engine.send(&format!("setoption name {SEED} value {seed}"));
    }
}

/// The construction limit, enforced by the runner's own clock: the bots' host builds the
/// bot before it answers `isready`, so the wait for `readyok` bounds the construction
/// from above whatever the bot does. The host's own breach report (it times the
/// construction alone, without the pipes) counts too.
fn check_construction(
    engine: &mut Engine,
    side: Color,
    who: &str,
    settings: &GameSettings,
) -> Result<(), Fault> {
    let Some(limit) = settings.construction_limit else {
        return Ok(());
    };
    let waited = engine.ready_wait();
    if waited <= limit && engine.breach_report().is_none() {
        return Ok(());
    }
    let mut detail = format!(
        "{who} took {:.3}s to answer `isready`{}",
        waited.as_secs_f64(),
        construction_note(settings)
    );
    if let Some(report) = engine.breach_report() {
        detail.push_str(&format!("; the engine reported: {report}"));
    }
    Err(Fault {
        side,
        termination: Termination::ConstructionLimit,
        detail,
        stderr: engine.stderr_tail(),
        answer: None,
        restart: false,
    })
}

fn construction_note(settings: &GameSettings) -> String {
    let limit = settings.construction_limit.unwrap_or(CONSTRUCTION_LIMIT);
    format!(
        " (constructing the bot), past the construction limit of {}s",
        limit.as_secs_f64()
    )
}

/// The fault an engine error is: a crash, the memory limit, silence, a failed start.
pub fn engine_fault(engine: &mut Engine, side: Color, who: &str, err: EngineError) -> Fault {
    let (termination, detail) = match &err {
        EngineError::Died { exit, .. } if exit.is_memory_limit() => (
            Termination::MemoryLimit,
            format!(
                "{who} exceeded the {} memory limit ({exit})",
                memory_text(engine.memory_limit())
            ),
        ),
        EngineError::Died { exit, expected, .. } => (
            Termination::Crash,
            format!("{who} crashed ({exit}) while the runner waited for `{expected}`"),
        ),
        EngineError::Timeout {
            expected, waited, ..
        } => (
            Termination::Stall,
            format!(
                "{who} did not send `{expected}` within {:.3}s",
                waited.as_secs_f64()
            ),
        ),
        EngineError::Spawn { .. } => (Termination::FailedStart, format!("{who}: {err}")),
        EngineError::Protocol { cause, .. } => (
            Termination::ProtocolViolation,
            format!("{who} broke the UCI protocol: it {cause}"),
        ),
        EngineError::Interrupted { .. } => (Termination::Interrupted, format!("{who}: {err}")),
    };
    Fault {
        side,
        termination,
        detail,
        stderr: engine.stderr_tail(),
        answer: None,
        restart: true,
    }
}

/// Plays one game from `opening` between `engines[0]` (White, `players[0]`) and
/// `engines[1]` (Black, `players[1]`).
///
/// An empty slot is filled by starting the player's engine; after the game a slot is
/// emptied (the process killed) when its engine died or stopped answering, so the next
/// game starts a fresh one. Setting `stop` abandons the game with
/// [`Termination::Interrupted`] and result `*`.
///
/// Two shell-script "engines" that only know `e2e4`: White's first move is fine, Black's
/// is not, and the board says so:
///
/// ```
/// # #[cfg(unix)] {
/// use std::sync::atomic::AtomicBool;
/// use framework::notation::pgn::GameResult;
/// use runner::*;
/// let script = r#"while read cmd rest; do case $cmd in
///     uci) echo uciok;; isready) echo readyok;; go) echo "bestmove e2e4";; quit) exit 0;; esac; done"#;
/// let player = |name: &str| Player::new(EngineConfig::new(name, "sh").arg("-c").arg(script), "1+0".parse().unwrap());
/// let (white, black) = (player("w"), player("b"));
/// let (mut w, mut b) = (None, None);
/// let record = play_game([&white, &black], [&mut w, &mut b], &Opening::startpos(), &GameSettings::default(), &AtomicBool::new(false));
/// assert_eq!(record.termination, Termination::IllegalMove);
/// assert_eq!(record.result, GameResult::WhiteWins);
/// assert!(record.detail.starts_with("Black (b) played illegal move e2e4"));
/// let pgn = framework::notation::write_game(&record.to_pgn());
/// assert!(pgn.contains("[Termination \"rules infraction\"]"));
/// assert!(pgn.contains("[TerminationDetails \"illegal move\"]") && pgn.contains("1. e4 {"));
/// # }
/// ```
pub fn play_game(
    players: [&Player; 2],
    engines: [&mut Option<Engine>; 2],
    opening: &Opening,
    settings: &GameSettings,
    stop: &AtomicBool,
) -> GameRecord {
    play_game_observed(players, engines, opening, settings, stop, None)
}

/// [`play_game`], telling `observer` (if any) when the game starts and after each move,
/// on this thread (see [`MoveObserver`]). The record is the same with or without one.
pub fn play_game_observed(
    players: [&Player; 2],
    engines: [&mut Option<Engine>; 2],
    opening: &Opening,
    settings: &GameSettings,
    stop: &AtomicBool,
    mut observer: Option<&mut dyn MoveObserver>,
) -> GameRecord {
    let [white_slot, black_slot] = engines;
    let mut record = GameRecord::start(players, opening);
    let mut slots = [white_slot, black_slot];
    let mut clocks = [Clock::new(players[0].tc), Clock::new(players[1].tc)];
    if !prepare_both(players, &mut slots, settings, &mut record) {
        return record;
    }
    let (mut board, mut position) = opening_position(opening);
    let mut adjudicator = Adjudicator::new(settings.adjudication);
    let mut plies = 0u32;
    if let Some(o) = observer.as_deref_mut() {
        o.started(&board, remaining(&clocks));
    }

    loop {
        if let Some((result, termination, detail)) = board_ending(&board, opening, &adjudicator) {
            record.result = result;
            record.termination = termination;
            record.detail = detail;
            return record;
        }
        if stop.load(Ordering::Relaxed) {
            record.detail = "the match was stopped".to_string();
            return record;
        }
        let side = board.side_to_move();
        let i = side.index();
        let who = format!("{} ({})", side_name(side), players[i].name());
        let engine = slots[i].as_mut().expect("engines prepared");
        let left = clocks;
        let turn = Instant::now();
        let request = MoveRequest {
            position: &position,
            board: &board,
            clocks: &mut clocks,
            settings,
            who: &who,
            stop: Some(stop),
        };
        let (mv, result) = match ask_move(engine, request) {
            Ok(answer) => answer,
            Err(NoMove::Interrupted { clean }) => {
                if !clean && let Some(engine) = slots[i].take() {
                    engine.kill();
                }
                record.detail = "the match was stopped".to_string();
                return record;
            }
            Err(NoMove::Fault(fault)) => {
                record.fault_clock = Some(fault_clock(&left, turn, false, &fault));
                finish_fault(&mut record, &board, fault, players, &mut slots);
                return record;
            }
        };
        tell_move(observer.as_deref_mut(), &board, mv, &result, &clocks);
        let move_number = game_move_number(&board, opening);
        let pv = PvCheck::of(&result.info.pv, &result.bestmove, mv, &board);
        board.make_move(mv);
        push_move(&mut position, mv);
        plies += 1;
        let mut info = result.info;
        info.pv = Vec::new();
        let score = info.score;
        record.moves.push(PlayedMove {
            mv,
            info,
            pv,
            elapsed: result.elapsed,
        });
        let ruling = adjudicator.record(side, score, move_number);
        if let Some((result, termination, detail)) = adjudicated(ruling, &board, plies) {
            record.result = result;
            record.termination = termination;
            record.detail = detail;
            return record;
        }
    }
}

/// Makes sure both slots hold a live engine that has acknowledged `ucinewgame`; a fault
/// ends the game against its side in `record` (then `false`).
fn prepare_both(
    players: [&Player; 2],
    slots: &mut [&mut Option<Engine>; 2],
    settings: &GameSettings,
    record: &mut GameRecord,
) -> bool {
    let clocks = [Clock::new(players[0].tc), Clock::new(players[1].tc)];
    let starting = Instant::now();
    for side in Color::ALL {
        let i = side.index();
        if let Err(fault) = prepare(slots[i], &players[i].engine, side, settings) {
            record.fault_clock = Some(fault_clock(&clocks, starting, true, &fault));
            let start = record.opening.board();
            finish_fault(record, &start, fault, players, slots);
            return false;
        }
    }
    true
}

/// The board after the opening's moves, and the `position` command that reaches it.
fn opening_position(opening: &Opening) -> (Board, String) {
    let mut board = opening.start.clone();
    let mut position = position_command(&board);
    for &mv in &opening.moves {
        push_move(&mut position, mv);
        board.make_move(mv);
    }
    (board, position)
}

/// An ending: the result, its termination and the sentence about it.
type Ending = (GameResult, Termination, String);

/// A game's length in plies: from its start position (an opening's, book moves included)
/// to `board`. This is what `--maxmoves` limits, in play and when a recorded game is
/// checked; the start's own counters (an EPD's `fmvn`, a FEN's move number) are not the
/// game's length.
///
/// ```
/// use framework::chess::Board;
/// let start = Board::from_fen("4k3/8/8/8/8/8/8/4K3 w - - 0 40").unwrap();
/// let mut board = start.clone();
/// let mv = board.parse_uci("e1e2").unwrap();
/// board.make_move(mv);
/// assert_eq!(runner::game_plies(&start, &board), 1);
/// ```
pub fn game_plies(start: &Board, board: &Board) -> u32 {
    (board.ply_count() - start.ply_count()).unsigned_abs()
}

/// The game's full-move number counted from 1 at the opening's start position, as the
/// draw rule's `movenumber` reads it, whatever move number the opening's FEN gives.
fn game_move_number(board: &Board, opening: &Opening) -> u32 {
    (board.fullmove_number() - opening.start.fullmove_number()).unsigned_abs() + 1
}

/// The game's end on the board (mate, stalemate, a draw rule) or by length, if reached.
fn board_ending(board: &Board, opening: &Opening, adjudicator: &Adjudicator) -> Option<Ending> {
    if let Some(outcome) = board.outcome() {
        let (termination, result) = match outcome {
            Outcome::Checkmate { winner } => (Termination::Checkmate, GameResult::win_for(winner)),
            Outcome::Draw(reason) => (
                match reason {
                    DrawReason::Repetition => Termination::Repetition,
                    DrawReason::FiftyMove => Termination::FiftyMoves,
                    DrawReason::InsufficientMaterial => Termination::InsufficientMaterial,
                    DrawReason::Stalemate => Termination::Stalemate,
                },
                GameResult::Draw,
            ),
        };
        return Some((result, termination, outcome.to_string()));
    }
    let plies = game_plies(&opening.start, board);
    adjudicator.too_long(plies).then(|| {
        (
            GameResult::Draw,
            Termination::MaxLength,
            format!("draw by reaching {plies} plies"),
        )
    })
}

/// The ending a score ruling gives, unless the board ended the game on that move anyway.
fn adjudicated(ruling: Option<Ruling>, board: &Board, plies: u32) -> Option<Ending> {
    if board.outcome().is_some() {
        return None;
    }
    match ruling? {
        Ruling::Draw => Some((
            GameResult::Draw,
            Termination::AdjudicatedDraw,
            "draw by score adjudication".to_string(),
        )),
        Ruling::Resign { loser } => Some((
            GameResult::win_for(!loser),
            Termination::AdjudicatedResign,
            format!(
                "{} adjudicated lost by score ({plies} plies played)",
                side_name(loser)
            ),
        )),
    }
}

/// `position startpos` or `position fen FEN` for the game's start.
fn position_command(start: &Board) -> String {
    let fen = start.fen();
    if fen == Board::startpos().fen() {
        String::from("position startpos")
    } else {
        format!("position fen {fen}")
    }
}

/// Appends a move to a `position` command (` moves` before the first).
fn push_move(position: &mut String, mv: Move) {
    if !position.contains(" moves") {
        position.push_str(" moves");
    }
    position.push(' ');
    position.push_str(&mv.to_string());
}

/// Tells the observer, if any, of the move `mv` about to be made on `board`.
fn tell_move<'a>(
    observer: Option<&mut (dyn MoveObserver + 'a)>,
    board: &Board,
    mv: Move,
    result: &SearchResult,
    clocks: &[Clock; 2],
) {
    if let Some(observer) = observer {
        observer.moved(&MoveUpdate {
            board,
            mv,
            info: &result.info,
            elapsed: result.elapsed,
            clocks: remaining(clocks),
        });
    }
}

/// The clocks `left` when the turn that ended in `fault` began at `turn`.
fn fault_clock(left: &[Clock; 2], turn: Instant, at_start: bool, fault: &Fault) -> FaultClock {
    FaultClock {
        left: remaining(left),
        turn: turn.elapsed(),
        at_start,
        answer: fault.answer.clone(),
    }
}

/// Both clocks' time left, White's first.
fn remaining(clocks: &[Clock; 2]) -> [Option<Duration>; 2] {
    [clocks[0].remaining(), clocks[1].remaining()]
}

fn go_limits(clocks: &[Clock; 2], side: Color) -> GoParams {
    let own = clocks[side.index()];
    let tc = *own.time_control();
    let mut limits = GoParams {
        nodes: tc.nodes,
        depth: tc.depth,
        ..GoParams::default()
    };
    if let Some(mine) = own.remaining() {
        let other = clocks[(!side).index()];
        // With mixed time controls the opponent may have no clock; its "time" is then
        // reported as the mover's, which is what a single-clock engine assumes anyway.
        let theirs = other.remaining().unwrap_or(mine);
        let (w, b, winc, binc) = match side {
            Color::White => (mine, theirs, tc.increment, other.time_control().increment),
            Color::Black => (theirs, mine, other.time_control().increment, tc.increment),
        };
        limits.wtime = Some(w.as_millis() as u64);
        limits.btime = Some(b.as_millis() as u64);
        limits.winc = Some(winc.as_millis() as u64);
        limits.binc = Some(binc.as_millis() as u64);
        limits.movestogo = own.moves_to_go();
    } else if let Some(mt) = tc.movetime {
        limits.movetime = Some(mt.as_millis() as u64);
    }
    limits
}

fn finish_fault(
    record: &mut GameRecord,
    board: &Board,
    fault: Fault,
    players: [&Player; 2],
    slots: &mut [&mut Option<Engine>; 2],
) {
    let opponent = !fault.side;
    let timeout = matches!(
        fault.termination,
        Termination::TimeForfeit | Termination::Stall
    );
    // The detail may quote the engine (a garbage `bestmove`, a breach report): one line,
    // capped. It and the stderr lines are public: no host paths or names in them.
    let host = HostDetail::for_engine(&players[fault.side.index()].engine);
    record.detail = one_line(&host.scrub(&fault.detail), MAX_DETAIL_CHARS);
    if timeout && !can_possibly_mate(board, opponent) {
        record.result = GameResult::Draw;
        record.detail.push_str(&format!(
            "; drawn because {} cannot possibly mate",
            side_name(opponent)
        ));
    } else {
        record.result = GameResult::win_for(opponent);
    }
    record.termination = fault.termination;
    record.faulty = Some(fault.side);
    record.stderr = host.scrub_stderr(&fault.stderr);
    if fault.restart
        && let Some(engine) = slots[fault.side.index()].take()
    {
        engine.kill();
    }
}

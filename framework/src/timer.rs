//! The bot's clock for one move, and the limits the client set for it.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

/// The limits a UCI client set for one move besides the clock: the words
/// `depth`, `nodes`, `movetime` and `infinite` of its `go` command.
///
/// A bot reads them through its [`Timer`] ([`Timer::limits`]); most bots
/// need only [`Timer::max_depth`] and [`Timer::should_stop`], which apply
/// them. What each one means for a bot:
///
/// - `depth`: search this many plies and no deeper (an iterative-deepening
///   bot stops after that iteration). A bot that searches a fixed depth of
///   its own may ignore it.
/// - `nodes`: visit at most about this many nodes, counted by the bot in its
///   own search (one per position searched). With a depth or node limit the
///   client expects the same move every time: a bot that uses randomness
///   should not ([`SearchLimits::is_fixed`]).
/// - `movetime`: think this long (milliseconds) for this move, not a share
///   of a clock.
/// - `infinite`: think until the client says `stop`.
///
/// ```
/// use framework::prelude::*;
/// let limits = SearchLimits { depth: Some(4), ..SearchLimits::default() };
/// assert!(limits.is_fixed());
/// let timer = Timer::untimed(limits);
/// assert_eq!(timer.limits().depth, Some(4));
/// assert_eq!(timer.limits().nodes, None);
/// assert!(!SearchLimits::default().is_fixed());
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SearchLimits {
    /// `go depth N`: the deepest search, in plies.
    pub depth: Option<u32>,
    /// `go nodes N`: the most nodes to search.
    pub nodes: Option<u64>,
    /// `go movetime N`: milliseconds to think about this move.
    pub movetime_ms: Option<u64>,
    /// `go infinite`: think until told to stop.
    pub infinite: bool,
}

impl SearchLimits {
    /// Whether a depth or node limit was given: the client wants a
    /// reproducible search, the same move for the same position every time.
    pub fn is_fixed(&self) -> bool {
        self.depth.is_some() || self.nodes.is_some()
    }
}

/// A client's millisecond figure (UCI's are unbounded) as a clock reading: at most
/// `i32::MAX`, 24 days.
pub(crate) fn saturating_ms(ms: u64) -> i32 {
    i32::try_from(ms).unwrap_or(i32::MAX)
}

/// How long a move may last for [`Timer::should_stop`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Deadline {
    /// The bot's own budget (it plays by a clock).
    Budget,
    /// A fixed time, whatever the bot's budget (`movetime`, or the safety
    /// net of a search limited only by depth or nodes).
    Fixed(i32),
    /// Only `stop` ends the search (`infinite`).
    Never,
}

/// The clock a bot reads while it thinks, and the limits the client set.
///
/// A `Timer` is made fresh for every `think` call. All figures are in
/// milliseconds, as `i32`s: C#'s `int`, so a bot computes with them beside its
/// scores and depths, and subtracting a margin goes negative as in C#
/// (`ms_remaining() - 100_000` is below zero, not a huge number). When the
/// host is told to stop (UCI `stop`, or the client closing its input), the
/// timer reports no time left, so a bot that checks its clock returns promptly.
///
/// ```
/// use framework::prelude::*;
/// let timer = Timer::new(60_000, 55_000, 100);
/// assert!(timer.ms_remaining() <= 60_000);
/// assert_eq!(timer.opponent_ms_remaining(), 55_000);
/// assert_eq!(timer.increment_ms(), 100);
/// // A bot might spend a thirtieth of its time on this move:
/// let budget = timer.ms_remaining() / 30;
/// assert!(timer.ms_elapsed_this_turn() < budget);
/// assert!(!timer.should_stop(budget, 0));
/// assert!(timer.ms_remaining() - 100_000 < 0); // as C#'s int
/// ```
///
/// A bot that honours every limit the client may set needs two calls:
/// [`max_depth`](Timer::max_depth) bounds its iterative deepening, and
/// [`should_stop`](Timer::should_stop), given its time budget and the nodes
/// it has searched, says when to stop:
///
/// ```
/// use framework::prelude::*;
///
/// #[derive(Default)]
/// struct Counter { nodes: u64 }
///
/// impl Counter {
///     fn search(&mut self, b: &mut Board, t: &Timer, depth: i32) -> i32 {
///         self.nodes += 1;
///         if depth == 0 { return 0 }
///         for m in b.legal_moves() {
///             b.make_move(m);
///             self.search(b, t, depth - 1);
///             b.undo_move();
///             if t.should_stop(1000, self.nodes) { break }
///         }
///         0
///     }
/// }
///
/// let limits = SearchLimits { nodes: Some(500), ..SearchLimits::default() };
/// let timer = Timer::untimed(limits);
/// let mut bot = Counter::default();
/// let mut board = Board::startpos();
/// for depth in 1..=timer.max_depth() {
///     bot.search(&mut board, &timer, depth);
///     if timer.should_stop(1000, bot.nodes) { break }
/// }
/// // The node budget ended the search, a few nodes past it at most.
/// assert!((500..510).contains(&bot.nodes));
/// ```
#[derive(Debug, Clone)]
pub struct Timer {
    turn_start: Instant,
    remaining_at_start: i32,
    opponent_remaining: i32,
    increment: i32,
    game_start: i32,
    moves_to_go: Option<u32>,
    limits: SearchLimits,
    deadline: Deadline,
    stop: Option<Arc<AtomicBool>>,
    /// The most nodes the bot said it had searched ([`should_stop`](Timer::should_stop)):
    /// the host reports them, so a bot gets `info nodes` for no tokens of its own. Shared
    /// by clones, so a bot's own copy of its timer counts for the host too.
    nodes_seen: Arc<NodesSeen>,
    /// Where the host reads [`nodes_seen`](Self::nodes_seen) from while the bot thinks
    /// (for the `nodes` of `info depth` lines the bot sends with `report`).
    node_sink: Option<&'static AtomicU64>,
    /// Under a depth or node limit without a clock, the readings of the clock so far: the
    /// clock is then virtual ([`Timer::VIRTUAL_US_PER_READING`]), so a bot that stops by
    /// its clock searches the same tree on every run and machine. Shared by clones.
    virtual_readings: Option<Arc<AtomicU64>>,
}

/// The node count behind [`Timer::nodes_searched`]: `most` is meaningful once `any` is set.
/// Only the bot's thread writes it (the host reads it after the move), so relaxed loads
/// and stores are enough.
#[derive(Debug, Default)]
struct NodesSeen {
    any: AtomicBool,
    most: AtomicU64,
}

/// A timer for a bot's own struct to start with ([`Timer::untimed`] with no limits): a
/// bot that keeps the timer for its helpers instead of passing it down derives `Default`
/// and stores the one `think` gets. Clones share the original's stop flag and node
/// count, so the host's `stop` and its node report work through the bot's copy.
///
/// ```
/// use framework::prelude::*;
///
/// #[derive(Default)]
/// struct MyBot { t: Timer, nodes: u64 }
///
/// impl MyBot {
///     fn search(&mut self, b: &mut Board, depth: i32) -> i32 {
///         self.nodes += 1;
///         if depth == 0 || self.t.should_stop(50, self.nodes) { return 0 }
///         for m in b.legal_moves() {
///             b.make_move(m);
///             self.search(b, depth - 1);
///             b.undo_move();
///         }
///         0
///     }
/// }
///
/// impl Bot for MyBot {
///     fn think(&mut self, mut board: Board, timer: Timer) -> Move {
///         self.t = timer;
///         self.search(&mut board, 2);
///         board.legal_moves()[0]
///     }
/// }
///
/// let timer = Timer::untimed(SearchLimits { depth: Some(2), ..SearchLimits::default() });
/// MyBot::default().think(Board::startpos(), timer.clone());
/// // Asked at the root and its 20 children (the last one the 401st node searched):
/// assert_eq!(timer.nodes_searched(), Some(401)); // counted through the bot's copy
/// ```
impl Default for Timer {
    fn default() -> Self {
        Timer::untimed(SearchLimits::default())
    }
}

impl Timer {
    /// What a bot's clock shows when the client gave it none (`go depth 5`,
    /// `go nodes 10000`): bots that only read the clock still end their move
    /// within it, and [`should_stop`](Timer::should_stop) ends a search by
    /// depth or nodes that has run this long.
    pub const UNTIMED_MS: i32 = 10_000;

    /// What the clock shows under `go infinite`: 2^25 ms, over nine hours, so a bot that
    /// spends a share of its clock thinks until `stop`, and its arithmetic on the figure
    /// (`remaining * 64`) still fits an `i32`.
    pub const INFINITE_MS: i32 = 1 << 25;

    /// Microseconds the virtual clock of a search limited by depth or nodes advances at
    /// each reading ([`ms_elapsed_this_turn`](Timer::ms_elapsed_this_turn)): about a
    /// node's time, since most bots read their clock once a node.
    pub const VIRTUAL_US_PER_READING: u64 = 1;

    /// The deepest search [`max_depth`](Timer::max_depth) allows: deeper than
    /// any real game needs, and shallow enough that a recursive search fits
    /// its stack and its mate scores.
    pub const MAX_DEPTH: i32 = 128;

    /// A timer whose turn starts now, with `remaining_ms` on the bot's clock,
    /// `opponent_ms` on the opponent's and `increment_ms` added per move.
    /// The game's starting time is taken to be `remaining_ms`.
    pub fn new(remaining_ms: i32, opponent_ms: i32, increment_ms: i32) -> Self {
        Timer {
            turn_start: Instant::now(),
            remaining_at_start: remaining_ms,
            opponent_remaining: opponent_ms,
            increment: increment_ms,
            game_start: remaining_ms,
            moves_to_go: None,
            limits: SearchLimits::default(),
            deadline: Deadline::Budget,
            stop: None,
            nodes_seen: Arc::default(),
            node_sink: None,
            virtual_readings: None,
        }
    }

    /// A timer for a move the client limited without a clock (`go depth`,
    /// `go nodes`, `go movetime`, `go infinite` or a bare `go`).
    ///
    /// The clock shows what the limits allow: `movetime`, or practically
    /// unlimited time for `infinite`, or [`UNTIMED_MS`](Timer::UNTIMED_MS).
    ///
    /// ```
    /// use framework::prelude::*;
    /// let think_half_a_second = SearchLimits { movetime_ms: Some(500), ..SearchLimits::default() };
    /// assert!(Timer::untimed(think_half_a_second).ms_remaining() <= 500);
    /// let to_depth_3 = Timer::untimed(SearchLimits { depth: Some(3), ..SearchLimits::default() });
    /// assert!(to_depth_3.ms_remaining() <= Timer::UNTIMED_MS);
    /// ```
    pub fn untimed(limits: SearchLimits) -> Self {
        let clock = match limits {
            SearchLimits { infinite: true, .. } => Self::INFINITE_MS,
            SearchLimits {
                movetime_ms: Some(ms),
                ..
            } => saturating_ms(ms),
            _ => Self::UNTIMED_MS,
        };
        let timer = Timer::new(clock, clock, 0).with_limits(limits);
        match timer.deadline {
            // No clock and no movetime: the bot's budget comes from a made-up
            // clock, so a search limited by depth or nodes ignores it, and the clock is
            // virtual, so a bot that stops by it stops at the same point every time.
            Deadline::Budget if limits.is_fixed() => Timer {
                deadline: Deadline::Fixed(Self::UNTIMED_MS),
                virtual_readings: Some(Arc::default()),
                ..timer
            },
            _ => timer,
        }
    }

    /// Sets the limits the client gave besides the clock.
    ///
    /// ```
    /// # use framework::prelude::*;
    /// let limits = SearchLimits { nodes: Some(20_000), ..SearchLimits::default() };
    /// let timer = Timer::new(60_000, 60_000, 0).with_limits(limits);
    /// assert_eq!(timer.limits().nodes, Some(20_000));
    /// assert!(timer.should_stop(1000, 20_000));
    /// ```
    pub fn with_limits(mut self, limits: SearchLimits) -> Self {
        self.limits = limits;
        self.deadline = if limits.infinite {
            Deadline::Never
        } else if let Some(ms) = limits.movetime_ms {
            Deadline::Fixed(saturating_ms(ms))
        } else {
            Deadline::Budget
        };
        self
    }

    /// Sets the clock's starting time for this game (the base of the time control).
    ///
    /// ```
    /// # use framework::prelude::*;
    /// let timer = Timer::new(4_000, 4_000, 0).with_game_start_ms(10_000);
    /// assert_eq!(timer.game_start_ms(), 10_000);
    /// ```
    pub fn with_game_start_ms(mut self, game_start_ms: i32) -> Self {
        self.game_start = game_start_ms;
        self
    }

    /// Sets the number of moves left until the next time control, when the
    /// time control has periods (UCI `movestogo`).
    pub fn with_moves_to_go(mut self, moves_to_go: Option<u32>) -> Self {
        self.moves_to_go = moves_to_go;
        self
    }

    /// Ties this timer to a stop flag: once the flag is set, the timer
    /// reports no time remaining.
    pub fn with_stop_flag(mut self, stop: Arc<AtomicBool>) -> Self {
        self.stop = Some(stop);
        self
    }

    /// Publishes the nodes the bot passes to [`should_stop`](Timer::should_stop) to `sink`
    /// as well, for the host to read on another path while the bot thinks.
    pub(crate) fn with_node_sink(mut self, sink: &'static AtomicU64) -> Self {
        self.node_sink = Some(sink);
        self
    }

    /// Milliseconds left on the bot's clock now (0 once stopped or flagged): C#'s
    /// `MillisecondsRemaining`.
    #[doc(alias = "MillisecondsRemaining")]
    pub fn ms_remaining(&self) -> i32 {
        if self.is_stopped() {
            return 0;
        }
        (self.remaining_at_start - self.ms_elapsed_this_turn()).max(0)
    }

    /// The same clock with the turn's stopwatch started now, when `think` is called, as
    /// C#'s timer is made just before `Think`: the whole milliseconds the move took to
    /// reach the bot (the host handing it to the bot's thread, which a loaded machine may
    /// delay by tens of milliseconds) come off the remaining time and a fixed deadline
    /// instead of counting as elapsed. So the clock runs out at the same instant, and
    /// a C# bot that searches only while `elapsed * 35 < remaining` starts its first
    /// iteration as it did in C#, instead of returning its last move's best.
    pub(crate) fn started_now(mut self) -> Timer {
        let waited = self.ms_elapsed_this_turn();
        let whole = std::time::Duration::from_millis(u64::try_from(waited).unwrap_or(0));
        self.turn_start += whole;
        self.remaining_at_start = self.remaining_at_start.saturating_sub(waited);
        if let Deadline::Fixed(ms) = &mut self.deadline {
            *ms = ms.saturating_sub(waited);
        }
        self
    }

    /// Milliseconds since this turn started: C#'s `MillisecondsElapsedThisTurn`.
    ///
    /// Under a depth or node limit without a clock (`go depth 6`), the time is virtual:
    /// each reading of the clock (this, [`ms_remaining`](Timer::ms_remaining) and
    /// [`should_stop`](Timer::should_stop)) advances it by
    /// [`VIRTUAL_US_PER_READING`](Timer::VIRTUAL_US_PER_READING). A bot that stops by its
    /// clock and ignores the depth (every C# challenge bot) then searches the same tree
    /// on every run and machine, so `challenge bench --depth` has a signature for it too.
    ///
    /// ```
    /// use framework::prelude::*;
    /// let timer = Timer::untimed(SearchLimits { depth: Some(1), ..SearchLimits::default() });
    /// let readings = (1..).find(|_| timer.ms_elapsed_this_turn() >= 1).unwrap();
    /// assert_eq!(readings, 1000 / Timer::VIRTUAL_US_PER_READING);
    /// ```
    #[doc(alias = "MillisecondsElapsedThisTurn")]
    pub fn ms_elapsed_this_turn(&self) -> i32 {
        let elapsed_us = match &self.virtual_readings {
            Some(readings) => {
                let n = readings.fetch_add(1, Ordering::Relaxed) + 1;
                u128::from(n) * u128::from(Self::VIRTUAL_US_PER_READING)
            }
            None => self.turn_start.elapsed().as_micros(),
        };
        i32::try_from(elapsed_us / 1000).unwrap_or(i32::MAX)
    }

    /// Milliseconds of real time since this turn started, whatever clock the bot reads:
    /// the `time` the host reports beside the nodes.
    pub(crate) fn wall_ms_elapsed(&self) -> i32 {
        i32::try_from(self.turn_start.elapsed().as_millis()).unwrap_or(i32::MAX)
    }

    /// Milliseconds left on the opponent's clock when this turn started: C#'s
    /// `OpponentMillisecondsRemaining`.
    #[doc(alias = "OpponentMillisecondsRemaining")]
    pub fn opponent_ms_remaining(&self) -> i32 {
        self.opponent_remaining
    }

    /// Milliseconds each clock started the game with: C#'s `GameStartTimeMilliseconds`.
    #[doc(alias = "GameStartTimeMilliseconds")]
    pub fn game_start_ms(&self) -> i32 {
        self.game_start
    }

    /// Milliseconds added to the bot's clock after each of its moves: C#'s
    /// `IncrementMilliseconds`.
    #[doc(alias = "IncrementMilliseconds")]
    pub fn increment_ms(&self) -> i32 {
        self.increment
    }

    /// Moves left until the next time control, if the time control has periods.
    pub fn moves_to_go(&self) -> Option<u32> {
        self.moves_to_go
    }

    /// Whether the host asked the bot to stop thinking now.
    pub fn is_stopped(&self) -> bool {
        self.stop
            .as_ref()
            .is_some_and(|flag| flag.load(Ordering::Relaxed))
    }

    /// The limits the client set for this move besides the clock.
    pub fn limits(&self) -> SearchLimits {
        self.limits
    }

    /// The deepest search the client allows, in plies: `go depth N` gives N,
    /// no depth limit gives [`MAX_DEPTH`](Timer::MAX_DEPTH) (so does a larger N).
    /// An iterative-deepening bot loops `for depth in 1..=timer.max_depth()`.
    ///
    /// ```
    /// # use framework::prelude::*;
    /// let limits = SearchLimits { depth: Some(2), ..SearchLimits::default() };
    /// assert_eq!(Timer::untimed(limits).max_depth(), 2);
    /// assert_eq!(Timer::new(1000, 1000, 0).max_depth(), Timer::MAX_DEPTH);
    /// ```
    pub fn max_depth(&self) -> i32 {
        self.limits.depth.map_or(Self::MAX_DEPTH, |depth| {
            i32::try_from(depth).map_or(Self::MAX_DEPTH, |depth| depth.min(Self::MAX_DEPTH))
        })
    }

    /// The most nodes the bot passed to [`should_stop`](Timer::should_stop) this
    /// move (`None` if it never asked): what the host reports as `info nodes`.
    ///
    /// ```
    /// # use framework::prelude::*;
    /// let timer = Timer::untimed(SearchLimits { nodes: Some(100), ..SearchLimits::default() });
    /// assert_eq!(timer.nodes_searched(), None);
    /// timer.should_stop(0, 40);
    /// timer.should_stop(0, 7);
    /// assert_eq!(timer.nodes_searched(), Some(40));
    /// ```
    pub fn nodes_searched(&self) -> Option<u64> {
        self.nodes_seen
            .any
            .load(Ordering::Relaxed)
            .then(|| self.nodes_seen.most.load(Ordering::Relaxed))
    }

    /// Whether the bot should stop searching now, having searched `nodes`
    /// nodes and planned to spend `budget_ms` on this move. True when:
    ///
    /// - the host said stop (UCI `stop`, or the client went away);
    /// - `nodes` reached the client's node limit (`go nodes`);
    /// - the move has taken longer than its time: `budget_ms` when the bot
    ///   plays by a clock; the `movetime` when the client set one, whatever
    ///   `budget_ms` says; never with `go infinite`; and when the client set
    ///   only a depth or node limit, [`UNTIMED_MS`](Timer::UNTIMED_MS) of the
    ///   virtual clock (so the search is the same every time), the safety net
    ///   of a bot that does not count its nodes.
    ///
    /// ```
    /// # use framework::prelude::*;
    /// let forever = Timer::untimed(SearchLimits { infinite: true, ..SearchLimits::default() });
    /// assert!(!forever.should_stop(0, u64::MAX));
    /// let by_nodes = Timer::untimed(SearchLimits { nodes: Some(100), ..SearchLimits::default() });
    /// assert!(!by_nodes.should_stop(0, 99));
    /// assert!(by_nodes.should_stop(0, 100));
    /// ```
    ///
    /// `budget_ms` is an `i32`, as the clock's figures are; a negative budget has run out.
    pub fn should_stop(&self, budget_ms: i32, nodes: u64) -> bool {
        let seen = &self.nodes_seen;
        let most = seen.most.load(Ordering::Relaxed).max(nodes);
        seen.most.store(most, Ordering::Relaxed);
        seen.any.store(true, Ordering::Relaxed);
        if let Some(sink) = self.node_sink {
            sink.store(most, Ordering::Relaxed);
        }
        if self.is_stopped() || self.limits.nodes.is_some_and(|limit| nodes >= limit) {
            return true;
        }
        let allowed = match self.deadline {
            Deadline::Budget => budget_ms,
            Deadline::Fixed(ms) => ms,
            Deadline::Never => return false,
        };
        self.ms_elapsed_this_turn() > allowed
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_turn_started_late_keeps_its_deadline_and_starts_its_stopwatch_at_zero() {
        use std::time::Duration;
        let go = Instant::now() - Duration::from_millis(40); // `go` came 40 ms ago
        let mut timer = Timer::new(1000, 900, 0);
        timer.turn_start = go;
        let mut fixed = timer.clone();
        fixed.deadline = Deadline::Fixed(100);
        let started = timer.started_now();
        let waited = i32::try_from((started.turn_start - go).as_millis()).unwrap();
        assert!(waited >= 40, "{waited}");
        assert_eq!(
            started.turn_start - go,
            Duration::from_millis(waited as u64)
        );
        assert_eq!(
            started.remaining_at_start + waited,
            1000,
            "the same deadline"
        );
        assert_eq!(started.opponent_ms_remaining(), 900);
        let fixed = fixed.started_now();
        let waited = i32::try_from((fixed.turn_start - go).as_millis()).unwrap();
        assert_eq!(fixed.deadline, Deadline::Fixed(100 - waited));
    }

    fn limits(depth: Option<u32>, nodes: Option<u64>) -> SearchLimits {
        SearchLimits {
            depth,
            nodes,
            ..SearchLimits::default()
        }
    }

    #[test]
    fn a_clock_stops_a_search_at_the_bots_budget() {
        let timer = Timer::new(60_000, 60_000, 0);
        std::thread::sleep(std::time::Duration::from_millis(5));
        assert!(timer.should_stop(1, 0));
        assert!(!timer.should_stop(60_000, u64::MAX));
        assert!(
            Timer::new(1000, 1000, 0).should_stop(-5, 0),
            "a spent budget stops"
        );
    }

    #[test]
    fn depth_or_nodes_without_a_clock_ignore_the_bots_budget() {
        for timer in [
            Timer::untimed(limits(Some(3), None)),
            Timer::untimed(limits(None, Some(1000))),
        ] {
            std::thread::sleep(std::time::Duration::from_millis(2));
            // A budget of 0 ms is long past, yet only the safety net counts.
            assert!(!timer.should_stop(0, 10));
            assert!(timer.ms_remaining() <= Timer::UNTIMED_MS);
            assert!(timer.ms_remaining() > Timer::UNTIMED_MS / 2);
        }
    }

    #[test]
    fn a_search_by_depth_or_nodes_reads_a_virtual_clock() {
        let readings = |timer: &Timer| -> Vec<i32> {
            (0..3000)
                .map(|i| match i % 3 {
                    0 => timer.ms_elapsed_this_turn(),
                    1 => timer.ms_remaining(),
                    _ => i32::from(timer.should_stop(0, 0)),
                })
                .collect()
        };
        let fixed = [limits(Some(6), None), limits(None, Some(1000))];
        for limits in fixed {
            let first = Timer::untimed(limits);
            std::thread::sleep(std::time::Duration::from_millis(3));
            let again = Timer::untimed(limits);
            assert_eq!(readings(&first), readings(&again), "the same on every run");
            // 3000 readings so far, each one microsecond; a clone reads on.
            assert_eq!(first.clone().ms_elapsed_this_turn(), 3);
            assert_eq!(first.ms_remaining(), Timer::UNTIMED_MS - 3);
        }
        for real in [
            Timer::new(60_000, 60_000, 0).with_limits(limits(Some(6), None)),
            Timer::untimed(SearchLimits::default()),
        ] {
            std::thread::sleep(std::time::Duration::from_millis(3));
            assert!(
                real.ms_elapsed_this_turn() >= 3,
                "a clock or a bare go: real time"
            );
        }
    }

    #[test]
    fn a_bare_go_plays_by_the_made_up_clock() {
        let timer = Timer::untimed(SearchLimits::default());
        std::thread::sleep(std::time::Duration::from_millis(2));
        assert!(timer.should_stop(0, 0));
    }

    #[test]
    fn a_clock_with_a_depth_limit_still_ends_by_the_clock() {
        let timer = Timer::new(1000, 1000, 0).with_limits(limits(Some(30), None));
        std::thread::sleep(std::time::Duration::from_millis(2));
        assert!(timer.should_stop(1, 0));
    }

    #[test]
    fn movetime_overrides_the_bots_budget() {
        let movetime = SearchLimits {
            movetime_ms: Some(60_000),
            ..SearchLimits::default()
        };
        let timer = Timer::untimed(movetime);
        std::thread::sleep(std::time::Duration::from_millis(2));
        assert!(!timer.should_stop(0, 0));
        assert!(timer.ms_remaining() <= 60_000);
        let short = Timer::untimed(SearchLimits {
            movetime_ms: Some(1),
            ..SearchLimits::default()
        });
        std::thread::sleep(std::time::Duration::from_millis(5));
        assert!(short.should_stop(i32::MAX, 0));
    }

    #[test]
    fn infinite_ends_only_with_stop() {
        let stop = Arc::new(AtomicBool::new(false));
        let timer = Timer::untimed(SearchLimits {
            infinite: true,
            ..SearchLimits::default()
        })
        .with_stop_flag(stop.clone());
        assert!(!timer.should_stop(0, u64::MAX));
        assert_eq!(timer.ms_remaining() / 1000, Timer::INFINITE_MS / 1000);
        stop.store(true, Ordering::Relaxed);
        assert!(timer.should_stop(0, 0));
        assert_eq!(timer.ms_remaining(), 0);
    }

    #[test]
    fn max_depth_is_bounded() {
        assert_eq!(
            Timer::untimed(limits(Some(u32::MAX), None)).max_depth(),
            Timer::MAX_DEPTH
        );
        assert_eq!(Timer::untimed(limits(Some(129), None)).max_depth(), 128);
        assert_eq!(Timer::untimed(limits(Some(0), None)).max_depth(), 0);
    }
}

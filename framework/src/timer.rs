//! The bot's clock for one move.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// The clock a bot reads while it thinks.
///
/// A `Timer` is made fresh for every `think` call. All figures are in
/// milliseconds. When the host is told to stop (UCI `stop`), the timer
/// reports no time left, so a bot that checks its clock returns promptly.
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
/// ```
#[derive(Debug, Clone)]
pub struct Timer {
    turn_start: Instant,
    remaining_at_start: u64,
    opponent_remaining: u64,
    increment: u64,
    game_start: u64,
    moves_to_go: Option<u32>,
    stop: Option<Arc<AtomicBool>>,
}

impl Timer {
    /// A timer whose turn starts now, with `remaining_ms` on the bot's clock,
    /// `opponent_ms` on the opponent's and `increment_ms` added per move.
    /// The game's starting time is taken to be `remaining_ms`.
    pub fn new(remaining_ms: u64, opponent_ms: u64, increment_ms: u64) -> Self {
        Timer {
            turn_start: Instant::now(),
            remaining_at_start: remaining_ms,
            opponent_remaining: opponent_ms,
            increment: increment_ms,
            game_start: remaining_ms,
            moves_to_go: None,
            stop: None,
        }
    }

    /// Sets the clock's starting time for this game (the base of the time control).
    ///
    /// ```
    /// # use framework::prelude::*;
    /// let timer = Timer::new(4_000, 4_000, 0).with_game_start_ms(10_000);
    /// assert_eq!(timer.game_start_ms(), 10_000);
    /// ```
    pub fn with_game_start_ms(mut self, game_start_ms: u64) -> Self {
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

    /// Milliseconds left on the bot's clock now (0 once stopped or flagged).
    pub fn ms_remaining(&self) -> u64 {
        if self.is_stopped() {
            return 0;
        }
        self.remaining_at_start
            .saturating_sub(self.ms_elapsed_this_turn())
    }

    /// Milliseconds since this turn started.
    pub fn ms_elapsed_this_turn(&self) -> u64 {
        self.turn_start.elapsed().as_millis() as u64
    }

    /// Milliseconds left on the opponent's clock when this turn started.
    pub fn opponent_ms_remaining(&self) -> u64 {
        self.opponent_remaining
    }

    /// Milliseconds each clock started the game with.
    pub fn game_start_ms(&self) -> u64 {
        self.game_start
    }

    /// Milliseconds added to the bot's clock after each of its moves.
    pub fn increment_ms(&self) -> u64 {
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
}

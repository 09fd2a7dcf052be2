//! Time controls and the clocks the runner keeps for each side.

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use thiserror::Error;

/// A player's time control: a clock (base + increment, optionally per `moves`-move period),
/// a fixed time per move, or node/depth limits for engines that support them.
///
/// Parsed from the cutechess/fastchess spellings:
///
/// ```
/// use std::time::Duration;
/// use runner::TimeControl;
/// let tc: TimeControl = "10+0.1".parse().unwrap();
/// assert_eq!(tc.base, Some(Duration::from_secs(10)));
/// assert_eq!(tc.increment, Duration::from_millis(100));
/// let tc: TimeControl = "40/60".parse().unwrap();
/// assert_eq!((tc.moves, tc.base), (Some(40), Some(Duration::from_secs(60))));
/// assert_eq!(tc.to_string(), "40/60");
/// assert_eq!(TimeControl::movetime(Duration::from_millis(100)).to_string(), "0.1/move");
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct TimeControl {
    /// Starting time on the clock (per period when `moves` is set).
    pub base: Option<Duration>,
    /// Added after each move.
    pub increment: Duration,
    /// Moves per period: the clock is topped up by `base` after every `moves` moves.
    pub moves: Option<u32>,
    /// Fixed time per move (`go movetime`).
    pub movetime: Option<Duration>,
    /// Node limit per move (`go nodes`).
    pub nodes: Option<u64>,
    /// Depth limit per move (`go depth`).
    pub depth: Option<u32>,
}

/// The longest time any part of a time control may have, in seconds (about 11.5 days):
/// longer is surely a typo, and clock arithmetic must stay far from overflow.
pub const MAX_SECONDS: f64 = 1_000_000.0;

/// A time control that could not be read: the text and why.
///
/// ```
/// use runner::TimeControl;
/// let err = "99999999999999999999+0".parse::<TimeControl>().unwrap_err();
/// assert!(err.to_string().contains("more than the maximum of 1000000 seconds"), "{err}");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error(
    "invalid time control `{text}`: {reason}; expected `BASE+INC` in seconds (`10+0.1`), `MOVES/BASE+INC` (`40/60+0`), `SECONDS/move` (`0.1/move`) or `inf`"
)]
pub struct TimeControlError {
    /// The text as given.
    pub text: String,
    /// What is wrong with it.
    pub reason: String,
}

impl TimeControlError {
    fn new(text: &str, reason: impl Into<String>) -> TimeControlError {
        TimeControlError {
            // The text is echoed in the message: keep it one short line.
            text: crate::text::one_line(text, 64),
            reason: reason.into(),
        }
    }
}

/// A number of seconds, as in a time control: finite, not negative, at most [`MAX_SECONDS`].
///
/// ```
/// use std::time::Duration;
/// use runner::parse_seconds;
/// assert_eq!(parse_seconds("0.25"), Ok(Duration::from_millis(250)));
/// assert!(parse_seconds("-1").is_err() && parse_seconds("NaN").is_err() && parse_seconds("1e300").is_err());
/// ```
pub fn parse_seconds(text: &str) -> Result<Duration, String> {
    let word = crate::text::one_line(text, 32);
    let value: f64 = text
        .trim()
        .parse()
        .map_err(|_| format!("`{word}` is not a number of seconds"))?;
    seconds(value)
}

/// `value` seconds as a [`Duration`], if it is finite, not negative and at most
/// [`MAX_SECONDS`]; the error says which it is not.
///
/// ```
/// use runner::seconds;
/// assert_eq!(seconds(1.5).unwrap().as_millis(), 1500);
/// assert!(seconds(f64::INFINITY).unwrap_err().contains("maximum"));
/// ```
pub fn seconds(value: f64) -> Result<Duration, String> {
    if value.is_nan() {
        return Err("NaN is not a number of seconds".to_string());
    }
    if value < 0.0 {
        return Err(format!("{value} seconds is negative"));
    }
    if value > MAX_SECONDS {
        return Err(format!(
            "{value} seconds is more than the maximum of {MAX_SECONDS} seconds"
        ));
    }
    Duration::try_from_secs_f64(value).map_err(|err| format!("{value} seconds: {err}"))
}

impl FromStr for TimeControl {
    type Err = TimeControlError;
    fn from_str(s: &str) -> Result<TimeControl, TimeControlError> {
        let text = s.trim();
        if text == "inf" || text == "infinite" {
            return Ok(TimeControl::default());
        }
        if let Some(per_move) = text.strip_suffix("/move") {
            let movetime = parse_seconds(per_move).map_err(|r| TimeControlError::new(s, r))?;
            if movetime.is_zero() {
                return Err(TimeControlError::new(s, "no time per move"));
            }
            return Ok(TimeControl::movetime(movetime));
        }
        let (moves, rest) = match text.split_once('/') {
            Some((m, rest)) => (
                Some(parse_moves(m).map_err(|r| TimeControlError::new(s, r))?),
                rest,
            ),
            None => (None, text),
        };
        let seconds = |t: &str| parse_seconds(t).map_err(|r| TimeControlError::new(s, r));
        let (base, inc) = match rest.split_once('+') {
            Some((b, i)) => (seconds(b)?, seconds(i)?),
            None => (seconds(rest)?, Duration::ZERO),
        };
        if base.is_zero() && inc.is_zero() {
            return Err(TimeControlError::new(s, "no time at all"));
        }
        Ok(TimeControl {
            base: Some(base),
            increment: inc,
            moves,
            ..TimeControl::default()
        })
    }
}

fn parse_moves(text: &str) -> Result<u32, String> {
    let word = crate::text::one_line(text, 32);
    match text.trim().parse::<u32>() {
        Ok(0) => Err("a period of 0 moves".to_string()),
        Ok(moves) => Ok(moves),
        Err(_) => Err(format!(
            "`{word}` is not a number of moves from 1 to {}",
            u32::MAX
        )),
    }
}

impl TimeControl {
    /// A clock of `base` plus `increment` per move.
    ///
    /// ```
    /// use std::time::Duration;
    /// use runner::TimeControl;
    /// let tc = TimeControl::clock(Duration::from_secs(5), Duration::from_millis(50));
    /// assert_eq!(tc.to_string(), "5+0.05");
    /// ```
    pub fn clock(base: Duration, increment: Duration) -> TimeControl {
        TimeControl {
            base: Some(base),
            increment,
            ..TimeControl::default()
        }
    }

    /// A fixed time per move.
    pub fn movetime(per_move: Duration) -> TimeControl {
        TimeControl {
            movetime: Some(per_move),
            ..TimeControl::default()
        }
    }

    /// A fixed node count per move.
    ///
    /// ```
    /// use runner::TimeControl;
    /// assert_eq!(TimeControl::nodes(1000).to_string(), "-");
    /// ```
    pub fn nodes(nodes: u64) -> TimeControl {
        TimeControl {
            nodes: Some(nodes),
            ..TimeControl::default()
        }
    }

    /// `true` when nothing limits a search in time (only nodes/depth, or nothing).
    pub fn is_untimed(&self) -> bool {
        self.base.is_none() && self.movetime.is_none()
    }
}

fn fmt_secs(d: Duration) -> String {
    let ms = d.as_millis();
    if ms.is_multiple_of(1000) {
        format!("{}", ms / 1000)
    } else {
        format!("{}", d.as_secs_f64())
    }
}

/// The PGN `TimeControl` tag value (`-` when not limited by time).
impl fmt::Display for TimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(base) = self.base {
            if let Some(moves) = self.moves {
                write!(f, "{moves}/")?;
            }
            write!(f, "{}", fmt_secs(base))?;
            if !self.increment.is_zero() {
                write!(f, "+{}", fmt_secs(self.increment))?;
            }
            Ok(())
        } else if let Some(mt) = self.movetime {
            write!(f, "{}/move", fmt_secs(mt))
        } else {
            f.write_str("-")
        }
    }
}

/// One side's clock during a game.
///
/// ```
/// use std::time::Duration;
/// use runner::{Clock, TimeControl};
/// let mut clock = Clock::new("1+0.1".parse().unwrap());
/// assert!(clock.spend(Duration::from_millis(400), Duration::ZERO));
/// assert_eq!(clock.remaining(), Some(Duration::from_millis(700)));
/// // Overstepping by more than the margin is a loss on time.
/// assert!(!clock.spend(Duration::from_millis(900), Duration::from_millis(100)));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Clock {
    tc: TimeControl,
    remaining: Option<Duration>,
    moves_made: u32,
}

impl Clock {
    /// A full clock at the start of a game.
    pub fn new(tc: TimeControl) -> Clock {
        Clock {
            tc,
            remaining: tc.base,
            moves_made: 0,
        }
    }

    /// The time control this clock runs.
    pub fn time_control(&self) -> &TimeControl {
        &self.tc
    }

    /// Time left, for clocks with a base time.
    pub fn remaining(&self) -> Option<Duration> {
        self.remaining
    }

    /// Moves left in the current period, for `moves/base` controls.
    ///
    /// ```
    /// use std::time::Duration;
    /// use runner::Clock;
    /// let mut clock = Clock::new("2/10".parse().unwrap());
    /// assert_eq!(clock.moves_to_go(), Some(2));
    /// clock.spend(Duration::from_secs(1), Duration::ZERO);
    /// assert_eq!(clock.moves_to_go(), Some(1));
    /// clock.spend(Duration::from_secs(1), Duration::ZERO);
    /// // A new period: 8 s left plus another 10.
    /// assert_eq!((clock.moves_to_go(), clock.remaining()), (Some(2), Some(Duration::from_secs(18))));
    /// ```
    pub fn moves_to_go(&self) -> Option<u32> {
        self.tc
            .moves
            .filter(|&m| m > 0)
            .map(|m| m - self.moves_made % m)
    }

    /// How long the runner waits for this side's `bestmove` before declaring a stall:
    /// the time it may legally use plus `margin`, or `untimed` when only nodes/depth limit it.
    ///
    /// ```
    /// use std::time::Duration;
    /// use runner::{Clock, TimeControl};
    /// let (margin, untimed) = (Duration::from_millis(100), Duration::from_secs(60));
    /// assert_eq!(Clock::new("3+1".parse().unwrap()).deadline(margin, untimed), Duration::from_millis(3100));
    /// assert_eq!(Clock::new(TimeControl::nodes(10)).deadline(margin, untimed), untimed);
    /// ```
    pub fn deadline(&self, margin: Duration, untimed: Duration) -> Duration {
        match (self.remaining, self.tc.movetime) {
            (Some(r), _) => r.saturating_add(margin),
            (None, Some(mt)) => mt.saturating_add(margin),
            (None, None) => untimed,
        }
    }

    /// Charges a move that took `elapsed`; returns `false` when it overstepped the
    /// time allowed by more than `margin` (a loss on time). A move within the margin
    /// leaves the clock at zero before the increment.
    pub fn spend(&mut self, elapsed: Duration, margin: Duration) -> bool {
        self.moves_made = self.moves_made.saturating_add(1);
        let Some(remaining) = self.remaining else {
            return self
                .tc
                .movetime
                .is_none_or(|mt| elapsed <= mt.saturating_add(margin));
        };
        if elapsed > remaining.saturating_add(margin) {
            self.remaining = Some(Duration::ZERO);
            return false;
        }
        let mut left = remaining
            .saturating_sub(elapsed)
            .saturating_add(self.tc.increment);
        if let (Some(moves), Some(base)) = (self.tc.moves, self.tc.base)
            && self.moves_made.is_multiple_of(moves)
        {
            left = left.saturating_add(base);
        }
        self.remaining = Some(left);
        true
    }
}

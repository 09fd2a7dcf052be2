//! [`DateTime`] and [`TimeSpan`]: C#'s clock as bots use it, to time a search.
//!
//! The clock is the wall clock read once, then moved on by the monotonic clock: a bot
//! that subtracts two readings gets the time between them, never a jump of the system's
//! time (which .NET's `UtcNow` would show, and no bot means).

use std::sync::OnceLock;
use std::time::{Instant, SystemTime, UNIX_EPOCH};

/// Ticks (100 ns) from 0001-01-01 to 1970-01-01, .NET's `UnixEpochTicks`.
const UNIX_EPOCH_TICKS: i64 = 621_355_968_000_000_000;
/// .NET's `TimeSpan.TicksPerMillisecond`.
const TICKS_PER_MS: i64 = 10_000;
/// .NET's `TimeSpan.TicksPerSecond`.
const TICKS_PER_SECOND: i64 = 10_000_000;
/// .NET's `TimeSpan.TicksPerMinute`.
const TICKS_PER_MINUTE: i64 = 60 * TICKS_PER_SECOND;
/// .NET's `TimeSpan.TicksPerHour`.
const TICKS_PER_HOUR: i64 = 60 * TICKS_PER_MINUTE;

/// C#'s `DateTime`, as a clock: `DateTime.UtcNow` (and `DateTime.Now`, whose time zone no
/// bot's arithmetic sees), its `Ticks`, and the [`TimeSpan`] between two readings.
///
/// ```
/// use framework::prelude::*;
/// let start = cs::DateTime::utc_now();
/// let elapsed = cs::DateTime::utc_now().minus(start); // DateTime.UtcNow - start
/// assert!(elapsed >= cs::TimeSpan::ZERO && elapsed < cs::TimeSpan::from_seconds(1.0));
/// assert!(start.ticks() > 638_000_000_000_000_000); // after 2022
/// assert!(start.hour() < 24 && start.minute() < 60 && start.second() < 60);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub struct DateTime(i64);

impl DateTime {
    /// `DateTime.UtcNow`.
    pub fn utc_now() -> DateTime {
        static ANCHOR: OnceLock<(Instant, i64)> = OnceLock::new();
        let (at, ticks) = *ANCHOR.get_or_init(|| {
            let since_epoch = SystemTime::now()
                .duration_since(UNIX_EPOCH)
                .unwrap_or_default();
            (
                Instant::now(),
                UNIX_EPOCH_TICKS + (since_epoch.as_nanos() / 100) as i64,
            )
        });
        DateTime(ticks + (at.elapsed().as_nanos() / 100) as i64)
    }

    /// `Ticks`: 100-nanosecond ticks since 0001-01-01.
    pub fn ticks(&self) -> i64 {
        self.0
    }

    /// `Hour`: the hour of the day, 0 to 23.
    pub fn hour(&self) -> i32 {
        ((self.0 / TICKS_PER_HOUR) % 24) as i32
    }

    /// `Minute`: the minute of the hour, 0 to 59.
    pub fn minute(&self) -> i32 {
        ((self.0 / TICKS_PER_MINUTE) % 60) as i32
    }

    /// `Second`: the second of the minute, 0 to 59.
    pub fn second(&self) -> i32 {
        ((self.0 / TICKS_PER_SECOND) % 60) as i32
    }

    /// `ToOADate()`: days since 1899-12-30 (OLE Automation's day 0), whole
    /// milliseconds only, as .NET's `TicksToOADate`; before that day the fraction counts
    /// forward from the (negative) day, and .NET's `OverflowException` before year 100 is
    /// a panic.
    ///
    /// ```
    /// use framework::prelude::*;
    /// assert!(cs::DateTime::utc_now().to_oa_date() > 45_000.0); // after 2023
    /// ```
    #[track_caller]
    pub fn to_oa_date(&self) -> f64 {
        oa_date(self.0)
    }

    /// `a - b` of two `DateTime`s.
    pub fn minus(self, earlier: DateTime) -> TimeSpan {
        TimeSpan(self.0 - earlier.0)
    }
}

/// .NET's `DateTime.TicksToOADate`.
#[track_caller]
fn oa_date(ticks: i64) -> f64 {
    const TICKS_PER_DAY: i64 = 24 * TICKS_PER_HOUR;
    const MILLIS_PER_DAY: i64 = 86_400_000;
    // Day 0 of OLE Automation, 1899-12-30, and its earliest day, 0100-01-01.
    const DOUBLE_DATE_OFFSET: i64 = 693_593 * TICKS_PER_DAY;
    const OA_DATE_MIN_AS_TICKS: i64 = (36_524 - 365) * TICKS_PER_DAY;
    if ticks == 0 {
        return 0.0;
    }
    // A time of day alone (day 1 of year 1) counts from day 0, as .NET's.
    let ticks = if ticks < TICKS_PER_DAY {
        ticks + DOUBLE_DATE_OFFSET
    } else {
        ticks
    };
    assert!(
        ticks >= OA_DATE_MIN_AS_TICKS,
        "not a valid OLE Automation date (OverflowException)"
    );
    let mut millis = (ticks - DOUBLE_DATE_OFFSET) / TICKS_PER_MS;
    if millis < 0 {
        let frac = millis % MILLIS_PER_DAY;
        if frac != 0 {
            millis -= (MILLIS_PER_DAY + frac) * 2;
        }
    }
    millis as f64 / MILLIS_PER_DAY as f64
}

/// C#'s `TimeSpan`: a signed count of 100-nanosecond ticks; `<`, `==`... compare the
/// counts, as C#'s operators do.
///
/// ```
/// use framework::prelude::*;
/// let budget = cs::TimeSpan::from_milliseconds(1500.0); // TimeSpan.FromMilliseconds(1500)
/// assert_eq!(budget.total_milliseconds(), 1500.0);
/// assert_eq!((budget.seconds(), budget.milliseconds()), (1, 500));
/// assert_eq!(budget.total_seconds(), 1.5);
/// assert!(cs::TimeSpan::from_seconds(1.4) < budget);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub struct TimeSpan(i64);

impl TimeSpan {
    /// `TimeSpan.Zero`.
    pub const ZERO: TimeSpan = TimeSpan(0);

    /// `new TimeSpan(ticks)` and `TimeSpan.FromTicks(ticks)`.
    pub fn from_ticks(ticks: i64) -> TimeSpan {
        TimeSpan(ticks)
    }

    /// `TimeSpan.FromMilliseconds(value)` (.NET 6's, of a `double`): the ticks truncated
    /// toward zero; panics on NaN or out of range (C#'s `ArgumentException`,
    /// `OverflowException`).
    #[track_caller]
    pub fn from_milliseconds(value: f64) -> TimeSpan {
        TimeSpan::interval(value, TICKS_PER_MS as f64)
    }

    /// `TimeSpan.FromSeconds(value)`, as [`from_milliseconds`](Self::from_milliseconds).
    #[track_caller]
    pub fn from_seconds(value: f64) -> TimeSpan {
        TimeSpan::interval(value, TICKS_PER_SECOND as f64)
    }

    /// .NET's `TimeSpan.Interval` and `IntervalFromDoubleTicks`.
    #[track_caller]
    fn interval(value: f64, scale: f64) -> TimeSpan {
        assert!(!value.is_nan(), "TimeSpan does not accept a NaN");
        let ticks = value * scale;
        assert!(
            (i64::MIN as f64..=i64::MAX as f64).contains(&ticks),
            "the TimeSpan is too long"
        );
        TimeSpan(ticks as i64)
    }

    /// `Ticks`.
    pub fn ticks(&self) -> i64 {
        self.0
    }

    /// `TotalMilliseconds`: the ticks in milliseconds, with the fraction.
    pub fn total_milliseconds(&self) -> f64 {
        // .NET clamps to the milliseconds a `long` of ticks can hold.
        let limit = (i64::MAX / TICKS_PER_MS) as f64;
        (self.0 as f64 / TICKS_PER_MS as f64).clamp(-limit, limit)
    }

    /// `TotalSeconds`.
    pub fn total_seconds(&self) -> f64 {
        self.0 as f64 / TICKS_PER_SECOND as f64
    }

    /// `Milliseconds`: the milliseconds of the time's seconds (-999 to 999).
    pub fn milliseconds(&self) -> i32 {
        (self.0 / TICKS_PER_MS % 1000) as i32
    }

    /// `Seconds`: the seconds of the time's minutes (-59 to 59).
    pub fn seconds(&self) -> i32 {
        (self.0 / TICKS_PER_SECOND % 60) as i32
    }

    /// `a + b`; panics on overflow (C#'s `OverflowException`).
    #[track_caller]
    pub fn plus(self, other: TimeSpan) -> TimeSpan {
        TimeSpan(
            self.0
                .checked_add(other.0)
                .expect("the TimeSpan is too long"),
        )
    }

    /// `a - b`; panics on overflow.
    #[track_caller]
    pub fn minus(self, other: TimeSpan) -> TimeSpan {
        TimeSpan(
            self.0
                .checked_sub(other.0)
                .expect("the TimeSpan is too long"),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn from_double_truncates_toward_zero_as_dotnet() {
        // 0.00015 ms is 1.5 ticks; -2.5 seconds' components are negative.
        assert_eq!(TimeSpan::from_milliseconds(0.00015).ticks(), 1);
        let back = TimeSpan::from_seconds(-2.5);
        assert_eq!((back.seconds(), back.milliseconds()), (-2, -500));
        assert_eq!(back.total_milliseconds(), -2500.0);
    }

    #[test]
    fn time_of_day_counts_from_midnight() {
        // 1970-01-01 13:45:30.5 UTC.
        let t = UNIX_EPOCH_TICKS
            + 13 * TICKS_PER_HOUR
            + 45 * TICKS_PER_MINUTE
            + 305 * TICKS_PER_MS * 100;
        let d = DateTime(t);
        assert_eq!((d.hour(), d.minute(), d.second()), (13, 45, 30));
        let midnight = DateTime(UNIX_EPOCH_TICKS + 24 * TICKS_PER_HOUR - 1);
        assert_eq!(
            (midnight.hour(), midnight.minute(), midnight.second()),
            (23, 59, 59)
        );
    }

    #[test]
    fn oa_dates_count_days_from_1899_12_30() {
        let day = 24 * TICKS_PER_HOUR;
        // 2000-01-01 is day 730119 of the calendar, 1970-01-01 day 719162.
        assert_eq!(DateTime(730_119 * day).to_oa_date(), 36_526.0);
        assert_eq!(
            DateTime(UNIX_EPOCH_TICKS + 12 * TICKS_PER_HOUR).to_oa_date(),
            25_569.5
        );
        // 1899-12-29 06:00: day -1, a quarter day on: -1.25.
        assert_eq!(
            DateTime((693_592 * day) + 6 * TICKS_PER_HOUR).to_oa_date(),
            -1.25
        );
        assert_eq!(DateTime(0).to_oa_date(), 0.0);
        // 06:00 of day 1 of year 1 is read as 1899-12-30 06:00.
        assert_eq!(DateTime(6 * TICKS_PER_HOUR).to_oa_date(), 0.25);
        assert!(std::panic::catch_unwind(|| DateTime(2 * day).to_oa_date()).is_err());
    }

    #[test]
    fn the_clock_never_goes_back() {
        let a = DateTime::utc_now();
        let b = DateTime::utc_now();
        assert!(b.minus(a) >= TimeSpan::ZERO);
    }

    #[test]
    #[should_panic(expected = "too long")]
    fn overflow_panics_as_dotnet_throws() {
        TimeSpan::from_ticks(i64::MAX).plus(TimeSpan::from_ticks(1));
    }
}

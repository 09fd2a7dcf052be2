//! The command line's `KEY=VALUE` words and the values they carry, read where every
//! command that takes them can reuse them: time controls, seconds, player names and
//! `--sprt` bounds. The `--engine` words built on them are [`crate::EngineSpec`].

use std::time::Duration;

use anyhow::{Context, Result, bail};
use runner::{Sprt, TimeControl};

/// Splits `KEY=VALUE` words, trimming both sides; `what` names the option in the error.
///
/// ```
/// let words = ["elo0=0".to_string(), " elo1 = 5".to_string()];
/// let pairs = measure::key_values(&words, "--sprt").unwrap();
/// assert_eq!(pairs[1], ("elo1".to_string(), "5".to_string()));
/// assert!(measure::key_values(&["bot".to_string()], "--engine").is_err());
/// ```
pub fn key_values<S: AsRef<str>>(words: &[S], what: &str) -> Result<Vec<(String, String)>> {
    words
        .iter()
        .map(|w| {
            let w = w.as_ref();
            let (k, v) = w.split_once('=').with_context(|| {
                format!("{what}: `{w}` is not KEY=VALUE (bots go before --engine; quote values with spaces)")
            })?;
            Ok((k.trim().to_string(), v.trim().to_string()))
        })
        .collect()
}

/// The longest clock the kit accepts: a week, far beyond any game, far below overflow.
pub const MAX_SECONDS: f64 = 7.0 * 24.0 * 3600.0;

/// A positive number of seconds, at most a week ([`MAX_SECONDS`]).
///
/// ```
/// assert_eq!(measure::seconds("0.5"), Ok(std::time::Duration::from_millis(500)));
/// assert!(measure::seconds("0").is_err());
/// ```
pub fn seconds(text: &str) -> Result<Duration, String> {
    let secs: f64 = text
        .trim()
        .parse()
        .map_err(|_| format!("`{text}` is not a number of seconds"))?;
    if !(secs.is_finite() && secs > 0.0 && secs <= MAX_SECONDS) {
        return Err(format!(
            "`{text}`: expected more than 0 and at most {MAX_SECONDS} seconds"
        ));
    }
    Ok(Duration::from_secs_f64(secs))
}

/// A time control, each number checked against [`MAX_SECONDS`] first (so no huge value
/// reaches the clock's arithmetic). `0.1/move`, the spelling `run` used to have for a
/// fixed time per move, is still read as `--st 0.1`.
///
/// ```
/// let tc = measure::time_control("10+0.1").unwrap();
/// assert_eq!(tc.increment, std::time::Duration::from_millis(100));
/// assert!(measure::time_control("1e300+0").is_err());
/// ```
pub fn time_control(text: &str) -> Result<TimeControl, String> {
    if let Some(per_move) = text.trim().strip_suffix("/move") {
        return seconds(per_move).map(TimeControl::movetime);
    }
    let clock = text.rsplit('/').next().unwrap_or(text);
    for number in clock.split('+') {
        if number
            .trim()
            .parse::<f64>()
            .is_ok_and(|n| !(n.is_finite() && n <= MAX_SECONDS))
        {
            return Err(format!(
                "`{text}`: times must be at most {MAX_SECONDS} seconds"
            ));
        }
    }
    text.parse::<TimeControl>().map_err(|e| e.to_string())
}

/// Refuses a player name too long to show or store (`--engine name=`).
///
/// ```
/// assert!(measure::check_name_length("sf", "--engine name").is_ok());
/// assert!(measure::check_name_length(&"x".repeat(201), "--engine name").is_err());
/// ```
pub fn check_name_length(name: &str, what: &str) -> Result<()> {
    if name.chars().count() > 200 {
        bail!(
            "{what}: a name of {} characters is too long (at most 200)",
            name.chars().count()
        );
    }
    Ok(())
}

/// A GSPRT from `--sprt` words: `elo0=0 elo1=5 alpha=0.05 beta=0.05`, any omitted
/// taking these values.
///
/// ```
/// let sprt = measure::sprt_from_words(&["elo1=10"]).unwrap();
/// assert_eq!((sprt.elo0, sprt.elo1), (0.0, 10.0));
/// assert!(measure::sprt_from_words(&["elo2=1"]).is_err());
/// ```
pub fn sprt_from_words<S: AsRef<str>>(words: &[S]) -> Result<Sprt> {
    let (mut elo0, mut elo1, mut alpha, mut beta) = (0.0, 5.0, 0.05, 0.05);
    for (k, v) in key_values(words, "--sprt")? {
        let value: f64 = v
            .parse()
            .with_context(|| format!("--sprt {k}={v}: expected a number"))?;
        match k.as_str() {
            "elo0" => elo0 = value,
            "elo1" => elo1 = value,
            "alpha" => alpha = value,
            "beta" => beta = value,
            _ => bail!("--sprt: unknown key `{k}` (expected elo0, elo1, alpha, beta)"),
        }
    }
    Sprt::new(elo0, elo1, alpha, beta).map_err(anyhow::Error::msg)
}

//! Engine evaluations as lichess and python-chess write them in PGN comments (`[%eval
//! 0.23]`, `[%eval #-3]`), and lichess's Win% of an evaluation: what the evaluation graph
//! draws and what the analysis (`measure`'s `analyze`) scores moves by.
//!
//! Win% follows scalachess `core/src/main/scala/eval.scala` (`WinPercent`), described on
//! <https://lichess.org/page/accuracy>.

use std::fmt;

use framework::chess::Color;
use runner::Score;

/// lila's cap on centipawns for Win% and centipawn loss (`Eval.Cp.CEILING`).
pub const CP_CEILING: i32 = 1000;

/// lila's Win% slope (lila pull request 11148, scalachess `WinPercent.winningChances`).
pub const WIN_SLOPE: f64 = 0.003_682_08;

/// An engine evaluation from White's point of view.
///
/// ```
/// use results::Eval;
/// assert_eq!(Eval::Cp(23).to_string(), "0.23");
/// assert_eq!(Eval::Cp(-150).to_string(), "-1.50");
/// assert_eq!(Eval::Mate(-3).to_string(), "#-3");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Eval {
    /// Centipawns; positive is good for White.
    Cp(i32),
    /// Mate in this many moves; positive: White mates, negative: Black mates. Never 0.
    Mate(i32),
}

impl Eval {
    /// Turns an engine's score (from the side to move) into White's view. `mate 0` means
    /// the side to move is mated, which an engine cannot say of a position with legal moves,
    /// so it is refused (`None`).
    ///
    /// ```
    /// use results::Eval;
    /// use framework::chess::Color;
    /// use runner::Score;
    /// assert_eq!(Eval::from_engine(Score::Cp(40), Color::Black), Some(Eval::Cp(-40)));
    /// assert_eq!(Eval::from_engine(Score::Mate(2), Color::Black), Some(Eval::Mate(-2)));
    /// assert_eq!(Eval::from_engine(Score::Mate(0), Color::White), None);
    /// ```
    pub fn from_engine(score: Score, to_move: Color) -> Option<Eval> {
        let sign = if to_move == Color::White { 1 } else { -1 };
        match score {
            Score::Cp(cp) => Some(Eval::Cp(cp.saturating_mul(sign))),
            Score::Mate(0) => None,
            Score::Mate(moves) => Some(Eval::Mate(moves.saturating_mul(sign))),
        }
    }

    /// Centipawns capped at ±[`CP_CEILING`], mates counting as the cap (lila's
    /// `forceAsCp` followed by `ceiled`).
    ///
    /// ```
    /// use results::Eval;
    /// assert_eq!(Eval::Cp(-2500).ceiled_cp(), -1000);
    /// assert_eq!(Eval::Mate(5).ceiled_cp(), 1000);
    /// ```
    pub fn ceiled_cp(self) -> i32 {
        match self {
            Eval::Cp(cp) => cp.clamp(-CP_CEILING, CP_CEILING),
            Eval::Mate(moves) if moves > 0 => CP_CEILING,
            Eval::Mate(_) => -CP_CEILING,
        }
    }

    /// The comment lichess and python-chess read: `[%eval 0.23]`, `[%eval #-3]`.
    ///
    /// ```
    /// use results::Eval;
    /// assert_eq!(Eval::Mate(4).pgn_comment(), "[%eval #4]");
    /// ```
    pub fn pgn_comment(self) -> String {
        format!("[%eval {self}]")
    }
}

impl fmt::Display for Eval {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Eval::Cp(cp) => {
                let sign = if cp < 0 { "-" } else { "" };
                let abs = cp.unsigned_abs();
                write!(f, "{sign}{}.{:02}", abs / 100, abs % 100)
            }
            Eval::Mate(moves) => write!(f, "#{moves}"),
        }
    }
}

/// White's winning chances in [-1, 1] for `cp` centipawns, uncapped (scalachess
/// `WinPercent.winningChances`, which lila's advice uses directly).
///
/// ```
/// use results::winning_chances;
/// assert_eq!(winning_chances(0.0), 0.0);
/// assert!((winning_chances(100.0) + winning_chances(-100.0)).abs() < 1e-12);
/// ```
pub fn winning_chances(cp: f64) -> f64 {
    (2.0 / (1.0 + (-WIN_SLOPE * cp).exp()) - 1.0).clamp(-1.0, 1.0)
}

/// White's Win% (0..100) in a position: `50 + 50 * winning_chances(cp)` with `cp` capped
/// at ±10.00 and mates counting as the cap (scalachess `WinPercent.fromScore`).
///
/// ```
/// use results::{win_percent, Eval};
/// // lichess's page: +1.00 is about 59% for White.
/// assert_eq!(win_percent(Eval::Cp(100)).round(), 59.0);
/// assert_eq!(win_percent(Eval::Cp(5000)), win_percent(Eval::Cp(1000)));
/// ```
pub fn win_percent(eval: Eval) -> f64 {
    50.0 + 50.0 * winning_chances(f64::from(eval.ceiled_cp()))
}

/// The first `[%eval ...]` of a comment, as lichess and python-chess write it (`0.23`,
/// `-1.5`, `#-3`, optionally followed by `,depth`).
///
/// ```
/// use results::{parse_eval, Eval};
/// assert_eq!(parse_eval("[%eval -1.5] [%clk 0:01:00]"), Some(Eval::Cp(-150)));
/// assert_eq!(parse_eval("[%eval #-3,20]"), Some(Eval::Mate(-3)));
/// assert_eq!(parse_eval("[%eval 1e9]"), None);
/// ```
pub fn parse_eval(comment: &str) -> Option<Eval> {
    let at = comment.find("[%eval ")?;
    let rest = &comment[at + "[%eval ".len()..];
    let value = rest[..rest.find(']')?].split(',').next()?.trim();
    if let Some(mate) = value.strip_prefix('#') {
        return mate.parse().ok().filter(|&m| m != 0).map(Eval::Mate);
    }
    let ok = value
        .chars()
        .all(|c| c.is_ascii_digit() || c == '.' || c == '-' || c == '+');
    let pawns: f64 = value.parse().ok().filter(|_| ok)?;
    let cp = (pawns * 100.0).round();
    (cp.abs() <= f64::from(i32::MAX / 2)).then_some(Eval::Cp(cp as i32))
}

//! The evidence of an engine's fault, held against what the organiser knows: the time
//! control, the times the moves record, the final position.
//!
//! A crash, a loss on time or an illegal answer leaves no trace in the moves, so a game
//! that ends by one counts only with the evidence the runner keeps ([`Evidence`]): both
//! clocks when the turn began, how long the turn lasted, the faulty engine's answer and its
//! stderr. The check replays the clocks from the time control and the moves' recorded
//! times (the runner writes each engine move's time in its comment, `0.123s`): the clocks
//! the evidence states must be those, no earlier move may have lost on time, a loss on
//! time must come after the clock ran out, any other fault before the runner's deadline,
//! a fault at the start before any engine move, an illegal answer must be illegal in the
//! final position, and the stderr must be no more than the runner keeps.
//!
//! What this cannot tell: a worker that invents a consistent story (a crash on the first
//! move with a plausible stderr) passes it. That is what `--confirm-claims` is for, and
//! what `docs/guide/scaling.md` says plainly.

use std::time::Duration;

use framework::chess::{Board, Color, MoveError};
use framework::notation::pgn::PgnGame;
use runner::{
    Clock, MAX_STDERR_LINE_CHARS, STDERR_TAIL_BYTES, STDERR_TAIL_LINES, Termination, TimeControl,
};
use store::Evidence;

/// How late past the runner's deadline a fault other than a stall may still be told: the
/// runner waits up to half a second for a dead engine's last stderr lines, and a loaded
/// machine is slow.
const SLACK: Duration = Duration::from_secs(2);

/// What the evidence is held against.
pub(super) struct Fault<'a> {
    /// The game as stored.
    pub pgn: &'a PgnGame,
    /// Its book plies (the engines' moves come after them).
    pub book: usize,
    /// The final position.
    pub board: &'a Board,
    /// The recorded ending.
    pub termination: Termination,
    /// The side recorded at fault.
    pub side: Color,
    /// The tournament's time control, when known.
    pub time_control: Option<TimeControl>,
    /// The tournament's margin past the clock.
    pub margin: Duration,
}

impl Fault<'_> {
    /// Whether `evidence` shows this fault; the reason it does not.
    pub fn check(&self, evidence: Option<&Evidence>) -> Result<(), String> {
        let t = self.termination;
        let Some(evidence) = evidence else {
            return Err(format!(
                "it claims {t} with no evidence (the clocks and the engine's stderr)"
            ));
        };
        check_stderr(&evidence.stderr)?;
        let engine_moves = self.pgn.moves.len() > self.book;
        let at_start_only = matches!(t, Termination::FailedStart | Termination::ConstructionLimit);
        if evidence.at_start && engine_moves {
            return Err(format!(
                "its evidence puts {t} at the start, after engine moves"
            ));
        }
        if at_start_only && !evidence.at_start {
            return Err(format!("its evidence puts {t} on a move, not at the start"));
        }
        self.check_answer(evidence)?;
        let Some(tc) = self.time_control else {
            return Ok(());
        };
        let left = self.clocks(tc)?;
        self.check_clocks(evidence, left)?;
        if evidence.at_start {
            return Ok(());
        }
        self.check_turn(evidence, left[self.side.index()], tc)
    }

    /// An illegal or unparsable answer must be one in the final position.
    fn check_answer(&self, evidence: &Evidence) -> Result<(), String> {
        let t = self.termination;
        let (illegal, unparsable) = (
            t == Termination::IllegalMove,
            t == Termination::UnparsableMove,
        );
        if !illegal && !unparsable {
            return Ok(());
        }
        let Some(answer) = evidence.answer.as_deref() else {
            return Err(format!("its evidence of {t} holds no answer"));
        };
        let null = answer == "0000" || answer == "(none)";
        let shown = match self.board.parse_uci(answer) {
            Ok(_) => false,
            Err(MoveError::Illegal(_)) => illegal,
            Err(MoveError::Syntax(_)) => (illegal && null) || (unparsable && !null),
        };
        if !shown {
            return Err(format!(
                "its evidence's answer `{}` is no {t} in its final position",
                runner::one_line(answer, 40)
            ));
        }
        Ok(())
    }

    /// Both clocks after the engines' moves, replayed from the time control and the
    /// times the moves record; refused when a move's time is missing or lost on time.
    fn clocks(&self, tc: TimeControl) -> Result<[Option<Duration>; 2], String> {
        let mut clocks = [Clock::new(tc), Clock::new(tc)];
        let first = self.pgn.start.side_to_move();
        for (ply, comment) in self.pgn.comments.iter().enumerate().skip(self.book) {
            let mover = if ply % 2 == 0 { first } else { !first };
            let Some(spent) = comment.as_deref().and_then(move_time) else {
                return Err(format!(
                    "its move at ply {} records no time to check the claimed clocks against",
                    ply + 1
                ));
            };
            if !clocks[mover.index()].spend(spent, self.margin) {
                return Err(format!(
                    "its recorded times lose on time at ply {}, before its end",
                    ply + 1
                ));
            }
        }
        Ok(clocks.map(|c| c.remaining()))
    }

    /// The clocks the evidence states must be the replayed ones, give or take the
    /// rounding of each recorded time to the millisecond.
    fn check_clocks(&self, evidence: &Evidence, left: [Option<Duration>; 2]) -> Result<(), String> {
        let moves = self.pgn.moves.len().saturating_sub(self.book) as u64;
        let tolerance = moves / 2 + 2;
        for (side, (claimed, replayed)) in Color::ALL.iter().zip(evidence.left_ms.iter().zip(left))
        {
            let agree = match (claimed, replayed) {
                (None, None) => true,
                (Some(claimed), Some(replayed)) => claimed.abs_diff(millis(replayed)) <= tolerance,
                _ => false,
            };
            if !agree {
                return Err(format!(
                    "its evidence gives {side:?} {} left, its moves' times {}",
                    shown_ms(*claimed),
                    shown_ms(replayed.map(millis))
                ));
            }
        }
        Ok(())
    }

    /// The turn's length against the clock of the side at fault (`left`): past it and the
    /// margin for a loss on time or a stall, within the runner's deadline for the rest.
    fn check_turn(
        &self,
        evidence: &Evidence,
        left: Option<Duration>,
        tc: TimeControl,
    ) -> Result<(), String> {
        let t = self.termination;
        let allowed = match (left, tc.movetime) {
            (Some(left), _) => left,
            (None, Some(per_move)) => per_move,
            (None, None) => return Ok(()),
        };
        let deadline = millis(allowed.saturating_add(self.margin));
        let turn = evidence.turn_ms;
        let late = matches!(t, Termination::TimeForfeit | Termination::Stall);
        if late && turn.saturating_add(1) < deadline {
            return Err(format!(
                "its evidence ends the turn after {turn} ms, within the clock's {deadline} ms: no {t}"
            ));
        }
        let grace = runner::GameSettings::default().stall_grace;
        if !late && turn > deadline.saturating_add(millis(grace + SLACK)) {
            return Err(format!(
                "its evidence ends the turn after {turn} ms, past the runner's deadline: a stall, not {t}"
            ));
        }
        Ok(())
    }
}

/// An engine move's time from its comment (`+0.35/12 0.123s`, the fault's detail after a
/// comma on the last move): the first word that is seconds.
fn move_time(comment: &str) -> Option<Duration> {
    comment
        .split_whitespace()
        .map(|word| word.trim_end_matches(','))
        .find_map(|word| {
            let seconds: f64 = word.strip_suffix('s')?.parse().ok()?;
            (seconds.is_finite() && seconds >= 0.0).then(|| Duration::from_secs_f64(seconds))
        })
}

/// The stderr may hold no more than the runner keeps of an engine's.
fn check_stderr(stderr: &[String]) -> Result<(), String> {
    let bytes: usize = stderr.iter().map(String::len).sum();
    let longest = stderr.iter().map(|l| l.chars().count()).max().unwrap_or(0);
    // Host labels in scrubbed lines may be a little longer than what they replace.
    if stderr.len() > STDERR_TAIL_LINES
        || longest > MAX_STDERR_LINE_CHARS + 1
        || bytes > 2 * STDERR_TAIL_BYTES
    {
        return Err(format!(
            "its evidence holds more stderr than the runner keeps ({} lines, {bytes} bytes)",
            stderr.len()
        ));
    }
    Ok(())
}

fn millis(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

fn shown_ms(ms: Option<u64>) -> String {
    ms.map_or_else(|| "no clock".into(), |ms| format!("{ms} ms"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_moves_time_is_the_first_word_in_seconds() {
        let ms = |c: &str| move_time(c).map(|d| d.as_millis());
        assert_eq!(ms("+0.35/12 0.123s"), Some(123));
        assert_eq!(ms("0.050s"), Some(50));
        assert_eq!(ms("-M2/7 1.500s, White (a) crashed (signal 6)"), Some(1500));
        assert_eq!(ms("book"), None);
        assert_eq!(ms("+0.35/12"), None);
    }
}

//! Reading a [`Termination`] back from its PGN tag, so stored games keep their types.

use std::str::FromStr;

use thiserror::Error;

use super::game::Termination;

impl Termination {
    /// Every termination, in declaration order.
    pub const ALL: [Termination; 18] = [
        Termination::Checkmate,
        Termination::Stalemate,
        Termination::Repetition,
        Termination::FiftyMoves,
        Termination::InsufficientMaterial,
        Termination::TimeForfeit,
        Termination::Stall,
        Termination::IllegalMove,
        Termination::UnparsableMove,
        Termination::Crash,
        Termination::MemoryLimit,
        Termination::FailedStart,
        Termination::ConstructionLimit,
        Termination::ProtocolViolation,
        Termination::AdjudicatedDraw,
        Termination::AdjudicatedResign,
        Termination::MaxLength,
        Termination::Interrupted,
    ];
}

/// A new variant must be added to [`Termination::ALL`]: this match stops compiling until
/// it is handled here, which is the reminder.
const fn listed(t: Termination) -> bool {
    match t {
        Termination::Checkmate
        | Termination::Stalemate
        | Termination::Repetition
        | Termination::FiftyMoves
        | Termination::InsufficientMaterial
        | Termination::TimeForfeit
        | Termination::Stall
        | Termination::IllegalMove
        | Termination::UnparsableMove
        | Termination::Crash
        | Termination::MemoryLimit
        | Termination::FailedStart
        | Termination::ConstructionLimit
        | Termination::ProtocolViolation
        | Termination::AdjudicatedDraw
        | Termination::AdjudicatedResign
        | Termination::MaxLength
        | Termination::Interrupted => true,
    }
}

/// A string that is no [`Termination`]'s tag.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("`{0}` is not a termination the runner writes")]
pub struct TerminationParseError(pub String);

impl FromStr for Termination {
    type Err = TerminationParseError;

    /// The termination whose [`tag`](Termination::tag) is `s`.
    ///
    /// ```
    /// use runner::Termination;
    /// assert_eq!("memory limit".parse(), Ok(Termination::MemoryLimit));
    /// assert!("resigned".parse::<Termination>().is_err());
    /// ```
    fn from_str(s: &str) -> Result<Termination, TerminationParseError> {
        Termination::ALL
            .into_iter()
            .find(|t| listed(*t) && t.tag() == s)
            .ok_or_else(|| TerminationParseError(s.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_tag_reads_back_and_tags_are_distinct() {
        for t in Termination::ALL {
            assert_eq!(t.tag().parse::<Termination>(), Ok(t));
        }
        let mut tags: Vec<&str> = Termination::ALL.iter().map(|t| t.tag()).collect();
        tags.sort_unstable();
        tags.dedup();
        assert_eq!(tags.len(), Termination::ALL.len());
    }
}

//! Reading a [`Termination`] back from its PGN tag, so stored games keep their types.

use std::str::FromStr;

use strum::VariantArray;
use thiserror::Error;

use framework::notation::PgnGame;

use super::game::{TERMINATION_DETAILS_TAG, Termination};

impl Termination {
    /// Every termination, in declaration order. Derived from the enum itself
    /// (strum's `VariantArray`), so a new variant is in it without being listed by hand:
    /// parsing its [`tag`](Termination::tag) back, which goes through this list, cannot
    /// miss it.
    ///
    /// ```
    /// use runner::Termination;
    /// assert_eq!(Termination::ALL[0], Termination::Checkmate);
    /// assert!(Termination::ALL.contains(&Termination::Interrupted));
    /// ```
    pub const ALL: &'static [Termination] = <Termination as VariantArray>::VARIANTS;
}

impl Termination {
    /// The termination a PGN game records: its [`TERMINATION_DETAILS_TAG`],
    /// or, in files written before that tag existed, a `Termination` tag
    /// holding the kit's own name. `None` for other PGN (a standard value
    /// alone does not say which of the kit's terminations it was).
    ///
    /// ```
    /// use framework::notation::PgnGame;
    /// use runner::Termination;
    /// let mut game = PgnGame::default();
    /// game.set_tag("Termination", "abandoned");
    /// assert_eq!(Termination::from_pgn(&game), None);
    /// game.set_tag("TerminationDetails", "crash");
    /// assert_eq!(Termination::from_pgn(&game), Some(Termination::Crash));
    /// let mut old = PgnGame::default();
    /// old.set_tag("Termination", "stall");
    /// assert_eq!(Termination::from_pgn(&old), Some(Termination::Stall));
    /// ```
    pub fn from_pgn(game: &PgnGame) -> Option<Termination> {
        game.tag(TERMINATION_DETAILS_TAG)
            .or_else(|| game.tag("Termination"))
            .and_then(|value| value.parse().ok())
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
            .iter()
            .copied()
            .find(|t| t.tag() == s)
            .ok_or_else(|| TerminationParseError(s.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const STANDARD: [&str; 8] = [
        "abandoned",
        "adjudication",
        "death",
        "emergency",
        "normal",
        "rules infraction",
        "time forfeit",
        "unterminated",
    ];

    #[test]
    fn pgn_values_are_the_standards_and_details_read_back() {
        for &t in Termination::ALL {
            assert!(STANDARD.contains(&t.pgn_value()), "{t:?}");
            let mut game = PgnGame::default();
            game.set_tag("Termination", t.pgn_value());
            game.set_tag(TERMINATION_DETAILS_TAG, t.tag());
            assert_eq!(Termination::from_pgn(&game), Some(t));
        }
        // An engine's fault is never a normal ending.
        for &t in Termination::ALL.iter().filter(|t| t.is_fault()) {
            assert_ne!(t.pgn_value(), "normal", "{t:?}");
        }
    }

    #[test]
    fn all_is_each_variant_once_in_declaration_order() {
        for (i, &t) in Termination::ALL.iter().enumerate() {
            assert_eq!(t as usize, i, "{t:?}");
        }
    }

    #[test]
    fn every_tag_reads_back_and_tags_are_distinct() {
        for &t in Termination::ALL {
            assert_eq!(t.tag().parse::<Termination>(), Ok(t));
        }
        let mut tags: Vec<&str> = Termination::ALL.iter().map(|t| t.tag()).collect();
        tags.sort_unstable();
        tags.dedup();
        assert_eq!(tags.len(), Termination::ALL.len());
    }
}

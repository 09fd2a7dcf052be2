//! Why a tournament could not be scheduled, played or moved on: [`TournamentError`].

use std::path::PathBuf;

use runner::OpeningError;
use store::{EntryId, TournamentId};

/// Why `challenge run`, `challenge worker` or the server's tournament stopped with an
/// error. Callers decide by matching the variant; `Display` is the sentence a person
/// reads, naming the store, entry or file and what to do.
///
/// ```
/// use league::TournamentError;
///
/// let err = TournamentError::TooFewEntries { location: "./challenge".into(), entries: 1 };
/// assert!(err.to_string().starts_with("a tournament needs at least two entries, and ./challenge has 1"));
/// ```
#[derive(Debug, thiserror::Error)]
pub enum TournamentError {
    /// A new tournament needs two entries at least.
    #[error(
        "a tournament needs at least two entries, and {location} has {entries}: add some with `challenge submit FILE --name NAME`"
    )]
    TooFewEntries {
        /// The store.
        location: String,
        /// The entries it has.
        entries: usize,
    },
    /// The last tournament is finished and starting another was not asked for.
    #[error(
        "the last tournament is finished; pass --new to start another with the current entries"
    )]
    LastFinished,
    /// The settings of a new tournament would schedule no game.
    #[error("--pairs and --rounds must be at least 1")]
    NoGames,
    /// A new tournament's opening suite cannot be used.
    #[error("cannot use the opening suite {}", path.display())]
    Openings {
        /// The suite.
        path: PathBuf,
        /// Why.
        source: OpeningError,
    },
    /// A stored opening does not replay (a store written by hand or by a broken kit).
    #[error("stored opening {index}: {reason}")]
    StoredOpening {
        /// Its index in the tournament's openings.
        index: usize,
        /// Why.
        reason: String,
    },
    /// A slot names an entry with no version in the store.
    #[error("entry {0} has no stored version")]
    NoVersion(EntryId),
    /// A stored source could not be written out to be built.
    #[error("cannot write out the stored source of `{name}`")]
    Source {
        /// The entry.
        name: String,
        /// Why.
        source: anyhow::Error,
    },
    /// A stored version that built when it was submitted does not build here.
    #[error(
        "cannot build `{name}` v{number} on this machine (it built when submitted: check this machine's Rust toolchain, then run again)"
    )]
    Build {
        /// The entry.
        name: String,
        /// The version's number.
        number: u32,
        /// The build's error (boxed: it is large beside the other variants).
        source: Box<bot_build::BuildError>,
    },
    /// The unfinished tournament was created by another kit version, whose rules its
    /// results must all come from.
    #[error(
        "tournament {} in {location} is played with kit {theirs}, and this is kit {}: results must come from one rule set, so this kit will not play it; run kit {theirs} on this machine (or finish the tournament and start a new one with this kit)",
        tournament.0,
        store::KIT_VERSION
    )]
    OtherKitVersion {
        /// The tournament.
        tournament: TournamentId,
        /// The store.
        location: String,
        /// The kit version that created it.
        theirs: String,
    },
    /// The run's gate closed for good (the server that plays it is stopping).
    #[error(transparent)]
    GateClosed(#[from] crate::gate::Closed),
    /// The store failed (its message names the store and the cause; its variant says
    /// whether reconnecting may help).
    #[error(transparent)]
    Store(#[from] store::StoreError),
}

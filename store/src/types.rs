//! The ids of the store's records; the other types live with their statements
//! (`entries.rs`, `tournaments.rs`, `games.rs`, `server.rs`).

use std::fmt;

macro_rules! id_type {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub struct $name(pub i64);

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, "#{}", self.0)
            }
        }
    };
}

id_type!(
    /// An entry (a name in the challenge, with all its versions).
    EntryId
);
id_type!(
    /// One submitted version of an entry.
    VersionId
);
id_type!(
    /// A tournament.
    TournamentId
);
id_type!(
    /// One scheduled game of a tournament.
    SlotId
);
id_type!(
    /// A played game.
    GameId
);

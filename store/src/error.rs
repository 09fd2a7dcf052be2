//! What can go wrong at the store, as values a caller can match: a worker tells a lost
//! connection (reconnect) from a lost lease (count it, go on) from anything else (stop),
//! without looking inside the message.

use crate::SlotId;

/// A database error carried as the cause of a [`StoreError`] (SQLite's or PostgreSQL's).
pub type Cause = Box<dyn std::error::Error + Send + Sync>;

/// Why a store operation failed. Every message names the store (a directory, or a URL
/// without its password) and what to do next where there is something to do.
///
/// ```
/// use store::{SlotId, StoreError};
/// let err = StoreError::LeaseLost { store: "postgres://kit@db/club".into(), slot: SlotId(7) };
/// assert!(matches!(err, StoreError::LeaseLost { slot: SlotId(7), .. }));
/// assert!(err.to_string().contains("slot #7"));
/// ```
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum StoreError {
    /// What was asked for is not there (no challenge, no such entry, version or slot).
    #[error("no {what} in {store}{hint}")]
    NotFound {
        /// The store.
        store: String,
        /// What is missing, e.g. "entry `alpha`".
        what: String,
        /// What to do about it (empty, or starting with a separator such as `: `).
        hint: String,
    },
    /// The change contradicts what is stored (a slot that already has its game, a second
    /// `challenge run` on one directory, a value that must be unique).
    #[error("{store}: {what}")]
    Conflict {
        /// The store.
        store: String,
        /// What was refused and why.
        what: String,
    },
    /// A result came back for a slot whose lease ran out and was claimed by another
    /// worker (or released): that worker's game is the one that counts.
    #[error(
        "the lease on slot {slot} in {store} was taken over by another worker (this one was silent for longer than its lease); this result was not stored, the other worker's game counts"
    )]
    LeaseLost {
        /// The store.
        store: String,
        /// The slot.
        slot: SlotId,
    },
    /// The store's tournament was created by another kit version: its results must all
    /// come from one rule set.
    #[error(
        "tournament {tournament} in {store} is played with kit {kit}, and this is kit {}: results must come from one rule set, so this kit will not play it; run kit {kit} on this machine (or finish the tournament and start a new one with this kit)",
        crate::KIT_VERSION
    )]
    OtherKit {
        /// The store.
        store: String,
        /// The tournament's id.
        tournament: i64,
        /// The kit version it is played with.
        kit: String,
    },
    /// The store was made or upgraded by a newer kit.
    #[error(
        "the challenge store {store} has schema version {found}, newer than this kit's {supported}: use the kit that made it, or a newer one"
    )]
    NewerSchema {
        /// The store.
        store: String,
        /// Its schema version.
        found: u32,
        /// This kit's.
        supported: u32,
    },
    /// The store has an older schema, and this command does not change schemas (reading
    /// commands and workers never do).
    #[error(
        "the challenge store {store} has schema version {found}, older than this kit's {current}: bring it up to date with `{upgrade}` (kits older than this one then refuse it)"
    )]
    OlderSchema {
        /// The store.
        store: String,
        /// Its schema version.
        found: u32,
        /// This kit's.
        current: u32,
        /// The command that upgrades it.
        upgrade: String,
    },
    /// A schema step failed; the store stays at the version before it.
    #[error("cannot bring the challenge store {store} up to date (step {step}: {what})")]
    UpgradeFailed {
        /// The store.
        store: String,
        /// The step that failed (1-based, as counted by the schema version).
        step: u32,
        /// What the step adds.
        what: &'static str,
        /// Why.
        #[source]
        source: Box<StoreError>,
    },
    /// The store could not be reached at all.
    #[error(
        "cannot connect to the challenge store at {store}; check that PostgreSQL runs there, accepts connections from this machine (over TLS unless sslmode=disable: its pg_hba.conf), and that the user, password and database in the URL are right"
    )]
    Unreachable {
        /// The store.
        store: String,
        /// The driver's reason.
        #[source]
        source: Cause,
    },
    /// The server's certificate was refused, or the TLS handshake failed.
    #[error(
        "cannot connect to the challenge store at {store}: the TLS handshake failed ({problem}): {hint}"
    )]
    TlsRefused {
        /// The store.
        store: String,
        /// What TLS refused.
        problem: String,
        /// What to change.
        hint: String,
    },
    /// The store's worker access (its definer functions and worker roles, on PostgreSQL)
    /// is missing, differs from this kit's, or cannot be changed by this role.
    #[error("{what}")]
    Access {
        /// What is wrong, naming the store, and what to do.
        what: String,
    },
    /// The connection broke (the server restarted, the network dropped, an administrator
    /// ended the session): reconnecting may help.
    #[error("lost the connection to the challenge store {store}")]
    ConnectionLost {
        /// The store.
        store: String,
        /// The driver's reason.
        #[source]
        source: Cause,
    },
    /// The store refused this user the operation (file permissions, a read-only
    /// directory, or a database role without the privilege).
    #[error("the challenge store {store} refused access{hint}")]
    PermissionDenied {
        /// The store.
        store: String,
        /// What to check (empty, or starting with `: `).
        hint: String,
        /// The driver's reason.
        #[source]
        source: Cause,
    },
    /// A stored value this kit cannot read (a hand-edited row, a foreign table).
    #[error(
        "the challenge store {store} holds a value this kit cannot read: column {column}: {problem}"
    )]
    BadValue {
        /// The store.
        store: String,
        /// The column, by name.
        column: String,
        /// What is wrong with it.
        problem: String,
    },
    /// The `--store`/`--dir` value names no store this kit can open.
    #[error("{0}")]
    BadLocation(String),
    /// A file or directory of the store could not be used.
    #[error("{what}")]
    Io {
        /// What was being done, naming the path.
        what: String,
        /// The system's reason.
        #[source]
        source: std::io::Error,
    },
    /// Any other database error.
    #[error("the challenge store {store} failed a request")]
    Database {
        /// The store.
        store: String,
        /// The driver's reason.
        #[source]
        source: Cause,
    },
}

/// A stored value a row mapper cannot read; the connection adds the store's name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BadValue {
    /// The column, by name.
    pub column: String,
    /// What is wrong with it.
    pub problem: String,
}

impl BadValue {
    /// The error naming `store`.
    pub fn at(self, store: &str) -> StoreError {
        StoreError::BadValue {
            store: store.to_string(),
            column: self.column,
            problem: self.problem,
        }
    }
}

/// Results of the store.
pub type StoreResult<T> = Result<T, StoreError>;

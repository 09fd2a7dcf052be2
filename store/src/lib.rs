//! The challenge's records: entries, their immutable versions, tournaments with their
//! schedules, every game, and the web server's state, behind the [`Store`] traits.
//!
//! The tournament code talks only to the traits: [`SqliteStore`] is the embedded default
//! (a challenge directory), [`PostgresStore`] a server database shared by workers on many
//! machines ([`open_store`] picks one from `--dir`/`--store`). Values cross the traits as
//! types ([`GameResult`](framework::notation::pgn::GameResult), ids, [`SlotState`]...),
//! and failures as [`StoreError`], whose variants say what to do (reconnect, count a lost
//! lease, upgrade the schema).
//!
//! [`Store`] is five traits, one per concern, so a wrapper implements only what it
//! changes: [`EntryStore`] (entries and versions), [`TournamentStore`] (tournaments,
//! schedules, games), [`ClaimStore`] (claim, release, record), [`ServerStore`] (the
//! server's settings, keys, jobs, revision) and [`LiveStore`] (the games in progress a
//! PostgreSQL store's workers publish for the server's live pages). Both backends share
//! one implementation of every statement but the claims (`sql.rs` is the connection they share); the schema is
//! one list of steps for both ([`SCHEMA_VERSION`]).
//!
//! Where a stored field goes: the type and the statements that read and write it live
//! in one file per concern (`entries.rs`, `tournaments.rs`, `games.rs`, `server.rs`); a
//! new column is a new step at the end of `schema.rs`'s list. Those two files are all.

mod entries;
mod error;
mod games;
mod live;
mod postgres;
mod schema;
mod server;
mod sql;
mod sqlite;
mod tournaments;
mod types;

pub use entries::{EntryStore, NewVersion, Submitted, Version};
pub use error::{Cause, StoreError, StoreResult};
pub use games::{
    Aside, Claim, ClaimStore, Evidence, Game, MAX_EVIDENCE_BYTES, NewGame, worker_role,
};
pub use live::{LIVE_GRACE_SECONDS, LiveEnding, LiveGame, LiveStore, LiveTicket};
pub use postgres::{
    Copied, DEFAULT_LEASE, DEFAULT_LIMITS, Encryption, MAX_LIVE_SNAPSHOT_BYTES, NewWorker,
    PostgresStore, Revoked, SslMode, WorkerGrant, WorkerInfo, WorkerLimits, WorkerSession,
    check_role_name, is_postgres_url, redacted_url, worker_url,
};
pub use schema::SCHEMA_VERSION;
pub use server::{Job, JobState, ServerFlag, ServerState, ServerStore, StoreRevision};
pub use sqlite::{DB_FILE, SqliteStore};
pub use tournaments::{
    Distrusted, KIT_VERSION, NewRound, NewTournament, Slot, SlotPlan, SlotState, StoredOpening,
    StoredRules, Tournament, TournamentFormat, TournamentStore,
};
pub use types::{EntryId, GameId, SlotId, TournamentId, VersionId};

use std::path::{Path, PathBuf};

/// The store's traits, for callers that use a store of a known type:
/// `use store::prelude::*;` brings every method into scope.
pub mod prelude {
    pub use crate::{ClaimStore, EntryStore, LiveStore, ServerStore, Store, TournamentStore};
}

/// What the challenge needs from where its records live: the concerns at once, for
/// callers that use them all (`&mut dyn Store`). Every type with them all has it.
pub trait Store: EntryStore + TournamentStore + ClaimStore + ServerStore + LiveStore {}

impl<T: EntryStore + TournamentStore + ClaimStore + ServerStore + LiveStore + ?Sized> Store for T {}

/// Where a challenge's records live: a directory with its SQLite database (the default),
/// or a PostgreSQL database shared by workers on many machines.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StoreLocation {
    /// `--dir DIR`.
    Dir(PathBuf),
    /// `--store postgres://...` (the URL may hold a password: never print it; the
    /// store's [`EntryStore::location`] is the printable form).
    Postgres(String),
}

impl StoreLocation {
    /// `--store URL` when given (only `postgres://` URLs), else the directory.
    ///
    /// ```
    /// use store::StoreLocation;
    /// use std::path::Path;
    /// let dir = Path::new("challenge");
    /// assert_eq!(StoreLocation::pick(None, dir).unwrap(), StoreLocation::Dir(dir.into()));
    /// assert!(matches!(StoreLocation::pick(Some("postgres://db/c"), dir), Ok(StoreLocation::Postgres(_))));
    /// assert!(StoreLocation::pick(Some("mysql://db"), dir).is_err());
    /// ```
    pub fn pick(store: Option<&str>, dir: &Path) -> StoreResult<StoreLocation> {
        match store {
            None => Ok(StoreLocation::Dir(dir.to_path_buf())),
            Some(url) if is_postgres_url(url) => Ok(StoreLocation::Postgres(url.to_string())),
            Some(_) => Err(StoreError::BadLocation(
                "--store (or CHALLENGE_STORE) takes a postgres://USER:PASSWORD@HOST:PORT/DATABASE URL; for a challenge directory use --dir DIR".into(),
            )),
        }
    }
}

/// How a command uses the store, and so whether it may change the schema.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    /// Create the challenge if there is none yet (`submit`); the schema is brought up
    /// to date.
    Create,
    /// Read and write an existing challenge (`run`, `withdraw`); the schema is brought
    /// up to date.
    Write,
    /// Only read: runs no DDL and changes nothing (a SQLite directory may be read-only);
    /// a schema older than this kit's is refused, naming `challenge upgrade`.
    Read,
}

/// Opens the store at `location` with the backend it names. Both backends may move to
/// another thread (`Send`: a server hands its store to blocking tasks), and neither may be
/// shared between threads at once (a PostgreSQL client is not `Sync`): one thread at a
/// time, or one store per thread.
pub fn open_store(location: &StoreLocation, access: Access) -> StoreResult<Box<dyn Store + Send>> {
    Ok(match location {
        StoreLocation::Dir(dir) => Box::new(match access {
            Access::Create => SqliteStore::create(dir)?,
            Access::Write => SqliteStore::open(dir)?,
            Access::Read => SqliteStore::open_read_only(dir)?,
        }),
        StoreLocation::Postgres(url) => Box::new(match access {
            Access::Create | Access::Write => PostgresStore::create(url)?,
            Access::Read => PostgresStore::open(url)?,
        }),
    })
}

/// What an upgrade did: the schema version found, and the one it is at now.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Upgraded {
    /// The store.
    pub location: String,
    /// The version found (PostgreSQL's old numbering counted as the shared steps it had).
    pub from: u32,
    /// The version now: this kit's.
    pub to: u32,
    /// Whether this kit's worker functions were installed or replaced (a PostgreSQL
    /// store's `challenge_*` functions, `postgres/access.rs`; never for a directory).
    pub functions_installed: bool,
}

/// Brings the schema of the challenge at `location` up to date (`challenge upgrade`).
/// Never creates a challenge; a schema from a newer kit is refused.
pub fn upgrade_store(location: &StoreLocation) -> StoreResult<Upgraded> {
    match location {
        StoreLocation::Dir(dir) => SqliteStore::upgrade_dir(dir),
        StoreLocation::Postgres(url) => PostgresStore::upgrade_url(url),
    }
}

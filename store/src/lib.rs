//! The challenge's records: entries, their immutable versions, tournaments with their
//! schedules, and every game, behind the [`Store`] trait.
//!
//! The tournament code talks only to [`Store`]: [`SqliteStore`] is the embedded default
//! (a challenge directory), [`PostgresStore`] a server database shared by workers on many
//! machines ([`open_store`] picks one from `--dir`/`--store`). Values cross the trait as types ([`GameResult`],
//! [`Termination`], ids, [`SlotState`]...); each backend converts them at its edge.

mod pg_access;
mod pg_tls;
mod postgres;
mod sqlite;
mod types;

pub use pg_access::{WorkerGrant, check_role_name, worker_url};
pub use pg_tls::{Encryption, SslMode};

pub use postgres::{
    Copied, DEFAULT_LEASE, KIT_VERSION, LeaseLost, NewWorker, PG_SCHEMA_VERSION, PostgresStore,
    WorkerInfo, is_connection_lost, is_postgres_url, redacted_url,
};
pub use sqlite::{DB_FILE, SCHEMA_VERSION, SqliteStore};
pub use types::*;

use std::path::{Path, PathBuf};

use anyhow::{Result, bail};

/// Where a challenge's records live: a directory with its SQLite database (the default),
/// or a PostgreSQL database shared by workers on many machines.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StoreLocation {
    /// `--dir DIR`.
    Dir(PathBuf),
    /// `--store postgres://...` (the URL may hold a password: never print it; the
    /// store's [`Store::location`] is the printable form).
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
    pub fn pick(store: Option<&str>, dir: &Path) -> Result<StoreLocation> {
        match store {
            None => Ok(StoreLocation::Dir(dir.to_path_buf())),
            Some(url) if is_postgres_url(url) => Ok(StoreLocation::Postgres(url.to_string())),
            Some(_) => bail!(
                "--store (or CHALLENGE_STORE) takes a postgres://USER:PASSWORD@HOST:PORT/DATABASE URL; for a challenge directory use --dir DIR"
            ),
        }
    }
}

/// How a command uses the store.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    /// Create the challenge if there is none yet (`submit`).
    Create,
    /// Read and write an existing challenge.
    Write,
    /// Only read (a SQLite directory may be read-only).
    Read,
}

/// Opens the store at `location` with the backend it names. Both backends may move to
/// another thread (`Send`: a server hands its store to blocking tasks), and neither may be
/// shared between threads at once (a PostgreSQL client is not `Sync`): one thread at a
/// time, or one store per thread.
pub fn open_store(location: &StoreLocation, access: Access) -> Result<Box<dyn Store + Send>> {
    Ok(match location {
        StoreLocation::Dir(dir) => Box::new(match access {
            Access::Create => SqliteStore::create(dir)?,
            Access::Write => SqliteStore::open(dir)?,
            Access::Read => SqliteStore::open_read_only(dir)?,
        }),
        StoreLocation::Postgres(url) => Box::new(PostgresStore::connect(url)?),
    })
}

/// What the challenge needs from where its records live.
///
/// Claiming and recording are separate steps so that a backend shared by workers on many
/// machines can lease a slot to one worker ([`Claim::worker`]) until it records the game
/// or releases it ([`PostgresStore`] also lets an expired lease go back to the pool).
pub trait Store {
    /// Where the records are, for messages (a directory, a URL).
    fn location(&self) -> String;

    /// Stores a new version of an entry (creating the entry if needed). Submitting an
    /// entry's current source again stores nothing, but brings a withdrawn entry back.
    fn add_version(&mut self, new: &NewVersion<'_>) -> Result<Submitted>;
    /// Takes an entry out of future pairings; `false` when it was already withdrawn.
    fn withdraw(&mut self, name: &str) -> Result<bool>;
    /// Every version, by entry name then number.
    fn versions(&self) -> Result<Vec<Version>>;
    /// The current version of every entry still in the challenge, by entry name.
    fn field(&self) -> Result<Vec<Version>> {
        Ok(self
            .versions()?
            .into_iter()
            .filter(|v| v.current && !v.withdrawn)
            .collect())
    }
    /// The bot source of a version.
    fn source(&self, version: VersionId) -> Result<String>;

    /// How many tournaments were ever started.
    fn tournament_count(&self) -> Result<usize>;
    /// The unfinished tournament, if any.
    fn unfinished_tournament(&self) -> Result<Option<Tournament>>;
    /// Creates a tournament with its field and its first slots at once, so a tournament
    /// is never seen half-scheduled.
    fn create_tournament(&mut self, new: &NewTournament<'_>) -> Result<TournamentId>;
    /// Adds one Swiss round's slots (and its bye) at once.
    fn add_round(&mut self, round: &NewRound<'_>) -> Result<()>;
    /// The entries of a tournament, in seed order.
    fn participants(&self, tournament: TournamentId) -> Result<Vec<EntryId>>;
    /// Every slot of a tournament, in schedule order, with its state.
    fn slots(&self, tournament: TournamentId) -> Result<Vec<Slot>>;
    /// The entries that had a bye, by round.
    fn byes(&self, tournament: TournamentId) -> Result<Vec<EntryId>>;
    /// Cancels the unplayed slots of withdrawn entries; returns how many.
    fn cancel_withdrawn(&mut self, tournament: TournamentId) -> Result<usize>;
    /// Marks a tournament finished.
    fn finish_tournament(&mut self, tournament: TournamentId) -> Result<()>;

    /// Claims up to `max` pending slots of a tournament for `worker`, in schedule order.
    /// A claimed slot is not handed out again until it is recorded or released.
    fn claim(&mut self, tournament: TournamentId, worker: &str, max: usize) -> Result<Vec<Claim>>;
    /// Gives a claimed slot back unplayed (the game was interrupted).
    fn release(&mut self, claim: &Claim) -> Result<()>;
    /// Stores a claimed slot's finished game and marks the slot played, atomically. Fails,
    /// storing nothing, if the slot already has a game.
    fn record(&mut self, claim: &Claim, game: &NewGame) -> Result<GameId>;

    /// Every game in the order played; `with_pgn: false` leaves the PGN empty for tables
    /// that only need the results.
    fn games(&self, with_pgn: bool) -> Result<Vec<Game>>;

    // ---- Server state (`challenge serve`) ---------------------------------------------
    // What the web server keeps between restarts: the organiser's switches and token
    // hash, each entry's key hash, and the submissions it is checking. Secrets are stored
    // only as hashes; comparing them is the server's job (in constant time).

    /// The server's switches and the organiser's token hash.
    fn server_state(&self) -> Result<ServerState>;
    /// Whether the organiser paused the tournament: players (`challenge run`'s runner in
    /// the server, `challenge worker`s) claim no new game while it is.
    fn tournament_paused(&self) -> Result<bool> {
        Ok(self.server_state()?.tournament_paused)
    }
    /// Turns one of the server's switches on or off.
    fn set_server_flag(&mut self, flag: ServerFlag, on: bool) -> Result<()>;
    /// Sets (or replaces) the hash of the organiser's token.
    fn set_admin_token_hash(&mut self, hash: &str) -> Result<()>;
    /// The hash of an entry's key; `None` when the entry has none (or does not exist).
    fn entry_key_hash(&self, entry: &str) -> Result<Option<String>>;
    /// Gives an existing entry its key hash, unless it already has one: `false` then,
    /// and the old key stays.
    fn set_entry_key_hash(&mut self, entry: &str, hash: &str) -> Result<bool>;
    /// Stores a submission job, or its new state.
    fn save_job(&mut self, job: &Job) -> Result<()>;
    /// A submission job by id.
    fn job(&self, id: &str) -> Result<Option<Job>>;
    /// Marks every queued or running job refused with `message` (after a restart, no one
    /// is working on them); returns how many.
    fn refuse_unfinished_jobs(&mut self, message: &str) -> Result<usize>;
    /// A fingerprint that changes whenever a game, a version or a withdrawal is stored.
    fn revision(&self) -> Result<StoreRevision>;
    /// One game, with its PGN.
    fn game(&self, id: GameId) -> Result<Option<Game>>;
}

/// The server's state from its stored settings (name, value), as both backends keep them:
/// switches as `"1"`/`"0"`, the organiser token's hash as its text; unknown names are
/// ignored so an older kit reads a newer store's settings.
fn server_state_from(settings: Vec<(String, String)>) -> ServerState {
    let mut state = ServerState::default();
    for (name, value) in settings {
        let on = value == "1";
        match name.as_str() {
            "submissions_closed" => state.submissions_closed = on,
            "tournament_paused" => state.tournament_paused = on,
            "sources_published" => state.sources_published = on,
            "admin_token_hash" => state.admin_token_hash = Some(value),
            _ => {}
        }
    }
    state
}

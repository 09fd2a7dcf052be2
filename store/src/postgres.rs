//! The shared backend: a PostgreSQL database that workers on many machines play from.
//!
//! The logical schema is SQLite's ([`super::sqlite`]): the same tables, columns and
//! constraints, so `challenge migrate` copies a challenge row for row. On top of it,
//! workers hold **leases**: [`Store::claim`] takes pending slots with `SELECT ... FOR
//! UPDATE SKIP LOCKED` (two workers never wait on or get the same slot) and stamps each
//! with a fresh token from a sequence and an expiry time. While a store holds leases, a
//! heartbeat thread on its own connection pushes their expiry forward; a worker that dies
//! or is cut off stops renewing, its lease runs out and the slot is claimed again. A
//! result is recorded only if the slot still carries the token it was claimed with
//! ([`Store::record`]), in the transaction that inserts the game, so a game whose lease
//! was taken over is refused and no slot ever gets two games.
//!
//! The schema is versioned in a one-row table `schema_version` and migrated forward on
//! connect, under an advisory lock so that workers starting together migrate it once.
//!
//! Adding a method: write its SQL against `self.client` (or in a `self.client.get_mut().transaction()`
//! for several statements), converting ids with `.0`/the id constructors and numbers with
//! [`int`]/[`uint`], as the methods below do.

use std::cell::RefCell;
use std::collections::HashMap;
use std::str::FromStr;
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

use anyhow::{Context, Result, bail};
use framework::chess::Color;
use postgres::config::Host;
use postgres::{Client, Config, GenericClient, Row};

use super::pg_access::{self, is_lease_not_held, is_refused};
use super::pg_tls::Tls;
use super::{
    Claim, EntryId, Game, GameId, Job, NewGame, NewRound, NewTournament, NewVersion, ServerFlag,
    ServerState, Slot, SlotId, SlotPlan, SlotState, Store, StoreRevision, StoredRules, Submitted,
    Tournament, TournamentId, Version, VersionId,
};

/// The kit version stamped on every tournament a PostgreSQL store creates; a worker of
/// another version refuses to play it.
pub const KIT_VERSION: &str = env!("CARGO_PKG_VERSION");

/// How long a claimed slot stays leased without a heartbeat, unless set otherwise
/// ([`PostgresStore::set_lease`]).
pub const DEFAULT_LEASE: Duration = Duration::from_secs(60);

const TIMESTAMP_DEFAULT: &str =
    "to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"')";

/// Step 1: SQLite's schema (its two steps), in PostgreSQL's types.
fn baseline() -> String {
    format!(
        "
CREATE TABLE entries (
    id BIGSERIAL PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    author TEXT,
    withdrawn BOOLEAN NOT NULL DEFAULT FALSE,
    created TEXT NOT NULL DEFAULT {TIMESTAMP_DEFAULT}
);
CREATE TABLE versions (
    id BIGSERIAL PRIMARY KEY,
    entry_id BIGINT NOT NULL REFERENCES entries(id),
    number BIGINT NOT NULL,
    hash TEXT NOT NULL,
    source TEXT NOT NULL,
    file_name TEXT NOT NULL,
    tokens BIGINT NOT NULL,
    debug_tokens BIGINT NOT NULL,
    submitted TEXT NOT NULL DEFAULT {TIMESTAMP_DEFAULT},
    UNIQUE (entry_id, number)
);
CREATE TABLE tournaments (
    id BIGSERIAL PRIMARY KEY,
    format TEXT NOT NULL,
    pairs BIGINT NOT NULL,
    rounds BIGINT NOT NULL,
    time_control TEXT NOT NULL,
    openings TEXT NOT NULL,
    finished BOOLEAN NOT NULL DEFAULT FALSE,
    created TEXT NOT NULL DEFAULT {TIMESTAMP_DEFAULT},
    rules TEXT
);
CREATE TABLE participants (
    tournament_id BIGINT NOT NULL REFERENCES tournaments(id),
    entry_id BIGINT NOT NULL REFERENCES entries(id),
    seed BIGINT NOT NULL,
    PRIMARY KEY (tournament_id, entry_id)
);
CREATE TABLE slots (
    id BIGSERIAL PRIMARY KEY,
    tournament_id BIGINT NOT NULL REFERENCES tournaments(id),
    round BIGINT NOT NULL,
    pair BIGINT NOT NULL,
    game_in_pair BIGINT NOT NULL,
    white_entry BIGINT NOT NULL REFERENCES entries(id),
    black_entry BIGINT NOT NULL REFERENCES entries(id),
    opening BIGINT NOT NULL,
    cancelled BOOLEAN NOT NULL DEFAULT FALSE,
    game_id BIGINT UNIQUE
);
CREATE INDEX slots_pending ON slots (tournament_id, game_id);
CREATE TABLE byes (
    tournament_id BIGINT NOT NULL REFERENCES tournaments(id),
    round BIGINT NOT NULL,
    entry_id BIGINT NOT NULL REFERENCES entries(id),
    PRIMARY KEY (tournament_id, round)
);
CREATE TABLE games (
    id BIGSERIAL PRIMARY KEY,
    tournament_id BIGINT REFERENCES tournaments(id),
    slot_id BIGINT UNIQUE REFERENCES slots(id),
    white_version BIGINT NOT NULL REFERENCES versions(id),
    black_version BIGINT NOT NULL REFERENCES versions(id),
    result TEXT NOT NULL,
    termination TEXT NOT NULL,
    faulty TEXT,
    detail TEXT NOT NULL,
    plies BIGINT NOT NULL,
    pgn TEXT NOT NULL,
    finished TEXT NOT NULL DEFAULT {TIMESTAMP_DEFAULT}
);
ALTER TABLE slots ADD FOREIGN KEY (game_id) REFERENCES games(id);
"
    )
}

/// Step 2: what workers on many machines need: the kit version a tournament is played
/// with, a lease on each claimed slot, the workers themselves, and who played each game.
const WORKERS: &str = "
CREATE SEQUENCE lease_tokens;
ALTER TABLE tournaments ADD COLUMN kit_version TEXT;
ALTER TABLE slots ADD COLUMN lease_token BIGINT,
                  ADD COLUMN lease_worker TEXT,
                  ADD COLUMN lease_expires TIMESTAMPTZ,
                  ADD COLUMN leased_at TIMESTAMPTZ;
CREATE TABLE workers (
    name TEXT PRIMARY KEY,
    host TEXT NOT NULL,
    cores BIGINT NOT NULL,
    threads BIGINT NOT NULL,
    lease_seconds FLOAT8 NOT NULL,
    kit_version TEXT NOT NULL,
    started TIMESTAMPTZ NOT NULL DEFAULT now(),
    last_seen TIMESTAMPTZ NOT NULL DEFAULT now(),
    stopped TIMESTAMPTZ
);
ALTER TABLE games ADD COLUMN worker TEXT,
                  ADD COLUMN recorded_at TIMESTAMPTZ NOT NULL DEFAULT now();
CREATE INDEX games_worker ON games (worker, recorded_at);
";

/// Step 3: what `challenge serve` keeps between restarts (SQLite's step 3): its switches
/// and the organiser's token hash, each entry's key hash, the submissions it checks.
fn server_tables() -> String {
    format!(
        "
CREATE TABLE server_settings (
    name TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
CREATE TABLE entry_keys (
    entry_id BIGINT PRIMARY KEY REFERENCES entries(id),
    key_hash TEXT NOT NULL
);
CREATE TABLE jobs (
    id TEXT PRIMARY KEY,
    entry TEXT NOT NULL,
    state TEXT NOT NULL,
    message TEXT NOT NULL,
    created TEXT NOT NULL DEFAULT {TIMESTAMP_DEFAULT},
    updated TEXT NOT NULL DEFAULT {TIMESTAMP_DEFAULT}
);
CREATE INDEX jobs_unfinished ON jobs (state);
"
    )
}

/// The schema steps, in order: step `i` takes the stored version from `i` to `i + 1`.
fn migrations() -> [String; 3] {
    [baseline(), WORKERS.to_string(), server_tables()]
}

/// The schema version this code reads and writes.
pub const PG_SCHEMA_VERSION: i64 = 3;

/// Advisory lock keys (`pg_advisory_lock`): schema migration, and one per tournament for
/// pairing its next round.
const MIGRATION_LOCK: i64 = 0x6b69_7400;

/// A worker as it announced itself, with what it is doing now.
#[derive(Debug, Clone, PartialEq)]
pub struct WorkerInfo {
    /// Its name (unique: a worker started again under the same name takes the row over).
    pub name: String,
    /// The machine it runs on.
    pub host: String,
    /// The machine's cores.
    pub cores: u32,
    /// Games it plays at once.
    pub threads: u32,
    /// Its kit version.
    pub kit_version: String,
    /// Seconds since it last reported.
    pub seen_ago: f64,
    /// Its lease in seconds: it reports in every third of it, so one silent for longer
    /// has stopped or lost the store.
    pub lease_seconds: f64,
    /// Seconds it has been running (until it stopped).
    pub running_for: f64,
    /// Whether it said goodbye.
    pub stopped: bool,
    /// The games it holds a live lease on, as `white - black`.
    pub playing: Vec<String>,
    /// Games it stored in all.
    pub games: u64,
    /// Games it stored in the last hour of its run (since it started, if later).
    pub games_last_hour: u64,
}

/// A worker's announcement.
#[derive(Debug, Clone)]
pub struct NewWorker<'a> {
    /// Its name.
    pub name: &'a str,
    /// The machine it runs on.
    pub host: &'a str,
    /// The machine's cores.
    pub cores: u32,
    /// Games it plays at once.
    pub threads: u32,
    /// Its lease (it reports in every third of it).
    pub lease: Duration,
}

/// Why [`Store::record`] refused a result: the slot's lease ran out and another worker
/// claimed it (or it was released), so that worker's game is the one that counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LeaseLost {
    /// The slot.
    pub slot: SlotId,
}

impl std::fmt::Display for LeaseLost {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "the lease on slot {} was taken over by another worker (this one was silent for longer than its lease); this result was not stored, the other worker's game counts",
            self.slot
        )
    }
}

impl std::error::Error for LeaseLost {}

/// A challenge in a PostgreSQL database.
pub struct PostgresStore {
    /// In a cell: the trait's read methods take `&self`, a query needs the connection
    /// mutably, and a store is used from one thread at a time.
    client: RefCell<Client>,
    config: Config,
    /// The URL's `sslmode` and `sslrootcert`, and the TLS connector made from them.
    tls: Tls,
    shown: String,
    lease: Duration,
    /// Lease tokens of the slots this store claimed and has not yet recorded or released.
    held: Arc<Mutex<HashMap<SlotId, i64>>>,
    heartbeat: Option<Heartbeat>,
    /// Tournaments whose kit version has been checked against this kit's.
    checked: Vec<TournamentId>,
}

/// Whether `err` came from losing the store (the server restarted, the network dropped,
/// an administrator ended the session) rather than from the request itself: a worker
/// reconnects after such an error and goes on.
pub fn is_connection_lost(err: &anyhow::Error) -> bool {
    err.chain()
        .filter_map(|e| e.downcast_ref::<postgres::Error>())
        .any(|e| {
            let class = e.code().map(|c| c.code().get(..2).unwrap_or_default());
            e.is_closed()
                || matches!(class, Some("08" | "57"))
                || std::error::Error::source(e).is_some_and(|s| s.is::<std::io::Error>())
        })
}

/// `true` for a `--store` value this backend opens.
pub fn is_postgres_url(text: &str) -> bool {
    text.starts_with("postgres://") || text.starts_with("postgresql://")
}

/// The store's address for messages: user, hosts, ports and database, never the password.
///
/// ```
/// use store::redacted_url;
/// let url = "postgres://kit:secret@db.example:5433/club";
/// assert_eq!(redacted_url(&url.parse().unwrap()), "postgres://kit@db.example:5433/club");
/// ```
pub fn redacted_url(config: &Config) -> String {
    let user = config
        .get_user()
        .map(|u| format!("{u}@"))
        .unwrap_or_default();
    let ports = config.get_ports();
    let hosts: Vec<String> = config
        .get_hosts()
        .iter()
        .enumerate()
        .map(|(i, host)| {
            let name = match host {
                Host::Tcp(name) => name.clone(),
                Host::Unix(path) => path.display().to_string(),
            };
            match ports.get(i).or(ports.first()) {
                Some(port) => format!("{name}:{port}"),
                None => name,
            }
        })
        .collect();
    let hosts = if hosts.is_empty() {
        "localhost".to_string()
    } else {
        hosts.join(",")
    };
    let db = config.get_dbname().unwrap_or_default();
    format!("postgres://{user}{hosts}/{db}")
}

// ---- Connecting (TLS: `pg_tls.rs`) -----------------------------------------------------

fn parse_config(url: &str) -> Result<(Config, Tls)> {
    let (url, mode, roots) = super::pg_tls::split_url(url)?;
    let mut config = Config::from_str(&url).map_err(|err| {
        // The parser's message never echoes the URL, so the password stays out of it.
        anyhow::anyhow!("`--store` is not a valid postgres:// URL: {err}")
    })?;
    if config.get_connect_timeout().is_none() {
        config.connect_timeout(Duration::from_secs(10));
    }
    if config.get_application_name().is_none() {
        config.application_name("challenge");
    }
    let tls = Tls::from_url_parts(&mut config, mode, roots)?;
    Ok((config, tls))
}

fn connect(config: &Config, tls: &Tls, shown: &str) -> Result<Client> {
    tls.connect(config)
        .map_err(|err| super::pg_tls::explain(&err, shown, tls))
}

impl PostgresStore {
    /// Connects to the store at `url` (`postgres://USER:PASSWORD@HOST:PORT/DB`, with
    /// `sslmode` and `sslrootcert` as libpq reads them: [`crate::SslMode`]) and brings its
    /// schema and its worker functions up to date (creating them in an empty database).
    /// A store already up to date gets no DDL, so a worker's role, which may run none,
    /// connects. Errors name the host, never the password.
    pub fn connect(url: &str) -> Result<PostgresStore> {
        let (config, tls) = parse_config(url)?;
        let shown = redacted_url(&config);
        let client = connect(&config, &tls, &shown)?;
        let mut store = PostgresStore {
            client: RefCell::new(client),
            config,
            tls,
            shown,
            lease: DEFAULT_LEASE,
            held: Arc::new(Mutex::new(HashMap::new())),
            heartbeat: None,
            checked: Vec::new(),
        };
        if store.schema_version()? != PG_SCHEMA_VERSION {
            store.migrate().with_context(|| {
                format!(
                    "cannot bring the challenge store {} up to date",
                    store.shown
                )
            })?;
        }
        pg_access::ensure(store.client.get_mut(), &store.shown)?;
        Ok(store)
    }

    /// A second connection to the same store (for another thread).
    pub fn reconnect(&self) -> Result<PostgresStore> {
        let client = connect(&self.config, &self.tls, &self.shown)?;
        Ok(PostgresStore {
            client: RefCell::new(client),
            config: self.config.clone(),
            tls: self.tls.clone(),
            shown: self.shown.clone(),
            lease: self.lease,
            held: Arc::new(Mutex::new(HashMap::new())),
            heartbeat: None,
            checked: Vec::new(),
        })
    }

    /// Replaces a lost connection with a new one (its leases stay held).
    pub fn reopen(&mut self) -> Result<()> {
        *self.client.get_mut() = connect(&self.config, &self.tls, &self.shown)?;
        Ok(())
    }

    /// How long a claim stays leased without a heartbeat (renewed every third of it while
    /// this store holds it). Applies to later claims.
    pub fn set_lease(&mut self, lease: Duration) {
        self.lease = lease.max(Duration::from_millis(300));
    }

    /// The schema version of the connected database.
    pub fn schema_version(&mut self) -> Result<i64> {
        schema_version(self.client.get_mut())
    }

    fn migrate(&mut self) -> Result<()> {
        let mut tx = self.client.get_mut().transaction()?;
        tx.execute("SELECT pg_advisory_xact_lock($1)", &[&MIGRATION_LOCK])?;
        tx.batch_execute("CREATE TABLE IF NOT EXISTS schema_version (version BIGINT NOT NULL)")?;
        let mut version = schema_version(&mut tx)?;
        if version > PG_SCHEMA_VERSION {
            bail!(
                "the challenge store {} has schema version {version}, newer than this kit's {PG_SCHEMA_VERSION}: use the kit that made it, or a newer one",
                self.shown
            );
        }
        if version == 0 {
            tx.execute("INSERT INTO schema_version (version) VALUES (0)", &[])?;
        }
        let steps = migrations();
        while version < PG_SCHEMA_VERSION {
            tx.batch_execute(&steps[usize::try_from(version)?])?;
            version += 1;
            tx.execute("UPDATE schema_version SET version = $1", &[&version])?;
        }
        tx.commit()?;
        Ok(())
    }

    /// Announces (or re-announces) a worker under its name.
    pub fn register_worker(&mut self, worker: &NewWorker<'_>) -> Result<()> {
        self.client.get_mut().execute(
            "SELECT challenge_announce($1, $2, $3, $4, $5, $6)",
            &[
                &worker.name,
                &worker.host,
                &i64::from(worker.cores),
                &i64::from(worker.threads),
                &KIT_VERSION,
                &worker.lease.as_secs_f64(),
            ],
        )?;
        Ok(())
    }

    /// Says a worker is alive.
    pub fn worker_seen(&mut self, name: &str) -> Result<()> {
        self.client
            .get_mut()
            .execute("SELECT challenge_seen($1)", &[&name])?;
        Ok(())
    }

    /// Says a worker stopped (on its way out).
    pub fn worker_stopped(&mut self, name: &str) -> Result<()> {
        self.client
            .get_mut()
            .execute("SELECT challenge_stopped($1)", &[&name])?;
        Ok(())
    }

    /// Every worker that ever announced itself, by name, with its live leases and games.
    pub fn workers(&mut self) -> Result<Vec<WorkerInfo>> {
        let rows = self.client.get_mut().query(
            "SELECT w.name, w.host, w.cores, w.threads, w.kit_version,
                    EXTRACT(EPOCH FROM now() - w.last_seen)::float8,
                    EXTRACT(EPOCH FROM COALESCE(w.stopped, now()) - w.started)::float8,
                    w.stopped IS NOT NULL,
                    (SELECT COUNT(*) FROM games g WHERE g.worker = w.name),
                    (SELECT COUNT(*) FROM games g WHERE g.worker = w.name
                        AND g.recorded_at >= GREATEST(w.started,
                            COALESCE(w.stopped, now()) - interval '1 hour')),
                    w.lease_seconds,
                    ARRAY(SELECT we.name || ' - ' || be.name FROM slots s
                          JOIN entries we ON we.id = s.white_entry
                          JOIN entries be ON be.id = s.black_entry
                          WHERE s.lease_worker = w.name AND s.game_id IS NULL
                            AND s.lease_expires > now() ORDER BY s.id)
             FROM workers w ORDER BY w.name",
            &[],
        )?;
        rows.iter()
            .map(|r| {
                Ok(WorkerInfo {
                    name: r.try_get(0)?,
                    host: r.try_get(1)?,
                    cores: uint(r, 2)?,
                    threads: uint(r, 3)?,
                    kit_version: r.try_get(4)?,
                    seen_ago: r.try_get(5)?,
                    running_for: r.try_get(6)?,
                    stopped: r.try_get(7)?,
                    games: u64::try_from(r.try_get::<_, i64>(8)?)?,
                    games_last_hour: u64::try_from(r.try_get::<_, i64>(9)?)?,
                    lease_seconds: r.try_get(10)?,
                    playing: r.try_get(11)?,
                })
            })
            .collect()
    }

    /// The kit version a tournament was created with (`None`: unknown).
    pub fn tournament_kit_version(&mut self, tournament: TournamentId) -> Result<Option<String>> {
        let row = self.client.get_mut().query_one(
            "SELECT kit_version FROM tournaments WHERE id = $1",
            &[&tournament.0],
        )?;
        Ok(row.try_get(0)?)
    }

    /// Refuses to play a tournament created by another kit version: its results must
    /// all come from one rule set.
    pub fn check_kit_version(&mut self, tournament: TournamentId) -> Result<()> {
        if self.checked.contains(&tournament) {
            return Ok(());
        }
        match self.tournament_kit_version(tournament)? {
            Some(version) if version != KIT_VERSION => bail!(
                "tournament {} in {} is played with kit {version}, and this is kit {KIT_VERSION}: results must come from one rule set, so this kit will not play it; run kit {version} on this machine (or finish the tournament and start a new one with this kit)",
                tournament.0,
                self.shown
            ),
            _ => {
                self.checked.push(tournament);
                Ok(())
            }
        }
    }

    /// Runs `step` while holding the tournament's advisory lock, so that only one worker
    /// at a time decides what comes after a finished round.
    pub fn with_tournament_lock<T>(
        &mut self,
        tournament: TournamentId,
        step: impl FnOnce(&mut PostgresStore) -> Result<T>,
    ) -> Result<T> {
        let key = MIGRATION_LOCK + 1 + tournament.0;
        self.client
            .get_mut()
            .execute("SELECT pg_advisory_lock($1)", &[&key])?;
        let result = step(self);
        self.client
            .get_mut()
            .execute("SELECT pg_advisory_unlock($1)", &[&key])?;
        result
    }

    /// Whether the store holds no entries yet (a target for `challenge migrate`).
    pub fn is_empty(&mut self) -> Result<bool> {
        let row = self.client.get_mut().query_one(
            "SELECT NOT EXISTS (SELECT 1 FROM entries) AND NOT EXISTS (SELECT 1 FROM tournaments)",
            &[],
        )?;
        Ok(row.try_get(0)?)
    }

    /// The connection, for `challenge migrate` and benchmarks that write rows directly.
    pub fn client(&mut self) -> &mut Client {
        self.client.get_mut()
    }

    fn version(&mut self, id: VersionId) -> Result<Version> {
        let sql = format!(
            "SELECT {VERSION_COLUMNS} FROM versions v JOIN entries e ON e.id = v.entry_id WHERE v.id = $1"
        );
        let row = self
            .client
            .get_mut()
            .query_opt(&sql, &[&id.0])?
            .with_context(|| format!("no version with id {id} in the challenge store"))?;
        version_from_row(&row)
    }

    fn start_heartbeat(&mut self) {
        if self.heartbeat.is_none() {
            self.heartbeat = Some(Heartbeat::start(
                self.config.clone(),
                self.tls.clone(),
                self.shown.clone(),
                self.held.clone(),
                self.lease,
            ));
        }
    }
}

impl PostgresStore {
    /// The lease token of a slot this store holds.
    pub(crate) fn held_token(&self, slot: SlotId) -> Option<i64> {
        self.held
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(&slot)
            .copied()
    }

    /// The connection's TLS settings.
    pub(crate) fn tls(&self) -> &Tls {
        &self.tls
    }
}

impl Drop for PostgresStore {
    fn drop(&mut self) {
        if let Some(heartbeat) = self.heartbeat.take() {
            heartbeat.stop();
        }
    }
}

fn schema_version(client: &mut impl GenericClient) -> Result<i64> {
    let exists: bool = client
        .query_one("SELECT to_regclass('schema_version') IS NOT NULL", &[])?
        .try_get(0)?;
    if !exists {
        return Ok(0);
    }
    let row = client.query_opt("SELECT version FROM schema_version", &[])?;
    Ok(match row {
        Some(row) => row.try_get(0)?,
        None => 0,
    })
}

/// The thread that keeps a store's leases alive: every third of the lease it pushes the
/// expiry of every slot the store still holds (by token) one lease ahead, on a connection
/// of its own, so a long game never loses its slot while the worker is alive.
struct Heartbeat {
    stop: mpsc::Sender<()>,
    thread: JoinHandle<()>,
}

impl Heartbeat {
    fn start(
        config: Config,
        tls: Tls,
        shown: String,
        held: Arc<Mutex<HashMap<SlotId, i64>>>,
        lease: Duration,
    ) -> Heartbeat {
        let (stop, stopped) = mpsc::channel::<()>();
        let thread = std::thread::spawn(move || {
            let mut client: Option<Client> = None;
            loop {
                match stopped.recv_timeout(lease / 3) {
                    Err(RecvTimeoutError::Timeout) => {}
                    _ => return,
                }
                let tokens: Vec<i64> = held
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .values()
                    .copied()
                    .collect();
                if tokens.is_empty() {
                    continue;
                }
                if client.is_none() {
                    client = connect(&config, &tls, &shown).ok();
                }
                let Some(conn) = client.as_mut() else {
                    eprintln!(
                        "warning: heartbeat: cannot reach {shown}; the leases of the games in play may run out"
                    );
                    continue;
                };
                let renewed = conn.execute(
                    "SELECT challenge_renew($1, $2)",
                    &[&tokens, &lease.as_secs_f64()],
                );
                if let Err(err) = renewed {
                    eprintln!("warning: heartbeat to {shown} failed: {err}");
                    client = None;
                }
            }
        });
        Heartbeat { stop, thread }
    }

    fn stop(self) {
        let _ = self.stop.send(());
        let _ = self.thread.join();
    }
}

const VERSION_COLUMNS: &str = "v.id, v.entry_id, e.name, e.author, v.number, v.hash,
    v.tokens, v.debug_tokens, v.file_name,
    v.number = (SELECT MAX(number) FROM versions w WHERE w.entry_id = v.entry_id),
    e.withdrawn, v.submitted";

const TOURNAMENT_COLUMNS: &str =
    "id, format, pairs, rounds, time_control, openings, rules, finished";

const SLOT_COLUMNS: &str =
    "id, round, pair, game_in_pair, white_entry, black_entry, opening, game_id, cancelled";

/// A `BIGINT` column as a `u32`, refused (not wrapped) when out of range.
pub fn uint(row: &Row, column: usize) -> Result<u32> {
    let value: i64 = row.try_get(column)?;
    u32::try_from(value).with_context(|| format!("column {column} holds {value}, not a count"))
}

/// A count as a `BIGINT` parameter.
pub fn int(value: impl TryInto<i64>) -> Result<i64> {
    value
        .try_into()
        .map_err(|_| anyhow::anyhow!("a number too large for the store"))
}

/// A text column parsed into the type it spells.
fn parsed<T: FromStr>(row: &Row, column: usize) -> Result<T>
where
    T::Err: std::fmt::Display,
{
    let text: String = row.try_get(column)?;
    text.parse()
        .map_err(|e: T::Err| anyhow::anyhow!("column {column}: `{text}`: {e}"))
}

fn version_from_row(r: &Row) -> Result<Version> {
    Ok(Version {
        id: VersionId(r.try_get(0)?),
        entry_id: EntryId(r.try_get(1)?),
        name: r.try_get(2)?,
        author: r.try_get(3)?,
        number: uint(r, 4)?,
        hash: r.try_get(5)?,
        tokens: uint(r, 6)?,
        debug_tokens: uint(r, 7)?,
        file_name: r.try_get(8)?,
        current: r.try_get(9)?,
        withdrawn: r.try_get(10)?,
        submitted: r.try_get(11)?,
    })
}

fn tournament_from_row(r: &Row) -> Result<Tournament> {
    let openings: String = r.try_get(5)?;
    let rules: Option<String> = r.try_get(6)?;
    let tc: String = r.try_get(4)?;
    Ok(Tournament {
        id: TournamentId(r.try_get(0)?),
        format: parsed(r, 1)?,
        pairs: uint(r, 2)?,
        rounds: uint(r, 3)?,
        time_control: super::sqlite::time_control(&tc).map_err(anyhow::Error::msg)?,
        openings: serde_json::from_str(&openings)?,
        rules: match rules {
            Some(text) => serde_json::from_str(&text)?,
            None => StoredRules::default(),
        },
        finished: r.try_get(7)?,
    })
}

fn slot_from_row(r: &Row) -> Result<Slot> {
    let game: Option<i64> = r.try_get(7)?;
    let cancelled: bool = r.try_get(8)?;
    Ok(Slot {
        id: SlotId(r.try_get(0)?),
        plan: SlotPlan {
            round: uint(r, 1)?,
            pair: uint(r, 2)?,
            game_in_pair: uint(r, 3)?,
            white: EntryId(r.try_get(4)?),
            black: EntryId(r.try_get(5)?),
            opening: uint(r, 6)?,
        },
        state: match (game, cancelled) {
            (Some(id), _) => SlotState::Played(GameId(id)),
            (None, true) => SlotState::Cancelled,
            (None, false) => SlotState::Pending,
        },
    })
}

fn game_from_row(r: &Row) -> Result<Game> {
    let faulty: Option<String> = r.try_get(7)?;
    Ok(Game {
        id: GameId(r.try_get(0)?),
        tournament: r.try_get::<_, Option<i64>>(1)?.map(TournamentId),
        slot: r.try_get::<_, Option<i64>>(2)?.map(SlotId),
        white: VersionId(r.try_get(3)?),
        black: VersionId(r.try_get(4)?),
        result: parsed(r, 5)?,
        termination: parsed(r, 6)?,
        faulty: faulty
            .map(|side| super::sqlite::side_from_text(&side).map_err(anyhow::Error::msg))
            .transpose()?,
        detail: r.try_get(8)?,
        pgn: r.try_get(9)?,
    })
}

fn side_text(side: Color) -> &'static str {
    match side {
        Color::White => "white",
        Color::Black => "black",
    }
}

fn insert_slots(
    tx: &mut postgres::Transaction<'_>,
    tournament: TournamentId,
    round: u32,
    slots: &[SlotPlan],
    byes: &[EntryId],
) -> Result<()> {
    let insert = tx.prepare(
        "INSERT INTO slots (tournament_id, round, pair, game_in_pair, white_entry, black_entry,
                            opening)
         VALUES ($1, $2, $3, $4, $5, $6, $7)",
    )?;
    for s in slots {
        tx.execute(
            &insert,
            &[
                &tournament.0,
                &i64::from(s.round),
                &i64::from(s.pair),
                &i64::from(s.game_in_pair),
                &s.white.0,
                &s.black.0,
                &i64::from(s.opening),
            ],
        )?;
    }
    for &entry in byes {
        tx.execute(
            "INSERT INTO byes (tournament_id, round, entry_id) VALUES ($1, $2, $3)",
            &[&tournament.0, &i64::from(round), &entry.0],
        )?;
    }
    Ok(())
}

impl Store for PostgresStore {
    fn location(&self) -> String {
        self.shown.clone()
    }

    fn add_version(&mut self, new: &NewVersion<'_>) -> Result<Submitted> {
        let mut tx = self.client.get_mut().transaction()?;
        let entry = tx.query_opt(
            "SELECT id, withdrawn FROM entries WHERE name = $1 FOR UPDATE",
            &[&new.name],
        )?;
        let entry_id: i64 = match entry {
            Some(row) => {
                let id: i64 = row.try_get(0)?;
                let withdrawn: bool = row.try_get(1)?;
                let current: Option<String> = tx
                    .query_opt(
                        "SELECT hash FROM versions WHERE entry_id = $1 ORDER BY number DESC LIMIT 1",
                        &[&id],
                    )?
                    .map(|r| r.try_get(0))
                    .transpose()?;
                tx.execute("UPDATE entries SET withdrawn = FALSE WHERE id = $1", &[&id])?;
                if current.as_deref() == Some(new.hash) {
                    tx.commit()?;
                    let version_id: i64 = self
                        .client
                        .get_mut()
                        .query_one(
                            "SELECT id FROM versions WHERE entry_id = $1 ORDER BY number DESC LIMIT 1",
                            &[&id],
                        )?
                        .try_get(0)?;
                    let version = self.version(VersionId(version_id))?;
                    return Ok(if withdrawn {
                        Submitted::Revived(version)
                    } else {
                        Submitted::Unchanged(version)
                    });
                }
                if let Some(author) = new.author {
                    tx.execute(
                        "UPDATE entries SET author = $1 WHERE id = $2",
                        &[&author, &id],
                    )?;
                }
                id
            }
            None => tx
                .query_one(
                    "INSERT INTO entries (name, author) VALUES ($1, $2) RETURNING id",
                    &[&new.name, &new.author],
                )?
                .try_get(0)?,
        };
        let id: i64 = tx
            .query_one(
                "INSERT INTO versions (entry_id, number, hash, source, file_name, tokens, debug_tokens)
                 VALUES ($1, (SELECT COALESCE(MAX(number), 0) + 1 FROM versions WHERE entry_id = $1),
                         $2, $3, $4, $5, $6)
                 RETURNING id",
                &[
                    &entry_id,
                    &new.hash,
                    &new.source,
                    &new.file_name,
                    &int(new.tokens)?,
                    &int(new.debug_tokens)?,
                ],
            )?
            .try_get(0)?;
        tx.commit()?;
        self.version(VersionId(id))
            .map(Submitted::New)
            .context("the version just stored cannot be read back")
    }

    fn withdraw(&mut self, name: &str) -> Result<bool> {
        let state = self
            .client
            .get_mut()
            .query_opt("SELECT withdrawn FROM entries WHERE name = $1", &[&name])?;
        match state {
            None => bail!(
                "no entry `{name}` in {} (see `challenge entries`)",
                self.shown
            ),
            Some(row) if row.try_get::<_, bool>(0)? => Ok(false),
            Some(_) => {
                self.client.get_mut().execute(
                    "UPDATE entries SET withdrawn = TRUE WHERE name = $1",
                    &[&name],
                )?;
                Ok(true)
            }
        }
    }

    fn versions(&self) -> Result<Vec<Version>> {
        let sql = format!(
            "SELECT {VERSION_COLUMNS} FROM versions v JOIN entries e ON e.id = v.entry_id ORDER BY e.name COLLATE \"C\", v.number"
        );
        read_rows(self, &sql, &[], version_from_row)
    }

    fn source(&self, version: VersionId) -> Result<String> {
        let row = query_opt(
            self,
            "SELECT source FROM versions WHERE id = $1",
            &[&version.0],
        )?
        .with_context(|| format!("no source stored for version {version}"))?;
        Ok(row.try_get(0)?)
    }

    fn tournament_count(&self) -> Result<usize> {
        let rows = read_rows(self, "SELECT COUNT(*) FROM tournaments", &[], |r| {
            Ok(r.try_get::<_, i64>(0)?)
        })?;
        Ok(usize::try_from(rows[0])?)
    }

    fn unfinished_tournament(&self) -> Result<Option<Tournament>> {
        let sql = format!(
            "SELECT {TOURNAMENT_COLUMNS} FROM tournaments WHERE NOT finished ORDER BY id LIMIT 1"
        );
        Ok(read_rows(self, &sql, &[], tournament_from_row)?.pop())
    }

    fn create_tournament(&mut self, new: &NewTournament<'_>) -> Result<TournamentId> {
        let t = new.settings;
        let mut tx = self.client.get_mut().transaction()?;
        let id: i64 = tx
            .query_one(
                "INSERT INTO tournaments (format, pairs, rounds, time_control, openings, rules,
                                          kit_version)
                 VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id",
                &[
                    &t.format.as_str(),
                    &i64::from(t.pairs),
                    &i64::from(t.rounds),
                    &t.time_control.to_string(),
                    &serde_json::to_string(&t.openings)?,
                    &serde_json::to_string(&t.rules)?,
                    &KIT_VERSION,
                ],
            )?
            .try_get(0)?;
        let id = TournamentId(id);
        for (seed, entry) in new.field.iter().enumerate() {
            tx.execute(
                "INSERT INTO participants (tournament_id, entry_id, seed) VALUES ($1, $2, $3)",
                &[&id.0, &entry.0, &int(seed)?],
            )?;
        }
        insert_slots(&mut tx, id, 0, new.slots, new.byes)?;
        tx.commit()?;
        Ok(id)
    }

    fn add_round(&mut self, round: &NewRound<'_>) -> Result<()> {
        let mut tx = self.client.get_mut().transaction()?;
        insert_slots(
            &mut tx,
            round.tournament,
            round.round,
            round.slots,
            round.byes,
        )?;
        tx.commit()?;
        Ok(())
    }

    fn participants(&self, tournament: TournamentId) -> Result<Vec<EntryId>> {
        read_rows(
            self,
            "SELECT entry_id FROM participants WHERE tournament_id = $1 ORDER BY seed",
            &[&tournament.0],
            |r| Ok(EntryId(r.try_get(0)?)),
        )
    }

    fn slots(&self, tournament: TournamentId) -> Result<Vec<Slot>> {
        let sql = format!("SELECT {SLOT_COLUMNS} FROM slots WHERE tournament_id = $1 ORDER BY id");
        read_rows(self, &sql, &[&tournament.0], slot_from_row)
    }

    fn byes(&self, tournament: TournamentId) -> Result<Vec<EntryId>> {
        read_rows(
            self,
            "SELECT entry_id FROM byes WHERE tournament_id = $1 ORDER BY round",
            &[&tournament.0],
            |r| Ok(EntryId(r.try_get(0)?)),
        )
    }

    fn cancel_withdrawn(&mut self, tournament: TournamentId) -> Result<usize> {
        let n = self.client.get_mut().execute(
            "UPDATE slots SET cancelled = TRUE
             WHERE tournament_id = $1 AND game_id IS NULL AND NOT cancelled
               AND (white_entry IN (SELECT id FROM entries WHERE withdrawn)
                 OR black_entry IN (SELECT id FROM entries WHERE withdrawn))",
            &[&tournament.0],
        )?;
        Ok(usize::try_from(n)?)
    }

    fn finish_tournament(&mut self, tournament: TournamentId) -> Result<()> {
        self.client.get_mut().execute(
            "UPDATE tournaments SET finished = TRUE WHERE id = $1",
            &[&tournament.0],
        )?;
        Ok(())
    }

    fn claim(&mut self, tournament: TournamentId, worker: &str, max: usize) -> Result<Vec<Claim>> {
        self.check_kit_version(tournament)?;
        let limit = int(max.min(1 << 40))?;
        // The lease is taken by the store's definer function (`pg_access.rs`), the same
        // for the organiser and a worker's role.
        let sql =
            format!("SELECT {SLOT_COLUMNS}, lease_token FROM challenge_claim($1, $2, $3, $4)");
        let rows = self.client.get_mut().query(
            &sql,
            &[&tournament.0, &worker, &limit, &self.lease.as_secs_f64()],
        )?;
        let mut claims = Vec::new();
        for row in &rows {
            claims.push((slot_from_row(row)?, row.try_get::<_, i64>(9)?));
        }
        claims.sort_by_key(|(slot, _)| slot.id);
        let mut held = self.held.lock().unwrap_or_else(|e| e.into_inner());
        let claims = claims
            .into_iter()
            .map(|(slot, token)| {
                held.insert(slot.id, token);
                Claim {
                    tournament,
                    slot,
                    worker: worker.to_string(),
                }
            })
            .collect::<Vec<_>>();
        drop(held);
        if !claims.is_empty() {
            self.start_heartbeat();
        }
        Ok(claims)
    }

    fn release(&mut self, claim: &Claim) -> Result<()> {
        let token = self
            .held
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(&claim.slot.id);
        if let Some(token) = token {
            self.client.get_mut().execute(
                "SELECT challenge_release($1, $2)",
                &[&claim.slot.id.0, &token],
            )?;
        }
        Ok(())
    }

    fn record(&mut self, claim: &Claim, game: &NewGame) -> Result<GameId> {
        let slot = claim.slot.id;
        let token = self
            .held
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(&slot)
            .copied()
            .with_context(|| format!("slot {slot} is not leased by this worker"))?;
        let result = record_leased(self.client.get_mut(), claim, token, game);
        self.held
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(&slot);
        result
    }

    fn games(&self, with_pgn: bool) -> Result<Vec<Game>> {
        let sql = format!(
            "SELECT id, tournament_id, slot_id, white_version, black_version, result, termination,
                    faulty, detail, {}
             FROM games ORDER BY id",
            if with_pgn { "pgn" } else { "''" }
        );
        read_rows(self, &sql, &[], game_from_row)
    }

    fn server_state(&self) -> Result<ServerState> {
        let settings = read_rows(self, "SELECT name, value FROM server_settings", &[], |r| {
            Ok((r.try_get::<_, String>(0)?, r.try_get::<_, String>(1)?))
        })?;
        Ok(super::server_state_from(settings))
    }

    fn set_server_flag(&mut self, flag: ServerFlag, on: bool) -> Result<()> {
        self.set_setting(flag.as_str(), if on { "1" } else { "0" })
    }

    fn set_admin_token_hash(&mut self, hash: &str) -> Result<()> {
        self.set_setting("admin_token_hash", hash)
    }

    fn entry_key_hash(&self, entry: &str) -> Result<Option<String>> {
        query_opt(
            self,
            "SELECT k.key_hash FROM entry_keys k JOIN entries e ON e.id = k.entry_id
             WHERE e.name = $1",
            &[&entry],
        )?
        .map(|row| Ok(row.try_get(0)?))
        .transpose()
    }

    fn set_entry_key_hash(&mut self, entry: &str, hash: &str) -> Result<bool> {
        let client = self.client.get_mut();
        let Some(row) = client.query_opt("SELECT id FROM entries WHERE name = $1", &[&entry])?
        else {
            bail!("no entry `{entry}` to give a key to");
        };
        let id: i64 = row.try_get(0)?;
        let added = client.execute(
            "INSERT INTO entry_keys (entry_id, key_hash) VALUES ($1, $2)
             ON CONFLICT (entry_id) DO NOTHING",
            &[&id, &hash],
        )?;
        Ok(added == 1)
    }

    fn save_job(&mut self, job: &Job) -> Result<()> {
        self.client.get_mut().execute(
            &format!(
                "INSERT INTO jobs (id, entry, state, message) VALUES ($1, $2, $3, $4)
                 ON CONFLICT (id) DO UPDATE SET state = excluded.state,
                     message = excluded.message, updated = {TIMESTAMP_DEFAULT}"
            ),
            &[&job.id, &job.entry, &job.state.as_str(), &job.message],
        )?;
        Ok(())
    }

    fn job(&self, id: &str) -> Result<Option<Job>> {
        query_opt(
            self,
            "SELECT id, entry, state, message, created FROM jobs WHERE id = $1",
            &[&id],
        )?
        .map(|r| {
            Ok(Job {
                id: r.try_get(0)?,
                entry: r.try_get(1)?,
                state: parsed(&r, 2)?,
                message: r.try_get(3)?,
                created: r.try_get(4)?,
            })
        })
        .transpose()
    }

    fn refuse_unfinished_jobs(&mut self, message: &str) -> Result<usize> {
        let refused = self.client.get_mut().execute(
            &format!(
                "UPDATE jobs SET state = 'refused', message = $1, updated = {TIMESTAMP_DEFAULT}
                 WHERE state IN ('queued', 'running')"
            ),
            &[&message],
        )?;
        Ok(usize::try_from(refused)?)
    }

    fn revision(&self) -> Result<StoreRevision> {
        let row = query_opt(
            self,
            "SELECT (SELECT COALESCE(MAX(id), 0) FROM games),
                    (SELECT COALESCE(MAX(id), 0) FROM versions),
                    (SELECT COALESCE(SUM(id), 0)::BIGINT FROM entries WHERE withdrawn)",
            &[],
        )?
        .context("the revision query returned no row")?;
        Ok(StoreRevision {
            last_game: row.try_get(0)?,
            last_version: row.try_get(1)?,
            withdrawn: row.try_get(2)?,
        })
    }

    fn game(&self, id: GameId) -> Result<Option<Game>> {
        query_opt(
            self,
            "SELECT id, tournament_id, slot_id, white_version, black_version, result, termination,
                    faulty, detail, pgn
             FROM games WHERE id = $1",
            &[&id.0],
        )?
        .map(|row| game_from_row(&row))
        .transpose()
    }
}

impl PostgresStore {
    fn set_setting(&mut self, name: &str, value: &str) -> Result<()> {
        self.client.get_mut().execute(
            "INSERT INTO server_settings (name, value) VALUES ($1, $2)
             ON CONFLICT (name) DO UPDATE SET value = excluded.value",
            &[&name, &value],
        )?;
        Ok(())
    }
}

/// The game and its slot in one transaction (`challenge_record`, `pg_access.rs`), only if
/// the slot still carries `token`: a lease that ran out and was claimed again has a new
/// token, and this result is refused.
fn record_leased(client: &mut Client, claim: &Claim, token: i64, game: &NewGame) -> Result<GameId> {
    let slot = claim.slot.id;
    let stored = client.query_one(
        "SELECT challenge_record($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)",
        &[
            &slot.0,
            &token,
            &game.white.0,
            &game.black.0,
            &game.result.as_str(),
            &game.termination.tag(),
            &game.faulty.map(side_text),
            &game.detail,
            &i64::from(game.plies),
            &game.pgn,
        ],
    );
    match stored {
        Ok(row) => Ok(GameId(row.try_get(0)?)),
        Err(err) if is_lease_not_held(&err) => Err(LeaseLost { slot }.into()),
        Err(err) if is_refused(&err) => Err(anyhow::anyhow!(
            "the store refused the game of slot {slot}: {}",
            err.as_db_error()
                .map_or(String::new(), |e| e.message().to_string())
        )),
        Err(err) => {
            Err(anyhow::Error::new(err).context(format!("cannot store the game of slot {slot}")))
        }
    }
}

impl PostgresStore {
    fn with_reader<T>(&self, read: impl FnOnce(&mut Client) -> Result<T>) -> Result<T> {
        read(&mut self.client.borrow_mut())
    }
}

/// Runs a query for a `&self` method and converts its rows.
fn read_rows<T>(
    store: &PostgresStore,
    sql: &str,
    params: &[&(dyn postgres::types::ToSql + Sync)],
    row: impl Fn(&Row) -> Result<T>,
) -> Result<Vec<T>> {
    store.with_reader(|client| {
        client
            .query(sql, params)?
            .iter()
            .map(&row)
            .collect::<Result<Vec<T>>>()
    })
}

fn query_opt(
    store: &PostgresStore,
    sql: &str,
    params: &[&(dyn postgres::types::ToSql + Sync)],
) -> Result<Option<Row>> {
    store.with_reader(|client| Ok(client.query_opt(sql, params)?))
}

/// What `challenge migrate` copied.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Copied {
    /// Entries.
    pub entries: usize,
    /// Versions (with their sources).
    pub versions: usize,
    /// Tournaments (with their schedules).
    pub tournaments: usize,
    /// Games.
    pub games: usize,
}

/// How a column is read from SQLite and written to PostgreSQL.
#[derive(Clone, Copy)]
enum Kind {
    Int,
    Text,
    Bool,
}

/// The tables in the order their references need, each with its columns (SQLite's
/// schema, [`super::sqlite`]); `slots.game_id` is set once the games are in.
const TABLES: [(&str, &[(&str, Kind)]); 10] = [
    (
        "entries",
        &[
            ("id", Kind::Int),
            ("name", Kind::Text),
            ("author", Kind::Text),
            ("withdrawn", Kind::Bool),
            ("created", Kind::Text),
        ],
    ),
    (
        "versions",
        &[
            ("id", Kind::Int),
            ("entry_id", Kind::Int),
            ("number", Kind::Int),
            ("hash", Kind::Text),
            ("source", Kind::Text),
            ("file_name", Kind::Text),
            ("tokens", Kind::Int),
            ("debug_tokens", Kind::Int),
            ("submitted", Kind::Text),
        ],
    ),
    (
        "tournaments",
        &[
            ("id", Kind::Int),
            ("format", Kind::Text),
            ("pairs", Kind::Int),
            ("rounds", Kind::Int),
            ("time_control", Kind::Text),
            ("openings", Kind::Text),
            ("finished", Kind::Bool),
            ("created", Kind::Text),
            ("rules", Kind::Text),
        ],
    ),
    (
        "participants",
        &[
            ("tournament_id", Kind::Int),
            ("entry_id", Kind::Int),
            ("seed", Kind::Int),
        ],
    ),
    (
        "slots",
        &[
            ("id", Kind::Int),
            ("tournament_id", Kind::Int),
            ("round", Kind::Int),
            ("pair", Kind::Int),
            ("game_in_pair", Kind::Int),
            ("white_entry", Kind::Int),
            ("black_entry", Kind::Int),
            ("opening", Kind::Int),
            ("cancelled", Kind::Bool),
        ],
    ),
    (
        "byes",
        &[
            ("tournament_id", Kind::Int),
            ("round", Kind::Int),
            ("entry_id", Kind::Int),
        ],
    ),
    (
        "games",
        &[
            ("id", Kind::Int),
            ("tournament_id", Kind::Int),
            ("slot_id", Kind::Int),
            ("white_version", Kind::Int),
            ("black_version", Kind::Int),
            ("result", Kind::Text),
            ("termination", Kind::Text),
            ("faulty", Kind::Text),
            ("detail", Kind::Text),
            ("plies", Kind::Int),
            ("pgn", Kind::Text),
            ("finished", Kind::Text),
        ],
    ),
    (
        "server_settings",
        &[("name", Kind::Text), ("value", Kind::Text)],
    ),
    (
        "entry_keys",
        &[("entry_id", Kind::Int), ("key_hash", Kind::Text)],
    ),
    (
        "jobs",
        &[
            ("id", Kind::Text),
            ("entry", Kind::Text),
            ("state", Kind::Text),
            ("message", Kind::Text),
            ("created", Kind::Text),
            ("updated", Kind::Text),
        ],
    ),
];

/// One SQLite value as the PostgreSQL column wants it.
#[derive(Debug)]
enum Cell {
    Int(Option<i64>),
    Text(Option<String>),
    Bool(bool),
}

impl Cell {
    fn read(row: &rusqlite::Row<'_>, i: usize, kind: Kind, column: &str) -> Result<Cell> {
        use rusqlite::types::Value;
        let value: Value = row.get(i)?;
        Ok(match (kind, value) {
            (Kind::Int, Value::Integer(n)) => Cell::Int(Some(n)),
            (Kind::Int, Value::Null) => Cell::Int(None),
            (Kind::Text, Value::Text(s)) => Cell::Text(Some(s)),
            (Kind::Text, Value::Null) => Cell::Text(None),
            (Kind::Bool, Value::Integer(n)) => Cell::Bool(n != 0),
            (_, other) => bail!("column {column} holds {other:?}, which this kit did not write"),
        })
    }

    fn param(&self) -> &(dyn postgres::types::ToSql + Sync) {
        match self {
            Cell::Int(n) => n,
            Cell::Text(s) => s,
            Cell::Bool(b) => b,
        }
    }
}

impl PostgresStore {
    /// Copies the challenge in the SQLite directory `dir` (brought up to date first) into
    /// this store, which must be empty: every row of every table with its id, in one
    /// transaction. Tournaments copied are taken to be played by this kit's version.
    pub fn import_sqlite(&mut self, dir: &std::path::Path) -> Result<Copied> {
        drop(super::SqliteStore::open(dir)?);
        let path = dir.join(super::DB_FILE);
        let source = rusqlite::Connection::open_with_flags(
            &path,
            rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY,
        )
        .with_context(|| format!("cannot read {}", path.display()))?;
        if !self.is_empty()? {
            bail!(
                "the store {} already holds a challenge: migrate into an empty database (`createdb NAME`)",
                self.shown
            );
        }
        let mut tx = self.client.get_mut().transaction()?;
        let mut counts = HashMap::new();
        for (table, columns) in TABLES {
            let copied = copy_table(&source, &mut tx, table, columns)
                .with_context(|| format!("cannot copy the table {table}"))?;
            counts.insert(table, copied);
        }
        let mut read = source.prepare("SELECT id, game_id FROM slots WHERE game_id IS NOT NULL")?;
        let played = read.query_map([], |r| Ok((r.get::<_, i64>(0)?, r.get::<_, i64>(1)?)))?;
        let mark = tx.prepare("UPDATE slots SET game_id = $2 WHERE id = $1")?;
        for pair in played {
            let (slot, game) = pair?;
            tx.execute(&mark, &[&slot, &game])?;
        }
        tx.execute("UPDATE tournaments SET kit_version = $1", &[&KIT_VERSION])?;
        for table in ["entries", "versions", "tournaments", "slots", "games"] {
            tx.batch_execute(&format!(
                "SELECT setval(pg_get_serial_sequence('{table}', 'id'), COALESCE((SELECT MAX(id) FROM {table}), 0) + 1, false)"
            ))?;
        }
        tx.commit()?;
        Ok(Copied {
            entries: counts["entries"],
            versions: counts["versions"],
            tournaments: counts["tournaments"],
            games: counts["games"],
        })
    }
}

fn copy_table(
    source: &rusqlite::Connection,
    tx: &mut postgres::Transaction<'_>,
    table: &str,
    columns: &[(&str, Kind)],
) -> Result<usize> {
    let names: Vec<&str> = columns.iter().map(|(name, _)| *name).collect();
    let placeholders: Vec<String> = (1..=columns.len()).map(|i| format!("${i}")).collect();
    let insert = tx.prepare(&format!(
        "INSERT INTO {table} ({}) VALUES ({})",
        names.join(", "),
        placeholders.join(", ")
    ))?;
    let mut read = source.prepare(&format!(
        "SELECT {} FROM {table} ORDER BY rowid",
        names.join(", ")
    ))?;
    let mut rows = read.query([])?;
    let mut copied = 0;
    while let Some(row) = rows.next()? {
        let cells = columns
            .iter()
            .enumerate()
            .map(|(i, (name, kind))| Cell::read(row, i, *kind, name))
            .collect::<Result<Vec<Cell>>>()?;
        let params: Vec<&(dyn postgres::types::ToSql + Sync)> =
            cells.iter().map(Cell::param).collect();
        tx.execute(&insert, &params)?;
        copied += 1;
    }
    Ok(copied)
}

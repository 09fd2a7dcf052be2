//! The shared backend: a PostgreSQL database that workers on many machines play from.
//!
//! The schema and every statement but the leases are the ones SQLite runs
//! ([`crate::schema`], and the statements in `entries.rs`, `tournaments.rs`, `games.rs`
//! and `server.rs`), through the connection here. What only PostgreSQL does lives beside
//! it: reaching the server (`connect.rs`), workers' leases on slots (`lease.rs`), the
//! workers themselves (`workers.rs`), the schema's version and upgrade (`upgrade.rs`),
//! and `challenge migrate`'s copy of a challenge directory (`copy.rs`).

pub(crate) mod access;
mod connect;
mod copy;
mod lease;
mod tls;
mod upgrade;
mod workers;

use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use postgres::types::{FromSql, IsNull, ToSql, Type};
use postgres::{Client, Config, GenericClient, Statement};

use crate::error::{Cause, StoreError, StoreResult};
use crate::sql::{Backend, Conn, Dialect, Mapped, Param, Row, dollar_placeholders, params};
use crate::{KIT_VERSION, SlotId, TournamentId, Upgraded};

pub use access::{MAX_LIVE_SNAPSHOT_BYTES, Revoked, WorkerGrant, check_role_name, worker_url};
pub use connect::{is_postgres_url, redacted_url};
pub use copy::Copied;
pub use lease::DEFAULT_LEASE;
pub use tls::{Encryption, SslMode};
pub use workers::{DEFAULT_LIMITS, NewWorker, WorkerInfo, WorkerLimits, WorkerSession};

use lease::Heartbeat;
use tls::Tls;

/// Advisory lock key (`pg_advisory_lock`) of schema upgrades (a tournament's organiser
/// lock is the key after it plus its id: `tournaments.rs`).
const UPGRADE_LOCK: i64 = 0x6b69_7400;

/// A challenge in a PostgreSQL database.
pub struct PostgresStore {
    /// In a cell: the trait's read methods take `&self`, a query needs the connection
    /// mutably, and a store is used from one thread at a time.
    client: RefCell<Client>,
    /// The statements prepared on `client`, by their SQL: each is prepared once per
    /// connection, so running it again is one round trip, not two.
    prepared: RefCell<Prepared>,
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

impl PostgresStore {
    /// Connects to the store at `url` (`postgres://USER:PASSWORD@HOST:PORT/DB`) to use
    /// it: runs no DDL, and refuses a database without a challenge, or with a schema
    /// other than this kit's (an older one names `challenge upgrade`). Errors name the
    /// host, never the password.
    pub fn open(url: &str) -> StoreResult<PostgresStore> {
        let mut store = PostgresStore::connect(url)?;
        let stamp = upgrade::stamp(store.client.get_mut(), &store.shown)?;
        upgrade::require_current(stamp, &store.shown)?;
        access::check(store.client.get_mut(), &store.shown)?;
        Ok(store)
    }

    /// Connects to the store at `url` and brings its schema up to date, creating it in
    /// an empty database (the commands that create or write a challenge).
    pub fn create(url: &str) -> StoreResult<PostgresStore> {
        let mut store = PostgresStore::connect(url)?;
        store.upgrade()?;
        Ok(store)
    }

    /// Brings the schema of the challenge at `url` up to date (`challenge upgrade`); a
    /// database without a challenge is refused.
    pub fn upgrade_url(url: &str) -> StoreResult<Upgraded> {
        let mut store = PostgresStore::connect(url)?;
        let stamp = upgrade::stamp(store.client.get_mut(), &store.shown)?;
        if stamp == crate::schema::Stamp::Shared(0) {
            return Err(upgrade::no_challenge(&store.shown));
        }
        store.upgrade()
    }

    fn connect(url: &str) -> StoreResult<PostgresStore> {
        let (config, tls) = connect::parse_config(url)?;
        let shown = redacted_url(&config);
        let client = connect::connect(&config, &tls, &shown)?;
        Ok(PostgresStore {
            client: RefCell::new(client),
            prepared: RefCell::default(),
            config,
            tls,
            shown,
            lease: DEFAULT_LEASE,
            held: Arc::new(Mutex::new(HashMap::new())),
            heartbeat: None,
            checked: Vec::new(),
        })
    }

    /// Brings the schema up to date, then the worker functions (`access.rs`).
    fn upgrade(&mut self) -> StoreResult<Upgraded> {
        let upgraded = upgrade::upgrade(self.client.get_mut(), &self.shown)?;
        let functions_installed = access::ensure(self.client.get_mut(), &self.shown)?;
        Ok(Upgraded {
            functions_installed,
            ..upgraded
        })
    }

    /// A second connection to the same store (for another thread).
    pub fn reconnect(&self) -> StoreResult<PostgresStore> {
        let client = connect::connect(&self.config, &self.tls, &self.shown)?;
        Ok(PostgresStore {
            client: RefCell::new(client),
            prepared: RefCell::default(),
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
    pub fn reopen(&mut self) -> StoreResult<()> {
        *self.client.get_mut() = connect::connect(&self.config, &self.tls, &self.shown)?;
        self.prepared.get_mut().clear();
        Ok(())
    }

    /// The schema version of the connected database (an old PostgreSQL numbering counts
    /// as the shared steps it had without a gap).
    pub fn schema_version(&mut self) -> StoreResult<u32> {
        Ok(upgrade::stamp(self.client.get_mut(), &self.shown)?.version())
    }

    /// The kit version a tournament was created with (`None`: unknown).
    pub fn tournament_kit_version(
        &mut self,
        tournament: TournamentId,
    ) -> StoreResult<Option<String>> {
        let version = self.write(|c| {
            c.first(
                "SELECT kit_version FROM tournaments WHERE id = ?1",
                params![tournament],
                |r| r.get::<Option<String>>(0),
            )
        })?;
        version.ok_or_else(|| StoreError::NotFound {
            store: self.shown.clone(),
            what: format!("tournament {tournament}"),
            hint: String::new(),
        })
    }

    /// Refuses to play a tournament created by another kit version: its results must
    /// all come from one rule set.
    pub fn check_kit_version(&mut self, tournament: TournamentId) -> StoreResult<()> {
        if self.checked.contains(&tournament) {
            return Ok(());
        }
        match self.tournament_kit_version(tournament)? {
            Some(kit) if kit != KIT_VERSION => Err(StoreError::OtherKit {
                store: self.shown.clone(),
                tournament: tournament.0,
                kit,
            }),
            _ => {
                self.checked.push(tournament);
                Ok(())
            }
        }
    }

    /// Whether the store holds no entries and no tournaments (a target for `challenge
    /// migrate`).
    pub fn is_empty(&mut self) -> StoreResult<bool> {
        self.write(|c| {
            c.one(
                "SELECT NOT EXISTS (SELECT 1 FROM entries) AND NOT EXISTS (SELECT 1 FROM tournaments)",
                &[],
                |r| r.get(0),
            )
        })
    }

    /// The connection, for tests and benchmarks that write rows directly.
    pub fn client(&mut self) -> &mut Client {
        self.client.get_mut()
    }

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

/// A PostgreSQL error as the store's: a lost connection (the worker reconnects), a
/// refused privilege, a uniqueness conflict, or anything else.
pub(crate) fn pg_error(store: &str, err: postgres::Error) -> StoreError {
    let code = err.code().map(|c| c.code().to_string());
    let class = code.as_deref().and_then(|c| c.get(..2));
    let lost = err.is_closed()
        || matches!(class, Some("08" | "57"))
        || std::error::Error::source(&err).is_some_and(|s| s.is::<std::io::Error>());
    let store = store.to_string();
    let what = err.as_db_error().map(|db| db.message().to_string());
    let source: Cause = Box::new(err);
    match code.as_deref() {
        _ if lost => StoreError::ConnectionLost { store, source },
        Some("42501") => StoreError::PermissionDenied {
            store,
            hint: ": the user in the URL lacks a privilege this command needs".into(),
            source,
        },
        // 23505: a unique value given twice; KL002: a worker function refused the request
        // as malformed (`access.rs`), saying why.
        Some("23505" | access::REFUSED) => StoreError::Conflict {
            store,
            what: what.unwrap_or_else(|| source.to_string()),
        },
        _ => StoreError::Database { store, source },
    }
}

impl ToSql for Param<'_> {
    fn to_sql(
        &self,
        ty: &Type,
        out: &mut bytes::BytesMut,
    ) -> Result<IsNull, Box<dyn std::error::Error + Sync + Send>> {
        match self {
            Param::Int(n) => n.to_sql(ty, out),
            Param::Text(s) => s.to_sql(ty, out),
            Param::Bool(b) => b.to_sql(ty, out),
            Param::Real(x) => x.to_sql(ty, out),
        }
    }

    fn accepts(_: &Type) -> bool {
        // Checked per value in `to_sql_checked`: the variant decides the type.
        true
    }

    fn to_sql_checked(
        &self,
        ty: &Type,
        out: &mut bytes::BytesMut,
    ) -> Result<IsNull, Box<dyn std::error::Error + Sync + Send>> {
        match self {
            Param::Int(n) => n.to_sql_checked(ty, out),
            Param::Text(s) => s.to_sql_checked(ty, out),
            Param::Bool(b) => b.to_sql_checked(ty, out),
            Param::Real(x) => x.to_sql_checked(ty, out),
        }
    }
}

/// Whether a value of any type is `NULL`.
struct Nullness(bool);

impl FromSql<'_> for Nullness {
    fn from_sql(_: &Type, _: &[u8]) -> Result<Self, Box<dyn std::error::Error + Sync + Send>> {
        Ok(Nullness(false))
    }

    fn from_sql_null(_: &Type) -> Result<Self, Box<dyn std::error::Error + Sync + Send>> {
        Ok(Nullness(true))
    }

    fn accepts(_: &Type) -> bool {
        true
    }
}

struct PgRow<'a>(&'a postgres::Row);

impl PgRow<'_> {
    fn get<'a, T: FromSql<'a>>(&'a self, i: usize) -> Result<T, String> {
        self.0.try_get(i).map_err(|e| e.to_string())
    }
}

impl Row for PgRow<'_> {
    fn name(&self, i: usize) -> String {
        self.0
            .columns()
            .get(i)
            .map_or_else(|| format!("#{i}"), |c| c.name().to_string())
    }
    fn is_null(&self, i: usize) -> Result<bool, String> {
        self.get::<Nullness>(i).map(|n| n.0)
    }
    fn int(&self, i: usize) -> Result<i64, String> {
        self.get(i)
    }
    fn text(&self, i: usize) -> Result<String, String> {
        self.get(i)
    }
    fn bool(&self, i: usize) -> Result<bool, String> {
        self.get(i)
    }
    fn real(&self, i: usize) -> Result<f64, String> {
        self.get(i)
    }
}

/// Statements prepared on one connection, by their SQL (with `$N` placeholders).
type Prepared = HashMap<String, Statement>;

/// More distinct statements than the kit has: a caller building SQL from values would
/// otherwise grow the cache without end.
const MAX_PREPARED: usize = 256;

/// The shared statements' connection to PostgreSQL (a client or a transaction), with the
/// connection's prepared statements when it has them.
pub(crate) struct PgConn<'a, C: GenericClient> {
    pub client: &'a mut C,
    pub store: &'a str,
    pub prepared: Option<&'a mut Prepared>,
}

impl<C: GenericClient> PgConn<'_, C> {
    /// `sql` prepared on this connection (once, if it keeps its statements).
    fn statement(&mut self, sql: &str) -> StoreResult<Statement> {
        let sql = dollar_placeholders(sql);
        if let Some(statement) = self.prepared.as_ref().and_then(|p| p.get(sql.as_ref())) {
            return Ok(statement.clone());
        }
        let statement = self
            .client
            .prepare(&sql)
            .map_err(|e| pg_error(self.store, e))?;
        if let Some(prepared) = self.prepared.as_mut() {
            if prepared.len() >= MAX_PREPARED {
                prepared.clear();
            }
            prepared.insert(sql.into_owned(), statement.clone());
        }
        Ok(statement)
    }
}

fn pg_params<'a>(params: &'a [Param<'_>]) -> Vec<&'a (dyn ToSql + Sync)> {
    params.iter().map(|p| p as &(dyn ToSql + Sync)).collect()
}

impl<C: GenericClient> Conn for PgConn<'_, C> {
    fn dialect(&self) -> Dialect {
        Dialect::Postgres
    }

    fn store(&self) -> &str {
        self.store
    }

    fn execute(&mut self, sql: &str, params: &[Param<'_>]) -> StoreResult<u64> {
        let statement = self.statement(sql)?;
        self.client
            .execute(&statement, &pg_params(params))
            .map_err(|e| pg_error(self.store, e))
    }

    fn query(
        &mut self,
        sql: &str,
        params: &[Param<'_>],
        each: &mut dyn FnMut(&dyn Row) -> Mapped<()>,
    ) -> StoreResult<()> {
        let statement = self.statement(sql)?;
        let rows = self
            .client
            .query(&statement, &pg_params(params))
            .map_err(|e| pg_error(self.store, e))?;
        for row in &rows {
            each(&PgRow(row)).map_err(|bad| bad.at(self.store))?;
        }
        Ok(())
    }

    fn batch(&mut self, sql: &str) -> StoreResult<()> {
        self.client
            .batch_execute(sql)
            .map_err(|e| pg_error(self.store, e))
    }
}

impl Backend for PostgresStore {
    fn store_name(&self) -> String {
        self.shown.clone()
    }

    fn read<T>(&self, f: impl FnOnce(&mut dyn Conn) -> StoreResult<T>) -> StoreResult<T> {
        let mut client = self.client.borrow_mut();
        let mut prepared = self.prepared.borrow_mut();
        f(&mut PgConn {
            client: &mut *client,
            store: &self.shown,
            prepared: Some(&mut *prepared),
        })
    }

    fn write<T>(&mut self, f: impl FnOnce(&mut dyn Conn) -> StoreResult<T>) -> StoreResult<T> {
        f(&mut PgConn {
            client: self.client.get_mut(),
            store: &self.shown,
            prepared: Some(self.prepared.get_mut()),
        })
    }

    fn transaction<T>(
        &mut self,
        f: impl FnOnce(&mut dyn Conn) -> StoreResult<T>,
    ) -> StoreResult<T> {
        let mut tx = self
            .client
            .get_mut()
            .transaction()
            .map_err(|e| pg_error(&self.shown, e))?;
        let value = f(&mut PgConn {
            client: &mut tx,
            store: &self.shown,
            prepared: Some(self.prepared.get_mut()),
        })?;
        tx.commit().map_err(|e| pg_error(&self.shown, e))?;
        Ok(value)
    }
}

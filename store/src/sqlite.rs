//! The embedded backend: the challenge directory's SQLite database.
//!
//! Durability is the point: the database is in WAL mode with `synchronous=FULL`, and a
//! game row is inserted in the same transaction that marks its schedule slot done, so a
//! `kill -9` at any moment leaves every slot either done with exactly one game or not
//! done at all. The `UNIQUE` constraint on `games.slot_id` makes a second game for a slot
//! impossible even if a caller got it wrong.
//!
//! The schema is versioned with `PRAGMA user_version`, counting the steps of
//! [`crate::schema`]. Opening to write brings it forward, one step per transaction;
//! opening to read never changes the file and refuses an older schema.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::time::Duration;

use rusqlite::types::{ToSqlOutput, ValueRef};
use rusqlite::{Connection, OpenFlags, TransactionBehavior, params_from_iter};

use crate::error::{Cause, StoreError, StoreResult};
use crate::games::{Claim, ClaimStore, NewGame, check_unplayed, store_game};
use crate::schema::{self, SCHEMA_VERSION, STEPS, Stamp, require_current, require_known};
use crate::sql::{Backend, Conn, Dialect, Mapped, Param, Row, count, params};
use crate::tournaments::{SLOT_COLUMNS, slot_from_row};
use crate::{GameId, SlotId, TournamentId, Upgraded};

/// The database file inside a challenge directory.
pub const DB_FILE: &str = "challenge.db";

/// An open challenge database.
pub struct SqliteStore {
    conn: Connection,
    dir: PathBuf,
    /// The directory as messages show it.
    shown: String,
    /// Slots claimed by this process and not yet recorded or released. One process plays
    /// a challenge at a time (`run.lock`), so claims need not outlive it.
    claimed: HashSet<SlotId>,
}

/// How to tell the user to fix a directory the store cannot write.
fn writable_hint(dir: &Path) -> String {
    format!(
        ": check that {} and the files in it are writable by you and that no other program holds the database (`chmod -R u+w {}`)",
        dir.display(),
        dir.display()
    )
}

impl SqliteStore {
    /// Opens (creating if needed) the challenge in `dir` for reading and writing, its
    /// schema brought up to date.
    pub fn create(dir: &Path) -> StoreResult<SqliteStore> {
        std::fs::create_dir_all(dir).map_err(|source| StoreError::Io {
            what: format!("cannot create the challenge directory {}", dir.display()),
            source,
        })?;
        let mut store = SqliteStore::open_rw(dir)?;
        store.upgrade()?;
        Ok(store)
    }

    /// Opens an existing challenge for reading and writing, its schema brought up to
    /// date; an error tells how to start one.
    pub fn open(dir: &Path) -> StoreResult<SqliteStore> {
        require_db(dir)?;
        let mut store = SqliteStore::open_rw(dir)?;
        store.upgrade()?;
        Ok(store)
    }

    /// Brings the schema of an existing challenge up to date (`challenge upgrade`).
    pub fn upgrade_dir(dir: &Path) -> StoreResult<Upgraded> {
        require_db(dir)?;
        SqliteStore::open_rw(dir)?.upgrade()
    }

    /// Opens an existing challenge only to read it: works on a read-only directory and
    /// never changes the file. A schema older or newer than this kit's is refused.
    pub fn open_read_only(dir: &Path) -> StoreResult<SqliteStore> {
        require_db(dir)?;
        let path = dir.join(DB_FILE);
        let shown = dir.display().to_string();
        let cannot_open = |source: rusqlite::Error| StoreError::PermissionDenied {
            store: shown.clone(),
            hint: format!(": cannot open {} to read it", path.display()),
            source: Box::new(source),
        };
        let conn = Connection::open_with_flags(&path, OpenFlags::SQLITE_OPEN_READ_ONLY)
            .map_err(cannot_open)?;
        // A WAL database needs its `-shm` file; in a read-only directory without one,
        // reading as immutable is safe, since no one can be writing there either.
        let conn = match user_version(&conn) {
            Ok(_) => conn,
            Err(_) => Connection::open_with_flags(
                format!("file:{}?immutable=1", path.display()),
                OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_URI,
            )
            .map_err(cannot_open)?,
        };
        let store = SqliteStore {
            conn,
            dir: dir.to_path_buf(),
            shown,
            claimed: HashSet::new(),
        };
        let stamp = Stamp::Shared(user_version(&store.conn).map_err(|e| store.error(e))?);
        require_current(stamp, &store.shown, &upgrade_command(dir))?;
        Ok(store)
    }

    /// Opens for writing, without touching the schema yet.
    fn open_rw(dir: &Path) -> StoreResult<SqliteStore> {
        let path = dir.join(DB_FILE);
        let shown = dir.display().to_string();
        let denied = |source: rusqlite::Error| StoreError::PermissionDenied {
            store: shown.clone(),
            hint: writable_hint(dir),
            source: Box::new(source),
        };
        let conn = Connection::open(&path).map_err(denied)?;
        conn.busy_timeout(Duration::from_secs(30)).map_err(denied)?;
        conn.pragma_update(None, "journal_mode", "WAL")
            .and_then(|()| conn.pragma_update(None, "synchronous", "FULL"))
            .and_then(|()| conn.pragma_update(None, "foreign_keys", "ON"))
            .map_err(denied)?;
        Ok(SqliteStore {
            conn,
            dir: dir.to_path_buf(),
            shown,
            claimed: HashSet::new(),
        })
    }

    /// Applies the schema steps this database has not had yet, each in its own
    /// transaction with the version bump, so an interrupted upgrade resumes cleanly. The
    /// version is read again under the write lock: two processes opening an old
    /// database at once apply each step once.
    fn upgrade(&mut self) -> StoreResult<Upgraded> {
        let found = user_version(&self.conn).map_err(|e| self.error(e))?;
        require_known(Stamp::Shared(found), &self.shown)?;
        loop {
            let tx = self
                .conn
                .transaction_with_behavior(TransactionBehavior::Immediate)
                .map_err(|e| sqlite_error(&self.shown, &self.dir, e))?;
            let version = user_version(&tx).map_err(|e| sqlite_error(&self.shown, &self.dir, e))?;
            require_known(Stamp::Shared(version), &self.shown)?;
            let Some(step) = STEPS.get(version as usize) else {
                break;
            };
            let failed = |e| StoreError::UpgradeFailed {
                store: self.shown.clone(),
                step: version + 1,
                what: step.what,
                source: Box::new(sqlite_error(&self.shown, &self.dir, e)),
            };
            tx.execute_batch(&schema::expand(step.sql, Dialect::Sqlite))
                .and_then(|()| tx.pragma_update(None, "user_version", version + 1))
                .and_then(|()| tx.commit())
                .map_err(failed)?;
        }
        Ok(Upgraded {
            location: self.shown.clone(),
            from: found,
            to: SCHEMA_VERSION,
            functions_installed: false,
        })
    }

    /// Takes the challenge's run lock: two runs on one challenge would play the same
    /// games. The OS drops the lock when the process ends, however it ends, so a killed
    /// run never blocks the next one. Keep the file while playing.
    pub fn lock_for_run(&self) -> StoreResult<std::fs::File> {
        let lock_path = self.dir.join("run.lock");
        let lock = std::fs::File::create(&lock_path).map_err(|source| StoreError::Io {
            what: format!(
                "cannot create {}{}",
                lock_path.display(),
                writable_hint(&self.dir)
            ),
            source,
        })?;
        match lock.try_lock() {
            Ok(()) => Ok(lock),
            Err(std::fs::TryLockError::WouldBlock) => Err(StoreError::Conflict {
                store: self.shown.clone(),
                what: "another `challenge run` is playing the tournament here right now; wait for it or stop it first".into(),
            }),
            Err(std::fs::TryLockError::Error(source)) => Err(StoreError::Io {
                what: format!("cannot lock {}", lock_path.display()),
                source,
            }),
        }
    }

    /// The challenge directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The schema version of the open database.
    pub fn schema_version(&self) -> StoreResult<u32> {
        user_version(&self.conn).map_err(|e| self.error(e))
    }

    fn error(&self, err: rusqlite::Error) -> StoreError {
        sqlite_error(&self.shown, &self.dir, err)
    }

    fn conn(&self) -> SqliteConn<'_> {
        SqliteConn {
            conn: &self.conn,
            store: &self.shown,
            dir: &self.dir,
        }
    }
}

/// The command that upgrades the challenge in `dir`.
fn upgrade_command(dir: &Path) -> String {
    format!("challenge upgrade --dir {}", dir.display())
}

fn require_db(dir: &Path) -> StoreResult<()> {
    if !dir.join(DB_FILE).is_file() {
        return Err(StoreError::NotFound {
            store: dir.display().to_string(),
            what: "challenge".into(),
            hint: missing_hint(dir),
        });
    }
    Ok(())
}

/// Where a missing challenge was looked for (the folder in full), and what to run: the
/// `--dir` of a challenge inside that folder (its parent was named), or how to start one.
fn missing_hint(dir: &Path) -> String {
    let full = std::path::absolute(dir).unwrap_or_else(|_| dir.to_path_buf());
    let looked = if dir.is_dir() {
        format!(" (looked for {} in {})", DB_FILE, full.display())
    } else {
        format!(" (there is no folder {})", full.display())
    };
    let inside = dir.join("challenge");
    if inside.join(DB_FILE).is_file() {
        return format!(
            "{looked}: the challenge is in {} inside it: pass `--dir {}`",
            inside.display(),
            inside.display()
        );
    }
    format!(
        "{looked}: start one with `challenge submit FILE --name NAME`, or name another with --dir DIR or --store URL"
    )
}

fn user_version(conn: &Connection) -> rusqlite::Result<u32> {
    conn.pragma_query_value(None, "user_version", |r| r.get(0))
}

/// A SQLite error as the store's: refused access (a read-only file or directory), a
/// uniqueness conflict, or anything else.
fn sqlite_error(store: &str, dir: &Path, err: rusqlite::Error) -> StoreError {
    use rusqlite::ErrorCode;
    let code = err.sqlite_error_code();
    let extended = match &err {
        rusqlite::Error::SqliteFailure(e, _) => e.extended_code,
        _ => 0,
    };
    let source: Cause = Box::new(err);
    match code {
        Some(
            ErrorCode::ReadOnly
            | ErrorCode::PermissionDenied
            | ErrorCode::CannotOpen
            | ErrorCode::AuthorizationForStatementDenied,
        ) => StoreError::PermissionDenied {
            store: store.to_string(),
            hint: writable_hint(dir),
            source,
        },
        Some(ErrorCode::ConstraintViolation)
            if extended == rusqlite::ffi::SQLITE_CONSTRAINT_UNIQUE
                || extended == rusqlite::ffi::SQLITE_CONSTRAINT_PRIMARYKEY =>
        {
            StoreError::Conflict {
                store: store.to_string(),
                what: source.to_string(),
            }
        }
        _ => StoreError::Database {
            store: store.to_string(),
            source,
        },
    }
}

impl rusqlite::ToSql for Param<'_> {
    fn to_sql(&self) -> rusqlite::Result<ToSqlOutput<'_>> {
        Ok(match *self {
            Param::Int(Some(n)) => ToSqlOutput::from(n),
            Param::Text(Some(s)) => ToSqlOutput::from(s),
            Param::Int(None) | Param::Text(None) => ToSqlOutput::Borrowed(ValueRef::Null),
            Param::Bool(b) => ToSqlOutput::from(b),
            Param::Real(x) => ToSqlOutput::from(x),
        })
    }
}

/// The shared statements' connection to SQLite (a plain connection or a transaction).
struct SqliteConn<'a> {
    conn: &'a Connection,
    store: &'a str,
    dir: &'a Path,
}

impl SqliteConn<'_> {
    fn error(&self, err: rusqlite::Error) -> StoreError {
        sqlite_error(self.store, self.dir, err)
    }
}

struct SqliteRow<'a, 'b>(&'a rusqlite::Row<'b>);

impl Row for SqliteRow<'_, '_> {
    fn name(&self, i: usize) -> String {
        self.0
            .as_ref()
            .column_name(i)
            .map_or_else(|_| format!("#{i}"), str::to_string)
    }
    fn is_null(&self, i: usize) -> Result<bool, String> {
        Ok(matches!(
            self.0.get_ref(i).map_err(|e| e.to_string())?,
            ValueRef::Null
        ))
    }
    fn int(&self, i: usize) -> Result<i64, String> {
        self.0.get(i).map_err(|e| e.to_string())
    }
    fn text(&self, i: usize) -> Result<String, String> {
        self.0.get(i).map_err(|e| e.to_string())
    }
    fn bool(&self, i: usize) -> Result<bool, String> {
        self.0.get(i).map_err(|e| e.to_string())
    }
    fn real(&self, i: usize) -> Result<f64, String> {
        self.0.get(i).map_err(|e| e.to_string())
    }
}

impl Conn for SqliteConn<'_> {
    fn dialect(&self) -> Dialect {
        Dialect::Sqlite
    }

    fn store(&self) -> &str {
        self.store
    }

    fn execute(&mut self, sql: &str, params: &[Param<'_>]) -> StoreResult<u64> {
        let mut stmt = self.conn.prepare_cached(sql).map_err(|e| self.error(e))?;
        let changed = stmt
            .execute(params_from_iter(params))
            .map_err(|e| self.error(e))?;
        Ok(changed as u64)
    }

    fn query(
        &mut self,
        sql: &str,
        params: &[Param<'_>],
        each: &mut dyn FnMut(&dyn Row) -> Mapped<()>,
    ) -> StoreResult<()> {
        let mut stmt = self.conn.prepare_cached(sql).map_err(|e| self.error(e))?;
        let mut rows = stmt
            .query(params_from_iter(params))
            .map_err(|e| sqlite_error(self.store, self.dir, e))?;
        while let Some(row) = rows
            .next()
            .map_err(|e| sqlite_error(self.store, self.dir, e))?
        {
            each(&SqliteRow(row)).map_err(|bad| bad.at(self.store))?;
        }
        Ok(())
    }

    fn batch(&mut self, sql: &str) -> StoreResult<()> {
        self.conn.execute_batch(sql).map_err(|e| self.error(e))
    }
}

impl Backend for SqliteStore {
    fn store_name(&self) -> String {
        self.shown.clone()
    }

    fn read<T>(&self, f: impl FnOnce(&mut dyn Conn) -> StoreResult<T>) -> StoreResult<T> {
        f(&mut self.conn())
    }

    fn write<T>(&mut self, f: impl FnOnce(&mut dyn Conn) -> StoreResult<T>) -> StoreResult<T> {
        f(&mut self.conn())
    }

    fn transaction<T>(
        &mut self,
        f: impl FnOnce(&mut dyn Conn) -> StoreResult<T>,
    ) -> StoreResult<T> {
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(|e| sqlite_error(&self.shown, &self.dir, e))?;
        let value = f(&mut SqliteConn {
            conn: &tx,
            store: &self.shown,
            dir: &self.dir,
        })?;
        tx.commit()
            .map_err(|e| sqlite_error(&self.shown, &self.dir, e))?;
        Ok(value)
    }
}

/// Claims live in this process: one process plays a challenge directory at a time.
impl ClaimStore for SqliteStore {
    fn claim(
        &mut self,
        tournament: TournamentId,
        worker: &str,
        max: usize,
    ) -> StoreResult<Vec<Claim>> {
        let distrusted: bool = self.read(|c| {
            c.one(
                "SELECT EXISTS (SELECT 1 FROM distrusted_workers WHERE name = ?1 OR name = ?2)",
                params![worker, crate::worker_role(worker)],
                |r| r.get(0),
            )
        })?;
        if distrusted {
            return Err(StoreError::Conflict {
                store: self.store_name(),
                what: format!(
                    "worker {worker} is distrusted by the organiser: it claims no more games"
                ),
            });
        }
        // The first pending slots, enough of them to hold `max` this process has not
        // claimed yet: a claim reads what it hands out, not the whole schedule.
        let limit = max.saturating_add(self.claimed.len()).min(1 << 40);
        let sql = format!(
            "SELECT {SLOT_COLUMNS} FROM slots
             WHERE tournament_id = ?1 AND game_id IS NULL AND NOT cancelled
             ORDER BY id LIMIT ?2"
        );
        let pending = self.read(|c| {
            let limit = count("limit", limit).map_err(|e| c.bad(e))?;
            c.rows(&sql, &[tournament.into(), limit], slot_from_row)
        })?;
        let mut claims = Vec::new();
        for slot in pending {
            if claims.len() >= max {
                break;
            }
            if self.claimed.insert(slot.id) {
                claims.push(Claim {
                    tournament,
                    slot,
                    worker: worker.to_string(),
                });
            }
        }
        Ok(claims)
    }

    fn release(&mut self, claim: &Claim) -> StoreResult<()> {
        self.claimed.remove(&claim.slot.id);
        Ok(())
    }

    fn record(&mut self, claim: &Claim, game: &NewGame) -> StoreResult<GameId> {
        let slot = claim.slot.id;
        let id = self.transaction(|c| {
            check_unplayed(c, slot)?;
            store_game(c, claim, game)
        })?;
        self.claimed.remove(&slot);
        Ok(id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{
        EntryStore, NewTournament, NewVersion, SlotPlan, StoredRules, Submitted, Tournament,
        TournamentFormat, TournamentStore,
    };
    use framework::notation::pgn::GameResult;
    use runner::{Termination, TimeControl};

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("kit-store-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        dir
    }

    #[test]
    fn a_new_database_is_at_the_latest_version_and_reopening_changes_nothing() {
        let dir = scratch("fresh");
        let store = SqliteStore::create(&dir).unwrap();
        assert_eq!(store.schema_version().unwrap(), SCHEMA_VERSION);
        drop(store);
        let store = SqliteStore::open(&dir).unwrap();
        assert_eq!(store.schema_version().unwrap(), SCHEMA_VERSION);
        drop(store);
        let upgraded = SqliteStore::upgrade_dir(&dir).unwrap();
        assert_eq!(
            (upgraded.from, upgraded.to),
            (SCHEMA_VERSION, SCHEMA_VERSION)
        );
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_database_from_a_newer_kit_is_refused_with_its_path() {
        let dir = scratch("newer");
        drop(SqliteStore::create(&dir).unwrap());
        let conn = Connection::open(dir.join(DB_FILE)).unwrap();
        conn.pragma_update(None, "user_version", SCHEMA_VERSION + 1)
            .unwrap();
        drop(conn);
        for err in [
            SqliteStore::open(&dir).err().unwrap(),
            SqliteStore::open_read_only(&dir).err().unwrap(),
            SqliteStore::upgrade_dir(&dir).err().unwrap(),
        ] {
            assert!(matches!(err, StoreError::NewerSchema { .. }), "{err:?}");
            let text = err.to_string();
            assert!(text.contains("newer than this kit"), "{text}");
            assert!(text.contains(&dir.display().to_string()), "{text}");
        }
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn reading_an_older_database_is_refused_naming_the_upgrade_and_changes_nothing() {
        let dir = scratch("older");
        std::fs::create_dir_all(&dir).unwrap();
        let conn = Connection::open(dir.join(DB_FILE)).unwrap();
        conn.execute_batch(&schema::expand(STEPS[0].sql, Dialect::Sqlite))
            .unwrap();
        conn.pragma_update(None, "user_version", 1).unwrap();
        drop(conn);
        let before = std::fs::read(dir.join(DB_FILE)).unwrap();
        let err = SqliteStore::open_read_only(&dir).err().unwrap();
        assert!(
            matches!(err, StoreError::OlderSchema { found: 1, .. }),
            "{err:?}"
        );
        let text = err.to_string();
        assert!(
            text.contains(&format!("challenge upgrade --dir {}", dir.display())),
            "{text}"
        );
        assert_eq!(std::fs::read(dir.join(DB_FILE)).unwrap(), before);
        let upgraded = SqliteStore::upgrade_dir(&dir).unwrap();
        assert_eq!((upgraded.from, upgraded.to), (1, SCHEMA_VERSION));
        let store = SqliteStore::open_read_only(&dir).unwrap();
        assert_eq!(store.schema_version().unwrap(), SCHEMA_VERSION);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_missing_challenge_is_not_found_and_names_how_to_start_one() {
        let dir = scratch("missing");
        for err in [
            SqliteStore::open(&dir).err().unwrap(),
            SqliteStore::open_read_only(&dir).err().unwrap(),
            SqliteStore::upgrade_dir(&dir).err().unwrap(),
        ] {
            assert!(matches!(err, StoreError::NotFound { .. }), "{err:?}");
            assert!(err.to_string().contains("challenge submit"), "{err}");
        }
        assert!(!dir.exists(), "opening created the directory");
    }

    #[test]
    fn a_missing_challenge_names_the_folder_looked_in_and_one_inside_it() {
        let parent = scratch("parent");
        let dir = parent.join("challenge");
        drop(SqliteStore::create(&dir).unwrap());
        let text = SqliteStore::open_read_only(&parent)
            .err()
            .unwrap()
            .to_string();
        let full = std::path::absolute(&parent).unwrap();
        assert!(
            text.contains(&format!("looked for {DB_FILE} in {}", full.display())),
            "{text}"
        );
        assert!(
            text.contains(&format!("pass `--dir {}`", dir.display())),
            "{text}"
        );
        let gone = parent.join("nowhere");
        let text = SqliteStore::open_read_only(&gone)
            .err()
            .unwrap()
            .to_string();
        assert!(text.contains("there is no folder"), "{text}");
        let _ = std::fs::remove_dir_all(&parent);
    }

    fn entry(store: &mut SqliteStore, name: &str) -> crate::EntryId {
        let stored = store
            .add_version(&NewVersion {
                name,
                author: None,
                source: name,
                hash: name,
                file_name: "x.rs",
                tokens: 1,
                debug_tokens: 0,
            })
            .unwrap();
        let Submitted::New(v) = stored else {
            panic!("new entry expected")
        };
        v.entry_id
    }

    fn swiss(store: &mut SqliteStore, ids: &[crate::EntryId]) -> (TournamentId, Tournament) {
        let settings = runner::GameSettings {
            margin: Duration::from_millis(250),
            adjudication: runner::AdjudicationRules {
                max_plies: Some(160),
                ..runner::AdjudicationRules::default()
            },
            ..runner::GameSettings::default()
        };
        let tournament = Tournament {
            id: TournamentId(0),
            format: TournamentFormat::Swiss,
            pairs: 1,
            rounds: 3,
            time_control: TimeControl::movetime(Duration::from_millis(100)),
            openings: Vec::new(),
            rules: StoredRules::from_settings(&settings),
            finished: false,
        };
        let plan = |white, black| SlotPlan {
            round: 0,
            pair: 0,
            game_in_pair: 0,
            white,
            black,
            opening: 0,
        };
        let slots = [plan(ids[0], ids[1]), plan(ids[1], ids[0])];
        let id = store
            .create_tournament(&NewTournament {
                settings: &tournament,
                field: ids,
                slots: &slots,
                byes: &[],
            })
            .unwrap();
        (id, tournament)
    }

    #[test]
    fn a_tournament_reads_back_as_stored_and_claims_are_not_handed_out_twice() {
        let dir = scratch("roundtrip");
        let mut store = SqliteStore::create(&dir).unwrap();
        let ids = [entry(&mut store, "a"), entry(&mut store, "b")];
        let (id, tournament) = swiss(&mut store, &ids);
        let back = store.unfinished_tournament().unwrap().unwrap();
        assert_eq!(back, Tournament { id, ..tournament });
        assert_eq!(back.rules.settings().margin, Duration::from_millis(250));
        let first = store.claim(id, "w1", 1).unwrap();
        let second = store.claim(id, "w2", 5).unwrap();
        assert_eq!((first.len(), second.len()), (1, 1));
        assert_ne!(first[0].slot.id, second[0].slot.id);
        assert!(store.claim(id, "w3", 5).unwrap().is_empty());
        store.release(&first[0]).unwrap();
        assert_eq!(
            store.claim(id, "w3", 5).unwrap(),
            vec![Claim {
                worker: "w3".into(),
                ..first[0].clone()
            }]
        );
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_slot_recorded_twice_is_a_conflict_and_a_bad_stored_value_is_named() {
        let dir = scratch("conflict");
        let mut store = SqliteStore::create(&dir).unwrap();
        let ids = [entry(&mut store, "a"), entry(&mut store, "b")];
        let (id, _) = swiss(&mut store, &ids);
        let claim = store.claim(id, "w", 1).unwrap().remove(0);
        let version = |e| {
            store
                .versions()
                .unwrap()
                .iter()
                .find(|v| v.entry_id == e)
                .unwrap()
                .id
        };
        let game = NewGame {
            evidence: None,
            white: version(claim.slot.plan.white),
            black: version(claim.slot.plan.black),
            result: GameResult::Draw,
            termination: Termination::Repetition,
            faulty: None,
            detail: "threefold repetition".into(),
            plies: 40,
            pgn: "1/2-1/2".into(),
        };
        store.record(&claim, &game).unwrap();
        let again = store.record(&claim, &game).unwrap_err();
        assert!(matches!(again, StoreError::Conflict { .. }), "{again:?}");
        assert!(again.to_string().contains("already has a game"), "{again}");
        assert_eq!(store.games(false).unwrap().len(), 1);

        store
            .conn
            .execute("UPDATE games SET termination = 'gremlins'", [])
            .unwrap();
        let bad = store.games(false).unwrap_err();
        match &bad {
            StoreError::BadValue {
                column, problem, ..
            } => {
                assert_eq!(column, "termination");
                assert!(problem.contains("gremlins"), "{problem}");
            }
            other => panic!("{other:?}"),
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}

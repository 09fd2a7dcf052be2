//! The embedded backend: the challenge directory's SQLite database.
//!
//! Durability is the point: the database is in WAL mode with `synchronous=FULL`, and a
//! game row is inserted in the same transaction that marks its schedule slot done, so a
//! `kill -9` at any moment leaves every slot either done with exactly one game or not
//! done at all. The `UNIQUE` constraint on `games.slot_id` makes a second game for a slot
//! impossible even if a caller got it wrong.
//!
//! The schema is versioned with `PRAGMA user_version` and migrated forward on open, one
//! step per transaction ([`MIGRATIONS`]); a database from a newer kit is refused.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::time::Duration;

use anyhow::{Context, Result, bail};
use framework::chess::Color;
use runner::TimeControl;
use rusqlite::types::{FromSql, FromSqlError, ValueRef};
use rusqlite::{Connection, OpenFlags, OptionalExtension, Row, Transaction, params};

use super::{
    Claim, EntryId, Game, GameId, Job, NewGame, NewRound, NewTournament, NewVersion, ServerFlag,
    ServerState, Slot, SlotId, SlotPlan, SlotState, Store, StoreRevision, StoredRules, Submitted,
    Tournament, TournamentId, Version, VersionId,
};

/// The database file inside a challenge directory.
pub const DB_FILE: &str = "challenge.db";

/// Step 1: the schema every challenge directory had before it was versioned. `IF NOT
/// EXISTS` makes it a no-op on those directories (user_version 0) and the creation of a
/// new one.
const BASELINE: &str = "
CREATE TABLE IF NOT EXISTS entries (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    author TEXT,
    withdrawn INTEGER NOT NULL DEFAULT 0,
    created TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
);
CREATE TABLE IF NOT EXISTS versions (
    id INTEGER PRIMARY KEY,
    entry_id INTEGER NOT NULL REFERENCES entries(id),
    number INTEGER NOT NULL,
    hash TEXT NOT NULL,
    source TEXT NOT NULL,
    file_name TEXT NOT NULL,
    tokens INTEGER NOT NULL,
    debug_tokens INTEGER NOT NULL,
    submitted TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),
    UNIQUE (entry_id, number)
);
CREATE TABLE IF NOT EXISTS tournaments (
    id INTEGER PRIMARY KEY,
    format TEXT NOT NULL,
    pairs INTEGER NOT NULL,
    rounds INTEGER NOT NULL,
    time_control TEXT NOT NULL,
    openings TEXT NOT NULL,
    finished INTEGER NOT NULL DEFAULT 0,
    created TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
);
CREATE TABLE IF NOT EXISTS participants (
    tournament_id INTEGER NOT NULL REFERENCES tournaments(id),
    entry_id INTEGER NOT NULL REFERENCES entries(id),
    seed INTEGER NOT NULL,
    PRIMARY KEY (tournament_id, entry_id)
);
CREATE TABLE IF NOT EXISTS slots (
    id INTEGER PRIMARY KEY,
    tournament_id INTEGER NOT NULL REFERENCES tournaments(id),
    round INTEGER NOT NULL,
    pair INTEGER NOT NULL,
    game_in_pair INTEGER NOT NULL,
    white_entry INTEGER NOT NULL REFERENCES entries(id),
    black_entry INTEGER NOT NULL REFERENCES entries(id),
    opening INTEGER NOT NULL,
    cancelled INTEGER NOT NULL DEFAULT 0,
    game_id INTEGER UNIQUE REFERENCES games(id)
);
CREATE INDEX IF NOT EXISTS slots_pending ON slots (tournament_id, game_id);
CREATE TABLE IF NOT EXISTS byes (
    tournament_id INTEGER NOT NULL REFERENCES tournaments(id),
    round INTEGER NOT NULL,
    entry_id INTEGER NOT NULL REFERENCES entries(id),
    PRIMARY KEY (tournament_id, round)
);
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    tournament_id INTEGER REFERENCES tournaments(id),
    slot_id INTEGER UNIQUE REFERENCES slots(id),
    white_version INTEGER NOT NULL REFERENCES versions(id),
    black_version INTEGER NOT NULL REFERENCES versions(id),
    result TEXT NOT NULL,
    termination TEXT NOT NULL,
    faulty TEXT,
    detail TEXT NOT NULL,
    plies INTEGER NOT NULL,
    pgn TEXT NOT NULL,
    finished TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
);
";

/// Step 2: tournaments keep the rules (margin, adjudication) they are played under, so a
/// resumed run plays by them; `NULL` (older tournaments) means the defaults of the time.
const RULES_COLUMN: &str = "ALTER TABLE tournaments ADD COLUMN rules TEXT;";

/// Step 3: what `challenge serve` keeps between restarts: its switches and the
/// organiser's token hash (`server_settings`), each entry's key hash (`entry_keys`), and
/// the submissions it checks (`jobs`). Secrets are stored only as SHA-256 hashes.
const SERVER_TABLES: &str = "
CREATE TABLE server_settings (
    name TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
CREATE TABLE entry_keys (
    entry_id INTEGER PRIMARY KEY REFERENCES entries(id),
    key_hash TEXT NOT NULL
);
CREATE TABLE jobs (
    id TEXT PRIMARY KEY,
    entry TEXT NOT NULL,
    state TEXT NOT NULL,
    message TEXT NOT NULL,
    created TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),
    updated TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
);
CREATE INDEX jobs_unfinished ON jobs (state);
";

/// The schema steps, in order: step `i` takes `user_version` from `i` to `i + 1`.
const MIGRATIONS: [&str; 3] = [BASELINE, RULES_COLUMN, SERVER_TABLES];

/// The schema version this code reads and writes.
pub const SCHEMA_VERSION: u32 = MIGRATIONS.len() as u32;

/// An open challenge database.
pub struct SqliteStore {
    conn: Connection,
    dir: PathBuf,
    /// Slots claimed by this process and not yet recorded or released. One process plays
    /// a challenge at a time (`run.lock`), so claims need not outlive it.
    claimed: HashSet<SlotId>,
}

/// How to tell the user to fix a directory the store cannot write.
fn writable_hint(dir: &Path) -> String {
    format!(
        "check that {} and the files in it are writable by you and that no other program holds the database (`chmod -R u+w {}`)",
        dir.display(),
        dir.display()
    )
}

impl SqliteStore {
    /// Opens (creating if needed) the challenge in `dir` for reading and writing.
    pub fn create(dir: &Path) -> Result<SqliteStore> {
        std::fs::create_dir_all(dir)
            .with_context(|| format!("cannot create the challenge directory {}", dir.display()))?;
        SqliteStore::open_rw(dir)
    }

    /// Opens an existing challenge for reading and writing; an error tells how to start
    /// one.
    pub fn open(dir: &Path) -> Result<SqliteStore> {
        require_db(dir)?;
        SqliteStore::open_rw(dir)
    }

    /// Opens an existing challenge only to read it: works on a read-only directory and
    /// never changes the file (not even its schema version).
    pub fn open_read_only(dir: &Path) -> Result<SqliteStore> {
        require_db(dir)?;
        let path = dir.join(DB_FILE);
        let conn = Connection::open_with_flags(&path, OpenFlags::SQLITE_OPEN_READ_ONLY)
            .with_context(|| format!("cannot open the challenge database {}", path.display()))?;
        // A WAL database needs its `-shm` file; in a read-only directory without one,
        // reading as immutable is safe, since no one can be writing there either.
        let conn = match user_version(&conn) {
            Ok(_) => conn,
            Err(_) => {
                let uri = format!("file:{}?immutable=1", path.display());
                Connection::open_with_flags(
                    uri,
                    OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_URI,
                )
                .with_context(|| format!("cannot read the challenge database {}", path.display()))?
            }
        };
        let version = user_version(&conn)
            .with_context(|| format!("cannot read the challenge database {}", path.display()))?;
        refuse_newer(version, &path)?;
        Ok(SqliteStore {
            conn,
            dir: dir.to_path_buf(),
            claimed: HashSet::new(),
        })
    }

    fn open_rw(dir: &Path) -> Result<SqliteStore> {
        let path = dir.join(DB_FILE);
        let conn = Connection::open(&path).with_context(|| {
            format!(
                "cannot open the challenge database {}: {}",
                path.display(),
                writable_hint(dir)
            )
        })?;
        conn.busy_timeout(Duration::from_secs(30))?;
        let setup = conn
            .pragma_update(None, "journal_mode", "WAL")
            .and_then(|()| conn.pragma_update(None, "synchronous", "FULL"))
            .and_then(|()| conn.pragma_update(None, "foreign_keys", "ON"));
        setup.with_context(|| {
            format!(
                "cannot open the challenge database {} for writing: {}",
                path.display(),
                writable_hint(dir)
            )
        })?;
        let mut store = SqliteStore {
            conn,
            dir: dir.to_path_buf(),
            claimed: HashSet::new(),
        };
        store.migrate().with_context(|| {
            format!(
                "cannot bring the challenge database {} up to date",
                path.display()
            )
        })?;
        Ok(store)
    }

    /// Applies the schema steps this database has not had yet, each in its own
    /// transaction with the version bump, so an interrupted upgrade resumes cleanly.
    fn migrate(&mut self) -> Result<()> {
        let path = self.dir.join(DB_FILE);
        let mut version = user_version(&self.conn)?;
        refuse_newer(version, &path)?;
        while version < SCHEMA_VERSION {
            let tx = self.conn.transaction()?;
            tx.execute_batch(MIGRATIONS[version as usize])?;
            tx.pragma_update(None, "user_version", version + 1)?;
            tx.commit()?;
            version += 1;
        }
        Ok(())
    }

    /// Takes the challenge's run lock: two runs on one challenge would play the same
    /// games. The OS drops the lock when the process ends, however it ends, so a killed
    /// run never blocks the next one. Keep the file while playing.
    pub fn lock_for_run(&self) -> Result<std::fs::File> {
        let lock_path = self.dir.join("run.lock");
        let lock = std::fs::File::create(&lock_path).with_context(|| {
            format!(
                "cannot create {}: {}",
                lock_path.display(),
                writable_hint(&self.dir)
            )
        })?;
        match lock.try_lock() {
            Ok(()) => Ok(lock),
            Err(std::fs::TryLockError::WouldBlock) => bail!(
                "another `challenge run` is playing the tournament in {} right now; wait for it or stop it first",
                self.dir.display()
            ),
            Err(std::fs::TryLockError::Error(err)) => {
                Err(err).with_context(|| format!("cannot lock {}", lock_path.display()))
            }
        }
    }

    /// The challenge directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The schema version of the open database.
    pub fn schema_version(&self) -> Result<u32> {
        user_version(&self.conn)
    }

    fn current_version(&self, entry_id: i64) -> Result<Version> {
        let id: VersionId = self.conn.query_row(
            "SELECT id FROM versions WHERE entry_id = ?1 ORDER BY number DESC LIMIT 1",
            [entry_id],
            |r| r.get(0),
        )?;
        self.version(id)
    }

    const VERSION_COLUMNS: &'static str = "v.id, v.entry_id, e.name, e.author, v.number, v.hash,
        v.tokens, v.debug_tokens, v.file_name,
        v.number = (SELECT MAX(number) FROM versions w WHERE w.entry_id = v.entry_id),
        e.withdrawn, v.submitted";

    fn version_from_row(r: &Row<'_>) -> rusqlite::Result<Version> {
        Ok(Version {
            id: r.get(0)?,
            entry_id: r.get(1)?,
            name: r.get(2)?,
            author: r.get(3)?,
            number: r.get(4)?,
            hash: r.get(5)?,
            tokens: r.get(6)?,
            debug_tokens: r.get(7)?,
            file_name: r.get(8)?,
            current: r.get(9)?,
            withdrawn: r.get(10)?,
            submitted: r.get(11)?,
        })
    }

    /// One version by id.
    pub fn version(&self, id: VersionId) -> Result<Version> {
        let sql = format!(
            "SELECT {} FROM versions v JOIN entries e ON e.id = v.entry_id WHERE v.id = ?1",
            Self::VERSION_COLUMNS
        );
        self.conn
            .query_row(&sql, [id], Self::version_from_row)
            .with_context(|| format!("no version with id {id} in the challenge database"))
    }

    fn set_setting(&mut self, name: &str, value: &str) -> Result<()> {
        self.conn.execute(
            "INSERT INTO server_settings (name, value) VALUES (?1, ?2)
             ON CONFLICT (name) DO UPDATE SET value = excluded.value",
            params![name, value],
        )?;
        Ok(())
    }

    fn tournament_from_row(r: &Row<'_>) -> rusqlite::Result<Tournament> {
        let openings: String = r.get(5)?;
        let rules: Option<String> = r.get(6)?;
        Ok(Tournament {
            id: r.get(0)?,
            format: parsed(r, 1)?,
            pairs: r.get(2)?,
            rounds: r.get(3)?,
            time_control: time_control(&r.get::<_, String>(4)?).map_err(|e| conversion(4, e))?,
            openings: serde_json::from_str(&openings).map_err(|e| conversion(5, e))?,
            rules: match rules {
                Some(text) => serde_json::from_str(&text).map_err(|e| conversion(6, e))?,
                None => StoredRules::default(),
            },
            finished: r.get(7)?,
        })
    }

    fn slot_from_row(r: &Row<'_>) -> rusqlite::Result<Slot> {
        let game: Option<GameId> = r.get(7)?;
        let cancelled: bool = r.get(8)?;
        Ok(Slot {
            id: r.get(0)?,
            plan: SlotPlan {
                round: r.get(1)?,
                pair: r.get(2)?,
                game_in_pair: r.get(3)?,
                white: r.get(4)?,
                black: r.get(5)?,
                opening: r.get(6)?,
            },
            state: match (game, cancelled) {
                (Some(id), _) => SlotState::Played(id),
                (None, true) => SlotState::Cancelled,
                (None, false) => SlotState::Pending,
            },
        })
    }

    fn game_from_row(r: &Row<'_>) -> rusqlite::Result<Game> {
        Ok(Game {
            id: r.get(0)?,
            tournament: r.get(1)?,
            slot: r.get(2)?,
            white: r.get(3)?,
            black: r.get(4)?,
            result: parsed(r, 5)?,
            termination: parsed(r, 6)?,
            faulty: r
                .get::<_, Option<String>>(7)?
                .map(|side| side_from_text(&side).map_err(|e| conversion(7, e)))
                .transpose()?,
            detail: r.get(8)?,
            pgn: r.get(9)?,
        })
    }
}

fn require_db(dir: &Path) -> Result<()> {
    if !dir.join(DB_FILE).is_file() {
        bail!(
            "no challenge in {}: start one with `challenge submit FILE --name NAME` (or pass --dir)",
            dir.display()
        );
    }
    Ok(())
}

fn user_version(conn: &Connection) -> Result<u32> {
    Ok(conn.pragma_query_value(None, "user_version", |r| r.get(0))?)
}

fn refuse_newer(version: u32, path: &Path) -> Result<()> {
    if version > SCHEMA_VERSION {
        bail!(
            "the challenge database {} has schema version {version}, newer than this kit's {SCHEMA_VERSION}: use the kit that made it, or a newer one",
            path.display()
        );
    }
    Ok(())
}

/// A stored time control: `TimeControl`'s own spelling, or `0.1/move` for a fixed time
/// per move.
pub(super) fn time_control(text: &str) -> Result<TimeControl, String> {
    if let Some(per_move) = text.strip_suffix("/move") {
        let secs: f64 = per_move
            .parse()
            .ok()
            .filter(|s: &f64| s.is_finite() && *s > 0.0)
            .ok_or_else(|| format!("invalid time per move `{text}`"))?;
        return Ok(TimeControl::movetime(Duration::from_secs_f64(secs)));
    }
    text.parse().map_err(|e| format!("{e}"))
}

fn side_text(side: Color) -> &'static str {
    match side {
        Color::White => "white",
        Color::Black => "black",
    }
}

pub(super) fn side_from_text(text: &str) -> Result<Color, String> {
    match text {
        "white" => Ok(Color::White),
        "black" => Ok(Color::Black),
        other => Err(format!("`{other}` is not a side")),
    }
}

fn conversion(column: usize, err: impl ToString) -> rusqlite::Error {
    rusqlite::Error::FromSqlConversionFailure(
        column,
        rusqlite::types::Type::Text,
        err.to_string().into(),
    )
}

/// Reads a text column into a type that parses from it (results, terminations, formats).
fn parsed<T: FromStr>(r: &Row<'_>, column: usize) -> rusqlite::Result<T>
where
    T::Err: ToString,
{
    let text: String = r.get(column)?;
    text.parse().map_err(|e: T::Err| conversion(column, e))
}

impl FromSql for super::TournamentFormat {
    fn column_result(value: ValueRef<'_>) -> rusqlite::types::FromSqlResult<Self> {
        value
            .as_str()?
            .parse()
            .map_err(|e: String| FromSqlError::Other(e.into()))
    }
}

fn insert_slots(
    tx: &Transaction<'_>,
    tournament: TournamentId,
    round: u32,
    slots: &[SlotPlan],
    byes: &[EntryId],
) -> Result<()> {
    let mut stmt = tx.prepare(
        "INSERT INTO slots (tournament_id, round, pair, game_in_pair, white_entry, black_entry,
                            opening)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
    )?;
    for s in slots {
        stmt.execute(params![
            tournament,
            s.round,
            s.pair,
            s.game_in_pair,
            s.white,
            s.black,
            s.opening
        ])?;
    }
    for &entry in byes {
        tx.execute(
            "INSERT INTO byes (tournament_id, round, entry_id) VALUES (?1, ?2, ?3)",
            params![tournament, round, entry],
        )?;
    }
    Ok(())
}

impl Store for SqliteStore {
    fn location(&self) -> String {
        self.dir.display().to_string()
    }

    fn add_version(&mut self, new: &NewVersion<'_>) -> Result<Submitted> {
        let tx = self.conn.transaction()?;
        let entry: Option<(i64, bool)> = tx
            .query_row(
                "SELECT id, withdrawn FROM entries WHERE name = ?1",
                [new.name],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .optional()?;
        let entry_id = match entry {
            Some((id, withdrawn)) => {
                let current: Option<String> = tx
                    .query_row(
                        "SELECT hash FROM versions WHERE entry_id = ?1 ORDER BY number DESC LIMIT 1",
                        [id],
                        |r| r.get(0),
                    )
                    .optional()?;
                tx.execute("UPDATE entries SET withdrawn = 0 WHERE id = ?1", [id])?;
                if current.as_deref() == Some(new.hash) {
                    tx.commit()?;
                    let version = self.current_version(id)?;
                    return Ok(if withdrawn {
                        Submitted::Revived(version)
                    } else {
                        Submitted::Unchanged(version)
                    });
                }
                if let Some(author) = new.author {
                    tx.execute(
                        "UPDATE entries SET author = ?1 WHERE id = ?2",
                        params![author, id],
                    )?;
                }
                id
            }
            None => {
                tx.execute(
                    "INSERT INTO entries (name, author) VALUES (?1, ?2)",
                    params![new.name, new.author],
                )?;
                tx.last_insert_rowid()
            }
        };
        tx.execute(
            "INSERT INTO versions (entry_id, number, hash, source, file_name, tokens, debug_tokens)
             VALUES (?1, (SELECT COALESCE(MAX(number), 0) + 1 FROM versions WHERE entry_id = ?1),
                     ?2, ?3, ?4, ?5, ?6)",
            params![
                entry_id,
                new.hash,
                new.source,
                new.file_name,
                i64::try_from(new.tokens)?,
                i64::try_from(new.debug_tokens)?
            ],
        )?;
        let id = VersionId(tx.last_insert_rowid());
        tx.commit()?;
        self.version(id)
            .map(Submitted::New)
            .context("the version just stored cannot be read back")
    }

    fn withdraw(&mut self, name: &str) -> Result<bool> {
        let state: Option<bool> = self
            .conn
            .query_row(
                "SELECT withdrawn FROM entries WHERE name = ?1",
                [name],
                |r| r.get(0),
            )
            .optional()?;
        match state {
            None => bail!(
                "no entry `{name}` in {} (see `challenge entries`)",
                self.dir.display()
            ),
            Some(true) => Ok(false),
            Some(false) => {
                self.conn
                    .execute("UPDATE entries SET withdrawn = 1 WHERE name = ?1", [name])?;
                Ok(true)
            }
        }
    }

    fn versions(&self) -> Result<Vec<Version>> {
        let sql = format!(
            "SELECT {} FROM versions v JOIN entries e ON e.id = v.entry_id ORDER BY e.name, v.number",
            Self::VERSION_COLUMNS
        );
        let mut stmt = self.conn.prepare(&sql)?;
        let rows = stmt.query_map([], Self::version_from_row)?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    fn source(&self, version: VersionId) -> Result<String> {
        self.conn
            .query_row(
                "SELECT source FROM versions WHERE id = ?1",
                [version],
                |r| r.get(0),
            )
            .with_context(|| format!("no source stored for version {version}"))
    }

    fn tournament_count(&self) -> Result<usize> {
        Ok(self
            .conn
            .query_row("SELECT COUNT(*) FROM tournaments", [], |r| {
                r.get::<_, i64>(0)
            })?
            .try_into()?)
    }

    fn unfinished_tournament(&self) -> Result<Option<Tournament>> {
        Ok(self
            .conn
            .query_row(
                "SELECT id, format, pairs, rounds, time_control, openings, rules, finished
                 FROM tournaments WHERE finished = 0 ORDER BY id LIMIT 1",
                [],
                Self::tournament_from_row,
            )
            .optional()?)
    }

    fn create_tournament(&mut self, new: &NewTournament<'_>) -> Result<TournamentId> {
        let t = new.settings;
        let tx = self.conn.transaction()?;
        tx.execute(
            "INSERT INTO tournaments (format, pairs, rounds, time_control, openings, rules)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            params![
                t.format.as_str(),
                t.pairs,
                t.rounds,
                t.time_control.to_string(),
                serde_json::to_string(&t.openings)?,
                serde_json::to_string(&t.rules)?
            ],
        )?;
        let id = TournamentId(tx.last_insert_rowid());
        for (seed, entry) in new.field.iter().enumerate() {
            tx.execute(
                "INSERT INTO participants (tournament_id, entry_id, seed) VALUES (?1, ?2, ?3)",
                params![id, entry, i64::try_from(seed)?],
            )?;
        }
        insert_slots(&tx, id, 0, new.slots, new.byes)?;
        tx.commit()?;
        Ok(id)
    }

    fn add_round(&mut self, round: &NewRound<'_>) -> Result<()> {
        let tx = self.conn.transaction()?;
        insert_slots(&tx, round.tournament, round.round, round.slots, round.byes)?;
        tx.commit()?;
        Ok(())
    }

    fn participants(&self, tournament: TournamentId) -> Result<Vec<EntryId>> {
        let mut stmt = self
            .conn
            .prepare("SELECT entry_id FROM participants WHERE tournament_id = ?1 ORDER BY seed")?;
        let rows = stmt.query_map([tournament], |r| r.get(0))?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    fn slots(&self, tournament: TournamentId) -> Result<Vec<Slot>> {
        let mut stmt = self.conn.prepare(
            "SELECT id, round, pair, game_in_pair, white_entry, black_entry, opening, game_id,
                    cancelled
             FROM slots WHERE tournament_id = ?1 ORDER BY id",
        )?;
        let rows = stmt.query_map([tournament], Self::slot_from_row)?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    fn byes(&self, tournament: TournamentId) -> Result<Vec<EntryId>> {
        let mut stmt = self
            .conn
            .prepare("SELECT entry_id FROM byes WHERE tournament_id = ?1 ORDER BY round")?;
        let rows = stmt.query_map([tournament], |r| r.get(0))?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    fn cancel_withdrawn(&mut self, tournament: TournamentId) -> Result<usize> {
        Ok(self.conn.execute(
            "UPDATE slots SET cancelled = 1
             WHERE tournament_id = ?1 AND game_id IS NULL AND cancelled = 0
               AND (white_entry IN (SELECT id FROM entries WHERE withdrawn = 1)
                 OR black_entry IN (SELECT id FROM entries WHERE withdrawn = 1))",
            [tournament],
        )?)
    }

    fn finish_tournament(&mut self, tournament: TournamentId) -> Result<()> {
        self.conn.execute(
            "UPDATE tournaments SET finished = 1 WHERE id = ?1",
            [tournament],
        )?;
        Ok(())
    }

    fn claim(&mut self, tournament: TournamentId, worker: &str, max: usize) -> Result<Vec<Claim>> {
        let mut claims = Vec::new();
        for slot in self.slots(tournament)? {
            if claims.len() >= max {
                break;
            }
            if slot.state == SlotState::Pending && self.claimed.insert(slot.id) {
                claims.push(Claim {
                    tournament,
                    slot,
                    worker: worker.to_string(),
                });
            }
        }
        Ok(claims)
    }

    fn release(&mut self, claim: &Claim) -> Result<()> {
        self.claimed.remove(&claim.slot.id);
        Ok(())
    }

    fn record(&mut self, claim: &Claim, game: &NewGame) -> Result<GameId> {
        let slot = claim.slot.id;
        let tx = self.conn.transaction()?;
        tx.execute(
            "INSERT INTO games (tournament_id, slot_id, white_version, black_version, result,
                                termination, faulty, detail, plies, pgn)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
            params![
                claim.tournament,
                slot,
                game.white,
                game.black,
                game.result.as_str(),
                game.termination.tag(),
                game.faulty.map(side_text),
                game.detail,
                game.plies,
                game.pgn
            ],
        )
        .with_context(|| format!("cannot store the game of slot {slot}"))?;
        let id = GameId(tx.last_insert_rowid());
        let marked = tx.execute(
            "UPDATE slots SET game_id = ?1 WHERE id = ?2 AND game_id IS NULL",
            params![id, slot],
        )?;
        if marked != 1 {
            bail!("slot {slot} already has a game; the new one was not stored");
        }
        tx.commit()?;
        self.claimed.remove(&slot);
        Ok(id)
    }

    fn games(&self, with_pgn: bool) -> Result<Vec<Game>> {
        let mut stmt = self.conn.prepare(&format!(
            "SELECT id, tournament_id, slot_id, white_version, black_version, result, termination,
                    faulty, detail, {}
             FROM games ORDER BY id",
            if with_pgn { "pgn" } else { "''" }
        ))?;
        let rows = stmt.query_map([], Self::game_from_row)?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    fn server_state(&self) -> Result<ServerState> {
        let mut stmt = self
            .conn
            .prepare("SELECT name, value FROM server_settings")?;
        let rows = stmt.query_map([], |r| Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?)))?;
        Ok(super::server_state_from(
            rows.collect::<rusqlite::Result<Vec<_>>>()?,
        ))
    }

    fn set_server_flag(&mut self, flag: ServerFlag, on: bool) -> Result<()> {
        self.set_setting(flag.as_str(), if on { "1" } else { "0" })
    }

    fn set_admin_token_hash(&mut self, hash: &str) -> Result<()> {
        self.set_setting("admin_token_hash", hash)
    }

    fn entry_key_hash(&self, entry: &str) -> Result<Option<String>> {
        Ok(self
            .conn
            .query_row(
                "SELECT k.key_hash FROM entry_keys k JOIN entries e ON e.id = k.entry_id
                 WHERE e.name = ?1",
                [entry],
                |r| r.get(0),
            )
            .optional()?)
    }

    fn set_entry_key_hash(&mut self, entry: &str, hash: &str) -> Result<bool> {
        let id: Option<i64> = self
            .conn
            .query_row("SELECT id FROM entries WHERE name = ?1", [entry], |r| {
                r.get(0)
            })
            .optional()?;
        let Some(id) = id else {
            bail!("no entry `{entry}` to give a key to");
        };
        let added = self.conn.execute(
            "INSERT OR IGNORE INTO entry_keys (entry_id, key_hash) VALUES (?1, ?2)",
            params![id, hash],
        )?;
        Ok(added == 1)
    }

    fn save_job(&mut self, job: &Job) -> Result<()> {
        self.conn.execute(
            "INSERT INTO jobs (id, entry, state, message) VALUES (?1, ?2, ?3, ?4)
             ON CONFLICT (id) DO UPDATE SET state = excluded.state, message = excluded.message,
                 updated = strftime('%Y-%m-%dT%H:%M:%SZ', 'now')",
            params![job.id, job.entry, job.state.as_str(), job.message],
        )?;
        Ok(())
    }

    fn job(&self, id: &str) -> Result<Option<Job>> {
        Ok(self
            .conn
            .query_row(
                "SELECT id, entry, state, message, created FROM jobs WHERE id = ?1",
                [id],
                |r| {
                    Ok(Job {
                        id: r.get(0)?,
                        entry: r.get(1)?,
                        state: parsed(r, 2)?,
                        message: r.get(3)?,
                        created: r.get(4)?,
                    })
                },
            )
            .optional()?)
    }

    fn refuse_unfinished_jobs(&mut self, message: &str) -> Result<usize> {
        Ok(self.conn.execute(
            "UPDATE jobs SET state = 'refused', message = ?1,
                 updated = strftime('%Y-%m-%dT%H:%M:%SZ', 'now')
             WHERE state IN ('queued', 'running')",
            [message],
        )?)
    }

    fn revision(&self) -> Result<StoreRevision> {
        Ok(self.conn.query_row(
            "SELECT (SELECT COALESCE(MAX(id), 0) FROM games),
                    (SELECT COALESCE(MAX(id), 0) FROM versions),
                    (SELECT COALESCE(SUM(id), 0) FROM entries WHERE withdrawn = 1)",
            [],
            |r| {
                Ok(StoreRevision {
                    last_game: r.get(0)?,
                    last_version: r.get(1)?,
                    withdrawn: r.get(2)?,
                })
            },
        )?)
    }

    fn game(&self, id: GameId) -> Result<Option<Game>> {
        Ok(self
            .conn
            .query_row(
                "SELECT id, tournament_id, slot_id, white_version, black_version, result,
                        termination, faulty, detail, pgn
                 FROM games WHERE id = ?1",
                [id],
                Self::game_from_row,
            )
            .optional()?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_controls_round_trip_through_the_store() {
        for text in ["10+0.1", "1+0.05", "0.1/move", "40/60+0"] {
            let tc = time_control(text).unwrap();
            assert_eq!(time_control(&tc.to_string()).unwrap(), tc, "{text}");
        }
        assert!(time_control("fast").is_err());
        assert!(time_control("-1/move").is_err());
    }

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
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn each_step_applies_to_the_previous_version() {
        let dir = scratch("steps");
        std::fs::create_dir_all(&dir).unwrap();
        let conn = Connection::open(dir.join(DB_FILE)).unwrap();
        for (i, step) in MIGRATIONS.iter().enumerate() {
            conn.execute_batch(step).unwrap();
            conn.pragma_update(None, "user_version", i as u32 + 1)
                .unwrap();
        }
        let rules: Option<String> = conn
            .query_row("SELECT rules FROM tournaments", [], |r| r.get(0))
            .optional()
            .unwrap();
        assert_eq!(rules, None);
        drop(conn);
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
        ] {
            let text = format!("{err:#}");
            assert!(text.contains("newer than this kit"), "{text}");
            assert!(text.contains(&dir.display().to_string()), "{text}");
        }
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_tournament_reads_back_as_stored_and_claims_are_not_handed_out_twice() {
        use super::super::{NewTournament, TournamentFormat};
        let dir = scratch("roundtrip");
        let mut store = SqliteStore::create(&dir).unwrap();
        let mut ids = Vec::new();
        for name in ["a", "b"] {
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
            ids.push(v.entry_id);
        }
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
                field: &ids,
                slots: &slots,
                byes: &[],
            })
            .unwrap();
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
}

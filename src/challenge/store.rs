//! The challenge directory's SQLite database: entries, their immutable versions (the bot
//! source itself), every game, and the schedule of the tournament being played.
//!
//! Durability is the point: the database is in WAL mode with `synchronous=FULL`, and a
//! game row is inserted in the same transaction that marks its schedule slot done, so a
//! `kill -9` at any moment leaves every slot either done with exactly one game or not
//! done at all. The `UNIQUE` constraint on `games.slot_id` makes a second game for a slot
//! impossible even if a caller got it wrong.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use rusqlite::{Connection, OptionalExtension, Transaction, params};

use super::ExportArgs;

/// The database file inside a challenge directory.
pub const DB_FILE: &str = "challenge.db";

const SCHEMA: &str = "
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

/// An open challenge database.
pub struct Store {
    conn: Connection,
    dir: PathBuf,
}

/// One submitted version of an entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Version {
    /// Database id.
    pub id: i64,
    /// The entry's id.
    pub entry_id: i64,
    /// The entry's name.
    pub name: String,
    /// Its author, if given.
    pub author: Option<String>,
    /// 1 for the first submission, then 2, 3, ...
    pub number: i64,
    /// The first 16 hex digits of the source's SHA-256.
    pub hash: String,
    /// Tokens counted for submission (`#DEBUG` tokens included).
    pub tokens: i64,
    /// Of those, `#DEBUG` tokens.
    pub debug_tokens: i64,
    /// The file name it was submitted from.
    pub file_name: String,
    /// Whether this is the entry's newest version.
    pub current: bool,
    /// Whether the entry is withdrawn.
    pub withdrawn: bool,
    /// When it was submitted (UTC, ISO 8601).
    pub submitted: String,
}

/// What a new submission needs to be stored.
#[derive(Debug, Clone)]
pub struct NewVersion<'a> {
    /// The entry's name.
    pub name: &'a str,
    /// Its author (kept from earlier versions when `None`).
    pub author: Option<&'a str>,
    /// The bot source.
    pub source: &'a str,
    /// Its hash.
    pub hash: &'a str,
    /// The file name it came from.
    pub file_name: &'a str,
    /// Tokens counted for submission.
    pub tokens: usize,
    /// Of those, `#DEBUG` tokens.
    pub debug_tokens: usize,
}

/// What a submission did to the store.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Submitted {
    /// A new version was stored.
    New(Version),
    /// The entry's current version already has this source; nothing changed.
    Unchanged(Version),
    /// The entry was withdrawn and is back, with its current version.
    Revived(Version),
}

/// A stored tournament's settings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tournament {
    /// Database id.
    pub id: i64,
    /// `round-robin` or `swiss`.
    pub format: String,
    /// Opening pairs per encounter (round-robin).
    pub pairs: i64,
    /// Rounds (Swiss).
    pub rounds: i64,
    /// The time control, as `TimeControl` spells it.
    pub time_control: String,
    /// The openings, as JSON (see `tournament::StoredOpening`).
    pub openings: String,
    /// Whether every game has been played.
    pub finished: bool,
}

/// One game to play (or played) in a tournament.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Slot {
    /// Database id (0 before it is inserted).
    pub id: i64,
    /// 0-based round.
    pub round: i64,
    /// Game-pair number within the tournament.
    pub pair: i64,
    /// 0 or 1: which game of the colour-swapped pair.
    pub game_in_pair: i64,
    /// White's entry.
    pub white_entry: i64,
    /// Black's entry.
    pub black_entry: i64,
    /// Index into the tournament's openings.
    pub opening: i64,
}

/// A finished game, ready to be committed.
#[derive(Debug, Clone)]
pub struct NewGame {
    /// White's version.
    pub white_version: i64,
    /// Black's version.
    pub black_version: i64,
    /// `1-0`, `0-1` or `1/2-1/2`.
    pub result: String,
    /// The `Termination` tag.
    pub termination: String,
    /// `white` or `black` when an engine misbehaved.
    pub faulty: Option<String>,
    /// The runner's sentence about the ending.
    pub detail: String,
    /// Plies, book moves included.
    pub plies: i64,
    /// The whole game as PGN.
    pub pgn: String,
}

/// A stored game.
#[derive(Debug, Clone)]
pub struct Game {
    /// Database id.
    pub id: i64,
    /// Its tournament.
    pub tournament_id: Option<i64>,
    /// Its slot.
    pub slot_id: Option<i64>,
    /// White's version.
    pub white_version: i64,
    /// Black's version.
    pub black_version: i64,
    /// `1-0`, `0-1` or `1/2-1/2`.
    pub result: String,
    /// The `Termination` tag.
    pub termination: String,
    /// `white` or `black` when an engine misbehaved.
    pub faulty: Option<String>,
    /// The runner's sentence about the ending.
    pub detail: String,
    /// The whole game as PGN.
    pub pgn: String,
}

impl Store {
    /// Opens (creating if needed) the challenge in `dir`.
    pub fn create(dir: &Path) -> Result<Store> {
        std::fs::create_dir_all(dir)
            .with_context(|| format!("cannot create the challenge directory {}", dir.display()))?;
        Store::open_db(dir)
    }

    /// Opens an existing challenge; an error tells how to start one.
    pub fn open(dir: &Path) -> Result<Store> {
        if !dir.join(DB_FILE).is_file() {
            bail!(
                "no challenge in {}: start one with `challenge submit FILE --name NAME` (or pass --dir)",
                dir.display()
            );
        }
        Store::open_db(dir)
    }

    fn open_db(dir: &Path) -> Result<Store> {
        let path = dir.join(DB_FILE);
        let conn = Connection::open(&path)
            .with_context(|| format!("cannot open the challenge database {}", path.display()))?;
        conn.busy_timeout(std::time::Duration::from_secs(30))?;
        conn.pragma_update(None, "journal_mode", "WAL")?;
        conn.pragma_update(None, "synchronous", "FULL")?;
        conn.pragma_update(None, "foreign_keys", "ON")?;
        conn.execute_batch(SCHEMA)
            .with_context(|| format!("cannot set up the challenge database {}", path.display()))?;
        Ok(Store {
            conn,
            dir: dir.to_path_buf(),
        })
    }

    /// The challenge directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Stores a new version of `name` (creating the entry if needed). Submitting an
    /// entry's current source again stores nothing, but brings a withdrawn entry back.
    pub fn add_version(&mut self, new: &NewVersion<'_>) -> Result<Submitted> {
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
                new.tokens as i64,
                new.debug_tokens as i64
            ],
        )?;
        let id = tx.last_insert_rowid();
        tx.commit()?;
        self.version(id)
            .map(Submitted::New)
            .context("the version just stored cannot be read back")
    }

    fn current_version(&self, entry_id: i64) -> Result<Version> {
        let id: i64 = self.conn.query_row(
            "SELECT id FROM versions WHERE entry_id = ?1 ORDER BY number DESC LIMIT 1",
            [entry_id],
            |r| r.get(0),
        )?;
        self.version(id)
    }

    /// Takes an entry out of future pairings; `false` when it was already withdrawn.
    pub fn withdraw(&mut self, name: &str) -> Result<bool> {
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

    const VERSION_COLUMNS: &'static str = "v.id, v.entry_id, e.name, e.author, v.number, v.hash,
        v.tokens, v.debug_tokens, v.file_name,
        v.number = (SELECT MAX(number) FROM versions w WHERE w.entry_id = v.entry_id),
        e.withdrawn, v.submitted";

    fn version_from_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<Version> {
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
    pub fn version(&self, id: i64) -> Result<Version> {
        let sql = format!(
            "SELECT {} FROM versions v JOIN entries e ON e.id = v.entry_id WHERE v.id = ?1",
            Self::VERSION_COLUMNS
        );
        self.conn
            .query_row(&sql, [id], Self::version_from_row)
            .with_context(|| format!("no version with id {id} in the challenge database"))
    }

    /// Every version, by entry name then number.
    pub fn versions(&self) -> Result<Vec<Version>> {
        let sql = format!(
            "SELECT {} FROM versions v JOIN entries e ON e.id = v.entry_id ORDER BY e.name, v.number",
            Self::VERSION_COLUMNS
        );
        let mut stmt = self.conn.prepare(&sql)?;
        let rows = stmt.query_map([], Self::version_from_row)?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// The current version of every entry still in the challenge, by entry name.
    pub fn field(&self) -> Result<Vec<Version>> {
        Ok(self
            .versions()?
            .into_iter()
            .filter(|v| v.current && !v.withdrawn)
            .collect())
    }

    /// The bot source of a version.
    pub fn source(&self, version_id: i64) -> Result<String> {
        self.conn
            .query_row(
                "SELECT source FROM versions WHERE id = ?1",
                [version_id],
                |r| r.get(0),
            )
            .with_context(|| format!("no source stored for version {version_id}"))
    }

    /// The unfinished tournament, if any.
    pub fn unfinished_tournament(&self) -> Result<Option<Tournament>> {
        Ok(self
            .conn
            .query_row(
                "SELECT id, format, pairs, rounds, time_control, openings, finished
                 FROM tournaments WHERE finished = 0 ORDER BY id LIMIT 1",
                [],
                |r| {
                    Ok(Tournament {
                        id: r.get(0)?,
                        format: r.get(1)?,
                        pairs: r.get(2)?,
                        rounds: r.get(3)?,
                        time_control: r.get(4)?,
                        openings: r.get(5)?,
                        finished: r.get(6)?,
                    })
                },
            )
            .optional()?)
    }

    /// Creates a tournament with its field and its first slots in one transaction, so a
    /// tournament is never seen half-scheduled.
    pub fn create_tournament(
        &mut self,
        settings: &Tournament,
        field: &[i64],
        slots: &[Slot],
        byes: &[i64],
    ) -> Result<i64> {
        let tx = self.conn.transaction()?;
        tx.execute(
            "INSERT INTO tournaments (format, pairs, rounds, time_control, openings)
             VALUES (?1, ?2, ?3, ?4, ?5)",
            params![
                settings.format,
                settings.pairs,
                settings.rounds,
                settings.time_control,
                settings.openings
            ],
        )?;
        let id = tx.last_insert_rowid();
        for (seed, entry) in field.iter().enumerate() {
            tx.execute(
                "INSERT INTO participants (tournament_id, entry_id, seed) VALUES (?1, ?2, ?3)",
                params![id, entry, seed as i64],
            )?;
        }
        insert_slots(&tx, id, 0, slots, byes)?;
        tx.commit()?;
        Ok(id)
    }

    /// Adds one Swiss round's slots (and its bye) in one transaction.
    pub fn add_round(
        &mut self,
        tournament: i64,
        round: i64,
        slots: &[Slot],
        byes: &[i64],
    ) -> Result<()> {
        let tx = self.conn.transaction()?;
        insert_slots(&tx, tournament, round, slots, byes)?;
        tx.commit()?;
        Ok(())
    }

    /// The entries of a tournament, in seed order.
    pub fn participants(&self, tournament: i64) -> Result<Vec<i64>> {
        let mut stmt = self
            .conn
            .prepare("SELECT entry_id FROM participants WHERE tournament_id = ?1 ORDER BY seed")?;
        let rows = stmt.query_map([tournament], |r| r.get(0))?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// Every slot of a tournament with its game id (`None` while unplayed) and whether it
    /// was cancelled.
    pub fn slots(&self, tournament: i64) -> Result<Vec<(Slot, Option<i64>, bool)>> {
        let mut stmt = self.conn.prepare(
            "SELECT id, round, pair, game_in_pair, white_entry, black_entry, opening, game_id,
                    cancelled
             FROM slots WHERE tournament_id = ?1 ORDER BY id",
        )?;
        let rows = stmt.query_map([tournament], |r| {
            Ok((
                Slot {
                    id: r.get(0)?,
                    round: r.get(1)?,
                    pair: r.get(2)?,
                    game_in_pair: r.get(3)?,
                    white_entry: r.get(4)?,
                    black_entry: r.get(5)?,
                    opening: r.get(6)?,
                },
                r.get(7)?,
                r.get(8)?,
            ))
        })?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// The entries that had a bye in a tournament.
    pub fn byes(&self, tournament: i64) -> Result<Vec<i64>> {
        let mut stmt = self
            .conn
            .prepare("SELECT entry_id FROM byes WHERE tournament_id = ?1 ORDER BY round")?;
        let rows = stmt.query_map([tournament], |r| r.get(0))?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// Cancels the unplayed slots of withdrawn entries; returns how many.
    pub fn cancel_withdrawn(&mut self, tournament: i64) -> Result<usize> {
        Ok(self.conn.execute(
            "UPDATE slots SET cancelled = 1
             WHERE tournament_id = ?1 AND game_id IS NULL AND cancelled = 0
               AND (white_entry IN (SELECT id FROM entries WHERE withdrawn = 1)
                 OR black_entry IN (SELECT id FROM entries WHERE withdrawn = 1))",
            [tournament],
        )?)
    }

    /// Commits a finished game and marks its slot done, atomically. Fails (and stores
    /// nothing) if the slot already has a game.
    pub fn record_game(&mut self, tournament: i64, slot: i64, game: &NewGame) -> Result<i64> {
        let tx = self.conn.transaction()?;
        tx.execute(
            "INSERT INTO games (tournament_id, slot_id, white_version, black_version, result,
                                termination, faulty, detail, plies, pgn)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
            params![
                tournament,
                slot,
                game.white_version,
                game.black_version,
                game.result,
                game.termination,
                game.faulty,
                game.detail,
                game.plies,
                game.pgn
            ],
        )
        .with_context(|| format!("cannot store the game of slot {slot}"))?;
        let id = tx.last_insert_rowid();
        let marked = tx.execute(
            "UPDATE slots SET game_id = ?1 WHERE id = ?2 AND game_id IS NULL",
            params![id, slot],
        )?;
        if marked != 1 {
            bail!("slot {slot} already has a game; the new one was not stored");
        }
        tx.commit()?;
        Ok(id)
    }

    /// How many tournaments were ever started.
    pub fn tournament_count(&self) -> Result<i64> {
        Ok(self
            .conn
            .query_row("SELECT COUNT(*) FROM tournaments", [], |r| r.get(0))?)
    }

    /// Marks a tournament finished.
    pub fn finish_tournament(&mut self, tournament: i64) -> Result<()> {
        self.conn.execute(
            "UPDATE tournaments SET finished = 1 WHERE id = ?1",
            [tournament],
        )?;
        Ok(())
    }

    /// Every game, in the order played.
    pub fn games(&self) -> Result<Vec<Game>> {
        self.query_games(true)
    }

    /// Every game without its PGN (empty), for tables that only need the results.
    pub fn results(&self) -> Result<Vec<Game>> {
        self.query_games(false)
    }

    fn query_games(&self, with_pgn: bool) -> Result<Vec<Game>> {
        let mut stmt = self.conn.prepare(&format!(
            "SELECT id, tournament_id, slot_id, white_version, black_version, result, termination,
                    faulty, detail, {}
             FROM games ORDER BY id",
            if with_pgn { "pgn" } else { "''" }
        ))?;
        let rows = stmt.query_map([], |r| {
            Ok(Game {
                id: r.get(0)?,
                tournament_id: r.get(1)?,
                slot_id: r.get(2)?,
                white_version: r.get(3)?,
                black_version: r.get(4)?,
                result: r.get(5)?,
                termination: r.get(6)?,
                faulty: r.get(7)?,
                detail: r.get(8)?,
                pgn: r.get(9)?,
            })
        })?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }
}

fn insert_slots(
    tx: &Transaction<'_>,
    tournament: i64,
    round: i64,
    slots: &[Slot],
    byes: &[i64],
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
            s.white_entry,
            s.black_entry,
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

/// `challenge export --pgn FILE`.
pub fn run_export(args: &ExportArgs) -> Result<()> {
    let store = Store::open(&args.dir.dir)?;
    let games = store.games()?;
    let mut text = String::new();
    for game in &games {
        text.push_str(game.pgn.trim_end());
        text.push_str("\n\n");
    }
    std::fs::write(&args.pgn, text)
        .with_context(|| format!("cannot write {}", args.pgn.display()))?;
    eprintln!("{} games written to {}", games.len(), args.pgn.display());
    Ok(())
}

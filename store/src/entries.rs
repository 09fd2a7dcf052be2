//! Entries and their immutable versions: the types, the [`EntryStore`] trait, and its one
//! implementation for both backends (statements and row mappers).

use crate::error::{StoreError, StoreResult};
use crate::sql::{Backend, Conn, Mapped, Row, count, params};
use crate::{EntryId, VersionId};

/// Entries and their versions.
pub trait EntryStore {
    /// Where the records are, for messages (a directory, a URL without its password).
    fn location(&self) -> String;
    /// Stores a new version of an entry (creating the entry if needed). Submitting an
    /// entry's current source again stores nothing, but brings a withdrawn entry back.
    fn add_version(&mut self, new: &NewVersion<'_>) -> StoreResult<Submitted>;
    /// Takes an entry out of future pairings; `false` when it was already withdrawn.
    fn withdraw(&mut self, name: &str) -> StoreResult<bool>;
    /// Every version, by entry name (byte order) then number.
    fn versions(&self) -> StoreResult<Vec<Version>>;
    /// The current version of every entry still in the challenge, by entry name.
    fn field(&self) -> StoreResult<Vec<Version>> {
        Ok(self
            .versions()?
            .into_iter()
            .filter(|v| v.current && !v.withdrawn)
            .collect())
    }
    /// The bot source of a version.
    fn source(&self, version: VersionId) -> StoreResult<String>;
}

/// One submitted version of an entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Version {
    /// Its id.
    pub id: VersionId,
    /// The entry's id.
    pub entry_id: EntryId,
    /// The entry's name.
    pub name: String,
    /// Its author, if given.
    pub author: Option<String>,
    /// 1 for the first submission, then 2, 3, ...
    pub number: u32,
    /// The first 16 hex digits of the source's SHA-256.
    pub hash: String,
    /// Tokens counted for submission (`#DEBUG` tokens included).
    pub tokens: u32,
    /// Of those, `#DEBUG` tokens.
    pub debug_tokens: u32,
    /// The file name it was submitted from.
    pub file_name: String,
    /// Whether this is the entry's newest version.
    pub current: bool,
    /// Whether the entry is withdrawn.
    pub withdrawn: bool,
    /// When it was submitted (UTC, ISO 8601).
    pub submitted: String,
}

impl Version {
    /// The name this version plays under: the entry's name, with ` vN` from the second
    /// version on.
    pub fn player_name(&self) -> String {
        if self.number == 1 {
            self.name.clone()
        } else {
            format!("{} v{}", self.name, self.number)
        }
    }

    /// `active`, `replaced` (a newer version exists) or `withdrawn`.
    pub fn status(&self) -> &'static str {
        match (self.withdrawn, self.current) {
            (true, _) => "withdrawn",
            (false, true) => "active",
            (false, false) => "replaced",
        }
    }
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

/// The columns [`version_from_row`] reads, from `versions v JOIN entries e`.
const VERSION_COLUMNS: &str = "v.id, v.entry_id, e.name, e.author, v.number, v.hash,
    v.tokens, v.debug_tokens, v.file_name,
    v.number = (SELECT MAX(number) FROM versions w WHERE w.entry_id = v.entry_id),
    e.withdrawn, v.submitted";

fn version_from_row(r: &dyn Row) -> Mapped<Version> {
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
pub(crate) fn version(c: &mut dyn Conn, id: VersionId) -> StoreResult<Version> {
    let sql = format!(
        "SELECT {VERSION_COLUMNS} FROM versions v JOIN entries e ON e.id = v.entry_id WHERE v.id = ?1"
    );
    c.first(&sql, params![id], version_from_row)?
        .ok_or_else(|| StoreError::NotFound {
            store: c.store().to_string(),
            what: format!("version {id}"),
            hint: String::new(),
        })
}

/// An entry's newest version.
fn current_version(c: &mut dyn Conn, entry: EntryId) -> StoreResult<Version> {
    let sql = format!(
        "SELECT {VERSION_COLUMNS} FROM versions v JOIN entries e ON e.id = v.entry_id
         WHERE v.entry_id = ?1 ORDER BY v.number DESC LIMIT 1"
    );
    c.first(&sql, params![entry], version_from_row)?
        .ok_or_else(|| StoreError::NotFound {
            store: c.store().to_string(),
            what: format!("version of entry {entry}"),
            hint: String::new(),
        })
}

/// [`EntryStore::add_version`] in its transaction.
fn add_version(c: &mut dyn Conn, new: &NewVersion<'_>) -> StoreResult<Submitted> {
    let sql = format!(
        "SELECT id, withdrawn FROM entries WHERE name = ?1{}",
        c.dialect().for_update()
    );
    let entry = c.first(&sql, params![new.name], |r| {
        Ok((r.get::<EntryId>(0)?, r.get::<bool>(1)?))
    })?;
    let entry = match entry {
        Some((id, withdrawn)) => {
            let current: Option<String> = c.first(
                "SELECT hash FROM versions WHERE entry_id = ?1 ORDER BY number DESC LIMIT 1",
                params![id],
                |r| r.get(0),
            )?;
            c.execute(
                "UPDATE entries SET withdrawn = FALSE WHERE id = ?1",
                params![id],
            )?;
            if current.as_deref() == Some(new.hash) {
                let version = current_version(c, id)?;
                return Ok(if withdrawn {
                    Submitted::Revived(version)
                } else {
                    Submitted::Unchanged(version)
                });
            }
            if let Some(author) = new.author {
                c.execute(
                    "UPDATE entries SET author = ?1 WHERE id = ?2",
                    params![author, id],
                )?;
            }
            id
        }
        None => c.one(
            "INSERT INTO entries (name, author) VALUES (?1, ?2) RETURNING id",
            params![new.name, new.author],
            |r| r.get(0),
        )?,
    };
    let counts = [
        count("tokens", new.tokens).map_err(|e| c.bad(e))?,
        count("debug_tokens", new.debug_tokens).map_err(|e| c.bad(e))?,
    ];
    let id: VersionId = c.one(
        "INSERT INTO versions (entry_id, number, hash, source, file_name, tokens, debug_tokens)
         VALUES (?1, (SELECT COALESCE(MAX(number), 0) + 1 FROM versions WHERE entry_id = ?1),
                 ?2, ?3, ?4, ?5, ?6)
         RETURNING id",
        &[
            entry.into(),
            new.hash.into(),
            new.source.into(),
            new.file_name.into(),
            counts[0],
            counts[1],
        ],
        |r| r.get(0),
    )?;
    version(c, id).map(Submitted::New)
}

impl<B: Backend> EntryStore for B {
    fn location(&self) -> String {
        self.store_name()
    }

    fn add_version(&mut self, new: &NewVersion<'_>) -> StoreResult<Submitted> {
        self.transaction(|c| add_version(c, new))
    }

    fn withdraw(&mut self, name: &str) -> StoreResult<bool> {
        self.transaction(|c| {
            let withdrawn = c.first(
                "SELECT withdrawn FROM entries WHERE name = ?1",
                params![name],
                |r| r.get::<bool>(0),
            )?;
            match withdrawn {
                None => Err(StoreError::NotFound {
                    store: c.store().to_string(),
                    what: format!("entry `{name}`"),
                    hint: " (see `challenge entries`)".into(),
                }),
                Some(true) => Ok(false),
                Some(false) => {
                    c.execute(
                        "UPDATE entries SET withdrawn = TRUE WHERE name = ?1",
                        params![name],
                    )?;
                    Ok(true)
                }
            }
        })
    }

    fn versions(&self) -> StoreResult<Vec<Version>> {
        let sql =
            format!("SELECT {VERSION_COLUMNS} FROM versions v JOIN entries e ON e.id = v.entry_id");
        let mut versions = self.read(|c| c.rows(&sql, &[], version_from_row))?;
        // In Rust, not SQL: the engines' default collations differ, byte order does not.
        versions.sort_by(|a, b| (a.name.as_bytes(), a.number).cmp(&(b.name.as_bytes(), b.number)));
        Ok(versions)
    }

    fn source(&self, version: VersionId) -> StoreResult<String> {
        self.read(|c| {
            c.first(
                "SELECT source FROM versions WHERE id = ?1",
                params![version],
                |r| r.get(0),
            )?
            .ok_or_else(|| StoreError::NotFound {
                store: c.store().to_string(),
                what: format!("source stored for version {version}"),
                hint: String::new(),
            })
        })
    }
}

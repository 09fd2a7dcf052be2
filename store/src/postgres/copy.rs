//! `challenge migrate`: a challenge directory copied into an empty PostgreSQL store, row
//! for row with its ids. Nothing here lists the schema: the tables come from the schema
//! steps in the order they are created, their columns from the directory's database, and
//! each value is handed to PostgreSQL as text cast to its column's type.

use std::collections::HashMap;
use std::path::Path;

use postgres::Statement;
use rusqlite::types::ValueRef;

use super::{PgConn, PostgresStore, pg_error};
use crate::error::{StoreError, StoreResult};
use crate::sql::{Conn, params};
use crate::{DB_FILE, KIT_VERSION, SqliteStore, schema};

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

/// The one reference to a table created later: a slot's game, set once the games are in.
const FORWARD: (&str, &str) = ("slots", "game_id");

/// A table's or column's name as it may appear in SQL built here.
fn plain_name(name: &str) -> bool {
    !name.is_empty()
        && name
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_')
}

impl PostgresStore {
    /// Copies the challenge in the SQLite directory `dir` (brought up to date first) into
    /// this store, which must be empty: every row of every table with its id, in one
    /// transaction. Tournaments copied are taken to be played by this kit's version.
    pub fn import_sqlite(&mut self, dir: &Path) -> StoreResult<Copied> {
        drop(SqliteStore::open(dir)?);
        let path = dir.join(DB_FILE);
        let source = rusqlite::Connection::open_with_flags(
            &path,
            rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY,
        )
        .map_err(|e| source_error(dir, e))?;
        if !self.is_empty()? {
            return Err(StoreError::Conflict {
                store: self.shown.clone(),
                what:
                    "it already holds a challenge: migrate into an empty database (`createdb NAME`)"
                        .into(),
            });
        }
        let shown = self.shown.clone();
        let mut tx = self
            .client
            .get_mut()
            .transaction()
            .map_err(|e| pg_error(&shown, e))?;
        let mut counts = HashMap::new();
        for table in schema::tables() {
            let copied = Copier {
                source: &source,
                dir,
                tx: &mut tx,
                store: &shown,
                table,
            }
            .copy()?;
            counts.insert(table, copied);
        }
        let mut c = PgConn {
            client: &mut tx,
            store: &shown,
            prepared: None,
        };
        finish(&source, dir, &mut c)?;
        tx.commit().map_err(|e| pg_error(&shown, e))?;
        Ok(Copied {
            entries: counts["entries"],
            versions: counts["versions"],
            tournaments: counts["tournaments"],
            games: counts["games"],
        })
    }
}

fn source_error(dir: &Path, err: rusqlite::Error) -> StoreError {
    StoreError::Database {
        store: dir.display().to_string(),
        source: Box::new(err),
    }
}

/// After the rows: the forward reference, the kit version, the id sequences.
fn finish(source: &rusqlite::Connection, dir: &Path, c: &mut dyn Conn) -> StoreResult<()> {
    let (table, column) = FORWARD;
    let mut read = source
        .prepare(&format!(
            "SELECT id, {column} FROM {table} WHERE {column} IS NOT NULL"
        ))
        .map_err(|e| source_error(dir, e))?;
    let pairs = read
        .query_map([], |r| Ok((r.get::<_, i64>(0)?, r.get::<_, i64>(1)?)))
        .and_then(Iterator::collect::<rusqlite::Result<Vec<_>>>)
        .map_err(|e| source_error(dir, e))?;
    let mark = format!("UPDATE {table} SET {column} = ?2 WHERE id = ?1");
    for (id, value) in pairs {
        c.execute(&mark, params![id, value])?;
    }
    c.execute(
        "UPDATE tournaments SET kit_version = ?1",
        params![KIT_VERSION],
    )?;
    for table in schema::tables() {
        let has_id: bool = c.one(
            "SELECT EXISTS (SELECT 1 FROM pg_attribute
                            WHERE attrelid = to_regclass(?1) AND attname = 'id'
                              AND NOT attisdropped)",
            params![table],
            |r| r.get(0),
        )?;
        let sequence: Option<String> = if has_id {
            c.one(
                "SELECT pg_get_serial_sequence(?1, 'id')",
                params![table],
                |r| r.get(0),
            )?
        } else {
            None
        };
        if sequence.is_some() {
            c.batch(&format!(
                "SELECT setval(pg_get_serial_sequence('{table}', 'id'),
                               COALESCE((SELECT MAX(id) FROM {table}), 0) + 1, false)"
            ))?;
        }
    }
    Ok(())
}

/// Copies one table.
struct Copier<'a, 'b> {
    source: &'a rusqlite::Connection,
    dir: &'a Path,
    tx: &'a mut postgres::Transaction<'b>,
    store: &'a str,
    table: &'static str,
}

impl Copier<'_, '_> {
    /// The directory's columns of the table (but a forward reference).
    fn columns(&self) -> StoreResult<Vec<String>> {
        let mut stmt = self
            .source
            .prepare("SELECT name FROM pragma_table_info(?1) ORDER BY cid")
            .map_err(|e| source_error(self.dir, e))?;
        let names = stmt
            .query_map([self.table], |r| r.get::<_, String>(0))
            .and_then(Iterator::collect::<rusqlite::Result<Vec<_>>>)
            .map_err(|e| source_error(self.dir, e))?;
        Ok(names
            .into_iter()
            .filter(|name| (self.table, name.as_str()) != FORWARD)
            .collect())
    }

    /// The store's column types of the table, by column.
    fn types(&mut self) -> StoreResult<HashMap<String, String>> {
        let mut c = PgConn {
            client: &mut *self.tx,
            store: self.store,
            prepared: None,
        };
        let c: &mut dyn Conn = &mut c;
        let types = c.rows(
            "SELECT attname::text, format_type(atttypid, atttypmod) FROM pg_attribute
             WHERE attrelid = to_regclass(?1) AND attnum > 0 AND NOT attisdropped",
            params![self.table],
            |r| Ok((r.get::<String>(0)?, r.get::<String>(1)?)),
        )?;
        Ok(types.into_iter().collect())
    }

    fn bad(&self, column: &str, problem: String) -> StoreError {
        StoreError::BadValue {
            store: self.dir.display().to_string(),
            column: format!("{}.{column}", self.table),
            problem,
        }
    }

    fn copy(mut self) -> StoreResult<usize> {
        let columns = self.columns()?;
        let types = self.types()?;
        let mut casts = Vec::new();
        for column in &columns {
            let ty = types
                .get(column)
                .ok_or_else(|| self.bad(column, "the store's schema has no such column".into()))?;
            if !plain_name(column) || !ty.bytes().all(|b| b.is_ascii_lowercase() || b == b' ') {
                return Err(self.bad(column, format!("unexpected name or type `{ty}`")));
            }
            casts.push(ty.clone());
        }
        let mut read = self
            .source
            .prepare(&format!(
                "SELECT {} FROM {} ORDER BY rowid",
                columns.join(", "),
                self.table
            ))
            .map_err(|e| source_error(self.dir, e))?;
        let mut rows = read.query([]).map_err(|e| source_error(self.dir, e))?;
        // One INSERT per set of non-NULL columns: a NULL is left out, so a column's
        // default applies as it would to a row written here.
        let mut inserts: HashMap<Vec<bool>, Statement> = HashMap::new();
        let mut copied = 0;
        while let Some(row) = rows.next().map_err(|e| source_error(self.dir, e))? {
            let mut values = Vec::new();
            for (i, column) in columns.iter().enumerate() {
                let value = row.get_ref(i).map_err(|e| source_error(self.dir, e))?;
                values.push(text(value).map_err(|problem| self.bad(column, problem))?);
            }
            let present: Vec<bool> = values.iter().map(Option::is_some).collect();
            let insert = match inserts.get(&present) {
                Some(insert) => insert.clone(),
                None => {
                    let sql = insert_sql(self.table, &columns, &casts, &present);
                    let insert = self.tx.prepare(&sql).map_err(|e| pg_error(self.store, e))?;
                    inserts.insert(present, insert.clone());
                    insert
                }
            };
            let params: Vec<&(dyn postgres::types::ToSql + Sync)> = values
                .iter()
                .flatten()
                .map(|v| v as &(dyn postgres::types::ToSql + Sync))
                .collect();
            self.tx
                .execute(&insert, &params)
                .map_err(|e| pg_error(self.store, e))?;
            copied += 1;
        }
        Ok(copied)
    }
}

/// A SQLite value as the text PostgreSQL casts to its column's type (`None`: NULL).
fn text(value: ValueRef<'_>) -> Result<Option<String>, String> {
    Ok(match value {
        ValueRef::Null => None,
        ValueRef::Integer(n) => Some(n.to_string()),
        ValueRef::Real(x) => Some(x.to_string()),
        ValueRef::Text(bytes) => Some(
            std::str::from_utf8(bytes)
                .map_err(|_| "text that is not UTF-8".to_string())?
                .to_string(),
        ),
        ValueRef::Blob(_) => return Err("binary data, which this kit never writes".into()),
    })
}

fn insert_sql(table: &str, columns: &[String], casts: &[String], present: &[bool]) -> String {
    let mut names = Vec::new();
    let mut values = Vec::new();
    for ((column, cast), _) in columns.iter().zip(casts).zip(present).filter(|(_, p)| **p) {
        names.push(column.as_str());
        values.push(format!("${}::text::{cast}", values.len() + 1));
    }
    if names.is_empty() {
        return format!("INSERT INTO {table} DEFAULT VALUES");
    }
    format!(
        "INSERT INTO {table} ({}) VALUES ({})",
        names.join(", "),
        values.join(", ")
    )
}

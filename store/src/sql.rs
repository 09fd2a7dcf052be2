//! The small layer both backends share: a connection that runs statements written once
//! ([`Conn`]), the values they take ([`Param`]) and the rows they give ([`Row`]), and what
//! a backend lends the shared code ([`Backend`]).
//!
//! Statements are written in one SQL that SQLite and PostgreSQL both read: placeholders
//! `?1`, `?2`... (PostgreSQL's connection turns them into `$1`, `$2`), `TRUE`/`FALSE`,
//! `RETURNING`, `ON CONFLICT`. Where the engines differ, a statement asks its
//! connection's [`Dialect`] (the current time as text, row locks).
//!
//! Why hand-written and not `sea-query` (its binders pin rusqlite 0.38, and two bundled
//! SQLites cannot link into one program) or `refinery` (it needs Rust 1.92, keeps its own
//! history table, so the old version numbers would still need this mapping, and holds no
//! lock for workers starting together): the whole layer is this file and a driver file
//! per backend, and it keeps the engines' own SQL visible.

use std::borrow::Cow;
use std::fmt::Display;
use std::str::FromStr;

use crate::error::{BadValue, StoreError, StoreResult};
use crate::{EntryId, GameId, SlotId, TournamentId, VersionId};

/// Which SQL engine a connection talks to, for the few places where they differ.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dialect {
    /// The embedded database of a challenge directory.
    Sqlite,
    /// A shared server database.
    Postgres,
}

impl Dialect {
    /// An expression for the current UTC time as the store keeps it in text columns
    /// (`2025-01-31T12:00:00Z`).
    pub fn now_text(self) -> &'static str {
        match self {
            Dialect::Sqlite => "strftime('%Y-%m-%dT%H:%M:%SZ', 'now')",
            Dialect::Postgres => {
                "to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"')"
            }
        }
    }

    /// A clause locking the selected rows until the transaction ends. SQLite needs none:
    /// its write transactions take the whole database ([`Backend::transaction`]).
    pub fn for_update(self) -> &'static str {
        match self {
            Dialect::Sqlite => "",
            Dialect::Postgres => " FOR UPDATE",
        }
    }
}

/// One statement parameter.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Param<'a> {
    /// An integer (`BIGINT` in PostgreSQL), or `NULL`.
    Int(Option<i64>),
    /// Text, or `NULL`.
    Text(Option<&'a str>),
    /// A boolean (an integer 0/1 in SQLite).
    Bool(bool),
    /// A floating-point number.
    Real(f64),
}

impl From<i64> for Param<'_> {
    fn from(value: i64) -> Self {
        Param::Int(Some(value))
    }
}

impl From<u32> for Param<'_> {
    fn from(value: u32) -> Self {
        Param::Int(Some(i64::from(value)))
    }
}

impl From<bool> for Param<'_> {
    fn from(value: bool) -> Self {
        Param::Bool(value)
    }
}

impl From<f64> for Param<'_> {
    fn from(value: f64) -> Self {
        Param::Real(value)
    }
}

impl<'a> From<&'a str> for Param<'a> {
    fn from(value: &'a str) -> Self {
        Param::Text(Some(value))
    }
}

impl<'a> From<&'a String> for Param<'a> {
    fn from(value: &'a String) -> Self {
        Param::Text(Some(value))
    }
}

impl<'a> From<Option<&'a str>> for Param<'a> {
    fn from(value: Option<&'a str>) -> Self {
        Param::Text(value)
    }
}

/// A count as a parameter, refused (not wrapped) when it does not fit the column.
pub fn count(column: &str, value: usize) -> Result<Param<'static>, BadValue> {
    i64::try_from(value).map(Param::from).map_err(|_| BadValue {
        column: column.to_string(),
        problem: format!("{value} is too large to store"),
    })
}

/// Parameters from values: `params![a, b]` is `&[Param::from(a), Param::from(b)]`.
macro_rules! params {
    ($($value:expr),* $(,)?) => {
        &[$($crate::sql::Param::from($value)),*][..]
    };
}
pub(crate) use params;

/// One row of a result, read by column index.
pub trait Row {
    /// The column's name, for messages.
    fn name(&self, i: usize) -> String;
    /// Whether the value is `NULL`.
    fn is_null(&self, i: usize) -> Result<bool, String>;
    /// An integer.
    fn int(&self, i: usize) -> Result<i64, String>;
    /// Text.
    fn text(&self, i: usize) -> Result<String, String>;
    /// A boolean (SQLite: any integer, 0 is false).
    fn bool(&self, i: usize) -> Result<bool, String>;
    /// A floating-point number.
    fn real(&self, i: usize) -> Result<f64, String>;
}

/// A value read from one column.
pub trait Cell: Sized {
    /// Reads column `i` of `row`; the error says what is wrong with the value.
    fn read(row: &dyn Row, i: usize) -> Result<Self, String>;
}

impl Cell for i64 {
    fn read(row: &dyn Row, i: usize) -> Result<Self, String> {
        row.int(i)
    }
}

impl Cell for u32 {
    fn read(row: &dyn Row, i: usize) -> Result<Self, String> {
        let value = row.int(i)?;
        u32::try_from(value).map_err(|_| format!("{value} is not a count"))
    }
}

impl Cell for u64 {
    fn read(row: &dyn Row, i: usize) -> Result<Self, String> {
        let value = row.int(i)?;
        u64::try_from(value).map_err(|_| format!("{value} is not a count"))
    }
}

impl Cell for String {
    fn read(row: &dyn Row, i: usize) -> Result<Self, String> {
        row.text(i)
    }
}

impl Cell for bool {
    fn read(row: &dyn Row, i: usize) -> Result<Self, String> {
        row.bool(i)
    }
}

impl Cell for f64 {
    fn read(row: &dyn Row, i: usize) -> Result<Self, String> {
        row.real(i)
    }
}

impl<T: Cell> Cell for Option<T> {
    fn read(row: &dyn Row, i: usize) -> Result<Self, String> {
        if row.is_null(i)? {
            Ok(None)
        } else {
            T::read(row, i).map(Some)
        }
    }
}

/// The ids: an integer column, a parameter.
macro_rules! id_cells {
    ($($id:ident),*) => {$(
        impl Cell for $id {
            fn read(row: &dyn Row, i: usize) -> Result<Self, String> {
                row.int(i).map($id)
            }
        }

        impl From<$id> for Param<'_> {
            fn from(id: $id) -> Self {
                Param::Int(Some(id.0))
            }
        }

        impl From<Option<$id>> for Param<'_> {
            fn from(id: Option<$id>) -> Self {
                Param::Int(id.map(|id| id.0))
            }
        }
    )*};
}
id_cells!(EntryId, VersionId, TournamentId, SlotId, GameId);

/// At most this much of a stored value is quoted in a message.
const QUOTED: usize = 60;

impl dyn Row + '_ {
    /// Column `i` as `T`.
    pub fn get<T: Cell>(&self, i: usize) -> Result<T, BadValue> {
        T::read(self, i).map_err(|problem| BadValue {
            column: self.name(i),
            problem,
        })
    }

    /// A text column parsed into the type it spells (results, terminations, formats).
    pub fn parse<T: FromStr>(&self, i: usize) -> Result<T, BadValue>
    where
        T::Err: Display,
    {
        let text: String = self.get(i)?;
        text.parse().map_err(|e: T::Err| BadValue {
            column: self.name(i),
            problem: format!("`{}`: {e}", quoted(&text)),
        })
    }

    /// A text column holding JSON.
    pub fn json<T: serde::de::DeserializeOwned>(&self, i: usize) -> Result<T, BadValue> {
        let text: String = self.get(i)?;
        serde_json::from_str(&text).map_err(|e| BadValue {
            column: self.name(i),
            problem: format!("`{}`: {e}", quoted(&text)),
        })
    }
}

fn quoted(text: &str) -> Cow<'_, str> {
    match text.char_indices().nth(QUOTED) {
        Some((end, _)) => Cow::Owned(format!("{}...", &text[..end])),
        None => Cow::Borrowed(text),
    }
}

/// What a row mapper returns.
pub type Mapped<T> = Result<T, BadValue>;

/// A connection (or a transaction on one) that runs the shared statements.
pub trait Conn {
    /// The engine on the other side.
    fn dialect(&self) -> Dialect;
    /// The store, for messages.
    fn store(&self) -> &str;
    /// Runs a statement; returns how many rows it changed.
    fn execute(&mut self, sql: &str, params: &[Param<'_>]) -> StoreResult<u64>;
    /// Runs a query, handing each row to `each` in order.
    fn query(
        &mut self,
        sql: &str,
        params: &[Param<'_>],
        each: &mut dyn FnMut(&dyn Row) -> Mapped<()>,
    ) -> StoreResult<()>;
    /// Runs statements without parameters (schema steps).
    fn batch(&mut self, sql: &str) -> StoreResult<()>;
}

impl dyn Conn + '_ {
    /// Every row, mapped.
    pub fn rows<T>(
        &mut self,
        sql: &str,
        params: &[Param<'_>],
        map: impl Fn(&dyn Row) -> Mapped<T>,
    ) -> StoreResult<Vec<T>> {
        let mut rows = Vec::new();
        self.query(sql, params, &mut |row| {
            rows.push(map(row)?);
            Ok(())
        })?;
        Ok(rows)
    }

    /// The first row, mapped, if there is one.
    pub fn first<T>(
        &mut self,
        sql: &str,
        params: &[Param<'_>],
        map: impl Fn(&dyn Row) -> Mapped<T>,
    ) -> StoreResult<Option<T>> {
        let mut first = None;
        self.query(sql, params, &mut |row| {
            if first.is_none() {
                first = Some(map(row)?);
            }
            Ok(())
        })?;
        Ok(first)
    }

    /// The one row a statement always returns (`COUNT(*)`, `INSERT ... RETURNING`).
    pub fn one<T>(
        &mut self,
        sql: &str,
        params: &[Param<'_>],
        map: impl Fn(&dyn Row) -> Mapped<T>,
    ) -> StoreResult<T> {
        self.first(sql, params, map)?
            .ok_or_else(|| StoreError::Database {
                store: self.store().to_string(),
                source: "a statement that always returns a row returned none".into(),
            })
    }

    /// A bad value found by the caller, as the store's error.
    pub fn bad(&self, bad: BadValue) -> StoreError {
        bad.at(self.store())
    }
}

/// What a backend lends the statements written once: a connection to read on, one to
/// write on, and transactions. The traits of the store ([`crate::EntryStore`],
/// [`crate::TournamentStore`], [`crate::ServerStore`]) are implemented once for every
/// backend on top of it; only the claims differ ([`crate::ClaimStore`]).
pub trait Backend {
    /// Where the records are, for messages.
    fn store_name(&self) -> String;
    /// Runs `f` on the connection, to read.
    fn read<T>(&self, f: impl FnOnce(&mut dyn Conn) -> StoreResult<T>) -> StoreResult<T>;
    /// Runs `f` on the connection, each statement on its own (one change, or changes
    /// that need not happen together).
    fn write<T>(&mut self, f: impl FnOnce(&mut dyn Conn) -> StoreResult<T>) -> StoreResult<T>;
    /// Runs `f` in one transaction, committed if it returns `Ok`, else rolled back. It
    /// takes the write lock at once on SQLite, where a read that later writes could
    /// otherwise fail against another writer.
    fn transaction<T>(&mut self, f: impl FnOnce(&mut dyn Conn) -> StoreResult<T>)
    -> StoreResult<T>;
}

/// `sql` with `?N` placeholders as PostgreSQL's `$N` (quoted text and names untouched).
pub fn dollar_placeholders(sql: &str) -> Cow<'_, str> {
    if !sql.contains('?') {
        return Cow::Borrowed(sql);
    }
    let mut out = String::with_capacity(sql.len());
    let mut quote: Option<char> = None;
    let mut chars = sql.chars().peekable();
    while let Some(c) = chars.next() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (None, '\'' | '"') => quote = Some(c),
            (None, '?') if chars.peek().is_some_and(char::is_ascii_digit) => {
                out.push('$');
                continue;
            }
            _ => {}
        }
        out.push(c);
    }
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placeholders_become_dollars_outside_quotes_only() {
        assert_eq!(
            dollar_placeholders("SELECT a FROM t WHERE b = ?1 AND c = ?12"),
            "SELECT a FROM t WHERE b = $1 AND c = $12"
        );
        assert_eq!(
            dollar_placeholders("SELECT '?1', \"?2\" FROM t WHERE x = ?3"),
            "SELECT '?1', \"?2\" FROM t WHERE x = $3"
        );
        assert_eq!(
            dollar_placeholders("SELECT 'it''s ?1' = ?2"),
            "SELECT 'it''s ?1' = $2"
        );
        assert!(matches!(dollar_placeholders("SELECT 1"), Cow::Borrowed(_)));
    }

    #[test]
    fn long_values_are_quoted_in_part() {
        let long = "x".repeat(500);
        assert_eq!(quoted(&long).len(), QUOTED + 3);
        assert_eq!(quoted("short"), "short");
    }
}

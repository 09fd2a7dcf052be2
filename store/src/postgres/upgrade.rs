//! A PostgreSQL store's schema version and its upgrade.
//!
//! The version is kept in a one-row table `schema_version`. Stores made before the steps
//! were shared between the engines counted PostgreSQL's own steps there
//! ([`crate::schema::POSTGRES_LEGACY`]); a store that counts the shared steps has a
//! `shared` column in that table. Upgrading applies the missing steps and converts the
//! count, all in one transaction under an advisory lock, so workers starting together
//! upgrade once and a failed step leaves the store as it was.

use postgres::{Client, GenericClient};

use super::{PgConn, UPGRADE_LOCK, pg_error};
use crate::Upgraded;
use crate::error::{StoreError, StoreResult};
use crate::schema::{self, SCHEMA_VERSION, STEPS, Stamp};
use crate::sql::{Conn, Dialect, params};

/// What the database says about its schema (no table: an empty database).
pub(super) fn stamp(client: &mut impl GenericClient, store: &str) -> StoreResult<Stamp> {
    stamp_in(&mut PgConn {
        client,
        store,
        prepared: None,
    })
}

/// The error for a database that holds no challenge.
pub(super) fn no_challenge(store: &str) -> StoreError {
    StoreError::NotFound {
        store: store.to_string(),
        what: "challenge".into(),
        hint: ": start one with `challenge submit FILE --name NAME --store URL` (or copy a challenge directory in with `challenge migrate`)".into(),
    }
}

/// Refuses a store this kit cannot use as it is.
pub(super) fn require_current(stamp: Stamp, store: &str) -> StoreResult<()> {
    if stamp == Stamp::Shared(0) {
        return Err(no_challenge(store));
    }
    crate::schema::require_current(stamp, store, "challenge upgrade --store URL")
}

/// Applies the missing steps and records the shared count, in one transaction.
pub(super) fn upgrade(client: &mut Client, store: &str) -> StoreResult<Upgraded> {
    let mut tx = client.transaction().map_err(|e| pg_error(store, e))?;
    let found = {
        let mut c = PgConn {
            client: &mut tx,
            store,
            prepared: None,
        };
        let c: &mut dyn Conn = &mut c;
        c.execute("SELECT pg_advisory_xact_lock(?1)", params![UPGRADE_LOCK])?;
        apply_missing(c)?
    };
    tx.commit().map_err(|e| pg_error(store, e))?;
    Ok(Upgraded {
        location: store.to_string(),
        from: found.version(),
        to: SCHEMA_VERSION,
        functions_installed: false,
    })
}

/// The upgrade's work, under the lock: returns the stamp found.
fn apply_missing(c: &mut dyn Conn) -> StoreResult<Stamp> {
    let store = c.store().to_string();
    let found = stamp_in(c)?;
    crate::schema::require_known(found, &store)?;
    let missing = found.missing().unwrap_or_default();
    for &step in &missing {
        let s = STEPS[step as usize - 1];
        c.batch(&schema::expand(s.sql, Dialect::Postgres))
            .map_err(|source| StoreError::UpgradeFailed {
                store: store.clone(),
                step,
                what: s.what,
                source: Box::new(source),
            })?;
    }
    match found {
        Stamp::Shared(0) => c.batch(&format!(
            "CREATE TABLE schema_version (version BIGINT NOT NULL, shared BOOLEAN NOT NULL DEFAULT TRUE);
             INSERT INTO schema_version (version) VALUES ({SCHEMA_VERSION})"
        ))?,
        Stamp::PostgresLegacy(_) => {
            c.batch("ALTER TABLE schema_version ADD COLUMN shared BOOLEAN NOT NULL DEFAULT TRUE")?;
            set_version(c)?;
        }
        Stamp::Shared(_) if !missing.is_empty() => set_version(c)?,
        Stamp::Shared(_) => {}
    }
    Ok(found)
}

fn set_version(c: &mut dyn Conn) -> StoreResult<()> {
    let version = i64::from(SCHEMA_VERSION);
    if c.execute("UPDATE schema_version SET version = ?1", params![version])? == 0 {
        c.execute(
            "INSERT INTO schema_version (version) VALUES (?1)",
            params![version],
        )?;
    }
    Ok(())
}

/// [`stamp`] on a connection.
fn stamp_in(c: &mut dyn Conn) -> StoreResult<Stamp> {
    let (exists, shared) = c.one(
        "SELECT to_regclass('schema_version') IS NOT NULL,
                EXISTS (SELECT 1 FROM pg_attribute
                        WHERE attrelid = to_regclass('schema_version')
                          AND attname = 'shared' AND NOT attisdropped)",
        &[],
        |r| Ok((r.get::<bool>(0)?, r.get::<bool>(1)?)),
    )?;
    if !exists {
        return Ok(Stamp::Shared(0));
    }
    let version: u32 = c
        .first("SELECT version FROM schema_version", &[], |r| r.get(0))?
        .unwrap_or(0);
    Ok(if shared {
        Stamp::Shared(version)
    } else {
        Stamp::PostgresLegacy(version)
    })
}

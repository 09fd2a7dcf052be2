//! Games in progress on a shared store: what `challenge worker`s publish while they play
//! and `challenge serve` shows on its live pages.
//!
//! A worker writes each game's snapshot (its whole state as the live page draws it, JSON
//! the kit builds, at most [`MAX_LIVE_SNAPSHOT_BYTES`](crate::MAX_LIVE_SNAPSHOT_BYTES)) into `live_games`, one row per
//! slot, through the definer function `challenge_live` (`postgres/access.rs`): only for a slot
//! it holds with its lease token, and never over the size. Each write takes the next
//! number of a sequence (`seq`), so a reader asks only for the snapshots changed since
//! the last number it saw ([`LiveStore::live_games`]). A row goes with the slot's lease:
//! recording the game or releasing the slot deletes it in the same transaction, and the
//! next write of any worker deletes the rows of leases that ran out (a worker that died;
//! readers stop listing them [`LIVE_GRACE_SECONDS`] after), so the table holds at most
//! the games in flight.
//!
//! The table is in both backends' schema (one schema), but only a PostgreSQL store has
//! writers: on a challenge directory the server plays the games itself and follows them
//! in memory, so there [`LiveStore::live_games`] is empty.

use std::fmt;

use framework::notation::pgn::GameResult;

use crate::error::{StoreError, StoreResult};
use crate::games::Claim;
use crate::postgres::access::{is_lease_not_held, is_refused};
use crate::postgres::{PostgresStore, pg_error};
use crate::sql::{Backend, Dialect, params};
use crate::{GameId, SlotId};

/// One game in progress, as [`LiveStore::live_games`] reads it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LiveGame {
    /// The slot being played (the live page's key).
    pub slot: SlotId,
    /// The number of its last write: higher is newer, across all games.
    pub seq: i64,
    /// Its snapshot, when it changed since the number asked about (else `None`).
    pub snapshot: Option<String>,
}

/// How a game that left the live table ended, once it is stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LiveEnding {
    /// The stored game.
    pub game: GameId,
    /// Its result.
    pub result: GameResult,
    /// The runner's sentence about the ending.
    pub detail: String,
}

/// Reading the games in progress (writing them is a worker's:
/// [`PostgresStore::publish_live`]).
pub trait LiveStore {
    /// Every game in progress (its slot still leased, its lease not run out more than
    /// [`LIVE_GRACE_SECONDS`] ago), in slot order, with the snapshots written after write
    /// number `since` (0: all of them).
    fn live_games(&self, since: i64) -> StoreResult<Vec<LiveGame>>;
    /// The stored game of `slot`, if it has one: where a live game that left the table
    /// went (a game that left without one was given back unplayed).
    fn live_ending(&self, slot: SlotId) -> StoreResult<Option<LiveEnding>>;
}

/// How long after its lease ran out a game is still listed: a worker whose heartbeat is
/// late (a busy machine, a slow link) keeps its game on the page, and one that died has
/// its game gone within its lease and this.
pub const LIVE_GRACE_SECONDS: u32 = 10;

/// The time [`LIVE_GRACE_SECONDS`] ago, as the lease columns hold it.
fn grace_ago(dialect: Dialect) -> String {
    match dialect {
        Dialect::Sqlite => {
            format!("strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-{LIVE_GRACE_SECONDS} seconds')")
        }
        Dialect::Postgres => format!("now() - interval '{LIVE_GRACE_SECONDS} seconds'"),
    }
}

impl<B: Backend> LiveStore for B {
    fn live_games(&self, since: i64) -> StoreResult<Vec<LiveGame>> {
        self.read(|c| {
            let sql = format!(
                "SELECT l.slot_id, l.seq, CASE WHEN l.seq > ?1 THEN l.snapshot END
                 FROM live_games l JOIN slots s ON s.id = l.slot_id
                 WHERE s.game_id IS NULL AND s.lease_token IS NOT NULL
                   AND s.lease_expires > {}
                 ORDER BY l.slot_id",
                grace_ago(c.dialect())
            );
            c.rows(&sql, params![since], |r| {
                Ok(LiveGame {
                    slot: r.get(0)?,
                    seq: r.get(1)?,
                    snapshot: r.get(2)?,
                })
            })
        })
    }

    fn live_ending(&self, slot: SlotId) -> StoreResult<Option<LiveEnding>> {
        self.read(|c| {
            c.first(
                "SELECT id, result, detail FROM games WHERE slot_id = ?1",
                params![slot],
                |r| {
                    Ok(LiveEnding {
                        game: r.get(0)?,
                        result: r.parse(1)?,
                        detail: r.get(2)?,
                    })
                },
            )
        })
    }
}

/// The right to publish one claimed game's snapshots: its slot and lease token, taken
/// from the store that claimed it ([`PostgresStore::live_ticket`]) so that another
/// connection (a worker's publishing thread) can publish for it. The token is never
/// shown.
#[derive(Clone, PartialEq, Eq)]
pub struct LiveTicket {
    slot: SlotId,
    token: i64,
}

impl LiveTicket {
    /// The slot it publishes for.
    pub fn slot(&self) -> SlotId {
        self.slot
    }
}

impl fmt::Debug for LiveTicket {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("LiveTicket")
            .field("slot", &self.slot)
            .finish_non_exhaustive()
    }
}

impl PostgresStore {
    /// The ticket to publish `claim`'s game live, while this store holds its lease.
    pub fn live_ticket(&self, claim: &Claim) -> Option<LiveTicket> {
        let slot = claim.slot.id;
        self.held_token(slot)
            .map(|token| LiveTicket { slot, token })
    }

    /// Writes a game's snapshot (`challenge_live`). Refused with
    /// [`StoreError::LeaseLost`] when the slot is no longer leased with the ticket's
    /// token (recorded, released, or claimed again after its lease ran out), and with
    /// [`StoreError::Conflict`] for a snapshot over [`MAX_LIVE_SNAPSHOT_BYTES`](crate::MAX_LIVE_SNAPSHOT_BYTES).
    pub fn publish_live(&mut self, ticket: &LiveTicket, snapshot: &str) -> StoreResult<()> {
        let shown = Backend::store_name(self);
        let slot = ticket.slot;
        let written = self.client().execute(
            "SELECT challenge_live($1, $2, $3)",
            &[&slot.0, &ticket.token, &snapshot],
        );
        match written {
            Ok(_) => Ok(()),
            Err(err) if is_lease_not_held(&err) => {
                Err(StoreError::LeaseLost { store: shown, slot })
            }
            Err(err) if is_refused(&err) => Err(StoreError::Conflict {
                store: shown,
                what: format!(
                    "the store refused the live snapshot of slot {slot}: {}",
                    err.as_db_error().map_or("", |e| e.message())
                ),
            }),
            Err(err) => Err(pg_error(&shown, err)),
        }
    }
}

//! Workers' leases on slots: PostgreSQL's claims.
//!
//! Every step goes through the store's definer functions (`access.rs`), the same for
//! the organiser and a worker's role. [`ClaimStore::claim`] (`challenge_claim`) takes
//! pending slots with `SELECT ... FOR UPDATE SKIP LOCKED` (two workers never wait on or
//! get the same slot) and stamps each with a fresh random token and an expiry time. While a store holds leases, a heartbeat thread on
//! its own connection pushes their expiry forward; a worker that dies or is cut off stops
//! renewing, its lease runs out and the slot is claimed again. A result is recorded only
//! if the slot still carries the token it was claimed with, in the transaction that
//! inserts the game, so a game whose lease was taken over is refused
//! ([`StoreError::LeaseLost`]) and no slot ever gets two games.

use std::collections::HashMap;
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

use postgres::{Client, Config};

use super::access::{is_lease_not_held, is_refused};
use super::connect::connect;
use super::tls::Tls;
use super::{PostgresStore, pg_error};
use crate::error::{StoreError, StoreResult};
use crate::games::{Claim, ClaimStore, NewGame, side_text};
use crate::sql::{Backend, Param, count, params};
use crate::tournaments::{SLOT_COLUMNS, slot_from_row};
use crate::{GameId, SlotId, TournamentId};

/// How long a claimed slot stays leased without a heartbeat, unless set otherwise
/// ([`PostgresStore::set_lease`]).
pub const DEFAULT_LEASE: Duration = Duration::from_secs(60);

impl PostgresStore {
    /// How long a claim stays leased without a heartbeat (renewed every third of it while
    /// this store holds it). Applies to later claims.
    pub fn set_lease(&mut self, lease: Duration) {
        self.lease = lease.max(Duration::from_millis(300));
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

    fn held(&self) -> std::sync::MutexGuard<'_, HashMap<SlotId, i64>> {
        self.held.lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl ClaimStore for PostgresStore {
    fn claim(
        &mut self,
        tournament: TournamentId,
        worker: &str,
        max: usize,
    ) -> StoreResult<Vec<Claim>> {
        self.check_kit_version(tournament)?;
        let limit = count("limit", max.min(1 << 40)).map_err(|e| e.at(&self.shown))?;
        let sql =
            format!("SELECT {SLOT_COLUMNS}, lease_token FROM challenge_claim(?1, ?2, ?3, ?4)");
        let params = [
            tournament.into(),
            worker.into(),
            limit,
            Param::from(self.lease.as_secs_f64()),
        ];
        let mut leased =
            self.write(|c| c.rows(&sql, &params, |r| Ok((slot_from_row(r)?, r.get::<i64>(9)?))))?;
        leased.sort_by_key(|(slot, _)| slot.id);
        let mut held = self.held();
        let claims: Vec<Claim> = leased
            .into_iter()
            .map(|(slot, token)| {
                held.insert(slot.id, token);
                Claim {
                    tournament,
                    slot,
                    worker: worker.to_string(),
                }
            })
            .collect();
        drop(held);
        if !claims.is_empty() {
            self.start_heartbeat();
        }
        Ok(claims)
    }

    fn release(&mut self, claim: &Claim) -> StoreResult<()> {
        let token = self.held().remove(&claim.slot.id);
        if let Some(token) = token {
            self.write(|c| {
                c.execute(
                    "SELECT challenge_release(?1, ?2)",
                    params![claim.slot.id, token],
                )
            })?;
        }
        Ok(())
    }

    fn record(&mut self, claim: &Claim, game: &NewGame) -> StoreResult<GameId> {
        let slot = claim.slot.id;
        let Some(token) = self.held().get(&slot).copied() else {
            return Err(StoreError::Conflict {
                store: self.shown.clone(),
                what: format!(
                    "slot {slot} is not leased by this worker; its result was not stored"
                ),
            });
        };
        let result = record_leased(self, claim, token, game);
        self.held().remove(&slot);
        result
    }
}

/// The game and its slot in one transaction (`challenge_record`), only if the slot still
/// carries `token`: a lease that ran out and was claimed again has a new token, and this
/// result is refused.
fn record_leased(
    store: &mut PostgresStore,
    claim: &Claim,
    token: i64,
    game: &NewGame,
) -> StoreResult<GameId> {
    let slot = claim.slot.id;
    let evidence = game.evidence.as_ref().map(crate::Evidence::to_json);
    let stored = store.client.get_mut().query_one(
        "SELECT challenge_record($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)",
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
            &evidence,
        ],
    );
    let shown = store.shown.clone();
    match stored.and_then(|row| row.try_get(0)) {
        Ok(id) => Ok(GameId(id)),
        Err(err) if is_lease_not_held(&err) => Err(StoreError::LeaseLost { store: shown, slot }),
        Err(err) if is_refused(&err) => Err(StoreError::Conflict {
            store: shown,
            what: format!(
                "the store refused the game of slot {slot}: {}",
                err.as_db_error().map_or("", |e| e.message())
            ),
        }),
        Err(err) => Err(pg_error(&shown, err)),
    }
}

/// The thread that keeps a store's leases alive: every third of the lease it pushes the
/// expiry of every slot the store still holds (by token) one lease ahead, on a connection
/// of its own, so a long game never loses its slot while the worker is alive.
pub(super) struct Heartbeat {
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

    pub(super) fn stop(self) {
        let _ = self.stop.send(());
        let _ = self.thread.join();
    }
}

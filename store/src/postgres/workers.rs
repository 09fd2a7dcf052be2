//! The workers of a PostgreSQL store: each announces itself, reports in while it plays,
//! and says goodbye; `challenge workers` lists them with what they play. The organiser
//! bounds what a worker's role may hold ([`WorkerLimits`], enforced by the store's
//! functions: `access.rs`) and frees the leases of a worker that is gone.

use std::time::Duration;

use anyhow::{Result, bail};
use postgres::GenericClient;

use super::{PostgresStore, pg_error};
use crate::KIT_VERSION;
use crate::error::StoreResult;
use crate::sql::{Backend, params};

/// The organiser's bounds on a worker's role, kept in the store's `server_settings` and
/// enforced inside the functions every worker claims and renews through, whatever the
/// worker asks. The organiser's own processes are not bounded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WorkerLimits {
    /// Games a role may hold leased at once, over all its workers (`-j` of each).
    pub max_leases: u64,
    /// The longest lease a claim or a renewal may ask for: a worker silent for longer
    /// loses its games.
    pub max_lease_seconds: u64,
    /// The longest a worker may keep one game, renewals included, from its claim: its
    /// build and the game must fit in it (after it the game goes to another worker).
    pub max_hold_seconds: u64,
}

/// The names the limits are kept under in `server_settings` (unset: the defaults).
pub(crate) const MAX_LEASES_SETTING: &str = "worker_max_leases";
pub(crate) const MAX_LEASE_SETTING: &str = "worker_max_lease_seconds";
pub(crate) const MAX_HOLD_SETTING: &str = "worker_max_hold_seconds";

/// The limits of a store whose organiser set none.
pub const DEFAULT_LIMITS: WorkerLimits = WorkerLimits {
    max_leases: 16,
    max_lease_seconds: 300,
    max_hold_seconds: 3600,
};

impl WorkerLimits {
    /// Refuses limits that would stop every worker or leave a lease unbounded.
    ///
    /// ```
    /// use store::{DEFAULT_LIMITS, WorkerLimits};
    /// assert!(DEFAULT_LIMITS.check().is_ok());
    /// let short_hold = WorkerLimits { max_hold_seconds: 10, ..DEFAULT_LIMITS };
    /// assert!(short_hold.check().unwrap_err().to_string().contains("at least the longest lease"));
    /// ```
    pub fn check(&self) -> Result<()> {
        if !(1..=100_000).contains(&self.max_leases) {
            bail!("--max-leases: 1 to 100000 games held at once per role");
        }
        if !(1..=604_800).contains(&self.max_lease_seconds) {
            bail!("--max-lease: 1 to 604800 seconds");
        }
        if !(self.max_lease_seconds..=2_592_000).contains(&self.max_hold_seconds) {
            bail!(
                "--max-hold: at least the longest lease ({} s) and at most 2592000 seconds",
                self.max_lease_seconds
            );
        }
        Ok(())
    }
}

/// Who this connection acts as, and what bounds it: `challenge_limits()`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WorkerSession {
    /// The role it connected as (`session_user`).
    pub role: String,
    /// Whether that role shares the store owner's rights (the organiser's: no limits,
    /// any worker name).
    pub organiser: bool,
    /// The limits a worker's role is held to.
    pub limits: WorkerLimits,
}

impl WorkerSession {
    /// Whether a worker of this session may use `name`: any name for the organiser's
    /// role; for a worker's role, the role's name or the role's name, `.` and more.
    ///
    /// ```
    /// use store::{DEFAULT_LIMITS, WorkerSession};
    /// let box1 = WorkerSession { role: "box1".into(), organiser: false, limits: DEFAULT_LIMITS };
    /// assert!(box1.may_use("box1") && box1.may_use("box1.gpu-2"));
    /// assert!(!box1.may_use("box2") && !box1.may_use("box10") && !box1.may_use("box1-2"));
    /// ```
    pub fn may_use(&self, name: &str) -> bool {
        self.organiser
            || name == self.role
            || name
                .strip_prefix(self.role.as_str())
                .is_some_and(|rest| rest.starts_with('.'))
    }
}

/// Which leases [`free_leases`] frees.
pub(crate) enum Holder<'a> {
    /// The worker of this name.
    Worker(&'a str),
    /// Every worker of this role (named after it).
    Role(&'a str),
}

/// Frees the leases of the unplayed games `holder` holds (their live rows go too) and
/// marks its workers stopped; returns how many games were freed. Run in the caller's
/// transaction.
pub(crate) fn free_leases(client: &mut impl GenericClient, holder: &Holder<'_>) -> Result<u64> {
    let (name, held) = match holder {
        Holder::Worker(name) => (*name, "lease_worker = $1"),
        Holder::Role(role) => (
            *role,
            "(lease_worker = $1 OR left(lease_worker, length($1) + 1) = $1 || '.')",
        ),
    };
    let by_name = held.replace("lease_worker", "name");
    client.execute(
        &format!(
            "DELETE FROM live_games WHERE slot_id IN (
                 SELECT id FROM slots WHERE game_id IS NULL AND lease_token IS NOT NULL AND {held})"
        ),
        &[&name],
    )?;
    let freed = client.execute(
        &format!(
            "UPDATE slots SET lease_token = NULL, lease_worker = NULL, lease_expires = NULL
             WHERE game_id IS NULL AND lease_token IS NOT NULL AND {held}"
        ),
        &[&name],
    )?;
    client.execute(
        &format!("UPDATE workers SET stopped = COALESCE(stopped, now()) WHERE {by_name}"),
        &[&name],
    )?;
    Ok(freed)
}

/// A worker as it announced itself, with what it is doing now.
#[derive(Debug, Clone, PartialEq)]
pub struct WorkerInfo {
    /// Its name (unique: a worker started again under the same name takes the row over).
    pub name: String,
    /// The machine it runs on.
    pub host: String,
    /// The machine's cores.
    pub cores: u32,
    /// Games it plays at once.
    pub threads: u32,
    /// Its kit version.
    pub kit_version: String,
    /// Seconds since it last reported.
    pub seen_ago: f64,
    /// Its lease in seconds: it reports in every third of it, so one silent for longer
    /// has stopped or lost the store.
    pub lease_seconds: f64,
    /// Seconds it has been running (until it stopped).
    pub running_for: f64,
    /// Whether it said goodbye.
    pub stopped: bool,
    /// The games it holds a live lease on, as `white - black`.
    pub playing: Vec<String>,
    /// Games it stored in all.
    pub games: u64,
    /// Games it stored in the last hour of its run (since it started, if later).
    pub games_last_hour: u64,
}

/// A worker's announcement.
#[derive(Debug, Clone)]
pub struct NewWorker<'a> {
    /// Its name.
    pub name: &'a str,
    /// The machine it runs on.
    pub host: &'a str,
    /// The machine's cores.
    pub cores: u32,
    /// Games it plays at once.
    pub threads: u32,
    /// Its lease (it reports in every third of it).
    pub lease: Duration,
}

impl PostgresStore {
    /// Who this connection acts as and the limits its workers are held to.
    pub fn worker_session(&mut self) -> StoreResult<WorkerSession> {
        let shown = self.shown.clone();
        let row = self
            .client()
            .query_one(
                "SELECT role, organiser, max_leases, max_lease, max_hold FROM challenge_limits()",
                &[],
            )
            .map_err(|err| pg_error(&shown, err))?;
        let seconds = |i: usize| -> StoreResult<u64> {
            let value: f64 = row.try_get(i).map_err(|err| pg_error(&shown, err))?;
            Ok(value.max(0.0) as u64)
        };
        Ok(WorkerSession {
            role: row.try_get(0).map_err(|err| pg_error(&shown, err))?,
            organiser: row.try_get(1).map_err(|err| pg_error(&shown, err))?,
            limits: WorkerLimits {
                max_leases: u64::try_from(
                    row.try_get::<_, i64>(2)
                        .map_err(|err| pg_error(&shown, err))?,
                )
                .unwrap_or(0),
                max_lease_seconds: seconds(3)?,
                max_hold_seconds: seconds(4)?,
            },
        })
    }

    /// Sets the limits every worker's role is held to from its next claim or renewal
    /// (the organiser's credentials only).
    pub fn set_worker_limits(&mut self, limits: &WorkerLimits) -> Result<()> {
        limits.check()?;
        self.require_owner("set the workers' limits")?;
        let mut tx = self.client().transaction()?;
        for (name, value) in [
            (MAX_LEASES_SETTING, limits.max_leases),
            (MAX_LEASE_SETTING, limits.max_lease_seconds),
            (MAX_HOLD_SETTING, limits.max_hold_seconds),
        ] {
            tx.execute(
                "INSERT INTO server_settings (name, value) VALUES ($1, $2)
                 ON CONFLICT (name) DO UPDATE SET value = excluded.value",
                &[&name, &value.to_string()],
            )?;
        }
        tx.commit()?;
        Ok(())
    }

    /// Gives back to the pool every unplayed game the worker `name` holds leased (a worker
    /// stopped, gone or not to be trusted) and marks it stopped; returns how many games
    /// were freed. Should it still be playing one, its result is refused when it comes.
    pub fn free_worker_leases(&mut self, name: &str) -> Result<u64> {
        self.require_owner("free a worker's games")?;
        let mut tx = self.client().transaction()?;
        let freed = free_leases(&mut tx, &Holder::Worker(name))?;
        tx.commit()?;
        Ok(freed)
    }

    /// Announces (or re-announces) a worker under its name.
    pub fn register_worker(&mut self, worker: &NewWorker<'_>) -> StoreResult<()> {
        self.write(|c| {
            c.execute(
                "SELECT challenge_announce(?1, ?2, ?3, ?4, ?5, ?6)",
                params![
                    worker.name,
                    worker.host,
                    worker.cores,
                    worker.threads,
                    KIT_VERSION,
                    worker.lease.as_secs_f64()
                ],
            )
        })?;
        Ok(())
    }

    /// Says a worker is alive.
    pub fn worker_seen(&mut self, name: &str) -> StoreResult<()> {
        self.write(|c| c.execute("SELECT challenge_seen(?1)", params![name]))?;
        Ok(())
    }

    /// Says a worker stopped (on its way out).
    pub fn worker_stopped(&mut self, name: &str) -> StoreResult<()> {
        self.write(|c| c.execute("SELECT challenge_stopped(?1)", params![name]))?;
        Ok(())
    }

    /// Every worker that ever announced itself, by name, with its live leases and games.
    pub fn workers(&mut self) -> StoreResult<Vec<WorkerInfo>> {
        let (mut workers, playing) = self.read(|c| {
            let workers = c.rows(
                "SELECT w.name, w.host, w.cores, w.threads, w.kit_version,
                        EXTRACT(EPOCH FROM now() - w.last_seen)::float8,
                        EXTRACT(EPOCH FROM COALESCE(w.stopped, now()) - w.started)::float8,
                        w.stopped IS NOT NULL,
                        (SELECT COUNT(*) FROM games g WHERE g.worker = w.name),
                        (SELECT COUNT(*) FROM games g WHERE g.worker = w.name
                            AND g.recorded_at >= GREATEST(w.started,
                                COALESCE(w.stopped, now()) - interval '1 hour')),
                        w.lease_seconds
                 FROM workers w ORDER BY w.name",
                &[],
                |r| {
                    Ok(WorkerInfo {
                        name: r.get(0)?,
                        host: r.get(1)?,
                        cores: r.get(2)?,
                        threads: r.get(3)?,
                        kit_version: r.get(4)?,
                        seen_ago: r.get(5)?,
                        running_for: r.get(6)?,
                        stopped: r.get(7)?,
                        games: r.get(8)?,
                        games_last_hour: r.get(9)?,
                        lease_seconds: r.get(10)?,
                        playing: Vec::new(),
                    })
                },
            )?;
            let playing = c.rows(
                "SELECT s.lease_worker, we.name || ' - ' || be.name FROM slots s
                 JOIN entries we ON we.id = s.white_entry
                 JOIN entries be ON be.id = s.black_entry
                 WHERE s.lease_worker IS NOT NULL AND s.game_id IS NULL
                   AND s.lease_expires > now()
                 ORDER BY s.id",
                &[],
                |r| Ok((r.get::<String>(0)?, r.get::<String>(1)?)),
            )?;
            Ok((workers, playing))
        })?;
        for (worker, game) in playing {
            if let Some(w) = workers.iter_mut().find(|w| w.name == worker) {
                w.playing.push(game);
            }
        }
        Ok(workers)
    }
}

//! The workers of a PostgreSQL store: each announces itself, reports in while it plays,
//! and says goodbye; `challenge workers` lists them with what they play.

use std::time::Duration;

use super::PostgresStore;
use crate::KIT_VERSION;
use crate::error::StoreResult;
use crate::sql::{Backend, params};

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

//! The server's shared state: the store, the signing key of CSRF tokens, the rate limit,
//! the live views, the submissions being checked, the bounds and the tournament thread.

use std::collections::HashSet;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, MutexGuard};

use anyhow::Result;

use super::http::PostLimit;
use super::limits::Limits;
use super::live::Live;
use super::queue::BuildQueue;
use super::runner::Runner;
use super::secrets::CsrfKey;
use crate::challenge::store::SqliteStore;

/// Everything the routes share.
pub struct AppState {
    /// The challenge directory.
    pub dir: PathBuf,
    store: Mutex<SqliteStore>,
    /// Signs the forms' CSRF tokens.
    pub csrf: CsrfKey,
    /// The per-address limit on posts.
    pub posts: PostLimit,
    /// The cached views and their change announcements.
    pub live: Live,
    /// Entries with a submission being checked (one at a time per entry).
    pub building: Mutex<HashSet<String>>,
    /// One build at a time on the machine (builds are CPU-heavy); the rest wait, a
    /// bounded number, taking turns fairly across clients.
    pub queue: Arc<BuildQueue>,
    /// The server's time limits and caps.
    pub limits: Limits,
    /// The tournament thread.
    pub runner: Runner,
}

impl AppState {
    /// The state of a server on `store`.
    pub fn new(dir: PathBuf, store: SqliteStore, runner: Runner, limits: Limits) -> AppState {
        AppState {
            dir,
            store: Mutex::new(store),
            csrf: CsrfKey::new(),
            posts: PostLimit::new(),
            live: Live::default(),
            building: Mutex::new(HashSet::new()),
            // As many submissions build at once as this process has build slots.
            queue: BuildQueue::with_builders(
                limits.max_pending_builds,
                limits.max_pending_builds_per_client,
                crate::engine_build::build_jobs(),
            ),
            limits,
            runner,
        }
    }

    /// The store, for one short piece of blocking work (call from `spawn_blocking`).
    pub fn store(&self) -> Result<MutexGuard<'_, SqliteStore>> {
        // A panic while holding the store leaves no transaction open (rusqlite rolls
        // back on drop), so the connection is still good.
        Ok(self.store.lock().unwrap_or_else(|p| p.into_inner()))
    }
}

//! The server's shared state: the store, the signing key of CSRF tokens, the rate limit,
//! the live views, the submissions being checked and the tournament thread.

use std::collections::HashSet;
use std::path::PathBuf;
use std::sync::{Mutex, MutexGuard};

use anyhow::Result;

use super::http::PostLimit;
use super::live::Live;
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
    /// One build at a time on the machine (builds are CPU-heavy; the rest queue).
    pub build_gate: tokio::sync::Semaphore,
    /// The tournament thread.
    pub runner: Runner,
}

impl AppState {
    /// The state of a server on `store`.
    pub fn new(dir: PathBuf, store: SqliteStore, runner: Runner) -> AppState {
        AppState {
            dir,
            store: Mutex::new(store),
            csrf: CsrfKey::new(),
            posts: PostLimit::new(),
            live: Live::default(),
            building: Mutex::new(HashSet::new()),
            build_gate: tokio::sync::Semaphore::new(1),
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

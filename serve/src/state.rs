//! The server's shared state: the store, the signing key of CSRF tokens, the rate limit,
//! the live views, the submissions being checked, the bounds and the tournament thread.

use std::collections::HashSet;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, MutexGuard};

use anyhow::Result;
use axum::extract::State;

use super::http::{HttpError, PostLimit};
use super::limits::Limits;
use super::live::Live;
use super::queue::BuildQueue;
use super::runner::Runner;
use super::secrets::CsrfKey;
use store::SqliteStore;

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
                kit::engine_build::build_jobs(),
            ),
            limits,
            runner,
        }
    }

    /// Rebuilds the live views if the store changed since they were built.
    pub fn refresh_views(&self) -> Result<()> {
        self.live.refresh(|| self.store(), self.runner.state())
    }

    /// The store, for one short piece of blocking work (call from `spawn_blocking`).
    pub fn store(&self) -> Result<MutexGuard<'_, SqliteStore>> {
        // A panic while holding the store leaves no transaction open (rusqlite rolls
        // back on drop), so the connection is still good.
        Ok(self.store.lock().unwrap_or_else(|p| p.into_inner()))
    }
}

/// Shared state as the handlers take it.
pub type Shared = State<Arc<AppState>>;

/// Runs blocking store work off the async threads.
pub async fn blocking<T: Send + 'static>(
    state: &Arc<AppState>,
    work: impl FnOnce(&AppState) -> Result<T, HttpError> + Send + 'static,
) -> Result<T, HttpError> {
    let state = Arc::clone(state);
    tokio::task::spawn_blocking(move || work(&state))
        .await
        .map_err(|err| HttpError::from(anyhow::anyhow!("a request's work failed: {err}")))?
}

/// Keeps the live views up to date until the server stops.
pub async fn keep_views_fresh(state: Arc<AppState>) {
    loop {
        let worker = Arc::clone(&state);
        let outcome = tokio::task::spawn_blocking(move || worker.refresh_views()).await;
        match outcome {
            Ok(Err(err)) => eprintln!("serve: cannot refresh the standings: {err:#}"),
            Err(err) => eprintln!("serve: the standings refresher failed: {err}"),
            Ok(Ok(())) => {}
        }
        state.live.wait_for_change().await;
    }
}

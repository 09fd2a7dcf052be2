//! The server's shared state: the store, the signing key of CSRF tokens, the rate limit,
//! the live views, the submissions being checked, the bounds and the tournament thread.
//!
//! The store is one connection, shared by the requests one at a time (each holds it for
//! a few short queries; the pages everyone reads come from the live views, not from the
//! store). Work that takes long opens a connection of its own: a submission's check holds
//! one for its build, the tournament thread one for the whole tournament. A connection
//! pool would only pay off for many concurrent requests that each need the store, which
//! the views keep from happening; and a PostgreSQL client is not `Sync`, so the shared
//! connection needs its lock either way.

use std::collections::HashSet;
use std::ops::{Deref, DerefMut};
use std::path::PathBuf;
use std::sync::{Arc, Mutex, MutexGuard};

use anyhow::Result;
use axum::extract::State;

use super::conductor::Conductor;
use super::http::{HttpError, PostLimit};
use super::limits::Limits;
use super::queue::BuildQueue;
use super::secrets::CsrfKey;
use super::standings_cache::StandingsCache;
use super::streams::Streams;
use store::{Access, Store, StoreLocation, open_store};

/// Everything the routes share.
pub struct AppState {
    /// Where the challenge's records are (the URL of a PostgreSQL store may hold a
    /// password: never show it; `Store::location` is the printable form).
    pub location: StoreLocation,
    /// Where stored sources are written out to be built: the challenge directory, or this
    /// machine's cache beside a PostgreSQL store.
    pub work_dir: PathBuf,
    store: Mutex<Box<dyn Store + Send>>,
    /// Signs the forms' CSRF tokens.
    pub csrf: CsrfKey,
    /// The per-address limit on posts.
    pub posts: PostLimit,
    /// The cached views and their change announcements.
    pub standings: StandingsCache,
    /// Entries with a submission being checked (one at a time per entry).
    pub building: Mutex<HashSet<String>>,
    /// One build at a time on the machine (builds are CPU-heavy); the rest wait, a
    /// bounded number, taking turns fairly across clients.
    pub queue: Arc<BuildQueue>,
    /// The server's time limits and caps.
    pub limits: Limits,
    /// The event streams' caps and time limits.
    pub streams: Arc<Streams>,
    /// The tournament thread.
    pub conductor: Conductor,
}

impl AppState {
    /// The state of a server on `store`, opened from `location`.
    pub fn new(
        location: StoreLocation,
        work_dir: PathBuf,
        store: Box<dyn Store + Send>,
        conductor: Conductor,
        limits: Limits,
    ) -> AppState {
        AppState {
            location,
            work_dir,
            store: Mutex::new(store),
            csrf: CsrfKey::new(),
            posts: PostLimit::new(),
            standings: StandingsCache::default(),
            building: Mutex::new(HashSet::new()),
            // As many submissions build at once as this process has build slots.
            queue: BuildQueue::new(
                limits.max_pending_builds,
                limits.max_pending_builds_per_client,
                bot_build::build_jobs(),
            ),
            streams: Streams::new(&limits),
            limits,
            conductor,
        }
    }

    /// Rebuilds the live views if the store changed since they were built, and, when
    /// workers play, follows their games in progress.
    pub fn refresh_views(&self) -> Result<()> {
        self.standings
            .refresh(|| self.store(), self.conductor.state())?;
        if !self.conductor.plays_here() {
            self.standings
                .follow_workers(&*self.store()?, self.conductor.games())?;
        }
        Ok(())
    }

    /// The store, for one short piece of blocking work (call from `spawn_blocking`).
    pub fn store(&self) -> Result<StoreGuard<'_>> {
        // A panic while holding the store leaves no transaction open (both backends roll
        // back on drop), so the connection is still good.
        Ok(StoreGuard(
            self.store.lock().unwrap_or_else(|p| p.into_inner()),
        ))
    }

    /// A connection of its own, for long work (a submission's build) that must not hold
    /// the requests' one.
    pub fn open_store(&self, access: Access) -> Result<Box<dyn Store + Send>> {
        Ok(open_store(&self.location, access)?)
    }

    /// Replaces the requests' connection by a new one (the old one was lost: the
    /// database restarted, the network dropped).
    pub fn reconnect(&self) -> Result<()> {
        let fresh = self.open_store(Access::Write)?;
        *self.store.lock().unwrap_or_else(|p| p.into_inner()) = fresh;
        Ok(())
    }
}

/// The requests' store, held for one piece of work.
pub struct StoreGuard<'a>(MutexGuard<'a, Box<dyn Store + Send>>);

impl Deref for StoreGuard<'_> {
    type Target = dyn Store;
    fn deref(&self) -> &(dyn Store + 'static) {
        &**self.0
    }
}

impl DerefMut for StoreGuard<'_> {
    fn deref_mut(&mut self) -> &mut (dyn Store + 'static) {
        &mut **self.0
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

/// Keeps the live views up to date until the server stops; after losing the store (a
/// PostgreSQL server restarted), reconnects the requests' connection.
pub async fn keep_views_fresh(state: Arc<AppState>) {
    loop {
        let worker = Arc::clone(&state);
        let outcome = tokio::task::spawn_blocking(move || worker.refresh_views()).await;
        match outcome {
            Ok(Err(err)) if super::http::is_store_lost(&err) => {
                eprintln!("serve: lost the store ({err:#}); reconnecting");
                reconnect(&state).await;
                continue;
            }
            Ok(Err(err)) => eprintln!("serve: cannot refresh the standings: {err:#}"),
            Err(err) => eprintln!("serve: the standings refresher failed: {err}"),
            Ok(Ok(())) => {}
        }
        state.standings.wait_for_change().await;
    }
}

/// Reconnects the requests' connection, waiting longer after each failure (from half a
/// second up to 30 s, so a database down for long is not hammered nor the log flooded).
async fn reconnect(state: &Arc<AppState>) {
    let mut wait = std::time::Duration::from_millis(500);
    loop {
        tokio::time::sleep(wait).await;
        let worker = Arc::clone(state);
        match tokio::task::spawn_blocking(move || worker.reconnect()).await {
            Ok(Ok(())) => {
                eprintln!("serve: reconnected to the store");
                return;
            }
            Ok(Err(err)) => eprintln!("serve: still cannot reach the store: {err:#}"),
            Err(err) => eprintln!("serve: the reconnection failed: {err}"),
        }
        wait = (wait * 2).min(std::time::Duration::from_secs(30));
    }
}

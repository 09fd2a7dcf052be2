//! `challenge serve`: the challenge in the browser. Entrants submit bots through a form
//! and follow their games; the organiser starts, pauses and resumes the tournament and
//! closes submissions; everyone sees live standings, the crosstable and every game.
//!
//! The server is a view on the same challenge store the command line uses (a challenge
//! directory's SQLite database in WAL mode, with a busy timeout, or a PostgreSQL store),
//! so `challenge submit`, `standings` and `report` keep working beside it. Its own state
//! (switches, the organiser's token hash, entry key hashes, submission jobs) lives in the
//! store too, so a restart loses nothing. On a challenge directory the tournament is
//! played by `challenge run`'s runner in a thread, which resumes an unfinished tournament
//! as `challenge run` does; on a PostgreSQL store `challenge worker`s on any machine play
//! it, the organiser's pause stops their claims, and the server organises it (pairs its
//! Swiss rounds, finishes it: `conductor`).
//!
//! Security, by layers: secrets are 256 random bits stored only as SHA-256 hashes and
//! compared in constant time (`secrets`); every state-changing form carries a CSRF token
//! bound to the browser's cookie and the form; posts are rate-limited per address and
//! request bodies bounded; uploads must be UTF-8 text within the rules' size; every page
//! is rendered with auto-escaping and sent with a Content-Security-Policy that runs only
//! the server's own script; sources stay private until the organiser publishes them; and
//! the server listens on loopback unless told otherwise.
//!
//! No one client can starve the others, without a reverse proxy in front (`limits`):
//! request headers and bodies have time limits (so do idle keep-alive connections),
//! connections are capped per client, per network and in all, event streams have caps of
//! their own that leave half the connections to pages, and end (`streams`); the
//! submission queue is bounded per client and in all, takes clients in turn, and puts
//! networks that used build time lately behind those that did not. A client is an IPv4
//! address or an IPv6 /64 ([`client_key`]), for these caps and for the rate limit on posts
//! alike; its network, for its share of the totals, an IPv4 address or an IPv6 /56.
//! With invitations on, only a code the organiser made enters a new entry.
//!
//! - `secrets`: keys, tokens, hashes, CSRF tokens.
//! - `http`: errors as pages, security headers, cookies, the rate limit.
//! - `pages`: templates and their views.
//! - `standings_cache`: the cached standings, and the change events.
//! - `jobs`: submissions checked in the background; `queue`: their fair, bounded queue.
//! - `accept`: the accept loop: connection caps and time limits.
//! - `streams`: the event streams' caps, lifetime and idle limit.
//! - `limits`: the bounds, and the client key of an address.
//! - `conductor`: who plays: the tournament thread (pausable), or the store's workers while
//!   an organiser thread moves the tournament on.
//! - `watch`, `watch_routes`: the games in progress, shown live (`/live`), and
//!   `challenge match --watch`'s server of them.
//! - `routes`, `entrant`, `organiser_routes`: the routes.
//! - `play`: `challenge play --web`, a game against a bot in the browser (its own server).

mod accept;
mod conductor;
mod entrant;
mod http;
mod jobs;
mod limits;
mod organiser_routes;
mod pages;
mod play;
mod queue;
mod routes;
mod secrets;
mod standings_cache;
mod state;
mod stop_signals;
mod streams;
mod watch;
mod watch_routes;

pub use limits::{
    BODY_TIMEOUT, ClientKey, HEADER_TIMEOUT, Limits, MAX_CONNECTIONS, MAX_CONNECTIONS_PER_CLIENT,
    MAX_CONNECTIONS_PER_NETWORK, MAX_PENDING_BUILDS, MAX_PENDING_BUILDS_PER_CLIENT,
    MAX_STREAMS_PER_CLIENT, RESERVED_FILES, STREAM_IDLE, STREAM_LIFETIME, STREAM_SHARE_DIVISOR,
    client_key, fit_to_open_files, raise_open_file_limit,
};
pub use play::{PlayWebEvent, play_web};
pub use watch::{COALESCE, LiveGames, MAX_WATCHERS_PER_GAME, StandingLine};
pub use watch_routes::{LiveServer, serve_live};

use std::net::SocketAddr;
use std::sync::Arc;

use anyhow::{Context, Result};

use conductor::Conductor;
use secrets::{hash_secret, new_secret};
use state::AppState;
use store::{Access, Store, StoreLocation, open_store};

/// How to serve.
#[derive(Debug, Clone)]
pub struct ServeOptions {
    /// The challenge: a directory (created if needed), or a PostgreSQL store.
    pub location: StoreLocation,
    /// Where to listen; loopback unless the organiser asks for more.
    pub bind: SocketAddr,
    /// The organiser's token to set; `None` keeps the stored one (or makes one at the
    /// first start and prints it).
    pub admin_token: Option<String>,
    /// Tournament games played at once by this server (on a challenge directory; a
    /// PostgreSQL store's games are played by its workers).
    pub concurrency: usize,
    /// Time limits and caps ([`Limits::default`] unless the organiser asks otherwise);
    /// the connection caps are lowered at start to fit the open-file limit.
    pub limits: Limits,
}

/// The organiser's token to print: made at the first start, replaced when one is given.
fn setup_admin_token(store: &mut dyn Store, given: Option<&str>) -> Result<Option<String>> {
    match given {
        Some(token) => {
            anyhow::ensure!(
                token.len() >= 16 && token.bytes().all(|b| b.is_ascii_graphic()),
                "--admin-token must be at least 16 printable characters without spaces"
            );
            store.set_admin_token_hash(&hash_secret(token))?;
            Ok(None)
        }
        None if store.server_state()?.admin_token_hash.is_none() => {
            let token = new_secret();
            store.set_admin_token_hash(&hash_secret(&token))?;
            Ok(Some(token))
        }
        None => Ok(None),
    }
}

/// Serves the challenge until the process is stopped (by Ctrl-C or `SIGTERM`, which end
/// it cleanly, or killed: either way the games in flight are played again at the next
/// start, as with `challenge run`).
pub fn serve(options: &ServeOptions) -> Result<()> {
    pages::check()?;
    let mut store = open_store(&options.location, Access::Create)?;
    let fresh_token = setup_admin_token(store.as_mut(), options.admin_token.as_deref())?;
    // Not the bot's fault: a restart is the server's failure, so these are not refusals.
    let interrupted = store.fail_unfinished_jobs(
        "the server failed: it restarted while this submission was being checked (your submission was not judged; try again)",
    )?;
    if interrupted > 0 {
        eprintln!(
            "serve: {interrupted} submissions interrupted by the last stop were marked failed (not judged)"
        );
    }
    let server = store.server_state()?;
    let (limits, open_files) = fit_limits(options.limits);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .context("cannot start the server's runtime")?;
    let shown = store.location();
    let games = watch::LiveGames::new(limits.max_watchers_per_game, true);
    let state: Arc<AppState> = Arc::new_cyclic(|weak: &std::sync::Weak<AppState>| {
        let weak = weak.clone();
        let (conductor, work_dir) = match &options.location {
            StoreLocation::Dir(dir) => {
                let conductor = Conductor::here(
                    dir,
                    options.concurrency,
                    server.tournament_paused,
                    games,
                    move || {
                        if let Some(state) = weak.upgrade() {
                            state.standings.wake.notify_one();
                        }
                    },
                );
                (conductor, dir.clone())
            }
            StoreLocation::Postgres(_) => {
                let conductor = Conductor::workers(&options.location, games, move || {
                    if let Some(state) = weak.upgrade() {
                        state.standings.wake.notify_one();
                    }
                });
                (conductor, league::local_work_dir())
            }
        };
        AppState::new(options.location.clone(), work_dir, store, conductor, limits)
    });
    // The first views are ready before the first visitor.
    state.refresh_views()?;
    if let Err(err) = organiser_routes::resume(&state) {
        eprintln!("serve: cannot resume the tournament: {}", err.message);
    }
    let served = runtime.block_on(listen(
        Arc::clone(&state),
        options,
        &shown,
        fresh_token,
        open_files,
    ));
    // The runtime drops its tasks, and their share of the state, as it shuts down; the
    // state itself goes after it. A PostgreSQL client runs a runtime of its own to close
    // its connection, which it cannot start inside this one.
    drop(runtime);
    drop(state);
    served
}

/// `limits` fitted to the open-file limit, raised first as far as the system allows.
fn fit_limits(limits: Limits) -> (Limits, limits::OpenFiles) {
    let open_files = limits::raise_open_file_limit();
    (
        limits::fit_to_open_files(limits, open_files.now),
        open_files,
    )
}

/// What the server runs with, as it says at start: its open-file limit, its caps, and
/// how many clients it takes to hold every connection.
fn bounds_line(limits: &Limits, open_files: limits::OpenFiles) -> String {
    let files = if open_files.now > open_files.given {
        format!("{} (raised from {})", open_files.now, open_files.given)
    } else {
        format!(
            "{} (raise `ulimit -n` for more connections)",
            open_files.now
        )
    };
    let (ipv4, ipv6) = limits.fewest_clients_to_fill();
    format!(
        "limits: open files {files}; connections {} in all, {} per client (an IPv4 address or IPv6 /64), {} per IPv6 /56; \
         event streams {} on each of /events, /live/events and the live games, {} per client, each ending after {} s or {} s without news; \
         holding every connection takes {ipv4} IPv4 addresses or {ipv6} IPv6 /56s",
        limits.max_connections,
        limits.max_connections_per_client,
        limits.max_connections_per_network,
        limits.max_streams,
        limits.max_streams_per_client,
        limits.stream_lifetime.as_secs(),
        limits.stream_idle.as_secs(),
    )
}

/// Prints a line on stdout; a closed stdout (the terminal went away) does not stop the
/// server.
fn say(line: &str) {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "{line}").and_then(|()| out.flush());
}

async fn listen(
    state: Arc<AppState>,
    options: &ServeOptions,
    shown: &str,
    fresh_token: Option<String>,
    open_files: limits::OpenFiles,
) -> Result<()> {
    let listener = tokio::net::TcpListener::bind(options.bind)
        .await
        .with_context(|| format!("cannot listen on {}", options.bind))?;
    let address = listener.local_addr()?;
    let signals = stop_signals::StopSignals::listen()?;
    say(&format!(
        "serving the challenge in {shown} on http://{address}/"
    ));
    say(&match fresh_token {
        Some(token) => {
            format!("organiser token (shown once; log in at http://{address}/organiser): {token}")
        }
        None => format!(
            "organiser page: http://{address}/organiser (log in with the organiser token; pass --admin-token to set a new one)"
        ),
    });
    say(&bounds_line(&state.limits, open_files));
    if !state.conductor.plays_here() {
        say(&format!(
            "the tournament is played by workers: {} (pausing here stops their claims); this server pairs its Swiss rounds and finishes it while it runs",
            league::START_A_WORKER
        ));
    }
    if !address.ip().is_loopback() {
        say(
            "warning: listening beyond this machine on plain HTTP: anyone on the network can reach the pages; tokens and keys cross it unencrypted",
        );
    }
    tokio::spawn(state::keep_views_fresh(Arc::clone(&state)));
    tokio::spawn(Arc::clone(state.conductor.games()).relay());
    tokio::spawn(forget_idle_posters(Arc::clone(&state)));
    let app = routes::router(Arc::clone(&state));
    let stopping = Arc::clone(&state);
    accept::serve(listener, app, state.limits, async move {
        let signal = signals.recv().await;
        eprintln!(
            "serve: stopping on {signal} (games in flight are played again at the next start)"
        );
        stopping.conductor.stop();
        stopping.standings.close();
    })
    .await;
    Ok(())
}

/// Now and then forgets the clients the post limit no longer holds back, so its table
/// stays the size of the recent posters however many addresses come by.
async fn forget_idle_posters(state: Arc<AppState>) {
    let mut every = tokio::time::interval(std::time::Duration::from_secs(60));
    loop {
        every.tick().await;
        state.posts.forget_idle();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_server_says_what_it_runs_with() {
        let raised = limits::OpenFiles {
            given: 1024,
            now: 20_000,
        };
        let line = bounds_line(&Limits::default(), raised);
        assert!(
            line.contains("open files 20000 (raised from 1024)"),
            "{line}"
        );
        assert!(
            line.contains("connections 4096 in all, 16 per client"),
            "{line}"
        );
        assert!(
            line.contains("takes 256 IPv4 addresses or 128 IPv6 /56s"),
            "{line}"
        );
        let stuck = limits::OpenFiles {
            given: 1024,
            now: 1024,
        };
        let fitted = limits::fit_to_open_files(Limits::default(), stuck.now);
        let line = bounds_line(&fitted, stuck);
        assert!(line.contains("raise `ulimit -n`"), "{line}");
        assert!(line.contains("connections 768 in all"), "{line}");
        assert!(line.contains("takes 48 IPv4 addresses"), "{line}");
    }
}

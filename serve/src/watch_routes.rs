//! The live pages: the now-playing list (`/live`), a page per game in progress
//! (`/live/{key}`) and their server-sent events. The same routes serve `challenge serve`
//! (inside its router) and `challenge match --watch` (alone, on loopback: [`serve_live`]).

use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::Arc;

use anyhow::{Context, Result};
use axum::Router;
use axum::extract::{ConnectInfo, FromRef, Path, Query, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::middleware;
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::get;
use futures_util::stream::{self, Stream};
use minijinja::context;

use super::http::{HttpError, html_headers, security_headers};
use super::limits::Limits;
use super::pages::{self, Part, STYLE};
use super::streams::{self, Endpoint, Streams};
use super::watch::{LiveGames, Refusal, Watching};

/// The live pages' script (the board itself is `results::BOARD_JS`).
pub const LIVE_SCRIPT: &str = include_str!("static/live.js");

/// The live pages' style.
pub const LIVE_STYLE: &str = include_str!("static/live.css");

/// What the live routes need.
#[derive(Clone)]
pub struct LiveState {
    /// The games in progress.
    pub games: Arc<LiveGames>,
    /// Served alone (`challenge match --watch`): its own layout, no tournament pages.
    pub alone: bool,
    /// The caps and time limits of the event streams.
    pub streams: Arc<Streams>,
}

impl FromRef<Arc<super::state::AppState>> for LiveState {
    fn from_ref(state: &Arc<super::state::AppState>) -> LiveState {
        LiveState {
            games: Arc::clone(state.conductor.games()),
            alone: false,
            streams: Arc::clone(&state.streams),
        }
    }
}

/// The live routes, for a router whose state gives a [`LiveState`].
pub fn routes<S>() -> Router<S>
where
    S: Clone + Send + Sync + 'static,
    LiveState: FromRef<S>,
{
    Router::new()
        .route("/live", get(list))
        .route("/live/events", get(list_events))
        .route("/live/{key}", get(game_page))
        .route("/live/{key}/events", get(game_events))
        .route("/static/live.js", get(script))
        .route("/static/live.css", get(style))
}

fn layout(state: &LiveState) -> &'static str {
    if state.alone {
        "live_layout.html"
    } else {
        "layout.html"
    }
}

async fn list(
    State(state): State<LiveState>,
    Query(part): Query<Part>,
) -> Result<Response, HttpError> {
    let games = state.games.playing();
    let standings = state.games.standings();
    let html = pages::render(
        "live_list_part.html",
        context! { games, standings, cap => state.games.cap() },
    )?;
    if part.wanted() {
        return Ok((html_headers(), html).into_response());
    }
    let body = pages::page(
        "live_list.html",
        "Now playing",
        context! { layout => layout(&state), part => minijinja::Value::from_safe_string(html) },
    )?;
    Ok((html_headers(), body).into_response())
}

fn parse_key(key: &str) -> Result<i64, HttpError> {
    key.parse()
        .map_err(|_| HttpError::bad_request(format!("`{key}` is not a game number")))
}

/// The refusal as the page says it: 503 for a full game, a redirect to a stored one.
fn refused(key: i64, refusal: Refusal) -> Response {
    match refusal {
        Refusal::NotPlaying(Some(stored)) => Redirect::to(&stored).into_response(),
        Refusal::NotPlaying(None) => HttpError::not_found(format!(
            "no game is being played at /live/{key} now; see /live for the games in progress"
        ))
        .into_response(),
        Refusal::Full(cap) => {
            let mut response = HttpError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                format!(
                    "this game already has {cap} watchers, as many as it takes; try again later"
                ),
            )
            .into_response();
            response
                .headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from_static("30"));
            response
        }
    }
}

async fn game_page(
    State(state): State<LiveState>,
    Path(key): Path<String>,
) -> Result<Response, HttpError> {
    let key = parse_key(&key)?;
    // A place is taken by the page's event stream; the page itself is refused when the
    // game has its watchers already, so the visitor reads why.
    let watching = match state.games.watch(key) {
        Ok(watching) => watching,
        Err(refusal) => return Ok(refused(key, refusal)),
    };
    let frame: serde_json::Value = serde_json::from_slice(&watching.newest()).map_err(|err| {
        HttpError::from(anyhow::anyhow!(
            "game {key}'s state does not read back: {err}"
        ))
    })?;
    drop(watching);
    // Named by its players and its place, as its stored game's page names it: the key
    // is only the page's address (a slot's id), never the stored game's number.
    let title = format!(
        "Live: {} – {}",
        frame["white"].as_str().unwrap_or("?"),
        frame["black"].as_str().unwrap_or("?")
    );
    let body = pages::page(
        "live_game.html",
        &title,
        context! { layout => layout(&state), key, frame, events => format!("/live/{key}/events") },
    )?;
    Ok((html_headers(), body).into_response())
}

fn frame_event(frame: &[u8]) -> Event {
    Event::default()
        .event("frame")
        .data(String::from_utf8_lossy(frame))
}

async fn game_events(
    State(state): State<LiveState>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    Path(key): Path<String>,
) -> Result<Response, HttpError> {
    let key = parse_key(&key)?;
    let slot = match state.streams.admit(Endpoint::LiveGame, peer.ip()) {
        Ok(slot) => slot,
        Err(refused) => return Ok(refused.into_response()),
    };
    let watching = match state.games.watch(key) {
        Ok(watching) => watching,
        Err(refusal) => return Ok(refused(key, refusal)),
    };
    Ok(Sse::new(state.streams.bound(frames(watching), slot))
        .keep_alive(KeepAlive::default())
        .into_response())
}

/// A watcher's events: the newest frame now, then each new one; after the game's last
/// frame, the stream ends.
fn frames(mut watching: Watching) -> impl Stream<Item = Result<Event, Infallible>> {
    let first = watching.frames.borrow_and_update().clone();
    let opening = stream::once(async move { Ok(frame_event(&first)) });
    let rest = stream::unfold(Some(watching), |watching| async move {
        let mut watching = watching?;
        if watching.is_closed() {
            let last = watching.newest();
            return Some((Ok(frame_event(&last)), None));
        }
        if watching.frames.changed().await.is_err() {
            return None;
        }
        let frame = if watching.is_closed() {
            watching.newest()
        } else {
            watching.frames.borrow_and_update().clone()
        };
        Some((Ok(frame_event(&frame)), Some(watching)))
    });
    futures_util::StreamExt::chain(opening, rest)
}

async fn list_events(
    State(state): State<LiveState>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
) -> Result<Response, HttpError> {
    let slot = match state.streams.admit(Endpoint::LiveList, peer.ip()) {
        Ok(slot) => slot,
        Err(refused) => return Ok(refused.into_response()),
    };
    let mut changes = state.games.list_changes();
    let opening = streams::missed(&headers, *changes.borrow_and_update());
    let rest = stream::unfold(changes, |mut changes| async move {
        changes.changed().await.ok()?;
        let number = *changes.borrow_and_update();
        Some((Ok(streams::change_event(number)), changes))
    });
    let bounded = state
        .streams
        .bound(futures_util::StreamExt::chain(opening, rest), slot);
    Ok(Sse::new(bounded)
        .keep_alive(KeepAlive::default())
        .into_response())
}

async fn script() -> Response {
    asset("text/javascript; charset=utf-8", LIVE_SCRIPT)
}

async fn style() -> Response {
    asset("text/css; charset=utf-8", LIVE_STYLE)
}

fn asset(content_type: &'static str, body: &'static str) -> Response {
    (
        [
            (header::CONTENT_TYPE, HeaderValue::from_static(content_type)),
            (header::CACHE_CONTROL, HeaderValue::from_static("no-cache")),
        ],
        body,
    )
        .into_response()
}

/// The live view of a local match, served on its own (`challenge match --watch`).
pub struct LiveServer {
    /// Where it listens.
    pub address: SocketAddr,
    /// The games it shows: give it to the match as its watch.
    pub games: Arc<LiveGames>,
}

/// Serves the live pages of `games` alone on `bind` (a loopback address, port 0 for one
/// the system chooses) from a thread of its own until the process ends.
pub fn serve_live(bind: SocketAddr, cap: usize) -> Result<LiveServer> {
    let games = LiveGames::new(cap, false);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .context("cannot start the live view's runtime")?;
    let listener = runtime
        .block_on(tokio::net::TcpListener::bind(bind))
        .with_context(|| format!("cannot listen on {bind}"))?;
    let address = listener.local_addr()?;
    // Every watcher of a local match is on this machine: one client, as many connections
    // and streams as the games' watchers.
    let limits = Limits {
        max_connections_per_client: Limits::default().max_connections,
        max_connections_per_network: Limits::default().max_connections,
        max_streams_per_client: Limits::default().max_streams,
        ..Limits::default()
    };
    let state = LiveState {
        games: Arc::clone(&games),
        alone: true,
        streams: Streams::new(&limits),
    };
    let app = routes()
        .route("/", get(|| async { Redirect::to("/live") }))
        .route(
            "/static/app.css",
            get(|| async { asset("text/css; charset=utf-8", STYLE) }),
        )
        .route(
            "/static/board.css",
            get(|| async { asset("text/css; charset=utf-8", results::BOARD_CSS) }),
        )
        .route(
            "/static/pages.css",
            get(|| async { asset("text/css; charset=utf-8", results::PAGES_CSS) }),
        )
        .route(
            "/static/board.js",
            get(|| async { asset("text/javascript; charset=utf-8", results::BOARD_JS) }),
        )
        .fallback(|| async { HttpError::new(StatusCode::NOT_FOUND, "no such page") })
        .layer(middleware::from_fn(security_headers))
        .with_state(state);
    let relay = Arc::clone(&games);
    std::thread::Builder::new()
        .name("live-view".into())
        .spawn(move || {
            runtime.block_on(async move {
                tokio::spawn(relay.relay());
                super::accept::serve(listener, app, limits, std::future::pending()).await;
            });
        })
        .context("cannot start the live view's thread")?;
    Ok(LiveServer { address, games })
}

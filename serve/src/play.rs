//! `challenge play --web`: a game against a bot in the browser. The server owns the game
//! ([`play::HumanGame`], the same state machine as the terminal's `challenge play`)
//! and the bot's engine, which plays through the runner's host as everywhere else; the
//! page only shows the game and posts the human's moves, which are checked here.
//!
//! Bounds and defences: one game per server; request bodies of at most
//! [`MAX_BODY_BYTES`]; a rate limit on all requests ([`REQUESTS_PER_SECOND`]); the
//! accept loop's connection caps and header time limits; every post carries the page's
//! token in a header (so another site's page cannot post here: a cross-site request with
//! a custom header needs a preflight, which this server never answers); the `Host`
//! header must be the address served (so a rebound DNS name cannot read the page); and
//! the same Content-Security-Policy and headers as `challenge serve`.

mod view;

use std::net::SocketAddr;
use std::num::NonZeroU32;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Instant;

use anyhow::{Context, Result};
use axum::Router;
use axum::extract::{DefaultBodyLimit, Request, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use governor::{DefaultDirectRateLimiter, Quota, RateLimiter};
use play::{HumanGame, Opponent, PlayError, Turn};
use subtle::ConstantTimeEq;

use super::http::security_headers;
use super::limits::Limits;
use super::secrets::new_secret;

/// The most a request's body may have: a move is a few bytes of JSON.
pub const MAX_BODY_BYTES: usize = 1024;
/// Requests per second the server answers (in a burst of twice as many); the page
/// polls four times a second while the bot thinks.
pub const REQUESTS_PER_SECOND: u32 = 20;
/// The header a post carries the page's token in.
pub const TOKEN_HEADER: &str = "x-play-token";

const PAGE: &str = include_str!("templates/play.html");
const SCRIPT: &str = include_str!("static/play.js");
const STYLE: &str = include_str!("static/play.css");

/// What the command line learns from the game: told from the server's threads.
pub enum PlayWebEvent<'a> {
    /// The server listens at this address.
    Listening(SocketAddr),
    /// The game ended (once): the caller saves it. A game still on when the server is
    /// stopped ends there, left by the human, and is told here too.
    Over(&'a HumanGame),
    /// The server was told to stop (Ctrl-C): the game ends once a bot still thinking has
    /// moved.
    Stopping,
}

/// The game and the bot's engine (gone once the game is over and the engine quit).
struct Session {
    game: HumanGame,
    opponent: Option<Opponent>,
}

type Observer = dyn Fn(PlayWebEvent<'_>) + Send + Sync;

/// What every request sees.
struct Shared {
    session: Mutex<Session>,
    /// The state as the page reads it, remade after every change; read without waiting
    /// for a bot that is thinking.
    view: Mutex<Arc<String>>,
    token: String,
    hosts: Vec<String>,
    limiter: DefaultDirectRateLimiter,
    observe: Box<Observer>,
}

/// Serves `game` against `opponent` on `bind` until Ctrl-C (or `SIGTERM`); `observe`
/// hears where it listens and when the game is over, which it is once the server stops:
/// a game still being played is left there, so the caller saves every game.
pub fn play_web(
    bind: SocketAddr,
    mut game: HumanGame,
    opponent: Opponent,
    observe: impl Fn(PlayWebEvent<'_>) + Send + Sync + 'static,
) -> Result<()> {
    game.set_site("browser");
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .context("cannot start the server's runtime")?;
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind(bind)
            .await
            .with_context(|| format!("cannot listen on {bind}"))?;
        let address = listener.local_addr()?;
        let signals = super::stop_signals::StopSignals::listen()?;
        let shared = Arc::new(shared(address, game, opponent, Box::new(observe)));
        (shared.observe)(PlayWebEvent::Listening(address));
        let session = shared
            .session
            .lock()
            .map_err(|_| anyhow::anyhow!("the game was lost to a failure"))?;
        after_change(&shared, session);
        let app = router(Arc::clone(&shared));
        super::accept::serve(listener, app, Limits::default(), async move {
            signals.recv().await;
        })
        .await;
        (shared.observe)(PlayWebEvent::Stopping);
        tokio::task::spawn_blocking(move || leave(&shared))
            .await
            .context("the game could not be ended")
    })
}

/// Ends a game still being played as left by the human (after a bot that is thinking has
/// moved: it holds the session), and tells it as over; a game over already was told.
fn leave(shared: &Shared) {
    // A request that failed while holding the session left the game itself intact.
    let mut session = shared.session.lock().unwrap_or_else(|p| p.into_inner());
    if let Some(opponent) = session.opponent.take() {
        opponent.quit();
        session.game.leave();
        (shared.observe)(PlayWebEvent::Over(&session.game));
    }
}

fn shared(
    address: SocketAddr,
    game: HumanGame,
    opponent: Opponent,
    observe: Box<Observer>,
) -> Shared {
    let quota = Quota::per_second(NonZeroU32::new(REQUESTS_PER_SECOND).expect("nonzero"))
        .allow_burst(NonZeroU32::new(REQUESTS_PER_SECOND * 2).expect("nonzero"));
    let port = address.port();
    let mut hosts = vec![address.to_string(), format!("localhost:{port}")];
    if address.ip().is_unspecified() {
        // Bound to every address: the page may be reached by any of this machine's names.
        hosts.clear();
    }
    Shared {
        session: Mutex::new(Session {
            game,
            opponent: Some(opponent),
        }),
        view: Mutex::new(Arc::new(String::new())),
        token: new_secret(),
        hosts,
        limiter: RateLimiter::direct(quota),
        observe,
    }
}

impl Shared {
    fn lock(&self) -> Result<MutexGuard<'_, Session>, Refused> {
        self.session.lock().map_err(|_| {
            Refused::new(
                StatusCode::INTERNAL_SERVER_ERROR,
                "the game was lost to an earlier failure",
            )
        })
    }
}

fn router(shared: Arc<Shared>) -> Router {
    Router::new()
        .route("/", get(page))
        .route("/state", get(state))
        .route("/move", post(human_move))
        .route("/undo", post(undo))
        .route("/resign", post(resign))
        .route("/game.pgn", get(pgn))
        .route(
            "/static/board.js",
            get(|| async { asset("text/javascript; charset=utf-8", results::BOARD_JS) }),
        )
        .route(
            "/static/board.css",
            get(|| async { asset("text/css; charset=utf-8", results::BOARD_CSS) }),
        )
        .route(
            "/static/play.js",
            get(|| async { asset("text/javascript; charset=utf-8", SCRIPT) }),
        )
        .route(
            "/static/play.css",
            get(|| async { asset("text/css; charset=utf-8", STYLE) }),
        )
        .route("/favicon.ico", get(|| async { StatusCode::NO_CONTENT }))
        .fallback(|| async { Refused::new(StatusCode::NOT_FOUND, "no such page") })
        .layer(DefaultBodyLimit::max(MAX_BODY_BYTES))
        .layer(middleware::from_fn_with_state(shared.clone(), guard))
        .layer(middleware::from_fn(security_headers))
        .with_state(shared)
}

/// A refusal: its status and the reason, as plain text for the page to show.
#[derive(Debug)]
pub struct Refused(StatusCode, String);

impl Refused {
    fn new(status: StatusCode, reason: impl Into<String>) -> Refused {
        Refused(status, reason.into())
    }
}

impl IntoResponse for Refused {
    fn into_response(self) -> Response {
        let content = HeaderValue::from_static("text/plain; charset=utf-8");
        (self.0, [(header::CONTENT_TYPE, content)], self.1).into_response()
    }
}

/// The rate limit, the `Host` check, and the token on posts.
async fn guard(State(shared): State<Arc<Shared>>, request: Request, next: Next) -> Response {
    if shared.limiter.check().is_err() {
        return Refused::new(
            StatusCode::TOO_MANY_REQUESTS,
            "too many requests: slow down",
        )
        .into_response();
    }
    let host = request
        .headers()
        .get(header::HOST)
        .and_then(|h| h.to_str().ok());
    if !shared.hosts.is_empty() && !host.is_some_and(|h| shared.hosts.iter().any(|a| a == h)) {
        return Refused::new(
            StatusCode::MISDIRECTED_REQUEST,
            "this server answers only to its own address",
        )
        .into_response();
    }
    if request.method() == axum::http::Method::POST
        && !token_matches(request.headers(), &shared.token)
    {
        return Refused::new(
            StatusCode::FORBIDDEN,
            "the request does not come from the game's page",
        )
        .into_response();
    }
    next.run(request).await
}

fn token_matches(headers: &HeaderMap, token: &str) -> bool {
    headers
        .get(TOKEN_HEADER)
        .is_some_and(|given| bool::from(given.as_bytes().ct_eq(token.as_bytes())))
}

fn asset(content_type: &'static str, body: &'static str) -> Response {
    let headers = [
        (header::CONTENT_TYPE, HeaderValue::from_static(content_type)),
        (header::CACHE_CONTROL, HeaderValue::from_static("no-cache")),
    ];
    (headers, body).into_response()
}

async fn page(State(shared): State<Arc<Shared>>) -> Result<Response, Refused> {
    let title = {
        let session = shared.lock()?;
        format!("You against {}", session.game.bot_name())
    };
    let body = view::page(PAGE, &title, &shared.token).map_err(|err| {
        Refused::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            format!("cannot show the page: {err:#}"),
        )
    })?;
    Ok((super::http::html_headers(), body).into_response())
}

async fn state(State(shared): State<Arc<Shared>>) -> Response {
    let view = shared
        .view
        .lock()
        .map(|v| Arc::clone(&v))
        .unwrap_or_default();
    json(view.as_str().to_owned())
}

fn json(body: String) -> Response {
    let content = HeaderValue::from_static("application/json");
    ([(header::CONTENT_TYPE, content)], body).into_response()
}

/// The session, unless the bot is thinking (it holds the lock for its whole search).
fn session_now(shared: &Shared) -> Result<MutexGuard<'_, Session>, Refused> {
    match shared.session.try_lock() {
        Ok(session) => Ok(session),
        Err(std::sync::TryLockError::WouldBlock) => Err(Refused::new(
            StatusCode::CONFLICT,
            "Wait: the bot is thinking.",
        )),
        Err(std::sync::TryLockError::Poisoned(_)) => shared.lock(),
    }
}

/// `{"move": "e2e4"}`: the human's move in UCI (`e7e8q` for a promotion).
#[derive(serde::Deserialize)]
struct MoveBody {
    #[serde(rename = "move")]
    uci: String,
}

async fn human_move(State(shared): State<Arc<Shared>>, body: String) -> Result<Response, Refused> {
    let now = Instant::now();
    let text = serde_json::from_str::<MoveBody>(&body)
        .map_err(|err| {
            Refused::new(
                StatusCode::BAD_REQUEST,
                format!("malformed request ({err}): expected {{\"move\": \"e2e4\"}}"),
            )
        })?
        .uci;
    let mut session = session_now(&shared)?;
    let mv = view::parse_move(session.game.board(), &text)
        .map_err(|reason| Refused::new(StatusCode::BAD_REQUEST, reason))?;
    session.game.play(mv, now).map_err(refusal)?;
    Ok(json(after_change(&shared, session)))
}

async fn undo(State(shared): State<Arc<Shared>>) -> Result<Response, Refused> {
    let mut session = session_now(&shared)?;
    session.game.undo(Instant::now()).map_err(refusal)?;
    Ok(json(after_change(&shared, session)))
}

async fn resign(State(shared): State<Arc<Shared>>) -> Result<Response, Refused> {
    let mut session = session_now(&shared)?;
    if session.game.turn() == Turn::Over {
        return Err(refusal(PlayError::Over));
    }
    session.game.resign();
    Ok(json(after_change(&shared, session)))
}

async fn pgn(State(shared): State<Arc<Shared>>) -> Result<Response, Refused> {
    // While the bot thinks the position is the one the page shows: wait for it briefly.
    let text = tokio::task::spawn_blocking(move || shared.lock().map(|s| s.game.pgn_text()))
        .await
        .map_err(|_| {
            Refused::new(
                StatusCode::INTERNAL_SERVER_ERROR,
                "the game could not be read",
            )
        })??;
    let headers = [
        (
            header::CONTENT_TYPE,
            HeaderValue::from_static("application/x-chess-pgn; charset=utf-8"),
        ),
        (
            header::CONTENT_DISPOSITION,
            HeaderValue::from_static("attachment; filename=\"game.pgn\""),
        ),
    ];
    Ok((headers, text).into_response())
}

fn refusal(err: PlayError) -> Refused {
    let status = match err {
        PlayError::Illegal(_) | PlayError::NotAMove(_) | PlayError::NothingToUndo => {
            StatusCode::BAD_REQUEST
        }
        PlayError::NotYourTurn | PlayError::Over => StatusCode::CONFLICT,
    };
    Refused::new(status, err.to_string())
}

/// After the game changed: the page's view remade, the bot asked for its move when it is
/// its turn (on a thread of its own), the end told once. Returns the new view.
fn after_change(shared: &Arc<Shared>, mut session: MutexGuard<'_, Session>) -> String {
    let text = view::state_json(&session.game);
    if let Ok(mut view) = shared.view.lock() {
        *view = Arc::new(text.clone());
    }
    match session.game.turn() {
        Turn::Bot => {
            drop(session);
            let shared = Arc::clone(shared);
            std::thread::spawn(move || bot_turn(&shared));
        }
        Turn::Over => {
            if let Some(opponent) = session.opponent.take() {
                opponent.quit();
                (shared.observe)(PlayWebEvent::Over(&session.game));
            }
        }
        Turn::Human => {}
    }
    text
}

/// The bot's move, holding the session for the search (the page's posts are refused
/// meanwhile with "the bot is thinking"; its reads use the view).
fn bot_turn(shared: &Arc<Shared>) {
    let Ok(mut session) = shared.lock() else {
        return;
    };
    let Session { game, opponent } = &mut *session;
    if let (Turn::Bot, Some(opponent)) = (game.turn(), opponent.as_mut()) {
        // It is the bot's turn, so this cannot be refused.
        let _ = game.bot_move(opponent);
        after_change(shared, session);
    }
}

//! The routes everyone may use: standings, crosstable, entries, games, live events, and
//! the script and style.

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::Arc;

use axum::Router;
use axum::body::Bytes;
use axum::extract::{ConnectInfo, DefaultBodyLimit, Path, Query, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::middleware;
use axum::response::sse::{KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use futures_util::StreamExt;
use futures_util::stream;
use minijinja::context;
use serde::Serialize;

use super::http::{HttpError, html_headers, read_body_in_time, security_headers};
use super::limits::MAX_BODY_BYTES;
use super::pages::{self, Part, SCRIPT, STYLE, page};
use super::standings_cache::Views;
use super::state::{AppState, Shared, blocking};
use super::streams::{self, Endpoint};
use super::{entrant, organiser_routes};
use results::report_game;
use store::prelude::*;
use store::{GameId, Version};

/// Every route, with the security headers on every response.
pub fn router(state: Arc<AppState>) -> Router {
    Router::new()
        .route("/", get(standings))
        .route("/crosstable", get(crosstable))
        .route("/entries/{name}", get(entry))
        .route("/entries/{name}/source", get(source))
        .route("/entries/{name}/withdraw", post(entrant::withdraw))
        .route("/games/{id}", get(game))
        .route("/submit", get(entrant::submit_form).post(entrant::submit))
        .route("/jobs/{id}", get(entrant::job_page))
        .route("/jobs/{id}/status", get(entrant::job_status))
        .route("/organiser", get(organiser_routes::show))
        .route("/organiser/login", post(organiser_routes::login))
        .route("/organiser/invitations", post(organiser_routes::invite))
        .route("/organiser/{action}", post(organiser_routes::act))
        .route("/events", get(events))
        .route("/health", get(health))
        .route("/favicon.ico", get(|| async { StatusCode::NO_CONTENT }))
        .route("/static/app.js", get(script))
        .route("/static/app.css", get(style))
        .route("/static/board.js", get(board_script))
        .route("/static/board.css", get(board_style))
        .route("/static/pages.css", get(pages_style))
        .merge(super::watch_routes::routes())
        .fallback(not_found)
        // Room for a bot file at the rules' limit, pasted or uploaded, and the form.
        .layer(DefaultBodyLimit::max(MAX_BODY_BYTES))
        .layer(middleware::from_fn_with_state(
            state.limits.body_timeout,
            read_body_in_time,
        ))
        .layer(middleware::from_fn(security_headers))
        .with_state(state)
}

async fn standings(
    State(state): Shared,
    Query(part): Query<Part>,
    Query(choice): Query<TournamentChoice>,
) -> Result<Response, HttpError> {
    let views = views_of(&state, &choice).await?;
    Ok(shown(&part, &views.standings_part, &views.standings_page))
}

async fn crosstable(
    State(state): Shared,
    Query(part): Query<Part>,
    Query(choice): Query<TournamentChoice>,
) -> Result<Response, HttpError> {
    let views = views_of(&state, &choice).await?;
    Ok(shown(&part, &views.crosstable_part, &views.crosstable_page))
}

/// The part when only the part was asked for, else the whole page.
fn shown(part: &Part, only: &Bytes, whole: &Bytes) -> Response {
    let body = if part.wanted() { only } else { whole };
    (html_headers(), body.clone()).into_response()
}

/// `?tournament=N`: only that tournament's games in the standings and the crosstable.
#[derive(serde::Deserialize, Default)]
struct TournamentChoice {
    tournament: Option<String>,
}

/// The views of every game, or of the tournament `choice` names (404 for one without
/// games).
async fn views_of(
    state: &Arc<AppState>,
    choice: &TournamentChoice,
) -> Result<Arc<Views>, HttpError> {
    let snapshot = state.standings.snapshot();
    let Some(text) = choice.tournament.as_deref().filter(|t| !t.is_empty()) else {
        return Ok(Arc::clone(&snapshot.all));
    };
    let t: i64 = text
        .parse()
        .map_err(|_| HttpError::bad_request(format!("`{text}` is not a tournament number")))?;
    blocking(state, move |s| {
        snapshot.tournament(t, || s.store())?.ok_or_else(|| {
            let held: Vec<String> = snapshot.tournaments.iter().map(i64::to_string).collect();
            HttpError::not_found(format!(
                "no game of tournament {t} here (tournaments with games: {})",
                if held.is_empty() {
                    "none yet".to_string()
                } else {
                    held.join(", ")
                }
            ))
        })
    })
    .await
}

/// One game in an entry's list.
#[derive(Serialize)]
struct GameLine {
    id: i64,
    /// Its tournament's number (empty for a game of none).
    tournament: String,
    white: String,
    black: String,
    result: String,
    termination: String,
}

/// An entry's versions and games (newest first).
fn entry_view(store: &dyn Store, name: &str) -> Result<(Vec<Version>, Vec<GameLine>), HttpError> {
    let all = store.versions()?;
    let names: HashMap<_, _> = all.iter().map(|v| (v.id, v.player_name())).collect();
    let versions: Vec<Version> = all.into_iter().filter(|v| v.name == name).collect();
    if versions.is_empty() {
        return Err(HttpError::not_found(format!("no entry named `{name}`")));
    }
    let mine: Vec<_> = versions.iter().map(|v| v.id).collect();
    let games = store
        .games(false)?
        .into_iter()
        .rev()
        .filter(|g| mine.contains(&g.white) || mine.contains(&g.black))
        .map(|g| GameLine {
            id: g.id.0,
            tournament: g.tournament.map_or(String::new(), |t| t.0.to_string()),
            white: names.get(&g.white).cloned().unwrap_or_default(),
            black: names.get(&g.black).cloned().unwrap_or_default(),
            result: g.result.as_str().to_string(),
            termination: g.termination.tag().to_string(),
        })
        .collect();
    Ok((versions, games))
}

#[derive(Serialize)]
struct VersionLine {
    number: u32,
    hash: String,
    tokens: u32,
    submitted: String,
    status: String,
}

async fn entry(
    State(state): Shared,
    Path(name): Path<String>,
    Query(part): Query<Part>,
    headers: axum::http::HeaderMap,
) -> Result<Response, HttpError> {
    let lookup = name.clone();
    let (versions, games, published, keyed) = blocking(&state, move |s| {
        let store = s.store()?;
        let (versions, games) = entry_view(&*store, &lookup)?;
        let keyed = store.entry_key_hash(&lookup)?.is_some();
        Ok((
            versions,
            games,
            store.server_state()?.sources_published,
            keyed,
        ))
    })
    .await?;
    let current = versions.last().cloned().expect("an entry has a version");
    let lines: Vec<VersionLine> = versions
        .iter()
        .rev()
        .map(|v| VersionLine {
            number: v.number,
            hash: v.hash.clone(),
            tokens: v.tokens,
            submitted: v.submitted.clone(),
            status: v.status().to_string(),
        })
        .collect();
    let part_html = pages::render(
        "entry_part.html",
        context! { name, games, versions => lines, published },
    )?;
    if part.wanted() {
        return Ok((html_headers(), part_html).into_response());
    }
    let forms = super::http::FormTokens::new(&state.csrf, &headers);
    let withdraw_path = format!("/entries/{name}/withdraw");
    let body = page(
        "entry.html",
        &name,
        context! {
            name,
            author => current.author,
            withdrawn => current.withdrawn,
            keyed,
            withdraw_path,
            csrf => forms.token(&withdraw_path),
            part => minijinja::Value::from_safe_string(part_html),
        },
    )?;
    Ok(forms.page(body))
}

/// `?v=N`: which version's source.
#[derive(serde::Deserialize)]
struct WhichVersion {
    v: Option<u32>,
}

async fn source(
    State(state): Shared,
    Path(name): Path<String>,
    Query(which): Query<WhichVersion>,
) -> Result<Response, HttpError> {
    let lookup = name.clone();
    let (version, text) = blocking(&state, move |s| {
        let store = s.store()?;
        if !store.server_state()?.sources_published {
            return Err(HttpError::forbidden(
                "the sources are private until the organiser publishes them",
            ));
        }
        let versions: Vec<Version> = store
            .versions()?
            .into_iter()
            .filter(|v| v.name == lookup)
            .collect();
        let version = match which.v {
            Some(n) => versions.into_iter().find(|v| v.number == n),
            None => versions.into_iter().last(),
        }
        .ok_or_else(|| HttpError::not_found(format!("no such version of `{lookup}`")))?;
        let text = store.source(version.id)?;
        Ok((version, text))
    })
    .await?;
    let title = format!("{} v{}", name, version.number);
    let body = page(
        "source.html",
        &title,
        context! { name, version => version.number, text },
    )?;
    Ok((html_headers(), body).into_response())
}

async fn game(State(state): Shared, Path(id): Path<String>) -> Result<Response, HttpError> {
    let id: i64 = id
        .parse()
        .map_err(|_| HttpError::bad_request(format!("`{id}` is not a game number")))?;
    let stored = blocking(&state, move |s| Ok(s.store()?.game(GameId(id))?)).await?;
    let stored = stored.ok_or_else(|| HttpError::not_found(format!("no game {id}")))?;
    let game = report_game(id, &stored.pgn, &stored.detail)
        .ok_or_else(|| HttpError::from(anyhow::anyhow!("game {id}'s PGN does not read back")))?;
    let white_entry = entry_of(&game.white);
    let black_entry = entry_of(&game.black);
    let title = format!("Game {id}: {} - {}", game.white, game.black);
    // The kit drew the graph and escaped its text: the template places it as markup.
    let eval_svg = game.eval_svg.clone();
    let body = page(
        "game.html",
        &title,
        context! { game, white_entry, black_entry, eval_svg },
    )?;
    Ok((html_headers(), body).into_response())
}

/// The entry a player name belongs to (`alice v2` → `alice`).
fn entry_of(player: &str) -> String {
    match player.rsplit_once(" v") {
        Some((entry, number)) if number.parse::<u32>().is_ok() => entry.to_string(),
        _ => player.to_string(),
    }
}

async fn events(
    State(state): Shared,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: axum::http::HeaderMap,
) -> Result<Response, HttpError> {
    let slot = match state.streams.admit(Endpoint::Events, peer.ip()) {
        Ok(slot) => slot,
        Err(refused) => return Ok(refused.into_response()),
    };
    let receiver = state.standings.listen();
    let closing = state.standings.closing();
    let opening = streams::missed(&headers, state.standings.newest_change());
    let changes = stream::unfold(
        (receiver, closing),
        |(mut receiver, mut closing)| async move {
            loop {
                let received = tokio::select! {
                    received = receiver.recv() => received,
                    _ = closing.wait_for(|closed| *closed) => return None,
                };
                match received {
                    Ok(number) => {
                        let event = streams::change_event(number);
                        return Some((Ok(event), (receiver, closing)));
                    }
                    // A slow listener missed changes: one event covers them all.
                    Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => continue,
                    Err(tokio::sync::broadcast::error::RecvError::Closed) => return None,
                }
            }
        },
    );
    let bounded = state.streams.bound(opening.chain(changes), slot);
    Ok(Sse::new(bounded)
        .keep_alive(KeepAlive::default())
        .into_response())
}

async fn health() -> &'static str {
    "ok"
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

async fn script() -> Response {
    asset("text/javascript; charset=utf-8", SCRIPT)
}

async fn style() -> Response {
    asset("text/css; charset=utf-8", STYLE)
}

async fn board_script() -> Response {
    asset("text/javascript; charset=utf-8", results::BOARD_JS)
}

async fn board_style() -> Response {
    asset("text/css; charset=utf-8", results::BOARD_CSS)
}

async fn pages_style() -> Response {
    asset("text/css; charset=utf-8", results::PAGES_CSS)
}

async fn not_found() -> HttpError {
    HttpError::new(StatusCode::NOT_FOUND, "no such page")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn players_belong_to_their_entries() {
        assert_eq!(entry_of("alice"), "alice");
        assert_eq!(entry_of("alice v2"), "alice");
        assert_eq!(entry_of("bob vx"), "bob vx");
        assert_eq!(entry_of("a v1 v3"), "a v1");
    }

    #[test]
    fn every_template_parses_and_escapes_what_it_shows() {
        pages::check().unwrap();
        let html = pages::error_page(StatusCode::NOT_FOUND, "<script>x</script>");
        assert!(
            html.contains("&lt;script&gt;x&lt;&#x2f;script&gt;"),
            "{html}"
        );
        assert!(!html.contains("<script>x"), "{html}");
    }
}

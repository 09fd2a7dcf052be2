//! The organiser's routes: log in with the organiser's token, start the tournament, pause
//! and resume it, close submissions, publish the sources, and ask new entries for an
//! invitation code (made and revoked here).

use std::collections::HashMap;
use std::net::SocketAddr;
use std::time::Duration;

use axum::extract::{ConnectInfo, Form, Path, State};
use axum::http::{HeaderMap, header};
use axum::response::{IntoResponse, Response};
use minijinja::context;
use runner::{GameSettings, TimeControl};

use super::http::{ADMIN_COOKIE, FormTokens, HttpError, check_csrf, cookie, see_other, set_cookie};
use super::pages::page;
use super::secrets::{hash_secret, new_secret, secret_matches};
use super::state::{AppState, Shared, blocking};
use league::{RunOptions, schedule_tournament};
use store::{ServerFlag, TournamentFormat};

/// The actions of the organiser's page, each a form posting to `/organiser/<action>`.
const ACTIONS: [&str; 10] = [
    "start",
    "pause",
    "resume",
    "close",
    "open",
    "publish",
    "unpublish",
    "invitations-on",
    "invitations-off",
    "revoke",
];

/// Where the organiser makes invitation codes (its answer shows the new code, once).
const INVITE_PATH: &str = "/organiser/invitations";

/// Whether the browser holds the organiser's token (checked in constant time).
fn is_organiser(state: &AppState, headers: &HeaderMap) -> Result<bool, HttpError> {
    let Some(given) = cookie(headers, ADMIN_COOKIE) else {
        return Ok(false);
    };
    let stored = state.store()?.server_state()?.admin_token_hash;
    Ok(stored.is_some_and(|hash| secret_matches(&given, &hash)))
}

pub(super) async fn show(state: Shared, headers: HeaderMap) -> Result<Response, HttpError> {
    let check = headers.clone();
    let (organiser, server, invitations) = blocking(&state, move |s| {
        let organiser = is_organiser(s, &check)?;
        let store = s.store()?;
        // The codes' hashes are the organiser's to see, no one else's.
        let invitations = if organiser {
            store.invitations()?
        } else {
            Vec::new()
        };
        Ok((organiser, store.server_state()?, invitations))
    })
    .await?;
    let forms = FormTokens::new(&state.csrf, &headers);
    let tokens: HashMap<&str, String> = ACTIONS
        .iter()
        .map(|a| (*a, forms.token(&format!("/organiser/{a}"))))
        .collect();
    let snapshot = state.standings.snapshot();
    let body = page(
        "admin.html",
        "Organiser",
        context! {
            organiser,
            login_csrf => forms.token("/organiser/login"),
            invite_csrf => forms.token(INVITE_PATH),
            tokens,
            invitations => invitations
                .iter()
                .map(|(hash, uses)| context! { hash, shown => &hash[..12.min(hash.len())], uses })
                .collect::<Vec<_>>(),
            server => context! {
                submissions_closed => server.submissions_closed,
                tournament_paused => server.tournament_paused,
                sources_published => server.sources_published,
                invitations_required => server.invitations_required,
            },
            status => snapshot.status.clone(),
        },
    )?;
    Ok(forms.page(body))
}

pub(super) async fn login(
    State(state): Shared,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    Form(form): Form<HashMap<String, String>>,
) -> Result<Response, HttpError> {
    state.posts.check(peer.ip())?;
    check_csrf(
        &state.csrf,
        &headers,
        "/organiser/login",
        form.get("csrf").map(String::as_str),
    )?;
    let token = form
        .get("token")
        .map(|t| t.trim().to_string())
        .unwrap_or_default();
    let given = token.clone();
    let good = blocking(&state, move |s| {
        let stored = s.store()?.server_state()?.admin_token_hash;
        Ok(stored.is_some_and(|hash| secret_matches(&given, &hash)))
    })
    .await?;
    if !good || token.is_empty() || !token.bytes().all(|b| b.is_ascii_graphic()) {
        return Err(HttpError::forbidden("that is not the organiser's token"));
    }
    let mut response = see_other("/organiser");
    response
        .headers_mut()
        .insert(header::SET_COOKIE, set_cookie(ADMIN_COOKIE, &token));
    Ok(response)
}

pub(super) async fn act(
    State(state): Shared,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    Path(action): Path<String>,
    headers: HeaderMap,
    Form(form): Form<HashMap<String, String>>,
) -> Result<Response, HttpError> {
    state.posts.check(peer.ip())?;
    if !ACTIONS.contains(&action.as_str()) {
        return Err(HttpError::not_found(format!(
            "no organiser action `{action}`"
        )));
    }
    check_csrf(
        &state.csrf,
        &headers,
        &format!("/organiser/{action}"),
        form.get("csrf").map(String::as_str),
    )?;
    blocking(&state, move |s| {
        if !is_organiser(s, &headers)? {
            return Err(HttpError::forbidden(
                "only the organiser can do this: log in with the organiser's token first",
            ));
        }
        apply(s, &action, &form)?;
        // The page the organiser sees next shows the change.
        Ok(s.refresh_views()?)
    })
    .await?;
    Ok(see_other("/organiser").into_response())
}

fn apply(state: &AppState, action: &str, form: &HashMap<String, String>) -> Result<(), HttpError> {
    let flag = |flag: ServerFlag, on: bool| -> Result<(), HttpError> {
        Ok(state.store()?.set_server_flag(flag, on)?)
    };
    match action {
        "start" => start(state, form),
        // The stored switch stops workers' claims; the conductor's, this server's.
        "pause" => {
            flag(ServerFlag::TournamentPaused, true)?;
            state.conductor.set_paused(true);
            Ok(())
        }
        "resume" => {
            flag(ServerFlag::TournamentPaused, false)?;
            state.conductor.set_paused(false);
            resume(state)
        }
        "close" => flag(ServerFlag::SubmissionsClosed, true),
        "open" => flag(ServerFlag::SubmissionsClosed, false),
        "publish" => flag(ServerFlag::SourcesPublished, true),
        "unpublish" => flag(ServerFlag::SourcesPublished, false),
        "invitations-on" => flag(ServerFlag::InvitationsRequired, true),
        "invitations-off" => flag(ServerFlag::InvitationsRequired, false),
        "revoke" => {
            let hash = form
                .get("invitation")
                .map(String::as_str)
                .unwrap_or_default();
            if !state.store()?.revoke_invitation(hash)? {
                return Err(HttpError::not_found(
                    "no such invitation code (revoked already?)",
                ));
            }
            Ok(())
        }
        _ => Err(HttpError::not_found(format!(
            "no organiser action `{action}`"
        ))),
    }
}

/// Makes an invitation code good for the form's `uses` new entries (1 to 1000) and shows
/// it, once: only its hash is kept.
pub(super) async fn invite(
    State(state): Shared,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    Form(form): Form<HashMap<String, String>>,
) -> Result<Response, HttpError> {
    state.posts.check(peer.ip())?;
    check_csrf(
        &state.csrf,
        &headers,
        INVITE_PATH,
        form.get("csrf").map(String::as_str),
    )?;
    let uses = match form.get("uses").map(|u| u.trim()).unwrap_or_default() {
        "" => 1,
        text => text
            .parse::<u32>()
            .ok()
            .filter(|n| (1..=1000).contains(n))
            .ok_or_else(|| HttpError::bad_request("uses must be a number from 1 to 1000"))?,
    };
    let code = new_secret();
    let hash = hash_secret(&code);
    blocking(&state, move |s| {
        if !is_organiser(s, &headers)? {
            return Err(HttpError::forbidden(
                "only the organiser can do this: log in with the organiser's token first",
            ));
        }
        Ok(s.store()?.add_invitation(&hash, uses)?)
    })
    .await?;
    let body = page(
        "invitation.html",
        "Invitation code",
        context! { code, uses },
    )?;
    Ok((super::http::html_headers(), body).into_response())
}

/// Starts a new tournament with the form's settings (when the last one is finished).
fn start(state: &AppState, form: &HashMap<String, String>) -> Result<(), HttpError> {
    let field = |name: &str| form.get(name).map(|v| v.trim()).unwrap_or_default();
    let format: TournamentFormat = field("format")
        .parse()
        .map_err(|e: String| HttpError::bad_request(e))?;
    let count = |name: &str, default: u32| -> Result<u32, HttpError> {
        match field(name) {
            "" => Ok(default),
            text => text
                .parse::<u32>()
                .ok()
                .filter(|n| (1..=1000).contains(n))
                .ok_or_else(|| HttpError::bad_request(format!("{name} must be 1 to 1000"))),
        }
    };
    let tc = time_control(field("tc"))?;
    let confirm_claims = field("confirm_claims") == "on";
    if confirm_claims && state.conductor.plays_here() {
        return Err(HttpError::bad_request(
            "claims are confirmed by a second worker: a challenge directory has one player (use a PostgreSQL store and workers of two roles or more)",
        ));
    }
    // One hold of the store from the check to the schedule, so two starts at once cannot
    // both find no tournament and make two (workers: the schedule is made here).
    let mut store = state.store()?;
    if store.unfinished_tournament()?.is_some() {
        return Err(HttpError::new(
            axum::http::StatusCode::CONFLICT,
            "a tournament is under way: resume it (it keeps its settings) or wait for it to finish",
        ));
    }
    if store.field()?.len() < 2 {
        return Err(HttpError::bad_request(
            "a tournament needs at least two entries",
        ));
    }
    store.set_server_flag(ServerFlag::TournamentPaused, false)?;
    state.conductor.set_paused(false);
    let options = RunOptions {
        format,
        pairs: count("pairs", 1)?,
        rounds: count("rounds", 5)?,
        tc,
        openings: None,
        plies: 8,
        concurrency: 1,
        max_games: None,
        new: true,
        settings: GameSettings::default(),
        confirm_claims,
        public_stderr: field("public_stderr") == "on",
    };
    if state.conductor.plays_here() {
        // The thread schedules on its own connection: let go of the shared one.
        drop(store);
        return start_runner(state, options);
    }
    // Workers play it: the schedule in the store is all they need. The server's log
    // shows what the kit reports.
    schedule_tournament(&mut *store, &options, &|event| eprintln!("{event}"))
        .map_err(anyhow::Error::from)?;
    Ok(())
}

fn start_runner(state: &AppState, options: RunOptions) -> Result<(), HttpError> {
    state
        .conductor
        .start(options)
        .map_err(|err| HttpError::new(axum::http::StatusCode::CONFLICT, format!("{err:#}")))
}

/// Restarts the thread on the unfinished tournament if none is playing it (workers
/// need nothing: they see the switch).
pub fn resume(state: &AppState) -> Result<(), HttpError> {
    if !state.conductor.plays_here() || state.store()?.unfinished_tournament()?.is_none() {
        return Ok(());
    }
    if state.conductor.state() == super::conductor::ConductorState::Running {
        return Ok(());
    }
    let options = RunOptions {
        format: TournamentFormat::RoundRobin,
        pairs: 1,
        rounds: 1,
        tc: TimeControl::default(),
        openings: None,
        plies: 8,
        concurrency: 1,
        max_games: None,
        new: false,
        settings: GameSettings::default(),
        confirm_claims: false,
        public_stderr: false,
    };
    start_runner(state, options)
}

/// `10+0.1` (seconds + increment) or `0.1/move`, at most an hour.
fn time_control(text: &str) -> Result<TimeControl, HttpError> {
    let bad = || {
        HttpError::bad_request(format!(
            "`{text}` is not a time control: write seconds+increment (`10+0.1`) or seconds per move (`0.2/move`), at most 3600 seconds"
        ))
    };
    let seconds = |s: &str| -> Result<Duration, HttpError> {
        s.trim()
            .parse::<f64>()
            .ok()
            .filter(|v| v.is_finite() && *v >= 0.0 && *v <= 3600.0)
            .map(Duration::from_secs_f64)
            .ok_or_else(bad)
    };
    if text.is_empty() {
        return Ok(TimeControl::clock(
            Duration::from_secs(10),
            Duration::from_millis(100),
        ));
    }
    if let Some(per_move) = text.strip_suffix("/move") {
        let per_move = seconds(per_move)?;
        if per_move.is_zero() {
            return Err(bad());
        }
        return Ok(TimeControl::movetime(per_move));
    }
    let (base, increment) = text.split_once('+').unwrap_or((text, "0"));
    let base = seconds(base)?;
    if base.is_zero() {
        return Err(bad());
    }
    Ok(TimeControl::clock(base, seconds(increment)?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_controls_are_read_as_the_form_says_and_bounded() {
        assert_eq!(
            time_control("10+0.1").unwrap(),
            TimeControl::clock(Duration::from_secs(10), Duration::from_millis(100))
        );
        assert_eq!(
            time_control("0.05/move").unwrap(),
            TimeControl::movetime(Duration::from_millis(50))
        );
        assert_eq!(time_control("").unwrap(), time_control("10+0.1").unwrap());
        for bad in ["fast", "0+1", "0/move", "-1+0", "1e9+0", "NaN/move", "5+x"] {
            let err = time_control(bad).unwrap_err();
            assert_eq!(err.status, axum::http::StatusCode::BAD_REQUEST, "{bad}");
            assert!(err.message.contains("not a time control"), "{bad}");
        }
    }
}

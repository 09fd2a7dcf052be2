//! The entrants' routes: the submission form, its background job, and withdrawing.

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::Arc;

use axum::Json;
use axum::extract::{ConnectInfo, Form, Multipart, Path};
use axum::http::HeaderMap;
use axum::response::Response;
use minijinja::context;

use super::http::{FormTokens, HttpError, check_csrf, see_other};
use super::jobs::{self, Upload};
use super::limits::{MAX_SOURCE_BYTES, client_key};
use super::pages::page;
use super::secrets::secret_matches;
use super::state::{Shared, blocking};
use store::Job;

const SUBMIT_PATH: &str = "/submit";

pub(super) async fn submit_form(
    axum::extract::State(state): Shared,
    headers: HeaderMap,
) -> Result<Response, HttpError> {
    let server = blocking(&state, |s| Ok(s.store()?.server_state()?)).await?;
    let forms = FormTokens::new(&state.csrf, &headers);
    let body = page(
        "submit.html",
        "Submit a bot",
        context! {
            csrf => forms.token(SUBMIT_PATH),
            closed => server.submissions_closed,
            invitations => server.invitations_required,
            max_bytes => MAX_SOURCE_BYTES,
            limit => token_counter::LIMIT,
        },
    )?;
    Ok(forms.page(body))
}

/// The fields of the submission form.
async fn read_form(mut form: Multipart) -> Result<(HashMap<String, String>, Upload), HttpError> {
    let mut fields = HashMap::new();
    let mut upload = Upload::default();
    let mut file: Option<Vec<u8>> = None;
    while let Some(field) = form.next_field().await.map_err(multipart_error)? {
        let name = field.name().unwrap_or_default().to_string();
        if name == "file" {
            let file_name = field.file_name().unwrap_or_default().to_string();
            let bytes = field.bytes().await.map_err(multipart_error)?;
            if !bytes.is_empty() {
                upload.file_name = file_name.chars().take(100).collect();
                file = Some(bytes.to_vec());
            }
        } else {
            let text = field.text().await.map_err(multipart_error)?;
            fields.insert(name, text);
        }
    }
    let pasted = fields.remove("source").unwrap_or_default();
    let bytes = match file {
        Some(bytes) => bytes,
        None => {
            upload.file_name = "pasted source".into();
            pasted.into_bytes()
        }
    };
    upload.source = jobs::source_text(bytes)?;
    upload.name = fields
        .get("name")
        .map(|n| n.trim().to_string())
        .unwrap_or_default();
    upload.author = fields
        .get("author")
        .map(|a| a.trim().to_string())
        .filter(|a| !a.is_empty());
    let secret = |name: &str| {
        fields
            .get(name)
            .map(|k| k.trim().to_string())
            .filter(|k| !k.is_empty())
    };
    upload.key = secret("key");
    upload.invitation = secret("invitation");
    Ok((fields, upload))
}

fn multipart_error(err: axum::extract::multipart::MultipartError) -> HttpError {
    HttpError::new(
        err.status(),
        format!("the form could not be read: {}", err.body_text()),
    )
}

pub(super) async fn submit(
    axum::extract::State(state): Shared,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    form: Multipart,
) -> Result<Response, HttpError> {
    state.posts.check(peer.ip())?;
    let (fields, upload) = read_form(form).await?;
    check_csrf(
        &state.csrf,
        &headers,
        SUBMIT_PATH,
        fields.get("csrf").map(String::as_str),
    )?;
    let checked = upload.clone();
    let client = client_key(peer.ip());
    let received = blocking(&state, move |s| jobs::receive(s, &checked, client)).await?;
    let job = received.job.clone();
    let key = received.key.clone();
    tokio::spawn(jobs::run(Arc::clone(&state), received, upload));
    // A new entry gets a key; one without is a new version of an entry that exists.
    let view = job_view(&job, key.is_none());
    let body = page(
        "job.html",
        "Submission received",
        context! { job => view, key },
    )?;
    let forms = FormTokens::new(&state.csrf, &headers);
    Ok(forms.page(body))
}

#[derive(serde::Serialize)]
pub(super) struct JobView {
    id: String,
    entry: String,
    /// The entry has a page to link to: it existed already, or this job was accepted (a
    /// refused first submission makes no entry, and its page would be a 404).
    linked: bool,
    state: &'static str,
    message: String,
    done: bool,
}

/// The job as its page shows it; `exists`: the entry was there before it.
fn job_view(job: &Job, exists: bool) -> JobView {
    JobView {
        id: job.id.clone(),
        entry: job.entry.clone(),
        linked: exists || job.state == store::JobState::Accepted,
        state: job.state.as_str(),
        message: job.message.clone(),
        done: job.state.is_final(),
    }
}

async fn find_job(state: &Shared, id: String) -> Result<Job, HttpError> {
    blocking(state, move |s| {
        s.store()?
            .job(&id)?
            .ok_or_else(|| HttpError::not_found("no such submission"))
    })
    .await
}

pub(super) async fn job_page(state: Shared, Path(id): Path<String>) -> Result<Response, HttpError> {
    let job = find_job(&state, id).await?;
    let entry = job.entry.clone();
    let exists = blocking(&state, move |s| {
        Ok(s.store()?.versions()?.iter().any(|v| v.name == entry))
    })
    .await?;
    let body = page(
        "job.html",
        "Submission",
        context! { job => job_view(&job, exists) },
    )?;
    Ok(axum::response::IntoResponse::into_response((
        super::http::html_headers(),
        body,
    )))
}

pub(super) async fn job_status(
    state: Shared,
    Path(id): Path<String>,
) -> Result<Json<JobView>, HttpError> {
    let job = find_job(&state, id).await?;
    Ok(Json(job_view(&job, false)))
}

pub(super) async fn withdraw(
    axum::extract::State(state): Shared,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    Path(name): Path<String>,
    headers: HeaderMap,
    Form(form): Form<HashMap<String, String>>,
) -> Result<Response, HttpError> {
    state.posts.check(peer.ip())?;
    league::check_name(&name)
        .map_err(|_| HttpError::not_found(format!("no entry named `{name}`")))?;
    let path = format!("/entries/{name}/withdraw");
    check_csrf(
        &state.csrf,
        &headers,
        &path,
        form.get("csrf").map(String::as_str),
    )?;
    let key = form.get("key").cloned().unwrap_or_default();
    let entry = name.clone();
    blocking(&state, move |s| {
        let mut store = s.store()?;
        let Some(hash) = store.entry_key_hash(&entry)? else {
            return Err(HttpError::forbidden(format!(
                "`{entry}` has no entry key (it does not exist, or the organiser entered it on the host)"
            )));
        };
        if !secret_matches(&key, &hash) {
            return Err(HttpError::forbidden(format!(
                "refused: this is not the entry key of `{entry}`"
            )));
        }
        store.withdraw(&entry)?;
        Ok(())
    })
    .await?;
    state.standings.wake.notify_one();
    Ok(see_other(&format!("/entries/{name}")))
}

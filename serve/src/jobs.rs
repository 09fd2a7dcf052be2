//! Submissions through the server: the upload is checked at the door (size, text, the
//! entry's key, one submission at a time per entry), then `challenge submit`'s own check
//! (rules, tokens, build, smoke test) runs in the background, one build at a time, with
//! its progress and its exact refusal reason stored in the job. The queue of submissions
//! waiting for the builder is bounded per client and in all, and fair across clients
//! (`queue`).

use std::sync::Arc;

use axum::http::StatusCode;

use super::http::HttpError;
use super::limits::{BUILD_RETRY_AFTER, ClientKey, MAX_SOURCE_BYTES};
use super::queue::{Displaced, Ticket};
use super::secrets::{hash_secret, new_secret, secret_matches};
use super::state::AppState;
use league::{Submission, SubmitError, check_name, submit_to};
use store::{Access, Job, JobState, Submitted};

/// A submission as received.
#[derive(Debug, Clone, Default)]
pub struct Upload {
    /// The entry's name.
    pub name: String,
    /// Its author, if given.
    pub author: Option<String>,
    /// The entry's key, for a new version of an existing entry.
    pub key: Option<String>,
    /// The organiser's invitation code, for a new entry while invitations are required.
    pub invitation: Option<String>,
    /// The bot source.
    pub source: String,
    /// The file name it came from, for messages.
    pub file_name: String,
}

/// What the entrant is told when the submission is queued, and its place in the queue.
#[derive(Debug)]
pub struct Received {
    /// The job to follow.
    pub job: Job,
    /// The new entry's key, shown once (`None` for a new version of an existing entry).
    pub key: Option<String>,
    /// The submission's place in the build queue.
    pub ticket: Ticket,
    /// The hash of the invitation code whose use it took: given back if it is refused.
    pub invitation: Option<String>,
}

/// A bot file's bytes as text: refused (413) above the rules' size, (415) when they are
/// not UTF-8 text.
pub fn source_text(bytes: Vec<u8>) -> Result<String, HttpError> {
    if bytes.len() > MAX_SOURCE_BYTES {
        return Err(HttpError::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!(
                "refused: the file has {} bytes; the rules allow at most {MAX_SOURCE_BYTES} (256 KiB)",
                bytes.len()
            ),
        ));
    }
    let text = String::from_utf8(bytes).map_err(|err| {
        // Where, as `docs/rules.md` says it: line and column, from 1.
        let valid = std::str::from_utf8(&err.as_bytes()[..err.utf8_error().valid_up_to()])
            .unwrap_or_default();
        let line_start = valid.rfind('\n').map_or(0, |n| n + 1);
        HttpError::new(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            format!(
                "refused: the file is not UTF-8 text (line {} column {}); bot files are Rust source",
                valid.matches('\n').count() + 1,
                valid[line_start..].chars().count() + 1
            ),
        )
    })?;
    if let Some(at) = text.find(|c: char| c.is_control() && !matches!(c, '\n' | '\r' | '\t')) {
        return Err(HttpError::new(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            format!(
                "refused: the file holds a control character at byte {at}; bot files are Rust source text"
            ),
        ));
    }
    if text.trim().is_empty() {
        return Err(HttpError::bad_request(
            "refused: no bot file: choose a file or paste the source",
        ));
    }
    Ok(text)
}

/// Checks a submission from `client` at the door and queues it (blocking: call from
/// `spawn_blocking`). A full queue is refused with 503 and `Retry-After`, naming whose
/// submissions fill it.
pub fn receive(
    state: &AppState,
    upload: &Upload,
    client: ClientKey,
) -> Result<Received, HttpError> {
    check_name(&upload.name).map_err(|refusal| HttpError::bad_request(refusal.for_entrant()))?;
    if let Some(author) = &upload.author
        && (author.chars().count() > 80 || author.chars().any(char::is_control))
    {
        return Err(HttpError::bad_request(
            "refused: the author must be at most 80 characters, without control characters",
        ));
    }
    let mut store = state.store()?;
    let server = store.server_state()?;
    if server.submissions_closed {
        return Err(HttpError::forbidden(
            "submissions are closed: the organiser is no longer taking entries",
        ));
    }
    let exists = store.versions()?.iter().any(|v| v.name == upload.name);
    let key = match (exists, store.entry_key_hash(&upload.name)?) {
        (true, Some(hash)) => {
            let given = upload.key.as_deref().unwrap_or_default();
            if !secret_matches(given, &hash) {
                return Err(HttpError::forbidden(format!(
                    "refused: `{}` is taken and this is not its entry key (a new version needs the key you were given with the first one)",
                    upload.name
                )));
            }
            None
        }
        (true, None) => {
            return Err(HttpError::forbidden(format!(
                "refused: `{}` was entered by the organiser on the host and has no entry key; choose another name",
                upload.name
            )));
        }
        (false, _) => Some(new_secret()),
    };
    let invitation = if !exists && server.invitations_required {
        Some(take_invitation(&mut *store, upload.invitation.as_deref())?)
    } else {
        None
    };
    let queued = queue(state, &mut *store, upload, client, invitation.as_deref());
    if queued.is_err()
        && let Some(hash) = &invitation
    {
        store.give_back_invitation(hash)?;
    }
    let (job, ticket) = queued?;
    Ok(Received {
        job,
        key,
        ticket,
        invitation,
    })
}

/// Takes one use of the invitation `code` (a new entry while invitations are required),
/// returning its hash, or refuses with 403 saying why.
fn take_invitation(store: &mut dyn store::Store, code: Option<&str>) -> Result<String, HttpError> {
    let Some(code) = code.filter(|c| !c.is_empty()) else {
        return Err(HttpError::forbidden(
            "refused: new entries need an invitation code from the organiser; a new version of your entry needs its entry key instead",
        ));
    };
    let hash = hash_secret(code);
    if !store.take_invitation(&hash)? {
        return Err(HttpError::forbidden(
            "refused: this invitation code is not one the organiser made, or it is used up or revoked",
        ));
    }
    Ok(hash)
}

/// Queues the submission and stores its job, with the `invitation` whose use it holds:
/// its place in the build queue (or 503 with `Retry-After` when full), one at a time per
/// entry (409).
fn queue(
    state: &AppState,
    store: &mut dyn store::Store,
    upload: &Upload,
    client: ClientKey,
    invitation: Option<&str>,
) -> Result<(Job, Ticket), HttpError> {
    let ticket = state
        .queue
        .admit(client)
        .map_err(|full| HttpError::busy(full.message(), BUILD_RETRY_AFTER))?;
    if !lock(&state.building).insert(upload.name.clone()) {
        return Err(HttpError::new(
            StatusCode::CONFLICT,
            format!(
                "a submission to `{}` is being checked; wait for its result before sending another",
                upload.name
            ),
        ));
    }
    let job = Job {
        id: new_secret(),
        entry: upload.name.clone(),
        state: JobState::Queued,
        message: "waiting for the builder (one build at a time, taken in turn across networks)"
            .into(),
        created: String::new(),
        invitation: invitation.map(str::to_string),
    };
    if let Err(err) = store.save_job(&job) {
        lock(&state.building).remove(&upload.name);
        return Err(err.into());
    }
    Ok((job, ticket))
}

fn lock<T>(mutex: &std::sync::Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|p| p.into_inner())
}

/// Runs a queued submission to its end: waits for the builder, checks, builds and
/// smoke-tests, stores the version and the new entry's key hash, and records the outcome.
pub async fn run(state: Arc<AppState>, received: Received, upload: Upload) {
    let Received {
        mut job,
        key,
        mut ticket,
        invitation,
    } = received;
    let worker = Arc::clone(&state);
    let name = upload.name.clone();
    let outcome = match ticket.wait_turn().await {
        Ok(()) => {
            tokio::task::spawn_blocking(move || {
                job.state = JobState::Running;
                job.message =
                    "checking the rules and the token count, building, then the smoke test (up to a minute or two)".into();
                save(&worker, &job);
                let (state_now, message) = check_and_store(&worker, &upload, key.as_deref());
                job.state = state_now;
                job.message = message;
                save(&worker, &job);
                job.state
            })
            .await
        }
        Err(Displaced) => {
            job.state = JobState::Refused;
            job.message = Displaced::MESSAGE.into();
            save(&worker, &job);
            Ok(JobState::Refused)
        }
    };
    // The builder is free for the next client's turn.
    drop(ticket);
    match outcome {
        Ok(JobState::Accepted) => {}
        Ok(_) => give_back(&state, invitation.as_deref()),
        Err(err) => {
            eprintln!("serve: the submission of `{name}` failed: {err}");
            give_back(&state, invitation.as_deref());
        }
    }
    lock(&state.building).remove(&name);
    state.standings.wake.notify_one();
}

/// Gives back the invitation use a refused submission took, so its entrant can fix the
/// bot and send it again with the same code.
fn give_back(state: &AppState, invitation: Option<&str>) {
    let Some(hash) = invitation else { return };
    let given = state
        .store()
        .and_then(|mut store| Ok(store.give_back_invitation(hash)?));
    if let Err(err) = given {
        eprintln!("serve: cannot give back an invitation's use: {err:#}");
    }
}

fn save(state: &AppState, job: &Job) {
    let saved = state.store().and_then(|mut store| Ok(store.save_job(job)?));
    if let Err(err) = saved {
        eprintln!("serve: cannot save job of `{}`: {err:#}", job.entry);
    }
}

/// The submission check proper: `challenge submit`'s check on the source as it was
/// received (nothing of it is written but the bot's generated crate). The entrant is told
/// the refusal's reason, or that the server failed and the bot was not judged (state
/// `failed`); the server's log gets the failure's every detail.
fn check_and_store(state: &AppState, upload: &Upload, key: Option<&str>) -> (JobState, String) {
    let file_name = format!("{}.rs", upload.name);
    let submission = Submission {
        source: &upload.source,
        shown: &upload.file_name,
        file_name: &file_name,
        name: &upload.name,
        author: upload.author.as_deref(),
    };
    // A connection of its own: the build takes minutes, the requests' one is shared. The
    // server's log shows what the kit reports (the build's progress and warnings).
    let outcome = state
        .open_store(Access::Create)
        .map_err(|err| SubmitError::host("cannot open the challenge's store", err))
        .and_then(|mut store| {
            submit_to(store.as_mut(), &state.work_dir, submission, &|event| {
                eprintln!("{event}");
            })
        });
    match outcome {
        Ok(stored) => (JobState::Accepted, accepted(state, &stored, key)),
        Err(refused @ SubmitError::Refused(_)) => (JobState::Refused, refused.for_sender()),
        Err(failed) => {
            eprintln!(
                "serve: the submission of `{}` failed on the server: {failed:#}",
                upload.name
            );
            (JobState::Failed, failed.for_sender())
        }
    }
}

fn accepted(state: &AppState, stored: &Submitted, key: Option<&str>) -> String {
    let (version, what) = match stored {
        Submitted::New(v) => (v, "accepted"),
        Submitted::Unchanged(v) => (v, "unchanged (already this exact file)"),
        Submitted::Revived(v) => (v, "back in the challenge"),
    };
    let mut message = format!(
        "{what}: `{}` v{} ({}), {} / {} tokens ({} #DEBUG), built, smoke test passed",
        version.name,
        version.number,
        version.hash,
        version.tokens,
        token_counter::LIMIT,
        version.debug_tokens
    );
    if let Some(key) = key {
        let keyed = state
            .store()
            .and_then(|mut store| Ok(store.set_entry_key_hash(&version.name, &hash_secret(key))?));
        match keyed {
            Ok(true) => {}
            Ok(false) => message.push_str(
                "; note: the entry already had a key (set meanwhile), so the key shown with this submission does not work",
            ),
            Err(err) => eprintln!("serve: cannot store the key of `{}`: {err:#}", version.name),
        }
    }
    message
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uploads_must_be_rust_text_within_the_rules_size() {
        assert_eq!(
            source_text(b"fn main() {}\n".to_vec()).unwrap(),
            "fn main() {}\n"
        );
        assert_eq!(
            source_text(vec![b' '; MAX_SOURCE_BYTES])
                .unwrap_err()
                .status,
            StatusCode::BAD_REQUEST,
            "blank is no bot"
        );
        let mut at_limit = vec![b'/'; MAX_SOURCE_BYTES];
        at_limit[MAX_SOURCE_BYTES - 1] = b'\n';
        assert!(source_text(at_limit).is_ok());
        let over = source_text(vec![b'/'; MAX_SOURCE_BYTES + 1]).unwrap_err();
        assert_eq!(over.status, StatusCode::PAYLOAD_TOO_LARGE);
        let latin1 = source_text(b"// caf\xe9".to_vec()).unwrap_err();
        assert_eq!(latin1.status, StatusCode::UNSUPPORTED_MEDIA_TYPE);
        assert!(
            latin1.message.contains("line 1 column 7"),
            "{}",
            latin1.message
        );
        let nul = source_text(b"fn main() {}\0".to_vec()).unwrap_err();
        assert_eq!(nul.status, StatusCode::UNSUPPORTED_MEDIA_TYPE);
        assert!(source_text(b"fn main() {\r\n\t}\r\n".to_vec()).is_ok());
    }
}

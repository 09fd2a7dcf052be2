//! What `challenge serve` keeps between restarts: the organiser's switches and token
//! hash, each entry's key hash, and the submissions it is checking; and the revision that
//! tells the server's views when to refresh. The types, the [`ServerStore`] trait, and
//! its one implementation for both backends.

use std::hash::{DefaultHasher, Hash, Hasher};
use std::str::FromStr;

use serde::Serialize;

use crate::EntryId;
use crate::error::{StoreError, StoreResult};
use crate::sql::{Backend, Conn, Row, params};

/// The web server's state. Secrets are stored only as hashes; comparing them is the
/// server's job (in constant time).
pub trait ServerStore {
    /// The server's switches and the organiser's token hash.
    fn server_state(&self) -> StoreResult<ServerState>;
    /// Whether the organiser paused the tournament: players (`challenge run`'s runner in
    /// the server, `challenge worker`s) claim no new game while it is.
    fn tournament_paused(&self) -> StoreResult<bool> {
        Ok(self.server_state()?.tournament_paused)
    }
    /// Turns one of the server's switches on or off.
    fn set_server_flag(&mut self, flag: ServerFlag, on: bool) -> StoreResult<()>;
    /// Sets (or replaces) the hash of the organiser's token.
    fn set_admin_token_hash(&mut self, hash: &str) -> StoreResult<()>;
    /// The hash of an entry's key; `None` when the entry has none (or does not exist).
    fn entry_key_hash(&self, entry: &str) -> StoreResult<Option<String>>;
    /// Gives an existing entry its key hash, unless it already has one: `false` then,
    /// and the old key stays.
    fn set_entry_key_hash(&mut self, entry: &str, hash: &str) -> StoreResult<bool>;
    /// Adds an invitation code, by its hash, good for `uses` new entries.
    fn add_invitation(&mut self, hash: &str, uses: u32) -> StoreResult<()>;
    /// Takes one use of the invitation code with `hash`: `false` when it has none left or
    /// there is no such code. Two takes at once never both get a code's last use.
    fn take_invitation(&mut self, hash: &str) -> StoreResult<bool>;
    /// Gives back a use taken for an entry that was then refused (nothing when the code
    /// was revoked meanwhile).
    fn give_back_invitation(&mut self, hash: &str) -> StoreResult<()>;
    /// Every invitation code (hash, uses left), in hash order.
    fn invitations(&self) -> StoreResult<Vec<(String, u32)>>;
    /// Revokes the invitation code with `hash`; `false` when there is none.
    fn revoke_invitation(&mut self, hash: &str) -> StoreResult<bool>;
    /// Stores a submission job, or its new state.
    fn save_job(&mut self, job: &Job) -> StoreResult<()>;
    /// A submission job by id.
    fn job(&self, id: &str) -> StoreResult<Option<Job>>;
    /// Marks every queued or running job failed with `message` (after a restart, no one
    /// is working on them, and none was judged) and gives back the invitation use each
    /// held, so its entrant can send the bot again with the same code; returns how many.
    fn fail_unfinished_jobs(&mut self, message: &str) -> StoreResult<usize>;
    /// A fingerprint that changes whenever a game, a version or a withdrawal is stored.
    fn revision(&self) -> StoreResult<StoreRevision>;
}

/// The switches the organiser turns in `challenge serve`, kept with the challenge so a
/// restarted server comes back as it was left.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ServerFlag {
    /// New entries and new versions are refused.
    SubmissionsClosed,
    /// The tournament claims no new games (games in flight finish).
    TournamentPaused,
    /// Everyone may read the entries' sources.
    SourcesPublished,
    /// A new entry needs an invitation code the organiser made.
    InvitationsRequired,
}

impl ServerFlag {
    /// The stored spelling.
    pub const fn as_str(self) -> &'static str {
        match self {
            ServerFlag::SubmissionsClosed => "submissions_closed",
            ServerFlag::TournamentPaused => "tournament_paused",
            ServerFlag::SourcesPublished => "sources_published",
            ServerFlag::InvitationsRequired => "invitations_required",
        }
    }
}

/// What the server keeps about itself: its switches and the organiser's token, as a hash.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ServerState {
    /// New entries and new versions are refused.
    pub submissions_closed: bool,
    /// The tournament claims no new games.
    pub tournament_paused: bool,
    /// Everyone may read the entries' sources.
    pub sources_published: bool,
    /// A new entry needs an invitation code.
    pub invitations_required: bool,
    /// SHA-256 (hex) of the organiser's token, once one was set.
    pub admin_token_hash: Option<String>,
}

impl ServerState {
    /// Whether `flag` is on.
    pub fn flag(&self, flag: ServerFlag) -> bool {
        match flag {
            ServerFlag::SubmissionsClosed => self.submissions_closed,
            ServerFlag::TournamentPaused => self.tournament_paused,
            ServerFlag::SourcesPublished => self.sources_published,
            ServerFlag::InvitationsRequired => self.invitations_required,
        }
    }
}

/// Where a submission sent through the server stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum JobState {
    /// Waiting for the builder.
    Queued,
    /// Being checked, built and smoke-tested.
    Running,
    /// Stored in the challenge.
    Accepted,
    /// Refused: the bot's fault; the message says why.
    Refused,
    /// Not judged: the server failed (its store, its disk, a program of the build); the
    /// message says what, and the entrant may send the bot again.
    Failed,
}

impl JobState {
    /// The stored spelling.
    pub const fn as_str(self) -> &'static str {
        match self {
            JobState::Queued => "queued",
            JobState::Running => "running",
            JobState::Accepted => "accepted",
            JobState::Refused => "refused",
            JobState::Failed => "failed",
        }
    }

    /// Whether the job has ended.
    pub const fn is_final(self) -> bool {
        matches!(
            self,
            JobState::Accepted | JobState::Refused | JobState::Failed
        )
    }
}

impl FromStr for JobState {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "queued" => Ok(JobState::Queued),
            "running" => Ok(JobState::Running),
            "accepted" => Ok(JobState::Accepted),
            "refused" => Ok(JobState::Refused),
            "failed" => Ok(JobState::Failed),
            other => Err(format!("`{other}` is not a job state")),
        }
    }
}

/// A submission sent through the server, and its progress.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Job {
    /// Its id: random, unguessable (the job's page shows build errors quoting the source).
    pub id: String,
    /// The entry it submits to.
    pub entry: String,
    /// Where it stands.
    pub state: JobState,
    /// The current step, or the outcome (the exact refusal reason when refused).
    pub message: String,
    /// When it was received (UTC, ISO 8601).
    pub created: String,
    /// The hash of the invitation whose use it took (a new entry's, while invitations
    /// are required), stored with the job's first save: a job a restart ends gives the
    /// use back ([`ServerStore::fail_unfinished_jobs`]).
    pub invitation: Option<String>,
}

/// A cheap fingerprint of what the standings depend on: it changes whenever a game, a
/// version or a withdrawal is stored, by this process or another one.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct StoreRevision {
    /// The newest game's id (0 without games).
    pub last_game: i64,
    /// The newest version's id (0 without versions).
    pub last_version: i64,
    /// A hash of the withdrawn entries' ids (the whole set: withdrawing #1 and #4 and
    /// withdrawing #2 and #3 differ).
    pub withdrawn: u64,
}

/// The server's state from its stored settings (name, value): switches as `"1"`/`"0"`,
/// the organiser token's hash as its text; unknown names are ignored so an older kit
/// reads a newer store's settings.
fn server_state_from(settings: Vec<(String, String)>) -> ServerState {
    let mut state = ServerState::default();
    for (name, value) in settings {
        let on = value == "1";
        match name.as_str() {
            "submissions_closed" => state.submissions_closed = on,
            "tournament_paused" => state.tournament_paused = on,
            "sources_published" => state.sources_published = on,
            "invitations_required" => state.invitations_required = on,
            "admin_token_hash" => state.admin_token_hash = Some(value),
            _ => {}
        }
    }
    state
}

fn set_setting(c: &mut dyn Conn, name: &str, value: &str) -> StoreResult<()> {
    c.execute(
        "INSERT INTO server_settings (name, value) VALUES (?1, ?2)
         ON CONFLICT (name) DO UPDATE SET value = excluded.value",
        params![name, value],
    )?;
    Ok(())
}

/// Invitation codes are settings named this prefix and the code's hash, valued the uses
/// left (so no table of their own, and a worker's role, shown only the switches it
/// needs, never sees them).
const INVITATION: &str = "invitation:";

/// The uses left of the invitation with `hash` (`None`: no such code).
fn invitation_uses(c: &mut dyn Conn, hash: &str) -> StoreResult<Option<u32>> {
    let name = format!("{INVITATION}{hash}");
    let value: Option<String> = c.first(
        "SELECT value FROM server_settings WHERE name = ?1",
        params![name.as_str()],
        |r| r.get(0),
    )?;
    Ok(value.map(|v| v.parse().unwrap_or(0)))
}

/// Sets the uses left of the invitation with `hash` from `from` to `to`, only if it
/// still has `from` (a compare-and-set: `false` when another took or gave one first).
fn swap_invitation_uses(c: &mut dyn Conn, hash: &str, from: u32, to: u32) -> StoreResult<bool> {
    let (name, from, to) = (
        format!("{INVITATION}{hash}"),
        from.to_string(),
        to.to_string(),
    );
    let changed = c.execute(
        "UPDATE server_settings SET value = ?1 WHERE name = ?2 AND value = ?3",
        params![to.as_str(), name.as_str(), from.as_str()],
    )?;
    Ok(changed == 1)
}

/// Moves one use of the invitation with `hash` by `step` (take: -1, give back: +1),
/// retrying when another change came first; `false` when there is no such code or no use
/// left to take.
fn step_invitation(c: &mut dyn Conn, hash: &str, take: bool) -> StoreResult<bool> {
    loop {
        let Some(uses) = invitation_uses(c, hash)? else {
            return Ok(false);
        };
        let to = if take {
            match uses.checked_sub(1) {
                Some(to) => to,
                None => return Ok(false),
            }
        } else {
            uses.saturating_add(1)
        };
        if swap_invitation_uses(c, hash, uses, to)? {
            return Ok(true);
        }
    }
}

fn job_from_row(r: &dyn Row) -> crate::sql::Mapped<Job> {
    Ok(Job {
        id: r.get(0)?,
        entry: r.get(1)?,
        state: r.parse(2)?,
        message: r.get(3)?,
        created: r.get(4)?,
        invitation: r.get(5)?,
    })
}

/// The fingerprint of a set of withdrawn entries, given in id order.
fn withdrawn_hash(ids: &[EntryId]) -> u64 {
    let mut hasher = DefaultHasher::new();
    ids.hash(&mut hasher);
    hasher.finish()
}

impl<B: Backend> ServerStore for B {
    fn server_state(&self) -> StoreResult<ServerState> {
        let settings = self.read(|c| {
            c.rows("SELECT name, value FROM server_settings", &[], |r| {
                Ok((r.get(0)?, r.get(1)?))
            })
        })?;
        Ok(server_state_from(settings))
    }

    fn set_server_flag(&mut self, flag: ServerFlag, on: bool) -> StoreResult<()> {
        self.write(|c| set_setting(c, flag.as_str(), if on { "1" } else { "0" }))
    }

    fn set_admin_token_hash(&mut self, hash: &str) -> StoreResult<()> {
        self.write(|c| set_setting(c, "admin_token_hash", hash))
    }

    fn entry_key_hash(&self, entry: &str) -> StoreResult<Option<String>> {
        self.read(|c| {
            c.first(
                "SELECT k.key_hash FROM entry_keys k JOIN entries e ON e.id = k.entry_id
                 WHERE e.name = ?1",
                params![entry],
                |r| r.get(0),
            )
        })
    }

    fn set_entry_key_hash(&mut self, entry: &str, hash: &str) -> StoreResult<bool> {
        self.transaction(|c| {
            let id: Option<EntryId> = c.first(
                "SELECT id FROM entries WHERE name = ?1",
                params![entry],
                |r| r.get(0),
            )?;
            let Some(id) = id else {
                return Err(StoreError::NotFound {
                    store: c.store().to_string(),
                    what: format!("entry `{entry}`"),
                    hint: " to give a key to".into(),
                });
            };
            let added = c.execute(
                "INSERT INTO entry_keys (entry_id, key_hash) VALUES (?1, ?2)
                 ON CONFLICT (entry_id) DO NOTHING",
                params![id, hash],
            )?;
            Ok(added == 1)
        })
    }

    fn add_invitation(&mut self, hash: &str, uses: u32) -> StoreResult<()> {
        self.write(|c| set_setting(c, &format!("{INVITATION}{hash}"), &uses.to_string()))
    }

    fn take_invitation(&mut self, hash: &str) -> StoreResult<bool> {
        self.write(|c| step_invitation(c, hash, true))
    }

    fn give_back_invitation(&mut self, hash: &str) -> StoreResult<()> {
        self.write(|c| step_invitation(c, hash, false).map(|_| ()))
    }

    fn invitations(&self) -> StoreResult<Vec<(String, u32)>> {
        let rows: Vec<(String, String)> = self.read(|c| {
            c.rows(
                "SELECT name, value FROM server_settings WHERE name LIKE 'invitation:%' ORDER BY name",
                &[],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
        })?;
        Ok(rows
            .into_iter()
            .filter_map(|(name, value)| {
                let hash = name.strip_prefix(INVITATION)?.to_string();
                Some((hash, value.parse().unwrap_or(0)))
            })
            .collect())
    }

    fn revoke_invitation(&mut self, hash: &str) -> StoreResult<bool> {
        let name = format!("{INVITATION}{hash}");
        let removed = self.write(|c| {
            c.execute(
                "DELETE FROM server_settings WHERE name = ?1",
                params![name.as_str()],
            )
        })?;
        Ok(removed == 1)
    }

    fn save_job(&mut self, job: &Job) -> StoreResult<()> {
        self.write(|c| {
            let sql = format!(
                "INSERT INTO jobs (id, entry, state, message, invitation)
                 VALUES (?1, ?2, ?3, ?4, ?5)
                 ON CONFLICT (id) DO UPDATE SET state = excluded.state,
                     message = excluded.message, updated = {}",
                c.dialect().now_text()
            );
            c.execute(
                &sql,
                params![
                    job.id.as_str(),
                    job.entry.as_str(),
                    job.state.as_str(),
                    job.message.as_str(),
                    job.invitation.as_deref()
                ],
            )
        })?;
        Ok(())
    }

    fn job(&self, id: &str) -> StoreResult<Option<Job>> {
        self.read(|c| {
            c.first(
                "SELECT id, entry, state, message, created, invitation FROM jobs WHERE id = ?1",
                params![id],
                job_from_row,
            )
        })
    }

    fn fail_unfinished_jobs(&mut self, message: &str) -> StoreResult<usize> {
        let n = self.write(|c| {
            let held: Vec<String> = c.rows(
                "SELECT invitation FROM jobs
                 WHERE state IN ('queued', 'running') AND invitation IS NOT NULL",
                params![],
                |r| r.get(0),
            )?;
            for hash in &held {
                // A revoked invitation stays revoked.
                step_invitation(c, hash, false)?;
            }
            let sql = format!(
                "UPDATE jobs SET state = 'failed', message = ?1, updated = {}
                 WHERE state IN ('queued', 'running')",
                c.dialect().now_text()
            );
            c.execute(&sql, params![message])
        })?;
        Ok(usize::try_from(n).unwrap_or(usize::MAX))
    }

    fn revision(&self) -> StoreResult<StoreRevision> {
        self.read(|c| {
            let (last_game, last_version) = c.one(
                "SELECT (SELECT COALESCE(MAX(id), 0) FROM games),
                        (SELECT COALESCE(MAX(id), 0) FROM versions)",
                &[],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )?;
            let withdrawn: Vec<EntryId> = c.rows(
                "SELECT id FROM entries WHERE withdrawn ORDER BY id",
                &[],
                |r| r.get(0),
            )?;
            Ok(StoreRevision {
                last_game,
                last_version,
                withdrawn: withdrawn_hash(&withdrawn),
            })
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_invitation_is_used_up_given_back_and_revoked() {
        let dir = std::env::temp_dir().join(format!("store-invitations-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let mut store = crate::SqliteStore::create(&dir).unwrap();
        store.add_invitation("aa", 2).unwrap();
        assert!(store.take_invitation("aa").unwrap());
        assert!(store.take_invitation("aa").unwrap());
        assert!(!store.take_invitation("aa").unwrap(), "used up");
        assert!(!store.take_invitation("bb").unwrap(), "no such code");
        store.give_back_invitation("aa").unwrap();
        assert_eq!(store.invitations().unwrap(), [("aa".to_string(), 1)]);
        assert!(store.take_invitation("aa").unwrap());
        store
            .set_server_flag(ServerFlag::InvitationsRequired, true)
            .unwrap();
        let state = store.server_state().unwrap();
        assert!(state.invitations_required);
        assert!(!state.submissions_closed, "an invitation is no switch");
        assert!(store.revoke_invitation("aa").unwrap());
        store.give_back_invitation("aa").unwrap();
        assert!(
            store.invitations().unwrap().is_empty(),
            "a revoked code stays gone"
        );
        drop(store);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_withdrawn_set_is_told_from_another_with_the_same_sum() {
        let ids = |ids: &[i64]| ids.iter().copied().map(EntryId).collect::<Vec<_>>();
        assert_ne!(withdrawn_hash(&ids(&[1, 4])), withdrawn_hash(&ids(&[2, 3])));
        assert_ne!(withdrawn_hash(&ids(&[])), withdrawn_hash(&ids(&[0])));
        assert_eq!(withdrawn_hash(&ids(&[2, 3])), withdrawn_hash(&ids(&[2, 3])));
    }
}

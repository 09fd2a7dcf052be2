//! What everyone sees, kept ready: the standings, the crosstable and the tournament's
//! status are rebuilt once per change of the store (a game, a version, a withdrawal, a
//! switch), not per request, and every change is announced to the pages listening on
//! `/events` (server-sent events), which then fetch the parts they show.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, RwLock};
use std::time::Duration;

use anyhow::Result;
use axum::body::Bytes;
use serde::Serialize;
use tokio::sync::{Notify, broadcast};

use super::conductor::ConductorState;
use super::pages::{self, CROSS_LIMIT};
use super::watch::LiveGames;
use league::GameView;
use results::{
    GameFact, RatingChoice, StandingsTable, Verdicts, build_table, facts_of, tournament_facts,
    tournaments_of,
};
use store::prelude::*;
use store::{LiveGame, ServerState, SlotId, SlotState, StoreRevision, TournamentId};

/// How often the store is checked for changes made by another process (`challenge
/// submit`, `challenge run`, the workers that play a PostgreSQL store's games); changes
/// made by this server are announced at once. A check is four small queries (the
/// revision: three indexed maxima; the switches; the tournament count; the unfinished
/// tournament), one at a time, so it costs the store at most eight queries a second
/// however many pages listen (`cargo bench --bench serve` measures it).
pub const POLL: Duration = Duration::from_millis(500);

/// The tournament as the status line shows it.
#[derive(Debug, Clone, Default, Serialize, PartialEq)]
pub struct Status {
    /// `round-robin` or `swiss`, with its time control; empty without a tournament.
    pub tournament: String,
    /// Games played in the current (or last) tournament.
    pub played: usize,
    /// Its games in all (a Swiss tournament's grow round by round).
    pub total: usize,
    /// `playing`, `paused`, `finished`, `not started`, or the conductor's error.
    pub state: String,
    /// New entries are refused.
    pub submissions_closed: bool,
    /// Sources are public.
    pub sources_published: bool,
}

/// What the cached views were built from; a new one means a rebuild.
#[derive(Debug, Clone, PartialEq, Default)]
struct Key {
    revision: StoreRevision,
    server: ServerState,
    tournaments: usize,
    unfinished: Option<i64>,
    conductor: ConductorState,
}

/// The standings and the crosstable over one choice of games: every game, or one
/// tournament's.
#[derive(Default)]
pub struct Views {
    /// The standings, as the part `/` shows and `/?part=1` returns.
    pub standings_part: Bytes,
    /// The whole standings page (the same for every visitor: it has no form).
    pub standings_page: Bytes,
    /// The crosstable part.
    pub crosstable_part: Bytes,
    /// The whole crosstable page.
    pub crosstable_page: Bytes,
}

/// The views built from one state of the store.
#[derive(Default)]
pub struct Snapshot {
    key: Option<Key>,
    /// Over every game.
    pub all: Arc<Views>,
    /// The tournaments that have games, oldest first: the choices of the pages' filter.
    pub tournaments: Vec<i64>,
    /// One tournament's views, each built when first asked for (`?tournament=N`): at
    /// most once per tournament and store change.
    filtered: Mutex<BTreeMap<i64, Arc<Views>>>,
    /// The tournament's status.
    pub status: Status,
}

impl Snapshot {
    /// The views of tournament `t`, built from `store` the first time they are asked
    /// for; `None` when it has no games.
    pub fn tournament<G>(&self, t: i64, store: impl Fn() -> Result<G>) -> Result<Option<Arc<Views>>>
    where
        G: std::ops::Deref<Target = dyn Store>,
    {
        if !self.tournaments.contains(&t) {
            return Ok(None);
        }
        if let Some(views) = lock(&self.filtered).get(&t) {
            return Ok(Some(Arc::clone(views)));
        }
        // Its own verdicts: built once per snapshot and tournament, then kept.
        let (players, facts) =
            tournament_facts(&*store()?, TournamentId(t), &mut Verdicts::default())?;
        let table = build_table(players, &facts, &RatingChoice::default())?;
        let choice = Choice {
            tournaments: &self.tournaments,
            current: Some(t),
        };
        let views = Arc::new(views(&table, &facts, &self.status, &choice)?);
        lock(&self.filtered).insert(t, Arc::clone(&views));
        Ok(Some(views))
    }
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    // The map only gains whole entries; a panicked holder left it usable.
    mutex.lock().unwrap_or_else(|p| p.into_inner())
}

/// Which games a view shows, and the others it can switch to.
#[derive(Serialize)]
struct Choice<'a> {
    tournaments: &'a [i64],
    current: Option<i64>,
}

/// The cached views and the channel announcing their changes.
pub struct StandingsCache {
    snapshot: RwLock<Arc<Snapshot>>,
    changes: broadcast::Sender<u64>,
    counter: AtomicU64,
    /// Wakes the refresher at once (this server changed something).
    pub wake: Notify,
    closing: tokio::sync::watch::Sender<bool>,
    /// The workers' games last read from the store.
    feed: Mutex<Feed>,
    /// Each stored game's check against its moves, made once.
    verdicts: Mutex<Verdicts>,
}

/// What the refresher knows of the games the workers publish: the newest write number
/// read, the number of each game's snapshot last read, and the games shown.
#[derive(Debug, Default)]
struct Feed {
    since: i64,
    read: BTreeMap<i64, i64>,
    shown: BTreeSet<i64>,
}

impl Default for StandingsCache {
    fn default() -> Self {
        StandingsCache {
            snapshot: RwLock::new(Arc::new(Snapshot::default())),
            changes: broadcast::channel(64).0,
            counter: AtomicU64::new(0),
            wake: Notify::new(),
            closing: tokio::sync::watch::channel(false).0,
            feed: Mutex::default(),
            verdicts: Mutex::default(),
        }
    }
}

impl StandingsCache {
    /// The current views.
    pub fn snapshot(&self) -> Arc<Snapshot> {
        Arc::clone(&self.snapshot.read().unwrap_or_else(|p| p.into_inner()))
    }

    /// A receiver of change numbers for one more listening page. How many pages listen
    /// is bounded where their connections are admitted (`streams`: the `/events` cap).
    pub fn listen(&self) -> broadcast::Receiver<u64> {
        self.changes.subscribe()
    }

    /// A receiver that changes when the server stops (listening pages are let go).
    pub fn closing(&self) -> tokio::sync::watch::Receiver<bool> {
        self.closing.subscribe()
    }

    /// The number of the newest change announced (0 before the first), as a reconnecting
    /// page's `Last-Event-ID` gives it back.
    pub fn newest_change(&self) -> u64 {
        self.counter.load(Ordering::Relaxed)
    }

    /// Lets every listening page go (the server is stopping).
    pub fn close(&self) {
        self.closing.send_replace(true);
    }

    fn publish(&self, snapshot: Snapshot) {
        *self.snapshot.write().unwrap_or_else(|p| p.into_inner()) = Arc::new(snapshot);
        let number = self.counter.fetch_add(1, Ordering::Relaxed) + 1;
        // No listener is not an error.
        let _ = self.changes.send(number);
    }
}

impl StandingsCache {
    /// Rebuilds the views if the store (or the tournament thread's state) changed since
    /// they were built. `store` opens the store for one short piece of work; it is
    /// opened twice, so a writer is not kept waiting while the table is computed.
    pub fn refresh<G>(&self, store: impl Fn() -> Result<G>, conductor: ConductorState) -> Result<()>
    where
        G: std::ops::Deref<Target = dyn Store>,
    {
        let key = {
            let store = store()?;
            Key {
                revision: store.revision()?,
                server: store.server_state()?,
                tournaments: store.tournament_count()?,
                unfinished: store.unfinished_tournament()?.map(|t| t.id.0),
                conductor,
            }
        };
        if self.snapshot().key.as_ref() == Some(&key) {
            return Ok(());
        }
        let mut verdicts = self.verdicts.lock().unwrap_or_else(|p| p.into_inner());
        let snapshot = build(store, key, &mut verdicts)?;
        self.publish(snapshot);
        Ok(())
    }

    /// Waits until something may have changed: a wake-up from this server, or the poll
    /// interval that catches other processes' writes.
    pub async fn wait_for_change(&self) {
        tokio::select! {
            () = self.wake.notified() => {}
            () = tokio::time::sleep(POLL) => {}
        }
    }
}

impl StandingsCache {
    /// Brings `games` up to date with the games the workers publish in the store (a
    /// PostgreSQL store's; called by the refresher with the views, so at most every
    /// [`POLL`]): one query for the snapshots written since the last one read, each
    /// checked ([`GameView::from_stored`]) and shown; a game gone from the store ends,
    /// pointing to its stored game when it has one.
    pub fn follow_workers(&self, store: &dyn Store, games: &LiveGames) -> Result<()> {
        let mut feed = self.feed.lock().unwrap_or_else(|p| p.into_inner());
        let mut rows = store.live_games(feed.since)?;
        // A write numbered below one already read may commit after it (two workers at
        // once): its snapshot was not sent. Rare; then read them all again.
        let missed = rows
            .iter()
            .any(|r| r.snapshot.is_none() && feed.read.get(&r.slot.0) != Some(&r.seq));
        if missed {
            rows = store.live_games(0)?;
        }
        let mut read = BTreeMap::new();
        let mut shown = BTreeSet::new();
        for row in &rows {
            let key = row.slot.0;
            feed.since = feed.since.max(row.seq);
            read.insert(key, row.seq);
            // A refused snapshot leaves the last good one up.
            if show(row, games) || feed.shown.contains(&key) {
                shown.insert(key);
            }
        }
        for &key in feed.shown.difference(&shown) {
            let ending = store.live_ending(SlotId(key))?;
            let ending = ending
                .as_ref()
                .map(|e| (e.result.as_str(), e.detail.as_str(), e.game.0));
            games.end_elsewhere(key, ending);
        }
        *feed = Feed {
            since: feed.since,
            read,
            shown,
        };
        Ok(())
    }
}

/// Shows a game's new snapshot; `false` when it has none or it is refused.
fn show(row: &LiveGame, games: &LiveGames) -> bool {
    let Some(text) = &row.snapshot else {
        return false;
    };
    match GameView::from_stored(text, row.slot.0) {
        Ok(view) => {
            games.show(&view);
            true
        }
        Err(err) => {
            eprintln!(
                "serve: the live snapshot of slot {} is refused: {err}",
                row.slot.0
            );
            false
        }
    }
}

fn build<G>(store: impl Fn() -> Result<G>, key: Key, verdicts: &mut Verdicts) -> Result<Snapshot>
where
    G: std::ops::Deref<Target = dyn Store>,
{
    let (players, facts, status, tournaments) = {
        let store = store()?;
        let games = store.games(false)?;
        let (players, facts) = facts_of(&*store, &games, verdicts)?;
        (
            players,
            facts,
            status(&*store, &key)?,
            tournaments_of(&games),
        )
    };
    let tournaments: Vec<i64> = tournaments.iter().map(|t| t.0).collect();
    let table = build_table(players, &facts, &RatingChoice::default())?;
    let choice = Choice {
        tournaments: &tournaments,
        current: None,
    };
    let all = views(&table, &facts, &status, &choice)?;
    Ok(Snapshot {
        all: Arc::new(all),
        tournaments,
        filtered: Mutex::default(),
        status,
        key: Some(key),
    })
}

/// The pages of `table` over `facts`, with the filter of `choice`.
fn views(
    table: &StandingsTable,
    facts: &[GameFact],
    status: &Status,
    choice: &Choice,
) -> Result<Views> {
    let query = choice
        .current
        .map_or(String::new(), |t| format!("&tournament={t}"));
    let standings = standings_part(table, status, choice)?;
    let crosstable = crosstable_part(table, facts, choice)?;
    Ok(Views {
        standings_page: whole_page("standings.html", "Standings", &standings, &query)?,
        standings_part: standings.into(),
        crosstable_page: whole_page("crosstable.html", "Crosstable", &crosstable, &query)?,
        crosstable_part: crosstable.into(),
    })
}

fn status(store: &dyn Store, key: &Key) -> Result<Status> {
    let mut status = Status {
        submissions_closed: key.server.submissions_closed,
        sources_published: key.server.sources_published,
        state: "not started".into(),
        ..Status::default()
    };
    let tournament = match store.unfinished_tournament()? {
        Some(t) => Some(t),
        None if key.tournaments > 0 => None,
        None => return Ok(status),
    };
    if let Some(t) = &tournament {
        status.tournament = format!("{}, {}", t.format, t.time_control);
        let slots = store.slots(t.id)?;
        status.total = slots
            .iter()
            .filter(|s| s.state != SlotState::Cancelled)
            .count();
        status.played = slots
            .iter()
            .filter(|s| matches!(s.state, SlotState::Played(_)))
            .count();
    }
    status.state = match (&key.conductor, tournament.is_some()) {
        (ConductorState::Failed(err), _) => format!("stopped: {err}"),
        (_, false) => "finished".into(),
        (_, true) if key.server.tournament_paused => "paused".into(),
        (ConductorState::Running, true) => "playing".into(),
        (ConductorState::Workers, true) => "playing (by the workers)".into(),
        (ConductorState::Idle, true) => "waiting to be resumed by the organiser".into(),
    };
    Ok(status)
}

/// A page around a part rendered already (and escaped there); `query` is what the live
/// part's address adds to `?part=1` (the tournament chosen).
fn whole_page(template: &str, title: &str, part: &str, query: &str) -> Result<Bytes> {
    let page = pages::render(
        template,
        minijinja::context! {
            title,
            query,
            part => minijinja::Value::from_safe_string(part.to_string()),
        },
    )?;
    Ok(page.into())
}

fn standings_part(table: &StandingsTable, status: &Status, choice: &Choice) -> Result<String> {
    pages::render(
        "standings_part.html",
        minijinja::context! {
            rows => pages::standing_rows(table),
            method => pages::method_note(table),
            chart => pages::rating_chart(table),
            status,
            choice,
            base => "/",
        },
    )
}

fn crosstable_part(table: &StandingsTable, facts: &[GameFact], choice: &Choice) -> Result<String> {
    pages::render(
        "crosstable_part.html",
        minijinja::context! {
            rows => pages::cross_rows(table, facts),
            cut => table.rows.len() > CROSS_LIMIT,
            limit => CROSS_LIMIT,
            choice,
            base => "/crosstable",
        },
    )
}

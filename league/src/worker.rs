//! `challenge worker`: plays a PostgreSQL store's tournament from any machine.
//!
//! Each of a worker's `threads` has its own connection and loops: claim the next pending
//! slot (a lease, kept alive by the store's heartbeat while the game plays), build the two
//! entries' current versions from the sources in the store (cached on this machine by
//! content hash, [`build`]), play the game, and record it; the store stores
//! it only while the lease is still this worker's. When no slot is left to claim but some
//! are still leased by others, the thread waits (a lease that runs out is claimed again,
//! here or elsewhere). A worker whose role is the organiser's (`challenge run --store`)
//! then takes the organiser's step (`organiser.rs`: with nothing pending, pair the next
//! Swiss round or finish the tournament); a worker's role (`challenge workers grant`)
//! may not, and leaves it to the organiser processes (`challenge serve --store` does it
//! while it runs) as it waits.
//! While the organiser has the tournament paused (the stored switch `challenge serve`'s
//! pause button sets), the threads finish the games they hold and claim nothing, looking
//! again every `poll`.
//!
//! Each game is also published live as it is played (`live.rs`): its snapshot, at most
//! one write per game every [`live::EVERY`] on a connection of the worker's own, its
//! final state before its result, for `challenge serve --store`'s live pages.
//!
//! The worker announces itself (name, host, cores, threads, kit version) in the store's
//! `workers` table and reports in while it runs, for `challenge workers`. What happens
//! goes to the caller's observer as [`WorkerEvent`]s; what stops it is a
//! [`TournamentError`].

mod event;
pub mod live;

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicI64, AtomicUsize, Ordering};
use std::sync::{Mutex, mpsc};
use std::time::Duration;

pub use event::WorkerEvent;

use framework::notation::pgn::GameResult;
use runner::{Engine, EngineConfig, MoveObserver, Opening, Player, play_game_observed};

use self::live::{GameFollower, Publisher};
use super::organiser::{Organiser, Progress};
use super::tournament::{TournamentError, live_label, new_game, write_source};
use crate::live_view::Follow;
use bot_build::BuildEvent;
use runner::LiveStart;
use store::prelude::*;
use store::{
    Claim, EntryId, NewWorker, PostgresStore, StoreError, Tournament, TournamentId, Version,
    VersionId,
};

/// What a worker's steps return.
type Result<T, E = TournamentError> = std::result::Result<T, E>;

/// Whether `err` means the store was lost (the worker reconnects) rather than that the
/// request failed.
fn lost_store(err: &TournamentError) -> bool {
    matches!(
        err,
        TournamentError::Store(StoreError::ConnectionLost { .. })
    )
}

/// How a worker runs.
#[derive(Debug, Clone)]
pub struct WorkerOptions {
    /// Its name in the `workers` table and on every game it stores.
    pub name: String,
    /// Games played at once.
    pub threads: usize,
    /// How long a claimed game stays leased without a heartbeat.
    pub lease: Duration,
    /// How often to look again when every pending game is leased by others.
    pub poll: Duration,
    /// Keep waiting for a new tournament when there is none to play (else stop).
    pub wait: bool,
    /// Stop after this many games.
    pub max_games: Option<usize>,
    /// Where the stored sources are written out to be built.
    pub work_dir: PathBuf,
}

/// What a worker did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct WorkerReport {
    /// Games it stored.
    pub stored: usize,
    /// Games it played whose result was refused because their lease had been taken over.
    pub refused: usize,
}

/// Where a worker writes out stored sources to build them: `sources/` under the kit's
/// bot build directory's `store/` (so `$CHALLENGE_BUILD_DIR` moves it too).
pub fn local_work_dir() -> PathBuf {
    bot_build::build_dir().join("store")
}

/// How to start a worker, for whoever says the store waits for one (`challenge serve` on a
/// PostgreSQL store, `challenge workers` with none yet): its URL goes in `CHALLENGE_STORE`,
/// never on the command line, which every user of the machine can see.
///
/// ```
/// assert!(league::START_A_WORKER.contains("CHALLENGE_STORE"));
/// assert!(!league::START_A_WORKER.contains("--store"));
/// ```
pub const START_A_WORKER: &str = "run `challenge worker --wait` on any machine with a worker's URL \
     in CHALLENGE_STORE (`challenge workers grant NAME` makes one)";

/// This machine's name, for a worker's default name and its `host`.
pub fn host_name() -> String {
    std::fs::read_to_string("/proc/sys/kernel/hostname")
        .ok()
        .map(|h| h.trim().to_string())
        .filter(|h| !h.is_empty())
        .or_else(|| std::env::var("HOSTNAME").ok())
        .unwrap_or_else(|| "localhost".to_string())
}

/// What the game threads share.
struct Shared<'a> {
    options: &'a WorkerOptions,
    stop: &'a AtomicBool,
    observe: &'a (dyn Fn(WorkerEvent<'_>) + Sync),
    /// Games claimed so far (for `max_games`).
    claimed: AtomicUsize,
    stored: AtomicUsize,
    refused: AtomicUsize,
    /// The pause switch as last seen (so the change is said once, not by every thread).
    paused: AtomicBool,
    failure: Mutex<Option<TournamentError>>,
    /// The tournament the worker last said it waits on an organiser for (0: none).
    told_waiting: AtomicI64,
    /// The games' live snapshots, on their way to the store.
    publisher: Publisher,
    /// The organiser's step, for a worker whose role may take it (one thread at a time).
    organiser: Mutex<Organiser>,
}

impl Shared<'_> {
    fn fail(&self, err: TournamentError) {
        self.failure
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get_or_insert(err);
        self.stop.store(true, Ordering::Relaxed);
    }

    /// Takes one game from the budget; `false` when `max_games` are claimed.
    fn take_budget(&self) -> bool {
        let before = self.claimed.fetch_add(1, Ordering::Relaxed);
        self.options.max_games.is_none_or(|max| before < max)
    }

    fn give_back_budget(&self) {
        self.claimed.fetch_sub(1, Ordering::Relaxed);
    }
}

/// Runs a worker on `store` until nothing is left to play (or `stop` is set, or
/// `max_games` are stored): registers it, plays on `threads` connections of its own, and
/// reports in every third of the lease. What happens goes to `observe`, from any thread.
pub fn work(
    store: &mut PostgresStore,
    options: &WorkerOptions,
    stop: &AtomicBool,
    observe: &(dyn Fn(WorkerEvent<'_>) + Sync),
) -> Result<WorkerReport> {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    store.register_worker(&NewWorker {
        name: &options.name,
        host: &host_name(),
        cores: u32::try_from(cores).unwrap_or(u32::MAX),
        threads: u32::try_from(options.threads).unwrap_or(u32::MAX),
        lease: options.lease,
    })?;
    let shared = Shared {
        options,
        stop,
        observe,
        claimed: AtomicUsize::new(0),
        stored: AtomicUsize::new(0),
        refused: AtomicUsize::new(0),
        paused: AtomicBool::new(false),
        failure: Mutex::new(None),
        told_waiting: AtomicI64::new(0),
        publisher: Publisher::default(),
        organiser: Mutex::default(),
    };
    let mut live_store = store.reconnect()?;
    let mut connections = Vec::new();
    for _ in 0..options.threads.max(1) {
        let mut connection = store.reconnect()?;
        connection.set_lease(options.lease);
        connections.push(connection);
    }
    std::thread::scope(|scope| {
        let (done_tx, done) = mpsc::channel::<()>();
        for (i, connection) in connections.into_iter().enumerate() {
            let shared = &shared;
            let done_tx = done_tx.clone();
            std::thread::Builder::new()
                .name(format!("worker-{i}"))
                .spawn_scoped(scope, move || {
                    let mut thread = GameThread::new(connection, shared);
                    if let Err(err) = thread.run() {
                        shared.fail(err);
                    }
                    drop(done_tx);
                })
                .expect("spawn a worker thread");
        }
        drop(done_tx);
        let publisher = &shared.publisher;
        scope.spawn(|| publisher.run(&mut live_store, &options.name, stop, observe));
        // Report in until every thread is done (the channel closes).
        while let Err(mpsc::RecvTimeoutError::Timeout) = done.recv_timeout(options.lease / 3) {
            if let Err(err) = store.worker_seen(&options.name) {
                let lost = matches!(err, StoreError::ConnectionLost { .. });
                observe(WorkerEvent::CannotReportIn {
                    location: store.location(),
                    error: err.into(),
                });
                if lost {
                    let _ = store.reopen();
                }
            }
        }
        shared.publisher.stop();
    });
    if store.worker_stopped(&options.name).is_err() {
        let _ = store
            .reopen()
            .and_then(|()| store.worker_stopped(&options.name));
    }
    if let Some(err) = shared
        .failure
        .into_inner()
        .unwrap_or_else(|e| e.into_inner())
    {
        return Err(err);
    }
    Ok(WorkerReport {
        stored: shared.stored.into_inner(),
        refused: shared.refused.into_inner(),
    })
}

/// One game at a time on its own connection.
struct GameThread<'a> {
    store: PostgresStore,
    shared: &'a Shared<'a>,
    /// Built engines by version, and the openings of the tournament last played.
    engines: HashMap<VersionId, PathBuf>,
    openings: Option<(TournamentId, Vec<Opening>)>,
    /// The tournament whose kit version was last found to be this kit's.
    same_kit: Option<TournamentId>,
}

/// What one turn of the loop found.
enum Turn {
    Played,
    Wait,
    Done,
}

impl<'a> GameThread<'a> {
    fn new(store: PostgresStore, shared: &'a Shared<'a>) -> GameThread<'a> {
        GameThread {
            store,
            shared,
            engines: HashMap::new(),
            openings: None,
            same_kit: None,
        }
    }

    fn run(&mut self) -> Result<()> {
        let options = self.shared.options;
        while !self.shared.stop.load(Ordering::Relaxed) {
            let turn = match self.store.unfinished_tournament() {
                Ok(Some(t)) => self.turn(&t),
                Ok(None) if options.wait => Ok(Turn::Wait),
                Ok(None) => Ok(Turn::Done),
                Err(err) => Err(err.into()),
            };
            match turn {
                Ok(Turn::Played) => {}
                Ok(Turn::Wait) => std::thread::sleep(options.poll),
                Ok(Turn::Done) => break,
                Err(err) if lost_store(&err) => self.reconnect(err),
                Err(err) => return Err(err),
            }
        }
        Ok(())
    }

    /// After losing the store: reconnects, waiting longer after each failure (up to 30 s),
    /// until it is back or the worker is stopped. A game in play when the store was lost
    /// goes back to the pool when its lease runs out.
    fn reconnect(&mut self, error: TournamentError) {
        let worker = self.shared.options.name.as_str();
        let observe = self.shared.observe;
        observe(WorkerEvent::LostStore { worker, error });
        let mut wait = Duration::from_millis(500);
        while !self.shared.stop.load(Ordering::Relaxed) {
            std::thread::sleep(wait);
            match self.store.reopen() {
                Ok(()) => {
                    observe(WorkerEvent::Reconnected { worker });
                    return;
                }
                Err(err) => observe(WorkerEvent::StillUnreachable {
                    worker,
                    error: err.into(),
                }),
            }
            wait = (wait * 2).min(Duration::from_secs(30));
        }
    }

    /// Claims and plays one game of `t`, or finds why not.
    fn turn(&mut self, t: &Tournament) -> Result<Turn> {
        self.check_kit(t)?;
        if self.paused()? {
            return Ok(Turn::Wait);
        }
        if !self.shared.take_budget() {
            return Ok(Turn::Done);
        }
        let claim = self.store.claim(t.id, &self.shared.options.name, 1)?.pop();
        let Some(claim) = claim else {
            self.shared.give_back_budget();
            return self.nothing_to_claim(t);
        };
        match self.play(t, &claim) {
            Ok(true) => Ok(Turn::Played),
            Ok(false) => {
                self.shared.give_back_budget();
                Ok(Turn::Played)
            }
            Err(err) => {
                let _ = self.store.release(&claim);
                Err(err)
            }
        }
    }

    /// Whether the organiser has paused the tournament (asked before each claim); the
    /// worker says so when the switch changes.
    fn paused(&self) -> Result<bool> {
        let paused = self.store.tournament_paused()?;
        if self.shared.paused.swap(paused, Ordering::Relaxed) != paused {
            let worker = self.shared.options.name.as_str();
            (self.shared.observe)(match paused {
                true => WorkerEvent::Paused { worker },
                false => WorkerEvent::Resumed { worker },
            });
        }
        Ok(paused)
    }

    /// No slot could be claimed: wait for others' leases; or, when this worker's role is
    /// the organiser's, take the organiser's step ([`Organiser::step`]): with nothing
    /// pending it pairs the next Swiss round or finishes the tournament.
    fn nothing_to_claim(&mut self, t: &Tournament) -> Result<Turn> {
        if !self.store.can_advance()? {
            self.wait_for_organiser(t);
            return Ok(Turn::Wait);
        }
        let observe = self.shared.observe;
        let mut organiser = self
            .shared
            .organiser
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        let progress = organiser.step(&mut self.store, &|event| {
            observe(WorkerEvent::Tournament(event));
        })?;
        Ok(match progress {
            Progress::Playing { .. } => Turn::Wait,
            Progress::Paired { .. } | Progress::Finished { .. } | Progress::Idle => Turn::Played,
        })
    }

    /// Refuses a tournament created by another kit version: its results must all come
    /// from one rule set. (The store's `claim` refuses it too; this says so as a value.)
    fn check_kit(&mut self, t: &Tournament) -> Result<()> {
        if self.same_kit == Some(t.id) {
            return Ok(());
        }
        match self.store.tournament_kit_version(t.id)? {
            Some(theirs) if theirs != store::KIT_VERSION => Err(TournamentError::OtherKitVersion {
                tournament: t.id,
                location: self.store.location(),
                theirs,
            }),
            _ => {
                self.same_kit = Some(t.id);
                Ok(())
            }
        }
    }

    /// A worker's role may not write schedules: the tournament waits for an organiser
    /// process to cancel withdrawn entries' games, pair the next round or finish it.
    fn wait_for_organiser(&self, t: &Tournament) {
        if self.shared.told_waiting.swap(t.id.0, Ordering::Relaxed) != t.id.0 {
            (self.shared.observe)(WorkerEvent::WaitingForOrganiser {
                worker: &self.shared.options.name,
                tournament: t.id,
            });
        }
    }

    /// Plays a claimed game and records it; `false` if it was interrupted (released) or
    /// its result refused.
    fn play(&mut self, t: &Tournament, claim: &Claim) -> Result<bool> {
        let plan = claim.slot.plan;
        let white = self.current_version(plan.white)?;
        let black = self.current_version(plan.black)?;
        let players = [
            self.player(&white, t, claim)?,
            self.player(&black, t, claim)?,
        ];
        let opening = self.opening(t, plan.opening as usize)?;
        let worker = self.shared.options.name.as_str();
        let observe = self.shared.observe;
        observe(WorkerEvent::Playing {
            worker,
            slot: claim.slot.id,
            tournament: t.id,
            white: white.player_name(),
            black: black.player_name(),
        });
        let mut follower = self.follower(claim, &players, &opening);
        let mut engines: [Option<Engine>; 2] = [None, None];
        let [w, b] = &mut engines;
        let settings = t.rules.settings();
        let record = play_game_observed(
            [&players[0], &players[1]],
            [w, b],
            &opening,
            &settings,
            self.shared.stop,
            follower.as_mut().map(|f| f as &mut dyn MoveObserver),
        );
        for engine in engines.into_iter().flatten() {
            engine.quit(Duration::from_millis(300));
        }
        let publisher = &self.shared.publisher;
        if record.result == GameResult::Unknown {
            if let Some(follower) = follower {
                publisher.forget(follower);
            }
            self.store.release(claim)?;
            return Ok(false);
        }
        if let Some(follower) = follower {
            publisher.finish(follower, record.result.as_str(), &record.detail);
        }
        let game = new_game(t, plan, [&white, &black], &record);
        match self.store.record(claim, &game) {
            Ok(game) => {
                self.shared.stored.fetch_add(1, Ordering::Relaxed);
                observe(WorkerEvent::Stored {
                    worker,
                    game,
                    slot: claim.slot.id,
                    record: &record,
                });
                Ok(true)
            }
            Err(err @ StoreError::LeaseLost { .. }) => {
                self.shared.refused.fetch_add(1, Ordering::Relaxed);
                observe(WorkerEvent::Refused {
                    worker,
                    error: err.into(),
                });
                Ok(false)
            }
            Err(err) => Err(err.into()),
        }
    }

    /// The live follower of a claimed game about to be played by `players` from
    /// `opening` (none when this store no longer holds the claim's lease).
    fn follower(
        &self,
        claim: &Claim,
        players: &[Player; 2],
        opening: &Opening,
    ) -> Option<GameFollower<'a>> {
        let ticket = self.store.live_ticket(claim)?;
        let round = live_label(claim);
        let start = LiveStart {
            key: claim.slot.id.0,
            white: players[0].name(),
            black: players[1].name(),
            round: &round,
            opening,
            time_controls: [players[0].tc, players[1].tc],
        };
        Some(self.shared.publisher.follow(ticket, Follow::new(&start)))
    }

    /// The entry's current version (a game is played by the version current when it is
    /// played, as in `challenge run`).
    fn current_version(&self, entry: EntryId) -> Result<Version> {
        self.store
            .versions()?
            .into_iter()
            .find(|v| v.entry_id == entry && v.current)
            .ok_or(TournamentError::NoVersion(entry))
    }

    /// A version's engine, built on first use from its source, read under the claim of a
    /// game it plays (a worker's role reads no other).
    fn player(&mut self, version: &Version, t: &Tournament, claim: &Claim) -> Result<Player> {
        let path = match self.engines.get(&version.id) {
            Some(path) => path.clone(),
            None => {
                let path = self.build(version, claim)?;
                self.engines.insert(version.id, path.clone());
                path
            }
        };
        Ok(Player::new(
            EngineConfig::new(version.player_name(), path),
            t.time_control,
        ))
    }

    /// Writes a version's stored source out and builds it (or finds it in this
    /// machine's engine cache, keyed by content). The source is read under `claim`, the
    /// lease of a game the version plays: a worker's role may read no other.
    fn build(&mut self, version: &Version, claim: &Claim) -> Result<PathBuf> {
        let source = self.store.claimed_source(claim, version.id)?;
        let bot = write_source(&self.shared.options.work_dir, version, &source)?;
        let observe = self.shared.observe;
        let engine = bot_build::build(
            &bot,
            bot_build::BuildKind::Untrusted,
            &|event: BuildEvent<'_>| observe(WorkerEvent::Build(event)),
        )
        .map_err(|source| TournamentError::Build {
            name: version.name.clone(),
            number: version.number,
            source: Box::new(source),
        })?;
        Ok(engine.path)
    }

    fn opening(&mut self, t: &Tournament, index: usize) -> Result<Opening> {
        if self.openings.as_ref().is_none_or(|(id, _)| *id != t.id) {
            let openings = t
                .openings
                .iter()
                .enumerate()
                .map(|(index, o)| {
                    o.to_opening()
                        .map_err(|reason| TournamentError::StoredOpening { index, reason })
                })
                .collect::<Result<Vec<_>>>()?;
            self.openings = Some((t.id, openings));
        }
        let openings = &self.openings.as_ref().expect("just set").1;
        if openings.is_empty() {
            return Ok(Opening::startpos());
        }
        Ok(openings[index % openings.len()].clone())
    }
}

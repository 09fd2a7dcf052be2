//! The organiser's tournament, played in a background thread by the same runner as
//! `challenge run` (so it resumes after a restart exactly as `challenge run` does), on a
//! store wrapper that holds back new games while the tournament is paused and tells the
//! live pages the moment a game is stored.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;

use anyhow::{Result, bail};

use kit::challenge::tournament::{RunOptions, run};
use store::*;

/// What the tournament thread is doing.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum RunnerState {
    /// No thread: no tournament started by this server, or it ended.
    #[default]
    Idle,
    /// Playing (or paused between games).
    Running,
    /// The run stopped with this error.
    Failed(String),
}

/// The switches shared with the tournament thread.
struct Control {
    paused: Mutex<bool>,
    resumed: Condvar,
    stopping: AtomicBool,
    state: Mutex<RunnerState>,
    on_game: Box<dyn Fn() + Send + Sync>,
}

/// Starts, pauses and resumes the tournament thread.
pub struct Runner {
    control: Arc<Control>,
    dir: PathBuf,
    concurrency: usize,
}

impl Runner {
    /// A runner for the challenge in `dir` playing `concurrency` games at once; `on_game`
    /// is called after each stored game.
    pub fn new(
        dir: &Path,
        concurrency: usize,
        paused: bool,
        on_game: impl Fn() + Send + Sync + 'static,
    ) -> Runner {
        Runner {
            control: Arc::new(Control {
                paused: Mutex::new(paused),
                resumed: Condvar::new(),
                stopping: AtomicBool::new(false),
                state: Mutex::new(RunnerState::Idle),
                on_game: Box::new(on_game),
            }),
            dir: dir.to_path_buf(),
            concurrency: concurrency.max(1),
        }
    }

    /// What the thread is doing.
    pub fn state(&self) -> RunnerState {
        lock(&self.control.state).clone()
    }

    /// Starts playing with `options` (a new tournament, or the unfinished one with its
    /// stored settings) unless a run is going on already.
    pub fn start(&self, mut options: RunOptions) -> Result<()> {
        let mut state = lock(&self.control.state);
        if *state == RunnerState::Running {
            bail!("the tournament is already being played");
        }
        *state = RunnerState::Running;
        drop(state);
        options.concurrency = self.concurrency;
        options.max_games = None;
        let control = Arc::clone(&self.control);
        let dir = self.dir.clone();
        let (ready, scheduled) = std::sync::mpsc::channel();
        std::thread::Builder::new()
            .name("tournament".into())
            .spawn(move || {
                let outcome = play(&control, &dir, &options, ready);
                let mut state = lock(&control.state);
                *state = match outcome {
                    Ok(()) => RunnerState::Idle,
                    Err(err) if control.stopping.load(Ordering::Relaxed) => {
                        eprintln!("serve: tournament stopped: {err:#}");
                        RunnerState::Idle
                    }
                    Err(err) => {
                        eprintln!("serve: the tournament stopped: {err:#}");
                        RunnerState::Failed(format!("{err:#}"))
                    }
                };
                drop(state);
                (control.on_game)();
            })?;
        // Return once the tournament is in the store (or the run ended), so the page the
        // organiser sees next shows it.
        let _ = scheduled.recv_timeout(Duration::from_secs(60));
        Ok(())
    }

    /// Pauses (no new game starts; games in flight finish) or resumes.
    pub fn set_paused(&self, paused: bool) {
        *lock(&self.control.paused) = paused;
        self.control.resumed.notify_all();
    }

    /// Lets the thread end after the games in flight (the server is stopping).
    pub fn stop(&self) {
        self.control.stopping.store(true, Ordering::Relaxed);
        self.control.resumed.notify_all();
    }
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    // A panicked holder leaves plain data behind; carry on with it.
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Plays the tournament; `ready` is told once it is in the store (dropped on failure).
fn play(
    control: &Arc<Control>,
    dir: &Path,
    options: &RunOptions,
    ready: std::sync::mpsc::Sender<()>,
) -> Result<()> {
    let store = SqliteStore::open(dir)?;
    let _lock = store.lock_for_run()?;
    if store.unfinished_tournament()?.is_some() {
        let _ = ready.send(());
    }
    let mut gated = GatedStore {
        inner: store,
        control: Arc::clone(control),
        batch: options.concurrency,
        ready: Some(ready),
    };
    // The server's log shows the tournament's progress, as `challenge run` does.
    run(&mut gated, dir, options, &|event| eprintln!("{event}")).map_err(anyhow::Error::from)
}

/// The store the tournament thread plays on: claims wait while the tournament is paused
/// and come in batches of `batch` (so a pause takes effect after the games in flight), and
/// each recorded game is announced.
struct GatedStore {
    inner: SqliteStore,
    control: Arc<Control>,
    batch: usize,
    ready: Option<std::sync::mpsc::Sender<()>>,
}

impl GatedStore {
    fn wait_unpaused(&self) -> Result<()> {
        let mut paused = lock(&self.control.paused);
        loop {
            if self.control.stopping.load(Ordering::Relaxed) {
                bail!("the server is stopping; the tournament goes on at its next start");
            }
            if !*paused {
                return Ok(());
            }
            paused = self
                .control
                .resumed
                .wait_timeout(paused, Duration::from_secs(1))
                .unwrap_or_else(|poisoned| poisoned.into_inner())
                .0;
        }
    }
}

impl Store for GatedStore {
    fn location(&self) -> String {
        self.inner.location()
    }
    fn add_version(&mut self, new: &NewVersion<'_>) -> Result<Submitted> {
        self.inner.add_version(new)
    }
    fn withdraw(&mut self, name: &str) -> Result<bool> {
        self.inner.withdraw(name)
    }
    fn versions(&self) -> Result<Vec<Version>> {
        self.inner.versions()
    }
    fn source(&self, version: VersionId) -> Result<String> {
        self.inner.source(version)
    }
    fn tournament_count(&self) -> Result<usize> {
        self.inner.tournament_count()
    }
    fn unfinished_tournament(&self) -> Result<Option<Tournament>> {
        self.inner.unfinished_tournament()
    }
    fn create_tournament(&mut self, new: &NewTournament<'_>) -> Result<TournamentId> {
        let id = self.inner.create_tournament(new)?;
        if let Some(ready) = self.ready.take() {
            let _ = ready.send(());
        }
        Ok(id)
    }
    fn add_round(&mut self, round: &NewRound<'_>) -> Result<()> {
        self.inner.add_round(round)
    }
    fn participants(&self, tournament: TournamentId) -> Result<Vec<EntryId>> {
        self.inner.participants(tournament)
    }
    fn slots(&self, tournament: TournamentId) -> Result<Vec<Slot>> {
        self.inner.slots(tournament)
    }
    fn byes(&self, tournament: TournamentId) -> Result<Vec<EntryId>> {
        self.inner.byes(tournament)
    }
    fn cancel_withdrawn(&mut self, tournament: TournamentId) -> Result<usize> {
        self.inner.cancel_withdrawn(tournament)
    }
    fn finish_tournament(&mut self, tournament: TournamentId) -> Result<()> {
        self.inner.finish_tournament(tournament)
    }
    fn claim(&mut self, tournament: TournamentId, worker: &str, max: usize) -> Result<Vec<Claim>> {
        self.wait_unpaused()?;
        self.inner.claim(tournament, worker, max.min(self.batch))
    }
    fn release(&mut self, claim: &Claim) -> Result<()> {
        self.inner.release(claim)
    }
    fn record(&mut self, claim: &Claim, game: &NewGame) -> Result<GameId> {
        let id = self.inner.record(claim, game)?;
        (self.control.on_game)();
        Ok(id)
    }
    fn games(&self, with_pgn: bool) -> Result<Vec<Game>> {
        self.inner.games(with_pgn)
    }
    fn server_state(&self) -> Result<ServerState> {
        self.inner.server_state()
    }
    fn set_server_flag(&mut self, flag: ServerFlag, on: bool) -> Result<()> {
        self.inner.set_server_flag(flag, on)
    }
    fn set_admin_token_hash(&mut self, hash: &str) -> Result<()> {
        self.inner.set_admin_token_hash(hash)
    }
    fn entry_key_hash(&self, entry: &str) -> Result<Option<String>> {
        self.inner.entry_key_hash(entry)
    }
    fn set_entry_key_hash(&mut self, entry: &str, hash: &str) -> Result<bool> {
        self.inner.set_entry_key_hash(entry, hash)
    }
    fn save_job(&mut self, job: &Job) -> Result<()> {
        self.inner.save_job(job)
    }
    fn job(&self, id: &str) -> Result<Option<Job>> {
        self.inner.job(id)
    }
    fn refuse_unfinished_jobs(&mut self, message: &str) -> Result<usize> {
        self.inner.refuse_unfinished_jobs(message)
    }
    fn revision(&self) -> Result<StoreRevision> {
        self.inner.revision()
    }
    fn game(&self, id: GameId) -> Result<Option<Game>> {
        self.inner.game(id)
    }
}

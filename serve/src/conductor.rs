//! Who plays the organiser's tournament.
//!
//! On a challenge directory (SQLite) this server does: `challenge run`'s loop
//! ([`run_gated`]) in a background thread, so it resumes after a restart exactly as
//! `challenge run` does, through a gate the pause button closes (no new game starts; the
//! games in flight finish) and that tells the live pages the moment a game is stored.
//!
//! The games played here are followed move by move for the live pages (the gate's
//! [`GameWatch`] is the server's [`LiveGames`]).
//!
//! On a PostgreSQL store `challenge worker`s on any machine do: starting the tournament
//! schedules it in the store, and pausing sets the stored switch the workers read before
//! each claim. The server plays nothing there: one more player would compete with the
//! workers for the machine that serves the pages, and a server that plays is one more
//! thing to stop before the store can be moved. It organises instead: a thread takes the
//! organiser's step ([`Organiser::step`]) every [`ORGANISE_EVERY`], which a worker's role
//! may not, so while the server runs a tournament started anywhere (here, or by `challenge
//! run --schedule-only`) gets its Swiss rounds paired and is finished.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::Sender;
use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;

use anyhow::{Result, bail};

use league::{Closed, Gate};
use league::{Organiser, Progress, RunOptions, TournamentEvent, run_gated};
use runner::GameWatch;
use store::{Access, SqliteStore, Store, StoreLocation, open_store};

/// How often the organiser thread of a server whose games workers play looks at the
/// store: two small counts when games are still to play.
pub const ORGANISE_EVERY: Duration = Duration::from_secs(1);

use super::watch::LiveGames;

/// Who is playing the tournament.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum ConductorState {
    /// No thread: no tournament started by this server, or it ended.
    #[default]
    Idle,
    /// Playing (or paused between games).
    Running,
    /// The run stopped with this error.
    Failed(String),
    /// Not this server: `challenge worker`s on the PostgreSQL store.
    Workers,
}

/// The switches shared with the tournament thread.
struct Control {
    paused: Mutex<bool>,
    resumed: Condvar,
    stopping: AtomicBool,
    state: Mutex<ConductorState>,
    on_game: Box<dyn Fn() + Send + Sync>,
    /// The games in progress, followed move by move for the live pages.
    games: Arc<LiveGames>,
}

/// Where the games are played.
enum Players {
    /// In this process, on the challenge directory `dir`, `concurrency` games at once.
    Here { dir: PathBuf, concurrency: usize },
    /// By `challenge worker`s, on the store.
    Workers,
}

/// Starts, pauses and resumes the tournament.
pub struct Conductor {
    control: Arc<Control>,
    players: Players,
}

impl Conductor {
    /// A conductor that plays the challenge in `dir`, `concurrency` games at once; `on_game`
    /// is called after each stored game.
    pub fn here(
        dir: &Path,
        concurrency: usize,
        paused: bool,
        games: Arc<LiveGames>,
        on_game: impl Fn() + Send + Sync + 'static,
    ) -> Conductor {
        Conductor {
            control: Control::new(paused, games, Box::new(on_game)),
            players: Players::Here {
                dir: dir.to_path_buf(),
                concurrency: concurrency.max(1),
            },
        }
    }

    /// A conductor that leaves the games of the store at `location` to `challenge
    /// worker`s (their games reach the live pages from the store:
    /// `StandingsCache::follow_workers`) and organises: its thread moves the tournament on as they
    /// play; `on_change` is called when it paired a round or finished the tournament.
    pub fn workers(
        location: &StoreLocation,
        games: Arc<LiveGames>,
        on_change: impl Fn() + Send + Sync + 'static,
    ) -> Conductor {
        let control = Control::new(false, games, Box::new(on_change));
        *lock(&control.state) = ConductorState::Workers;
        let organising = Arc::clone(&control);
        let location = location.clone();
        std::thread::Builder::new()
            .name("organiser".into())
            .spawn(move || organise(&organising, &location))
            .expect("spawn the organiser thread");
        Conductor {
            control,
            players: Players::Workers,
        }
    }

    /// The games this server is playing, for the live pages.
    pub fn games(&self) -> &Arc<LiveGames> {
        &self.control.games
    }

    /// Whether this server plays the games (else workers do).
    pub fn plays_here(&self) -> bool {
        matches!(self.players, Players::Here { .. })
    }

    /// Who is playing (for workers: `Failed` while the organiser thread cannot move
    /// the tournament on).
    pub fn state(&self) -> ConductorState {
        lock(&self.control.state).clone()
    }

    /// Starts playing with `options` (a new tournament, or the unfinished one with its
    /// stored settings) unless a run is going on already; returns once the tournament is
    /// in the store. Only a conductor that [plays here](Conductor::plays_here) plays.
    pub fn start(&self, mut options: RunOptions) -> Result<()> {
        let Players::Here { dir, concurrency } = &self.players else {
            bail!("this server plays no games: `challenge worker`s play the store's tournament");
        };
        let mut state = lock(&self.control.state);
        if *state == ConductorState::Running {
            bail!("the tournament is already being played");
        }
        *state = ConductorState::Running;
        drop(state);
        options.concurrency = *concurrency;
        options.max_games = None;
        let control = Arc::clone(&self.control);
        let dir = dir.clone();
        let (ready, scheduled) = std::sync::mpsc::channel();
        std::thread::Builder::new()
            .name("tournament".into())
            .spawn(move || {
                let outcome = play(&control, &dir, &options, ready);
                control.ended(outcome);
            })?;
        // Return once the tournament is in the store (or the run ended), so the page the
        // organiser sees next shows it.
        let _ = scheduled.recv_timeout(Duration::from_secs(60));
        Ok(())
    }

    /// Pauses (no new game starts; games in flight finish) or resumes this server's
    /// games (workers read the stored switch).
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

impl Control {
    fn new(
        paused: bool,
        games: Arc<LiveGames>,
        on_game: Box<dyn Fn() + Send + Sync>,
    ) -> Arc<Control> {
        Arc::new(Control {
            games,
            paused: Mutex::new(paused),
            resumed: Condvar::new(),
            stopping: AtomicBool::new(false),
            state: Mutex::new(ConductorState::Idle),
            on_game,
        })
    }

    /// The thread's run ended with `outcome`.
    fn ended(&self, outcome: Result<()>) {
        let mut state = lock(&self.state);
        *state = match outcome {
            Ok(()) => ConductorState::Idle,
            Err(err) if self.stopping.load(Ordering::Relaxed) => {
                eprintln!("serve: tournament stopped: {err:#}");
                ConductorState::Idle
            }
            Err(err) => {
                eprintln!("serve: the tournament stopped: {err:#}");
                ConductorState::Failed(format!("{err:#}"))
            }
        };
        drop(state);
        (self.on_game)();
    }
}

impl Control {
    /// Waits `wait` (less if the server stops); returns whether the server goes on.
    fn sleep(&self, wait: Duration) -> bool {
        let paused = lock(&self.paused);
        if !self.stopping.load(Ordering::Relaxed) {
            drop(
                self.resumed
                    .wait_timeout(paused, wait)
                    .unwrap_or_else(|poisoned| poisoned.into_inner()),
            );
        }
        !self.stopping.load(Ordering::Relaxed)
    }
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    // A panicked holder leaves plain data behind; carry on with it.
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Plays the tournament; `ready` is told once it is in the store (dropped on failure).
fn play(control: &Control, dir: &Path, options: &RunOptions, ready: Sender<()>) -> Result<()> {
    let mut store = SqliteStore::open(dir)?;
    let _lock = store.lock_for_run()?;
    let observe = |event: TournamentEvent<'_>| {
        match &event {
            // No one waiting is not an error.
            TournamentEvent::Created { .. } | TournamentEvent::Resumed { .. } => {
                let _ = ready.send(());
            }
            TournamentEvent::GameStored { .. } => (control.on_game)(),
            _ => {}
        }
        // The server's log shows the tournament's progress, as `challenge run` does.
        eprintln!("{event}");
    };
    let gate = ServerGate { control };
    run_gated(&mut store, dir, options, &gate, &observe).map_err(anyhow::Error::from)
}

/// The organiser thread: the organiser's step every [`ORGANISE_EVERY`] on a connection
/// of its own, until the server stops. A failure is logged and shown in the status line,
/// and the connection opened again, waiting longer after each failure (up to 30 s).
fn organise(control: &Control, location: &StoreLocation) {
    let mut organiser = Organiser::default();
    let mut store: Option<Box<dyn Store + Send>> = None;
    let mut wait = ORGANISE_EVERY;
    while control.sleep(wait) {
        let stepped = (|| -> Result<Progress> {
            let store = match &mut store {
                Some(store) => store,
                None => store.insert(open_store(location, Access::Write)?),
            };
            // The server's log shows the tournament's progress, as `challenge run` does.
            Ok(organiser.step(store.as_mut(), &|event| eprintln!("{event}"))?)
        })();
        let state = match stepped {
            Ok(progress) => {
                wait = ORGANISE_EVERY;
                if matches!(
                    progress,
                    Progress::Paired { .. } | Progress::Finished { .. }
                ) {
                    (control.on_game)();
                }
                ConductorState::Workers
            }
            Err(err) => {
                eprintln!("serve: cannot move the tournament on: {err:#}");
                store = None;
                wait = (wait * 2).min(Duration::from_secs(30));
                ConductorState::Failed(format!("cannot move the tournament on: {err:#}"))
            }
        };
        *lock(&control.state) = state;
    }
}

/// The tournament thread's gate: closed while paused or stopping.
struct ServerGate<'a> {
    control: &'a Control,
}

impl Gate for ServerGate<'_> {
    fn is_open(&self) -> bool {
        !*lock(&self.control.paused) && !self.control.stopping.load(Ordering::Relaxed)
    }

    fn wait_open(&self) -> Result<(), Closed> {
        let mut paused = lock(&self.control.paused);
        loop {
            if self.control.stopping.load(Ordering::Relaxed) {
                return Err(Closed(
                    "the server is stopping; the tournament goes on at its next start".into(),
                ));
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

    fn watch(&self) -> Option<&dyn GameWatch> {
        Some(&*self.control.games)
    }
}

//! The one worker pool every game is played on (`match`, `challenge run`): `N` worker
//! threads, each keeping its own engine processes alive from game to game, pulling the next
//! game from the caller and handing each finished record back on the calling thread.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, mpsc};
use std::time::Duration;

use super::engine::Engine;
use super::game::{GameRecord, GameSettings, Player, play_game_observed};
use super::observer::MoveObserver;
use super::openings::Opening;

/// Who plays whom from which opening: indices into [`Pool::players`] and
/// [`Pool::openings`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Pairing {
    /// White's player index.
    pub white: usize,
    /// Black's player index.
    pub black: usize,
    /// The opening's index.
    pub opening: usize,
    /// The game's seed for the engines' random numbers ([`GameSettings::engine_seed`]), if
    /// the caller gives one.
    pub seed: Option<u64>,
}

/// Chooses who follows a game of [`Pool::play_watched`], from its tag and pairing.
pub type ChooseObserver<'a, J> = &'a (dyn Fn(&J, &Pairing) -> Option<Box<dyn MoveObserver>> + Sync);

/// What the pool plays with.
#[derive(Debug, Clone, Copy)]
pub struct Pool<'a> {
    /// Everyone who may be paired.
    pub players: &'a [Player],
    /// The openings pairings name (must not be empty).
    pub openings: &'a [Opening],
    /// Clocks, margins, adjudication.
    pub settings: &'a GameSettings,
    /// Games played at once, each on its own worker thread.
    pub concurrency: usize,
}

impl Pool<'_> {
    /// Plays games until `next` has none left or `stop` is set. `next` is called by the
    /// workers (one at a time) for each game to play, with a tag `J` of the caller's
    /// choosing; `on_game` is called on the calling thread with the tag and the record of
    /// each game as it finishes (interrupted games included: their result is `*`).
    ///
    /// ```no_run
    /// use std::sync::atomic::AtomicBool;
    /// use runner::*;
    /// let sf = Player::new(EngineConfig::new("sf", "/usr/games/stockfish"), "1+0.01".parse().unwrap());
    /// let players = [sf.clone(), sf];
    /// let mut games = vec![Pairing { white: 0, black: 1, opening: 0, seed: None }].into_iter();
    /// let pool = Pool { players: &players, openings: &[Opening::startpos()], settings: &GameSettings::default(), concurrency: 1 };
    /// pool.play(&AtomicBool::new(false), move || games.next().map(|p| ((), p)), |(), record| println!("{}", record.result));
    /// ```
    pub fn play<J: Send>(
        &self,
        stop: &AtomicBool,
        next: impl FnMut() -> Option<(J, Pairing)> + Send,
        on_game: impl FnMut(J, GameRecord),
    ) {
        self.play_watched(stop, next, &|_: &J, _: &Pairing| None, on_game);
    }

    /// [`Pool::play`], asking `watch` on the worker's thread, as each game is handed out,
    /// for an observer to follow that game move by move (`None`: nobody watches it).
    pub fn play_watched<J: Send>(
        &self,
        stop: &AtomicBool,
        next: impl FnMut() -> Option<(J, Pairing)> + Send,
        watch: ChooseObserver<'_, J>,
        mut on_game: impl FnMut(J, GameRecord),
    ) {
        let next = Mutex::new(next);
        std::thread::scope(|scope| {
            let (tx, rx) = mpsc::channel::<(J, GameRecord)>();
            for w in 0..self.concurrency.max(1) {
                let tx = tx.clone();
                let next = &next;
                std::thread::Builder::new()
                    .name(format!("game-worker-{w}"))
                    .spawn_scoped(scope, move || self.work(stop, next, watch, &tx))
                    .expect("spawn a game worker");
            }
            drop(tx);
            for (tag, record) in rx {
                on_game(tag, record);
            }
        });
    }

    /// One worker: its engines, indexed like the players, live until the queue is empty.
    fn work<J>(
        &self,
        stop: &AtomicBool,
        next: &Mutex<impl FnMut() -> Option<(J, Pairing)>>,
        watch: ChooseObserver<'_, J>,
        tx: &mpsc::Sender<(J, GameRecord)>,
    ) {
        let mut engines: Vec<Option<Engine>> = self.players.iter().map(|_| None).collect();
        while !stop.load(Ordering::Relaxed) {
            let job = {
                let mut next = next.lock().unwrap_or_else(|e| e.into_inner());
                next()
            };
            let Some((tag, pairing)) = job else { break };
            let (white, black) = two_mut(&mut engines, pairing.white, pairing.black);
            let mut observer = watch(&tag, &pairing);
            let settings = GameSettings {
                engine_seed: pairing.seed,
                ..*self.settings
            };
            let record = play_game_observed(
                [&self.players[pairing.white], &self.players[pairing.black]],
                [white, black],
                &self.openings[pairing.opening % self.openings.len()],
                &settings,
                stop,
                observer.as_deref_mut().map(|o| o as &mut dyn MoveObserver),
            );
            // Its end is told (when it tells one on drop) before the record is handed on.
            drop(observer);
            if tx.send((tag, record)).is_err() {
                break;
            }
        }
        for engine in engines.into_iter().flatten() {
            engine.quit(Duration::from_millis(300));
        }
    }
}

fn two_mut<T>(items: &mut [T], a: usize, b: usize) -> (&mut T, &mut T) {
    assert_ne!(a, b, "a player cannot play itself");
    if a < b {
        let (lo, hi) = items.split_at_mut(b);
        (&mut lo[a], &mut hi[0])
    } else {
        let (lo, hi) = items.split_at_mut(a);
        (&mut hi[0], &mut lo[b])
    }
}

//! Games in progress, shown live: the hub between the game threads that play them and
//! the pages that watch them (`/live`, `/live/{key}`, see `watch_routes`).
//!
//! The cost of a watcher falls on the server, never on a game's thread. After each move
//! the game's thread builds the game's state once, as JSON ([`Frame`]), puts it in the
//! game's slot and wakes one task, the relay; it does nothing per watcher and never waits
//! for one. The relay hands the newest frame of each changed game to that game's
//! `tokio::sync::watch` channel, at most once per [`COALESCE`] per game: every watcher
//! reads the same shared [`Bytes`], and a slow one skips to the newest frame. A game
//! takes at most its cap of watchers ([`LiveGames::new`]); the page refuses the next.
//!
//! Games played elsewhere (a PostgreSQL store's `challenge worker`s) reach the same hub
//! from the store: the refresher reads the snapshots the workers publish (`standings_cache.rs`) and
//! hands each new one to [`LiveGames::show`], and a game that left the store's live
//! table to [`LiveGames::end_elsewhere`]; from there on it is a game like the others.

use std::collections::{BTreeMap, VecDeque};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use axum::body::Bytes;
use framework::chess::Board;
use league::{Follow, GameView};
use runner::{GameWatch, LiveEnd, LiveStart};
use runner::{MoveObserver, MoveUpdate};
use serde::Serialize;
use tokio::sync::{Notify, watch};

/// The shortest time between two frames sent to a game's watchers: moves played faster
/// are shown together (the frame holds the whole game).
pub const COALESCE: Duration = Duration::from_millis(100);

/// Watchers one game takes by default (`challenge serve --max-watchers`).
pub const MAX_WATCHERS_PER_GAME: usize = 256;

/// How many ended games are remembered, so that a late visitor to a finished game's live
/// page is sent to the stored game.
const REMEMBERED_ENDINGS: usize = 256;

/// One frame of a game: its whole state as the page draws it, in JSON.
pub type Frame = Bytes;

/// One game in progress, as the hub keeps it.
struct Game {
    key: i64,
    white: String,
    black: String,
    round: String,
    /// The game's newest state; the game's thread changes it, the relay serialises it.
    latest: Mutex<Latest>,
    /// What the watchers read.
    frames: watch::Sender<Frame>,
    watchers: AtomicUsize,
    /// Over on the board (its thread let go of it).
    over: AtomicBool,
    /// Its end is known: once its last frame is sent, the hub forgets it.
    ended: Mutex<Option<Option<String>>>,
    /// Set just before its last frame is sent: a watcher that sees it ends after
    /// sending the newest frame.
    closed: AtomicBool,
}

/// A game's newest state, and its frame once serialised: a move costs the game's thread
/// an update of the view, and the JSON is written at most once per relay round (or for
/// a new watcher), off that thread.
struct Latest {
    shown: Shown,
    /// The view serialised, until the next change.
    frame: Option<Frame>,
    /// Whether the relay sent the current view.
    sent: bool,
}

/// Where a game's view comes from.
enum Shown {
    /// Followed move by move on this machine.
    Followed(Follow),
    /// Copied from another process's frames (a `challenge worker`'s, via the store).
    Copied(GameView),
}

impl Latest {
    fn new(shown: Shown) -> Latest {
        Latest {
            shown,
            frame: None,
            sent: false,
        }
    }

    fn view(&self) -> &GameView {
        match &self.shown {
            Shown::Followed(follow) => follow.view(),
            Shown::Copied(view) => view,
        }
    }

    /// The view to change; the change goes out with the relay's next round.
    fn changed(&mut self) -> &mut Shown {
        self.frame = None;
        self.sent = false;
        &mut self.shown
    }

    /// The current view as a frame, serialised once per change.
    fn frame(&mut self) -> Frame {
        if self.frame.is_none() {
            self.frame = Some(frame_of(self.view()));
        }
        self.frame.clone().expect("just set")
    }
}

/// A game in the now-playing list.
#[derive(Debug, Clone, Serialize)]
pub struct Playing {
    /// Its key: the page is `/live/{key}`.
    pub key: i64,
    /// White's name.
    pub white: String,
    /// Black's name.
    pub black: String,
    /// Round and game.
    pub round: String,
    /// Watchers now.
    pub watchers: usize,
}

/// What a watcher gets: the frames of one game, and its place under the game's cap,
/// given back when dropped.
pub struct Watching {
    game: Arc<Game>,
    /// The frames, the newest first.
    pub frames: watch::Receiver<Frame>,
}

impl Watching {
    /// The game's last frame went out: after sending [`Watching::newest`], stop.
    pub fn is_closed(&self) -> bool {
        self.game.closed.load(Ordering::SeqCst)
    }

    /// The game's newest frame (its last one once [closed](Watching::is_closed)).
    pub fn newest(&self) -> Frame {
        lock(&self.game.latest).frame()
    }
}

impl Drop for Watching {
    fn drop(&mut self) {
        self.game.watchers.fetch_sub(1, Ordering::Relaxed);
    }
}

/// Why a game cannot be watched.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    /// No game in progress has that key; `Some(url)` when it ended and was stored there.
    NotPlaying(Option<String>),
    /// The game has its cap of watchers.
    Full(usize),
}

/// The live games and the relay's wake-up: the game threads that play them hand each
/// move's state here, and one relay task hands it on to the game's watchers, so a
/// watcher costs the server and never a game's thread.
pub struct LiveGames {
    games: Mutex<BTreeMap<i64, Arc<Game>>>,
    ended: Mutex<VecDeque<(i64, Option<String>)>>,
    relay: Arc<Notify>,
    list: watch::Sender<u64>,
    list_changed: AtomicBool,
    cap: usize,
    standings: Mutex<Option<Vec<StandingLine>>>,
    link_stored: bool,
}

/// A line of a match's standings, for `challenge match --watch`.
#[derive(Debug, Clone, Serialize)]
pub struct StandingLine {
    /// The player.
    pub name: String,
    /// Points.
    pub points: f64,
    /// Games played.
    pub games: usize,
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    // The data behind these locks is replaced whole; a panicked holder left it usable.
    mutex.lock().unwrap_or_else(|p| p.into_inner())
}

impl LiveGames {
    /// No games yet; each game takes at most `cap` watchers. `link_stored`: finished games
    /// link to their stored page (`challenge serve`), else the page stays on the result.
    ///
    /// ```
    /// let games = serve::LiveGames::new(10, true);
    /// assert!(games.playing().is_empty());
    /// ```
    pub fn new(cap: usize, link_stored: bool) -> Arc<LiveGames> {
        Arc::new(LiveGames {
            games: Mutex::new(BTreeMap::new()),
            ended: Mutex::new(VecDeque::new()),
            relay: Arc::new(Notify::new()),
            list: watch::channel(0).0,
            list_changed: AtomicBool::new(false),
            cap: cap.max(1),
            standings: Mutex::new(None),
            link_stored,
        })
    }

    /// The watchers one game takes.
    pub fn cap(&self) -> usize {
        self.cap
    }

    /// The games in progress, in the order they started.
    pub fn playing(&self) -> Vec<Playing> {
        lock(&self.games)
            .values()
            .filter(|g| !g.over.load(Ordering::Relaxed))
            .map(|g| Playing {
                key: g.key,
                white: g.white.clone(),
                black: g.black.clone(),
                round: g.round.clone(),
                watchers: g.watchers.load(Ordering::Relaxed),
            })
            .collect()
    }

    /// A match's standings (set by `challenge match --watch` after each game).
    pub fn set_standings(&self, lines: Vec<StandingLine>) {
        *lock(&self.standings) = Some(lines);
        self.list_changed();
    }

    /// The match's standings, if any were set.
    pub fn standings(&self) -> Option<Vec<StandingLine>> {
        lock(&self.standings).clone()
    }

    /// A receiver that changes whenever the now-playing list (or the standings) does.
    pub fn list_changes(&self) -> watch::Receiver<u64> {
        self.list.subscribe()
    }

    /// A place among game `key`'s watchers, with its frames.
    pub fn watch(&self, key: i64) -> Result<Watching, Refusal> {
        let Some(game) = lock(&self.games).get(&key).cloned() else {
            let ended = lock(&self.ended);
            let stored = ended
                .iter()
                .find(|(k, _)| *k == key)
                .and_then(|e| e.1.clone());
            return Err(Refusal::NotPlaying(stored));
        };
        let before = game.watchers.fetch_add(1, Ordering::Relaxed);
        if before >= self.cap {
            game.watchers.fetch_sub(1, Ordering::Relaxed);
            return Err(Refusal::Full(self.cap));
        }
        let frames = game.frames.subscribe();
        Ok(Watching { game, frames })
    }

    /// Game `key`'s current watchers (0 when it is not playing).
    pub fn watchers(&self, key: i64) -> usize {
        lock(&self.games)
            .get(&key)
            .map_or(0, |g| g.watchers.load(Ordering::Relaxed))
    }

    fn list_changed(&self) {
        self.list_changed.store(true, Ordering::Relaxed);
        self.relay.notify_one();
    }

    /// Hands the newest frames to the watchers until the process ends (spawn it once on
    /// the runtime that serves the pages).
    pub async fn relay(self: Arc<Self>) {
        loop {
            self.relay.notified().await;
            self.send_changed();
            // Moves within this pause go out together in the next frame.
            tokio::time::sleep(COALESCE).await;
        }
    }

    /// One round of the relay: each changed game's newest frame to its watchers; a game
    /// whose last frame went out is forgotten.
    fn send_changed(&self) {
        let games: Vec<Arc<Game>> = lock(&self.games).values().cloned().collect();
        for game in games {
            let frame = {
                let mut latest = lock(&game.latest);
                if latest.sent {
                    None
                } else {
                    latest.sent = true;
                    Some(latest.frame())
                }
            };
            let ended = lock(&game.ended).clone();
            if ended.is_some() {
                game.closed.store(true, Ordering::SeqCst);
            }
            if let Some(frame) = frame {
                game.frames.send_replace(frame);
            }
            if let Some(stored) = ended {
                self.forget(game.key, stored);
            }
        }
        if self.list_changed.swap(false, Ordering::Relaxed) {
            self.list.send_modify(|n| *n += 1);
        }
    }

    /// Forgets an ended game, remembering where it was stored.
    fn forget(&self, key: i64, stored: Option<String>) {
        lock(&self.games).remove(&key);
        let mut ended = lock(&self.ended);
        ended.push_back((key, stored));
        while ended.len() > REMEMBERED_ENDINGS {
            ended.pop_front();
        }
        drop(ended);
        self.list_changed.store(true, Ordering::Relaxed);
    }
}

/// Follows one game on its thread: after each move updates the game's view and wakes
/// the relay.
struct Follower {
    game: Arc<Game>,
    relay: Arc<Notify>,
}

impl Follower {
    fn update(&self, change: impl FnOnce(&mut Follow)) {
        if let Shown::Followed(follow) = lock(&self.game.latest).changed() {
            change(follow);
        }
        self.relay.notify_one();
    }
}

fn frame_of(view: &GameView) -> Frame {
    Bytes::from(view.to_json())
}

impl MoveObserver for Follower {
    fn started(&mut self, board: &Board, clocks: [Option<Duration>; 2]) {
        self.update(|follow| follow.started(board, clocks));
    }

    fn moved(&mut self, update: &MoveUpdate<'_>) {
        self.update(|follow| follow.moved(update));
    }
}

impl Drop for Follower {
    fn drop(&mut self) {
        // The game is over on the board (or abandoned); its result follows from `end`.
        self.update(|follow| follow.end(None, None));
        self.game.over.store(true, Ordering::Relaxed);
    }
}

impl LiveGames {
    /// Adds a game to the hub, showing `view`.
    fn add(&self, shown: Shown) -> Arc<Game> {
        let mut latest = Latest::new(shown);
        let frame = latest.frame();
        latest.sent = true;
        let view = latest.view();
        let (key, white, black, round) = (
            view.key,
            view.white.clone(),
            view.black.clone(),
            view.round.clone(),
        );
        let game = Arc::new(Game {
            key,
            white,
            black,
            round,
            latest: Mutex::new(latest),
            frames: watch::channel(frame).0,
            watchers: AtomicUsize::new(0),
            over: AtomicBool::new(false),
            ended: Mutex::new(None),
            closed: AtomicBool::new(false),
        });
        lock(&self.games).insert(key, Arc::clone(&game));
        self.list_changed();
        game
    }

    /// Shows the newest state of a game played elsewhere (a `challenge worker`'s, read
    /// from the store): added to the hub the first time, its frame replaced after.
    /// Its end comes from [`LiveGames::end_elsewhere`], never from the view.
    pub fn show(&self, view: &GameView) {
        let mut view = view.clone();
        (view.over, view.result, view.detail, view.stored) = (false, None, None, None);
        let known = lock(&self.games).get(&view.key).cloned();
        match known {
            Some(game) if lock(&game.ended).is_none() => {
                *lock(&game.latest).changed() = Shown::Copied(view);
            }
            // New, or the same slot played again after its game was given up (its lease
            // ran out): a game of its own.
            _ => drop(self.add(Shown::Copied(view))),
        }
        self.relay.notify_one();
    }

    /// The keys of the games in the hub (playing, or ending).
    pub fn keys(&self) -> Vec<i64> {
        lock(&self.games).keys().copied().collect()
    }

    /// A game played elsewhere ended: with `result`, `detail` and the stored game's id
    /// once it is stored, or without (it was given back unplayed, or abandoned).
    pub fn end_elsewhere(&self, key: i64, ending: Option<(&str, &str, i64)>) {
        if let Some(game) = lock(&self.games).get(&key) {
            game.over.store(true, Ordering::Relaxed);
        }
        let (result, detail, stored) = match ending {
            Some((result, detail, id)) => (Some(result), Some(detail), Some(id)),
            None => (None, None, None),
        };
        self.finish(key, result, detail, stored);
    }

    /// Marks a game over in its last frame, with its result and where it was stored.
    fn finish(&self, key: i64, result: Option<&str>, detail: Option<&str>, stored: Option<i64>) {
        let stored = stored
            .filter(|_| self.link_stored)
            .map(|id| format!("/games/{id}"));
        if let Some(game) = lock(&self.games).get(&key) {
            match lock(&game.latest).changed() {
                Shown::Followed(follow) => follow.finish(result, detail, stored.clone()),
                Shown::Copied(view) => view.finish(result, detail, stored.clone()),
            }
            *lock(&game.ended) = Some(stored);
        }
        self.relay.notify_one();
    }
}

impl GameWatch for LiveGames {
    fn begin(&self, start: &LiveStart<'_>) -> Option<Box<dyn MoveObserver>> {
        let game = self.add(Shown::Followed(Follow::new(start)));
        Some(Box::new(Follower {
            game,
            relay: Arc::clone(&self.relay),
        }))
    }

    fn end(&self, end: &LiveEnd<'_>) {
        self.finish(
            end.key,
            Some(end.record.result.as_str()),
            Some(&end.record.detail),
            end.stored,
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn view(key: i64) -> GameView {
        let start = LiveStart {
            key,
            white: "a",
            black: "b",
            round: "round 1",
            opening: &runner::Opening::startpos(),
            time_controls: ["1+0".parse().expect("a time control"); 2],
        };
        Follow::new(&start).view().clone()
    }

    fn newest(games: &LiveGames, key: i64) -> serde_json::Value {
        let watching = games.watch(key).expect("playing");
        serde_json::from_slice(&watching.newest()).expect("a frame is JSON")
    }

    #[test]
    fn a_game_played_elsewhere_is_shown_and_ends_into_its_stored_game() {
        let games = LiveGames::new(4, true);
        let mut first = view(5);
        // What a worker says of the game's end is not taken: the store says it.
        (first.over, first.result) = (true, Some("1-0".into()));
        games.show(&first);
        games.send_changed();
        assert_eq!(games.keys(), [5]);
        assert_eq!(games.playing().len(), 1);
        assert_eq!(newest(&games, 5)["over"], false);
        assert_eq!(newest(&games, 5)["result"], serde_json::Value::Null);
        let mut later = view(5);
        later.plies = 3;
        games.show(&later);
        games.send_changed();
        assert_eq!(newest(&games, 5)["plies"], 3);

        games.end_elsewhere(5, Some(("0-1", "mate", 9)));
        assert!(games.playing().is_empty());
        let last = newest(&games, 5);
        assert_eq!(
            (&last["over"], &last["result"], &last["stored"]),
            (&true.into(), &"0-1".into(), &"/games/9".into())
        );
        games.send_changed();
        assert!(games.keys().is_empty());
        assert_eq!(
            games.watch(5).err(),
            Some(Refusal::NotPlaying(Some("/games/9".into())))
        );
    }

    #[test]
    fn a_slot_played_again_after_its_game_ended_is_a_game_of_its_own() {
        let games = LiveGames::new(4, true);
        games.show(&view(6));
        games.end_elsewhere(6, None);
        // Shown again before the relay let the ended game go: a new game under the key.
        games.show(&view(6));
        games.send_changed();
        assert_eq!(games.keys(), [6]);
        assert_eq!(newest(&games, 6)["over"], false);
    }
}

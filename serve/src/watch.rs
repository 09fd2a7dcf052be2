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

use std::collections::{BTreeMap, VecDeque};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use axum::body::Bytes;
use framework::chess::{Board, Color};
use framework::notation::to_san;
use kit::watch::{GameWatch, LiveEnd, LiveStart};
use runner::{MoveObserver, MoveUpdate, SearchInfo};
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

/// What an engine last said about its search, as the page shows it.
#[derive(Debug, Clone, Default, Serialize)]
struct EngineView {
    depth: Option<u32>,
    score: Option<String>,
    nodes: Option<u64>,
    pv: Vec<String>,
}

impl EngineView {
    fn of(info: &SearchInfo) -> EngineView {
        EngineView {
            depth: info.depth,
            score: info.score.map(|s| s.to_string()),
            nodes: info.nodes,
            pv: info.pv.clone(),
        }
    }
}

/// A game's state, serialised into each [`Frame`].
#[derive(Debug, Clone, Serialize)]
struct GameView {
    key: i64,
    /// Plies on the board since the start position (book moves included).
    plies: usize,
    white: String,
    black: String,
    round: String,
    start_fen: String,
    fen: String,
    first_move_number: u32,
    black_first: bool,
    sans: Vec<String>,
    last_move: Option<String>,
    check: bool,
    /// Milliseconds left, White's first (`null`: no clock).
    clocks: [Option<u64>; 2],
    /// The side to move, whose clock runs: `w` or `b`.
    turn: &'static str,
    engines: [EngineView; 2],
    over: bool,
    result: Option<String>,
    detail: Option<String>,
    /// The stored game's page, once the game is in the store.
    stored: Option<String>,
}

/// One game in progress, as the hub keeps it.
struct Game {
    key: i64,
    white: String,
    black: String,
    round: String,
    /// The newest frame and whether the relay has sent it; written by the game's thread.
    latest: Mutex<(Frame, bool)>,
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
        lock(&self.game.latest).0.clone()
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

/// The live games and the relay's wake-up; see the [module](self).
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
    /// let games = serve::watch::LiveGames::new(10, true);
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
                if !latest.1 {
                    latest.1 = true;
                    Some(latest.0.clone())
                } else {
                    None
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

/// Follows one game on its thread: keeps the board and the moves' SAN, and after each
/// move publishes the frame.
struct Follower {
    game: Arc<Game>,
    relay: Arc<Notify>,
    view: GameView,
    board: Board,
}

impl Follower {
    fn publish(&mut self) {
        let json = serde_json::to_vec(&self.view).expect("a game view always serialises");
        *lock(&self.game.latest) = (Bytes::from(json), false);
        self.relay.notify_one();
    }
}

fn millis(clocks: [Option<Duration>; 2]) -> [Option<u64>; 2] {
    clocks.map(|c| c.map(|d| d.as_millis() as u64))
}

fn turn(board: &Board) -> &'static str {
    match board.side_to_move() {
        Color::White => "w",
        Color::Black => "b",
    }
}

impl MoveObserver for Follower {
    fn started(&mut self, board: &Board, clocks: [Option<Duration>; 2]) {
        self.board = board.clone();
        self.view.fen = board.fen();
        self.view.clocks = millis(clocks);
        self.view.turn = turn(board);
        self.view.check = board.is_in_check();
        self.publish();
    }

    fn moved(&mut self, update: &MoveUpdate<'_>) {
        let side = update.board.side_to_move().index();
        self.view.sans.push(to_san(update.board, update.mv));
        self.view.plies = self.view.sans.len();
        self.board.make_move(update.mv);
        self.view.fen = self.board.fen();
        self.view.last_move = Some(update.mv.to_string());
        self.view.check = self.board.is_in_check();
        self.view.clocks = millis(update.clocks);
        self.view.turn = turn(&self.board);
        self.view.engines[side] = EngineView::of(update.info);
        self.publish();
    }
}

impl Drop for Follower {
    fn drop(&mut self) {
        // The game is over on the board (or abandoned); its result follows from `end`.
        self.view.over = true;
        self.publish();
        self.game.over.store(true, Ordering::Relaxed);
    }
}

/// The frame of a game that has not started moving: the opening on the board.
fn first_view(start: &LiveStart<'_>) -> (GameView, Board) {
    let opening = start.opening;
    let mut board = opening.start.clone();
    let first_move_number = board.fullmove_number();
    let black_first = board.side_to_move() == Color::Black;
    let mut sans = Vec::with_capacity(opening.moves.len());
    for &mv in &opening.moves {
        sans.push(to_san(&board, mv));
        board.make_move(mv);
    }
    let last_move = opening.moves.last().map(|m| m.to_string());
    let view = GameView {
        key: start.key,
        plies: sans.len(),
        white: start.white.to_string(),
        black: start.black.to_string(),
        round: start.round.to_string(),
        start_fen: opening.start.fen(),
        fen: board.fen(),
        first_move_number,
        black_first,
        sans,
        last_move,
        check: board.is_in_check(),
        clocks: [None, None],
        turn: turn(&board),
        engines: [EngineView::default(), EngineView::default()],
        over: false,
        result: None,
        detail: None,
        stored: None,
    };
    (view, board)
}

impl GameWatch for LiveGames {
    fn begin(&self, start: &LiveStart<'_>) -> Option<Box<dyn MoveObserver>> {
        let (view, board) = first_view(start);
        let frame = Bytes::from(serde_json::to_vec(&view).expect("a game view serialises"));
        let game = Arc::new(Game {
            key: start.key,
            white: view.white.clone(),
            black: view.black.clone(),
            round: view.round.clone(),
            latest: Mutex::new((frame.clone(), true)),
            frames: watch::channel(frame).0,
            watchers: AtomicUsize::new(0),
            over: AtomicBool::new(false),
            ended: Mutex::new(None),
            closed: AtomicBool::new(false),
        });
        lock(&self.games).insert(start.key, Arc::clone(&game));
        self.list_changed();
        Some(Box::new(Follower {
            game,
            relay: Arc::clone(&self.relay),
            view,
            board,
        }))
    }

    fn end(&self, end: &LiveEnd<'_>) {
        let stored = end
            .stored
            .filter(|_| self.link_stored)
            .map(|id| format!("/games/{id}"));
        if let Some(game) = lock(&self.games).get(&end.key) {
            let mut latest = lock(&game.latest);
            let mut view: serde_json::Value =
                serde_json::from_slice(&latest.0).unwrap_or(serde_json::Value::Null);
            if let Some(map) = view.as_object_mut() {
                map.insert("over".into(), true.into());
                map.insert("result".into(), end.record.result.as_str().into());
                map.insert("detail".into(), end.record.detail.clone().into());
                map.insert("stored".into(), stored.clone().into());
            }
            *latest = (Bytes::from(view.to_string()), false);
            drop(latest);
            *lock(&game.ended) = Some(stored);
        }
        self.relay.notify_one();
    }
}

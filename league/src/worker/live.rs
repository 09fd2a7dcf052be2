//! A worker's games, published live to the store for `challenge serve`'s live pages.
//!
//! A game's thread follows its game move by move ([`GameFollower`], a
//! [`MoveObserver`]): after each move it builds the game's snapshot once (the JSON of a
//! [`GameView`], bounded to the store's [`MAX_LIVE_SNAPSHOT_BYTES`]) and leaves it in the
//! [`Publisher`]'s slot for that game, replacing any not yet written; it never waits on
//! the store. One publishing thread per worker, on a connection of its own, writes each
//! game's newest snapshot at most once per [`EVERY`] (moves played faster go out
//! together: the snapshot holds the whole game). A game's final state is written at once
//! and before its result is recorded ([`Publisher::finish`] waits for it, at most
//! [`FINAL_WAIT`]), so the live page sees the game end before the row goes with the lease.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use framework::chess::Board;
use runner::{MoveObserver, MoveUpdate};
use store::{LiveTicket, MAX_LIVE_SNAPSHOT_BYTES, PostgresStore, SlotId, StoreError};

use super::WorkerEvent;
use crate::live_view::{Follow, GameView};

/// The shortest time between two writes of one game's snapshot.
pub const EVERY: Duration = Duration::from_millis(250);

/// The longest a game's thread waits for its final snapshot to be written before it
/// records the game anyway.
pub const FINAL_WAIT: Duration = Duration::from_secs(2);

/// A game's snapshot waiting to be written, and when the last one was (`T`: the right to
/// write it, a [`LiveTicket`]).
struct Pending<T> {
    ticket: T,
    snapshot: Option<String>,
    last: Option<Instant>,
    /// The game is over: write at once, then forget the game.
    last_one: bool,
    /// A failure to publish it was told (once per game).
    told: bool,
}

impl<T> Pending<T> {
    /// When its snapshot may be written, if it has one (`now`: at once).
    fn due(&self, now: Instant) -> Option<Instant> {
        self.snapshot.as_ref()?;
        match (self.last_one, self.last) {
            (false, Some(last)) => Some(last + EVERY),
            _ => Some(now),
        }
    }
}

struct Games<T = LiveTicket> {
    pending: HashMap<SlotId, Pending<T>>,
    stopping: bool,
}

impl<T> Default for Games<T> {
    fn default() -> Self {
        Games {
            pending: HashMap::new(),
            stopping: false,
        }
    }
}

impl<T: Clone> Games<T> {
    /// The snapshot due first at `now`, taken (its game's last write is `now`); else
    /// when the next one is due, if any is waiting.
    fn take_due(&mut self, now: Instant) -> Result<Write<T>, Option<Instant>> {
        let next = self
            .pending
            .iter()
            .filter_map(|(slot, p)| p.due(now).map(|due| (due, *slot)))
            .min();
        match next {
            Some((due, slot)) if due <= now => {
                let pending = self.pending.get_mut(&slot).expect("just found");
                let snapshot = pending.snapshot.take().expect("due means waiting");
                pending.last = Some(now);
                Ok(Write {
                    slot,
                    ticket: pending.ticket.clone(),
                    snapshot,
                })
            }
            next => Err(next.map(|(due, _)| due)),
        }
    }
}

/// The snapshots waiting to be written, and the thread that writes them; see the
/// [module](self).
#[derive(Default)]
pub struct Publisher {
    games: Mutex<Games>,
    /// Wakes the publishing thread (a snapshot came, or stop), and the game threads
    /// waiting for their final snapshot (it was written).
    changed: Condvar,
}

/// One write taken from the queue.
struct Write<T = LiveTicket> {
    slot: SlotId,
    ticket: T,
    snapshot: String,
}

impl Publisher {
    fn lock(&self) -> MutexGuard<'_, Games> {
        // The map is only inserted into and taken from; a panicked holder left it whole.
        self.games.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Follows a game held with `ticket` for the live pages, from the view of its start.
    pub fn follow<'p>(&'p self, ticket: LiveTicket, follow: Follow) -> GameFollower<'p> {
        let slot = ticket.slot();
        self.lock().pending.insert(
            slot,
            Pending {
                ticket,
                snapshot: None,
                last: None,
                last_one: false,
                told: false,
            },
        );
        let mut follower = GameFollower {
            publisher: self,
            slot,
            follow,
        };
        follower.offer();
        follower
    }

    fn offer(&self, slot: SlotId, view: &GameView, last_one: bool) {
        let snapshot = view.to_bounded_json(MAX_LIVE_SNAPSHOT_BYTES);
        let mut games = self.lock();
        if let (Some(pending), Some(snapshot)) = (games.pending.get_mut(&slot), snapshot) {
            pending.snapshot = Some(snapshot);
            pending.last_one |= last_one;
        }
        drop(games);
        self.changed.notify_all();
    }

    /// Publishes `follower`'s game as over with `result` and `detail`, and waits (at
    /// most [`FINAL_WAIT`]) until it is written or given up, so that it is in the store
    /// before the game is recorded.
    pub fn finish(&self, mut follower: GameFollower<'_>, result: &str, detail: &str) {
        follower.follow.end(Some(result), Some(detail));
        let slot = follower.slot;
        self.offer(slot, follower.follow.view(), true);
        let deadline = Instant::now() + FINAL_WAIT;
        let mut games = self.lock();
        while games.pending.contains_key(&slot) {
            let Some(left) = deadline.checked_duration_since(Instant::now()) else {
                games.pending.remove(&slot);
                return;
            };
            games = self
                .changed
                .wait_timeout(games, left)
                .unwrap_or_else(|p| p.into_inner())
                .0;
        }
    }

    /// Stops publishing a game that will not be recorded (it was given back, and its
    /// row with it).
    pub fn forget(&self, follower: GameFollower<'_>) {
        self.lock().pending.remove(&follower.slot);
    }

    /// Lets the publishing thread end once the snapshots waiting are written.
    pub fn stop(&self) {
        self.lock().stopping = true;
        self.changed.notify_all();
    }

    /// The publishing thread: writes the snapshots as they come, each game's at most
    /// once per [`EVERY`], on `store` (a connection of its own), until [stopped](Self::stop).
    pub fn run(
        &self,
        store: &mut PostgresStore,
        worker: &str,
        stop: &AtomicBool,
        observe: &(dyn Fn(WorkerEvent<'_>) + Sync),
    ) {
        while let Some(write) = self.next_write(stop) {
            let outcome = store.publish_live(&write.ticket, &write.snapshot);
            let lost = matches!(outcome, Err(StoreError::ConnectionLost { .. }));
            self.written(write.slot, outcome, worker, observe);
            if lost {
                // The next write tries a new connection; until then, snapshots wait.
                let _ = store.reopen();
            }
        }
    }

    /// Waits for the next snapshot that is due; `None` once stopped with nothing left.
    fn next_write(&self, stop: &AtomicBool) -> Option<Write> {
        let mut games = self.lock();
        loop {
            let now = Instant::now();
            match games.take_due(now) {
                Ok(write) => return Some(write),
                Err(None) if games.stopping || stop.load(Ordering::Relaxed) => return None,
                Err(next) => {
                    let wait = next.map_or(Duration::from_secs(1), |due| due - now);
                    games = self
                        .changed
                        .wait_timeout(games, wait)
                        .unwrap_or_else(|p| p.into_inner())
                        .0;
                }
            }
        }
    }

    /// A write is done: a game's last snapshot forgets the game (and wakes its thread);
    /// a lease no longer held stops its game's publishing; a failure is told once a game.
    fn written(
        &self,
        slot: SlotId,
        outcome: Result<(), StoreError>,
        worker: &str,
        observe: &(dyn Fn(WorkerEvent<'_>) + Sync),
    ) {
        let mut games = self.lock();
        let Some(pending) = games.pending.get_mut(&slot) else {
            return;
        };
        let over = pending.last_one && pending.snapshot.is_none();
        let tell = match outcome {
            Ok(()) => None,
            Err(StoreError::LeaseLost { .. }) => {
                games.pending.remove(&slot);
                None
            }
            Err(error) if !pending.told => {
                pending.told = true;
                Some(error)
            }
            Err(_) => None,
        };
        if over {
            games.pending.remove(&slot);
        }
        drop(games);
        self.changed.notify_all();
        if let Some(error) = tell {
            observe(WorkerEvent::NotLive {
                worker,
                slot,
                error: error.into(),
            });
        }
    }
}

/// Follows one game on its thread for the [`Publisher`]; see the [module](self).
pub struct GameFollower<'p> {
    publisher: &'p Publisher,
    slot: SlotId,
    follow: Follow,
}

impl GameFollower<'_> {
    fn offer(&mut self) {
        self.publisher.offer(self.slot, self.follow.view(), false);
    }
}

impl MoveObserver for GameFollower<'_> {
    fn started(&mut self, board: &Board, clocks: [Option<Duration>; 2]) {
        self.follow.started(board, clocks);
        self.offer();
    }

    fn moved(&mut self, update: &MoveUpdate<'_>) {
        self.follow.moved(update);
        self.offer();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn waiting(games: &mut Games<()>, slot: i64, snapshot: &str, last_one: bool) {
        let pending = games.pending.entry(SlotId(slot)).or_insert(Pending {
            ticket: (),
            snapshot: None,
            last: None,
            last_one: false,
            told: false,
        });
        pending.snapshot = Some(snapshot.into());
        pending.last_one |= last_one;
    }

    #[test]
    fn a_new_games_snapshot_is_due_at_once() {
        // (The publisher once computed "at once" after "now", so nothing was ever due.)
        let mut games = Games::default();
        let now = Instant::now();
        assert_eq!(games.take_due(now).err(), Some(None));
        waiting(&mut games, 1, "a", false);
        let write = games.take_due(now).expect("due at once");
        assert_eq!((write.slot, write.snapshot.as_str()), (SlotId(1), "a"));
        assert_eq!(games.take_due(now).err(), Some(None), "nothing waits now");
    }

    #[test]
    fn a_games_snapshots_are_written_at_most_once_per_interval_but_the_last_at_once() {
        let mut games = Games::default();
        let t0 = Instant::now();
        waiting(&mut games, 1, "a", false);
        assert!(games.take_due(t0).is_ok());
        waiting(&mut games, 1, "b", false);
        waiting(&mut games, 1, "c", false);
        let soon = t0 + EVERY / 2;
        assert_eq!(games.take_due(soon).err(), Some(Some(t0 + EVERY)));
        // Another game is not held back by this one's interval.
        waiting(&mut games, 2, "x", false);
        assert_eq!(games.take_due(soon).ok().map(|w| w.slot), Some(SlotId(2)));
        // The newest snapshot goes out once the interval is over.
        let write = games.take_due(t0 + EVERY).expect("due");
        assert_eq!(write.snapshot, "c");
        // A game's last snapshot does not wait.
        waiting(&mut games, 1, "over", true);
        let write = games.take_due(t0 + EVERY).expect("the last one at once");
        assert_eq!(write.snapshot, "over");
    }
}

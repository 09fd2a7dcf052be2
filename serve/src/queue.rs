//! The submission queue: a bounded number of builds at a time (the server's build slots,
//! `--build-jobs`), a bounded number waiting, and turns given fairly across clients, so no
//! client can delay another's submission by more than the builds in progress.
//!
//! Fairness: when a builder is free, the next build is the oldest waiting submission of
//! the client served least recently (a client never served, or not since it last had
//! nothing pending, comes first). A client flooding the queue gets every other turn at
//! most, and an honest client arriving while it floods is next.

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex, MutexGuard};

use tokio::sync::oneshot;

use super::limits::ClientKey;

/// Why a submission was not queued.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum QueueFull {
    /// Its client has the most pending submissions one client may have.
    Client,
    /// The queue holds the most pending submissions in all.
    Server,
}

impl QueueFull {
    /// The sentence the entrant is shown.
    pub fn message(self) -> &'static str {
        match self {
            QueueFull::Client => {
                "too many submissions waiting from your network; try again when one has finished"
            }
            QueueFull::Server => {
                "too many submissions are waiting to be checked; try again in a minute"
            }
        }
    }
}

/// The submissions waiting for the builder, and the one being built.
#[derive(Debug)]
pub struct BuildQueue {
    total_cap: usize,
    per_client_cap: usize,
    state: Mutex<State>,
}

#[derive(Debug, Default)]
struct State {
    clients: HashMap<ClientKey, Client>,
    /// Pending submissions (waiting or building) in all.
    total: usize,
    /// Builds holding a builder.
    building: usize,
    /// Builders: builds run at once.
    builders: usize,
    /// Counts turns given, so "served least recently" is a comparison of numbers.
    turns: u64,
    /// Counts arrivals, so equal clients are served in arrival order.
    arrivals: u64,
}

#[derive(Debug, Default)]
struct Client {
    /// Waiting or building.
    pending: usize,
    /// Arrival number and the wake-up of each waiting submission, oldest first.
    waiting: VecDeque<(u64, oneshot::Sender<()>)>,
    /// The turn number of this client's last build (0: none since it had none pending).
    last_turn: u64,
}

/// A submission's place in the queue; dropping it gives the place (and the builder, if
/// it holds it) back.
#[derive(Debug)]
pub struct Ticket {
    queue: Arc<BuildQueue>,
    key: ClientKey,
    turn: Option<oneshot::Receiver<()>>,
    building: bool,
}

impl BuildQueue {
    /// At most `total_cap` pending submissions, `per_client_cap` from one client; one
    /// build at a time.
    #[cfg(test)]
    pub fn new(total_cap: usize, per_client_cap: usize) -> Arc<BuildQueue> {
        BuildQueue::with_builders(total_cap, per_client_cap, 1)
    }

    /// As [`BuildQueue::new`], with `builders` builds at a time (at least 1).
    pub fn with_builders(
        total_cap: usize,
        per_client_cap: usize,
        builders: usize,
    ) -> Arc<BuildQueue> {
        Arc::new(BuildQueue {
            total_cap,
            per_client_cap,
            state: Mutex::new(State {
                builders: builders.max(1),
                ..State::default()
            }),
        })
    }

    fn state(&self) -> MutexGuard<'_, State> {
        // Every update is whole under the lock, so a poisoned lock's state is sound.
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// A place for a submission from `key`, or why there is none.
    pub fn admit(self: &Arc<Self>, key: ClientKey) -> Result<Ticket, QueueFull> {
        let mut state = self.state();
        let pending = state.clients.get(&key).map_or(0, |c| c.pending);
        if pending >= self.per_client_cap {
            return Err(QueueFull::Client);
        }
        if state.total >= self.total_cap {
            return Err(QueueFull::Server);
        }
        state.total += 1;
        state.clients.entry(key).or_default().pending += 1;
        Ok(Ticket {
            queue: Arc::clone(self),
            key,
            turn: None,
            building: false,
        })
    }

    /// Pending submissions (waiting or building) in all.
    #[cfg(test)]
    pub fn pending(&self) -> usize {
        self.state().total
    }
}

impl State {
    /// Gives each free builder to the next waiting submission (see the module's
    /// fairness rule).
    fn hand_on(&mut self) {
        while self.building < self.builders {
            let next = self
                .clients
                .iter()
                .filter_map(|(key, c)| c.waiting.front().map(|(at, _)| ((c.last_turn, *at), *key)))
                .min();
            let Some((_, key)) = next else { return };
            self.turns += 1;
            let turn = self.turns;
            let client = self.clients.get_mut(&key).expect("a waiting client");
            let (_, wake) = client.waiting.pop_front().expect("a waiting submission");
            client.last_turn = turn;
            // A submission whose task is gone cannot take the turn: try the next one.
            if wake.send(()).is_ok() {
                self.building += 1;
            }
        }
    }
}

impl Ticket {
    /// Waits until this submission holds a builder (it keeps it until dropped).
    pub async fn wait_turn(&mut self) {
        if self.building {
            return;
        }
        let (wake, turn) = oneshot::channel();
        {
            let mut state = self.queue.state();
            state.arrivals += 1;
            let at = state.arrivals;
            state
                .clients
                .get_mut(&self.key)
                .expect("an admitted client")
                .waiting
                .push_back((at, wake));
            state.hand_on();
        }
        let turn = self.turn.insert(turn);
        // The sender lives in the queue until it is used, so this only ends with a turn.
        let _ = turn.await;
        self.building = true;
    }
}

impl Drop for Ticket {
    fn drop(&mut self) {
        let mut state = self.queue.state();
        // A turn given but not yet seen (the task was dropped meanwhile) is held too.
        let holds = self.building || self.turn.as_mut().is_some_and(|t| t.try_recv().is_ok());
        if holds {
            state.building -= 1;
        }
        state.total -= 1;
        if let Some(client) = state.clients.get_mut(&self.key) {
            client.pending -= 1;
            if client.pending == 0 {
                state.clients.remove(&self.key);
            }
        }
        state.hand_on();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::limits::client_key;

    fn key(ip: &str) -> ClientKey {
        client_key(ip.parse().unwrap())
    }

    #[test]
    fn one_64_shares_one_bound_and_the_total_is_bounded() {
        let queue = BuildQueue::new(3, 2);
        let _a = queue.admit(key("2001:db8::1")).unwrap();
        let _b = queue.admit(key("2001:db8::ffff:2")).unwrap();
        assert_eq!(
            queue.admit(key("2001:db8:0:0:8000::3")).unwrap_err(),
            QueueFull::Client
        );
        let _c = queue.admit(key("2001:db8:0:1::1")).unwrap();
        assert_eq!(
            queue.admit(key("192.0.2.1")).unwrap_err(),
            QueueFull::Server
        );
        drop(_a);
        assert_eq!(queue.pending(), 2);
        assert!(queue.admit(key("192.0.2.1")).is_ok());
    }

    #[tokio::test]
    async fn a_newcomer_is_next_after_the_build_in_progress() {
        let queue = BuildQueue::new(32, 4);
        let flood = key("2001:db8::1");
        let mut first = queue.admit(flood).unwrap();
        first.wait_turn().await;
        let mut waiting: Vec<_> = (0..3).map(|_| queue.admit(flood).unwrap()).collect();
        let order = Arc::new(Mutex::new(Vec::new()));
        let mut tasks = Vec::new();
        for (n, mut ticket) in waiting.drain(..).enumerate() {
            let order = Arc::clone(&order);
            tasks.push(tokio::spawn(async move {
                ticket.wait_turn().await;
                order.lock().unwrap().push(format!("flood{n}"));
            }));
            tokio::task::yield_now().await;
        }
        let mut honest = queue.admit(key("192.0.2.7")).unwrap();
        let order2 = Arc::clone(&order);
        let honest_task = tokio::spawn(async move {
            honest.wait_turn().await;
            order2.lock().unwrap().push("honest".to_string());
        });
        tokio::task::yield_now().await;
        drop(first);
        honest_task.await.unwrap();
        for task in tasks {
            task.await.unwrap();
        }
        assert_eq!(
            order.lock().unwrap()[0],
            "honest",
            "{:?}",
            order.lock().unwrap()
        );
        assert_eq!(queue.pending(), 0);
    }

    #[tokio::test]
    async fn two_builders_build_two_submissions_at_once_and_the_third_waits() {
        let queue = BuildQueue::with_builders(32, 4, 2);
        let mut a = queue.admit(key("192.0.2.1")).unwrap();
        let mut b = queue.admit(key("192.0.2.2")).unwrap();
        a.wait_turn().await;
        b.wait_turn().await;
        let mut c = queue.admit(key("192.0.2.3")).unwrap();
        let third = tokio::spawn(async move {
            c.wait_turn().await;
            c
        });
        tokio::task::yield_now().await;
        assert!(!third.is_finished(), "both builders are busy");
        drop(a);
        let c = third.await.unwrap();
        drop((b, c));
        assert_eq!(queue.pending(), 0);
    }
}

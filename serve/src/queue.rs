//! The submission queue: a bounded number of builds at a time (the server's build slots,
//! `--build-jobs`), a bounded number waiting, and turns given fairly across networks, so
//! a flood from many addresses cannot keep an honest entrant's first submission waiting
//! for longer than the builds already ahead of it.
//!
//! Turns: when a builder is free, the next build is the oldest waiting submission of the
//! network ([`ClientKey::network`]) that is building nothing now and has used the least
//! build time lately (its builds' seconds, halved every [`USAGE_HALF_LIFE`]). A network's
//! second submission waits behind every other network's first, and a network that has
//! built goes behind those that have not: an entrant arriving during a flood waits at
//! most one build for each network that was waiting before it with no more build time
//! used, and no submission sent after it goes first.
//!
//! Places: a client has at most [`Limits::max_pending_builds_per_client`] submissions
//! pending, the queue [`Limits::max_pending_builds`] in all. When it is full, a
//! submission takes the place of the newest waiting one of the network that has used the
//! most build time (then: has the most submissions pending), if that is more than its
//! own network's; the submission displaced is refused, saying why. Fresh networks that
//! have not built yet, one submission each, are the only flood that fills it, and each
//! of them is spent by its first build.
//!
//! [`Limits::max_pending_builds_per_client`]: crate::Limits::max_pending_builds_per_client
//! [`Limits::max_pending_builds`]: crate::Limits::max_pending_builds

use std::cmp::Ordering;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use tokio::sync::oneshot;

use super::limits::ClientKey;

/// How fast a network's build time used is forgotten: halved every half hour.
pub const USAGE_HALF_LIFE: Duration = Duration::from_secs(30 * 60);

/// Networks whose build time is remembered at once; past it, the least is forgotten (so
/// the table stays bounded however many networks build).
const REMEMBERED_NETWORKS: usize = 4096;

/// After this many half-lives without a build (six hours), a network is forgotten: its
/// build time has shrunk to a 4,096th.
const FORGOTTEN_AFTER_HALF_LIVES: u32 = 12;

/// Why a submission was not queued.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum QueueFull {
    /// Its client has the most pending submissions one client may have.
    Client,
    /// The queue holds the most pending submissions in all, none of them from a network
    /// that used more build time than the submitter's.
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

/// A waiting submission gave its place to one from a network that had used less build
/// time (the queue was full).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Displaced;

impl Displaced {
    /// The sentence the entrant is shown.
    pub const MESSAGE: &'static str = "refused before its build: the queue was full, and your network has used the most build time lately (or has the most submissions waiting), so this one gave its place to a network that had used less; send it again in a few minutes";
}

/// The submissions waiting for a builder, and those being built.
#[derive(Debug)]
pub struct BuildQueue {
    total_cap: usize,
    per_client_cap: usize,
    state: Mutex<State>,
}

#[derive(Debug, Default)]
struct State {
    /// Every pending submission by ticket number (numbers grow: lower arrived first).
    pending: HashMap<u64, Pending>,
    next: u64,
    /// Builds holding a builder.
    building: usize,
    /// Builders: builds run at once.
    builders: usize,
    /// Build time used lately, by network.
    usage: HashMap<ClientKey, Usage>,
}

#[derive(Debug)]
struct Pending {
    client: ClientKey,
    stage: Stage,
}

#[derive(Debug)]
enum Stage {
    Waiting(oneshot::Sender<Turn>),
    Building(Instant),
}

#[derive(Debug)]
enum Turn {
    Build,
    Displaced,
}

/// Seconds of build time as of `at`.
#[derive(Debug, Clone, Copy)]
struct Usage {
    seconds: f64,
    at: Instant,
}

impl Usage {
    fn at(self, now: Instant) -> f64 {
        let halvings =
            now.saturating_duration_since(self.at).as_secs_f64() / USAGE_HALF_LIFE.as_secs_f64();
        self.seconds * 0.5f64.powf(halvings)
    }
}

/// A submission's place in the queue; dropping it gives the place (and the builder, if
/// it holds it) back.
#[derive(Debug)]
pub struct Ticket {
    queue: Arc<BuildQueue>,
    number: u64,
    turn: Option<oneshot::Receiver<Turn>>,
}

impl BuildQueue {
    /// At most `total_cap` pending submissions, `per_client_cap` from one client, and
    /// `builders` builds at a time (at least 1).
    pub fn new(total_cap: usize, per_client_cap: usize, builders: usize) -> Arc<BuildQueue> {
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

    /// A place for a submission from `key`, waiting for its turn (see the module's
    /// rules), or why there is none.
    pub fn admit(self: &Arc<Self>, key: ClientKey) -> Result<Ticket, QueueFull> {
        let mut state = self.state();
        let now = Instant::now();
        if state.pending.values().filter(|p| p.client == key).count() >= self.per_client_cap {
            return Err(QueueFull::Client);
        }
        if state.pending.len() >= self.total_cap {
            state.displace_for(key.network(), now)?;
        }
        let (wake, turn) = oneshot::channel();
        state.next += 1;
        let number = state.next;
        state.pending.insert(
            number,
            Pending {
                client: key,
                stage: Stage::Waiting(wake),
            },
        );
        state.hand_on(now);
        Ok(Ticket {
            queue: Arc::clone(self),
            number,
            turn: Some(turn),
        })
    }

    /// Pending submissions (waiting or building) in all.
    #[cfg(test)]
    pub fn pending(&self) -> usize {
        self.state().pending.len()
    }
}

/// Orders networks by their claim on the builder: lower first.
type Claim = (usize, f64, u64);

fn by_claim(a: &Claim, b: &Claim) -> Ordering {
    a.0.cmp(&b.0).then(a.1.total_cmp(&b.1)).then(a.2.cmp(&b.2))
}

impl State {
    /// Build seconds `network` used lately, its builds in progress included.
    fn used(&self, network: ClientKey, now: Instant) -> f64 {
        let stored = self.usage.get(&network).map_or(0.0, |u| u.at(now));
        let running: f64 = self
            .pending
            .values()
            .filter(|p| p.client.network() == network)
            .filter_map(|p| match p.stage {
                Stage::Building(start) => Some(now.saturating_duration_since(start).as_secs_f64()),
                Stage::Waiting(_) => None,
            })
            .sum();
        stored + running
    }

    fn count_in(&self, network: ClientKey, building_only: bool) -> usize {
        self.pending
            .values()
            .filter(|p| p.client.network() == network)
            .filter(|p| !building_only || matches!(p.stage, Stage::Building(_)))
            .count()
    }

    /// Gives each free builder to the next waiting submission (see the module's rules).
    fn hand_on(&mut self, now: Instant) {
        while self.building < self.builders {
            let next = self
                .pending
                .iter()
                .filter(|(_, p)| matches!(p.stage, Stage::Waiting(_)))
                .map(|(number, p)| {
                    let network = p.client.network();
                    let claim = (
                        self.count_in(network, true),
                        self.used(network, now),
                        *number,
                    );
                    (claim, *number)
                })
                .min_by(|a, b| by_claim(&a.0, &b.0));
            let Some((_, number)) = next else { return };
            let pending = self.pending.get_mut(&number).expect("a waiting submission");
            let Stage::Waiting(wake) = std::mem::replace(&mut pending.stage, Stage::Building(now))
            else {
                unreachable!("chosen among the waiting");
            };
            if wake.send(Turn::Build).is_ok() {
                self.building += 1;
            } else {
                // Its task is gone (its ticket is being dropped): not a build.
                self.pending.remove(&number);
            }
        }
    }

    /// Makes room for a submission from `network` in a full queue: the newest waiting
    /// submission of the network with the greatest (build time used, submissions
    /// pending) gives its place, if that is more than `network`'s would be.
    fn displace_for(&mut self, network: ClientKey, now: Instant) -> Result<(), QueueFull> {
        let weight = |state: &State, net: ClientKey, extra: usize| {
            (state.used(net, now), state.count_in(net, false) + extra)
        };
        let mine = weight(self, network, 1);
        let heaviest = self
            .pending
            .iter()
            .filter(|(_, p)| matches!(p.stage, Stage::Waiting(_)))
            .map(|(number, p)| (weight(self, p.client.network(), 0), *number))
            .max_by(|(a, an), (b, bn)| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)).then(an.cmp(bn)));
        let Some((theirs, number)) = heaviest else {
            return Err(QueueFull::Server);
        };
        let heavier = theirs.0.total_cmp(&mine.0).then(theirs.1.cmp(&mine.1)) == Ordering::Greater;
        if !heavier {
            return Err(QueueFull::Server);
        }
        if let Some(Pending {
            stage: Stage::Waiting(wake),
            ..
        }) = self.pending.remove(&number)
        {
            let _ = wake.send(Turn::Displaced);
        }
        Ok(())
    }

    /// Adds a finished build's time to its network's, forgetting what has faded.
    fn record(&mut self, network: ClientKey, took: Duration, now: Instant) {
        let before = self.usage.get(&network).map_or(0.0, |u| u.at(now));
        self.usage.insert(
            network,
            Usage {
                seconds: before + took.as_secs_f64(),
                at: now,
            },
        );
        let forgotten = USAGE_HALF_LIFE * FORGOTTEN_AFTER_HALF_LIVES;
        self.usage
            .retain(|_, u| now.saturating_duration_since(u.at) < forgotten);
        while self.usage.len() > REMEMBERED_NETWORKS {
            let least = self
                .usage
                .iter()
                .min_by(|a, b| a.1.at(now).total_cmp(&b.1.at(now)))
                .map(|(key, _)| *key)
                .expect("a full table");
            self.usage.remove(&least);
        }
    }
}

impl Ticket {
    /// Waits until this submission holds a builder (it keeps it until dropped), or it
    /// was displaced from a full queue.
    pub async fn wait_turn(&mut self) -> Result<(), Displaced> {
        let Some(turn) = self.turn.take() else {
            return Ok(());
        };
        match turn.await {
            Ok(Turn::Build) => Ok(()),
            // A sender dropped unused is a place taken away too.
            Ok(Turn::Displaced) | Err(_) => Err(Displaced),
        }
    }
}

impl Drop for Ticket {
    fn drop(&mut self) {
        let mut state = self.queue.state();
        let now = Instant::now();
        if let Some(pending) = state.pending.remove(&self.number)
            && let Stage::Building(start) = pending.stage
        {
            state.building -= 1;
            let took = now.saturating_duration_since(start);
            state.record(pending.client.network(), took, now);
        }
        state.hand_on(now);
    }
}

#[cfg(test)]
mod tests;

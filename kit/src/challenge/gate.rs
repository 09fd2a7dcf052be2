//! What a tournament run asks before it starts games, and what it tells as it goes: the
//! seam between [`run_gated`](super::tournament::run_gated) and whoever started the run.
//!
//! `challenge run` plays with the gate always [`Open`]. `challenge serve` plays its
//! tournament through a gate the organiser's pause button closes: while it is closed the
//! run hands no new game to its engines (the games in flight finish and are stored), gives
//! back the slots it claimed but did not start, and claims nothing until the gate opens
//! again. (What the run does meanwhile, the schedule and each stored game, goes to its
//! observer as `TournamentEvent`s.)
//!
//! (`challenge worker`s, in other processes, read the same switch from the store before
//! each claim instead: [`ServerStore::tournament_paused`](store::ServerStore::tournament_paused).)

use crate::watch::GameWatch;

/// A gate that will not open again in this run (the server is stopping): the run ends,
/// the games stored so far stay stored, the rest are played at the next run.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct Closed(pub String);

/// What a tournament run asks before each game.
///
/// ```
/// use std::sync::atomic::{AtomicBool, Ordering};
/// use kit::challenge::gate::{Closed, Gate};
///
/// /// Closed for good once `stopping` is set.
/// struct UntilStopped(AtomicBool);
///
/// impl Gate for UntilStopped {
///     fn is_open(&self) -> bool {
///         !self.0.load(Ordering::Relaxed)
///     }
///     fn wait_open(&self) -> Result<(), Closed> {
///         match self.is_open() {
///             true => Ok(()),
///             false => Err(Closed("stopping".into())),
///         }
///     }
/// }
///
/// let gate = UntilStopped(AtomicBool::new(false));
/// assert!(gate.wait_open().is_ok());
/// gate.0.store(true, Ordering::Relaxed);
/// assert_eq!(gate.wait_open(), Err(Closed("stopping".into())));
/// ```
pub trait Gate: Sync {
    /// Whether a new game may start now; asked (from the engines' threads) before each
    /// game is handed out, so it must not block.
    fn is_open(&self) -> bool;
    /// Waits until new games may be claimed, or says the gate will not open again.
    fn wait_open(&self) -> Result<(), Closed>;
    /// Who watches the games move by move as they are played (`challenge serve`'s live
    /// pages); nobody by default.
    fn watch(&self) -> Option<&dyn GameWatch> {
        None
    }
}

/// The gate of a run nobody pauses (`challenge run`): always open, tells no one.
///
/// ```
/// use kit::challenge::gate::{Gate, Open};
/// assert!(Open.is_open());
/// assert!(Open.wait_open().is_ok());
/// ```
#[derive(Debug, Clone, Copy, Default)]
pub struct Open;

impl Gate for Open {
    fn is_open(&self) -> bool {
        true
    }
    fn wait_open(&self) -> Result<(), Closed> {
        Ok(())
    }
}

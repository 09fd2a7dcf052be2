//! What a tournament run asks before it starts games, and what it tells as it goes: the
//! seam between [`run_gated`](super::tournament::run_gated) and whoever started the run.
//!
//! `challenge run` plays with the gate always [`Open`]. `challenge serve` plays its
//! tournament through a gate the organiser's pause button closes: while it is closed the
//! run hands no new game to its engines (the games in flight finish and are stored), gives
//! back the slots it claimed but did not start, and claims nothing until the gate opens
//! again. The same gate tells the server when the tournament is in the store and when each
//! game is stored, so the live pages follow at once.
//!
//! (`challenge worker`s, in other processes, read the same switch from the store before
//! each claim instead: [`Store::tournament_paused`](store::Store::tournament_paused).)

use anyhow::Result;
use store::{GameId, Tournament};

/// What a tournament run asks before each game, and tells as it goes.
///
/// ```
/// use std::sync::atomic::{AtomicUsize, Ordering};
/// use kit::challenge::gate::Gate;
/// use store::GameId;
///
/// /// Counts the stored games; never closes.
/// #[derive(Default)]
/// struct Counting(AtomicUsize);
///
/// impl Gate for Counting {
///     fn is_open(&self) -> bool {
///         true
///     }
///     fn wait_open(&self) -> anyhow::Result<()> {
///         Ok(())
///     }
///     fn stored(&self, _game: GameId) {
///         self.0.fetch_add(1, Ordering::Relaxed);
///     }
/// }
///
/// let gate = Counting::default();
/// gate.stored(GameId(7));
/// assert_eq!(gate.0.load(Ordering::Relaxed), 1);
/// ```
pub trait Gate: Sync {
    /// Whether a new game may start now; asked (from the engines' threads) before each
    /// game is handed out, so it must not block.
    fn is_open(&self) -> bool;
    /// Waits until new games may be claimed. An error ends the run: the games stored so
    /// far stay stored, the rest are played at the next run.
    fn wait_open(&self) -> Result<()>;
    /// The tournament is in the store (just created, or found unfinished).
    fn scheduled(&self, _tournament: &Tournament) {}
    /// A game was stored.
    fn stored(&self, _game: GameId) {}
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
    fn wait_open(&self) -> Result<()> {
        Ok(())
    }
}

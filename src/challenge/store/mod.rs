//! The challenge's records: entries, their immutable versions, tournaments with their
//! schedules, and every game, behind the [`Store`] trait.
//!
//! The tournament code talks only to [`Store`], so a second backend (a server database
//! shared by many workers) can be added beside [`SqliteStore`], the embedded default,
//! without touching it. Values cross the trait as types ([`GameResult`],
//! [`Termination`], ids, [`SlotState`]...); each backend converts them at its edge.

mod sqlite;
mod types;

pub use sqlite::{DB_FILE, SCHEMA_VERSION, SqliteStore};
pub use types::*;

use anyhow::Result;

/// What the challenge needs from where its records live.
///
/// Claiming and recording are separate steps so that a backend shared by workers on many
/// machines can lease a slot to one worker ([`Claim::worker`]) until it records the game
/// or releases it (a server backend would also let an expired lease go back to the pool).
pub trait Store {
    /// Where the records are, for messages (a directory, a URL).
    fn location(&self) -> String;

    /// Stores a new version of an entry (creating the entry if needed). Submitting an
    /// entry's current source again stores nothing, but brings a withdrawn entry back.
    fn add_version(&mut self, new: &NewVersion<'_>) -> Result<Submitted>;
    /// Takes an entry out of future pairings; `false` when it was already withdrawn.
    fn withdraw(&mut self, name: &str) -> Result<bool>;
    /// Every version, by entry name then number.
    fn versions(&self) -> Result<Vec<Version>>;
    /// The current version of every entry still in the challenge, by entry name.
    fn field(&self) -> Result<Vec<Version>> {
        Ok(self
            .versions()?
            .into_iter()
            .filter(|v| v.current && !v.withdrawn)
            .collect())
    }
    /// The bot source of a version.
    fn source(&self, version: VersionId) -> Result<String>;

    /// How many tournaments were ever started.
    fn tournament_count(&self) -> Result<usize>;
    /// The unfinished tournament, if any.
    fn unfinished_tournament(&self) -> Result<Option<Tournament>>;
    /// Creates a tournament with its field and its first slots at once, so a tournament
    /// is never seen half-scheduled.
    fn create_tournament(&mut self, new: &NewTournament<'_>) -> Result<TournamentId>;
    /// Adds one Swiss round's slots (and its bye) at once.
    fn add_round(&mut self, round: &NewRound<'_>) -> Result<()>;
    /// The entries of a tournament, in seed order.
    fn participants(&self, tournament: TournamentId) -> Result<Vec<EntryId>>;
    /// Every slot of a tournament, in schedule order, with its state.
    fn slots(&self, tournament: TournamentId) -> Result<Vec<Slot>>;
    /// The entries that had a bye, by round.
    fn byes(&self, tournament: TournamentId) -> Result<Vec<EntryId>>;
    /// Cancels the unplayed slots of withdrawn entries; returns how many.
    fn cancel_withdrawn(&mut self, tournament: TournamentId) -> Result<usize>;
    /// Marks a tournament finished.
    fn finish_tournament(&mut self, tournament: TournamentId) -> Result<()>;

    /// Claims up to `max` pending slots of a tournament for `worker`, in schedule order.
    /// A claimed slot is not handed out again until it is recorded or released.
    fn claim(&mut self, tournament: TournamentId, worker: &str, max: usize) -> Result<Vec<Claim>>;
    /// Gives a claimed slot back unplayed (the game was interrupted).
    fn release(&mut self, claim: &Claim) -> Result<()>;
    /// Stores a claimed slot's finished game and marks the slot played, atomically. Fails,
    /// storing nothing, if the slot already has a game.
    fn record(&mut self, claim: &Claim, game: &NewGame) -> Result<GameId>;

    /// Every game in the order played; `with_pgn: false` leaves the PGN empty for tables
    /// that only need the results.
    fn games(&self, with_pgn: bool) -> Result<Vec<Game>>;
}

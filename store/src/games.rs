//! Claims and games: the [`ClaimStore`] trait (each backend claims its own way), the
//! game types, and the statements and row mapper for games that both backends share.

use framework::chess::Color;
use framework::notation::pgn::GameResult;
use runner::Termination;

use crate::error::{StoreError, StoreResult};
use crate::sql::{Conn, Mapped, Row, params};
use crate::{GameId, Slot, SlotId, TournamentId, VersionId};

/// Handing out a tournament's pending slots and taking their games back.
///
/// Claiming and recording are separate steps so that a backend shared by workers on many
/// machines can lease a slot to one worker ([`Claim::worker`]) until it records the game
/// or releases it (a PostgreSQL store also lets an expired lease go back to the pool).
pub trait ClaimStore {
    /// Claims up to `max` pending slots of a tournament for `worker`, in schedule order.
    /// A claimed slot is not handed out again until it is recorded or released.
    fn claim(
        &mut self,
        tournament: TournamentId,
        worker: &str,
        max: usize,
    ) -> StoreResult<Vec<Claim>>;
    /// Gives a claimed slot back unplayed (the game was interrupted).
    fn release(&mut self, claim: &Claim) -> StoreResult<()>;
    /// Stores a claimed slot's finished game and marks the slot played, atomically.
    /// Fails, storing nothing, if the slot already has a game ([`StoreError::Conflict`])
    /// or its lease was taken over ([`StoreError::LeaseLost`]).
    fn record(&mut self, claim: &Claim, game: &NewGame) -> StoreResult<GameId>;
}

/// A slot handed to a worker to play.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Claim {
    /// The tournament.
    pub tournament: TournamentId,
    /// The slot.
    pub slot: Slot,
    /// Who holds it.
    pub worker: String,
}

/// A finished game, ready to be recorded.
#[derive(Debug, Clone)]
pub struct NewGame {
    /// White's version.
    pub white: VersionId,
    /// Black's version.
    pub black: VersionId,
    /// Its result (never `*`).
    pub result: GameResult,
    /// Why it ended.
    pub termination: Termination,
    /// The side whose engine misbehaved, if any.
    pub faulty: Option<Color>,
    /// The runner's sentence about the ending.
    pub detail: String,
    /// Plies, book moves included.
    pub plies: u32,
    /// The whole game as PGN.
    pub pgn: String,
}

/// A stored game.
#[derive(Debug, Clone)]
pub struct Game {
    /// Its id.
    pub id: GameId,
    /// Its tournament.
    pub tournament: Option<TournamentId>,
    /// Its slot.
    pub slot: Option<SlotId>,
    /// White's version.
    pub white: VersionId,
    /// Black's version.
    pub black: VersionId,
    /// Its result.
    pub result: GameResult,
    /// Why it ended.
    pub termination: Termination,
    /// The side whose engine misbehaved, if any.
    pub faulty: Option<Color>,
    /// The runner's sentence about the ending.
    pub detail: String,
    /// Plies, book moves included, as recorded.
    pub plies: u32,
    /// Who recorded it: the worker's name (`local` for `challenge run` on a directory;
    /// `None` for games from before workers were recorded).
    pub worker: Option<String>,
    /// The whole game as PGN (empty when read without it).
    pub pgn: String,
}

impl Game {
    /// White's score: 1, ½ or 0.
    pub fn white_score(&self) -> f64 {
        match self.result {
            GameResult::WhiteWins => 1.0,
            GameResult::BlackWins => 0.0,
            GameResult::Draw | GameResult::Unknown => 0.5,
        }
    }
}

pub(crate) fn side_text(side: Color) -> &'static str {
    match side {
        Color::White => "white",
        Color::Black => "black",
    }
}

/// A stored side.
struct Side(Color);

impl std::str::FromStr for Side {
    type Err = String;
    fn from_str(text: &str) -> Result<Side, String> {
        match text {
            "white" => Ok(Side(Color::White)),
            "black" => Ok(Side(Color::Black)),
            _ => Err("not a side (`white` or `black`)".into()),
        }
    }
}

/// The columns [`game_from_row`] reads, but for the last: the PGN, or `''` without it.
pub(crate) const GAME_COLUMNS: &str = "id, tournament_id, slot_id, white_version, black_version, result, termination, faulty, detail, plies, worker";

pub(crate) fn game_from_row(r: &dyn Row) -> Mapped<Game> {
    Ok(Game {
        id: r.get(0)?,
        tournament: r.get(1)?,
        slot: r.get(2)?,
        white: r.get(3)?,
        black: r.get(4)?,
        result: r.parse(5)?,
        termination: r.parse(6)?,
        faulty: match r.get::<Option<String>>(7)? {
            Some(_) => Some(r.parse::<Side>(7)?.0),
            None => None,
        },
        detail: r.get(8)?,
        plies: r.get(9)?,
        worker: r.get(10)?,
        pgn: r.get(11)?,
    })
}

/// Refuses a slot that is not in the store or already has its game.
pub(crate) fn check_unplayed(c: &mut dyn Conn, slot: SlotId) -> StoreResult<()> {
    let played: Option<Option<GameId>> = c.first(
        "SELECT game_id FROM slots WHERE id = ?1",
        params![slot],
        |r| r.get(0),
    )?;
    match played {
        None => Err(no_slot(c, slot)),
        Some(Some(_)) => Err(already_played(c, slot)),
        Some(None) => Ok(()),
    }
}

/// Stores a claimed slot's game and marks the slot played, in the caller's transaction
/// (after the backend made sure the claim still holds).
pub(crate) fn store_game(c: &mut dyn Conn, claim: &Claim, game: &NewGame) -> StoreResult<GameId> {
    let slot = claim.slot.id;
    let id: GameId = c.one(
        "INSERT INTO games (tournament_id, slot_id, white_version, black_version, result,
                            termination, faulty, detail, plies, pgn, worker)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11) RETURNING id",
        params![
            claim.tournament,
            slot,
            game.white,
            game.black,
            game.result.as_str(),
            game.termination.tag(),
            game.faulty.map(side_text),
            game.detail.as_str(),
            game.plies,
            game.pgn.as_str(),
            claim.worker.as_str()
        ],
        |r| r.get(0),
    )?;
    let marked = c.execute(
        "UPDATE slots SET game_id = ?1 WHERE id = ?2 AND game_id IS NULL",
        params![id, slot],
    )?;
    if marked != 1 {
        return Err(already_played(c, slot));
    }
    Ok(id)
}

fn already_played(c: &dyn Conn, slot: SlotId) -> StoreError {
    StoreError::Conflict {
        store: c.store().to_string(),
        what: format!("slot {slot} already has a game; the new one was not stored"),
    }
}

/// A slot that is not in the store.
pub(crate) fn no_slot(c: &dyn Conn, slot: SlotId) -> StoreError {
    StoreError::NotFound {
        store: c.store().to_string(),
        what: format!("slot {slot}"),
        hint: String::new(),
    }
}

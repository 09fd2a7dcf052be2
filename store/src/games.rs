//! Claims and games: the [`ClaimStore`] trait (each backend claims its own way), the
//! game types, and the statements and row mapper for games that both backends share.

use framework::chess::Color;
use framework::notation::pgn::GameResult;
use runner::{GameRecord, Termination};
use serde::{Deserialize, Serialize};

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
    /// What shows an engine's fault the moves cannot show: the clocks and the engine's
    /// stderr (`None` for an ending on the board).
    pub evidence: Option<Evidence>,
}

/// The largest evidence a game may carry, as stored (JSON): far above what the runner
/// keeps ([`runner::STDERR_TAIL_BYTES`] of stderr and a few numbers).
pub const MAX_EVIDENCE_BYTES: usize = 16 << 10;

/// What the runner saw when an engine's fault ended a game: the clocks, the turn, the
/// engine's answer and its stderr. The moves cannot show a crash or a loss on time, so a
/// game that ends by one counts only with this, which the organiser's check holds against
/// the time control and the moves' recorded times (`results::verify`). It is the
/// organiser's: workers read no games, and the engines' stderr reaches public records
/// only where the tournament says so ([`StoredRules::public_stderr`](crate::StoredRules)).
///
/// ```
/// use store::Evidence;
/// let evidence = Evidence { left_ms: [Some(1000), Some(980)], turn_ms: 1250, at_start: false,
///     answer: None, stderr: vec!["thinking...".into()] };
/// let stored = evidence.to_json();
/// assert_eq!(Evidence::from_json(&stored).unwrap(), evidence);
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Evidence {
    /// Each side's time left when the turn began, in milliseconds, White's first
    /// (`None`: no clock).
    pub left_ms: [Option<u64>; 2],
    /// How long the turn lasted until the fault, in milliseconds.
    pub turn_ms: u64,
    /// Whether the fault came before the engines were asked for a move.
    pub at_start: bool,
    /// The faulty engine's answer, when that answer was the fault (an illegal or
    /// unparsable move).
    pub answer: Option<String>,
    /// The faulty engine's last stderr lines.
    pub stderr: Vec<String>,
}

impl Evidence {
    /// The evidence of a game an engine's fault ended (`None` for any other ending).
    pub fn of(record: &GameRecord) -> Option<Evidence> {
        let clock = record.fault_clock.as_ref()?;
        let ms = |d: std::time::Duration| u64::try_from(d.as_millis()).unwrap_or(u64::MAX);
        Some(Evidence {
            left_ms: clock.left.map(|left| left.map(ms)),
            turn_ms: ms(clock.turn),
            at_start: clock.at_start,
            answer: clock.answer.clone(),
            stderr: record.stderr.clone(),
        })
    }

    /// As stored: JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("evidence serializes")
    }

    /// From its stored JSON.
    pub fn from_json(text: &str) -> Result<Evidence, String> {
        serde_json::from_str(text).map_err(|e| e.to_string())
    }
}

/// Why a stored game is in no slot (it counts for nothing; its slot was played again).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Aside {
    /// Its moves refute its result.
    Refuted,
    /// A claimed ending, under the policy that a second worker must confirm claims: its
    /// slot is played again by a worker of another role.
    Unconfirmed,
    /// Its worker is distrusted (`challenge workers distrust`): every game it recorded
    /// is void.
    Distrusted,
}

impl Aside {
    /// As stored.
    pub const fn tag(self) -> &'static str {
        match self {
            Aside::Refuted => "refuted",
            Aside::Unconfirmed => "unconfirmed",
            Aside::Distrusted => "distrusted",
        }
    }
}

impl std::str::FromStr for Aside {
    type Err = String;
    fn from_str(text: &str) -> Result<Aside, String> {
        [Aside::Refuted, Aside::Unconfirmed, Aside::Distrusted]
            .into_iter()
            .find(|a| a.tag() == text)
            .ok_or_else(|| "not `refuted`, `unconfirmed` or `distrusted`".into())
    }
}

/// The role a worker's name belongs to: the name up to its first `.` (`box1.vm-7363` is
/// `box1`'s); a role's workers are named after it, so two workers of one role are one
/// witness.
///
/// ```
/// assert_eq!(store::worker_role("box1.vm-7363"), "box1");
/// assert_eq!(store::worker_role("local"), "local");
/// ```
pub fn worker_role(worker: &str) -> &str {
    worker.split('.').next().unwrap_or(worker)
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
    /// Why it is in no slot, when an organiser set it aside or voided it.
    pub aside: Option<Aside>,
    /// The slot it was set aside from.
    pub aside_from: Option<SlotId>,
    /// The whole game as PGN (empty when read without it).
    pub pgn: String,
    /// What shows an engine's fault (`None` for other endings).
    pub evidence: Option<Evidence>,
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

/// The columns [`game_from_row`] reads, but for the last two: the PGN and the evidence,
/// or [`WITHOUT_PGN`].
pub(crate) const GAME_COLUMNS: &str = "id, tournament_id, slot_id, white_version, black_version, result, termination, faulty, detail, plies, worker, aside, aside_from";
/// The last two columns of [`game_from_row`] for a game read with its PGN.
pub(crate) const WITH_PGN: &str = "pgn, evidence";
/// The last two columns of [`game_from_row`] for a game read without its PGN (the
/// evidence is small, and only claimed endings have any).
pub(crate) const WITHOUT_PGN: &str = "'', evidence";

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
        aside: match r.get::<Option<String>>(11)? {
            Some(_) => Some(r.parse(11)?),
            None => None,
        },
        aside_from: r.get(12)?,
        pgn: r.get(13)?,
        evidence: match r.get::<Option<String>>(14)? {
            Some(_) => Some(r.json(14)?),
            None => None,
        },
    })
}

/// The evidence as stored, refused when larger than [`MAX_EVIDENCE_BYTES`].
fn stored_evidence(c: &dyn Conn, game: &NewGame) -> StoreResult<Option<String>> {
    let Some(evidence) = &game.evidence else {
        return Ok(None);
    };
    let json = evidence.to_json();
    if json.len() > MAX_EVIDENCE_BYTES {
        return Err(StoreError::Conflict {
            store: c.store().to_string(),
            what: format!(
                "a game's evidence holds {} bytes, more than the {MAX_EVIDENCE_BYTES} a game may carry; it was not stored",
                json.len()
            ),
        });
    }
    Ok(Some(json))
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
    let evidence = stored_evidence(c, game)?;
    let id: GameId = c.one(
        "INSERT INTO games (tournament_id, slot_id, white_version, black_version, result,
                            termination, faulty, detail, plies, pgn, worker, evidence)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12) RETURNING id",
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
            claim.worker.as_str(),
            evidence.as_deref()
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

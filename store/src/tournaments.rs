//! Tournaments and their schedules: the types, the [`TournamentStore`] trait, and its
//! one implementation for both backends (statements and row mappers).

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use framework::chess::Board;
use runner::{AdjudicationRules, DrawRule, GameSettings, Opening, ResignRule, TimeControl};
use serde::{Deserialize, Serialize};

use crate::error::StoreResult;
use crate::games::{Aside, GAME_COLUMNS, Game, WITH_PGN, WITHOUT_PGN, game_from_row};
use crate::sql::{Backend, Conn, Mapped, Row, count, params};
use crate::{EntryId, GameId, SlotId, TournamentId};

/// The kit version stamped on every tournament a store creates; a PostgreSQL worker of
/// another version refuses to play it.
pub const KIT_VERSION: &str = env!("CARGO_PKG_VERSION");

/// Tournaments, their schedules, and the games played.
pub trait TournamentStore {
    /// How many tournaments were ever started.
    fn tournament_count(&self) -> StoreResult<usize>;
    /// The unfinished tournament, if any.
    fn unfinished_tournament(&self) -> StoreResult<Option<Tournament>>;
    /// Creates a tournament with its field and its first slots at once, so a tournament
    /// is never seen half-scheduled.
    fn create_tournament(&mut self, new: &NewTournament<'_>) -> StoreResult<TournamentId>;
    /// Adds one Swiss round's slots (and its bye) at once.
    fn add_round(&mut self, round: &NewRound<'_>) -> StoreResult<()>;
    /// The entries of a tournament, in seed order.
    fn participants(&self, tournament: TournamentId) -> StoreResult<Vec<EntryId>>;
    /// Every slot of a tournament, in schedule order, with its state.
    fn slots(&self, tournament: TournamentId) -> StoreResult<Vec<Slot>>;
    /// The entries that had a bye, by round.
    fn byes(&self, tournament: TournamentId) -> StoreResult<Vec<EntryId>>;
    /// Cancels the unplayed slots of withdrawn entries; returns how many.
    fn cancel_withdrawn(&mut self, tournament: TournamentId) -> StoreResult<usize>;
    /// Marks a tournament finished.
    fn finish_tournament(&mut self, tournament: TournamentId) -> StoreResult<()>;
    /// Every game in the order played; `with_pgn: false` leaves the PGN empty for tables
    /// that only need the results.
    fn games(&self, with_pgn: bool) -> StoreResult<Vec<Game>>;
    /// One game, with its PGN.
    fn game(&self, id: GameId) -> StoreResult<Option<Game>>;
    /// The games from `first` on (by id), with their PGN: those a reader has not checked
    /// yet.
    fn games_since(&self, first: GameId) -> StoreResult<Vec<Game>>;
    /// A tournament by its id.
    fn tournament(&self, id: TournamentId) -> StoreResult<Option<Tournament>>;
    /// How many of a tournament's slots wait for a game (not played, not cancelled;
    /// leased ones included): one count, where [`TournamentStore::slots`] reads them all.
    fn unplayed(&self, tournament: TournamentId) -> StoreResult<usize>;
    /// Sets a game aside from its slot, `why` (the game stays stored, in no slot, with
    /// the slot it left; the slot waits for a game again): what an organiser does with a
    /// game whose result its moves refute, or a claim that awaits another worker's
    /// confirmation. Returns whether the game was in a slot.
    fn set_aside(&mut self, game: GameId, why: Aside) -> StoreResult<bool>;
    /// Distrusts the worker `name` (`challenge workers distrust`): voids every game it
    /// recorded (each set aside as [`Aside::Distrusted`], its slot played again, a
    /// finished tournament opened again for it), frees its leases, and refuses its claims
    /// from now on. A name without a `.` is a role's: its workers (`NAME.…`) go with it.
    fn distrust_worker(&mut self, name: &str) -> StoreResult<Distrusted>;
    /// The workers distrusted, by name.
    fn distrusted_workers(&self) -> StoreResult<Vec<String>>;
    /// Holds the tournament's organiser lock until [`TournamentStore::unlock_tournament`],
    /// so one organiser process at a time pairs its next round or finishes it: an
    /// advisory lock on PostgreSQL (waits for another holder); nothing on SQLite, where
    /// one process plays a directory (`run.lock`).
    fn lock_tournament(&mut self, tournament: TournamentId) -> StoreResult<()>;
    /// Gives the lock of [`TournamentStore::lock_tournament`] back.
    fn unlock_tournament(&mut self, tournament: TournamentId) -> StoreResult<()>;
}

/// What distrusting a worker did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Distrusted {
    /// Whether it was distrusted already.
    pub already: bool,
    /// Games it recorded that were in their slots, void now (their slots are to be
    /// played again).
    pub voided: usize,
    /// Finished tournaments opened again to play those slots.
    pub reopened: Vec<TournamentId>,
}

/// How a tournament pairs its entries.
///
/// ```
/// use store::TournamentFormat;
/// assert_eq!("rr".parse(), Ok(TournamentFormat::RoundRobin));
/// assert_eq!(TournamentFormat::Swiss.to_string(), "swiss");
/// assert!("knockout".parse::<TournamentFormat>().is_err());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TournamentFormat {
    /// Everyone plays everyone.
    RoundRobin,
    /// Rounds paired by score, for fields too large for a round-robin.
    Swiss,
}

impl TournamentFormat {
    /// The stored and displayed spelling.
    pub const fn as_str(self) -> &'static str {
        match self {
            TournamentFormat::RoundRobin => "round-robin",
            TournamentFormat::Swiss => "swiss",
        }
    }
}

impl fmt::Display for TournamentFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for TournamentFormat {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "round-robin" | "roundrobin" | "rr" => Ok(TournamentFormat::RoundRobin),
            "swiss" => Ok(TournamentFormat::Swiss),
            other => Err(format!(
                "unknown format `{other}` (expected `round-robin` or `swiss`)"
            )),
        }
    }
}

/// An opening as stored with its tournament, so a resumed run uses exactly the same ones.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StoredOpening {
    /// The position before the book moves.
    pub fen: String,
    /// Book moves in UCI notation.
    pub moves: Vec<String>,
}

impl StoredOpening {
    /// The opening as stored: its start position's FEN and its moves in UCI.
    pub fn from_opening(opening: &Opening) -> StoredOpening {
        StoredOpening {
            fen: opening.start.fen(),
            moves: opening.moves.iter().map(|m| m.to_string()).collect(),
        }
    }

    /// The opening to play, checked move by move.
    pub fn to_opening(&self) -> Result<Opening, String> {
        let start =
            Board::from_fen(&self.fen).map_err(|e| format!("bad FEN `{}`: {e}", self.fen))?;
        let mut board = start.clone();
        let mut moves = Vec::new();
        for text in &self.moves {
            let mv = board
                .parse_uci(text)
                .map_err(|e| format!("move `{text}`: {e}"))?;
            board.make_move(mv);
            moves.push(mv);
        }
        Ok(Opening { start, moves })
    }
}

/// The game rules a tournament is played under, as stored with it: the clock margin and
/// the adjudication rules.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct StoredRules {
    /// Milliseconds an engine may overstep its clock.
    pub margin_ms: u64,
    /// Draw adjudication: move number, move count, score in centipawns.
    pub draw: Option<(u32, u32, i32)>,
    /// Resign adjudication: move count, score in centipawns.
    pub resign: Option<(u32, i32)>,
    /// Draw at this many plies.
    pub max_plies: Option<u32>,
    /// An ending the moves cannot show (a crash, a loss on time) counts only once a
    /// worker of another role, playing the pairing again, makes the same claim
    /// (`challenge run --confirm-claims`).
    #[serde(default)]
    pub confirm_claims: bool,
    /// The engines' stderr of a fault is kept in the game's PGN, which is public; by
    /// default it is only in the game's evidence, which the organiser reads
    /// (`challenge run --public-stderr`).
    #[serde(default)]
    pub public_stderr: bool,
    /// A claimed engine fault counts only with its evidence ([`Evidence`](crate::Evidence)):
    /// every tournament started since the runner keeps it. One started before (stored
    /// without this field) has none to show, and counts its claims as it did.
    #[serde(default)]
    pub claims_need_evidence: bool,
}

impl Default for StoredRules {
    /// The rules of a new tournament at the default settings.
    fn default() -> Self {
        StoredRules::from_settings(&GameSettings::default())
    }
}

impl StoredRules {
    /// The storable part of `settings`.
    pub fn from_settings(settings: &GameSettings) -> StoredRules {
        let rules = settings.adjudication;
        StoredRules {
            margin_ms: u64::try_from(settings.margin.as_millis()).unwrap_or(u64::MAX),
            draw: rules
                .draw
                .map(|d| (d.move_number, d.move_count, d.score_cp)),
            resign: rules.resign.map(|r| (r.move_count, r.score_cp)),
            max_plies: rules.max_plies,
            confirm_claims: false,
            public_stderr: false,
            claims_need_evidence: true,
        }
    }

    /// What every tournament was played under before the rules were stored: the default
    /// settings, and no evidence of claims.
    pub fn before_stored() -> StoredRules {
        StoredRules {
            claims_need_evidence: false,
            ..StoredRules::default()
        }
    }

    /// The game settings these rules give (the rest at their defaults).
    pub fn settings(&self) -> GameSettings {
        GameSettings {
            margin: std::time::Duration::from_millis(self.margin_ms),
            adjudication: AdjudicationRules {
                draw: self
                    .draw
                    .map(|(move_number, move_count, score_cp)| DrawRule {
                        move_number,
                        move_count,
                        score_cp,
                    }),
                resign: self.resign.map(|(move_count, score_cp)| ResignRule {
                    move_count,
                    score_cp,
                }),
                max_plies: self.max_plies,
            },
            ..GameSettings::default()
        }
    }
}

/// A stored tournament's settings.
#[derive(Debug, Clone, PartialEq)]
pub struct Tournament {
    /// Its id.
    pub id: TournamentId,
    /// How it pairs.
    pub format: TournamentFormat,
    /// Opening pairs per encounter (round-robin).
    pub pairs: u32,
    /// Rounds (Swiss).
    pub rounds: u32,
    /// The time control of both sides.
    pub time_control: TimeControl,
    /// The openings, in the order slots name them.
    pub openings: Vec<StoredOpening>,
    /// Margin and adjudication (stored from schema version 2; older tournaments have
    /// the defaults they were played with).
    pub rules: StoredRules,
    /// Whether every game has been played.
    pub finished: bool,
}

/// A tournament to create, with its field and first schedule.
#[derive(Debug, Clone)]
pub struct NewTournament<'a> {
    /// Its settings (the id is ignored).
    pub settings: &'a Tournament,
    /// The entries, in seed order.
    pub field: &'a [EntryId],
    /// The first slots (every slot of a round-robin; round 1 of a Swiss).
    pub slots: &'a [SlotPlan],
    /// Entries with a bye in round 1.
    pub byes: &'a [EntryId],
}

/// One Swiss round to add.
#[derive(Debug, Clone)]
pub struct NewRound<'a> {
    /// The tournament.
    pub tournament: TournamentId,
    /// 0-based round.
    pub round: u32,
    /// Its slots.
    pub slots: &'a [SlotPlan],
    /// Its bye, if any.
    pub byes: &'a [EntryId],
}

/// One game to schedule: who plays whom, with which opening.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SlotPlan {
    /// 0-based round.
    pub round: u32,
    /// Game-pair number within the tournament.
    pub pair: u32,
    /// 0 or 1: which game of the colour-swapped pair.
    pub game_in_pair: u32,
    /// White's entry.
    pub white: EntryId,
    /// Black's entry.
    pub black: EntryId,
    /// Index into the tournament's openings.
    pub opening: u32,
}

/// Where a scheduled game stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SlotState {
    /// Not played yet.
    Pending,
    /// Played: its game.
    Played(GameId),
    /// Dropped because an entry withdrew.
    Cancelled,
}

/// One scheduled game of a tournament.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Slot {
    /// Its id.
    pub id: SlotId,
    /// Who plays whom, with which opening.
    pub plan: SlotPlan,
    /// Played, pending or cancelled.
    pub state: SlotState,
}

/// A stored time control: `TimeControl`'s own spelling, or `0.1/move` for a fixed time
/// per move.
pub(crate) fn time_control(text: &str) -> Result<TimeControl, String> {
    if let Some(per_move) = text.strip_suffix("/move") {
        let secs: f64 = per_move
            .parse()
            .ok()
            .filter(|s: &f64| s.is_finite() && *s > 0.0 && *s < 1e9)
            .ok_or_else(|| format!("invalid time per move `{text}`"))?;
        return Ok(TimeControl::movetime(Duration::from_secs_f64(secs)));
    }
    text.parse().map_err(|e| format!("{e}"))
}

/// The columns [`tournament_from_row`] reads.
const TOURNAMENT_COLUMNS: &str =
    "id, format, pairs, rounds, time_control, openings, rules, finished";

fn tournament_from_row(r: &dyn Row) -> Mapped<Tournament> {
    let tc: String = r.get(4)?;
    Ok(Tournament {
        id: r.get(0)?,
        format: r.parse(1)?,
        pairs: r.get(2)?,
        rounds: r.get(3)?,
        time_control: time_control(&tc).map_err(|problem| crate::error::BadValue {
            column: r.name(4),
            problem,
        })?,
        openings: r.json(5)?,
        rules: match r.get::<Option<String>>(6)? {
            Some(_) => r.json(6)?,
            None => StoredRules::before_stored(),
        },
        finished: r.get(7)?,
    })
}

/// The columns [`slot_from_row`] reads.
pub(crate) const SLOT_COLUMNS: &str =
    "id, round, pair, game_in_pair, white_entry, black_entry, opening, game_id, cancelled";

pub(crate) fn slot_from_row(r: &dyn Row) -> Mapped<Slot> {
    let game: Option<GameId> = r.get(7)?;
    let cancelled: bool = r.get(8)?;
    Ok(Slot {
        id: r.get(0)?,
        plan: SlotPlan {
            round: r.get(1)?,
            pair: r.get(2)?,
            game_in_pair: r.get(3)?,
            white: r.get(4)?,
            black: r.get(5)?,
            opening: r.get(6)?,
        },
        state: match (game, cancelled) {
            (Some(id), _) => SlotState::Played(id),
            (None, true) => SlotState::Cancelled,
            (None, false) => SlotState::Pending,
        },
    })
}

/// A JSON column's text.
fn json(c: &dyn Conn, column: &str, value: &impl Serialize) -> StoreResult<String> {
    serde_json::to_string(value).map_err(|e| {
        c.bad(crate::error::BadValue {
            column: column.to_string(),
            problem: e.to_string(),
        })
    })
}

/// [`TournamentStore::create_tournament`] in its transaction.
fn create_tournament(c: &mut dyn Conn, new: &NewTournament<'_>) -> StoreResult<TournamentId> {
    let t = new.settings;
    let openings = json(c, "openings", &t.openings)?;
    let rules = json(c, "rules", &t.rules)?;
    let id: TournamentId = c.one(
        "INSERT INTO tournaments (format, pairs, rounds, time_control, openings, rules,
                                  kit_version)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7) RETURNING id",
        params![
            t.format.as_str(),
            t.pairs,
            t.rounds,
            t.time_control.to_string().as_str(),
            openings.as_str(),
            rules.as_str(),
            KIT_VERSION
        ],
        |r| r.get(0),
    )?;
    for (seed, entry) in new.field.iter().enumerate() {
        let seed = count("seed", seed).map_err(|e| c.bad(e))?;
        c.execute(
            "INSERT INTO participants (tournament_id, entry_id, seed) VALUES (?1, ?2, ?3)",
            &[id.into(), (*entry).into(), seed],
        )?;
    }
    insert_slots(c, id, 0, new.slots, new.byes)?;
    Ok(id)
}

fn insert_slots(
    c: &mut dyn Conn,
    tournament: TournamentId,
    round: u32,
    slots: &[SlotPlan],
    byes: &[EntryId],
) -> StoreResult<()> {
    for s in slots {
        c.execute(
            "INSERT INTO slots (tournament_id, round, pair, game_in_pair, white_entry,
                                black_entry, opening)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
            params![
                tournament,
                s.round,
                s.pair,
                s.game_in_pair,
                s.white,
                s.black,
                s.opening
            ],
        )?;
    }
    for &entry in byes {
        c.execute(
            "INSERT INTO byes (tournament_id, round, entry_id) VALUES (?1, ?2, ?3)",
            params![tournament, round, entry],
        )?;
    }
    Ok(())
}

impl<B: Backend> TournamentStore for B {
    fn tournament_count(&self) -> StoreResult<usize> {
        let n: u64 = self.read(|c| c.one("SELECT COUNT(*) FROM tournaments", &[], |r| r.get(0)))?;
        Ok(usize::try_from(n).unwrap_or(usize::MAX))
    }

    fn unfinished_tournament(&self) -> StoreResult<Option<Tournament>> {
        let sql = format!(
            "SELECT {TOURNAMENT_COLUMNS} FROM tournaments WHERE NOT finished ORDER BY id LIMIT 1"
        );
        self.read(|c| c.first(&sql, &[], tournament_from_row))
    }

    fn create_tournament(&mut self, new: &NewTournament<'_>) -> StoreResult<TournamentId> {
        self.transaction(|c| create_tournament(c, new))
    }

    fn add_round(&mut self, round: &NewRound<'_>) -> StoreResult<()> {
        self.transaction(|c| {
            insert_slots(c, round.tournament, round.round, round.slots, round.byes)
        })
    }

    fn participants(&self, tournament: TournamentId) -> StoreResult<Vec<EntryId>> {
        self.read(|c| {
            c.rows(
                "SELECT entry_id FROM participants WHERE tournament_id = ?1 ORDER BY seed",
                params![tournament],
                |r| r.get(0),
            )
        })
    }

    fn slots(&self, tournament: TournamentId) -> StoreResult<Vec<Slot>> {
        let sql = format!("SELECT {SLOT_COLUMNS} FROM slots WHERE tournament_id = ?1 ORDER BY id");
        self.read(|c| c.rows(&sql, params![tournament], slot_from_row))
    }

    fn byes(&self, tournament: TournamentId) -> StoreResult<Vec<EntryId>> {
        self.read(|c| {
            c.rows(
                "SELECT entry_id FROM byes WHERE tournament_id = ?1 ORDER BY round",
                params![tournament],
                |r| r.get(0),
            )
        })
    }

    fn cancel_withdrawn(&mut self, tournament: TournamentId) -> StoreResult<usize> {
        let n = self.write(|c| {
            c.execute(
                "UPDATE slots SET cancelled = TRUE
                 WHERE tournament_id = ?1 AND game_id IS NULL AND NOT cancelled
                   AND (white_entry IN (SELECT id FROM entries WHERE withdrawn)
                     OR black_entry IN (SELECT id FROM entries WHERE withdrawn))",
                params![tournament],
            )
        })?;
        Ok(usize::try_from(n).unwrap_or(usize::MAX))
    }

    fn finish_tournament(&mut self, tournament: TournamentId) -> StoreResult<()> {
        self.write(|c| {
            c.execute(
                "UPDATE tournaments SET finished = TRUE WHERE id = ?1",
                params![tournament],
            )
        })?;
        Ok(())
    }

    fn games(&self, with_pgn: bool) -> StoreResult<Vec<Game>> {
        let pgn = if with_pgn { WITH_PGN } else { WITHOUT_PGN };
        let sql = format!("SELECT {GAME_COLUMNS}, {pgn} FROM games ORDER BY id");
        self.read(|c| c.rows(&sql, &[], game_from_row))
    }

    fn game(&self, id: GameId) -> StoreResult<Option<Game>> {
        let sql = format!("SELECT {GAME_COLUMNS}, {WITH_PGN} FROM games WHERE id = ?1");
        self.read(|c| c.first(&sql, params![id], game_from_row))
    }

    fn games_since(&self, first: GameId) -> StoreResult<Vec<Game>> {
        let sql =
            format!("SELECT {GAME_COLUMNS}, {WITH_PGN} FROM games WHERE id >= ?1 ORDER BY id");
        self.read(|c| c.rows(&sql, params![first], game_from_row))
    }

    fn tournament(&self, id: TournamentId) -> StoreResult<Option<Tournament>> {
        let sql = format!("SELECT {TOURNAMENT_COLUMNS} FROM tournaments WHERE id = ?1");
        self.read(|c| c.first(&sql, params![id], tournament_from_row))
    }

    fn unplayed(&self, tournament: TournamentId) -> StoreResult<usize> {
        let n: u64 = self.read(|c| {
            c.one(
                "SELECT COUNT(*) FROM slots
                 WHERE tournament_id = ?1 AND game_id IS NULL AND NOT cancelled",
                params![tournament],
                |r| r.get(0),
            )
        })?;
        Ok(usize::try_from(n).unwrap_or(usize::MAX))
    }

    fn set_aside(&mut self, game: GameId, why: Aside) -> StoreResult<bool> {
        self.transaction(|c| set_aside(c, game, why))
    }

    fn distrust_worker(&mut self, name: &str) -> StoreResult<Distrusted> {
        self.transaction(|c| distrust(c, name))
    }

    fn distrusted_workers(&self) -> StoreResult<Vec<String>> {
        self.read(|c| {
            c.rows(
                "SELECT name FROM distrusted_workers ORDER BY name",
                &[],
                |r| r.get(0),
            )
        })
    }

    fn lock_tournament(&mut self, tournament: TournamentId) -> StoreResult<()> {
        self.write(|c| advisory(c, "pg_advisory_lock", tournament))
    }

    fn unlock_tournament(&mut self, tournament: TournamentId) -> StoreResult<()> {
        self.write(|c| advisory(c, "pg_advisory_unlock", tournament))
    }
}

/// Sets `game` aside from its slot, `why`, in the caller's transaction; whether it was
/// in one.
fn set_aside(c: &mut dyn Conn, game: GameId, why: Aside) -> StoreResult<bool> {
    let freed = c.execute(
        "UPDATE slots SET game_id = NULL, lease_token = NULL, lease_worker = NULL,
                          lease_expires = NULL
         WHERE game_id = ?1",
        params![game],
    )?;
    c.execute(
        "UPDATE games SET aside_from = COALESCE(aside_from, slot_id), slot_id = NULL,
                          aside = ?2
         WHERE id = ?1",
        params![game, why.tag()],
    )?;
    Ok(freed == 1)
}

/// Which workers `name` stands for, as SQL over the column `column` with `?1` the name:
/// itself, and for a role's name (no `.`) its workers, `NAME.…`.
fn named(column: &str, name: &str) -> String {
    if name.contains('.') {
        format!("{column} = ?1")
    } else {
        format!("({column} = ?1 OR substr({column}, 1, length(?1) + 1) = ?1 || '.')")
    }
}

/// [`TournamentStore::distrust_worker`], in the caller's transaction.
fn distrust(c: &mut dyn Conn, name: &str) -> StoreResult<Distrusted> {
    let added = c.execute(
        "INSERT INTO distrusted_workers (name) VALUES (?1) ON CONFLICT DO NOTHING",
        params![name],
    )?;
    let counted: Vec<(GameId, TournamentId)> = c.rows(
        &format!(
            "SELECT id, tournament_id FROM games
             WHERE slot_id IS NOT NULL AND tournament_id IS NOT NULL AND {}",
            named("worker", name)
        ),
        params![name],
        |r| Ok((r.get(0)?, r.get(1)?)),
    )?;
    for &(game, _) in &counted {
        set_aside(c, game, Aside::Distrusted)?;
    }
    // Its games already set aside are void too: no claim of its may confirm another's.
    c.execute(
        &format!(
            "UPDATE games SET aside = ?2 WHERE aside IS NOT NULL AND {}",
            named("worker", name)
        ),
        params![name, Aside::Distrusted.tag()],
    )?;
    let held = named("lease_worker", name);
    c.execute(
        &format!(
            "DELETE FROM live_games WHERE slot_id IN (
                 SELECT id FROM slots WHERE game_id IS NULL AND lease_token IS NOT NULL AND {held})"
        ),
        params![name],
    )?;
    c.execute(
        &format!(
            "UPDATE slots SET lease_token = NULL, lease_worker = NULL, lease_expires = NULL
             WHERE game_id IS NULL AND lease_token IS NOT NULL AND {held}"
        ),
        params![name],
    )?;
    let mut reopened = Vec::new();
    for &(_, tournament) in &counted {
        let opened = c.execute(
            "UPDATE tournaments SET finished = FALSE WHERE id = ?1 AND finished",
            params![tournament],
        )?;
        if opened == 1 {
            reopened.push(tournament);
        }
    }
    Ok(Distrusted {
        already: added == 0,
        voided: counted.len(),
        reopened,
    })
}

/// Tournament `t`'s organiser lock is advisory lock `TOURNAMENT_LOCK + t` (beside the
/// schema's, `postgres/mod.rs`).
const TOURNAMENT_LOCK: i64 = 0x6b69_7401;

/// Takes or gives back (`function`) a tournament's advisory lock on PostgreSQL; nothing
/// on SQLite.
fn advisory(c: &mut dyn Conn, function: &str, tournament: TournamentId) -> StoreResult<()> {
    if c.dialect() == crate::sql::Dialect::Postgres {
        c.execute(
            &format!("SELECT {function}(?1)"),
            params![TOURNAMENT_LOCK + tournament.0],
        )?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_controls_round_trip_through_the_store() {
        for text in ["10+0.1", "1+0.05", "0.1/move", "40/60+0"] {
            let tc = time_control(text).unwrap();
            assert_eq!(time_control(&tc.to_string()).unwrap(), tc, "{text}");
        }
        for bad in ["fast", "-1/move", "NaN/move", "inf/move", "1e300/move"] {
            assert!(time_control(bad).is_err(), "{bad}");
        }
    }
}

//! The values the store holds, as types: ids, formats, slot states, games.

use std::fmt;
use std::str::FromStr;

use framework::chess::{Board, Color};
use framework::notation::pgn::GameResult;
use runner::{
    AdjudicationRules, DrawRule, GameSettings, Opening, ResignRule, Termination, TimeControl,
};
use serde::{Deserialize, Serialize};

macro_rules! id_type {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub struct $name(pub i64);

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, "#{}", self.0)
            }
        }

        impl rusqlite::ToSql for $name {
            fn to_sql(&self) -> rusqlite::Result<rusqlite::types::ToSqlOutput<'_>> {
                self.0.to_sql()
            }
        }

        impl rusqlite::types::FromSql for $name {
            fn column_result(
                value: rusqlite::types::ValueRef<'_>,
            ) -> rusqlite::types::FromSqlResult<Self> {
                i64::column_result(value).map($name)
            }
        }
    };
}

id_type!(
    /// An entry (a name in the challenge, with all its versions).
    EntryId
);
id_type!(
    /// One submitted version of an entry.
    VersionId
);
id_type!(
    /// A tournament.
    TournamentId
);
id_type!(
    /// One scheduled game of a tournament.
    SlotId
);
id_type!(
    /// A played game.
    GameId
);

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
}

impl Default for StoredRules {
    /// What every tournament was played under before the rules were stored.
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

/// One submitted version of an entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Version {
    /// Its id.
    pub id: VersionId,
    /// The entry's id.
    pub entry_id: EntryId,
    /// The entry's name.
    pub name: String,
    /// Its author, if given.
    pub author: Option<String>,
    /// 1 for the first submission, then 2, 3, ...
    pub number: u32,
    /// The first 16 hex digits of the source's SHA-256.
    pub hash: String,
    /// Tokens counted for submission (`#DEBUG` tokens included).
    pub tokens: u32,
    /// Of those, `#DEBUG` tokens.
    pub debug_tokens: u32,
    /// The file name it was submitted from.
    pub file_name: String,
    /// Whether this is the entry's newest version.
    pub current: bool,
    /// Whether the entry is withdrawn.
    pub withdrawn: bool,
    /// When it was submitted (UTC, ISO 8601).
    pub submitted: String,
}

impl Version {
    /// The name this version plays under: the entry's name, with ` vN` from the second
    /// version on.
    pub fn player_name(&self) -> String {
        if self.number == 1 {
            self.name.clone()
        } else {
            format!("{} v{}", self.name, self.number)
        }
    }

    /// `active`, `replaced` (a newer version exists) or `withdrawn`.
    pub fn status(&self) -> &'static str {
        match (self.withdrawn, self.current) {
            (true, _) => "withdrawn",
            (false, true) => "active",
            (false, false) => "replaced",
        }
    }
}

/// What a new submission needs to be stored.
#[derive(Debug, Clone)]
pub struct NewVersion<'a> {
    /// The entry's name.
    pub name: &'a str,
    /// Its author (kept from earlier versions when `None`).
    pub author: Option<&'a str>,
    /// The bot source.
    pub source: &'a str,
    /// Its hash.
    pub hash: &'a str,
    /// The file name it came from.
    pub file_name: &'a str,
    /// Tokens counted for submission.
    pub tokens: usize,
    /// Of those, `#DEBUG` tokens.
    pub debug_tokens: usize,
}

/// What a submission did to the store.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Submitted {
    /// A new version was stored.
    New(Version),
    /// The entry's current version already has this source; nothing changed.
    Unchanged(Version),
    /// The entry was withdrawn and is back, with its current version.
    Revived(Version),
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

// ---- Server state (`challenge serve`) ------------------------------------------------

/// The switches the organiser turns in `challenge serve`, kept with the challenge so a
/// restarted server comes back as it was left.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ServerFlag {
    /// New entries and new versions are refused.
    SubmissionsClosed,
    /// The tournament claims no new games (games in flight finish).
    TournamentPaused,
    /// Everyone may read the entries' sources.
    SourcesPublished,
}

impl ServerFlag {
    /// The stored spelling.
    pub const fn as_str(self) -> &'static str {
        match self {
            ServerFlag::SubmissionsClosed => "submissions_closed",
            ServerFlag::TournamentPaused => "tournament_paused",
            ServerFlag::SourcesPublished => "sources_published",
        }
    }
}

/// What the server keeps about itself: its switches and the organiser's token, as a hash.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ServerState {
    /// New entries and new versions are refused.
    pub submissions_closed: bool,
    /// The tournament claims no new games.
    pub tournament_paused: bool,
    /// Everyone may read the entries' sources.
    pub sources_published: bool,
    /// SHA-256 (hex) of the organiser's token, once one was set.
    pub admin_token_hash: Option<String>,
}

impl ServerState {
    /// Whether `flag` is on.
    pub fn flag(&self, flag: ServerFlag) -> bool {
        match flag {
            ServerFlag::SubmissionsClosed => self.submissions_closed,
            ServerFlag::TournamentPaused => self.tournament_paused,
            ServerFlag::SourcesPublished => self.sources_published,
        }
    }
}

/// Where a submission sent through the server stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum JobState {
    /// Waiting for the builder.
    Queued,
    /// Being checked, built and smoke-tested.
    Running,
    /// Stored in the challenge.
    Accepted,
    /// Refused; the message says why.
    Refused,
}

impl JobState {
    /// The stored spelling.
    pub const fn as_str(self) -> &'static str {
        match self {
            JobState::Queued => "queued",
            JobState::Running => "running",
            JobState::Accepted => "accepted",
            JobState::Refused => "refused",
        }
    }

    /// Whether the job has ended.
    pub const fn is_final(self) -> bool {
        matches!(self, JobState::Accepted | JobState::Refused)
    }
}

impl FromStr for JobState {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "queued" => Ok(JobState::Queued),
            "running" => Ok(JobState::Running),
            "accepted" => Ok(JobState::Accepted),
            "refused" => Ok(JobState::Refused),
            other => Err(format!("`{other}` is not a job state")),
        }
    }
}

/// A submission sent through the server, and its progress.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Job {
    /// Its id: random, unguessable (the job's page shows build errors quoting the source).
    pub id: String,
    /// The entry it submits to.
    pub entry: String,
    /// Where it stands.
    pub state: JobState,
    /// The current step, or the outcome (the exact refusal reason when refused).
    pub message: String,
    /// When it was received (UTC, ISO 8601).
    pub created: String,
}

/// A cheap fingerprint of what the standings depend on: it changes whenever a game, a
/// version or a withdrawal is stored, by this process or another one.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct StoreRevision {
    /// The newest game's id (0 without games).
    pub last_game: i64,
    /// The newest version's id (0 without versions).
    pub last_version: i64,
    /// A sum over the withdrawn entries' ids.
    pub withdrawn: i64,
}

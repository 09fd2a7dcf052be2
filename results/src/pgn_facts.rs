//! Players and games read from PGN files, for `challenge ratings`.
//!
//! The files are read by the one PGN reader, through a fixed buffer
//! ([`framework::notation::stream`]; a large file on two threads, [`PgnFacts::read_file`]):
//! every move is replayed and checked (unless
//! [`PgnReadMode::results_only`]), and games with the same players, result and ending are
//! counted together, so memory follows the pairings, not the file's size. A game whose
//! movetext cannot be read still counts by its result (its `Result` tag, or the result
//! token), with a [`PgnWarning`] saying why; `--strict` skips it instead, as the kit did
//! before. Ambiguous SAN that only one move fits, once the rest of the game is replayed,
//! is read as that move with a warning: the C# challenge's PGN writer produced such moves
//! (`Qca1` with queens on c1 and c3 that can both reach a1).

use std::collections::HashMap;

use framework::notation::pgn::GameResult;
use framework::notation::scan::{ScanOptions, ScannedGame};
use framework::notation::stream::{PgnStream, StreamError};
use runner::{TERMINATION_DETAILS_TAG, Termination};

use super::standings::{FaultKind, GameFact, PlayerInfo};

mod split;

/// How the games' movetext is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct PgnReadMode {
    /// Skip a game whose moves cannot be read (ambiguous SAN included), as the kit did
    /// before: its result is not rated.
    pub strict: bool,
    /// Read only tags and results; the moves are not replayed (nor checked).
    pub results_only: bool,
}

impl PgnReadMode {
    fn scan_options(self) -> ScanOptions {
        ScanOptions {
            replay: !self.results_only,
            resolve_ambiguous: !self.strict,
            comments: false,
        }
    }
}

/// Where in the input a [`PgnWarning`] is about.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PgnPlace {
    /// The file, as the caller named it.
    pub file: String,
    /// The line (1-based).
    pub line: usize,
    /// The game's number in the file (1-based).
    pub game: usize,
}

/// A game of a PGN file that is not rated as it stands, and why; its `Display` is the
/// line a person reads (`FILE:LINE: game N ...`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PgnWarning {
    /// An ambiguous move was read as the only candidate that keeps the rest of the game
    /// legal; the game is rated.
    Settled {
        /// The move's place.
        place: PgnPlace,
        /// `White - Black`.
        players: String,
        /// The move as written.
        move_text: String,
        /// The move it was read as.
        chosen: String,
        /// Every move it could have meant.
        candidates: Vec<String>,
    },
    /// The game is not rated.
    Skipped {
        /// The game's place (where reading stopped).
        place: PgnPlace,
        /// Why.
        reason: String,
    },
    /// The game's moves could not be read; it is rated by its result alone.
    RatedByResult {
        /// Where reading stopped.
        place: PgnPlace,
        /// `White - Black`.
        players: String,
        /// The result it is rated by.
        result: GameResult,
        /// Why its moves could not be read.
        reason: String,
    },
}

impl std::fmt::Display for PgnPlace {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}: game {}", self.file, self.line, self.game)
    }
}

impl std::fmt::Display for PgnWarning {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PgnWarning::Settled {
                place,
                players,
                move_text,
                chosen,
                candidates,
            } => write!(
                f,
                "{place} ({players}): warning: ambiguous SAN `{move_text}` read as {chosen}, the only one of {} that keeps the rest of the game legal",
                candidates.join(", ")
            ),
            PgnWarning::Skipped { place, reason } => write!(f, "{place} skipped: {reason}"),
            PgnWarning::RatedByResult {
                place,
                players,
                result,
                reason,
            } => write!(
                f,
                "{place} ({players}) rated by its result {result} alone, its moves unread: {reason}"
            ),
        }
    }
}

/// What the ratings need of one game, borrowed from the reader's window.
#[derive(Debug)]
struct GameRecord<'g> {
    game: &'g ScannedGame<'g>,
    white: Option<&'g str>,
    black: Option<&'g str>,
    termination: Option<Termination>,
}

impl<'g> GameRecord<'g> {
    fn of(game: &'g ScannedGame<'g>) -> GameRecord<'g> {
        GameRecord {
            game,
            white: game.tag("White"),
            black: game.tag("Black"),
            // As `Termination::from_pgn` reads it, from the tags alone.
            termination: game
                .tag(TERMINATION_DETAILS_TAG)
                .or_else(|| game.tag("Termination"))
                .and_then(|value| value.parse().ok()),
        }
    }

    /// `White - Black`, for messages.
    fn players(&self) -> String {
        format!(
            "{} - {}",
            self.white.unwrap_or("?"),
            self.black.unwrap_or("?")
        )
    }
}

/// Games that count together: the same players, score, ending and faulty player.
/// Player numbers are held as `u32` here: the map is the reader's largest, one entry per
/// kind of game, and half its size matters on a large file.
type GameKey = (u32, u32, u8, Option<Termination>, Option<u32>);

/// Players and games read from PGN, the games skipped and those rated by their result
/// alone (each reported as a [`PgnWarning`] with its file, line and number).
#[derive(Debug, Default)]
pub struct PgnFacts {
    /// Everyone named by a `White` or `Black` tag of a rated game.
    pub players: Vec<PlayerInfo>,
    /// The rated games, those with the same players, result and ending counted together.
    pub games: Vec<GameFact>,
    /// Games read but not rated.
    pub skipped: usize,
    /// Games rated by their result whose moves could not be read.
    pub unread: usize,
    /// Ambiguous moves read by their fit with the rest of their game.
    pub settled: usize,
    index: HashMap<String, usize>,
    /// Where each kind of game is in `games`.
    kinds: HashMap<GameKey, u32>,
}

impl PgnFacts {
    fn player(&mut self, name: &str) -> usize {
        if let Some(&i) = self.index.get(name) {
            return i;
        }
        self.players.push(PlayerInfo {
            name: name.to_string(),
            entry: name.to_string(),
            ..PlayerInfo::default()
        });
        self.index.insert(name.to_string(), self.players.len() - 1);
        self.players.len() - 1
    }

    /// Adds the games of one file, read through a fixed buffer, in file order; each game
    /// not rated as it stands goes to `observe`, in file order.
    ///
    /// # Errors
    /// The file cannot be read or is not PGN text ([`StreamError`]); the games before
    /// the place it names are counted.
    ///
    /// ```
    /// use results::{PgnFacts, PgnReadMode};
    ///
    /// let text = "[White \"A\"]\n[Black \"B\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Ke3 1-0\n";
    /// let mut facts = PgnFacts::default();
    /// facts.read("t.pgn", text.as_bytes(), PgnReadMode::default(), &|_| {}).unwrap();
    /// assert_eq!((facts.games.len(), facts.unread), (1, 1)); // counted by its result
    ///
    /// let mut strict = PgnFacts::default();
    /// let said = std::sync::Mutex::new(Vec::new());
    /// let strictly = PgnReadMode { strict: true, ..PgnReadMode::default() };
    /// let observe = |w: results::PgnWarning| said.lock().unwrap().push(w.to_string());
    /// strict.read("t.pgn", text.as_bytes(), strictly, &observe).unwrap();
    /// let said = said.into_inner().unwrap();
    /// assert_eq!((strict.games.len(), strict.skipped), (0, 1));
    /// assert!(said[0].starts_with("t.pgn:5: game 1 skipped: illegal SAN `Ke3`"), "{said:?}");
    /// ```
    pub fn read(
        &mut self,
        file: &str,
        input: impl std::io::Read,
        mode: PgnReadMode,
        observe: &(dyn Fn(PgnWarning) + Sync),
    ) -> Result<(), StreamError> {
        PgnStream::new(input, mode.scan_options())
            .for_each(|game| self.take_scanned(file, game, mode, observe))?;
        Ok(())
    }

    /// Rates one game as the reader handed it on, or skips it.
    fn take_scanned(
        &mut self,
        file: &str,
        game: &ScannedGame<'_>,
        mode: PgnReadMode,
        observe: &(dyn Fn(PgnWarning) + Sync),
    ) {
        let place = |line| PgnPlace {
            file: file.to_string(),
            line,
            game: game.number,
        };
        self.take(&GameRecord::of(game), mode, place, observe);
    }

    /// Rates one game, or skips it, telling `observe` why when it is not rated as it
    /// stands.
    fn take(
        &mut self,
        record: &GameRecord<'_>,
        mode: PgnReadMode,
        place: impl Fn(usize) -> PgnPlace,
        observe: &(dyn Fn(PgnWarning) + Sync),
    ) {
        for settled in &record.game.resolved {
            self.settled += 1;
            observe(PgnWarning::Settled {
                place: place(settled.line),
                players: record.players(),
                move_text: settled.move_text.clone(),
                chosen: settled.chosen.clone(),
                candidates: settled.candidates.clone(),
            });
        }
        if let Some(err) = &record.game.error {
            let at = err
                .move_text
                .as_deref()
                .map(|m| format!(" (at {m})"))
                .unwrap_or_default();
            let countable = record.game.result != GameResult::Unknown
                && record.white.is_some()
                && record.black.is_some();
            if mode.strict || !countable {
                self.skipped += 1;
                observe(PgnWarning::Skipped {
                    place: place(err.line),
                    reason: format!("{}{at}", err.message),
                });
                return;
            }
            self.unread += 1;
            observe(PgnWarning::RatedByResult {
                place: place(err.line),
                players: record.players(),
                result: record.game.result,
                reason: format!("{}{at}", err.message),
            });
        }
        self.add(record, place, observe);
    }

    /// Rates a game, or tells `observe` it has no result.
    fn add(
        &mut self,
        record: &GameRecord<'_>,
        place: impl Fn(usize) -> PgnPlace,
        observe: &(dyn Fn(PgnWarning) + Sync),
    ) {
        let score = match record.game.result {
            GameResult::WhiteWins => 1.0,
            GameResult::BlackWins => 0.0,
            GameResult::Draw => 0.5,
            GameResult::Unknown => {
                self.skipped += 1;
                observe(PgnWarning::Skipped {
                    place: place(record.game.line),
                    reason: "no result (`*`)".to_string(),
                });
                return;
            }
        };
        let white = self.player(record.white.unwrap_or("?"));
        let black = self.player(record.black.unwrap_or("?"));
        // In a PGN file the side that misbehaved is the side that lost.
        let faulty = record
            .termination
            .and_then(FaultKind::of)
            .and(match record.game.result {
                GameResult::WhiteWins => Some(black),
                GameResult::BlackWins => Some(white),
                _ => None,
            });
        self.count_fact(GameFact {
            white,
            black,
            score,
            termination: record.termination,
            faulty,
            count: 1,
        });
    }

    /// Counts `fact`'s games with the games of the same kind, or as a new kind.
    fn count_fact(&mut self, fact: GameFact) {
        // Scores are 0, ½ or 1: twice the score tells them apart exactly.
        let narrow = |i: usize| u32::try_from(i).expect("fewer than 2^32 players and kinds");
        let key = (
            narrow(fact.white),
            narrow(fact.black),
            (fact.score * 2.0) as u8,
            fact.termination,
            fact.faulty.map(narrow),
        );
        match self.kinds.get(&key) {
            Some(&i) => self.games[i as usize].count += fact.count,
            None => {
                self.kinds.insert(key, narrow(self.games.len()));
                self.games.push(fact);
            }
        }
    }
}

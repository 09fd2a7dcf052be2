//! Players and games read from PGN files, for `challenge ratings`.
//!
//! The files are read by [`framework::notation::scan`]: every move is replayed and checked
//! (unless [`PgnReadMode::results_only`]), on all cores for large files. A game whose
//! movetext cannot be read still counts by its result (its `Result` tag, or the result
//! token), with one line on stderr saying why; `--strict` skips it instead, as the kit
//! did before. Ambiguous SAN that only one move fits, once the rest of the game is
//! replayed, is read as that move with a warning: the C# challenge's PGN writer produced
//! such moves (`Qca1` with queens on c1 and c3 that can both reach a1).

use std::borrow::Cow;
use std::collections::HashMap;

use framework::notation::pgn::{GameResult, PgnError};
use framework::notation::scan::{ResolvedAmbiguity, ScanOptions, ScannedGame, scan_parallel};
use runner::{TERMINATION_DETAILS_TAG, Termination};

use super::standings::{FaultKind, GameFact, PlayerInfo};

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
        }
    }
}

/// What the ratings need of one game, its names borrowed from the file's text.
#[derive(Debug)]
struct GameRecord<'a> {
    line: usize,
    white: Option<Cow<'a, str>>,
    black: Option<Cow<'a, str>>,
    result: GameResult,
    termination: Option<Termination>,
    error: Option<PgnError>,
    resolved: Vec<ResolvedAmbiguity>,
}

impl<'a> GameRecord<'a> {
    fn of(game: &ScannedGame<'a>) -> GameRecord<'a> {
        let tag = |name: &str| {
            game.tags
                .iter()
                .find(|(n, _)| *n == name)
                .map(|(_, v)| v.clone())
        };
        GameRecord {
            line: game.line,
            white: tag("White"),
            black: tag("Black"),
            result: game.result,
            // As `Termination::from_pgn` reads it, from the tags alone.
            termination: game
                .tag(TERMINATION_DETAILS_TAG)
                .or_else(|| game.tag("Termination"))
                .and_then(|value| value.parse().ok()),
            error: game.error.clone(),
            resolved: game.resolved.clone(),
        }
    }

    /// `White - Black`, for messages.
    fn players(&self) -> String {
        format!(
            "{} - {}",
            self.white.as_deref().unwrap_or("?"),
            self.black.as_deref().unwrap_or("?")
        )
    }
}

/// Players and games read from PGN, the games skipped and those rated by their result
/// alone (each reported on stderr with its file, line and number).
#[derive(Debug, Default)]
pub struct PgnFacts {
    /// Everyone named by a `White` or `Black` tag of a rated game.
    pub players: Vec<PlayerInfo>,
    /// The rated games.
    pub games: Vec<GameFact>,
    /// Games read but not rated.
    pub skipped: usize,
    /// Games rated by their result whose moves could not be read.
    pub unread: usize,
    /// Ambiguous moves read by their fit with the rest of their game.
    pub settled: usize,
    index: HashMap<String, usize>,
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

    /// Adds the games of one file's text, read on all cores, in file order.
    ///
    /// ```
    /// use kit::challenge::pgn_facts::{PgnFacts, PgnReadMode};
    ///
    /// let text = "[White \"A\"]\n[Black \"B\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Ke3 1-0\n";
    /// let mut facts = PgnFacts::default();
    /// facts.read_text("t.pgn", text, PgnReadMode::default());
    /// assert_eq!((facts.games.len(), facts.unread), (1, 1)); // counted by its result
    ///
    /// let mut strict = PgnFacts::default();
    /// strict.read_text("t.pgn", text, PgnReadMode { strict: true, ..PgnReadMode::default() });
    /// assert_eq!((strict.games.len(), strict.skipped), (0, 1));
    /// ```
    pub fn read_text(&mut self, file: &str, text: &str, mode: PgnReadMode) {
        let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
        let records = scan_parallel(text, mode.scan_options(), threads, GameRecord::of);
        for (number, record) in (1..).zip(records) {
            self.take(file, number, record, mode);
        }
    }

    /// Rates one game, or skips it, saying why on stderr.
    fn take(&mut self, file: &str, number: usize, record: GameRecord<'_>, mode: PgnReadMode) {
        for settled in &record.resolved {
            self.settled += 1;
            eprintln!(
                "{file}:{}: game {number} ({}): warning: ambiguous SAN `{}` read as {}, the only one of {} that keeps the rest of the game legal",
                settled.line,
                record.players(),
                settled.move_text,
                settled.chosen,
                settled.candidates.join(", ")
            );
        }
        if let Some(err) = &record.error {
            let at = err
                .move_text
                .as_deref()
                .map(|m| format!(" (at {m})"))
                .unwrap_or_default();
            let countable = record.result != GameResult::Unknown
                && record.white.is_some()
                && record.black.is_some();
            if mode.strict || !countable {
                self.skipped += 1;
                eprintln!(
                    "{file}:{}: game {number} skipped: {}{at}",
                    err.line, err.message
                );
                return;
            }
            self.unread += 1;
            eprintln!(
                "{file}:{}: game {number} ({}) rated by its result {} alone, its moves unread: {}{at}",
                err.line,
                record.players(),
                record.result,
                err.message
            );
        }
        self.add(file, number, &record);
    }

    fn add(&mut self, file: &str, number: usize, record: &GameRecord<'_>) {
        let score = match record.result {
            GameResult::WhiteWins => 1.0,
            GameResult::BlackWins => 0.0,
            GameResult::Draw => 0.5,
            GameResult::Unknown => {
                self.skipped += 1;
                eprintln!(
                    "{file}:{}: game {number} skipped: no result (`*`)",
                    record.line
                );
                return;
            }
        };
        let white = self.player(record.white.as_deref().unwrap_or("?"));
        let black = self.player(record.black.as_deref().unwrap_or("?"));
        // In a PGN file the side that misbehaved is the side that lost.
        let faulty = record
            .termination
            .and_then(FaultKind::of)
            .and(match record.result {
                GameResult::WhiteWins => Some(black),
                GameResult::BlackWins => Some(white),
                _ => None,
            });
        self.games.push(GameFact {
            white,
            black,
            score,
            termination: record.termination,
            faulty,
        });
    }
}

//! What a PGN game's result token says, and the error that names a game that could not be
//! read: the types every layer of the reader shares (the lexer, the scanner, the reader), so
//! none of them imports another for them.

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

use crate::chess::Color;

/// How a game ended, as the PGN result token says.
///
/// ```
/// use framework::notation::pgn::GameResult;
///
/// assert_eq!("1/2-1/2".parse::<GameResult>(), Ok(GameResult::Draw));
/// assert_eq!(GameResult::BlackWins.to_string(), "0-1");
/// assert_eq!(GameResult::default(), GameResult::Unknown);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum GameResult {
    /// `1-0`.
    WhiteWins,
    /// `0-1`.
    BlackWins,
    /// `1/2-1/2`.
    Draw,
    /// `*`: unfinished, abandoned or unknown.
    #[default]
    Unknown,
}

impl GameResult {
    /// The PGN token: `1-0`, `0-1`, `1/2-1/2` or `*`.
    ///
    /// ```
    /// use framework::notation::pgn::GameResult;
    /// assert_eq!(GameResult::Draw.as_str(), "1/2-1/2");
    /// ```
    pub const fn as_str(self) -> &'static str {
        match self {
            GameResult::WhiteWins => "1-0",
            GameResult::BlackWins => "0-1",
            GameResult::Draw => "1/2-1/2",
            GameResult::Unknown => "*",
        }
    }

    /// Reads a result token; also accepts the `½-½` spelling some sites use.
    ///
    /// ```
    /// use framework::notation::pgn::GameResult;
    /// assert_eq!(GameResult::from_token("½-½"), Some(GameResult::Draw));
    /// assert_eq!(GameResult::from_token("2-0"), None);
    /// ```
    pub fn from_token(token: &str) -> Option<GameResult> {
        match token {
            "1-0" => Some(GameResult::WhiteWins),
            "0-1" => Some(GameResult::BlackWins),
            "1/2-1/2" | "½-½" => Some(GameResult::Draw),
            "*" => Some(GameResult::Unknown),
            _ => None,
        }
    }

    /// The result for a side winning: `WhiteWins` for White.
    ///
    /// ```
    /// use framework::chess::Color;
    /// use framework::notation::pgn::GameResult;
    /// assert_eq!(GameResult::win_for(Color::Black), GameResult::BlackWins);
    /// ```
    pub const fn win_for(color: Color) -> GameResult {
        match color {
            Color::White => GameResult::WhiteWins,
            Color::Black => GameResult::BlackWins,
        }
    }
}

impl fmt::Display for GameResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The error from parsing a string that is not a result token.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("`{0}` is not a PGN result (expected 1-0, 0-1, 1/2-1/2 or *)")]
pub struct GameResultParseError(pub String);

impl FromStr for GameResult {
    type Err = GameResultParseError;
    fn from_str(s: &str) -> Result<GameResult, GameResultParseError> {
        GameResult::from_token(s.trim()).ok_or_else(|| GameResultParseError(s.to_string()))
    }
}

/// A game that could not be read, and why.
///
/// ```
/// use framework::notation::pgn::read_games;
///
/// let read = read_games("1. e4 e5 *\n\n1. e4 e5 2. Ke3 *\n\n1. d4 *");
/// assert_eq!(read.games.len(), 2);
/// let err = &read.errors[0];
/// assert_eq!((err.game_number, err.ply), (2, Some(3)));
/// assert_eq!(err.move_text.as_deref(), Some("2. Ke3"));
/// assert!(err.to_string().starts_with("game 2, line 3, move 2. Ke3: illegal SAN"), "{err}");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("game {game_number}, line {line}{}: {message}", .move_text.as_ref().map(|m| format!(", move {m}")).unwrap_or_default())]
pub struct PgnError {
    /// The game's position in the file, counting from 1 (every game counts, good or bad).
    pub game_number: usize,
    /// The line (from 1) where the problem is.
    pub line: usize,
    /// The half-move (from 1) that failed, if the problem is a move.
    pub ply: Option<usize>,
    /// The failing move with its number, like `12... Qxh9`, if the problem is a move.
    pub move_text: Option<String>,
    /// What went wrong.
    pub message: String,
}

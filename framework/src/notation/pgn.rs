//! Portable Game Notation: reading and writing whole games.
//!
//! [`read_games`] (or the streaming [`PgnReader`]) loads the games of a PGN file. Real-world
//! files are messy, so reading is tolerant: comments, NAGs, `;` comments, `%` escape lines and
//! variations are understood (variations are skipped), and a game that cannot be replayed is
//! reported as a [`PgnError`] with its number and offending move while the other games still load.
//!
//! [`write_game`] produces export-format PGN that standard tools (python-chess, SCID, lichess)
//! read: seven-tag roster first, `FEN`/`SetUp` for non-standard starts, SAN movetext wrapped
//! below 80 columns, comments in braces, and the result token.
//!
//! ```
//! use framework::notation::pgn::{read_games, write_game, GameResult};
//!
//! let text = r#"[Event "Casual"]
//! [White "Ann"]
//! [Black "Bob"]
//! [Result "1-0"]
//!
//! 1. e4 e5 2. Qh5 {threatening mate} Nc6 3. Bc4 Nf6?? 4. Qxf7# 1-0
//! "#;
//! let read = read_games(text);
//! assert!(read.errors.is_empty());
//! let game = &read.games[0];
//! assert_eq!(game.tag("White"), Some("Ann"));
//! assert_eq!(game.result, GameResult::WhiteWins);
//! assert_eq!(game.moves.len(), 7);
//! assert_eq!(game.comments[2].as_deref(), Some("threatening mate"));
//!
//! let written = write_game(game);
//! assert!(written.contains("1. e4 e5 2. Qh5 {threatening mate} 2... Nc6 3. Bc4 Nf6 4. Qxf7# 1-0"));
//! assert_eq!(read_games(&written).games[0].moves, game.moves);
//! ```

use std::fmt;
use std::str::FromStr;
use std::time::{SystemTime, UNIX_EPOCH};

use thiserror::Error;

use super::san::{parse_san, san_then_play};
use crate::chess::{Board, Color, Move};

/// The seven tags every exported game carries, in the order the standard prescribes.
pub const SEVEN_TAG_ROSTER: [&str; 7] =
    ["Event", "Site", "Date", "Round", "White", "Black", "Result"];

/// The longest movetext line [`write_game`] produces (the standard asks for fewer than 80).
pub const MAX_LINE: usize = 79;

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

/// One game: its tags, starting position, moves, comments and result.
///
/// `comments[i]` is the comment that follows `moves[i]`; the two vectors always have the same
/// length when built by this module. A comment before the first move goes in
/// [`intro`](Self::intro).
///
/// ```
/// use framework::chess::Board;
/// use framework::notation::pgn::{GameResult, PgnGame};
/// use framework::notation::san::parse_san;
///
/// let mut game = PgnGame::new();
/// game.set_tag("White", "Ann");
/// let mut board = game.start.clone();
/// for san in ["f3", "e5", "g4", "Qh4#"] {
///     let mv = parse_san(&board, san).unwrap();
///     board.make_move(mv);
///     game.push(mv, None);
/// }
/// game.comments[3] = Some("Fool's mate".to_string());
/// game.result = GameResult::BlackWins;
/// assert!(game.final_board().is_checkmate());
/// assert_eq!(game.san_moves(), ["f3", "e5", "g4", "Qh4#"]);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PgnGame {
    /// Tag pairs: the seven-tag roster first, in standard order, then the others in file order.
    pub tags: Vec<(String, String)>,
    /// The position before the first move (from the `FEN` tag, else the standard start).
    pub start: Board,
    /// The moves of the main line, legal from [`start`](Self::start).
    pub moves: Vec<Move>,
    /// The comment after each move, if any (same length as [`moves`](Self::moves)).
    pub comments: Vec<Option<String>>,
    /// A comment before the first move, if any.
    pub intro: Option<String>,
    /// The game result.
    pub result: GameResult,
}

impl Default for PgnGame {
    fn default() -> Self {
        PgnGame::new()
    }
}

impl PgnGame {
    /// An empty game from the standard start, with the seven-tag roster set to unknowns
    /// (`?`, `????.??.??` for the date, `*` for the result).
    ///
    /// ```
    /// use framework::notation::pgn::PgnGame;
    /// let game = PgnGame::new();
    /// assert_eq!(game.tag("Date"), Some("????.??.??"));
    /// assert_eq!(game.tags.len(), 7);
    /// ```
    pub fn new() -> PgnGame {
        PgnGame::from_position(Board::startpos())
    }

    /// An empty game from `start` (written with `SetUp`/`FEN` tags unless it is the standard start).
    ///
    /// ```
    /// use framework::chess::Board;
    /// use framework::notation::pgn::PgnGame;
    /// let start = Board::from_fen("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1").unwrap();
    /// let game = PgnGame::from_position(start);
    /// assert!(framework::notation::write_game(&game).contains("[FEN \"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\"]"));
    /// ```
    pub fn from_position(start: Board) -> PgnGame {
        let mut game = PgnGame {
            tags: Vec::new(),
            start,
            moves: Vec::new(),
            comments: Vec::new(),
            intro: None,
            result: GameResult::Unknown,
        };
        normalize_tags(&mut game.tags, game.result);
        game
    }

    /// The value of tag `name` (exact, case-sensitive name, as in the standard).
    ///
    /// ```
    /// use framework::notation::pgn::PgnGame;
    /// let game = PgnGame::new();
    /// assert_eq!(game.tag("Event"), Some("?"));
    /// assert_eq!(game.tag("ECO"), None);
    /// ```
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// Sets tag `name` to `value`, replacing an existing value in place or appending a new tag.
    /// Setting `Result` also sets [`result`](Self::result) when the value is a result token.
    ///
    /// ```
    /// use framework::notation::pgn::{GameResult, PgnGame};
    /// let mut game = PgnGame::new();
    /// game.set_tag("ECO", "C20");
    /// game.set_tag("Result", "0-1");
    /// assert_eq!(game.tag("ECO"), Some("C20"));
    /// assert_eq!(game.result, GameResult::BlackWins);
    /// ```
    pub fn set_tag(&mut self, name: &str, value: &str) {
        if name == "Result"
            && let Some(result) = GameResult::from_token(value)
        {
            self.result = result;
        }
        match self.tags.iter_mut().find(|(n, _)| n == name) {
            Some((_, v)) => *v = value.to_string(),
            None => self.tags.push((name.to_string(), value.to_string())),
        }
    }

    /// Appends a move (which must be legal after the current moves) and its comment.
    ///
    /// ```
    /// use framework::notation::pgn::PgnGame;
    /// let mut game = PgnGame::new();
    /// let e4 = game.start.parse_uci("e2e4").unwrap();
    /// game.push(e4, Some("best by test".into()));
    /// assert_eq!((game.moves.len(), game.comments.len()), (1, 1));
    /// ```
    pub fn push(&mut self, mv: Move, comment: Option<String>) {
        self.moves.push(mv);
        self.comments.push(comment);
    }

    /// The position after all the moves.
    ///
    /// ```
    /// use framework::notation::pgn::read_games;
    /// let game = &read_games("1. f3 e5 2. g4 Qh4# 0-1").games[0];
    /// assert!(game.final_board().is_checkmate());
    /// ```
    pub fn final_board(&self) -> Board {
        let mut board = self.start.clone();
        for &mv in &self.moves {
            board.make_move(mv);
        }
        board
    }

    /// The moves in SAN, in order.
    ///
    /// ```
    /// use framework::notation::pgn::read_games;
    /// let game = &read_games("1. e4 e5 2. Nf3 *").games[0];
    /// assert_eq!(game.san_moves(), ["e4", "e5", "Nf3"]);
    /// ```
    pub fn san_moves(&self) -> Vec<String> {
        let mut board = self.start.clone();
        self.moves
            .iter()
            .map(|&mv| san_then_play(&mut board, mv))
            .collect()
    }
}

/// Puts the seven-tag roster first and in order, filling missing roster tags with the standard's
/// "unknown" values and making the `Result` tag agree with `result`.
fn normalize_tags(tags: &mut Vec<(String, String)>, result: GameResult) {
    let mut ordered: Vec<(String, String)> = Vec::with_capacity(tags.len() + 7);
    for name in SEVEN_TAG_ROSTER {
        let value = match name {
            "Result" => result.as_str().to_string(),
            _ => match tags.iter().find(|(n, _)| n == name) {
                Some((_, v)) => v.clone(),
                None if name == "Date" => "????.??.??".to_string(),
                None => "?".to_string(),
            },
        };
        ordered.push((name.to_string(), value));
    }
    for (name, value) in tags.drain(..) {
        if !ordered.iter().any(|(n, _)| *n == name) {
            ordered.push((name, value));
        }
    }
    *tags = ordered;
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

/// Everything [`read_games`] found: the games that loaded and the errors for those that did not.
#[derive(Debug, Clone, Default)]
pub struct PgnReadResult {
    /// The games that were read, in file order (broken games are left out).
    pub games: Vec<PgnGame>,
    /// One error per broken game, in file order.
    pub errors: Vec<PgnError>,
}

/// Reads every game in `text`. Broken games are reported in [`PgnReadResult::errors`] and do not
/// stop the others from loading.
///
/// Tolerated, as real files need:
/// - games separated by their result token or by the next tag section (a game may lack tags, a
///   result, or both), a byte-order mark, CRLF line ends, `%` escape lines;
/// - move numbers in any form (`12.`, `12...`, `12...Nf6`, `12`) or none, unchecked;
/// - NAGs (`$1`) and `!`/`?` annotations, which are dropped; variations `( ... )`, nested or not,
///   which are skipped;
/// - brace and `;` comments, which become the comment of the move before them (several are joined
///   with a space, and whitespace inside collapses to single spaces, since writers wrap comments);
/// - loose SAN, as [`parse_san`](super::san::parse_san) describes.
///
/// Tags are kept (roster first, duplicates dropped); `FEN` sets the starting position; a `Variant`
/// other than standard chess is an error. The result comes from the result token, else from the
/// `Result` tag, else is [`GameResult::Unknown`].
///
/// ```
/// use framework::notation::pgn::read_games;
///
/// let text = "[Event \"A\"]\n\n1. e4 (1. d4 d5) e5 $1 {main line} 2. Nf3 *\n\n[Event \"B\"]\n\n1. e4 e4 *\n";
/// let read = read_games(text);
/// assert_eq!(read.games.len(), 1);
/// assert_eq!(read.games[0].comments[1].as_deref(), Some("main line"));
/// assert_eq!(read.errors[0].game_number, 2);
/// ```
pub fn read_games(text: &str) -> PgnReadResult {
    let mut result = PgnReadResult::default();
    for game in PgnReader::new(text) {
        match game {
            Ok(game) => result.games.push(game),
            Err(error) => result.errors.push(error),
        }
    }
    result
}

/// Reads games one at a time: an iterator of `Ok(game)` or `Err(error)` per game in the text.
///
/// Useful for large files, where collecting everything at once (as [`read_games`] does) is not
/// wanted.
///
/// ```
/// use framework::notation::pgn::PgnReader;
///
/// let mut reader = PgnReader::new("1. e4 *\n1. d4 1-0\n");
/// assert_eq!(reader.next().unwrap().unwrap().moves.len(), 1);
/// assert!(reader.next().unwrap().is_ok());
/// assert!(reader.next().is_none());
/// ```
#[derive(Debug, Clone)]
pub struct PgnReader<'a> {
    lexer: Lexer<'a>,
    pending: Option<Spanned>,
    games_seen: usize,
}

impl<'a> PgnReader<'a> {
    /// A reader over the games in `text`.
    pub fn new(text: &'a str) -> PgnReader<'a> {
        // A byte-order mark is common in files saved on Windows.
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        PgnReader {
            lexer: Lexer::new(text),
            pending: None,
            games_seen: 0,
        }
    }

    /// Collects the tokens of the next game, stopping after its result token (outside any
    /// variation) or before the tag section of the following game.
    fn next_raw(&mut self) -> Option<RawGame> {
        let mut raw = RawGame::default();
        let mut started = false;
        let mut in_movetext = false;
        let mut depth = 0usize;
        loop {
            let item = match self.pending.take() {
                Some(token) => Ok(token),
                None => match self.lexer.next() {
                    Some(item) => item,
                    None => break,
                },
            };
            let token = match item {
                Ok(token) => token,
                Err(error) => {
                    if !started {
                        raw.line = error.line;
                    }
                    started = true;
                    // Stray text counts as movetext, so the next tag section starts a new game.
                    in_movetext |= !error.in_tag;
                    raw.problem.get_or_insert(error);
                    continue;
                }
            };
            if !started {
                raw.line = token.line;
                started = true;
            }
            match &token.token {
                Token::Tag(..) if in_movetext => {
                    // A tag after movetext starts the next game: this one had no result token.
                    self.pending = Some(token);
                    break;
                }
                Token::Tag(..) => {}
                Token::Result(_) if depth == 0 => {
                    raw.tokens.push(token);
                    break;
                }
                Token::Open => depth += 1,
                Token::Close => depth = depth.saturating_sub(1),
                _ => {}
            }
            if !matches!(token.token, Token::Tag(..)) {
                in_movetext = true;
            }
            raw.tokens.push(token);
        }
        started.then_some(raw)
    }
}

impl Iterator for PgnReader<'_> {
    type Item = Result<PgnGame, PgnError>;

    fn next(&mut self) -> Option<Self::Item> {
        let raw = loop {
            let raw = self.next_raw()?;
            // Comments alone (a file header such as "; exported by ...") are not a game.
            let substance = raw.problem.is_some()
                || raw
                    .tokens
                    .iter()
                    .any(|t| matches!(t.token, Token::Tag(..) | Token::San(_) | Token::Result(_)));
            if substance {
                break raw;
            }
        };
        self.games_seen += 1;
        Some(build_game(raw, self.games_seen))
    }
}

/// Reads games from a buffered byte stream (a file), holding one game's text at a time:
/// an iterator of `Ok(game)` or `Err(error)` per game, exactly as [`PgnReader`] reads the
/// same text, with the same game numbers and lines.
///
/// The text is cut into pieces only where [`PgnReader`] ends a game anyway: before a
/// line that starts with a tag when the current game already has movetext, and after a
/// line whose last token is a result outside any variation. Memory stays bounded by the
/// longest game (or line), whatever the file's size. A read error (such as text that
/// is not UTF-8) ends the iteration; [`io_error`](Self::io_error) tells it.
///
/// ```
/// use framework::notation::pgn::PgnStream;
///
/// let text = "[White \"A\"]\n\n1. e4 e5 1-0\n\n[White \"B\"]\n\n1. e4 e4 *\n\n1. d4 0-1\n";
/// let mut stream = PgnStream::new(text.as_bytes());
/// assert_eq!(stream.next().unwrap().unwrap().tag("White"), Some("A"));
/// let err = stream.next().unwrap().unwrap_err();
/// assert_eq!((err.game_number, err.line), (2, 7));
/// assert_eq!(stream.next().unwrap().unwrap().moves.len(), 1);
/// assert!(stream.next().is_none() && stream.io_error().is_none());
/// ```
#[derive(Debug)]
pub struct PgnStream<R> {
    input: R,
    /// The lines of the piece being gathered.
    piece: String,
    /// The file line of the piece's first line (from 1).
    piece_line: usize,
    /// The file line of the next line to read.
    next_line: usize,
    /// Games read before the piece.
    games_before: usize,
    ready: std::collections::VecDeque<Result<PgnGame, PgnError>>,
    scan: PieceScan,
    io_error: Option<std::io::Error>,
    finished: bool,
}

/// Where a line leaves the current game, as [`PgnReader`] would see it.
#[derive(Debug, Default)]
struct PieceScan {
    in_comment: bool,
    in_movetext: bool,
    depth: usize,
}

impl PieceScan {
    /// Scans one line (without its newline); returns whether the piece must be cut
    /// before the line, and whether it ends a game (so the piece can be cut after it).
    fn line(&mut self, line: &str) -> (bool, bool) {
        let mut lexer = Lexer::new(line);
        let mut cut_before = false;
        if self.in_comment {
            match line.find('}') {
                Some(end) => {
                    lexer.pos = end + 1;
                    self.in_comment = false;
                }
                None => return (false, false),
            }
        }
        // A tag that follows the end of a comment does not start the line.
        let mut first = lexer.pos == 0;
        let mut ended = false;
        for item in lexer {
            ended = false;
            match item {
                Ok(Spanned {
                    token: Token::Tag(..),
                    ..
                }) => {
                    if first && self.in_movetext {
                        cut_before = true;
                    }
                    self.in_movetext = false;
                    self.depth = 0;
                }
                Ok(Spanned {
                    token: Token::Result(_),
                    ..
                }) if self.depth == 0 => {
                    self.in_movetext = false;
                    ended = true;
                }
                Ok(spanned) => {
                    match spanned.token {
                        Token::Open => self.depth += 1,
                        Token::Close => self.depth = self.depth.saturating_sub(1),
                        _ => {}
                    }
                    self.in_movetext = true;
                }
                Err(error) => {
                    self.in_comment = error.open_comment;
                    self.in_movetext |= !error.in_tag;
                }
            }
            first = false;
        }
        (cut_before, ended)
    }
}

impl<R: std::io::BufRead> PgnStream<R> {
    /// A stream over the games of `input`.
    pub fn new(input: R) -> PgnStream<R> {
        PgnStream {
            input,
            piece: String::new(),
            piece_line: 1,
            next_line: 1,
            games_before: 0,
            ready: std::collections::VecDeque::new(),
            scan: PieceScan::default(),
            io_error: None,
            finished: false,
        }
    }

    /// The read error that ended the stream early, if any.
    pub fn io_error(&self) -> Option<&std::io::Error> {
        self.io_error.as_ref()
    }

    /// Reads the games of the gathered piece into `ready`.
    fn flush(&mut self) {
        for mut item in PgnReader::new(&self.piece) {
            self.games_before += 1;
            if let Err(error) = &mut item {
                error.game_number = self.games_before;
                error.line += self.piece_line - 1;
            }
            self.ready.push_back(item);
        }
        self.piece.clear();
        self.piece_line = self.next_line;
    }

    /// Reads lines until a piece is complete (or the input ends).
    fn fill(&mut self) {
        let mut line = String::new();
        while self.ready.is_empty() && !self.finished {
            line.clear();
            match self.input.read_line(&mut line) {
                Ok(0) => {
                    self.finished = true;
                    self.flush();
                }
                Ok(_) => {
                    let mut content = line.strip_suffix('\n').unwrap_or(&line);
                    if self.next_line == 1 {
                        content = content.strip_prefix('\u{feff}').unwrap_or(content);
                    }
                    let (cut_before, ended) = self.scan.line(content);
                    if cut_before {
                        self.flush();
                    }
                    self.piece.push_str(&line);
                    self.next_line += 1;
                    if ended && !self.scan.in_comment {
                        self.flush();
                    }
                }
                Err(error) => {
                    self.io_error = Some(error);
                    self.finished = true;
                    self.flush();
                }
            }
        }
    }
}

impl<R: std::io::BufRead> Iterator for PgnStream<R> {
    type Item = Result<PgnGame, PgnError>;

    fn next(&mut self) -> Option<Self::Item> {
        self.fill();
        self.ready.pop_front()
    }
}

/// A game's tokens, before they are replayed on a board.
#[derive(Debug, Default)]
struct RawGame {
    line: usize,
    tokens: Vec<Spanned>,
    /// The first lexical error inside the game, if any.
    problem: Option<LexError>,
}

// Replays one game's tokens in order (tags, moves, comments, variations, result), each
// error naming its line; the token match reads best as one piece.
#[allow(clippy::too_many_lines)]
fn build_game(raw: RawGame, number: usize) -> Result<PgnGame, PgnError> {
    let error = |line: usize, message: String| PgnError {
        game_number: number,
        line,
        ply: None,
        move_text: None,
        message,
    };
    if let Some(problem) = raw.problem {
        return Err(error(problem.line, problem.message));
    }

    let mut tags: Vec<(String, String)> = Vec::new();
    for token in &raw.tokens {
        if let Token::Tag(name, value) = &token.token {
            // Duplicates break the one-value-per-tag model; the first one wins.
            if !tags.iter().any(|(n, _)| n == name) {
                tags.push((name.clone(), value.clone()));
            }
        }
    }
    let tag = |name: &str| {
        tags.iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    };

    if let Some(variant) = tag("Variant")
        && !matches!(
            variant.to_ascii_lowercase().as_str(),
            "standard" | "chess" | ""
        )
    {
        return Err(error(
            raw.line,
            format!("variant `{variant}` is not supported (standard chess only)"),
        ));
    }
    let start = match tag("FEN") {
        Some(fen) => Board::from_fen(fen)
            .map_err(|e| error(raw.line, format!("bad FEN tag `{fen}`: {e}")))?,
        None => Board::startpos(),
    };

    let mut board = start.clone();
    let mut moves = Vec::new();
    let mut comments: Vec<Option<String>> = Vec::new();
    let mut intro: Option<String> = None;
    let mut result_token = None;
    let mut depth = 0usize;
    let mut last_line = raw.line;
    for token in &raw.tokens {
        last_line = token.line;
        match &token.token {
            Token::Open => depth += 1,
            Token::Close if depth == 0 => {
                return Err(error(token.line, "`)` without a matching `(`".into()));
            }
            Token::Close => depth -= 1,
            _ if depth > 0 => {}
            Token::San(text) => {
                let mv = parse_san(&board, text).map_err(|e| PgnError {
                    game_number: number,
                    line: token.line,
                    ply: Some(moves.len() + 1),
                    move_text: Some(format!(
                        "{}{} {text}",
                        board.fullmove_number(),
                        if board.side_to_move() == Color::White {
                            "."
                        } else {
                            "..."
                        }
                    )),
                    message: e.to_string(),
                })?;
                board.make_move(mv);
                moves.push(mv);
                comments.push(None);
            }
            Token::Comment(text) => {
                let slot = comments.last_mut().unwrap_or(&mut intro);
                append_comment(slot, text);
            }
            Token::Result(result) => result_token = Some(*result),
            Token::Tag(..) | Token::MoveNumber | Token::Nag => {}
        }
    }
    if depth > 0 {
        return Err(error(last_line, "a variation `(` is never closed".into()));
    }

    let result = result_token
        .or_else(|| tag("Result").and_then(GameResult::from_token))
        .unwrap_or_default();
    normalize_tags(&mut tags, result);
    Ok(PgnGame {
        tags,
        start,
        moves,
        comments,
        intro,
        result,
    })
}

/// Adds a comment's text to a move's comment. Line breaks and runs of spaces inside comments are
/// layout (writers wrap long comments), so they collapse to single spaces.
fn append_comment(slot: &mut Option<String>, text: &str) {
    for word in text.split_whitespace() {
        let comment = slot.get_or_insert_with(String::new);
        if !comment.is_empty() {
            comment.push(' ');
        }
        comment.push_str(word);
    }
}

/// Writes one game as export-format PGN, ending with a newline.
///
/// Tags come first (roster in standard order, then the rest; `Result` always agrees with
/// [`PgnGame::result`], and `SetUp`/`FEN` are written exactly when the start is not the standard
/// one), then a blank line, then the movetext wrapped below 80 columns. A `}` inside a comment
/// cannot be written in PGN and becomes `)`.
///
/// # Panics
/// If a move is not legal in its position (the game cannot be written in SAN then).
///
/// ```
/// use framework::notation::pgn::{read_games, write_game};
///
/// let game = &read_games("[White \"Ann\"]\n1. e4 {King's pawn} c5 1/2-1/2").games[0];
/// assert_eq!(
///     write_game(game),
///     "[Event \"?\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n[White \"Ann\"]\n\
///      [Black \"?\"]\n[Result \"1/2-1/2\"]\n\n1. e4 {King's pawn} 1... c5 1/2-1/2\n"
/// );
/// ```
pub fn write_game(game: &PgnGame) -> String {
    let mut out = String::new();
    let custom_start = game.start.fen() != Board::startpos().fen();
    let mut tags = game.tags.clone();
    tags.retain(|(name, _)| name != "FEN" && name != "SetUp");
    normalize_tags(&mut tags, game.result);
    if custom_start {
        tags.push(("SetUp".to_string(), "1".to_string()));
        tags.push(("FEN".to_string(), game.start.fen()));
    }
    for (name, value) in &tags {
        out.push('[');
        // The standard allows letters, digits and `_` in names; anything else would break the tag.
        out.extend(name.chars().map(|c| {
            if c.is_alphanumeric() || c == '_' {
                c
            } else {
                '_'
            }
        }));
        out.push_str(" \"");
        for c in value.chars() {
            if c == '"' || c == '\\' {
                out.push('\\');
            }
            // A tag value is one line; a newline would end the tag early.
            out.push(if c == '\n' || c == '\r' { ' ' } else { c });
        }
        out.push_str("\"]\n");
    }
    out.push('\n');

    let mut words: Vec<String> = Vec::new();
    let mut board = game.start.clone();
    let mut need_number = true;
    if let Some(intro) = &game.intro {
        push_comment_words(&mut words, intro);
    }
    for (i, &mv) in game.moves.iter().enumerate() {
        // A move number stays on the same line as its move: `12.` alone at a line end reads badly.
        let number = if board.side_to_move() == Color::White {
            format!("{}. ", board.fullmove_number())
        } else if need_number {
            format!("{}... ", board.fullmove_number())
        } else {
            String::new()
        };
        assert!(
            board.is_legal(mv),
            "write_game: move {} ({mv}) is illegal in {}",
            i + 1,
            board.fen()
        );
        words.push(number + &san_then_play(&mut board, mv));
        // After a comment the reader has lost track of whose move it is: repeat the number.
        need_number = match game.comments.get(i) {
            Some(Some(comment)) => push_comment_words(&mut words, comment),
            _ => false,
        };
    }
    words.push(game.result.as_str().to_string());

    let mut line_len = 0;
    for word in &words {
        if line_len > 0 && line_len + 1 + word.len() > MAX_LINE {
            out.push('\n');
            line_len = 0;
        }
        if line_len > 0 {
            out.push(' ');
            line_len += 1;
        }
        out.push_str(word);
        line_len += word.len();
    }
    out.push('\n');
    out
}

/// Adds a brace comment to the movetext words, split at spaces so it can wrap; returns whether
/// anything was added (empty comments are dropped).
fn push_comment_words(words: &mut Vec<String>, comment: &str) -> bool {
    let cleaned = comment.replace('}', ")");
    let parts: Vec<&str> = cleaned.split_whitespace().collect();
    match parts.as_slice() {
        [] => return false,
        [only] => words.push(format!("{{{only}}}")),
        [first, middle @ .., last] => {
            words.push(format!("{{{first}"));
            words.extend(middle.iter().map(|w| w.to_string()));
            words.push(format!("{last}}}"));
        }
    }
    true
}

/// The date of `at` as the PGN `Date` tag writes it (`YYYY.MM.DD`, UTC).
///
/// ```
/// use std::time::{Duration, UNIX_EPOCH};
/// use framework::notation::pgn::pgn_date;
/// assert_eq!(pgn_date(UNIX_EPOCH), "1970.01.01");
/// assert_eq!(pgn_date(UNIX_EPOCH + Duration::from_secs(951_782_400)), "2000.02.29");
/// assert_eq!(pgn_date(UNIX_EPOCH + Duration::from_secs(1_795_219_200)), "2026.11.21");
/// ```
pub fn pgn_date(at: SystemTime) -> String {
    let days = at
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() / 86_400) as i64;
    // Howard Hinnant's days-to-civil conversion: no date library needed.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}.{month:02}.{day:02}")
}

/// Writes several games, separated by blank lines.
///
/// ```
/// use framework::notation::pgn::{read_games, write_games, PgnGame};
/// let text = write_games(&[PgnGame::new(), PgnGame::new()]);
/// assert_eq!(read_games(&text).games.len(), 2);
/// ```
pub fn write_games(games: &[PgnGame]) -> String {
    games.iter().map(write_game).collect::<Vec<_>>().join("\n")
}

// ---------------------------------------------------------------------------------------------
// Lexer

#[derive(Debug, Clone, PartialEq)]
enum Token {
    Tag(String, String),
    MoveNumber,
    San(String),
    Nag,
    Comment(String),
    Open,
    Close,
    Result(GameResult),
}

#[derive(Debug, Clone, PartialEq)]
struct Spanned {
    token: Token,
    line: usize,
}

#[derive(Debug, Clone, PartialEq)]
struct LexError {
    line: usize,
    message: String,
    /// Whether the error is in a tag pair (and so belongs to a tag section, not to movetext).
    in_tag: bool,
    /// Whether the error is a `{` comment still open at the end of the text.
    open_comment: bool,
}

/// Splits PGN text into tokens, tracking line numbers for error messages.
#[derive(Debug, Clone)]
struct Lexer<'a> {
    text: &'a str,
    pos: usize,
    line: usize,
    /// A symbol split off the current one (`12.e4` yields a number, then `e4`).
    queued: Option<Spanned>,
}

impl<'a> Lexer<'a> {
    fn new(text: &'a str) -> Lexer<'a> {
        Lexer {
            text,
            pos: 0,
            line: 1,
            queued: None,
        }
    }

    fn rest(&self) -> &'a str {
        &self.text[self.pos..]
    }

    fn peek(&self) -> Option<char> {
        self.rest().chars().next()
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.pos += c.len_utf8();
        if c == '\n' {
            self.line += 1;
        }
        Some(c)
    }

    fn at_line_start(&self) -> bool {
        self.pos == 0 || self.text.as_bytes()[self.pos - 1] == b'\n'
    }

    fn skip_line(&mut self) -> &'a str {
        let rest = self.rest();
        let end = rest.find('\n').unwrap_or(rest.len());
        self.pos += end;
        &rest[..end]
    }

    fn tag(&mut self, line: usize) -> Result<Token, LexError> {
        let fail = |message: &str| LexError {
            line,
            message: message.to_string(),
            in_tag: true,
            open_comment: false,
        };
        self.bump(); // '['
        while self.peek().is_some_and(|c| c == ' ' || c == '\t') {
            self.bump();
        }
        let rest = self.rest();
        // python-chess's tag names: a letter or digit, then also `_+#=:-`.
        let name_len = if rest.starts_with(|c: char| c.is_alphanumeric()) {
            rest.find(|c: char| !(c.is_alphanumeric() || "_+#=:-".contains(c)))
                .unwrap_or(rest.len())
        } else {
            0
        };
        if name_len == 0 {
            self.skip_line();
            return Err(fail("malformed tag: expected a name after `[`"));
        }
        let name = rest[..name_len].to_string();
        self.pos += name_len;
        while self.peek().is_some_and(|c| c == ' ' || c == '\t') {
            self.bump();
        }
        if self.peek() != Some('"') {
            self.skip_line();
            return Err(fail(&format!(
                "malformed tag `{name}`: the value must be in double quotes"
            )));
        }
        self.bump();
        let (value_start, value_line) = (self.pos, self.line);
        match self.strict_tag_value() {
            Some(value) => Ok(Token::Tag(name, value)),
            None => {
                self.pos = value_start;
                self.line = value_line;
                match self.loose_tag_value() {
                    Some(value) => Ok(Token::Tag(name, value)),
                    None => {
                        let message = if self.skip_line().contains('"') {
                            format!("tag `{name}`: `]` expected after the value")
                        } else {
                            format!("tag `{name}`: the value's closing quote is missing")
                        };
                        Err(fail(&message))
                    }
                }
            }
        }
    }

    /// A tag value as the standard writes it: up to the first unescaped `"`, with `\"`
    /// and `\\` escapes, then `]`. `None` (position unspecified) if the line does not
    /// follow that form.
    fn strict_tag_value(&mut self) -> Option<String> {
        let mut value = String::new();
        loop {
            match self.bump()? {
                '\\' => match self.bump()? {
                    c @ ('"' | '\\') => value.push(c),
                    '\n' => return None,
                    c => {
                        // Not an escape the standard knows: keep the backslash (Windows paths in Site tags).
                        value.push('\\');
                        value.push(c);
                    }
                },
                '"' => break,
                '\n' => return None,
                c => value.push(c),
            }
        }
        while self.peek().is_some_and(|c| c == ' ' || c == '\t') {
            self.bump();
        }
        (self.bump()? == ']').then_some(value)
    }

    /// A tag value with unescaped quotes inside, read as python-chess reads it: the
    /// rest of the line must end with `"]` (and spaces), and everything before that
    /// last `"` is the value, as written.
    fn loose_tag_value(&mut self) -> Option<String> {
        let rest = self.rest();
        let line = &rest[..rest.find('\n').unwrap_or(rest.len())];
        let value = line.trim_end().strip_suffix("\"]")?;
        self.pos += line.len();
        Some(value.to_string())
    }

    fn comment(&mut self, line: usize) -> Result<Token, LexError> {
        self.bump(); // '{'
        let rest = self.rest();
        match rest.find('}') {
            Some(end) => {
                let text = &rest[..end];
                self.line += text.matches('\n').count();
                self.pos += end + 1;
                Ok(Token::Comment(text.to_string()))
            }
            None => {
                self.pos = self.text.len();
                Err(LexError {
                    line,
                    message: "a `{` comment is never closed".to_string(),
                    in_tag: false,
                    open_comment: true,
                })
            }
        }
    }

    /// A run of symbol characters: a move, a move number, a result or an annotation.
    fn symbol(&mut self, line: usize) -> Result<Option<Token>, LexError> {
        let rest = self.rest();
        let len = rest
            .find(|c: char| c.is_whitespace() || "{}()[];$\"<>".contains(c))
            .unwrap_or(rest.len());
        let word = &rest[..len];
        self.pos += len;

        if let Some(result) = GameResult::from_token(word) {
            return Ok(Some(Token::Result(result)));
        }
        // Stray dots (`2 . Nf3`, `1. ... e5`) carry no information.
        if word.chars().all(|c| c == '.') {
            return Ok(Some(Token::MoveNumber));
        }
        if word.chars().all(|c| c == '!' || c == '?') {
            return Ok(Some(Token::Nag));
        }
        if word == "e.p." {
            return Ok(None);
        }
        let digits = word
            .find(|c: char| !c.is_ascii_digit())
            .unwrap_or(word.len());
        if digits > 0 {
            let after = &word[digits..];
            if after.is_empty() {
                return Ok(Some(Token::MoveNumber));
            }
            if after.starts_with('.') {
                let san = after.trim_start_matches('.');
                if !san.is_empty() {
                    self.queued = Some(Spanned {
                        token: Token::San(san.to_string()),
                        line,
                    });
                }
                return Ok(Some(Token::MoveNumber));
            }
        }
        if !word.starts_with(|c: char| c.is_ascii_alphanumeric() || c == '-') {
            return Err(LexError {
                line,
                message: format!("unexpected `{word}` in movetext"),
                in_tag: false,
                open_comment: false,
            });
        }
        Ok(Some(Token::San(word.to_string())))
    }
}

impl Iterator for Lexer<'_> {
    type Item = Result<Spanned, LexError>;

    fn next(&mut self) -> Option<Self::Item> {
        if let Some(queued) = self.queued.take() {
            return Some(Ok(queued));
        }
        loop {
            let c = self.peek()?;
            let line = self.line;
            let token = match c {
                c if c.is_whitespace() => {
                    self.bump();
                    continue;
                }
                '%' if self.at_line_start() => {
                    self.skip_line();
                    continue;
                }
                '[' => self.tag(line),
                '{' => self.comment(line),
                ';' => {
                    self.bump();
                    Ok(Token::Comment(self.skip_line().to_string()))
                }
                '(' => {
                    self.bump();
                    Ok(Token::Open)
                }
                ')' => {
                    self.bump();
                    Ok(Token::Close)
                }
                '$' => {
                    self.bump();
                    let rest = self.rest();
                    let digits = rest
                        .find(|c: char| !c.is_ascii_digit())
                        .unwrap_or(rest.len());
                    self.pos += digits;
                    if digits == 0 {
                        Err(LexError {
                            line,
                            message: "`$` must be followed by a number (a NAG like `$1`)".into(),
                            in_tag: false,
                            open_comment: false,
                        })
                    } else {
                        Ok(Token::Nag)
                    }
                }
                '}' | ']' | '"' | '<' | '>' => {
                    self.bump();
                    Err(LexError {
                        line,
                        message: format!("unexpected `{c}` in movetext"),
                        in_tag: false,
                        open_comment: false,
                    })
                }
                _ => match self.symbol(line) {
                    Ok(Some(token)) => Ok(token),
                    Ok(None) => continue,
                    Err(e) => Err(e),
                },
            };
            return Some(token.map(|token| Spanned { token, line }));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tokens(text: &str) -> Vec<Token> {
        Lexer::new(text).map(|t| t.expect("lexes").token).collect()
    }

    #[test]
    fn lexes_movetext_forms() {
        use Token::*;
        let san = |s: &str| San(s.to_string());
        assert_eq!(
            tokens("12.e4 12... e5 13 Nf3!? $14 ?! (13. d4) {c} ;rest\n%escaped\nO-O 1/2-1/2"),
            vec![
                MoveNumber,
                san("e4"),
                MoveNumber,
                san("e5"),
                MoveNumber,
                san("Nf3!?"),
                Nag,
                Nag,
                Open,
                MoveNumber,
                san("d4"),
                Close,
                Comment("c".into()),
                Comment("rest".into()),
                san("O-O"),
                Result(GameResult::Draw),
            ]
        );
        assert_eq!(
            tokens("0-0-0 0-1 exd6 e.p. *"),
            vec![
                san("0-0-0"),
                Result(GameResult::BlackWins),
                san("exd6"),
                Result(GameResult::Unknown)
            ]
        );
    }

    #[test]
    fn lexes_tags_with_escapes() {
        assert_eq!(
            tokens(r#"[Event "The \"Big\" one \\ C:\dir"]"#),
            vec![Token::Tag(
                "Event".into(),
                r#"The "Big" one \ C:\dir"#.into()
            )]
        );
        assert_eq!(
            tokens("[ Round   \"3\" ]"),
            vec![Token::Tag("Round".into(), "3".into())]
        );
    }

    #[test]
    fn tracks_lines_and_reports_lex_errors() {
        let mut lexer = Lexer::new("1. e4\n{multi\nline}\n[Bad tag]\ne5");
        let all: Vec<_> = lexer.by_ref().collect();
        assert_eq!(all[2].as_ref().unwrap().line, 2);
        let err = all[3].as_ref().unwrap_err();
        assert_eq!(err.line, 4);
        assert!(err.message.contains("double quotes"), "{}", err.message);
        assert_eq!(
            all[4].as_ref().unwrap(),
            &Spanned {
                token: Token::San("e5".into()),
                line: 5
            }
        );

        let err = Lexer::new("1. e4 {never closed")
            .nth(2)
            .unwrap()
            .unwrap_err();
        assert!(err.message.contains("never closed"));
    }

    #[test]
    fn reads_unescaped_inner_quotes_as_python_chess_does() {
        let text = "[Black \"SaveBot (or, \"winning bot\" as an alternative)\"]  \r\n[White \"W\"]\n\n1. e4 1-0\n";
        let read = read_games(text);
        assert!(read.errors.is_empty(), "{:?}", read.errors);
        let game = &read.games[0];
        assert_eq!(
            game.tag("Black"),
            Some("SaveBot (or, \"winning bot\" as an alternative)")
        );
        assert_eq!(game.tag("White"), Some("W"));
        // Escaped quotes still follow the standard; names take python-chess's characters.
        assert_eq!(
            tokens(r#"[Event "a \"b\" c"] [Time-Control+ "x"]"#),
            vec![
                Token::Tag("Event".into(), r#"a "b" c"#.into()),
                Token::Tag("Time-Control+".into(), "x".into())
            ]
        );
        // Still refused: a value whose line does not end with `"]`.
        let err = Lexer::new("[Event \"a\" b\n1. e4")
            .next()
            .unwrap()
            .unwrap_err();
        assert!(err.message.contains("`]` expected"), "{}", err.message);
        let err = Lexer::new("[Event \"a\n1. e4").next().unwrap().unwrap_err();
        assert!(err.message.contains("closing quote"), "{}", err.message);
        assert_eq!(err.line, 1);
    }

    /// The stream must read exactly what the whole-text reader reads.
    fn same_as_reader(text: &str) {
        let whole: Vec<_> = PgnReader::new(text).collect();
        let streamed: Vec<_> = PgnStream::new(text.as_bytes()).collect();
        assert_eq!(streamed, whole, "{text:?}");
        // A tiny buffer changes nothing either.
        let reader = std::io::BufReader::with_capacity(3, text.as_bytes());
        assert_eq!(PgnStream::new(reader).collect::<Vec<_>>(), whole);
    }

    #[test]
    fn the_stream_reads_what_the_reader_reads() {
        same_as_reader("");
        same_as_reader("\u{feff}[Event \"A\"]\r\n\r\n1. e4 e5 1-0\r\n\r\n[Event \"B\"]\n1. d4 *\n");
        // Games without tags, several on one line, or without results.
        same_as_reader("1. e4 * 1. d4 1-0\n1. c4 0-1\n\n1. Nf3\n[Event \"x\"]\n1. e4 *");
        // A comment over several lines, with a tag-like line inside.
        same_as_reader(
            "[White \"A\"]\n1. e4 {a long\n[Event \"not a tag\"]\ncomment} e5\n[White \"B\"]\n1. d4 *\n",
        );
        // Results inside variations, broken games, `%` lines and `;` comments.
        same_as_reader(
            "[A \"1\"]\n1. e4 (1. d4 1-0) e5 *\n%skip [B \"2\"]\n[B \"2\"]\n1. e4 e4 *\n; note\n[C \"3\"]\n1. Ke2?? *\n",
        );
        // A malformed tag after movetext, a comment never closed.
        same_as_reader("[A \"1\"]\n1. e4\n[Bad tag]\n1... e5 *\n[B \"2\"]\n1. e4 {open\n\n");
        // Tags after a comment on the same line.
        same_as_reader("1. e4 {c\nc} [White \"Z\"]\n1. d4 *\n");
    }
}

//! Portable Game Notation: reading and writing whole games.
//!
//! [`read_games`] (or the iterator [`PgnReader`], or [`read_games_from`] for a file read
//! through a fixed buffer) loads the games of a PGN text; all of them read through the one
//! reader, [`scan`](super::scan). Real-world
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

use std::time::{SystemTime, UNIX_EPOCH};

pub use super::result::{GameResult, GameResultParseError, PgnError};
use super::san::san_then_play;
use super::scan::{PgnScanner, ScanOptions, ScannedGame};
use super::stream::{PgnStream, StreamError};
use crate::chess::{Board, Color, Move};

/// The seven tags every exported game carries, in the order the standard prescribes.
pub const SEVEN_TAG_ROSTER: [&str; 7] =
    ["Event", "Site", "Date", "Round", "White", "Black", "Result"];

/// The longest movetext line [`write_game`] produces (the standard asks for fewer than 80).
pub const MAX_LINE: usize = 79;

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
/// Useful for large texts, where collecting everything at once (as [`read_games`] does) is not
/// wanted; a file is best read through [`PgnStream`] (or [`read_games_from`]), which holds
/// only a fixed buffer of it.
///
/// ```
/// use framework::notation::pgn::PgnReader;
///
/// let mut reader = PgnReader::new("1. e4 *\n1. d4 1-0\n");
/// assert_eq!(reader.next().unwrap().unwrap().moves.len(), 1);
/// assert!(reader.next().unwrap().is_ok());
/// assert!(reader.next().is_none());
/// ```
#[derive(Debug)]
pub struct PgnReader<'a> {
    scanner: PgnScanner<'a>,
    game: ScannedGame<'a>,
}

impl<'a> PgnReader<'a> {
    /// A reader over the games in `text` (a leading byte-order mark is skipped).
    pub fn new(text: &'a str) -> PgnReader<'a> {
        PgnReader {
            scanner: PgnScanner::new(text, READER_OPTIONS),
            game: ScannedGame::default(),
        }
    }
}

impl Iterator for PgnReader<'_> {
    type Item = Result<PgnGame, PgnError>;

    fn next(&mut self) -> Option<Self::Item> {
        self.scanner
            .next_into(&mut self.game)
            .then(|| PgnGame::from_scanned(&self.game))
    }
}

/// What [`PgnReader`] asks of the scanner: every move checked, comments kept, ambiguous
/// SAN an error.
const READER_OPTIONS: ScanOptions = ScanOptions {
    replay: true,
    resolve_ambiguous: false,
    comments: true,
};

/// Reads every game of a byte stream (a file) through a fixed buffer, as [`read_games`]
/// reads the same text.
///
/// # Errors
/// [`StreamError`] if the input cannot be read, is not UTF-8 or is not PGN at all; the
/// games before the place it names are lost with it (use [`PgnStream`] to keep them).
///
/// ```
/// use framework::notation::pgn::read_games_from;
///
/// let read = read_games_from("1. e4 {best by test} *\n1. d4 e4 *\n".as_bytes()).unwrap();
/// assert_eq!(read.games[0].comments[0].as_deref(), Some("best by test"));
/// assert_eq!(read.errors[0].game_number, 2);
/// ```
pub fn read_games_from(input: impl std::io::Read) -> Result<PgnReadResult, StreamError> {
    let mut result = PgnReadResult::default();
    PgnStream::new(input, READER_OPTIONS).for_each(|game| match PgnGame::from_scanned(game) {
        Ok(game) => result.games.push(game),
        Err(error) => result.errors.push(error),
    })?;
    Ok(result)
}

impl PgnGame {
    /// The game the scanner read, or its error: tags normalised (roster first), the
    /// start from the `FEN` tag, comments joined per move.
    fn from_scanned(scanned: &ScannedGame<'_>) -> Result<PgnGame, PgnError> {
        if let Some(error) = &scanned.error {
            return Err(error.clone());
        }
        // The scanner has read the `FEN` tag already: it is a position.
        let start = scanned
            .tag("FEN")
            .and_then(|fen| Board::from_fen(fen).ok())
            .unwrap_or_else(Board::startpos);
        let mut tags: Vec<(String, String)> = scanned
            .tags
            .iter()
            .map(|(name, value)| ((*name).to_string(), value.to_string()))
            .collect();
        normalize_tags(&mut tags, scanned.result);
        let mut comments = vec![None; scanned.moves.len()];
        let mut intro = None;
        for &(moves_before, text) in &scanned.comments {
            let slot = match moves_before.checked_sub(1) {
                Some(i) => &mut comments[i],
                None => &mut intro,
            };
            append_comment(slot, text);
        }
        Ok(PgnGame {
            tags,
            start,
            moves: scanned.moves.clone(),
            comments,
            intro,
            result: scanned.result,
        })
    }
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

//! Bulk PGN reading: every game's tags, result and (checked) moves, at the speed of the
//! machine, for tools that read tens of thousands of games (ratings).
//!
//! [`PgnScanner`] reads what [`PgnReader`](super::pgn::PgnReader) reads (the same games,
//! numbers, lines, moves, results and errors; a property test holds it to that) but keeps
//! no comments and builds no [`PgnGame`](super::pgn::PgnGame): it fills one reusable
//! [`ScannedGame`] whose tags borrow from the text, lexes bytes through a lookup table and
//! reads each SAN move by generating only the moves of the named piece to the named square.
//! Once its buffers have grown to the longest game, it allocates nothing per game.
//!
//! Two things it does that the reader does not, both asked for:
//! - the result of a broken game: [`ScannedGame::result`] is set from the result token or
//!   the `Result` tag even when [`ScannedGame::error`] says the moves could not be read;
//! - with [`ScanOptions::resolve_ambiguous`], ambiguous SAN (`Qca1` with queens on c1 and
//!   c3 that can both reach a1) that only one candidate fits, once the rest of the game is
//!   replayed, is read as that candidate and reported in [`ScannedGame::resolved`].
//!
//! [`scan_parallel`] spreads a large text over threads, cut at game boundaries, and keeps
//! the order of the games.
//!
//! ```
//! use framework::notation::scan::{PgnScanner, ScanOptions, ScannedGame};
//! use framework::notation::GameResult;
//!
//! let text = "[White \"Ann\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Ke3 1-0\n\n1. d4 d5 *\n";
//! let mut scanner = PgnScanner::new(text, ScanOptions::default());
//! let mut game = ScannedGame::default();
//! assert!(scanner.next_into(&mut game));
//! assert_eq!(game.tag("White"), Some("Ann"));
//! assert_eq!(game.result, GameResult::WhiteWins); // kept, though the moves are broken
//! assert!(game.error.as_ref().unwrap().message.contains("illegal SAN `Ke3`"));
//! assert!(scanner.next_into(&mut game));
//! assert_eq!((game.number, game.moves.len(), game.error.is_none()), (2, 2, true));
//! assert!(!scanner.next_into(&mut game));
//! ```

use std::borrow::Cow;

use super::pgn::{GameResult, PgnError};
use super::san::{SanError, find_san, parse_san, resolve_san, to_san};
use crate::chess::{Board, Color, Move, MoveList};

/// Byte classes of the lexer's table: whitespace, a delimiter that ends a symbol, and
/// the lead or continuation byte of a non-ASCII character (checked as a `char`, since
/// Unicode whitespace also ends a symbol, as in the reader).
const WS: u8 = 1;
const DELIM: u8 = 2;
const HIGH: u8 = 4;

/// The class of every byte, so the hot loops test one table entry per byte instead of
/// searching a string of delimiters per character.
static CLASS: [u8; 256] = classes();

const fn classes() -> [u8; 256] {
    let mut table = [0u8; 256];
    // `char::is_whitespace` on ASCII: tab, line feed, vertical tab, form feed, return, space.
    let ws = [9u8, 10, 11, 12, 13, 32];
    let mut i = 0;
    while i < ws.len() {
        table[ws[i] as usize] = WS;
        i += 1;
    }
    let delims = b"{}()[];$\"<>";
    let mut i = 0;
    while i < delims.len() {
        table[delims[i] as usize] = DELIM;
        i += 1;
    }
    let mut b = 0x80;
    while b < 256 {
        table[b] = HIGH;
        b += 1;
    }
    table
}

/// A token, borrowing its text from the PGN.
#[derive(Debug, Clone, PartialEq)]
enum Token<'a> {
    Tag(&'a str, Cow<'a, str>),
    MoveNumber,
    San(&'a str),
    Nag,
    Comment,
    Open,
    Close,
    Result(GameResult),
}

#[derive(Debug, Clone, PartialEq)]
struct Spanned<'a> {
    token: Token<'a>,
    line: usize,
}

/// As the reader's: where, what, and whether it belongs to a tag section.
#[derive(Debug, Clone, PartialEq)]
struct LexError {
    line: usize,
    message: String,
    in_tag: bool,
}

/// The reader's lexer over bytes: the same tokens and errors, with a table lookup per byte
/// and no allocation but for error messages and escaped tag values.
#[derive(Debug, Clone)]
struct Lexer<'a> {
    text: &'a str,
    pos: usize,
    line: usize,
    /// A move split off a move number (`12.e4`).
    queued: Option<Spanned<'a>>,
    /// Whether a `{` comment ran to the end of the text.
    open_comment: bool,
}

impl<'a> Lexer<'a> {
    fn new(text: &'a str, line: usize) -> Lexer<'a> {
        Lexer {
            text,
            pos: 0,
            line,
            queued: None,
            open_comment: false,
        }
    }

    fn bytes(&self) -> &'a [u8] {
        self.text.as_bytes()
    }

    /// The character at `pos`, which starts a non-ASCII one.
    fn char_at(&self, pos: usize) -> char {
        self.text[pos..].chars().next().unwrap_or(' ')
    }

    fn at_line_start(&self) -> bool {
        self.pos == 0 || self.bytes()[self.pos - 1] == b'\n'
    }

    /// The rest of the line, without its line feed (left for the whitespace rule).
    fn skip_line(&mut self) -> &'a str {
        let rest = &self.text[self.pos..];
        let end = rest.find('\n').unwrap_or(rest.len());
        self.pos += end;
        &rest[..end]
    }

    fn skip_blanks(&mut self) {
        while matches!(self.bytes().get(self.pos), Some(b' ' | b'\t')) {
            self.pos += 1;
        }
    }

    fn error(line: usize, message: String, in_tag: bool) -> LexError {
        LexError {
            line,
            message,
            in_tag,
        }
    }

    /// The next token, skipping whitespace, `%` escape lines and `e.p.` markers.
    fn next_token(&mut self) -> Option<Result<Spanned<'a>, LexError>> {
        if let Some(queued) = self.queued.take() {
            return Some(Ok(queued));
        }
        loop {
            let &b = self.bytes().get(self.pos)?;
            let line = self.line;
            let class = CLASS[b as usize];
            if class & WS != 0 {
                self.pos += 1;
                self.line += usize::from(b == b'\n');
                continue;
            }
            if class & HIGH != 0 {
                let c = self.char_at(self.pos);
                if c.is_whitespace() {
                    self.pos += c.len_utf8();
                    continue;
                }
            }
            let token = match b {
                b'%' if self.at_line_start() => {
                    self.skip_line();
                    continue;
                }
                b'[' => self.tag(line),
                b'{' => self.comment(line),
                b';' => {
                    self.pos += 1;
                    self.skip_line();
                    Ok(Token::Comment)
                }
                b'(' | b')' => {
                    self.pos += 1;
                    Ok(if b == b'(' { Token::Open } else { Token::Close })
                }
                b'$' => self.nag(line),
                b'}' | b']' | b'"' | b'<' | b'>' => {
                    self.pos += 1;
                    let message = format!("unexpected `{}` in movetext", b as char);
                    Err(Self::error(line, message, false))
                }
                _ => {
                    // Moves and move numbers, most of the tokens, return straight from here:
                    // wrapping them through the general path's results costs more than
                    // reading them.
                    let end = self.symbol_end();
                    let word = &self.text[self.pos..end];
                    self.pos = end;
                    if let Some(token) = self.plain_symbol(word, line) {
                        return Some(Ok(Spanned { token, line }));
                    }
                    match self.symbol(word, line) {
                        Ok(Some(token)) => Ok(token),
                        Ok(None) => continue,
                        Err(e) => Err(e),
                    }
                }
            };
            return Some(token.map(|token| Spanned { token, line }));
        }
    }

    fn nag(&mut self, line: usize) -> Result<Token<'a>, LexError> {
        self.pos += 1;
        let digits = self.bytes()[self.pos..]
            .iter()
            .take_while(|b| b.is_ascii_digit())
            .count();
        self.pos += digits;
        if digits == 0 {
            let message = "`$` must be followed by a number (a NAG like `$1`)".to_string();
            Err(Self::error(line, message, false))
        } else {
            Ok(Token::Nag)
        }
    }

    fn comment(&mut self, line: usize) -> Result<Token<'a>, LexError> {
        self.pos += 1;
        let rest = &self.text[self.pos..];
        match rest.find('}') {
            Some(end) => {
                self.line += rest.as_bytes()[..end]
                    .iter()
                    .filter(|&&b| b == b'\n')
                    .count();
                self.pos += end + 1;
                Ok(Token::Comment)
            }
            None => {
                self.pos = self.text.len();
                self.open_comment = true;
                let message = "a `{` comment is never closed".to_string();
                Err(Self::error(line, message, false))
            }
        }
    }

    /// The end of the symbol starting at `pos`: the first whitespace or delimiter.
    fn symbol_end(&self) -> usize {
        let bytes = self.bytes();
        let mut end = self.pos;
        while let Some(&b) = bytes.get(end) {
            let class = CLASS[b as usize];
            if class & (WS | DELIM) != 0 {
                break;
            }
            if class & HIGH != 0 {
                let c = self.char_at(end);
                if c.is_whitespace() {
                    break;
                }
                end += c.len_utf8();
            } else {
                end += 1;
            }
        }
        end
    }

    /// A move (none is a result or a number) or a move number (`12.`, `12...`, `12.e4`:
    /// digits, then dots); `None` for any other symbol.
    fn plain_symbol(&mut self, word: &'a str, line: usize) -> Option<Token<'a>> {
        let bytes = word.as_bytes();
        if matches!(
            bytes[0],
            b'a'..=b'h' | b'N' | b'B' | b'R' | b'Q' | b'K' | b'O'
        ) && word != "e.p."
        {
            return Some(Token::San(word));
        }
        let digits = bytes.iter().take_while(|b| b.is_ascii_digit()).count();
        if digits > 0 && bytes.get(digits) == Some(&b'.') {
            let san = word[digits..].trim_start_matches('.');
            if !san.is_empty() {
                let token = Token::San(san);
                self.queued = Some(Spanned { token, line });
            }
            return Some(Token::MoveNumber);
        }
        None
    }

    /// Any other run of symbol characters: a result, a bare move number, an annotation,
    /// or something that has no place in movetext.
    fn symbol(&mut self, word: &'a str, line: usize) -> Result<Option<Token<'a>>, LexError> {
        let bytes = word.as_bytes();
        let digits = bytes.iter().take_while(|b| b.is_ascii_digit()).count();
        if let Some(result) = GameResult::from_token(word) {
            return Ok(Some(Token::Result(result)));
        }
        if bytes.iter().all(|&b| b == b'.') {
            return Ok(Some(Token::MoveNumber));
        }
        if bytes.iter().all(|&b| b == b'!' || b == b'?') {
            return Ok(Some(Token::Nag));
        }
        if word == "e.p." {
            return Ok(None);
        }
        if digits > 0 && digits == word.len() {
            return Ok(Some(Token::MoveNumber));
        }
        if !(bytes[0].is_ascii_alphanumeric() || bytes[0] == b'-') {
            let message = format!("unexpected `{word}` in movetext");
            return Err(Self::error(line, message, false));
        }
        Ok(Some(Token::San(word)))
    }

    /// The length of the tag name at `pos`: python-chess's tag names, a letter or digit,
    /// then also `_+#=:-`.
    fn tag_name_len(&self) -> usize {
        let rest = &self.text[self.pos..];
        if !rest.starts_with(|c: char| c.is_alphanumeric()) {
            return 0;
        }
        let mut len = 0;
        for c in rest.chars() {
            if !(c.is_alphanumeric() || matches!(c, '_' | '+' | '#' | '=' | ':' | '-')) {
                break;
            }
            len += c.len_utf8();
        }
        len
    }

    fn tag(&mut self, line: usize) -> Result<Token<'a>, LexError> {
        self.pos += 1;
        self.skip_blanks();
        let name_len = self.tag_name_len();
        if name_len == 0 {
            self.skip_line();
            let message = "malformed tag: expected a name after `[`".to_string();
            return Err(Self::error(line, message, true));
        }
        let name = &self.text[self.pos..self.pos + name_len];
        self.pos += name_len;
        self.skip_blanks();
        if self.bytes().get(self.pos) != Some(&b'"') {
            self.skip_line();
            let message = format!("malformed tag `{name}`: the value must be in double quotes");
            return Err(Self::error(line, message, true));
        }
        self.pos += 1;
        let value_start = self.pos;
        if let Some(value) = self.strict_tag_value() {
            return Ok(Token::Tag(name, value));
        }
        self.pos = value_start;
        if let Some(value) = self.loose_tag_value() {
            return Ok(Token::Tag(name, Cow::Borrowed(value)));
        }
        let message = if self.skip_line().contains('"') {
            format!("tag `{name}`: `]` expected after the value")
        } else {
            format!("tag `{name}`: the value's closing quote is missing")
        };
        Err(Self::error(line, message, true))
    }

    /// A tag value as the standard writes it, borrowed unless it has escapes; `None`
    /// (position unspecified) if the line does not follow that form.
    fn strict_tag_value(&mut self) -> Option<Cow<'a, str>> {
        let start = self.pos;
        // The closing quote by `memchr`, then the value checked for escapes and line ends
        // the same way: long names cost two vector scans, not a loop per byte.
        let end = start + self.text[start..].find('"')?;
        let value = &self.bytes()[start..end];
        if value.contains(&b'\\') {
            return self.escaped_tag_value(start);
        }
        if value.contains(&b'\n') {
            return None;
        }
        self.pos = end + 1;
        self.close_tag()
            .then_some(Cow::Borrowed(&self.text[start..end]))
    }

    /// The reader's escape rules: `\"` and `\\` are escapes, any other backslash is kept
    /// (Windows paths in Site tags).
    fn escaped_tag_value(&mut self, start: usize) -> Option<Cow<'a, str>> {
        let mut value = String::new();
        let mut chars = self.text[start..].chars();
        loop {
            match chars.next()? {
                '\\' => match chars.next()? {
                    c @ ('"' | '\\') => value.push(c),
                    '\n' => return None,
                    c => {
                        value.push('\\');
                        value.push(c);
                    }
                },
                '"' => break,
                '\n' => return None,
                c => value.push(c),
            }
        }
        self.pos = self.text.len() - chars.as_str().len();
        self.close_tag().then_some(Cow::Owned(value))
    }

    fn close_tag(&mut self) -> bool {
        self.skip_blanks();
        let closed = self.bytes().get(self.pos) == Some(&b']');
        self.pos += usize::from(closed);
        closed
    }

    /// A value with unescaped quotes inside, read as python-chess reads it: the line must
    /// end with `"]` (and spaces), and everything before that last `"` is the value.
    fn loose_tag_value(&mut self) -> Option<&'a str> {
        let rest = &self.text[self.pos..];
        let line = &rest[..rest.find('\n').unwrap_or(rest.len())];
        let value = line.trim_end().strip_suffix("\"]")?;
        self.pos += line.len();
        Some(value)
    }
}

/// What to do with each game's movetext.
///
/// ```
/// use framework::notation::scan::{PgnScanner, ScanOptions, ScannedGame};
///
/// // Only tags and results: the illegal `Ke3` goes unseen.
/// let results_only = ScanOptions { replay: false, ..ScanOptions::default() };
/// let mut game = ScannedGame::default();
/// PgnScanner::new("1. e4 e5 2. Ke3 1-0", results_only).next_into(&mut game);
/// assert!(game.error.is_none() && game.moves.is_empty());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ScanOptions {
    /// Replay and check every move (else only tags, results and the movetext's
    /// structure are read: much faster, for results-only tools).
    pub replay: bool,
    /// Read ambiguous SAN that exactly one candidate fits, once the rest of the game is
    /// replayed, as that candidate (recorded in [`ScannedGame::resolved`]) instead of
    /// failing the game. Off, games read exactly as [`PgnReader`](super::pgn::PgnReader)
    /// reads them.
    pub resolve_ambiguous: bool,
}

impl Default for ScanOptions {
    /// Replay every move, and fail ambiguous SAN as the reader does.
    fn default() -> Self {
        ScanOptions {
            replay: true,
            resolve_ambiguous: false,
        }
    }
}

/// An ambiguous SAN move that the rest of the game settled (see
/// [`ScanOptions::resolve_ambiguous`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResolvedAmbiguity {
    /// The half-move, from 1.
    pub ply: usize,
    /// The line of the move.
    pub line: usize,
    /// The move as written, with its number (`23. Qca1`).
    pub move_text: String,
    /// Every legal move the text could mean, in canonical SAN.
    pub candidates: Vec<String>,
    /// The one that keeps the rest of the game legal, in canonical SAN.
    pub chosen: String,
}

/// One game as [`PgnScanner`] reads it. The buffers are reused from game to game.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ScannedGame<'a> {
    /// The game's position in the text, from 1 (every game counts, good or bad).
    pub number: usize,
    /// The line where the game starts.
    pub line: usize,
    /// The tags in file order, duplicates dropped (the first wins), values borrowed from
    /// the text unless they had escapes.
    pub tags: Vec<(&'a str, Cow<'a, str>)>,
    /// The moves of the main line (with [`ScanOptions::replay`], and only if `error` is
    /// `None`; else as far as they were read).
    pub moves: Vec<Move>,
    /// The result token, else the `Result` tag, else [`GameResult::Unknown`]; set even when
    /// the game is broken.
    pub result: GameResult,
    /// Why the game cannot be read, as [`PgnReader`](super::pgn::PgnReader) says it.
    pub error: Option<PgnError>,
    /// Ambiguous moves read by their fit with the rest of the game.
    pub resolved: Vec<ResolvedAmbiguity>,
}

impl ScannedGame<'_> {
    /// The value of tag `name`.
    ///
    /// ```
    /// use framework::notation::scan::{PgnScanner, ScanOptions, ScannedGame};
    /// let mut game = ScannedGame::default();
    /// PgnScanner::new("[Black \"Bob\"] *", ScanOptions::default()).next_into(&mut game);
    /// assert_eq!((game.tag("Black"), game.tag("White")), (Some("Bob"), None));
    /// ```
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, v)| v.as_ref())
    }

    fn clear(&mut self) {
        self.number = 0;
        self.line = 0;
        self.tags.clear();
        self.moves.clear();
        self.result = GameResult::Unknown;
        self.error = None;
        self.resolved.clear();
    }
}

/// Where the current game stands while its tokens stream by.
#[derive(Debug, Default)]
struct GameState {
    started: bool,
    in_movetext: bool,
    /// Variation depth.
    depth: usize,
    /// Whether the `Variant` and `FEN` tags have been applied (at the first movetext token).
    began: bool,
    /// Whether the game has a tag, a move or a result (comments alone are no game).
    substance: bool,
    /// The first lexical error: it wins over any other, as in the reader.
    problem: Option<LexError>,
    /// The first error found replaying the game.
    error: Option<PgnError>,
    result_token: Option<GameResult>,
    last_line: usize,
}

/// Reads the games of a text one by one into a [`ScannedGame`] (see the module
/// documentation).
///
/// ```
/// use framework::notation::scan::{PgnScanner, ScanOptions, ScannedGame};
///
/// let text = "[White \"A\"]\n1. e4 e5 1-0\n[White \"B\"]\n1. d4 0-1\n";
/// let mut scanner = PgnScanner::new(text, ScanOptions::default());
/// let mut game = ScannedGame::default(); // one buffer for every game
/// let mut whites = Vec::new();
/// while scanner.next_into(&mut game) {
///     whites.push((game.number, game.tag("White").unwrap().to_string(), game.moves.len()));
/// }
/// assert_eq!(whites, [(1, "A".to_string(), 2), (2, "B".to_string(), 1)]);
/// ```
#[derive(Debug)]
pub struct PgnScanner<'a> {
    lexer: Lexer<'a>,
    pending: Option<Spanned<'a>>,
    games_seen: usize,
    options: ScanOptions,
    /// The replay board, reused: from the standard start it is only taken back.
    board: Board,
    board_is_startpos: bool,
    list: MoveList,
    /// Whether the text ended between games (see `scan_parallel`).
    clean_end: bool,
}

impl<'a> PgnScanner<'a> {
    /// A scanner over the games of `text` (a leading byte-order mark is skipped).
    pub fn new(text: &'a str, options: ScanOptions) -> PgnScanner<'a> {
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        PgnScanner::at_line(text, 1, options)
    }

    /// A scanner over a piece of a text that starts at line `line`.
    fn at_line(text: &'a str, line: usize, options: ScanOptions) -> PgnScanner<'a> {
        PgnScanner {
            lexer: Lexer::new(text, line),
            pending: None,
            games_seen: 0,
            options,
            board: Board::startpos(),
            board_is_startpos: true,
            list: MoveList::new(),
            clean_end: true,
        }
    }

    /// Reads the next game into `game`; `false` at the end of the text.
    pub fn next_into(&mut self, game: &mut ScannedGame<'a>) -> bool {
        loop {
            game.clear();
            let mut state = GameState::default();
            self.collect(game, &mut state);
            if !state.started {
                return false;
            }
            if state.substance {
                self.games_seen += 1;
                self.finish(game, state);
                return true;
            }
        }
    }

    /// Streams the tokens of one game, stopping after its result token (outside any
    /// variation) or before the tag section of the following game, as the reader does.
    fn collect(&mut self, game: &mut ScannedGame<'a>, state: &mut GameState) {
        loop {
            let item = match self.pending.take() {
                Some(token) => Ok(token),
                None => match self.lexer.next_token() {
                    Some(item) => item,
                    None => {
                        // Only the first end counts: later calls find nothing started.
                        self.clean_end &=
                            !self.lexer.open_comment && (!state.started || state.in_movetext);
                        return;
                    }
                },
            };
            let token = match item {
                Ok(token) => token,
                Err(error) => {
                    if !state.started {
                        game.line = error.line;
                    }
                    state.started = true;
                    state.substance = true;
                    // Stray text counts as movetext, so the next tag section starts a new game.
                    state.in_movetext |= !error.in_tag;
                    state.problem.get_or_insert(error);
                    continue;
                }
            };
            if let Token::Tag(..) = token.token
                && state.in_movetext
            {
                // A tag after movetext starts the next game: this one had no result token.
                self.pending = Some(token);
                return;
            }
            if !state.started {
                game.line = token.line;
                state.started = true;
            }
            state.last_line = token.line;
            if self.token(game, state, token) {
                return;
            }
        }
    }

    /// Takes one token of the current game; `true` if it ends the game.
    fn token(
        &mut self,
        game: &mut ScannedGame<'a>,
        state: &mut GameState,
        token: Spanned<'a>,
    ) -> bool {
        if let Token::Tag(name, value) = token.token {
            state.substance = true;
            // Duplicates break the one-value-per-tag model; the first one wins.
            if !game.tags.iter().any(|(n, _)| *n == name) {
                game.tags.push((name, value));
            }
            return false;
        }
        state.in_movetext = true;
        if !state.began {
            self.begin(game, state);
        }
        match token.token {
            Token::Open => state.depth += 1,
            Token::Close if state.depth == 0 => {
                if state.error.is_none() {
                    let message = "`)` without a matching `(`".to_string();
                    state.error = Some(error_at(token.line, message));
                }
            }
            Token::Close => state.depth -= 1,
            Token::San(_) | Token::Result(_) if state.depth > 0 => state.substance = true,
            Token::San(text) => {
                state.substance = true;
                if self.options.replay && state.error.is_none() {
                    self.play(game, state, text, token.line);
                }
            }
            Token::Result(result) => {
                state.substance = true;
                state.result_token = Some(result);
                return true;
            }
            Token::Tag(..) | Token::MoveNumber | Token::Nag | Token::Comment => {}
        }
        false
    }

    /// Applies the `Variant` and `FEN` tags before the first move, as the reader does.
    fn begin(&mut self, game: &ScannedGame<'a>, state: &mut GameState) {
        state.began = true;
        if let Some(variant) = game.tag("Variant")
            && !matches!(
                variant.to_ascii_lowercase().as_str(),
                "standard" | "chess" | ""
            )
        {
            let message = format!("variant `{variant}` is not supported (standard chess only)");
            state.error = Some(error_at(game.line, message));
            return;
        }
        match game.tag("FEN") {
            Some(fen) => match Board::from_fen(fen) {
                Ok(board) => {
                    self.board = board;
                    self.board_is_startpos = false;
                }
                Err(e) => {
                    let message = format!("bad FEN tag `{fen}`: {e}");
                    state.error = Some(error_at(game.line, message));
                }
            },
            None if self.board_is_startpos => {
                // Taking the moves back keeps the board's allocation.
                for _ in 0..self.board.history_moves().len() {
                    self.board.undo_move();
                }
            }
            None => {
                self.board = Board::startpos();
                self.board_is_startpos = true;
            }
        }
    }

    /// Reads and plays one SAN move of the main line.
    fn play(&mut self, game: &mut ScannedGame<'a>, state: &mut GameState, text: &str, line: usize) {
        if let Some(mv) = find_san(&self.board, text, &mut self.list) {
            self.board.make_move(mv);
            game.moves.push(mv);
            return;
        }
        let found = match parse_san(&self.board, text) {
            Err(SanError::Ambiguous { candidates, .. }) if self.options.resolve_ambiguous => {
                self.settle(game, text, line, candidates)
            }
            other => other,
        };
        match found {
            Ok(mv) => {
                self.board.make_move(mv);
                game.moves.push(mv);
            }
            Err(e) => {
                state.error = Some(PgnError {
                    game_number: 0,
                    line,
                    ply: Some(game.moves.len() + 1),
                    move_text: Some(self.move_text(text)),
                    message: e.to_string(),
                });
            }
        }
    }

    /// `12. e4` or `12... e5`: the move with its number.
    fn move_text(&self, text: &str) -> String {
        let dots = if self.board.side_to_move() == Color::White {
            "."
        } else {
            "..."
        };
        format!("{}{dots} {text}", self.board.fullmove_number())
    }

    /// The one candidate of an ambiguous move that the rest of the game fits, recorded in
    /// `game.resolved`; the ambiguity error if none or several fit.
    fn settle(
        &mut self,
        game: &mut ScannedGame<'a>,
        text: &str,
        line: usize,
        candidates: Vec<String>,
    ) -> Result<Move, SanError> {
        let fits: Vec<Move> = candidates
            .iter()
            .filter_map(|c| parse_san(&self.board, c).ok())
            .filter(|&mv| {
                let mut board = self.board.clone();
                board.make_move(mv);
                rest_fits(self.lexer.clone(), board, 0)
            })
            .collect();
        match fits.as_slice() {
            [mv] => {
                game.resolved.push(ResolvedAmbiguity {
                    ply: game.moves.len() + 1,
                    line,
                    move_text: self.move_text(text),
                    chosen: to_san(&self.board, *mv),
                    candidates: candidates.clone(),
                });
                Ok(*mv)
            }
            _ => Err(SanError::Ambiguous {
                san: text.to_string(),
                candidates,
            }),
        }
    }

    /// Completes a game whose last token has been read.
    fn finish(&mut self, game: &mut ScannedGame<'a>, mut state: GameState) {
        if !state.began {
            self.begin(game, &mut state);
        }
        game.number = self.games_seen;
        let error = match state.problem {
            Some(problem) => Some(error_at(problem.line, problem.message)),
            None => state.error.or_else(|| {
                (state.depth > 0)
                    .then(|| error_at(state.last_line, "a variation `(` is never closed".into()))
            }),
        };
        game.error = error.map(|e| PgnError {
            game_number: game.number,
            ..e
        });
        game.result = state
            .result_token
            .or_else(|| game.tag("Result").and_then(GameResult::from_token))
            .unwrap_or_default();
    }
}

/// An error at `line` that is not about one move (its game number is set later).
fn error_at(line: usize, message: String) -> PgnError {
    PgnError {
        game_number: 0,
        line,
        ply: None,
        move_text: None,
        message,
    }
}

/// How deep ambiguous moves inside the rest of a game are followed when settling one.
const MAX_NESTED_AMBIGUITY: usize = 4;

/// Whether the rest of the game, read from `lexer`, can be played on `board`: every move
/// legal, nested ambiguities settled by trying each candidate. Lexical trouble ends the
/// trial as a fit, since it fails the game whichever move is chosen.
fn rest_fits(mut lexer: Lexer<'_>, mut board: Board, nesting: usize) -> bool {
    let mut depth = 0usize;
    let mut list = MoveList::new();
    loop {
        let token = match lexer.next_token() {
            Some(Ok(spanned)) => spanned.token,
            None | Some(Err(_)) => return true,
        };
        match token {
            Token::Tag(..) => return true,
            Token::Result(_) if depth == 0 => return true,
            Token::Open => depth += 1,
            Token::Close => depth = depth.saturating_sub(1),
            Token::San(text) if depth == 0 => match resolve_san(&board, text, &mut list) {
                Ok(mv) => board.make_move(mv),
                Err(SanError::Ambiguous { candidates, .. }) if nesting < MAX_NESTED_AMBIGUITY => {
                    return candidates.iter().any(|c| {
                        parse_san(&board, c).is_ok_and(|mv| {
                            let mut next = board.clone();
                            next.make_move(mv);
                            rest_fits(lexer.clone(), next, nesting + 1)
                        })
                    });
                }
                Err(_) => return false,
            },
            _ => {}
        }
    }
}

/// Texts shorter than this are read on one thread: starting threads costs more.
const MIN_PARALLEL_BYTES: usize = 1 << 20;

/// Reads every game of `text` on up to `threads` threads and returns `map` of each, in
/// file order: the game behind `out[i]` is game `i + 1` of the text.
///
/// The text is cut where a line starts with `[` near equal shares; each piece is read by
/// its own [`PgnScanner`]. Inside `map`, [`ScannedGame::number`] (and an error's
/// `game_number`) count from 1 within the piece, so use the position in the returned
/// vector instead; lines are the text's. A cut is kept only if the reader would end a game
/// there too (the piece before ends between games or inside movetext that the tag
/// section ends, and the piece after starts with a well-formed tag); if any is not, the
/// whole text is read again on one thread, so the result never depends on the cuts.
///
/// ```
/// use framework::notation::scan::{scan_parallel, ScanOptions};
///
/// let text = "[White \"A\"]\n1. e4 1-0\n\n[White \"B\"]\n1. d4 0-1\n".repeat(3);
/// let whites = scan_parallel(&text, ScanOptions::default(), 4, |game| {
///     game.tag("White").unwrap().to_string()
/// });
/// assert_eq!(whites, ["A", "B", "A", "B", "A", "B"]);
/// ```
pub fn scan_parallel<'a, R: Send>(
    text: &'a str,
    options: ScanOptions,
    threads: usize,
    map: impl Fn(&ScannedGame<'a>) -> R + Sync,
) -> Vec<R> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let cuts = cut_points(text, threads.max(1));
    if cuts.len() > 2 {
        let pieces = scan_pieces(text, &cuts, options, &map);
        if pieces.iter().rev().skip(1).all(|(_, clean)| *clean) {
            return pieces.into_iter().flat_map(|(out, _)| out).collect();
        }
    }
    scan_piece(text, 1, options, &map).0
}

/// Reads each piece `cuts[k]..cuts[k + 1]` on its own thread: its results, and whether it
/// ended between games.
fn scan_pieces<'a, R: Send>(
    text: &'a str,
    cuts: &[usize],
    options: ScanOptions,
    map: &(impl Fn(&ScannedGame<'a>) -> R + Sync),
) -> Vec<(Vec<R>, bool)> {
    let mut first_lines = vec![1];
    for w in cuts.windows(2) {
        let lines = text.as_bytes()[w[0]..w[1]]
            .iter()
            .filter(|&&b| b == b'\n')
            .count();
        first_lines.push(first_lines.last().copied().unwrap_or(1) + lines);
    }
    std::thread::scope(|scope| {
        let handles: Vec<_> = cuts
            .windows(2)
            .zip(&first_lines)
            .map(|(w, &line)| {
                let piece = &text[w[0]..w[1]];
                scope.spawn(move || scan_piece(piece, line, options, map))
            })
            .collect();
        handles
            .into_iter()
            .map(|h| {
                h.join()
                    .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
            })
            .collect()
    })
}

fn scan_piece<'a, R>(
    piece: &'a str,
    line: usize,
    options: ScanOptions,
    map: &impl Fn(&ScannedGame<'a>) -> R,
) -> (Vec<R>, bool) {
    let mut scanner = PgnScanner::at_line(piece, line, options);
    let mut game = ScannedGame::default();
    let mut out = Vec::new();
    while scanner.next_into(&mut game) {
        out.push(map(&game));
    }
    (out, scanner.clean_end)
}

/// `0`, the cuts, and `text.len()`: each cut just after a blank line and before a `[` that
/// starts a well-formed tag, the first such at or after each equal share.
fn cut_points(text: &str, threads: usize) -> Vec<usize> {
    let mut cuts = vec![0];
    if threads > 1 && text.len() >= MIN_PARALLEL_BYTES {
        let bytes = text.as_bytes();
        for k in 1..threads {
            let mut at = (text.len() * k / threads).max(cuts.last().copied().unwrap_or(0) + 1);
            while let Some(offset) = bytes[at.min(bytes.len())..]
                .windows(2)
                .position(|w| w == b"\n[")
            {
                let cut = at + offset + 1;
                // Games are separated by a blank line: a cut after one is rarely refused
                // (a cut inside a tag section is).
                let after_blank =
                    bytes[..cut - 1].ends_with(b"\n") || bytes[..cut - 1].ends_with(b"\n\r");
                let starts_tag = after_blank
                    && matches!(
                        Lexer::new(&text[cut..], 1).next_token(),
                        Some(Ok(Spanned {
                            token: Token::Tag(..),
                            ..
                        }))
                    );
                if starts_tag {
                    cuts.push(cut);
                    break;
                }
                at = cut;
            }
        }
    }
    cuts.push(text.len());
    cuts.dedup();
    cuts
}

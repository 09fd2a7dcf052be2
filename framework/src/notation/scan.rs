//! The one PGN reader: every game's tags, result, (checked) moves and, when asked, its
//! comments, at the speed of the machine. Every command that reads PGN reads through it:
//! [`PgnReader`](super::pgn::PgnReader) and [`read_games`](super::pgn::read_games) build
//! [`PgnGame`](super::pgn::PgnGame)s from what it reads, and
//! [`PgnStream`](super::stream::PgnStream) feeds it a file through a fixed buffer.
//!
//! [`PgnScanner`] fills one reusable [`ScannedGame`] whose tags and comments borrow from
//! the text; it lexes bytes through a lookup table and reads each SAN move from its
//! destination square backwards, looking only at the named piece's origins. Once its
//! buffers have grown to the longest game, it allocates nothing per game.
//!
//! Two things it does beyond [`PgnReader`](super::pgn::PgnReader), both asked for:
//! - the result of a broken game: [`ScannedGame::result`] is set from the result token or
//!   the `Result` tag even when [`ScannedGame::error`] says the moves could not be read;
//! - with [`ScanOptions::resolve_ambiguous`], ambiguous SAN (`Qca1` with queens on c1 and
//!   c3 that can both reach a1) that only one candidate fits, once the rest of the game is
//!   replayed, is read as that candidate and reported in [`ScannedGame::resolved`].
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

use super::lex::{LexError, Lexer, Spanned, Token};
use super::result::{GameResult, PgnError};
use super::san::{SanError, find_san, parse_san, resolve_san, to_san};
use crate::chess::{Board, Color, Move, Position};

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
    /// Keep the main line's comments in [`ScannedGame::comments`].
    pub comments: bool,
}

impl Default for ScanOptions {
    /// Replay every move, fail ambiguous SAN as the reader does, keep no comments.
    fn default() -> Self {
        ScanOptions {
            replay: true,
            resolve_ambiguous: false,
            comments: false,
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
    /// With [`ScanOptions::comments`], the main line's comments as written, each with the
    /// number of moves before it (0: before the first move).
    pub comments: Vec<(usize, &'a str)>,
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
        self.comments.clear();
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
    /// The position of the game being read (from the standard start, or its FEN tag).
    position: Position,
    /// Whether the last game read ended with the text (not with a result token or the
    /// next game's tags): in a window of a stream, it may go on past the window.
    ended_by_text: bool,
    /// The plies that settling ambiguous moves may still replay (see [`SETTLE_BUDGET`]).
    settle_budget: u64,
}

/// The plies that settling ambiguous moves (see [`ScanOptions::resolve_ambiguous`]) may
/// replay in one text or file, trials of every candidate and nested ambiguities included.
///
/// Each ambiguous move replays the rest of its game once per candidate, and the ambiguous
/// moves in that rest once per candidate again, so a file crafted of games full of them
/// cost seconds per megabyte (10.6 s for 1.5 MB); a real file settles a few moves, each
/// of a few hundred plies. A million plies is some five thousand of those, and about a
/// tenth of a second (`cargo bench -p framework --bench pgn_settle`); once they are spent,
/// the ambiguous moves left are read as the reader reads them, as errors whose message
/// says why.
pub const SETTLE_BUDGET: u64 = 1_000_000;

impl<'a> PgnScanner<'a> {
    /// A scanner over the games of `text` (a leading byte-order mark is skipped).
    pub fn new(text: &'a str, options: ScanOptions) -> PgnScanner<'a> {
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        PgnScanner::resume(text, (1, 0), options)
    }

    /// A scanner over a window of a longer text that starts at line `line`, after
    /// `games_seen` games.
    pub(crate) fn resume(
        text: &'a str,
        (line, games_seen): (usize, usize),
        options: ScanOptions,
    ) -> PgnScanner<'a> {
        PgnScanner {
            lexer: Lexer::new(text, line),
            pending: None,
            games_seen,
            options,
            position: Position::startpos(),
            ended_by_text: false,
            settle_budget: SETTLE_BUDGET,
        }
    }

    /// The scanner with `plies` left of the budget for settling ambiguous moves (a stream
    /// carries one budget through the windows of its file).
    pub(crate) fn with_settle_budget(mut self, plies: u64) -> PgnScanner<'a> {
        self.settle_budget = plies;
        self
    }

    /// What is left of [`SETTLE_BUDGET`] for this text.
    ///
    /// ```
    /// use framework::notation::scan::{PgnScanner, ScanOptions, SETTLE_BUDGET};
    /// let scanner = PgnScanner::new("1. e4 *", ScanOptions::default());
    /// assert_eq!(scanner.settle_budget(), SETTLE_BUDGET);
    /// ```
    pub fn settle_budget(&self) -> u64 {
        self.settle_budget
    }

    /// Where reading stands between games: the byte where the next game's tokens may
    /// start (the pending tag that ended the last game, or the lexer's place), its line,
    /// and the games read so far.
    pub(crate) fn position(&self) -> (usize, usize, usize) {
        match &self.pending {
            Some(token) => (token.start, token.line, self.games_seen),
            None => (self.lexer.pos, self.lexer.line, self.games_seen),
        }
    }

    /// Whether the last game ended with the text rather than by its own end (after
    /// `next_into` returned `false`: whether the text ended inside comments or a variation
    /// that more text could make a game of).
    pub(crate) fn ended_by_text(&self) -> bool {
        self.ended_by_text
    }

    /// Reads the next game into `game`; `false` at the end of the text.
    pub fn next_into(&mut self, game: &mut ScannedGame<'a>) -> bool {
        self.ended_by_text = false;
        // Whether comments or variations without a move ran to the end of the text: not a
        // game yet, but the start of one if the text goes on.
        let mut remnant = false;
        loop {
            game.clear();
            let mut state = GameState::default();
            self.collect(game, &mut state);
            if !state.started {
                self.ended_by_text = remnant;
                return false;
            }
            if state.substance {
                self.games_seen += 1;
                self.finish(game, state);
                return true;
            }
            remnant = self.ended_by_text;
        }
    }

    /// Streams the tokens of one game, stopping after its result token (outside any
    /// variation) or before the tag section of the following game, as the reader does.
    fn collect(&mut self, game: &mut ScannedGame<'a>, state: &mut GameState) {
        loop {
            if state.began && state.depth == 0 && self.pending.is_none() {
                self.plain_moves(game, state);
            }
            let item = match self.pending.take() {
                Some(token) => Ok(token),
                None => match self.lexer.next_token() {
                    Some(item) => item,
                    None => {
                        self.ended_by_text = true;
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

    /// Takes the main line's moves while they come plain, the bulk of movetext, by the
    /// lexer's short path: what [`token`](Self::token) does with a move or a number once
    /// the game's movetext has begun.
    fn plain_moves(&mut self, game: &mut ScannedGame<'a>, state: &mut GameState) {
        while let Some(text) = self.lexer.next_plain_move() {
            // A move lies on one line: the one the lexer has reached.
            let line = self.lexer.line;
            state.last_line = line;
            state.substance = true;
            if self.options.replay && state.error.is_none() {
                self.play(game, state, text, line);
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
            Token::Comment(text) if self.options.comments && state.depth == 0 => {
                game.comments.push((game.moves.len(), text));
            }
            Token::Tag(..) | Token::MoveNumber | Token::Nag | Token::Comment(_) => {}
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
            Some(fen) => match Position::from_fen(fen) {
                Ok(position) => self.position = position,
                Err(e) => {
                    let message = format!("bad FEN tag `{fen}`: {e}");
                    state.error = Some(error_at(game.line, message));
                }
            },
            None => self.position = Position::startpos(),
        }
    }

    /// Reads and plays one SAN move of the main line.
    fn play(&mut self, game: &mut ScannedGame<'a>, state: &mut GameState, text: &str, line: usize) {
        if let Some(mv) = find_san(&self.position, text) {
            self.position.play(mv);
            game.moves.push(mv);
            return;
        }
        let board = self.position.to_board();
        let found = match parse_san(&board, text) {
            Err(SanError::Ambiguous { candidates, .. }) if self.options.resolve_ambiguous => {
                self.settle(&board, game, text, line, candidates)
            }
            other => other.map_err(|e| e.to_string()),
        };
        match found {
            Ok(mv) => {
                self.position.play(mv);
                game.moves.push(mv);
            }
            Err(e) => {
                state.error = Some(PgnError {
                    game_number: 0,
                    line,
                    ply: Some(game.moves.len() + 1),
                    move_text: Some(self.move_text(text)),
                    message: e,
                });
            }
        }
    }

    /// `12. e4` or `12... e5`: the move with its number.
    fn move_text(&self, text: &str) -> String {
        let dots = if self.position.side_to_move() == Color::White {
            "."
        } else {
            "..."
        };
        format!("{}{dots} {text}", self.position.fullmove_number())
    }

    /// The one candidate of an ambiguous move on `board` (the current position) that the
    /// rest of the game fits, recorded in `game.resolved`; the ambiguity error if none or
    /// several fit, or if the file's [`SETTLE_BUDGET`] runs out before it is settled.
    fn settle(
        &mut self,
        board: &Board,
        game: &mut ScannedGame<'a>,
        text: &str,
        line: usize,
        candidates: Vec<String>,
    ) -> Result<Move, String> {
        let mut fits = Vec::new();
        for mv in candidates.iter().filter_map(|c| parse_san(board, c).ok()) {
            let mut next = self.position.clone();
            next.play(mv);
            match rest_fits(self.lexer.clone(), next, 0, &mut self.settle_budget) {
                Some(true) => fits.push(mv),
                Some(false) => {}
                None => {
                    let ambiguous = SanError::Ambiguous {
                        san: text.to_string(),
                        candidates,
                    };
                    return Err(format!(
                        "{ambiguous}; not settled: this file's budget of {SETTLE_BUDGET} \
                         replayed plies for settling ambiguous moves is spent"
                    ));
                }
            }
        }
        match fits.as_slice() {
            [mv] => {
                game.resolved.push(ResolvedAmbiguity {
                    ply: game.moves.len() + 1,
                    line,
                    move_text: self.move_text(text),
                    chosen: to_san(board, *mv),
                    candidates: candidates.clone(),
                });
                Ok(*mv)
            }
            _ => Err(SanError::Ambiguous {
                san: text.to_string(),
                candidates,
            }
            .to_string()),
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

/// Whether the rest of the game, read from `lexer`, can be played on `position`: every
/// move legal, nested ambiguities settled by trying each candidate. Lexical trouble ends
/// the trial as a fit, since it fails the game whichever move is chosen. Each ply
/// replayed is taken from `budget`; `None` once it is spent.
fn rest_fits(
    mut lexer: Lexer<'_>,
    mut position: Position,
    nesting: usize,
    budget: &mut u64,
) -> Option<bool> {
    let mut depth = 0usize;
    loop {
        let token = match lexer.next_token() {
            Some(Ok(spanned)) => spanned.token,
            None | Some(Err(_)) => return Some(true),
        };
        match token {
            Token::Tag(..) => return Some(true),
            Token::Result(_) if depth == 0 => return Some(true),
            Token::Open => depth += 1,
            Token::Close => depth = depth.saturating_sub(1),
            Token::San(text) if depth == 0 => {
                *budget = budget.checked_sub(1)?;
                match resolve_san(&position, text) {
                    Ok(mv) => position.play(mv),
                    Err(SanError::Ambiguous { candidates, .. })
                        if nesting < MAX_NESTED_AMBIGUITY =>
                    {
                        let board = position.to_board();
                        for mv in candidates.iter().filter_map(|c| parse_san(&board, c).ok()) {
                            let mut next = position.clone();
                            next.play(mv);
                            if rest_fits(lexer.clone(), next, nesting + 1, budget)? {
                                return Some(true);
                            }
                        }
                        return Some(false);
                    }
                    Err(_) => return Some(false),
                }
            }
            _ => {}
        }
    }
}

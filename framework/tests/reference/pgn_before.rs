//! The PGN reader as it was before issue 33 (a lexer over `char`s, every token owned,
//! every SAN move found among all legal moves), kept only as the reference that the one
//! reader (`notation::scan`, `PgnReader`, `PgnStream`) is held to by the property tests:
//! the same games, numbers, lines, moves, comments, results and error messages.

use framework::chess::{Board, Color};
use framework::notation::pgn::{GameResult, PgnError, PgnGame};
use framework::notation::san::parse_san;

#[derive(Debug, Clone)]
pub(crate) struct PgnReader<'a> {
    lexer: Lexer<'a>,
    pending: Option<Spanned>,
    games_seen: usize,
}

impl<'a> PgnReader<'a> {
    /// A reader over the games in `text`.
    pub(crate) fn new(text: &'a str) -> PgnReader<'a> {
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
    // The roster first, as the reader normalised them.
    let mut game = PgnGame::from_position(start);
    for (name, value) in &tags {
        if name != "Result" {
            game.set_tag(name, value);
        }
    }
    game.result = result;
    game.set_tag("Result", result.as_str());
    game.moves = moves;
    game.comments = comments;
    game.intro = intro;
    Ok(game)
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

//! The PGN lexer: bytes to tokens, one table lookup per byte, tokens borrowing their
//! text. The one reader ([`scan`](super::scan)) is its only user.

use std::borrow::Cow;

use super::result::GameResult;

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

/// Whether a symbol starting with `b` is a move (`e4`, `Nf3`, `O-O`; `e.p.` aside).
fn is_move_lead(b: u8) -> bool {
    matches!(b, b'a'..=b'h' | b'N' | b'B' | b'R' | b'Q' | b'K' | b'O')
}

/// The length of the move number that `word` starts with (digits, then dots: `12.`,
/// `12...`, the `12.` of `12.e4`), or `None` if it starts with none.
fn move_number_len(word: &str) -> Option<usize> {
    let bytes = word.as_bytes();
    let digits = bytes.iter().take_while(|b| b.is_ascii_digit()).count();
    if digits == 0 || bytes.get(digits) != Some(&b'.') {
        return None;
    }
    Some(digits + bytes[digits..].iter().take_while(|&&b| b == b'.').count())
}

/// A token, borrowing its text from the PGN.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Token<'a> {
    Tag(&'a str, Cow<'a, str>),
    MoveNumber,
    San(&'a str),
    Nag,
    /// A `{...}` or `;` comment's text (whitespace kept as written).
    Comment(&'a str),
    Open,
    Close,
    Result(GameResult),
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Spanned<'a> {
    pub(crate) token: Token<'a>,
    pub(crate) line: usize,
    /// The byte where the token starts: a game ended by the next game's tag starts there.
    pub(crate) start: usize,
}

/// As the reader's: where, what, and whether it belongs to a tag section.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct LexError {
    pub(crate) line: usize,
    pub(crate) message: String,
    pub(crate) in_tag: bool,
}

/// The reader's lexer over bytes: the same tokens and errors, with a table lookup per byte
/// and no allocation but for error messages and escaped tag values.
#[derive(Debug, Clone)]
pub(crate) struct Lexer<'a> {
    text: &'a str,
    pub(crate) pos: usize,
    pub(crate) line: usize,
    /// A move split off a move number (`12.e4`).
    queued: Option<Spanned<'a>>,
}

impl<'a> Lexer<'a> {
    pub(crate) fn new(text: &'a str, line: usize) -> Lexer<'a> {
        Lexer {
            text,
            pos: 0,
            line,
            queued: None,
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
    pub(crate) fn next_token(&mut self) -> Option<Result<Spanned<'a>, LexError>> {
        if self.queued.is_some() {
            return self.queued.take().map(Ok);
        }
        loop {
            let &b = self.bytes().get(self.pos)?;
            let (line, start) = (self.line, self.pos);
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
                    Ok(Token::Comment(self.skip_line()))
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
                    if let Some(token) = self.plain_symbol(word, line, start) {
                        return Some(Ok(Spanned { token, line, start }));
                    }
                    match self.symbol(word, line) {
                        Ok(Some(token)) => Ok(token),
                        Ok(None) => continue,
                        Err(e) => Err(e),
                    }
                }
            };
            return Some(token.map(|token| Spanned { token, line, start }));
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
                let text = &rest[..end];
                self.line += text.bytes().filter(|&b| b == b'\n').count();
                self.pos += end + 1;
                Ok(Token::Comment(text))
            }
            None => {
                self.pos = self.text.len();
                let message = "a `{` comment is never closed".to_string();
                Err(Self::error(line, message, false))
            }
        }
    }

    /// The end of the symbol starting at `pos`: the first whitespace or delimiter.
    fn symbol_end(&self) -> usize {
        self.symbol_end_at(self.pos)
    }

    /// The end of the symbol starting at `start`.
    #[inline]
    fn symbol_end_at(&self, start: usize) -> usize {
        let bytes = self.bytes();
        let mut end = start;
        // Symbols are ASCII but for rare text: one table test per byte until a byte of
        // any class, and only a non-ASCII one goes the long way.
        while let Some(&b) = bytes.get(end) {
            if CLASS[b as usize] != 0 {
                if CLASS[b as usize] & HIGH != 0 {
                    return self.symbol_end_from(end);
                }
                break;
            }
            end += 1;
        }
        end
    }

    /// [`symbol_end_at`](Self::symbol_end_at) from `end`, where a non-ASCII character
    /// starts.
    #[cold]
    fn symbol_end_from(&self, mut end: usize) -> usize {
        let bytes = self.bytes();
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

    /// The next token if it is a move, as [`next_token`](Self::next_token) would read
    /// it after skipping whitespace, move numbers and `e.p.` markers; else `None`, with
    /// nothing consumed. Most of movetext is moves and numbers, and a value this small
    /// comes back in registers, where a whole token goes through memory.
    #[inline]
    pub(crate) fn next_plain_move(&mut self) -> Option<&'a str> {
        if self.queued.is_some() {
            return None;
        }
        // Where reading stands is kept in locals and stored only with a move found.
        let (mut pos, mut line) = (self.pos, self.line);
        while let Some(&b) = self.bytes().get(pos) {
            let class = CLASS[b as usize];
            if class & WS != 0 {
                pos += 1;
                line += usize::from(b == b'\n');
                continue;
            }
            if class != 0 || !(is_move_lead(b) || b.is_ascii_digit()) {
                return None;
            }
            let end = self.symbol_end_at(pos);
            let word = &self.text[pos..end];
            pos = end;
            let word = if is_move_lead(b) {
                if word == "e.p." {
                    continue;
                }
                word
            } else {
                let after_number = move_number_len(word)?;
                if after_number == word.len() {
                    continue;
                }
                &word[after_number..]
            };
            (self.pos, self.line) = (pos, line);
            return Some(word);
        }
        None
    }

    /// A move (none is a result or a number) or a move number (`12.`, `12...`, `12.e4`:
    /// digits, then dots); `None` for any other symbol.
    fn plain_symbol(&mut self, word: &'a str, line: usize, start: usize) -> Option<Token<'a>> {
        if is_move_lead(word.as_bytes()[0]) && word != "e.p." {
            return Some(Token::San(word));
        }
        let after_number = move_number_len(word)?;
        if after_number < word.len() {
            let token = Token::San(&word[after_number..]);
            // The move's own start: it is never a game's first token.
            self.queued = Some(Spanned { token, line, start });
        }
        Some(Token::MoveNumber)
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

#[cfg(test)]
mod tests {
    use super::*;

    fn tokens(text: &str) -> Vec<Token<'_>> {
        let mut lexer = Lexer::new(text, 1);
        std::iter::from_fn(|| lexer.next_token())
            .map(|t| t.expect("lexes").token)
            .collect()
    }

    #[test]
    fn lexes_movetext_forms() {
        use Token::*;
        assert_eq!(
            tokens("12.e4 12... e5 13 Nf3!? $14 ?! (13. d4) {c} ;rest\n%escaped\nO-O 1/2-1/2"),
            vec![
                MoveNumber,
                San("e4"),
                MoveNumber,
                San("e5"),
                MoveNumber,
                San("Nf3!?"),
                Nag,
                Nag,
                Open,
                MoveNumber,
                San("d4"),
                Close,
                Comment("c"),
                Comment("rest"),
                San("O-O"),
                Result(GameResult::Draw),
            ]
        );
        assert_eq!(
            tokens("0-0-0 0-1 exd6 e.p. *"),
            vec![
                San("0-0-0"),
                Result(GameResult::BlackWins),
                San("exd6"),
                Result(GameResult::Unknown)
            ]
        );
    }

    /// The tokens and lines of `text` as the scanner reads them: moves by the short path
    /// wherever it takes them, the rest by `next_token`; move numbers left out, as the
    /// short path skips them.
    fn tokens_by_short_path(text: &str) -> Vec<(Token<'_>, usize)> {
        let mut lexer = Lexer::new(text, 1);
        let mut out = Vec::new();
        loop {
            while let Some(text) = lexer.next_plain_move() {
                out.push((Token::San(text), lexer.line));
            }
            match lexer.next_token() {
                Some(Ok(t)) if t.token == Token::MoveNumber => {}
                Some(Ok(t)) => out.push((t.token, t.line)),
                Some(Err(e)) => out.push((Token::Comment("error"), e.line)),
                None => return out,
            }
        }
    }

    fn tokens_by_long_path(text: &str) -> Vec<(Token<'_>, usize)> {
        let mut lexer = Lexer::new(text, 1);
        std::iter::from_fn(|| lexer.next_token())
            .filter_map(|t| match t {
                Ok(t) if t.token == Token::MoveNumber => None,
                Ok(t) => Some((t.token, t.line)),
                Err(e) => Some((Token::Comment("error"), e.line)),
            })
            .collect()
    }

    #[test]
    fn the_short_path_reads_moves_as_the_long_one_does() {
        for text in [
            "12.e4 12... e5 13 Nf3!? $14 ?! (13. d4) {c} ;rest\n%escaped\nO-O 1/2-1/2",
            "1. e4 e5\n2. exd6 e.p. Nf6\n\n3.Bb5 e.p. 1-0",
            "1.e4\u{a0}e5 2.\u{a0}Nf3 2. 0-0 1. é4 1.-- 3... *",
            "1. e4 e5 2.",
            "1. e4 12.(d4) e.p.\t\r\nNf3 [Event \"x\"] 1. d4 {a\nb} d5 0-1",
            "1. e4 <x> e5 } Nf3",
        ] {
            assert_eq!(
                tokens_by_short_path(text),
                tokens_by_long_path(text),
                "{text:?}"
            );
        }
        // Nothing but moves and numbers is taken: the rest is left, whitespace and all.
        let mut lexer = Lexer::new("1. e4 2. 1-0", 1);
        assert_eq!(lexer.next_plain_move(), Some("e4"));
        assert_eq!((lexer.next_plain_move(), lexer.pos), (None, 5));
    }

    proptest::proptest! {
        /// The same on noise made of movetext's words, glued or apart.
        #[test]
        fn the_short_path_agrees_on_noise(words in proptest::collection::vec(
            proptest::sample::select(vec![
                "1.", "12...", "12.e4", "3", "e4", "Nf3", "exd6", "O-O", "0-0", "e.p.", "--",
                "1-0", "1/2-1/2", "*", " ", "\n", "\r\n", "\t", "\u{a0}", "é", "{c\nd}", "(",
                ")", "[Event \"x\"]", "$1", "!?", "%x\n", ";c\n", "<", "}",
            ]),
            0..40,
        )) {
            let text = words.concat();
            proptest::prop_assert_eq!(tokens_by_short_path(&text), tokens_by_long_path(&text));
        }
    }

    #[test]
    fn lexes_tags_with_escapes_borrowing_plain_values() {
        assert_eq!(
            tokens(r#"[Event "The \"Big\" one \\ C:\dir"]"#),
            vec![Token::Tag("Event", r#"The "Big" one \ C:\dir"#.into())]
        );
        let plain = tokens("[ Round   \"3\" ]");
        assert_eq!(plain, vec![Token::Tag("Round", "3".into())]);
        assert!(matches!(plain[0], Token::Tag(_, Cow::Borrowed(_))));
    }

    #[test]
    fn tracks_lines_and_starts_and_reports_lex_errors() {
        let mut lexer = Lexer::new("1. e4\n{multi\nline}\n[Bad tag]\ne5", 1);
        let all: Vec<_> = std::iter::from_fn(|| lexer.next_token()).collect();
        let comment = all[2].as_ref().unwrap();
        assert_eq!((comment.line, comment.start), (2, 6));
        let err = all[3].as_ref().unwrap_err();
        assert_eq!(err.line, 4);
        assert!(err.message.contains("double quotes"), "{}", err.message);
        assert_eq!(
            all[4].as_ref().unwrap(),
            &Spanned {
                token: Token::San("e5"),
                line: 5,
                start: 29,
            }
        );
        let mut lexer = Lexer::new("1. e4 {never closed", 1);
        let err = std::iter::from_fn(|| lexer.next_token()).nth(2).unwrap();
        assert!(err.unwrap_err().message.contains("never closed"));
    }

    #[test]
    fn reads_unescaped_inner_quotes_as_python_chess_does() {
        assert_eq!(
            tokens("[Black \"SaveBot (or, \"winning bot\" as an alternative)\"]  \r\n"),
            vec![Token::Tag(
                "Black",
                "SaveBot (or, \"winning bot\" as an alternative)".into()
            )]
        );
        // Escaped quotes still follow the standard; names take python-chess's characters.
        assert_eq!(
            tokens(r#"[Event "a \"b\" c"] [Time-Control+ "x"]"#),
            vec![
                Token::Tag("Event", r#"a "b" c"#.into()),
                Token::Tag("Time-Control+", "x".into())
            ]
        );
        // Still refused: a value whose line does not end with `"]`.
        let err = Lexer::new("[Event \"a\" b\n1. e4", 1).next_token().unwrap();
        assert!(err.unwrap_err().message.contains("`]` expected"));
        let err = Lexer::new("[Event \"a\n1. e4", 1).next_token().unwrap();
        let err = err.unwrap_err();
        assert!(err.message.contains("closing quote"), "{}", err.message);
        assert_eq!(err.line, 1);
    }
}

//! Reading a PGN file through a fixed buffer: memory stays the same whatever the file's
//! size (the buffer grows only for a game longer than itself, up to [`MAX_GAME_BYTES`]).
//!
//! [`PgnStream`] reads whole lines into its buffer and hands the window of complete lines
//! to the one reader, [`PgnScanner`]. A game that runs to the end of the window (it may go
//! on in the next lines) is read again once the buffer has been refilled, so every game
//! is read exactly as [`PgnScanner`] reads the whole text: the same games, numbers, lines,
//! moves, results and errors (a property test holds it to that with buffers of a few
//! bytes).
//!
//! ```
//! use framework::notation::scan::ScanOptions;
//! use framework::notation::stream::PgnStream;
//!
//! let file = "[White \"A\"]\n\n1. e4 e5 1-0\n\n[White \"B\"]\n\n1. e4 e4 *\n";
//! let mut whites = Vec::new();
//! let read = PgnStream::new(file.as_bytes(), ScanOptions::default())
//!     .for_each(|game| whites.push((game.tag("White").unwrap().to_string(), game.error.is_none())))
//!     .unwrap();
//! assert_eq!(read, 2);
//! assert_eq!(whites, [("A".to_string(), true), ("B".to_string(), false)]);
//! ```

use std::io::{ErrorKind, Read};

use thiserror::Error;

use super::scan::{PgnScanner, SETTLE_BUDGET, ScanOptions, ScannedGame};

/// The buffer [`PgnStream::new`] reads through: a few hundred games of a real file.
pub const BUFFER_BYTES: usize = 256 << 10;

/// The longest game (tags, movetext and comments) a stream reads: real games are a few
/// kilobytes, so a longer one means the input is not PGN, and reading stops there.
pub const MAX_GAME_BYTES: usize = 64 << 20;

/// Why a stream stopped before the end of its input. The games before the place named
/// were all handed on.
#[derive(Debug, Error)]
pub enum StreamError {
    /// The input could not be read.
    #[error("cannot read it: {0}")]
    Io(#[from] std::io::Error),
    /// A line that is not UTF-8.
    #[error("line {line} is not UTF-8 text (PGN files are read as UTF-8)")]
    NotUtf8 {
        /// The line (from 1).
        line: usize,
    },
    /// A game longer than [`MAX_GAME_BYTES`].
    #[error(
        "the game starting at line {line} runs past {} MiB without ending: this is no PGN game",
        MAX_GAME_BYTES >> 20
    )]
    TooLong {
        /// Where the game starts.
        line: usize,
    },
}

/// The games of a byte stream (a file), read through a fixed buffer (see the module
/// documentation).
#[derive(Debug)]
pub struct PgnStream<R> {
    input: R,
    options: ScanOptions,
    /// Bytes `start..end` of `buf` are read and not yet consumed.
    buf: Vec<u8>,
    start: usize,
    end: usize,
    /// The line of `start`, and the games read before it.
    line: usize,
    games: usize,
    eof: bool,
    /// Bytes read from the input so far.
    taken: u64,
    /// Read no further than this byte of the input ([`PgnStream::for_each_before`]).
    limit: Option<u64>,
    bom_checked: bool,
    /// What is left of the file's [`SETTLE_BUDGET`], spent by the games handed on (a game
    /// read again once the buffer is refilled is charged once).
    settle_budget: u64,
}

impl<R: Read> PgnStream<R> {
    /// A stream over `input`, through a buffer of [`BUFFER_BYTES`].
    pub fn new(input: R, options: ScanOptions) -> PgnStream<R> {
        PgnStream::with_buffer(input, options, BUFFER_BYTES)
    }

    /// A stream through a buffer of `bytes` (at least 1; it grows for longer games).
    ///
    /// ```
    /// use framework::notation::scan::ScanOptions;
    /// use framework::notation::stream::PgnStream;
    ///
    /// let file = "1. e4 {a comment\nover two lines} e5 *\n1. d4 *\n";
    /// let mut plies = Vec::new();
    /// PgnStream::with_buffer(file.as_bytes(), ScanOptions::default(), 4)
    ///     .for_each(|game| plies.push(game.moves.len()))
    ///     .unwrap();
    /// assert_eq!(plies, [2, 1]);
    /// ```
    pub fn with_buffer(input: R, options: ScanOptions, bytes: usize) -> PgnStream<R> {
        PgnStream {
            input,
            options,
            buf: vec![0; bytes.max(1)],
            start: 0,
            end: 0,
            line: 1,
            games: 0,
            eof: false,
            taken: 0,
            limit: None,
            bom_checked: false,
            settle_budget: SETTLE_BUDGET,
        }
    }

    /// Reads every game, handing each to `each` in file order, and returns how many were
    /// read. On an error, every game before it has been handed on.
    ///
    /// # Errors
    /// [`StreamError`]: the input cannot be read, is not UTF-8, or holds a game longer
    /// than [`MAX_GAME_BYTES`].
    pub fn for_each(
        &mut self,
        mut each: impl FnMut(&ScannedGame<'_>),
    ) -> Result<usize, StreamError> {
        self.run(&mut each)?;
        Ok(self.games)
    }

    /// Reads every game that ends before byte `end` of the input, as [`PgnStream::for_each`]
    /// would hand them on, and tells whether reading stopped exactly between two games at
    /// `end` (only blank text between the last one's end and `end`): then the games from
    /// `end` on are read alike by a fresh stream there, their lines and numbers counted on
    /// from [`PgnStream::position`]. If not (`end` is inside a game or a comment), the
    /// stream is left as it was and [`PgnStream::for_each`] goes on from there.
    ///
    /// # Errors
    /// As [`PgnStream::for_each`], for the text before `end`.
    ///
    /// ```
    /// use framework::notation::scan::ScanOptions;
    /// use framework::notation::stream::PgnStream;
    ///
    /// let file = "1. e4 e5 1-0\n\n1. d4 d5 0-1\n";
    /// let mut stream = PgnStream::new(file.as_bytes(), ScanOptions::default());
    /// let mut plies = Vec::new();
    /// assert!(stream.for_each_before(14, |game| plies.push(game.moves.len())).unwrap());
    /// assert_eq!((plies, stream.position()), (vec![2], (3, 1)));
    /// // Inside the second game: not between games, and nothing of it read yet.
    /// let mut stream = PgnStream::new(file.as_bytes(), ScanOptions::default());
    /// assert!(!stream.for_each_before(20, |_| {}).unwrap());
    /// assert_eq!(stream.for_each(|_| {}).unwrap(), 2);
    /// ```
    pub fn for_each_before(
        &mut self,
        end: u64,
        mut each: impl FnMut(&ScannedGame<'_>),
    ) -> Result<bool, StreamError> {
        self.limit = Some(end);
        let between = self.run(&mut each);
        self.limit = None;
        between
    }

    /// The line the unread text starts on, and the games read so far.
    pub fn position(&self) -> (usize, usize) {
        (self.line, self.games)
    }

    /// Reads games until the input ends (true) or, under a limit, until the limit is
    /// reached: then whether all the text before it is read.
    fn run(&mut self, each: &mut impl FnMut(&ScannedGame<'_>)) -> Result<bool, StreamError> {
        loop {
            self.fill()?;
            let at_limit = self.limit == Some(self.taken);
            if !self.bom_checked {
                if self.end < 3 && !self.eof && !at_limit {
                    self.make_room()?;
                    continue;
                }
                self.bom_checked = true;
                if self.buf[..self.end].starts_with("\u{feff}".as_bytes()) {
                    self.start = 3;
                }
            }
            let (done, not_utf8) = self.scan_window(each);
            if let Some(line) = not_utf8 {
                return Err(StreamError::NotUtf8 { line });
            }
            if done {
                return Ok(true);
            }
            if at_limit {
                return Ok(self.start == self.end);
            }
            self.make_room()?;
        }
    }

    /// Reads the games of the window of complete lines; whether the input is all read,
    /// and the line of the first byte that is not UTF-8, if the window stops before one.
    fn scan_window(&mut self, each: &mut impl FnMut(&ScannedGame<'_>)) -> (bool, Option<usize>) {
        let bytes = &self.buf[self.start..self.end];
        let complete = if self.eof {
            bytes.len()
        } else {
            bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1)
        };
        let (text, not_utf8) = match std::str::from_utf8(&bytes[..complete]) {
            Ok(text) => (text, None),
            Err(e) => {
                let valid = &bytes[..e.valid_up_to()];
                let lines = valid.iter().filter(|&&b| b == b'\n').count();
                let cut = valid.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
                // Valid by construction: a prefix of the valid part, cut after a newline.
                let text = std::str::from_utf8(&valid[..cut]).unwrap_or_default();
                (text, Some(self.line + lines))
            }
        };
        let last = self.eof && not_utf8.is_none() && complete == bytes.len();
        let mut scanner = PgnScanner::resume(text, (self.line, self.games), self.options)
            .with_settle_budget(self.settle_budget);
        let mut game = ScannedGame::default();
        let mut read = (0, self.line, self.games);
        loop {
            if !scanner.next_into(&mut game) {
                // No game is left; what is (comments, say) may be the start of one.
                if last || !scanner.ended_by_text() {
                    read = scanner.position();
                }
                break;
            }
            if scanner.ended_by_text() && !last {
                // The game may go on past the window: read it again with more text.
                break;
            }
            each(&game);
            read = scanner.position();
            self.settle_budget = scanner.settle_budget();
        }
        (self.start, self.line, self.games) = (self.start + read.0, read.1, read.2);
        (last, not_utf8)
    }

    /// Moves the unread bytes to the front of the buffer, or grows it when one game
    /// fills it.
    fn make_room(&mut self) -> Result<(), StreamError> {
        if self.start > 0 {
            self.buf.copy_within(self.start..self.end, 0);
            self.end -= self.start;
            self.start = 0;
        } else if self.end == self.buf.len() {
            if self.buf.len() >= MAX_GAME_BYTES {
                return Err(StreamError::TooLong { line: self.line });
            }
            let bigger = (self.buf.len() * 2).min(MAX_GAME_BYTES);
            self.buf.resize(bigger, 0);
        }
        Ok(())
    }

    /// Reads until the buffer is full or the input ends.
    fn fill(&mut self) -> Result<(), StreamError> {
        while !self.eof && self.end < self.buf.len() {
            let room = (self.buf.len() - self.end) as u64;
            let allowed = self
                .limit
                .map_or(room, |limit| room.min(limit - self.taken));
            if allowed == 0 {
                break;
            }
            let upto = self.end + allowed as usize;
            match self.input.read(&mut self.buf[self.end..upto]) {
                Ok(0) => self.eof = true,
                Ok(n) => {
                    self.end += n;
                    self.taken += n as u64;
                }
                Err(e) if e.kind() == ErrorKind::Interrupted => {}
                Err(e) => return Err(e.into()),
            }
        }
        Ok(())
    }
}

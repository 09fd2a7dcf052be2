//! Opening suites: EPD/FEN files (one position a line) and PGN files (the first plies of
//! each game), in file order or shuffled with a seed.

use std::path::Path;

use thiserror::Error;

use framework::chess::{Board, Move};
use framework::notation::pgn::read_games;

/// One opening: a starting position and the moves played from it before the engines take over.
///
/// ```
/// use runner::Opening;
/// let o = Opening::from_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1").unwrap();
/// assert!(o.moves.is_empty());
/// assert_eq!(o.board().fen(), "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
/// ```
#[derive(Debug, Clone)]
pub struct Opening {
    /// The position before the book moves (written to PGN as `FEN` when not the start).
    pub start: Board,
    /// Book moves, legal from `start`.
    pub moves: Vec<Move>,
}

impl Opening {
    /// The standard starting position with no book moves.
    pub fn startpos() -> Opening {
        Opening {
            start: Board::startpos(),
            moves: Vec::new(),
        }
    }

    /// An opening from an EPD or FEN line: the first four fields are the position; the
    /// move counters are taken from fields five and six when they are numbers (FEN), or
    /// else from the EPD operations `hmvc` (halfmove clock) and `fmvn` (fullmove number),
    /// 0 and 1 when absent. Other EPD operations (`bm ...; id ...;`) are ignored. The
    /// counters matter to bots: `ply_count()` counts the plies the fullmove number implies.
    ///
    /// ```
    /// use runner::Opening;
    /// let o = Opening::from_fen("4k3/8/8/8/8/8/4P3/4K3 w - - bm e4; id \"x\";").unwrap();
    /// assert_eq!(o.start.fen(), "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1");
    /// let o = Opening::from_fen("4k3/8/8/8/8/8/4P3/4K3 b - - hmvc 3; fmvn 9; id \"y\";").unwrap();
    /// assert_eq!((o.start.fen().as_str(), o.start.ply_count()), ("4k3/8/8/8/8/8/4P3/4K3 b - - 3 9", 17));
    /// ```
    pub fn from_fen(line: &str) -> Result<Opening, String> {
        let fields: Vec<&str> = line.split_ascii_whitespace().collect();
        if fields.len() < 4 {
            return Err(
                "expected at least 4 FEN fields (placement, side, castling, en passant)".into(),
            );
        }
        let numeric = |i: usize| fields.get(i).filter(|f| f.parse::<u32>().is_ok());
        let (half, full) = match (numeric(4), numeric(5)) {
            (Some(half), Some(full)) => (half.to_string(), full.to_string()),
            _ => {
                // The text after the four position fields.
                let operations = fields[..4]
                    .iter()
                    .fold(line, |rest, field| &rest.trim_start()[field.len()..]);
                (
                    epd_operand(operations, "hmvc")?.unwrap_or("0").to_string(),
                    epd_operand(operations, "fmvn")?.unwrap_or("1").to_string(),
                )
            }
        };
        let fen = format!("{} {half} {full}", fields[..4].join(" "));
        let start = Board::from_fen(&fen).map_err(|e| e.to_string())?;
        Ok(Opening {
            start,
            moves: Vec::new(),
        })
    }

    /// The position after the book moves.
    pub fn board(&self) -> Board {
        let mut board = self.start.clone();
        for &mv in &self.moves {
            board.make_move(mv);
        }
        board
    }
}

/// The operand of the EPD operation `opcode` (a move counter: `hmvc` or `fmvn`) among
/// `operations`, the text after a line's four position fields: `None` if it is absent, an
/// error if it is not a number. Operations end at `;`, except inside a quoted string.
fn epd_operand<'a>(operations: &'a str, opcode: &str) -> Result<Option<&'a str>, String> {
    let mut start = 0;
    let mut quoted = false;
    for (i, c) in operations.char_indices().chain([(operations.len(), ';')]) {
        match c {
            '"' => quoted = !quoted,
            ';' if !quoted => {
                let operation = operations[start..i].trim();
                start = i + 1;
                let mut words = operation.split_ascii_whitespace();
                if words.next() != Some(opcode) {
                    continue;
                }
                return match (words.next(), words.next()) {
                    (Some(n), None) if n.parse::<u32>().is_ok() => Ok(Some(n)),
                    _ => Err(format!("`{operation}`: {opcode} takes one number")),
                };
            }
            _ => {}
        }
    }
    Ok(None)
}

/// An opening file that could not be used.
#[derive(Debug, Error)]
pub enum OpeningError {
    /// The file could not be read.
    #[error("cannot read opening file {path}: {cause}")]
    Io {
        /// The file.
        path: String,
        /// The OS error.
        /// (Shown in the message, so not also a `source`: `{:#}` would show it twice.)
        cause: std::io::Error,
    },
    /// A line or game is not a valid position.
    #[error("{path}:{line}: {message}")]
    Invalid {
        /// The file.
        path: String,
        /// 1-based line number (for PGN: the line the game's error is on).
        line: usize,
        /// What is wrong.
        message: String,
    },
    /// No opening in the file.
    #[error("{path}: no openings found (expected EPD/FEN lines or PGN games)")]
    Empty {
        /// The file.
        path: String,
    },
}

/// Reads EPD/FEN lines; blank lines and lines starting with `#` are skipped.
///
/// ```
/// use runner::parse_epd;
/// let ops = parse_epd("# suite\n4k3/8/8/8/8/8/4P3/4K3 w - -\n\n", "x.epd").unwrap();
/// assert_eq!(ops.len(), 1);
/// assert!(parse_epd("nonsense w - -\n", "y.epd").unwrap_err().to_string().starts_with("y.epd:1:"));
/// ```
pub fn parse_epd(text: &str, path: &str) -> Result<Vec<Opening>, OpeningError> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let opening = Opening::from_fen(line).map_err(|message| OpeningError::Invalid {
            path: path.to_string(),
            line: i + 1,
            message: format!("{message} in `{line}`"),
        })?;
        out.push(opening);
    }
    if out.is_empty() {
        return Err(OpeningError::Empty {
            path: path.to_string(),
        });
    }
    Ok(out)
}

/// Reads PGN games and keeps the first `max_plies` plies of each (all of them for `None`).
///
/// ```
/// use runner::parse_pgn_openings;
/// let ops = parse_pgn_openings("1. e4 e5 2. Nf3 Nc6 *\n\n1. d4 d5 *\n", Some(3), "o.pgn").unwrap();
/// assert_eq!(ops.len(), 2);
/// assert_eq!(ops[0].moves.len(), 3);
/// assert_eq!(ops[1].moves.len(), 2);
/// ```
pub fn parse_pgn_openings(
    text: &str,
    max_plies: Option<usize>,
    path: &str,
) -> Result<Vec<Opening>, OpeningError> {
    let read = read_games(text);
    if let Some(err) = read.errors.first() {
        return Err(OpeningError::Invalid {
            path: path.to_string(),
            line: err.line,
            message: err.message.clone(),
        });
    }
    let out: Vec<Opening> = read
        .games
        .into_iter()
        .map(|game| {
            let mut moves = game.moves;
            if let Some(max) = max_plies {
                moves.truncate(max);
            }
            Opening {
                start: game.start,
                moves,
            }
        })
        .collect();
    if out.is_empty() {
        return Err(OpeningError::Empty {
            path: path.to_string(),
        });
    }
    Ok(out)
}

/// Loads an opening file, choosing the format by extension (`.pgn` is PGN, anything else
/// EPD/FEN).
pub fn load_openings(path: &Path, max_plies: Option<usize>) -> Result<Vec<Opening>, OpeningError> {
    let shown = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|source| OpeningError::Io {
        path: shown.clone(),
        cause: source,
    })?;
    let is_pgn = path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("pgn"));
    if is_pgn {
        parse_pgn_openings(&text, max_plies, &shown)
    } else {
        parse_epd(&text, &shown)
    }
}

/// A small seeded generator (SplitMix64): shuffles must be reproducible from `--seed`
/// across platforms and versions, which a library RNG does not promise.
///
/// ```
/// use runner::SplitMix64;
/// let mut a = SplitMix64::new(7);
/// let mut b = SplitMix64::new(7);
/// assert_eq!(a.next_u64(), b.next_u64());
/// ```
#[derive(Debug, Clone)]
pub struct SplitMix64(u64);

impl SplitMix64 {
    /// A generator from `seed`.
    pub fn new(seed: u64) -> SplitMix64 {
        SplitMix64(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A value in `0..n` (`n > 0`), without modulo bias worth caring about for shuffles.
    pub fn below(&mut self, n: usize) -> usize {
        ((self.next_u64() as u128 * n as u128) >> 64) as usize
    }
}

/// Shuffles `items` in place (Fisher–Yates) with a seeded generator.
///
/// ```
/// use runner::shuffle;
/// let mut v: Vec<u32> = (0..10).collect();
/// shuffle(&mut v, 42);
/// let mut w: Vec<u32> = (0..10).collect();
/// shuffle(&mut w, 42);
/// assert_eq!(v, w);
/// v.sort();
/// assert_eq!(v, (0..10).collect::<Vec<_>>());
/// ```
pub fn shuffle<T>(items: &mut [T], seed: u64) {
    let mut rng = SplitMix64::new(seed);
    for i in (1..items.len()).rev() {
        let j = rng.below(i + 1);
        items.swap(i, j);
    }
}

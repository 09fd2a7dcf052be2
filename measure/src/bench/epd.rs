//! EPD (Extended Position Description) records, as test suites are written: a position
//! in the first four FEN fields, then operations, each an opcode, its operands and a `;`.
//!
//! ```text
//! 2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - bm Qg6; id "WAC.001";
//! ```
//!
//! The kit reads what a test suite needs: `bm` (best moves: playing any of them solves the
//! position) and `am` (avoid moves: playing any of them fails it), both in SAN as the EPD
//! standard (PGN standard, section 16.2) asks, and `id`. Every other operation is kept as
//! text and otherwise ignored. A file with the full six FEN fields before the operations
//! (a common variant) is read as well.

use std::fmt;

use framework::chess::{Board, Move};
use framework::notation::san::parse_san;

/// Longest EPD line the reader accepts; test-suite lines are a few hundred bytes.
pub const MAX_LINE_BYTES: usize = 4096;
/// Most records read from one file.
pub const MAX_RECORDS: usize = 100_000;
/// Largest EPD file read: room for [`MAX_RECORDS`] lines of several hundred bytes.
pub const MAX_FILE_BYTES: u64 = 64 * 1024 * 1024;

/// One EPD record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EpdRecord {
    /// The line it came from (1-based).
    pub line: usize,
    /// The position.
    pub board: Board,
    /// `id`, or `line N` when the record has none.
    pub id: String,
    /// `bm`: any of these solves the position.
    pub best: Vec<Move>,
    /// `am`: any of these fails it.
    pub avoid: Vec<Move>,
    /// The SAN text of `bm` and `am`, as written, for reports.
    pub best_san: Vec<String>,
    /// See [`best_san`](Self::best_san).
    pub avoid_san: Vec<String>,
}

/// A line that could not be read as an EPD record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EpdError {
    /// The line number (1-based).
    pub line: usize,
    /// What is wrong with it.
    pub cause: String,
}

impl fmt::Display for EpdError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.cause)
    }
}

/// Every record of an EPD file's text, and an error for each line that is not one.
/// Blank lines and lines starting with `#` are skipped.
#[derive(Debug, Default)]
pub struct EpdFile {
    /// The records, in file order.
    pub records: Vec<EpdRecord>,
    /// The lines that were skipped, with why.
    pub errors: Vec<EpdError>,
}

impl EpdRecord {
    /// Whether `played` solves this record: one of the best moves (when there are any)
    /// and none of the moves to avoid.
    ///
    /// ```
    /// use measure::EpdRecord;
    /// let record = EpdRecord::parse("6k1/5ppp/8/8/8/8/8/R5K1 w - - bm Ra8#; id \"mate\";", 1).unwrap();
    /// let mate = record.board.parse_uci("a1a8").unwrap();
    /// let other = record.board.parse_uci("a1a2").unwrap();
    /// assert!(record.solved_by(mate) && !record.solved_by(other));
    /// ```
    pub fn solved_by(&self, played: Move) -> bool {
        (self.best.is_empty() || self.best.contains(&played)) && !self.avoid.contains(&played)
    }

    /// Reads one record; `line` is its line number, for the `id` default and errors.
    ///
    /// ```
    /// use measure::EpdRecord;
    /// let r = EpdRecord::parse("4k3/8/8/8/8/8/8/R3K3 w Q - am O-O-O; c0 \"x; y\";", 7).unwrap();
    /// assert_eq!((r.id.as_str(), r.avoid_san.as_slice()), ("line 7", &["O-O-O".to_string()][..]));
    /// let err = EpdRecord::parse("4k3/8/8/8/8/8/8/R3K3 w Q - bm Rb8", 3).unwrap_err();
    /// assert_eq!(err.to_string(), "line 3: operation `bm Rb8` does not end with `;`");
    /// ```
    pub fn parse(text: &str, line: usize) -> Result<EpdRecord, EpdError> {
        let error = |cause: String| EpdError { line, cause };
        if text.len() > MAX_LINE_BYTES {
            return Err(error(format!("line is longer than {MAX_LINE_BYTES} bytes")));
        }
        let (fen, rest) = split_position(text).map_err(error)?;
        let board = Board::from_fen(&fen).map_err(|e| error(format!("bad position: {e}")))?;
        let mut record = EpdRecord {
            line,
            board,
            id: format!("line {line}"),
            best: Vec::new(),
            avoid: Vec::new(),
            best_san: Vec::new(),
            avoid_san: Vec::new(),
        };
        for (opcode, operands) in operations(rest).map_err(error)? {
            match opcode.as_str() {
                "bm" | "am" => {
                    if operands.is_empty() {
                        return Err(error(format!("`{opcode}` has no move")));
                    }
                    for san in operands {
                        let mv = parse_san(&record.board, &san)
                            .map_err(|e| error(format!("`{opcode}` move: {e}")))?;
                        let (moves, texts) = if opcode == "bm" {
                            (&mut record.best, &mut record.best_san)
                        } else {
                            (&mut record.avoid, &mut record.avoid_san)
                        };
                        moves.push(mv);
                        texts.push(san);
                    }
                }
                "id" => {
                    if let Some(id) = operands.into_iter().next() {
                        record.id = id;
                    }
                }
                _ => {}
            }
        }
        Ok(record)
    }
}

/// Reads every record of `text`, keeping the good ones and an error for each bad line.
///
/// ```
/// use measure::read_epd;
/// let text = "# a comment\n\
///     6k1/5ppp/8/8/8/8/8/R5K1 w - - bm Ra8#; id \"mate\";\n\
///     6k1/5ppp/8/8/8/8/8/R5K1 w - - bm Ra9; id \"typo\";\n";
/// let file = read_epd(text);
/// assert_eq!(file.records.len(), 1);
/// assert_eq!(file.errors[0].line, 3);
/// assert!(file.errors[0].cause.contains("Ra9"), "{}", file.errors[0]);
/// ```
pub fn read_epd(text: &str) -> EpdFile {
    let mut file = EpdFile::default();
    for (index, line) in text.lines().enumerate() {
        let line_no = index + 1;
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        if file.records.len() >= MAX_RECORDS {
            file.errors.push(EpdError {
                line: line_no,
                cause: format!("more than {MAX_RECORDS} records; the rest of the file is skipped"),
            });
            break;
        }
        match EpdRecord::parse(line, line_no) {
            Ok(record) => file.records.push(record),
            Err(err) => file.errors.push(err),
        }
    }
    file
}

/// Reads the EPD file at `path` ([`read_epd`]); a file past [`MAX_FILE_BYTES`] or not
/// UTF-8 is an error naming it, read no further than the bound.
pub fn read_epd_file(path: &std::path::Path) -> anyhow::Result<EpdFile> {
    use anyhow::Context as _;
    use std::io::Read as _;
    let file =
        std::fs::File::open(path).with_context(|| format!("cannot read {}", path.display()))?;
    let mut bytes = Vec::new();
    file.take(MAX_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .with_context(|| format!("cannot read {}", path.display()))?;
    anyhow::ensure!(
        bytes.len() as u64 <= MAX_FILE_BYTES,
        "{} is larger than {} MiB, the most an EPD file may hold",
        path.display(),
        MAX_FILE_BYTES / (1024 * 1024)
    );
    let text = String::from_utf8(bytes).map_err(|err| {
        let at = err.utf8_error().valid_up_to();
        let line = err.as_bytes()[..at].iter().filter(|&&b| b == b'\n').count() + 1;
        anyhow::anyhow!(
            "{} is not UTF-8 text: line {line} (byte {at})",
            path.display()
        )
    })?;
    Ok(read_epd(&text))
}

/// The position's FEN (the four EPD fields, plus the move counters when the line has
/// them as fields five and six) and the operations after it.
fn split_position(text: &str) -> Result<(String, &str), String> {
    let mut rest = text.trim_start();
    let mut fields = Vec::new();
    while fields.len() < 6 {
        let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
        let word = &rest[..end];
        if word.is_empty() || (fields.len() >= 4 && !word.bytes().all(|b| b.is_ascii_digit())) {
            break;
        }
        fields.push(word);
        rest = rest[end..].trim_start();
    }
    match fields.len() {
        4 | 6 => Ok((fields.join(" "), rest)),
        5 => Err("a move counter without the other (FEN fields 5 and 6 go together)".into()),
        n => Err(format!(
            "only {n} of the 4 position fields (placement, side to move, castling, en passant)"
        )),
    }
}

/// The operations of a record: each opcode with its operands (quoted strings unquoted).
fn operations(text: &str) -> Result<Vec<(String, Vec<String>)>, String> {
    let mut ops = Vec::new();
    let mut words: Vec<String> = Vec::new();
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            ';' => {
                let Some((opcode, operands)) = words.split_first() else {
                    return Err("an empty operation (`;` with nothing before it)".into());
                };
                check_opcode(opcode)?;
                ops.push((opcode.clone(), operands.to_vec()));
                words.clear();
            }
            '"' => {
                let mut string = String::new();
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some(c) => string.push(c),
                        None => return Err("a string operand without its closing `\"`".into()),
                    }
                }
                words.push(string);
            }
            c if c.is_whitespace() => {}
            c => {
                let mut word = String::from(c);
                while let Some(&next) = chars.peek() {
                    if next.is_whitespace() || next == ';' || next == '"' {
                        break;
                    }
                    word.push(next);
                    chars.next();
                }
                words.push(word);
            }
        }
    }
    if !words.is_empty() {
        return Err(format!(
            "operation `{}` does not end with `;`",
            words.join(" ")
        ));
    }
    Ok(ops)
}

/// An opcode is a letter then up to 14 letters, digits or underscores (EPD standard).
fn check_opcode(opcode: &str) -> Result<(), String> {
    let mut chars = opcode.chars();
    let starts_well = chars.next().is_some_and(|c| c.is_ascii_alphabetic());
    if starts_well && opcode.len() <= 15 && chars.all(|c| c.is_ascii_alphanumeric() || c == '_') {
        Ok(())
    } else {
        Err(format!("`{opcode}` is not an EPD opcode"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const WAC_1: &str =
        "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - bm Qg6; id \"WAC.001\";";

    #[test]
    fn reads_a_published_record() {
        let r = EpdRecord::parse(WAC_1, 1).unwrap();
        assert_eq!(r.id, "WAC.001");
        assert_eq!(r.best_san, ["Qg6"]);
        assert_eq!(r.best, [r.board.parse_uci("g3g6").unwrap()]);
        assert!(r.avoid.is_empty());
        assert_eq!(
            r.board.fen(),
            "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1"
        );
    }

    #[test]
    fn several_best_moves_and_avoid_moves_with_check_marks() {
        let text = "r4q1k/p2bR1rp/2p2Q1N/5p2/5p2/2P5/PP3PPP/R5K1 w - - bm Rf7 Nf7+; am Qxg7+;";
        let r = EpdRecord::parse(text, 4).unwrap();
        assert_eq!(r.best.len(), 2);
        assert_eq!(r.avoid_san, ["Qxg7+"]);
        assert_eq!(r.id, "line 4");
        assert!(r.solved_by(r.best[1]));
        assert!(!r.solved_by(r.avoid[0]));
    }

    #[test]
    fn six_field_fen_and_unknown_operations() {
        let text = "4k3/8/8/8/8/8/8/4K2R w K - 3 40 bm O-O; c0 \"quoted ; semicolon\"; acd 12;";
        let r = EpdRecord::parse(text, 1).unwrap();
        assert!(r.best[0].is_castle());
        assert!(r.board.fen().ends_with("3 40"));
    }

    #[test]
    fn bad_lines_name_their_cause() {
        let cases = [
            ("8/8/8 w - -", "bad position"),
            ("4k3/8/8/8/8/8/8/4K3 w", "only 2 of the 4 position fields"),
            ("4k3/8/8/8/8/8/8/4K3 w - - 5 bm Kd2;", "move counter"),
            (
                "4k3/8/8/8/8/8/8/4K3 w - - bm Ke3;",
                "`bm` move: illegal SAN `Ke3`",
            ),
            ("4k3/8/8/8/8/8/8/4K3 w - - bm;", "`bm` has no move"),
            ("4k3/8/8/8/8/8/8/4K3 w - - id \"x;", "closing"),
            ("4k3/8/8/8/8/8/8/4K3 w - - ;", "empty operation"),
            ("4k3/8/8/8/8/8/8/4K3 w - - 9x Kd2;", "not an EPD opcode"),
            ("4k3/8/8/8/8/8/8/4K3 w - - bm Kd2", "does not end with `;`"),
        ];
        for (text, expected) in cases {
            let err = EpdRecord::parse(text, 9).unwrap_err();
            assert_eq!(err.line, 9);
            assert!(err.cause.contains(expected), "{text}: {err}");
        }
        let long = format!("{WAC_1} c0 \"{}\";", "x".repeat(MAX_LINE_BYTES));
        assert!(
            EpdRecord::parse(&long, 1)
                .unwrap_err()
                .cause
                .contains("longer")
        );
    }

    #[test]
    fn a_file_keeps_good_records_around_bad_lines() {
        let text = format!("{WAC_1}\n\n# note\nnot epd at all\n{WAC_1}\r\n");
        let file = read_epd(&text);
        assert_eq!(file.records.len(), 2);
        assert_eq!(file.records[1].line, 5);
        assert_eq!(file.errors.len(), 1);
        assert_eq!(file.errors[0].line, 4);
    }
}

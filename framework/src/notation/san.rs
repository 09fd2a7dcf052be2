//! Standard Algebraic Notation: `e4`, `Nbd7`, `exd6`, `e8=Q+`, `O-O-O#`.
//!
//! [`to_san`] writes the canonical form (minimal disambiguation, `x` for captures, `=` before
//! the promotion piece, `+`/`#` suffixes). [`parse_san`] reads what real game files contain,
//! which is looser than the canonical form; see its documentation for what is accepted.
//!
//! ```
//! use framework::chess::Board;
//! use framework::notation::san::{parse_san, to_san};
//!
//! let mut board = Board::startpos();
//! for text in ["e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6"] {
//!     let mv = parse_san(&board, text).unwrap();
//!     board.make_move(mv);
//! }
//! let mate = parse_san(&board, "Qxf7").unwrap();
//! assert_eq!(to_san(&board, mate), "Qxf7#");
//! ```

use thiserror::Error;

use crate::chess::{Bitboard, Board, Move, PieceType, Position, Square};

/// Why a SAN string could not be turned into a move.
///
/// ```
/// use framework::chess::Board;
/// use framework::notation::san::{parse_san, SanError};
///
/// let board = Board::startpos();
/// assert!(matches!(parse_san(&board, "Ke2"), Err(SanError::Illegal { .. })));
/// assert!(matches!(parse_san(&board, "Zz9"), Err(SanError::Malformed { .. })));
/// let err = parse_san(&board, "Nd5").unwrap_err();
/// assert!(err.to_string().contains("no white knight can move to d5"), "{err}");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum SanError {
    /// The text is not SAN at all (for example `Zz9`, `e9`, or a pawn move with a rank hint).
    #[error("malformed SAN `{san}`: {reason}")]
    Malformed {
        /// The text as given.
        san: String,
        /// What is wrong with it.
        reason: String,
    },
    /// The text is well-formed SAN, but no legal move in the position matches it.
    #[error("illegal SAN `{san}` in position {fen}: {reason}")]
    Illegal {
        /// The text as given.
        san: String,
        /// The position, as FEN.
        fen: String,
        /// Why nothing matches, as precisely as could be told.
        reason: String,
    },
    /// More than one legal move matches: the text needs more disambiguation.
    #[error("ambiguous SAN `{san}`: it could be any of {}", .candidates.join(", "))]
    Ambiguous {
        /// The text as given.
        san: String,
        /// The matching moves, each in its own (unambiguous) SAN.
        candidates: Vec<String>,
    },
}

/// SAN as methods on [`Board`], for call sites that read better that way.
///
/// ```
/// use framework::chess::Board;
/// use framework::notation::SanExt;
///
/// let board = Board::startpos();
/// let mv = board.parse_san("e4").unwrap();
/// assert_eq!(board.san(mv), "e4");
/// ```
pub trait SanExt {
    /// The SAN of the legal move `mv`; see [`to_san`].
    fn san(&self, mv: Move) -> String;
    /// The legal move written as `text`; see [`parse_san`].
    fn parse_san(&self, text: &str) -> Result<Move, SanError>;
}

impl SanExt for Board {
    fn san(&self, mv: Move) -> String {
        to_san(self, mv)
    }

    fn parse_san(&self, text: &str) -> Result<Move, SanError> {
        parse_san(self, text)
    }
}

/// Upper-case SAN letter of a piece type (`N` for knight); pawns have none in SAN but get `P`.
fn letter(piece: PieceType) -> char {
    piece.to_char().to_ascii_uppercase()
}

fn piece_name(piece: PieceType) -> &'static str {
    match piece {
        PieceType::Pawn => "pawn",
        PieceType::Knight => "knight",
        PieceType::Bishop => "bishop",
        PieceType::Rook => "rook",
        PieceType::Queen => "queen",
        PieceType::King => "king",
    }
}

fn file_char(file: i32) -> char {
    (b'a' + file as u8) as char
}

fn rank_char(rank: i32) -> char {
    (b'1' + rank as u8) as char
}

/// The file of a letter `a`..=`h`.
fn file_of(c: u8) -> i32 {
    i32::from(c - b'a')
}

/// The rank of a digit `1`..=`8`.
fn rank_of(c: u8) -> i32 {
    i32::from(c - b'1')
}

/// The SAN of `mv`, a legal move in `board`.
///
/// Disambiguation is minimal, in the order the PGN standard prescribes: the origin file if that
/// is enough, else the origin rank, else both. Captures get `x` (pawn captures start with the
/// origin file), promotions `=Q`, castling is `O-O` / `O-O-O`, and a move that gives check ends
/// in `+`, or `#` if it mates.
///
/// `mv` must be legal in `board` (as moves from [`Board::legal_moves`] and [`parse_san`] are);
/// for any other move the result is meaningless, as playing it on a [`Board`] is.
///
/// ```
/// use framework::chess::Board;
/// use framework::notation::san::to_san;
///
/// // Two knights can reach d2: the file tells them apart.
/// let board = Board::from_fen("4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1").unwrap();
/// let mv = board.parse_uci("b1d2").unwrap();
/// assert_eq!(to_san(&board, mv), "Nbd2");
/// ```
pub fn to_san(board: &Board, mv: Move) -> String {
    san_then_play(&mut board.clone(), mv)
}

/// The SAN of `mv`, playing it on `board` to find the check suffix. PGN writing walks a whole
/// game this way instead of cloning the board (and its history) for every move.
pub(crate) fn san_then_play(board: &mut Board, mv: Move) -> String {
    let mut san = String::with_capacity(8);
    if mv.is_castle() {
        san.push_str(if mv.to().file() > mv.from().file() {
            "O-O"
        } else {
            "O-O-O"
        });
    } else {
        let piece = mv.piece();
        if piece == PieceType::Pawn {
            if mv.is_capture() {
                san.push(file_char(mv.from().file()));
                san.push('x');
            }
        } else {
            san.push(letter(piece));
            san.push_str(&disambiguation(board, mv));
            if mv.is_capture() {
                san.push('x');
            }
        }
        san.push_str(&mv.to().to_string());
        if let Some(promo) = mv.promotion() {
            san.push('=');
            san.push(letter(promo));
        }
    }
    board.make_move(mv);
    if board.is_checkmate() {
        san.push('#');
    } else if board.is_in_check() {
        san.push('+');
    }
    san
}

/// The origin hint that tells `mv` apart from the other legal moves of the same piece type to
/// the same square: empty, a file, a rank, or a whole square.
fn disambiguation(board: &Board, mv: Move) -> String {
    let from = mv.from();
    let rivals: Vec<Square> = board
        .legal_moves()
        .iter()
        .filter(|m| {
            m.piece() == mv.piece() && m.to() == mv.to() && m.from() != from && !m.is_castle()
        })
        .map(|m| m.from())
        .collect();
    if rivals.is_empty() {
        String::new()
    } else if rivals.iter().all(|s| s.file() != from.file()) {
        file_char(from.file()).to_string()
    } else if rivals.iter().all(|s| s.rank() != from.rank()) {
        rank_char(from.rank()).to_string()
    } else {
        from.to_string()
    }
}

/// What a SAN string says about its move, before looking at the board.
#[derive(Debug)]
enum Pattern {
    Castle {
        long: bool,
    },
    Normal {
        piece: PieceType,
        from_file: Option<i32>,
        from_rank: Option<i32>,
        capture: bool,
        to: Square,
        promotion: Option<PieceType>,
    },
}

/// Strips the decorations real files put after a move: check and mate signs, `!`/`?`
/// annotations, and the `e.p.` / `ep` marker some sources add to en-passant captures.
fn strip_suffixes(text: &str) -> &str {
    // Most moves end in a rank digit or a promotion piece and carry nothing to strip.
    if text
        .as_bytes()
        .last()
        .is_some_and(|&b| b.is_ascii_digit() || matches!(b, b'Q' | b'R' | b'B' | b'N' | b'O'))
        && !text.starts_with(char::is_whitespace)
    {
        return text;
    }
    let mut s = text.trim();
    loop {
        let before = s.len();
        s = s.trim_end_matches(['+', '#', '!', '?']).trim_end();
        for marker in ["e.p.", "ep"] {
            // "ep" alone would be a (malformed) move, so only strip it after a destination square.
            if s.len() > marker.len() + 1
                && let Some(rest) = s.strip_suffix(marker)
                && (rest.ends_with(|c: char| c.is_ascii_digit()) || rest.ends_with(' '))
            {
                s = rest.trim_end();
            }
        }
        if s.len() == before {
            return s;
        }
    }
}

fn malformed(san: &str, reason: impl Into<String>) -> SanError {
    SanError::Malformed {
        san: san.to_string(),
        reason: reason.into(),
    }
}

// One pass over the SAN grammar (castling, piece, disambiguation, capture, square,
// promotion); split, its steps would pass the half-parsed pattern back and forth.
#[allow(clippy::too_many_lines)]
fn parse_pattern(san: &str) -> Result<Pattern, SanError> {
    let core = strip_suffixes(san);
    if core.is_empty() {
        return Err(malformed(san, "no move in it"));
    }
    if matches!(core, "--" | "Z0" | "0000" | "@@@@") {
        return Err(malformed(san, "null moves are not supported"));
    }
    match core {
        "O-O" | "0-0" | "o-o" => return Ok(Pattern::Castle { long: false }),
        "O-O-O" | "0-0-0" | "o-o-o" => return Ok(Pattern::Castle { long: true }),
        _ => {}
    }
    if !core.is_ascii() {
        return Err(malformed(san, "unexpected non-ASCII character"));
    }
    let mut bytes = core.as_bytes();

    // Piece letters are upper case only: a lower-case `b` is the b-file.
    let piece = match bytes[0] {
        b'N' => Some(PieceType::Knight),
        b'B' => Some(PieceType::Bishop),
        b'R' => Some(PieceType::Rook),
        b'Q' => Some(PieceType::Queen),
        b'K' => Some(PieceType::King),
        b'P' => Some(PieceType::Pawn),
        _ => None,
    };
    if piece.is_some() {
        bytes = &bytes[1..];
    }
    let piece = piece.unwrap_or(PieceType::Pawn);

    // Promotion: `e8=Q`, `e8Q`, `e8q`, `e8(Q)`, `e8/Q`, all seen in the wild.
    let mut promotion = None;
    if let Some((&last, rest)) = bytes.split_last() {
        let (last, rest) = if last == b')' {
            match rest.split_last() {
                Some((&inner, [head @ .., b'('])) => (inner, head),
                _ => return Err(malformed(san, "unbalanced parenthesis")),
            }
        } else {
            (last, rest)
        };
        // Only a letter right after a rank digit (or `=`, `/`) is a promotion: `Rb` is not.
        let after_square = matches!(rest.last(), Some(b'1'..=b'8' | b'=' | b'/'));
        if after_square {
            if let Some(p) = promotion_piece(last) {
                promotion = Some(p);
                bytes = rest
                    .strip_suffix(b"=")
                    .or_else(|| rest.strip_suffix(b"/"))
                    .unwrap_or(rest);
            } else if matches!(last, b'K' | b'P' | b'k' | b'p') {
                return Err(malformed(
                    san,
                    "a pawn can only promote to a queen, rook, bishop or knight",
                ));
            }
        }
    }

    let [head @ .., f, r] = bytes else {
        return Err(malformed(san, "no destination square"));
    };
    let to = parse_square(*f, *r).ok_or_else(|| {
        malformed(
            san,
            format!("`{}{}` is not a square", *f as char, *r as char),
        )
    })?;

    let (head, capture) = match head {
        [rest @ .., b'x' | b':'] => (rest, true),
        _ => (head, false),
    };
    let (from_file, from_rank) = match head {
        [] => (None, None),
        [c @ b'a'..=b'h'] => (Some(file_of(*c)), None),
        [c @ b'1'..=b'8'] => (None, Some(rank_of(*c))),
        [f, r] if parse_square(*f, *r).is_some() => (Some(file_of(*f)), Some(rank_of(*r))),
        _ => {
            let hint = String::from_utf8_lossy(head);
            return Err(malformed(
                san,
                format!("`{hint}` is neither a file, a rank nor a square"),
            ));
        }
    };
    if piece == PieceType::Pawn && from_rank.is_some() {
        return Err(malformed(
            san,
            "a pawn move names only its origin file (this looks like UCI, not SAN)",
        ));
    }
    if piece != PieceType::Pawn && promotion.is_some() {
        return Err(malformed(san, "only pawns promote"));
    }
    Ok(Pattern::Normal {
        piece,
        from_file,
        from_rank,
        capture,
        to,
        promotion,
    })
}

/// The piece a SAN move's first byte names: a piece's letter, or a file's for a pawn.
static LEAD: [Option<PieceType>; 256] = {
    let mut table = [None; 256];
    let mut file = b'a';
    while file <= b'h' {
        table[file as usize] = Some(PieceType::Pawn);
        file += 1;
    }
    table[b'N' as usize] = Some(PieceType::Knight);
    table[b'B' as usize] = Some(PieceType::Bishop);
    table[b'R' as usize] = Some(PieceType::Rook);
    table[b'Q' as usize] = Some(PieceType::Queen);
    table[b'K' as usize] = Some(PieceType::King);
    table
};

/// The pattern of SAN as writers write it (`Nf3`, `exd5`, `R1e2`, `e8=Q+`), read in one
/// pass without building an error; `None` for anything else, which [`parse_pattern`]
/// reads (or explains). Where both read a text, they agree.
fn plain_pattern(text: &str) -> Option<Pattern> {
    let bytes = text.as_bytes();
    let bytes = match bytes {
        [rest @ .., b'+' | b'#'] => rest,
        _ => bytes,
    };
    // A table, not a `match`: its jump on the letter is a guess a reader of real games
    // gets wrong about every other move.
    let piece = LEAD[usize::from(*bytes.first()?)]?;
    let rest = &bytes[usize::from(piece != PieceType::Pawn)..];
    let (rest, promotion) = match rest {
        [head @ .., b'=', p] if piece == PieceType::Pawn => (head, Some(promotion_piece(*p)?)),
        _ => (rest, None),
    };
    let [head @ .., f @ b'a'..=b'h', r @ b'1'..=b'8'] = rest else {
        return None;
    };
    let (head, capture) = match head {
        [h @ .., b'x'] => (h, true),
        _ => (head, false),
    };
    let (from_file, from_rank) = match head {
        [] => (None, None),
        [c @ b'a'..=b'h'] => (Some(file_of(*c)), None),
        [c @ b'1'..=b'8'] if piece != PieceType::Pawn => (None, Some(rank_of(*c))),
        [c @ b'a'..=b'h', d @ b'1'..=b'8'] if piece != PieceType::Pawn => {
            (Some(file_of(*c)), Some(rank_of(*d)))
        }
        _ => return None,
    };
    Some(Pattern::Normal {
        piece,
        from_file,
        from_rank,
        capture,
        to: Square::new(file_of(*f), rank_of(*r)),
        promotion,
    })
}

fn promotion_piece(c: u8) -> Option<PieceType> {
    match c.to_ascii_uppercase() {
        b'Q' => Some(PieceType::Queen),
        b'R' => Some(PieceType::Rook),
        b'B' => Some(PieceType::Bishop),
        b'N' => Some(PieceType::Knight),
        _ => None,
    }
}

fn parse_square(file: u8, rank: u8) -> Option<Square> {
    match (file, rank) {
        (b'a'..=b'h', b'1'..=b'8') => Some(Square::new(file_of(file), rank_of(rank))),
        _ => None,
    }
}

/// The legal move in `board` that `text` denotes.
///
/// Accepted, beyond canonical SAN:
/// - trailing `+`, `#`, `!`, `?` in any combination (not checked against the position), and an
///   `e.p.` / `ep` marker after en-passant captures;
/// - `0-0` / `0-0-0` (zeros) for castling, and `Kg1`-style king moves that castle;
/// - promotions written `e8Q`, `e8=q`, `e8/Q` or `e8(Q)`;
/// - redundant disambiguation (`Ng1f3`), and missing `x` on captures (`Nf6`, `ed5` for `Nxf6`,
///   `exd5`), as long as exactly one legal move matches;
/// - `:` instead of `x`, and an explicit `P` for pawns.
///
/// Rejected: a pawn move without an origin file must be a push (`e5` never means `dxe5`); an `x`
/// on a move that captures nothing; a pawn reaching the last rank without a promotion piece;
/// UCI (`e2e4`) and long algebraic (`Ng1-f3`) notation; lower-case piece letters.
///
/// ```
/// use framework::chess::Board;
/// use framework::notation::san::{parse_san, SanError};
///
/// let board = Board::startpos();
/// assert_eq!(parse_san(&board, "Nf3!?").unwrap(), parse_san(&board, "Ng1f3").unwrap());
///
/// // Knights on b1 and f1 can both reach d2.
/// let board = Board::from_fen("4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1").unwrap();
/// match parse_san(&board, "Nd2") {
///     Err(SanError::Ambiguous { candidates, .. }) => assert_eq!(candidates, ["Nbd2", "Nfd2"]),
///     other => panic!("{other:?}"),
/// }
/// ```
pub fn parse_san(board: &Board, text: &str) -> Result<Move, SanError> {
    let pattern = parse_pattern(text)?;
    let legal = board.legal_moves();
    let illegal = |reason: String| SanError::Illegal {
        san: text.to_string(),
        fen: board.fen(),
        reason,
    };
    let side = board.side_to_move();

    let (piece, from_file, from_rank, capture, to, promotion) = match pattern {
        Pattern::Castle { long } => {
            let found = legal
                .iter()
                .copied()
                .find(|m| m.is_castle() && (m.to().file() < m.from().file()) == long);
            return found.ok_or_else(|| {
                let side_name = if long { "queenside" } else { "kingside" };
                illegal(format!("{side} cannot castle {side_name} here"))
            });
        }
        Pattern::Normal {
            piece,
            from_file,
            from_rank,
            capture,
            to,
            promotion,
        } => (piece, from_file, from_rank, capture, to, promotion),
    };

    let reaches = |m: &&Move| {
        m.piece() == piece
            && m.to() == to
            && (piece != PieceType::Pawn || from_file.is_some() || m.from().file() == to.file())
    };
    let hinted = |m: &&Move| {
        from_file.is_none_or(|f| m.from().file() == f)
            && from_rank.is_none_or(|r| m.from().rank() == r)
    };
    let matches: Vec<Move> = legal
        .iter()
        .filter(reaches)
        .filter(hinted)
        .filter(|m| m.promotion() == promotion)
        .copied()
        .collect();

    match matches.as_slice() {
        [mv] => {
            if capture && !mv.is_capture() {
                Err(illegal(format!("it claims a capture, but {to} is empty")))
            } else {
                Ok(*mv)
            }
        }
        [] => {
            let name = piece_name(piece);
            let reaching: Vec<&Move> = legal.iter().filter(reaches).collect();
            let reason = if reaching.is_empty() {
                let mut reason = format!("no {side} {name} can move to {to}");
                if board.is_in_check() {
                    reason.push_str(&format!(" ({side} is in check)"));
                }
                reason
            } else if !reaching.iter().any(hinted) {
                let mut hint = String::new();
                hint.extend(from_file.map(file_char));
                hint.extend(from_rank.map(rank_char));
                format!("no {side} {name} on {hint} can move to {to}")
            } else if promotion.is_none() {
                format!("a pawn reaching {to} must promote: name the piece, as in `{to}=Q`")
            } else {
                format!("a {name} moving to {to} does not promote")
            };
            Err(illegal(reason))
        }
        several => Err(SanError::Ambiguous {
            san: text.to_string(),
            candidates: several.iter().map(|&m| to_san(board, m)).collect(),
        }),
    }
}

/// [`parse_san`] for bulk reading: the same move, found by looking only at the moves of
/// the named piece to the named square (see `Position::unique_move_to`). Anything but a
/// clean match (an error, an ambiguity) is left to `parse_san`, so errors read exactly as
/// it words them.
pub(crate) fn resolve_san(position: &Position, text: &str) -> Result<Move, SanError> {
    find_san(position, text).map_or_else(|| parse_san(&position.to_board(), text), Ok)
}

/// The move `text` denotes when exactly one legal move matches it cleanly; `None` for
/// anything that needs explaining (which [`parse_san`] does). No error is built here, so
/// the common case moves no error values around.
pub(crate) fn find_san(position: &Position, text: &str) -> Option<Move> {
    let pattern = match plain_pattern(text) {
        Some(pattern) => pattern,
        None => parse_pattern(text).ok()?,
    };
    match pattern {
        Pattern::Normal {
            piece,
            from_file,
            from_rank,
            capture,
            to,
            promotion,
        } => {
            // Only origins on the named file and rank are tried; a pawn without a file
            // pushes, so it comes from its own file.
            let file = from_file.or((piece == PieceType::Pawn).then(|| to.file()));
            let mut hints = !0u64;
            if let Some(f) = file {
                hints &= 0x0101_0101_0101_0101 << f;
            }
            if let Some(r) = from_rank {
                hints &= 0xff << (8 * r);
            }
            position
                .unique_move_to(piece, to, promotion, Bitboard(hints))
                .filter(|mv| !capture || mv.is_capture())
        }
        Pattern::Castle { long } => {
            let king = position.king_square(position.side_to_move());
            let to = Square::new(if long { 2 } else { 6 }, king.rank());
            position
                .unique_move_to(PieceType::King, to, None, Bitboard(!0))
                .filter(|mv| mv.is_castle())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `resolve_san` must read every text exactly as `parse_san` does: the moves of each
    /// position in canonical SAN and looser forms, and every piece to every square (legal
    /// or not, ambiguous or not), errors included, over random games with castling, en
    /// passant and promotions.
    #[test]
    fn resolve_san_reads_as_parse_san() {
        let starts = [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            "4k3/8/8/8/8/2Q5/8/2Q3K1 w - - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        ];
        let mut state = 7u64;
        for fen in starts {
            for _ in 0..3 {
                let mut board = Board::from_fen(fen).unwrap();
                for _ in 0..120 {
                    let legal = board.legal_moves();
                    if legal.is_empty() {
                        break;
                    }
                    for text in texts(&board) {
                        assert_eq!(
                            resolve_san(&Position::of(&board), &text),
                            parse_san(&board, &text),
                            "{text} in {}",
                            board.fen()
                        );
                    }
                    state = state
                        .wrapping_mul(6_364_136_223_846_793_005)
                        .wrapping_add(1);
                    board.make_move(legal[(state >> 33) as usize % legal.len()]);
                }
            }
        }
    }

    /// The short legality check of `Position::unique_move_to` refuses what the rules
    /// refuse: a pinned piece leaving its line, a move that does not answer a check, a
    /// slider through a piece, a pawn pushed into or over a piece, a king stepping where
    /// it would be attacked (along the line it leaves, too), and reads the answers.
    #[test]
    fn reading_by_destination_refuses_pins_checks_and_blocked_pawns() {
        let cases = [
            // The e2 knight is pinned by the e8 rook; the rook may slide along the pin.
            ("4r1k1/8/8/8/8/8/4N3/4K3 w - - 0 1", "Nc3", false),
            ("4r1k1/8/8/8/8/8/4R3/4K3 w - - 0 1", "Rxe8+", true),
            ("4r1k1/8/8/8/8/8/4R3/4K3 w - - 0 1", "Rd2", false),
            // The b4 bishop checks: only a block on c3 or d2, or a king move, answers it.
            ("4k3/8/8/8/1b6/8/8/R3K1N1 w - - 0 1", "Nf3", false),
            ("4k3/8/8/8/1b6/8/8/R1N1K3 w - - 0 1", "Nd3", false),
            ("4k3/8/8/8/1b6/8/8/R2NK3 w - - 0 1", "Nc3", true),
            ("4k3/8/8/8/1b6/8/8/R3K3 w - - 0 1", "Rb1", false),
            // Pawns: blocked, over a piece, a capture of nothing, a promotion unnamed.
            ("4k3/8/8/8/8/4p3/4P3/4K3 w - - 0 1", "e3", false),
            ("4k3/8/8/8/8/4p3/4P3/4K3 w - - 0 1", "e4", false),
            ("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", "dxe3", false),
            ("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "b8", false),
            ("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "b8=N", true),
            ("4k3/8/8/8/8/8/3pP3/4K3 w - - 0 1", "Kxd2", true),
            // Sliders: a piece in the path stops them.
            ("4k3/8/8/8/8/8/8/R1N1K3 w - - 0 1", "Rd1", false),
            ("4k3/8/8/8/8/8/8/R1N1K3 w - - 0 1", "Rb1", true),
            ("4k3/8/8/8/8/8/1P6/B3K3 w - - 0 1", "Bc3", false),
            ("4k3/8/8/8/8/8/8/Q3K3 w - - 0 1", "Qd4", true),
            // Kings: along the rook's line past the king's own square, beside a pawn's
            // capture or the other king, is attacked.
            ("4k3/8/8/8/8/8/8/r3K3 w - - 0 1", "Kf1", false),
            ("4k3/8/8/8/8/8/8/r3K3 w - - 0 1", "Ke2", true),
            ("4k3/8/8/8/8/4p3/8/4K3 w - - 0 1", "Kd2", false),
            ("4k3/8/8/8/8/4p3/8/4K3 w - - 0 1", "Ke2", true),
            ("8/8/8/8/8/4k3/8/4K3 w - - 0 1", "Ke2", false),
            ("8/8/8/8/8/4k3/8/4K3 w - - 0 1", "Kd1", true),
        ];
        for (fen, text, legal) in cases {
            let board = Board::from_fen(fen).unwrap();
            let found = find_san(&Position::of(&board), text);
            let parsed = parse_san(&board, text);
            assert_eq!(found.is_some(), legal, "{text} in {fen}: {parsed:?}");
            assert_eq!(parsed.is_ok(), legal, "{text} in {fen}");
            if let Some(mv) = found {
                assert_eq!(Ok(mv), parsed);
            }
        }
    }

    /// Where the short path reads a text, it reads what the full grammar reads.
    #[test]
    fn the_plain_pattern_agrees_with_the_full_grammar() {
        let board = Board::from_fen("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1").unwrap();
        let mut read = 0;
        let odd = [
            "e8=Q+", "bxa8=n#", "Ng1f3", "R1e2", "e2e4", "Qe8=Q", "Nf3++", "Pe4", "e8Q", "Kxe2",
        ];
        for text in texts(&board).iter().map(String::as_str).chain(odd) {
            if let Some(plain) = plain_pattern(text) {
                read += 1;
                let full = parse_pattern(text).unwrap();
                assert_eq!(format!("{plain:?}"), format!("{full:?}"), "{text}");
            }
        }
        assert!(read > 300, "{read}");
    }

    /// Texts to read in `board`: each legal move in SAN, without its `x`, with its whole
    /// origin square and as `0-0`; then every piece letter to every square, and promotions.
    fn texts(board: &Board) -> Vec<String> {
        let mut out = Vec::new();
        for mv in board.legal_moves() {
            let san = to_san(board, mv);
            out.push(san.replace('x', ""));
            out.push(san.replace("O-O", "0-0"));
            if mv.piece() != PieceType::Pawn && !mv.is_castle() {
                out.push(format!("{}{}{}", letter(mv.piece()), mv.from(), mv.to()));
            }
            out.push(san);
        }
        for sq in 0..64u8 {
            let to = Square::from_index(sq);
            for piece in ["", "N", "B", "R", "Q", "K"] {
                out.push(format!("{piece}{to}"));
                out.push(format!("{piece}x{to}"));
            }
            for file in 'a'..='h' {
                out.push(format!("{file}x{to}"));
                out.push(format!("{file}x{to}=Q"));
            }
            out.push(format!("{to}=N"));
        }
        out
    }
}

//! FEN parsing, with errors that name the offending field.

use cozy_chess as cz;
use thiserror::Error;

use super::attacks::{to_cz_color, to_cz_sq};
use super::{Color, Piece, PieceType, Square, attacks};

/// Why [`Board::from_fen`](super::Board::from_fen) rejected a string. Each variant names
/// the field at fault and carries the offending text or a reason.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum FenError {
    /// Not 4 to 6 whitespace-separated fields.
    #[error(
        "FEN has {0} fields; expected 6 (placement, side to move, castling, en passant, halfmove clock, fullmove number), or the first 4"
    )]
    FieldCount(usize),
    /// The piece placement field is malformed.
    #[error("invalid piece placement: {0}")]
    Placement(String),
    /// The side-to-move field is not `w` or `b`.
    #[error("invalid side to move `{0}`: expected `w` or `b`")]
    SideToMove(String),
    /// The castling field is malformed or claims a right the placement contradicts.
    #[error("invalid castling rights: {0}")]
    Castling(String),
    /// The en-passant field is malformed or impossible in the position.
    #[error("invalid en passant square: {0}")]
    EnPassant(String),
    /// The halfmove clock is not a non-negative integer.
    #[error("invalid halfmove clock `{0}`: expected a non-negative integer")]
    HalfmoveClock(String),
    /// The fullmove number is not a positive integer.
    #[error("invalid fullmove number `{0}`: expected a positive integer")]
    FullmoveNumber(String),
    /// The fields parse but describe an impossible position.
    #[error("invalid position: {0}")]
    InvalidPosition(String),
}

pub(crate) struct ParsedFen {
    pub inner: cz::Board,
    pub halfmove: u32,
    pub start_ply: u32,
}

#[inline(always)]
pub(crate) fn to_cz_piece(p: PieceType) -> cz::Piece {
    match p {
        PieceType::Pawn => cz::Piece::Pawn,
        PieceType::Knight => cz::Piece::Knight,
        PieceType::Bishop => cz::Piece::Bishop,
        PieceType::Rook => cz::Piece::Rook,
        PieceType::Queen => cz::Piece::Queen,
        PieceType::King => cz::Piece::King,
    }
}

fn parse_placement(s: &str) -> Result<[Option<Piece>; 64], FenError> {
    let mut squares = [None; 64];
    let rows: Vec<&str> = s.split('/').collect();
    if rows.len() != 8 {
        return Err(FenError::Placement(format!(
            "`{s}` has {} ranks, expected 8",
            rows.len()
        )));
    }
    for (i, row) in rows.iter().enumerate() {
        let rank = 7 - i as u8;
        let mut file = 0u8;
        for c in row.chars() {
            if let Some(d) = c.to_digit(10).filter(|d| (1..=8).contains(d)) {
                file += d as u8;
            } else if let Some(p) = Piece::from_char(c) {
                if file < 8 {
                    squares[usize::from(rank * 8 + file)] = Some(p);
                }
                file += 1;
            } else {
                return Err(FenError::Placement(format!(
                    "unexpected character `{c}` in rank {}",
                    rank + 1
                )));
            }
            if file > 8 {
                return Err(FenError::Placement(format!(
                    "rank {} (`{row}`) has more than 8 squares",
                    rank + 1
                )));
            }
        }
        if file != 8 {
            return Err(FenError::Placement(format!(
                "rank {} (`{row}`) has {file} squares, expected 8",
                rank + 1
            )));
        }
    }
    Ok(squares)
}

fn check_position(squares: &[Option<Piece>; 64], stm: Color) -> Result<(), FenError> {
    let mut occ = super::Bitboard::EMPTY;
    for (i, p) in squares.iter().enumerate() {
        if p.is_some() {
            occ.set(Square::at(i as u8));
        }
    }
    for color in Color::ALL {
        let kings: Vec<Square> = (0..64u8)
            .map(Square::at)
            .filter(|s| squares[s.index()] == Some(Piece::new(PieceType::King, color)))
            .collect();
        if kings.len() != 1 {
            return Err(FenError::InvalidPosition(format!(
                "{color} has {} kings, expected 1",
                kings.len()
            )));
        }
        let count = squares
            .iter()
            .flatten()
            .filter(|p| p.color() == color)
            .count();
        let pawns = squares
            .iter()
            .flatten()
            .filter(|p| **p == Piece::new(PieceType::Pawn, color))
            .count();
        if count > 16 || pawns > 8 {
            return Err(FenError::InvalidPosition(format!(
                "{color} has {count} pieces and {pawns} pawns"
            )));
        }
        if color != stm {
            // The side that just moved cannot have left its king in check.
            let k = kings[0];
            for (i, p) in squares.iter().enumerate() {
                let Some(p) = p else { continue };
                if p.color() != color
                    && attacks::piece_attacks(p.piece_type(), Square::at(i as u8), occ, p.color())
                        .contains(k)
                {
                    return Err(FenError::InvalidPosition(format!(
                        "{color} is in check but it is {stm}'s turn"
                    )));
                }
            }
        }
    }
    for file in 0..8 {
        for rank in [0, 7] {
            let sq = Square::new(file, rank);
            if squares[sq.index()].is_some_and(|p| p.piece_type() == PieceType::Pawn) {
                return Err(FenError::InvalidPosition(format!("pawn on {sq}")));
            }
        }
    }
    Ok(())
}

// The six FEN fields in order, each with its own precise error; one field per block.
#[allow(clippy::too_many_lines)]
pub(crate) fn parse(fen: &str) -> Result<ParsedFen, FenError> {
    let fields: Vec<&str> = fen.split_whitespace().collect();
    if !(4..=6).contains(&fields.len()) {
        return Err(FenError::FieldCount(fields.len()));
    }
    let squares = parse_placement(fields[0])?;
    let stm = match fields[1] {
        "w" => Color::White,
        "b" => Color::Black,
        s => return Err(FenError::SideToMove(s.to_string())),
    };
    check_position(&squares, stm)?;

    let mut builder = cz::BoardBuilder::empty();
    for (i, p) in squares.iter().enumerate() {
        if let Some(p) = p {
            *builder.square_mut(to_cz_sq(Square::at(i as u8))) =
                Some((to_cz_piece(p.piece_type()), to_cz_color(p.color())));
        }
    }
    builder.side_to_move = to_cz_color(stm);

    let castling = fields[2];
    if castling != "-" {
        if castling.is_empty() || castling.len() > 4 {
            return Err(FenError::Castling(format!(
                "`{castling}`: expected `-` or letters from `KQkq`"
            )));
        }
        for (i, c) in castling.char_indices() {
            if castling[..i].contains(c) {
                return Err(FenError::Castling(format!("`{castling}` repeats `{c}`")));
            }
            let (color, short) = match c {
                'K' => (Color::White, true),
                'Q' => (Color::White, false),
                'k' => (Color::Black, true),
                'q' => (Color::Black, false),
                _ => {
                    return Err(FenError::Castling(format!(
                        "`{castling}`: unexpected `{c}` (only standard-chess `KQkq` rights are supported)"
                    )));
                }
            };
            let rank = if color.is_white() { 0 } else { 7 };
            let king_sq = Square::new(4, rank);
            let rook_sq = Square::new(if short { 7 } else { 0 }, rank);
            if squares[king_sq.index()] != Some(Piece::new(PieceType::King, color))
                || squares[rook_sq.index()] != Some(Piece::new(PieceType::Rook, color))
            {
                return Err(FenError::Castling(format!(
                    "`{c}` needs the {color} king on {king_sq} and a rook on {rook_sq}"
                )));
            }
            let rights = builder.castle_rights_mut(to_cz_color(color));
            let file = if short { cz::File::H } else { cz::File::A };
            if short {
                rights.short = Some(file);
            } else {
                rights.long = Some(file);
            }
        }
    }

    let ep = fields[3];
    if ep != "-" {
        let sq: Square = ep
            .parse()
            .map_err(|_| FenError::EnPassant(format!("`{ep}` is not `-` or a square")))?;
        let want_rank = if stm.is_white() { 5 } else { 2 };
        if sq.rank() != want_rank {
            return Err(FenError::EnPassant(format!(
                "`{ep}` must be on rank {} when {stm} is to move",
                want_rank + 1
            )));
        }
        builder.en_passant = Some(to_cz_sq(sq));
    }

    let halfmove: u32 = match fields.get(4) {
        None => 0,
        Some(s) => s
            .parse()
            .map_err(|_| FenError::HalfmoveClock(s.to_string()))?,
    };
    let fullmove: u32 = match fields.get(5) {
        None => 1,
        Some(s) => match s.parse::<u32>() {
            Ok(n) if (1..=1_000_000).contains(&n) => n,
            _ => return Err(FenError::FullmoveNumber(s.to_string())),
        },
    };
    // cozy caps its clock at 100; the real count is kept by the Board.
    builder.halfmove_clock = halfmove.min(100) as u8;
    builder.fullmove_number = fullmove.min(u16::MAX as u32) as u16;

    let inner = builder.build().map_err(|e| match e {
        cz::BoardBuilderError::InvalidEnPassant => FenError::EnPassant(format!(
            "`{ep}` is impossible: no double pawn push can have just reached it"
        )),
        cz::BoardBuilderError::InvalidCastlingRights => {
            FenError::Castling(format!("`{castling}` is impossible"))
        }
        e => FenError::InvalidPosition(e.to_string()),
    })?;
    let start_ply = (fullmove - 1) * 2 + u32::from(stm == Color::Black);
    Ok(ParsedFen {
        inner,
        halfmove,
        start_ply,
    })
}

//! Game results.

use std::fmt;

use super::Color;

/// Why a game is drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DrawReason {
    /// The same position (placement, side to move, castling rights and en-passant
    /// possibility) occurred for the third time.
    Repetition,
    /// 100 half-moves (fifty moves each) without a capture or pawn move.
    FiftyMove,
    /// Neither side can mate: K v K, K+minor v K, or K+B v K+B with bishops on same-coloured squares.
    InsufficientMaterial,
    /// The side to move has no legal move and is not in check.
    Stalemate,
}

impl fmt::Display for DrawReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            DrawReason::Repetition => "threefold repetition",
            DrawReason::FiftyMove => "fifty-move rule",
            DrawReason::InsufficientMaterial => "insufficient material",
            DrawReason::Stalemate => "stalemate",
        })
    }
}

/// How a finished game ended, as ruled by [`Board::outcome`](super::Board::outcome).
///
/// ```
/// use framework::prelude::*;
/// // Fool's mate.
/// let mut b = Board::startpos();
/// for m in ["f2f3", "e7e5", "g2g4", "d8h4"] {
///     let mv = b.parse_uci(m).unwrap();
///     b.make_move(mv);
/// }
/// assert_eq!(b.outcome(), Some(Outcome::Checkmate { winner: Color::Black }));
/// assert_eq!(b.outcome().unwrap().winner(), Some(Color::Black));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// `winner` checkmated the other side.
    Checkmate {
        /// The side that delivered mate.
        winner: Color,
    },
    /// The game is drawn.
    Draw(DrawReason),
}

impl Outcome {
    /// The winning side, or `None` for a draw.
    pub const fn winner(self) -> Option<Color> {
        match self {
            Outcome::Checkmate { winner } => Some(winner),
            Outcome::Draw(_) => None,
        }
    }

    /// `true` for a draw.
    pub const fn is_drawn(self) -> bool {
        matches!(self, Outcome::Draw(_))
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outcome::Checkmate { winner } => write!(f, "{winner} wins by checkmate"),
            Outcome::Draw(r) => write!(f, "draw by {r}"),
        }
    }
}

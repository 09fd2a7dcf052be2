//! Rulings the arbiter makes beyond the rules of play: who can still mate when a flag
//! falls, and optional adjudication by engine scores.
//!
//! The rules themselves (mate, stalemate, repetition, fifty moves, insufficient
//! material) are [`Board::outcome`]'s; nothing here second-guesses them.

use framework::chess::{Bitboard, Board, Color, PieceType};

use super::engine::Score;

/// Whether `color` could possibly checkmate the opponent by *some* legal sequence of
/// moves (FIDE article 6.9: a flag fall is a draw when the opponent cannot mate).
///
/// The test is sound (it only answers `false` when mate is truly impossible) but not
/// complete. It recognises:
/// - `color` has a lone king;
/// - `color` has king and one knight or one bishop, and the opponent a lone king
///   (with any other enemy piece a helpmate exists, e.g. a self-blocked king in a corner);
/// - every piece besides the kings is a bishop, all of them on squares of one colour
///   (no square of the other colour can ever be attacked, so the king always has an escape
///   or no check is possible).
///
/// Dead positions of other kinds (locked pawn chains, say) answer `true`: the flag fall
/// then counts as a loss, the conventional ruling of match runners.
///
/// ```
/// use framework::chess::{Board, Color};
/// use runner::can_possibly_mate;
/// let kn_vs_k = Board::from_fen("8/8/4k3/8/8/3N4/8/4K3 w - - 0 1").unwrap();
/// assert!(!can_possibly_mate(&kn_vs_k, Color::White));
/// assert!(!can_possibly_mate(&kn_vs_k, Color::Black));
/// let kn_vs_kp = Board::from_fen("8/4p3/4k3/8/8/3N4/8/4K3 w - - 0 1").unwrap();
/// assert!(can_possibly_mate(&kn_vs_kp, Color::White));
/// assert!(can_possibly_mate(&Board::startpos(), Color::Black));
/// ```
pub fn can_possibly_mate(board: &Board, color: Color) -> bool {
    let own = non_king(board, color);
    if own.is_empty() {
        return false;
    }
    let theirs = non_king(board, !color);
    let minors = board.pieces(PieceType::Knight, color) | board.pieces(PieceType::Bishop, color);
    if own.count() == 1 && minors == own && theirs.is_empty() {
        return false;
    }
    let all = own | theirs;
    let bishops = board.pieces_of_type(PieceType::Bishop);
    if all == bishops
        && ((all & Bitboard::LIGHT_SQUARES).is_empty() || (all & Bitboard::DARK_SQUARES).is_empty())
    {
        return false;
    }
    true
}

fn non_king(board: &Board, color: Color) -> Bitboard {
    let mut bb = Bitboard::EMPTY;
    for pt in [
        PieceType::Pawn,
        PieceType::Knight,
        PieceType::Bishop,
        PieceType::Rook,
        PieceType::Queen,
    ] {
        bb |= board.pieces(pt, color);
    }
    bb
}

/// Optional adjudication by engine scores, in the manner of cutechess/fastchess.
///
/// ```
/// use runner::AdjudicationRules;
/// let rules = AdjudicationRules::default();
/// assert!(rules.draw.is_none() && rules.resign.is_none() && rules.max_plies.is_none());
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct AdjudicationRules {
    /// Draw when, from move `move_number` on, both engines report |score| ≤ `score_cp`
    /// for `move_count` consecutive moves each.
    pub draw: Option<DrawRule>,
    /// Resign for a side whose engine reports score ≤ −`score_cp` for `move_count`
    /// consecutive moves while its opponent agrees (≥ `score_cp`).
    pub resign: Option<ResignRule>,
    /// Draw once the game reaches this many plies (counted from the opening position).
    pub max_plies: Option<u32>,
}

/// See [`AdjudicationRules::draw`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DrawRule {
    /// Earliest full-move number at which a draw may be adjudicated.
    pub move_number: u32,
    /// Consecutive moves per side.
    pub move_count: u32,
    /// Score threshold in centipawns.
    pub score_cp: i32,
}

/// See [`AdjudicationRules::resign`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ResignRule {
    /// Consecutive moves per side.
    pub move_count: u32,
    /// Score threshold in centipawns.
    pub score_cp: i32,
}

/// Tracks scores through a game and says when an adjudication rule fires.
///
/// ```
/// use framework::chess::Color;
/// use runner::{AdjudicationRules, Adjudicator, ResignRule, Score};
/// let rules = AdjudicationRules { resign: Some(ResignRule { move_count: 2, score_cp: 500 }), ..Default::default() };
/// let mut adj = Adjudicator::new(rules);
/// let mut ruling = None;
/// for _ in 0..2 {
///     ruling = ruling.or(adj.record(Color::White, Some(Score::Cp(900)), 10));
///     ruling = ruling.or(adj.record(Color::Black, Some(Score::Cp(-900)), 10));
/// }
/// assert_eq!(ruling, Some(runner::Ruling::Resign { loser: Color::Black }));
/// ```
#[derive(Debug, Clone)]
pub struct Adjudicator {
    rules: AdjudicationRules,
    draw_streak: [u32; 2],
    win_streak: [u32; 2],
    lose_streak: [u32; 2],
}

/// What an [`Adjudicator`] decided.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ruling {
    /// Adjudicated draw.
    Draw,
    /// `loser` is adjudicated lost.
    Resign {
        /// The side that loses.
        loser: Color,
    },
}

fn cp_of(score: Option<Score>) -> Option<i32> {
    match score? {
        Score::Cp(cp) => Some(cp),
        Score::Mate(m) => Some(if m > 0 { 100_000 } else { -100_000 }),
    }
}

impl Adjudicator {
    /// A tracker for one game.
    pub fn new(rules: AdjudicationRules) -> Adjudicator {
        Adjudicator {
            rules,
            draw_streak: [0; 2],
            win_streak: [0; 2],
            lose_streak: [0; 2],
        }
    }

    /// Records the score `mover` reported for its move (from its own point of view), made
    /// at full-move `move_number`; returns a ruling if one fires now.
    pub fn record(
        &mut self,
        mover: Color,
        score: Option<Score>,
        move_number: u32,
    ) -> Option<Ruling> {
        let i = mover.index();
        let cp = cp_of(score);
        if let Some(rule) = self.rules.draw {
            match cp {
                Some(cp) if cp.abs() <= rule.score_cp => self.draw_streak[i] += 1,
                _ => self.draw_streak = [0; 2],
            }
            if move_number >= rule.move_number
                && self.draw_streak.iter().all(|&s| s >= rule.move_count)
            {
                return Some(Ruling::Draw);
            }
        }
        if let Some(rule) = self.rules.resign {
            match cp {
                Some(cp) if cp <= -rule.score_cp => {
                    self.lose_streak[i] += 1;
                    self.win_streak[i] = 0;
                }
                Some(cp) if cp >= rule.score_cp => {
                    self.win_streak[i] += 1;
                    self.lose_streak[i] = 0;
                }
                _ => {
                    self.win_streak[i] = 0;
                    self.lose_streak[i] = 0;
                }
            }
            let o = 1 - i;
            for (loser, winner) in [(i, o), (o, i)] {
                if self.lose_streak[loser] >= rule.move_count
                    && self.win_streak[winner] >= rule.move_count
                {
                    return Some(Ruling::Resign {
                        loser: Color::ALL[loser],
                    });
                }
            }
        }
        None
    }

    /// `true` once the game has reached the maximum length.
    pub fn too_long(&self, plies_played: u32) -> bool {
        self.rules.max_plies.is_some_and(|max| plies_played >= max)
    }
}

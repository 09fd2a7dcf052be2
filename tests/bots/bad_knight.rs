//! The tuner's test bot: material and a little position play in an alpha-beta search, with
//! one constant deliberately bad. A knight is worth 100 centipawns here, a pawn's worth, so
//! the bot gives a knight for a pawn; `challenge tune` must find that a larger value wins.
//!
//! Limits: the search counts a node per position and stops at `go nodes N` (or its clock),
//! and its move ordering is fixed, so a fixed-node game repeats move for move.
use framework::prelude::*;

/// A knight's value in centipawns (a pawn is 100): deliberately far too low.
const KNIGHT: i32 = 100; // tune 100..=500

#[derive(Default)]
pub struct MyBot {
    nodes: u64,
    budget: i32,
    best: Move,
}

/// Material, pawns' advance and pieces' centralisation, for the side to move.
fn eval(b: &Board) -> i32 {
    let values = [100, KNIGHT, 320, 500, 900, 0];
    let mut score = 0;
    for sq in b.occupied() {
        let piece = b.piece_at(sq).unwrap();
        let kind = piece.piece_type();
        let own = sq.relative_to(piece.color());
        let centre = 6 - (2 * own.file() - 7).abs() / 2 - (2 * own.rank() - 7).abs() / 2;
        let bonus = match kind {
            PieceType::Pawn => 8 * own.rank(),
            PieceType::King => 0,
            _ => 4 * centre,
        };
        let value = values[kind.index()] + bonus;
        score += if piece.color() == b.side_to_move() { value } else { -value };
    }
    score
}

impl MyBot {
    /// Negamax with alpha-beta; captures only once `depth` runs out.
    fn search(&mut self, b: &mut Board, t: &Timer, depth: i32, ply: i32, mut alpha: i32, beta: i32) -> i32 {
        self.nodes += 1;
        let quiet = depth <= 0;
        let mut best = if quiet { eval(b) } else { -30000 };
        if best >= beta {
            return best;
        }
        alpha = alpha.max(best);
        let mut moves = if quiet { b.captures() } else { b.legal_moves() };
        if moves.is_empty() && !quiet {
            return if b.is_in_check() { ply - 30000 } else { 0 };
        }
        moves.sort_by_key(|m| m.piece().index() as i32 - m.captured().map_or(0, |c| 8 * c.index() as i32 + 8));
        for m in moves {
            b.make_move(m);
            let value = if b.is_drawn() { 0 } else { -self.search(b, t, depth - 1, ply + 1, -beta, -alpha) };
            b.undo_move();
            if t.should_stop(self.budget, self.nodes) {
                return 30000;
            }
            if value > best {
                best = value;
                if ply == 0 {
                    self.best = m;
                }
                alpha = alpha.max(value);
                if value >= beta {
                    break;
                }
            }
        }
        best
    }
}

impl Bot for MyBot {
    fn think(&mut self, mut b: Board, t: Timer) -> Move {
        self.budget = t.ms_remaining() / 30;
        self.nodes = 0;
        self.best = b.legal_moves()[0];
        let mut chosen = self.best;
        for depth in 1..=t.max_depth() {
            self.search(&mut b, &t, depth, 0, -30000, 30000);
            if t.should_stop(self.budget, self.nodes) {
                break;
            }
            // Only a completed iteration's move is played: a cut one has not seen every move.
            chosen = self.best;
        }
        chosen
    }
}

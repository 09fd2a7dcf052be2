//! The Rust port of plain.cs for the kit as it was: the same search, the same constants,
//! written as a careful Rust entrant would.
//!
//! The "before" port, kept as history (README.md): written for the kit before its C#-shaped
//! API (piece lists, `moves(captures_only)`, `captured_number()`, `is_search_draw()`,
//! `abort_search`, `Table`) and the counting rules that free `mut`, `self.` and `:`; only
//! `think`'s signature was changed since. Counted, not played.
use framework::prelude::*;

const PIECE_VALUES: [i32; 6] = [100, 320, 330, 500, 900, 0];

#[derive(Default)]
pub struct MyBot {
    best_move: Move,
    root_move: Move,
}

impl Bot for MyBot {
    fn think(&mut self, mut b: Board, t: Timer) -> Move {
        self.best_move = b.legal_moves()[0];
        for depth in 1..64 {
            self.search(&mut b, &t, depth, 0, -1000000, 1000000);
            // A search cut short by the clock is worth nothing: keep the last whole one.
            if out_of_time(&t) {
                break;
            }
            self.best_move = self.root_move;
        }
        self.best_move
    }
}

fn out_of_time(t: &Timer) -> bool {
    t.ms_elapsed_this_turn() * 40 > t.ms_remaining()
}

impl MyBot {
    /// The last best move first, then captures, most valuable victim first and least
    /// valuable attacker first among them.
    fn order(&self, mut moves: MoveList) -> MoveList {
        moves.sort_by_key(|&m| std::cmp::Reverse(if m == self.best_move {
            10000
        } else {
            m.captured().map_or(0, |c| PIECE_VALUES[c.index()]) - m.piece() as i32
        }));
        moves
    }

    fn search(
        &mut self,
        b: &mut Board,
        t: &Timer,
        depth: i32,
        ply: i32,
        mut alpha: i32,
        beta: i32,
    ) -> i32 {
        if b.is_checkmate() {
            return ply - 100000;
        }
        if ply > 0 && b.is_repeated_position() || b.is_draw() {
            return 0;
        }
        if depth <= 0 {
            return self.quiesce(b, alpha, beta);
        }
        for m in self.order(b.legal_moves()) {
            b.make_move(m);
            let score = -self.search(b, t, depth - 1, ply + 1, -beta, -alpha);
            b.undo_move();
            if out_of_time(t) {
                return 0;
            }
            if score >= beta {
                return beta;
            }
            if score > alpha {
                alpha = score;
                if ply == 0 {
                    self.root_move = m;
                }
            }
        }
        alpha
    }

    fn quiesce(&self, b: &mut Board, mut alpha: i32, beta: i32) -> i32 {
        let stand_pat = evaluate(b);
        if stand_pat >= beta {
            return beta;
        }
        if stand_pat > alpha {
            alpha = stand_pat;
        }
        for m in self.order(b.captures()) {
            b.make_move(m);
            let score = -self.quiesce(b, -beta, -alpha);
            b.undo_move();
            if score >= beta {
                return beta;
            }
            if score > alpha {
                alpha = score;
            }
        }
        alpha
    }
}

/// Material, pawns pushed on, knights near the centre; for the side to move.
fn evaluate(b: &Board) -> i32 {
    let mut score = 0;
    for sq in b.occupied() {
        let piece = b.piece_at(sq).unwrap();
        let (mut value, rank) = (PIECE_VALUES[piece.piece_type().index()], sq.rank() as i32);
        if piece.piece_type() == PieceType::Pawn {
            value += 8 * if piece.is_white() { rank } else { 7 - rank };
        }
        if piece.piece_type() == PieceType::Knight {
            value -= 5 * ((2 * sq.file() as i32 - 7).abs() + (2 * rank - 7).abs());
        }
        score += if piece.is_white() { value } else { -value };
    }
    if b.is_white_to_move() { score } else { -score }
}

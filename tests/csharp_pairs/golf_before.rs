//! The Rust port of golf.cs for the kit as it was: the same search, the same constants,
//! written as a careful Rust entrant would.
//!
//! The "before" port, kept as history (README.md): written for the kit before its C#-shaped
//! API (piece lists, `moves(captures_only)`, `captured_number()`, `is_search_draw()`,
//! `abort_search`, `Table`) and the counting rules that free `mut`, `self.` and `:`; only
//! `think`'s signature was changed since. Counted, not played.
use framework::prelude::*;

const VALUES: [i32; 6] = [100, 300, 320, 500, 900, 0];

#[derive(Default)]
pub struct MyBot {
    best: Move,
    depth: i32,
}

impl MyBot {
    /// Negamax alpha-beta; `None` once the clock says stop (the search unwinds with `?`
    /// on a copy of the board, where C# throws).
    fn search(
        &mut self,
        b: &mut Board,
        t: &Timer,
        d: i32,
        mut alpha: i32,
        beta: i32,
        eval: i32,
    ) -> Option<i32> {
        if d < 1 && eval > alpha {
            alpha = eval;
        }
        let mut moves = if d < 1 { b.captures() } else { b.legal_moves() };
        moves.sort_by_key(|&m| std::cmp::Reverse((m == self.best, m.captured(), -(m.piece() as i32))));
        for m in moves {
            if alpha >= beta {
                break;
            }
            if t.ms_elapsed_this_turn() * 30 > t.ms_remaining() {
                return None;
            }
            b.make_move(m);
            let score = if b.is_checkmate() {
                99999
            } else if b.is_draw() || b.is_repeated_position() {
                0
            } else {
                -self.search(
                    b,
                    t,
                    d - 1,
                    -beta,
                    -alpha,
                    -eval - m.captured().map_or(0, |c| VALUES[c.index()]),
                )?
            };
            b.undo_move();
            if score > alpha {
                alpha = score;
                if d == self.depth {
                    self.best = m;
                }
            }
        }
        Some(alpha)
    }
}

impl Bot for MyBot {
    fn think(&mut self, board: Board, t: Timer) -> Move {
        let b = &mut board.clone();
        self.best = b.legal_moves()[0];
        self.depth = 1;
        while self.search(b, &t, self.depth, -999999, 999999, 0).is_some() {
            self.depth += 1;
        }
        self.best
    }
}

//! The Rust port of golf.cs for the kit: the same search, the same constants, written as
//! a careful Rust entrant would with the kit's C#-shaped API (the board and timer kept in
//! the struct where C#'s local function captures them, `moves(captures_only)`,
//! `order_by_descending` for LINQ's, `captured_number()`, `is_search_draw()`, and
//! `abort_search` where C# throws). C#'s `values` field is an array literal indexed where
//! it is read: in Rust a constant table costs no allocation there, where C#'s inline
//! `new[] { ... }` would allocate one at every node.
use framework::prelude::*;

#[derive(Default)]
pub struct MyBot {
    b: Board,
    t: Timer,
    best: Move,
    depth: i32,
}

impl MyBot {
    fn search(&mut self, d: i32, mut alpha: i32, beta: i32, eval: i32) -> i32 {
        if d < 1 && eval > alpha {
            alpha = eval;
        }
        for m in self.b.moves(d < 1).order_by_descending(|m| (m == self.best, m.captured(), -(m.piece() as i32))) {
            if alpha >= beta {
                break;
            }
            if self.t.ms_elapsed_this_turn() * 30 > self.t.ms_remaining() {
                abort_search();
            }
            self.b.make_move(m);
            let score = if self.b.is_checkmate() {
                99999
            } else if self.b.is_search_draw() {
                0
            } else {
                -self.search(
                    d - 1,
                    -beta,
                    -alpha,
                    -eval - [0, 100, 300, 320, 500, 900, 0][m.captured_number()],
                )
            };
            self.b.undo_move();
            if score > alpha {
                alpha = score;
                if d == self.depth {
                    self.best = m;
                }
            }
        }
        alpha
    }
}

impl Bot for MyBot {
    fn think(&mut self, board: Board, timer: Timer) -> Move {
        self.b = board;
        self.t = timer;
        self.best = self.b.legal_moves()[0];
        self.depth = 0;
        catch_abort(|| loop {
            self.depth += 1;
            self.search(self.depth, -999999, 999999, 0);
        });
        self.best
    }
}

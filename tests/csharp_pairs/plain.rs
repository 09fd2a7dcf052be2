//! The Rust port of plain.cs for the kit: the same search, the same constants, written as
//! a careful Rust entrant would with the kit's C#-shaped API (the board and timer kept in
//! the struct as C# keeps them in fields, piece lists and their `is_pawn()`,
//! `captured_number()`, `is_search_draw()`, `order_by_descending` for LINQ's, and C#'s
//! `(int)` casts of piece types as `as i32`).
use framework::prelude::*;

const PIECE_VALUES: [i32; 7] = [0, 100, 320, 330, 500, 900, 0];

#[derive(Default)]
pub struct MyBot {
    b: Board,
    t: Timer,
    best_move: Move,
    root_move: Move,
}

impl Bot for MyBot {
    fn think(&mut self, board: Board, timer: Timer) -> Move {
        self.b = board;
        self.t = timer;
        self.best_move = self.b.legal_moves()[0];
        for depth in 1..64 {
            self.search(depth, 0, -1000000, 1000000);
            // A search cut short by the clock is worth nothing: keep the last whole one.
            if self.out_of_time() {
                break;
            }
            self.best_move = self.root_move;
        }
        self.best_move
    }
}

impl MyBot {
    fn out_of_time(&self) -> bool {
        self.t.ms_elapsed_this_turn() * 40 > self.t.ms_remaining()
    }

    /// The last best move first, then captures, most valuable victim first and least
    /// valuable attacker first among them.
    fn order(&self, moves: MoveList) -> MoveList {
        moves.order_by_descending(|m| if m == self.best_move {
            10000
        } else {
            PIECE_VALUES[m.captured_number()] - m.piece() as i32
        })
    }

    fn search(&mut self, depth: i32, ply: i32, mut alpha: i32, beta: i32) -> i32 {
        if self.b.is_checkmate() {
            return ply - 100000;
        }
        if self.b.is_search_draw() {
            return 0;
        }
        if depth <= 0 {
            return self.quiesce(alpha, beta);
        }
        for m in self.order(self.b.legal_moves()) {
            self.b.make_move(m);
            let score = -self.search(depth - 1, ply + 1, -beta, -alpha);
            self.b.undo_move();
            if self.out_of_time() {
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

    fn quiesce(&mut self, mut alpha: i32, beta: i32) -> i32 {
        let stand_pat = self.evaluate();
        if stand_pat >= beta {
            return beta;
        }
        if stand_pat > alpha {
            alpha = stand_pat;
        }
        for m in self.order(self.b.captures()) {
            self.b.make_move(m);
            let score = -self.quiesce(-beta, -alpha);
            self.b.undo_move();
            if score >= beta {
                return beta;
            }
            if score > alpha {
                alpha = score;
            }
        }
        alpha
    }

    /// Material, pawns pushed on, knights near the centre; for the side to move.
    fn evaluate(&self) -> i32 {
        let mut score = 0;
        for list in self.b.piece_lists() {
            for square in list {
                let (mut value, rank) = (PIECE_VALUES[list.piece_type() as usize], square.rank());
                if list.is_pawn() {
                    value += 8 * if list.is_white() { rank } else { 7 - rank };
                }
                if list.is_knight() {
                    value -= 5 * ((2 * square.file() - 7).abs() + (2 * rank - 7).abs());
                }
                score += if list.is_white() { value } else { -value };
            }
        }
        if self.b.is_white_to_move() {
            score
        } else {
            -score
        }
    }
}

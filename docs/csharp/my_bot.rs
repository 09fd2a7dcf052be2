use framework::prelude::*;

const VALUES: [i32; 7] = [0, 100, 300, 320, 500, 900, 0];

#[derive(Default)]
pub struct MyBot {
    b: Board,
    t: Timer,
    best: Move,
}

impl Bot for MyBot {
    fn think(&mut self, board: Board, timer: Timer) -> Move {
        self.b = board;
        self.t = timer;
        self.best = self.b.legal_moves()[0];
        catch_abort(|| {
            for depth in 1.. {
                self.search(depth, -99999, 99999, true);
            }
        });
        self.best
    }
}

impl MyBot {
    fn eval(&self) -> i32 {
        let mut score = 0;
        for list in self.b.piece_lists() {
            for s in list {
                score += (VALUES[list.piece_type() as usize] + s.relative_to(list.color()).rank() * 4)
                    * if list.color() == self.b.side_to_move() { 1 } else { -1 };
            }
        }
        score
    }

    fn search(&mut self, depth: i32, mut alpha: i32, beta: i32, root: bool) -> i32 {
        if self.t.ms_elapsed_this_turn() > self.t.ms_remaining() / 40 {
            abort_search()
        }
        if !root && self.b.is_search_draw() {
            return 0;
        }
        if self.b.is_checkmate() {
            return -50000;
        }
        let quiet = depth <= 0;
        if quiet {
            alpha = alpha.max(self.eval());
            if alpha >= beta {
                return alpha;
            }
        } else if !root && depth > 2 && !self.b.is_in_check() {
            self.b.force_skip_turn();
            let null_score = -self.search(depth - 3, -beta, 1 - beta, false);
            self.b.undo_skip_turn();
            if null_score >= beta {
                return beta;
            }
        }
        for m in self.b.moves(quiet).order_by_descending(|m| VALUES[m.captured_number()]) {
            self.b.make_move(m);
            let score = -self.search(depth - 1, -beta, -alpha, false);
            self.b.undo_move();
            if score > alpha {
                alpha = score;
                if root {
                    self.best = m;
                }
                if alpha >= beta {
                    break;
                }
            }
        }
        alpha
    }
}

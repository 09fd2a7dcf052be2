use framework::prelude::*;

#[derive(Default)]
pub struct MyBot {
    b: Board,
    t: Timer,
    best: Move,
}

impl MyBot {
    fn search(&mut self, depth: i32, root: bool) -> i32 {
        if self.t.should_stop(self.t.ms_remaining() / 30, 0) {
            abort_search()
        }
        if depth == 0 {
            return self.b.legal_move_count() as i32;
        }
        let mut best = -9999;
        for m in self.b.legal_moves() {
            self.b.make_move(m);
            let score = -self.search(depth - 1, false);
            self.b.undo_move();
            if score > best {
                best = score;
                if root {
                    self.best = m;
                }
            }
        }
        best
    }
}

impl Bot for MyBot {
    fn think(&mut self, b: Board, t: Timer) -> Move {
        self.b = b;
        self.t = t;
        self.best = self.b.legal_moves()[0];
        catch_abort(|| {
            for depth in 1..99 {
                self.search(depth, true);
            }
        });
        self.best
    }
}

use framework::prelude::*;

#[derive(Default)]
pub struct MyBot {
    best: Move,
}

impl MyBot {
    fn search(&mut self, b: &mut Board, t: &Timer, depth: i32, root: bool) -> i32 {
        if t.should_stop(t.ms_remaining() / 30, 0) {
            abort_search()
        }
        if depth == 0 {
            return b.legal_move_count() as i32;
        }
        let mut best = -9999;
        for m in b.legal_moves() {
            b.make_move(m);
            let score = -self.search(b, t, depth - 1, false);
            b.undo_move();
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
    fn think(&mut self, mut b: Board, t: Timer) -> Move {
        self.best = b.legal_moves()[0];
        try_search(&mut b, |b| {
            for depth in 1..99 {
                self.search(b, &t, depth, true);
            }
        });
        self.best
    }
}

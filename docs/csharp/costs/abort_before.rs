use framework::prelude::*;

#[derive(Default)]
pub struct MyBot {
    best: Move,
}

impl MyBot {
    fn search(&mut self, b: &mut Board, t: &Timer, depth: i32, root: bool) -> Option<i32> {
        if t.should_stop(t.ms_remaining() / 30, 0) {
            return None;
        }
        if depth == 0 {
            return Some(b.legal_move_count() as i32);
        }
        let mut best = -9999;
        for m in b.legal_moves() {
            b.make_move(m);
            let score = self.search(b, t, depth - 1, false);
            b.undo_move();
            let score = -score?;
            if score > best {
                best = score;
                if root {
                    self.best = m;
                }
            }
        }
        Some(best)
    }
}

impl Bot for MyBot {
    fn think(&mut self, mut b: Board, t: Timer) -> Move {
        self.best = b.legal_moves()[0];
        for depth in 1..99 {
            if self.search(&mut b, &t, depth, true).is_none() {
                break;
            }
        }
        self.best
    }
}

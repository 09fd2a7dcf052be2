//! Ends its search from deep inside with `abort_search` and catches it at the root with
//! `try_search`, every move: the abort must unwind inside the sandbox, print nothing and
//! leave the board as it was.
use framework::prelude::*;

#[derive(Default)]
pub struct MyBot {
    nodes: u64,
}

impl MyBot {
    fn search(&mut self, b: &mut Board, depth: i32) -> i32 {
        self.nodes += 1;
        if self.nodes > 2000 {
            abort_search()
        }
        if depth == 0 {
            return b.legal_move_count() as i32;
        }
        let mut best = -9999;
        for m in b.legal_moves() {
            b.make_move(m);
            best = best.max(-self.search(b, depth - 1));
            b.undo_move();
        }
        best
    }
}

impl Bot for MyBot {
    fn think(&mut self, mut board: Board, _timer: Timer) -> Move {
        self.nodes = 0;
        let finished = try_search(&mut board, |b| self.search(b, 2));
        let aborted = try_search(&mut board, |b| self.search(b, 6));
        eprintln!("finished {finished:?} aborted {aborted:?}");
        board.legal_moves()[0]
    }
}

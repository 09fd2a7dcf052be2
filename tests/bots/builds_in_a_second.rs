//! A bot whose constructor takes about a second (a table built at start, as real
//! entries do) and whose moves are instant: it mates when it can, else plays its first
//! legal move. Its construction must never land on a move's clock.
use framework::prelude::*;

pub struct MyBot;

impl Default for MyBot {
    fn default() -> Self {
        let start = std::time::Instant::now();
        while start.elapsed().as_millis() < 1_000 {}
        MyBot
    }
}

impl Bot for MyBot {
    fn think(&mut self, mut board: Board, _timer: Timer) -> Move {
        for mv in board.legal_moves() {
            board.make_move(mv);
            let mates = board.is_checkmate();
            board.undo_move();
            if mates {
                return mv;
            }
        }
        board.legal_moves()[0]
    }
}

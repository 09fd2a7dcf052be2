//! Fault injection: recurses without end (trying its first move over and
//! over, from whatever position it is given).
use framework::prelude::*;

#[derive(Default)]
pub struct MyBot;

fn deeper(board: &mut Board, depth: usize) -> usize {
    let mv = board.legal_moves()[0];
    board.make_move(mv);
    board.undo_move();
    let below = deeper(board, depth + 1);
    below + board.legal_moves().len()
}

impl Bot for MyBot {
    fn think(&mut self, mut board: Board, _timer: Timer) -> Move {
        let total = deeper(&mut board, 0);
        board.legal_moves()[total % 2]
    }
}

//! Fault injection: recurses without end (knights dancing back and forth).
use framework::prelude::*;

#[derive(Default)]
pub struct MyBot;

fn deeper(board: &mut Board, depth: usize) -> usize {
    let dance = ["g1f3", "g8f6", "f3g1", "f6g8"];
    let mv = board.parse_uci(dance[depth % 4]).unwrap();
    board.make_move(mv);
    let below = deeper(board, depth + 1);
    board.undo_move();
    below + board.legal_moves().len()
}

impl Bot for MyBot {
    fn think(&mut self, board: &mut Board, _timer: &Timer) -> Move {
        let total = deeper(board, 0);
        board.legal_moves()[total % 2]
    }
}

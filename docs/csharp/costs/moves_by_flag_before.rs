use framework::prelude::*;

const V: [i32; 7] = [0, 100, 300, 320, 500, 900, 0];

#[derive(Default)]
pub struct MyBot;

impl Bot for MyBot {
    fn think(&mut self, b: Board, _t: Timer) -> Move {
        let mut score = 0;
        let q = score > 0;
        for m in if q { b.captures() } else { b.legal_moves() } {
            score += m.to().index() as i32;
        }
        b.legal_moves()[(score as usize) % b.legal_moves().len()]
    }
}

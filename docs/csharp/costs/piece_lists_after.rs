use framework::prelude::*;

const V: [i32; 7] = [0, 100, 300, 320, 500, 900, 0];

#[derive(Default)]
pub struct MyBot;

impl Bot for MyBot {
    fn think(&mut self, b: Board, _t: Timer) -> Move {
        let mut score = 0;
        for l in b.piece_lists() {
            for s in l {
                score += (V[l.piece_type() as usize] + s.relative_to(l.color()).rank())
                    * l.color().sign();
            }
        }
        b.legal_moves()[(score as usize) % b.legal_moves().len()]
    }
}

use framework::prelude::*;

const V: [i32; 7] = [0, 100, 300, 320, 500, 900, 0];

#[derive(Default)]
pub struct MyBot;

impl Bot for MyBot {
    fn think(&mut self, b: Board, _t: Timer) -> Move {
        let mut score = 0;
        for p in PieceType::ALL {
            for c in Color::ALL {
                for s in b.pieces(p, c) {
                    score += (V[p as usize] + s.relative_to(c).rank()) * c.sign();
                }
            }
        }
        b.legal_moves()[(score as usize) % b.legal_moves().len()]
    }
}

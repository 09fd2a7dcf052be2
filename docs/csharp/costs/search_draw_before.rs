use framework::prelude::*;

const V: [i32; 7] = [0, 100, 300, 320, 500, 900, 0];

#[derive(Default)]
pub struct MyBot;

impl Bot for MyBot {
    fn think(&mut self, b: Board, _t: Timer) -> Move {
        let mut score = 0;
        if b.is_repeated_position() || b.is_drawn() {
            score += 1;
        }
        b.legal_moves()[(score as usize) % b.legal_moves().len()]
    }
}

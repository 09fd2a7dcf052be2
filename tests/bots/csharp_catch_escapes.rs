//! Panics where no C# `catch` catches it, after catching one: at the starting position it
//! divides by zero after its `cs::try_catch` has returned; later, a value's `Drop` panics
//! while a caught panic unwinds. Either must end the engine with the host's message.
use framework::prelude::*;

#[derive(Default)]
pub struct MyBot {
    zero: i32,
}

struct PanicsOnDrop(i32);

impl Drop for PanicsOnDrop {
    fn drop(&mut self) {
        if self.0 == 0 {
            panic!("a second panic while the first unwinds");
        }
    }
}

impl Bot for MyBot {
    fn think(&mut self, board: Board, _timer: Timer) -> Move {
        let moves = board.legal_moves().len() as i32;
        let caught = cs::try_catch(|| moves / self.zero);
        eprintln!("caught {caught:?}");
        if board.ply_count() == 0 {
            eprintln!("outside {}", moves / self.zero);
        }
        cs::try_catch(|| {
            let _guard = PanicsOnDrop(self.zero);
            moves / self.zero
        });
        board.legal_moves()[0]
    }
}

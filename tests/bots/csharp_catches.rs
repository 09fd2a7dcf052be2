//! Divides by zero and reads past an array's end inside C#'s `try { } catch { }`
//! (`cs::try_catch`), every move, as C# bots end a search: under the UCI host both must be
//! caught as C# catches them, quietly, and the bot must go on to play.
use framework::prelude::*;

#[derive(Default)]
pub struct MyBot {
    zero: i32,
}

impl Bot for MyBot {
    fn think(&mut self, board: Board, _timer: Timer) -> Move {
        let moves = board.legal_moves().len() as i32;
        let divided = cs::try_catch(|| moves / self.zero);
        let table = cs::Array::<i32>::new(2);
        let read = cs::try_catch(|| table.get(moves as usize));
        let nested = cs::try_catch(|| cs::try_catch(|| moves % self.zero).is_none());
        eprintln!("divided {divided:?} read {read:?} nested {nested:?}");
        board.legal_moves()[0]
    }
}

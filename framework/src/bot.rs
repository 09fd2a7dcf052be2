//! The trait every bot implements.

use crate::chess::{Board, Move};
use crate::timer::Timer;

/// A chess bot: one type, constructed once per game, asked for a move each turn.
///
/// The host builds the bot with [`Default`] when a game begins (construction may
/// take at most 5 seconds) and calls [`think`](Bot::think) whenever it is the
/// bot's turn. The board carries the whole game history, so repetition queries
/// see every earlier position. A bot may change the board while searching but
/// must leave it as it found it.
///
/// The smallest complete bot plays the first legal move:
///
/// ```
/// use framework::prelude::*;
///
/// #[derive(Default)]
/// struct MyBot;
///
/// impl Bot for MyBot {
///     fn think(&mut self, board: &mut Board, _timer: &Timer) -> Move {
///         board.legal_moves()[0]
///     }
/// }
///
/// let mut board = Board::startpos();
/// let mv = MyBot::default().think(&mut board, &Timer::new(1000, 1000, 0));
/// assert!(board.legal_moves().contains(&mv));
/// ```
pub trait Bot: Default {
    /// The name reported to UCI clients; empty means "use the bot file's name".
    const NAME: &'static str = "";

    /// Chooses the move to play on `board` within the time and the search
    /// limits `timer` gives ([`Timer::should_stop`], [`Timer::max_depth`]).
    fn think(&mut self, board: &mut Board, timer: &Timer) -> Move;
}

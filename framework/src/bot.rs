//! The trait every bot implements.

use crate::chess::{Board, Move};
use crate::timer::Timer;

/// A chess bot: one type, constructed once per game, asked for a move each turn.
///
/// The host builds the bot with [`Default`] when a game begins (construction may
/// take at most 5 seconds) and calls [`think`](Bot::think) whenever it is the
/// bot's turn, with a board and a timer of the bot's own: it may change them, keep
/// them in its struct for its helpers (`self.board = board;`), or drop them. The
/// board carries the whole game history, so repetition queries see every earlier
/// position.
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
///     fn think(&mut self, board: Board, _timer: Timer) -> Move {
///         board.legal_moves()[0]
///     }
/// }
///
/// let board = Board::startpos();
/// let mv = MyBot::default().think(board.clone(), Timer::new(1000, 1000, 0));
/// assert!(board.legal_moves().contains(&mv));
/// ```
pub trait Bot: Default {
    /// The name reported to UCI clients; empty means "use the bot file's name".
    const NAME: &'static str = "";

    /// The bot's own UCI options, all integers (`type spin`): `(name, default, min, max)`.
    /// The host announces them after `uci`, checks what the client sets against them (a
    /// value out of range or not an integer is refused with an `info string`), and calls
    /// [`set_option`](Bot::set_option) with each one's value every time it constructs
    /// the bot: the declared default until the client sets another, which then holds
    /// for the rest of the process, through `ucinewgame` and `Clear Hash`.
    ///
    /// Names are compared without regard to case, as UCI asks; at most 64 options, each
    /// name one printable line of at most 64 characters, `min <= default <= max`, and not
    /// `Clear Hash` (the host's own). A declaration that breaks these is left out, and the
    /// engine's stderr says why.
    ///
    /// What it costs, counted by the kit's counter: 39 tokens plus the name's string (its
    /// characters and two quotes) for the first option (the declaration below, a one-line
    /// `set_option` storing the value), about 25 for each further one (its tuple, a field, an `if` on
    /// the name). A constant costs 6. The challenge never sets a bot's options, so a
    /// submitted bot plays its defaults: options serve experiments on a bot that may
    /// exceed the limit (`challenge bench --option NAME=VALUE`) without a rebuild.
    ///
    /// ```
    /// use framework::prelude::*;
    ///
    /// #[derive(Default)]
    /// struct TableBot { bits: i64 }
    ///
    /// impl Bot for TableBot {
    ///     const OPTIONS: &'static [(&'static str, i64, i64, i64)] = &[("TT Bits", 16, 10, 24)];
    ///     fn set_option(&mut self, _name: &str, value: i64) {
    ///         self.bits = value; // one option: no need to look at the name
    ///     }
    ///     fn think(&mut self, board: Board, _timer: Timer) -> Move {
    ///         board.legal_moves()[0]
    ///     }
    /// }
    ///
    /// let mut bot = TableBot::default();
    /// let (name, default, ..) = TableBot::OPTIONS[0];
    /// bot.set_option(name, default); // what the host does after constructing it
    /// assert_eq!(bot.bits, 16);
    /// ```
    const OPTIONS: &'static [(&'static str, i64, i64, i64)] = &[];

    /// Takes the value of one of [`OPTIONS`](Bot::OPTIONS), by its declared name, already
    /// checked to be in its range. The default does nothing.
    fn set_option(&mut self, _name: &str, _value: i64) {}

    /// Chooses the move to play on `board` within the time and the search
    /// limits `timer` gives ([`Timer::should_stop`], [`Timer::max_depth`]). Both
    /// are the bot's own for the turn, as C#'s `Think(Board board, Timer timer)`
    /// hands over its objects: a bot that searches in helper methods keeps them in
    /// its struct rather than passing them down.
    ///
    /// ```
    /// use framework::prelude::*;
    ///
    /// #[derive(Default)]
    /// struct MyBot { board: Board, timer: Timer }
    ///
    /// impl MyBot {
    ///     fn best(&mut self) -> Move {
    ///         let mut moves = self.board.legal_moves();
    ///         moves.sort_by_key(|m| !m.is_capture()); // captures first
    ///         moves[0]
    ///     }
    /// }
    ///
    /// impl Bot for MyBot {
    ///     fn think(&mut self, board: Board, timer: Timer) -> Move {
    ///         self.board = board;
    ///         self.timer = timer;
    ///         self.best()
    ///     }
    /// }
    ///
    /// let board: Board = "4k3/8/8/8/8/8/3p4/4K3 w - - 0 1".parse().unwrap();
    /// let mv = MyBot::default().think(board, Timer::new(1000, 1000, 0));
    /// assert_eq!(mv.to_string(), "e1d2");
    /// ```
    fn think(&mut self, board: Board, timer: Timer) -> Move;
}

//! Following a game move by move while it is played: the optional per-move hook of
//! [`play_game_observed`](crate::game::play_game_observed) and
//! [`Pool::play_watched`](crate::pool::Pool::play_watched).
//!
//! The hook runs on the game's own thread between two moves, so whatever it does is
//! charged to nobody's clock but adds to the time between moves: it must be cheap and
//! must never block (hand the move to another thread and return).

use std::time::Duration;

use framework::chess::{Board, Move};

use super::engine::SearchInfo;

/// One move just played, as the hook sees it.
#[derive(Debug, Clone, Copy)]
pub struct MoveUpdate<'a> {
    /// The position the move was played in (before it).
    pub board: &'a Board,
    /// The move.
    pub mv: Move,
    /// What the mover's engine last said: depth, score, nodes and its principal variation
    /// (the recorded game keeps no PV; the hook gets it).
    pub info: &'a SearchInfo,
    /// Time from `go` to `bestmove`.
    pub elapsed: Duration,
    /// Both clocks after the move, White's first (`None`: that side plays without one).
    pub clocks: [Option<Duration>; 2],
}

/// Told about a game as it is played; see the [module](self) for what it may do.
///
/// ```
/// use runner::{MoveObserver, MoveUpdate};
/// use framework::chess::Board;
/// /// Counts the moves it sees.
/// struct Count(usize);
/// impl MoveObserver for Count {
///     fn moved(&mut self, _update: &MoveUpdate<'_>) {
///         self.0 += 1;
///     }
/// }
/// let mut count = Count(0);
/// count.started(&Board::startpos(), [None, None]);
/// assert_eq!(count.0, 0);
/// ```
pub trait MoveObserver: Send {
    /// Both engines are ready and the opening's moves are on `board`; `clocks` as in
    /// [`MoveUpdate::clocks`].
    fn started(&mut self, board: &Board, clocks: [Option<Duration>; 2]) {
        let _ = (board, clocks);
    }
    /// A move was played (it is on the board once this returns).
    fn moved(&mut self, update: &MoveUpdate<'_>);
}

//! Ending a search from any depth: C#'s `throw` inside a search and `catch` around it.
//!
//! A C# bot stops a search that has run out of time by throwing (`throw null;`) and
//! catching at its root, and plays the best move of the last finished iteration. A kit bot
//! does the same with [`abort_search`] and [`try_search`] (or [`catch_abort`]), instead of
//! threading an `Option` through every call with `?`.
//!
//! The abort unwinds the stack without running the panic hook, so it prints nothing and
//! works inside the engine's sandbox; a search that is never aborted pays nothing for the
//! possibility. An abort that no `try_search` or `catch_abort` catches ends the bot's
//! process as a panic does, with a message saying so.

use std::panic::{AssertUnwindSafe, catch_unwind, resume_unwind};

use crate::chess::Board;

/// What [`abort_search`] unwinds with, and what [`try_search`] and [`catch_abort`] catch.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SearchAborted;

/// Stops the search now, from any depth: control returns from the innermost
/// [`try_search`] or [`catch_abort`], which gives `None`. C#'s `throw` (`throw null;`).
///
/// ```
/// use framework::prelude::*;
///
/// fn count(b: &mut Board, depth: u32, nodes: &mut u32) -> u32 {
///     *nodes += 1;
///     if *nodes > 100 { abort_search() } // out of budget: give up from any depth
///     if depth == 0 { return 1 }
///     let mut leaves = 0;
///     for m in b.legal_moves() {
///         b.make_move(m);
///         leaves += count(b, depth - 1, nodes);
///         b.undo_move();
///     }
///     leaves
/// }
///
/// let mut board = Board::startpos();
/// let mut nodes = 0;
/// assert_eq!(try_search(&mut board, |b| count(b, 1, &mut nodes)), Some(20));
/// nodes = 0;
/// assert_eq!(try_search(&mut board, |b| count(b, 3, &mut nodes)), None);
/// assert_eq!(board, Board::startpos()); // the moves made before the abort are taken back
/// ```
#[doc(alias = "throw")]
pub fn abort_search() -> ! {
    resume_unwind(Box::new(SearchAborted))
}

/// Runs `search` on `board`; `None` if it called [`abort_search`], with every move it had
/// made on the board taken back. C#'s `try { ... } catch { }` around a search. See
/// [`abort_search`] for an example.
#[doc(alias = "catch")]
pub fn try_search<T>(board: &mut Board, search: impl FnOnce(&mut Board) -> T) -> Option<T> {
    let plies = board.ply_count();
    let result = catch_abort(|| search(&mut *board));
    if result.is_none() {
        while board.ply_count() > plies {
            board.undo_move();
        }
    }
    result
}

/// Runs `search`; `None` if it called [`abort_search`]. For a bot that searches its own
/// copy of the board (kept in its struct), which nothing then needs to restore; otherwise
/// [`try_search`] takes the moves back.
///
/// ```
/// use framework::prelude::*;
///
/// #[derive(Default)]
/// struct MyBot { b: Board, t: Timer, depth: i32 }
///
/// impl MyBot {
///     fn search(&mut self, depth: i32) -> i32 {
///         if self.t.should_stop(0, 0) { abort_search() }
///         if depth == 0 { return 0 }
///         for m in self.b.legal_moves() {
///             self.b.make_move(m);
///             self.search(depth - 1);
///             self.b.undo_move();
///         }
///         0
///     }
/// }
///
/// impl Bot for MyBot {
///     fn think(&mut self, board: Board, timer: Timer) -> Move {
///         self.b = board.clone();
///         self.t = timer;
///         // Deeper and deeper until the time is up: only the abort ends this loop.
///         catch_abort(|| loop {
///             self.depth += 1;
///             self.search(self.depth);
///         });
///         board.legal_moves()[0]
///     }
/// }
///
/// let timer = Timer::new(20, 20, 0); // a budget of 0 ms: spent within a millisecond
/// let mut bot = MyBot::default();
/// let mv = bot.think(Board::startpos(), timer);
/// assert_eq!(mv, Board::startpos().legal_moves()[0]);
/// assert!(bot.depth >= 1);
/// ```
pub fn catch_abort<T>(search: impl FnOnce() -> T) -> Option<T> {
    match catch_unwind(AssertUnwindSafe(search)) {
        Ok(value) => Some(value),
        Err(payload) if payload.is::<SearchAborted>() => None,
        Err(payload) => resume_unwind(payload),
    }
}

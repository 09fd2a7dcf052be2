//! What a player's searches looked like over a match, from its `info` lines: the average
//! depth it reached, its speed in nodes per second, the time it took per move, and how often
//! the move it played was not the first move of the last principal variation it reported
//! (fastchess's warning "Bestmove does not match beginning of last PV").
//!
//! Every figure comes from what an engine said about its own search, except the time per
//! move, which the runner measures itself (from writing `go` to reading `bestmove`). A figure
//! the engine never reported is absent, not zero: a player that sends no `info depth` has no
//! average depth, one that sends no `info nodes` no speed.
//!
//! The engine's lines are hostile input. [`SearchInfo::update`] reads each one word by word
//! (lines are already capped at [`MAX_LINE_BYTES`](crate::MAX_LINE_BYTES), a PV at
//! [`MAX_PV_MOVES`](crate::engine::MAX_PV_MOVES) moves); here the sums are wide enough that
//! no claimed depth or node count can overflow them, and a PV's first word is only compared,
//! never trusted.
//!
//! ```
//! use std::time::Duration;
//! use framework::chess::Board;
//! use runner::{PlayedMove, PvCheck, SearchInfo, SearchStats};
//! let board = Board::startpos();
//! let mut info = SearchInfo::default();
//! info.update("info depth 6 nodes 30000 pv d2d4 d7d5");
//! let e4 = board.parse_uci("e2e4").unwrap();
//! let played = PlayedMove {
//!     mv: e4,
//!     pv: PvCheck::of(&info.pv, "e2e4", e4, &board),
//!     info,
//!     elapsed: Duration::from_millis(100),
//! };
//! assert_eq!(played.pv, PvCheck::Differs);
//! let mut stats = SearchStats::default();
//! stats.add(&played);
//! assert_eq!(stats.average_depth(), Some(6.0));
//! assert_eq!(stats.nodes_per_second(), Some(300_000.0));
//! assert_eq!(stats.time_per_move(), Some(Duration::from_millis(100)));
//! assert_eq!((stats.pv_moves, stats.pv_mismatches), (1, 1));
//! ```

use std::time::Duration;

use framework::chess::Color;

use crate::game::{GameRecord, PlayedMove};
use crate::pv_check::PvCheck;

/// One player's search statistics over the moves it played (book moves are not its own).
///
/// Sums, so that statistics of games played on several threads add up in any order
/// ([`merge`](Self::merge)); the averages are computed when asked for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct SearchStats {
    /// Moves played.
    pub moves: u64,
    /// Their time, measured by the runner.
    pub time: Duration,
    /// Moves whose search reported a depth.
    pub depth_moves: u64,
    /// The sum of the last depth reported for each of them.
    pub depth_sum: u64,
    /// Moves whose search reported a node count.
    pub node_moves: u64,
    /// The sum of the last node count reported for each (nodes since `go`, as UCI has it).
    pub nodes: u128,
    /// The runner's time of the moves that reported nodes.
    pub node_time: Duration,
    /// Moves whose search reported a PV.
    pub pv_moves: u64,
    /// Moves whose last PV did not start with the move played.
    pub pv_mismatches: u64,
}

impl SearchStats {
    /// Counts one move.
    pub fn add(&mut self, played: &PlayedMove) {
        self.moves += 1;
        self.time = self.time.saturating_add(played.elapsed);
        if let Some(depth) = played.info.depth {
            self.depth_moves += 1;
            self.depth_sum = self.depth_sum.saturating_add(u64::from(depth));
        }
        if let Some(nodes) = played.info.nodes {
            self.node_moves += 1;
            self.nodes = self.nodes.saturating_add(u128::from(nodes));
            self.node_time = self.node_time.saturating_add(played.elapsed);
        }
        match played.pv {
            PvCheck::NoPv => {}
            PvCheck::Starts => self.pv_moves += 1,
            PvCheck::Differs => {
                self.pv_moves += 1;
                self.pv_mismatches += 1;
            }
        }
    }

    /// Adds another set of statistics of the same player (another game, another thread).
    ///
    /// ```
    /// use std::time::Duration;
    /// use runner::SearchStats;
    /// let one = SearchStats { moves: 2, time: Duration::from_secs(1), ..SearchStats::default() };
    /// let mut both = one;
    /// both.merge(&one);
    /// assert_eq!((both.moves, both.time), (4, Duration::from_secs(2)));
    /// ```
    pub fn merge(&mut self, other: &SearchStats) {
        self.moves += other.moves;
        self.time = self.time.saturating_add(other.time);
        self.depth_moves += other.depth_moves;
        self.depth_sum = self.depth_sum.saturating_add(other.depth_sum);
        self.node_moves += other.node_moves;
        self.nodes = self.nodes.saturating_add(other.nodes);
        self.node_time = self.node_time.saturating_add(other.node_time);
        self.pv_moves += other.pv_moves;
        self.pv_mismatches += other.pv_mismatches;
    }

    /// The average of the last depth reported per move, over the moves that reported one.
    pub fn average_depth(&self) -> Option<f64> {
        (self.depth_moves > 0).then(|| self.depth_sum as f64 / self.depth_moves as f64)
    }

    /// The nodes reported over the runner's time for those moves; `None` without nodes, or
    /// when those moves took no measurable time.
    ///
    /// ```
    /// use std::time::Duration;
    /// use runner::SearchStats;
    /// let silent = SearchStats { moves: 3, time: Duration::from_secs(1), ..SearchStats::default() };
    /// assert_eq!(silent.nodes_per_second(), None);
    /// assert_eq!(silent.average_depth(), None);
    /// ```
    pub fn nodes_per_second(&self) -> Option<f64> {
        let seconds = self.node_time.as_secs_f64();
        (self.node_moves > 0 && seconds > 0.0).then(|| self.nodes as f64 / seconds)
    }

    /// The average time per move, measured by the runner; `None` before the first move.
    pub fn time_per_move(&self) -> Option<Duration> {
        let moves = u32::try_from(self.moves).ok().filter(|&n| n > 0)?;
        Some(self.time / moves)
    }

    /// Statistics of the moves `side` played in a game.
    pub fn of_side(record: &GameRecord, side: Color) -> SearchStats {
        let first = record.opening.board().side_to_move();
        let mut stats = SearchStats::default();
        for played in record
            .moves
            .iter()
            .skip(usize::from(first != side))
            .step_by(2)
        {
            stats.add(played);
        }
        stats
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::SearchInfo;
    use framework::chess::Board;

    fn played(line: &str, elapsed_ms: u64) -> PlayedMove {
        let mut info = SearchInfo::default();
        info.update(line);
        let board = Board::startpos();
        let mv = board.parse_uci("e2e4").unwrap();
        PlayedMove {
            mv,
            pv: PvCheck::of(&info.pv, "e2e4", mv, &board),
            info,
            elapsed: Duration::from_millis(elapsed_ms),
        }
    }

    #[test]
    fn averages_count_only_the_moves_that_reported() {
        let mut stats = SearchStats::default();
        stats.add(&played("info depth 4 nodes 1000 pv e2e4", 10));
        stats.add(&played("info string thinking", 30));
        stats.add(&played("info depth 8 nodes 3000 pv d2d4", 10));
        assert_eq!(stats.moves, 3);
        assert_eq!(stats.average_depth(), Some(6.0));
        assert_eq!(stats.nodes_per_second(), Some(200_000.0));
        assert_eq!(
            stats.time_per_move(),
            Some(Duration::from_nanos(50_000_000 / 3))
        );
        assert_eq!((stats.pv_moves, stats.pv_mismatches), (2, 1));
    }

    #[test]
    fn claims_past_any_sum_saturate_instead_of_overflowing() {
        let mut stats = SearchStats::default();
        let huge = format!("info depth {} nodes {} pv e2e4", u32::MAX, u64::MAX);
        for _ in 0..4 {
            stats.add(&played(&huge, 0));
        }
        let mut twice = stats;
        twice.merge(&stats);
        assert_eq!(twice.depth_moves, 8);
        assert_eq!(twice.average_depth(), Some(f64::from(u32::MAX)));
        // No measurable time: no speed rather than an infinite one.
        assert_eq!(twice.nodes_per_second(), None);
    }

    #[test]
    fn a_game_splits_by_side_after_the_book_moves() {
        use crate::TimeControl;
        use crate::game::{GameRecord, Termination};
        use crate::openings::Opening;
        use framework::notation::pgn::GameResult;
        let start = Board::startpos();
        let mut opening = Opening::startpos();
        opening.moves.push(start.parse_uci("e2e4").unwrap());
        let record = GameRecord {
            white: "w".into(),
            black: "b".into(),
            time_controls: [TimeControl::default(); 2],
            opening,
            moves: vec![
                played("info depth 1 nodes 10", 1),
                played("", 2),
                played("info depth 3 nodes 10", 1),
            ],
            result: GameResult::Unknown,
            termination: Termination::Interrupted,
            detail: String::new(),
            faulty: None,
            stderr: Vec::new(),
            fault_clock: None,
        };
        // After 1. e4 Black moves first.
        let black = SearchStats::of_side(&record, Color::Black);
        let white = SearchStats::of_side(&record, Color::White);
        assert_eq!((black.moves, black.average_depth()), (2, Some(2.0)));
        assert_eq!((white.moves, white.average_depth()), (1, None));
    }
}

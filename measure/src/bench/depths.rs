//! What each iteration of an engine's iterative deepening cost, read from its
//! `info depth D ... nodes N` lines, and the depth table of a whole run.
//!
//! UCI engines report `nodes` as the nodes searched since `go`, so the count on the last
//! line of depth D is **cumulative**: every iteration up to and including D. The nodes of
//! iteration D alone are the difference from depth D−1's count, and the **effective
//! branching factor** of depth D is
//!
//! ```text
//! EBF(D) = nodes of iteration D / nodes of iteration D−1
//!        = (cumulative(D) − cumulative(D−1)) / (cumulative(D−1) − cumulative(D−2))
//! ```
//!
//! (cumulative(0) = 0): how many times more one more ply cost, which is the branching
//! factor a perfect alpha-beta search would hold near the square root of the legal moves.
//! Over a run, the table adds up each depth's counts over the positions that reported
//! it, and the EBF of a depth is the ratio of the sums over the positions that reported
//! both iterations, so the heavy positions weigh most, as they do in the total.
//!
//! A bot built by the kit reports these lines when it calls `report` after each
//! iteration and counts its nodes through `Timer::should_stop` (the host adds the count).

use serde::Serialize;

/// Most iterations kept for one search; deeper `info` lines are not kept (depths
/// past it say nothing a bench needs, and an engine cannot grow the list without end).
pub const MAX_DEPTH: u32 = 256;

/// One iteration as the engine last reported it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Iteration {
    /// The depth, in plies.
    pub depth: u32,
    /// The nodes searched since `go` by the end of that depth (cumulative).
    pub nodes: u64,
}

/// The iterations of one search, in increasing depth.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Iterations(Vec<Iteration>);

impl Iterations {
    /// Takes the depth and node count of an `info` line carrying both; the last line of
    /// a depth wins (an engine may report a depth more than once: after a failed
    /// aspiration window, or at each new best root move). A count without a depth (the
    /// kit's host sends `info nodes N` before `bestmove`) belongs to the deepest
    /// iteration begun, and raises its count: so a depth's count is the nodes searched by
    /// its last report, and what followed it is charged to the next depth, or to the
    /// last when none followed. A count of 0 is no count: no iteration searches no node,
    /// so it says the bot reported before it counted (a bot built by the kit reports the
    /// nodes it passed to `Timer::should_stop` last, 0 before its first). Other lines, and
    /// depths 0 or past [`MAX_DEPTH`], are ignored.
    pub fn observe(&mut self, line: &str) {
        let Some((depth, nodes)) = depth_and_nodes(line) else {
            return;
        };
        if nodes == 0 {
            return;
        }
        let Some(depth) = depth else {
            if let Some(deepest) = self.0.last_mut() {
                deepest.nodes = deepest.nodes.max(nodes);
            }
            return;
        };
        if !(1..=MAX_DEPTH).contains(&depth) {
            return;
        }
        match self.0.binary_search_by_key(&depth, |it| it.depth) {
            Ok(at) => self.0[at].nodes = nodes,
            Err(at) => self.0.insert(at, Iteration { depth, nodes }),
        }
    }

    /// The iterations, shallowest first.
    pub fn iter(&self) -> impl Iterator<Item = &Iteration> {
        self.0.iter()
    }

    /// Whether no iteration was reported.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The cumulative count at `depth`, if reported.
    pub fn cumulative(&self, depth: u32) -> Option<u64> {
        self.0
            .binary_search_by_key(&depth, |it| it.depth)
            .ok()
            .map(|at| self.0[at].nodes)
    }

    /// The nodes of iteration `depth` alone: its count less depth−1's (depth 1: its
    /// count). `None` when either is missing, or the counts went down (an engine that
    /// restarted its count is not guessed at).
    pub fn iteration_nodes(&self, depth: u32) -> Option<u64> {
        let now = self.cumulative(depth)?;
        let before = match depth {
            1 => 0,
            _ => self.cumulative(depth - 1)?,
        };
        now.checked_sub(before)
    }
}

/// The `depth` (if any) and `nodes` of an `info` line (before any `pv` or `string`,
/// whose words are moves and free text).
fn depth_and_nodes(line: &str) -> Option<(Option<u32>, u64)> {
    let mut words = line.split_ascii_whitespace();
    if words.next() != Some("info") {
        return None;
    }
    let (mut depth, mut nodes) = (None, None);
    while let Some(word) = words.next() {
        match word {
            "depth" => depth = words.next().and_then(|w| w.parse().ok()),
            "nodes" => nodes = words.next().and_then(|w| w.parse().ok()),
            "pv" | "string" | "refutation" | "currline" => break,
            _ => {}
        }
    }
    Some((depth, nodes?))
}

/// One line of a run's depth table.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DepthRow {
    /// The depth, in plies.
    pub depth: u32,
    /// How many positions reported this depth.
    pub positions: usize,
    /// Their cumulative counts at this depth, added up.
    pub nodes: u64,
    /// Their nodes of this iteration alone, added up over the positions where it is known;
    /// `None` where it is known for none (the depth before it was not reported).
    pub iteration_nodes: Option<u64>,
    /// The effective branching factor (see the module's documentation); `None` at the
    /// shallowest depth, or when no position reported both iterations.
    pub ebf: Option<f64>,
}

/// The depth table of a run: one row per depth any search reported, shallowest first.
pub fn depth_table<'a>(searches: impl IntoIterator<Item = &'a Iterations>) -> Vec<DepthRow> {
    let searches: Vec<&Iterations> = searches.into_iter().collect();
    let mut depths: Vec<u32> = searches
        .iter()
        .flat_map(|s| s.iter().map(|it| it.depth))
        .collect();
    depths.sort_unstable();
    depths.dedup();
    depths
        .into_iter()
        .map(|depth| depth_row(&searches, depth))
        .collect()
}

fn depth_row(searches: &[&Iterations], depth: u32) -> DepthRow {
    let reached: Vec<&&Iterations> = searches
        .iter()
        .filter(|s| s.cumulative(depth).is_some())
        .collect();
    let (mut now, mut before) = (0u64, 0u64);
    for search in &reached {
        if let (Some(n), Some(b)) = (
            search.iteration_nodes(depth),
            depth.checked_sub(1).and_then(|d| search.iteration_nodes(d)),
        ) {
            now = now.saturating_add(n);
            before = before.saturating_add(b);
        }
    }
    DepthRow {
        depth,
        positions: reached.len(),
        nodes: reached
            .iter()
            .filter_map(|s| s.cumulative(depth))
            .fold(0, u64::saturating_add),
        iteration_nodes: reached
            .iter()
            .filter_map(|s| s.iteration_nodes(depth))
            .reduce(u64::saturating_add),
        ebf: (before > 0).then(|| now as f64 / before as f64),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hostile_and_odd_lines_are_bounded_and_ignored() {
        let mut it = Iterations::default();
        for depth in 0..10_000u32 {
            it.observe(&format!("info depth {depth} nodes {depth}"));
        }
        assert_eq!(it.iter().count(), MAX_DEPTH as usize);
        for line in [
            "info depth x nodes 5",
            "info depth 3",
            "info nodes 5",
            "info string depth 3 nodes 5",
            "info pv depth 3 nodes 5",
            "bestmove e2e4",
            "",
        ] {
            let mut it = Iterations::default();
            it.observe(line);
            assert!(it.is_empty(), "{line}");
        }
    }

    #[test]
    fn a_count_that_goes_down_or_a_missing_depth_gives_no_iteration() {
        let mut it = Iterations::default();
        for line in [
            "info depth 1 nodes 50",
            "info depth 2 nodes 40",
            "info depth 4 nodes 900",
        ] {
            it.observe(line);
        }
        assert_eq!(it.iteration_nodes(2), None);
        assert_eq!(it.iteration_nodes(4), None);
        let table = depth_table([&it]);
        assert_eq!(table.len(), 3);
        assert!(table.iter().all(|row| row.ebf.is_none()), "{table:?}");
        assert_eq!(table[2].nodes, 900);
        assert_eq!(table[2].iteration_nodes, None, "unknown, not 0");
    }

    #[test]
    fn a_report_before_the_first_count_is_no_count() {
        let mut it = Iterations::default();
        for line in [
            "info depth 1 score cp 20 nodes 0 nps 0 time 0 pv e2e4",
            "info depth 2 score cp 5 nodes 700 nps 9000 time 70 pv e2e4 e7e5",
            "info nodes 900 time 90 nps 10000",
        ] {
            it.observe(line);
        }
        let table = depth_table([&it]);
        assert_eq!(table.len(), 1, "{table:?}");
        assert_eq!((table[0].depth, table[0].nodes), (2, 900));
        assert_eq!((table[0].iteration_nodes, table[0].ebf), (None, None));
    }
}

/// The examples this module's documentation had, as tests (its items are the crate's own).
#[cfg(test)]
mod documented {
    use super::*;

    #[test]
    fn iterations_as_documented() {
        let mut seen = Iterations::default();
        for line in [
            "info depth 1 score cp 20 nodes 20 pv e2e4",
            "info depth 2 currmove e2e4 currmovenumber 1",
            "info depth 2 score cp 0 nodes 100 pv e2e4 e7e5",
            "info depth 3 score cp 15 nodes 700 pv e2e4",
            "info nodes 900 time 3",
            "info string depth 9 nodes 1",
        ] {
            seen.observe(line);
        }
        // The search's last count (no depth) is the deepest iteration's.
        let cumulative: Vec<_> = seen.iter().map(|it| (it.depth, it.nodes)).collect();
        assert_eq!(cumulative, [(1, 20), (2, 100), (3, 900)]);
        assert_eq!(seen.iteration_nodes(3), Some(800));
        assert_eq!(seen.iteration_nodes(1), Some(20));
    }

    #[test]
    fn depth_table_as_documented() {
        let search = |lines: &[&str]| {
            let mut it = Iterations::default();
            lines.iter().for_each(|line| it.observe(line));
            it
        };
        let a = search(&[
            "info depth 1 nodes 10",
            "info depth 2 nodes 40",
            "info depth 3 nodes 160",
        ]);
        let b = search(&["info depth 1 nodes 30", "info depth 2 nodes 120"]);
        let table = depth_table([&a, &b]);
        assert_eq!(table.len(), 3);
        assert_eq!(
            (table[1].positions, table[1].nodes, table[1].iteration_nodes),
            (2, 160, Some(120))
        );
        assert_eq!(table[1].ebf, Some(120.0 / 40.0));
        assert_eq!(table[2].ebf, Some(120.0 / 30.0)); // only position a reached depth 3
        assert_eq!(table[0].ebf, None);
    }
}

//! A bench run as data: CSV (one row per position, then one `total` row) and JSON (the
//! same rows, the totals, the depth table and each search's iterations).
//!
//! The column and field names are stable: scripts may rely on them, and a change to them
//! is a change to the kit's interface ([`CSV_COLUMNS`] lists them in order).
//!
//! | column | a position row | the `total` row |
//! |---|---|---|
//! | `kind` | `position` | `total` |
//! | `number` | its place in the run, from 1 | how many positions |
//! | `id` | the record's `id` | empty |
//! | `game` | its game in sequence mode (empty otherwise, or for a game of one) | empty |
//! | `depth` | the last `info depth` | empty |
//! | `nodes` | the last `info ... nodes` | the sum over the positions that reported nodes |
//! | `time_ms` | the runner's time from `go` to `bestmove`, in ms (3 decimals) | the sum |
//! | `nps` | `nodes` / `time_ms`, per second | the same over the positions with nodes |
//! | `bestmove` | the engine's move as sent (UCI) | empty |
//! | `move` | that move in SAN, when legal | empty |
//! | `solved` | `true`/`false` for a record with `bm`/`am`, else empty | how many solved (empty if none is scored) |
//! | `error` | why the engine gave no move | how many positions failed |
//!
//! A cell is empty where the engine did not say (no `nodes`, no `depth`) or the search
//! failed. Every text cell is quoted as CSV requires, so an id with commas, quotes or
//! line breaks reads back as it was.

use std::io::Write;

use anyhow::Result;
use framework::notation::san::to_san;
use serde::Serialize;

use super::depths::{DepthRow, Iteration};
use super::epd::EpdRecord;
use super::suite::score;
use super::{BenchLimit, BenchReport, Mode};

/// The CSV's columns, in order.
pub const CSV_COLUMNS: [&str; 12] = [
    "kind", "number", "id", "game", "depth", "nodes", "time_ms", "nps", "bestmove", "move",
    "solved", "error",
];

/// One position, as exported.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PositionOut {
    /// Its place in the run, from 1.
    pub number: usize,
    /// The record's `id`.
    pub id: String,
    /// Its game in sequence mode.
    pub game: Option<String>,
    /// The last `info depth`.
    pub depth: Option<u32>,
    /// The last `info ... nodes`.
    pub nodes: Option<u64>,
    /// From `go` to `bestmove`, in milliseconds (to the microsecond).
    pub time_ms: f64,
    /// Nodes per second.
    pub nps: Option<u64>,
    /// The move as the engine sent it.
    pub bestmove: Option<String>,
    /// That move in SAN, when it is legal.
    #[serde(rename = "move")]
    pub san: Option<String>,
    /// Whether it solves the record (`None`: the record has no `bm`/`am`).
    pub solved: Option<bool>,
    /// Why the engine gave no move.
    pub error: Option<String>,
    /// Each iteration's cumulative nodes (JSON only).
    pub iterations: Vec<Iteration>,
}

/// The run's totals, as exported.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TotalsOut {
    /// How many positions.
    pub positions: usize,
    /// How many of them reported a node count.
    pub nodes_reported: usize,
    /// Their nodes, added up.
    pub nodes: u64,
    /// Every search's time, added up, in milliseconds.
    pub time_ms: f64,
    /// Nodes per second over the searches that reported nodes.
    pub nps: Option<u64>,
    /// How many records have `bm`/`am`.
    pub scored: usize,
    /// How many of those were solved (`None` when none is scored).
    pub solved: Option<usize>,
    /// How many searches failed.
    pub failed: usize,
    /// The run's signature ([`BenchReport::signature`]).
    pub signature: String,
}

/// The limit, as exported: exactly one field is set.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct LimitOut {
    /// `go depth`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub depth: Option<u32>,
    /// `go nodes`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nodes: Option<u64>,
    /// `go movetime`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub movetime_ms: Option<u64>,
}

/// A whole run, as exported.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RunOut {
    /// The engine's `id name`.
    pub engine: String,
    /// The limit of every search.
    pub limit: LimitOut,
    /// `independent` or `sequence`.
    pub mode: &'static str,
    /// One per position, in order.
    pub positions: Vec<PositionOut>,
    /// The totals.
    pub totals: TotalsOut,
    /// The depth table ([`super::depths`]).
    pub depths: Vec<DepthRow>,
}

/// The run of `report` over `records` (the same order) as exported data.
///
/// ```
/// use std::time::Duration;
/// use measure::{BenchLimit, BenchReport, BenchRow, Mode, Searched, read_epd, run_out, write_csv};
/// let file = read_epd("6k1/5ppp/8/8/8/8/8/R5K1 w - - bm Ra8#; id \"mate, in one\";");
/// let record = &file.records[0];
/// let searched = Searched { bestmove: "a1a8".into(), legal_move: record.board.parse_uci("a1a8").ok(),
///     nodes: Some(2000), depth: Some(3), iterations: Default::default(),
///     elapsed: Duration::from_millis(4) };
/// // An id with a quote (a caller's own row; EPD strings hold none) is quoted as CSV asks.
/// let id = format!("{} \"Ra8\"", record.id);
/// let report = BenchReport { rows: vec![BenchRow { id, game: None, result: Ok(searched) }] };
/// let run = run_out("an engine", BenchLimit::Depth(3), Mode::Independent, &file.records, &report);
/// assert_eq!((run.totals.nps, run.totals.solved), (Some(500_000), Some(1)));
/// let mut csv = Vec::new();
/// write_csv(&run, &mut csv).unwrap();
/// assert_eq!(String::from_utf8(csv).unwrap(),
///     "kind,number,id,game,depth,nodes,time_ms,nps,bestmove,move,solved,error\n\
///      position,1,\"mate, in one \"\"Ra8\"\"\",,3,2000,4.000,500000,a1a8,Ra8#,true,\n\
///      total,1,,,,2000,4.000,500000,,,1,0\n");
/// let json: serde_json::Value = serde_json::to_value(&run).unwrap();
/// assert_eq!(json["positions"][0]["move"], "Ra8#");
/// assert_eq!(json["limit"], serde_json::json!({"depth": 3}));
/// ```
pub fn run_out(
    engine: &str,
    limit: BenchLimit,
    mode: Mode,
    records: &[EpdRecord],
    report: &BenchReport,
) -> RunOut {
    let positions: Vec<PositionOut> = records
        .iter()
        .zip(&report.rows)
        .enumerate()
        .map(|(index, (record, row))| position_out(index, record, row))
        .collect();
    let totals = totals_out(&positions, report);
    RunOut {
        engine: engine.to_string(),
        limit: limit_out(limit),
        mode: match mode {
            Mode::Independent => "independent",
            Mode::Sequence => "sequence",
        },
        positions,
        totals,
        depths: report.depth_table(),
    }
}

fn position_out(index: usize, record: &EpdRecord, row: &super::BenchRow) -> PositionOut {
    let scored = score(record, row.result.clone());
    let searched = row.result.as_ref().ok();
    let time_ms = searched.map_or(0.0, |s| millis(s.elapsed.as_micros()));
    PositionOut {
        number: index + 1,
        id: row.id.clone(),
        game: row.game.clone(),
        depth: searched.and_then(|s| s.depth),
        nodes: searched.and_then(|s| s.nodes),
        time_ms,
        nps: searched.and_then(|s| nps(s.nodes?, time_ms)),
        bestmove: searched.map(|s| s.bestmove.clone()),
        san: searched
            .and_then(|s| s.legal_move)
            .map(|mv| to_san(&record.board, mv)),
        solved: scored.scored.then_some(scored.solved),
        error: row.result.as_ref().err().cloned(),
        iterations: searched.map_or_else(Vec::new, |s| s.iterations.iter().copied().collect()),
    }
}

fn totals_out(positions: &[PositionOut], report: &BenchReport) -> TotalsOut {
    let with_nodes: Vec<&PositionOut> = positions.iter().filter(|p| p.nodes.is_some()).collect();
    let nodes = with_nodes.iter().filter_map(|p| p.nodes).sum();
    let nodes_time: f64 = with_nodes.iter().map(|p| p.time_ms).sum();
    let scored = positions.iter().filter(|p| p.solved.is_some()).count();
    TotalsOut {
        positions: positions.len(),
        nodes_reported: with_nodes.len(),
        nodes,
        time_ms: millis(report.total_time().as_micros()),
        nps: nps(nodes, nodes_time),
        scored,
        solved: (scored > 0).then(|| positions.iter().filter(|p| p.solved == Some(true)).count()),
        failed: report.failures(),
        signature: report.signature(),
    }
}

fn limit_out(limit: BenchLimit) -> LimitOut {
    let mut out = LimitOut {
        depth: None,
        nodes: None,
        movetime_ms: None,
    };
    match limit {
        BenchLimit::Depth(depth) => out.depth = Some(depth),
        BenchLimit::Nodes(nodes) => out.nodes = Some(nodes),
        BenchLimit::MoveTime(ms) => out.movetime_ms = Some(ms),
    }
    out
}

/// Microseconds as milliseconds with three decimals.
fn millis(micros: u128) -> f64 {
    micros as f64 / 1000.0
}

fn nps(nodes: u64, time_ms: f64) -> Option<u64> {
    (time_ms > 0.0).then(|| (nodes as f64 * 1000.0 / time_ms).round() as u64)
}

/// Writes `run` as CSV: the header ([`CSV_COLUMNS`]), one row per position, the `total` row.
pub fn write_csv(run: &RunOut, out: impl Write) -> Result<()> {
    let mut csv = csv::Writer::from_writer(out);
    csv.write_record(CSV_COLUMNS)?;
    let text = |value: Option<String>| value.unwrap_or_default();
    let number = |value: Option<u64>| value.map(|n| n.to_string()).unwrap_or_default();
    for p in &run.positions {
        csv.write_record([
            "position".to_string(),
            p.number.to_string(),
            p.id.clone(),
            text(p.game.clone()),
            number(p.depth.map(u64::from)),
            number(p.nodes),
            format!("{:.3}", p.time_ms),
            number(p.nps),
            text(p.bestmove.clone()),
            text(p.san.clone()),
            text(p.solved.map(|s| s.to_string())),
            text(p.error.clone()),
        ])?;
    }
    let t = &run.totals;
    csv.write_record([
        "total".to_string(),
        t.positions.to_string(),
        String::new(),
        String::new(),
        String::new(),
        t.nodes.to_string(),
        format!("{:.3}", t.time_ms),
        number(t.nps),
        String::new(),
        String::new(),
        number(t.solved.map(|n| n as u64)),
        t.failed.to_string(),
    ])?;
    csv.flush()?;
    Ok(())
}

/// Writes `run` as pretty-printed JSON, with a final newline.
pub fn write_json(run: &RunOut, mut out: impl Write) -> Result<()> {
    serde_json::to_writer_pretty(&mut out, run)?;
    writeln!(out)?;
    out.flush()?;
    Ok(())
}

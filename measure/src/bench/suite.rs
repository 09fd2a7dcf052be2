//! An EPD test suite: each position searched to a limit, solved when the engine plays one
//! of its `bm` moves and none of its `am` moves. A record with neither is searched but not
//! scored (a suite for nodes and time only).

use framework::notation::san::to_san;

use super::epd::EpdRecord;
use super::{BenchReport, Searched};

/// How one suite position went.
#[derive(Debug, Clone)]
pub struct SuiteRow {
    /// The record's `id`.
    pub id: String,
    /// The move played in SAN (or the engine's text when it is not a legal move), and the
    /// search; or why the engine gave no move.
    pub result: Result<(String, Searched), String>,
    /// Whether the record says what solves it (`bm` or `am`).
    pub scored: bool,
    /// Whether the move solves the position (never for a record not scored).
    pub solved: bool,
}

/// A whole suite run.
#[derive(Debug, Clone, Default)]
pub struct SuiteReport {
    /// One row per record, in order.
    pub rows: Vec<SuiteRow>,
}

impl SuiteReport {
    /// How many positions were solved.
    pub fn solved(&self) -> usize {
        self.rows.iter().filter(|row| row.solved).count()
    }

    /// How many positions say what solves them.
    pub fn scored(&self) -> usize {
        self.rows.iter().filter(|row| row.scored).count()
    }

    /// The ids of the scored positions not solved.
    pub fn failed_ids(&self) -> Vec<&str> {
        self.rows
            .iter()
            .filter(|row| row.scored && !row.solved)
            .map(|row| row.id.as_str())
            .collect()
    }
}

/// Scores one search against its record.
///
/// ```
/// use std::time::Duration;
/// use measure::{EpdRecord, Searched, score_record as score};
/// let record = EpdRecord::parse("6k1/5ppp/8/8/8/8/8/R5K1 w - - bm Ra8#;", 1).unwrap();
/// let searched = |text: &str| Searched { bestmove: text.into(),
///     legal_move: record.board.parse_uci(text).ok(), nodes: None, depth: None,
///     iterations: Default::default(), elapsed: Duration::ZERO };
/// let row = score(&record, Ok(searched("a1a8")));
/// assert!(row.solved);
/// assert_eq!(row.result.unwrap().0, "Ra8#");
/// let row = score(&record, Ok(searched("a1a9")));
/// assert!(!row.solved);
/// assert_eq!(row.result.unwrap().0, "a1a9 (not a legal move)");
/// ```
pub fn score(record: &EpdRecord, result: Result<Searched, String>) -> SuiteRow {
    let scored = !record.best.is_empty() || !record.avoid.is_empty();
    let (result, solved) = match result {
        Ok(searched) => {
            let (played, solved) = match searched.legal_move {
                Some(mv) => (to_san(&record.board, mv), record.solved_by(mv)),
                None => (format!("{} (not a legal move)", searched.bestmove), false),
            };
            (Ok((played, searched)), solved)
        }
        Err(err) => (Err(err), false),
    };
    SuiteRow {
        id: record.id.clone(),
        result,
        scored,
        solved: scored && solved,
    }
}

/// Scores each row of a run against the record it searched (the same order).
pub fn score_report(records: &[EpdRecord], report: &BenchReport) -> SuiteReport {
    SuiteReport {
        rows: records
            .iter()
            .zip(&report.rows)
            .map(|(record, row)| score(record, row.result.clone()))
            .collect(),
    }
}

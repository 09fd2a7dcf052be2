//! A sweep's results file: one CSV row per finished cell (one bot variant searched over
//! one suite at one limit), appended as each cell finishes. The file is also the sweep's
//! state: a resumed sweep skips the cells the file already holds.
//!
//! The columns are `suite`, `limit` and `bot`, then one column per varied constant, named
//! after it (`SCHEME`, `TT_BITS`), then `positions`, `nodes`, `time_ms` and `failed`:
//!
//! ```text
//! suite,limit,bot,SCHEME,TT_BITS,positions,nodes,time_ms,failed
//! mg,depth 5,tt_lab@SCHEME=DEEP,TT_BITS=13,DEEP,13,94,7265113,1204.5,0
//! ```
//!
//! (the `bot` cell is quoted in the file, as CSV quotes a cell with commas). Reading is
//! strict: a header that is not of this form, a row with the wrong number of cells, a
//! number that does not parse, a cell given twice or a file past the bounds is refused
//! with its line and cause, and nothing is guessed.

use std::collections::HashMap;
use std::fmt;
use std::io::Write;

/// The columns before the varied constants.
pub const LEADING: [&str; 3] = ["suite", "limit", "bot"];
/// The columns after the varied constants.
pub const TRAILING: [&str; 4] = ["positions", "nodes", "time_ms", "failed"];
/// Most varied constants a file may name.
pub const MAX_CONSTANTS: usize = 16;
/// Most cells a file may hold.
pub const MAX_CELLS: usize = 100_000;
/// Longest cell, in bytes.
pub const MAX_CELL_BYTES: usize = 1024;

/// What is wrong with a results file, and where.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {cause}")]
pub struct ResultsError {
    /// The line (1-based; 0 when the problem is not on one line).
    pub line: u64,
    /// What is wrong.
    pub cause: String,
}

/// One finished cell.
#[derive(Debug, Clone, PartialEq)]
pub struct Cell {
    /// The suite's name (a file stem or a set within a file).
    pub suite: String,
    /// The search limit, as text (`depth 7`).
    pub limit: String,
    /// The bot variant, as its spec (`tt_lab@SCHEME=DEEP,TT_BITS=13`).
    pub bot: String,
    /// The varied constants' values, in the order of [`Results::constants`].
    pub values: Vec<String>,
    /// How many positions were searched.
    pub positions: u64,
    /// Their nodes, added up.
    pub nodes: u64,
    /// Their search time, added up, in milliseconds.
    pub time_ms: f64,
    /// How many searches failed.
    pub failed: u64,
}

/// A results file: the varied constants and the finished cells, in file order.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Results {
    /// The varied constants, in column order.
    pub constants: Vec<String>,
    /// The finished cells.
    pub cells: Vec<Cell>,
}

fn error(line: u64, cause: impl Into<String>) -> ResultsError {
    ResultsError {
        line,
        cause: cause.into(),
    }
}

/// Whether `name` can be a constant's name: an identifier, not a fixed column.
fn check_constant(name: &str) -> Result<(), String> {
    let mut chars = name.chars();
    let starts_well = chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_');
    if !starts_well || !chars.all(|c| c.is_ascii_alphanumeric() || c == '_') || name.len() > 64 {
        return Err(format!("`{name}` is not the name of a constant"));
    }
    if LEADING.contains(&name) || TRAILING.contains(&name) {
        return Err(format!("`{name}` is a fixed column, not a constant"));
    }
    Ok(())
}

impl Results {
    /// An empty results file for these varied constants.
    pub fn new(constants: Vec<String>) -> Result<Results, ResultsError> {
        if constants.len() > MAX_CONSTANTS {
            return Err(error(
                0,
                format!("more than {MAX_CONSTANTS} varied constants"),
            ));
        }
        for (i, name) in constants.iter().enumerate() {
            check_constant(name).map_err(|cause| error(1, cause))?;
            if constants[..i].contains(name) {
                return Err(error(1, format!("constant `{name}` is named twice")));
            }
        }
        Ok(Results {
            constants,
            cells: Vec::new(),
        })
    }

    /// The header row.
    pub fn header(&self) -> Vec<String> {
        LEADING
            .iter()
            .map(|s| s.to_string())
            .chain(self.constants.iter().cloned())
            .chain(TRAILING.iter().map(|s| s.to_string()))
            .collect()
    }

    /// The value of `constant` in `cell`, if the file varies it.
    pub fn value<'a>(&self, cell: &'a Cell, constant: &str) -> Option<&'a str> {
        let index = self.constants.iter().position(|c| c == constant)?;
        cell.values.get(index).map(String::as_str)
    }

    /// Whether the file holds the cell of `bot` over `suite` at `limit`.
    pub fn contains(&self, suite: &str, limit: &str, bot: &str) -> bool {
        self.cells
            .iter()
            .any(|c| c.suite == suite && c.limit == limit && c.bot == bot)
    }

    /// Reads a whole results file.
    pub fn read(text: &str) -> Result<Results, ResultsError> {
        let mut reader = csv::ReaderBuilder::new()
            .has_headers(false)
            .flexible(true)
            .from_reader(text.as_bytes());
        let mut records = reader.records();
        let header = match records.next() {
            Some(record) => record.map_err(|e| csv_error(&e))?,
            None => return Err(error(1, "the file is empty: no header")),
        };
        let mut results = Results::from_header(&header)?;
        let mut seen = HashMap::new();
        for record in records {
            let record = record.map_err(|e| csv_error(&e))?;
            let line = record.position().map_or(0, csv::Position::line);
            if results.cells.len() >= MAX_CELLS {
                return Err(error(line, format!("more than {MAX_CELLS} cells")));
            }
            let cell = results.cell_of(&record, line, text)?;
            let key = (cell.suite.clone(), cell.limit.clone(), cell.bot.clone());
            if let Some(first) = seen.insert(key, line) {
                return Err(error(
                    line,
                    format!(
                        "the cell of `{}` over {} at {} is already on line {first}",
                        cell.bot, cell.suite, cell.limit
                    ),
                ));
            }
            results.cells.push(cell);
        }
        Ok(results)
    }

    /// The empty results of a header row, checked.
    fn from_header(header: &csv::StringRecord) -> Result<Results, ResultsError> {
        let names: Vec<&str> = header.iter().collect();
        let fixed = LEADING.len() + TRAILING.len();
        let well_formed = names.len() >= fixed
            && names[..LEADING.len()] == LEADING
            && names[names.len() - TRAILING.len()..] == TRAILING;
        if !well_formed {
            return Err(error(
                1,
                format!(
                    "the header is `{}`; a results file's is `{}`, then the varied constants, then `{}`",
                    names.join(","),
                    LEADING.join(","),
                    TRAILING.join(",")
                ),
            ));
        }
        let constants = &names[LEADING.len()..names.len() - TRAILING.len()];
        Results::new(constants.iter().map(|s| s.to_string()).collect())
    }

    /// One row, checked against the header.
    fn cell_of(
        &self,
        record: &csv::StringRecord,
        line: u64,
        text: &str,
    ) -> Result<Cell, ResultsError> {
        let width = LEADING.len() + self.constants.len() + TRAILING.len();
        if record.len() != width {
            let unfinished = !text.ends_with('\n')
                && record.position().is_some_and(|p| {
                    usize::try_from(p.byte()).is_ok_and(|b| !text[b..].contains('\n'))
                });
            let hint = if unfinished {
                " (the last line is unfinished: the sweep stopped while writing it; delete the line and resume)"
            } else {
                ""
            };
            return Err(error(
                line,
                format!("{} cells, expected {width}{hint}", record.len()),
            ));
        }
        if let Some(long) = record.iter().find(|c| c.len() > MAX_CELL_BYTES) {
            let start: String = long.chars().take(20).collect();
            return Err(error(
                line,
                format!("a cell (`{start}...`) is longer than {MAX_CELL_BYTES} bytes"),
            ));
        }
        let text_cell = |i: usize, name: &str| -> Result<String, ResultsError> {
            let value = &record[i];
            if value.is_empty() {
                return Err(error(line, format!("`{name}` is empty")));
            }
            Ok(value.to_string())
        };
        let first_measure = LEADING.len() + self.constants.len();
        let whole = |i: usize| -> Result<u64, ResultsError> {
            let name = TRAILING[i - first_measure];
            record[i].parse().map_err(|_| {
                error(
                    line,
                    format!("`{name}` is `{}`, not a whole number", &record[i]),
                )
            })
        };
        let time_ms: f64 = record[first_measure + 2]
            .parse()
            .ok()
            .filter(|t: &f64| t.is_finite() && *t >= 0.0)
            .ok_or_else(|| {
                error(
                    line,
                    format!(
                        "`time_ms` is `{}`, not a time in milliseconds",
                        &record[first_measure + 2]
                    ),
                )
            })?;
        Ok(Cell {
            suite: text_cell(0, "suite")?,
            limit: text_cell(1, "limit")?,
            bot: text_cell(2, "bot")?,
            values: (LEADING.len()..first_measure)
                .map(|i| text_cell(i, &self.constants[i - LEADING.len()]))
                .collect::<Result<_, _>>()?,
            positions: whole(first_measure)?,
            nodes: whole(first_measure + 1)?,
            time_ms,
            failed: whole(first_measure + 3)?,
        })
    }

    /// Writes the header row.
    pub fn write_header(&self, out: impl Write) -> std::io::Result<()> {
        write_row(out, &self.header())
    }

    /// Writes one cell's row (in one write, so a stopped sweep leaves whole lines).
    pub fn write_cell(&self, cell: &Cell, out: impl Write) -> std::io::Result<()> {
        let mut row = vec![cell.suite.clone(), cell.limit.clone(), cell.bot.clone()];
        row.extend(cell.values.iter().cloned());
        row.extend([
            cell.positions.to_string(),
            cell.nodes.to_string(),
            format!("{:.3}", cell.time_ms),
            cell.failed.to_string(),
        ]);
        write_row(out, &row)
    }
}

/// One CSV row, quoted as needed, written at once.
fn write_row(mut out: impl Write, cells: &[String]) -> std::io::Result<()> {
    let mut writer = csv::Writer::from_writer(Vec::new());
    writer.write_record(cells)?;
    let bytes = writer
        .into_inner()
        .map_err(|e| std::io::Error::other(e.to_string()))?;
    out.write_all(&bytes)
}

fn csv_error(err: &csv::Error) -> ResultsError {
    let line = err.position().map_or(0, csv::Position::line);
    let cause = match err.kind() {
        csv::ErrorKind::Utf8 { .. } => "not UTF-8 text".to_string(),
        _ => err.to_string(),
    };
    error(line, cause)
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} over {} at {}: {} nodes",
            self.bot, self.suite, self.limit, self.nodes
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const HEADER: &str = "suite,limit,bot,SCHEME,TT_BITS,positions,nodes,time_ms,failed\n";

    fn row(bot: &str, nodes: &str) -> String {
        format!("mg,depth 5,\"{bot}\",DEEP,13,94,{nodes},10.5,0\n")
    }

    #[test]
    fn bad_files_are_refused_with_line_and_cause() {
        let good = row("tt_lab@SCHEME=DEEP,TT_BITS=13", "100");
        let cases = [
            (String::new(), "line 1: the file is empty"),
            (
                "suite,bot,nodes\n".to_string(),
                "line 1: the header is `suite,bot,nodes`",
            ),
            (
                HEADER.replace("SCHEME", "9X"),
                "line 1: `9X` is not the name of a constant",
            ),
            (
                HEADER.replace("TT_BITS", "SCHEME"),
                "line 1: constant `SCHEME` is named twice",
            ),
            (
                format!("{HEADER}{good}{good}"),
                "line 3: the cell of `tt_lab@SCHEME=DEEP,TT_BITS=13` over mg at depth 5 is already on line 2",
            ),
            (
                format!("{HEADER}mg,depth 5,x,DEEP\n"),
                "line 2: 4 cells, expected 9",
            ),
            (
                format!("{HEADER}{good}mg,depth 5,y,DEEP,1"),
                "line 3: 5 cells, expected 9 (the last line is unfinished",
            ),
            (
                format!("{HEADER}{}", row("x", "-1")),
                "line 2: `nodes` is `-1`, not a whole number",
            ),
            (
                format!("{HEADER}mg,depth 5,x,DEEP,13,94,1,NaN,0\n"),
                "line 2: `time_ms` is `NaN`",
            ),
            (
                format!("{HEADER}mg,,x,DEEP,13,94,1,1,0\n"),
                "line 2: `limit` is empty",
            ),
            (
                format!("{HEADER}{}", row(&"x".repeat(MAX_CELL_BYTES + 1), "1")),
                "line 2: a cell (`xxxxxxxxxxxxxxxxxxxx...`) is longer than 1024 bytes",
            ),
        ];
        for (text, expected) in cases {
            let err = Results::read(&text).unwrap_err();
            assert!(err.to_string().starts_with(expected), "{text:?}: {err}");
        }
    }

    #[test]
    fn a_results_file_reads_back_what_was_written_whatever_the_cells_hold() {
        let results = Results::new(vec!["SCHEME".into()]).unwrap();
        let odd = Cell {
            suite: "set, \"quoted\"\nand a line".into(),
            limit: "depth 7".into(),
            bot: "lab@SCHEME=NEW".into(),
            values: vec!["NEW".into()],
            positions: 1,
            nodes: u64::MAX,
            time_ms: 0.001,
            failed: 3,
        };
        let mut text = Vec::new();
        results.write_header(&mut text).unwrap();
        results.write_cell(&odd, &mut text).unwrap();
        let back = Results::read(std::str::from_utf8(&text).unwrap()).unwrap();
        assert_eq!(back.cells, std::slice::from_ref(&odd));
        assert!(back.contains(&odd.suite, "depth 7", "lab@SCHEME=NEW"));
        assert!(!back.contains(&odd.suite, "depth 6", "lab@SCHEME=NEW"));
        assert_eq!(back.value(&back.cells[0], "SCHEME"), Some("NEW"));
        assert_eq!(back.value(&back.cells[0], "TT_BITS"), None);
    }
}

/// The examples this module's documentation had, as tests (its items are the crate's own).
#[cfg(test)]
mod documented {
    use super::*;

    #[test]
    fn new_as_documented() {
        let results = Results::new(vec!["SCHEME".into(), "TT_BITS".into()]).unwrap();
        assert_eq!(
            results.header().join(","),
            "suite,limit,bot,SCHEME,TT_BITS,positions,nodes,time_ms,failed"
        );
        assert!(Results::new(vec!["nodes".into()]).is_err());
    }

    #[test]
    fn read_as_documented() {
        let text = "suite,limit,bot,TT_BITS,positions,nodes,time_ms,failed\n\
                    mg,depth 5,tt_lab@TT_BITS=13,13,94,7265113,1204.5,0\n";
        let results = Results::read(text).unwrap();
        assert_eq!(results.cells[0].nodes, 7_265_113);
        assert_eq!(results.value(&results.cells[0], "TT_BITS"), Some("13"));
        let bad = Results::read(&text.replace("7265113", "lots")).unwrap_err();
        assert_eq!(
            bad.to_string(),
            "line 2: `nodes` is `lots`, not a whole number"
        );
    }

    #[test]
    fn write_cell_as_documented() {
        let results = Results::new(vec!["TT_BITS".into()]).unwrap();
        let cell = Cell {
            suite: "mg".into(),
            limit: "depth 5".into(),
            bot: "tt_lab@SCHEME=DEEP,TT_BITS=13".into(),
            values: vec!["13".into()],
            positions: 94,
            nodes: 7_265_113,
            time_ms: 1204.5,
            failed: 0,
        };
        let mut text = Vec::new();
        results.write_header(&mut text).unwrap();
        results.write_cell(&cell, &mut text).unwrap();
        let back = Results::read(std::str::from_utf8(&text).unwrap()).unwrap();
        assert_eq!(back.cells, [cell]);
    }
}

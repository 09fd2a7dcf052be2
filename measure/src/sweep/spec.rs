//! A sweep's definition, a TOML file kept with the experiment it runs: the bot, the values
//! of each varied constant, the suites with their limits, and which constants the figures
//! put on their axes.
//!
//! ```toml
//! bot = "bot/lab/tt_lab.rs"
//!
//! [vary]
//! SCHEME = ["DEEP", "NEW", "OLD", "BIG1", "BIGALL", "TWODEEP", "TWOBIG1"]
//! TT_BITS = "10..=17"
//!
//! [[suite]]
//! name = "middlegame"
//! file = "suites/breuker1996.epd"
//! ids = "mg."          # only the records whose id starts so (default: all)
//! depth = 5
//!
//! [plot]
//! x = "TT_BITS"
//! series = "SCHEME"
//! x_labels = "powers-of-two"
//! x_label = "table size (entries)"
//! ```
//!
//! Every suite is searched in game sequence (the positions of one game in order, the
//! engine's table kept between them), as the 1996 study searched its games, unless it says
//! `sequence = false` (then each position from `ucinewgame`). One suite file may appear
//! several times with different depths or ids (a suite is named by its name and limit). The grid is
//! every combination of the `vary` values: the cells are each suite with each variant, in
//! that order, the last constant varying fastest. Unknown keys, empty lists, repeated
//! values and a grid past [`MAX_CELLS`] are refused with what is wrong.

use std::collections::{BTreeMap, HashMap, HashSet};

use serde::Deserialize;

use super::plot::XLabels;
use super::results::{Cell, MAX_CELLS, Results};

/// Most values one constant may take in a sweep.
pub const MAX_VALUES: usize = 1000;
/// The deepest search a suite may ask for (as `challenge bench`).
pub const MAX_DEPTH: u32 = 64;

/// Why a sweep definition cannot be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct SpecError(pub String);

/// One suite of a sweep.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SuiteSpec {
    /// Its name in the results and the figures.
    pub name: String,
    /// The EPD file, relative to the definition's folder.
    pub file: String,
    /// Only the records whose id starts with this.
    #[serde(default)]
    pub ids: String,
    /// The depth of every search.
    pub depth: u32,
    /// Whether the positions of one game are searched in order, the engine's table kept
    /// between them (default), or each from `ucinewgame`.
    #[serde(default = "yes")]
    pub sequence: bool,
}

fn yes() -> bool {
    true
}

impl SuiteSpec {
    /// The limit, as the results file writes it: `depth 6`, or `depth 6 independent` for
    /// a suite searched position by position.
    pub fn limit(&self) -> String {
        if self.sequence {
            format!("depth {}", self.depth)
        } else {
            format!("depth {} independent", self.depth)
        }
    }
}

/// The longest suite name: it becomes part of a figure's file name.
pub const MAX_NAME: usize = 40;

/// What the figures show.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlotSpec {
    /// The constant along the x axis.
    pub x: String,
    /// The constant whose values are the lines (default: none, one line).
    #[serde(default)]
    pub series: String,
    /// `values` or `powers-of-two`.
    #[serde(default = "default_labels")]
    pub x_labels: String,
    /// The x axis's label (default: the constant's name).
    #[serde(default)]
    pub x_label: String,
}

fn default_labels() -> String {
    "values".into()
}

impl PlotSpec {
    /// How the x values are labelled.
    pub fn labels(&self) -> Result<XLabels, SpecError> {
        match self.x_labels.as_str() {
            "values" => Ok(XLabels::Values),
            "powers-of-two" => Ok(XLabels::PowersOfTwo),
            other => Err(SpecError(format!(
                "plot.x_labels is `{other}`: use `values` or `powers-of-two`"
            ))),
        }
    }
}

/// A value as the definition writes it: a number, a word, or a range `"A..=B"`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(untagged)]
enum Written {
    Int(i64),
    Text(String),
    List(Vec<Written>),
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSpec {
    bot: String,
    vary: BTreeMap<String, Written>,
    #[serde(rename = "suite")]
    suites: Vec<SuiteSpec>,
    plot: PlotSpec,
}

/// A sweep's definition, checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SweepSpec {
    /// The bot, as a file path relative to the definition's folder or a kit bot's name.
    pub bot: String,
    /// Each varied constant and its values, in the definition's order of keys (sorted).
    pub vary: Vec<(String, Vec<String>)>,
    /// The suites.
    pub suites: Vec<SuiteSpec>,
    /// The figures.
    pub plot: PlotSpec,
}

/// One cell of the grid, to be run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlannedCell {
    /// Index into [`SweepSpec::suites`].
    pub suite: usize,
    /// Each varied constant's value, in [`SweepSpec::vary`]'s order.
    pub values: Vec<String>,
}

impl SweepSpec {
    /// Reads and checks a definition.
    pub fn parse(text: &str) -> Result<SweepSpec, SpecError> {
        let raw: RawSpec =
            toml::from_str(text).map_err(|e| SpecError(e.to_string().trim_end().to_string()))?;
        if raw.bot.trim().is_empty() {
            return Err(SpecError("`bot` is empty".into()));
        }
        let mut vary = Vec::new();
        for (name, written) in raw.vary {
            super::results::Results::new(vec![name.clone()])
                .map_err(|e| SpecError(format!("vary: {}", e.cause)))?;
            vary.push((name.clone(), values(&name, written)?));
        }
        let spec = SweepSpec {
            bot: raw.bot,
            vary,
            suites: raw.suites,
            plot: raw.plot,
        };
        spec.check()?;
        Ok(spec)
    }

    fn check(&self) -> Result<(), SpecError> {
        if self.suites.is_empty() {
            return Err(SpecError("no [[suite]]: a sweep needs one at least".into()));
        }
        for (i, suite) in self.suites.iter().enumerate() {
            if suite.name.trim().is_empty() || suite.file.trim().is_empty() {
                return Err(SpecError(format!(
                    "suite {}: `name` and `file` must not be empty",
                    i + 1
                )));
            }
            if !(1..=MAX_DEPTH).contains(&suite.depth) {
                return Err(SpecError(format!(
                    "suite `{}`: depth {} is not in 1..={MAX_DEPTH}",
                    suite.name, suite.depth
                )));
            }
            let plain = suite.name.len() <= MAX_NAME
                && suite
                    .name
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || "_.-".contains(c));
            if !plain {
                return Err(SpecError(format!(
                    "suite `{}`: a name is up to {MAX_NAME} letters, digits, `_`, `.` and `-` \
                     (it names the figure's file)",
                    suite.name
                )));
            }
            if self.suites[..i]
                .iter()
                .any(|s| s.name == suite.name && s.limit() == suite.limit())
            {
                return Err(SpecError(format!(
                    "suite `{}` at {} is given twice",
                    suite.name,
                    suite.limit()
                )));
            }
        }
        let series = Some(&self.plot.series).filter(|s| !s.is_empty());
        for constant in std::iter::once(&self.plot.x).chain(series) {
            if !self.vary.iter().any(|(name, _)| name == constant) {
                return Err(SpecError(format!(
                    "plot: `{constant}` is not a varied constant"
                )));
            }
        }
        self.plot.labels()?;
        let cells = self
            .vary
            .iter()
            .try_fold(self.suites.len(), |n, (_, v)| n.checked_mul(v.len()));
        match cells {
            Some(n) if n <= MAX_CELLS => Ok(()),
            _ => Err(SpecError(format!(
                "the grid has more than {MAX_CELLS} cells"
            ))),
        }
    }

    /// Every cell: each suite with each variant, the last constant varying fastest.
    pub fn cells(&self) -> Vec<PlannedCell> {
        let mut cells = Vec::new();
        for suite in 0..self.suites.len() {
            let mut combos: Vec<Vec<String>> = vec![Vec::new()];
            for (_, values) in &self.vary {
                combos = combos
                    .into_iter()
                    .flat_map(|combo| {
                        values.iter().map(move |v| {
                            let mut next = combo.clone();
                            next.push(v.clone());
                            next
                        })
                    })
                    .collect();
            }
            cells.extend(
                combos
                    .into_iter()
                    .map(|values| PlannedCell { suite, values }),
            );
        }
        cells
    }

    /// An empty results file for this sweep.
    pub fn empty_results(&self) -> Results {
        Results {
            constants: self.vary.iter().map(|(name, _)| name.clone()).collect(),
            cells: Vec::new(),
        }
    }

    /// The cells `results` does not hold yet, in order: what a resumed sweep still runs.
    /// Results of another grid (other constants) are refused rather than mixed in.
    pub fn pending(&self, results: &Results) -> Result<Vec<PlannedCell>, SpecError> {
        let wanted = self.empty_results().constants;
        if results.constants != wanted {
            return Err(SpecError(format!(
                "the results file varies {}, this sweep varies {}: use another results file",
                listed(&results.constants),
                listed(&wanted)
            )));
        }
        let grid: HashSet<(String, String, String)> =
            self.cells().iter().map(|cell| self.key(cell)).collect();
        if let Some(cell) = results
            .cells
            .iter()
            .find(|c| !grid.contains(&(c.suite.clone(), c.limit.clone(), c.bot.clone())))
        {
            return Err(SpecError(format!(
                "the results file holds `{}` over {} at {}, which this sweep does not run: \
                 it is another sweep's file; use another results file",
                cell.bot, cell.suite, cell.limit
            )));
        }
        let done: HashSet<(String, String, String)> = results
            .cells
            .iter()
            .map(|c| (c.suite.clone(), c.limit.clone(), c.bot.clone()))
            .collect();
        Ok(self
            .cells()
            .into_iter()
            .filter(|cell| !done.contains(&self.key(cell)))
            .collect())
    }

    /// The results file's key of a cell: its suite, limit and variant.
    fn key(&self, cell: &PlannedCell) -> (String, String, String) {
        let suite = &self.suites[cell.suite];
        (suite.name.clone(), suite.limit(), self.variant(cell))
    }

    /// The cells of `results` in the grid's order (cells of another grid left out): how
    /// a finished sweep writes its file, whatever order `-j` finished the cells in.
    pub fn in_grid_order(&self, results: &Results) -> Results {
        let by_key: HashMap<(&str, &str, &str), &Cell> = results
            .cells
            .iter()
            .map(|c| ((c.suite.as_str(), c.limit.as_str(), c.bot.as_str()), c))
            .collect();
        let mut ordered = self.empty_results();
        for planned in self.cells() {
            let (suite, limit, bot) = self.key(&planned);
            if let Some(cell) = by_key.get(&(suite.as_str(), limit.as_str(), bot.as_str())) {
                ordered.cells.push((*cell).clone());
            }
        }
        ordered
    }

    /// The bot spec of a cell's variant: `BOT@NAME=VALUE,...`.
    pub fn variant(&self, cell: &PlannedCell) -> String {
        let settings: Vec<String> = self
            .vary
            .iter()
            .zip(&cell.values)
            .map(|((name, _), value)| format!("{name}={value}"))
            .collect();
        if settings.is_empty() {
            self.bot.clone()
        } else {
            format!("{}@{}", self.bot, settings.join(","))
        }
    }
}

fn listed(names: &[String]) -> String {
    if names.is_empty() {
        "nothing".into()
    } else {
        names.join(", ")
    }
}

/// The values of `name` as written: a list of numbers and words, or a range.
fn values(name: &str, written: Written) -> Result<Vec<String>, SpecError> {
    let list = match written {
        Written::Text(text) if text.contains("..=") => range(name, &text)?,
        Written::Text(text) => vec![text],
        Written::Int(n) => vec![n.to_string()],
        Written::List(items) => items
            .into_iter()
            .map(|item| match item {
                Written::Int(n) => Ok(n.to_string()),
                Written::Text(t) => Ok(t),
                Written::List(_) => Err(SpecError(format!("vary.{name}: a list inside a list"))),
            })
            .collect::<Result<_, _>>()?,
    };
    if list.is_empty() {
        return Err(SpecError(format!("vary.{name} has no values")));
    }
    for (i, value) in list.iter().enumerate() {
        let plain = !value.is_empty()
            && value
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "_:.-".contains(c));
        if !plain {
            return Err(SpecError(format!(
                "vary.{name}: `{value}` is not a value a bot spec can carry"
            )));
        }
        if list[..i].contains(value) {
            return Err(SpecError(format!("vary.{name}: `{value}` is given twice")));
        }
    }
    Ok(list)
}

/// `"A..=B"` as the integers from A to B.
fn range(name: &str, text: &str) -> Result<Vec<String>, SpecError> {
    let bad = || {
        SpecError(format!(
            "vary.{name}: `{text}` is not a range `MIN..=MAX` of integers"
        ))
    };
    let (low, high) = text.split_once("..=").ok_or_else(bad)?;
    let low: i64 = low.trim().parse().map_err(|_| bad())?;
    let high: i64 = high.trim().parse().map_err(|_| bad())?;
    if low > high {
        return Err(SpecError(format!(
            "vary.{name}: `{text}` is empty (MIN is above MAX)"
        )));
    }
    if high.abs_diff(low) >= MAX_VALUES as u64 {
        return Err(SpecError(format!(
            "vary.{name}: `{text}` has more than {MAX_VALUES} values"
        )));
    }
    Ok((low..=high).map(|n| n.to_string()).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    const GOOD: &str = r#"
bot = "bot/lab/tt_lab.rs"
[vary]
SCHEME = ["DEEP", "NEW"]
TT_BITS = "10..=11"
[[suite]]
name = "mg"
file = "suites/breuker1996.epd"
ids = "mg."
depth = 4
[[suite]]
name = "eg"
file = "suites/breuker1996.epd"
ids = "eg."
depth = 6
[plot]
x = "TT_BITS"
series = "SCHEME"
x_labels = "powers-of-two"
"#;

    #[test]
    fn the_grid_is_every_suite_with_every_variant() {
        let spec = SweepSpec::parse(GOOD).unwrap();
        let cells = spec.cells();
        assert_eq!(cells.len(), 8);
        let listed: Vec<(usize, String)> =
            cells.iter().map(|c| (c.suite, spec.variant(c))).collect();
        assert_eq!(
            listed[0],
            (0, "bot/lab/tt_lab.rs@SCHEME=DEEP,TT_BITS=10".into())
        );
        assert_eq!(
            listed[3],
            (0, "bot/lab/tt_lab.rs@SCHEME=NEW,TT_BITS=11".into())
        );
        assert_eq!(listed[4].0, 1);
        assert_eq!(spec.suites[1].limit(), "depth 6");
        assert_eq!(spec.plot.labels(), Ok(XLabels::PowersOfTwo));
    }

    #[test]
    fn bad_definitions_say_what_is_wrong() {
        let cases = [
            (
                GOOD.replace("depth = 4", "depth = 0"),
                "suite `mg`: depth 0 is not in 1..=64",
            ),
            (
                GOOD.replace("\"10..=11\"", "\"11..=10\""),
                "vary.TT_BITS: `11..=10` is empty",
            ),
            (
                GOOD.replace("\"10..=11\"", "\"1..=x\""),
                "vary.TT_BITS: `1..=x` is not a range",
            ),
            (
                GOOD.replace("\"NEW\"", "\"DEEP\""),
                "vary.SCHEME: `DEEP` is given twice",
            ),
            (
                GOOD.replace("\"NEW\"", "\"A,B=1\""),
                "vary.SCHEME: `A,B=1` is not a value",
            ),
            (
                GOOD.replace("[\"DEEP\", \"NEW\"]", "[]"),
                "vary.SCHEME has no values",
            ),
            (
                GOOD.replace("series = \"SCHEME\"", "series = \"NODES\""),
                "plot: `NODES` is not a varied constant",
            ),
            (
                GOOD.replace("\"powers-of-two\"", "\"log\""),
                "plot.x_labels is `log`",
            ),
            (
                GOOD.replace("name = \"eg\"", "name = \"mg\"")
                    .replace("depth = 6", "depth = 4"),
                "suite `mg` at depth 4 is given twice",
            ),
            (
                GOOD.replace("name = \"eg\"", "name = \"e g\""),
                "suite `e g`: a name is up to 40 letters",
            ),
            (
                GOOD.replace("ids = \"mg.\"", "idz = \"mg.\""),
                "unknown field `idz`",
            ),
            (
                GOOD.replace("\"10..=11\"", "\"0..=999999\""),
                "more than 1000 values",
            ),
            (
                GOOD.replace("SCHEME =", "scheme-x ="),
                "vary: `scheme-x` is not the name of a constant",
            ),
        ];
        for (text, expected) in cases {
            let err = SweepSpec::parse(&text).unwrap_err();
            assert!(err.to_string().contains(expected), "{expected}: got {err}");
        }
    }

    #[test]
    fn results_of_another_grid_are_refused_not_mixed_in() {
        let spec = SweepSpec::parse(GOOD).unwrap();
        let other = Results::new(vec!["TT_BITS".into()]).unwrap();
        let err = spec.pending(&other).unwrap_err();
        assert_eq!(
            err.to_string(),
            "the results file varies TT_BITS, this sweep varies SCHEME, TT_BITS: use another results file"
        );
        assert_eq!(spec.pending(&spec.empty_results()).unwrap().len(), 8);
    }
}

/// The examples this module's documentation had, as tests (its items are the crate's own).
#[cfg(test)]
mod documented {
    use super::*;

    #[test]
    fn limit_as_documented() {
        let suite: SuiteSpec =
            toml::from_str("name = \"mg\"\nfile = \"s.epd\"\ndepth = 6\n").unwrap();
        assert_eq!(suite.limit(), "depth 6");
    }

    #[test]
    fn parse_as_documented() {
        let spec = SweepSpec::parse(
            r#"
            bot = "bot/lab/tt_lab.rs"
            [vary]
            SCHEME = ["DEEP", "NEW"]
            TT_BITS = "10..=12"
            [[suite]]
            name = "mg"
            file = "suites/breuker1996.epd"
            ids = "mg."
            depth = 4
            [plot]
            x = "TT_BITS"
            series = "SCHEME"
        "#,
        )
        .unwrap();
        let cells = spec.cells();
        assert_eq!(cells.len(), 6);
        assert_eq!(
            spec.variant(&cells[1]),
            "bot/lab/tt_lab.rs@SCHEME=DEEP,TT_BITS=11"
        );
    }

    #[test]
    fn pending_as_documented() {
        let spec = SweepSpec::parse(
            "bot = \"b.rs\"\n[vary]\nK = \"1..=3\"\n\
            [[suite]]\nname = \"s\"\nfile = \"s.epd\"\ndepth = 2\n\
            [plot]\nx = \"K\"\nseries = \"K\"\n",
        )
        .unwrap();
        let mut results = spec.empty_results();
        results.cells.push(Cell {
            suite: "s".into(),
            limit: "depth 2".into(),
            bot: "b.rs@K=2".into(),
            values: vec!["2".into()],
            positions: 1,
            nodes: 10,
            time_ms: 1.0,
            failed: 0,
        });
        let left: Vec<String> = spec
            .pending(&results)
            .unwrap()
            .iter()
            .map(|c| spec.variant(c))
            .collect();
        assert_eq!(left, ["b.rs@K=1", "b.rs@K=3"]);
    }

    #[test]
    fn in_grid_order_as_documented() {
        let spec = SweepSpec::parse(
            "bot = \"b.rs\"\n[vary]\nK = \"1..=2\"\n\
            [[suite]]\nname = \"s\"\nfile = \"s.epd\"\ndepth = 2\n\
            [plot]\nx = \"K\"\nseries = \"K\"\n",
        )
        .unwrap();
        let cell = |k: &str| Cell {
            suite: "s".into(),
            limit: "depth 2".into(),
            bot: format!("b.rs@K={k}"),
            values: vec![k.into()],
            positions: 1,
            nodes: 10,
            time_ms: 1.0,
            failed: 0,
        };
        let mut results = spec.empty_results();
        results.cells = vec![cell("2"), cell("1")];
        assert_eq!(spec.in_grid_order(&results).cells, [cell("1"), cell("2")]);
    }
}

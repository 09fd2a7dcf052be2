//! A sweep: every variant of a bot (its `// vary` constants set to each value of a grid)
//! searched over every suite, each cell adding up one search per position. The cells'
//! totals go to a results file ([`results`]), which is also what a resumed sweep reads
//! to skip the cells already done, and the figures ([`figures`], drawn by [`plot`]) show
//! one chart per suite and limit: total nodes against one constant, one line per value of
//! another, as Breuker, Uiterwijk and van den Herik (1996) drew theirs. A sweep is defined
//! by a TOML file ([`spec`]), and run by [`run::Sweep`] (`challenge sweep`), which reports
//! through [`run::SweepEvent`].

pub mod plot;
pub mod results;
pub mod run;
pub mod spec;

use plot::{Chart, Series, XLabels};
use results::Results;

/// Which constants the figures put where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FigureAxes {
    /// The constant along the x axis (numeric: `TT_BITS`).
    pub x: String,
    /// The constant whose values are the lines (`SCHEME`); empty: one line, `all`.
    pub series: String,
    /// How the x values are labelled.
    pub x_labels: XLabels,
    /// The x axis's label.
    pub x_label: String,
}

/// One figure: the suite and limit it shows, and its chart.
pub type Figure = ((String, String), Chart);

/// Why the figures cannot be made from a results file.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FigureError {
    /// The file does not vary the constant.
    #[error("the results vary no constant `{0}` (they vary: {1})")]
    NoSuchConstant(String, String),
    /// An x value is not a number.
    #[error("`{constant}` is `{value}` for `{bot}`, not a number to plot")]
    NotNumeric {
        /// The constant.
        constant: String,
        /// Its value.
        value: String,
        /// The cell's bot.
        bot: String,
    },
}

/// One chart per suite and limit (in the order they first appear): total nodes against
/// `axes.x`, one line per value of `axes.series` (in the order those first appear).
/// Cells with a failed search are left out: their totals are not comparable.
pub fn figures(results: &Results, axes: &FigureAxes) -> Result<Vec<Figure>, FigureError> {
    let series = Some(&axes.series).filter(|s| !s.is_empty());
    for constant in std::iter::once(&axes.x).chain(series) {
        if !results.constants.contains(constant) {
            return Err(FigureError::NoSuchConstant(
                constant.clone(),
                results.constants.join(", "),
            ));
        }
    }
    let mut charts: Vec<Figure> = Vec::new();
    for cell in results.cells.iter().filter(|c| c.failed == 0) {
        let key = (cell.suite.clone(), cell.limit.clone());
        let value = |constant: &str| results.value(cell, constant).unwrap_or_default();
        let x: f64 = value(&axes.x)
            .parse()
            .ok()
            .filter(|x: &f64| x.is_finite())
            .ok_or_else(|| FigureError::NotNumeric {
                constant: axes.x.clone(),
                value: value(&axes.x).to_string(),
                bot: cell.bot.clone(),
            })?;
        let index = match charts.iter().position(|(k, _)| *k == key) {
            Some(index) => index,
            None => {
                charts.push((key, empty_chart(cell, axes)));
                charts.len() - 1
            }
        };
        let chart = &mut charts[index].1;
        let name = if axes.series.is_empty() {
            "all"
        } else {
            value(&axes.series)
        };
        match chart.series.iter_mut().find(|s| s.name == name) {
            Some(series) => series.points.push((x, cell.nodes as f64)),
            None => chart.series.push(Series {
                name: name.to_string(),
                points: vec![(x, cell.nodes as f64)],
            }),
        }
    }
    for (_, chart) in &mut charts {
        for series in &mut chart.series {
            series.points.sort_by(|a, b| a.0.total_cmp(&b.0));
        }
    }
    Ok(charts)
}

fn empty_chart(cell: &results::Cell, axes: &FigureAxes) -> Chart {
    Chart {
        title: format!(
            "{}, {}: total nodes of {} positions",
            cell.suite, cell.limit, cell.positions
        ),
        x_label: axes.x_label.clone(),
        y_label: "nodes searched".into(),
        x_labels: axes.x_labels,
        series: Vec::new(),
    }
}

/// The examples this module's documentation had, as tests (its items are the crate's own).
#[cfg(test)]
mod documented {
    use super::*;

    #[test]
    fn figures_as_documented() {
        let text = "suite,limit,bot,SCHEME,TT_BITS,positions,nodes,time_ms,failed\n\
            mg,depth 5,a,DEEP,13,94,900,1,0\nmg,depth 5,b,DEEP,14,94,800,1,0\n\
            mg,depth 5,c,NEW,13,94,990,1,0\neg,depth 8,d,NEW,13,112,5000,1,0\n";
        let axes = FigureAxes {
            x: "TT_BITS".into(),
            series: "SCHEME".into(),
            x_labels: XLabels::PowersOfTwo,
            x_label: "table size (entries)".into(),
        };
        let charts = figures(&Results::read(text).unwrap(), &axes).unwrap();
        assert_eq!(charts.len(), 2);
        assert_eq!(
            charts[0].1.title,
            "mg, depth 5: total nodes of 94 positions"
        );
        assert_eq!(charts[0].1.series[0].points, [(13.0, 900.0), (14.0, 800.0)]);
    }
}

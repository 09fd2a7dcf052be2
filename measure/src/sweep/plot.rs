//! Line charts as standalone SVG: one line per series, shaped like the figures of
//! Breuker, Uiterwijk and van den Herik (1996) (total nodes against table size, one line
//! per scheme). Hand-written rather than drawn with a plotting crate: a chart is a few
//! dozen elements, and the text is escaped here, once, for every name a chart shows.
//!
//! Lines differ by colour (the Okabe-Ito palette, readable with the common colour-vision
//! deficiencies), by marker and by dash pattern, so two lines that lie on top of each other
//! (BIG1 and BIGALL do in the paper) can still be told apart.

use std::fmt::Write as _;

/// How the x values are labelled.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum XLabels {
    /// As the numbers they are.
    Values,
    /// As the powers of two they are the exponents of (13 becomes `8K`, 20 becomes `1M`):
    /// for a table size given in bits.
    PowersOfTwo,
}

/// One line of a chart.
#[derive(Debug, Clone, PartialEq)]
pub struct Series {
    /// The name the legend shows.
    pub name: String,
    /// Its points, `(x, y)`, drawn in order of x.
    pub points: Vec<(f64, f64)>,
}

/// A chart to draw.
#[derive(Debug, Clone, PartialEq)]
pub struct Chart {
    /// The title above it.
    pub title: String,
    /// The x axis's label.
    pub x_label: String,
    /// The y axis's label.
    pub y_label: String,
    /// How x values are labelled.
    pub x_labels: XLabels,
    /// The lines.
    pub series: Vec<Series>,
}

/// Why a chart cannot be drawn.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PlotError {
    /// No series has a point.
    #[error("chart `{0}` has no points to draw")]
    Empty(String),
    /// A coordinate is infinite or not a number.
    #[error("series `{series}` of chart `{chart}` has a point that is not a finite number")]
    NotFinite {
        /// The chart's title.
        chart: String,
        /// The series' name.
        series: String,
    },
}

const WIDTH: f64 = 760.0;
const HEIGHT: f64 = 480.0;
const LEFT: f64 = 84.0;
const RIGHT: f64 = 190.0;
const TOP: f64 = 44.0;
const BOTTOM: f64 = 64.0;
const INSET: f64 = 14.0;
const COLOURS: [&str; 7] = [
    "#000000", "#E69F00", "#56B4E9", "#009E73", "#0072B2", "#D55E00", "#CC79A7",
];
const DASHES: [&str; 4] = ["", "6 3", "2 3", "8 3 2 3"];

/// Text made safe inside an SVG element or attribute.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '&' => out.push_str("&amp;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            // XML 1.0 has no way to write the other control characters.
            c if c.is_control() && c != '\n' && c != '\t' => out.push('\u{FFFD}'),
            c => out.push(c),
        }
    }
    out
}

/// Round tick values covering `low..=high`: about five steps of 1, 2 or 5 times a power
/// of ten.
pub fn ticks(low: f64, high: f64) -> Vec<f64> {
    let (low, high) = if high > low {
        (low, high)
    } else {
        (low - 1.0, low + 1.0)
    };
    let rough = (high - low) / 5.0;
    let power = 10f64.powf(rough.log10().floor());
    let step = [1.0, 2.0, 5.0, 10.0]
        .into_iter()
        .map(|m| m * power)
        .find(|s| *s >= rough)
        .unwrap_or(10.0 * power);
    let first = (low / step).floor() as i64;
    let last = (high / step).ceil() as i64;
    (first..=last).map(|i| i as f64 * step).collect()
}

/// A count in few characters: `950`, `12.5K`, `3.25M`, `1.2G`.
pub fn short_count(value: f64) -> String {
    let (scaled, unit) = [(1e9, "G"), (1e6, "M"), (1e3, "K")]
        .into_iter()
        .find(|(size, _)| value.abs() >= *size)
        .map_or((value, ""), |(size, unit)| (value / size, unit));
    let text = format!("{scaled:.2}");
    let text = text.trim_end_matches('0').trim_end_matches('.');
    format!("{text}{unit}")
}

/// The label of x value `x`.
fn x_label(x: f64, labels: XLabels) -> String {
    match labels {
        XLabels::PowersOfTwo if x.fract() == 0.0 && (0.0..=62.0).contains(&x) => {
            let entries = 1u64 << (x as u32);
            match entries {
                e if e >= 1 << 30 => format!("{}G", e >> 30),
                e if e >= 1 << 20 => format!("{}M", e >> 20),
                e if e >= 1 << 10 => format!("{}K", e >> 10),
                e => e.to_string(),
            }
        }
        _ => short_count(x),
    }
}

/// Where the data go: the plot area's scales.
struct Frame {
    x_ticks: Vec<f64>,
    y_ticks: Vec<f64>,
}

impl Frame {
    fn of(chart: &Chart) -> Frame {
        let points = || chart.series.iter().flat_map(|s| s.points.iter());
        let mut xs: Vec<f64> = points().map(|p| p.0).collect();
        xs.sort_by(f64::total_cmp);
        xs.dedup();
        let (y_low, y_high) = points().fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), p| {
            (l.min(p.1), h.max(p.1))
        });
        let x_ticks = if xs.len() <= 16 {
            xs
        } else {
            ticks(xs[0], xs[xs.len() - 1])
        };
        Frame {
            x_ticks,
            y_ticks: ticks(y_low, y_high),
        }
    }

    fn px(&self, x: f64) -> f64 {
        let (low, high) = span(&self.x_ticks);
        // Inset, so that the first and last markers do not sit on the frame.
        LEFT + INSET + (x - low) / (high - low) * (WIDTH - LEFT - RIGHT - 2.0 * INSET)
    }

    fn py(&self, y: f64) -> f64 {
        let (low, high) = span(&self.y_ticks);
        HEIGHT - BOTTOM - (y - low) / (high - low) * (HEIGHT - TOP - BOTTOM)
    }
}

/// The first and last tick, never equal.
fn span(ticks: &[f64]) -> (f64, f64) {
    let low = ticks.first().copied().unwrap_or(0.0);
    let high = ticks.last().copied().unwrap_or(1.0);
    if high > low {
        (low, high)
    } else {
        (low - 0.5, low + 0.5)
    }
}

/// The chart as a standalone SVG document.
pub fn svg(chart: &Chart) -> Result<String, PlotError> {
    check(chart)?;
    let frame = Frame::of(chart);
    let mut out = String::new();
    let _ = write!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{WIDTH}\" height=\"{HEIGHT}\" viewBox=\"0 0 {WIDTH} {HEIGHT}\" font-family=\"sans-serif\" font-size=\"12\">\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
    );
    axes(&mut out, chart, &frame);
    for (index, series) in chart.series.iter().enumerate() {
        line(&mut out, &frame, series, index);
        legend_entry(&mut out, series, index);
    }
    out.push_str("</svg>\n");
    Ok(out)
}

fn check(chart: &Chart) -> Result<(), PlotError> {
    if chart.series.iter().all(|s| s.points.is_empty()) {
        return Err(PlotError::Empty(chart.title.clone()));
    }
    for series in &chart.series {
        if series
            .points
            .iter()
            .any(|(x, y)| !x.is_finite() || !y.is_finite())
        {
            return Err(PlotError::NotFinite {
                chart: chart.title.clone(),
                series: series.name.clone(),
            });
        }
    }
    Ok(())
}

/// Title, frame, grid lines, tick labels and axis labels.
fn axes(out: &mut String, chart: &Chart, frame: &Frame) {
    let (left, right) = (LEFT, WIDTH - RIGHT);
    let (top, bottom) = (TOP, HEIGHT - BOTTOM);
    let _ = writeln!(
        out,
        "<text x=\"{:.1}\" y=\"24\" text-anchor=\"middle\" font-size=\"15\">{}</text>",
        (left + right) / 2.0,
        escape(&chart.title)
    );
    for &y in &frame.y_ticks {
        let py = frame.py(y);
        let _ = writeln!(
            out,
            "<line x1=\"{left}\" x2=\"{right}\" y1=\"{py:.1}\" y2=\"{py:.1}\" stroke=\"#dddddd\"/>\n<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">{}</text>",
            left - 6.0,
            py + 4.0,
            short_count(y)
        );
    }
    for &x in &frame.x_ticks {
        let px = frame.px(x);
        let _ = writeln!(
            out,
            "<line x1=\"{px:.1}\" x2=\"{px:.1}\" y1=\"{bottom}\" y2=\"{:.1}\" stroke=\"#333333\"/>\n<text x=\"{px:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{}</text>",
            bottom + 5.0,
            bottom + 19.0,
            escape(&x_label(x, chart.x_labels))
        );
    }
    let _ = writeln!(
        out,
        "<rect x=\"{left}\" y=\"{top}\" width=\"{:.1}\" height=\"{:.1}\" fill=\"none\" stroke=\"#333333\"/>\n<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{}</text>\n<text transform=\"translate(18 {:.1}) rotate(-90)\" text-anchor=\"middle\">{}</text>",
        right - left,
        bottom - top,
        (left + right) / 2.0,
        HEIGHT - 18.0,
        escape(&chart.x_label),
        (top + bottom) / 2.0,
        escape(&chart.y_label)
    );
}

/// The colour and dash pattern of series `index`: neighbours differ in both.
fn style(index: usize) -> (&'static str, &'static str) {
    let colour = COLOURS[index % COLOURS.len()];
    let dash = DASHES[(index + index / COLOURS.len()) % DASHES.len()];
    (colour, dash)
}

/// A series' line and its markers.
fn line(out: &mut String, frame: &Frame, series: &Series, index: usize) {
    let mut points = series.points.clone();
    points.sort_by(|a, b| a.0.total_cmp(&b.0));
    let coords: Vec<String> = points
        .iter()
        .map(|&(x, y)| format!("{:.1},{:.1}", frame.px(x), frame.py(y)))
        .collect();
    let (colour, dash) = style(index);
    let _ = writeln!(
        out,
        "<polyline fill=\"none\" stroke=\"{colour}\" stroke-width=\"1.8\" stroke-dasharray=\"{dash}\" points=\"{}\"><title>{}</title></polyline>",
        coords.join(" "),
        escape(&series.name)
    );
    for &(x, y) in &points {
        marker(out, frame.px(x), frame.py(y), index, colour);
    }
}

/// A small shape, different for neighbouring series.
fn marker(out: &mut String, x: f64, y: f64, index: usize, colour: &str) {
    let _ = match index % 4 {
        0 => writeln!(
            out,
            "<circle cx=\"{x:.1}\" cy=\"{y:.1}\" r=\"3.5\" fill=\"{colour}\"/>"
        ),
        1 => writeln!(
            out,
            "<rect x=\"{:.1}\" y=\"{:.1}\" width=\"7\" height=\"7\" fill=\"none\" stroke=\"{colour}\" stroke-width=\"1.5\"/>",
            x - 3.5,
            y - 3.5
        ),
        2 => writeln!(
            out,
            "<path d=\"M{x:.1},{:.1} L{:.1},{:.1} L{:.1},{:.1} Z\" fill=\"{colour}\"/>",
            y - 4.5,
            x + 4.5,
            y + 3.5,
            x - 4.5,
            y + 3.5
        ),
        _ => writeln!(
            out,
            "<path d=\"M{:.1},{:.1} L{:.1},{:.1} M{:.1},{:.1} L{:.1},{:.1}\" stroke=\"{colour}\" stroke-width=\"1.8\"/>",
            x - 4.0,
            y - 4.0,
            x + 4.0,
            y + 4.0,
            x - 4.0,
            y + 4.0,
            x + 4.0,
            y - 4.0
        ),
    };
}

/// The series' line in the legend, right of the plot.
fn legend_entry(out: &mut String, series: &Series, index: usize) {
    let x = WIDTH - RIGHT + 16.0;
    let y = TOP + 10.0 + 20.0 * index as f64;
    let (colour, dash) = style(index);
    let _ = writeln!(
        out,
        "<line x1=\"{x:.1}\" x2=\"{:.1}\" y1=\"{y:.1}\" y2=\"{y:.1}\" stroke=\"{colour}\" stroke-width=\"1.8\" stroke-dasharray=\"{dash}\"/>",
        x + 28.0
    );
    marker(out, x + 14.0, y, index, colour);
    let _ = writeln!(
        out,
        "<text x=\"{:.1}\" y=\"{:.1}\">{}</text>",
        x + 36.0,
        y + 4.0,
        escape(&series.name)
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chart(series: Vec<Series>) -> Chart {
        Chart {
            title: "t".into(),
            x_label: "x".into(),
            y_label: "y".into(),
            x_labels: XLabels::PowersOfTwo,
            series,
        }
    }

    fn series(name: &str, points: &[(f64, f64)]) -> Series {
        Series {
            name: name.into(),
            points: points.to_vec(),
        }
    }

    /// Every element opened is closed, in order (a well-formedness check for what `svg`
    /// writes: no comments, no CDATA, attributes without `>`).
    fn balanced(svg: &str) -> bool {
        let mut open = Vec::new();
        for tag in svg.split('<').skip(1) {
            let tag = tag.split('>').next().unwrap();
            if let Some(name) = tag.strip_prefix('/') {
                if open.pop() != Some(name.to_string()) {
                    return false;
                }
            } else if !tag.ends_with('/') {
                open.push(tag.split_whitespace().next().unwrap().to_string());
            }
        }
        open.is_empty()
    }

    #[test]
    fn each_series_is_one_line_through_its_points_in_order_of_x() {
        let svg = svg(&chart(vec![
            series("DEEP", &[(14.0, 8e6), (13.0, 9e6), (15.0, 7.5e6)]),
            series("NEW", &[(13.0, 1.2e7), (15.0, 7.6e6)]),
        ]))
        .unwrap();
        assert!(balanced(&svg), "{svg}");
        let lines: Vec<&str> = svg.lines().filter(|l| l.starts_with("<polyline")).collect();
        assert_eq!(lines.len(), 2);
        let points: Vec<(f64, f64)> = lines[0]
            .split("points=\"")
            .nth(1)
            .unwrap()
            .split('"')
            .next()
            .unwrap()
            .split(' ')
            .map(|p| {
                let (x, y) = p.split_once(',').unwrap();
                (x.parse().unwrap(), y.parse().unwrap())
            })
            .collect();
        assert_eq!(points.len(), 3);
        assert!(points.windows(2).all(|w| w[0].0 < w[1].0), "left to right");
        assert!(
            points.windows(2).all(|w| w[0].1 < w[1].1),
            "fewer nodes lower down"
        );
        for label in [">8K<", ">16K<", ">32K<", ">12M<", ">DEEP<", ">NEW<"] {
            assert!(svg.contains(label), "{label} missing");
        }
    }

    #[test]
    fn names_are_escaped_and_bad_charts_refused() {
        let svg = svg(&Chart {
            title: "<script>alert(1)</script>".into(),
            ..chart(vec![series("a\"b&c", &[(1.0, 1.0)])])
        })
        .unwrap();
        assert!(balanced(&svg));
        assert!(!svg.contains("<script>") && svg.contains("&lt;script&gt;"));
        assert!(svg.contains("a&quot;b&amp;c"));
        assert!(matches!(
            super::svg(&chart(vec![series("x", &[])])),
            Err(PlotError::Empty(_))
        ));
        let err = super::svg(&chart(vec![series("x", &[(1.0, f64::NAN)])])).unwrap_err();
        assert_eq!(
            err.to_string(),
            "series `x` of chart `t` has a point that is not a finite number"
        );
    }

    #[test]
    fn ticks_and_labels() {
        assert_eq!(ticks(5.0, 5.0), [4.0, 4.5, 5.0, 5.5, 6.0]);
        assert_eq!(ticks(0.0, 1e6)[1], 200_000.0);
        assert_eq!(x_label(20.0, XLabels::PowersOfTwo), "1M");
        assert_eq!(x_label(20.5, XLabels::PowersOfTwo), "20.5");
        assert_eq!(x_label(20.0, XLabels::Values), "20");
        assert_eq!(short_count(1_000_000.0), "1M");
        assert_eq!(escape("a\u{1}b"), "a\u{FFFD}b");
    }
}

/// The examples this module's documentation had, as tests (its items are the crate's own).
#[cfg(test)]
mod documented {
    use super::*;

    #[test]
    fn escape_as_documented() {
        assert_eq!(escape("<a & \"b\">"), "&lt;a &amp; &quot;b&quot;&gt;");
    }

    #[test]
    fn ticks_as_documented() {
        assert_eq!(ticks(3.0, 17.0), [0.0, 5.0, 10.0, 15.0, 20.0]);
    }

    #[test]
    fn short_count_as_documented() {
        assert_eq!(
            (
                short_count(950.0),
                short_count(12_500.0),
                short_count(3_250_000.0)
            ),
            ("950".to_string(), "12.5K".to_string(), "3.25M".to_string())
        );
    }

    #[test]
    fn svg_as_documented() {
        let chart = Chart {
            title: "Middlegame".into(),
            x_label: "table size (entries)".into(),
            y_label: "nodes".into(),
            x_labels: XLabels::PowersOfTwo,
            series: vec![Series {
                name: "DEEP".into(),
                points: vec![(13.0, 9e6), (14.0, 8e6)],
            }],
        };
        let svg = svg(&chart).unwrap();
        assert!(
            svg.starts_with("<svg ") && svg.contains(">8K</text>") && svg.contains(">DEEP</text>")
        );
    }
}

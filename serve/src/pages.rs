//! The pages: minijinja templates with HTML auto-escaping for every template, so names,
//! authors, engine output and refusal reasons are always shown as text. Views are plain
//! serializable structs; nothing is pasted into markup by hand.

use std::sync::LazyLock;

use axum::http::StatusCode;
use minijinja::{AutoEscape, Environment, context};
use serde::Serialize;

use results::{Chart, chart};
use results::{GameFact, StandingsTable};
pub use results::{method_note, standing_rows};

/// The server's script and style, served from `/static/` (the CSP allows no inline ones).
pub const SCRIPT: &str = include_str!("static/app.js");
/// See [`SCRIPT`].
pub const STYLE: &str = include_str!("static/app.css");

const TEMPLATES: [(&str, &str); 19] = [
    ("layout.html", include_str!("templates/layout.html")),
    ("standings.html", include_str!("templates/standings.html")),
    (
        "standings_part.html",
        include_str!("templates/standings_part.html"),
    ),
    ("crosstable.html", include_str!("templates/crosstable.html")),
    (
        "crosstable_part.html",
        include_str!("templates/crosstable_part.html"),
    ),
    ("entry.html", include_str!("templates/entry.html")),
    ("entry_part.html", include_str!("templates/entry_part.html")),
    ("game.html", include_str!("templates/game.html")),
    ("submit.html", include_str!("templates/submit.html")),
    ("job.html", include_str!("templates/job.html")),
    ("admin.html", include_str!("templates/admin.html")),
    ("invitation.html", include_str!("templates/invitation.html")),
    ("source.html", include_str!("templates/source.html")),
    ("error.html", include_str!("templates/error.html")),
    (
        "live_layout.html",
        include_str!("templates/live_layout.html"),
    ),
    ("live_list.html", include_str!("templates/live_list.html")),
    (
        "live_list_part.html",
        include_str!("templates/live_list_part.html"),
    ),
    ("live_game.html", include_str!("templates/live_game.html")),
    // One chart for the report and the standings.
    results::RATING_CHART,
];

static ENV: LazyLock<Result<Environment<'static>, String>> = LazyLock::new(|| {
    let mut env = Environment::new();
    // Escape everything, whatever a template's name ends with.
    env.set_auto_escape_callback(|_| AutoEscape::Html);
    for (name, text) in TEMPLATES {
        env.add_template(name, text)
            .map_err(|err| format!("the server template {name} does not parse: {err}"))?;
    }
    Ok(env)
});

/// Checks that every template parses (the server refuses to start otherwise).
pub fn check() -> anyhow::Result<()> {
    ENV.as_ref()
        .map(|_| ())
        .map_err(|err| anyhow::anyhow!("{err}"))
}

/// Renders template `name` with `view`.
pub fn render<S: Serialize>(name: &str, view: S) -> anyhow::Result<String> {
    let env = ENV.as_ref().map_err(|err| anyhow::anyhow!("{err}"))?;
    Ok(env.get_template(name)?.render(view)?)
}

/// A page with the layout's navigation around `part` (already rendered and escaped).
pub fn page(template: &str, title: &str, extra: minijinja::Value) -> anyhow::Result<String> {
    render(template, context! { title, ..extra })
}

/// An error page (its text escaped); never fails.
pub fn error_page(status: StatusCode, message: &str) -> String {
    render(
        "error.html",
        context! { title => status.to_string(), status => status.as_u16(), message },
    )
    .unwrap_or_else(|_| format!("{status}"))
}

/// `?part=1`: only the part of the page that live updates replace.
#[derive(serde::Deserialize, Default)]
pub struct Part {
    part: Option<String>,
}

impl Part {
    /// Whether only the part was asked for.
    pub fn wanted(&self) -> bool {
        self.part.is_some()
    }
}

/// The most rows and columns the crosstable shows (the top of the standings).
pub const CROSS_LIMIT: usize = 64;

/// One row of the crosstable.
#[derive(Debug, Serialize)]
pub struct CrossRow {
    name: String,
    entry: String,
    cells: Vec<String>,
}

/// The crosstable of the first [`CROSS_LIMIT`] rows of the standings: points/games per
/// opponent, `x` on the diagonal, empty where they have not met.
pub fn cross_rows(table: &StandingsTable, games: &[GameFact]) -> Vec<CrossRow> {
    let order: Vec<usize> = table
        .rows
        .iter()
        .take(CROSS_LIMIT)
        .map(|r| r.index)
        .collect();
    let n = table.rows.len();
    let mut position = vec![usize::MAX; n.max(1)];
    for (k, &i) in order.iter().enumerate() {
        if i < position.len() {
            position[i] = k;
        }
    }
    let m = order.len();
    let mut points = vec![0.0f64; m * m];
    let mut count = vec![0usize; m * m];
    for g in games {
        let (Some(&w), Some(&b)) = (position.get(g.white), position.get(g.black)) else {
            continue;
        };
        if w == usize::MAX || b == usize::MAX {
            continue;
        }
        points[w * m + b] += g.score;
        points[b * m + w] += 1.0 - g.score;
        count[w * m + b] += 1;
        count[b * m + w] += 1;
    }
    table
        .rows
        .iter()
        .take(CROSS_LIMIT)
        .enumerate()
        .map(|(k, row)| CrossRow {
            name: row.player.name.clone(),
            entry: row.player.entry.clone(),
            cells: (0..m)
                .map(|j| match (k == j, count[k * m + j]) {
                    (true, _) => "x".to_string(),
                    (false, 0) => String::new(),
                    (false, c) => format!("{}/{c}", points[k * m + j]),
                })
                .collect(),
        })
        .collect()
}

/// The rating chart, when at most [`CROSS_LIMIT`] players are rated (a taller one would
/// not be read).
pub fn rating_chart(table: &StandingsTable) -> Option<Chart> {
    (table.rows.len() <= CROSS_LIMIT)
        .then(|| chart(table))
        .flatten()
}

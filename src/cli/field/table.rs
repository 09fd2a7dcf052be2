//! What `challenge field` prints: how the list's names matched, each entry's progress,
//! the field's summary (the headline and the first-failure histogram), the CSV table, and
//! the round robin's result.

use std::path::Path;

use anyhow::{Context, Result};
use measure::{
    Field, FieldEntry, MatchedBy, PublishedList, RoundRobinOptions, RoundRobinOutcome, RowMatch,
    Step,
};
use runner::TimeControl;

/// The list's rows shown in the summary's top count.
pub const TOP: usize = 30;

/// How the list's names matched with the entries.
pub fn matching_text(
    entries: usize,
    matched: &[RowMatch],
    unmatched: &[usize],
    list: &PublishedList,
) -> String {
    let ways: Vec<String> = MatchedBy::ALL
        .iter()
        .filter_map(|&by| {
            let n = matched.iter().filter(|m| m.by == by).count();
            (n > 0).then(|| format!("{n} {}", by.words()))
        })
        .collect();
    let shared = matched.iter().filter(|m| m.entries.len() > 1).count();
    let mut text = format!(
        "{entries} entry files; {} of the list's {} rows matched with an entry ({})",
        matched.len(),
        list.rows.len(),
        ways.join(", ")
    );
    if shared > 0 {
        text.push_str(&format!(
            "; {shared} rows name two entries of the same bot, both rated"
        ));
    }
    if !unmatched.is_empty() {
        let names: Vec<String> = unmatched
            .iter()
            .map(|&row| {
                let row = &list.rows[row];
                format!("rank {} `{}`", row.rank, row.name)
            })
            .collect();
        text.push_str(&format!("; not matched: {}", names.join(", ")));
    }
    text
}

/// One entry as it stands: its rank and name, and how far it got.
pub fn entry_status(entry: &FieldEntry) -> String {
    let name = entry.name.as_deref().unwrap_or("no name");
    let state = match entry.failure() {
        Some(failed) => format!(
            "failed at {}: {}",
            step_noun(failed.step),
            failed.construct.as_deref().unwrap_or("-")
        ),
        None if entry.playable() => match &entry.clock {
            Some(clock) => format!(
                "played {} (at the C# challenge's clock, {clock})",
                entry.games.join(" ")
            ),
            None => format!("played {}", entry.games.join(" ")),
        },
        None => "not finished".to_string(),
    };
    format!("{} ({name}): {state}", entry.id)
}

fn step_noun(step: Step) -> &'static str {
    match step {
        Step::Port => "translation",
        Step::Rules => "the rules",
        Step::Build => "build",
        Step::Play => "play",
    }
}

/// The field's headline, its first failures and the time per port and build.
pub fn summary_text(field: &Field, dir: &Path, tc: TimeControl) -> String {
    let s = field.summary(TOP);
    let percent = |n: usize| 100.0 * n as f64 / s.done.max(1) as f64;
    let mut text = format!(
        "field {}: {} entries, {} done; {} of them on the published list of {}\n",
        dir.display(),
        s.entries,
        s.done,
        s.on_list,
        s.rows
    );
    let words = [
        "translated",
        "within the rules",
        "built",
        "played 2 games against evil_bot without a fault",
    ];
    for (word, n) in words.iter().zip(s.passed) {
        text.push_str(&format!(
            "  {n:>4} of {} done ({:.1}%) {word}\n",
            s.done,
            percent(n)
        ));
    }
    if s.slower_clock > 0 {
        text.push_str(&format!(
            "       {} of those lost on time at {tc} and played clean at the C# challenge's clock ({}): they play only at clocks as slow\n",
            s.slower_clock,
            measure::csharp_clock()
        ));
    }
    text.push_str(&format!(
        "  the published top {}: {} in the field (games at {tc})\n",
        s.top, s.top_playable
    ));
    if field.entries.iter().any(|e| e.source.ends_with(".cs")) {
        text.push_str(&format!(
            "  ports of C# entries may allocate {}, not 256 MiB: the C# challenge's tournament did not enforce its 256 MB rule\n",
            runner::memory_text(measure::PORT_MEMORY_BYTES)
        ));
    }
    if !s.failures.is_empty() {
        text.push_str("first failures:\n");
        for (step, construct, n) in &s.failures {
            text.push_str(&format!("  {n:>4}  {:<12} {construct}\n", step_noun(*step)));
        }
    }
    for step in [Step::Port, Step::Build] {
        if let Some(line) = seconds_line(field, step) {
            text.push_str(&line);
        }
    }
    text.push_str(&format!(
        "manifest: {}\n",
        Field::folder(dir).join("field.json").display()
    ));
    text
}

/// The median and mean seconds of a step over the entries it ran for (a build found in
/// the cache left out).
fn seconds_line(field: &Field, step: Step) -> Option<String> {
    let mut seconds: Vec<f64> = field
        .entries
        .iter()
        .filter_map(|e| e.outcome(step))
        .map(|o| o.seconds)
        .filter(|&s| s > 0.0)
        .collect();
    if seconds.is_empty() {
        return None;
    }
    seconds.sort_by(f64::total_cmp);
    let mean = seconds.iter().sum::<f64>() / seconds.len() as f64;
    let what = match step {
        Step::Port => "translation",
        _ => "build",
    };
    Some(format!(
        "{what} per entry: median {:.2} s, mean {mean:.2} s, longest {:.1} s ({} entries)\n",
        seconds[seconds.len() / 2],
        seconds[seconds.len() - 1],
        seconds.len()
    ))
}

/// Writes every entry as a CSV row, best ranked first.
pub fn write_csv(field: &Field, path: &Path) -> Result<()> {
    let mut out = csv::Writer::from_path(path)
        .with_context(|| format!("cannot create {}", path.display()))?;
    out.write_record([
        "rank",
        "id",
        "name",
        "elo",
        "translated",
        "rules",
        "built",
        "played",
        "kit_tokens",
        "failed_step",
        "construct",
        "message",
        "port_seconds",
        "build_seconds",
        "games",
    ])?;
    for entry in &field.entries {
        let row = field.row(entry);
        let flag = |step: Step| match entry.outcome(step) {
            Some(o) if o.ok => "yes",
            Some(_) => "no",
            None => "",
        };
        let seconds = |step: Step| {
            entry
                .outcome(step)
                .map_or(String::new(), |o| format!("{:.3}", o.seconds))
        };
        let failure = entry.failure();
        out.write_record([
            row.map_or(String::new(), |r| r.rank.to_string()),
            entry.id.clone(),
            row.map_or_else(
                || entry.name.clone().unwrap_or_default(),
                |r| r.name.clone(),
            ),
            row.map_or(String::new(), |r| format!("{:.0}", r.elo)),
            flag(Step::Port).into(),
            flag(Step::Rules).into(),
            flag(Step::Build).into(),
            flag(Step::Play).into(),
            entry.kit_tokens.map_or(String::new(), |t| t.to_string()),
            failure.map_or(String::new(), |f| f.step.word().to_string()),
            failure
                .and_then(|f| f.construct.clone())
                .unwrap_or_default(),
            failure
                .and_then(|f| f.message.as_deref())
                .and_then(|m| m.lines().next())
                .unwrap_or_default()
                .to_string(),
            seconds(Step::Port),
            seconds(Step::Build),
            entry.games.join(" "),
        ])?;
    }
    out.flush()
        .with_context(|| format!("cannot write {}", path.display()))?;
    Ok(())
}

/// The round robin's table and its correlation with the published list.
pub fn round_robin_text(outcome: &RoundRobinOutcome, options: &RoundRobinOptions) -> String {
    let mut text = format!(
        "{:>4}  {:<10} {:<40} {:>9} {:>13} {:>8}\n",
        "rank", "id", "name", "published", "kit", "score"
    );
    for row in &outcome.rows {
        let kit = row.kit.map_or("-".to_string(), |(elo, interval)| {
            format!("{elo:.0} ± {interval:.0}")
        });
        let name: String = row.name.chars().take(40).collect();
        text.push_str(&format!(
            "{:>4}  {:<10} {name:<40} {:>9.0} {kit:>13} {:>8}\n",
            row.published.0,
            row.id,
            row.published.1,
            format!("{}/{}", row.score.0, row.score.1)
        ));
    }
    let (played, scheduled) = outcome.games;
    text.push_str(&format!(
        "{played} of {scheduled} games at {}, {} per pair, {} lost by an engine's fault; this run {:.0} s\n",
        options.tc,
        options.games_per_pair,
        outcome.faults,
        outcome.elapsed.as_secs_f64()
    ));
    match outcome.spearman {
        Some(rho) => text.push_str(&format!(
            "Spearman correlation with the published ratings: {rho:.3} ({} entries)\n",
            outcome.rows.iter().filter(|r| r.kit.is_some()).count()
        )),
        None => text.push_str("no Spearman correlation yet: too few rated entries\n"),
    }
    if outcome.stopped {
        text.push_str(&format!(
            "stopped: run the same command again to play the rest ({})\n",
            outcome.state.display()
        ));
    }
    text
}

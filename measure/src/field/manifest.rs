//! The field's manifest, `field.json` in the field's folder: the published list, and
//! for each entry how far it got (ported, checked against the rules, built, two games
//! played without a fault), each step keyed by what it was done on, so that a second
//! run does only what changed and an interrupted one picks up where it stopped.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, ensure};
use serde::{Deserialize, Serialize};

use bot_build::EngineLimits;
use runner::TimeControl;

use super::published::{MatchedBy, PublishedList, PublishedRow};

/// The folder the field is made in, inside the folder of entries it is made from.
pub const FIELD_FOLDER: &str = "field";

/// The manifest's file name, in [`FIELD_FOLDER`].
pub const MANIFEST: &str = "field.json";

/// The manifest's format; a manifest of another format is refused, never guessed at.
pub const FORMAT: u32 = 1;

/// The largest manifest read (a field of 624 entries takes about 400 KB).
pub const MAX_MANIFEST_BYTES: u64 = 64 << 20;

/// One step of an entry's way into the field, in order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Step {
    /// Translated into a kit bot file (a Rust entry is taken as it is).
    Port,
    /// The file meets the rules (its token count may be over the limit: a port is an
    /// opponent, not an entry).
    Rules,
    /// Built into an engine.
    Build,
    /// Two games against `evil_bot`, one with each colour, without a fault.
    Play,
}

impl Step {
    /// Every step, in order.
    pub const ALL: [Step; 4] = [Step::Port, Step::Rules, Step::Build, Step::Play];

    /// Its word in tables: `translated`, `rules`, `built`, `played`.
    pub fn word(self) -> &'static str {
        match self {
            Step::Port => "translated",
            Step::Rules => "rules",
            Step::Build => "built",
            Step::Play => "played",
        }
    }
}

/// What a step came to.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StepOutcome {
    /// The step.
    pub step: Step,
    /// What it was done on (the source's and the translator's, or the port's hash, with
    /// the time control for games): a step done on something else is done again.
    pub key: String,
    /// Whether it succeeded.
    pub ok: bool,
    /// How long it took, in seconds (0 for an engine found in the cache).
    pub seconds: f64,
    /// For a failure: the construct, rule, compiler error or ending that failed it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub construct: Option<String>,
    /// For a failure: the first lines of what was said about it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
}

/// One entry of the field.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FieldEntry {
    /// Its id, the stem of its file: `Bot_12` for `Bots/Bot_12.cs`.
    pub id: String,
    /// Its source, relative to the folder of entries: `Bots/Bot_12.cs`.
    pub source: String,
    /// The bot's name in the metadata.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Its author in the metadata.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub author: Option<String>,
    /// Its row in the published list (`None`: not on the list).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub row: Option<usize>,
    /// How its row was matched.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub matched_by: Option<MatchedBy>,
    /// The kit bot file, relative to the field's folder, once ported.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
    /// The kit tokens of its port (over the limit is allowed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kit_tokens: Option<usize>,
    /// The results of its two games against `evil_bot` (its score first: `1-0`...).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub games: Vec<String>,
    /// The clock its games were played at, when it lost on time at the check's and
    /// played clean only at the C# challenge's own (`60+0`): it plays only at clocks as
    /// slow ([`FieldEntry::plays_at`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clock: Option<String>,
    /// Its steps so far, in order, ending at the first that failed.
    #[serde(default)]
    pub steps: Vec<StepOutcome>,
}

/// What the engine of a C# entry's port may allocate: 1 GiB, not the kit's 256 MiB.
/// The C# challenge stated a 256 MB rule, but its tournament did not enforce it, so
/// its entries played with whatever they allocated, and some were written for tables
/// past it (Bot_314's is 320 MiB in C#'s layout). A port is an opponent, never a bot
/// of a challenge, which keeps 256 MiB.
pub const PORT_MEMORY_BYTES: usize = 1 << 30;

impl FieldEntry {
    /// What the entry's engine is built to enforce: [`PORT_MEMORY_BYTES`] for the port
    /// of a C# entry, the challenge's limits for an entry written for the kit.
    ///
    /// ```
    /// use measure::{FieldEntry, PORT_MEMORY_BYTES};
    /// let entry = |source: &str| -> FieldEntry {
    ///     serde_json::from_value(serde_json::json!({ "id": "Bot_1", "source": source })).unwrap()
    /// };
    /// assert_eq!(entry("Bots/Bot_1.cs").engine_limits().memory_bytes, PORT_MEMORY_BYTES);
    /// assert_eq!(entry("Bots/Bot_2.rs").engine_limits(), bot_build::EngineLimits::default());
    /// ```
    pub fn engine_limits(&self) -> EngineLimits {
        if self.source.ends_with(".cs") {
            EngineLimits {
                memory_bytes: PORT_MEMORY_BYTES,
            }
        } else {
            EngineLimits::default()
        }
    }

    /// The outcome of `step`, if it was done.
    pub fn outcome(&self, step: Step) -> Option<&StepOutcome> {
        self.steps.iter().find(|o| o.step == step)
    }

    /// Whether `step` was done and succeeded.
    pub fn passed(&self, step: Step) -> bool {
        self.outcome(step).is_some_and(|o| o.ok)
    }

    /// Whether the entry is in the field: all four steps passed.
    pub fn playable(&self) -> bool {
        self.passed(Step::Play)
    }

    /// Whether it is in the field for games at `tc`: it played clean, at a clock no
    /// slower than `tc`.
    pub fn plays_at(&self, tc: TimeControl) -> bool {
        let needs = self.clock.as_deref().map(str::parse::<TimeControl>);
        self.playable()
            && match needs {
                None => true,
                Some(Ok(needs)) => !faster_than(tc, needs),
                Some(Err(_)) => false,
            }
    }

    /// The step that failed, if one did.
    pub fn failure(&self) -> Option<&StepOutcome> {
        self.steps.iter().find(|o| !o.ok)
    }
}

/// The field: the published list and every entry, best ranked first.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Field {
    /// The manifest's format, [`FORMAT`].
    pub format: u32,
    /// The published list.
    pub list: PublishedList,
    /// The entries: those on the list in its order, then the others by id.
    pub entries: Vec<FieldEntry>,
}

impl Field {
    /// The field's folder for a folder of entries.
    pub fn folder(entries_dir: &Path) -> PathBuf {
        entries_dir.join(FIELD_FOLDER)
    }

    /// Reads the manifest of the field made from the folder of entries `dir`, or of the
    /// field folder `dir` itself.
    pub fn read(dir: &Path) -> Result<(Field, PathBuf)> {
        let folder = if dir.join(MANIFEST).is_file() {
            dir.to_path_buf()
        } else {
            Field::folder(dir)
        };
        let path = folder.join(MANIFEST);
        ensure!(
            path.is_file(),
            "no field in {}: make one with `challenge field {}` (it ports, builds and checks the entries in its Bots/)",
            dir.display(),
            dir.display()
        );
        let field = read_manifest(&path)?;
        Ok((field, folder))
    }

    /// Writes the manifest into `folder` atomically: a reader sees the old one or the
    /// new one, never half of either.
    pub fn write(&self, folder: &Path) -> Result<()> {
        let text = serde_json::to_string_pretty(self).expect("a manifest always serialises");
        let mut file = tempfile::NamedTempFile::new_in(folder)
            .with_context(|| format!("cannot write into {}", folder.display()))?;
        file.write_all(text.as_bytes())
            .and_then(|()| file.flush())
            .with_context(|| format!("cannot write the manifest in {}", folder.display()))?;
        let path = folder.join(MANIFEST);
        file.persist(&path)
            .with_context(|| format!("cannot replace {}", path.display()))?;
        Ok(())
    }

    /// The published row of an entry.
    pub fn row(&self, entry: &FieldEntry) -> Option<&PublishedRow> {
        entry.row.and_then(|row| self.list.rows.get(row))
    }

    /// The entries in the field: played without a fault, with a published rating.
    pub fn playable(&self) -> impl Iterator<Item = (&FieldEntry, &PublishedRow)> {
        self.entries
            .iter()
            .filter(|e| e.playable())
            .filter_map(|e| Some((e, self.row(e)?)))
    }

    /// The entries in the field for games at `tc` (see [`FieldEntry::plays_at`]).
    pub fn playable_at(
        &self,
        tc: TimeControl,
    ) -> impl Iterator<Item = (&FieldEntry, &PublishedRow)> {
        self.playable().filter(move |(e, _)| e.plays_at(tc))
    }

    /// How many entries passed each step, the first failures by step and construct, and
    /// how many of the list's best rows are in the field.
    pub fn summary(&self, top: usize) -> FieldSummary {
        let mut passed = BTreeMap::new();
        let mut failures: BTreeMap<(Step, String), usize> = BTreeMap::new();
        // An entry stopped halfway (Ctrl-C between its build and its games) is still to
        // do: its passed steps are not counted, or they would outnumber the entries done.
        for entry in self.entries.iter().filter(|e| is_done(e)) {
            for outcome in entry.steps.iter().filter(|o| o.ok) {
                *passed.entry(outcome.step).or_insert(0) += 1;
            }
            if let Some(failed) = entry.failure() {
                let construct = failed.construct.clone().unwrap_or_else(|| "-".into());
                *failures.entry((failed.step, construct)).or_insert(0) += 1;
            }
        }
        let mut failures: Vec<(Step, String, usize)> =
            failures.into_iter().map(|((s, c), n)| (s, c, n)).collect();
        failures.sort_by(|a, b| b.2.cmp(&a.2).then(a.0.cmp(&b.0)).then(a.1.cmp(&b.1)));
        let top_rows: Vec<bool> = (0..top.min(self.list.rows.len()))
            .map(|row| {
                self.entries
                    .iter()
                    .any(|e| e.row == Some(row) && e.playable())
            })
            .collect();
        FieldSummary {
            entries: self.entries.len(),
            done: self.entries.iter().filter(|e| is_done(e)).count(),
            on_list: self.entries.iter().filter(|e| e.row.is_some()).count(),
            rows: self.list.rows.len(),
            passed: Step::ALL.map(|s| passed.get(&s).copied().unwrap_or(0)),
            failures,
            top: top_rows.len(),
            top_playable: top_rows.iter().filter(|&&p| p).count(),
            slower_clock: (self.entries.iter())
                .filter(|e| e.playable() && e.clock.is_some())
                .count(),
        }
    }
}

/// The C# challenge's clock: 60 seconds a game, no increment.
///
/// ```
/// assert_eq!(measure::csharp_clock().to_string(), "60");
/// ```
pub fn csharp_clock() -> TimeControl {
    TimeControl::clock(
        std::time::Duration::from_secs(60),
        std::time::Duration::ZERO,
    )
}

/// Whether `tc` gives a game less time than `slower` does: a shorter base or a smaller
/// increment. Any other kind of limit (per move, nodes, depth) counts as faster.
///
/// ```
/// use measure::{csharp_clock, faster_than};
/// let tc = |t: &str| t.parse().unwrap();
/// assert!(faster_than(tc("5+0.05"), csharp_clock()));
/// assert!(!faster_than(tc("120+0"), csharp_clock()));
/// assert!(faster_than(tc("100/move"), csharp_clock()));
/// ```
pub fn faster_than(tc: TimeControl, slower: TimeControl) -> bool {
    let plain = |t: &TimeControl| {
        t.moves.is_none() && t.movetime.is_none() && t.nodes.is_none() && t.depth.is_none()
    };
    !plain(&tc)
        || tc.base.unwrap_or_default() < slower.base.unwrap_or_default()
        || tc.increment < slower.increment
}

/// Whether an entry went as far as it could: every step, or up to a failure.
pub fn is_done(entry: &FieldEntry) -> bool {
    entry.playable() || entry.failure().is_some()
}

/// The field in figures (see [`Field::summary`]).
#[derive(Debug, Clone, PartialEq)]
pub struct FieldSummary {
    /// Entries (files) in the folder.
    pub entries: usize,
    /// Entries that went as far as they could (the rest are still to do).
    pub done: usize,
    /// Entries matched with a row of the list.
    pub on_list: usize,
    /// Rows of the list.
    pub rows: usize,
    /// Entries that passed each step, in [`Step::ALL`]'s order.
    pub passed: [usize; 4],
    /// The first failures: step, construct, how many; most common first.
    pub failures: Vec<(Step, String, usize)>,
    /// The list's best rows counted.
    pub top: usize,
    /// Of those, the rows with an entry in the field.
    pub top_playable: usize,
    /// Entries that played clean only at the C# challenge's clock (counted in
    /// `passed`).
    pub slower_clock: usize,
}

fn read_manifest(path: &Path) -> Result<Field> {
    let text = super::published::read_bounded(path, MAX_MANIFEST_BYTES)?;
    let field: Field = serde_json::from_str(&text)
        .with_context(|| format!("{} is not a field's manifest", path.display()))?;
    ensure!(
        field.format == FORMAT,
        "{} has format {}; this kit reads format {FORMAT} (make the field again)",
        path.display(),
        field.format
    );
    for entry in &field.entries {
        ensure!(
            entry.row.is_none_or(|row| row < field.list.rows.len()),
            "{}: entry {} names row {:?} of a list of {}",
            path.display(),
            entry.id,
            entry.row,
            field.list.rows.len()
        );
        if let Some(file) = &entry.file {
            ensure!(
                is_plain_file_name(file),
                "{}: entry {}'s file `{file}` is not a plain file name in the field's folder",
                path.display(),
                entry.id
            );
        }
    }
    Ok(field)
}

/// A name with no folder in it and no way out of the folder it is read in.
pub fn is_plain_file_name(name: &str) -> bool {
    !name.is_empty()
        && name != "."
        && name != ".."
        && !name.contains(['/', '\\'])
        && Path::new(name).file_name().is_some_and(|f| f == name)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(id: &str, steps: &[(Step, bool)]) -> FieldEntry {
        FieldEntry {
            id: id.into(),
            source: format!("Bots/{id}.cs"),
            name: None,
            author: None,
            row: None,
            matched_by: None,
            file: None,
            kit_tokens: None,
            games: Vec::new(),
            clock: None,
            steps: (steps.iter())
                .map(|&(step, ok)| StepOutcome {
                    step,
                    key: String::new(),
                    ok,
                    seconds: 0.0,
                    construct: None,
                    message: None,
                })
                .collect(),
        }
    }

    #[test]
    fn an_entry_stopped_halfway_counts_in_no_step() {
        let all = Step::ALL.map(|s| (s, true));
        let field = Field {
            format: FORMAT,
            list: PublishedList { rows: Vec::new() },
            entries: vec![
                entry("Bot_1", &all),
                entry("Bot_2", &[(Step::Port, true), (Step::Rules, false)]),
                entry("Bot_3", &all[..3]),
            ],
        };
        let summary = field.summary(30);
        assert_eq!(summary.done, 2);
        assert_eq!(summary.passed, [2, 1, 1, 1]);
    }

    #[test]
    fn an_entry_clean_only_at_a_slower_clock_plays_only_at_clocks_as_slow() {
        let mut slow = entry("Bot_1", &Step::ALL.map(|s| (s, true)));
        slow.clock = Some("60".into());
        let tc = |text: &str| text.parse::<TimeControl>().unwrap();
        assert!(slow.plays_at(tc("60+0")));
        assert!(slow.plays_at(tc("120+1")));
        assert!(!slow.plays_at(tc("5+0.05")));
        assert!(!slow.plays_at(tc("59+5")));
        assert!(!slow.plays_at(tc("100/move")));
        slow.clock = Some("not a clock".into());
        assert!(!slow.plays_at(tc("600+0")));
        let plain = entry("Bot_2", &Step::ALL.map(|s| (s, true)));
        assert!(plain.plays_at(tc("1+0")));
        let failed = entry("Bot_3", &[(Step::Port, false)]);
        assert!(!failed.plays_at(tc("60+0")));
    }
}

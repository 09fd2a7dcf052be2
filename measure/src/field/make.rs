//! Making a field from a folder of entries laid out as the C# challenge's results
//! repository is (`Bots/*.cs`, `RatingsList.txt`, `BotMetaData.json`): each entry
//! ported by the translator the caller passes in, checked against the rules, built
//! (bot-build's cache) and played twice against `evil_bot`; what each step came to goes
//! into the manifest as soon as the entry is done, so an interrupted run resumes.
//!
//! A `.rs` file in `Bots/` is an entry already in Rust, taken as it is: a field of kit
//! bots rated by a BayesElo list needs no translator.

use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Instant;

use anyhow::{Context, Result, ensure};
use framework::chess::Color;
use runner::{EngineConfig, GameRecord, GameSettings, Opening, Player, TimeControl, play_game};

use super::manifest::{
    FORMAT, Field, FieldEntry, Step, StepOutcome, csharp_clock, faster_than, is_done,
    is_plain_file_name,
};
use super::published::{
    EntryMeta, PublishedList, RowMatch, match_entries, read_bounded, read_metadata, unmatched_rows,
};
use crate::tune::sha256_hex;
use bot_build::{BotFile, BuildEvent, BuildKind, EngineLimits, LimitPolicy, Reader};

/// The largest entry source read (the largest published entry has 40 KB).
pub const MAX_SOURCE_BYTES: u64 = 1 << 20;

/// The most entries a folder may have.
pub const MAX_ENTRIES: usize = 20_000;

/// The lines of a failure's message kept in the manifest.
const MESSAGE_LINES: usize = 6;

/// A translator of C# entries into kit bot files. `challenge field` passes the kit's
/// (crate `csharp-port`, built with the `port` feature); this crate does not depend on it.
/// Translating takes milliseconds, so every run translates every entry it works on again
/// (a better translator is measured at once); the steps after it are done again only
/// when the translation changed.
pub trait Porter: Sync {
    /// A kit bot file's text for the C# entry `csharp`, or why it cannot be translated.
    fn port(&self, csharp: &str) -> Result<String, PortFailure>;
}

/// Why an entry was not translated.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PortFailure {
    /// The construct that could not be translated (the histogram's key).
    pub construct: String,
    /// The translator's message, naming the line.
    pub message: String,
}

/// How to make the field.
#[derive(Debug, Clone)]
pub struct FieldOptions {
    /// The folder of entries (`Bots/`, `RatingsList.txt`, `BotMetaData.json`).
    pub dir: PathBuf,
    /// The clock of the two games against `evil_bot`.
    pub check_tc: TimeControl,
    /// Entries worked on at once.
    pub jobs: usize,
    /// Only these entries (ids, `Bot_12`); empty: all.
    pub only: Vec<String>,
    /// Only the entries of the list's best `top` rows.
    pub top: Option<usize>,
    /// Try again the steps that failed, even on what they failed on.
    pub retry: bool,
}

/// What making a field reports, to the observer passed to [`make_field`].
#[derive(Debug)]
pub enum FieldEvent<'a> {
    /// The folder was read and the list's names matched with the entries.
    Read {
        /// Entry files found.
        entries: usize,
        /// The list's rows matched with their entries, and how.
        matched: &'a [RowMatch],
        /// The list's rows matched with no entry.
        unmatched: &'a [usize],
        /// The published list.
        list: &'a PublishedList,
    },
    /// The work starts on `todo` entries, `done` of which an earlier run finished (they
    /// are translated again, and only what that changed is done again).
    Started {
        /// Entries to work on.
        todo: usize,
        /// Of those, the entries an earlier run finished.
        done: usize,
    },
    /// A build reports.
    Build(BuildEvent<'a>),
    /// An entry is done.
    Entry {
        /// The entry as it now stands.
        entry: &'a FieldEntry,
        /// Entries done in this run so far.
        finished: usize,
        /// Entries to do in this run.
        todo: usize,
    },
    /// An entry's work stopped for a reason that is not the entry's (`evil_bot`
    /// faulted, the run was stopped); it is done again next time.
    Unfinished {
        /// The entry's id.
        id: &'a str,
        /// Why.
        reason: String,
    },
}

/// Makes (or brings up to date) the field of `options.dir`: ports, checks, builds and
/// plays the selected entries not done yet, `options.jobs` at a time, writing the
/// manifest after each. `porter` may be `None` for a folder of Rust entries. A set
/// `stop` ends the run after the entries in progress (their unfinished games are played
/// again next time). A failure of the host (a build that could not run) ends it with an
/// error; an entry's own failure is recorded and the run goes on.
pub fn make_field(
    options: &FieldOptions,
    porter: Option<&dyn Porter>,
    stop: &AtomicBool,
    observe: &(dyn Fn(FieldEvent<'_>) + Sync),
) -> Result<Field> {
    let dir = &options.dir;
    let list = PublishedList::read(&dir.join("RatingsList.txt"))?;
    let metadata = read_metadata(&dir.join("BotMetaData.json"))?;
    let sources = entry_files(&dir.join("Bots"))?;
    let (entries, matched) = entries_of(&sources, &metadata, &list);
    let unmatched = unmatched_rows(&list, &matched);
    observe(FieldEvent::Read {
        entries: entries.len(),
        matched: &matched,
        unmatched: &unmatched,
        list: &list,
    });
    let folder = Field::folder(dir);
    std::fs::create_dir_all(&folder)
        .with_context(|| format!("cannot create {}", folder.display()))?;
    let mut field = Field {
        format: FORMAT,
        list,
        entries,
    };
    if let Ok((old, _)) = Field::read(&folder) {
        keep_outcomes(&mut field, old);
    }
    field.write(&folder)?;
    let selected = select(&field, options);
    let needs_porter = selected
        .iter()
        .any(|&i| field.entries[i].source.ends_with(".cs") && porter.is_none());
    ensure!(
        !needs_porter,
        "the folder has C# entries, and no translator was given to port them"
    );
    // Every selected entry is translated again (see `Porter`); the rest of its work is
    // done again only where that changed something.
    observe(FieldEvent::Started {
        todo: selected.len(),
        done: selected
            .iter()
            .filter(|&&i| is_done(&field.entries[i]))
            .count(),
    });
    let work = Work::new(options, porter, &folder, stop, observe)?;
    work.run(&mut field, &selected)?;
    Ok(field)
}

/// The entry files of `Bots/`: `.cs` and `.rs` files whose stem is a plain id.
fn entry_files(bots: &Path) -> Result<Vec<(String, String)>> {
    let read = std::fs::read_dir(bots).with_context(|| {
        format!(
            "cannot read {}: a folder of entries has its bots in Bots/",
            bots.display()
        )
    })?;
    let mut files = Vec::new();
    for item in read {
        let name = item?.file_name();
        let Some(name) = name.to_str() else { continue };
        let Some((stem, ext)) = name.rsplit_once('.') else {
            continue;
        };
        let plain = !stem.is_empty()
            && stem
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
        if plain && (ext == "cs" || ext == "rs") {
            files.push((stem.to_string(), format!("Bots/{name}")));
        }
        ensure!(
            files.len() <= MAX_ENTRIES,
            "{} has more than {MAX_ENTRIES} entries",
            bots.display()
        );
    }
    files.sort_by(|a, b| id_order(&a.0, &b.0));
    files.dedup_by(|b, a| a.0 == b.0);
    Ok(files)
}

/// `Bot_2` before `Bot_10`: by the number at the end, then by text.
fn id_order(a: &str, b: &str) -> std::cmp::Ordering {
    let number = |id: &str| {
        let digits = id.len() - id.trim_end_matches(|c: char| c.is_ascii_digit()).len();
        id[id.len() - digits..].parse::<u64>().ok()
    };
    number(a).cmp(&number(b)).then(a.cmp(b))
}

/// The entries of the files, with their metadata and rows, best ranked first.
fn entries_of(
    files: &[(String, String)],
    metadata: &[EntryMeta],
    list: &PublishedList,
) -> (Vec<FieldEntry>, Vec<RowMatch>) {
    let with_file: Vec<EntryMeta> = metadata
        .iter()
        .filter(|m| files.iter().any(|(id, _)| *id == m.id))
        .cloned()
        .collect();
    let matched = match_entries(list, &with_file);
    let mut entries: Vec<FieldEntry> = files
        .iter()
        .map(|(id, source)| {
            let meta = with_file.iter().position(|m| m.id == *id);
            let found = meta.and_then(|m| matched.iter().find(|r| r.entries.contains(&m)));
            FieldEntry {
                id: id.clone(),
                source: source.clone(),
                name: meta.map(|m| with_file[m].bot_name.clone()),
                author: meta.map(|m| with_file[m].author.clone()),
                row: found.map(|r| r.row),
                matched_by: found.map(|r| r.by),
                file: None,
                kit_tokens: None,
                games: Vec::new(),
                clock: None,
                steps: Vec::new(),
            }
        })
        .collect();
    entries.sort_by(|a, b| {
        (a.row.is_none(), a.row)
            .cmp(&(b.row.is_none(), b.row))
            .then(id_order(&a.id, &b.id))
    });
    (entries, matched)
}

/// Carries an earlier run's outcomes over to the entries still there.
fn keep_outcomes(field: &mut Field, old: Field) {
    for old_entry in old.entries {
        if let Some(entry) = field.entries.iter_mut().find(|e| e.id == old_entry.id) {
            entry.file = old_entry.file;
            entry.kit_tokens = old_entry.kit_tokens;
            entry.games = old_entry.games;
            entry.clock = old_entry.clock;
            entry.steps = old_entry.steps;
        }
    }
}

/// The indices of the entries `options` selects.
fn select(field: &Field, options: &FieldOptions) -> Vec<usize> {
    (0..field.entries.len())
        .filter(|&i| {
            let e = &field.entries[i];
            let named = options.only.is_empty() || options.only.contains(&e.id);
            let ranked = options
                .top
                .is_none_or(|top| e.row.is_some_and(|row| row < top));
            named && ranked
        })
        .collect()
}

/// What every entry's work shares.
struct Work<'a> {
    options: &'a FieldOptions,
    porter: Option<&'a dyn Porter>,
    folder: &'a Path,
    stop: &'a AtomicBool,
    observe: &'a (dyn Fn(FieldEvent<'_>) + Sync),
    evil: Player,
    openings: Vec<Opening>,
    settings: GameSettings,
}

impl<'a> Work<'a> {
    fn new(
        options: &'a FieldOptions,
        porter: Option<&'a dyn Porter>,
        folder: &'a Path,
        stop: &'a AtomicBool,
        observe: &'a (dyn Fn(FieldEvent<'_>) + Sync),
    ) -> Result<Work<'a>> {
        let build_observe = |event: BuildEvent<'_>| observe(FieldEvent::Build(event));
        let (bot, engine) = bot_build::prepare("evil_bot", LimitPolicy::Enforce, &build_observe)?;
        let (openings, _) = crate::matches::openings(&crate::matches::OpeningChoice {
            file: None,
            plies: None,
            shuffle_seed: None,
        })?;
        Ok(Work {
            options,
            porter,
            folder,
            stop,
            observe,
            evil: Player::new(EngineConfig::new(bot.name, engine.path), options.check_tc),
            openings,
            settings: GameSettings::default(),
        })
    }

    /// Works on the entries `todo`, `jobs` at a time, writing the manifest after each.
    fn run(&self, field: &mut Field, todo: &[usize]) -> Result<()> {
        let next = AtomicUsize::new(0);
        let finished = AtomicUsize::new(0);
        let shared = Mutex::new((field, None::<anyhow::Error>));
        std::thread::scope(|scope| {
            for _ in 0..self.options.jobs.clamp(1, todo.len().max(1)) {
                scope.spawn(|| {
                    while !self.stop.load(Ordering::Relaxed) {
                        let Some(&index) = todo.get(next.fetch_add(1, Ordering::Relaxed)) else {
                            break;
                        };
                        let mut entry = {
                            let guard = shared.lock().unwrap_or_else(|p| p.into_inner());
                            if guard.1.is_some() {
                                break;
                            }
                            guard.0.entries[index].clone()
                        };
                        let worked = self.entry(&mut entry, index);
                        let mut guard = shared.lock().unwrap_or_else(|p| p.into_inner());
                        let (field, error) = &mut *guard;
                        if let Err(err) = worked {
                            error.get_or_insert(err);
                            break;
                        }
                        field.entries[index] = entry;
                        if let Err(err) = field.write(self.folder) {
                            error.get_or_insert(err);
                            break;
                        }
                        let finished = finished.fetch_add(1, Ordering::Relaxed) + 1;
                        (self.observe)(FieldEvent::Entry {
                            entry: &field.entries[index],
                            finished,
                            todo: todo.len(),
                        });
                    }
                });
            }
        });
        match shared.into_inner().unwrap_or_else(|p| p.into_inner()).1 {
            Some(err) => Err(err),
            None => Ok(()),
        }
    }

    /// One entry's steps from the first not yet done on what it is now.
    fn entry(&self, entry: &mut FieldEntry, index: usize) -> Result<()> {
        let source_path = self.options.dir.join(&entry.source);
        let source = match read_bounded(&source_path, MAX_SOURCE_BYTES) {
            Ok(source) => source,
            Err(err) => {
                let message = format!("{err:#}");
                let why = "unreadable source".to_string();
                forget(entry, failed(Step::Port, String::new(), 0.0, why, &message));
                return Ok(());
            }
        };
        let csharp = entry.source.ends_with(".cs");
        ensure!(
            !csharp || self.porter.is_some(),
            "no translator for {}",
            entry.source
        );
        let Some(rust) = self.port(entry, &source, csharp, sha256_hex(source.as_bytes()))? else {
            return Ok(());
        };
        let file = self.folder.join(entry.file.as_deref().unwrap_or_default());
        let port_sha = sha256_hex(rust.as_bytes());
        if self.redo(entry, Step::Rules, &port_sha) {
            rules(entry, &rust, port_sha.clone());
        }
        if !entry.passed(Step::Rules) {
            return Ok(());
        }
        let bot = BotFile {
            name: entry.id.clone(),
            path: file,
        };
        let build_key = build_key(&port_sha, entry.engine_limits());
        if self.redo(entry, Step::Build, &build_key) {
            self.build(entry, &bot, build_key)?;
        }
        let play_key = format!("{port_sha} tc {}", self.options.check_tc);
        if entry.passed(Step::Build) && self.redo(entry, Step::Play, &play_key) {
            self.play(entry, &bot, index, play_key)?;
        }
        Ok(())
    }

    /// Whether `step` must be done (again): not done on `key`, or failed and retried.
    /// Doing it again forgets it and every later step.
    fn redo(&self, entry: &mut FieldEntry, step: Step, key: &str) -> bool {
        let keep = entry
            .outcome(step)
            .is_some_and(|o| o.key == key && (o.ok || !self.options.retry));
        if !keep {
            entry.steps.retain(|o| o.step < step);
            entry.games.clear();
            entry.clock = None;
            if step <= Step::Rules {
                entry.kit_tokens = None;
            }
        }
        !keep
    }

    /// Translates the entry again (see [`Porter`]) and returns the port (`None`: it
    /// failed). The later steps stay as they were, to be kept where the translation did
    /// not change, unless it failed now.
    fn port(
        &self,
        entry: &mut FieldEntry,
        source: &str,
        csharp: bool,
        key: String,
    ) -> Result<Option<String>> {
        let started = Instant::now();
        let made = match (csharp, self.porter) {
            (true, Some(porter)) => porter.port(source),
            _ => Ok(source.to_string()),
        };
        let seconds = started.elapsed().as_secs_f64();
        let rust = match made {
            Ok(rust) => rust,
            Err(failure) => {
                let outcome = failed(
                    Step::Port,
                    key,
                    seconds,
                    failure.construct,
                    &failure.message,
                );
                forget(entry, outcome);
                return Ok(None);
            }
        };
        let name = format!("{}.rs", entry.id);
        debug_assert!(is_plain_file_name(&name));
        let path = self.folder.join(&name);
        std::fs::write(&path, &rust).with_context(|| format!("cannot write {}", path.display()))?;
        entry.file = Some(name);
        entry.steps.retain(|o| o.step != Step::Port);
        entry.steps.insert(0, passed(Step::Port, key, seconds));
        Ok(Some(rust))
    }

    fn build(&self, entry: &mut FieldEntry, bot: &BotFile, key: String) -> Result<()> {
        let started = Instant::now();
        let observe = |event: BuildEvent<'_>| (self.observe)(FieldEvent::Build(event));
        match bot_build::build_with(bot, BuildKind::Untrusted, entry.engine_limits(), &observe) {
            Ok(engine) => {
                let seconds = if engine.cached {
                    0.0
                } else {
                    started.elapsed().as_secs_f64()
                };
                entry.steps.push(passed(Step::Build, key, seconds));
            }
            Err(err) if err.is_bots_fault() => {
                let text = err.explain(Reader::Host);
                let seconds = started.elapsed().as_secs_f64();
                let construct = compile_error_code(&text);
                entry
                    .steps
                    .push(failed(Step::Build, key, seconds, construct, &text));
            }
            Err(err) => return Err(anyhow::Error::new(err)),
        }
        Ok(())
    }

    /// Two games against `evil_bot` from one opening, the entry White first, at the
    /// check's clock. An entry that loses only on time plays them again at the C#
    /// challenge's own clock ([`csharp_clock`]): many entries think a fixed time or to a
    /// fixed depth, made for 60 seconds a game, and a fault at a faster clock is the
    /// clock's, not the port's. Clean there, it is in the field with that clock
    /// ([`FieldEntry::clock`]) and plays only at clocks as slow.
    fn play(&self, entry: &mut FieldEntry, bot: &BotFile, index: usize, key: String) -> Result<()> {
        let observe = |event: BuildEvent<'_>| (self.observe)(FieldEvent::Build(event));
        let engine =
            bot_build::build_with(bot, BuildKind::Untrusted, entry.engine_limits(), &observe)?;
        let config = EngineConfig::new(entry.id.clone(), engine.path)
            .memory_limit(engine.limits.memory_bytes);
        let opening = &self.openings[index % self.openings.len()];
        let started = Instant::now();
        let check_tc = self.options.check_tc;
        let mut played = self.two_games(&config, check_tc, &self.evil, opening);
        let mut clock = None;
        if let Played::Fault(record) = &played
            && is_time_fault(record.termination)
            && faster_than(check_tc, csharp_clock())
        {
            let first = fault_text(record);
            let evil = Player::new(self.evil.engine.clone(), csharp_clock());
            played = match self.two_games(&config, csharp_clock(), &evil, opening) {
                Played::Fault(again) => Played::Fault(again),
                other => {
                    clock = Some((csharp_clock().to_string(), first));
                    other
                }
            };
        }
        let seconds = started.elapsed().as_secs_f64();
        match played {
            Played::Unfinished(reason) => {
                (self.observe)(FieldEvent::Unfinished {
                    id: &entry.id,
                    reason,
                });
            }
            Played::Fault(record) => {
                let construct = record.termination.tag().to_string();
                let message = fault_text(&record);
                entry
                    .steps
                    .push(failed(Step::Play, key, seconds, construct, &message));
            }
            Played::Clean(games) => {
                entry.games = games;
                let mut outcome = passed(Step::Play, key, seconds);
                if let Some((clock, first)) = clock {
                    outcome.message = Some(format!(
                        "at {check_tc}: {}; clean at the C# challenge's clock, {clock}",
                        first.lines().next().unwrap_or_default()
                    ));
                    entry.clock = Some(clock);
                }
                entry.steps.push(outcome);
            }
        }
        Ok(())
    }

    /// The entry's two games at `tc` against `evil` (at the same clock).
    fn two_games(
        &self,
        config: &EngineConfig,
        tc: TimeControl,
        evil: &Player,
        opening: &Opening,
    ) -> Played {
        let player = Player::new(config.clone(), tc);
        let (mut mine, mut evils) = (None, None);
        let mut games = Vec::new();
        for colour in [Color::White, Color::Black] {
            let record = match colour {
                Color::White => self.game([&player, evil], [&mut mine, &mut evils], opening),
                Color::Black => self.game([evil, &player], [&mut evils, &mut mine], opening),
            };
            if record.termination == runner::Termination::Interrupted {
                return Played::Unfinished("the run was stopped".into());
            }
            match record.faulty {
                Some(side) if side == colour => return Played::Fault(Box::new(record)),
                Some(_) => {
                    return Played::Unfinished(format!("evil_bot faulted: {}", record.detail));
                }
                None => games.push(score_text(&record, colour)),
            }
        }
        Played::Clean(games)
    }

    fn game(
        &self,
        players: [&Player; 2],
        engines: [&mut Option<runner::Engine>; 2],
        opening: &Opening,
    ) -> GameRecord {
        play_game(players, engines, opening, &self.settings, self.stop)
    }
}

/// What a build stands on: the port, the kit, and the limits its engine enforces (a
/// field made before ports had their own memory limit builds them again).
fn build_key(port_sha: &str, limits: EngineLimits) -> String {
    format!(
        "{port_sha} kit {} memory {}",
        env!("CARGO_PKG_VERSION"),
        limits.memory_bytes
    )
}

/// Records a failed translation: the entry has no port, so nothing after it stands.
fn forget(entry: &mut FieldEntry, outcome: StepOutcome) {
    entry.file = None;
    entry.games.clear();
    entry.clock = None;
    entry.kit_tokens = None;
    entry.steps = vec![outcome];
}

/// The rules step: the port's count, and whether it breaks a rule (over the limit is
/// allowed: a port is an opponent).
fn rules(entry: &mut FieldEntry, rust: &str, key: String) {
    match token_counter::analyze(rust) {
        Ok(report) => {
            entry.kit_tokens = Some(report.total());
            match report.violations.first() {
                None => entry.steps.push(passed(Step::Rules, key, 0.0)),
                Some(v) => {
                    let message = format!("line {}: {} ({})", v.line, v.message, v.hint);
                    let construct = v.rule.name().to_string();
                    entry
                        .steps
                        .push(failed(Step::Rules, key, 0.0, construct, &message));
                }
            }
        }
        Err(err) => {
            let message = format!("line {}: {}", err.line, err.message);
            entry
                .steps
                .push(failed(Step::Rules, key, 0.0, "parse".into(), &message));
        }
    }
}

/// The first `error[E0308]` code of a compiler's messages, or the kind of failure.
fn compile_error_code(text: &str) -> String {
    text.split("error[")
        .nth(1)
        .and_then(|rest| rest.split_once(']'))
        .map(|(code, _)| code.to_string())
        .filter(|code| code.len() <= 8)
        .unwrap_or_else(|| {
            let first = text.lines().next().unwrap_or_default();
            if first.contains("does not compile") {
                "compile error".into()
            } else {
                first.chars().take(60).collect()
            }
        })
}

/// The game's result from the entry's side: `1-0` for a win, whatever its colour.
fn score_text(record: &GameRecord, colour: Color) -> String {
    let white_score = record.white_score();
    let score = match colour {
        Color::White => white_score,
        Color::Black => white_score.map(|s| 1.0 - s),
    };
    match score {
        Some(s) if s > 0.75 => "1-0".into(),
        Some(s) if s < 0.25 => "0-1".into(),
        Some(_) => "1/2-1/2".into(),
        None => "*".into(),
    }
}

/// How an entry's two games went.
enum Played {
    /// Both played without a fault: the results from the entry's side.
    Clean(Vec<String>),
    /// The entry was at fault in this game.
    Fault(Box<GameRecord>),
    /// Stopped for a reason that is not the entry's.
    Unfinished(String),
}

/// A loss on time: a move too late, or silence past the clock.
fn is_time_fault(termination: runner::Termination) -> bool {
    matches!(
        termination,
        runner::Termination::TimeForfeit | runner::Termination::Stall
    )
}

/// The fault's detail and what the engine said on stderr.
fn fault_text(record: &GameRecord) -> String {
    let mut message = record.detail.clone();
    for line in &record.stderr {
        message.push_str(&format!("\nstderr: {line}"));
    }
    message
}

fn passed(step: Step, key: String, seconds: f64) -> StepOutcome {
    StepOutcome {
        step,
        key,
        ok: true,
        seconds,
        construct: None,
        message: None,
    }
}

fn failed(step: Step, key: String, seconds: f64, construct: String, message: &str) -> StepOutcome {
    let message: Vec<&str> = message.lines().take(MESSAGE_LINES).collect();
    StepOutcome {
        step,
        key,
        ok: false,
        seconds,
        construct: Some(construct),
        message: Some(message.join("\n")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_port_is_built_again_for_its_memory_limit() {
        let port = EngineLimits {
            memory_bytes: crate::PORT_MEMORY_BYTES,
        };
        let challenge = EngineLimits::default();
        assert_ne!(build_key("ab12", port), build_key("ab12", challenge));
        assert!(build_key("ab12", port).ends_with(" memory 1073741824"));
    }

    #[test]
    fn ids_sort_by_their_number() {
        let mut ids = vec!["Bot_10", "Bot_2", "Bot_1", "other"];
        ids.sort_by(|a, b| id_order(a, b));
        assert_eq!(ids, ["other", "Bot_1", "Bot_2", "Bot_10"]);
    }

    #[test]
    fn a_compiler_error_is_named_by_its_code() {
        let text = "bot `x` does not compile:\nerror[E0308]: mismatched types\n --> x.rs:1:1";
        assert_eq!(compile_error_code(text), "E0308");
        assert_eq!(
            compile_error_code("bot `x` does not compile:\nerror: expected `;`"),
            "compile error"
        );
    }
}

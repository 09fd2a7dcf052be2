//! `challenge sweep`: a definition ([`super::spec`]) checked against its bot and suites,
//! the cells its results file lacks run (each variant built as `challenge variants` builds
//! it, then searched over one suite as `challenge bench --sequence` searches it), each
//! finished cell appended to the results file at once, and the figures drawn.
//!
//! Everything a definition can get wrong (a constant the bot does not mark, a value
//! outside its mark, a suite file that is missing or unreadable, ids that select nothing,
//! a results file of another sweep) is refused by [`Sweep::open`], before any build.
//! A cell is one engine process of its own, started fresh, so its node count does not
//! depend on which worker ran it or on how many ran at once; a cell stopped half-way is
//! not recorded, so a resumed sweep runs it again from its first position.

use std::fs::{self, File, OpenOptions};
use std::io::{Read as _, Write as _};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Duration;

use anyhow::{Context, Result, bail, ensure};
use runner::EngineConfig;

use super::plot::svg;
use super::results::{Cell, Results};
use super::spec::{PlannedCell, SweepSpec};
use super::{FigureAxes, figures};
use crate::bench::epd::{EpdRecord, read_epd_file};
use crate::bench::{BenchLimit, Searched, Searcher, sequence};
use bot_build::{BotFile, BuildEvent, BuildKind, LimitPolicy};

/// The largest definition file read.
pub const MAX_SPEC_BYTES: u64 = 256 * 1024;
/// The largest results file read.
pub const MAX_RESULTS_BYTES: u64 = 64 * 1024 * 1024;
/// The most cells run at once.
pub const MAX_JOBS: usize = 64;

/// How the cells are run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SweepOptions {
    /// Cells run at once, each with its own engine process.
    pub jobs: usize,
    /// What to do with a variant over the token limit (a lab bot's variant is a lab bot).
    pub policy: LimitPolicy,
    /// How long one search may take before the engine counts as hung.
    pub timeout: Duration,
}

/// What a sweep reports while it runs (see the crate's documentation on reporting); its
/// `Display` is the line a person reads.
///
/// ```
/// use measure::SweepEvent;
/// let event = SweepEvent::Searched { variant: "lab@TT_BITS=9", id: "mg.a.1", failure: Some("hung") };
/// assert_eq!(event.to_string(), "lab@TT_BITS=9, position mg.a.1: the search failed: hung");
/// ```
#[derive(Debug)]
pub enum SweepEvent<'a> {
    /// The run begins: the grid's size, what the results file already holds, what is left.
    Started {
        /// The bot the grid varies.
        bot: &'a BotFile,
        /// The results file.
        results: &'a Path,
        /// Cells in the grid.
        cells: usize,
        /// Cells the results file already holds (they are not run again).
        done: usize,
        /// Searches the cells left will make: one per position of their suite.
        searches: u64,
    },
    /// A variant's build says something.
    Build {
        /// The variant, as the results file names it.
        variant: &'a str,
        /// What the build said.
        event: BuildEvent<'a>,
    },
    /// A cell's searches begin.
    CellStarted {
        /// The variant.
        variant: &'a str,
        /// The suite's name.
        suite: &'a str,
        /// Its limit.
        limit: &'a str,
        /// Its positions.
        positions: usize,
    },
    /// One position of a cell was searched (or the engine failed on it).
    Searched {
        /// The variant.
        variant: &'a str,
        /// The position's id.
        id: &'a str,
        /// Why the search failed, if it did (the cell then counts it in `failed`).
        failure: Option<&'a str>,
    },
    /// A cell finished and its row is in the results file.
    CellFinished {
        /// The row.
        cell: &'a Cell,
        /// Cells finished in this run so far.
        finished: usize,
        /// Cells this run set out to run.
        of: usize,
    },
    /// A file was written: the results in the grid's order, or a figure.
    Wrote {
        /// The file.
        path: &'a Path,
    },
}

impl std::fmt::Display for SweepEvent<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SweepEvent::Started {
                bot,
                results,
                cells,
                done,
                searches,
            } => write!(
                f,
                "sweep of {} ({}): {cells} cells, {done} already in {}, {} to run ({searches} searches)",
                bot.name,
                bot.origin(),
                results.display(),
                cells - done
            ),
            SweepEvent::Build { variant, event } => write!(f, "{variant}: {event}"),
            SweepEvent::CellStarted {
                variant,
                suite,
                limit,
                positions,
            } => write!(
                f,
                "{variant} over {suite} at {limit}: {positions} positions"
            ),
            SweepEvent::Searched {
                variant,
                id,
                failure,
            } => match failure {
                Some(why) => write!(f, "{variant}, position {id}: the search failed: {why}"),
                None => write!(f, "{variant}, position {id}: searched"),
            },
            SweepEvent::CellFinished { cell, finished, of } => {
                write!(f, "[{finished}/{of}] {cell}")?;
                if cell.failed > 0 {
                    write!(
                        f,
                        " ({} searches failed: left out of the figures)",
                        cell.failed
                    )?;
                }
                Ok(())
            }
            SweepEvent::Wrote { path } => write!(f, "wrote {}", path.display()),
        }
    }
}

/// How a run ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SweepOutcome {
    /// Cells finished and recorded by this run.
    pub ran: usize,
    /// Cells still missing from the results file.
    pub left: usize,
    /// Whether the run was stopped before its last cell.
    pub stopped: bool,
}

/// One suite's positions, read and checked.
struct Positions {
    records: Vec<EpdRecord>,
    /// Each position's game in sequence mode (`None`: a game of its own).
    games: Vec<Option<String>>,
}

/// A sweep, checked and ready to run: its definition, bot, suites and results file.
pub struct Sweep {
    spec: SweepSpec,
    base: BotFile,
    source: String,
    suites: Vec<Positions>,
    results_path: PathBuf,
    results: Results,
    /// Whether the results file exists and holds its header.
    has_header: bool,
    /// Whether its last row lacks its line break (an edited file): one is added first.
    needs_newline: bool,
}

impl Sweep {
    /// Reads the definition at `spec_path` and checks it against everything it names: the
    /// bot and its marks (every value of every varied constant), the suite files (read
    /// whole; a line that is not a record is refused, since it would change the totals),
    /// and the results file (`results`, or the definition's path with `.csv`), which must
    /// be this sweep's if it exists. Nothing is built or written.
    ///
    /// ```
    /// let dir = std::env::temp_dir().join(format!("kit-sweep-doc-{}", std::process::id()));
    /// std::fs::create_dir_all(&dir).unwrap();
    /// let spec = dir.join("depth.toml");
    /// std::fs::write(&spec, "bot = \"turochamp_faithful\"\n[vary]\nDEPTH = [2, 9]\n\
    ///     [[suite]]\nname = \"s\"\nfile = \"s.epd\"\ndepth = 1\n[plot]\nx = \"DEPTH\"\n").unwrap();
    /// let err = measure::Sweep::open(&spec, None).err().unwrap();
    /// assert!(format!("{err:#}").contains("`DEPTH=9` is outside its mark `vary 1..=4`"));
    /// # std::fs::remove_dir_all(&dir).unwrap();
    /// ```
    pub fn open(spec_path: &Path, results: Option<&Path>) -> Result<Sweep> {
        let text = read_bounded(spec_path, MAX_SPEC_BYTES, "sweep definition")?;
        let spec = SweepSpec::parse(&text)
            .with_context(|| format!("{} is not a sweep definition", spec_path.display()))?;
        let dir = spec_path.parent().unwrap_or(Path::new("")).to_path_buf();
        let base = resolve_bot(&spec.bot, &dir)?;
        let source = token_counter::read_source(&base.path)?;
        check_values(&spec, &source)
            .with_context(|| format!("{}: the bot cannot take the grid", spec_path.display()))?;
        let suites = spec
            .suites
            .iter()
            .map(|suite| read_suite(suite, &dir))
            .collect::<Result<Vec<_>>>()
            .with_context(|| format!("{}", spec_path.display()))?;
        let results_path = results.map_or_else(|| spec_path.with_extension("csv"), Into::into);
        refuse_overwriting(&results_path, spec_path, &spec, &dir)?;
        let (results, text) = read_results(&results_path, &spec)?;
        Ok(Sweep {
            spec,
            base,
            source,
            suites,
            results_path,
            results,
            has_header: !text.is_empty(),
            needs_newline: !text.is_empty() && !text.ends_with('\n'),
        })
    }

    /// The definition.
    pub fn spec(&self) -> &SweepSpec {
        &self.spec
    }

    /// The results so far.
    pub fn results(&self) -> &Results {
        &self.results
    }

    /// The results file.
    pub fn results_path(&self) -> &Path {
        &self.results_path
    }

    /// The cells the results file lacks, in the grid's order.
    pub fn pending(&self) -> Vec<PlannedCell> {
        // `open` checked that the file is this sweep's, so this cannot fail here.
        self.spec.pending(&self.results).unwrap_or_default()
    }

    /// Runs the cells the results file lacks, `options.jobs` at a time, appending each
    /// finished cell's row at once. Setting `stop` (Ctrl-C) ends the run after the
    /// searches in progress; a cell with positions left is not recorded. An error (a
    /// variant that does not build) stops the other workers the same way and is returned.
    pub fn run(
        &mut self,
        options: &SweepOptions,
        stop: &AtomicBool,
        observe: &(dyn Fn(SweepEvent<'_>) + Sync),
    ) -> Result<SweepOutcome> {
        let pending = self.pending();
        let cells = self.spec.cells().len();
        observe(SweepEvent::Started {
            bot: &self.base,
            results: &self.results_path,
            cells,
            done: cells - pending.len(),
            searches: pending
                .iter()
                .map(|c| self.suites[c.suite].records.len() as u64)
                .sum(),
        });
        if let Some(first) = pending.first() {
            // The rules first, so a variant the policy refuses stops the run before a build.
            bot_build::check(&self.variant_bot(first)?, options.policy)?;
        }
        let recorder = Mutex::new(Recorder {
            file: self.open_for_append()?,
            results: std::mem::take(&mut self.results),
            ran: 0,
            of: pending.len(),
        });
        let halt = AtomicBool::new(false);
        let failure: Mutex<Option<anyhow::Error>> = Mutex::new(None);
        let next = AtomicUsize::new(0);
        let workers = options.jobs.clamp(1, MAX_JOBS).min(pending.len());
        let work = Work {
            sweep: self,
            options,
            pending: &pending,
            next: &next,
            stop,
            halt: &halt,
            recorder: &recorder,
            failure: &failure,
            observe,
        };
        std::thread::scope(|scope| {
            for _ in 0..workers {
                scope.spawn(|| work.worker());
            }
        });
        let recorder = recorder.into_inner().unwrap_or_else(|p| p.into_inner());
        self.results = recorder.results;
        self.has_header = true;
        self.needs_newline = false;
        if let Some(err) = failure.into_inner().unwrap_or_else(|p| p.into_inner()) {
            return Err(err);
        }
        let left = self.pending().len();
        Ok(SweepOutcome {
            ran: recorder.ran,
            left,
            stopped: left > 0,
        })
    }

    /// Rewrites the results file in the grid's order and draws one figure per suite and
    /// limit beside it (`<results stem>-<suite>-<limit>.svg`); returns the files written.
    /// Each file is written whole and then renamed into place, so a reader never sees
    /// half of one.
    pub fn write_outputs(&self, observe: &(dyn Fn(SweepEvent<'_>) + Sync)) -> Result<Vec<PathBuf>> {
        let ordered = self.spec.in_grid_order(&self.results);
        ensure!(
            !ordered.cells.is_empty(),
            "{} holds no finished cell of this sweep: run it first",
            self.results_path.display()
        );
        let mut csv = Vec::new();
        ordered.write_header(&mut csv)?;
        for cell in &ordered.cells {
            ordered.write_cell(cell, &mut csv)?;
        }
        write_whole(&self.results_path, &csv)?;
        observe(SweepEvent::Wrote {
            path: &self.results_path,
        });
        let mut written = vec![self.results_path.clone()];
        let plot = &self.spec.plot;
        let axes = FigureAxes {
            x: plot.x.clone(),
            series: plot.series.clone(),
            x_labels: plot.labels()?,
            x_label: if plot.x_label.is_empty() {
                plot.x.clone()
            } else {
                plot.x_label.clone()
            },
        };
        let charts = figures(&ordered, &axes)?;
        ensure!(
            !charts.is_empty(),
            "every cell of {} has failed searches (its `failed` column): no figure to draw",
            self.results_path.display()
        );
        for ((suite, limit), chart) in charts {
            let path = self.figure_path(&suite, &limit);
            write_whole(&path, svg(&chart)?.as_bytes())?;
            observe(SweepEvent::Wrote { path: &path });
            written.push(path);
        }
        Ok(written)
    }

    /// Where the figure of `suite` at `limit` goes.
    fn figure_path(&self, suite: &str, limit: &str) -> PathBuf {
        let stem = self
            .results_path
            .file_stem()
            .map_or_else(|| "sweep".into(), |s| s.to_string_lossy().into_owned());
        self.results_path
            .with_file_name(format!("{stem}-{suite}-{}.svg", limit.replace(' ', "-")))
    }

    /// The variant of the bot a cell runs: its file written as `BOT@NAME=VALUE` makes it.
    fn variant_bot(&self, cell: &PlannedCell) -> Result<BotFile> {
        if self.spec.vary.is_empty() {
            return Ok(self.base.clone());
        }
        let settings: Vec<String> = self
            .spec
            .vary
            .iter()
            .zip(&cell.values)
            .map(|((name, _), value)| format!("{name}={value}"))
            .collect();
        let made = bot_build::write_variant(
            &bot_build::variants_dir(),
            &self.base.name,
            &self.base.path,
            &self.source,
            &settings.join(","),
        )
        .with_context(|| format!("cannot make the variant `{}`", self.spec.variant(cell)))?;
        Ok(BotFile {
            name: made.name,
            path: made.path,
        })
    }

    /// The results file, opened to append rows (its header written first if it has none).
    fn open_for_append(&self) -> Result<File> {
        let mut file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(&self.results_path)
            .with_context(|| format!("cannot write {}", self.results_path.display()))?;
        let written = if !self.has_header {
            self.results.write_header(&mut file)
        } else if self.needs_newline {
            file.write_all(b"\n")
        } else {
            Ok(())
        };
        written.with_context(|| format!("cannot write {}", self.results_path.display()))?;
        Ok(file)
    }
}

/// What the workers share while a run goes on.
struct Work<'a> {
    sweep: &'a Sweep,
    options: &'a SweepOptions,
    pending: &'a [PlannedCell],
    next: &'a AtomicUsize,
    stop: &'a AtomicBool,
    /// Set when a worker failed: the others stop as at Ctrl-C.
    halt: &'a AtomicBool,
    recorder: &'a Mutex<Recorder>,
    failure: &'a Mutex<Option<anyhow::Error>>,
    observe: &'a (dyn Fn(SweepEvent<'_>) + Sync),
}

/// The results file and the cells recorded in it.
struct Recorder {
    file: File,
    results: Results,
    ran: usize,
    of: usize,
}

impl Work<'_> {
    fn stopping(&self) -> bool {
        self.stop.load(Ordering::SeqCst) || self.halt.load(Ordering::SeqCst)
    }

    /// Takes the next cell until none is left or the run stops.
    fn worker(&self) {
        while !self.stopping() {
            let index = self.next.fetch_add(1, Ordering::SeqCst);
            let Some(planned) = self.pending.get(index) else {
                break;
            };
            let outcome = self
                .run_cell(planned)
                .and_then(|cell| cell.map(|cell| self.record(&cell)).transpose());
            if let Err(err) = outcome {
                self.halt.store(true, Ordering::SeqCst);
                let mut failure = self.failure.lock().unwrap_or_else(|p| p.into_inner());
                failure.get_or_insert(err);
                break;
            }
        }
    }

    /// Appends a finished cell's row (one write, flushed) and reports it.
    fn record(&self, cell: &Cell) -> Result<()> {
        let mut recorder = self.recorder.lock().unwrap_or_else(|p| p.into_inner());
        let Recorder {
            file, results, ran, ..
        } = &mut *recorder;
        results
            .write_cell(cell, &mut *file)
            .and_then(|()| file.flush())
            .with_context(|| format!("cannot write {}", self.sweep.results_path.display()))?;
        results.cells.push(cell.clone());
        *ran += 1;
        (self.observe)(SweepEvent::CellFinished {
            cell,
            finished: recorder.ran,
            of: recorder.of,
        });
        Ok(())
    }

    /// Builds a cell's variant and searches its suite; `None` when the run stopped first.
    fn run_cell(&self, planned: &PlannedCell) -> Result<Option<Cell>> {
        let sweep = self.sweep;
        let variant = sweep.spec.variant(planned);
        let bot = sweep.variant_bot(planned)?;
        bot_build::check(&bot, self.options.policy)?;
        let engine = bot_build::build(&bot, BuildKind::Local, &|event| {
            (self.observe)(SweepEvent::Build {
                variant: &variant,
                event,
            });
        })?;
        if self.stopping() {
            return Ok(None);
        }
        let suite = &sweep.spec.suites[planned.suite];
        let positions = &sweep.suites[planned.suite];
        let limit = suite.limit();
        (self.observe)(SweepEvent::CellStarted {
            variant: &variant,
            suite: &suite.name,
            limit: &limit,
            positions: positions.records.len(),
        });
        let config = EngineConfig::new(bot.name.clone(), engine.path);
        let mut searcher = Searcher::start(config, self.options.timeout)?;
        let mut cell = Cell {
            suite: suite.name.clone(),
            limit,
            bot: variant,
            values: planned.values.clone(),
            positions: 0,
            nodes: 0,
            time_ms: 0.0,
            failed: 0,
        };
        let finished = self.search_all(&mut searcher, positions, suite.depth, &mut cell);
        searcher.quit();
        Ok(finished?.then_some(cell))
    }

    /// Searches every position in order, adding to `cell`; false when the run stopped
    /// before the last one. An engine that reports no node count is an error: a sweep
    /// adds up nodes, and every cell of such a bot would measure nothing.
    fn search_all(
        &self,
        searcher: &mut Searcher,
        positions: &Positions,
        depth: u32,
        cell: &mut Cell,
    ) -> Result<bool> {
        let mut last_game: Option<&Option<String>> = None;
        for (record, game) in positions.records.iter().zip(&positions.games) {
            if self.stopping() {
                return Ok(false);
            }
            // As `bench::run_bench` decides it: a new game where the game changes.
            let new_game = game.is_none() || last_game != Some(game);
            last_game = Some(game);
            // Engines run in a process group of their own, so a terminal's Ctrl-C does
            // not cut this search short: its count is whole even when a stop comes.
            let result = searcher.search_in_game(&record.board, BenchLimit::Depth(depth), new_game);
            if let Ok(Searched { nodes: None, .. }) = result {
                bail!(
                    "`{}` reported no node count (`info ... nodes`) for position {}: a sweep \
                     adds up nodes, so its bot must count them (its search calls \
                     `Timer::should_stop`, as the lab bots and turochamp_modern do)",
                    cell.bot,
                    record.id
                );
            }
            add(cell, &result);
            (self.observe)(SweepEvent::Searched {
                variant: &cell.bot,
                id: &record.id,
                failure: result.as_ref().err().map(String::as_str),
            });
        }
        Ok(true)
    }
}

/// One search added to a cell: its nodes and time, or one more failure.
fn add(cell: &mut Cell, result: &Result<Searched, String>) {
    cell.positions += 1;
    match result {
        Ok(searched) => {
            cell.time_ms += searched.elapsed.as_secs_f64() * 1e3;
            cell.nodes += searched.nodes.unwrap_or(0);
        }
        Err(_) => cell.failed += 1,
    }
}

/// The bot a definition names: a file relative to the definition's folder, else a kit
/// bot's name or path from the kit's root (`bot/lab/tt_lab.rs`), as `challenge` takes it.
fn resolve_bot(bot: &str, dir: &Path) -> Result<BotFile> {
    let beside = dir.join(bot);
    if bot.contains('@') {
        bail!("bot `{bot}`: name the bot itself; the grid's values go under [vary]");
    }
    let spec = if beside.is_file() {
        beside.to_string_lossy().into_owned()
    } else {
        bot.to_string()
    };
    bot_build::resolve(&spec).with_context(|| {
        format!(
            "bot `{bot}` is neither a file beside the definition ({}) nor a kit bot",
            beside.display()
        )
    })
}

/// Every value of every varied constant checked against the bot's marks, one at a time,
/// so the error names the first value the bot cannot take.
fn check_values(spec: &SweepSpec, source: &str) -> Result<()> {
    let marks = bot_build::marks(source).context("the bot's marks cannot be read")?;
    for (name, values) in &spec.vary {
        for value in values {
            bot_build::settings(&marks, &[(name, value)])
                .with_context(|| format!("vary.{name}"))?;
        }
    }
    Ok(())
}

/// A suite's positions: the file read whole (relative to the definition's folder), the
/// records whose id starts with `ids`, their games when searched in sequence.
fn read_suite(suite: &super::spec::SuiteSpec, dir: &Path) -> Result<Positions> {
    let path = dir.join(&suite.file);
    let file = read_epd_file(&path).with_context(|| format!("suite `{}`", suite.name))?;
    if let Some(err) = file.errors.first() {
        bail!(
            "suite `{}`: {}, {err} (a sweep adds up every position, so it reads none of a \
             file with a bad line)",
            suite.name,
            path.display()
        );
    }
    let records: Vec<EpdRecord> = file
        .records
        .into_iter()
        .filter(|r| r.id.starts_with(&suite.ids))
        .collect();
    ensure!(
        !records.is_empty(),
        "suite `{}`: no record of {} has an id starting `{}`",
        suite.name,
        path.display(),
        suite.ids
    );
    let games = if suite.sequence {
        sequence::games(&records)
            .map_err(|err| anyhow::anyhow!("suite `{}`: {}, {err}", suite.name, path.display()))?
    } else {
        vec![None; records.len()]
    };
    Ok(Positions { records, games })
}

/// Refuses a results file that is the definition or one of its suites: appending rows
/// would destroy it.
fn refuse_overwriting(
    results: &Path,
    spec_path: &Path,
    spec: &SweepSpec,
    dir: &Path,
) -> Result<()> {
    let Ok(target) = results.canonicalize() else {
        return Ok(());
    };
    let inputs = std::iter::once(spec_path.to_path_buf())
        .chain(spec.suites.iter().map(|s| dir.join(&s.file)));
    for input in inputs {
        ensure!(
            input.canonicalize().is_ok_and(|input| input != target),
            "the results file {} is {}, which the sweep reads; name another results file",
            results.display(),
            input.display()
        );
    }
    Ok(())
}

/// The results file's cells and text (none when it does not exist yet); a file of
/// another sweep is refused.
fn read_results(path: &Path, spec: &SweepSpec) -> Result<(Results, String)> {
    if !path.exists() {
        return Ok((spec.empty_results(), String::new()));
    }
    let text = read_bounded(path, MAX_RESULTS_BYTES, "results file")?;
    if text.is_empty() {
        return Ok((spec.empty_results(), text));
    }
    let results = Results::read(&text)
        .with_context(|| format!("{} is not a sweep's results file", path.display()))?;
    spec.pending(&results)
        .with_context(|| format!("{} is not this sweep's results file", path.display()))?;
    Ok((results, text))
}

/// A text file of at most `bound` bytes.
fn read_bounded(path: &Path, bound: u64, what: &str) -> Result<String> {
    let file =
        File::open(path).with_context(|| format!("cannot read the {what} {}", path.display()))?;
    let mut bytes = Vec::new();
    file.take(bound + 1)
        .read_to_end(&mut bytes)
        .with_context(|| format!("cannot read the {what} {}", path.display()))?;
    ensure!(
        bytes.len() as u64 <= bound,
        "the {what} {} is larger than {} KiB",
        path.display(),
        bound / 1024
    );
    String::from_utf8(bytes)
        .with_context(|| format!("the {what} {} is not UTF-8 text", path.display()))
}

/// Writes `bytes` to a file beside `path`, then renames it into place.
fn write_whole(path: &Path, bytes: &[u8]) -> Result<()> {
    let name = path
        .file_name()
        .map_or_else(|| "out".into(), |n| n.to_string_lossy().into_owned());
    let partial = path.with_file_name(format!(".{name}.partial"));
    fs::write(&partial, bytes).with_context(|| format!("cannot write {}", partial.display()))?;
    fs::rename(&partial, path).with_context(|| format!("cannot write {}", path.display()))
}

//! `challenge bench`: the fixed bench positions, or an EPD suite with `--suite` (game by
//! game with `--sequence`), as a table and as CSV or JSON.

use std::fmt::Write as _;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::{Context, Result, bail, ensure};
use measure::DepthRow;
use measure::{BenchLimit, BenchReport, BenchRow, Mode, Searcher, bench_positions, run_bench};
use measure::{EpdRecord, read_epd_file};
use measure::{SuiteReport, score_report};
use measure::{run_out, write_csv, write_json};
use runner::EngineConfig;

use super::args::{LimitArgs, uci_options};

/// Search a fixed set of positions to a fixed limit and print nodes, time, nodes per
/// second, a depth table and a signature of the search; or, with --suite, any EPD file's
/// positions (with the solve rate of those that have `bm`/`am` moves).
///
/// Examples:
///   challenge bench turochamp_modern --depth 3
///   challenge bench --engine /usr/games/stockfish --depth 10
///   challenge bench evil_bot --suite suites/wac.epd --movetime 1000
///   challenge bench turochamp_modern --suite games.epd --sequence --depth 5 --csv runs.csv
#[derive(clap::Args, Debug)]
pub struct Args {
    /// A bot by name (`my_bot`: ./bot/my_bot.rs, else the kit's) or a path to a bot file.
    #[arg(required_unless_present = "engine", conflicts_with = "engine")]
    bot: Option<String>,
    /// An external UCI engine's executable instead of a bot (e.g. /usr/games/stockfish).
    #[arg(long, value_name = "CMD")]
    engine: Option<PathBuf>,
    /// An argument for the engine's command line (repeatable).
    #[arg(
        long = "engine-arg",
        value_name = "ARG",
        allow_hyphen_values = true,
        requires = "engine"
    )]
    engine_args: Vec<String>,
    /// A UCI option for the engine or the bot (repeatable), e.g. `--option Hash=16` or a
    /// bot's declared `--option "TT Bits=16"`.
    #[arg(long = "option", value_name = "NAME=VALUE")]
    options: Vec<String>,
    /// Search each position to this depth (the bench's default: 6).
    #[arg(long, conflicts_with_all = ["nodes", "movetime"],
          value_parser = clap::value_parser!(u32).range(1..=64))]
    depth: Option<u32>,
    /// Search each position for this many nodes.
    #[arg(long, conflicts_with = "movetime",
          value_parser = clap::value_parser!(u64).range(1..=1_000_000_000_000))]
    nodes: Option<u64>,
    /// Search each position for this many milliseconds (the suite's default: 1000).
    #[arg(long, value_name = "MS", value_parser = clap::value_parser!(u64).range(1..=3_600_000))]
    movetime: Option<u64>,
    /// Search this EPD file's positions instead (records with `bm`/`am` moves in SAN are
    /// scored, and the solve rate printed).
    #[arg(long, value_name = "FILE.epd")]
    suite: Option<PathBuf>,
    /// Search the suite game by game, as in play: a record's game is its id up to the last
    /// dot (`id "Kasparov-Timman.23"`), and `ucinewgame` is sent only where a game begins,
    /// so the engine's table carries over from one position of a game to the next.
    #[arg(long, requires = "suite")]
    sequence: bool,
    /// Also write the run as CSV (one row per position, then a `total` row) to FILE, or to
    /// standard output with `-` (the table then goes to stderr).
    #[arg(long, value_name = "FILE|-")]
    csv: Option<PathBuf>,
    /// Also write the run as JSON (positions, totals, depth table, each search's
    /// iterations) to FILE, or to standard output with `-`.
    #[arg(long, value_name = "FILE|-")]
    json: Option<PathBuf>,
    /// Seconds a search may run past its own limit before the engine counts as hung
    /// (that position fails; the engine is restarted for the next).
    #[arg(long, value_name = "SECONDS", default_value_t = 60,
          value_parser = clap::value_parser!(u64).range(1..=86_400))]
    timeout: u64,
    #[command(flatten)]
    limit: LimitArgs,
}

/// The bench's default depth: deep enough to exercise a bot's search, short enough that
/// the 30 positions take seconds (3 s for turochamp_modern on a loaded 2-core machine).
const DEFAULT_DEPTH: u32 = 6;
/// The suite's default time per position.
const DEFAULT_SUITE_MS: u64 = 1000;

/// Runs `challenge bench`.
pub fn run(args: &Args) -> Result<()> {
    let set = PositionSet::read(args)?;
    let mut sinks = Sinks::open(args)?;
    let config = engine_config(args)?;
    let mut searcher = Searcher::start(config, Duration::from_secs(args.timeout))?;
    let result = bench(&mut searcher, args, &set, &mut sinks);
    searcher.quit();
    result
}

/// The positions of a run and where they came from.
struct PositionSet {
    records: Vec<EpdRecord>,
    /// The suite file (`None`: the fixed bench positions).
    path: Option<PathBuf>,
    /// The lines of the suite file that were skipped, with why.
    skipped: usize,
    mode: Mode,
}

impl PositionSet {
    /// The fixed positions, or the suite's readable records (the others said on stderr);
    /// in sequence mode, a file whose games are split is refused here, before any search.
    fn read(args: &Args) -> Result<PositionSet> {
        let mode = if args.sequence {
            Mode::Sequence
        } else {
            Mode::Independent
        };
        let Some(path) = &args.suite else {
            return Ok(PositionSet {
                records: bench_positions()?,
                path: None,
                skipped: 0,
                mode,
            });
        };
        let file = read_epd_file(path)?;
        for err in &file.errors {
            eprintln!("{}: skipped {err}", path.display());
        }
        ensure!(
            !file.records.is_empty(),
            "{} holds no EPD record that could be read",
            path.display()
        );
        if mode == Mode::Sequence {
            measure::record_games(&file.records)
                .map_err(|err| anyhow::anyhow!("{}, {err}", path.display()))?;
        }
        Ok(PositionSet {
            records: file.records,
            path: Some(path.clone()),
            skipped: file.errors.len(),
            mode,
        })
    }

    /// The first line of the table.
    fn title(&self, engine: &str, limit: BenchLimit) -> String {
        let how = match self.mode {
            Mode::Independent => "each from `ucinewgame`".to_string(),
            Mode::Sequence => {
                let games = measure::record_games(&self.records).map_or(0, |games| {
                    let mut starts = 0;
                    let mut last = None;
                    for game in games {
                        if game.is_none() || game != last {
                            starts += 1;
                        }
                        last = game;
                    }
                    starts
                });
                format!("{games} games in sequence (`ucinewgame` only where a game begins)")
            }
        };
        let n = self.records.len();
        match &self.path {
            None => format!("bench {engine}: {n} positions at {limit}, {how}"),
            Some(path) => format!(
                "suite {} with {engine}: {n} positions at {limit}, {how}",
                path.display()
            ),
        }
    }
}

/// Where the CSV and JSON go: files opened (so created, or refused) before any search.
struct Sinks {
    csv: Option<Box<dyn Write>>,
    json: Option<Box<dyn Write>>,
    /// Whether one of them is standard output (the table then goes to stderr).
    stdout_taken: bool,
}

impl Sinks {
    fn open(args: &Args) -> Result<Sinks> {
        let dash = |path: &Option<PathBuf>| path.as_deref() == Some(Path::new("-"));
        ensure!(
            !(dash(&args.csv) && dash(&args.json)),
            "--csv - and --json - would both write to standard output; send one to a file"
        );
        if let (Some(csv), Some(json)) = (&args.csv, &args.json) {
            ensure!(
                csv != json,
                "--csv and --json both name {}; give each its own file",
                csv.display()
            );
        }
        Ok(Sinks {
            csv: sink(args.csv.as_deref(), args.suite.as_deref(), "--csv")?,
            json: sink(args.json.as_deref(), args.suite.as_deref(), "--json")?,
            stdout_taken: dash(&args.csv) || dash(&args.json),
        })
    }
}

/// The output `path` names, created now; never the suite being read.
fn sink(path: Option<&Path>, suite: Option<&Path>, flag: &str) -> Result<Option<Box<dyn Write>>> {
    let Some(path) = path else { return Ok(None) };
    if path == Path::new("-") {
        return Ok(Some(Box::new(std::io::stdout())));
    }
    if let (Some(suite), Ok(out)) = (suite, path.canonicalize()) {
        ensure!(
            suite.canonicalize().is_ok_and(|suite| suite != out),
            "{flag} {} is the suite being read; writing it would destroy it",
            path.display()
        );
    }
    let file = std::fs::File::create(path)
        .with_context(|| format!("{flag}: cannot create {}", path.display()))?;
    Ok(Some(Box::new(std::io::BufWriter::new(file))))
}

/// The limit asked for, or the mode's default.
fn limit(args: &Args) -> BenchLimit {
    match (args.depth, args.nodes, args.movetime) {
        (Some(depth), _, _) => BenchLimit::Depth(depth),
        (_, Some(nodes), _) => BenchLimit::Nodes(nodes),
        (_, _, Some(ms)) => BenchLimit::MoveTime(ms),
        _ if args.suite.is_some() => BenchLimit::MoveTime(DEFAULT_SUITE_MS),
        _ => BenchLimit::Depth(DEFAULT_DEPTH),
    }
}

/// The engine to run: the bot built into an engine, or the external command.
fn engine_config(args: &Args) -> Result<EngineConfig> {
    let mut config = match (&args.bot, &args.engine) {
        (Some(bot), _) => {
            let (bot, engine) = bot_build::prepare(bot, args.limit.policy(), &|event| {
                eprintln!("{event}");
            })?;
            EngineConfig::new(bot.name, engine.path)
        }
        (None, Some(command)) => {
            let name = command.file_stem().map_or_else(
                || command.display().to_string(),
                |s| s.to_string_lossy().into(),
            );
            let mut config = EngineConfig::new(name, command).external();
            for arg in &args.engine_args {
                config = config.arg(arg);
            }
            config
        }
        (None, None) => bail!("name a bot, or an engine with --engine CMD"),
    };
    for (name, value) in uci_options(&args.options)? {
        config = config.option(&name, &value);
    }
    Ok(config)
}

fn bench(searcher: &mut Searcher, args: &Args, set: &PositionSet, sinks: &mut Sinks) -> Result<()> {
    let limit = limit(args);
    let mut table: Box<dyn Write> = if sinks.stdout_taken {
        Box::new(std::io::stderr())
    } else {
        Box::new(std::io::stdout())
    };
    let scored = set
        .records
        .iter()
        .any(|r| !r.best.is_empty() || !r.avoid.is_empty());
    writeln!(table, "{}", set.title(searcher.id_name(), limit))?;
    writeln!(
        table,
        "{:>4}  {:<36} {:>5} {:>12} {:>9} {:>11}  bestmove{}",
        "#",
        "position",
        "depth",
        "nodes",
        "ms",
        "nodes/s",
        if scored { "  result" } else { "" }
    )?;
    let report = run_bench(searcher, &set.records, limit, set.mode, |index, row| {
        let line = bench_line(index, row, &set.records[index]);
        let _ = writeln!(table, "{line}");
    })?;
    let suite = score_report(&set.records, &report);
    print_totals(&mut table, &report, limit)?;
    if scored {
        print_solved(&mut table, &suite, limit)?;
    }
    print_depth_table(&mut table, &report.depth_table())?;
    if let Some(path) = &set.path
        && set.skipped > 0
    {
        writeln!(
            table,
            "{} lines of {} skipped (see above)",
            set.skipped,
            path.display()
        )?;
    }
    export(sinks, searcher.id_name(), limit, set, &report)?;
    ensure!(
        set.path.is_some() || report.failures() == 0,
        "the engine failed on {} of {} positions",
        report.failures(),
        report.rows.len()
    );
    Ok(())
}

fn export(
    sinks: &mut Sinks,
    engine: &str,
    limit: BenchLimit,
    set: &PositionSet,
    report: &BenchReport,
) -> Result<()> {
    let run = run_out(engine, limit, set.mode, &set.records, report);
    if let Some(out) = &mut sinks.csv {
        write_csv(&run, out).context("cannot write the CSV")?;
    }
    if let Some(out) = &mut sinks.json {
        write_json(&run, out).context("cannot write the JSON")?;
    }
    Ok(())
}

fn bench_line(index: usize, row: &BenchRow, record: &EpdRecord) -> String {
    let mut line = format!("{:>4}  {:<36} ", index + 1, clip(&row.id, 36));
    match &row.result {
        Ok(s) => {
            let depth = s.depth.map_or("-".into(), |d| d.to_string());
            let nodes = s.nodes.map_or("-".into(), |n| n.to_string());
            let nps = s.nodes.map_or("-".into(), |n| speed(n, s.elapsed));
            let _ = write!(
                line,
                "{depth:>5} {nodes:>12} {:>9.1} {nps:>11}  {}",
                s.elapsed.as_secs_f64() * 1e3,
                clip(&s.bestmove, 12)
            );
            if !record.best.is_empty() || !record.avoid.is_empty() {
                let _ = write!(line, "  {}", verdict(record, row));
            }
        }
        Err(err) => {
            let _ = write!(line, "failed: {err}");
        }
    }
    line
}

/// `ok Qg6`, or `failed` with the move played and what was expected.
fn verdict(record: &EpdRecord, row: &BenchRow) -> String {
    let scored = measure::score_record(record, row.result.clone());
    let played = scored.result.map(|(played, _)| played).unwrap_or_default();
    if scored.solved {
        format!("ok      {}", clip(&played, 40))
    } else {
        let expected = expected_moves(&record.best_san, &record.avoid_san);
        format!("failed  {} ({})", clip(&played, 40), clip(&expected, 80))
    }
}

fn print_totals(out: &mut dyn Write, report: &BenchReport, limit: BenchLimit) -> Result<()> {
    let time = report.total_time();
    writeln!(out)?;
    let reported = report
        .rows
        .iter()
        .filter(|row| row.result.as_ref().is_ok_and(|s| s.nodes.is_some()))
        .count();
    match reported {
        0 => writeln!(
            out,
            "nodes searched  : - (the engine reported no `info ... nodes`)"
        )?,
        n if n == report.rows.len() => writeln!(out, "nodes searched  : {}", report.total_nodes())?,
        n => writeln!(
            out,
            "nodes searched  : {} (only {n} of {} searches reported nodes)",
            report.total_nodes(),
            report.rows.len()
        )?,
    }
    writeln!(out, "total time (ms) : {:.0}", time.as_secs_f64() * 1e3)?;
    match report.nodes_per_second() {
        Some(nps) => writeln!(out, "nodes/second    : {nps:.0}")?,
        None => writeln!(out, "nodes/second    : -")?,
    }
    let note = match (limit.is_reproducible(), report.all_nodes_reported()) {
        (false, _) => " (a time limit: expect it to vary from run to run)",
        (true, false) => " (best moves and depths only: some searches reported no nodes)",
        (true, true) => "",
    };
    writeln!(out, "signature       : {}{note}", report.signature())?;
    if report.failures() > 0 {
        writeln!(
            out,
            "failed          : {} of {}",
            report.failures(),
            report.rows.len()
        )?;
    }
    Ok(())
}

fn print_solved(out: &mut dyn Write, suite: &SuiteReport, limit: BenchLimit) -> Result<()> {
    let (solved, scored) = (suite.solved(), suite.scored());
    writeln!(
        out,
        "solved {solved} of {scored} ({:.1}%) at {limit}",
        100.0 * solved as f64 / scored.max(1) as f64
    )?;
    let failed = suite.failed_ids();
    if !failed.is_empty() {
        let shown: Vec<String> = failed.iter().map(|id| clip(id, 36)).collect();
        writeln!(out, "not solved: {}", shown.join(" "))?;
    }
    Ok(())
}

/// The depth table: cumulative nodes, each iteration's own, and the effective branching
/// factor (`measure` defines them).
fn print_depth_table(out: &mut dyn Write, rows: &[DepthRow]) -> Result<()> {
    writeln!(out)?;
    if rows.is_empty() {
        writeln!(
            out,
            "depth table     : - (the engine reported no `info depth ... nodes`)"
        )?;
        return Ok(());
    }
    writeln!(
        out,
        "depth table: nodes at the end of each depth (cumulative, added over the positions \
         that reached it), that iteration's own nodes, EBF = iteration(d) / iteration(d-1)"
    )?;
    writeln!(
        out,
        "{:>5} {:>9} {:>15} {:>15} {:>7}",
        "depth", "positions", "cumulative", "iteration", "EBF"
    )?;
    for row in rows {
        let ebf = row.ebf.map_or("-".into(), |ebf| format!("{ebf:.2}"));
        let iteration = row.iteration_nodes.map_or("-".into(), |n| n.to_string());
        writeln!(
            out,
            "{:>5} {:>9} {:>15} {iteration:>15} {ebf:>7}",
            row.depth, row.positions, row.nodes
        )?;
    }
    Ok(())
}

fn expected_moves(best: &[String], avoid: &[String]) -> String {
    match (best.is_empty(), avoid.is_empty()) {
        (false, true) => format!("best: {}", best.join(" ")),
        (true, false) => format!("avoid: {}", avoid.join(" ")),
        _ => format!("best: {}; avoid: {}", best.join(" "), avoid.join(" ")),
    }
}

fn speed(nodes: u64, elapsed: Duration) -> String {
    let seconds = elapsed.as_secs_f64();
    if seconds <= 0.0 {
        "-".into()
    } else {
        format!("{:.0}", nodes as f64 / seconds)
    }
}

/// At most `width` characters of `text` for a table column, control characters (from a
/// hostile suite file) shown as `?`.
fn clip(text: &str, width: usize) -> String {
    text.chars()
        .take(width)
        .map(|c| if c.is_control() { '?' } else { c })
        .collect()
}

//! `challenge bench`: the fixed bench positions, or an EPD test suite with `--suite`.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::{Context, Result, bail, ensure};
use kit::bench::epd::read_epd;
use kit::bench::suite::run_suite;
use kit::bench::{BenchReport, BenchRow, Limit, Searcher, bench_positions, run_bench};
use runner::EngineConfig;

use super::args::LimitArgs;

/// Search a fixed set of positions to a fixed limit and print nodes, time, nodes per
/// second and a signature of the search; or, with --suite, play an EPD test suite and
/// print the solve rate.
///
/// Examples:
///   challenge bench turochamp_modern --depth 3
///   challenge bench --engine /usr/games/stockfish --depth 10
///   challenge bench evil_bot --suite suites/wac.epd --movetime 1000
#[derive(clap::Args, Debug)]
pub struct Args {
    /// A bot in bot/ by name (`my_bot`) or a path to a bot file.
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
    /// A UCI option for the engine (repeatable), e.g. `--option Hash=16`.
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
    /// Play this EPD test suite (`bm`/`am` moves in SAN) and print the solve rate.
    #[arg(long, value_name = "FILE.epd")]
    suite: Option<PathBuf>,
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
    let config = engine_config(args)?;
    let mut searcher = Searcher::start(config, Duration::from_secs(args.timeout))?;
    let result = match &args.suite {
        Some(path) => suite(&mut searcher, args, path),
        None => bench(&mut searcher, args),
    };
    searcher.quit();
    result
}

/// The limit asked for, or the mode's default.
fn limit(args: &Args) -> Limit {
    match (args.depth, args.nodes, args.movetime) {
        (Some(depth), _, _) => Limit::Depth(depth),
        (_, Some(nodes), _) => Limit::Nodes(nodes),
        (_, _, Some(ms)) => Limit::MoveTime(ms),
        _ if args.suite.is_some() => Limit::MoveTime(DEFAULT_SUITE_MS),
        _ => Limit::Depth(DEFAULT_DEPTH),
    }
}

/// The engine to run: the bot built into an engine, or the external command.
fn engine_config(args: &Args) -> Result<EngineConfig> {
    let mut config = match (&args.bot, &args.engine) {
        (Some(bot), _) => {
            let engine = kit::engine_build::prepare(bot, args.limit.policy(), &|event| {
                eprintln!("{event}");
            })?;
            EngineConfig::new(kit::bots::resolve(bot)?.name, engine.path)
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
    for option in &args.options {
        let Some((name, value)) = option.split_once('=') else {
            bail!("--option `{option}` is not NAME=VALUE (e.g. --option Hash=16)");
        };
        ensure!(
            !name.trim().is_empty() && !option.contains(['\n', '\r']),
            "--option `{option}` needs a name before `=` and no line break"
        );
        config = config.option(name.trim(), value.trim());
    }
    Ok(config)
}

fn bench(searcher: &mut Searcher, args: &Args) -> Result<()> {
    let positions = bench_positions()?;
    let limit = limit(args);
    println!(
        "bench {}: {} positions at {limit}, each from `ucinewgame`",
        searcher.id_name(),
        positions.len()
    );
    println!(
        "{:>3}  {:<36} {:>5} {:>12} {:>9} {:>11}  bestmove",
        "#", "position", "depth", "nodes", "ms", "nodes/s"
    );
    let report = run_bench(searcher, &positions, limit, |index, row| {
        println!("{}", bench_line(index, row));
    });
    print_bench_total(&report, limit);
    ensure!(
        report.failures() == 0,
        "the engine failed on {} of {} positions",
        report.failures(),
        report.rows.len()
    );
    Ok(())
}

fn bench_line(index: usize, row: &BenchRow) -> String {
    let mut line = format!("{:>3}  {:<36} ", index + 1, clip(&row.id, 36));
    match &row.result {
        Ok(s) => {
            let depth = s.depth.map_or("-".into(), |d| d.to_string());
            let nodes = s.nodes.map_or("-".into(), |n| n.to_string());
            let nps = s.nodes.map_or("-".into(), |n| speed(n, s.elapsed));
            let _ = write!(
                line,
                "{depth:>5} {nodes:>12} {:>9.1} {nps:>11}  {}",
                s.elapsed.as_secs_f64() * 1e3,
                s.bestmove
            );
        }
        Err(err) => {
            let _ = write!(line, "failed: {err}");
        }
    }
    line
}

fn print_bench_total(report: &BenchReport, limit: Limit) {
    let time = report.total_time();
    println!();
    let reported = report
        .rows
        .iter()
        .filter(|row| row.result.as_ref().is_ok_and(|s| s.nodes.is_some()))
        .count();
    match reported {
        0 => println!("nodes searched  : - (the engine reported no `info ... nodes`)"),
        n if n == report.rows.len() => println!("nodes searched  : {}", report.total_nodes()),
        n => println!(
            "nodes searched  : {} (only {n} of {} searches reported nodes)",
            report.total_nodes(),
            report.rows.len()
        ),
    }
    println!("total time (ms) : {:.0}", time.as_secs_f64() * 1e3);
    match report.nodes_per_second() {
        Some(nps) => println!("nodes/second    : {nps:.0}"),
        None => println!("nodes/second    : -"),
    }
    let note = match (limit.is_reproducible(), report.all_nodes_reported()) {
        (false, _) => " (a time limit: expect it to vary from run to run)",
        (true, false) => " (best moves and depths only: some searches reported no nodes)",
        (true, true) => "",
    };
    println!("signature       : {}{note}", report.signature());
}

fn suite(searcher: &mut Searcher, args: &Args, path: &Path) -> Result<()> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    let file = read_epd(&text);
    for err in &file.errors {
        eprintln!("{}: skipped {err}", path.display());
    }
    ensure!(
        !file.records.is_empty(),
        "{} holds no EPD record that could be read",
        path.display()
    );
    let limit = limit(args);
    println!(
        "suite {} with {}: {} positions at {limit}",
        path.display(),
        searcher.id_name(),
        file.records.len()
    );
    let report = run_suite(searcher, &file.records, limit, |index, record, row| {
        let expected = expected_moves(&record.best_san, &record.avoid_san);
        let line = match &row.result {
            Ok((played, _)) if row.solved => format!("ok      {played}"),
            Ok((played, _)) => format!("failed  {played} ({expected})"),
            Err(err) => format!("failed  no move: {err}"),
        };
        println!("{:>4}  {:<12} {line}", index + 1, clip(&record.id, 12));
    });
    let total = report.rows.len();
    let solved = report.solved();
    println!();
    println!(
        "solved {solved} of {total} ({:.1}%) at {limit}",
        100.0 * solved as f64 / total as f64
    );
    let failed = report.failed_ids();
    if !failed.is_empty() {
        println!("not solved: {}", failed.join(" "));
    }
    if !file.errors.is_empty() {
        println!(
            "{} lines of {} skipped (see above)",
            file.errors.len(),
            path.display()
        );
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

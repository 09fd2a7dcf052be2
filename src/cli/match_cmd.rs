//! `challenge match`: play bots and UCI engines against each other, GUI-less.
//!
//! Argument parsing, building bots into engines, progress display, PGN/JSON output and the
//! summary live here; playing games and the statistics are the framework's
//! [`runner`](runner).

use std::fmt::Write as _;
use std::fs::{File, OpenOptions};
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use anyhow::{Context, Result, bail, ensure};
use framework::notation::write_game;
use indicatif::{ProgressBar, ProgressStyle};
use runner::{
    AdjudicationRules, DrawRule, EloEstimate, EngineConfig, Format, GameEvent, GameSettings,
    Opening, Player, ResignRule, Sprt, SprtState, Standings, Stats, StopReason, TimeControl,
    TournamentConfig, TournamentResult, load_openings, pairs_for_games, run_tournament, shuffle,
};
use serde_json::{Value, json};

use kit::bots::{self, LimitPolicy};
use kit::engine_build;

/// Play a match or tournament between bots and UCI engines.
///
/// Players are bots (by name in bot/ or by file path, built automatically) and external UCI
/// engines given with `--engine`. Two players make a head-to-head match; more make a
/// round-robin (or a gauntlet of the first against the rest with `--format gauntlet`).
/// Every opening is played twice with colours swapped. Engine faults (crash, stall, illegal
/// or unparsable move, failed start, memory limit) lose that game with a Termination tag
/// naming the cause; the engine is restarted and the match goes on. Ctrl-C stops cleanly:
/// finished games are kept and the summary is printed.
///
/// Defaults: 5+0.05 time control, 50 games per pair of players (25 colour-swapped pairs),
/// the kit's balanced opening suite (openings/default.epd) in order, one game per core.
/// With no players at all it plays turochamp_modern against turochamp_faithful (a couple
/// of minutes on two cores).
///
/// Examples:
///   challenge match
///   challenge match evil_bot my_bot
///   challenge match my_bot bot/my_new_bot.rs --games 200 --sprt elo0=0 elo1=10
///   challenge match evil_bot --engine name=sf cmd=/usr/games/stockfish "option.Skill Level=0" tc=10+0.1
#[derive(clap::Args, Debug)]
#[command(verbatim_doc_comment)]
pub struct MatchArgs {
    /// Bots to play: names in bot/ (`evil_bot`) or paths to bot files. Put them before any --engine.
    /// None at all: turochamp_modern vs turochamp_faithful.
    pub players: Vec<String>,

    #[command(flatten)]
    pub engines: EngineSpecs,

    /// round-robin (everyone plays everyone) or gauntlet (the first player against each other one).
    #[arg(long, default_value = "round-robin")]
    pub format: Format,

    /// Games per pair of players, rounded up to an even number (colour-swapped pairs).
    #[arg(long, short = 'n', default_value_t = 50)]
    pub games: usize,

    /// Time control: BASE+INC in seconds (`5+0.05`), or MOVES/BASE+INC (`40/60+0`).
    #[arg(long, default_value = "5+0.05")]
    pub tc: TimeControl,

    /// Fixed time per move in seconds (replaces --tc).
    #[arg(long, value_name = "SECONDS")]
    pub st: Option<f64>,

    /// Node limit per move (for engines that support `go nodes`; replaces --tc unless --tc is given explicitly too).
    #[arg(long)]
    pub nodes: Option<u64>,

    /// Depth limit per move (for engines that support `go depth`).
    #[arg(long)]
    pub depth: Option<u32>,

    /// Milliseconds an engine may overstep its clock before losing on time.
    #[arg(long = "timemargin", value_name = "MS", default_value_t = 100)]
    pub time_margin: u64,

    /// Opening file: EPD/FEN lines, or PGN games (`.pgn`). Default: the kit's openings/default.epd.
    #[arg(long, value_name = "FILE")]
    pub openings: Option<PathBuf>,

    /// Plies of each PGN opening to play (default: all its moves).
    #[arg(long, value_name = "N")]
    pub plies: Option<usize>,

    /// Opening order: `sequential` or `random` (shuffled with --seed).
    #[arg(long, default_value = "sequential", value_parser = ["sequential", "random"])]
    pub order: String,

    /// Seed for `--order random` (default: from the clock; printed when the match starts).
    #[arg(long)]
    pub seed: Option<u64>,

    /// Games played at once (default: the number of cores).
    #[arg(long = "concurrency", short = 'j')]
    pub concurrency: Option<usize>,

    /// Append each finished game to this PGN file as it finishes.
    #[arg(long, value_name = "FILE")]
    pub pgn: Option<PathBuf>,

    /// Write the summary (players, pairs, statistics, terminations, faults) as JSON.
    #[arg(long, value_name = "FILE")]
    pub json: Option<PathBuf>,

    /// Run a GSPRT on normalized Elo over game pairs (first player's view), stopping at a bound:
    /// `elo0=0 elo1=5 alpha=0.05 beta=0.05` (any omitted take these values). Two players only.
    #[arg(long, num_args = 0.., value_name = "KEY=VALUE")]
    pub sprt: Option<Vec<String>>,

    /// Adjudicate a draw: `movenumber=40 movecount=8 score=10` (both engines within ±score cp).
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE")]
    pub draw: Option<Vec<String>>,

    /// Adjudicate a loss: `movecount=3 score=600` (loser ≤ −score, winner ≥ score).
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE")]
    pub resign: Option<Vec<String>>,

    /// Draw games reaching this many full moves.
    #[arg(long = "maxmoves", value_name = "N")]
    pub max_moves: Option<u32>,

    /// PGN Event tag.
    #[arg(long, default_value = "challenge match")]
    pub event: String,

    /// Play bots even if they are over the 1024-token limit (rule violations are still refused).
    #[arg(long)]
    pub allow_over_limit: bool,

    /// No progress bar or per-game lines; only the summary.
    #[arg(long, short = 'q')]
    pub quiet: bool,
}

/// The `--engine` occurrences, each a list of KEY=VALUE words.
///
/// Written by hand because clap's derive cannot yet group a multi-value option by
/// occurrence (`Vec<Vec<String>>` needs its unstable-v5 feature).
#[derive(Debug, Default, Clone)]
pub struct EngineSpecs(pub Vec<Vec<String>>);

const ENGINE_HELP: &str = "An external UCI engine (repeatable) as KEY=VALUE words: name=NAME cmd=PATH \
(or bot=BOT), arg=ARG (repeatable), dir=DIR, option.NAME=VALUE (repeatable), and per-player limits \
tc=TC, st=SECONDS, nodes=N, depth=N that replace the match's";

impl clap::FromArgMatches for EngineSpecs {
    fn from_arg_matches(matches: &clap::ArgMatches) -> Result<Self, clap::Error> {
        let groups = matches
            .get_occurrences::<String>("engine")
            .map(|occurrences| occurrences.map(|words| words.cloned().collect()).collect())
            .unwrap_or_default();
        Ok(EngineSpecs(groups))
    }

    fn update_from_arg_matches(&mut self, matches: &clap::ArgMatches) -> Result<(), clap::Error> {
        *self = Self::from_arg_matches(matches)?;
        Ok(())
    }
}

impl clap::Args for EngineSpecs {
    fn augment_args(cmd: clap::Command) -> clap::Command {
        cmd.arg(
            clap::Arg::new("engine")
                .long("engine")
                .num_args(1..)
                .action(clap::ArgAction::Append)
                .value_name("KEY=VALUE")
                .help(ENGINE_HELP),
        )
    }

    fn augment_args_for_update(cmd: clap::Command) -> clap::Command {
        Self::augment_args(cmd)
    }
}

fn key_values(words: &[String], what: &str) -> Result<Vec<(String, String)>> {
    words
        .iter()
        .map(|w| {
            let (k, v) = w.split_once('=').with_context(|| {
                format!("{what}: `{w}` is not KEY=VALUE (bots go before --engine; quote values with spaces)")
            })?;
            Ok((k.trim().to_string(), v.trim().to_string()))
        })
        .collect()
}

fn base_time_control(args: &MatchArgs, tc_given: bool) -> Result<TimeControl> {
    let mut tc = if let Some(st) = args.st {
        ensure!(
            st > 0.0 && st.is_finite(),
            "--st {st}: expected a positive number of seconds"
        );
        TimeControl::movetime(Duration::from_secs_f64(st))
    } else if (args.nodes.is_some() || args.depth.is_some()) && !tc_given {
        TimeControl::default()
    } else {
        args.tc
    };
    tc.nodes = args.nodes;
    tc.depth = args.depth;
    Ok(tc)
}

fn bot_player(spec: &str, policy: LimitPolicy, tc: TimeControl) -> Result<Player> {
    let bot = bots::resolve(spec)?;
    bots::check(&bot, policy)?;
    let engine =
        engine_build::build(&bot).with_context(|| format!("cannot build bot `{}`", bot.name))?;
    Ok(Player::new(EngineConfig::new(bot.name, engine.path), tc))
}

fn engine_player(words: &[String], policy: LimitPolicy, default_tc: TimeControl) -> Result<Player> {
    let pairs = key_values(words, "--engine")?;
    let mut name = None;
    let mut tc = default_tc;
    let mut config: Option<EngineConfig> = None;
    let mut args = Vec::new();
    let mut options = Vec::new();
    let mut dir = None;
    for (key, value) in &pairs {
        let bad = |what: &str| format!("--engine {key}={value}: {what}");
        match key.as_str() {
            "name" => name = Some(value.clone()),
            "cmd" => config = Some(EngineConfig::new(value.clone(), value.clone())),
            "bot" => config = Some(bot_player(value, policy, default_tc)?.engine),
            "arg" => args.push(value.clone()),
            "dir" => dir = Some(PathBuf::from(value)),
            "tc" => {
                let parsed: TimeControl =
                    value.parse().with_context(|| bad("invalid time control"))?;
                tc = TimeControl {
                    nodes: tc.nodes,
                    depth: tc.depth,
                    ..parsed
                };
            }
            "st" => {
                let secs: f64 = value
                    .parse()
                    .ok()
                    .filter(|s: &f64| *s > 0.0)
                    .with_context(|| bad("expected seconds"))?;
                tc = TimeControl {
                    nodes: tc.nodes,
                    depth: tc.depth,
                    ..TimeControl::movetime(Duration::from_secs_f64(secs))
                };
            }
            "nodes" => {
                tc.nodes = Some(
                    value
                        .parse()
                        .with_context(|| bad("expected a node count"))?,
                )
            }
            "depth" => tc.depth = Some(value.parse().with_context(|| bad("expected a depth"))?),
            k if k.starts_with("option.") => {
                options.push((k["option.".len()..].to_string(), value.clone()))
            }
            _ => bail!(
                "--engine: unknown key `{key}` (expected name, cmd, bot, arg, dir, option.NAME, tc, st, nodes or depth)"
            ),
        }
    }
    let mut config = config.context("--engine needs cmd=PATH (an executable) or bot=BOT")?;
    if let Some(name) = name {
        config.name = name;
    } else if let Some(stem) = Path::new(&config.name).file_stem() {
        config.name = stem.to_string_lossy().into_owned();
    }
    config.args.extend(args);
    config.options.extend(options);
    if dir.is_some() {
        config.dir = dir;
    }
    Ok(Player::new(config, tc))
}

fn parse_sprt(words: &[String]) -> Result<Sprt> {
    let (mut elo0, mut elo1, mut alpha, mut beta) = (0.0, 5.0, 0.05, 0.05);
    for (k, v) in key_values(words, "--sprt")? {
        let value: f64 = v
            .parse()
            .with_context(|| format!("--sprt {k}={v}: expected a number"))?;
        match k.as_str() {
            "elo0" => elo0 = value,
            "elo1" => elo1 = value,
            "alpha" => alpha = value,
            "beta" => beta = value,
            _ => bail!("--sprt: unknown key `{k}` (expected elo0, elo1, alpha, beta)"),
        }
    }
    Sprt::new(elo0, elo1, alpha, beta).map_err(anyhow::Error::msg)
}

fn numbers(words: &[String], what: &str, keys: &[&str]) -> Result<Vec<i64>> {
    let mut out = vec![None; keys.len()];
    for (k, v) in key_values(words, what)? {
        let i = keys
            .iter()
            .position(|x| *x == k)
            .with_context(|| format!("{what}: unknown key `{k}` (expected {})", keys.join(", ")))?;
        out[i] = Some(
            v.parse::<i64>()
                .with_context(|| format!("{what} {k}={v}: expected a whole number"))?,
        );
    }
    keys.iter()
        .zip(out)
        .map(|(k, v)| v.with_context(|| format!("{what}: missing {k}=N")))
        .collect()
}

fn adjudication(args: &MatchArgs) -> Result<AdjudicationRules> {
    let mut rules = AdjudicationRules::default();
    if let Some(words) = &args.draw {
        let n = numbers(words, "--draw", &["movenumber", "movecount", "score"])?;
        rules.draw = Some(DrawRule {
            move_number: n[0] as u32,
            move_count: n[1] as u32,
            score_cp: n[2] as i32,
        });
    }
    if let Some(words) = &args.resign {
        let n = numbers(words, "--resign", &["movecount", "score"])?;
        rules.resign = Some(ResignRule {
            move_count: n[0] as u32,
            score_cp: n[1] as i32,
        });
    }
    rules.max_plies = args.max_moves.map(|m| m * 2);
    Ok(rules)
}

fn openings(args: &MatchArgs, seed: u64) -> Result<(Vec<Opening>, String)> {
    let (mut list, source) = match &args.openings {
        Some(path) => (load_openings(path, args.plies)?, path.display().to_string()),
        None => {
            let default = Path::new(bots::KIT_ROOT)
                .join("openings")
                .join("default.epd");
            if default.exists() {
                (
                    load_openings(&default, None)?,
                    "openings/default.epd".to_string(),
                )
            } else {
                (
                    vec![Opening::startpos()],
                    "the standard start position".to_string(),
                )
            }
        }
    };
    if args.order == "random" {
        shuffle(&mut list, seed);
    }
    Ok((list, source))
}

/// Gives duplicate names a `-2`, `-3`... suffix so PGN and standings tell them apart.
fn unique_names(players: &mut [Player]) {
    for i in 1..players.len() {
        let base = players[i].engine.name.clone();
        let mut n = 1;
        while players[..i]
            .iter()
            .any(|p| p.engine.name == players[i].engine.name)
        {
            n += 1;
            players[i].engine.name = format!("{base}-{n}");
        }
    }
}

/// The match `challenge match` plays with no players named: the kit's two reference
/// bots, the modern one first so the figures read as its gain over Turing's rules.
const DEFAULT_PLAYERS: [&str; 2] = ["turochamp_modern", "turochamp_faithful"];

/// Runs `challenge match`.
pub fn run(args: MatchArgs) -> Result<()> {
    let policy = if args.allow_over_limit {
        LimitPolicy::AllowOverLimit
    } else {
        LimitPolicy::Enforce
    };
    let tc_given = std::env::args().any(|a| a == "--tc" || a.starts_with("--tc="));
    let tc = base_time_control(&args, tc_given)?;
    let mut players = Vec::new();
    let available = bots::available();
    let default_match = DEFAULT_PLAYERS
        .iter()
        .all(|b| available.iter().any(|a| a == b));
    let specs: Vec<String> =
        if args.players.is_empty() && args.engines.0.is_empty() && default_match {
            eprintln!(
                "No players given: the default match, {}",
                DEFAULT_PLAYERS.join(" vs ")
            );
            DEFAULT_PLAYERS.iter().map(|s| s.to_string()).collect()
        } else {
            args.players.clone()
        };
    for spec in &specs {
        players.push(bot_player(spec, policy, tc)?);
    }
    for words in &args.engines.0 {
        players.push(engine_player(words, policy, tc)?);
    }
    ensure!(
        players.len() >= 2,
        "a match needs at least two players, e.g. `challenge match evil_bot my_bot` (bots: {})",
        bots::available().join(", ")
    );
    unique_names(&mut players);
    ensure!(args.games > 0, "--games must be at least 1");
    let sprt = args.sprt.as_deref().map(parse_sprt).transpose()?;
    ensure!(
        sprt.is_none() || players.len() == 2,
        "--sprt needs exactly two players"
    );
    let seed = args.seed.unwrap_or_else(|| {
        SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64)
    });
    let (openings, opening_source) = openings(&args, seed)?;
    let concurrency = args
        .concurrency
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .max(1);
    let config = TournamentConfig {
        players,
        format: args.format,
        pairs: pairs_for_games(args.games),
        openings,
        concurrency,
        settings: GameSettings {
            margin: Duration::from_millis(args.time_margin),
            adjudication: adjudication(&args)?,
            ..GameSettings::default()
        },
        sprt,
    };

    let mut pgn = match &args.pgn {
        Some(path) => Some(
            OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)
                .with_context(|| {
                    format!("cannot open PGN file {} for appending", path.display())
                })?,
        ),
        None => None,
    };

    let stop = Arc::new(AtomicBool::new(false));
    let presses = Arc::new(AtomicUsize::new(0));
    {
        let (stop, presses) = (stop.clone(), presses.clone());
        // A second Ctrl-C leaves at once: every finished game is already on disk.
        let _ = ctrlc::set_handler(move || {
            stop.store(true, Ordering::SeqCst);
            if presses.fetch_add(1, Ordering::SeqCst) >= 1 {
                std::process::exit(130);
            }
        });
    }

    let scheduled =
        runner::encounters(config.format, config.players.len()).len() * config.pairs * 2;
    let interactive = !args.quiet && std::io::stderr().is_terminal();
    let bar = if interactive {
        let bar = ProgressBar::new(scheduled as u64);
        bar.set_style(
            ProgressStyle::with_template("{bar:20} {pos}/{len} {msg} [{elapsed_precise}]")
                .expect("valid progress template"),
        );
        bar.enable_steady_tick(Duration::from_millis(250));
        Some(bar)
    } else {
        None
    };
    let started = Instant::now();
    let date = framework::notation::pgn_date(SystemTime::now());
    let mut faults: Vec<Value> = Vec::new();
    let mut pgn_error: Option<anyhow::Error> = None;
    let first_pair = format!(
        "{} vs {}",
        config.players[0].name(),
        config.players[1].name()
    );
    eprintln!(
        "Playing {} games ({}, {} players, {}, openings from {}, {concurrency} at a time){}",
        scheduled,
        config.format,
        config.players.len(),
        describe_tcs(&config.players),
        opening_source,
        if args.order == "random" {
            format!(", shuffled with seed {seed}")
        } else {
            String::new()
        },
    );

    let result = run_tournament(&config, &stop, |event: GameEvent<'_>| {
        let record = event.record;
        let job = event.job;
        if let Some(file) = pgn.as_mut() {
            let mut game = record.to_pgn();
            game.set_tag("Event", &args.event);
            game.set_tag("Site", "challenge");
            game.set_tag("Date", &date);
            game.set_tag(
                "Round",
                &format!("{}.{}", job.pair + 1, job.game_in_pair + 1),
            );
            let text = write_game(&game);
            if let Err(err) = file
                .write_all(format!("{text}\n").as_bytes())
                .and_then(|()| file.flush())
            {
                pgn_error.get_or_insert_with(|| {
                    anyhow::Error::new(err).context("cannot write the PGN file")
                });
            }
        }
        if let Some(side) = record.faulty {
            let engine = if side == framework::chess::Color::White {
                &record.white
            } else {
                &record.black
            };
            let line = format!(
                "Game {} ({} vs {}): {} ({})",
                job.number + 1,
                record.white,
                record.black,
                record.termination,
                record.detail
            );
            if !args.quiet {
                match &bar {
                    Some(bar) => bar.println(&line),
                    None => eprintln!("{line}"),
                }
                for l in &record.stderr {
                    let l = format!("    {engine} stderr: {l}");
                    match &bar {
                        Some(bar) => bar.println(&l),
                        None => eprintln!("{l}"),
                    }
                }
            }
            faults.push(json!({
                "game": job.number + 1,
                "engine": engine,
                "termination": record.termination.tag(),
                "detail": record.detail,
                "stderr": record.stderr,
            }));
        }
        let me = event.standings.player(0);
        let elo = me
            .elo_wdl()
            .map_or(String::new(), |e| format!("  Elo {}", elo_text(&e)));
        let llr = event.llr.map_or(String::new(), |l| format!("  LLR {l:.2}"));
        let msg = format!(
            "{}: W{} D{} L{}{elo}{llr}",
            event.standings.players[0], me.wins, me.draws, me.losses
        );
        match &bar {
            Some(bar) => {
                bar.set_message(msg);
                bar.set_position(event.standings.games as u64);
            }
            None if !args.quiet => eprintln!(
                "Finished game {} ({} vs {}): {} {{{}}}  [{msg}]",
                job.number + 1,
                record.white,
                record.black,
                record.result,
                record.termination
            ),
            None => {}
        }
    });
    if let Some(bar) = &bar {
        bar.finish_and_clear();
    }
    let elapsed = started.elapsed();

    let summary = summary_text(&config, &result, &first_pair, elapsed);
    print!("{summary}");
    if let Some(path) = &args.json {
        let value = summary_json(&config, &result, &faults, elapsed, &opening_source, seed);
        let text = serde_json::to_string_pretty(&value).expect("JSON values always serialise");
        let mut file = File::create(path)
            .with_context(|| format!("cannot create JSON file {}", path.display()))?;
        file.write_all(text.as_bytes())
            .with_context(|| format!("cannot write JSON file {}", path.display()))?;
    }
    if let Some(err) = pgn_error {
        return Err(err.context(format!(
            "PGN output {}",
            args.pgn
                .as_ref()
                .map_or(String::new(), |p| p.display().to_string())
        )));
    }
    Ok(())
}

/// `+12.3 ± 45.6`; at a 0% or 100% score, where the normal approximation
/// says nothing, the exact one-sided bound instead (`+inf, > +446.1`).
fn elo_text(e: &EloEstimate) -> String {
    let signed = |x: f64| {
        if x.is_finite() {
            format!("{:+.1}", if x.abs() < 0.05 { 0.0 } else { x })
        } else if x > 0.0 {
            "+inf".into()
        } else {
            "-inf".into()
        }
    };
    if e.error.is_finite() {
        format!("{} ± {:.1}", signed(e.elo), e.error)
    } else if e.elo_lower.is_finite() {
        format!("{}, > {}", signed(e.elo), signed(e.elo_lower))
    } else if e.elo_upper.is_finite() {
        format!("{}, < {}", signed(e.elo), signed(e.elo_upper))
    } else {
        format!("{} ± ?", signed(e.elo))
    }
}

/// The 95% interval as `[lower, upper]`, open-ended where unbounded.
fn interval_text(e: &EloEstimate) -> String {
    let end = |x: f64| {
        if x.is_finite() {
            format!("{x:+.2}")
        } else if x > 0.0 {
            "+inf".into()
        } else {
            "-inf".into()
        }
    };
    format!("[{}, {}]", end(e.elo_lower), end(e.elo_upper))
}

fn describe_tcs(players: &[Player]) -> String {
    let first = players[0].tc;
    if players.iter().all(|p| p.tc == first) {
        describe_tc(&first)
    } else {
        players
            .iter()
            .map(|p| format!("{} {}", p.name(), describe_tc(&p.tc)))
            .collect::<Vec<_>>()
            .join(", ")
    }
}

fn describe_tc(tc: &TimeControl) -> String {
    let mut parts = Vec::new();
    if tc.base.is_some() || tc.movetime.is_some() {
        parts.push(format!("tc {tc}"));
    }
    if let Some(n) = tc.nodes {
        parts.push(format!("nodes {n}"));
    }
    if let Some(d) = tc.depth {
        parts.push(format!("depth {d}"));
    }
    if parts.is_empty() {
        "no limits".to_string()
    } else {
        parts.join(", ")
    }
}

/// A figure with two decimals, or `n/a` where the statistic is undefined (no variance yet,
/// or a 0% / 100% score).
fn fig(x: f64) -> String {
    if x.is_finite() {
        format!("{:.2}", x + 0.0)
    } else {
        "n/a".to_string()
    }
}

fn stats_lines(out: &mut String, stats: &Stats) {
    let _ = writeln!(
        out,
        "Games: {}, Wins: {}, Losses: {}, Draws: {}, Points: {:.1} ({:.2} %)",
        stats.games(),
        stats.wins,
        stats.losses,
        stats.draws,
        stats.points(),
        stats.score() * 100.0
    );
    if let Some(e) = stats.elo_wdl() {
        let _ = writeln!(
            out,
            "Elo: {} +/- {} (95%: {}), nElo: {} +/- {}, LOS: {} %, DrawRatio: {:.2} %",
            fig(e.elo),
            fig(e.error),
            interval_text(&e),
            fig(e.nelo),
            fig(e.nelo_error),
            fig(e.los * 100.0),
            stats.draw_ratio() * 100.0
        );
    }
    if let Some(e) = stats.elo_penta() {
        let _ = writeln!(
            out,
            "Pairs: {}, Ptnml(0-2): {:?}, pair Elo: {} +/- {}, nElo: {} +/- {}, LOS: {} %",
            stats.pairs(),
            stats.penta,
            fig(e.elo),
            fig(e.error),
            fig(e.nelo),
            fig(e.nelo_error),
            fig(e.los * 100.0)
        );
    }
}

fn stop_text(result: &TournamentResult) -> &'static str {
    match result.stop {
        StopReason::Completed => "all games played",
        StopReason::Interrupted => "interrupted (Ctrl-C); finished games are counted",
        StopReason::Sprt(SprtState::AcceptH1) => "SPRT: H1 accepted (upper bound crossed)",
        StopReason::Sprt(SprtState::AcceptH0) => "SPRT: H0 accepted (lower bound crossed)",
        StopReason::Sprt(SprtState::Continue) => "SPRT running",
    }
}

fn summary_text(
    config: &TournamentConfig,
    result: &TournamentResult,
    first_pair: &str,
    elapsed: Duration,
) -> String {
    let s = &result.standings;
    let mut out = String::new();
    let _ = writeln!(out);
    if config.players.len() == 2 {
        let _ = writeln!(
            out,
            "Results of {first_pair} ({}):",
            describe_tcs(&config.players)
        );
        stats_lines(&mut out, &s.player(0));
    } else {
        let _ = writeln!(
            out,
            "Standings ({}, {}):",
            config.format,
            describe_tcs(&config.players)
        );
        let mut order: Vec<usize> = (0..s.players.len()).collect();
        order.sort_by(|&a, &b| s.player(b).points().total_cmp(&s.player(a).points()));
        let width = s.players.iter().map(|n| n.len()).max().unwrap_or(4).max(4);
        let _ = writeln!(
            out,
            "  # {:width$}  {:>7} {:>6} {:>5} {:>5} {:>5}   Elo vs field",
            "Name", "Points", "Games", "W", "D", "L"
        );
        for (rank, &i) in order.iter().enumerate() {
            let p = s.player(i);
            let elo = p.elo_wdl().map_or("-".to_string(), |e| {
                format!("{} +/- {}", fig(e.elo), fig(e.error))
            });
            let _ = writeln!(
                out,
                "{:>3} {:width$}  {:>7.1} {:>6} {:>5} {:>5} {:>5}   {}",
                rank + 1,
                s.players[i],
                p.points(),
                p.games(),
                p.wins,
                p.draws,
                p.losses,
                elo
            );
        }
        for &((a, b), stats) in &s.encounters {
            if stats.games() == 0 {
                continue;
            }
            let _ = writeln!(out, "\n{} vs {}:", s.players[a], s.players[b]);
            stats_lines(&mut out, &stats);
        }
    }
    if let (Some(sprt), Some(llr)) = (config.sprt, result.llr) {
        let _ = writeln!(
            out,
            "SPRT ([{}, {}], alpha {}, beta {}): LLR {:.2} (bounds {:.2}, {:.2})",
            sprt.elo0,
            sprt.elo1,
            sprt.alpha,
            sprt.beta,
            llr,
            sprt.lower_bound(),
            sprt.upper_bound()
        );
    }
    let mut terminations = std::collections::BTreeMap::new();
    let _ = &terminations;
    for (t, n) in &s.faults {
        terminations.insert(t.tag(), *n);
    }
    if !terminations.is_empty() {
        let list: Vec<String> = terminations
            .iter()
            .map(|(t, n)| format!("{t} {n}"))
            .collect();
        let _ = writeln!(out, "Faults: {}", list.join(", "));
    }
    let _ = writeln!(
        out,
        "{} of {} games in {:.1}s: {}",
        s.games,
        result.scheduled,
        elapsed.as_secs_f64(),
        stop_text(result)
    );
    out
}

fn stats_json(stats: &Stats) -> Value {
    let elo = |e: Option<runner::EloEstimate>| {
        e.map_or(Value::Null, |e| {
            json!({"score": e.score, "elo": e.elo, "error": e.error, "elo_lower": e.elo_lower, "elo_upper": e.elo_upper, "nelo": e.nelo, "nelo_error": e.nelo_error, "los": e.los})
        })
    };
    json!({
        "games": stats.games(),
        "wins": stats.wins,
        "draws": stats.draws,
        "losses": stats.losses,
        "points": stats.points(),
        "score": stats.score(),
        "draw_ratio": stats.draw_ratio(),
        "pairs": stats.pairs(),
        "pentanomial": stats.penta,
        "elo": elo(stats.elo_wdl()),
        "elo_pentanomial": elo(stats.elo_penta()),
    })
}

fn summary_json(
    config: &TournamentConfig,
    result: &TournamentResult,
    faults: &[Value],
    elapsed: Duration,
    openings: &str,
    seed: u64,
) -> Value {
    let s: &Standings = &result.standings;
    json!({
        "format": config.format.to_string(),
        "openings": openings,
        "seed": seed,
        "concurrency": config.concurrency,
        "games_scheduled": result.scheduled,
        "games_played": s.games,
        "elapsed_seconds": elapsed.as_secs_f64(),
        "stop": stop_text(result),
        "players": s.players.iter().enumerate().map(|(i, name)| json!({
            "name": name,
            "command": config.players[i].engine.command.display().to_string(),
            "time_control": config.players[i].tc.to_string(),
            "stats": stats_json(&s.player(i)),
        })).collect::<Vec<_>>(),
        "pairs": s.encounters.iter().map(|&((a, b), stats)| json!({
            "first": s.players[a],
            "second": s.players[b],
            "stats": stats_json(&stats),
        })).collect::<Vec<_>>(),
        "sprt": config.sprt.map(|sprt| json!({
            "elo0": sprt.elo0, "elo1": sprt.elo1, "alpha": sprt.alpha, "beta": sprt.beta,
            "lower_bound": sprt.lower_bound(), "upper_bound": sprt.upper_bound(),
            "llr": result.llr,
            "state": match result.stop {
                StopReason::Sprt(SprtState::AcceptH1) => "H1",
                StopReason::Sprt(SprtState::AcceptH0) => "H0",
                _ => "continue",
            },
        })),
        "fault_counts": s.faults.iter().map(|(t, n)| (t.tag().to_string(), json!(n))).collect::<serde_json::Map<_, _>>(),
        "faults": faults,
    })
}

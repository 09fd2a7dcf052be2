//! `challenge match`: the command line of a match (players, `--engine` occurrences,
//! options); reading an `--engine`'s words and playing the match are [`measure`], and its
//! progress on the terminal is [`progress`].

mod analysis;
mod progress;
mod watch;

use std::path::PathBuf;
use std::sync::atomic::Ordering;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use anyhow::{Result, ensure};
use bot_build::BuildEvent;
use bot_build::LimitPolicy;
use measure::{
    DEFAULT_PLAYERS, EngineSpec, MatchEvent, MatchOptions, OpeningChoice, bot_player, openings,
    run_match_watched, sprt_from_words, tournament, unique_names,
};
use runner::{Format, Player, TimeControl, TournamentConfig};

use analysis::Analysis;

use super::args::{GameArgs, LimitArgs};
use super::interrupt;

/// Play a match or tournament between bots and UCI engines.
///
/// Players are bots (by name from ./bot/, else the kit's, or by file path; built
/// automatically) and external UCI engines given with `--engine`. Two players make a
/// head-to-head match; more make a round-robin (or a gauntlet of the first against the
/// rest with `--format gauntlet`).
/// Every opening is played twice with colours swapped. Engine faults (crash, stall, illegal,
/// unparsable or null move, failed start, memory limit) lose that game with a Termination tag
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
///   challenge match my_bot --engine stockfish level=3 --games 20 --analyze
#[derive(clap::Args, Debug)]
#[command(verbatim_doc_comment)]
pub struct Args {
    /// Bots to play: names (`my_bot`: ./bot/my_bot.rs, else the kit's) or paths to bot files. Put them before any --engine.
    /// None at all: turochamp_modern vs turochamp_faithful.
    players: Vec<String>,

    #[command(flatten)]
    engines: EngineSpecs,

    /// round-robin (everyone plays everyone) or gauntlet (the first player against each other one).
    #[arg(long, default_value = "round-robin")]
    format: Format,

    /// Games per pair of players, rounded up to an even number (colour-swapped pairs).
    #[arg(long, short = 'n', default_value_t = 50, allow_negative_numbers = true, value_parser = clap::value_parser!(u32).range(1..=10_000_000))]
    games: u32,

    #[command(flatten)]
    game: GameArgs,

    /// Opening file: EPD/FEN lines, or PGN games (`.pgn`). Default: the kit's openings/default.epd.
    #[arg(long, value_name = "FILE")]
    openings: Option<PathBuf>,

    /// Plies of each PGN opening to play (default: all its moves).
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = clap::value_parser!(u32).range(0..=1000))]
    plies: Option<u32>,

    /// Opening order: `sequential` or `random` (shuffled with --seed).
    #[arg(long, default_value = "sequential", value_parser = ["sequential", "random"])]
    order: String,

    /// Seed for `--order random` and for the bots' `Random`: each game's engines get a seed
    /// derived from it and the game's number (default: from the clock; printed when the
    /// match starts). The same seed plays the same games at fixed nodes or depth.
    #[arg(long)]
    seed: Option<u64>,

    /// Games played at once (default: the number of cores).
    #[arg(long = "concurrency", short = 'j', allow_negative_numbers = true, value_parser = clap::value_parser!(u32).range(1..=1024))]
    concurrency: Option<u32>,

    /// Append each finished game to this PGN file as it finishes.
    #[arg(long, value_name = "FILE")]
    pgn: Option<PathBuf>,

    /// Write the summary (players, pairs, statistics, terminations, faults) as JSON.
    #[arg(long, value_name = "FILE")]
    json: Option<PathBuf>,

    /// Run a GSPRT on normalized Elo over game pairs (first player's view), stopping at a bound:
    /// `elo0=0 elo1=5 alpha=0.05 beta=0.05` (any omitted take these values). Two players only.
    #[arg(long, num_args = 0.., value_name = "KEY=VALUE")]
    sprt: Option<Vec<String>>,

    /// PGN Event tag.
    #[arg(long, default_value = "challenge match")]
    event: String,

    #[command(flatten)]
    limit: LimitArgs,

    /// No progress bar or per-game lines; only the summary.
    #[arg(long, short = 'q')]
    quiet: bool,

    /// After the games, analyse them with Stockfish as `challenge analyze` does: accuracy,
    /// average centipawn loss, inaccuracies, mistakes and blunders per player.
    #[arg(long)]
    analyze: bool,

    /// The analysis's depth per position (default 12).
    #[arg(long, value_name = "N", requires = "analyze", value_parser = clap::value_parser!(u32).range(1..=100))]
    analyze_depth: Option<u32>,

    /// The analysing engine's executable (default: Stockfish, as for `--engine stockfish`).
    #[arg(long, value_name = "CMD", requires = "analyze")]
    analyze_engine: Option<PathBuf>,

    /// Watch the games live in the browser: serves the game being played and the standings
    /// on http://127.0.0.1:PORT/live (the URL is printed; without PORT the system picks one).
    #[arg(long, value_name = "PORT", num_args = 0..=1, default_missing_value = "0")]
    watch: Option<u16>,
}

/// The `--engine` occurrences, each a list of KEY=VALUE words.
///
/// Written by hand because clap's derive cannot yet group a multi-value option by
/// occurrence (`Vec<Vec<String>>` needs its unstable-v5 feature).
#[derive(Debug, Default, Clone)]
pub struct EngineSpecs(Vec<Vec<String>>);

const ENGINE_HELP: &str = "An external UCI engine (repeatable) as KEY=VALUE words: name=NAME cmd=PATH \
(or bot=BOT), arg=ARG (repeatable), dir=DIR, option.NAME=VALUE (repeatable), and per-player limits \
tc=TC, st=SECONDS, nodes=N, depth=N that replace the match's. `stockfish level=N` (first) is \
Stockfish at lichess's AI level N (1-8: Skill Level, go depth and movetime); `stockfish` alone \
plays at full strength";

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

/// The players: the bots named (or the default match), then the `--engine`s.
fn players(args: &Args, policy: LimitPolicy, tc: TimeControl) -> Result<Vec<Player>> {
    let available = bot_build::available();
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
    let mut players = Vec::new();
    for spec in &specs {
        players.push(bot_player(spec, policy, tc, &say)?);
    }
    for words in &args.engines.0 {
        players.push(EngineSpec::parse(words)?.player(policy, tc, &say)?);
    }
    ensure!(
        players.len() >= 2,
        "a match needs at least two players, e.g. `challenge match evil_bot my_bot` (bots: {})",
        available.join(", ")
    );
    unique_names(&mut players);
    Ok(players)
}

/// Says what a bot's build reports.
fn say(event: BuildEvent<'_>) {
    eprintln!("{event}");
}

/// `match`'s clock when neither `--tc` nor `--st` is given: 5+0.05.
fn default_tc() -> TimeControl {
    TimeControl::clock(Duration::from_secs(5), Duration::from_millis(50))
}

/// Builds the match from the arguments and plays it.
pub fn run(args: Args) -> Result<()> {
    // First, so that a build without the live pages says so before building any bot.
    let live = watch::Live::start(args.watch)?;
    let settings = args.game.settings()?;
    let tc = args.game.time_control(default_tc());
    let players = players(&args, args.limit.policy(), tc)?;
    let sprt = args.sprt.as_deref().map(sprt_from_words).transpose()?;
    let analysis = args
        .analyze
        .then(|| Analysis::prepare(args.analyze_depth, args.analyze_engine.clone(), args.quiet))
        .transpose()?;
    ensure!(
        sprt.is_none() || players.len() == 2,
        "--sprt needs exactly two players"
    );
    let seed = args.seed.unwrap_or_else(|| {
        SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64)
    });
    let shuffled = args.order == "random";
    let (openings, opening_source) = openings(&OpeningChoice {
        file: args.openings.clone(),
        plies: args.plies.map(|p| p as usize),
        shuffle_seed: shuffled.then_some(seed),
    })?;
    let concurrency = args.concurrency.map_or_else(
        || std::thread::available_parallelism().map_or(1, |n| n.get()),
        |j| j as usize,
    );
    let config = TournamentConfig {
        seed: Some(seed),
        ..tournament(
            players,
            args.format,
            args.games as usize,
            openings,
            concurrency,
            settings,
            sprt,
        )
    };
    let options = MatchOptions {
        config,
        opening_source,
        seed,
        shuffled,
        pgn: args.pgn,
        json: args.json,
        event: args.event,
    };
    let shown = progress::Progress::new(args.quiet);
    let stop = interrupt::stop_flag();
    run_match_watched(
        &options,
        &stop,
        live.as_ref().map(watch::Live::games),
        &|event| {
            if let Some(live) = &live {
                live.follow(&event);
            }
            if let (Some(analysis), MatchEvent::Game(game)) = (&analysis, &event) {
                analysis.keep(game.record);
            }
            shown.show(event);
        },
    )?;
    let Some(analysis) = analysis else {
        return Ok(());
    };
    if stop.load(Ordering::SeqCst) {
        eprintln!("No analysis: the match was stopped");
        return Ok(());
    }
    analysis.run(&stop)
}

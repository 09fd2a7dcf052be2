//! `challenge run`.

use std::path::PathBuf;
use std::time::Duration;

use anyhow::Result;
use league::{RunOptions, run as run_tournament, schedule_tournament};
use league::{WorkerOptions, host_name, local_work_dir, work};
use results::{RatingChoice, render_text, store_table};
use runner::TimeControl;
use store::{
    DEFAULT_LEASE, PostgresStore, SlotState, SqliteStore, Store, StoreLocation, TournamentFormat,
    is_postgres_url,
};

use super::args::{DirArgs, GameArgs};

/// Play the challenge's tournament, or resume the unfinished one.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// `round-robin` (everyone plays everyone) or `swiss` (rounds paired by score, for
    /// fields too large for a round-robin).
    #[arg(long, default_value = "round-robin")]
    format: TournamentFormat,
    /// Round-robin: colour-swapped game pairs per encounter, each from its own opening.
    #[arg(long, default_value_t = 1, allow_negative_numbers = true, value_parser = clap::value_parser!(u32).range(1..=10_000))]
    pairs: u32,
    /// Swiss: rounds, each a colour-swapped game pair per pairing.
    #[arg(long, default_value_t = 5, allow_negative_numbers = true, value_parser = clap::value_parser!(u32).range(1..=10_000))]
    rounds: u32,
    #[command(flatten)]
    game: GameArgs,
    /// An opening suite (EPD/FEN lines or PGN games); default: the kit's balanced suite
    /// `openings/default.epd` (or, without it, eight common openings).
    #[arg(long)]
    openings: Option<PathBuf>,
    /// Book plies kept from each PGN opening.
    #[arg(long, default_value_t = 8, allow_negative_numbers = true, value_parser = clap::value_parser!(u32).range(0..=1000))]
    plies: u32,
    /// Games played at once, each on its own pair of engine processes.
    #[arg(short = 'j', long, default_value_t = 1, allow_negative_numbers = true, value_parser = clap::value_parser!(u32).range(1..=1024))]
    concurrency: u32,
    #[command(flatten)]
    builds: super::args::BuildJobs,
    /// Stop after this many games in this session (run again to go on).
    #[arg(long, allow_negative_numbers = true, value_parser = clap::value_parser!(u64).range(1..=1_000_000_000))]
    max_games: Option<u64>,
    /// Start a new tournament with the current entries when the last one is finished.
    #[arg(long)]
    new: bool,
    /// Only create (or show) the tournament and its schedule; play nothing here. With
    /// `--store`, workers (`challenge worker`) on any machine then play it. (The options
    /// of playing here, `-j`, `--max-games` and `--build-jobs`, are refused with it.)
    #[arg(long, conflicts_with_all = ["concurrency", "max_games", "build_jobs"])]
    schedule_only: bool,
    /// A new tournament counts an ending its moves cannot show (a crash, a loss on time)
    /// only once a worker of another role, playing the pairing again, makes the same
    /// claim. A PostgreSQL store only: a directory has one player.
    #[arg(long)]
    confirm_claims: bool,
    /// A new tournament's stored games keep a faulty engine's stderr in their PGN, which
    /// anyone reading the games sees; by default it is kept for the organiser alone.
    #[arg(long)]
    public_stderr: bool,
    #[command(flatten)]
    dir: DirArgs,
}

/// `run`'s clock when neither `--tc` nor `--st` is given: 10+0.1.
fn default_tc() -> TimeControl {
    TimeControl::clock(Duration::from_secs(10), Duration::from_millis(100))
}

/// Plays, then prints the standings.
pub fn run(args: &Args) -> Result<()> {
    args.builds.apply();
    let options = options(args)?;
    match args.dir.location()? {
        StoreLocation::Dir(_) if args.confirm_claims => anyhow::bail!(
            "--confirm-claims needs a second worker to play a claimed game again: a challenge directory has one player; use a PostgreSQL store (--store) and `challenge worker`s of two roles or more"
        ),
        StoreLocation::Dir(dir) => {
            let mut store = SqliteStore::open(&dir)?;
            let _lock = store.lock_for_run()?;
            if args.schedule_only {
                return schedule_only(&mut store, &options);
            }
            let work_dir = store.dir().to_path_buf();
            run_tournament(&mut store, &work_dir, &options, &|event| {
                eprintln!("{event}");
            })?;
            print_standings(&store)
        }
        StoreLocation::Postgres(url) => {
            let mut store = PostgresStore::create(&url)?;
            if args.schedule_only {
                return schedule_only(&mut store, &options);
            }
            play_here(&mut store, &options)?;
            print_standings(&store)
        }
    }
}

/// Creates the tournament (or finds the unfinished one) and says how to play it.
fn schedule_only(store: &mut dyn Store, options: &RunOptions) -> Result<()> {
    let t = schedule_tournament(store, options, &|event| eprintln!("{event}"))?;
    let pending = store
        .slots(t.id)?
        .iter()
        .filter(|s| s.state == SlotState::Pending)
        .count();
    let how = if is_postgres_url(&store.location()) {
        "start `challenge worker` with a worker's role on any number of machines, and keep `challenge serve` (or `challenge run`, which plays too) running on this store to pair its rounds and finish it"
    } else {
        "play them with `challenge run` (or `challenge serve`) on this directory"
    };
    println!(
        "tournament {} scheduled: {pending} games to play: {how}",
        t.id.0
    );
    Ok(())
}

fn print_standings(store: &dyn Store) -> Result<()> {
    println!();
    print!(
        "{}",
        render_text(&store_table(store, &RatingChoice::default(), None)?)
    );
    Ok(())
}

/// `challenge run --store`: schedules the tournament, then plays it here as one more
/// worker (`-j` games at once) beside any others.
fn play_here(store: &mut PostgresStore, options: &RunOptions) -> Result<()> {
    schedule_tournament(store, options, &|event| eprintln!("{event}"))?;
    let stop = std::sync::atomic::AtomicBool::new(false);
    let report = work(
        store,
        &WorkerOptions {
            name: format!("{}-run-{}", host_name(), std::process::id()),
            threads: options.concurrency,
            lease: DEFAULT_LEASE,
            poll: Duration::from_secs(1),
            wait: false,
            max_games: options.max_games,
            work_dir: local_work_dir(),
        },
        &stop,
        &|event| eprintln!("{event}"),
    )?;
    eprintln!("{} games played here", report.stored);
    Ok(())
}

/// The run's options from the command line.
fn options(args: &Args) -> Result<RunOptions> {
    let settings = args.game.settings()?;
    Ok(RunOptions {
        format: args.format,
        pairs: args.pairs,
        rounds: args.rounds,
        tc: args.game.time_control(default_tc()),
        openings: args.openings.clone(),
        plies: args.plies as usize,
        concurrency: args.concurrency as usize,
        max_games: args.max_games.map(|m| m as usize),
        new: args.new,
        settings,
        confirm_claims: args.confirm_claims,
        public_stderr: args.public_stderr,
    })
}

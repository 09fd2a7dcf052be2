//! The command line: one module per command, each with its arguments and a short `run`.

mod match_cmd;

use std::process::ExitCode;
use std::time::Instant;

use anyhow::{Context, Result};
use clap::{Parser, Subcommand};
use framework::chess::Board;

use kit::bots::LimitPolicy;
use kit::{bots, challenge, engine_build, play};

/// Build, count, run and rank single-file Rust chess bots.
#[derive(Parser)]
#[command(name = "challenge", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Commands,
}

#[derive(Subcommand)]
enum Commands {
    /// Count legal move paths from a position (move generator check and speed test).
    Perft {
        /// How many plies deep to count.
        depth: u32,
        /// The position to start from (default: the standard start position).
        #[arg(long)]
        fen: Option<String>,
        /// Print the count below each legal move as well.
        #[arg(long)]
        divide: bool,
    },
    /// Count bot files' tokens and check them against the challenge rules.
    Tokens(token_counter::CountArgs),
    /// Build a bot file into a UCI engine executable and print its path.
    Build {
        /// A bot in bot/ by name (`my_bot`) or a path to a bot file.
        bot: String,
        #[command(flatten)]
        limit: LimitArgs,
    },
    /// Play a game against a bot in the terminal.
    Play(play::PlayArgs),
    /// Play a match or tournament between bots and UCI engines (no GUI).
    Match(Box<match_cmd::MatchArgs>),
    /// Run a bot as a UCI engine on stdin/stdout (register this in a chess GUI).
    Uci {
        /// A bot in bot/ by name (`my_bot`) or a path to a bot file.
        bot: String,
        #[command(flatten)]
        limit: LimitArgs,
    },
    #[command(flatten)]
    Challenge(challenge::ChallengeCommand),
}

#[derive(clap::Args)]
struct LimitArgs {
    /// Run the bot even if it is over the 1024-token limit (rule violations are still refused).
    #[arg(long)]
    allow_over_limit: bool,
}

impl LimitArgs {
    fn policy(&self) -> LimitPolicy {
        if self.allow_over_limit {
            LimitPolicy::AllowOverLimit
        } else {
            LimitPolicy::Enforce
        }
    }
}

pub fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Commands::Perft { depth, fen, divide } => perft(depth, fen.as_deref(), divide),
        Commands::Tokens(args) => {
            let code = token_counter::run(&args, &mut std::io::stdout().lock());
            return ExitCode::from(u8::try_from(code).unwrap_or(2));
        }
        Commands::Build { bot, limit } => build(&bot, limit.policy()),
        Commands::Uci { bot, limit } => uci(&bot, limit.policy()),
        Commands::Play(args) => play::run(args),
        Commands::Challenge(cmd) => challenge::run(cmd),
        Commands::Match(args) => match_cmd::run(*args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("error: {err:#}");
            ExitCode::FAILURE
        }
    }
}

fn perft(depth: u32, fen: Option<&str>, divide: bool) -> Result<()> {
    let mut board = match fen {
        Some(fen) => Board::from_fen(fen).with_context(|| format!("invalid FEN `{fen}`"))?,
        None => Board::startpos(),
    };
    let start = Instant::now();
    let nodes = if divide {
        let mut total = 0;
        for (mv, count) in framework::chess::perft::perft_divide(&mut board, depth) {
            println!("{mv}: {count}");
            total += count;
        }
        println!();
        total
    } else {
        framework::chess::perft::perft_bulk(&mut board, depth)
    };
    let seconds = start.elapsed().as_secs_f64();
    println!("{nodes}");
    eprintln!(
        "{nodes} nodes in {seconds:.3} s ({:.1} M nodes/s)",
        nodes as f64 / seconds.max(1e-9) / 1e6
    );
    Ok(())
}

/// Resolves, checks and builds a bot, returning its engine executable.
fn prepare(spec: &str, policy: LimitPolicy) -> Result<engine_build::Engine> {
    let bot = bots::resolve(spec)?;
    bots::check(&bot, policy)?;
    engine_build::build(&bot)
}

fn build(spec: &str, policy: LimitPolicy) -> Result<()> {
    let engine = prepare(spec, policy)?;
    if engine.cached {
        eprintln!("(cached)");
    }
    println!("{}", engine.path.display());
    Ok(())
}

fn uci(spec: &str, policy: LimitPolicy) -> Result<()> {
    let engine = prepare(spec, policy)?;
    run_in_place(&engine.path)
}

/// Becomes the engine process, so the GUI talks to the bot directly.
#[cfg(unix)]
fn run_in_place(executable: &std::path::Path) -> Result<()> {
    use std::os::unix::process::CommandExt;
    let err = std::process::Command::new(executable).exec();
    Err(err).with_context(|| format!("cannot start {}", executable.display()))
}

#[cfg(not(unix))]
fn run_in_place(executable: &std::path::Path) -> Result<()> {
    let status = std::process::Command::new(executable)
        .status()
        .with_context(|| format!("cannot start {}", executable.display()))?;
    anyhow::ensure!(status.success(), "the engine exited with {status}");
    Ok(())
}

//! The command line: one module per command, each with its arguments and a short `run`
//! that calls the `kit` library and prints what it returns.

mod analyze;
mod args;
mod bench;
mod bench_ratings;
mod build;
mod clean;
mod closed_pipe;
mod entries;
mod export;
mod field;
mod interrupt;
mod match_cmd;
mod migrate;
mod perft;
mod play;
#[cfg(feature = "port")]
mod port;
mod rate;
mod ratings;
mod report;
mod run;
mod serve;
mod standings;
mod submit;
mod sweep;
mod tokens;
mod tune;
mod uci;
mod upgrade;
mod variants;
mod withdraw;
mod worker;
mod workers;

use std::process::ExitCode;

use anyhow::Result;
use clap::{Parser, Subcommand};

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
    Perft(perft::Args),
    /// Count bot files' tokens and check them against the challenge rules; show what
    /// each item costs (--items) or what changed per item (--diff OLD NEW).
    Tokens(tokens::Args),
    /// Build a bot file into a UCI engine executable and print its path.
    Build(build::Args),
    /// List a bot's marked constants (`// vary 1..=4`) and the grid of variants they make.
    Variants(variants::Args),
    /// Remove cached bot engines and bot build directories, and say how much that freed.
    Clean(clean::Args),
    /// Translate a C# challenge bot (FILE.cs) into a kit bot file.
    #[cfg(feature = "port")]
    Port(port::Args),
    /// Play a game against a bot in the terminal.
    Play(play::Args),
    /// Play a match or tournament between bots and UCI engines (no GUI).
    Match(Box<match_cmd::Args>),
    /// Rate a bot on the C# challenge's published scale by a gauntlet against its field.
    Rate(Box<rate::Args>),
    /// Port, build and check the C# challenge's entries into a field to rate bots against.
    Field(Box<field::Args>),
    /// Tune a bot's `// tune` constants by SPSA from games between its variants.
    Tune(Box<tune::Args>),
    /// Check every move of PGN games with a UCI engine: accuracy, centipawn loss, blunders.
    Analyze(Box<analyze::AnalyzeArgs>),
    /// Search fixed positions to a fixed limit (nodes, time, signature), or an EPD test suite.
    Bench(Box<bench::Args>),
    /// Search a grid of a bot's variants over suites (resumable) and plot total nodes.
    Sweep(Box<sweep::Args>),
    /// Run a bot as a UCI engine on stdin/stdout (register this in a chess GUI).
    Uci(uci::Args),
    /// Submit a bot file to the challenge (checked, built and smoke-tested first).
    Submit(submit::Args),
    /// List the challenge's entries, their versions and token counts.
    Entries(entries::Args),
    /// Take an entry out of future pairings (its games are kept).
    Withdraw(withdraw::Args),
    /// Play the challenge's tournament, or resume the unfinished one.
    Run(Box<run::Args>),
    /// Rank the entries by Elo over all games played.
    Standings(standings::Args),
    /// Rate the players of any PGN files.
    Ratings(ratings::Args),
    /// Write a self-contained HTML report: standings, crosstable, chart, every game.
    Report(report::Args),
    /// Write every game of the challenge to a PGN file.
    Export(export::Args),
    /// Copy a challenge directory, with every game, into an empty PostgreSQL store.
    Migrate(migrate::Args),
    /// Bring a challenge's schema up to date for this kit (reading commands refuse an
    /// older one).
    Upgrade(upgrade::Args),
    /// Play a PostgreSQL store's tournament on this machine, beside workers on others.
    Worker(worker::Args),
    /// List a PostgreSQL store's workers (what each is playing, games per hour), or grant or revoke a worker's role.
    Workers(workers::Args),
    /// Serve the challenge to browsers: submissions, live standings, games, organiser page.
    Serve(serve::Args),
    /// Time the rating fit and a Swiss pairing on generated data (for developers).
    #[command(hide = true)]
    BenchRatings(bench_ratings::Args),
}

/// Parses the command line, runs the command, and turns an error into a message and
/// exit code 1 (a closed stdout or stderr ends it quietly: [`closed_pipe`]).
pub fn main() -> ExitCode {
    closed_pipe::end_quietly_on_closed_pipe();
    let cli = Cli::parse();
    let result: Result<()> = match cli.command {
        Commands::Perft(args) => perft::run(&args),
        Commands::Tokens(args) => return tokens::run(args),
        Commands::Build(args) => build::run(&args),
        Commands::Variants(args) => variants::run(&args),
        Commands::Clean(args) => clean::run(&args),
        #[cfg(feature = "port")]
        Commands::Port(args) => port::run(&args),
        Commands::Play(args) => play::run(args),
        Commands::Match(args) => match_cmd::run(*args),
        Commands::Rate(args) => rate::run(&args),
        Commands::Field(args) => field::run(&args),
        Commands::Tune(args) => tune::run(&args),
        Commands::Analyze(args) => analyze::run(*args),
        Commands::Bench(args) => bench::run(&args),
        Commands::Sweep(args) => sweep::run(&args),
        Commands::Uci(args) => uci::run(&args),
        Commands::Submit(args) => submit::run(&args),
        Commands::Entries(args) => entries::run(&args),
        Commands::Withdraw(args) => withdraw::run(&args),
        Commands::Run(args) => run::run(&args),
        Commands::Standings(args) => standings::run(&args),
        Commands::Ratings(args) => ratings::run(&args),
        Commands::Report(args) => report::run(&args),
        Commands::Export(args) => export::run(&args),
        Commands::Migrate(args) => migrate::run(&args),
        Commands::Upgrade(args) => upgrade::run(&args),
        Commands::Worker(args) => worker::run(&args),
        Commands::Workers(args) => workers::run(&args),
        Commands::Serve(args) => serve::run(&args),
        Commands::BenchRatings(args) => bench_ratings::run(&args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("error: {err:#}");
            ExitCode::FAILURE
        }
    }
}

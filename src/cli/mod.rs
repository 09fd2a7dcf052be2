//! The command line: one module per command, each with its arguments and a short `run`
//! that calls the kit's crates and prints what they return.
//!
//! The commands of a cargo feature (`server`: hosting a challenge) are built only with
//! it; [`OPTIONAL`] lists them, so that one left out of the build still answers to its
//! name, with the feature it needs and how to install it ([`feature_needed`]).

mod analyze;
mod args;
mod bench;
mod build;
mod clean;
mod closed_pipe;
mod field;
mod interrupt;
mod match_cmd;
mod new;
mod perft;
mod play;
#[cfg(feature = "port")]
mod port;
mod rate;
mod ratings;
mod sweep;
mod tokens;
mod tune;
mod uci;
mod variants;

#[cfg(feature = "server")]
mod bench_ratings;
#[cfg(feature = "server")]
mod entries;
#[cfg(feature = "server")]
mod export;
#[cfg(feature = "server")]
mod migrate;
#[cfg(feature = "server")]
mod report;
#[cfg(feature = "server")]
mod run;
#[cfg(feature = "server")]
mod serve;
#[cfg(feature = "server")]
mod standings;
#[cfg(feature = "server")]
mod submit;
#[cfg(feature = "server")]
mod upgrade;
#[cfg(feature = "server")]
mod withdraw;
#[cfg(feature = "server")]
mod worker;
#[cfg(feature = "server")]
mod workers;

use std::process::ExitCode;

use anyhow::Result;
use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};

/// A cargo feature of the `challenge` package and the commands only it builds.
pub struct Optional {
    /// The feature's name in Cargo.toml.
    pub feature: &'static str,
    /// What it is for, in a few words.
    pub purpose: &'static str,
    /// Whether this build has it.
    pub built: bool,
    /// Its commands, as typed after `challenge`.
    pub commands: &'static [&'static str],
}

/// The features that build commands, each with its commands (Cargo.toml's `[features]`
/// says what each builds). A new feature's commands go here too.
pub const OPTIONAL: &[Optional] = &[
    Optional {
        feature: "server",
        purpose: "a challenge's store, the league and the web pages",
        built: cfg!(feature = "server"),
        commands: &[
            "submit",
            "entries",
            "withdraw",
            "run",
            "standings",
            "report",
            "export",
            "migrate",
            "upgrade",
            "worker",
            "workers",
            "serve",
            "bench-ratings",
        ],
    },
    Optional {
        feature: "port",
        purpose: "the C# translator (tree-sitter's C# parser)",
        built: cfg!(feature = "port"),
        commands: &["port"],
    },
];

/// Why `what` (a command, or a command and its flag: `play --web`) cannot run: this
/// build left out `feature`; and how to get a build that has it, from the kit's checkout.
pub fn feature_needed(what: &str, feature: &str) -> String {
    let kit = bot_build::KIT_ROOT;
    let purpose = OPTIONAL
        .iter()
        .find(|optional| optional.feature == feature)
        .map_or(String::new(), |optional| format!(" ({})", optional.purpose));
    format!(
        "`challenge {what}` is part of the kit's `{feature}` feature{purpose}, which this build \
         of challenge leaves out: install a build with it by `cargo install --path {kit} \
         --locked --target-dir {kit}/target --features {feature}` (or run it in the kit's \
         checkout as `cargo run --release --features {feature} -- {what} ...`)"
    )
}

/// The command a command line names when this build left it out: its name and feature.
/// The command is the first argument not an option (`challenge`'s own options take no
/// value), or the one after `help`.
fn left_out(args: &[std::ffi::OsString]) -> Option<(&'static str, &'static str)> {
    let mut words = args
        .iter()
        .skip(1)
        .filter(|arg| !arg.to_string_lossy().starts_with('-'));
    let mut command = words.next()?;
    if command == "help" {
        command = words.next()?;
    }
    OPTIONAL
        .iter()
        .filter(|optional| !optional.built)
        .find_map(|optional| {
            let name = optional.commands.iter().find(|name| command == **name)?;
            Some((*name, optional.feature))
        })
}

/// The end of `challenge --help`: the commands this build left out, by feature.
fn left_out_help() -> Option<String> {
    let lines: Vec<String> = OPTIONAL
        .iter()
        .filter(|optional| !optional.built)
        .map(|optional| {
            format!(
                "  {} ({}): {}",
                optional.feature,
                optional.purpose,
                optional.commands.join(", ")
            )
        })
        .collect();
    (!lines.is_empty()).then(|| {
        format!(
            "Left out of this build, by cargo feature (`cargo install --path {} --locked \
             --target-dir {}/target --features FEATURE` builds them in):\n{}",
            bot_build::KIT_ROOT,
            bot_build::KIT_ROOT,
            lines.join("\n")
        )
    })
}

/// Build, count, run and rank single-file Rust chess bots.
#[derive(Parser)]
#[command(name = "challenge", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Commands,
}

#[derive(Subcommand)]
enum Commands {
    /// Make a bot folder anywhere: DIR/bot/my_bot.rs, and the crate an editor and clippy
    /// need to check its bots.
    New(new::Args),
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
    #[cfg(feature = "server")]
    Submit(submit::Args),
    /// List the challenge's entries, their versions and token counts.
    #[cfg(feature = "server")]
    Entries(entries::Args),
    /// Take an entry out of future pairings (its games are kept).
    #[cfg(feature = "server")]
    Withdraw(withdraw::Args),
    /// Play the challenge's tournament, or resume the unfinished one.
    #[cfg(feature = "server")]
    Run(Box<run::Args>),
    /// Rank the entries by Elo over all games played.
    #[cfg(feature = "server")]
    Standings(standings::Args),
    /// Rate the players of any PGN files.
    Ratings(ratings::Args),
    /// Write a self-contained HTML report: standings, crosstable, chart, every game.
    #[cfg(feature = "server")]
    Report(report::Args),
    /// Write every game of the challenge to a PGN file.
    #[cfg(feature = "server")]
    Export(export::Args),
    /// Copy a challenge directory, with every game, into an empty PostgreSQL store.
    #[cfg(feature = "server")]
    Migrate(migrate::Args),
    /// Bring a challenge's schema up to date for this kit (reading commands refuse an
    /// older one).
    #[cfg(feature = "server")]
    Upgrade(upgrade::Args),
    /// Play a PostgreSQL store's tournament on this machine, beside workers on others.
    #[cfg(feature = "server")]
    Worker(worker::Args),
    /// List a PostgreSQL store's workers (what each is playing, games per hour), or grant or revoke a worker's role.
    #[cfg(feature = "server")]
    Workers(workers::Args),
    /// Serve the challenge to browsers: submissions, live standings, games, organiser page.
    #[cfg(feature = "server")]
    Serve(serve::Args),
    /// Time the rating fit and a Swiss pairing on generated data (for developers).
    #[command(hide = true)]
    #[cfg(feature = "server")]
    BenchRatings(bench_ratings::Args),
}

/// Parses the command line, runs the command, and turns an error into a message and
/// exit code 1 (a closed stdout or stderr ends it quietly: [`closed_pipe`]).
pub fn main() -> ExitCode {
    closed_pipe::end_quietly_on_closed_pipe();
    let args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    if let Some((command, feature)) = left_out(&args) {
        eprintln!("error: {}", feature_needed(command, feature));
        return ExitCode::from(2);
    }
    let mut command = Cli::command();
    if let Some(help) = left_out_help() {
        command = command.after_help(help);
    }
    let cli = match Cli::from_arg_matches(&command.get_matches_from(args)) {
        Ok(cli) => cli,
        Err(err) => err.exit(),
    };
    let result: Result<()> = match cli.command {
        Commands::New(args) => new::run(&args),
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
        #[cfg(feature = "server")]
        Commands::Submit(args) => submit::run(&args),
        #[cfg(feature = "server")]
        Commands::Entries(args) => entries::run(&args),
        #[cfg(feature = "server")]
        Commands::Withdraw(args) => withdraw::run(&args),
        #[cfg(feature = "server")]
        Commands::Run(args) => run::run(&args),
        #[cfg(feature = "server")]
        Commands::Standings(args) => standings::run(&args),
        Commands::Ratings(args) => ratings::run(&args),
        #[cfg(feature = "server")]
        Commands::Report(args) => report::run(&args),
        #[cfg(feature = "server")]
        Commands::Export(args) => export::run(&args),
        #[cfg(feature = "server")]
        Commands::Migrate(args) => migrate::run(&args),
        #[cfg(feature = "server")]
        Commands::Upgrade(args) => upgrade::run(&args),
        #[cfg(feature = "server")]
        Commands::Worker(args) => worker::run(&args),
        #[cfg(feature = "server")]
        Commands::Workers(args) => workers::run(&args),
        #[cfg(feature = "server")]
        Commands::Serve(args) => serve::run(&args),
        #[cfg(feature = "server")]
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

#[cfg(test)]
mod tests {
    use super::*;

    /// `OPTIONAL` says of each of its commands whether this build has it: the commands
    /// are there exactly when their feature is, so none is silently absent.
    #[test]
    fn the_optional_commands_are_built_exactly_with_their_feature() {
        let cli = Cli::command();
        for optional in OPTIONAL {
            for name in optional.commands {
                assert_eq!(
                    cli.find_subcommand(name).is_some(),
                    optional.built,
                    "`{name}` of the feature `{}`",
                    optional.feature
                );
                let args = ["challenge", "help", name].map(std::ffi::OsString::from);
                let said = left_out(&args).map(|(command, _)| command);
                assert_eq!(said.is_none(), optional.built, "{name}");
            }
        }
    }
}

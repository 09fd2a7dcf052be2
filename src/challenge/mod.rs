//! The local challenge: a store of submitted bots (SQLite), tournaments that survive
//! being killed at any moment, maximum-likelihood ratings, standings and an HTML report.
//!
//! - [`store`]: the challenge directory's database (entries, versions, games, schedules).
//! - [`submit`]: the submission check (rules, token limit, build, smoke test).
//! - [`tournament`]: `challenge run`, round-robin and Swiss, resumable.
//! - [`swiss`]: pairing a Swiss round.
//! - [`ratings`]: Elo by maximum likelihood with draws modelled (BayesElo's model).
//! - [`standings`]: the table, as text, JSON or CSV; `challenge ratings` for PGN files.
//! - [`report`]: the self-contained HTML page.

pub mod ratings;
pub mod report;
pub mod standings;
pub mod store;
pub mod submit;
pub mod swiss;
pub mod tournament;

use std::path::PathBuf;

use anyhow::Result;

/// Where the challenge lives: `--dir`, default `./challenge`.
#[derive(clap::Args, Debug, Clone)]
pub struct DirArgs {
    /// The challenge directory (created on first submission).
    #[arg(long, default_value = "challenge")]
    pub dir: PathBuf,
}

/// `challenge submit`.
#[derive(clap::Args, Debug, Clone)]
pub struct SubmitArgs {
    /// The bot file.
    pub file: PathBuf,
    /// The entry's name (letters, digits, `_`, `-`, `.`; up to 40 characters).
    #[arg(long)]
    pub name: String,
    /// Who wrote it.
    #[arg(long)]
    pub author: Option<String>,
    #[command(flatten)]
    pub dir: DirArgs,
}

/// `challenge entries`.
#[derive(clap::Args, Debug, Clone)]
pub struct EntriesArgs {
    /// Show every version, not only the current one.
    #[arg(long)]
    pub all: bool,
    #[command(flatten)]
    pub dir: DirArgs,
}

/// `challenge withdraw`.
#[derive(clap::Args, Debug, Clone)]
pub struct WithdrawArgs {
    /// The entry to take out of future pairings (its games are kept).
    pub name: String,
    #[command(flatten)]
    pub dir: DirArgs,
}

/// `challenge standings`.
#[derive(clap::Args, Debug, Clone)]
pub struct StandingsArgs {
    /// Print JSON instead of a table.
    #[arg(long, conflicts_with = "csv")]
    pub json: bool,
    /// Print CSV instead of a table.
    #[arg(long)]
    pub csv: bool,
    #[command(flatten)]
    pub rating: ratings::RatingArgs,
    #[command(flatten)]
    pub dir: DirArgs,
}

/// `challenge ratings`.
#[derive(clap::Args, Debug, Clone)]
pub struct RatingsArgs {
    /// PGN files to rate (players are named by the `White` and `Black` tags).
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// Print JSON instead of a table.
    #[arg(long, conflicts_with = "csv")]
    pub json: bool,
    /// Print CSV instead of a table.
    #[arg(long)]
    pub csv: bool,
    #[command(flatten)]
    pub rating: ratings::RatingArgs,
}

/// `challenge report`.
#[derive(clap::Args, Debug, Clone)]
pub struct ReportArgs {
    /// The HTML file to write.
    #[arg(long)]
    pub html: PathBuf,
    #[command(flatten)]
    pub rating: ratings::RatingArgs,
    #[command(flatten)]
    pub dir: DirArgs,
}

/// `challenge export`.
#[derive(clap::Args, Debug, Clone)]
pub struct ExportArgs {
    /// The PGN file to write (every game of the challenge, in the order played).
    #[arg(long)]
    pub pgn: PathBuf,
    #[command(flatten)]
    pub dir: DirArgs,
}

/// The challenge's subcommands, flattened into the `challenge` program's own.
#[derive(clap::Subcommand, Debug, Clone)]
pub enum ChallengeCommand {
    /// Submit a bot file to the challenge (checked, built and smoke-tested first).
    Submit(SubmitArgs),
    /// List the challenge's entries, their versions and token counts.
    Entries(EntriesArgs),
    /// Take an entry out of future pairings (its games are kept).
    Withdraw(WithdrawArgs),
    /// Play the challenge's tournament, or resume the unfinished one.
    Run(tournament::RunArgs),
    /// Rank the entries by Elo over all games played.
    Standings(StandingsArgs),
    /// Rate the players of any PGN files.
    Ratings(RatingsArgs),
    /// Write a self-contained HTML report: standings, crosstable, chart, every game.
    Report(ReportArgs),
    /// Write every game of the challenge to a PGN file.
    Export(ExportArgs),
    /// Time the rating fit and a Swiss pairing on generated data (for developers).
    #[command(hide = true)]
    BenchRatings(tournament::BenchArgs),
}

/// Runs one challenge subcommand.
pub fn run(cmd: ChallengeCommand) -> Result<()> {
    match cmd {
        ChallengeCommand::Submit(args) => submit::run_submit(&args),
        ChallengeCommand::Entries(args) => submit::run_entries(&args),
        ChallengeCommand::Withdraw(args) => submit::run_withdraw(&args),
        ChallengeCommand::Run(args) => tournament::run(&args),
        ChallengeCommand::Standings(args) => standings::run_standings(&args),
        ChallengeCommand::Ratings(args) => standings::run_ratings(&args),
        ChallengeCommand::Report(args) => report::run(&args),
        ChallengeCommand::Export(args) => store::run_export(&args),
        ChallengeCommand::BenchRatings(args) => tournament::run_bench(&args),
    }
}

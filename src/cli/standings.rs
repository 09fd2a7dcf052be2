//! `challenge standings`.

use anyhow::Result;
use results::store_table;
use store::{Access, TournamentId};

use super::args::{DirArgs, RatingArgs};
use super::ratings::print_table;

/// Rank the entries by Elo over all games played.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Print JSON instead of a table.
    #[arg(long, conflicts_with = "csv")]
    json: bool,
    /// Print CSV instead of a table.
    #[arg(long)]
    csv: bool,
    /// Only this tournament's games (tournaments are numbered from 1).
    #[arg(long, value_name = "N")]
    tournament: Option<i64>,
    #[command(flatten)]
    rating: RatingArgs,
    #[command(flatten)]
    dir: DirArgs,
}

/// Prints the table (read-only: works on a read-only challenge directory).
pub fn run(args: &Args) -> Result<()> {
    let store = args.dir.open(Access::Read)?;
    let choice = args.rating.choice();
    let tournament = args.tournament.map(TournamentId);
    let table = store_table(store.as_ref(), &choice, tournament)?;
    print_table(&table, args.json, args.csv)
}

//! `challenge ratings`.

use std::path::PathBuf;

use anyhow::{Context, Result, bail};
use framework::notation::pgn::PgnStream;
use kit::challenge::standings::{PgnFacts, build_table};

use super::args::RatingArgs;
use super::standings::print_table;

/// Rate the players of any PGN files.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// PGN files to rate (players are named by the `White` and `Black` tags).
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Print JSON instead of a table.
    #[arg(long, conflicts_with = "csv")]
    json: bool,
    /// Print CSV instead of a table.
    #[arg(long)]
    csv: bool,
    #[command(flatten)]
    rating: RatingArgs,
}

/// Reads the files one game at a time, rates their finished games and prints the table
/// (with the count of skipped games, each also reported on stderr with its place).
pub fn run(args: &Args) -> Result<()> {
    let mut facts = PgnFacts::default();
    for path in &args.files {
        let file = std::fs::File::open(path)
            .with_context(|| format!("cannot read the PGN file {}", path.display()))?;
        let mut stream = PgnStream::new(std::io::BufReader::new(file));
        facts.read(&path.display().to_string(), &mut stream);
        if let Some(error) = stream.io_error() {
            bail!("cannot read the PGN file {}: {error}", path.display());
        }
    }
    let skipped = facts.skipped;
    if facts.games.is_empty() {
        let names: Vec<String> = args.files.iter().map(|p| p.display().to_string()).collect();
        bail!(
            "no finished games to rate in {} ({skipped} skipped)",
            names.join(", ")
        );
    }
    let mut table = build_table(facts.players, &facts.games, &args.rating.choice())?;
    table.skipped = skipped;
    print_table(&table, args.json, args.csv)
}

//! `challenge ratings`.

use std::path::PathBuf;

use anyhow::{Context, Result, bail};
use kit::challenge::standings::{build_table, pgn_facts};

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

/// Reads the files, rates their finished games and prints the table.
pub fn run(args: &Args) -> Result<()> {
    let mut texts = Vec::new();
    for path in &args.files {
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("cannot read the PGN file {}", path.display()))?;
        texts.push((path.display().to_string(), text));
    }
    let (players, facts, skipped) = pgn_facts(&texts);
    if facts.is_empty() {
        let names: Vec<String> = args.files.iter().map(|p| p.display().to_string()).collect();
        bail!(
            "no finished games to rate in {} ({skipped} skipped)",
            names.join(", ")
        );
    }
    if skipped > 0 {
        eprintln!("{skipped} games skipped, {} rated", facts.len());
    }
    let table = build_table(players, &facts, &args.rating.choice())?;
    print_table(&table, args.json, args.csv)
}

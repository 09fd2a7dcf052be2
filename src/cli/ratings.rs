//! `challenge ratings`.

use std::path::PathBuf;

use anyhow::{Context, Result, bail};
use results::{
    PgnFacts, PgnReadMode, StandingsTable, build_table_consuming, render_csv, render_text,
};

use super::args::RatingArgs;

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
    /// Skip a game whose moves cannot be read (ambiguous SAN included) instead of rating
    /// it by its result.
    #[arg(long)]
    strict: bool,
    /// Read only the tags and results: the moves are not replayed nor checked (faster).
    #[arg(long)]
    results_only: bool,
    #[command(flatten)]
    rating: RatingArgs,
}

/// Reads the files (each through a fixed buffer), rates their finished games and prints
/// the table, with the count of games skipped or rated by their result alone, each also
/// reported on stderr with its place.
pub fn run(args: &Args) -> Result<()> {
    let mode = PgnReadMode {
        strict: args.strict,
        results_only: args.results_only,
    };
    let mut facts = PgnFacts::default();
    for path in &args.files {
        let cannot = || format!("cannot read the PGN file {}", path.display());
        facts
            .read_file(&path.display().to_string(), path, mode, &|warning| {
                eprintln!("{warning}");
            })
            .with_context(cannot)?;
    }
    let (skipped, unread) = (facts.skipped, facts.unread);
    // The players and games are all the fit needs: the reader's indexes go first.
    let (players, games) = (
        std::mem::take(&mut facts.players),
        std::mem::take(&mut facts.games),
    );
    drop(facts);
    if games.is_empty() {
        let names: Vec<String> = args.files.iter().map(|p| p.display().to_string()).collect();
        bail!(
            "no finished games to rate in {} ({skipped} skipped)",
            names.join(", ")
        );
    }
    let mut table = build_table_consuming(players, games, &args.rating.choice())?;
    table.skipped = skipped;
    table.unread = unread;
    print_table(&table, args.json, args.csv)
}

/// Prints a table as text, JSON or CSV.
pub fn print_table(table: &StandingsTable, json: bool, csv: bool) -> Result<()> {
    if json {
        println!("{}", serde_json::to_string_pretty(table)?);
    } else if csv {
        print!("{}", render_csv(table));
    } else {
        print!("{}", render_text(table));
    }
    Ok(())
}

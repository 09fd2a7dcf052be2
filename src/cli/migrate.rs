//! `challenge migrate`.

use std::path::PathBuf;

use anyhow::Result;
use store::PostgresStore;
use store::prelude::*;

/// Copy a challenge directory, with every game, into an empty PostgreSQL store.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The challenge directory to copy.
    #[arg(long)]
    from: PathBuf,
    /// The empty PostgreSQL store: `postgres://USER:PASSWORD@HOST:PORT/DATABASE`.
    #[arg(long, value_name = "URL")]
    to: String,
}

/// Copies and says what.
pub fn run(args: &Args) -> Result<()> {
    let mut store = PostgresStore::create(&args.to)?;
    let copied = store.import_sqlite(&args.from)?;
    println!(
        "copied {} to {}: {} entries, {} versions, {} tournaments, {} games; run the challenge commands with `--store URL` from now on",
        args.from.display(),
        store.location(),
        copied.entries,
        copied.versions,
        copied.tournaments,
        copied.games
    );
    Ok(())
}

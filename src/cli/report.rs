//! `challenge report`.

use std::path::PathBuf;

use anyhow::Result;
use kit::challenge::report::write_report;
use kit::challenge::store::SqliteStore;

use super::args::{DirArgs, RatingArgs};

/// Write a self-contained HTML report.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The HTML file to write.
    #[arg(long)]
    html: PathBuf,
    #[command(flatten)]
    rating: RatingArgs,
    #[command(flatten)]
    dir: DirArgs,
}

/// Writes the page and says where.
pub fn run(args: &Args) -> Result<()> {
    let store = SqliteStore::open_read_only(&args.dir.dir)?;
    let games = write_report(&store, &args.html, &args.rating.choice())?;
    eprintln!("report written to {} ({games} games)", args.html.display());
    Ok(())
}

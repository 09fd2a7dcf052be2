//! `challenge report`.

use std::path::PathBuf;

use anyhow::Result;
use results::write_report;
use store::Access;

use super::args::{DirArgs, RatingArgs};

/// Write a self-contained HTML report.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The HTML file to write.
    #[arg(long, short = 'o', visible_alias = "output", value_name = "FILE")]
    html: PathBuf,
    /// Show the games of this PGN file instead of the store's: the store's games
    /// analysed by `challenge analyze -o FILE`, with their evaluation graphs.
    #[arg(long, value_name = "FILE")]
    pgn: Option<PathBuf>,
    #[command(flatten)]
    rating: RatingArgs,
    #[command(flatten)]
    dir: DirArgs,
}

/// Writes the page and says where.
pub fn run(args: &Args) -> Result<()> {
    let store = args.dir.open(Access::Read)?;
    let games = write_report(
        store.as_ref(),
        &args.html,
        &args.rating.choice(),
        args.pgn.as_deref(),
    )?;
    eprintln!("report written to {} ({games} games)", args.html.display());
    Ok(())
}

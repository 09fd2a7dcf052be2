//! `challenge report`.

use std::path::PathBuf;

use anyhow::Result;
use kit::challenge::report::write_report;
use store::Access;

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
    let store = args.dir.open(Access::Read)?;
    let games = write_report(store.as_ref(), &args.html, &args.rating.choice())?;
    eprintln!("report written to {} ({games} games)", args.html.display());
    Ok(())
}

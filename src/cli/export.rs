//! `challenge export`.

use std::path::PathBuf;

use anyhow::{Context, Result};
use store::Access;

use super::args::DirArgs;

/// Write every game of the challenge to a PGN file.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The PGN file to write (every game of the challenge, in the order played).
    #[arg(long)]
    pgn: PathBuf,
    #[command(flatten)]
    dir: DirArgs,
}

/// Writes the games and says how many.
pub fn run(args: &Args) -> Result<()> {
    let store = args.dir.open(Access::Read)?;
    let games = store.games(true)?;
    let mut text = String::new();
    for game in &games {
        text.push_str(game.pgn.trim_end());
        text.push_str("\n\n");
    }
    std::fs::write(&args.pgn, text)
        .with_context(|| format!("cannot write {}", args.pgn.display()))?;
    eprintln!("{} games written to {}", games.len(), args.pgn.display());
    Ok(())
}

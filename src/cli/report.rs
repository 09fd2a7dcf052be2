//! `challenge report`.

use std::path::PathBuf;

use anyhow::Result;
use kit::challenge::report::{write_pgn_report, write_report};
use store::{Access, TournamentId};

use super::args::{DirArgs, RatingArgs};

/// Write a self-contained HTML report.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The HTML file to write.
    #[arg(long, short = 'o', visible_alias = "output", value_name = "FILE")]
    html: PathBuf,
    /// Show the games of this PGN file instead of the store's: any games (a match's, say),
    /// rated from the file alone; or, with --dir or --store, the store's games analysed by
    /// `challenge analyze -o FILE`, with their evaluation graphs, beside the store's
    /// standings.
    #[arg(long, value_name = "FILE")]
    pgn: Option<PathBuf>,
    /// Only this tournament's games and standings (tournaments are numbered from 1).
    #[arg(long, value_name = "N")]
    tournament: Option<i64>,
    #[command(flatten)]
    rating: RatingArgs,
    #[command(flatten)]
    dir: DirArgs,
}

/// Writes the page and says where.
pub fn run(args: &Args) -> Result<()> {
    let rating = args.rating.choice();
    let games = match &args.pgn {
        Some(pgn) if !args.dir.named() => {
            anyhow::ensure!(
                args.tournament.is_none(),
                "--tournament picks a tournament of a store: name it with --dir or --store"
            );
            write_pgn_report(pgn, &args.html, &rating, &|warning| {
                eprintln!("{warning}");
            })?
        }
        pgn => {
            let store = args.dir.open(Access::Read)?;
            let tournament = args.tournament.map(TournamentId);
            write_report(
                store.as_ref(),
                &args.html,
                &rating,
                pgn.as_deref(),
                tournament,
            )?
        }
    };
    eprintln!("report written to {} ({games} games)", args.html.display());
    Ok(())
}

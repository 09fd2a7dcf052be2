//! `challenge perft`.

use std::time::Instant;

use anyhow::{Context, Result};
use framework::chess::Board;

/// Count legal move paths from a position.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// How many plies deep to count.
    #[arg(value_parser = clap::value_parser!(u32).range(0..=20))]
    depth: u32,
    /// The position to start from (default: the standard start position).
    #[arg(long)]
    fen: Option<String>,
    /// Print the count below each legal move as well.
    #[arg(long)]
    divide: bool,
}

/// Counts and prints the nodes, with the speed on stderr.
pub fn run(args: &Args) -> Result<()> {
    let mut board = match &args.fen {
        Some(fen) => Board::from_fen(fen).with_context(|| format!("invalid FEN `{fen}`"))?,
        None => Board::startpos(),
    };
    let start = Instant::now();
    let nodes = if args.divide {
        let mut total = 0;
        for (mv, count) in framework::chess::perft::perft_divide(&mut board, args.depth) {
            println!("{mv}: {count}");
            total += count;
        }
        println!();
        total
    } else {
        framework::chess::perft::perft_bulk(&mut board, args.depth)
    };
    let seconds = start.elapsed().as_secs_f64();
    println!("{nodes}");
    eprintln!(
        "{nodes} nodes in {seconds:.3} s ({:.1} M nodes/s)",
        nodes as f64 / seconds.max(1e-9) / 1e6
    );
    Ok(())
}

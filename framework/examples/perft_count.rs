//! Perft through the kit's `Board` against raw cozy-chess, one run per invocation, for
//! instruction-count comparisons that the shared machine's load cannot disturb:
//!
//! ```text
//! cargo build --release -p framework --example perft_count
//! valgrind --tool=callgrind target/release/examples/perft_count kit 5
//! valgrind --tool=callgrind target/release/examples/perft_count cozy 5
//! ```
//!
//! Arguments: `kit | cozy | kit-bulk | cozy-bulk`, the depth, and optionally a FEN
//! (the start position by default). Prints the leaf count.

use cozy_chess as cz;
use framework::chess::perft::{perft, perft_bulk};
use framework::prelude::*;

#[path = "../benches/common/mod.rs"]
mod common;
use common::{cozy_perft, cozy_perft_bulk};

const STARTPOS: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: perft_count kit|cozy|kit-bulk|cozy-bulk DEPTH [FEN]";
    let (Some(mode), Some(depth)) = (args.first(), args.get(1)) else {
        eprintln!("{usage}");
        std::process::exit(2);
    };
    let Ok(depth) = depth.parse::<u32>() else {
        eprintln!("{usage}");
        std::process::exit(2);
    };
    let fen = args.get(2).map_or(STARTPOS, String::as_str);
    let nodes = match mode.as_str() {
        "kit" | "kit-bulk" => {
            let mut board = Board::from_fen(fen).unwrap_or_else(|e| exit_with(&e));
            if mode == "kit" {
                perft(&mut board, depth)
            } else {
                perft_bulk(&mut board, depth)
            }
        }
        "cozy" | "cozy-bulk" => {
            let board: cz::Board = fen.parse().unwrap_or_else(|e| exit_with(&e));
            if mode == "cozy" {
                cozy_perft(&board, depth)
            } else {
                cozy_perft_bulk(&board, depth)
            }
        }
        _ => exit_with(&usage),
    };
    println!("{nodes}");
}

fn exit_with(e: &dyn std::fmt::Debug) -> ! {
    eprintln!("{e:?}");
    std::process::exit(2);
}

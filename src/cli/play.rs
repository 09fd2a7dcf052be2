//! `challenge play`.

use std::path::PathBuf;

use anyhow::Result;
use framework::chess::Color;
use kit::play::{PlayOptions, play};
use runner::TimeControl;

use super::args::{LimitArgs, time_control};

/// Which side the human plays.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Side {
    /// The human plays White.
    White,
    /// The human plays Black.
    Black,
}

/// Play a game against a bot in the terminal.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The bot to play: a name in bot/ or a path to a bot file
    /// (default: turochamp_modern if present, else evil_bot).
    bot: Option<String>,
    /// The side you play.
    #[arg(long, value_enum, default_value_t = Side::White)]
    color: Side,
    /// Time control for both sides, in seconds: BASE+INCREMENT (`5+3`) or MOVES/BASE+INC.
    #[arg(long, default_value = "300+3", value_parser = time_control)]
    tc: TimeControl,
    /// Start from this position instead of the standard start.
    #[arg(long)]
    fen: Option<String>,
    /// Where to save the game (default: games/play-<date>-<time>.pgn).
    #[arg(long)]
    pgn: Option<PathBuf>,
    #[command(flatten)]
    limit: LimitArgs,
}

/// Plays the game.
pub fn run(args: Args) -> Result<()> {
    play(PlayOptions {
        bot: args.bot,
        human: match args.color {
            Side::White => Color::White,
            Side::Black => Color::Black,
        },
        tc: args.tc,
        fen: args.fen,
        pgn: args.pgn,
        policy: args.limit.policy(),
    })
}

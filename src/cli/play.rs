//! `challenge play`: the terminal around [`play`]'s game (the board drawn in
//! [`screen`], the keyboard read here).

mod screen;
#[cfg(feature = "server")]
mod web;

use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use anyhow::Result;
use framework::chess::Color;
use play::{
    HumanCommand, HumanGame, Opponent, PlayOptions, Turn, colour_name, default_pgn_path,
    parse_command, start,
};
use runner::TimeControl;

use screen::Screen;

use super::args::{LimitArgs, time_control};
use super::interrupt;

/// Which side the human plays.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Side {
    /// The human plays White.
    White,
    /// The human plays Black.
    Black,
}

/// Play a game against a bot in the terminal, or in the browser with `--web`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The bot to play: a name (./bot/NAME.rs, else the kit's) or a path to a bot file
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
    /// Play in the browser: serve the game on --listen and print its address.
    #[arg(long)]
    web: bool,
    /// Where `--web` listens. The default is this machine only, on a port the system picks.
    #[arg(
        long,
        default_value = "127.0.0.1:0",
        requires = "web",
        value_name = "ADDRESS:PORT"
    )]
    listen: std::net::SocketAddr,
    #[command(flatten)]
    limit: LimitArgs,
}

/// Plays the game on the terminal and saves it as PGN.
pub fn run(args: Args) -> Result<()> {
    anyhow::ensure!(
        !args.web || cfg!(feature = "server"),
        "{}",
        super::feature_needed("play --web", "server")
    );
    let options = PlayOptions {
        bot: args.bot,
        human: match args.color {
            Side::White => Color::White,
            Side::Black => Color::Black,
        },
        tc: args.tc,
        fen: args.fen,
        policy: args.limit.policy(),
    };
    let (mut game, mut opponent) = start(&options, &|event| eprintln!("{event}"))?;
    let path = args.pgn.unwrap_or_else(default_pgn_path);
    #[cfg(feature = "server")]
    if args.web {
        return web::run(args.listen, game, opponent, path);
    }
    println!(
        "You play {} against {}.",
        colour_name(game.human()),
        game.bot_name()
    );
    println!(
        "Type moves in SAN (Nf3, exd5, O-O, e8=Q) or UCI (g1f3); also: undo, flip, resign, help, quit."
    );
    let mut screen = Screen::new(game.human());
    let stdin = std::io::stdin();
    let shown = save_on_ctrl_c(&game, &path);
    play(
        &mut game,
        &mut opponent,
        &mut screen,
        &mut stdin.lock().lines(),
        &shown,
    );
    opponent.quit();

    screen.show(&game);
    if let Some(ending) = game.ending() {
        println!("{} ({})", ending.reason, ending.result);
    }
    game.save(&path)?;
    println!("Game saved to {}", path.display());
    Ok(())
}

/// On Ctrl-C, saves the game as it was last shown (the returned copy, kept by [`play`]),
/// left by the human, says where, and ends the program as the signal would (code 130).
fn save_on_ctrl_c(game: &HumanGame, path: &Path) -> Arc<Mutex<HumanGame>> {
    let shown = Arc::new(Mutex::new(game.clone()));
    let (kept, path) = (Arc::clone(&shown), path.to_path_buf());
    interrupt::last_act(move || {
        let mut game = kept.lock().unwrap_or_else(|p| p.into_inner()).clone();
        game.leave();
        match game.save(&path) {
            Ok(()) => println!("\nGame saved to {}", path.display()),
            Err(err) => eprintln!("\nerror: {err:#}"),
        }
    });
    shown
}

/// Plays until the game is over: draws the board, asks the bot or reads the human's
/// line. The end of input leaves the game. `shown` keeps a copy of the game at every
/// turn, for Ctrl-C to save.
fn play(
    game: &mut HumanGame,
    opponent: &mut Opponent,
    screen: &mut Screen,
    lines: &mut impl Iterator<Item = std::io::Result<String>>,
    shown: &Mutex<HumanGame>,
) {
    // What the last command said (a refusal, the help), shown under the redrawn board:
    // it is read there, with no Enter to press, so no line typed ahead is lost to one.
    let mut said = None;
    loop {
        *shown.lock().unwrap_or_else(|p| p.into_inner()) = game.clone();
        match game.turn() {
            Turn::Over => return,
            Turn::Bot => {
                screen.show(game);
                println!("{} is thinking...", game.bot_name());
                // It is the bot's turn, so this cannot be refused.
                let _ = game.bot_move(opponent);
            }
            Turn::Human => {
                screen.show(game);
                if let Some(text) = said.take() {
                    println!("{text}");
                }
                print!("Your move: ");
                let _ = std::io::stdout().flush();
                let Some(Ok(line)) = lines.next() else {
                    game.leave();
                    return;
                };
                said = command(game, screen, &line);
            }
        }
    }
}

/// Does what the human typed; what it has to say (why it could not, or the help).
fn command(game: &mut HumanGame, screen: &mut Screen, line: &str) -> Option<String> {
    let done = match parse_command(game.board(), line) {
        Ok(HumanCommand::Nothing) => Ok(()),
        Ok(HumanCommand::Help) => return Some(HELP.to_string()),
        Ok(HumanCommand::Flip) => {
            screen.flip();
            Ok(())
        }
        Ok(HumanCommand::Undo) => game.undo(Instant::now()),
        Ok(HumanCommand::Resign) => {
            game.resign();
            Ok(())
        }
        Ok(HumanCommand::Quit) => {
            game.leave();
            Ok(())
        }
        Ok(HumanCommand::Move(mv)) => game.play(mv, Instant::now()),
        Err(err) => return Some(err.to_string()),
    };
    done.err().map(|err| err.to_string())
}

/// The commands at the prompt, for `help`.
const HELP: &str = "Enter a move in SAN (e4, Nf3, exd5, O-O, e8=Q) or UCI (e2e4, e7e8q).
  undo    take back your last move and the bot's reply
  flip    turn the board around
  resign  give up the game
  quit    leave (the game is saved unfinished)";

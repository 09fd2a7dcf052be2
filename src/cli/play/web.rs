//! `challenge play --web`: the game served to the browser by [`serve::play_web`]; this says
//! where, and saves the game when it ends.

use std::net::SocketAddr;
use std::path::PathBuf;

use anyhow::Result;
use play::{HumanGame, Opponent, colour_name};
use serve::{PlayWebEvent, play_web};

/// Serves the game until it is stopped (Ctrl-C), and saves it when it ends or is stopped.
pub fn run(listen: SocketAddr, game: HumanGame, opponent: Opponent, pgn: PathBuf) -> Result<()> {
    if !listen.ip().is_loopback() {
        eprintln!("warning: {listen} is not loopback: anyone who can reach it can play your game");
    }
    let intro = format!(
        "You play {} against {}.",
        colour_name(game.human()),
        game.bot_name()
    );
    play_web(listen, game, opponent, move |event| match event {
        PlayWebEvent::Listening(address) => {
            say(&intro);
            say(&format!(
                "play in your browser: http://{address}/ (Ctrl-C stops the server)"
            ));
        }
        PlayWebEvent::Over(game) => {
            if let Some(ending) = game.ending() {
                say(&format!("{} ({})", ending.reason, ending.result));
            }
            match game.save(&pgn) {
                Ok(()) => say(&format!("Game saved to {}", pgn.display())),
                Err(err) => eprintln!("error: {err:#}"),
            }
        }
        PlayWebEvent::Stopping => say("stopping: the game is saved as it stands"),
    })
}

/// A line on stdout, flushed at once (a test or a script reads the address from it).
fn say(line: &str) {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "{line}").and_then(|()| out.flush());
}

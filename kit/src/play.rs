//! `challenge play`: a human against a bot in the terminal.

use std::io::{BufRead, IsTerminal, Write};
use std::path::PathBuf;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use anyhow::{Context, Result};
use framework::chess::{Board, Color, Move, Outcome, PieceType, Square};
use framework::notation::parse_san;
use framework::notation::pgn::{GameResult, PgnGame, pgn_date, write_game};
use framework::uci::CONSTRUCTION_LIMIT;
use runner::{
    Clock, Engine, EngineConfig, GameSettings, MoveRequest, NoMove, TERMINATION_DETAILS_TAG,
    Termination, TimeControl, ask_move,
};

use crate::bots::{self, LimitPolicy};
use crate::engine_build;

/// A game against a bot in the terminal.
#[derive(Debug, Clone)]
pub struct PlayOptions {
    /// The bot: a name in bot/ or a path to a bot file (`None`: turochamp_modern if
    /// present, else evil_bot).
    pub bot: Option<String>,
    /// The side the human plays.
    pub human: Color,
    /// Both sides' time control.
    pub tc: TimeControl,
    /// The start position (default: the standard start).
    pub fen: Option<String>,
    /// Where to save the game (default: games/play-<date>-<time>.pgn).
    pub pgn: Option<PathBuf>,
    /// Whether a bot over the token limit may play.
    pub policy: LimitPolicy,
}

/// A bot gets its clock plus this long before it is judged to have stalled.
const BOT_MARGIN: Duration = Duration::from_millis(1000);

/// Why the game ended.
struct Ending {
    result: GameResult,
    reason: String,
    /// The PGN `Termination` tag (the standard's value).
    termination: &'static str,
    /// The kit's precise cause, for the `TerminationDetails` tag, when the bot caused it.
    details: Option<Termination>,
}

/// Plays the game on the terminal and saves it as PGN.
pub fn play(args: PlayOptions) -> Result<()> {
    let spec = args.bot.clone().unwrap_or_else(default_opponent);
    let bot = bots::resolve(&spec)?;
    bots::check(&bot, args.policy)?;
    let built = engine_build::build(&bot, engine_build::BuildKind::Local)?;
    let mut engine = Engine::start(
        &EngineConfig::new(bot.name.clone(), &built.path),
        Duration::from_secs(10),
    )
    .with_context(|| format!("bot `{}` did not start", bot.name))?;
    engine
        .new_game(Duration::from_secs(10))
        .with_context(|| format!("bot `{}` did not get ready", bot.name))?;

    let start = match &args.fen {
        Some(fen) => Board::from_fen(fen).with_context(|| format!("invalid FEN `{fen}`"))?,
        None => Board::startpos(),
    };
    let human = args.human;
    let mut game = Game {
        board: start.clone(),
        pgn: PgnGame::from_position(start),
        clocks: [Clock::new(args.tc), Clock::new(args.tc)],
        human,
        flipped: human == Color::Black,
        colour: std::env::var_os("NO_COLOR").is_none() && std::io::stdout().is_terminal(),
    };
    let bot_name = bot.name.clone();
    let (white, black) = match human {
        Color::White => ("You".to_string(), bot_name.clone()),
        Color::Black => (bot_name.clone(), "You".to_string()),
    };
    game.pgn.set_tag("Event", "challenge play");
    game.pgn.set_tag("Site", "terminal");
    game.pgn.set_tag("Date", &pgn_date(SystemTime::now()));
    game.pgn.set_tag("Round", "-");
    game.pgn.set_tag("White", &white);
    game.pgn.set_tag("Black", &black);
    game.pgn.set_tag("TimeControl", &args.tc.to_string());

    println!("You play {} against {bot_name}.", colour_name(human));
    println!(
        "Type moves in SAN (Nf3, exd5, O-O, e8=Q) or UCI (g1f3); also: undo, flip, resign, help, quit."
    );
    // Construction is timed in every game, as in `match` and `run`: past the
    // limit the bot forfeits before the first move.
    let ending = match construction_breach(&engine, &bot_name, human) {
        Some(ending) => ending,
        None => game.play(&mut engine, &bot_name),
    };
    let _ = engine.quit(Duration::from_millis(500));

    game.show();
    println!("{} ({})", ending.reason, ending.result);
    game.pgn.result = ending.result;
    game.pgn.set_tag("Result", &ending.result.to_string());
    game.pgn.set_tag("Termination", ending.termination);
    if let Some(details) = ending.details {
        game.pgn.set_tag(TERMINATION_DETAILS_TAG, details.tag());
    }
    game.pgn
        .set_tag("PlyCount", &game.pgn.moves.len().to_string());
    let path = args.pgn.unwrap_or_else(default_pgn_path);
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    }
    std::fs::write(&path, write_game(&game.pgn))
        .with_context(|| format!("cannot save the game to {}", path.display()))?;
    println!("Game saved to {}", path.display());
    Ok(())
}

/// The forfeit of a bot whose construction took past the limit: the wait for
/// `readyok` bounds it from above, and the host's own breach report counts too.
fn construction_breach(engine: &Engine, bot_name: &str, human: Color) -> Option<Ending> {
    let waited = engine.ready_wait();
    let report = engine.breach_report();
    if waited <= CONSTRUCTION_LIMIT && report.is_none() {
        return None;
    }
    let mut reason = format!(
        "{bot_name} took {:.3}s to get ready, past the construction limit of {}s: it forfeits",
        waited.as_secs_f64(),
        CONSTRUCTION_LIMIT.as_secs()
    );
    if let Some(report) = report {
        reason.push_str(&format!(" (the engine reported: {report})"));
    }
    Some(Ending {
        result: win_for(human),
        reason,
        termination: Termination::ConstructionLimit.pgn_value(),
        details: Some(Termination::ConstructionLimit),
    })
}

fn default_opponent() -> String {
    let names = bots::available();
    ["turochamp_modern", "evil_bot"]
        .into_iter()
        .find(|n| names.iter().any(|a| a == n))
        .unwrap_or("evil_bot")
        .to_string()
}

fn default_pgn_path() -> PathBuf {
    let stamp = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let date = pgn_date(SystemTime::now()).replace('.', "");
    PathBuf::from("games").join(format!(
        "play-{date}-{:02}{:02}{:02}.pgn",
        stamp / 3600 % 24,
        stamp / 60 % 60,
        stamp % 60
    ))
}

struct Game {
    board: Board,
    pgn: PgnGame,
    /// Indexed by `Color::index()`.
    clocks: [Clock; 2],
    human: Color,
    flipped: bool,
    colour: bool,
}

impl Game {
    fn play(&mut self, engine: &mut Engine, bot_name: &str) -> Ending {
        let stdin = std::io::stdin();
        let mut lines = stdin.lock().lines();
        loop {
            if let Some(outcome) = self.board.outcome() {
                return ending_for(outcome);
            }
            let mover = self.board.side_to_move();
            if mover != self.human {
                self.show();
                println!("{bot_name} is thinking...");
                match self.bot_move(engine, bot_name) {
                    Ok(mv) => self.push(mv),
                    Err(ending) => return ending,
                }
                continue;
            }
            self.show();
            let started = Instant::now();
            print!("Your move: ");
            let _ = std::io::stdout().flush();
            let Some(Ok(line)) = lines.next() else {
                return abandoned("You left the game");
            };
            let input = line.trim();
            match input {
                "" => continue,
                "help" | "?" => {
                    print_help();
                    self.pause(&mut lines);
                    continue;
                }
                "flip" => {
                    self.flipped = !self.flipped;
                    continue;
                }
                "undo" => {
                    self.undo();
                    continue;
                }
                "resign" => {
                    return Ending {
                        result: win_for(!self.human),
                        reason: "You resigned".into(),
                        termination: "normal",
                        details: None,
                    };
                }
                "quit" | "exit" => return abandoned("You left the game"),
                _ => {}
            }
            let mv = match parse_move(&self.board, input) {
                Ok(mv) => mv,
                Err(message) => {
                    println!("{message}");
                    self.pause(&mut lines);
                    continue;
                }
            };
            if !self.clocks[self.human.index()].spend(started.elapsed(), Duration::ZERO) {
                return Ending {
                    result: win_for(!self.human),
                    reason: "Your flag fell".into(),
                    termination: "time forfeit",
                    details: None,
                };
            }
            self.push(mv);
        }
    }

    /// Asks the engine for its move through the runner's [`ask_move`], which judges
    /// time and legality as the arbiter does in every match.
    fn bot_move(&mut self, engine: &mut Engine, bot_name: &str) -> Result<Move, Ending> {
        let mut position = match self.pgn.tag("FEN") {
            Some(fen) => format!("position fen {fen}"),
            None => "position startpos".to_string(),
        };
        if !self.pgn.moves.is_empty() {
            position.push_str(" moves");
            for mv in &self.pgn.moves {
                position.push(' ');
                position.push_str(&mv.to_string());
            }
        }
        let settings = GameSettings {
            margin: BOT_MARGIN,
            ..GameSettings::default()
        };
        let request = MoveRequest {
            position: &position,
            board: &self.board,
            clocks: &mut self.clocks,
            settings: &settings,
            who: bot_name,
            stop: None,
        };
        match ask_move(engine, request) {
            Ok((mv, _)) => Ok(mv),
            Err(NoMove::Fault(fault)) => {
                let tail = fault.stderr.join("\n");
                Err(Ending {
                    result: win_for(self.human),
                    reason: if tail.is_empty() {
                        fault.detail
                    } else {
                        format!("{}\n{tail}", fault.detail)
                    },
                    termination: fault.termination.pgn_value(),
                    details: Some(fault.termination),
                })
            }
            Err(NoMove::Interrupted { .. }) => Err(abandoned("The game was stopped")),
        }
    }

    fn push(&mut self, mv: Move) {
        self.pgn.push(mv, None);
        self.board.make_move(mv);
    }

    /// Takes back your last move and the bot's reply to it.
    fn undo(&mut self) {
        let human_moves = (0..self.pgn.moves.len())
            .filter(|&ply| self.mover_at(ply) == self.human)
            .count();
        if human_moves == 0 {
            println!("Nothing to take back yet.");
            return;
        }
        loop {
            self.pgn.moves.pop();
            self.pgn.comments.pop();
            self.board.undo_move();
            if self.board.side_to_move() == self.human {
                break;
            }
        }
    }

    fn mover_at(&self, ply: usize) -> Color {
        if ply.is_multiple_of(2) {
            self.pgn.start.side_to_move()
        } else {
            !self.pgn.start.side_to_move()
        }
    }

    /// Waits for Enter so a message is read before the board is redrawn.
    fn pause(&self, lines: &mut impl Iterator<Item = std::io::Result<String>>) {
        print!("(press Enter)");
        let _ = std::io::stdout().flush();
        let _ = lines.next();
    }

    /// Draws the board, clocks and recent moves.
    fn show(&self) {
        if self.colour {
            // Clear the screen and go home, so the board stays in one place.
            print!("\x1b[2J\x1b[H");
        }
        let last = self.pgn.moves.last().copied();
        let top = if self.flipped {
            Color::White
        } else {
            Color::Black
        };
        println!("{}", self.player_line(top));
        let ranks: Vec<u8> = if self.flipped {
            (0..8).collect()
        } else {
            (0..8).rev().collect()
        };
        let files: Vec<u8> = if self.flipped {
            (0..8).rev().collect()
        } else {
            (0..8).collect()
        };
        for &rank in &ranks {
            let mut row = format!(" {} ", rank + 1);
            for &file in &files {
                let square = Square::from_index(rank * 8 + file);
                let highlighted = last.is_some_and(|m| m.from() == square || m.to() == square);
                row.push_str(&self.cell(square, highlighted));
            }
            println!("{row}");
        }
        let letters: String = files
            .iter()
            .map(|&f| format!(" {} ", (b'a' + f) as char))
            .collect();
        println!("   {letters}");
        println!("{}", self.player_line(!top));
        let sans = self.pgn.san_moves();
        let first_number = self.pgn.start.fullmove_number() as usize;
        let black_first = self.pgn.start.side_to_move() == Color::Black;
        let mut text = String::new();
        for (ply, san) in sans.iter().enumerate() {
            let slot = ply + usize::from(black_first);
            if slot.is_multiple_of(2) {
                text.push_str(&format!("{}. ", first_number + slot / 2));
            } else if ply == 0 {
                text.push_str(&format!("{}... ", first_number));
            }
            text.push_str(san);
            text.push(' ');
        }
        let tail: String = text
            .chars()
            .rev()
            .take(160)
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
            .collect();
        if !tail.is_empty() {
            println!("Moves: {}", tail.trim_end());
        }
        if self.board.is_in_check() && self.board.outcome().is_none() {
            println!("Check!");
        }
    }

    fn player_line(&self, color: Color) -> String {
        let who = if color == self.human {
            "You".to_string()
        } else {
            self.pgn
                .tag(if color == Color::White {
                    "White"
                } else {
                    "Black"
                })
                .unwrap_or("bot")
                .to_string()
        };
        let clock = self.clocks[color.index()]
            .remaining()
            .map(format_clock)
            .unwrap_or_default();
        let to_move = if self.board.side_to_move() == color {
            " *"
        } else {
            ""
        };
        format!("   {who} ({}) {clock}{to_move}", colour_name(color))
    }

    fn cell(&self, square: Square, highlighted: bool) -> String {
        let piece = self.board.piece_at(square);
        if !self.colour {
            let symbol = piece.map_or('.', |p| p.to_char());
            return if highlighted {
                format!("[{symbol}]")
            } else {
                format!(" {symbol} ")
            };
        }
        let light = (square.file() + square.rank()) % 2 == 1;
        let background = match (highlighted, light) {
            (true, true) => "\x1b[48;5;186m",
            (true, false) => "\x1b[48;5;143m",
            (false, true) => "\x1b[48;5;180m",
            (false, false) => "\x1b[48;5;137m",
        };
        let glyph = piece.map_or(' ', |p| glyph(p.piece_type()));
        let foreground = match piece.map(|p| p.color()) {
            Some(Color::White) => "\x1b[1;97m",
            _ => "\x1b[1;30m",
        };
        format!("{background}{foreground} {glyph} \x1b[0m")
    }
}

/// The filled chess glyphs, coloured per side: they read better than the
/// outline ones on both light and dark terminals.
fn glyph(piece: PieceType) -> char {
    match piece {
        PieceType::Pawn => '♟',
        PieceType::Knight => '♞',
        PieceType::Bishop => '♝',
        PieceType::Rook => '♜',
        PieceType::Queen => '♛',
        PieceType::King => '♚',
    }
}

fn print_help() {
    println!("Enter a move in SAN (e4, Nf3, exd5, O-O, e8=Q) or UCI (e2e4, e7e8q).");
    println!("  undo    take back your last move and the bot's reply");
    println!("  flip    turn the board around");
    println!("  resign  give up the game");
    println!("  quit    leave (the game is saved unfinished)");
}

/// A move typed by the human: SAN first, then UCI, with the SAN reader's
/// explanation when neither fits.
fn parse_move(board: &Board, input: &str) -> std::result::Result<Move, String> {
    match parse_san(board, input) {
        Ok(mv) => Ok(mv),
        Err(san_error) => match board.parse_uci(input) {
            Ok(mv) if board.is_legal(mv) => Ok(mv),
            Ok(_) => Err(format!("`{input}` is not legal here.")),
            Err(_) => Err(format!("Not a move here: {san_error}")),
        },
    }
}

fn ending_for(outcome: Outcome) -> Ending {
    match outcome {
        Outcome::Checkmate { winner } => Ending {
            result: win_for(winner),
            reason: format!("Checkmate: {} wins", colour_name(winner)),
            termination: "normal",
            details: None,
        },
        Outcome::Draw(reason) => Ending {
            result: GameResult::Draw,
            reason: format!("Draw: {reason}"),
            termination: "normal",
            details: None,
        },
    }
}

fn abandoned(reason: &str) -> Ending {
    Ending {
        result: GameResult::Unknown,
        reason: reason.to_string(),
        termination: "abandoned",
        details: None,
    }
}

fn win_for(color: Color) -> GameResult {
    match color {
        Color::White => GameResult::WhiteWins,
        Color::Black => GameResult::BlackWins,
    }
}

fn colour_name(color: Color) -> &'static str {
    match color {
        Color::White => "White",
        Color::Black => "Black",
    }
}

fn format_clock(left: Duration) -> String {
    let tenths = left.as_millis() / 100;
    format!("{}:{:02}.{}", tenths / 600, tenths / 10 % 60, tenths % 10)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_in_san_or_uci() {
        let board = Board::startpos();
        assert_eq!(parse_move(&board, "Nf3"), parse_move(&board, "g1f3"));
        assert!(
            parse_move(&board, "Ke2")
                .unwrap_err()
                .contains("Not a move")
        );
        assert!(parse_move(&board, "e2e5").is_err());
    }

    #[test]
    fn clocks_read_as_minutes_seconds_tenths() {
        assert_eq!(format_clock(Duration::from_millis(300_000)), "5:00.0");
        assert_eq!(format_clock(Duration::from_millis(61_250)), "1:01.2");
    }
}

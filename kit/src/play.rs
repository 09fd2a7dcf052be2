//! `challenge play`'s game: a human against a bot, as a state machine its caller drives.
//!
//! [`start`] builds and starts the bot and sets up a [`HumanGame`]; then the caller asks
//! [`HumanGame::turn`] whose move it is, passes the human's moves ([`HumanGame::play`],
//! typed text read by [`parse_command`]) and asks the bot for its own
//! ([`HumanGame::bot_move`]), until the game is over; then [`HumanGame::save`] writes it
//! as PGN. Nothing here prints or reads a terminal: `challenge play` draws the board and
//! reads the keyboard, and a browser can drive the same game.
//!
//! ```
//! use std::time::Instant;
//! use framework::chess::{Board, Color};
//! use kit::play::{Command, HumanGame, Turn, parse_command};
//! use runner::TimeControl;
//!
//! let tc = "60+0".parse::<TimeControl>().unwrap();
//! let mut game = HumanGame::new("evil_bot", Color::White, tc, Board::startpos());
//! assert_eq!(game.turn(), Turn::Human);
//! let Ok(Command::Move(mv)) = parse_command(game.board(), "e4") else { unreachable!() };
//! game.play(mv, Instant::now()).unwrap();
//! assert_eq!(game.turn(), Turn::Bot); // next: game.bot_move(&mut opponent)
//! assert_eq!(game.move_list(), "1. e4");
//! ```

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use anyhow::{Context, Result};
use framework::chess::{Board, Color, Move, MoveError, Outcome};
use framework::notation::parse_san;
use framework::notation::pgn::{GameResult, PgnGame, pgn_date, write_game};
use framework::uci::CONSTRUCTION_LIMIT;
use runner::{
    Clock, Engine, EngineConfig, GameSettings, MoveRequest, NoMove, TERMINATION_DETAILS_TAG,
    Termination, TimeControl, ask_move,
};

use crate::bots::{self, LimitPolicy};
use crate::engine_build::{self, BuildEvent};

/// A game against a bot.
#[derive(Debug, Clone)]
pub struct PlayOptions {
    /// The bot: a name (`./bot/NAME.rs`, else the kit's) or a path to a bot file (`None`:
    /// [`default_opponent`]).
    pub bot: Option<String>,
    /// The side the human plays.
    pub human: Color,
    /// Both sides' time control.
    pub tc: TimeControl,
    /// The start position (default: the standard start).
    pub fen: Option<String>,
    /// Whether a bot over the token limit may play.
    pub policy: LimitPolicy,
}

/// A bot gets its clock plus this long before it is judged to have stalled.
const BOT_MARGIN: Duration = Duration::from_millis(1000);

/// Why the game ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ending {
    /// The result.
    pub result: GameResult,
    /// What happened, as a sentence (`Checkmate: White wins`, `You resigned`...).
    pub reason: String,
    /// The PGN `Termination` tag (the standard's value).
    pub termination: &'static str,
    /// The kit's precise cause, for the `TerminationDetails` tag, when the bot caused it.
    pub details: Option<Termination>,
}

/// Whose move it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Turn {
    /// The human's: [`HumanGame::play`].
    Human,
    /// The bot's: [`HumanGame::bot_move`].
    Bot,
    /// Nobody's: the game is over ([`HumanGame::ending`]).
    Over,
}

/// What the human typed, read by [`parse_command`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Command {
    /// A legal move.
    Move(Move),
    /// Take back the human's last move and the bot's reply.
    Undo,
    /// Turn the board around (the caller's view).
    Flip,
    /// Give up the game.
    Resign,
    /// Show the commands.
    Help,
    /// Leave (the game is saved unfinished).
    Quit,
    /// Nothing typed.
    Nothing,
}

/// Why the game refused a move or command. `Display` is the sentence to show the human.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PlayError {
    /// A move that reads but is not legal in the position.
    #[error("`{0}` is not legal here.")]
    Illegal(String),
    /// Text that is neither SAN nor UCI nor a command (the SAN reader's explanation).
    #[error("Not a move here: {0}")]
    NotAMove(String),
    /// An undo before the human has moved.
    #[error("Nothing to take back yet.")]
    NothingToUndo,
    /// A move or undo when it is not the asker's turn.
    #[error("It is not your turn.")]
    NotYourTurn,
    /// A move after the game ended.
    #[error("The game is over.")]
    Over,
}

/// Reads what the human typed: a command word, else a move in SAN, then in UCI (with the
/// SAN reader's explanation when neither fits).
///
/// ```
/// use framework::chess::Board;
/// use kit::play::{Command, PlayError, parse_command};
///
/// let board = Board::startpos();
/// assert_eq!(parse_command(&board, " undo "), Ok(Command::Undo));
/// assert_eq!(parse_command(&board, "Nf3"), parse_command(&board, "g1f3"));
/// assert_eq!(parse_command(&board, "e2e5"), Err(PlayError::Illegal("e2e5".into())));
/// ```
pub fn parse_command(board: &Board, input: &str) -> Result<Command, PlayError> {
    let input = input.trim();
    Ok(match input {
        "" => Command::Nothing,
        "help" | "?" => Command::Help,
        "flip" => Command::Flip,
        "undo" => Command::Undo,
        "resign" => Command::Resign,
        "quit" | "exit" => Command::Quit,
        _ => Command::Move(parse_move(board, input)?),
    })
}

/// A move in SAN, else in UCI; well-formed UCI that is no legal move here is called
/// illegal, not explained as bad SAN.
fn parse_move(board: &Board, input: &str) -> Result<Move, PlayError> {
    match parse_san(board, input) {
        Ok(mv) => Ok(mv),
        Err(san_error) => match board.parse_uci(input) {
            Ok(mv) if board.is_legal(mv) => Ok(mv),
            Ok(_) | Err(MoveError::Illegal(_)) => Err(PlayError::Illegal(input.to_string())),
            Err(MoveError::Syntax(_)) => Err(PlayError::NotAMove(san_error.to_string())),
        },
    }
}

/// The bot's engine process, started and ready.
pub struct Opponent {
    engine: Engine,
}

impl Opponent {
    /// Ends the engine process.
    pub fn quit(self) {
        let _ = self.engine.quit(Duration::from_millis(500));
    }
}

/// Builds and starts the bot (the build reports to `observe`) and sets up the game. A
/// bot whose construction took past the limit has already forfeited: the game is over
/// before the first move, as in `match` and `run`.
pub fn start(
    options: &PlayOptions,
    observe: &(dyn Fn(BuildEvent<'_>) + Sync),
) -> Result<(HumanGame, Opponent)> {
    let start = match &options.fen {
        Some(fen) => Board::from_fen(fen).with_context(|| format!("invalid FEN `{fen}`"))?,
        None => Board::startpos(),
    };
    let spec = options.bot.clone().unwrap_or_else(default_opponent);
    let (bot, built) = engine_build::prepare(&spec, options.policy, observe)?;
    let mut engine = Engine::start(
        &EngineConfig::new(bot.name.clone(), &built.path),
        Duration::from_secs(10),
    )
    .with_context(|| format!("bot `{}` did not start", bot.name))?;
    engine
        .new_game(Duration::from_secs(10))
        .with_context(|| format!("bot `{}` did not get ready", bot.name))?;
    let mut game = HumanGame::new(&bot.name, options.human, options.tc, start);
    if let Some(ending) = construction_breach(&engine, &bot.name, options.human) {
        game.end(ending);
    }
    Ok((game, Opponent { engine }))
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

/// The bot played when none is named: turochamp_modern if present, else evil_bot.
pub fn default_opponent() -> String {
    let names = bots::available();
    ["turochamp_modern", "evil_bot"]
        .into_iter()
        .find(|n| names.iter().any(|a| a == n))
        .unwrap_or("evil_bot")
        .to_string()
}

/// Where a game is saved when no file is named: `games/play-<date>-<time>.pgn`.
pub fn default_pgn_path() -> PathBuf {
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

/// A game between a human and a bot: the position, both clocks, the moves so far and,
/// once over, why it ended.
#[derive(Debug, Clone)]
pub struct HumanGame {
    board: Board,
    pgn: PgnGame,
    /// Indexed by `Color::index()`.
    clocks: [Clock; 2],
    human: Color,
    bot_name: String,
    /// When the human's clock started running on this turn.
    turn_started: Instant,
    ending: Option<Ending>,
}

impl HumanGame {
    /// A new game from `start`, the human playing `human` against the bot `bot_name`,
    /// both sides on `tc`; the human's clock runs from now when it is the human's move.
    pub fn new(bot_name: &str, human: Color, tc: TimeControl, start: Board) -> HumanGame {
        let mut pgn = PgnGame::from_position(start.clone());
        let (white, black) = match human {
            Color::White => ("You", bot_name),
            Color::Black => (bot_name, "You"),
        };
        for (tag, value) in [
            ("Event", "challenge play"),
            ("Site", "terminal"),
            ("Date", &pgn_date(SystemTime::now())),
            ("Round", "-"),
            ("White", white),
            ("Black", black),
            ("TimeControl", &tc.to_string()),
        ] {
            pgn.set_tag(tag, value);
        }
        let mut game = HumanGame {
            board: start,
            pgn,
            clocks: [Clock::new(tc), Clock::new(tc)],
            human,
            bot_name: bot_name.to_string(),
            turn_started: Instant::now(),
            ending: None,
        };
        game.check_outcome();
        game
    }

    /// Whose move it is.
    pub fn turn(&self) -> Turn {
        match (&self.ending, self.board.side_to_move() == self.human) {
            (Some(_), _) => Turn::Over,
            (None, true) => Turn::Human,
            (None, false) => Turn::Bot,
        }
    }

    /// Why the game ended, once it has.
    pub fn ending(&self) -> Option<&Ending> {
        self.ending.as_ref()
    }

    /// The position.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// Where the game is played, for its PGN's `Site` tag: `terminal` unless set
    /// (`challenge play --web` plays it in the `browser`).
    ///
    /// ```
    /// # use kit::play::HumanGame;
    /// # use framework::chess::{Board, Color};
    /// let mut game = HumanGame::new("evil_bot", Color::White, "60+0".parse().unwrap(), Board::startpos());
    /// assert!(game.pgn_text().contains("[Site \"terminal\"]"));
    /// game.set_site("browser");
    /// assert!(game.pgn_text().contains("[Site \"browser\"]"));
    /// ```
    pub fn set_site(&mut self, site: &str) {
        self.pgn.set_tag("Site", site);
    }

    /// The side the human plays.
    pub fn human(&self) -> Color {
        self.human
    }

    /// The bot's name.
    pub fn bot_name(&self) -> &str {
        &self.bot_name
    }

    /// Who plays `color`: `You` or the bot's name.
    pub fn player(&self, color: Color) -> &str {
        if color == self.human {
            "You"
        } else {
            &self.bot_name
        }
    }

    /// The time `color` has left (as of its last move; `None` when untimed).
    pub fn remaining(&self, color: Color) -> Option<Duration> {
        self.clocks[color.index()].remaining()
    }

    /// The move played last.
    pub fn last_move(&self) -> Option<Move> {
        self.pgn.moves.last().copied()
    }

    /// The game so far as PGN (its tags say who plays; the result is set by
    /// [`HumanGame::save`]).
    pub fn pgn(&self) -> &PgnGame {
        &self.pgn
    }

    /// The moves so far in SAN, numbered (`1. e4 e5 2. Nf3`, or `5... Kd7 6. Qe2` from a
    /// position with Black to move).
    pub fn move_list(&self) -> String {
        let first_number = self.pgn.start.fullmove_number() as usize;
        let black_first = self.pgn.start.side_to_move() == Color::Black;
        let mut text = String::new();
        for (ply, san) in self.pgn.san_moves().iter().enumerate() {
            let slot = ply + usize::from(black_first);
            if slot.is_multiple_of(2) {
                text.push_str(&format!("{}. ", first_number + slot / 2));
            } else if ply == 0 {
                text.push_str(&format!("{first_number}... "));
            }
            text.push_str(san);
            text.push(' ');
        }
        text.trim_end().to_string()
    }

    /// Plays the human's move at `now`: the human's clock is charged from the start of
    /// the turn (a flag that fell ends the game, and the move is not played).
    pub fn play(&mut self, mv: Move, now: Instant) -> Result<(), PlayError> {
        self.expect(Turn::Human)?;
        if !self.board.is_legal(mv) {
            return Err(PlayError::Illegal(mv.to_string()));
        }
        let thought = now.saturating_duration_since(self.turn_started);
        if !self.clocks[self.human.index()].spend(thought, Duration::ZERO) {
            self.end(Ending {
                result: win_for(!self.human),
                reason: "Your flag fell".into(),
                termination: "time forfeit",
                details: None,
            });
            return Ok(());
        }
        self.push(mv);
        Ok(())
    }

    /// Asks the bot for its move through the runner's [`ask_move`], which judges time and
    /// legality as the arbiter does in every match; a fault ends the game, won by the
    /// human.
    pub fn bot_move(&mut self, opponent: &mut Opponent) -> Result<(), PlayError> {
        self.expect(Turn::Bot)?;
        let position = self.position_command();
        let settings = GameSettings {
            margin: BOT_MARGIN,
            ..GameSettings::default()
        };
        let request = MoveRequest {
            position: &position,
            board: &self.board,
            clocks: &mut self.clocks,
            settings: &settings,
            who: &self.bot_name,
            stop: None,
        };
        match ask_move(&mut opponent.engine, request) {
            Ok((mv, _)) => self.push(mv),
            Err(NoMove::Fault(fault)) => {
                let tail = fault.stderr.join("\n");
                self.end(Ending {
                    result: win_for(self.human),
                    reason: if tail.is_empty() {
                        fault.detail
                    } else {
                        format!("{}\n{tail}", fault.detail)
                    },
                    termination: fault.termination.pgn_value(),
                    details: Some(fault.termination),
                });
            }
            Err(NoMove::Interrupted { .. }) => self.end(abandoned("The game was stopped")),
        }
        Ok(())
    }

    /// Takes back the human's last move and the bot's reply to it; the human's clock
    /// starts the turn again at `now`.
    pub fn undo(&mut self, now: Instant) -> Result<(), PlayError> {
        self.expect(Turn::Human)?;
        let human_moves = (0..self.pgn.moves.len())
            .filter(|&ply| self.mover_at(ply) == self.human)
            .count();
        if human_moves == 0 {
            return Err(PlayError::NothingToUndo);
        }
        loop {
            self.pgn.moves.pop();
            self.pgn.comments.pop();
            self.board.undo_move();
            if self.board.side_to_move() == self.human {
                break;
            }
        }
        self.turn_started = now;
        Ok(())
    }

    /// The human gives up.
    pub fn resign(&mut self) {
        if self.ending.is_none() {
            self.end(Ending {
                result: win_for(!self.human),
                reason: "You resigned".into(),
                termination: "normal",
                details: None,
            });
        }
    }

    /// The human leaves; the game ends unfinished.
    pub fn leave(&mut self) {
        if self.ending.is_none() {
            self.end(abandoned("You left the game"));
        }
    }

    /// Writes the game as PGN to `path` (creating its folder), with its result and
    /// termination once it is over.
    pub fn save(&self, path: &Path) -> Result<()> {
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir)
                .with_context(|| format!("cannot create {}", dir.display()))?;
        }
        std::fs::write(path, self.pgn_text())
            .with_context(|| format!("cannot save the game to {}", path.display()))
    }

    /// The game as PGN text, as [`HumanGame::save`] writes it: with its result and
    /// termination once it is over (`*` before).
    pub fn pgn_text(&self) -> String {
        let mut pgn = self.pgn.clone();
        if let Some(ending) = &self.ending {
            pgn.result = ending.result;
            pgn.set_tag("Result", &ending.result.to_string());
            pgn.set_tag("Termination", ending.termination);
            if let Some(details) = ending.details {
                pgn.set_tag(TERMINATION_DETAILS_TAG, details.tag());
            }
        }
        pgn.set_tag("PlyCount", &pgn.moves.len().to_string());
        write_game(&pgn)
    }

    fn expect(&self, turn: Turn) -> Result<(), PlayError> {
        match self.turn() {
            now if now == turn => Ok(()),
            Turn::Over => Err(PlayError::Over),
            _ => Err(PlayError::NotYourTurn),
        }
    }

    fn end(&mut self, ending: Ending) {
        self.ending = Some(ending);
    }

    fn push(&mut self, mv: Move) {
        self.pgn.push(mv, None);
        self.board.make_move(mv);
        self.turn_started = Instant::now();
        self.check_outcome();
    }

    fn check_outcome(&mut self) {
        if let Some(outcome) = self.board.outcome() {
            self.end(ending_for(outcome));
        }
    }

    /// The UCI `position` command for the game so far.
    fn position_command(&self) -> String {
        // From the game's own start: a game begun with `--fen` has no `FEN` tag until
        // it is written, so the tag cannot say where it began.
        let start = self.pgn.start.fen();
        let mut position = if start == Board::startpos().fen() {
            "position startpos".to_string()
        } else {
            format!("position fen {start}")
        };
        if !self.pgn.moves.is_empty() {
            position.push_str(" moves");
            for mv in &self.pgn.moves {
                position.push(' ');
                position.push_str(&mv.to_string());
            }
        }
        position
    }

    fn mover_at(&self, ply: usize) -> Color {
        if ply.is_multiple_of(2) {
            self.pgn.start.side_to_move()
        } else {
            !self.pgn.start.side_to_move()
        }
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

/// `White` or `Black`.
pub fn colour_name(color: Color) -> &'static str {
    match color {
        Color::White => "White",
        Color::Black => "Black",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_game_from_a_position_tells_the_bot_that_position() {
        let tc = "60+0".parse::<TimeControl>().unwrap();
        let fen = "8/P6k/8/8/8/8/8/4K3 w - - 0 1";
        let mut game = HumanGame::new("b", Color::White, tc, Board::from_fen(fen).unwrap());
        let mv = game.board().parse_uci("e1e2").unwrap();
        game.play(mv, Instant::now()).unwrap();
        assert_eq!(
            game.position_command(),
            format!("position fen {fen} moves e1e2")
        );
        let standard = HumanGame::new("b", Color::White, tc, Board::startpos());
        assert_eq!(standard.position_command(), "position startpos");
    }

    fn game(human: Color, tc: &str) -> HumanGame {
        HumanGame::new("bot", human, tc.parse().unwrap(), Board::startpos())
    }

    fn mv(game: &HumanGame, text: &str) -> Move {
        match parse_command(game.board(), text) {
            Ok(Command::Move(mv)) => mv,
            other => panic!("{text}: {other:?}"),
        }
    }

    #[test]
    fn moves_in_san_or_uci() {
        let board = Board::startpos();
        assert_eq!(parse_command(&board, "Nf3"), parse_command(&board, "g1f3"));
        let Err(PlayError::NotAMove(why)) = parse_command(&board, "Ke2") else {
            panic!("Ke2 is no move here");
        };
        assert!(
            PlayError::NotAMove(why)
                .to_string()
                .starts_with("Not a move here: ")
        );
        assert_eq!(
            parse_command(&board, "e2e5"),
            Err(PlayError::Illegal("e2e5".into()))
        );
        // A pinned piece: well-formed UCI, a pseudo-legal move, and illegal all the same.
        let pinned = Board::from_fen("4k3/4r3/8/8/8/8/4B3/4K3 w - - 0 1").unwrap();
        assert_eq!(
            parse_command(&pinned, "e2d3"),
            Err(PlayError::Illegal("e2d3".into()))
        );
        assert_eq!(parse_command(&board, "  "), Ok(Command::Nothing));
        assert_eq!(parse_command(&board, "exit"), Ok(Command::Quit));
    }

    #[test]
    fn turns_follow_the_moves_and_refuse_the_wrong_side() {
        let mut g = game(Color::Black, "60+0");
        assert_eq!(g.turn(), Turn::Bot);
        let e4 = mv(&g, "e4");
        assert_eq!(g.play(e4, Instant::now()), Err(PlayError::NotYourTurn));
        assert_eq!(g.undo(Instant::now()), Err(PlayError::NotYourTurn));
        g.push(e4);
        assert_eq!(g.turn(), Turn::Human);
        assert_eq!(g.player(Color::White), "bot");
        assert_eq!(g.player(Color::Black), "You");
        // The bot's first move is not the human's to take back.
        assert_eq!(g.undo(Instant::now()), Err(PlayError::NothingToUndo));
        let e5 = mv(&g, "e5");
        g.play(e5, Instant::now()).unwrap();
        assert_eq!(g.move_list(), "1. e4 e5");
        assert_eq!(g.last_move(), Some(e5));
    }

    #[test]
    fn undo_takes_back_the_human_move_and_the_reply() {
        let mut g = game(Color::White, "60+0");
        let e4 = mv(&g, "e4");
        g.play(e4, Instant::now()).unwrap();
        let e5 = mv(&g, "e5");
        g.push(e5);
        let nf3 = mv(&g, "Nf3");
        g.play(nf3, Instant::now()).unwrap();
        // The bot has not answered Nf3 yet: undo waits for the human's turn.
        assert_eq!(g.undo(Instant::now()), Err(PlayError::NotYourTurn));
        let nc6 = mv(&g, "Nc6");
        g.push(nc6);
        g.undo(Instant::now()).unwrap();
        assert_eq!(g.move_list(), "1. e4 e5");
        assert_eq!(g.board().fen(), {
            let mut b = Board::startpos();
            b.make_move(e4);
            b.make_move(e5);
            b.fen()
        });
    }

    #[test]
    fn the_clock_runs_for_the_whole_turn_and_a_fallen_flag_ends_the_game() {
        let mut g = game(Color::White, "60+0");
        let begun = g.turn_started;
        let e4 = mv(&g, "e4");
        // Whatever the human typed meanwhile (help, flip, a mistyped move), the clock
        // counts from the start of the turn.
        g.play(e4, begun + Duration::from_secs(61)).unwrap();
        assert_eq!(g.turn(), Turn::Over);
        let ending = g.ending().unwrap();
        assert_eq!(ending.reason, "Your flag fell");
        assert_eq!(ending.result, GameResult::BlackWins);
        assert!(g.pgn().moves.is_empty(), "the late move is not played");
        assert_eq!(g.play(e4, Instant::now()), Err(PlayError::Over));
    }

    #[test]
    fn a_move_charges_the_time_since_the_turn_began() {
        let mut g = game(Color::White, "60+2");
        let begun = g.turn_started;
        let e4 = mv(&g, "e4");
        g.play(e4, begun + Duration::from_secs(10)).unwrap();
        assert_eq!(g.remaining(Color::White), Some(Duration::from_secs(52)));
        assert_eq!(g.remaining(Color::Black), Some(Duration::from_secs(60)));
    }

    #[test]
    fn mate_on_the_board_ends_the_game_and_the_pgn_says_so() {
        let mut g = game(Color::White, "60+0");
        for text in ["f3", "e5", "g4", "Qh4#"] {
            let m = mv(&g, text);
            if g.turn() == Turn::Human {
                g.play(m, Instant::now()).unwrap();
            } else {
                g.push(m);
            }
        }
        assert_eq!(g.turn(), Turn::Over);
        assert_eq!(g.ending().unwrap().reason, "Checkmate: Black wins");
        let dir = std::env::temp_dir().join(format!("kit-play-{}", std::process::id()));
        let path = dir.join("mate.pgn");
        g.save(&path).unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        let _ = std::fs::remove_dir_all(&dir);
        assert!(text.contains("[Result \"0-1\"]"), "{text}");
        assert!(text.contains("[Termination \"normal\"]"), "{text}");
        assert!(text.contains("[White \"You\"]") && text.contains("[Black \"bot\"]"));
        assert!(text.contains("2. g4 Qh4# 0-1"), "{text}");
    }

    #[test]
    fn resigning_or_leaving_ends_the_game_once() {
        let mut g = game(Color::Black, "60+0");
        g.leave();
        g.resign();
        let ending = g.ending().unwrap();
        assert_eq!(
            (ending.reason.as_str(), ending.termination, ending.result),
            ("You left the game", "abandoned", GameResult::Unknown)
        );
        let mut g = game(Color::Black, "60+0");
        g.resign();
        assert_eq!(g.ending().unwrap().result, GameResult::WhiteWins);
    }

    #[test]
    fn a_position_from_black_numbers_its_moves_from_there() {
        let start =
            Board::from_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1").unwrap();
        let mut g = HumanGame::new("bot", Color::White, "60+0".parse().unwrap(), start);
        let e5 = mv(&g, "e5");
        g.push(e5);
        let nf3 = mv(&g, "Nf3");
        g.play(nf3, Instant::now()).unwrap();
        assert_eq!(g.move_list(), "1... e5 2. Nf3");
    }
}

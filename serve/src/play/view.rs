//! What the play page reads: the page itself, the game's state as JSON, and the human's
//! move checked against the position.

use anyhow::Result;
use framework::chess::{Board, Color, Move, MoveError};
use minijinja::{AutoEscape, Environment, context};
use play::{HumanGame, Turn, colour_name};
use serde::Serialize;

/// The page, rendered with HTML auto-escaping (the title names the bot).
pub fn page(template: &str, title: &str, token: &str) -> Result<String> {
    let mut env = Environment::new();
    env.set_auto_escape_callback(|_| AutoEscape::Html);
    env.add_template("play.html", template)?;
    Ok(env
        .get_template("play.html")?
        .render(context! { title, token })?)
}

/// The longest move text read: `e7e8q` has five characters.
const MAX_MOVE_CHARS: usize = 5;

/// The human's move, in UCI, if it is legal on `board`; otherwise why not, as a sentence.
pub fn parse_move(board: &Board, text: &str) -> Result<Move, String> {
    if text.chars().count() > MAX_MOVE_CHARS {
        return Err(format!(
            "not a move: a UCI move has at most {MAX_MOVE_CHARS} characters (like `e2e4` or `e7e8q`)"
        ));
    }
    board.parse_uci(text).map_err(|err| match err {
        MoveError::Illegal(_) => format!("`{text}` is not legal in this position"),
        other => other.to_string(),
    })
}

/// The game as the page draws it.
#[derive(Serialize)]
struct StateView<'a> {
    fen: String,
    human: &'static str,
    white: &'a str,
    black: &'a str,
    turn: &'static str,
    san: Vec<String>,
    last: Option<String>,
    check: bool,
    legal: Vec<String>,
    /// Milliseconds left for White and Black (`null` when untimed), as of the last move.
    clocks: [Option<u128>; 2],
    first_move: u32,
    black_first: bool,
    ending: Option<EndingView>,
}

#[derive(Serialize)]
struct EndingView {
    result: String,
    reason: String,
}

/// The state of `game` as JSON.
pub fn state_json(game: &HumanGame) -> String {
    let board = game.board();
    let pgn = game.pgn();
    let turn = game.turn();
    let legal = if turn == Turn::Human {
        board
            .legal_moves_vec()
            .iter()
            .map(Move::to_string)
            .collect()
    } else {
        Vec::new()
    };
    let view = StateView {
        fen: board.fen(),
        human: colour_name(game.human()),
        white: game.player(Color::White),
        black: game.player(Color::Black),
        turn: match turn {
            Turn::Human => "human",
            Turn::Bot => "bot",
            Turn::Over => "over",
        },
        san: pgn.san_moves(),
        last: game.last_move().map(|m| m.to_string()),
        check: board.is_in_check(),
        legal,
        clocks: [Color::White, Color::Black].map(|c| game.remaining(c).map(|d| d.as_millis())),
        first_move: pgn.start.fullmove_number().unsigned_abs(),
        black_first: pgn.start.side_to_move() == Color::Black,
        ending: game.ending().map(|e| EndingView {
            result: e.result.to_string(),
            reason: e.reason.clone(),
        }),
    };
    serde_json::to_string(&view).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_are_checked_against_the_position() {
        let board = Board::startpos();
        assert_eq!(parse_move(&board, "e2e4").unwrap().to_string(), "e2e4");
        assert_eq!(
            parse_move(&board, "e2e5").unwrap_err(),
            "`e2e5` is not legal in this position"
        );
        assert!(
            parse_move(&board, "e2e4e2e4")
                .unwrap_err()
                .starts_with("not a move")
        );
        assert!(parse_move(&board, "zz").is_err());
        let promoting = Board::from_fen("8/4P3/8/8/8/k7/8/K7 w - - 0 1").unwrap();
        assert!(parse_move(&promoting, "e7e8q").is_ok());
        assert!(
            parse_move(&promoting, "e7e8").is_err(),
            "a promotion names its piece"
        );
    }
}

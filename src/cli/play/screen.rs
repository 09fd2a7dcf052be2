//! The board on the terminal: pieces, the last move, both clocks and the recent moves,
//! in colour on a terminal (unless `NO_COLOR` is set) and as plain letters elsewhere.

use std::io::IsTerminal;
use std::time::Duration;

use framework::chess::{Color, PieceType, Square};
use play::{HumanGame, colour_name};

/// How the board is drawn: which side is at the bottom, and whether in colour.
pub struct Screen {
    flipped: bool,
    colour: bool,
}

impl Screen {
    /// The human's side at the bottom; colour when stdout is a terminal and `NO_COLOR` is
    /// not set.
    pub fn new(human: Color) -> Screen {
        Screen {
            flipped: human == Color::Black,
            colour: std::env::var_os("NO_COLOR").is_none() && std::io::stdout().is_terminal(),
        }
    }

    /// Turns the board around.
    pub fn flip(&mut self) {
        self.flipped = !self.flipped;
    }

    /// Draws the board, clocks and recent moves.
    pub fn show(&self, game: &HumanGame) {
        if self.colour {
            // Clear the screen and go home, so the board stays in one place.
            print!("\x1b[2J\x1b[H");
        }
        print!("{}", self.render(game));
    }

    /// The board, clocks and recent moves as lines of text.
    fn render(&self, game: &HumanGame) -> String {
        let top = if self.flipped {
            Color::White
        } else {
            Color::Black
        };
        let ranks: Vec<u8> = if self.flipped {
            (0..8).collect()
        } else {
            (0..8).rev().collect()
        };
        let mut files: Vec<u8> = (0..8).collect();
        if self.flipped {
            files.reverse();
        }
        let last = game.last_move();
        let mut out = format!("{}\n", player_line(game, top));
        for &rank in &ranks {
            out.push_str(&format!(" {} ", rank + 1));
            for &file in &files {
                let square = Square::from_index(rank * 8 + file);
                let highlighted = last.is_some_and(|m| m.from() == square || m.to() == square);
                out.push_str(&self.cell(game, square, highlighted));
            }
            out.push('\n');
        }
        let letters: String = files
            .iter()
            .map(|&f| format!(" {} ", (b'a' + f) as char))
            .collect();
        out.push_str(&format!("   {letters}\n{}\n", player_line(game, !top)));
        let moves = game.move_list();
        if !moves.is_empty() {
            out.push_str(&format!("Moves: {}\n", tail(&moves, 160).trim_start()));
        }
        if game.board().is_in_check() && game.board().outcome().is_none() {
            out.push_str("Check!\n");
        }
        out
    }

    fn cell(&self, game: &HumanGame, square: Square, highlighted: bool) -> String {
        let piece = game.board().piece_at(square);
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

/// `   Name (Colour) 4:59.3 *`: who plays a side, its clock, and a star on the side to
/// move.
fn player_line(game: &HumanGame, color: Color) -> String {
    let clock = game.remaining(color).map(format_clock).unwrap_or_default();
    let to_move = if game.board().side_to_move() == color {
        " *"
    } else {
        ""
    };
    format!(
        "   {} ({}) {clock}{to_move}",
        game.player(color),
        colour_name(color)
    )
}

/// The last `chars` characters of `text`.
fn tail(text: &str, chars: usize) -> &str {
    let skip = text.chars().count().saturating_sub(chars);
    text.char_indices()
        .nth(skip)
        .map_or("", |(at, _)| &text[at..])
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

/// `M:SS.t`.
fn format_clock(left: Duration) -> String {
    let tenths = left.as_millis() / 100;
    format!("{}:{:02}.{}", tenths / 600, tenths / 10 % 60, tenths % 10)
}

#[cfg(test)]
mod tests {
    use super::*;
    use framework::chess::Board;
    use play::{HumanCommand, parse_command};

    #[test]
    fn clocks_read_as_minutes_seconds_tenths() {
        assert_eq!(format_clock(Duration::from_millis(300_000)), "5:00.0");
        assert_eq!(format_clock(Duration::from_millis(61_250)), "1:01.2");
    }

    #[test]
    fn the_tail_of_a_long_move_list_is_its_last_characters() {
        assert_eq!(tail("1. e4 e5", 4), "4 e5");
        assert_eq!(tail("ab", 5), "ab");
        assert_eq!(tail("", 3), "");
    }

    #[test]
    fn the_plain_board_marks_the_last_move_and_the_side_to_move() {
        let mut game = HumanGame::new(
            "bot",
            Color::White,
            "60+0".parse().unwrap(),
            Board::startpos(),
        );
        let Ok(HumanCommand::Move(e4)) = parse_command(game.board(), "e4") else {
            panic!("e4 is a move");
        };
        game.play(e4, std::time::Instant::now()).unwrap();
        let mut screen = Screen {
            flipped: false,
            colour: false,
        };
        let text = screen.render(&game);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "   bot (Black) 1:00.0 *");
        assert_eq!(lines[5], " 4  .  .  .  . [P] .  .  . ");
        assert_eq!(lines[7], " 2  P  P  P  P [.] P  P  P ");
        assert_eq!(lines[9], "    a  b  c  d  e  f  g  h ");
        assert!(lines[10].starts_with("   You (White) "), "{}", lines[10]);
        assert_eq!(lines[11], "Moves: 1. e4");
        screen.flip();
        let flipped = screen.render(&game);
        assert!(flipped.starts_with("   You (White)"), "{flipped}");
        assert!(flipped.contains("    h  g  f  e  d  c  b  a "), "{flipped}");
    }
}

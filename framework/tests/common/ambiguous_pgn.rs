//! A hostile PGN text for the settling of ambiguous moves (`ScanOptions::resolve_ambiguous`):
//! games whose every knight move could be any of eight, each settled only by the last moves
//! of the game, and only by the last candidate tried. Settling one replays the rest of the
//! game for every candidate, the ambiguities after it nested inside: eight to the power of
//! their number, each a whole game's length.
//!
//! White's knights ring d4 and Black's ring d5; each round is `Nd4 Nd5`, kings walking,
//! and the two knights going back to where they came from, which only the right candidates
//! make legal.
#![allow(dead_code)]

use framework::chess::{Board, Move};
use framework::notation::san::{SanError, parse_san, to_san};

/// Both rings of knights, the white king on h1 and the black one on h8: every knight
/// move to the centre is legal from all eight squares, and no king is ever in check.
pub const RINGS: &str = "7k/2n1n3/1nN1Nn2/1N3N2/1n3n2/1Nn1nN2/2N1N3/7K w - - 0 1";

/// One game of `rounds` rounds, each with `walk` moves of both kings between the knights'
/// moves out and back, as PGN text with its tags.
pub fn game(rounds: usize, walk: usize) -> String {
    let mut board = Board::from_fen(RINGS).expect("the rings are a position");
    let mut sans = Vec::new();
    let mut steps = 0;
    for _ in 0..rounds {
        let white = last_candidate(&board, "Nd4");
        play(&mut board, &mut sans, white, "Nd4");
        let black = last_candidate(&board, "Nd5");
        play(&mut board, &mut sans, black, "Nd5");
        for _ in 0..walk {
            steps += 1;
            let (w, b) = if steps % 2 == 1 {
                ("h2", "g8")
            } else {
                ("h1", "h8")
            };
            for to in [w, b] {
                let mv = king_to(&board, to);
                let san = to_san(&board, mv);
                play(&mut board, &mut sans, mv, &san);
            }
        }
        for origin in [white.from(), black.from()] {
            let centre = if board.side_to_move().is_white() {
                "d4"
            } else {
                "d5"
            };
            let back = board
                .parse_uci(&format!("{centre}{origin}"))
                .expect("a knight's way back");
            let san = to_san(&board, back);
            play(&mut board, &mut sans, back, &san);
        }
    }
    let mut text = format!(
        "[White \"A\"]\n[Black \"B\"]\n[Result \"1/2-1/2\"]\n[SetUp \"1\"]\n[FEN \"{RINGS}\"]\n\n"
    );
    for (i, san) in sans.iter().enumerate() {
        if i % 2 == 0 {
            text.push_str(&format!("{}. ", i / 2 + 1));
        }
        text.push_str(san);
        text.push(' ');
    }
    text.push_str("1/2-1/2\n\n");
    text
}

/// Games of [`game`] until the text is at least `bytes` long.
pub fn file(bytes: usize, rounds: usize, walk: usize) -> String {
    let one = game(rounds, walk);
    one.repeat(bytes.div_ceil(one.len()))
}

/// The last of the candidates `ambiguous` could mean on `board` (the one the game's end
/// keeps, so that every other is tried first, to the end).
fn last_candidate(board: &Board, ambiguous: &str) -> Move {
    match parse_san(board, ambiguous) {
        Err(SanError::Ambiguous { candidates, .. }) => {
            assert_eq!(candidates.len(), 8, "{ambiguous} in {}", board.fen());
            let last = candidates.last().expect("eight candidates");
            parse_san(board, last).expect("a candidate is a move")
        }
        other => panic!(
            "{ambiguous} should be ambiguous in {}: {other:?}",
            board.fen()
        ),
    }
}

fn king_to(board: &Board, to: &str) -> Move {
    let from = board.king_square(board.side_to_move());
    board
        .parse_uci(&format!("{from}{to}"))
        .unwrap_or_else(|e| panic!("king to {to} in {}: {e}", board.fen()))
}

fn play(board: &mut Board, sans: &mut Vec<String>, mv: Move, san: &str) {
    assert!(board.is_legal(mv), "{san} in {}", board.fen());
    sans.push(san.to_owned());
    board.make_move(mv);
}

//! Helpers the framework's tests share: the CPW perft positions, a board from a FEN,
//! moves played from UCI. Each test file uses some of them.
#![allow(dead_code)]

use framework::prelude::*;

/// The chessprogramming.org perft positions: castling, en passant, promotions, pins and
/// checks, from the opening to the endgame.
pub const CPW_POSITIONS: [&str; 6] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
];

/// The board of `fen`, which the test knows to be valid.
pub fn board(fen: &str) -> Board {
    Board::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

/// Plays the UCI moves of `moves` (separated by spaces) on `b`.
pub fn play(b: &mut Board, moves: &str) {
    for m in moves.split_whitespace() {
        let mv = b
            .parse_uci(m)
            .unwrap_or_else(|e| panic!("{m} in {}: {e}", b.fen()));
        b.make_move(mv);
    }
}

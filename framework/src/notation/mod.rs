//! Chess notation: Standard Algebraic Notation ([`san`]) and Portable Game Notation ([`pgn`]
//! for games and writing; [`scan`], the one reader every PGN text goes through; [`stream`]
//! for files read through a fixed buffer).
//!
//! Bots never need this module (it is deliberately not in the prelude); the tools around them do:
//! opening suites, game records, match logs.
//!
//! ```
//! use framework::chess::Board;
//! use framework::notation::{pgn, san};
//!
//! let board = Board::startpos();
//! let mv = san::parse_san(&board, "Nf3").unwrap();
//! assert_eq!(san::to_san(&board, mv), "Nf3");
//!
//! let read = pgn::read_games("1. e4 e5 2. Nf3 Nc6 *");
//! assert_eq!(read.games[0].moves.len(), 4);
//! ```

mod lex;
pub mod pgn;
mod result;
pub mod san;
pub mod scan;
pub mod stream;

pub use pgn::{
    GameResult, PgnError, PgnGame, PgnReadResult, PgnReader, pgn_date, read_games, read_games_from,
    write_game, write_games,
};
pub use san::{SanError, SanExt, parse_san, to_san};

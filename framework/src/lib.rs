//! The host framework every bot links against.
//!
//! - [`chess`]: the chess core: [`Board`](chess::Board), moves, rules, FEN, attacks.
//! - [`bot`]: the [`Bot`](bot::Bot) trait a bot file implements.
//! - [`timer`]: the [`Timer`](timer::Timer) a bot reads its clock from.
//! - [`notation`]: SAN and PGN.
//! - [`uci`]: the UCI host that turns a bot into an engine process.
//! - [`table`]: [`Table`](table::Table), a bot's fixed-size tables, ready at construction.
//! - [`prelude`]: everything a bot file needs, in one `use framework::prelude::*;`.

pub mod bot;
pub mod chess;
pub mod notation;
pub mod prelude;
pub mod table;
pub mod timer;
pub mod uci;

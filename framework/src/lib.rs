//! The host framework every bot links against.
//!
//! - [`chess`]: the chess core: [`Board`](chess::Board), moves, rules, FEN, attacks.
//! - [`bot`]: the [`Bot`](bot::Bot) trait a bot file implements.
//! - [`timer`]: the [`Timer`](timer::Timer) a bot reads its clock from.
//! - [`notation`]: SAN and PGN.
//! - [`search`]: ending a search from any depth ([`abort_search`](search::abort_search)).
//! - [`uci`]: the UCI host that turns a bot into an engine process.
//! - [`csharp`]: the C# challenge's API, member by member, beside the kit's (the page
//!   `docs/csharp.md`, whose examples run as doctests).
//! - [`table`]: [`Table`](table::Table), a bot's fixed-size tables, ready at construction.
//! - [`prelude`]: everything a bot file needs, in one `use framework::prelude::*;`.

pub mod bot;
pub mod chess;
#[doc = include_str!("../../docs/csharp.md")]
pub mod csharp {}
pub mod notation;
pub mod prelude;
pub mod search;
pub mod table;
pub mod timer;
pub mod uci;

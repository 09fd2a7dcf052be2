//! The host framework every bot links against.
//!
//! - [`chess`]: the chess core: [`Board`](chess::Board), moves, rules, FEN, attacks.
//! - [`prelude`]: everything a bot file needs, in one `use framework::prelude::*;`.

pub mod chess;
pub mod prelude;

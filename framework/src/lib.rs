//! The host framework every bot links against.
//!
//! - [`chess`]: the chess core: [`Board`](chess::Board), moves, rules, FEN, attacks.
//! - [`bot`]: the [`Bot`](bot::Bot) trait a bot file implements.
//! - [`timer`]: the [`Timer`](timer::Timer) a bot reads its clock from.
//! - [`notation`]: SAN and PGN.
//! - [`search`]: ending a search from any depth ([`abort_search`](search::abort_search)).
//! - [`uci`]: the UCI host that turns a bot into an engine process.
//! - [`csharp`]: the C# challenge's API, member by member, beside the kit's (the page
//!   `docs/csharp.md`, whose examples run as doctests), and in [`csharp::runtime`] what
//!   `challenge port`'s translations of C# bots need from C#'s library.
//! - [`random`]: [`Random`](random::Random), C#'s `System.Random`, seeded per game by the host.
//! - [`table`]: [`Table`](table::Table), a bot's fixed-size tables, ready at construction.
//! - [`prelude`]: everything a bot file needs, in one `use framework::prelude::*;`.

pub mod bot;
pub mod chess;
#[doc = include_str!("../../docs/csharp.md")]
pub mod csharp;
pub mod notation;
pub mod prelude;
pub mod random;
pub mod search;
pub mod table;
pub mod timer;
pub mod uci;

/// The user's manual, README.md and the guide's pages, as doctests: `cargo test` compiles
/// and runs every Rust example in them, so an example that no longer builds fails a test.
/// Compiled only when rustdoc collects doctests, so nothing of it is in a bot's engine.
#[cfg(doctest)]
pub mod manual {
    #[doc = include_str!("../../README.md")]
    pub struct Readme;
    #[doc = include_str!("../../docs/guide/README.md")]
    pub struct Guide;
    #[doc = include_str!("../../docs/guide/writing-a-bot.md")]
    pub struct WritingABot;
    #[doc = include_str!("../../docs/guide/rules.md")]
    pub struct Rules;
    #[doc = include_str!("../../docs/guide/measuring.md")]
    pub struct Measuring;
    #[doc = include_str!("../../docs/guide/tuning.md")]
    pub struct Tuning;
    #[doc = include_str!("../../docs/guide/running-a-challenge.md")]
    pub struct RunningAChallenge;
    #[doc = include_str!("../../docs/guide/hosting.md")]
    pub struct Hosting;
    #[doc = include_str!("../../docs/guide/scaling.md")]
    pub struct Scaling;
    #[doc = include_str!("../../docs/guide/development.md")]
    pub struct Development;
    #[doc = include_str!("../../docs/guide/porting.md")]
    pub struct Porting;
    #[doc = include_str!("../../docs/guide/csharp-field.md")]
    pub struct CsharpField;
}

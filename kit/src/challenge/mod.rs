//! The local challenge: a store of submitted bots (SQLite), tournaments that survive
//! being killed at any moment, maximum-likelihood ratings, standings and an HTML report.
//!
//! - [`store`]: the challenge's records (entries, versions, games, schedules) behind the
//!   [`Store`](store::Store) trait, with SQLite as the embedded backend.
//! - [`submit`]: the submission check (rules, token limit, build, smoke test).
//! - [`tournament`]: `challenge run`, round-robin and Swiss, resumable.
//! - [`organiser`]: the step that moves a tournament on (rounds, the finish), called by
//!   every organiser process.
//! - [`gate`]: what a run asks before it starts games (the server's pause) and tells as
//!   it goes.
//! - [`swiss`]: pairing a Swiss round.
//! - [`ratings`]: Elo by maximum likelihood with draws modelled (BayesElo's model).
//! - [`standings`]: the table, as text, JSON or CSV, from the store or from PGN files.
//! - [`report`]: the self-contained HTML page.
//! - [`worker`]: `challenge worker`, playing a PostgreSQL store's tournament from any
//!   machine.
//! - [`verify`]: whether a stored game's result agrees with its moves (a worker is not
//!   trusted).

pub mod gate;
pub mod organiser;
pub mod pgn_facts;
pub mod ratings;
pub mod report;
pub mod standings;
pub mod submit;
pub mod swiss;
pub mod tournament;
pub mod verify;
pub mod worker;

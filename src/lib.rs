//! The kit's library: everything the `challenge` program does, without its command line.

pub mod bots;
pub mod challenge;
pub mod engine_build;
pub mod play;

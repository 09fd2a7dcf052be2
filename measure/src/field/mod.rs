//! The C# challenge's field as opponents: its published results read and matched with
//! its entries (`published`), the entries ported, built and checked into a field whose
//! manifest says how far each got (`make`, `manifest`), a bot rated on the published
//! scale by an adaptive gauntlet against them (`gauntlet`), and a round robin of
//! entries that checks the whole chain against the published table (`reproduce`).
//! Long runs keep their games in a log they resume from (`game_log`).
//!
//! The translator of C# entries is not part of this crate: `challenge field` passes it
//! in as a `Porter`, so that this crate builds without the C# parser.

pub(crate) mod game_log;
pub(crate) mod gauntlet;
pub(crate) mod make;
pub(crate) mod manifest;
pub(crate) mod published;
pub(crate) mod reproduce;

//! The kit's bot files as modules of one crate, for editors and `cargo clippy -p bots`.
//!
//! Each `bot/NAME.rs` is the module `NAME`, each `bot/lab/NAME.rs` the module `lab_NAME`
//! (a name that is no Rust identifier is made one: `my_bot.tuned.rs` is `my_bot_tuned`). `build.rs` lists the folder at every build, so a new bot file is a
//! module with no edit anywhere. The kit never links this crate: `challenge build` compiles
//! each bot on its own, as the module `bot` of an engine crate of its own.

include!(concat!(env!("OUT_DIR"), "/bots.rs"));

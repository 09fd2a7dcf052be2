//! (The page `docs/csharp.md` is this module's documentation; see `lib.rs`.)

pub mod runtime;

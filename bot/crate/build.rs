//! Writes `$OUT_DIR/bots.rs`, the module declarations of every bot file of `bot/` and
//! `bot/lab/` (see `modules.rs`), and asks cargo to run again when the folder changes, so a
//! new bot file is part of the crate with no edit anywhere.

#[path = "modules.rs"]
mod modules;

use std::path::Path;

fn main() {
    let manifest = std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    let out = std::env::var("OUT_DIR").expect("cargo sets OUT_DIR");
    let dir = Path::new(&manifest);
    // A folder here makes cargo look at everything under it, added files included.
    println!("cargo:rerun-if-changed={}", dir.display());
    let (declarations, skipped) = modules::declarations(dir);
    for name in skipped {
        println!("cargo:warning=left out of the bots crate (its name is not UTF-8): {name}");
    }
    std::fs::write(Path::new(&out).join("bots.rs"), declarations)
        .expect("the build script can write to OUT_DIR");
}

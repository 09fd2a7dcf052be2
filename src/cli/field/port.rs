//! The translator `challenge field` ports C# entries with: the kit's `csharp-port`, built
//! in with the `port` feature.

use std::path::Path;

use anyhow::{Result, bail};

/// The translator, or `None` for a folder of Rust entries; a folder with C# entries in a
/// `challenge` built without the translator is refused, saying how to get it.
pub fn porter(dir: &Path) -> Result<Option<Box<dyn lab::Porter>>> {
    let csharp = std::fs::read_dir(dir.join("Bots"))
        .map(|files| {
            files
                .flatten()
                .any(|f| f.path().extension().is_some_and(|e| e == "cs"))
        })
        .unwrap_or(false);
    if csharp {
        bail!(
            "{} has C# entries, and this `challenge` was built without the C# translator: \
             build it with the `port` feature (`cargo install --path KIT --features port`, or \
             `cargo run --release --features port -- field ...` in the kit)",
            dir.display()
        );
    }
    Ok(None)
}

//! The translator `challenge field` ports C# entries with: the kit's `csharp-port`, built
//! in with the `port` feature.

use std::path::Path;

use anyhow::Result;

/// The kit's translator, as the field's [`measure::Porter`]. The ports are not run through
/// rustfmt (`challenge port` does that for a person to read): they are played, and the
/// field keys its builds on their text.
#[cfg(feature = "port")]
struct Translator;

#[cfg(feature = "port")]
impl measure::Porter for Translator {
    fn port(&self, csharp: &str) -> Result<String, measure::PortFailure> {
        let csharp = csharp.strip_prefix('\u{feff}').unwrap_or(csharp);
        csharp_port::port(csharp, &csharp_port::PortOptions::default())
            .map(|port| port.rust)
            .map_err(|err| measure::PortFailure {
                construct: err.construct.clone(),
                message: err.to_string(),
            })
    }
}

/// The translator, or `None` for a folder of Rust entries; a folder with C# entries in a
/// `challenge` built without the translator is refused, saying how to get it.
pub fn porter(dir: &Path) -> Result<Option<Box<dyn measure::Porter>>> {
    #[cfg(feature = "port")]
    {
        let _ = dir;
        Ok(Some(Box::new(Translator)))
    }
    #[cfg(not(feature = "port"))]
    {
        let csharp = std::fs::read_dir(dir.join("Bots"))
            .map(|files| {
                files
                    .flatten()
                    .any(|f| f.path().extension().is_some_and(|e| e == "cs"))
            })
            .unwrap_or(false);
        anyhow::ensure!(
            !csharp,
            "{} has C# entries, and this `challenge` was built without the C# translator: \
             build it with the `port` feature (`cargo install --path KIT --features port`, or \
             `cargo run --release --features port -- field ...` in the kit)",
            dir.display()
        );
        Ok(None)
    }
}

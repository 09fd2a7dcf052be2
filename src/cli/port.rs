//! `challenge port`: a C# challenge bot into a kit bot file.

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};

/// Translate a C# Tiny Chess Bot Challenge entry into a kit bot file.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The C# file: a class implementing `IChessBot` against `ChessChallenge.API`.
    file: PathBuf,
    /// Write the Rust bot to this file (`bot/NAME.rs`) instead of stdout.
    #[arg(short, long)]
    output: Option<PathBuf>,
    /// Overwrite the output file if it exists.
    #[arg(long)]
    force: bool,
}

/// Ports, formats with rustfmt when it is installed, and writes the bot.
pub fn run(args: &Args) -> Result<()> {
    let source = read_bounded(&args.file)?;
    let name = args
        .file
        .file_name()
        .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
    let options = csharp_port::PortOptions { source_name: name };
    let port = csharp_port::port(&source, &options)
        .map_err(|err| anyhow::anyhow!("{}:{err}", args.file.display()))?;
    let rust = csharp_port::rustfmt(&port.rust).unwrap_or(port.rust);
    for warning in &port.warnings {
        eprintln!("warning: {}:{warning}", args.file.display());
    }
    match &args.output {
        None => std::io::stdout().write_all(rust.as_bytes())?,
        Some(out) => {
            write_new(out, &rust, args.force)?;
            let stem = out
                .file_stem()
                .map_or_else(String::new, |s| s.to_string_lossy().into_owned());
            eprintln!(
                "wrote {} ({} lines, from class {}); play it: challenge match {} evil_bot --allow-over-limit",
                out.display(),
                rust.lines().count(),
                port.csharp_class,
                if out.parent() == Some(Path::new("bot")) {
                    stem
                } else {
                    out.display().to_string()
                }
            );
        }
    }
    Ok(())
}

/// The C# file as text, refused past the translator's size bound.
fn read_bounded(path: &Path) -> Result<String> {
    let len = std::fs::metadata(path)
        .with_context(|| format!("cannot read {}", path.display()))?
        .len();
    if len > csharp_port::MAX_SOURCE_BYTES as u64 {
        bail!(
            "{} is {len} bytes: a C# bot file is at most {} bytes here",
            path.display(),
            csharp_port::MAX_SOURCE_BYTES
        );
    }
    let bytes = std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
    let text = String::from_utf8(bytes)
        .with_context(|| format!("{} is not UTF-8 text", path.display()))?;
    Ok(text
        .strip_prefix('\u{feff}')
        .map(str::to_string)
        .unwrap_or(text))
}

/// Writes `text` to `path`, which must not exist unless `force`.
fn write_new(path: &Path, text: &str, force: bool) -> Result<()> {
    let mut options = std::fs::OpenOptions::new();
    options.write(true);
    if force {
        options.create(true).truncate(true);
    } else {
        options.create_new(true);
    }
    let mut file = options.open(path).map_err(|err| {
        if err.kind() == std::io::ErrorKind::AlreadyExists {
            anyhow::anyhow!("{} exists; pass --force to overwrite it", path.display())
        } else {
            anyhow::anyhow!("cannot write {}: {err}", path.display())
        }
    })?;
    file.write_all(text.as_bytes())
        .with_context(|| format!("cannot write {}", path.display()))
}

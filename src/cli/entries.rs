//! `challenge entries`.

use anyhow::Result;
use store::Access;

use super::args::DirArgs;

/// List the challenge's entries.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Show every version, not only the current one.
    #[arg(long)]
    all: bool,
    #[command(flatten)]
    dir: DirArgs,
}

/// Prints one line per entry (or per version with `--all`).
pub fn run(args: &Args) -> Result<()> {
    let store = args.dir.open(Access::Read)?;
    let versions: Vec<_> = store
        .versions()?
        .into_iter()
        .filter(|v| args.all || v.current)
        .collect();
    if versions.is_empty() {
        println!("no entries yet: add one with `challenge submit FILE --name NAME`");
        return Ok(());
    }
    println!(
        "{:<20} {:<16} {:>4} {:<16} {:>6} {:>6}  {:<20}  status",
        "name", "author", "ver", "hash", "tokens", "debug", "submitted"
    );
    for v in &versions {
        println!(
            "{:<20} {:<16} {:>4} {:<16} {:>6} {:>6}  {:<20}  {}",
            v.name,
            v.author.as_deref().unwrap_or("-"),
            format!("v{}", v.number),
            v.hash,
            v.tokens,
            v.debug_tokens,
            v.submitted,
            v.status()
        );
    }
    Ok(())
}

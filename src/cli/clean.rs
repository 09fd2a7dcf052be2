//! `challenge clean`: empties the bot cache.

use anyhow::Result;
use bot_build::{build_dir, clean};

/// Remove the cached bot engines and the bots' build directories (`target/bots`, or
/// `$CHALLENGE_BUILD_DIR`), and say how much space that freed.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Also remove the compiled framework (the next bot build compiles it again, about a
    /// minute on 2 cores).
    #[arg(long)]
    all: bool,
}

/// Cleans and prints what was removed.
pub fn run(args: &Args) -> Result<()> {
    let dir = build_dir();
    let freed = clean(&dir, args.all)?;
    let framework = if args.all {
        ", and the compiled framework"
    } else {
        ""
    };
    println!(
        "removed {} engine{} and {} bot build{}{framework} from {}: {} freed",
        freed.engines,
        if freed.engines == 1 { "" } else { "s" },
        freed.crates,
        if freed.crates == 1 { "" } else { "s" },
        dir.display(),
        human_bytes(freed.bytes)
    );
    Ok(())
}

/// `812 bytes`, `3.4 MB`, `1.2 GB` (powers of 1000, as disk tools print).
fn human_bytes(bytes: u64) -> String {
    match bytes {
        0..1_000 => format!("{bytes} bytes"),
        1_000..1_000_000 => format!("{:.1} kB", bytes as f64 / 1e3),
        1_000_000..1_000_000_000 => format!("{:.1} MB", bytes as f64 / 1e6),
        _ => format!("{:.1} GB", bytes as f64 / 1e9),
    }
}

#[cfg(test)]
mod tests {
    use super::human_bytes;

    #[test]
    fn sizes_read_as_disk_tools_print_them() {
        assert_eq!(human_bytes(0), "0 bytes");
        assert_eq!(human_bytes(999), "999 bytes");
        assert_eq!(human_bytes(4_470_000), "4.5 MB");
        assert_eq!(human_bytes(618_000_000), "618.0 MB");
        assert_eq!(human_bytes(2_000_000_000), "2.0 GB");
    }
}

//! `challenge withdraw`.

use anyhow::Result;
use store::Access;

use super::args::DirArgs;

/// Take an entry out of future pairings.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The entry to take out of future pairings (its games are kept).
    name: String,
    #[command(flatten)]
    dir: DirArgs,
}

/// Withdraws the entry and says so.
pub fn run(args: &Args) -> Result<()> {
    let mut store = args.dir.open(Access::Write)?;
    if store.withdraw(&args.name)? {
        println!(
            "withdrew `{}`: it is left out of future pairings; its games stay in the standings (submit it again to return)",
            args.name
        );
    } else {
        println!("`{}` was already withdrawn", args.name);
    }
    Ok(())
}

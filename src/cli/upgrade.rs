//! `challenge upgrade`.

use anyhow::Result;
use store::upgrade_store;

use super::args::DirArgs;

/// Bring a challenge's schema up to date for this kit (reading commands and workers
/// refuse an older one; kits older than this one refuse it afterwards).
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    dir: DirArgs,
}

/// Upgrades and says from which version.
pub fn run(args: &Args) -> Result<()> {
    let upgraded = upgrade_store(&args.dir.location()?)?;
    if upgraded.functions_installed {
        println!(
            "{}: this kit's worker functions installed",
            upgraded.location
        );
    }
    if upgraded.from == upgraded.to && !upgraded.functions_installed {
        println!(
            "{}: schema version {} is this kit's; nothing to do",
            upgraded.location, upgraded.to
        );
    } else if upgraded.from != upgraded.to {
        println!(
            "{}: schema brought from version {} to {}",
            upgraded.location, upgraded.from, upgraded.to
        );
    }
    Ok(())
}

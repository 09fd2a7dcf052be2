//! `challenge build`.

use anyhow::Result;

use super::args::LimitArgs;

/// Build a bot file into a UCI engine executable and print its path.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// A bot by name (`my_bot`: ./bot/my_bot.rs, else the kit's) or a path to a bot file.
    bot: String,
    #[command(flatten)]
    limit: LimitArgs,
}

/// Builds (or finds cached) and prints the executable's path.
pub fn run(args: &Args) -> Result<()> {
    let (_, engine) = kit::engine_build::prepare(&args.bot, args.limit.policy(), &|event| {
        eprintln!("{event}");
    })?;
    if engine.cached {
        eprintln!("(cached)");
    }
    println!("{}", engine.path.display());
    Ok(())
}

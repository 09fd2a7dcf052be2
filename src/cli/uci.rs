//! `challenge uci`.

use anyhow::{Context, Result};

use super::args::LimitArgs;

/// Run a bot as a UCI engine on stdin/stdout.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// A bot by name (`my_bot`: ./bot/my_bot.rs, else the kit's) or a path to a bot file.
    bot: String,
    #[command(flatten)]
    limit: LimitArgs,
}

/// Builds the bot, then becomes its engine process so the GUI talks to the bot directly.
///
/// The engine starts as every bot does under the runner: with an empty environment and
/// only the three standard descriptors, so nothing of the GUI's (or the user's shell's)
/// reaches a bot someone else wrote.
pub fn run(args: &Args) -> Result<()> {
    let (_, engine) = bot_build::prepare(&args.bot, args.limit.policy(), &|event| {
        eprintln!("{event}");
    })?;
    run_in_place(&engine.path)
}

#[cfg(unix)]
fn run_in_place(executable: &std::path::Path) -> Result<()> {
    use std::os::unix::process::CommandExt;
    let mut command = std::process::Command::new(executable);
    runner::isolate(&mut command, runner::EngineEnv::Empty)
        .with_context(|| format!("cannot start {}", executable.display()))?;
    let err = command.exec();
    Err(err).with_context(|| format!("cannot start {}", executable.display()))
}

#[cfg(not(unix))]
fn run_in_place(executable: &std::path::Path) -> Result<()> {
    let mut command = std::process::Command::new(executable);
    runner::isolate(&mut command, runner::EngineEnv::Empty)
        .with_context(|| format!("cannot start {}", executable.display()))?;
    let status = command
        .status()
        .with_context(|| format!("cannot start {}", executable.display()))?;
    anyhow::ensure!(status.success(), "the engine exited with {status}");
    Ok(())
}

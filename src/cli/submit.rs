//! `challenge submit`.

use anyhow::Result;
use bot_build::BuildEvent;
use league::{SMOKE_POSITIONS, Submission, read_bot, submit, submit_to};
use store::StoreLocation;
use store::Submitted;

use super::args::DirArgs;

/// Submit a bot file to the challenge.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The bot: a file, or a bot of the kit by name (`evil_bot`) as `match` and `play` take.
    bot: String,
    /// The entry's name (letters, digits, `_`, `-`, `.`; up to 40 characters); the bot's
    /// file name without `.rs` when not given.
    #[arg(long)]
    name: Option<String>,
    /// Who wrote it.
    #[arg(long)]
    author: Option<String>,
    #[command(flatten)]
    dir: DirArgs,
}

/// Submits and says what the store made of it.
pub fn run(args: &Args) -> Result<()> {
    let bot = bot_build::resolve(&args.bot)?;
    let source = read_bot(&bot.path)?;
    let shown = bot.path.display().to_string();
    let file_name = bot
        .path
        .file_name()
        .map_or_else(|| shown.clone(), |name| name.to_string_lossy().into_owned());
    let submission = Submission {
        source: &source,
        shown: &shown,
        file_name: &file_name,
        name: args.name.as_deref().unwrap_or(&bot.name),
        author: args.author.as_deref(),
    };
    let say = |event: BuildEvent<'_>| eprintln!("{event}");
    say(BuildEvent::Resolved { bot: &bot });
    let submitted = match args.dir.location()? {
        StoreLocation::Dir(dir) => submit(&dir, submission, &say)?,
        StoreLocation::Postgres(_) => {
            let mut store = args.dir.open(store::Access::Create)?;
            submit_to(store.as_mut(), &args.dir.work_dir()?, submission, &say)?
        }
    };
    match submitted {
        Submitted::New(v) => println!(
            "accepted `{}` v{} ({}): {} / {} tokens ({} #DEBUG), built, smoke test passed ({} positions){}",
            v.name,
            v.number,
            v.hash,
            v.tokens,
            token_counter::LIMIT,
            v.debug_tokens,
            SMOKE_POSITIONS.len(),
            if v.number > 1 {
                format!("; it replaces v{} in future games", v.number - 1)
            } else {
                String::new()
            }
        ),
        Submitted::Unchanged(v) => println!(
            "unchanged: `{}` v{} already is this exact file ({})",
            v.name, v.number, v.hash
        ),
        Submitted::Revived(v) => println!(
            "`{}` is back in the challenge with v{} ({}), which is this exact file",
            v.name, v.number, v.hash
        ),
    }
    Ok(())
}

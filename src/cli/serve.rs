//! `challenge serve`.

use std::net::SocketAddr;

use anyhow::Result;
use kit::serve::{ServeOptions, serve};

use super::args::DirArgs;

/// Serve the challenge to browsers: submissions, live standings, games, organiser page.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Where to listen. The default is this machine only; `0.0.0.0:8080` opens it to the
    /// network (plain HTTP: see the README's caveats first).
    #[arg(long, default_value = "127.0.0.1:8080")]
    bind: SocketAddr,
    /// Set the organiser's token (at least 16 printable characters); without it, a token
    /// is made and printed at the first start and kept (as a hash) afterwards.
    #[arg(long, env = "CHALLENGE_ADMIN_TOKEN", hide_env_values = true)]
    admin_token: Option<String>,
    /// Tournament games played at once, each on its own pair of engine processes.
    #[arg(short = 'j', long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=64))]
    concurrency: u32,
    #[command(flatten)]
    dir: DirArgs,
}

/// Serves until stopped.
pub fn run(args: &Args) -> Result<()> {
    serve(&ServeOptions {
        dir: args.dir.dir.clone(),
        bind: args.bind,
        admin_token: args.admin_token.clone(),
        concurrency: args.concurrency as usize,
    })
}

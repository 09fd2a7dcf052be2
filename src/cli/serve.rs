//! `challenge serve`.

use std::net::SocketAddr;
use std::time::Duration;

use anyhow::{Result, bail};
use serve::{
    BODY_TIMEOUT, HEADER_TIMEOUT, MAX_CONNECTIONS, MAX_CONNECTIONS_PER_CLIENT, MAX_PENDING_BUILDS,
    MAX_STREAMS_PER_CLIENT, STREAM_IDLE, STREAM_LIFETIME,
};
use serve::{Limits, ServeOptions, serve};
use store::StoreLocation;

use super::args::{DirArgs, seconds};

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
    /// Tournament games played at once, each on its own pair of engine processes
    /// [default: 1]. A challenge directory only: a PostgreSQL store's games are played by
    /// `challenge worker -j N`.
    #[arg(short = 'j', long, value_parser = clap::value_parser!(u32).range(1..=64))]
    concurrency: Option<u32>,
    #[command(flatten)]
    builds: super::args::BuildJobs,
    /// Connections served at once in all; more wait for a 503 with `Retry-After`. Lowered
    /// at start to fit the open-file limit.
    #[arg(long, value_name = "N", default_value_t = MAX_CONNECTIONS as u32,
          value_parser = clap::value_parser!(u32).range(16..=1_000_000))]
    max_connections: u32,
    /// Connections served at once from one client (an IPv4 address or an IPv6 /64); an
    /// IPv6 /56 gets twice as many. A classroom behind one address needs more.
    #[arg(long, value_name = "N", default_value_t = MAX_CONNECTIONS_PER_CLIENT as u32,
          value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    max_connections_per_client: u32,
    /// Event streams one client holds at once on each of `/events`, `/live/events` and
    /// the live games (lowered to leave the client connections for pages).
    #[arg(long, value_name = "N", default_value_t = MAX_STREAMS_PER_CLIENT as u32,
          value_parser = clap::value_parser!(u32).range(1..=100_000))]
    max_streams_per_client: u32,
    /// Seconds an event stream lasts before the server ends it (the page reconnects)
    /// [default: 600].
    #[arg(long, value_name = "SECONDS", value_parser = seconds)]
    stream_lifetime: Option<Duration>,
    /// Seconds an event stream may go without news before the server ends it (the page
    /// reconnects) [default: 120].
    #[arg(long, value_name = "SECONDS", value_parser = seconds)]
    stream_idle: Option<Duration>,
    /// Submissions waiting or being built at once in all; when full, one from a network
    /// that used less build time lately takes the place of one from the network that
    /// used the most.
    #[arg(long, value_name = "N", default_value_t = MAX_PENDING_BUILDS as u32,
          value_parser = clap::value_parser!(u32).range(1..=100_000))]
    max_pending_builds: u32,
    /// Watchers one live game takes at once (`/live/N`); the next is refused with a 503.
    #[arg(long, value_name = "N", default_value_t = serve::MAX_WATCHERS_PER_GAME as u32,
          value_parser = clap::value_parser!(u32).range(1..=100_000))]
    max_watchers: u32,
    /// Seconds a client may take to send a request's headers; also how long an idle
    /// keep-alive connection stays open [default: 10].
    #[arg(long, value_name = "SECONDS", value_parser = seconds)]
    header_timeout: Option<Duration>,
    /// Seconds a client may take to send a request's body (a submission's upload)
    /// [default: 60].
    #[arg(long, value_name = "SECONDS", value_parser = seconds)]
    body_timeout: Option<Duration>,
    /// The challenge: `--dir` (this server plays the tournament) or `--store URL`
    /// (`challenge worker`s play it; the server schedules, pauses and shows it).
    #[command(flatten)]
    dir: DirArgs,
}

/// Serves until stopped.
pub fn run(args: &Args) -> Result<()> {
    let location = args.dir.location()?;
    if matches!(location, StoreLocation::Postgres(_)) && args.concurrency.is_some() {
        bail!(
            "--concurrency (-j) is for a challenge directory: on a PostgreSQL store (--store or CHALLENGE_STORE) the server plays no games; give `-j` to `challenge worker` instead"
        );
    }
    // Before the server starts: its submission queue has a builder per build slot.
    args.builds.apply();
    serve(&ServeOptions {
        location,
        bind: args.bind,
        admin_token: args.admin_token.clone(),
        concurrency: args.concurrency.unwrap_or(1) as usize,
        limits: Limits {
            header_timeout: args.header_timeout.unwrap_or(HEADER_TIMEOUT),
            body_timeout: args.body_timeout.unwrap_or(BODY_TIMEOUT),
            max_connections: args.max_connections as usize,
            max_connections_per_client: args.max_connections_per_client as usize,
            max_connections_per_network: 2 * args.max_connections_per_client as usize,
            max_streams: args.max_connections as usize / serve::STREAM_SHARE_DIVISOR,
            max_streams_per_client: args.max_streams_per_client as usize,
            stream_lifetime: args.stream_lifetime.unwrap_or(STREAM_LIFETIME),
            stream_idle: args.stream_idle.unwrap_or(STREAM_IDLE),
            max_pending_builds: args.max_pending_builds as usize,
            max_watchers_per_game: args.max_watchers as usize,
            ..Limits::default()
        },
    })
}

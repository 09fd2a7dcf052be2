//! `challenge worker`.

use std::time::Duration;

use anyhow::{Result, bail};
use league::{WorkerOptions, host_name, local_work_dir, work};
use store::{Encryption, PostgresStore, WorkerSession};

use super::args::{StoreUrl, seconds};
use super::interrupt;

/// Play a PostgreSQL store's tournament on this machine, beside workers on others.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    store: StoreUrl,
    /// Games played at once, each on its own pair of engine processes.
    #[arg(short = 'j', long, default_value_t = 1, allow_negative_numbers = true, value_parser = clap::value_parser!(u32).range(1..=1024))]
    concurrency: u32,
    #[command(flatten)]
    builds: super::args::BuildJobs,
    /// This worker's name in `challenge workers` and on its games (default: HOST-PID; for
    /// a worker's role ROLE, ROLE.HOST-PID: a role's workers are named ROLE or ROLE.ANY).
    #[arg(long)]
    name: Option<String>,
    /// Seconds a claimed game stays leased without a heartbeat (renewed every third of
    /// it while the game plays); a worker silent for longer loses its game to another.
    #[arg(long, value_name = "SECONDS", default_value = "60", value_parser = seconds)]
    lease: Duration,
    /// When no tournament is left to play, wait for the next one instead of stopping.
    #[arg(long)]
    wait: bool,
    /// Stop after this many games.
    #[arg(long, allow_negative_numbers = true, value_parser = clap::value_parser!(u64).range(1..=1_000_000_000))]
    max_games: Option<u64>,
}

/// A worker's name: 1 to 64 letters, digits, `_`, `-`, `.` or `@`.
fn check_worker_name(name: &str) -> Result<()> {
    let ok = !name.is_empty()
        && name.len() <= 64
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.' | '@'));
    if !ok {
        bail!("--name `{name}`: use 1 to 64 letters, digits, `_`, `-`, `.` or `@`");
    }
    Ok(())
}

/// The worker's name: `--name`, or HOST-PID, after the role's name and `.` for a
/// worker's role, whose workers act only under its name (the store refuses others).
fn worker_name(given: Option<&str>, session: &WorkerSession) -> Result<String> {
    let name = match given {
        Some(name) => name.to_string(),
        None if session.organiser => format!("{}-{}", host_name(), std::process::id()),
        None => {
            let name = format!("{}.{}-{}", session.role, host_name(), std::process::id());
            name.chars().take(64).collect()
        }
    };
    check_worker_name(&name)?;
    if !session.may_use(&name) {
        bail!(
            "--name `{name}`: this store's role `{role}` acts only as worker `{role}` or `{role}.SOMETHING` (one role cannot act under another worker's name)",
            role = session.role
        );
    }
    Ok(name)
}

/// `--lease`, lowered to the longest lease the organiser allows a worker's role (saying so).
fn fit_lease(asked: Duration, session: &WorkerSession) -> Duration {
    let max = Duration::from_secs(session.limits.max_lease_seconds);
    if session.organiser || asked <= max {
        return asked;
    }
    eprintln!(
        "note: the organiser allows leases of at most {} s; using that instead of --lease {}",
        max.as_secs(),
        asked.as_secs_f64()
    );
    max
}

/// Says so when the store is across a network and its connection is not verified TLS: a
/// worker's results and credentials then travel open to whoever sits on the path.
fn warn_if_unverified(store: &mut PostgresStore) -> Result<()> {
    if store.is_local()? {
        return Ok(());
    }
    let hint = "use sslmode=verify-full&sslrootcert=FILE in the store URL across a network";
    match store.encryption()? {
        Encryption::Verified => {}
        Encryption::RootChecked => eprintln!(
            "warning: the store's certificate is checked but not its host name (sslmode=verify-ca)"
        ),
        Encryption::Unverified => eprintln!(
            "warning: the store's connection is encrypted but its certificate is not checked: {hint}"
        ),
        Encryption::None => eprintln!(
            "warning: the store's connection is not encrypted (the server offers no TLS, or sslmode=disable): {hint}"
        ),
    }
    Ok(())
}

/// Connects, announces itself, plays until nothing is left (Ctrl-C stops it, giving
/// back the games in play).
pub fn run(args: &Args) -> Result<()> {
    args.builds.apply();
    if args.lease < Duration::from_secs(1) {
        bail!("--lease must be at least 1 second");
    }
    let mut store = PostgresStore::open(&args.store.url)?;
    warn_if_unverified(&mut store)?;
    let session = store.worker_session()?;
    let name = worker_name(args.name.as_deref(), &session)?;
    let lease = fit_lease(args.lease, &session);
    let stop =
        interrupt::stop_flag_saying("stopping: the games in play are given back to the store");
    eprintln!(
        "worker {name}: playing from {} with {} game(s) at once",
        store::EntryStore::location(&store),
        args.concurrency
    );
    if !session.organiser && u64::from(args.concurrency) > session.limits.max_leases {
        eprintln!(
            "worker {name}: note: the organiser lets role {} hold {} games at once over all its workers; threads beyond that wait",
            session.role, session.limits.max_leases
        );
    }
    let options = WorkerOptions {
        name: name.clone(),
        threads: args.concurrency as usize,
        lease,
        poll: (lease / 4).min(Duration::from_secs(2)),
        wait: args.wait,
        max_games: args.max_games.map(|m| m as usize),
        work_dir: local_work_dir(),
    };
    let report = work(&mut store, &options, &stop, &|event| eprintln!("{event}"))?;
    eprintln!(
        "worker {name}: {} games stored{}",
        report.stored,
        if report.refused > 0 {
            format!(
                ", {} refused (their leases had been taken over)",
                report.refused
            )
        } else {
            String::new()
        }
    );
    Ok(())
}

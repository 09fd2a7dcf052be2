//! `challenge workers`: the list, and `grant`/`revoke` of a worker's role.

use anyhow::{Context, Result};
use store::{PostgresStore, WorkerInfo, worker_url};

/// List the workers of a PostgreSQL store: what each is playing, games per hour; or give
/// a role a worker's rights (`grant`), or take them away (`revoke`).
#[derive(clap::Args, Debug)]
#[command(subcommand_negates_reqs = true, args_conflicts_with_subcommands = true)]
pub struct Args {
    /// The store: `postgres://USER:PASSWORD@HOST:PORT/DATABASE`.
    #[arg(
        long,
        value_name = "URL",
        env = "CHALLENGE_STORE",
        hide_env_values = true,
        required = true
    )]
    store: Option<String>,
    #[command(subcommand)]
    action: Option<Action>,
}

/// What to do with a worker's role.
#[derive(clap::Subcommand, Debug)]
enum Action {
    /// Give ROLE a worker's rights on the store and nothing more: claim, play and record
    /// games, read what it plays. Creates the role (LOGIN, with a generated password
    /// printed once) if it does not exist.
    Grant(RoleArgs),
    /// Take a worker's rights on the store away from ROLE (the role stays; `DROP ROLE`
    /// removes it).
    Revoke(RoleArgs),
}

#[derive(clap::Args, Debug)]
struct RoleArgs {
    /// The role: lowercase letters, digits and `_`, starting with a letter.
    role: String,
    /// The store (with the organiser's credentials): `postgres://USER:PASSWORD@HOST:PORT/DATABASE`.
    #[arg(
        long,
        value_name = "URL",
        env = "CHALLENGE_STORE",
        hide_env_values = true
    )]
    store: String,
    /// `grant` only: set a new generated password on an existing role (printed once).
    #[arg(long)]
    new_password: bool,
}

/// Lists the workers, or grants or revokes.
pub fn run(args: &Args) -> Result<()> {
    match &args.action {
        Some(Action::Grant(role)) => grant(role),
        Some(Action::Revoke(role)) => revoke(role),
        None => list(args.store.as_deref().context("--store URL is needed")?),
    }
}

fn grant(args: &RoleArgs) -> Result<()> {
    let mut store = PostgresStore::open(&args.store)?;
    let granted = store.grant_worker(&args.role, args.new_password)?;
    let role = &granted.role;
    println!(
        "role {role} {}: it may claim, play and record this store's games, and read their players' sources; nothing else",
        if granted.created {
            "created"
        } else {
            "granted"
        }
    );
    match &granted.password {
        Some(password) => {
            println!("password (shown once, not stored anywhere readable): {password}");
            println!("worker URL: {}", worker_url(&args.store, role, password)?);
            println!(
                "  give it to the worker machine in CHALLENGE_STORE (not on the command line), with the certificate of the authority that signed the server's in root.crt, and the host name in that certificate"
            );
        }
        None => println!(
            "its password is unchanged (--new-password sets a new one); connect as postgres://{role}:PASSWORD@HOST/DB?sslmode=verify-full&sslrootcert=root.crt"
        ),
    }
    if !granted.can_login {
        println!("note: role {role} may not log in yet: `ALTER ROLE {role} LOGIN` as its owner");
    }
    Ok(())
}

fn revoke(args: &RoleArgs) -> Result<()> {
    if args.new_password {
        anyhow::bail!("--new-password goes with `grant`, not `revoke`");
    }
    let mut store = PostgresStore::open(&args.store)?;
    let had = store.revoke_worker(&args.role)?;
    let role = &args.role;
    if had {
        println!(
            "role {role} can no longer read or write this store; `DROP ROLE {role}` removes the login itself"
        );
    } else {
        println!(
            "role {role} was not granted a worker's rights on this store; the rights a grant gives are revoked all the same"
        );
    }
    Ok(())
}

/// Prints one line per worker.
fn list(url: &str) -> Result<()> {
    let mut store = PostgresStore::open(url)?;
    let workers = store.workers()?;
    if workers.is_empty() {
        println!("no workers yet: start one with `challenge worker --store URL` on any machine");
        return Ok(());
    }
    println!(
        "{:<24} {:<16} {:>5} {:>3} {:<8} {:<14} {:>6} {:>7}  playing",
        "name", "host", "cores", "j", "kit", "state", "games", "games/h"
    );
    for w in &workers {
        println!(
            "{:<24} {:<16} {:>5} {:>3} {:<8} {:<14} {:>6} {:>7.1}  {}",
            w.name,
            w.host,
            w.cores,
            w.threads,
            w.kit_version,
            state(w),
            w.games,
            per_hour(w),
            if w.playing.is_empty() {
                "-".to_string()
            } else {
                w.playing.join(", ")
            }
        );
    }
    Ok(())
}

/// `running`, `stopped`, or `silent 5m` for one that stopped reporting in (it reports
/// every third of its lease).
fn state(w: &WorkerInfo) -> String {
    if w.stopped {
        "stopped".into()
    } else if w.seen_ago > w.lease_seconds {
        format!("silent {}", ago(w.seen_ago))
    } else {
        "running".into()
    }
}

fn ago(seconds: f64) -> String {
    match seconds {
        s if s < 120.0 => format!("{s:.0}s"),
        s if s < 7200.0 => format!("{:.0}m", s / 60.0),
        s => format!("{:.0}h", s / 3600.0),
    }
}

/// Games per hour over the last hour of its run (or since it started, if later; at
/// least a minute, so a fresh worker's first game does not read as a huge rate).
fn per_hour(w: &WorkerInfo) -> f64 {
    let window = w.running_for.clamp(60.0, 3600.0);
    w.games_last_hour as f64 * 3600.0 / window
}

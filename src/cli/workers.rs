//! `challenge workers`: the list, `grant`/`revoke` of a worker's role, `free` of a gone
//! worker's games, the organiser's `limits`, and `distrust`, which voids a worker's
//! results.

use anyhow::{Context, Result};
use store::{Access, PostgresStore, WorkerInfo, worker_url};

use super::args::{DirArgs, StoreUrl};

/// List the workers of a PostgreSQL store: what each is playing, games per hour; give a
/// role a worker's rights (`grant`) or take them away (`revoke`); free the games a gone
/// worker holds (`free`); bound what a worker's role may hold (`limits`); void what a worker
/// recorded (`distrust`); read the evidence of its claims (`claims`).
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
    /// removes it), and give the games its workers hold back to the others.
    Revoke(RoleArgs),
    /// Give the games worker NAME holds leased back to the others at once (a worker
    /// stopped or gone, whose leases would otherwise run out by themselves), and mark it
    /// stopped. Should it still be playing, its results are refused.
    Free(FreeArgs),
    /// Show, or set, what a worker's role may hold: games at once, the longest lease,
    /// the longest it may keep one game. The store's functions enforce them.
    Limits(LimitArgs),
    /// Void every result worker NAME recorded (a role's name: every worker of that role)
    /// and put their games back to be played; its claims are refused from now on. On a
    /// PostgreSQL store or a challenge directory.
    Distrust(DistrustArgs),
    /// List the games that end in an engine's fault the moves cannot show (a crash, a
    /// loss on time, an illegal move), each with whether it counts and its evidence: the
    /// clocks, the engine's answer and its stderr (the organiser's alone). On a
    /// PostgreSQL store or a challenge directory.
    Claims(ClaimsArgs),
}

#[derive(clap::Args, Debug)]
struct ClaimsArgs {
    /// Only the claims of this worker (a role's name: of every worker of that role).
    #[arg(long, value_name = "NAME")]
    worker: Option<String>,
    /// The challenge.
    #[command(flatten)]
    dir: DirArgs,
}

#[derive(clap::Args, Debug)]
struct DistrustArgs {
    /// The worker's name, as `challenge workers` or the standings' claims list it; a
    /// role's name (no `.`) stands for every worker of the role.
    name: String,
    /// The challenge, with the organiser's credentials for a PostgreSQL store.
    #[command(flatten)]
    dir: DirArgs,
}

#[derive(clap::Args, Debug)]
struct FreeArgs {
    /// The worker's name, as `challenge workers` lists it.
    name: String,
    /// The store, with the organiser's credentials.
    #[command(flatten)]
    store: StoreUrl,
}

#[derive(clap::Args, Debug)]
struct LimitArgs {
    /// Games a role may hold leased at once, over all its workers.
    #[arg(long, value_name = "N")]
    max_leases: Option<u64>,
    /// The longest lease a worker may ask for (seconds): one silent for longer loses its
    /// games. Longer `--lease`s are lowered to it.
    #[arg(long, value_name = "SECONDS")]
    max_lease: Option<u64>,
    /// The longest a worker may keep one game, renewals included (seconds): its build and
    /// the game must fit; after it the game goes to another worker.
    #[arg(long, value_name = "SECONDS")]
    max_hold: Option<u64>,
    /// The store, with the organiser's credentials to set them.
    #[command(flatten)]
    store: StoreUrl,
}

#[derive(clap::Args, Debug)]
struct RoleArgs {
    /// The role: lowercase letters, digits and `_`, starting with a letter.
    role: String,
    /// The store, with the organiser's credentials.
    #[command(flatten)]
    store: StoreUrl,
    /// `grant` only: set a new generated password on an existing role (printed once).
    #[arg(long)]
    new_password: bool,
}

/// Lists the workers, or grants or revokes.
pub fn run(args: &Args) -> Result<()> {
    match &args.action {
        Some(Action::Grant(role)) => grant(role),
        Some(Action::Revoke(role)) => revoke(role),
        Some(Action::Free(free)) => free_leases(free),
        Some(Action::Limits(limits)) => set_limits(limits),
        Some(Action::Distrust(distrust)) => distrust_worker(distrust),
        Some(Action::Claims(claims)) => list_claims(claims),
        None => list(args.store.as_deref().context("--store URL is needed")?),
    }
}

fn grant(args: &RoleArgs) -> Result<()> {
    let mut store = PostgresStore::open(&args.store.url)?;
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
            println!(
                "worker URL: {}",
                worker_url(&args.store.url, role, password)?
            );
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
    let mut store = PostgresStore::open(&args.store.url)?;
    let revoked = store.revoke_worker(&args.role)?;
    let role = &args.role;
    if revoked.granted {
        println!(
            "role {role} can no longer read or write this store; `DROP ROLE {role}` removes the login itself"
        );
    } else {
        println!(
            "role {role} was not granted a worker's rights on this store; the rights a grant gives are revoked all the same"
        );
    }
    println!(
        "{} games its workers held are free for the other workers",
        revoked.freed
    );
    Ok(())
}

fn free_leases(args: &FreeArgs) -> Result<()> {
    let mut store = PostgresStore::open(&args.store.url)?;
    let freed = store.free_worker_leases(&args.name)?;
    println!(
        "{freed} games worker {} held are free for the other workers (should it still be playing them, their results will be refused)",
        args.name
    );
    Ok(())
}

fn distrust_worker(args: &DistrustArgs) -> Result<()> {
    let mut store = args.dir.open(Access::Write)?;
    let name = &args.name;
    let done = store.distrust_worker(name)?;
    let who = if name.contains('.') {
        format!("worker {name}")
    } else {
        format!("worker {name} (and every worker named {name}.…)")
    };
    println!(
        "{who} is distrusted{}: {} games it recorded are void and will be played again; its claims are refused from now on",
        if done.already {
            " (it already was)"
        } else {
            ""
        },
        done.voided
    );
    for t in &done.reopened {
        println!(
            "tournament {} is open again for those games: `challenge run` (or `challenge serve`) plays or organises it",
            t.0
        );
    }
    Ok(())
}

fn list_claims(args: &ClaimsArgs) -> Result<()> {
    let store = args.dir.open(Access::Read)?;
    let of_worker = |worker: &str| {
        args.worker.as_deref().is_none_or(|name| {
            worker == name || (!name.contains('.') && store::worker_role(worker) == name)
        })
    };
    // Every game is checked, so a claim another worker's game confirmed says so.
    let all = store.games(true)?;
    let mut verdicts = results::Verdicts::default();
    verdicts.check_new(store.as_ref(), &all)?;
    let names: std::collections::HashMap<_, _> = store
        .versions()?
        .into_iter()
        .map(|v| (v.id, v.player_name()))
        .collect();
    let claims: Vec<&store::Game> = all
        .iter()
        .filter(|g| g.termination.is_fault() && of_worker(g.worker.as_deref().unwrap_or("")))
        .collect();
    if claims.is_empty() {
        println!("no claimed engine faults");
    }
    for g in claims {
        let Some(verdict) = verdicts.get(g.id) else {
            continue;
        };
        println!(
            "game {} ({} - {}, {} by {}, recorded by {}): {}",
            g.id,
            names.get(&g.white).map_or("?", String::as_str),
            names.get(&g.black).map_or("?", String::as_str),
            g.result,
            g.termination,
            g.worker.as_deref().unwrap_or("an unknown process"),
            verdict_said(verdict)
        );
        let Some(evidence) = &g.evidence else {
            println!("  no evidence");
            continue;
        };
        println!("  clocks: {}", results::clocks_said(evidence));
        if let Some(answer) = &evidence.answer {
            println!("  answer: {answer}");
        }
        for line in &evidence.stderr {
            println!("  stderr: {line}");
        }
    }
    Ok(())
}

/// Whether a claim counts, in words.
fn verdict_said(verdict: &results::Verdict) -> String {
    match verdict {
        results::Verdict::Shown | results::Verdict::Claimed => "counted".into(),
        results::Verdict::Confirmed { by } => format!("counted, confirmed by {by}"),
        results::Verdict::Unconfirmed => {
            "not counted until a worker of another role confirms it".into()
        }
        results::Verdict::Refused(reason) => format!("not counted: {reason}"),
    }
}

fn set_limits(args: &LimitArgs) -> Result<()> {
    let mut store = PostgresStore::open(&args.store.url)?;
    let mut limits = store.worker_session()?.limits;
    let change = args.max_leases.is_some() || args.max_lease.is_some() || args.max_hold.is_some();
    if change {
        limits.max_leases = args.max_leases.unwrap_or(limits.max_leases);
        limits.max_lease_seconds = args.max_lease.unwrap_or(limits.max_lease_seconds);
        limits.max_hold_seconds = args.max_hold.unwrap_or(limits.max_hold_seconds);
        store.set_worker_limits(&limits)?;
    }
    println!(
        "a worker's role may hold {} games at once, ask for leases of at most {} s, and keep one game at most {} s{}",
        limits.max_leases,
        limits.max_lease_seconds,
        limits.max_hold_seconds,
        if change { " (set now)" } else { "" }
    );
    Ok(())
}

/// Prints one line per worker.
fn list(url: &str) -> Result<()> {
    let mut store = PostgresStore::open(url)?;
    let workers = store.workers()?;
    if workers.is_empty() {
        println!("no workers yet: {}", league::START_A_WORKER);
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

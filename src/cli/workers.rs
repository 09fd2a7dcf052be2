//! `challenge workers`.

use anyhow::Result;
use store::{PostgresStore, WorkerInfo};

/// List the workers of a PostgreSQL store: what each is playing, games per hour.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The store: `postgres://USER:PASSWORD@HOST:PORT/DATABASE`.
    #[arg(
        long,
        value_name = "URL",
        env = "CHALLENGE_STORE",
        hide_env_values = true
    )]
    store: String,
}

/// Prints one line per worker.
pub fn run(args: &Args) -> Result<()> {
    let mut store = PostgresStore::connect(&args.store)?;
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

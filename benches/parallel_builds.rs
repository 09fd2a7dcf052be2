//! Bots built per minute from an empty engine cache: what a fresh worker meeting a large
//! field spends before it plays at full speed. A field of distinct bots (copies of the
//! kit's `bot/*.rs`, each with a constant of its own, so no two share a cache entry) is
//! built through `bot_build::build` as `Untrusted` builds (how `run`, `worker`
//! and `serve` build entries), with 1, then 2, ... builds at once.
//!
//! Each figure starts from a build directory of its own whose framework is already
//! compiled (a warm-up bot, not counted): the framework is compiled once per machine, and
//! what a new entry costs after that is the question.
//!
//! Run: `cargo bench --bench parallel_builds` (optionally `-- BOTS JOBS...`, default
//! `100 1 2`). It prints bots/minute for each job count; nothing is asserted. The build
//! directories are under `target/tmp/parallel-builds-bench` and are removed afterwards.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use bot_build::BotFile;
use bot_build::{BuildKind, build};

/// Writes `count` distinct bots into `dir`, round-robin over the kit's bot files.
fn field(dir: &Path, count: usize) -> Vec<BotFile> {
    let root = Path::new(bot_build::KIT_ROOT).join("bot");
    let mut sources: Vec<PathBuf> = ["my_bot.rs", "turochamp_modern.rs", "turochamp_faithful.rs"]
        .iter()
        .map(|name| root.join(name))
        .collect();
    sources.retain(|path| path.is_file());
    assert!(!sources.is_empty(), "the kit's bot files");
    (0..count)
        .map(|i| {
            let original = std::fs::read_to_string(&sources[i % sources.len()]).expect("a bot");
            let path = dir.join(format!("field_{i}.rs"));
            // A constant of its own: a distinct source, so a distinct cache entry.
            let source = format!("{original}\n#[allow(dead_code)]\nconst VARIANT: u64 = {i};\n");
            std::fs::write(&path, source).expect("write a bot");
            BotFile {
                name: format!("field_{i}"),
                path,
            }
        })
        .collect()
}

/// Builds every bot with `jobs` threads, each taking the next unbuilt one; minutes taken.
fn build_field(bots: &[BotFile], jobs: usize) -> f64 {
    let next = AtomicUsize::new(0);
    let start = Instant::now();
    std::thread::scope(|scope| {
        for _ in 0..jobs {
            scope.spawn(|| {
                while let Some(bot) = bots.get(next.fetch_add(1, Ordering::Relaxed)) {
                    let engine = build(bot, BuildKind::Untrusted, &|_| {}).expect("the bot builds");
                    assert!(!engine.cached, "a distinct bot is never a cache hit");
                }
            });
        }
    });
    start.elapsed().as_secs_f64() / 60.0
}

fn main() {
    let numbers: Vec<usize> = std::env::args()
        .skip(1)
        .filter_map(|arg| arg.parse().ok())
        .collect();
    let count = numbers.first().copied().unwrap_or(100);
    let jobs: Vec<usize> = match numbers.get(1..) {
        Some(rest) if !rest.is_empty() => rest.to_vec(),
        _ => vec![1, 2],
    };
    let base = Path::new(bot_build::KIT_ROOT)
        .join("target")
        .join("tmp")
        .join("parallel-builds-bench");
    let mut rates = Vec::new();
    for &j in &jobs {
        let dir = base.join(format!("j{j}"));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("bots")).expect("scratch directory");
        // SAFETY: set before any thread of this benchmark starts.
        unsafe { std::env::set_var("CHALLENGE_BUILD_DIR", dir.join("build")) };
        set_jobs(j);
        let warm_up = field(&dir.join("bots"), count + 1).pop().expect("a bot");
        let warm = BotFile {
            name: "warm_up".into(),
            path: warm_up.path,
        };
        build(&warm, BuildKind::Untrusted, &|_| {}).expect("the framework builds");
        let bots = field(&dir.join("bots"), count);
        let minutes = build_field(&bots, j);
        let rate = count as f64 / minutes;
        println!(
            "-j{j}: {count} bots in {:.1} s: {rate:.1} bots/minute",
            minutes * 60.0
        );
        rates.push((j, rate));
        let _ = std::fs::remove_dir_all(&dir);
    }
    if let [(1, one), .., (j, last)] = rates[..] {
        println!(
            "scaling -j1 -> -j{j}: {:.2}x ({:.0}% of linear)",
            last / one,
            100.0 * last / one / j as f64
        );
    }
}

/// Allows `jobs` builds at once in this process (the build API's own bound).
fn set_jobs(jobs: usize) {
    let allowed = bot_build::set_build_jobs(jobs);
    assert_eq!(
        allowed, jobs,
        "the machine's memory allows {allowed} builds at once"
    );
}

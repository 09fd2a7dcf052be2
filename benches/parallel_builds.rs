//! Bots built per minute from an empty engine cache: what a fresh worker meeting a large
//! field spends before it plays at full speed. A field of distinct bots, copies of the
//! kit's own non-trivial bot files (`evil_bot.rs`, a small sparring partner, and the two
//! Turochamps, which are near the 1024-token limit as real entries are) each with a
//! constant of its own, so no two share a cache entry, is built through
//! `kit::engine_build::build` as `Untrusted` builds (how `run`, `worker` and `serve` build
//! entries), with 1, then 2, ... builds at once. The starter `my_bot.rs` is left out: it
//! plays the first legal move, and no entry is that small.
//!
//! The framework is compiled first, by the build of a warm-up bot, in a new build
//! directory: that is paid once per build directory (a fresh worker's first build), and
//! is printed apart from the field's figures. Each job count then starts with the engine
//! cache emptied (`engine_build::clean`, which keeps the compiled framework) and builds a
//! field of its own.
//!
//! The machine may be shared, so every figure comes with the 1-minute load average before
//! and after it, and with the CPU time the builds' processes (cargo, rustc, the linker)
//! used per bot, which the load does not change much.
//!
//! Run: `cargo bench --bench parallel_builds` (optionally `-- BOTS JOBS...`, default
//! `20 1 2`). Nothing is asserted. The build directories are under
//! `target/tmp/parallel-builds-bench` and are removed afterwards.

use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use kit::bots::BotFile;
use kit::engine_build::{BuildKind, build};

/// The bot files the field is copied from, round-robin.
const SOURCES: [&str; 3] = [
    "evil_bot.rs",
    "turochamp_modern.rs",
    "turochamp_faithful.rs",
];

/// Writes `count` distinct bots into `dir`, numbered from `first`, round-robin over
/// [`SOURCES`].
fn field(dir: &Path, first: usize, count: usize) -> Vec<BotFile> {
    let root = Path::new(kit::bots::KIT_ROOT).join("bot");
    let sources: Vec<String> = SOURCES
        .iter()
        .map(|name| std::fs::read_to_string(root.join(name)).expect("a kit bot file"))
        .collect();
    (first..first + count)
        .map(|i| {
            let path = dir.join(format!("field_{i}.rs"));
            // A constant of its own: a distinct source, so a distinct cache entry.
            let original = &sources[i % sources.len()];
            let source = format!("{original}\n#[allow(dead_code)]\nconst VARIANT: u64 = {i};\n");
            std::fs::write(&path, source).expect("write a bot");
            BotFile {
                name: format!("field_{i}"),
                path,
            }
        })
        .collect()
}

/// The 1-minute load average.
fn load_average() -> f64 {
    std::fs::read_to_string("/proc/loadavg")
        .ok()
        .and_then(|text| text.split_whitespace().next()?.parse().ok())
        .unwrap_or(f64::NAN)
}

/// CPU time (user and system) used so far by this process's finished children: the
/// builds' cargo, rustc and linker processes.
fn children_cpu() -> Duration {
    // SAFETY: `getrusage` only writes the struct it is given.
    let usage = unsafe {
        let mut usage = std::mem::zeroed::<libc::rusage>();
        libc::getrusage(libc::RUSAGE_CHILDREN, &mut usage);
        usage
    };
    let time = |t: libc::timeval| {
        Duration::from_secs(t.tv_sec as u64) + Duration::from_micros(t.tv_usec as u64)
    };
    time(usage.ru_utime) + time(usage.ru_stime)
}

/// What one stretch of building took.
struct Measured {
    wall: Duration,
    cpu: Duration,
    load: (f64, f64),
}

/// Runs `work`, measuring its wall time, its children's CPU time and the load around it.
fn measure(work: impl FnOnce()) -> Measured {
    let (load, cpu, start) = (load_average(), children_cpu(), Instant::now());
    work();
    Measured {
        wall: start.elapsed(),
        cpu: children_cpu() - cpu,
        load: (load, load_average()),
    }
}

/// Builds every bot with `jobs` threads, each taking the next unbuilt one.
fn build_field(bots: &[BotFile], jobs: usize) {
    let next = AtomicUsize::new(0);
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
}

/// The arguments: the number of bots, then the job counts.
fn arguments() -> (usize, Vec<usize>) {
    let numbers: Vec<usize> = std::env::args()
        .skip(1)
        .filter_map(|arg| arg.parse().ok())
        .collect();
    let count = numbers.first().copied().unwrap_or(20);
    match numbers.get(1..) {
        Some(rest) if !rest.is_empty() => (count, rest.to_vec()),
        _ => (count, vec![1, 2]),
    }
}

fn main() {
    let (count, jobs) = arguments();
    let base = Path::new(kit::bots::KIT_ROOT)
        .join("target")
        .join("tmp")
        .join("parallel-builds-bench");
    let _ = std::fs::remove_dir_all(&base);
    std::fs::create_dir_all(base.join("bots")).expect("scratch directory");
    let build_dir = base.join("build");
    // SAFETY: set before any thread of this benchmark starts.
    unsafe { std::env::set_var("CHALLENGE_BUILD_DIR", &build_dir) };
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    println!(
        "{count} distinct copies of {} a job count, on {cores} cores",
        SOURCES.join(", ")
    );
    // Numbered after every field, so it is no copy of theirs.
    let warm_up = field(&base.join("bots"), jobs.len() * count, 1);
    let framework = measure(|| {
        build(&warm_up[0], BuildKind::Untrusted, &|_| {}).expect("the framework builds");
    });
    println!(
        "framework and one bot, from an empty build directory: {:.1} s, {:.1} CPU-s; load \
         average {:.2} -> {:.2}",
        framework.wall.as_secs_f64(),
        framework.cpu.as_secs_f64(),
        framework.load.0,
        framework.load.1
    );
    let mut rates = Vec::new();
    for (phase, &j) in jobs.iter().enumerate() {
        kit::engine_build::clean(&build_dir, false).expect("the engine cache empties");
        set_jobs(j);
        let bots = field(&base.join("bots"), phase * count, count);
        let built = measure(|| build_field(&bots, j));
        report(j, count, &built);
        rates.push((j, count as f64 / built.wall.as_secs_f64() * 60.0));
    }
    let _ = std::fs::remove_dir_all(&base);
    if let [(1, one), .., (j, last)] = rates[..] {
        println!(
            "scaling -j1 -> -j{j}: {:.2}x ({:.0}% of linear)",
            last / one,
            100.0 * last / one / j as f64
        );
    }
}

/// Prints one job count's figures.
fn report(jobs: usize, count: usize, built: &Measured) {
    let minutes = built.wall.as_secs_f64() / 60.0;
    println!(
        "-j{jobs}: {count} bots in {:.1} s: {:.1} bots/minute, {:.2} CPU-s a bot; load \
         average {:.2} -> {:.2}",
        built.wall.as_secs_f64(),
        count as f64 / minutes,
        built.cpu.as_secs_f64() / count as f64,
        built.load.0,
        built.load.1
    );
}

/// Allows `jobs` builds at once in this process (the build API's own bound).
fn set_jobs(jobs: usize) {
    let allowed = kit::engine_build::set_build_jobs(jobs);
    assert_eq!(
        allowed, jobs,
        "the machine's memory allows {allowed} builds at once"
    );
}

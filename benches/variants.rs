//! A variant sweep's build cost: the first variant of a bot against the next ones. Measured
//! on copies of `bot/turochamp_faithful.rs` (a reference bot of the full 1024 tokens, whose
//! `DEPTH` is marked `// vary 1..=4`), each copy at a fresh path so that its variants are
//! a bot the kit has never seen, with the framework already compiled, through
//! `bot_build::resolve` and `bot_build::build` (what every command that takes a bot
//! spec does).
//!
//! Four figures from the same run, per round:
//! - first variant: `COPY@DEPTH=1`, the first of its bot (a new crate, compiled from nothing
//!   but the framework);
//! - next variant: `COPY@DEPTH=2`, built in the same crate (incremental: a literal changed);
//! - third variant: `COPY@DEPTH=4`, after the second;
//! - cached: `COPY@DEPTH=2` again (its engine from the cache).
//!
//! Run: `cargo bench --bench variants` (optionally `-- ROUNDS`, default 5). It prints the
//! medians and the ratio of a next variant to a first one; nothing is asserted. Each
//! round's copy and variant files are removed; their engines stay in the cache like any
//! bot's (`challenge clean` removes them).

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use bot_build::{BuildKind, build};

/// Makes and builds the variant `spec`, as a command does: its time, and whether its
/// engine came from the cache.
fn timed(spec: &str) -> (Duration, bool, PathBuf) {
    let start = Instant::now();
    let bot = bot_build::resolve(spec).expect("the variant is made");
    let engine = build(&bot, BuildKind::Local, &|_| {}).expect("the variant builds");
    (start.elapsed(), engine.cached, bot.path)
}

fn median(mut samples: Vec<Duration>) -> f64 {
    samples.sort();
    samples[samples.len() / 2].as_secs_f64()
}

fn nonce() -> u128 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |t| t.as_nanos())
}

fn main() {
    let rounds: usize = std::env::args()
        .skip(1)
        .find_map(|arg| arg.parse().ok())
        .unwrap_or(5);
    let root = Path::new(bot_build::KIT_ROOT);
    let original = std::fs::read_to_string(root.join("bot").join("turochamp_faithful.rs"))
        .expect("the reference bot");
    let scratch = root.join("target").join("tmp").join("variants-bench");
    // Warm-up: the framework compiled, outside the figures.
    let warm = copy(&scratch, &original);
    round(&warm);

    let mut figures: [Vec<Duration>; 4] = Default::default();
    for k in 0..rounds {
        let bot = copy(&scratch, &original);
        let times = round(&bot);
        eprintln!(
            "round {}: first variant {:.2} s, next {:.2} s, third {:.2} s, cached {:.1} ms",
            k + 1,
            times[0].as_secs_f64(),
            times[1].as_secs_f64(),
            times[2].as_secs_f64(),
            times[3].as_secs_f64() * 1e3
        );
        for (samples, time) in figures.iter_mut().zip(times) {
            samples.push(time);
        }
    }
    let [first, next, third, cached] = figures.map(median);
    println!("first variant of a bot (a new crate), median of {rounds}: {first:.2} s");
    println!("next variant (same crate, incremental): {next:.2} s");
    println!("third variant: {third:.2} s");
    println!("cached variant: {:.1} ms", cached * 1e3);
    println!(
        "next / first = {:.2} ({:.1}x faster)",
        next / first,
        first / next
    );
    let _ = std::fs::remove_dir_all(&scratch);
}

/// A copy of the bot at a fresh path: a bot the kit has never built.
fn copy(scratch: &Path, source: &str) -> PathBuf {
    let dir = scratch.join(nonce().to_string());
    std::fs::create_dir_all(&dir).expect("scratch directory");
    let path = dir.join("faithful_copy.rs");
    std::fs::write(&path, source).expect("write the bot");
    path
}

/// The first, next and third variants of `bot` and the next again (cached); removes the
/// copy and its variants' folder.
fn round(bot: &Path) -> [Duration; 4] {
    let spec = |depth: u32| format!("{}@DEPTH={depth}", bot.display());
    let (first, cached, file) = timed(&spec(1));
    assert!(!cached, "a new bot's variant is built");
    let (next, cached, _) = timed(&spec(2));
    assert!(!cached, "a new variant is built");
    let (third, _, _) = timed(&spec(4));
    let (again, cached, _) = timed(&spec(2));
    assert!(cached, "an unchanged variant comes from the cache");
    if let Some(family) = file.parent() {
        let _ = std::fs::remove_dir_all(family);
    }
    let _ = std::fs::remove_dir_all(bot.parent().expect("the copy's folder"));
    [first, next, third, again]
}

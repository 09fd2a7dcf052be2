//! The bot author's loop: edit one line of a bot, get its rebuilt engine. Measured on a
//! copy of `bot/turochamp_modern.rs` (a real bot of the full 1024 tokens) at a fixed path,
//! with the framework already compiled, through `bot_build::build` (what every
//! command that takes a bot does). Each edit changes a piece value, a real code change,
//! and a comment with a fresh nonce, so the result is never a cache hit.
//!
//! Four figures from the same run, interleaved:
//! - edit: the edited bot rebuilt in its own crate (incremental: only what the edit touched);
//! - fresh crate: the same source as a bot the cache has never seen (a new crate, compiled
//!   from nothing but the framework): what every edit cost before bots kept their crate;
//! - untrusted: the same source as a submission or stored entry is built (a new crate,
//!   with no incremental state, removed once the engine is copied out);
//! - cached: the unchanged bot again (the cache lookup; the floor of the loop).
//!
//! Run: `cargo bench --bench edit_loop` (optionally `-- ROUNDS`, default 5). It prints the
//! medians and the ratio of edit to fresh crate; nothing is asserted. The fresh crates'
//! engines stay in the cache like any bot's (`challenge clean` removes them).

use std::path::Path;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use bot_build::BotFile;
use bot_build::{BuildKind, build};

fn bot_at(path: &Path) -> BotFile {
    BotFile {
        name: path.display().to_string(),
        path: path.to_path_buf(),
    }
}

/// The bot source with its pawn value set to `pawn` and a nonce comment.
fn edited(original: &str, pawn: u32, nonce: u128) -> String {
    let line = "pub const V: [i32; 6] = [20,";
    assert!(original.contains(line), "the bot still has its value table");
    let changed = original.replacen(line, &format!("pub const V: [i32; 6] = [{pawn},"), 1);
    format!("{changed}\n// edit {nonce}\n")
}

fn timed(bot: &BotFile, kind: BuildKind) -> (Duration, bool) {
    let start = Instant::now();
    let engine = build(bot, kind, &|_| {}).expect("the bot builds");
    (start.elapsed(), engine.cached)
}

fn median(mut samples: Vec<Duration>) -> Duration {
    samples.sort();
    samples[samples.len() / 2]
}

fn main() {
    let rounds: u32 = std::env::args()
        .skip(1)
        .find_map(|arg| arg.parse().ok())
        .unwrap_or(5);
    let root = Path::new(bot_build::KIT_ROOT);
    let original = std::fs::read_to_string(root.join("bot").join("turochamp_modern.rs"))
        .expect("the reference bot");
    let dir = root.join("target").join("tmp").join("edit-loop-bench");
    std::fs::create_dir_all(&dir).expect("scratch directory");
    let probe = dir.join("edited_bot.rs");
    let nonce = || {
        SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |t| t.as_nanos())
    };
    // Warm-up: the framework compiled and the probe's crate built once.
    std::fs::write(&probe, edited(&original, 19, nonce())).expect("write the bot");
    timed(&bot_at(&probe), BuildKind::Local);

    let mut samples = Samples::default();
    for round in 0..rounds {
        let source = edited(&original, 20 + round % 2, nonce());
        std::fs::write(&probe, &source).expect("write the bot");
        samples.round(&probe, &source, nonce);
        let [edit, fresh, untrusted, cached] = samples.last();
        eprintln!(
            "round {}: edit {edit:.2} s, fresh crate {fresh:.2} s, untrusted {untrusted:.2} s, \
             cached {:.1} ms",
            round + 1,
            cached * 1e3
        );
    }
    samples.report(rounds);
}

/// The timings of every round so far.
#[derive(Default)]
struct Samples {
    edits: Vec<Duration>,
    fresh: Vec<Duration>,
    untrusted: Vec<Duration>,
    cached: Vec<Duration>,
}

impl Samples {
    /// One round: the probe (just edited to `source`) rebuilt, then again from the
    /// cache, then the same source as a new local bot and as an untrusted one.
    fn round(&mut self, probe: &Path, source: &str, nonce: impl Fn() -> u128) {
        let (time, was_cached) = timed(&bot_at(probe), BuildKind::Local);
        assert!(!was_cached, "an edit is never a cache hit");
        self.edits.push(time);

        let (time, was_cached) = timed(&bot_at(probe), BuildKind::Local);
        assert!(was_cached, "the unchanged bot comes from the cache");
        self.cached.push(time);

        let dir = probe.parent().expect("the probe is in a folder");
        for (kind, samples) in [
            (BuildKind::Local, &mut self.fresh),
            (BuildKind::Untrusted, &mut self.untrusted),
        ] {
            let stranger = dir.join(format!("fresh_{}.rs", nonce()));
            std::fs::write(&stranger, source).expect("write the bot");
            samples.push(timed(&bot_at(&stranger), kind).0);
            let _ = std::fs::remove_file(&stranger);
        }
    }

    /// The last round's figures in seconds: edit, fresh crate, untrusted, cached.
    fn last(&self) -> [f64; 4] {
        [&self.edits, &self.fresh, &self.untrusted, &self.cached]
            .map(|samples| samples.last().map_or(0.0, Duration::as_secs_f64))
    }

    fn report(self, rounds: u32) {
        let edit = median(self.edits).as_secs_f64();
        let fresh = median(self.fresh).as_secs_f64();
        let untrusted = median(self.untrusted).as_secs_f64();
        let cached = median(self.cached).as_secs_f64();
        println!("edit -> rebuilt engine, median of {rounds}: {edit:.2} s");
        println!("same source in a fresh crate (the old loop): {fresh:.2} s");
        println!("same source built as untrusted (no incremental state): {untrusted:.2} s");
        println!("cached lookup of the unchanged bot: {:.1} ms", cached * 1e3);
        println!(
            "edit / fresh crate = {:.2} ({:.1}x faster)",
            edit / fresh,
            fresh / edit
        );
    }
}

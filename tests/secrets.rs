//! A bot's process holds nothing worth taking, on every path that starts a bot.
//!
//! `tests/bots/scans_memory.rs` reads its own process's memory through a rustc
//! soundness hole, with no `unsafe`, and looks for a marker. Each test here plants
//! that marker where a host keeps its secrets (the runner's environment, as
//! `CHALLENGE_ADMIN_TOKEN` and another variable; its command line; the store's URL),
//! builds the ordinary `decoy.rs` the way the path does, puts the scanner in the
//! cache in the decoy's place (as if it had slipped past the checker), and runs the
//! path again. The scanner reports `marker absent` or `marker FOUND` and then panics,
//! so its report comes back through the path's own fault record.
//!
//! The first test is the control: a process that was given the marker finds it,
//! even though the bots' host empties its environment before the bot exists.

#![cfg(all(
    target_os = "linux",
    any(target_arch = "x86_64", target_arch = "aarch64")
))]

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::Duration;

use common::{Engine, build, build_unchecked, kit_root, scratch_dir, test_bot};

/// What the tests plant; `scans_memory.rs` holds it XOR-ed.
const MARKER: &str = "kit-planted-secret-4f9c2e";

/// The runner's environment with the marker in it, as an organiser's server or a
/// worker would have it.
fn marked_env() -> Vec<(String, String)> {
    vec![
        ("CHALLENGE_ADMIN_TOKEN".into(), format!("{MARKER}-token")),
        ("SOME_CLOUD_KEY".into(), format!("{MARKER}-cloud")),
    ]
}

/// The scanner's report in `text`: its region count and whether it found the marker.
fn report(text: &str) -> Option<(usize, bool)> {
    let line = text.lines().find(|line| line.contains("memory scan: "))?;
    let at = line.find("memory scan: ")? + "memory scan: ".len();
    let regions = line[at..].split(' ').next()?.parse().ok()?;
    assert!(line.contains("view works: true"), "{line}");
    Some((regions, line.contains("marker FOUND")))
}

/// The scan ran over many mappings and did not find the marker; and the marker is
/// nowhere in what the path printed either.
fn assert_nothing_found(path: &str, text: &str) {
    let Some((regions, found)) = report(text) else {
        panic!("{path}: the scanner's report is not in the output:\n{text}");
    };
    assert!(
        regions >= 8,
        "{path}: only {regions} regions scanned:\n{text}"
    );
    assert!(!found, "{path}: the bot found the host's secret:\n{text}");
    assert!(
        !text.contains(MARKER),
        "{path}: the marker was printed:\n{text}"
    );
}

/// The scanner engine, built once per test binary.
fn scanner() -> PathBuf {
    static SCANNER: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    SCANNER
        .get_or_init(|| build_unchecked("scans_memory"))
        .clone()
}

/// Puts the scanner in place of every cached engine built from a bot named `name`
/// in the build directory `build_dir` (a rename, so an engine running meanwhile is
/// not disturbed).
fn plant(build_dir: &Path, name: &str) -> usize {
    let bin = build_dir.join("bin");
    let prefix = format!("bot_{name}_");
    let mut planted = 0;
    for entry in std::fs::read_dir(&bin).expect("the build directory has engines") {
        let path = entry.unwrap().path();
        let file = path.file_name().unwrap().to_string_lossy().into_owned();
        if file.starts_with(&prefix) && !file.contains('.') {
            let partial = path.with_extension("planting");
            std::fs::copy(scanner(), &partial).unwrap();
            std::fs::rename(&partial, &path).unwrap();
            planted += 1;
        }
    }
    assert!(planted > 0, "no engine of {name} in {}", bin.display());
    planted
}

/// The kit's build directory (where `challenge` without `CHALLENGE_BUILD_DIR` builds).
fn kit_build_dir() -> PathBuf {
    kit_root().join("target").join("bots")
}

/// `challenge ARGS` from the kit's root with the marked environment.
fn challenge_marked(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_challenge"))
        .args(args)
        .envs(marked_env())
        .current_dir(kit_root())
        .output()
        .expect("challenge runs")
}

fn all_output(output: &Output) -> String {
    format!(
        "{}\n{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    )
}

#[test]
fn a_process_given_the_marker_finds_it_though_the_host_empties_its_environment() {
    let env = marked_env();
    let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    let mut engine = Engine::start_with_env(&scanner(), &env);
    engine.send("uci");
    engine.send("ucinewgame");
    engine.send("isready");
    engine.send("position startpos");
    engine.send("go movetime 50");
    engine
        .wait_exit(Duration::from_secs(30))
        .expect("the scanner panics");
    let stderr = engine.stderr();
    let Some((regions, found)) = report(&stderr) else {
        panic!("no report:\n{stderr}");
    };
    assert!(regions >= 8, "{stderr}");
    assert!(
        found,
        "the scanner missed the marker it was given:\n{stderr}"
    );
}

#[test]
fn match_gives_a_bot_nothing_of_the_runners() {
    let decoy = test_bot("decoy");
    let decoy = decoy.to_str().unwrap();
    build(decoy);
    plant(&kit_build_dir(), "decoy");
    let dir = scratch_dir("secrets-match");
    let pgn = dir.join(format!("{MARKER}.pgn"));
    let json = dir.join("summary.json");
    let output = challenge_marked(&[
        "match",
        decoy,
        "evil_bot",
        "--games",
        "2",
        "--st",
        "0.05",
        "--pgn",
        pgn.to_str().unwrap(),
        "--json",
        json.to_str().unwrap(),
    ]);
    let text = format!(
        "{}\n{}",
        all_output(&output),
        std::fs::read_to_string(&json).unwrap_or_default()
    );
    assert_nothing_found("match", &text);
}

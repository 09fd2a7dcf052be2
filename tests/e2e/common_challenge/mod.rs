//! Helpers for the challenge's end-to-end tests: a temporary challenge directory, the
//! `challenge` binary run against it, and bot files written on the fly.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// The kit's checkout.
pub fn kit_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The `challenge` program the tests run: a hard link, made once per test process, to the
/// one cargo built for them. README's install step, which `install::` runs as written,
/// builds the program again without the server into the same target folder and puts it
/// at cargo's path, where a test started after it would find a program without the
/// commands it tests; the link keeps the tests' own build.
pub fn challenge_exe() -> &'static Path {
    static PATH: OnceLock<PathBuf> = OnceLock::new();
    PATH.get_or_init(|| {
        let built = Path::new(env!("CARGO_BIN_EXE_challenge"));
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("e2e-challenge");
        std::fs::create_dir_all(&dir).expect("the tests' scratch folder");
        let kept = dir.join(format!(
            "challenge-{}{}",
            std::process::id(),
            std::env::consts::EXE_SUFFIX
        ));
        // A link, not a copy: a copy being written while another thread forks can make
        // its exec fail with ETXTBSY; a link opens nothing for writing.
        let _ = std::fs::remove_file(&kept);
        std::fs::hard_link(built, &kept)
            .or_else(|_| std::fs::copy(built, &kept).map(drop))
            .expect("keep the tests' challenge program");
        kept
    })
}

/// A bot file of the kit (`bot/NAME.rs`) or of the fault tests (`tests/bots/NAME.rs`).
pub fn kit_bot(name: &str) -> PathBuf {
    let in_bot = kit_root().join("bot").join(format!("{name}.rs"));
    if in_bot.is_file() {
        in_bot
    } else {
        kit_root()
            .join("tests")
            .join("bots")
            .join(format!("{name}.rs"))
    }
}

/// A temporary directory removed when dropped (kept if the test panicked, to look at).
pub struct TempDir(PathBuf);

impl TempDir {
    pub fn new(label: &str) -> TempDir {
        static COUNT: AtomicUsize = AtomicUsize::new(0);
        let path = std::env::temp_dir().join(format!(
            "challenge-test-{label}-{}-{}",
            std::process::id(),
            COUNT.fetch_add(1, Ordering::Relaxed)
        ));
        let _ = std::fs::remove_dir_all(&path);
        std::fs::create_dir_all(&path).expect("create a temp dir");
        TempDir(path)
    }

    pub fn path(&self) -> &Path {
        &self.0
    }

    /// The challenge directory inside it.
    pub fn challenge(&self) -> PathBuf {
        self.0.join("challenge")
    }

    /// Writes a file into the temp dir and returns its path.
    pub fn write(&self, name: &str, text: &str) -> PathBuf {
        let path = self.0.join(name);
        std::fs::write(&path, text).expect("write a temp file");
        path
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        if !std::thread::panicking() {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }
}

/// The `challenge` command, run from the kit's root.
pub fn command() -> Command {
    let mut cmd = Command::new(challenge_exe());
    cmd.current_dir(kit_root());
    cmd
}

/// Runs `challenge ARGS --dir DIR` (the dir goes last so every subcommand gets it).
pub fn run(dir: &Path, args: &[&str]) -> Output {
    command()
        .args(args)
        .arg("--dir")
        .arg(dir)
        .output()
        .expect("challenge runs")
}

/// stdout and stderr as text, for assertion messages.
pub fn text(output: &Output) -> String {
    format!(
        "status {}\n--- stdout\n{}--- stderr\n{}",
        output.status,
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    )
}

/// Runs a command that must succeed and returns its stdout.
pub fn ok(dir: &Path, args: &[&str]) -> String {
    let output = run(dir, args);
    assert!(
        output.status.success(),
        "challenge {args:?} failed:\n{}",
        text(&output)
    );
    String::from_utf8(output.stdout).expect("utf-8 output")
}

/// `challenge ARGS --store URL`, which must succeed; its stdout.
pub fn ok_store(url: &str, args: &[&str]) -> String {
    let output = command()
        .args(args)
        .args(["--store", url])
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "challenge {args:?} failed:\n{}",
        text(&output)
    );
    String::from_utf8(output.stdout).expect("utf-8 output")
}

/// Submits a bot file that must be accepted.
pub fn submit(dir: &Path, file: &Path, name: &str) -> String {
    ok(dir, &["submit", file.to_str().unwrap(), "--name", name])
}

/// A bot that plays the first legal move, but after `after` plies of the game runs
/// `fault` instead (a statement block); the smoke test's positions have no history, so
/// such a bot passes the submission check and misbehaves only in real games.
pub fn late_fault_bot(after: usize, fault: &str) -> String {
    format!(
        "use framework::prelude::*;\n\
         #[derive(Default)]\n\
         pub struct MyBot;\n\
         impl Bot for MyBot {{\n\
         \x20   fn think(&mut self, board: Board, timer: Timer) -> Move {{\n\
         \x20       if board.history_moves().len() > {after} {{ {fault} }}\n\
         \x20       let _ = timer;\n\
         \x20       board.legal_moves()[0]\n\
         \x20   }}\n\
         }}\n"
    )
}

/// The standings as JSON.
pub fn standings(dir: &Path) -> serde_json::Value {
    serde_json::from_str(&ok(dir, &["standings", "--json"])).expect("standings JSON")
}

/// The standings row of `name`.
pub fn row<'a>(table: &'a serde_json::Value, name: &str) -> &'a serde_json::Value {
    table["rows"]
        .as_array()
        .expect("rows")
        .iter()
        .find(|r| r["name"] == name)
        .unwrap_or_else(|| panic!("no row for {name} in {table}"))
}

/// Polls `done` until it holds; fails naming `what` after `seconds`.
pub fn wait_for(what: &str, seconds: u64, mut done: impl FnMut() -> bool) {
    let start = Instant::now();
    while !done() {
        assert!(
            start.elapsed() < Duration::from_secs(seconds),
            "timed out after {seconds}s waiting for {what}"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

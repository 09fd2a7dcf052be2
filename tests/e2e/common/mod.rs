//! Shared helpers for the end-to-end tests: run `challenge`, build bot files,
//! and talk to engine processes with timeouts so no test can hang.

#![allow(dead_code)]

pub mod outside;

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, ExitStatus, Output, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The kit's checkout.
pub fn kit_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

pub use crate::common_challenge::challenge_exe;

/// A test bot file in `tests/bots/`.
pub fn test_bot(name: &str) -> PathBuf {
    kit_root()
        .join("tests")
        .join("bots")
        .join(format!("{name}.rs"))
}

/// `challenge` with the given arguments, run from the kit's root.
pub fn challenge(args: &[&str]) -> Output {
    Command::new(challenge_exe())
        .args(args)
        .current_dir(kit_root())
        .output()
        .expect("challenge runs")
}

/// Builds a bot (by name or path) and returns its engine executable.
pub fn build(bot: impl AsRef<Path>) -> PathBuf {
    let bot = bot.as_ref().to_str().expect("utf-8 path").to_string();
    let output = challenge(&["build", &bot]);
    assert!(
        output.status.success(),
        "building {bot} failed:\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    PathBuf::from(String::from_utf8(output.stdout).unwrap().trim())
}

/// Builds `tests/bots/NAME.rs` into an engine the way the kit does (the same
/// generated crate, host and sandbox), but without the rules check that
/// `challenge build` runs first: the hostile test bots break the rules on purpose.
pub fn build_unchecked(name: &str) -> PathBuf {
    let bot = bot_build::BotFile {
        name: format!("sandbox_test_{name}"),
        path: test_bot(name),
    };
    match bot_build::build(&bot, bot_build::BuildKind::Untrusted, &|_| {}) {
        Ok(engine) => engine.path,
        Err(err) => panic!("building {name} failed: {err:#}"),
    }
}

/// A running engine process under test.
pub struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    stderr: Arc<Mutex<String>>,
    /// The stderr collector: it ends at end of file, so joining it after the
    /// process exits means every line the process wrote has been collected.
    stderr_collector: Option<std::thread::JoinHandle<()>>,
}

impl Engine {
    pub fn start(executable: &Path) -> Engine {
        Engine::start_with_env(executable, &[])
    }

    /// Starts the engine with `env` added to the test's own environment.
    #[allow(dead_code)]
    pub fn start_with_env(executable: &Path, env: &[(&str, &str)]) -> Engine {
        let mut child = Command::new(executable)
            .envs(env.iter().copied())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("engine starts");
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().unwrap();
        let stderr_pipe = child.stderr.take().unwrap();
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let stderr = Arc::new(Mutex::new(String::new()));
        let sink = stderr.clone();
        let stderr_collector = std::thread::spawn(move || {
            for line in BufReader::new(stderr_pipe).lines() {
                let Ok(line) = line else { break };
                let mut text = sink.lock().unwrap();
                text.push_str(&line);
                text.push('\n');
            }
        });
        Engine {
            child,
            stdin,
            lines,
            stderr,
            stderr_collector: Some(stderr_collector),
        }
    }

    pub fn send(&mut self, line: &str) {
        if let Some(stdin) = self.stdin.as_mut() {
            // The engine may already be gone; the test checks what it said.
            let _ = writeln!(stdin, "{line}");
            let _ = stdin.flush();
        }
    }

    /// Every protocol line until one starts with `prefix`, or `None` on timeout
    /// or when the engine closes its output.
    pub fn read_until(&mut self, prefix: &str, timeout: Duration) -> Option<Vec<String>> {
        let deadline = Instant::now() + timeout;
        let mut seen = Vec::new();
        loop {
            let left = deadline.checked_duration_since(Instant::now())?;
            let line = self.lines.recv_timeout(left).ok()?;
            let done = line.starts_with(prefix);
            seen.push(line);
            if done {
                return Some(seen);
            }
        }
    }

    /// The line starting with `prefix`, or a panic naming what was seen.
    pub fn expect(&mut self, prefix: &str, timeout: Duration) -> String {
        match self.read_until(prefix, timeout) {
            Some(mut lines) => lines.pop().unwrap(),
            None => panic!(
                "no `{prefix}` within {timeout:?}; stderr:\n{}",
                self.stderr()
            ),
        }
    }

    /// What the process has written to stderr so far: the collector thread may
    /// still be behind, so a test waiting for a line uses [`Self::stderr_containing`].
    pub fn stderr(&self) -> String {
        self.stderr.lock().unwrap().clone()
    }

    /// Stderr once it contains `needle`, waiting up to `timeout` for the
    /// collector thread to catch up; `None` if it never does.
    pub fn stderr_containing(&self, needle: &str, timeout: Duration) -> Option<String> {
        let deadline = Instant::now() + timeout;
        loop {
            let text = self.stderr();
            if text.contains(needle) {
                return Some(text);
            }
            if Instant::now() >= deadline {
                return None;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
    }

    /// The exit status, if the process ends within `timeout`.
    pub fn wait_exit(&mut self, timeout: Duration) -> Option<ExitStatus> {
        let deadline = Instant::now() + timeout;
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                if let Some(collector) = self.stderr_collector.take() {
                    collector
                        .join()
                        .expect("the stderr collector does not panic");
                }
                return Some(status);
            }
            if Instant::now() > deadline {
                return None;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// `uci` and `isready`, checking the answers.
    pub fn handshake(&mut self) -> Vec<String> {
        self.send("uci");
        let lines = self
            .read_until("uciok", Duration::from_secs(10))
            .unwrap_or_else(|| panic!("no uciok; stderr:\n{}", self.stderr()));
        self.send("isready");
        self.expect("readyok", Duration::from_secs(10));
        lines
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A unique scratch directory for one test.
pub fn scratch_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("challenge-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

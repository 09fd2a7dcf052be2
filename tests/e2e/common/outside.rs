//! Outside programs the tests drive (Chromium, chromedriver, Stockfish, python3 with
//! selenium or python-chess, rustfmt, rust-analyzer, PostgreSQL's `initdb`): finding them, and what a
//! test does when one is missing.
//!
//! Under CI (the `CI` variable set to anything but empty, `0` or `false`) a missing
//! program FAILS the test, naming the program and how to install it: `.ci/run` installs
//! everything the tests need, so a test that skipped there would pass without having
//! checked anything. Outside CI a test that needs something optional may skip with a
//! printed note, so `cargo test` still works on a bare machine.
//!
//! How a test uses it:
//!
//! ```ignore
//! use crate::common::outside::{self, STOCKFISH};
//!
//! #[test]
//! fn against_stockfish() {
//!     // Skips (with a note) outside CI, fails under CI.
//!     let Some(stockfish) = outside::need(&STOCKFISH) else { return };
//!     // ... drive `stockfish`, a path to the executable
//! }
//! ```
//!
//! - [`need`]: the program, or `None` after a printed skip note (outside CI); panics
//!   under CI. For tests that are optional on a developer's machine.
//! - [`require`]: the program, or a panic everywhere. For what every test run needs
//!   (python-chess, rustfmt).
//! - [`missing`]: the same policy for something found by other means (the PostgreSQL
//!   helper looks in `/usr/lib/postgresql/*/bin` itself).
//! - A new program is a new [`Program`] constant here, so its install hint is written
//!   once.
//!
//! `CHALLENGE_TEST_HIDE=stockfish,chromium` makes [`find`] (and [`hidden`]) treat those
//! programs as not installed, so the failure under CI and the skip outside it can be
//! checked on a machine that has them.
//!
//! The end-to-end test binary gets this as `crate::common::outside`; other places
//! include the file by path (`#[path = ".../tests/e2e/common/outside.rs"] mod
//! outside;`), as `tests/e2e/postgres_server/mod.rs` and the token counter's tests do.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// An outside program a test can need.
pub struct Program {
    /// The name in messages and in `CHALLENGE_TEST_HIDE`.
    pub name: &'static str,
    /// A variable naming the executable, tried first (`CHROMIUM=/opt/chrome/chrome`).
    pub env: Option<&'static str>,
    /// Names looked up on `PATH`, or absolute paths, in order.
    pub candidates: &'static [&'static str],
    /// Arguments of a run that must succeed for the program to count as installed
    /// (`-c "import selenium"`); none: being an executable file is enough. It catches
    /// what a file check cannot: a python3 without the module, rustup's `rustfmt` proxy
    /// without the rustfmt component.
    pub probe: &'static [&'static str],
    /// How to install it, for the message when it is missing.
    pub install: &'static str,
}

/// Debian's Chromium (`chromium`, or `chromium-browser` elsewhere); `$CHROMIUM` wins.
pub const CHROMIUM: Program = Program {
    name: "chromium",
    env: Some("CHROMIUM"),
    candidates: &["chromium", "chromium-browser"],
    probe: &[],
    install: "`apt-get install chromium` (scripts/test installs it as root or with sudo)",
};

/// The WebDriver selenium drives Chromium with; `$CHROMEDRIVER` wins.
pub const CHROMEDRIVER: Program = Program {
    name: "chromedriver",
    env: Some("CHROMEDRIVER"),
    candidates: &["chromedriver"],
    probe: &[],
    install: "`apt-get install chromium-driver` (scripts/test installs it as root or with sudo)",
};

/// Stockfish: Debian puts it in `/usr/games`, which is often not on `PATH`.
pub const STOCKFISH: Program = Program {
    name: "stockfish",
    env: Some("STOCKFISH"),
    candidates: &["stockfish", "/usr/games/stockfish"],
    probe: &[],
    install: "`apt-get install stockfish` (scripts/test installs it as root or with sudo)",
};

/// A python3 that imports selenium (for the browser test).
pub const SELENIUM: Program = Program {
    name: "selenium",
    env: None,
    candidates: &["python3"],
    probe: &["-c", "import selenium"],
    install: "scripts/test installs it into a venv under target/ and puts that first on PATH \
              (or `pip install selenium`)",
};

/// A plain python3 (standard library only), for the kit's scripts under `scripts/`.
pub const PYTHON3: Program = Program {
    name: "python3",
    env: None,
    candidates: &["python3"],
    probe: &["-c", "import json"],
    install: "`apt-get install python3` (the kit's setup needs it already)",
};

/// A python3 that imports python-chess (a real UCI client and PGN reader).
pub const PYTHON_CHESS: Program = Program {
    name: "python-chess",
    env: None,
    candidates: &["python3"],
    probe: &["-c", "import chess, chess.engine, chess.pgn"],
    install: "scripts/test installs it into a venv under target/ and puts that first on PATH \
              (or `pip install chess`)",
};

/// rustfmt: comes with the toolchain's `rustfmt` component.
pub const RUSTFMT: Program = Program {
    name: "rustfmt",
    env: None,
    candidates: &["rustfmt"],
    probe: &["--version"],
    install: "`rustup component add rustfmt` (.ci/run adds it)",
};

/// rust-analyzer: comes with the toolchain's `rust-analyzer` component (rustup's proxy
/// without it fails the probe).
pub const RUST_ANALYZER: Program = Program {
    name: "rust-analyzer",
    env: None,
    candidates: &["rust-analyzer"],
    probe: &["--version"],
    install: "`rustup component add rust-analyzer` (.ci/run adds it)",
};

/// Whether this is a CI run, where nothing may skip.
pub fn under_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| !matches!(v.trim(), "" | "0" | "false" | "FALSE"))
}

/// Whether `CHALLENGE_TEST_HIDE` (a comma-separated list of names) hides `name`.
pub fn hidden(name: &str) -> bool {
    std::env::var("CHALLENGE_TEST_HIDE")
        .is_ok_and(|list| list.split(',').any(|hide| hide.trim() == name))
}

/// The program's executable, if it is installed (and not hidden), else `None`.
pub fn find(program: &Program) -> Option<PathBuf> {
    if hidden(program.name) {
        return None;
    }
    let from_env = program
        .env
        .and_then(std::env::var_os)
        .filter(|v| !v.is_empty())
        .map(PathBuf::from);
    // A variable that names a program replaces the search: a wrong one should be noticed,
    // not quietly replaced by whatever else is installed.
    let candidates: Vec<PathBuf> = match from_env {
        Some(path) => vec![path],
        None => program.candidates.iter().map(PathBuf::from).collect(),
    };
    candidates
        .iter()
        .filter_map(|c| on_path(c))
        .find(|exe| runs(exe, program.probe))
}

/// The program, or `None` after a note that the test skipped; under CI a panic that
/// names the program and how to install it. Use as
/// `let Some(exe) = outside::need(&STOCKFISH) else { return };`.
#[track_caller] // The panic under CI points at the test, not at this file.
pub fn need(program: &Program) -> Option<PathBuf> {
    let found = find(program);
    if found.is_none() {
        missing(program.name, program.install);
    }
    found
}

/// The program, or a panic naming it and how to install it, in CI and out.
#[track_caller]
pub fn require(program: &Program) -> PathBuf {
    match find(program) {
        Some(exe) => exe,
        None => panic!("{}", message(program.name, program.install)),
    }
}

/// What a test does when `what` is missing: under CI it panics with `install` in the
/// message; outside it prints that the test skipped, and the caller returns.
#[track_caller]
pub fn missing(what: &str, install: &str) {
    let message = message(what, install);
    assert!(
        !under_ci(),
        "{message}; this is CI (CI is set), where every outside program must be installed, \
         so the test fails instead of skipping"
    );
    // libtest shows it with `--nocapture` (or `--show-output`); the test then passes.
    eprintln!("skipped: {message}");
}

fn message(what: &str, install: &str) -> String {
    let hide = if hidden(what) {
        " (hidden by CHALLENGE_TEST_HIDE)"
    } else {
        ""
    };
    format!("{what} is not installed{hide}: {install}")
}

/// `name` as an executable file: an explicit path as it is, a bare name on `PATH`.
fn on_path(name: &Path) -> Option<PathBuf> {
    if name.components().count() > 1 {
        return is_executable(name).then(|| name.to_path_buf());
    }
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join(name))
        .find(|candidate| is_executable(candidate))
}

fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

/// Whether `exe` with the probe's arguments succeeds (true without a probe).
fn runs(exe: &Path, probe: &[&str]) -> bool {
    if probe.is_empty() {
        return true;
    }
    Command::new(exe)
        .args(probe)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

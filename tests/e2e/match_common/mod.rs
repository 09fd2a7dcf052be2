//! Helpers for the `challenge match` end-to-end tests.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

pub const KIT: &str = env!("CARGO_MANIFEST_DIR");

/// The framework's `instant_engine` example, built on demand (the root package's tests do
/// not build the framework's examples).
pub fn instant_engine() -> PathBuf {
    static PATH: OnceLock<PathBuf> = OnceLock::new();
    PATH.get_or_init(|| {
        let exe = PathBuf::from(env!("CARGO_BIN_EXE_challenge"));
        let profile_dir = exe.parent().expect("target/<profile>").to_path_buf();
        let path = profile_dir
            .join("examples")
            .join(format!("instant_engine{}", std::env::consts::EXE_SUFFIX));
        if !path.exists() {
            let mut cargo = Command::new(env!("CARGO"));
            cargo
                .args(["build", "-p", "runner", "--example", "instant_engine"])
                .current_dir(KIT);
            if profile_dir.file_name().is_some_and(|n| n == "release") {
                cargo.arg("--release");
            }
            let status = cargo
                .status()
                .expect("run cargo to build the instant engine");
            assert!(
                status.success(),
                "building the instant_engine example failed"
            );
        }
        path
    })
    .clone()
}

/// `--engine` words for the fault-injecting Python engine.
pub fn faulty(name: &str, fault: &str, at: u32) -> Vec<String> {
    let script = Path::new(KIT).join("tests/engines/faulty.py");
    vec![
        "--engine".into(),
        format!("name={name}"),
        "cmd=python3".into(),
        format!("arg={}", script.display()),
        format!("arg={fault}"),
        format!("arg={at}"),
    ]
}

/// `--engine` words for the instant engine.
pub fn instant(name: &str, extra: &[&str]) -> Vec<String> {
    let mut words = vec![
        "--engine".into(),
        format!("name={name}"),
        format!("cmd={}", instant_engine().display()),
    ];
    words.extend(extra.iter().map(|s| s.to_string()));
    words
}

/// Runs `challenge match` with `args` in `dir`.
pub fn run_match(dir: &Path, args: &[String]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_challenge"))
        .arg("match")
        .args(args)
        .current_dir(dir)
        .output()
        .expect("run challenge match")
}

/// Runs `challenge match` with `args` in `dir`, insists that it succeeds, and
/// returns what it printed.
pub fn run_match_ok(dir: &Path, args: &[String]) -> String {
    let out = run_match(dir, args);
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    stdout
}

/// A fresh scratch directory under the target dir.
pub fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Reads a PGN file with python-chess and returns, per game, (White, Black, Result,
/// Termination (`abandoned; crash` when a TerminationDetails tag follows it), PlyCount tag,
/// number of mainline moves, number of parse errors).
pub fn read_pgn_with_python_chess(
    path: &Path,
) -> Vec<(String, String, String, String, usize, usize, usize)> {
    let script = r#"
import sys, chess.pgn
with open(sys.argv[1]) as f:
    while True:
        g = chess.pgn.read_game(f)
        if g is None:
            break
        h = g.headers
        board = g.end().board()
        termination = h.get("Termination", "")
        if "TerminationDetails" in h:
            termination += "; " + h["TerminationDetails"]
        print("\t".join([h["White"], h["Black"], h["Result"], termination,
                         h.get("PlyCount", "0"), str(len(list(g.mainline_moves()))), str(len(g.errors))]))
"#;
    let out = Command::new("python3")
        .arg("-c")
        .arg(script)
        .arg(path)
        .output()
        .expect("run python3");
    assert!(
        out.status.success(),
        "python-chess could not read {}: {}",
        path.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            (
                f[0].to_string(),
                f[1].to_string(),
                f[2].to_string(),
                f[3].to_string(),
                f[4].parse().unwrap(),
                f[5].parse().unwrap(),
                f[6].parse().unwrap(),
            )
        })
        .collect()
}

pub fn json(path: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

//! Helpers shared by the runner tests: the engines they play with.
#![allow(dead_code)]

use std::path::PathBuf;
use std::process::Command;
use std::sync::OnceLock;

use runner::{EngineConfig, Player, TimeControl};

/// The `instant_engine` example binary, built on demand when `cargo test` did not
/// build examples (e.g. `cargo test --test runner_game`).
pub fn instant_engine() -> PathBuf {
    static PATH: OnceLock<PathBuf> = OnceLock::new();
    PATH.get_or_init(|| {
        let exe = std::env::current_exe().expect("test executable path");
        let profile_dir = exe
            .parent()
            .and_then(|deps| deps.parent())
            .expect("target/<profile>/deps");
        let path = profile_dir
            .join("examples")
            .join(format!("instant_engine{}", std::env::consts::EXE_SUFFIX));
        if !path.exists() {
            let mut cargo = Command::new(env!("CARGO"));
            cargo.args(["build", "-p", "runner", "--example", "instant_engine"]);
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

/// The fault-injecting Python engine, misbehaving with `fault` at its `at`-th search.
pub fn faulty(name: &str, fault: &str, at: u32) -> EngineConfig {
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/engines/faulty.py");
    // An external engine: it needs the runner's PATH to find the python3 that has
    // python-chess (a bot's empty environment would leave the system default).
    EngineConfig::new(name, "python3")
        .external()
        .arg(script.display().to_string())
        .arg(fault)
        .arg(at.to_string())
}

/// A player running the instant engine.
pub fn instant(name: &str, tc: TimeControl) -> Player {
    Player::new(EngineConfig::new(name, instant_engine()), tc)
}

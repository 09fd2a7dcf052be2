//! What an engine process starts with: a bot nothing of the runner's, an external
//! engine the runner's environment less the kit's own variables, and every engine
//! no descriptor beyond its three pipes.
//!
//! One test function: it changes the test process's environment, which no other
//! thread may read meanwhile.

#![cfg(target_os = "linux")]

use std::os::fd::AsRawFd;
use std::time::Duration;

use runner::{Engine, EngineConfig};

const SECOND: Duration = Duration::from_secs(5);

/// An engine whose `id name` says what it was started with: which of the test's
/// variables its environment has, how many variables in all, and what its open descriptors are (the shell's own command
/// substitution adds a pipe of its own while it lists them).
fn reporting_engine(name: &str) -> EngineConfig {
    let script = r#"while read cmd rest; do case $cmd in
        uci) echo "id name env=[${CHALLENGE_ADMIN_TOKEN:+token},${ENGINE_NETWORK_FILE:+net},${PATH:+path},$(env | wc -l)] fds=[$(readlink /proc/$$/fd/* | tr '\n' ',')]"; echo uciok;;
        isready) echo readyok;; quit) exit 0;; esac; done"#;
    EngineConfig::new(name, "/bin/sh").arg("-c").arg(script)
}

fn started_with(config: &EngineConfig) -> String {
    let engine = Engine::start(config, SECOND).expect("the engine starts");
    let said = engine.id_name().unwrap_or_default().to_string();
    engine.quit(SECOND);
    said
}

#[test]
fn engines_start_with_nothing_of_the_runners_but_what_their_kind_needs() {
    // SAFETY: the only test in this binary, and no thread of it has started yet.
    unsafe {
        std::env::set_var("CHALLENGE_ADMIN_TOKEN", "organiser-secret");
        std::env::set_var("ENGINE_NETWORK_FILE", "/opt/nets/big.nnue");
    }
    // A descriptor the runner's process holds without close-on-exec, as a careless
    // library might leave one: a file no engine's shell would open.
    let file = std::fs::File::open("/proc/self/stat").unwrap();
    // SAFETY: dup of a descriptor we own; the copy is closed by the kernel at exit.
    let leaked = unsafe { libc::dup(file.as_raw_fd()) };
    assert!(leaked > 2);

    let bot = started_with(&reporting_engine("bot"));
    // None of the runner's variables; the shell exports the one it sets itself
    // (PWD), and has a PATH of its own that it does not export.
    assert!(bot.starts_with("env=[,,") && bot.contains(",1] "), "{bot}");
    assert!(!bot.contains("/stat"), "{bot}");

    let external = started_with(&reporting_engine("sf").external());
    assert!(external.starts_with("env=[,net,path,"), "{external}");
    assert!(!external.contains("/stat"), "{external}");
}

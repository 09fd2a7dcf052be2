//! Nothing of the host names a bot's process: every engine the runner starts as a bot
//! runs from a sealed anonymous copy under a neutral name, so its arguments, the
//! auxiliary vector's `AT_EXECFN`, `/proc/self/exe` and its working directory say
//! nothing of where the organiser keeps it (home directory, user name, build folder).
//!
//! `tests/bots/shows_its_path.rs` reads its `argv` and `AT_EXECFN` from its own memory
//! and reports them; `/proc/PID/exe`, `cmdline`, `cwd` and `environ`, which the bot would
//! see as `/proc/self/…` were its sandbox to let it read them, are read here from
//! outside. `tests/bots/scans_memory.rs` then searches the bot's whole memory for the
//! folder it was started from, and finds nothing: a bot cannot print, encoded or not, a
//! path that is not in its process. External engines still start from their own path.

#![cfg(all(
    target_os = "linux",
    any(target_arch = "x86_64", target_arch = "aarch64")
))]

use crate::common;
use crate::secrets_common;

use std::path::{Path, PathBuf};
use std::time::Duration;

use common::{build_unchecked, scratch_dir};
use runner::{Engine, EngineConfig, EngineError, GoParams};
use secrets_common::{MARKER, assert_nothing_found, scanner};

/// `executable` placed in a folder as host-specific as an organiser's: under a
/// directory named `organiser-home-<marker>`.
fn placed(executable: &Path, label: &str) -> PathBuf {
    let dir = scratch_dir(label)
        .join(format!("organiser-home-{MARKER}"))
        .join("bin");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("bot_mine_0a1b2c3d");
    // A link, not a copy: a copy's file is open for writing while another test's thread
    // forks, and starting it from its path then fails with ETXTBSY ("text file busy").
    if std::fs::hard_link(executable, &path).is_err() {
        std::fs::copy(executable, &path).unwrap();
    }
    path
}

/// What `/proc/PID/NAME` says of the engine's process.
fn proc_of(engine: &Engine, name: &str) -> String {
    let path = format!("/proc/{}/{name}", engine.pid());
    match name {
        "exe" | "cwd" => std::fs::read_link(&path).unwrap().display().to_string(),
        _ => String::from_utf8_lossy(&std::fs::read(&path).unwrap()).replace('\0', " "),
    }
}

/// Asks the engine for a move, which it answers by dying; its last stderr lines.
fn stderr_of_a_move(mut engine: Engine) -> String {
    let second = Duration::from_secs(10);
    engine.new_game(second).unwrap();
    let go = GoParams {
        movetime: Some(100),
        ..GoParams::default()
    };
    match engine.search(Some("position startpos"), &go, Duration::from_secs(60)) {
        Err(err @ EngineError::Died { .. }) => err.stderr_tail().join("\n"),
        other => panic!("the bot was to die after its report: {other:?}"),
    }
}

#[test]
fn a_bots_process_names_nothing_of_the_host() {
    let path = placed(&build_unchecked("shows_its_path"), "neutral-names");
    let engine =
        Engine::start(&EngineConfig::new("shows", &path), Duration::from_secs(30)).unwrap();
    let exe = proc_of(&engine, "exe");
    let cmdline = proc_of(&engine, "cmdline");
    let cwd = proc_of(&engine, "cwd");
    let environ = proc_of(&engine, "environ");
    println!("/proc/self/exe: {exe}\n/proc/self/cmdline: {cmdline}\n/proc/self/cwd: {cwd}");
    assert_eq!(exe, "/memfd:engine (deleted)");
    assert_eq!(cmdline, "engine ");
    assert_eq!((cwd.as_str(), environ.as_str()), ("/", ""));
    let report = stderr_of_a_move(engine);
    println!("the bot's report: {report}");
    assert!(
        report.contains("names: argv [\"engine\"]; AT_EXECFN /dev/fd/"),
        "{report}"
    );
    assert!(
        !report.contains(MARKER) && !report.contains("organiser-home"),
        "{report}"
    );
}

#[test]
fn a_bot_that_reads_all_its_memory_finds_no_trace_of_the_folder_it_was_started_from() {
    let path = placed(&scanner(), "neutral-scan");
    // The control: started from its path, as before, the scanner finds the folder's
    // name (`argv[0]` and `AT_EXECFN` hold the path, on the initial stack).
    let mut direct = common::Engine::start(&path);
    for line in [
        "uci",
        "ucinewgame",
        "isready",
        "position startpos",
        "go movetime 50",
    ] {
        direct.send(line);
    }
    direct
        .wait_exit(Duration::from_secs(60))
        .expect("the scanner panics");
    let said = direct.stderr();
    assert!(
        secrets_common::report(&said).is_some_and(|(_, found)| found),
        "the control found nothing:\n{said}"
    );
    let engine = Engine::start(
        &EngineConfig::new("scanner", &path),
        Duration::from_secs(60),
    )
    .unwrap();
    assert_nothing_found("the runner's engine start", &stderr_of_a_move(engine));
}

#[test]
fn an_external_engine_still_starts_from_its_own_path() {
    // A script (`#!`) and an engine the host installed keep their path: they may need it.
    let script = "while read cmd rest; do case $cmd in uci) echo uciok;; \
                  isready) echo readyok;; quit) exit 0;; esac; done";
    let config = EngineConfig::new("sh", "/bin/sh")
        .arg("-c")
        .arg(script)
        .external();
    match Engine::start(&config, Duration::from_secs(10)) {
        Err(err) => panic!("{err}"),
        Ok(engine) => {
            let sh = std::fs::canonicalize("/bin/sh").unwrap();
            assert_eq!(proc_of(&engine, "exe"), sh.display().to_string());
        }
    }
}

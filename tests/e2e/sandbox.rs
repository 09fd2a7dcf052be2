//! The OS sandbox and the build limits, tried as an attacker would: bots that
//! slipped past the rules checker try each forbidden thing and are stopped
//! by the kernel, with the cause on record; ordinary bots play on unharmed.
//!
//! The hostile bots break the challenge rules on purpose, so `challenge
//! build` would refuse them before they ran. This file builds them the way
//! the kit does (a generated crate calling `framework::uci::run`, the same
//! host and sandbox every engine gets) but without the rules check.

#![cfg(all(
    target_os = "linux",
    any(target_arch = "x86_64", target_arch = "aarch64")
))]

use crate::common;

use std::os::unix::process::ExitStatusExt;
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use common::{Engine, build, build_unchecked, challenge, kit_root, scratch_dir, test_bot};

const SHORT: Duration = Duration::from_secs(10);
const SIGSYS: i32 = 31;

/// Starts the engine, asks for one move, and returns how it ended and what
/// it said on stderr.
fn one_move(executable: &Path) -> (std::process::ExitStatus, String) {
    let mut engine = Engine::start(executable);
    engine.send("uci");
    engine.send("isready");
    engine.send("position startpos");
    engine.send("go movetime 50");
    let status = engine
        .wait_exit(SHORT)
        .expect("the sandbox stops the engine");
    assert!(
        engine
            .read_until("bestmove", Duration::from_millis(100))
            .is_none(),
        "the bot never got to answer"
    );
    (status, engine.stderr())
}

/// The engine dies of SIGSYS, and its last words name the sandbox and the call.
fn assert_stopped_by_sandbox(bot: &str, calls: &[&str]) {
    let (status, stderr) = one_move(&build_unchecked(bot));
    assert_eq!(status.signal(), Some(SIGSYS), "{bot}: {status:?}\n{stderr}");
    assert!(
        stderr.contains("sandbox: the bot made a forbidden system call ("),
        "{bot}: {stderr}"
    );
    assert!(
        calls
            .iter()
            .any(|call| stderr.contains(&format!("call ({call}, number"))),
        "{bot}: expected one of {calls:?}: {stderr}"
    );
}

#[test]
fn opening_a_file_is_stopped() {
    assert_stopped_by_sandbox("opens_file", &["openat", "open"]);
}

#[test]
fn writing_a_file_is_stopped_before_the_file_exists() {
    let path = std::env::temp_dir().join("challenge-sandbox-escape.txt");
    let _ = std::fs::remove_file(&path);
    assert_stopped_by_sandbox("writes_file", &["openat", "open", "creat"]);
    assert!(!path.exists(), "{} was written", path.display());
}

#[test]
fn opening_a_socket_is_stopped() {
    assert_stopped_by_sandbox("opens_socket", &["socket"]);
}

/// glibc blocks every signal around the `clone3` that starts a thread or a
/// process, so the host's handler cannot name the call: the kernel kills the
/// engine with SIGSYS outright, and the runner names the sandbox from the
/// signal (see `the_match_records_the_sandbox_as_the_cause`).
fn assert_killed_by_sigsys(bot: &str) {
    let (status, stderr) = one_move(&build_unchecked(bot));
    assert_eq!(status.signal(), Some(SIGSYS), "{bot}: {status:?}\n{stderr}");
}

#[test]
fn starting_a_process_is_stopped() {
    assert_killed_by_sigsys("runs_process");
}

#[test]
fn starting_a_thread_is_stopped() {
    assert_killed_by_sigsys("spawns_thread");
}

#[test]
fn a_raw_system_call_in_assembly_is_stopped() {
    assert_stopped_by_sandbox("raw_syscall", &["kill"]);
}

#[test]
fn huge_thread_locals_and_statics_hit_the_memory_limit_before_the_bot_runs() {
    for bot in ["huge_thread_local", "huge_static"] {
        let (status, stderr) = one_move(&build_unchecked(bot));
        assert_eq!(
            status.code(),
            Some(framework::uci::MEMORY_LIMIT_EXIT_CODE),
            "{bot}: {status:?}\n{stderr}"
        );
        assert!(
            stderr.contains("memory limit exceeded: the bot's statics and thread-locals take"),
            "{bot}: {stderr}"
        );
    }
}

/// Runs `challenge match` between `my_bot` and `engine`, returning the
/// recorded faults from its JSON summary. `env` is set for the runner.
fn faults_in_a_match(engine: &Path, env: &[(&str, &str)]) -> Vec<serde_json::Value> {
    let dir = scratch_dir(&format!(
        "sandbox-match-{}",
        engine.file_name().unwrap().to_string_lossy()
    ));
    let json = dir.join("summary.json");
    let mut command = Command::new(env!("CARGO_BIN_EXE_challenge"));
    command
        .current_dir(kit_root())
        .args(["match", "my_bot", "--engine", "name=hostile"])
        .arg(format!("cmd={}", engine.display()))
        .args(["--games", "2", "--st", "0.05", "-q", "--json"])
        .arg(&json);
    for (key, value) in env {
        command.env(key, value);
    }
    let output = command.output().expect("challenge runs");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    summary["faults"].as_array().cloned().unwrap_or_default()
}

#[test]
fn the_match_records_the_sandbox_as_the_cause() {
    let engine = build_unchecked("opens_file");
    // The developer switch in the runner's own environment changes nothing:
    // the runner never passes it on to an engine.
    let faults = faults_in_a_match(&engine, &[(framework::uci::NO_SANDBOX_ENV, "1")]);
    assert_eq!(faults.len(), 2, "{faults:#?}");
    for fault in &faults {
        assert_eq!(fault["engine"], "hostile", "{fault:#}");
        assert_eq!(fault["termination"], "crash", "{fault:#}");
        let detail = fault["detail"].as_str().unwrap();
        assert!(
            detail.contains("the sandbox stopped a forbidden system call"),
            "{detail}"
        );
        let stderr = fault["stderr"].to_string();
        assert!(stderr.contains("forbidden system call (openat"), "{stderr}");
    }
}

#[test]
fn panics_and_stack_overflows_still_reach_the_runner_with_their_messages() {
    let faults = faults_in_a_match(&build(test_bot("panics")), &[]);
    assert!(!faults.is_empty());
    for fault in &faults {
        assert!(
            fault["detail"].as_str().unwrap().contains("panic"),
            "{fault:#}"
        );
        let stderr = fault["stderr"].to_string();
        assert!(stderr.contains("deliberate panic in think"), "{stderr}");
        assert!(!stderr.contains("sandbox"), "{stderr}");
    }
    let faults = faults_in_a_match(&build(test_bot("overflows_stack")), &[]);
    assert!(!faults.is_empty());
    for fault in &faults {
        assert!(
            fault["detail"].as_str().unwrap().contains("SIGABRT"),
            "{fault:#}"
        );
        let stderr = fault["stderr"].to_string();
        assert!(stderr.contains("overflowed its stack"), "{stderr}");
        assert!(!stderr.contains("sandbox"), "{stderr}");
    }
}

#[test]
fn the_reference_bots_play_whole_games_under_the_sandbox() {
    let dir = scratch_dir("sandbox-reference");
    let json = dir.join("summary.json");
    let output = challenge(&[
        "match",
        "evil_bot",
        "turochamp_modern",
        "turochamp_faithful",
        "my_bot",
        "--games",
        "2",
        "--tc",
        "1+0.05",
        "-q",
        "--json",
        json.to_str().unwrap(),
    ]);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(summary["faults"], serde_json::json!([]), "{summary:#}");
}

#[test]
fn the_memory_limit_still_reports_itself_under_the_sandbox() {
    let (status, stderr) = one_move(&build(test_bot("hogs_memory")));
    assert_eq!(
        status.code(),
        Some(framework::uci::MEMORY_LIMIT_EXIT_CODE),
        "{stderr}"
    );
    assert!(stderr.contains("memory limit exceeded"), "{stderr}");
}

#[test]
fn the_environment_of_the_runner_never_reaches_the_bot() {
    let executable = build_unchecked("reads_environment");
    let mut engine =
        Engine::start_with_env(&executable, &[("CHALLENGE_STORE", "postgres://secret")]);
    engine.send("uci");
    engine.send("position startpos");
    engine.send("go movetime 50");
    assert!(
        engine.read_until("bestmove", SHORT).is_some(),
        "no bestmove"
    );
    engine.send("quit");
    engine.wait_exit(SHORT).expect("exits");
    let stderr = engine.stderr();
    assert!(
        stderr.contains("environment seen by the bot: []"),
        "{stderr}"
    );
}

#[test]
fn a_name_with_line_breaks_cannot_inject_protocol_lines() {
    let mut engine = Engine::start(&build(test_bot("injects_name")));
    engine.send("uci");
    let lines = engine.read_until("uciok", SHORT).expect("uciok");
    assert_eq!(
        lines,
        [
            "id name Tiny?bestmove e2e4?info string pwned",
            "id author a single-file bot",
            "option name Clear Hash type button",
            "option name Seed type spin default 0 min 0 max 2147483647",
            "uciok"
        ]
    );
    engine.send("quit");
    engine.wait_exit(SHORT).expect("exits");
    assert!(
        engine.stderr().contains("is not one printable line"),
        "{}",
        engine.stderr()
    );
}

#[test]
fn a_build_that_never_ends_is_stopped_at_the_time_limit() {
    // Warm the framework so the short limit is spent on the bot alone.
    build("my_bot");
    let start = Instant::now();
    let output = Command::new(env!("CARGO_BIN_EXE_challenge"))
        .current_dir(kit_root())
        .args(["build", test_bot("never_builds").to_str().unwrap()])
        .env("CHALLENGE_BUILD_TIMEOUT", "4")
        .output()
        .expect("challenge runs");
    let took = start.elapsed();
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("the build took longer than 4 s (const evaluation that never ends?)"),
        "{stderr}"
    );
    assert!(took < Duration::from_secs(60), "took {took:?}");
}

/// The processes whose parent is `pid`, from `/proc`.
fn children_of(pid: u32) -> Vec<u32> {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    entries
        .filter_map(|entry| entry.ok()?.file_name().to_str()?.parse::<u32>().ok())
        .filter(|&child| process_state(child).is_some_and(|(_, parent)| parent == pid))
        .collect()
}

/// A process's state letter and parent, if it exists.
fn process_state(pid: u32) -> Option<(char, u32)> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The command name is in parentheses and may hold spaces: read after the last one.
    let mut fields = stat[stat.rfind(')')? + 1..].split_whitespace();
    let state = fields.next()?.chars().next()?;
    Some((state, fields.next()?.parse().ok()?))
}

fn signal(pid: u32, signal: i32) {
    // SAFETY: signals one process this test found as the kit's child.
    unsafe {
        libc::kill(pid as i32, signal);
    }
}

/// The compiler of a build that never ends, started by `kit`.
fn compiler_of(kit: &std::process::Child) -> u32 {
    let deadline = Instant::now() + Duration::from_secs(120);
    loop {
        // The bot's compiler, not cargo's quick check that the framework is built.
        let found = children_of(kit.id()).into_iter().find(|&child| {
            std::fs::read(format!("/proc/{child}/cmdline")).is_ok_and(|line| {
                String::from_utf8_lossy(&line).contains("--crate-name\0bot_never_builds")
            })
        });
        if let Some(compiler) = found {
            return compiler;
        }
        assert!(Instant::now() < deadline, "no compiler started");
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn a_build_ends_with_the_kit_process_that_started_it() {
    build("my_bot");
    let mut kit = Command::new(env!("CARGO_BIN_EXE_challenge"))
        .current_dir(kit_root())
        .args(["build", test_bot("never_builds").to_str().unwrap()])
        .env("CHALLENGE_BUILD_TIMEOUT", "300")
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("challenge runs");
    let compiler = compiler_of(&kit);
    // Stopped, the compiler cannot end by itself (by writing to the pipe of a dead
    // kit, say): only the kernel's death-of-parent signal can end it now.
    signal(compiler, libc::SIGSTOP);
    // A server or worker killed outright: nothing of it is left to end the build.
    kit.kill().unwrap();
    kit.wait().unwrap();
    let deadline = Instant::now() + Duration::from_secs(30);
    // Gone, or a zombie waiting for a reaper: either way no longer compiling.
    let mut outlived = false;
    while process_state(compiler).is_some_and(|(state, _)| state != 'Z') {
        if Instant::now() > deadline {
            outlived = true;
            signal(compiler, libc::SIGKILL);
            break;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(
        !outlived,
        "the compiler {compiler} outlived the kit that started it"
    );
}

#[test]
fn a_bad_build_limit_is_named() {
    let output = Command::new(env!("CARGO_BIN_EXE_challenge"))
        .current_dir(kit_root())
        .args(["build", "tests/bots/prints.rs"])
        .env("CHALLENGE_BUILD_MEMORY_MB", "lots")
        .output()
        .expect("challenge runs");
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("CHALLENGE_BUILD_MEMORY_MB=`lots` is not a whole number"),
        "{stderr}"
    );
}

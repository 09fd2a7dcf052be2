//! `challenge serve` stops cleanly on Ctrl-C (`SIGINT`) and on `SIGTERM` (what a service
//! manager sends), on a challenge directory and on a PostgreSQL store: it says it stops,
//! exits with status 0 and panics nowhere on the way out. (A PostgreSQL store dropped
//! inside the server's runtime used to panic with "Cannot start a runtime from within a
//! runtime", and the exit status hid it.)

#![cfg(unix)]

use crate::common_challenge;
use crate::postgres_server;

use std::ffi::OsStr;
use std::io::{BufRead, BufReader};
use std::process::{Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

use common_challenge::TempDir;
use postgres_server::PgServer;

/// Starts `challenge serve` with `store` (`--dir DIR` or `--store URL`), waits until it
/// listens, sends it `signal`, and returns its exit status and all it wrote on stderr.
fn serve_then_signal(
    store: [&OsStr; 2],
    signal: libc::c_int,
    log: &TempDir,
) -> (ExitStatus, String) {
    let stderr_path = log.path().join("serve.stderr");
    let stderr = std::fs::File::create(&stderr_path).unwrap();
    let mut child = Command::new(crate::common_challenge::challenge_exe())
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(["serve", "--bind", "127.0.0.1:0"])
        .args(store)
        .env("CHALLENGE_ADMIN_TOKEN", "test-organiser-token-0123456789")
        .stdout(Stdio::piped())
        .stderr(stderr)
        .spawn()
        .expect("start challenge serve");
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    assert!(first.contains("http://"), "{first}");
    // The tournament thread and the view refresher are up once the first view is built,
    // which happens before the server listens; let the refresher take a turn too.
    std::thread::sleep(Duration::from_millis(700));
    let pid = libc::pid_t::try_from(child.id()).unwrap();
    // SAFETY: a signal to the child this test started and has not waited on yet.
    assert_eq!(unsafe { libc::kill(pid, signal) }, 0);
    let deadline = Instant::now() + Duration::from_secs(30);
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("the server did not stop within 30 s of the signal");
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    (status, std::fs::read_to_string(&stderr_path).unwrap())
}

fn assert_clean_stop(store: [&OsStr; 2], label: &str) {
    for (signal, name) in [(libc::SIGINT, "Ctrl-C"), (libc::SIGTERM, "SIGTERM")] {
        let log = TempDir::new(&format!("serve-stop-{label}"));
        let (status, stderr) = serve_then_signal(store, signal, &log);
        assert!(
            stderr.contains(&format!("serve: stopping on {name}")),
            "{label}, {name}: {stderr}"
        );
        assert!(!stderr.contains("panicked"), "{label}, {name}: {stderr}");
        assert!(status.success(), "{label}, {name}: {status}\n{stderr}");
    }
}

#[test]
fn serve_on_a_directory_stops_cleanly_on_ctrl_c_and_sigterm() {
    let dir = TempDir::new("serve-stop-dir");
    let challenge = dir.challenge();
    assert_clean_stop([OsStr::new("--dir"), challenge.as_os_str()], "directory");
}

#[test]
fn serve_on_postgres_stops_cleanly_on_ctrl_c_and_sigterm() {
    let Some(server) = PgServer::start("serve-stop") else {
        return;
    };
    let url = server.database("stop");
    assert_clean_stop([OsStr::new("--store"), OsStr::new(&url)], "postgres");
}

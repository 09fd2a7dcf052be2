//! Bad numbers on the command line, flags a command cannot honour, and unusable
//! challenge directories or stores get a clear error naming the option or the path, never
//! a wrap-around, a panic, a hang, or a flag silently ignored.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

fn challenge(args: &[&str]) -> Output {
    Command::new(crate::common::challenge_exe())
        .args(args)
        .output()
        .expect("challenge runs")
}

fn refused(args: &[&str], mentions: &str) {
    refused_in_env(args, &[], mentions);
}

/// As [`refused`], with `env` added to the command's environment.
fn refused_in_env(args: &[&str], env: &[(&str, &str)], mentions: &str) {
    let mut command = Command::new(crate::common::challenge_exe());
    command.args(args).envs(env.iter().copied());
    let out = bounded(command);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{args:?} was accepted");
    assert!(!stderr.contains("panicked"), "{args:?} panicked: {stderr}");
    assert!(
        stderr.contains(mentions),
        "{args:?}: `{mentions}` not in: {stderr}"
    );
}

/// Runs `command` to its end, or kills it after a minute and fails: a command that
/// ignored a flag it cannot honour (a server on the wrong store) would run on for good.
fn bounded(mut command: Command) -> Output {
    static COUNT: AtomicUsize = AtomicUsize::new(0);
    let log = std::env::temp_dir().join(format!(
        "kit-cli-out-{}-{}",
        std::process::id(),
        COUNT.fetch_add(1, Ordering::Relaxed)
    ));
    let (out, err) = (log.with_extension("out"), log.with_extension("err"));
    let mut child = command
        .stdin(Stdio::null())
        .stdout(std::fs::File::create(&out).unwrap())
        .stderr(std::fs::File::create(&err).unwrap())
        .spawn()
        .expect("challenge runs");
    let deadline = Instant::now() + Duration::from_secs(60);
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!(
                "{command:?} still ran after 60 s: {}",
                std::fs::read_to_string(&err).unwrap_or_default()
            );
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let output = Output {
        status,
        stdout: std::fs::read(&out).unwrap(),
        stderr: std::fs::read(&err).unwrap(),
    };
    let _ = std::fs::remove_file(out);
    let _ = std::fs::remove_file(err);
    output
}

#[test]
fn out_of_range_numbers_are_refused_by_name() {
    refused(&["match", "--games", "18446744073709551615"], "--games");
    refused(&["match", "--games", "-1"], "--games");
    refused(&["match", "--games", "0"], "--games");
    refused(&["match", "-j", "0"], "--concurrency");
    refused(&["match", "--tc", "99999999999999999999+0"], "--tc");
    refused(&["match", "--tc", "inf+nan"], "--tc");
    refused(&["match", "--st", "-0.5"], "--st");
    refused(&["match", "--st", "1e300"], "--st");
    refused(&["match", "--depth", "0"], "--depth");
    refused(&["match", "--timemargin", "-5"], "--timemargin");
    refused(&["match", "--maxmoves", "4294967295"], "--maxmoves");
    refused(
        &[
            "match",
            "--draw",
            "movenumber=-1",
            "movecount=8",
            "score=10",
        ],
        "--draw",
    );
    refused(
        &["match", "--resign", "movecount=3", "score=99999999999"],
        "--resign",
    );
    refused(&["run", "--pairs", "-3"], "--pairs");
    refused(&["run", "--rounds", "0"], "--rounds");
    refused(&["run", "--max-games", "0"], "--max-games");
    refused(&["run", "--format", "knockout"], "knockout");
    refused(&["standings", "--prior", "-1"], "--prior");
    refused(&["standings", "--prior", "NaN"], "--prior");
    refused(&["perft", "99"], "DEPTH");
    refused(&["bench-ratings", "--players", "1"], "--players");
}

fn fixture_copy(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("kit-cli-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/challenge_v0");
    std::fs::copy(fixture.join("challenge.db"), dir.join("challenge.db")).unwrap();
    dir
}

#[test]
fn reading_commands_leave_the_challenge_untouched() {
    let dir = fixture_copy("readonly");
    let d = dir.to_str().unwrap();
    let reading = [
        vec!["standings", "--dir", d],
        vec!["entries", "--dir", d],
        vec!["export", "--dir", d, "--pgn", "/dev/null"],
    ];
    // An older schema is not upgraded by reading: refused, naming the command that does.
    let old = std::fs::read(dir.join("challenge.db")).unwrap();
    for args in &reading {
        refused(args, &format!("challenge upgrade --dir {d}"));
    }
    assert_eq!(std::fs::read(dir.join("challenge.db")).unwrap(), old);
    let upgraded = challenge(&["upgrade", "--dir", d]);
    assert!(upgraded.status.success(), "{upgraded:?}");
    assert!(
        String::from_utf8_lossy(&upgraded.stdout).contains("from version 0 to"),
        "{upgraded:?}"
    );
    let before = std::fs::read(dir.join("challenge.db")).unwrap();
    for args in &reading {
        let out = challenge(args);
        assert!(
            out.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    assert_eq!(std::fs::read(dir.join("challenge.db")).unwrap(), before);
    // SQLite may open the write-ahead log's index beside the file; nothing is written.
    let wal = dir.join("challenge.db-wal");
    assert!(!wal.exists() || std::fs::metadata(&wal).unwrap().len() == 0);
    let mut names: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| !n.ends_with("-wal") && !n.ends_with("-shm"))
        .collect();
    names.sort();
    assert_eq!(
        names,
        ["challenge.db"],
        "no run lock, no sources, no new files"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_unusable_challenge_directory_is_named_with_the_fix() {
    let dir = fixture_copy("blocked");
    // A file where the directory should be: no permission trick needed (tests may run
    // as root, who ignores permissions).
    let blocked = dir.join("not-a-dir");
    std::fs::write(&blocked, "").unwrap();
    let inside = blocked.join("challenge");
    let bot = Path::new(env!("CARGO_MANIFEST_DIR")).join("bot/my_bot.rs");
    refused(
        &[
            "submit",
            bot.to_str().unwrap(),
            "--name",
            "x",
            "--dir",
            inside.to_str().unwrap(),
        ],
        inside.to_str().unwrap(),
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A PostgreSQL URL where nothing listens (port 1): connecting fails at once.
const NOWHERE: &str = "postgres://kit@127.0.0.1:1/none";

#[test]
fn a_flag_the_command_cannot_honour_is_refused_by_name() {
    // On a PostgreSQL store the server plays no games: `-j` is the workers' flag.
    refused(&["serve", "--store", NOWHERE, "-j", "2"], "--concurrency");
    refused_in_env(
        &["serve", "--concurrency", "2"],
        &[("CHALLENGE_STORE", NOWHERE)],
        "--concurrency",
    );
    // `--dir` beside a store named in the environment: which one was meant is unclear.
    for command in [
        "serve",
        "run",
        "standings",
        "entries",
        "withdraw",
        "submit",
        "report",
        "export",
    ] {
        refused_in_env(
            &[command, "--dir", "somewhere"],
            &[("CHALLENGE_STORE", NOWHERE)],
            "--dir",
        );
    }
    // `--schedule-only` plays nothing here: the options of playing here mean nothing.
    for (flag, named) in [
        ("-j", "--concurrency"),
        ("--max-games", "--max-games"),
        ("--build-jobs", "--build-jobs"),
    ] {
        refused(&["run", "--schedule-only", flag, "2"], named);
    }
    refused(&["serve", "--store", "mysql://db/challenge"], "--store");
    refused_in_env(
        &["serve"],
        &[("CHALLENGE_STORE", "sqlite:challenge")],
        "CHALLENGE_STORE",
    );
}

#[test]
fn serve_on_a_store_it_cannot_reach_fails_naming_it_and_serves_no_directory() {
    let cwd = std::env::temp_dir().join(format!("kit-cli-serve-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&cwd);
    std::fs::create_dir_all(&cwd).unwrap();
    for env in [None, Some(NOWHERE)] {
        let mut command = Command::new(crate::common::challenge_exe());
        command
            .current_dir(&cwd)
            .args(["serve", "--bind", "127.0.0.1:0"]);
        match env {
            Some(url) => command.env("CHALLENGE_STORE", url),
            None => command.args(["--store", NOWHERE]),
        };
        let out = bounded(command);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "served: {stderr}");
        assert!(stderr.contains("127.0.0.1:1"), "{stderr}");
        assert!(
            std::fs::read_dir(&cwd).unwrap().next().is_none(),
            "no challenge directory made in its place"
        );
    }
    let _ = std::fs::remove_dir_all(&cwd);
}

/// An engine option goes to the engine as one `setoption` line: a value that would start a
/// second UCI command, or a name that would split the line elsewhere, is refused before
/// any engine starts.
#[test]
fn an_engine_option_that_would_inject_a_command_is_refused() {
    for (word, mentions) in [
        ("option.Hash=16\ngo infinite", "line breaks"),
        ("option.Threads=1\rquit", "line breaks"),
        ("option.Skill value Level=3", "the word `name` or `value`"),
        ("option. =3", "has no name"),
    ] {
        refused(
            &["match", "evil_bot", "--engine", "cmd=/bin/cat", word],
            mentions,
        );
    }
}

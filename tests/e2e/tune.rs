//! `challenge tune` as a user meets it: a bot whose knight is worth a pawn is tuned toward
//! sense, stopped with Ctrl-C and resumed, repeats itself from its seed, and the tuned file
//! wins an SPRT against the original; bad input is refused with its cause.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use crate::common::{kit_root, scratch_dir, test_bot};

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// `challenge` with the test's own variants folder (its variants stay out of the kit's).
fn challenge_cmd(dir: &Path, args: &[&str]) -> Command {
    let mut command = Command::new(crate::common::challenge_exe());
    command
        .args(args)
        .env("CHALLENGE_VARIANTS_DIR", dir.join("variants"))
        .current_dir(kit_root());
    command
}

fn challenge_in(dir: &Path, args: &[&str]) -> Output {
    challenge_cmd(dir, args).output().expect("challenge runs")
}

/// The state file's JSON.
fn state(path: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(path).expect("the state is written"))
        .expect("the state is JSON")
}

/// A copy of `tests/bots/NAME.rs` in `dir` (the tuned file is written beside the bot).
fn copy_bot(dir: &Path, name: &str) -> PathBuf {
    let path = dir.join(format!("{name}.rs"));
    std::fs::copy(test_bot(name), &path).unwrap();
    path
}

/// The tuning run of the test: 32 game pairs at 2000 nodes, 4 pairs per step (8 steps,
/// 16 builds at most), two steps at once, large gains for so short a run. Seeds 11, 12
/// and 13 ended at 286, 338 and 300.
fn tune_args<'a>(bot: &'a str, state: &'a str) -> Vec<&'a str> {
    vec![
        "tune",
        bot,
        "--iterations",
        "32",
        "--pairs",
        "4",
        "-j",
        "2",
        "--nodes",
        "2000",
        "--seed",
        "11",
        "--c-end",
        "50",
        "--r-end",
        "0.2",
        "--state",
        state,
        "-q",
    ]
}

/// Runs the tuning, and stops it with SIGINT once `steps` steps are in its state.
fn tune_until(dir: &Path, args: &[&str], state_path: &Path, steps: u64) -> Output {
    let child = challenge_cmd(dir, args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("challenge runs");
    let deadline = Instant::now() + Duration::from_secs(300);
    loop {
        let done = std::fs::read_to_string(state_path)
            .ok()
            .and_then(|t| serde_json::from_str::<serde_json::Value>(&t).ok())
            .and_then(|s| s["steps_done"].as_u64())
            .unwrap_or(0);
        if done >= steps || Instant::now() > deadline {
            break;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    // SAFETY: kill(2) on the child's pid, which has not been waited for.
    unsafe { libc::kill(child.id() as libc::pid_t, libc::SIGINT) };
    child.wait_with_output().expect("challenge ends")
}

#[test]
fn tuning_moves_a_knight_worth_a_pawn_toward_sense_and_the_tuned_bot_wins_an_sprt() {
    let dir = scratch_dir("tune_knight");
    let bot = copy_bot(&dir, "bad_knight");
    let (bot_text, first, second) = (
        bot.to_str().unwrap(),
        dir.join("first.json"),
        dir.join("second.json"),
    );
    let args = tune_args(bot_text, first.to_str().unwrap());

    // Stopped with Ctrl-C: the steps applied are kept, and the run says how to resume.
    let out = tune_until(&dir, &args, &first, 1);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).contains("stopped after"),
        "{}",
        text(&out.stdout)
    );
    let kept = state(&first)["steps_done"].as_u64().unwrap();
    assert!((1..8).contains(&kept), "{kept} steps kept");

    let out = challenge_in(&dir, &args);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(stdout.contains("tuned over 32 game pairs"), "{stdout}");
    let resumed = state(&first);
    assert_eq!(resumed["steps_done"], 8);
    let knight = resumed["theta"][0].as_f64().unwrap();
    // Toward sense: far above a pawn, and not pushed to the mark's end by construction.
    assert!(
        knight > 200.0 && knight < 500.0,
        "KNIGHT ended at {knight}: {stdout}"
    );

    // The same seed repeats the run exactly, stopped or not.
    let second_args = tune_args(bot_text, second.to_str().unwrap());
    let out = challenge_in(&dir, &second_args);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(state(&second)["theta"], resumed["theta"]);

    // The tuned file differs in the knight's literal alone, and the diff says so.
    let tuned = dir.join("bad_knight.tuned.rs");
    let written = knight.round() as i64;
    let original = std::fs::read_to_string(&bot).unwrap();
    assert_eq!(
        std::fs::read_to_string(&tuned).unwrap(),
        original.replace(
            "const KNIGHT: i32 = 100;",
            &format!("const KNIGHT: i32 = {written};")
        )
    );
    assert!(
        stdout.contains(&format!(
            "+const KNIGHT: i32 = {written}; // tune 100..=500"
        )),
        "{stdout}"
    );
    assert!(
        stdout.contains("is it stronger? challenge match "),
        "{stdout}"
    );
    assert!(stdout.contains("time per game pair: builds "), "{stdout}");

    // The tuned bot is stronger: an SPRT at the run's limit accepts a clear gain.
    let tuned_text = tuned.to_str().unwrap();
    let out = challenge_in(
        &dir,
        &[
            "match",
            tuned_text,
            bot_text,
            "--nodes",
            "2000",
            "--games",
            "400",
            "-j",
            "2",
            "-q",
            "--sprt",
            "elo0=0",
            "elo1=100",
            "alpha=0.05",
            "beta=0.05",
        ],
    );
    let summary = text(&out.stdout);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(summary.contains("SPRT: H1 accepted"), "{summary}");
}

#[test]
fn a_bot_that_crashes_stops_the_run_naming_the_crash_and_keeps_the_state() {
    let dir = scratch_dir("tune_crash");
    let bot = dir.join("crashes.rs");
    std::fs::write(
        &bot,
        "use framework::prelude::*;\nconst K: i32 = 3; // tune 1..=9\n#[derive(Default)]\npub struct MyBot;\n\
         impl Bot for MyBot {\n    fn think(&mut self, _b: Board, _t: Timer) -> Move {\n        \
         panic!(\"deliberate panic at K={}\", K)\n    }\n}\n",
    )
    .unwrap();
    let state_path = dir.join("s.json");
    let args = [
        "tune",
        bot.to_str().unwrap(),
        "--iterations",
        "4",
        "-j",
        "1",
        "--nodes",
        "100",
        "--seed",
        "3",
        "--max-crashes",
        "1",
        "--state",
        state_path.to_str().unwrap(),
        "-q",
    ];
    let out = challenge_in(&dir, &args);
    let stderr = text(&out.stderr);
    assert!(!out.status.success(), "{stderr}");
    assert!(
        stderr.contains("1 steps in a row had a game lost by an engine's fault"),
        "{stderr}"
    );
    assert!(
        stderr.contains("lost by crash") && stderr.contains("deliberate panic at K="),
        "{stderr}"
    );
    assert_eq!(state(&state_path)["steps_done"], 1, "the step is kept");
}

#[test]
fn a_run_whose_output_is_closed_ends_instead_of_waiting_forever() {
    // `challenge tune ... | head -2`: the first step's line fails to print, on the thread
    // that applies the steps; the workers must stop too (they once waited forever).
    let dir = scratch_dir("tune_closed");
    let bot = copy_bot(&dir, "bad_knight");
    let state_path = dir.join("s.json");
    let args = [
        "tune",
        bot.to_str().unwrap(),
        "--iterations",
        "8",
        "-j",
        "2",
        "--nodes",
        "500",
        "--seed",
        "5",
        "--c-end",
        "50",
        "--state",
        state_path.to_str().unwrap(),
    ];
    let mut child = challenge_cmd(&dir, &args)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stderr.take().unwrap()).lines();
    for _ in 0..2 {
        let line = lines.next().expect("the run's first lines").unwrap();
        assert!(!line.starts_with("step"), "{line}");
    }
    drop(lines);
    let deadline = Instant::now() + Duration::from_secs(240);
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("the run went on after its output was closed");
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    assert!(!status.success(), "printing to a closed pipe fails the run");
    assert!(
        state(&state_path)["steps_done"].as_u64().unwrap() >= 1,
        "the step applied is kept"
    );
}

/// Runs `challenge` with `args`, which must fail, and returns its stderr.
fn refusal(dir: &Path, args: &[&str]) -> String {
    let out = challenge_in(dir, args);
    assert!(!out.status.success(), "{args:?} was accepted");
    text(&out.stderr)
}

#[test]
fn bad_input_is_refused_with_its_cause_before_anything_is_built() {
    let dir = scratch_dir("tune_bad");
    let state = dir.join("s.json");
    let state = state.to_str().unwrap();
    let err = refusal(&dir, &["tune", "evil_bot", "--state", state]);
    assert!(err.contains("has no `// tune MIN..=MAX` mark"), "{err}");
    let err = refusal(
        &dir,
        &["tune", "turochamp_faithful@DEPTH=2", "--state", state],
    );
    assert!(
        err.contains("is a variant: tune the bot file itself"),
        "{err}"
    );

    let outside = dir.join("outside.rs");
    let source = std::fs::read_to_string(test_bot("bad_knight")).unwrap();
    let moved = source.replace("= 100; // tune 100..=500", "= 50; // tune 100..=500");
    std::fs::write(&outside, moved).unwrap();
    let err = refusal(&dir, &["tune", outside.to_str().unwrap(), "--state", state]);
    assert!(
        err.contains("KNIGHT") && err.contains("tune 100..=500"),
        "{err}"
    );

    let bot = copy_bot(&dir, "bad_knight");
    let bot = bot.to_str().unwrap();
    let err = refusal(&dir, &["tune", bot, "--c-end", "ROOK=3", "--state", state]);
    assert!(err.contains("`ROOK` is not a tuned constant"), "{err}");
    let err = refusal(&dir, &["tune", bot, "--r-end", "lots", "--state", state]);
    assert!(err.contains("`lots` is not a number"), "{err}");
    let err = refusal(&dir, &["tune", bot, "--c-end", "900", "--state", state]);
    assert!(err.contains("at most the range's width 400"), "{err}");
}

#[test]
fn a_variant_that_does_not_build_is_named_with_the_compilers_message() {
    let dir = scratch_dir("tune_broken");
    let source = std::fs::read_to_string(test_bot("bad_knight")).unwrap();
    let broken = dir.join("broken.rs");
    std::fs::write(
        &broken,
        format!("{source}\nfn wrong() -> i32 {{ \"text\" }}\n"),
    )
    .unwrap();
    let state = dir.join("s.json");
    let args = [
        "tune",
        broken.to_str().unwrap(),
        "--iterations",
        "2",
        "-j",
        "1",
        "--state",
        state.to_str().unwrap(),
    ];
    let err = refusal(&dir, &args);
    assert!(
        err.contains("cannot build the variant `broken@KNIGHT="),
        "{err}"
    );
    assert!(err.contains("mismatched types"), "{err}");
}

#[test]
fn a_state_of_another_run_or_bot_is_refused_naming_what_differs() {
    let dir = scratch_dir("tune_other");
    let bot = copy_bot(&dir, "bad_knight");
    let (bot, other) = (bot.to_str().unwrap(), dir.join("other.json"));
    let other_text = other.to_str().unwrap();
    let begin = [
        "tune",
        bot,
        "--iterations",
        "3",
        "--state",
        other_text,
        "-j",
        "1",
        "--nodes",
        "100",
    ];
    let mut first = challenge_cmd(&dir, &begin)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // The state is written before the first step: stop the run as soon as it is there
    // (finished or not, it is a state of three pairs).
    let deadline = Instant::now() + Duration::from_secs(120);
    while !other.exists() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(10));
    }
    // SAFETY: kill(2) on the child's pid, which has not been waited for.
    unsafe { libc::kill(first.id() as libc::pid_t, libc::SIGINT) };
    assert!(first.wait().unwrap().success());

    let err = refusal(
        &dir,
        &[
            "tune",
            bot,
            "--iterations",
            "5",
            "--state",
            other_text,
            "--nodes",
            "100",
        ],
    );
    assert!(
        err.contains("was begun with other settings: --iterations 5 (state: 3)"),
        "{err}"
    );
    assert!(err.contains("--fresh"), "{err}");
    let elsewhere = dir.join("elsewhere.rs");
    std::fs::copy(bot, &elsewhere).unwrap();
    let err = refusal(
        &dir,
        &["tune", elsewhere.to_str().unwrap(), "--state", other_text],
    );
    assert!(
        err.contains("is of") && err.contains("bad_knight.rs"),
        "{err}"
    );
    std::fs::write(&other, "{ not json").unwrap();
    let err = refusal(&dir, &["tune", bot, "--state", other_text]);
    assert!(err.contains("is not a state this kit wrote"), "{err}");
}

//! Bot files as UCI engines: the host's protocol, its limits, and how each
//! kind of misbehaving bot is reported. Every wait has a timeout, so a test
//! fails instead of hanging.

use crate::common;

use std::time::Duration;

use common::{Engine, build, challenge, scratch_dir, test_bot};

const SHORT: Duration = Duration::from_secs(5);
const LONG: Duration = Duration::from_secs(30);

#[test]
fn starter_bot_answers_a_uci_session() {
    let mut engine = Engine::start(&build("my_bot"));
    let hello = engine.handshake();
    assert!(hello.contains(&"id name my_bot".to_string()), "{hello:?}");
    engine.send("ucinewgame");
    engine.send("position startpos moves e2e4");
    engine.send("go wtime 1000 btime 1000 winc 10 binc 10");
    let best = engine.expect("bestmove", SHORT);
    let mv = best.split_whitespace().nth(1).unwrap();
    let board = framework::chess::Board::from_fen(
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
    )
    .unwrap();
    let parsed = board.parse_uci(mv).expect("a move");
    assert!(board.is_legal(parsed), "{mv} is not legal");
    engine.send("quit");
    let status = engine.wait_exit(SHORT).expect("quit ends the engine");
    assert!(status.success());
}

#[test]
fn stdout_of_the_bot_never_reaches_the_protocol() {
    let mut engine = Engine::start(&build(test_bot("prints")));
    engine.handshake();
    engine.send("position startpos");
    engine.send("go movetime 50");
    let lines = engine.read_until("bestmove", SHORT).expect("a bestmove");
    assert_eq!(lines.len(), 1, "only the bestmove line: {lines:?}");
    assert_ne!(lines[0], "bestmove a1a1");
    engine.send("quit");
    engine.wait_exit(SHORT).expect("exits");
    let stderr = engine.stderr();
    assert!(stderr.contains("thinking about rnbqkbnr"), "{stderr}");
}

#[test]
fn a_panicking_bot_ends_its_process_with_the_message() {
    let mut engine = Engine::start(&build(test_bot("panics")));
    engine.handshake();
    engine.send("position startpos");
    engine.send("go movetime 50");
    let status = engine.wait_exit(SHORT).expect("the engine exits");
    assert_eq!(status.code(), Some(101));
    let stderr = engine.stderr();
    assert!(stderr.contains("deliberate panic in think"), "{stderr}");
    assert!(stderr.contains("the bot panicked"), "{stderr}");
}

#[test]
fn a_bot_stuck_in_a_loop_leaves_the_host_responsive() {
    let mut engine = Engine::start(&build(test_bot("loops_forever")));
    engine.handshake();
    engine.send("position startpos");
    engine.send("go movetime 20");
    assert!(
        engine
            .read_until("bestmove", Duration::from_millis(500))
            .is_none()
    );
    // The host still answers while the bot spins, and quits on request.
    engine.send("stop");
    engine.send("isready");
    engine.expect("readyok", SHORT);
    engine.send("quit");
    let status = engine
        .wait_exit(SHORT)
        .expect("quit ends a spinning engine");
    assert!(status.success());
}

#[test]
fn stack_overflow_ends_the_process_with_a_message() {
    let mut engine = Engine::start(&build(test_bot("overflows_stack")));
    engine.handshake();
    engine.send("position startpos");
    engine.send("go movetime 50");
    let status = engine.wait_exit(LONG).expect("the engine dies");
    assert!(!status.success());
    let stderr = engine.stderr();
    assert!(stderr.contains("overflowed its stack"), "{stderr}");
}

#[test]
fn memory_past_the_limit_ends_the_process_with_a_message() {
    let mut engine = Engine::start(&build(test_bot("hogs_memory")));
    engine.handshake();
    engine.send("position startpos");
    engine.send("go movetime 50");
    let status = engine.wait_exit(LONG).expect("the engine is stopped");
    assert_eq!(status.code(), Some(framework::uci::MEMORY_LIMIT_EXIT_CODE));
    let stderr = engine.stderr();
    assert!(stderr.contains("memory limit exceeded"), "{stderr}");
    assert!(stderr.contains("256 MiB"), "{stderr}");
}

#[test]
fn illegal_and_null_moves_are_reported_and_passed_on() {
    let mut engine = Engine::start(&build(test_bot("plays_illegal")));
    engine.handshake();
    engine.send("position startpos");
    engine.send("go movetime 50");
    let best = engine.expect("bestmove", SHORT);
    let mv = best.strip_prefix("bestmove ").unwrap().to_string();
    // A black move, passed on for the arbiter to judge.
    assert!(mv.ends_with('6') || mv.ends_with('5'), "{mv}");
    engine.send("quit");
    engine.wait_exit(SHORT).expect("exits");
    let stderr = engine.stderr();
    assert!(stderr.contains(&format!("illegal move {mv}")), "{stderr}");

    let mut engine = Engine::start(&build(test_bot("plays_null")));
    engine.handshake();
    engine.send("position startpos");
    engine.send("go movetime 50");
    assert_eq!(engine.expect("bestmove", SHORT), "bestmove 0000");
    engine.send("quit");
    engine.wait_exit(SHORT).expect("exits");
    let said = "think() returned Move::NULL, which is no move";
    assert!(engine.stderr().contains(said), "{}", engine.stderr());
}

#[test]
fn stop_ends_an_infinite_search_and_info_lines_pass_through() {
    let mut engine = Engine::start(&build(test_bot("waits_for_stop")));
    engine.handshake();
    engine.send("position startpos moves d2d4");
    engine.send("go infinite");
    let info = engine.expect("info depth", SHORT);
    assert!(info.contains(" pv "), "{info}");
    assert!(
        engine
            .read_until("bestmove", Duration::from_millis(200))
            .is_none()
    );
    engine.send("stop");
    let best = engine.expect("bestmove", SHORT);
    assert!(best.starts_with("bestmove "), "{best}");
}

#[test]
fn slow_construction_is_reported_as_a_breach() {
    let mut engine = Engine::start(&build(test_bot("slow_to_build")));
    engine.send("uci");
    engine.expect("uciok", SHORT);
    engine.send("isready");
    let lines = engine
        .read_until("readyok", LONG)
        .expect("ready after construction");
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info string limit breach")),
        "{lines:?}"
    );
    // The breach line reaches stderr before `readyok` reaches stdout, but the
    // test's stderr collector is a thread of its own: wait for it, never race it.
    let breach = "limit breach: constructing the bot took";
    assert!(
        engine.stderr_containing(breach, SHORT).is_some(),
        "no `{breach}` on stderr:\n{}",
        engine.stderr()
    );
}

#[test]
fn compile_errors_point_at_the_bot_file() {
    let path = test_bot("does_not_compile");
    let output = challenge(&["build", path.to_str().unwrap()]);
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("does not compile"), "{stderr}");
    // The type error is on line 8 of the bot file itself.
    assert!(
        stderr.contains(&format!("{}:8:", path.display())),
        "{stderr}"
    );
}

#[test]
fn builds_are_cached_by_content() {
    let dir = scratch_dir("cache");
    let file = dir.join("cached_bot.rs");
    let source = std::fs::read_to_string(common::kit_root().join("bot/my_bot.rs")).unwrap();
    // A comment unique to this run, so the first build is really cold.
    let unique = format!("// run {}\n{source}", std::process::id());
    std::fs::write(&file, &unique).unwrap();
    let arg = file.to_str().unwrap();

    let first = challenge(&["build", arg]);
    assert!(
        first.status.success(),
        "{}",
        String::from_utf8_lossy(&first.stderr)
    );
    assert!(!String::from_utf8_lossy(&first.stderr).contains("(cached)"));
    let exe = String::from_utf8(first.stdout).unwrap();
    let built_at = std::fs::metadata(exe.trim()).unwrap().modified().unwrap();

    let second = challenge(&["build", arg]);
    assert!(String::from_utf8_lossy(&second.stderr).contains("(cached)"));
    assert_eq!(String::from_utf8(second.stdout).unwrap(), exe);
    assert_eq!(
        std::fs::metadata(exe.trim()).unwrap().modified().unwrap(),
        built_at
    );

    std::fs::write(&file, format!("{unique}\n// changed\n")).unwrap();
    let third = challenge(&["build", arg]);
    assert!(third.status.success());
    assert!(!String::from_utf8_lossy(&third.stderr).contains("(cached)"));
    assert_ne!(String::from_utf8(third.stdout).unwrap(), exe);
}

#[test]
fn rule_breaking_and_over_limit_bots_are_refused() {
    let dir = scratch_dir("refused");
    let sneaky = dir.join("sneaky.rs");
    std::fs::write(
        &sneaky,
        std::fs::read_to_string(common::kit_root().join("bot/my_bot.rs"))
            .unwrap()
            .replace(
                "board.legal_moves()[0]",
                "{ let _ = std::fs::read(\"book\"); board.legal_moves()[0] }",
            ),
    )
    .unwrap();
    let output = challenge(&["build", sneaky.to_str().unwrap(), "--allow-over-limit"]);
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("breaks the challenge rules"), "{stderr}");
    assert!(stderr.contains("sneaky.rs:"), "{stderr}");

    let long = dir.join("long.rs");
    let padding: String = (0..400)
        .map(|i| format!("const C{i}: u32 = {i};\n"))
        .collect();
    let source = std::fs::read_to_string(common::kit_root().join("bot/my_bot.rs")).unwrap();
    std::fs::write(&long, format!("{source}{padding}")).unwrap();
    let refused = challenge(&["build", long.to_str().unwrap()]);
    assert!(!refused.status.success());
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert!(stderr.contains("over the token limit"), "{stderr}");
    assert!(stderr.contains("--allow-over-limit"), "{stderr}");
    let allowed = challenge(&["build", long.to_str().unwrap(), "--allow-over-limit"]);
    assert!(
        allowed.status.success(),
        "{}",
        String::from_utf8_lossy(&allowed.stderr)
    );
}

#[test]
fn unknown_bots_get_a_helpful_message() {
    let output = challenge(&["build", "no_such_bot"]);
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("no bot `no_such_bot`"), "{stderr}");
    assert!(stderr.contains("evil_bot"), "{stderr}");
}

/// Runs `program args` in `dir` with `input` on stdin, then end of input; its
/// stdout once it exits, or a panic after `timeout`.
fn run_with_input(
    program: &std::path::Path,
    args: &[&str],
    dir: &std::path::Path,
    input: &str,
    timeout: Duration,
) -> String {
    use std::io::{Read, Write};
    use std::process::{Command, Stdio};
    let mut child = Command::new(program)
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("starts");
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(input.as_bytes()).unwrap();
    drop(stdin);
    let deadline = std::time::Instant::now() + timeout;
    while child.try_wait().unwrap().is_none() {
        if std::time::Instant::now() > deadline {
            let _ = child.kill();
            panic!(
                "{} {args:?} did not exit within {timeout:?}",
                program.display()
            );
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let mut out = String::new();
    child
        .stdout
        .take()
        .unwrap()
        .read_to_string(&mut out)
        .unwrap();
    let mut err = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    assert!(child.wait().unwrap().success(), "{out}\n{err}");
    out
}

#[test]
fn end_of_input_while_thinking_still_answers_bestmove() {
    // The README's example, word for word, from a directory outside the kit.
    let out = run_with_input(
        crate::common::challenge_exe(),
        &["uci", "my_bot"],
        &std::env::temp_dir(),
        "uci\nposition startpos\ngo wtime 1000 btime 1000\n",
        LONG,
    );
    assert!(out.lines().any(|l| l.starts_with("bestmove ")), "{out}");
    // Searches that only `stop` ends: the host stops them and waits for the move.
    for (bot, go) in [
        (build(test_bot("waits_for_stop")), "go infinite"),
        (build("turochamp_modern"), "go infinite"),
        (build("turochamp_modern"), "go wtime 600000 btime 600000"),
    ] {
        let start = std::time::Instant::now();
        let out = run_with_input(
            &bot,
            &[],
            &std::env::temp_dir(),
            &format!("uci\nisready\nposition startpos moves e2e4\n{go}\n"),
            LONG,
        );
        let best = out
            .lines()
            .find(|l| l.starts_with("bestmove "))
            .unwrap_or_else(|| panic!("{out}"));
        assert_ne!(best, "bestmove 0000", "{out}");
        assert!(
            start.elapsed() < Duration::from_secs(4),
            "{go}: {:?}",
            start.elapsed()
        );
    }
}

#[test]
fn quit_while_thinking_still_answers_bestmove() {
    let mut engine = Engine::start(&build(test_bot("waits_for_stop")));
    engine.handshake();
    engine.send("position startpos");
    engine.send("go infinite");
    engine.expect("info depth 2", SHORT);
    engine.send("quit");
    engine.expect("bestmove", SHORT);
    assert!(
        engine
            .wait_exit(SHORT)
            .expect("quit ends the engine")
            .success()
    );
}

#[test]
fn the_engine_is_named_by_the_file_not_its_path() {
    let dir = scratch_dir("named");
    let file = dir.join("pathy_bot.rs");
    std::fs::copy(common::kit_root().join("bot/my_bot.rs"), &file).unwrap();
    let out = run_with_input(
        crate::common::challenge_exe(),
        &["uci", file.to_str().unwrap()],
        &dir,
        "uci\nquit\n",
        LONG,
    );
    assert!(out.lines().any(|l| l == "id name pathy_bot"), "{out}");
}

#[test]
fn bot_names_mean_the_same_from_any_directory() {
    let elsewhere = scratch_dir("elsewhere");
    let challenge = crate::common::challenge_exe();
    // `tokens` alone, or with `bot/my_bot.rs`, counts only the folder's own bot
    // (`bot_crate::tokens_with_no_bot_in_reach_says_where_it_looked`).
    for args in [
        &["tokens", "my_bot"][..],
        &["tokens", "evil_bot.rs", "turochamp_modern"],
        &["build", "my_bot"],
        &["build", "bot/evil_bot.rs"],
    ] {
        let output = std::process::Command::new(challenge)
            .args(args)
            .current_dir(&elsewhere)
            .output()
            .unwrap();
        assert!(
            output.status.success(),
            "{args:?} from {}:\n{}{}",
            elsewhere.display(),
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        );
    }
    let counted = std::process::Command::new(challenge)
        .args(["tokens", "my_bot"])
        .current_dir(&elsewhere)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&counted.stdout);
    assert!(text.contains("my_bot.rs: 22 / 1024 tokens"), "{text}");
    // A name that is neither a file nor a kit bot is still reported, not resolved.
    let missing = std::process::Command::new(challenge)
        .args(["tokens", "no_such_bot"])
        .current_dir(&elsewhere)
        .output()
        .unwrap();
    assert_eq!(missing.status.code(), Some(2));
}

#[test]
fn go_infinite_answers_only_after_stop() {
    // evil_bot returns at once; under `go infinite` the host holds its move.
    let mut engine = Engine::start(&build("evil_bot"));
    engine.handshake();
    engine.send("position startpos");
    engine.send("go infinite");
    assert!(
        engine
            .read_until("bestmove", Duration::from_millis(400))
            .is_none(),
        "bestmove before stop"
    );
    engine.send("stop");
    engine.expect("bestmove", SHORT);
    // A timed search is not held.
    engine.send("go wtime 1000 btime 1000");
    engine.expect("bestmove", SHORT);
    engine.send("quit");
    assert!(
        engine
            .wait_exit(SHORT)
            .expect("quit ends the engine")
            .success()
    );
}

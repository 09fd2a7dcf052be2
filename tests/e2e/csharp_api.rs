//! The C# entrants' API, end to end: a search ended with `abort_search` inside the engine's
//! sandbox, and the worked port of `docs/csharp.md` built from the page's own files and
//! played.

use crate::common;
use crate::match_common;

use std::path::PathBuf;
use std::process::Command;
use std::time::Duration;

use common::{Engine, build, challenge, outside, test_bot};
use match_common::{read_pgn_with_python_chess, run_match_ok, scratch};

const SHORT: Duration = Duration::from_secs(10);

fn kit_file(path: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(path)
}

fn read(path: &str) -> String {
    std::fs::read_to_string(kit_file(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// Plays three moves with the test bot `name` (each must be a move), quits, and gives
/// its stderr once it has ended cleanly.
fn three_moves_and_quit(name: &str) -> String {
    let mut engine = Engine::start(&build(test_bot(name)));
    engine.handshake();
    for moves in ["", " moves e2e4", " moves e2e4 e7e5 g1f3"] {
        engine.send(&format!("position startpos{moves}"));
        engine.send("go wtime 5000 btime 5000");
        let best = engine.expect("bestmove", SHORT);
        assert_ne!(best, "bestmove 0000", "{}", engine.stderr());
    }
    engine.send("quit");
    let status = engine.wait_exit(SHORT).expect("quit ends the engine");
    assert!(status.success(), "{}", engine.stderr());
    engine.stderr()
}

#[test]
fn abort_search_unwinds_inside_the_sandbox_and_prints_nothing() {
    let stderr = three_moves_and_quit("aborts");
    // Each move: the short search finished, the long one was aborted, the board was left
    // as it was (the host says so otherwise), and nothing panicked.
    assert_eq!(stderr.matches("finished Some(").count(), 3, "{stderr}");
    assert_eq!(stderr.matches("aborted None").count(), 3, "{stderr}");
    for word in ["panicked", "bot error", "left the board changed"] {
        assert!(!stderr.contains(word), "{word}: {stderr}");
    }
}

#[test]
fn an_abort_nothing_catches_ends_the_engine_with_a_message() {
    let mut engine = Engine::start(&build(test_bot("aborts_uncaught")));
    engine.handshake();
    engine.send("position startpos");
    engine.send("go movetime 50");
    let status = engine.wait_exit(SHORT).expect("the engine exits");
    assert_eq!(status.code(), Some(101));
    let stderr = engine.stderr();
    assert!(
        stderr.contains("abort_search() was called outside try_search"),
        "{stderr}"
    );
}

#[test]
fn a_csharp_catch_catches_a_division_by_zero_under_the_host() {
    let stderr = three_moves_and_quit("csharp_catches");
    let caught = "divided None read None nested Some(true)";
    assert_eq!(stderr.matches(caught).count(), 3, "{stderr}");
    for word in ["panicked", "bot error"] {
        assert!(!stderr.contains(word), "{word}: {stderr}");
    }
}

#[test]
fn a_panic_no_csharp_catch_catches_still_ends_the_engine() {
    // After a caught panic, one outside the `try`; and one raised by a `Drop` while a
    // caught panic unwinds (which Rust would answer by aborting without the message).
    for moves in ["", " moves e2e4"] {
        let mut engine = Engine::start(&build(test_bot("csharp_catch_escapes")));
        engine.handshake();
        engine.send(&format!("position startpos{moves}"));
        engine.send("go movetime 50");
        let status = engine.wait_exit(SHORT).expect("the engine exits");
        let stderr = engine.stderr();
        assert_eq!(status.code(), Some(101), "{stderr}");
        assert!(stderr.contains("caught None"), "{stderr}");
        assert!(
            stderr.contains("bot error: the bot panicked; the engine exits"),
            "{stderr}"
        );
        let why = if moves.is_empty() {
            "attempt to divide by zero"
        } else {
            "a second panic while the first unwinds"
        };
        assert!(stderr.contains(why), "{stderr}");
    }
}

#[test]
fn the_docs_page_shows_the_port_that_is_built_and_counted() {
    let page = read("docs/csharp.md");
    let rust = read("docs/csharp/my_bot.rs");
    let csharp = read("docs/csharp/MyBot.cs");
    assert!(
        page.contains(&rust),
        "docs/csharp.md must show docs/csharp/my_bot.rs as it is"
    );
    assert!(
        page.contains(&csharp),
        "docs/csharp.md must show docs/csharp/MyBot.cs as it is"
    );
    let counted = challenge(&[
        "tokens",
        kit_file("docs/csharp/my_bot.rs").to_str().unwrap(),
    ]);
    assert!(
        counted.status.success(),
        "{}",
        String::from_utf8_lossy(&counted.stderr)
    );
    let text = String::from_utf8_lossy(&counted.stdout);
    let tokens = text
        .split_whitespace()
        .find_map(|w| w.parse::<u32>().ok())
        .unwrap_or_else(|| panic!("no count in {text}"));
    assert!(
        page.contains(&format!("**{tokens} kit tokens**")),
        "docs/csharp.md must give the port's count, {tokens}: {text}"
    );
    let Some(python) = outside::need(&outside::PYTHON3) else {
        return;
    };
    let counted = Command::new(python)
        .arg(kit_file("scripts/csharp_tokens.py"))
        .arg(kit_file("docs/csharp/MyBot.cs"))
        .output()
        .expect("run scripts/csharp_tokens.py");
    let text = String::from_utf8_lossy(&counted.stdout);
    assert!(counted.status.success(), "{text}");
    let tokens = text
        .split_whitespace()
        .find_map(|w| w.parse::<u32>().ok())
        .unwrap_or_else(|| panic!("no count in {text}"));
    assert!(
        page.contains(&format!("**{tokens} C# tokens**")),
        "docs/csharp.md must give the C# bot's count, {tokens}: {text}"
    );
}

/// The kit's count of `docs/csharp/costs/NAME.rs`.
fn cost(name: &str) -> i64 {
    let path = kit_file(&format!("docs/csharp/costs/{name}.rs"));
    let counted = challenge(&["tokens", path.to_str().unwrap()]);
    assert!(
        counted.status.success(),
        "{}",
        String::from_utf8_lossy(&counted.stderr)
    );
    let text = String::from_utf8_lossy(&counted.stdout);
    text.split_whitespace()
        .find_map(|w| w.parse::<i64>().ok())
        .unwrap_or_else(|| panic!("no count in {text}"))
}

#[test]
fn the_docs_page_gives_what_each_shape_saves_as_the_counter_counts_it() {
    let page = read("docs/csharp.md");
    let rows = [
        (
            "moves_by_flag_*.rs",
            "moves_by_flag_before",
            "moves_by_flag_after",
        ),
        (
            "captured_number_*.rs",
            "captured_number_before",
            "captured_number_after",
        ),
        (
            "piece_lists_*.rs",
            "piece_lists_before",
            "piece_lists_after",
        ),
        (
            "search_draw_*.rs",
            "search_draw_before",
            "search_draw_after",
        ),
        ("abort_*.rs", "abort_before", "abort_after"),
        (
            "kept_board_and_timer.rs",
            "abort_after",
            "kept_board_and_timer",
        ),
    ];
    for (mark, before, after) in rows {
        let saved = cost(before) - cost(after);
        let row = page
            .lines()
            .find(|l| l.starts_with("| ") && l.contains(&format!("(`{mark}`")))
            .unwrap_or_else(|| panic!("docs/csharp.md has no row for {mark}"));
        assert!(
            row.ends_with(&format!("| {saved} |")),
            "{mark} saves {saved}: {row}"
        );
    }
}

#[test]
fn the_worked_port_plays_legal_games() {
    let dir = scratch("csharp_port_match");
    let port = kit_file("docs/csharp/my_bot.rs");
    let args = [
        port.to_str().unwrap(),
        "evil_bot",
        "--games",
        "2",
        "--tc",
        "2+0.02",
        "-j",
        "2",
        "--pgn",
        "g.pgn",
        "-q",
    ]
    .map(String::from);
    let stdout = run_match_ok(&dir, &args);
    assert!(stdout.contains("Results of my_bot vs evil_bot"), "{stdout}");
    let games = read_pgn_with_python_chess(&dir.join("g.pgn"));
    assert_eq!(games.len(), 2);
    for game in &games {
        assert!(game.2 != "*" && game.6 == 0, "{game:?}");
        for fault in ["illegal", "crash", "forfeit", "protocol", "stall"] {
            assert!(!game.3.to_lowercase().contains(fault), "{game:?}");
        }
    }
}

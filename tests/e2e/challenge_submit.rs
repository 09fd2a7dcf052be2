//! `challenge submit`, `entries` and `withdraw` end to end: every kind of refusal names
//! its reason and stores nothing; accepted files become immutable, content-hashed
//! versions.

// Test scenarios read top to bottom as one story; the length limit is for library code.
#![allow(clippy::too_many_lines)]

use crate::common_challenge;

use common_challenge::{TempDir, kit_bot, ok, run, submit, text};

const GOOD: &str = "use framework::prelude::*;\n\
#[derive(Default)]\n\
pub struct MyBot;\n\
impl Bot for MyBot {\n\
    fn think(&mut self, board: Board, _timer: Timer) -> Move {\n\
        board.legal_moves()[0]\n\
    }\n\
}\n";

/// A good bot padded with a string literal of `len` characters (each costs a token).
fn padded(len: usize, debug_line: &str) -> String {
    format!(
        "{GOOD}pub const PAD: &str = \"{}\";\n{debug_line}\n",
        "x".repeat(len)
    )
}

fn refused(dir: &std::path::Path, file: &std::path::Path, name: &str, reason: &str) {
    let output = run(dir, &["submit", file.to_str().unwrap(), "--name", name]);
    let all = text(&output);
    assert!(!output.status.success(), "`{name}` was accepted:\n{all}");
    assert!(
        all.contains("refused") && all.contains(reason),
        "`{name}` refused without `{reason}`:\n{all}"
    );
}

#[test]
fn each_broken_submission_is_refused_with_its_reason_and_nothing_is_stored() {
    let tmp = TempDir::new("refusals");
    let dir = tmp.challenge();
    let unparsable = tmp.write(
        "unparsable.rs",
        "use framework::prelude::*;\npub struct MyBot {\n",
    );
    refused(&dir, &unparsable, "unparsable", "does not parse as Rust");
    let file_access = tmp.write(
        "reads_files.rs",
        &GOOD.replace(
            "board.legal_moves()[0]",
            "let _ = std::fs::read_to_string(\"book\");\n        board.legal_moves()[0]",
        ),
    );
    refused(
        &dir,
        &file_access,
        "reads_files",
        "breaks the challenge rules",
    );
    let no_unsafe = tmp.write(
        "uses_unsafe.rs",
        &GOOD.replace(
            "board.legal_moves()[0]",
            "unsafe { board.legal_moves()[0] }",
        ),
    );
    refused(&dir, &no_unsafe, "uses_unsafe", "unsafe");

    // Calibrate the padding so the file is exactly at the limit without #DEBUG tokens.
    let base = token_counter::analyze(&padded(0, "")).unwrap().total();
    let at_limit = padded(1024 - base, "");
    assert_eq!(token_counter::analyze(&at_limit).unwrap().total(), 1024);
    let over = tmp.write("over.rs", &padded(1025 - base, ""));
    refused(&dir, &over, "over", "over the limit of 1024 by 1");
    let debug_over = tmp.write(
        "debug_over.rs",
        &padded(1024 - base, "pub const X: u8 = 1; // #DEBUG"),
    );
    refused(
        &dir,
        &debug_over,
        "debug_over",
        "counting its 5 #DEBUG tokens",
    );

    refused(
        &dir,
        &kit_bot("does_not_compile"),
        "does_not_compile",
        "does_not_compile.rs:8",
    );
    refused(
        &dir,
        &kit_bot("panics"),
        "panics",
        "crashed (exit code 101 (panic))",
    );
    refused(
        &dir,
        &kit_bot("loops_forever"),
        "loops_forever",
        "did not answer within",
    );
    refused(
        &dir,
        &kit_bot("plays_illegal"),
        "plays_illegal",
        "not a legal move",
    );
    refused(
        &dir,
        &kit_bot("plays_null"),
        "plays_null",
        "`0000`, which is not a legal move",
    );
    refused(
        &dir,
        &kit_bot("hogs_memory"),
        "hogs_memory",
        "256 MiB memory limit",
    );
    refused(
        &dir,
        &kit_bot("overflows_stack"),
        "overflows_stack",
        "crashed (signal",
    );
    refused(
        &dir,
        &kit_bot("slow_to_build"),
        "slow_to_build",
        "constructing it took longer than",
    );

    let bad_name = run(
        &dir,
        &[
            "submit",
            kit_bot("my_bot").to_str().unwrap(),
            "--name",
            "no spaces",
        ],
    );
    assert!(!bad_name.status.success());
    assert!(text(&bad_name).contains("not a valid entry name"));

    // The file exactly at the limit is fine.
    let ok_file = tmp.write("at_limit.rs", &at_limit);
    assert!(submit(&dir, &ok_file, "at_limit").contains("1024 / 1024 tokens"));
    let entries = ok(&dir, &["entries", "--all"]);
    assert_eq!(entries.lines().count(), 2, "{entries}");
    assert!(entries.contains("at_limit"));
}

#[test]
fn versions_are_immutable_and_replace_each_other_and_withdrawal_keeps_the_entry() {
    let tmp = TempDir::new("versions");
    let dir = tmp.challenge();
    let file = tmp.write("alpha.rs", GOOD);
    let first = submit(&dir, &file, "alpha");
    assert!(first.starts_with("accepted `alpha` v1 ("), "{first}");
    assert!(
        ok(&dir, &["submit", file.to_str().unwrap(), "--name", "alpha"]).starts_with("unchanged")
    );

    // The stored source is the submitted one, whatever happens to the file later.
    let changed = format!("// second version\n{GOOD}");
    std::fs::write(&file, &changed).unwrap();
    let output = run(
        &dir,
        &[
            "submit",
            file.to_str().unwrap(),
            "--name",
            "alpha",
            "--author",
            "Ann",
        ],
    );
    let second = String::from_utf8_lossy(&output.stdout).to_string();
    assert!(
        second.contains("`alpha` v2") && second.contains("replaces v1"),
        "{}",
        text(&output)
    );
    std::fs::write(&file, "garbage").unwrap();
    let db = rusqlite::Connection::open(dir.join("challenge.db")).unwrap();
    let sources: Vec<String> = db
        .prepare("SELECT source FROM versions ORDER BY number")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(sources, [GOOD.to_string(), changed]);

    let current = ok(&dir, &["entries"]);
    assert_eq!(current.lines().count(), 2, "{current}");
    assert!(current.contains("Ann") && current.contains("v2") && current.contains("active"));
    let all = ok(&dir, &["entries", "--all"]);
    assert!(all.contains("replaced"), "{all}");

    assert!(ok(&dir, &["withdraw", "alpha"]).starts_with("withdrew `alpha`"));
    assert!(ok(&dir, &["withdraw", "alpha"]).contains("already withdrawn"));
    assert!(ok(&dir, &["entries"]).contains("withdrawn"));
    let unknown = run(&dir, &["withdraw", "nobody"]);
    assert!(!unknown.status.success() && text(&unknown).contains("challenge entries"));

    // Submitting the current file again brings it back without a new version.
    let back = tmp.write("again.rs", &format!("// second version\n{GOOD}"));
    assert!(submit(&dir, &back, "alpha").contains("is back in the challenge with v2"));
    assert!(ok(&dir, &["entries"]).contains("active"));
}

#[test]
fn commands_on_a_missing_challenge_say_how_to_start_one() {
    let tmp = TempDir::new("missing");
    for args in [
        &["entries"][..],
        &["standings"],
        &["run"],
        &["report", "--html", "x.html"],
    ] {
        let output = run(&tmp.challenge(), args);
        assert!(!output.status.success());
        assert!(
            text(&output).contains("challenge submit FILE --name NAME"),
            "{args:?}"
        );
    }
}

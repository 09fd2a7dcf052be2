//! Rough edges a user meets on the command line: `submit` takes the kit's bot names as
//! every other command does, an error's cause is printed once, and the commands a run
//! suggests at its end work as printed.

use crate::common_challenge;

use std::path::Path;

use common_challenge::{TempDir, command, kit_root, ok, run, submit, text};

#[test]
fn submit_takes_a_kit_bot_by_name_from_any_directory() {
    let tmp = TempDir::new("submit-by-name");
    let dir = tmp.challenge();
    let output = command()
        .current_dir(tmp.path())
        .args(["submit", "evil_bot", "--dir"])
        .arg(&dir)
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", text(&output));
    let said = String::from_utf8_lossy(&output.stdout);
    assert!(said.contains("accepted `evil_bot` v1"), "{said}");

    let output = run(&dir, &["submit", "no_such_bot"]);
    assert!(!output.status.success());
    let said = String::from_utf8_lossy(&output.stderr);
    assert!(
        said.contains("no bot `no_such_bot`") && said.contains("evil_bot"),
        "the error names the cause and the bots there are: {said}"
    );
}

#[test]
fn an_error_s_cause_is_printed_once() {
    let tmp = TempDir::new("cause-once");
    let missing = tmp.path().join("no-such-openings.pgn");
    let output = command()
        .args(["match", "evil_bot", "evil_bot", "--openings"])
        .arg(&missing)
        .output()
        .unwrap();
    assert!(!output.status.success());
    let said = String::from_utf8_lossy(&output.stderr);
    assert_eq!(
        said.matches("No such file or directory").count(),
        1,
        "the cause once: {said}"
    );
    assert!(said.contains("no-such-openings.pgn"), "{said}");
}

/// The errors that put their cause in their own message must not also be its `source`
/// (anyhow's `{:#}`, which the program prints, would show it twice): no `#[error(...)]`
/// anywhere names a `{source}` field.
#[test]
fn no_error_message_repeats_its_source() {
    let mut offenders = Vec::new();
    for dir in [
        "src",
        "framework",
        "runner",
        "token-counter/src",
        "store/src",
        "bot-build/src",
        "results/src",
        "league/src",
        "play/src",
        "measure/src",
        "serve/src",
    ] {
        visit(&kit_root().join(dir), &mut offenders);
    }
    assert!(offenders.is_empty(), "{offenders:#?}");
}

fn visit(dir: &Path, offenders: &mut Vec<String>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() && !path.ends_with("target") {
            visit(&path, offenders);
        } else if path.extension().is_some_and(|e| e == "rs") {
            let text = std::fs::read_to_string(&path).unwrap();
            for (at, _) in text.match_indices("#[error(") {
                let attribute = &text[at..text[at..].find(")]").map_or(text.len(), |e| at + e)];
                if attribute.contains("{source") {
                    offenders.push(format!("{}: {attribute}", path.display()));
                }
            }
        }
    }
}

#[test]
fn the_commands_a_run_suggests_work_as_printed() {
    let tmp = TempDir::new("run-hints");
    let dir = tmp.challenge();
    submit(&dir, &kit_root().join("bot/my_bot.rs"), "mine");
    submit(&dir, &kit_root().join("bot/evil_bot.rs"), "evil");
    let output = run(&dir, &["run", "--tc", "1+0.05"]);
    assert!(output.status.success(), "{}", text(&output));
    let said = String::from_utf8_lossy(&output.stderr).into_owned();
    let hints: Vec<&str> = said
        .split('`')
        .skip(1)
        .step_by(2)
        .filter(|quoted| quoted.starts_with("challenge "))
        .collect();
    assert!(
        hints.iter().any(|h| h.starts_with("challenge report")),
        "{said}"
    );
    for hint in hints {
        let page = tmp.path().join("hinted.html");
        let args: Vec<String> = hint
            .split_whitespace()
            .skip(1)
            .map(|word| {
                if word == "FILE" {
                    page.display().to_string()
                } else {
                    word.to_string()
                }
            })
            .collect();
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        ok(&dir, &args);
    }
    // `-o`, as `analyze` and `match` name their output, is the report's file too.
    let page = tmp.path().join("short.html");
    ok(&dir, &["report", "-o", page.to_str().unwrap()]);
    assert!(
        std::fs::read_to_string(&page)
            .unwrap()
            .contains("Standings")
    );
}

/// `challenge perft 3 --divide | head -1`, and `... 2>&1 | head -1`: the reader goes away
/// before the program is done. It ends as Unix tools do (the default action of
/// SIGPIPE), not with a panic message and exit code 101.
#[cfg(unix)]
#[test]
fn a_closed_pipe_ends_a_command_quietly() {
    use std::os::unix::process::ExitStatusExt;
    use std::process::Stdio;
    let closed = || {
        let (reader, writer) = std::io::pipe().unwrap();
        drop(reader);
        writer
    };
    // stdout closed: the moves' lines cannot be written; stderr closed: its one line (the
    // speed) cannot.
    let cases: [(&[&str], bool); 2] = [
        (&["perft", "3", "--divide"], true),
        (&["perft", "2"], false),
    ];
    for (args, stdout_closed) in cases {
        let (out, err) = if stdout_closed {
            (Stdio::from(closed()), Stdio::piped())
        } else {
            (Stdio::piped(), Stdio::from(closed()))
        };
        let output = command()
            .args(args)
            .stdout(out)
            .stderr(err)
            .output()
            .unwrap();
        assert_eq!(
            output.status.signal(),
            Some(libc::SIGPIPE),
            "{args:?}: {}",
            text(&output)
        );
        assert!(output.stderr.is_empty(), "{}", text(&output));
    }
}

/// The over-limit hint names a command that is on the user's PATH, and it works as
/// printed.
#[test]
fn the_over_limit_hint_works_as_printed() {
    let lab = kit_root().join("bot/lab/tt_lab.rs");
    let output = command()
        .args(["tokens", lab.to_str().unwrap()])
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&output.stdout).into_owned();
    let hint = said
        .split('`')
        .find(|quoted| quoted.starts_with("challenge tokens --top 10"))
        .unwrap_or_else(|| panic!("no `challenge tokens --top 10` hint: {said}"));
    let args: Vec<&str> = hint.split_whitespace().skip(1).collect();
    let output = command().args(&args).output().unwrap();
    let top = String::from_utf8_lossy(&output.stdout);
    assert!(top.contains("10 most expensive lines"), "{}", text(&output));
}

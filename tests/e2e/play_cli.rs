//! `challenge play`: a human at the terminal against a bot, driven through stdin.

use crate::common;

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

use common::{kit_root, scratch_dir, test_bot};

/// `challenge play BOT` at 60+0 saving to `pgn`, its three streams piped.
fn play_command(bot: &Path, pgn: &Path) -> Command {
    let mut command = Command::new(crate::common::challenge_exe());
    command
        .current_dir(kit_root())
        .arg("play")
        .arg(bot)
        .args(["--tc", "60+0", "--pgn"])
        .arg(pgn)
        .env("NO_COLOR", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    command
}

/// Plays `bot` with `input` typed at the prompt; returns stdout and the saved PGN.
fn play(bot: &str, input: &str) -> (String, String) {
    let dir = scratch_dir(&format!("play-{bot}"));
    let pgn = dir.join("game.pgn");
    let mut child = play_command(&test_bot(bot), &pgn)
        .spawn()
        .expect("challenge runs");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let output = child.wait_with_output().unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let stdout = String::from_utf8(output.stdout).unwrap();
    (
        stdout,
        std::fs::read_to_string(&pgn).expect("the game is saved"),
    )
}

#[test]
fn a_bot_past_the_construction_limit_forfeits_before_the_first_move() {
    let (stdout, pgn) = play("slow_to_build", "");
    assert!(
        stdout.contains("past the construction limit of 5s: it forfeits"),
        "{stdout}"
    );
    assert!(pgn.contains("[Result \"1-0\"]"), "{pgn}");
    assert!(pgn.contains("[Termination \"rules infraction\"]"), "{pgn}");
    assert!(
        pgn.contains("[TerminationDetails \"construction limit\"]"),
        "{pgn}"
    );
}

#[test]
fn a_bot_that_answers_the_null_move_loses_and_the_game_is_saved() {
    let (stdout, pgn) = play("plays_null", "e4\n");
    assert!(stdout.contains("Game saved to"), "{stdout}");
    assert!(pgn.contains("1. e4 1-0"), "{pgn}");
    assert!(pgn.contains("[Termination \"rules infraction\"]"), "{pgn}");
    assert!(pgn.contains("[TerminationDetails \"null move\"]"), "{pgn}");
    assert!(stdout.contains("returns `Move::NULL`"), "{stdout}");
}

/// The commands at the prompt: an illegal move is called so, an undo before any move is
/// refused, help lists the commands, an undo takes back a move and the reply, and
/// resigning ends the game with nothing of the taken-back moves in the PGN. Each line is
/// a command: what a refusal or the help says waits for no Enter, so the line typed after
/// it is the next command (a pause for Enter once swallowed it: `undo` went unanswered).
#[test]
fn commands_are_answered_and_undo_takes_back_a_move_and_its_reply() {
    let (stdout, pgn) = play(
        "rule_fewest_replies",
        "e2e5\nundo\nhelp\nflip\ne4\nundo\nresign\n",
    );
    assert!(!stdout.contains("press Enter"), "{stdout}");
    for said in [
        "You play White against rule_fewest_replies.",
        "`e2e5` is not legal here.",
        "Nothing to take back yet.",
        "  undo    take back your last move and the bot's reply",
        "rule_fewest_replies is thinking...",
        "You resigned (0-1)",
        "Game saved to",
    ] {
        assert!(stdout.contains(said), "{said}: {stdout}");
    }
    // After `flip`, the board is seen from Black: files run h to a.
    assert!(stdout.contains(" 8  r  n  b  k  q  b  n  r "), "{stdout}");
    assert!(pgn.contains("[Result \"0-1\"]"), "{pgn}");
    assert!(pgn.contains("[PlyCount \"0\"]"), "{pgn}");
    assert!(!pgn.contains("1. e4"), "{pgn}");
}

/// Ctrl-C at the prompt: the game so far is saved, left by the human, and the program
/// says where (it was lost before).
#[cfg(unix)]
#[test]
fn ctrl_c_at_the_prompt_saves_the_game_and_says_where() {
    use std::io::{BufRead, BufReader, Read};
    let dir = scratch_dir("play-ctrl-c");
    let pgn = dir.join("game.pgn");
    let mut child = play_command(Path::new("evil_bot"), &pgn)
        .spawn()
        .expect("challenge runs");
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(b"e4\n").unwrap();
    // The prompt comes again once the bot has answered e4: the prompt has no newline, so
    // read the bytes as they come.
    let mut out = BufReader::new(child.stdout.take().unwrap());
    let mut seen = Vec::new();
    while String::from_utf8_lossy(&seen)
        .matches("Your move: ")
        .count()
        < 2
    {
        let buffer = out.fill_buf().unwrap();
        assert!(!buffer.is_empty(), "{}", String::from_utf8_lossy(&seen));
        seen.extend_from_slice(buffer);
        let n = buffer.len();
        out.consume(n);
    }
    // SAFETY: kill(2) on the child's pid, which has not been waited for.
    unsafe { libc::kill(child.id() as libc::pid_t, libc::SIGINT) };
    out.read_to_end(&mut seen).unwrap();
    let status = child.wait().unwrap();
    let said = String::from_utf8_lossy(&seen);
    assert!(
        said.contains(&format!("Game saved to {}", pgn.display())),
        "{said}"
    );
    assert_eq!(status.code(), Some(130));
    let text = std::fs::read_to_string(&pgn).expect("the game is saved");
    assert!(text.contains("1. e4"), "{text}");
    assert!(text.contains("[Termination \"abandoned\"]"), "{text}");
    drop(stdin);
}

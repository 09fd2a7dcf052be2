//! The `token-counter` command as a user runs it.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const GOOD: &str = r#"use framework::prelude::*;
#[derive(Default)]
pub struct MyBot;
impl Bot for MyBot {
    fn think(&mut self, board: Board, _timer: Timer) -> Move {
        let moves = board.legal_moves();
        eprintln!("{}", moves.len()); // #DEBUG
        moves[0]
    }
}
"#;

fn scratch() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("token-counter-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

fn run(args: &[&Path], flags: &[&str]) -> (i32, String) {
    let out: Output = Command::new(env!("CARGO_BIN_EXE_token-counter"))
        .args(flags)
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code().unwrap(),
        String::from_utf8(out.stdout).unwrap(),
    )
}

#[test]
fn a_good_bot_exits_zero_and_reports_count_and_debug_tokens() {
    let dir = scratch();
    let good = write(&dir, "good.rs", GOOD);
    let (code, out) = run(&[&good], &[]);
    assert_eq!(code, 0, "{out}");
    let name = good.display();
    assert_eq!(
        out,
        format!(
            "{name}: 26 / 1024 tokens, 11 #DEBUG tokens (#DEBUG tokens count when submitted: 37 / 1024)\n"
        )
    );
}

#[test]
fn a_rule_breaking_bot_exits_one_with_position_rule_and_hint() {
    let dir = scratch();
    let bad = write(
        &dir,
        "bad.rs",
        &GOOD.replace(
            "let moves",
            "let _ = std::fs::read(\"x\");\n        let moves",
        ),
    );
    let (code, out) = run(&[&bad], &[]);
    assert_eq!(code, 1);
    let name = bad.display();
    assert!(
        out.contains(&format!(
            "{name}:6:17: error[forbidden-path]: `std::fs` is not one of"
        )),
        "{out}"
    );
    assert!(out.contains("\n  hint: use only cmp"), "{out}");
}

#[test]
fn an_over_limit_bot_exits_one() {
    let dir = scratch();
    let body = "        let _ = 1;\n".repeat(300);
    let big = write(
        &dir,
        "big.rs",
        &GOOD.replace("        moves[0]\n", &format!("{body}        moves[0]\n")),
    );
    let (code, out) = run(&[&big], &[]);
    assert_eq!(code, 1);
    assert!(
        out.contains("error[over-limit]: 202 tokens over the limit of 1024"),
        "{out}"
    );
}

#[test]
fn debug_tokens_over_the_limit_fail_only_as_a_submission() {
    let dir = scratch();
    let body = "        let _ = 1; // #DEBUG\n".repeat(300);
    let path = write(
        &dir,
        "debug.rs",
        &GOOD.replace("        moves[0]\n", &format!("{body}        moves[0]\n")),
    );
    let (code, out) = run(&[&path], &[]);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("warning: with its #DEBUG tokens the bot is"),
        "{out}"
    );
    let (code, _) = run(&[&path], &["--submission"]);
    assert_eq!(code, 1);
}

#[test]
fn unreadable_or_unparsable_files_exit_two() {
    let dir = scratch();
    let missing = dir.join("missing.rs");
    let (code, out) = run(&[&missing], &[]);
    assert_eq!(code, 2);
    assert!(out.contains("cannot read the file"), "{out}");

    let broken = write(&dir, "broken.rs", "fn f() {\n    let = 1;\n}\n");
    let good = write(&dir, "good2.rs", GOOD);
    let (code, out) = run(&[&good, &broken], &[]);
    assert_eq!(code, 2, "a parse error outranks a passing file");
    assert!(
        out.contains(&format!("error: {}:2:9: expected", broken.display())),
        "{out}"
    );
}

#[test]
fn json_gives_one_object_per_file() {
    let dir = scratch();
    let good = write(&dir, "good3.rs", GOOD);
    let bad = write(&dir, "bad3.rs", "mod x;");
    let (code, out) = run(&[&good, &bad], &["--json"]);
    assert_eq!(code, 1);
    let objects: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(objects.len(), 2);
    let g = &objects[0];
    assert_eq!(
        (
            g["tokens"].as_u64(),
            g["debug_tokens"].as_u64(),
            g["limit"].as_u64()
        ),
        (Some(26), Some(11), Some(1024))
    );
    assert_eq!(g["lines"][6]["debug"].as_u64(), Some(11));
    assert_eq!(g["lines"].as_array().unwrap().len(), 10);
    let v = &objects[1]["violations"];
    let rules: Vec<_> = v
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v["rule"].as_str().unwrap())
        .collect();
    assert_eq!(rules, ["mod-without-body", "missing-my-bot"]);
    assert_eq!(
        (v[0]["line"].as_u64(), v[0]["column"].as_u64()),
        (Some(1), Some(1))
    );
    assert!(v[0]["message"].as_str().unwrap().contains("mod"));
    assert!(v[0]["hint"].is_string());
}

#[test]
fn lines_and_top_show_per_line_costs() {
    let dir = scratch();
    let good = write(&dir, "good4.rs", GOOD);
    let (_, out) = run(&[&good], &["--lines"]);
    assert!(out.contains("    5      9      fn think("), "{out}");
    assert!(out.contains("    7    11d          eprintln!"), "{out}");
    assert!(out.contains("   10      0  }"), "{out}");
    let (_, out) = run(&[&good], &["--top", "2"]);
    let top: Vec<_> = out
        .lines()
        .skip_while(|l| !l.contains("most expensive"))
        .skip(1)
        .collect();
    assert_eq!(top.len(), 2, "{out}");
    assert!(top[0].starts_with("    7    11d  eprintln!"), "{out}");
    assert!(top[1].starts_with("    5      9  fn think("), "{out}");
}

#[test]
fn the_default_file_is_the_kits_bot() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let out = Command::new(env!("CARGO_BIN_EXE_token-counter"))
        .current_dir(root)
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.starts_with("bot/my_bot.rs: "), "{text}");
}

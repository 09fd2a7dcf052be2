//! A bot name says where it came from: a bare name is the current directory's
//! `bot/NAME.rs` first, then the kit's bundled bot, every command that builds a bot names
//! the file it used on stderr, and the files the kit makes (variants, a tuning's state and
//! its tuned bot) go into the current directory, never into the kit's checkout.

use crate::common_challenge;

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use common_challenge::{TempDir, kit_bot, kit_root, text};

/// `challenge ARGS` run in `dir`, with no variants folder of the test's own: the default
/// is what is tested.
fn challenge_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(crate::common::challenge_exe())
        .args(args)
        .current_dir(dir)
        .env_remove("CHALLENGE_VARIANTS_DIR")
        .stdin(Stdio::null())
        .output()
        .expect("challenge runs")
}

/// A work folder with a `bot/my_bot.rs` of its own (a copy of evil_bot: another bot than
/// the kit's `my_bot`), as a user of an installed kit has.
fn work_folder(label: &str) -> (TempDir, PathBuf) {
    let tmp = TempDir::new(label);
    std::fs::create_dir_all(tmp.path().join("bot")).unwrap();
    let mine = tmp.path().join("bot/my_bot.rs");
    std::fs::copy(kit_bot("evil_bot"), &mine).unwrap();
    let mine = mine.canonicalize().unwrap();
    (tmp, mine)
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

#[test]
fn a_bare_name_is_the_current_directory_s_bot_first_and_every_command_names_its_file() {
    let (tmp, mine) = work_folder("names-here");
    let kit_evil = kit_bot("evil_bot").canonicalize().unwrap();
    let said_mine = format!("bot my_bot: {}", mine.display());
    let said_evil = format!("bot evil_bot: {}, bundled with the kit", kit_evil.display());

    let built = challenge_in(tmp.path(), &["build", "my_bot"]);
    assert!(built.status.success(), "{}", text(&built));
    assert!(stderr(&built).contains(&said_mine), "{}", text(&built));

    let played = challenge_in(
        tmp.path(),
        &[
            "match", "my_bot", "evil_bot", "-n", "2", "--nodes", "200", "-q",
        ],
    );
    assert!(played.status.success(), "{}", text(&played));
    let said = stderr(&played);
    assert!(
        said.contains(&said_mine) && said.contains(&said_evil),
        "{}",
        text(&played)
    );

    let benched = challenge_in(tmp.path(), &["bench", "my_bot", "--nodes", "100"]);
    assert!(stderr(&benched).contains(&said_mine), "{}", text(&benched));

    // `uci` becomes the engine: the line comes before, on stderr.
    let uci = challenge_in(tmp.path(), &["uci", "my_bot"]);
    assert!(stderr(&uci).contains(&said_mine), "{}", text(&uci));

    // From the kit's root, the same name is the kit's own bot, and not marked bundled.
    let at_kit = challenge_in(&kit_root(), &["build", "my_bot"]);
    let kit_mine = kit_bot("my_bot").canonicalize().unwrap();
    assert!(
        stderr(&at_kit).contains(&format!("bot my_bot: {}\n", kit_mine.display())),
        "{}",
        text(&at_kit)
    );
}

#[test]
fn a_name_found_nowhere_says_where_it_was_looked_for() {
    let (tmp, _) = work_folder("names-nowhere");
    let out = challenge_in(tmp.path(), &["build", "no_such_bot"]);
    assert!(!out.status.success());
    let said = stderr(&out);
    let here = tmp.path().canonicalize().unwrap().join("bot");
    assert!(
        said.contains(&here.display().to_string())
            && said.contains(&kit_root().join("bot").display().to_string()),
        "both places are named: {said}"
    );
    assert!(
        said.contains("my_bot") && said.contains("evil_bot"),
        "{said}"
    );
}

#[test]
fn variants_are_made_in_the_current_directory_not_in_the_kit() {
    let (tmp, _) = work_folder("names-variants");
    let out = challenge_in(tmp.path(), &["tokens", "turochamp_faithful@DEPTH=2"]);
    assert!(out.status.success(), "{}", text(&out));
    let counted = String::from_utf8_lossy(&out.stdout).into_owned();
    let here = tmp.path().canonicalize().unwrap().join("target/variants");
    assert!(
        counted.starts_with(&here.display().to_string()),
        "the variant's file is made under {}: {counted}",
        here.display()
    );
}

/// One step of tuning `bot` at `nodes` a move, run in `dir`.
fn tune_one_step(dir: &Path, bot: &str, nodes: &str) -> Output {
    let args = [
        "tune",
        bot,
        "--iterations",
        "1",
        "--nodes",
        nodes,
        "-j",
        "1",
    ];
    let out = challenge_in(dir, &args);
    assert!(out.status.success(), "{}", text(&out));
    out
}

/// One step of a tuning run from a work folder: the bot by its bare name from `./bot/`,
/// its file in the header, the state under `./target/tune/`, the variants under
/// `./target/variants/`, and the tuned file beside the bot.
#[test]
fn a_tuning_run_names_its_bot_and_keeps_what_it_makes_in_the_work_folder() {
    let (tmp, _) = work_folder("names-tune");
    let bot = tmp.path().join("bot/bad_knight.rs");
    std::fs::copy(kit_bot("bad_knight"), &bot).unwrap();
    let bot = bot.canonicalize().unwrap();
    let out = tune_one_step(tmp.path(), "bad_knight", "200");
    assert!(
        stderr(&out).contains(&format!("tuning bad_knight ({})", bot.display())),
        "{}",
        text(&out)
    );
    let here = tmp.path().canonicalize().unwrap();
    assert!(here.join("target/tune/bad_knight.json").is_file());
    assert!(here.join("bot/bad_knight.tuned.rs").is_file());
    let variants = std::fs::read_dir(here.join("target/variants"))
        .expect("the variants are made here")
        .count();
    assert!(variants > 0);
}

/// A bundled bot tuned from a work folder: its tuned file goes into the folder's `bot/`,
/// never beside the kit's file.
#[test]
fn a_bundled_bot_s_tuned_file_goes_into_the_work_folder() {
    let (tmp, _) = work_folder("names-tune-bundled");
    let out = tune_one_step(tmp.path(), "turochamp_modern", "100");
    assert!(
        stderr(&out).contains("bundled with the kit"),
        "{}",
        text(&out)
    );
    let here = tmp.path().canonicalize().unwrap();
    assert!(here.join("bot/turochamp_modern.tuned.rs").is_file());
    assert!(!kit_root().join("bot/turochamp_modern.tuned.rs").exists());
}

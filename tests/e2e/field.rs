//! `challenge field` and `challenge rate --field` as a user meets them, on a folder laid out
//! as the C# challenge's results repository is, made by the test of the kit's own bots
//! (Rust entries need no translator, and nothing comes from the network): the field is made,
//! stopped with Ctrl-C and resumed without redoing what was done; a bot is rated against
//! it, stopped and resumed with its games kept; entries that break the rules or do not
//! compile are recorded with their cause.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use crate::common::{kit_root, scratch_dir};

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn challenge_cmd(args: &[&str]) -> Command {
    let mut command = Command::new(crate::common::challenge_exe());
    command.args(args).current_dir(kit_root());
    command
}

fn challenge(args: &[&str]) -> Output {
    challenge_cmd(args).output().expect("challenge runs")
}

/// The entries: four of the kit's bots under made-up published ratings, one that breaks
/// a rule, one that does not compile, one that is not on the list.
const ENTRIES: [(&str, &str, Option<i32>); 7] = [
    ("Bot_1", "turochamp_modern", Some(1900)),
    ("Bot_2", "turochamp_faithful", Some(1500)),
    ("Bot_3", "evil_bot", Some(1000)),
    ("Bot_4", "my_bot", Some(200)),
    ("Bot_5", "unsafe", Some(100)),
    ("Bot_6", "broken", Some(50)),
    ("Bot_7", "evil_bot", None),
];

/// A folder of entries: `Bots/`, `RatingsList.txt` (BayesElo's layout, a name as the C#
/// list damages it) and `BotMetaData.json`.
fn entries_folder(name: &str) -> PathBuf {
    let entries: Vec<(&str, String, Option<i32>)> = ENTRIES
        .iter()
        .map(|&(id, bot, elo)| {
            let source = match bot {
                "unsafe" => "use framework::prelude::*;\n#[derive(Default)]\npub struct MyBot;\nimpl Bot for MyBot {\n    fn think(&mut self, board: Board, _t: Timer) -> Move {\n        unsafe { board.legal_moves()[0] }\n    }\n}\n".to_string(),
                "broken" => "use framework::prelude::*;\n#[derive(Default)]\npub struct MyBot;\nimpl Bot for MyBot {\n    fn think(&mut self, _b: Board, _t: Timer) -> Move {\n        5\n    }\n}\n".to_string(),
                kit => kit_bot(kit),
            };
            (id, source, elo)
        })
        .collect();
    folder_of(name, &entries)
}

fn kit_bot(name: &str) -> String {
    std::fs::read_to_string(kit_root().join("bot").join(format!("{name}.rs"))).unwrap()
}

/// A folder of `entries` (id, source, published rating), named after the entry's id in
/// the metadata and the list.
fn folder_of(name: &str, entries: &[(&str, String, Option<i32>)]) -> PathBuf {
    let dir = scratch_dir(name);
    let bots = dir.join("Bots");
    std::fs::create_dir_all(&bots).unwrap();
    let mut list = String::from(
        "Made up for a test.\n\nRank Name                                         Elo    +    - games score oppo. draws\n",
    );
    let mut meta = Vec::new();
    let mut rank = 0;
    for (id, source, elo) in entries {
        std::fs::write(bots.join(format!("{id}.rs")), source).unwrap();
        let bot_name = format!("blå entry {id}");
        meta.push(serde_json::json!({"BotID": id, "BotName": bot_name, "AuthorName": "Test"}));
        if let Some(elo) = elo {
            rank += 1;
            // The list shows UTF-8 read as code page 437: `å` as `├Ñ`.
            let shown = format!("bl├Ñ entry {id} (by: Test)");
            list.push_str(&format!(
                "{rank:>4} {shown:<44} {elo:>4}   40   40   128   50%  1000   20%\n"
            ));
        }
    }
    std::fs::write(dir.join("RatingsList.txt"), list).unwrap();
    std::fs::write(
        dir.join("BotMetaData.json"),
        serde_json::to_string(&meta).unwrap(),
    )
    .unwrap();
    dir
}

fn manifest(dir: &Path) -> serde_json::Value {
    let text = std::fs::read_to_string(dir.join("field").join("field.json")).unwrap();
    serde_json::from_str(&text).unwrap()
}

fn entry<'a>(manifest: &'a serde_json::Value, id: &str) -> &'a serde_json::Value {
    manifest["entries"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["id"] == id)
        .unwrap()
}

/// Runs `args`, and stops it with SIGINT once `ready` says so (or after five minutes).
fn interrupted(args: &[&str], ready: impl Fn() -> bool) -> Output {
    let child = challenge_cmd(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("challenge runs");
    let deadline = Instant::now() + Duration::from_secs(300);
    while !ready() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(20));
    }
    // SAFETY: kill(2) on the child's pid, which has not been waited for.
    unsafe { libc::kill(child.id() as libc::pid_t, libc::SIGINT) };
    child.wait_with_output().expect("challenge ends")
}

/// The entries whose four steps are done, by the manifest on disk.
fn finished_entries(dir: &Path) -> usize {
    std::fs::read_to_string(dir.join("field").join("field.json"))
        .ok()
        .and_then(|t| serde_json::from_str::<serde_json::Value>(&t).ok())
        .map_or(0, |m| {
            m["entries"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|e| e["steps"].as_array().is_some_and(|s| s.len() == 4))
                .count()
        })
}

#[test]
fn a_field_is_made_stopped_and_resumed_then_a_bot_is_rated_stopped_and_resumed() {
    let dir = entries_folder("field_resume");
    let folder = dir.to_str().unwrap();
    let field_args = ["field", folder, "--tc", "1+0.01", "-j", "1"];

    // Stopped with Ctrl-C once an entry is done: the manifest keeps it.
    let out = interrupted(&field_args, || finished_entries(&dir) >= 1);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).contains("stopped"),
        "{}",
        text(&out.stdout)
    );
    let before = manifest(&dir);
    let first = entry(&before, "Bot_1").clone();
    assert_eq!(first["steps"].as_array().unwrap().len(), 4, "{first}");

    // Resumed: the rest is done, and the finished entry's games are not played again.
    let out = challenge(&field_args);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert!(
        stderr
            .contains("7 entry files; 6 of the list's 6 rows matched with an entry (6 as printed)"),
        "{stderr}"
    );
    assert!(
        stdout.contains("   5 of 7 done (71.4%) played 2 games against evil_bot"),
        "{stdout}"
    );
    let after = manifest(&dir);
    // Translated again (a copy, for a Rust entry), and nothing after it done again.
    assert_eq!(
        entry(&after, "Bot_1")["steps"].as_array().unwrap()[1..],
        first["steps"].as_array().unwrap()[1..]
    );
    let unsafe_entry = entry(&after, "Bot_5");
    assert_eq!(
        unsafe_entry["steps"][1]["construct"], "unsafe",
        "{unsafe_entry}"
    );
    let broken = entry(&after, "Bot_6");
    assert_eq!(broken["steps"][2]["step"], "build", "{broken}");
    assert_eq!(broken["steps"][2]["construct"], "E0308", "{broken}");
    assert!(entry(&after, "Bot_7").get("row").is_none());
    assert_eq!(entry(&after, "Bot_3")["matched_by"], "exact");
    rated_stopped_and_resumed(&dir);
}

/// A bot rated against the field of `dir`, stopped after two games and resumed.
fn rated_stopped_and_resumed(dir: &Path) {
    let folder = dir.to_str().unwrap();
    // A bot rated against it, stopped after two games and resumed: the games are kept.
    let state = dir.join("rate.jsonl");
    let state_text = state.to_str().unwrap();
    let rate_args = [
        "rate",
        "turochamp_faithful",
        "--field",
        folder,
        "--tc",
        "0.5+0.01",
        "--games",
        "12",
        "-j",
        "2",
        "--state",
        state_text,
    ];
    let games =
        || std::fs::read_to_string(&state).map_or(0, |t| t.lines().count().saturating_sub(1));
    let out = interrupted(&rate_args, || games() >= 2);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).contains("stopped after"),
        "{}",
        text(&out.stdout)
    );
    let kept = std::fs::read_to_string(&state).unwrap();
    let kept_games = kept.lines().count() - 1;
    assert!((2..12).contains(&kept_games), "{kept}");

    let out = challenge(&rate_args);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(stdout.contains("turochamp_faithful: "), "{stdout}");
    assert!(stdout.contains("on the published scale"), "{stdout}");
    assert!(stdout.contains("12 games against"), "{stdout}");
    assert!(stdout.contains(" of 6 (from "), "{stdout}");
    let all = std::fs::read_to_string(&state).unwrap();
    assert!(
        all.starts_with(&kept),
        "the resumed run rewrote the first games"
    );
    assert_eq!(all.lines().count() - 1, 12, "{all}");
}

/// An entry that thinks 1.5 s over its first move, as entries made for the C# challenge's
/// 60-second games do: it loses on time at the check's fast clock, plays clean at C#'s,
/// and is in the field only for games as slow.
#[test]
fn an_entry_that_loses_on_time_plays_again_at_the_c_sharp_clock_and_only_there() {
    let slow = "use framework::prelude::*;\n#[derive(Default)]\npub struct MyBot {\n    moved: bool,\n}\nimpl Bot for MyBot {\n    fn think(&mut self, board: Board, timer: Timer) -> Move {\n        while !self.moved && timer.ms_elapsed_this_turn() < 1500 {}\n        self.moved = true;\n        board.legal_moves()[0]\n    }\n}\n";
    let dir = folder_of(
        "field_slow_clock",
        &[
            ("Bot_1", slow.to_string(), Some(1500)),
            ("Bot_2", kit_bot("evil_bot"), Some(1000)),
        ],
    );
    let folder = dir.to_str().unwrap();
    let out = challenge(&["field", folder, "--tc", "1+0.01", "-j", "1"]);
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        stdout.contains("   2 of 2 done (100.0%) played 2 games against evil_bot"),
        "{stdout}"
    );
    assert!(
        stdout.contains(
            "1 of those lost on time at 1+0.01 and played clean at the C# challenge's clock (60)"
        ),
        "{stdout}"
    );
    let field = manifest(&dir);
    let slow_entry = entry(&field, "Bot_1");
    assert_eq!(slow_entry["clock"], "60", "{slow_entry}");
    let play = &slow_entry["steps"][3];
    assert_eq!(play["ok"], true, "{slow_entry}");
    assert!(
        play["message"]
            .as_str()
            .is_some_and(|m| m.starts_with("at 1+0.01: ")
                && m.ends_with("clean at the C# challenge's clock, 60")),
        "{slow_entry}"
    );
    assert!(entry(&field, "Bot_2").get("clock").is_none());

    // At a faster clock it is not in the field: one entry left, two asked for.
    let out = challenge(&["field", folder, "--round-robin", "2", "--tc", "1+0.01"]);
    assert!(!out.status.success());
    assert!(
        text(&out.stderr).contains("1 entries that played without a fault at 1+0.01 or faster"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn a_folder_that_is_not_one_of_entries_is_refused_naming_what_is_missing() {
    let dir = scratch_dir("field_missing");
    let out = challenge(&["field", dir.to_str().unwrap()]);
    assert!(!out.status.success());
    assert!(
        text(&out.stderr).contains("RatingsList.txt"),
        "{}",
        text(&out.stderr)
    );
    let out = challenge(&["rate", "evil_bot", "--field", dir.to_str().unwrap()]);
    assert!(!out.status.success());
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("no field in") && stderr.contains("challenge field"),
        "{stderr}"
    );
}

#[cfg(not(feature = "port"))]
#[test]
fn c_sharp_entries_without_the_translator_say_how_to_get_it() {
    let dir = entries_folder("field_csharp");
    std::fs::write(dir.join("Bots").join("Bot_9.cs"), "class Bot_9 {}").unwrap();
    let out = challenge(&["field", dir.to_str().unwrap()]);
    assert!(!out.status.success());
    let stderr = text(&out.stderr);
    assert!(stderr.contains("--features port"), "{stderr}");
}

//! Variants of a bot file as a user meets them: a reference bot's marked constant listed,
//! two of its variants built and played against each other, and bad marks and bad specs
//! refused with their cause.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use crate::common::{challenge, kit_root, scratch_dir};

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// `challenge` with its variants written under `variants` (a test's own bots stay out of
/// the kit's `target/variants`).
fn challenge_in(variants: &Path, args: &[&str]) -> Output {
    Command::new(crate::common::challenge_exe())
        .args(args)
        .env("CHALLENGE_VARIANTS_DIR", variants)
        .current_dir(kit_root())
        .output()
        .expect("challenge runs")
}

/// The file `challenge tokens` counted for `spec`, and its count.
fn counted(output: &Output) -> (PathBuf, String) {
    let text = stdout(output);
    let (path, rest) = text
        .split_once(": ")
        .unwrap_or_else(|| panic!("no count in {text:?}; stderr: {}", stderr(output)));
    let count = rest.split(" tokens").next().unwrap_or_default();
    (PathBuf::from(path), count.to_string())
}

#[test]
fn the_faithful_bots_marked_depth_is_listed_with_its_grid() {
    let out = challenge(&["variants", "turochamp_faithful"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.contains("turochamp_faithful: 1 marked constant"),
        "{text}"
    );
    assert!(
        text.contains("DEPTH: i32 = 3  vary 1..=4  (4 values)"),
        "{text}"
    );
    assert!(text.contains("grid: 4 variants"), "{text}");
    let out = challenge(&["variants", "turochamp_faithful", "--json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let mark = &json["marks"][0];
    assert_eq!(mark["name"], "DEPTH");
    assert_eq!(mark["kind"], "vary");
    assert_eq!(mark["current"], 3);
    assert_eq!(
        mark["values"],
        serde_json::json!({"min": 1, "max": 4, "step": 1})
    );
    assert_eq!(json["grid"]["size"], 4);
    assert_eq!(
        json["grid"]["variants"],
        serde_json::json!([
            "turochamp_faithful@DEPTH=1",
            "turochamp_faithful@DEPTH=2",
            "turochamp_faithful@DEPTH=3",
            "turochamp_faithful@DEPTH=4"
        ])
    );
}

#[test]
fn two_variants_of_a_reference_bot_play_a_match() {
    let dir = scratch_dir("variants_match");
    let (pgn, summary) = (dir.join("g.pgn"), dir.join("s.json"));
    let out = challenge(&[
        "match",
        "turochamp_faithful@DEPTH=1",
        "turochamp_faithful@DEPTH=2",
        "--games",
        "2",
        "-j",
        "2",
        "-q",
        "--pgn",
        pgn.to_str().unwrap(),
        "--json",
        summary.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let json: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&summary).unwrap()).expect("JSON summary");
    assert_eq!(json["games_played"], 2);
    assert_eq!(json["faults"], serde_json::json!([]));
    let names: Vec<&str> = json["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        ["turochamp_faithful@DEPTH=1", "turochamp_faithful@DEPTH=2"]
    );
    let games = std::fs::read_to_string(&pgn).unwrap();
    assert!(
        games.contains("[White \"turochamp_faithful@DEPTH=1\"]"),
        "{games}"
    );
    assert!(
        games.contains("[Black \"turochamp_faithful@DEPTH=1\"]"),
        "{games}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_variant_differs_from_its_bot_only_in_the_marked_literal_and_is_counted() {
    let base = kit_root().join("bot").join("turochamp_faithful.rs");
    let original = std::fs::read_to_string(&base).unwrap();
    let out = challenge(&["tokens", "turochamp_faithful@DEPTH=2"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let (path, count) = counted(&out);
    assert!(
        path.starts_with(kit_root().join("target").join("variants")),
        "{}",
        path.display()
    );
    assert_eq!(path.file_name().unwrap(), "turochamp_faithful@DEPTH=2.rs");
    let marked = "pub const DEPTH: i32 = 3; // vary 1..=4";
    assert!(
        original.contains(marked),
        "the reference bot keeps its mark"
    );
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        original.replace(marked, "pub const DEPTH: i32 = 2; // vary 1..=4")
    );
    let (_, base_count) = counted(&challenge(&["tokens", "turochamp_faithful"]));
    assert_eq!(count, base_count, "a literal for a literal: the same count");
}

/// A copy of `bot/my_bot.rs` with `extra` appended, in `dir`.
fn bot_with(dir: &Path, name: &str, extra: &str) -> String {
    let source = std::fs::read_to_string(kit_root().join("bot").join("my_bot.rs")).unwrap();
    let path = dir.join(format!("{name}.rs"));
    std::fs::write(&path, format!("{source}{extra}")).unwrap();
    path.to_str().unwrap().to_string()
}

#[test]
fn bad_marks_are_refused_with_their_line_and_cause() {
    let dir = scratch_dir("variants_bad_marks");
    let lines = std::fs::read_to_string(kit_root().join("bot").join("my_bot.rs"))
        .unwrap()
        .lines()
        .count();
    let cases = [
        (
            "unparsable",
            "const A: i32 = 1; // vary 1..=x\n",
            "the mark `vary 1..=x` does not parse: `x` is not a number",
        ),
        (
            "nothing",
            "\n// vary 1..=4\n",
            "the mark `vary 1..=4` names nothing",
        ),
        (
            "reversed",
            "const A: i32 = 1; // vary 4..=1\n",
            "the mark `vary 4..=1` allows no value: 4 is above 1",
        ),
        (
            "float",
            "const A: i32 = 1; // vary 1..=2.5\n",
            "`2.5` in the mark `vary 1..=2.5` is not a value of `A`'s type, i32",
        ),
    ];
    for (name, extra, cause) in cases {
        let bot = bot_with(&dir, name, extra);
        let line = lines + extra.lines().count();
        let out = challenge_in(&dir, &["variants", &bot]);
        assert!(!out.status.success(), "{name}");
        let err = stderr(&out);
        assert!(
            err.contains(&format!(
                "cannot read the marks of {bot}: line {line}: {cause}"
            )),
            "{name}: {err}"
        );
        let out = challenge_in(&dir, &["build", &format!("{bot}@A=1")]);
        assert!(!out.status.success(), "{name}");
        let err = stderr(&out);
        assert!(
            err.contains(&format!("line {line}: {cause}")),
            "{name}: {err}"
        );
        assert!(!err.contains("building"), "nothing is built: {err}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bad_specs_are_refused_naming_the_cause() {
    let cases = [
        (
            "DEPTH=9",
            "`DEPTH=9` is outside its mark `vary 1..=4` (line 50)",
        ),
        (
            "DEPTH=0",
            "`DEPTH=0` is outside its mark `vary 1..=4` (line 50)",
        ),
        (
            "DEPTH=1.5",
            "`DEPTH=1.5`: `DEPTH` is i32, and `1.5` is not a value of that type",
        ),
        (
            "V=2",
            "`V` is not a marked constant of the bot (marked: DEPTH)",
        ),
        (
            "DEPTH",
            "`@DEPTH` is not `@NAME=VALUE[,NAME=VALUE...]`: `DEPTH` has no `=`",
        ),
        ("DEPTH=2,DEPTH=3", "`DEPTH` is given twice"),
        ("DEPTH=2;rm", "`DEPTH=2;rm`: the value does not parse"),
    ];
    for (spec, cause) in cases {
        let spec = format!("turochamp_faithful@{spec}");
        for command in ["build", "tokens"] {
            let out = challenge(&[command, &spec]);
            assert!(!out.status.success(), "{command} {spec}");
            let err = stderr(&out);
            assert!(
                err.contains(&format!("cannot make the variant `{spec}` of "))
                    && err.contains(cause),
                "{command} {spec}: {err}"
            );
        }
    }
    let out = challenge(&["build", "no_such_bot@DEPTH=2"]);
    let err = stderr(&out);
    assert!(
        err.contains("no bot `no_such_bot@DEPTH=2`: it is not a file, nor a variant of a bot"),
        "{err}"
    );
    // evil_bot marks nothing (turochamp_modern now marks `DEFENDED` for the tuner).
    let out = challenge(&["build", "evil_bot@DEPTH=2"]);
    assert!(
        stderr(&out).contains("the bot marks no constant"),
        "{}",
        stderr(&out)
    );
}

/// `source` with a constant slice of zeros appended, each zero one token, so that the file
/// written to `path` counts exactly `target` tokens; the padded text.
fn padded_to(dir: &Path, source: &str, path: &Path, target: usize) -> String {
    let with = |zeros: usize| {
        format!(
            "{source}\nconst PAD: &[i32] = &[{}];\n",
            vec!["0"; zeros].join(", ")
        )
    };
    let count = |text: &str| {
        std::fs::write(path, text).unwrap();
        let out = challenge_in(dir, &["tokens", path.to_str().unwrap()]);
        let (_, count) = counted(&out);
        count.split(" / ").next().unwrap().parse::<usize>().unwrap()
    };
    let one = count(&with(1));
    assert!(one <= target, "the bot alone counts {one}, over {target}");
    let padded = with(1 + target - one);
    assert_eq!(count(&padded), target);
    padded
}

#[test]
fn a_variant_over_the_limit_is_refused_naming_it() {
    let dir = scratch_dir("variants_limit");
    let source =
        std::fs::read_to_string(kit_root().join("bot").join("turochamp_faithful.rs")).unwrap();
    // The faithful bot brought to the limit exactly; then `-1` costs two tokens where `3`
    // cost one.
    let bot = dir.join("at_limit.rs");
    let at_limit = padded_to(&dir, &source, &bot, 1024);
    let widened = at_limit.replace("// vary 1..=4", "// vary -1..=4");
    assert_ne!(widened, at_limit);
    std::fs::write(&bot, widened).unwrap();
    let spec = format!("{}@DEPTH=-1", bot.display());
    let out = challenge_in(&dir, &["tokens", &spec]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert_eq!(counted(&out).1, "1025 / 1024");
    let out = challenge_in(&dir, &["build", &spec]);
    assert!(!out.status.success());
    let err = stderr(&out);
    assert!(
        err.contains("bot `at_limit@DEPTH=-1` is over the token limit"),
        "{err}"
    );
    assert!(
        err.contains("error[over-limit]: 1 tokens over the limit"),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

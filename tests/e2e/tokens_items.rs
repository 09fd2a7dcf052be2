//! `challenge tokens --items` and `--diff OLD NEW`: where a bot's tokens go, as a table
//! and as JSON, adding up to the count `challenge tokens` gives; and bad input named.

use std::path::Path;
use std::process::Output;

use serde_json::Value;

use crate::common::{challenge, scratch_dir};

fn text(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// One JSON object per line of stdout.
fn json_lines(out: &Output) -> Vec<Value> {
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|line| serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {line}")))
        .collect()
}

fn count(v: &Value, field: &str) -> i64 {
    v[field]
        .as_i64()
        .unwrap_or_else(|| panic!("no {field} in {v}"))
}

/// The kit's bots by name.
fn kit_bots() -> Vec<String> {
    let dir = crate::common::kit_root().join("bot");
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| {
            let path = e.unwrap().path();
            (path.extension()? == "rs").then(|| path.file_stem()?.to_str().map(str::to_owned))?
        })
        .collect();
    names.sort();
    assert!(names.len() >= 4, "{names:?}");
    names
}

#[test]
fn the_items_of_every_kit_bot_add_up_to_its_count() {
    for bot in kit_bots() {
        let counted = challenge(&["tokens", "--json", &bot]);
        let itemized = challenge(&["tokens", "--items", "--json", &bot]);
        assert_eq!(counted.status.code(), itemized.status.code(), "{bot}");
        let (counted, itemized) = (&json_lines(&counted)[0], &json_lines(&itemized)[0]);
        let items = itemized["items"].as_array().unwrap();
        let sum = |field| items.iter().map(|i| count(i, field)).sum::<i64>();
        assert_eq!(sum("tokens"), count(counted, "tokens"), "{bot}: {itemized}");
        assert_eq!(sum("debug"), count(counted, "debug_tokens"), "{bot}");
        assert_eq!(count(itemized, "tokens"), count(counted, "tokens"), "{bot}");
        for item in items {
            for field in ["kind", "name"] {
                assert!(item[field].is_string(), "{bot}: {item}");
            }
            assert!(count(item, "line") >= 1, "{bot}: {item}");
        }
    }
}

#[test]
fn the_items_table_lists_the_costliest_first_and_the_total() {
    let out = challenge(&["tokens", "--items", "evil_bot"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let text = text(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines[0].ends_with("evil_bot.rs: 186 / 1024 tokens, 0 #DEBUG tokens (#DEBUG tokens count when submitted: 186 / 1024)"), "{text}");
    assert_eq!(
        lines[1].split_whitespace().collect::<Vec<_>>(),
        ["tokens", "#DEBUG", "line", "kind", "item"]
    );
    let rows: Vec<Vec<&str>> = lines[2..lines.len() - 1]
        .iter()
        .map(|l| l.split_whitespace().collect())
        .collect();
    assert_eq!(
        rows[0][3..],
        ["fn", "impl", "Bot", "for", "MyBot::think"],
        "{text}"
    );
    let costs: Vec<usize> = rows.iter().map(|r| r[0].parse().unwrap()).collect();
    assert!(costs.is_sorted_by(|a, b| a >= b), "{text}");
    assert_eq!(costs.iter().sum::<usize>(), 186, "{text}");
    assert_eq!(
        lines.last().unwrap().split_whitespace().collect::<Vec<_>>(),
        ["186", "0", "total", "the", "file's", "count"]
    );
}

/// Two versions of a bot in a scratch folder: `search` grows, `eval` is removed,
/// `order` added, `think` keeps its cost, one line of `search` becomes a #DEBUG line.
fn two_versions(dir: &Path) -> (String, String) {
    let head = "use framework::prelude::*;\n#[derive(Default)]\npub struct MyBot;\n\
                impl Bot for MyBot {\n    fn think(&mut self, b: Board, _: Timer) -> Move {\n        \
                b.legal_moves()[0]\n    }\n}\n";
    let old =
        format!("{head}fn search(x: i32) -> i32 {{\n    x + 1\n}}\nfn eval() -> i32 {{ 3 }}\n");
    let new = format!(
        "{head}fn search(x: i32) -> i32 {{\n    let y = x * 2; // #DEBUG\n    x + y + 1\n}}\nfn order(v: &mut Vec<u8>) {{ v.sort(); }}\n"
    );
    let (old_path, new_path) = (dir.join("old_bot.rs"), dir.join("new_bot.rs"));
    std::fs::write(&old_path, old).unwrap();
    std::fs::write(&new_path, new).unwrap();
    let path = |p: &Path| p.to_str().unwrap().to_owned();
    (path(&old_path), path(&new_path))
}

#[test]
fn the_diff_gives_each_items_change_and_the_change_of_the_count() {
    let dir = scratch_dir("tokens-diff");
    let (old, new) = two_versions(&dir);
    let tokens = |file: &str| json_lines(&challenge(&["tokens", "--json", file]))[0].clone();
    let (old_count, new_count) = (tokens(&old), tokens(&new));

    let out = challenge(&["tokens", "--diff", &old, &new, "--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let diff = &json_lines(&out)[0];
    assert_eq!(
        count(diff, "tokens_change"),
        count(&new_count, "tokens") - count(&old_count, "tokens")
    );
    assert_eq!(
        count(diff, "debug_change"),
        count(&new_count, "debug_tokens") - count(&old_count, "debug_tokens")
    );
    assert_eq!(diff["old_file"], old.as_str());
    let items = diff["items"].as_array().unwrap();
    let seen: Vec<(&str, &str)> = items
        .iter()
        .map(|i| (i["name"].as_str().unwrap(), i["status"].as_str().unwrap()))
        .collect();
    // Unchanged items (`think`, `MyBot`, the use) are left out by default.
    assert_eq!(seen.len(), 3, "{diff}");
    for want in [
        ("search", "changed"),
        ("eval", "removed"),
        ("order", "added"),
    ] {
        assert!(seen.contains(&want), "{want:?} not in {seen:?}");
    }
    let change: i64 = items.iter().map(|i| count(i, "tokens_change")).sum();
    assert_eq!(change, count(diff, "tokens_change"));
    let search = items.iter().find(|i| i["name"] == "search").unwrap();
    assert!(count(search, "debug_change") > 0, "{search}");
    let eval = items.iter().find(|i| i["name"] == "eval").unwrap();
    assert!(eval["new_tokens"].is_null(), "{eval}");

    let all = json_lines(&challenge(&[
        "tokens", "--diff", &old, &new, "--json", "--all",
    ]));
    let think = all[0]["items"]
        .as_array()
        .unwrap()
        .iter()
        .find(|i| i["name"] == "impl Bot for MyBot::think");
    assert_eq!(think.map(|t| t["status"].clone()), Some("unchanged".into()));

    let table = text(&challenge(&["tokens", "--diff", &old, &new]));
    let first = table.lines().next().unwrap();
    assert!(first.starts_with(&format!("{old} -> {new}: ")), "{table}");
    assert!(
        table
            .lines()
            .any(|l| l.contains(" removed ") && l.ends_with(" eval")),
        "{table}"
    );
    assert!(!table.contains("think"), "{table}");
}

#[test]
fn a_variant_is_compared_with_its_bot() {
    // Only the marked literal differs: the same items at the same cost.
    let out = challenge(&[
        "tokens",
        "--diff",
        "turochamp_faithful",
        "turochamp_faithful@DEPTH=2",
        "--json",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let diff = &json_lines(&out)[0];
    assert_eq!(count(diff, "tokens_change"), 0, "{diff}");
    assert_eq!(diff["items"].as_array().map(Vec::len), Some(0), "{diff}");
    assert!(
        diff["new_file"]
            .as_str()
            .unwrap()
            .ends_with("turochamp_faithful@DEPTH=2.rs"),
        "{diff}"
    );
}

#[test]
fn bad_input_is_named_with_its_place() {
    let dir = scratch_dir("tokens-bad");
    let (old, _) = two_versions(&dir);
    let broken = dir.join("broken.rs");
    std::fs::write(&broken, "fn f() {\n    let x = ;\n}\n").unwrap();
    let broken = broken.to_str().unwrap();

    let out = challenge(&["tokens", "--items", broken]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out).contains(&format!("{broken}:2:13: expected an expression")),
        "{}",
        text(&out)
    );
    let json = &json_lines(&challenge(&["tokens", "--items", "--json", broken]))[0];
    assert_eq!(
        (
            count(&json["error"], "line"),
            count(&json["error"], "column")
        ),
        (2, 13)
    );

    let missing = dir.join("no_such_bot.rs");
    let missing = missing.to_str().unwrap();
    for (pair, named) in [
        ([old.as_str(), missing], missing),
        ([broken, old.as_str()], broken),
    ] {
        let out = challenge(&["tokens", "--diff", pair[0], pair[1]]);
        assert_eq!(out.status.code(), Some(2), "{}", text(&out));
        assert!(
            text(&out).contains(&format!("error: {named}:")),
            "{}",
            text(&out)
        );
        let json = json_lines(&challenge(&[
            "tokens", "--diff", pair[0], pair[1], "--json",
        ]));
        assert_eq!(json.len(), 1, "{json:?}");
        assert_eq!(json[0]["file"], named, "{json:?}");
    }

    // A variant that cannot be made says why; one that can is compared with its bot.
    let out = challenge(&[
        "tokens",
        "--diff",
        "turochamp_faithful",
        "turochamp_faithful@NOPE=1",
    ]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(
        text(&out).contains("`NOPE` is not a marked constant"),
        "{}",
        text(&out)
    );

    for args in [
        &["tokens", "--diff", old.as_str()][..],
        &["tokens", "--all", old.as_str()],
        &["tokens", "--items", "--top", "3", old.as_str()],
        &["tokens", "--diff", old.as_str(), old.as_str(), old.as_str()],
    ] {
        let out = challenge(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", text(&out));
        assert!(
            String::from_utf8_lossy(&out.stderr).contains("error:"),
            "{args:?}"
        );
    }
}

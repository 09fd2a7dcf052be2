//! Every bot file in the kit's `bot/` directory and its lab, `bot/lab/`, counted.
//!
//! Whoever adds or edits a bot adds or updates its line in `EXPECTED`: a
//! changed count is then a visible, reviewed change, and a counter change
//! that moves a real bot's count shows up here.

use std::collections::BTreeMap;
use std::path::Path;

/// File name in `bot/` -> its counted tokens and its #DEBUG tokens.
const EXPECTED: &[(&str, usize, usize)] = &[
    ("evil_bot.rs", 186, 0),
    ("my_bot.rs", 22, 0),
    ("turochamp_faithful.rs", 927, 0),
    ("turochamp_modern.rs", 905, 0),
];

/// File name in `bot/lab/` -> its counted tokens and its #DEBUG tokens. Lab bots may be
/// over the limit (the kit runs them anyway, and no challenge accepts them), but they
/// break no rule.
const LAB: &[(&str, usize, usize)] = &[("tt_lab.rs", 1496, 0), ("turochamp_bounded.rs", 906, 0)];

#[test]
fn every_bot_file_has_its_expected_count() {
    let problems = count_folder("bot", EXPECTED);
    assert!(problems.is_empty(), "\n{}", problems.join("\n"));
}

#[test]
fn every_lab_bot_has_its_expected_count() {
    let problems = count_folder("bot/lab", LAB);
    assert!(problems.is_empty(), "\n{}", problems.join("\n"));
}

/// What differs between the `.rs` files of `folder` (from the kit's root) and `expected`.
fn count_folder(folder: &str, expected: &[(&str, usize, usize)]) -> Vec<String> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join(folder);
    let expected: BTreeMap<&str, (usize, usize)> =
        expected.iter().map(|&(f, t, d)| (f, (t, d))).collect();
    let mut seen = Vec::new();
    let mut problems = Vec::new();
    for entry in std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "rs") {
            continue;
        }
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let report = token_counter::analyze_file(&path).unwrap_or_else(|e| panic!("{e}"));
        let actual = (report.tokens, report.debug_tokens);
        match expected.get(name.as_str()) {
            None => problems.push(format!(
                "{folder}/{name} is not listed in token-counter/tests/bots.rs: add (\"{name}\", {}, {}),",
                actual.0, actual.1
            )),
            Some(&want) if want != actual => problems.push(format!(
                "{folder}/{name}: expected {want:?} (tokens, debug), counted {actual:?}"
            )),
            Some(_) => {}
        }
        if !report.violations.is_empty() {
            problems.push(report.render(&format!("{folder}/{name}")).to_string());
        }
        seen.push(name);
    }
    for name in expected.keys() {
        if !seen.iter().any(|s| s == name) {
            problems.push(format!(
                "{folder}/{name} is listed but no longer exists: remove its line"
            ));
        }
    }
    problems
}

/// A line of the docs that names one kit bot file and quotes counts as `N / 1024` must
/// quote that file's count (the docs had kept counts from before a counting rule changed).
#[test]
fn the_docs_quote_each_bots_count_as_counted() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let counted: Vec<(&str, usize)> = EXPECTED
        .iter()
        .chain(LAB)
        .map(|&(file, tokens, debug)| (file, tokens + debug))
        .collect();
    let mut docs = vec![root.join("README.md"), root.join("bot").join("README.md")];
    markdown_files(&root.join("docs"), &mut docs);
    let mut problems = Vec::new();
    let mut quoted = 0;
    for doc in &docs {
        let text =
            std::fs::read_to_string(doc).unwrap_or_else(|e| panic!("{}: {e}", doc.display()));
        for (number, line) in text.lines().enumerate() {
            let named: Vec<&(&str, usize)> = counted
                .iter()
                .filter(|(file, _)| line.contains(file))
                .collect();
            let [(file, count)] = named.as_slice() else {
                continue;
            };
            for n in counts_of_1024(line) {
                quoted += 1;
                if n != *count {
                    problems.push(format!(
                        "{}:{}: quotes {n} / 1024 for {file}, which counts {count}",
                        doc.display(),
                        number + 1
                    ));
                }
            }
        }
    }
    assert!(problems.is_empty(), "\n{}", problems.join("\n"));
    assert!(
        quoted >= 4,
        "the docs quote {quoted} counts: has their form changed?"
    );
}

/// The numbers `N` of each `N / 1024` in `line`.
fn counts_of_1024(line: &str) -> Vec<usize> {
    line.split(" / 1024")
        .collect::<Vec<_>>()
        .split_last()
        .map(|(_, before)| before)
        .unwrap_or_default()
        .iter()
        .filter_map(|part| {
            let digits: String = part
                .chars()
                .rev()
                .take_while(char::is_ascii_digit)
                .collect();
            digits.chars().rev().collect::<String>().parse().ok()
        })
        .collect()
}

fn markdown_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
        let path = entry.unwrap().path();
        if path.is_dir() {
            markdown_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "md") {
            out.push(path);
        }
    }
}

#[test]
fn a_quoted_count_is_read_from_its_line() {
    assert_eq!(counts_of_1024("| `a.rs` | 957 / 1024 | x |"), [957]);
    assert_eq!(
        counts_of_1024("a.rs: 191 / 1024 tokens (when submitted: 191 / 1024)"),
        [191, 191]
    );
    assert!(counts_of_1024("prints `N / 1024`").is_empty());
}

//! Every name the docs give exists: the repository paths they cite (in backticks, in
//! links, on command lines), the `challenge` subcommands and flags they show, the cargo
//! test and bench targets and the e2e areas they tell you to run. The docs are README.md,
//! every `.md` under `docs/`, the READMEs of the kit's folders and CHANGELOG.md's
//! Unreleased section (released sections describe the kit as it was then). Offline and
//! cheap: one `challenge ... --help` per subcommand named, one `cargo metadata`.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::common::kit_root;

/// One document: its path from the kit's root, and its lines with their numbers.
struct Doc {
    path: String,
    lines: Vec<(usize, String)>,
}

/// The documents the test reads.
fn docs() -> Vec<Doc> {
    let root = kit_root();
    let mut paths = vec![PathBuf::from("README.md")];
    paths.extend(markdown_under(&root, Path::new("docs")));
    for entry in std::fs::read_dir(&root).expect("the kit's root lists") {
        let readme = entry.expect("an entry").path().join("README.md");
        if readme.is_file() {
            paths.push(readme.strip_prefix(&root).unwrap().to_path_buf());
        }
    }
    let mut docs: Vec<Doc> = paths.iter().map(|p| read_doc(p, None)).collect();
    docs.push(read_doc(Path::new("CHANGELOG.md"), Some("## [Unreleased]")));
    docs
}

/// Every `.md` file under `dir` (a path from the kit's root), recursively.
fn markdown_under(root: &Path, dir: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir(root.join(dir)).expect("docs/ lists") {
        let path = dir.join(entry.expect("an entry").file_name());
        if root.join(&path).is_dir() {
            found.extend(markdown_under(root, &path));
        } else if path.extension().is_some_and(|e| e == "md") {
            found.push(path);
        }
    }
    found
}

/// A document's lines; with `section`, only the lines from that heading to the next `## `.
fn read_doc(path: &Path, section: Option<&str>) -> Doc {
    let text = std::fs::read_to_string(kit_root().join(path))
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let numbered = text
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.to_string()));
    let lines: Vec<(usize, String)> = match section {
        None => numbered.collect(),
        Some(heading) => {
            let mut inside = false;
            numbered
                .filter(|(_, l)| {
                    if l.starts_with("## ") {
                        inside = l.starts_with(heading);
                    }
                    inside
                })
                .collect()
        }
    };
    assert!(
        !lines.is_empty(),
        "{}: no {section:?} section",
        path.display()
    );
    Doc {
        path: path.display().to_string(),
        lines,
    }
}

/// The text of each inline code span (`...`) on a line.
fn code_spans(line: &str) -> Vec<&str> {
    line.split('`').skip(1).step_by(2).collect()
}

/// The targets of the line's Markdown links and images, `[text](target)`.
fn link_targets(line: &str) -> Vec<&str> {
    line.match_indices("](")
        .filter_map(|(i, _)| {
            let rest = &line[i + 2..];
            rest.find(')').map(|end| &rest[..end])
        })
        .collect()
}

/// The shell commands a line of a code block runs: a `$ ` transcript line (in a `console`
/// block the other lines are output), or any line of a `sh` block; `|`, `&&` and `;` separate commands and `#` starts a comment.
fn shell_commands(line: &str, in_sh_block: bool) -> Vec<String> {
    let trimmed = line.trim_start();
    let command = match trimmed.strip_prefix("$ ") {
        Some(command) => command,
        None if in_sh_block => trimmed,
        None => return Vec::new(),
    };
    let command = command.split(" #").next().unwrap_or("");
    command
        .split("&&")
        .flat_map(|c| c.split(['|', ';']))
        .map(|c| c.trim().to_string())
        .filter(|c| !c.is_empty() && !c.starts_with('#'))
        .collect()
}

/// The `challenge` command line's tree: each (sub)command's flags and subcommands, read
/// from its `--help` when first asked for.
#[derive(Default)]
struct Cli {
    helps: BTreeMap<Vec<String>, Help>,
}

/// What one `--help` lists.
#[derive(Clone, Default)]
struct Help {
    flags: BTreeSet<String>,
    subcommands: BTreeSet<String>,
}

impl Cli {
    /// The help of `challenge PATH...`.
    fn help(&mut self, path: &[String]) -> Help {
        if let Some(help) = self.helps.get(path) {
            return help.clone();
        }
        let output = Command::new(crate::common::challenge_exe())
            .args(path)
            .arg("--help")
            .output()
            .expect("challenge runs");
        assert!(output.status.success(), "challenge {path:?} --help fails");
        let help = parse_help(&String::from_utf8_lossy(&output.stdout));
        self.helps.insert(path.to_vec(), help.clone());
        help
    }

    /// A subcommand `--help` leaves out (`#[command(hide = true)]`) still answers `--help`.
    fn is_hidden_subcommand(&mut self, word: &str) -> bool {
        is_word(word)
            && Command::new(crate::common::challenge_exe())
                .args([word, "--help"])
                .output()
                .is_ok_and(|o| o.status.success())
    }

    /// What is wrong with a command line's words after `challenge`, if anything.
    fn check(&mut self, words: &[&str]) -> Option<String> {
        let mut path: Vec<String> = Vec::new();
        let mut flags = self.help(&path).flags;
        for (i, word) in words.iter().enumerate() {
            let help = self.help(&path);
            if help.subcommands.contains(*word) || (i == 0 && self.is_hidden_subcommand(word)) {
                path.push(word.to_string());
                flags.extend(self.help(&path).flags);
            } else if i == 0 && !word.starts_with('-') {
                return Some(format!("`challenge {word}`: no such subcommand"));
            } else if let Some(flag) = flag_name(word)
                && !flags.contains(flag)
            {
                let command = path.join(" ");
                return Some(format!("`challenge {command}` has no flag `{flag}`"));
            }
        }
        None
    }
}

/// The flags and subcommands a clap `--help` lists.
fn parse_help(text: &str) -> Help {
    let mut help = Help::default();
    let mut in_commands = false;
    for line in text.lines() {
        if !line.starts_with(' ') {
            in_commands = line.trim_end() == "Commands:";
            continue;
        }
        let trimmed = line.trim_start();
        if in_commands {
            help.subcommands
                .extend(trimmed.split_whitespace().next().map(String::from));
        } else if trimmed.starts_with('-') {
            let names = trimmed.split("  ").next().unwrap_or("");
            for name in names.split([',', ' ']) {
                help.flags.extend(flag_name(name).map(String::from));
            }
        }
    }
    help
}

/// The flag a word names (`--games`, `--games=4`, `-j`), if it is one.
fn flag_name(word: &str) -> Option<&str> {
    let name = word.split('=').next()?;
    let long = name.strip_prefix("--").is_some_and(|rest| {
        rest.starts_with(|c: char| c.is_ascii_lowercase())
            && rest
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
    });
    let short = name.len() == 2
        && name.starts_with('-')
        && name[1..].starts_with(|c: char| c.is_ascii_alphabetic());
    (long || short).then_some(name)
}

/// The workspace's packages and each one's test and bench targets, from `cargo metadata`.
struct Targets {
    /// Package name -> (kind, target name) pairs.
    packages: BTreeMap<String, BTreeSet<(String, String)>>,
    /// (package, kind, target name) -> the features the target requires.
    required: BTreeMap<(String, String, String), Vec<String>>,
    /// Package name -> its features, each with what it enables.
    features: BTreeMap<String, BTreeMap<String, Vec<String>>>,
}

impl Targets {
    fn load() -> Targets {
        let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
        let output = Command::new(cargo)
            .args([
                "metadata",
                "--no-deps",
                "--offline",
                "--format-version",
                "1",
            ])
            .current_dir(kit_root())
            .output()
            .expect("cargo metadata runs");
        assert!(output.status.success(), "cargo metadata fails");
        let metadata: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
        let strings = |value: &serde_json::Value| -> Vec<String> {
            value.as_array().map_or_else(Vec::new, |items| {
                items
                    .iter()
                    .map(|i| i.as_str().unwrap().to_string())
                    .collect()
            })
        };
        let mut targets = Targets {
            packages: BTreeMap::new(),
            required: BTreeMap::new(),
            features: BTreeMap::new(),
        };
        for package in metadata["packages"].as_array().unwrap() {
            let name = package["name"].as_str().unwrap().to_string();
            let mut kinds = BTreeSet::new();
            for target in package["targets"].as_array().unwrap() {
                let target_name = target["name"].as_str().unwrap().to_string();
                for kind in strings(&target["kind"]) {
                    let key = (name.clone(), kind.clone(), target_name.clone());
                    targets
                        .required
                        .insert(key, strings(&target["required-features"]));
                    kinds.insert((kind, target_name.clone()));
                }
            }
            let features = package["features"].as_object().unwrap();
            let features = features.iter().map(|(f, on)| (f.clone(), strings(on)));
            targets.features.insert(name.clone(), features.collect());
            targets.packages.insert(name, kinds);
        }
        targets
    }

    /// The features of `package` that `words` (a cargo command) turn on: those after
    /// `--features`, and what each enables, transitively.
    fn features_on(&self, package: &str, words: &[&str]) -> BTreeSet<String> {
        let mut on = BTreeSet::new();
        let mut todo: Vec<String> = words
            .windows(2)
            .filter(|w| w[0] == "--features")
            .flat_map(|w| w[1].split(','))
            .map(str::to_string)
            .collect();
        while let Some(feature) = todo.pop() {
            if let Some(enables) = self.features[package].get(&feature) {
                todo.extend(enables.iter().cloned());
            }
            on.insert(feature);
        }
        on
    }

    /// What is wrong with a `cargo test|bench ...` command's words, if anything.
    fn check(&self, words: &[&str]) -> Option<String> {
        let package = words.windows(2).find(|w| w[0] == "-p").map(|w| w[1]);
        if let Some(package) = package.filter(|p| !self.packages.contains_key(*p)) {
            return Some(format!("no package `{package}`"));
        }
        let package = package.unwrap_or("challenge");
        for pair in words.windows(2) {
            let kind = match pair[0] {
                "--test" => "test",
                "--bench" => "bench",
                _ => continue,
            };
            if !self.packages[package].contains(&(kind.into(), pair[1].into())) {
                return Some(format!(
                    "package `{package}` has no {kind} target `{}`",
                    pair[1]
                ));
            }
            // A target with `required-features` is not built without them: cargo refuses
            // the command the docs give.
            let on = self.features_on(package, words);
            let key = (package.to_string(), kind.to_string(), pair[1].to_string());
            let missing: Vec<&String> = self.required[&key]
                .iter()
                .filter(|f| !on.contains(*f) && !words.contains(&"--all-features"))
                .collect();
            if !missing.is_empty() {
                return Some(format!(
                    "{kind} target `{}` needs the features {missing:?}: pass `--features`",
                    pair[1]
                ));
            }
        }
        let e2e_area = words.windows(3).find(|w| w[0] == "--test" && w[1] == "e2e");
        let area = e2e_area.and_then(|w| w[2].strip_suffix("::"));
        match area {
            Some(area)
                if !is_placeholder(area)
                    && !kit_root().join(format!("tests/e2e/{area}.rs")).is_file() =>
            {
                Some(format!("no e2e area `{area}::` (tests/e2e/{area}.rs)"))
            }
            _ => None,
        }
    }
}

/// What is wrong with a shell command or code span, if anything.
fn check_command(text: &str, cli: &mut Cli, targets: &Targets) -> Option<String> {
    let words: Vec<&str> = text.split_whitespace().collect();
    let challenge_at = words
        .iter()
        .position(|w| *w == "challenge" || w.ends_with("/challenge"));
    let cargo_run = words.starts_with(&["cargo", "run"]) && !words.contains(&"-p");
    if cargo_run {
        let args = words.iter().position(|w| *w == "--")?;
        return cli.check(&words[args + 1..]);
    }
    if words.len() > 1 && ["test", "bench"].contains(&words[1]) && words[0] == "cargo" {
        return targets.check(&words);
    }
    match challenge_at {
        Some(at) if at + 1 < words.len() && is_word(words[at + 1]) => cli.check(&words[at + 1..]),
        _ => None,
    }
}

/// A lowercase word such as a subcommand (not a path, placeholder or flag).
fn is_word(word: &str) -> bool {
    word.chars().all(|c| c.is_ascii_lowercase() || c == '-') && !word.starts_with('-')
}

/// A placeholder for a name the reader chooses: `NAME`, `AREA`, `…`.
fn is_placeholder(text: &str) -> bool {
    text.contains('…')
        || text.contains("...")
        || text
            .split(['/', '.', '_', '-'])
            .any(|c| c.len() > 1 && c.chars().all(|ch| ch.is_ascii_uppercase()))
}

/// What is wrong with a path a doc names in backticks or on a command line, if anything:
/// it must exist from the kit's root or from the doc's folder. Only paths into the kit's
/// own top-level folders are judged (`./challenge`, `target/...` and outside projects'
/// files are not the repository's); a variant's settings (`BOT@NAME=VALUE`) are not part
/// of its path, and `BOT.tuned.rs` is what `challenge tune` writes.
fn check_path(doc: &str, text: &str, top_level: &BTreeSet<String>) -> Option<String> {
    let path = text
        .split(['#', '?', '@'])
        .next()?
        .trim_end_matches([':', '.', ',']);
    let generated = path.ends_with(".tuned.rs");
    if path.is_empty() || generated || is_placeholder(path) || path.contains(['<', '{', '*', '$']) {
        return None;
    }
    if !top_level.contains(path.split('/').next()?) {
        return None;
    }
    let doc_dir = kit_root().join(doc).parent().unwrap().to_path_buf();
    let exists = kit_root().join(path).exists() || doc_dir.join(path).exists();
    (!exists).then(|| format!("`{path}` does not exist"))
}

/// What is wrong with a link's target, if anything: a relative link is read from the
/// doc's folder, as GitHub and other Markdown viewers read it, and an `#anchor` into a
/// Markdown file must be one of its headings.
fn check_link(doc: &str, target: &str) -> Option<String> {
    if target.contains("://") || target.starts_with("mailto:") {
        return None;
    }
    let (path, anchor) = target.split_once('#').unwrap_or((target, ""));
    let file = if path.is_empty() {
        kit_root().join(doc)
    } else {
        kit_root().join(doc).parent().unwrap().join(path)
    };
    if !file.exists() {
        return Some(format!(
            "link `{target}`: `{path}` does not exist from {doc}'s folder"
        ));
    }
    let markdown = file.extension().is_some_and(|e| e == "md");
    if anchor.is_empty() || !markdown {
        return None;
    }
    let text = std::fs::read_to_string(&file).unwrap();
    let found = headings(&text).any(|h| slug(&h) == anchor);
    (!found).then(|| format!("link `{target}`: no heading `#{anchor}` in `{path}`"))
}

/// The headings of a Markdown text (outside code blocks).
fn headings(text: &str) -> impl Iterator<Item = String> + '_ {
    let mut in_code = false;
    text.lines().filter_map(move |line| {
        if line.trim_start().starts_with("```") {
            in_code = !in_code;
        }
        let heading = line.trim_start_matches('#');
        let is_heading = !in_code && line.starts_with('#') && heading.starts_with(' ');
        is_heading.then(|| heading.trim().to_string())
    })
}

/// A heading's anchor as GitHub makes it: lowercase, punctuation dropped, spaces to `-`.
fn slug(heading: &str) -> String {
    heading
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || *c == '-' || *c == '_' || *c == ' ')
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

/// A span or link is a path when it has a slash or a file extension and no spaces.
fn looks_like_path(text: &str) -> bool {
    !text.contains(char::is_whitespace)
        && !text.contains("://")
        && !text.starts_with('-')
        && (text.contains('/') || text.ends_with(".md") || text.ends_with(".rs"))
}

/// The kit's top-level folders and files that are part of the repository.
fn top_level() -> BTreeSet<String> {
    let skip = ["target", ".git"];
    std::fs::read_dir(kit_root())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| !skip.contains(&name.as_str()))
        .collect()
}

/// Every problem with one document's names, as `doc:line: problem`.
fn problems(doc: &Doc, cli: &mut Cli, targets: &Targets, top: &BTreeSet<String>) -> Vec<String> {
    let mut found = Vec::new();
    let mut fence: Option<String> = None;
    for (number, line) in &doc.lines {
        if let Some(info) = line.trim_start().strip_prefix("```") {
            fence = if fence.is_some() {
                None
            } else {
                Some(info.trim().to_string())
            };
            continue;
        }
        let mut report = |problem: Option<String>| {
            found.extend(problem.map(|p| format!("{}:{number}: {p}", doc.path)));
        };
        let in_sh = fence
            .as_deref()
            .is_some_and(|f| ["sh", "bash"].contains(&f));
        for command in shell_commands(line, in_sh) {
            report(check_command(&command, cli, targets));
            let paths = command.split_whitespace().filter(|w| looks_like_path(w));
            for word in paths {
                report(check_path(&doc.path, word, top));
            }
        }
        if fence.is_some() {
            continue;
        }
        for span in code_spans(line) {
            report(check_command(span, cli, targets));
            if looks_like_path(span) {
                report(check_path(&doc.path, span, top));
            }
        }
        for target in link_targets(line) {
            report(check_link(&doc.path, target));
        }
    }
    found
}

#[test]
fn every_path_command_flag_and_target_the_docs_name_exists() {
    let (mut cli, targets, top) = (Cli::default(), Targets::load(), top_level());
    let docs = docs();
    let found: Vec<String> = docs
        .iter()
        .flat_map(|doc| problems(doc, &mut cli, &targets, &top))
        .collect();
    assert!(
        found.is_empty(),
        "{} names in the docs that do not exist:\n{}",
        found.len(),
        found.join("\n")
    );
}

#[test]
fn the_check_finds_each_kind_of_missing_name_and_passes_real_ones() {
    let (mut cli, targets, top) = (Cli::default(), Targets::load(), top_level());
    let lines = [
        "`tests/tt_lab.rs` checks it",
        "`challenge nosuch`",
        "`challenge match --no-such-flag`",
        "`cargo test --test nosuch`",
        "`cargo bench -p framework --bench runner`",
        "`cargo test --release --features full --test e2e nosuch::`",
        "`cargo test --release --test e2e docs_names::` needs every feature",
        "[a link](../nosuch.md)",
        "[a heading](writing-a-bot.md#no-such-heading)",
        "```sh",
        "challenge tokens --nosuch",
        "```",
        "```console",
        "$ cargo run --release -- play --nosuch",
        "an output line naming `challenge nosuch` and tests/nosuch.rs",
        "```",
        "`challenge match --games 4 -q` and `bot/my_bot.rs`, `bot/lab/tt_lab.rs@TT_BITS=16`",
        "`cargo test --release --features full --test e2e docs_names::`, `cargo bench -p runner --bench runner`",
        "`cargo bench --features server --bench challenge`",
        "`challenge bench-ratings --players 6`, `challenge workers grant`, `target/bots`",
        "[a page](rules.md#counting-tokens-challenge-tokens), [the law](../rules.md)",
    ];
    let doc = Doc {
        path: "docs/guide/example.md".into(),
        lines: lines
            .iter()
            .enumerate()
            .map(|(i, l)| (i + 1, l.to_string()))
            .collect(),
    };
    let found = problems(&doc, &mut cli, &targets, &top);
    let lines_found: Vec<&str> = found
        .iter()
        .map(|p| p.split(": ").next().unwrap())
        .collect();
    let expected: Vec<String> = [1, 2, 3, 4, 5, 6, 7, 8, 9, 11, 14]
        .iter()
        .map(|n| format!("docs/guide/example.md:{n}"))
        .collect();
    assert_eq!(lines_found, expected, "{found:#?}");
    assert!(
        found[2].contains("`challenge match` has no flag `--no-such-flag`"),
        "{found:#?}"
    );
}

#[test]
fn every_guide_page_runs_its_examples_as_doctests() {
    let hook = std::fs::read_to_string(kit_root().join("framework/src/lib.rs")).unwrap();
    let pages = markdown_under(&kit_root(), Path::new("docs/guide"));
    let missing: Vec<String> = pages
        .iter()
        .map(|page| page.display().to_string())
        .filter(|page| !hook.contains(&format!("include_str!(\"../../{page}\")")))
        .collect();
    assert!(
        missing.is_empty(),
        "framework/src/lib.rs's `manual` module does not include {missing:?}: their Rust examples would not run"
    );
}

#[test]
fn the_readme_stays_short() {
    let bytes = std::fs::metadata(kit_root().join("README.md"))
        .unwrap()
        .len();
    assert!(
        bytes < 15 * 1024,
        "README.md is {bytes} bytes: it holds the two commands, a first bot and the maps, in under 15 KiB; move the rest into a page of docs/guide/"
    );
}

/// A PostgreSQL client the docs run as the `postgres` user (`su postgres -c "psql ..."`)
/// names its cluster (Debian's `--cluster 15/main`): without it, the command reaches
/// whichever cluster holds the default port, not the one the page's paths and settings
/// are about, on a machine with more than one.
#[test]
fn the_docs_postgres_commands_name_their_cluster() {
    let clients = ["psql", "createdb", "dropdb", "createuser", "dropuser"];
    let mut unnamed = Vec::new();
    for doc in docs() {
        for (number, line) in &doc.lines {
            let Some((_, command)) = line.split_once("su postgres -c ") else {
                continue;
            };
            let program = command.trim_start_matches(['"', '\'']);
            let runs_a_client = clients
                .iter()
                .any(|client| program.starts_with(&format!("{client} ")));
            if runs_a_client && !command.contains("--cluster ") {
                unnamed.push(format!("{}:{number}: {}", doc.path, line.trim()));
            }
        }
    }
    assert!(unnamed.is_empty(), "{unnamed:#?}");
}

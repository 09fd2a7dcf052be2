//! The module declarations of the bot files: shared by `build.rs`, which writes them
//! for `lib.rs` to include, and by the crate's tests, which check the names it makes.

use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::path::Path;

/// Rust's keywords, strict, reserved and of any edition: no module can take one as is.
const KEYWORDS: &[&str] = &[
    "abstract", "as", "async", "await", "become", "box", "break", "const", "continue", "crate",
    "do", "dyn", "else", "enum", "extern", "false", "final", "fn", "for", "gen", "if", "impl",
    "in", "let", "loop", "macro", "match", "mod", "move", "mut", "override", "priv", "pub", "ref",
    "return", "self", "Self", "static", "struct", "super", "trait", "true", "try", "type",
    "typeof", "unsafe", "unsized", "use", "virtual", "where", "while", "yield",
];

/// The module declarations of the bot files of `dir` (every `*.rs` directly in it) and of
/// `dir/lab` (as `lab_NAME`), each `#[path]` to its file, sorted by file name. Files whose
/// names are not UTF-8 are left out and returned, for the build to warn about.
///
/// All are top-level modules: rust-analyzer (1.95) joins an absolute `#[path]` inside an
/// inline `mod lab { ... }` to `lab/` and finds no file, where rustc finds it.
pub fn declarations(dir: &Path) -> (String, Vec<String>) {
    let (mut files, mut skipped) = bot_files(dir, "");
    let (lab, lab_skipped) = bot_files(&dir.join("lab"), "lab_");
    files.extend(lab);
    skipped.extend(lab_skipped);
    (modules(&files), skipped)
}

/// The `(prefix + stem, path)` of every regular `*.rs` file directly in `dir`, sorted, and
/// the names of those that are not UTF-8. A missing folder has none.
fn bot_files(dir: &Path, prefix: &str) -> (Vec<(String, String)>, Vec<String>) {
    let mut files = Vec::new();
    let mut skipped = Vec::new();
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let path = entry.path();
        if path.extension().is_none_or(|ext| ext != "rs") || !path.is_file() {
            continue;
        }
        match (path.file_stem().and_then(|s| s.to_str()), path.to_str()) {
            (Some(stem), Some(text)) => files.push((format!("{prefix}{stem}"), text.to_string())),
            _ => skipped.push(path.display().to_string()),
        }
    }
    files.sort();
    (files, skipped)
}

/// One `#[path = "..."] pub mod NAME;` per file, each name unique.
fn modules(files: &[(String, String)]) -> String {
    let mut taken = BTreeSet::new();
    let mut out = String::new();
    for (stem, path) in files {
        let name = module_name(stem, &mut taken);
        // `{:?}` writes the path as a Rust string literal, escapes and all.
        let _ = writeln!(out, "#[path = {path:?}]\npub mod {name};");
    }
    out
}

/// A module name for the file stem `stem`: the stem itself when it is a Rust identifier,
/// otherwise each character that cannot be in one as `_`, and `bot_` in front of one that
/// still cannot start a name (`my_bot.tuned` is `my_bot_tuned`, `2nd` is `bot_2nd`); then
/// `_2`, `_3`... until it is not in `taken`, where it goes.
pub fn module_name(stem: &str, taken: &mut BTreeSet<String>) -> String {
    let mut name: String = stem
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect();
    let starts_well = name.starts_with(|c: char| c.is_ascii_alphabetic())
        || (name.starts_with('_') && name.len() > 1);
    if !starts_well || KEYWORDS.contains(&name.as_str()) {
        name = format!("bot_{name}");
    }
    let mut unique = name.clone();
    let mut n = 2;
    while taken.contains(&unique) {
        unique = format!("{name}_{n}");
        n += 1;
    }
    taken.insert(unique.clone());
    unique
}

#[cfg(test)]
mod tests {
    use super::*;

    fn name(stem: &str) -> String {
        module_name(stem, &mut BTreeSet::new())
    }

    #[test]
    fn a_stem_that_is_an_identifier_is_the_module_name() {
        assert_eq!(name("my_bot"), "my_bot");
        assert_eq!(name("_x"), "_x");
    }

    #[test]
    fn other_stems_become_identifiers() {
        assert_eq!(name("my_bot.tuned"), "my_bot_tuned");
        assert_eq!(name("my-bot v2"), "my_bot_v2");
        assert_eq!(name("2nd"), "bot_2nd");
        assert_eq!(name("_"), "bot__");
        assert_eq!(name(""), "bot_");
        assert_eq!(name("match"), "bot_match");
        assert_eq!(name("self"), "bot_self");
        assert_eq!(name("é"), "bot__");
    }

    #[test]
    fn names_never_collide() {
        let mut taken = BTreeSet::from(["x".to_string()]);
        let names: Vec<_> = ["x", "a.b", "a_b", "a-b", "x_2"]
            .iter()
            .map(|stem| module_name(stem, &mut taken))
            .collect();
        assert_eq!(names, ["x_2", "a_b", "a_b_2", "a_b_3", "x_2_2"]);
    }

    #[test]
    fn declarations_cover_the_folder_and_its_lab_and_nothing_else() {
        let dir = std::env::temp_dir().join(format!("bots-modules-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("lab")).unwrap();
        std::fs::create_dir_all(dir.join("crate")).unwrap();
        std::fs::create_dir_all(dir.join("folder.rs")).unwrap();
        for file in [
            "b.rs",
            "a.tuned.rs",
            "README.md",
            "lab/t.rs",
            "crate/lib.rs",
            "lab_t.rs",
        ] {
            std::fs::write(dir.join(file), "").unwrap();
        }
        let (text, skipped) = declarations(&dir);
        let root = dir.display();
        let expected = format!(
            "#[path = \"{root}/a.tuned.rs\"]\npub mod a_tuned;\n\
             #[path = \"{root}/b.rs\"]\npub mod b;\n\
             #[path = \"{root}/lab_t.rs\"]\npub mod lab_t;\n\
             #[path = \"{root}/lab/t.rs\"]\npub mod lab_t_2;\n"
        );
        std::fs::remove_dir_all(&dir).unwrap();
        assert_eq!(text, expected);
        assert!(skipped.is_empty(), "{skipped:?}");
    }

    #[test]
    fn a_path_is_written_as_an_escaped_literal() {
        let files = [("q".to_string(), "/x/\"q\\\n.rs".to_string())];
        let text = modules(&files);
        assert_eq!(text, "#[path = \"/x/\\\"q\\\\\\n.rs\"]\npub mod q;\n");
    }
}

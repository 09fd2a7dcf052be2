//! The crate a bot is wrapped in, generated from typed values: its name, its manifest
//! and `main.rs`, writing it, and the cache key of the engine it builds.

use std::fs;
use std::path::Path;

use quote::quote;

use super::EngineLimits;
use super::error::{BuildErrorKind, io};
use super::layout::{sanitize, short_hash};
use crate::bots::{BotFile, KIT_ROOT};

const KIT_VERSION: &str = env!("CARGO_PKG_VERSION");
const FRAMEWORK_FINGERPRINT: &str = env!("CHALLENGE_FRAMEWORK_FINGERPRINT");

/// The cache key of a bot: everything its engine executable depends on (its limits are
/// in `main.rs`).
pub(super) fn cache_key(bot: &BotFile, source: &[u8], limits: EngineLimits) -> String {
    let crate_name = crate_name(bot);
    short_hash(&[
        source,
        bot.name.as_bytes(),
        KIT_VERSION.as_bytes(),
        FRAMEWORK_FINGERPRINT.as_bytes(),
        manifest(&crate_name).as_bytes(),
        main_rs(bot, limits).as_bytes(),
    ])
}

/// The name of a bot's generated crate: the same for every version of the bot (so cargo
/// compiles an edit incrementally), different for bots of the same name elsewhere.
///
/// Every variant of one bot (`my_bot@DEPTH=2`, see [`crate::variants`]) shares one crate,
/// named after the folder of its variants: a variant differs from the one built before it
/// only in a literal, so cargo compiles it incrementally (about half a second for a
/// reference bot) where a crate of its own would compile the whole bot (about five).
pub(super) fn crate_name(bot: &BotFile) -> String {
    crate_name_in(bot, &crate::bots::variants_dir())
}

/// [`crate_name`] with the variants' folder `variants`.
fn crate_name_in(bot: &BotFile, variants: &Path) -> String {
    let family = crate::variants::family(&bot.path, variants);
    let (name, path) = match &family {
        Some(dir) => (
            bot.name.split('@').next().unwrap_or_default(),
            dir.as_path(),
        ),
        None => (bot.name.as_str(), bot.path.as_path()),
    };
    let path = path.display().to_string();
    let origin = short_hash(&[name.as_bytes(), path.as_bytes()]);
    format!("bot_{}_{}", sanitize(name), &origin[..8])
}

/// Writes the generated crate, leaving files whose content is unchanged untouched (a
/// rewritten file would make cargo compile it again).
pub(super) fn write_crate(
    crate_dir: &Path,
    crate_name: &str,
    bot: &BotFile,
    limits: EngineLimits,
    source: &[u8],
) -> Result<(), BuildErrorKind> {
    let src = crate_dir.join("src");
    fs::create_dir_all(&src).map_err(io("create", &src))?;
    // The kit's lock file pins the framework's dependencies to the versions the
    // kit was tested with, and lets cargo resolve without the network.
    let kit_lock = fs::read(Path::new(KIT_ROOT).join("Cargo.lock")).unwrap_or_default();
    for (path, content) in [
        (
            crate_dir.join("Cargo.toml"),
            manifest(crate_name).into_bytes(),
        ),
        (crate_dir.join("Cargo.lock"), kit_lock),
        (
            crate_dir.join("src").join("main.rs"),
            main_rs(bot, limits).into_bytes(),
        ),
        (crate_dir.join("src").join("bot.rs"), source.to_vec()),
    ] {
        if content.is_empty() || fs::read(&path).is_ok_and(|old| old == content) {
            continue;
        }
        fs::write(&path, content).map_err(io("write", &path))?;
    }
    Ok(())
}

/// The generated crate's manifest, serialized by `toml` (so the framework's
/// path is escaped as TOML, whatever it holds).
fn manifest(crate_name: &str) -> String {
    let framework = Path::new(KIT_ROOT).join("framework");
    let table = |pairs: Vec<(&str, toml::Value)>| {
        toml::Value::Table(pairs.into_iter().map(|(k, v)| (k.to_string(), v)).collect())
    };
    let text = |value: &str| toml::Value::String(value.to_string());
    let manifest = table(vec![
        (
            "package",
            table(vec![
                ("name", text(crate_name)),
                ("version", text("0.0.0")),
                ("edition", text("2024")),
                ("publish", toml::Value::Boolean(false)),
            ]),
        ),
        (
            "dependencies",
            table(vec![(
                "framework",
                table(vec![("path", text(&framework.display().to_string()))]),
            )]),
        ),
        // Its own workspace: never attached to the kit's or any parent's.
        ("workspace", table(vec![])),
        // The framework (compiled once) is a plain optimised release build; the bot's
        // own crate is compiled incrementally, so an edit recompiles only what it
        // touched, in 16 codegen units as a release build has (incremental's default
        // of 256 would split the bot's search finer and inline less). LTO stays off:
        // it would recompile the framework into every link.
        (
            "profile",
            table(vec![(
                "release",
                table(vec![
                    ("opt-level", toml::Value::Integer(3)),
                    ("debug", toml::Value::Boolean(false)),
                    ("strip", toml::Value::Boolean(true)),
                    ("lto", toml::Value::Boolean(false)),
                    ("incremental", toml::Value::Boolean(false)),
                    (
                        "package",
                        table(vec![(
                            crate_name,
                            table(vec![
                                ("incremental", toml::Value::Boolean(true)),
                                ("codegen-units", toml::Value::Integer(16)),
                            ]),
                        )]),
                    ),
                ]),
            )]),
        ),
    ]);
    toml::to_string(&manifest).unwrap_or_default()
}

/// The generated crate's `main.rs`, built as tokens: the bot's name is a
/// string literal token and its path a doc attribute's value, each escaped
/// by `quote`, so neither can end the literal or the comment early. The challenge's
/// limits call `run`; others `run_with_memory_limit`.
fn main_rs(bot: &BotFile, limits: EngineLimits) -> String {
    // `{:?}` keeps the comment one printable line (no bare CR in a doc comment).
    let origin = format!(
        " Generated by `challenge build` for {:?}",
        bot.path.display().to_string()
    );
    let name = bot.name.as_str();
    let host = if limits == EngineLimits::default() {
        quote! { framework::uci::run::<bot::MyBot>(#name) }
    } else {
        let bytes = limits.memory_bytes;
        quote! { framework::uci::run_with_memory_limit::<bot::MyBot>(#name, #bytes) }
    };
    let tokens = quote! {
        #![doc = #origin]
        #[global_allocator]
        static ALLOCATOR: framework::uci::LimitedAllocator = framework::uci::LimitedAllocator;
        // A bot's unused helpers are its author's business: no warnings.
        #[allow(warnings)]
        mod bot;
        fn main() {
            #host;
        }
    };
    match syn::parse2::<syn::File>(tokens) {
        Ok(file) => prettyplease::unparse(&file),
        // Unreachable: the tokens above form a file whatever the two values are.
        Err(err) => format!("compile_error!({:?});", err.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use std::fs::File;
    use std::path::PathBuf;
    use std::time::{Duration, SystemTime};

    use super::*;

    const CHALLENGE: EngineLimits = EngineLimits {
        memory_bytes: framework::uci::MEMORY_LIMIT_BYTES,
    };

    fn bot(name: &str) -> BotFile {
        BotFile {
            name: name.into(),
            path: PathBuf::from(format!("/tmp/{name}.rs")),
        }
    }

    #[test]
    fn cache_key_depends_on_source_and_name() {
        let a = cache_key(&bot("a"), b"fn x() {}", CHALLENGE);
        assert_eq!(a, cache_key(&bot("a"), b"fn x() {}", CHALLENGE));
        assert_ne!(a, cache_key(&bot("a"), b"fn y() {}", CHALLENGE));
        assert_ne!(a, cache_key(&bot("b"), b"fn x() {}", CHALLENGE));
        assert_eq!(a.len(), 16);
    }

    /// The string literal passed to `framework::uci::run` in a generated `main.rs`.
    fn announced_name(main: &str) -> String {
        let file = syn::parse_file(main).expect("the generated main.rs parses");
        let items: Vec<_> = file.items.iter().collect();
        assert_eq!(items.len(), 3, "allocator, bot module, main only:\n{main}");
        let syn::Item::Fn(main_fn) = items[2] else {
            panic!("main comes last:\n{main}")
        };
        assert_eq!(main_fn.block.stmts.len(), 1, "{main}");
        let syn::Stmt::Expr(syn::Expr::Call(call), _) = &main_fn.block.stmts[0] else {
            panic!("main only calls the host:\n{main}")
        };
        let [
            syn::Expr::Lit(syn::ExprLit {
                lit: syn::Lit::Str(name),
                ..
            }),
        ] = call.args.iter().collect::<Vec<_>>()[..]
        else {
            panic!("the host gets one string literal:\n{main}")
        };
        name.value()
    }

    #[test]
    fn another_memory_limit_is_another_engine_whose_host_enforces_it() {
        let port = EngineLimits {
            memory_bytes: 1 << 30,
        };
        let a = bot("a");
        assert_eq!(CHALLENGE, EngineLimits::default());
        assert_ne!(
            cache_key(&a, b"fn x() {}", CHALLENGE),
            cache_key(&a, b"fn x() {}", port)
        );
        let challenge = main_rs(&a, CHALLENGE);
        assert!(
            challenge.contains("framework::uci::run::<bot::MyBot>(\"a\")"),
            "{challenge}"
        );
        let main = main_rs(&a, port);
        assert!(
            main.contains("framework::uci::run_with_memory_limit::<bot::MyBot>(\"a\", 1073741824"),
            "{main}"
        );
    }

    #[test]
    fn hostile_names_and_paths_stay_data_in_the_generated_main() {
        for hostile in [
            "plain",
            "quo\"te",
            "new\nline",
            "carriage\rreturn",
            "*/ fn evil() {} /*",
            "\"); std::process::exit(0); (\"",
            "back\\slash\\",
            "ünïcødé ♞ \u{202e}rtl",
            "#![no_main]",
            "\0nul",
        ] {
            let bot = BotFile {
                name: hostile.to_string(),
                path: PathBuf::from(format!("/tmp/{hostile}/bot.rs")),
            };
            let main = main_rs(&bot, CHALLENGE);
            assert_eq!(announced_name(&main), hostile, "{main}");
            assert!(!main.contains('\r'), "no bare CR in comments: {main:?}");
            assert!(main.contains("#[global_allocator]"), "{main}");
            assert!(main.contains("#[allow(warnings)]\nmod bot;"), "{main}");
        }
    }

    #[test]
    fn the_manifest_escapes_values_as_toml() {
        let text = manifest("bot_x_0123");
        let parsed: toml::Table = text.parse().expect("valid TOML");
        assert_eq!(parsed["package"]["name"].as_str(), Some("bot_x_0123"));
        assert_eq!(
            parsed["dependencies"]["framework"]["path"].as_str(),
            Some(Path::new(KIT_ROOT).join("framework").to_str().unwrap())
        );
        // The framework alone: a bot links nothing of the runner's, the store's or the
        // server's (docs/architecture.md).
        assert_eq!(
            parsed["dependencies"].as_table().map(toml::Table::len),
            Some(1)
        );
        assert!(parsed["workspace"].as_table().is_some_and(|t| t.is_empty()));
        let release = &parsed["profile"]["release"];
        assert_eq!(release["opt-level"].as_integer(), Some(3));
        assert_eq!(release["incremental"].as_bool(), Some(false));
        let bot = &release["package"]["bot_x_0123"];
        assert_eq!(bot["incremental"].as_bool(), Some(true));
        assert_eq!(bot["codegen-units"].as_integer(), Some(16));
    }

    #[test]
    fn a_bot_keeps_its_crate_across_edits_and_bots_elsewhere_get_their_own() {
        let a = bot("a");
        let elsewhere = BotFile {
            name: "a".into(),
            path: PathBuf::from("/elsewhere/a.rs"),
        };
        assert_eq!(crate_name(&a), crate_name(&a.clone()));
        assert_ne!(crate_name(&a), crate_name(&elsewhere));
        assert!(crate_name(&a).starts_with("bot_a_"));
        assert_ne!(
            cache_key(&a, b"fn x() {}", CHALLENGE),
            cache_key(&elsewhere, b"fn x() {}", CHALLENGE)
        );
    }

    #[test]
    fn the_variants_of_a_bot_share_a_crate_of_their_own() {
        let root = std::env::temp_dir().join(format!("kit-crate-name-{}", std::process::id()));
        let crate_name = |bot: &BotFile| crate_name_in(bot, &root);
        let base = Path::new("/nowhere/shared_crate_test.rs");
        let source = "const D: i32 = 3; // vary 1..=4\n";
        let variant = |spec| {
            let made =
                crate::variants::write(&root, "shared_crate_test", base, source, spec).unwrap();
            BotFile {
                name: made.name,
                path: made.path,
            }
        };
        let (one, two) = (variant("D=1"), variant("D=2"));
        assert_eq!(crate_name(&one), crate_name(&two));
        assert!(crate_name(&one).starts_with("bot_shared_crate_test_"));
        let plain = BotFile {
            name: "shared_crate_test".into(),
            path: base.into(),
        };
        assert_ne!(
            crate_name(&one),
            crate_name(&plain),
            "the bot keeps its own"
        );
        // Not a variant: a file of the same name beside the variants' folder.
        let beside = BotFile {
            name: one.name.clone(),
            path: root.join("shared_crate_test@D=1.rs"),
        };
        assert_ne!(crate_name(&one), crate_name(&beside));
        assert_ne!(
            cache_key(&one, b"x", CHALLENGE),
            cache_key(&two, b"x", CHALLENGE)
        );
        fs::remove_dir_all(&root).unwrap();
    }

    #[test]
    fn unchanged_crate_files_are_not_rewritten() {
        let dir = std::env::temp_dir().join(format!("kit-write-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        let a = bot("a");
        write_crate(&dir, "bot_a_x", &a, CHALLENGE, b"fn one() {}").unwrap();
        let main = dir.join("src").join("main.rs");
        let old = SystemTime::now() - Duration::from_secs(3600);
        File::options()
            .append(true)
            .open(&main)
            .unwrap()
            .set_modified(old)
            .unwrap();
        write_crate(&dir, "bot_a_x", &a, CHALLENGE, b"fn two() {}").unwrap();
        assert_eq!(fs::metadata(&main).unwrap().modified().unwrap(), old);
        assert_eq!(
            fs::read(dir.join("src").join("bot.rs")).unwrap(),
            b"fn two() {}"
        );
        fs::remove_dir_all(&dir).unwrap();
    }
}

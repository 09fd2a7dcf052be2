//! README's install step, run as README writes it, in a scratch home: it puts `challenge`
//! on that home's PATH from the checkout's own build (the build's target folder, so what
//! `cargo run --release` compiled is reused, not compiled a second time), and
//! the program it installs works from any folder: it makes a bot folder and counts its bot,
//! and names the feature of a command it leaves out.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use crate::common::kit_root;
use crate::common_challenge::TempDir;

/// README's install steps: the lines of its code that start `cargo install --path .`,
/// without their comments (the step, then the step with the `server` feature).
fn readme_install_steps() -> Vec<String> {
    let readme = std::fs::read_to_string(kit_root().join("README.md")).unwrap();
    readme
        .lines()
        .filter(|line| line.starts_with("cargo install --path . "))
        .map(|line| line.split('#').next().unwrap().trim().to_string())
        .collect()
}

/// The machine's cargo and rustup homes (where rustup put the toolchain), which a new
/// home's shell finds through `~/.cargo/env`; kept as they are when the home changes.
fn tool_homes() -> [(&'static str, OsString); 2] {
    let home = PathBuf::from(std::env::var_os("HOME").expect("HOME is set"));
    let or = |name: &str, default: PathBuf| std::env::var_os(name).unwrap_or(default.into());
    [
        ("CARGO_HOME", or("CARGO_HOME", home.join(".cargo"))),
        ("RUSTUP_HOME", or("RUSTUP_HOME", home.join(".rustup"))),
    ]
}

/// `program ARGS` in `dir`, as a user of `home` whose PATH starts with `home/.cargo/bin`
/// (rustup's setup puts it there).
fn as_user(home: &Path, dir: &Path, program: &str, args: &[&str]) -> Output {
    let path = std::env::var_os("PATH").unwrap_or_default();
    let mut paths = vec![home.join(".cargo").join("bin")];
    paths.extend(std::env::split_paths(&path));
    Command::new(program)
        .args(args)
        .current_dir(dir)
        .env("HOME", home)
        .envs(tool_homes())
        // Installed programs go to the new home, not the machine's cargo home.
        .env("CARGO_INSTALL_ROOT", home.join(".cargo"))
        // A test reaches no network: the kit's dependencies are in the cargo home already.
        .env("CARGO_NET_OFFLINE", "true")
        .env("PATH", std::env::join_paths(paths).unwrap())
        .output()
        .unwrap()
}

#[test]
fn readmes_install_step_puts_challenge_on_the_path_of_a_new_home() {
    // The step rebuilds cargo's `challenge` without the server: the tests keep theirs first.
    crate::common::challenge_exe();
    let steps = readme_install_steps();
    let step = "cargo install --path . --locked --target-dir target";
    assert_eq!(
        steps,
        [step.to_string(), format!("{step} --features server")]
    );
    let scratch = TempDir::new("install");
    let home = scratch.path().join("home");
    std::fs::create_dir_all(&home).unwrap();
    let words: Vec<&str> = step.split_whitespace().collect();
    let installed = as_user(&home, &kit_root(), words[0], &words[1..]);
    // The server's step is the same but for the feature, which the program's own advice
    // names (below); it is not run here, to spare the tests a build of the server.
    let log = String::from_utf8_lossy(&installed.stderr);
    assert!(installed.status.success(), "{step}:\n{log}");
    assert!(home.join(".cargo/bin/challenge").is_file(), "{log}");
    // What it reuses is not asserted here: the tests' build has every feature of every
    // package, whose dependencies unify to other features than the default build's, so
    // this step compiles its own copies; after README's first command (the default build)
    // it compiles nothing.

    let work = scratch.path().join("work");
    std::fs::create_dir_all(&work).unwrap();
    let made = as_user(&home, &work, "challenge", &["new", "."]);
    assert!(made.status.success(), "{made:?}");
    let counted = as_user(&home, &work, "challenge", &["tokens"]);
    let count = String::from_utf8_lossy(&counted.stdout);
    assert!(
        counted.status.success() && count.starts_with("bot/my_bot.rs: "),
        "{count}{}",
        String::from_utf8_lossy(&counted.stderr)
    );
    // A default build leaves the server out, and says how to get it.
    let serve = as_user(&home, &work, "challenge", &["serve"]);
    let said = String::from_utf8_lossy(&serve.stderr);
    assert_eq!(serve.status.code(), Some(2), "{said}");
    let kit = kit_root();
    assert!(
        said.contains("`challenge serve` is part of the kit's `server` feature")
            && said.contains(&format!(
                "cargo install --path {kit} --locked --target-dir {kit}/target --features server",
                kit = kit.display()
            )),
        "{said}"
    );
}

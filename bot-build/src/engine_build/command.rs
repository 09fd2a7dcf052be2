//! The command lines of a build: rustc on a bot's generated crate, and cargo on the
//! kit's framework, with what each is told of its environment.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use super::BuildKind;
use super::layout::short_hash;

/// What rustc is given to compile one bot's generated crate.
#[derive(Debug)]
pub(super) struct BotCompile<'a> {
    /// The generated crate.
    pub(super) crate_dir: &'a Path,
    /// Its name.
    pub(super) crate_name: &'a str,
    /// The engine executable to write.
    pub(super) engine_out: &'a Path,
    /// Where its incremental state goes (`None`: not incremental).
    pub(super) incremental: Option<PathBuf>,
    /// Its `TMPDIR`.
    pub(super) scratch: &'a Path,
    /// The compiled framework library (`--extern framework=`).
    pub(super) framework_rlib: &'a Path,
    /// The directory of the framework's dependencies (`-L dependency=`).
    pub(super) framework_deps: &'a Path,
}

/// The compiler cargo uses: `$RUSTC`, else the `rustc` beside `$CARGO` (the toolchain
/// the kit was run by), else `rustc` on the path.
fn rustc_program() -> std::ffi::OsString {
    if let Some(rustc) = std::env::var_os("RUSTC") {
        return rustc;
    }
    std::env::var_os("CARGO")
        .map(|cargo| Path::new(&cargo).with_file_name("rustc"))
        .filter(|rustc| rustc.is_file())
        .map_or_else(|| "rustc".into(), PathBuf::into_os_string)
}

/// rustc on the bot's generated crate, against the compiled `framework`, with the flags
/// cargo passes for the crate's release profile (opt-level 3, 16 codegen units, stripped,
/// no LTO; incremental for a `Local` build only), so the engine is the one cargo would
/// make. Run by the kit rather than cargo so builds of different bots share nothing but
/// the compiled framework, which they only read: cargo's target directory allows one
/// cargo at a time. Output goes to the bot's own directory, `TMPDIR` to its scratch.
pub(super) fn rustc_command(bot: &BotCompile<'_>) -> Command {
    let name = bot.crate_name;
    let mut command = Command::new(rustc_program());
    command
        .current_dir(bot.crate_dir)
        .args(["--crate-name", name, "--edition=2024", "src/main.rs"])
        .args(["--crate-type", "bin", "--emit=link"])
        .args(["-C", "opt-level=3", "-C", "embed-bitcode=no"])
        .args(["-C", "codegen-units=16", "-C", "strip=symbols"])
        .arg("-C")
        .arg(format!("metadata={}", short_hash(&[name.as_bytes()])))
        .arg("-o")
        .arg(bot.engine_out)
        .arg("-L")
        .arg(format!("dependency={}", bot.framework_deps.display()))
        .arg("--extern")
        .arg(format!("framework={}", bot.framework_rlib.display()));
    if let Some(incremental) = &bot.incremental {
        command
            .arg("-C")
            .arg(format!("incremental={}", incremental.display()));
    }
    // What cargo tells a crate about itself (`env!("CARGO_PKG_NAME")` and the like).
    for (var, value) in [
        ("CARGO_PKG_NAME", name),
        ("CARGO_CRATE_NAME", name),
        ("CARGO_BIN_NAME", name),
        ("CARGO_PKG_VERSION", "0.0.0"),
        ("CARGO_PKG_VERSION_MAJOR", "0"),
        ("CARGO_PKG_VERSION_MINOR", "0"),
        ("CARGO_PKG_VERSION_PATCH", "0"),
        ("CARGO_PKG_VERSION_PRE", ""),
        ("CARGO_PRIMARY_PACKAGE", "1"),
    ] {
        command.env(var, value);
    }
    command
        .env("CARGO_MANIFEST_DIR", bot.crate_dir)
        .env("TMPDIR", bot.scratch)
        // A parent cargo's jobserver is not handed down: rustc runs its own.
        .env_remove("CARGO_MAKEFLAGS")
        .env_remove("MAKEFLAGS")
        .env_remove("MFLAGS")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    command
}

/// `cargo build` of the generated crate in `crate_dir`, with the kit's target directory,
/// `extra` arguments, the incremental setting of `kind` and `scratch` as its `TMPDIR`.
pub(super) fn cargo_command(
    crate_dir: &Path,
    dir: &Path,
    extra: &[&str],
    kind: BuildKind,
    scratch: &Path,
) -> Command {
    let mut command = Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()));
    command
        .args(["build", "--release", "--quiet", "--manifest-path"])
        .arg(crate_dir.join("Cargo.toml"))
        .args(extra)
        .env("CARGO_TARGET_DIR", dir.join("target"))
        .env("TMPDIR", scratch)
        .env_remove("RUSTFLAGS")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    match kind {
        // The manifest's profile decides: incremental for the bot's crate only.
        BuildKind::Local => command.env_remove("CARGO_INCREMENTAL"),
        // Overrides the profile for every crate of the build. The framework is never
        // incremental, so its compiled state serves both kinds of build.
        BuildKind::Untrusted => command.env("CARGO_INCREMENTAL", "0"),
    };
    command
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env_of(command: &Command, name: &str) -> Option<Option<String>> {
        command
            .get_envs()
            .find(|(key, _)| *key == name)
            .map(|(_, value)| value.map(|v| v.to_string_lossy().into_owned()))
    }

    #[test]
    fn untrusted_builds_keep_no_incremental_state_and_local_ones_follow_the_manifest() {
        let (crate_dir, dir, scratch) = (Path::new("/c"), Path::new("/d"), Path::new("/d/tmp/x"));
        let untrusted = cargo_command(crate_dir, dir, &[], BuildKind::Untrusted, scratch);
        assert_eq!(
            env_of(&untrusted, "CARGO_INCREMENTAL"),
            Some(Some("0".into()))
        );
        let local = cargo_command(crate_dir, dir, &[], BuildKind::Local, scratch);
        // Removed: a user's own CARGO_INCREMENTAL would override the manifest's profile.
        assert_eq!(env_of(&local, "CARGO_INCREMENTAL"), Some(None));
        for command in [&untrusted, &local] {
            assert_eq!(env_of(command, "TMPDIR"), Some(Some("/d/tmp/x".into())));
            assert_eq!(
                env_of(command, "CARGO_TARGET_DIR"),
                Some(Some("/d/target".into()))
            );
        }
    }
}

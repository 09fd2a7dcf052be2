//! The kit's framework, compiled once per build directory by cargo before any bot
//! (trusted code, under bounds of its own), and remembered for this process.

use std::path::{Path, PathBuf};
use std::sync::Mutex;

use super::BuildKind;
use super::command::cargo_command;
use super::error::BuildErrorKind;
use super::layout::{Share, lock_file, named_lock};
use super::limits::{BuildLimits, FRAMEWORK_BUILD_LIMIT, FRAMEWORK_FILE_LIMIT};
use super::supervise::{Step, StepFailure, run_bounded};

/// The compiled framework, compiled first if need be: by cargo (trusted code, in a
/// step of its own so the bot's bounds are spent on the bot alone; its largest file is
/// about 6 MB), in the shared target directory of `dir`, one build at a time, from the
/// generated crate in `crate_dir`. That is the only part of a build that waits for other
/// builds, and once the framework is compiled it is a check of under a second, made once
/// per process. Its failure is the host's, never the bot's.
pub(super) fn compiled(
    dir: &Path,
    crate_dir: &Path,
    kind: BuildKind,
    scratch: &Path,
    limits: &BuildLimits,
) -> Result<Framework, BuildErrorKind> {
    let _lock = lock_file(
        &named_lock(dir, "framework"),
        limits.lock_wait(),
        Share::Alone,
    )?;
    if let Some(known) = known_framework(dir) {
        return Ok(known);
    }
    let step = Step {
        time: FRAMEWORK_BUILD_LIMIT,
        file_limit: FRAMEWORK_FILE_LIMIT,
        watch: None,
    };
    let command = cargo_command(
        crate_dir,
        dir,
        &["-p", "framework", "--message-format=json"],
        kind,
        scratch,
    );
    let said = run_bounded(command, &step, limits.memory_mb).map_err(failed)?;
    let framework = framework_artifact(&said, dir).ok_or_else(|| BuildErrorKind::Framework {
        messages: "cargo did not name the compiled framework library".into(),
    })?;
    remember_framework(dir, &framework);
    Ok(framework)
}

/// A failed framework step as the host's failure: cargo could not run, or the
/// framework did not build (whatever stopped it: its bounds are the kit's own).
fn failed(failure: StepFailure) -> BuildErrorKind {
    match failure {
        StepFailure::Spawn(error) => BuildErrorKind::Spawn {
            program: "cargo".into(),
            error,
        },
        StepFailure::TimedOut(limit) => BuildErrorKind::Framework {
            messages: format!("still compiling after {} s; stopped", limit.as_secs()),
        },
        StepFailure::OverDisk(bytes) => BuildErrorKind::Framework {
            messages: format!("it wrote {bytes} bytes; stopped"),
        },
        StepFailure::Exited { status, messages } => BuildErrorKind::Framework {
            messages: format!("cargo ended with {status}:\n{messages}"),
        },
    }
}

/// The compiled framework a bot's crate is compiled against.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Framework {
    /// `libframework-*.rlib`.
    pub(super) rlib: PathBuf,
    /// The directory of its dependencies (`-L dependency=`).
    pub(super) deps: PathBuf,
}

/// The framework compiled earlier in this process for each build directory.
static FRAMEWORKS: Mutex<Vec<(PathBuf, Framework)>> = Mutex::new(Vec::new());

/// The framework this process compiled (or found fresh) in `dir`, if it is still there
/// (`challenge clean --all` removes it).
fn known_framework(dir: &Path) -> Option<Framework> {
    let known = FRAMEWORKS.lock().unwrap_or_else(|p| p.into_inner());
    known
        .iter()
        .find(|(at, _)| at == dir)
        .map(|(_, framework)| framework.clone())
        .filter(|framework| framework.rlib.is_file())
}

fn remember_framework(dir: &Path, framework: &Framework) {
    let mut known = FRAMEWORKS.lock().unwrap_or_else(|p| p.into_inner());
    known.retain(|(at, _)| at != dir);
    known.push((dir.to_path_buf(), framework.clone()));
}

/// The framework library named in cargo's JSON messages (`--message-format=json`), when
/// it lies in `dir`'s target directory.
fn framework_artifact(messages: &str, dir: &Path) -> Option<Framework> {
    let deps = dir.join("target").join("release").join("deps");
    messages.lines().find_map(|line| {
        let message: serde_json::Value = serde_json::from_str(line).ok()?;
        if message["reason"] != "compiler-artifact" || message["target"]["name"] != "framework" {
            return None;
        }
        // Cargo names the library's copy in `release/` (rewritten by every framework
        // build) and its metadata in `deps/`; the library beside that is the one to use.
        let rlib = message["filenames"]
            .as_array()?
            .iter()
            .filter_map(|name| name.as_str())
            .map(PathBuf::from)
            .find(|name| {
                name.starts_with(&deps)
                    && name
                        .extension()
                        .is_some_and(|e| e == "rmeta" || e == "rlib")
            })?
            .with_extension("rlib");
        rlib.is_file().then(|| Framework {
            rlib,
            deps: deps.clone(),
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_framework_that_does_not_build_is_the_hosts_failure_not_the_bots() {
        let failures = [
            StepFailure::TimedOut(FRAMEWORK_BUILD_LIMIT),
            StepFailure::OverDisk(7),
            StepFailure::Spawn(std::io::Error::from(std::io::ErrorKind::NotFound)),
        ];
        for failure in failures {
            let kind = failed(failure);
            assert!(!kind.is_bots_fault(), "{kind:?}");
            let text = kind.to_string();
            assert!(
                text.starts_with("the kit's framework did not build")
                    || text.starts_with("cannot run cargo"),
                "{text}"
            );
        }
    }
}

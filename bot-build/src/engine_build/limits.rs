//! The bounds of a build, read from the environment: its time, memory and disk, the
//! build directory's size, and the kit's own framework's longer bounds.

use std::time::Duration;

/// Names the variable that sets how many seconds one bot's build may take.
pub const BUILD_TIMEOUT_ENV: &str = "CHALLENGE_BUILD_TIMEOUT";
/// Names the variable that sets the address space (MiB) cargo and rustc get per build.
pub const BUILD_MEMORY_ENV: &str = "CHALLENGE_BUILD_MEMORY_MB";
/// Names the variable that sets how much (MiB) one bot's build may write: its objects,
/// incremental state, scratch files and engine, and the largest file cargo, rustc or the
/// linker may write while building it.
pub const BUILD_DISK_ENV: &str = "CHALLENGE_BUILD_DISK_MB";
/// Names the variable that bounds (MiB) the whole build directory: the framework, every
/// cached engine and every kept bot build.
pub const BUILD_DIR_LIMIT_ENV: &str = "CHALLENGE_BUILD_DIR_MB";
/// The largest engine executable a build may produce: a reference bot's is about 5 MB,
/// and anything near this size is a bot carrying a huge table in its binary.
pub const MAX_ENGINE_BYTES: u64 = 64 * MIB;

/// Bytes in a MiB.
pub(crate) const MIB: u64 = 1024 * 1024;
/// A reference bot (`bot/*.rs`) is submitted, built from an empty engine cache and
/// smoke-tested in 4 to 6 s on two cores shared with other compilers; 30 s is five times
/// the slowest, and bounds how long one submission holds a server's builder (a bot whose
/// build runs to the limit is what a flood of submissions sends).
const DEFAULT_BUILD_SECONDS: u64 = 30;
pub(super) const DEFAULT_BUILD_MEMORY_MB: u64 = 4096;
/// A reference bot's build leaves 15 to 20 MB with its incremental state (and its engine);
/// an ordinary bot stays far below this, a bot with a huge `static` or `const` does not.
const DEFAULT_BUILD_DISK_MB: u64 = 256;
/// The framework (about 40 MB), the default 64 kept engines (about 5 MB each) and 8 kept
/// bot builds (about 20 MB each) need under 1 GB; this leaves room for bigger bots.
const DEFAULT_BUILD_DIR_MB: u64 = 4096;
/// The kit's own framework (trusted code, compiled once per kit version)
/// may take this long: a cold build on a slow machine takes minutes.
pub(super) const FRAMEWORK_BUILD_LIMIT: Duration = Duration::from_secs(15 * 60);
/// The largest file the framework's own build step may write (its largest is about
/// 6 MB): a sanity bound that no bot's setting can lower.
pub(super) const FRAMEWORK_FILE_LIMIT: u64 = 1024 * MIB;
/// A build setting with a bad value: the variable, the value, and what it should be.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub(super) struct BadSetting(pub(super) String);

/// The bounds of one build.
#[derive(Debug, Clone, Copy)]
pub(super) struct BuildLimits {
    /// On the clock.
    pub(super) time: Duration,
    /// Address space of each process, MiB.
    pub(super) memory_mb: u64,
    /// What the bot's build may write, MiB.
    pub(super) disk_mb: u64,
    /// The whole build directory, MiB.
    pub(super) dir_mb: u64,
}

impl BuildLimits {
    /// The limits the environment sets.
    pub(super) fn from_env() -> Result<BuildLimits, BadSetting> {
        BuildLimits::from_vars(|name| std::env::var(name).ok())
    }

    /// The limits from variables looked up by name (the environment, or a test's table).
    pub(super) fn from_vars(
        var: impl Fn(&str) -> Option<String>,
    ) -> Result<BuildLimits, BadSetting> {
        let number = |name: &str, default| parse_limit(name, var(name).as_deref(), default);
        Ok(BuildLimits {
            time: Duration::from_secs(number(BUILD_TIMEOUT_ENV, DEFAULT_BUILD_SECONDS)?),
            memory_mb: number(BUILD_MEMORY_ENV, DEFAULT_BUILD_MEMORY_MB)?,
            disk_mb: number(BUILD_DISK_ENV, DEFAULT_BUILD_DISK_MB)?,
            dir_mb: number(BUILD_DIR_LIMIT_ENV, DEFAULT_BUILD_DIR_MB)?,
        })
    }

    /// [`BuildLimits::disk_mb`] in bytes.
    pub(super) fn disk_bytes(&self) -> u64 {
        self.disk_mb.saturating_mul(MIB)
    }

    /// [`BuildLimits::dir_mb`] in bytes.
    pub(super) fn dir_bytes(&self) -> u64 {
        self.dir_mb.saturating_mul(MIB)
    }

    /// How long a build waits for the build lock: as long as the longest
    /// build that can hold it, with room for copying the result.
    pub(super) fn lock_wait(&self) -> Duration {
        FRAMEWORK_BUILD_LIMIT + self.time + Duration::from_secs(30)
    }
}

/// The number in the variable `name`, or `default` when it is unset.
pub(super) fn env_number(name: &str, default: u64) -> Result<u64, BadSetting> {
    parse_limit(name, std::env::var(name).ok().as_deref(), default)
}

/// A limit's value: `default` when unset, else a whole number from 1 to 2^40.
fn parse_limit(name: &str, text: Option<&str>, default: u64) -> Result<u64, BadSetting> {
    match text {
        None => Ok(default),
        Some(text) => match text.trim().parse::<u64>() {
            Ok(value) if (1..=1 << 40).contains(&value) => Ok(value),
            _ => Err(BadSetting(format!(
                "{name}=`{text}` is not a whole number from 1 to 2^40"
            ))),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn build_limits_from_the_environment_name_bad_values() {
        assert_eq!(parse_limit(BUILD_TIMEOUT_ENV, None, 120).unwrap(), 120);
        assert_eq!(parse_limit(BUILD_TIMEOUT_ENV, Some(" 5 "), 120).unwrap(), 5);
        for bad in ["", "abc", "0", "-3", "1.5", "99999999999999999999"] {
            let err = parse_limit(BUILD_TIMEOUT_ENV, Some(bad), 120).unwrap_err();
            assert!(
                err.to_string().starts_with("CHALLENGE_BUILD_TIMEOUT="),
                "{err}"
            );
        }
    }

    #[test]
    fn disk_bounds_from_the_environment_have_defaults_and_name_bad_values() {
        let vars = |pairs: &'static [(&'static str, &'static str)]| {
            move |name: &str| {
                pairs
                    .iter()
                    .find(|(key, _)| *key == name)
                    .map(|(_, value)| value.to_string())
            }
        };
        let limits = BuildLimits::from_vars(vars(&[])).unwrap();
        assert_eq!(limits.disk_bytes(), DEFAULT_BUILD_DISK_MB * MIB);
        assert_eq!(limits.dir_bytes(), DEFAULT_BUILD_DIR_MB * MIB);
        let limits = BuildLimits::from_vars(vars(&[
            (BUILD_DISK_ENV, "16"),
            (BUILD_DIR_LIMIT_ENV, "100"),
        ]))
        .unwrap();
        assert_eq!(
            (limits.disk_bytes(), limits.dir_bytes()),
            (16 * MIB, 100 * MIB)
        );
        for (name, bad) in [
            (BUILD_DISK_ENV, "0"),
            (BUILD_DISK_ENV, "256M"),
            (BUILD_DIR_LIMIT_ENV, "-1"),
            (BUILD_DIR_LIMIT_ENV, "2000000000000"),
        ] {
            let table = [(name, bad)];
            let err = BuildLimits::from_vars(|key| {
                table
                    .iter()
                    .find(|(k, _)| *k == key)
                    .map(|(_, v)| v.to_string())
            })
            .unwrap_err();
            assert_eq!(
                err.to_string(),
                format!("{name}=`{bad}` is not a whole number from 1 to 2^40")
            );
        }
    }
}

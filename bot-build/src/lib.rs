//! Bot files into engines: finding a bot file and checking it against the rules, the
//! variants of a bot (its marked constants set to other values), and the build of a bot
//! file into a UCI engine executable, bounded in time, memory and disk and cached by
//! content.
//!
//! - Bot files ([`resolve`], [`check`], [`BotFile`], [`LimitPolicy`]): a bot named as
//!   the author types it (`my_bot`, a path, `my_bot@DEPTH=2`), and the rules it must meet.
//! - Variants ([`marks`], [`apply`], [`grid`], [`write_variant`]): constants marked
//!   `// vary` or `// tune`, and files that differ from the bot only in their values.
//! - Builds ([`build`], [`build_source`], [`prepare`], [`BuiltEngine`], [`BuildEvent`],
//!   [`clean`]): a bot file compiled into an engine, in a generated crate, cached in
//!   [`build_dir`]; a failed build is a [`BuildError`], the bot's fault or the host's.
//!
//! The library never prints: a build reports through the caller's observer as
//! [`BuildEvent`]s, and errors are returned.
//!
//! ```
//! let bot = bot_build::resolve("evil_bot").unwrap();
//! bot_build::check(&bot, bot_build::LimitPolicy::Enforce).unwrap();
//! assert_eq!(bot.name, "evil_bot");
//! ```

mod bots;
mod engine_build;
mod variants;

#[cfg(test)]
mod no_print;

pub use bots::{
    BotFile, KIT_ROOT, LimitPolicy, available, bot_dir, check, count_paths, is_bundled, is_lab_bot,
    lab_dir, local_bot_dir, resolve, variants_dir, work_target_dir,
};
pub use engine_build::{
    BuildError, BuildErrorKind, BuildEvent, BuildKind, BuiltEngine, EngineLimits, Reader, build,
    build_all, build_all_with, build_dir, build_in, build_jobs, build_source, build_with, clean,
    default_build_jobs, prepare, set_build_jobs,
};
pub use variants::{
    Mark, MarkError, MarkKind, Setting, Value, Values, VariantError, apply, family, grid, marks,
    parse_spec, settings, spec_text, write as write_variant,
};

//! One bot's build, from its generated crate to its engine in the cache: the framework
//! first, the bot's compile step under its bounds, then the engine installed and the
//! build directory bounded.

use std::fs;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use super::cache::{
    BUILT_MARK, Fit, evict, fit_dir, keep_engines, mark_used, remove_counted, remove_crate,
};
use super::command::{BotCompile, rustc_command};
use super::crate_files::write_crate;
use super::error::{BuildErrorKind, failed_compile, io};
use super::framework;
use super::layout::{Share, bot_out_dir, lock_file, named_lock, scratch_dir, use_stamp};
use super::limits::{BuildLimits, MAX_ENGINE_BYTES};
use super::supervise::{Step, StepFailure, Watch, run_bounded};
use super::{BuildEvent, BuildKind, CacheBound, EngineLimits};
use crate::bots::BotFile;

/// One build, holding its bot's crate lock.
pub(super) struct Job<'a> {
    /// The bot.
    pub(super) bot: &'a BotFile,
    /// Whose code it is.
    pub(super) kind: BuildKind,
    /// The build directory ([`crate::build_dir`]).
    pub(super) dir: &'a Path,
    /// The bot's generated crate.
    pub(super) crate_name: String,
    /// Its bounds.
    pub(super) limits: BuildLimits,
    /// What its engine's host enforces.
    pub(super) engine_limits: EngineLimits,
    /// Who hears what happens.
    pub(super) observe: &'a (dyn Fn(BuildEvent<'_>) + Sync),
}

impl Job<'_> {
    /// Compiles the bot from `source`, installs its engine at `executable` and bounds the
    /// build directory. A build stopped by a bound leaves nothing behind, and neither does
    /// an untrusted one (but its engine).
    /// Returns when the bot's own compile step started and ended.
    pub(super) fn run(
        &self,
        source: &[u8],
        executable: &Path,
    ) -> Result<(SystemTime, SystemTime), BuildErrorKind> {
        write_crate(
            &self.crate_dir(),
            &self.crate_name,
            self.bot,
            self.engine_limits,
            source,
        )?;
        let scratch = self.scratch();
        fs::create_dir_all(&scratch).map_err(io("create", &scratch))?;
        (self.observe)(BuildEvent::Compiling {
            bot: &self.bot.name,
        });
        let compiled = self.compile();
        // The compiler's scratch space is never needed after the build.
        let _ = fs::remove_dir_all(&scratch);
        let window = compiled.inspect_err(|failure| {
            if self.kind == BuildKind::Untrusted || failure.met_a_bound() {
                self.forget();
            }
        })?;
        let built = self.engine_out();
        // Copy to a temporary name first so a half-written file is never taken
        // for a cached engine.
        let partial = executable.with_extension("partial");
        fs::copy(&built, &partial).map_err(io("copy the engine to", &partial))?;
        fs::rename(&partial, executable).map_err(io("install the engine as", executable))?;
        mark_used(executable);
        match self.kind {
            BuildKind::Untrusted => self.forget(),
            BuildKind::Local => {
                let _ = fs::write(self.crate_dir().join(BUILT_MARK), b"");
            }
        }
        // Bounding the directory looks at every build in it: one at a time.
        let _trim = lock_file(
            &named_lock(self.dir, "framework"),
            self.limits.lock_wait(),
            Share::Alone,
        )?;
        self.trim(executable)?;
        Ok(window)
    }

    /// See [`bot_out_dir`].
    fn out_dir(&self) -> PathBuf {
        bot_out_dir(self.dir, &self.crate_name)
    }

    fn engine_out(&self) -> PathBuf {
        self.out_dir().join(&self.crate_name)
    }

    fn crate_dir(&self) -> PathBuf {
        self.dir.join("crates").join(&self.crate_name)
    }

    /// See [`scratch_dir`].
    fn scratch(&self) -> PathBuf {
        scratch_dir(self.dir, &self.crate_name)
    }

    /// Compiles the framework (a no-op once built), then the bot under every bound,
    /// then checks what the bot's build left on disk. Returns when the bot's step ran.
    fn compile(&self) -> Result<(SystemTime, SystemTime), BuildErrorKind> {
        let framework = framework::compiled(
            self.dir,
            &self.crate_dir(),
            self.kind,
            &self.scratch(),
            &self.limits,
        )?;
        let watch = Watch {
            dir: self.dir,
            crate_name: &self.crate_name,
            cap: self.limits.disk_bytes(),
        };
        let bot = Step {
            time: self.limits.time,
            file_limit: self.limits.disk_bytes(),
            watch: Some(watch),
        };
        let out = self.out_dir();
        fs::create_dir_all(&out).map_err(io("create", &out))?;
        let started = SystemTime::now();
        let (crate_dir, engine_out, scratch) =
            (self.crate_dir(), self.engine_out(), self.scratch());
        let command = rustc_command(&BotCompile {
            crate_dir: &crate_dir,
            crate_name: &self.crate_name,
            engine_out: &engine_out,
            incremental: self.incremental_dir(),
            scratch: &scratch,
            framework_rlib: &framework.rlib,
            framework_deps: &framework.deps,
        });
        run_bounded(command, &bot, self.limits.memory_mb)
            .map_err(|failure| self.failed(failure))?;
        let ended = SystemTime::now();
        // The watch looks a few times a second; this is the last word.
        let wrote = watch.footprint();
        if wrote > watch.cap {
            return Err(self.over_disk(Some(wrote)));
        }
        let bytes = fs::metadata(&engine_out).map_or(0, |meta| meta.len());
        if bytes > MAX_ENGINE_BYTES {
            return Err(BuildErrorKind::EngineTooLarge { bytes });
        }
        Ok((started, ended))
    }

    /// Where a `Local` build keeps its incremental state (`None`: an untrusted build
    /// keeps none).
    fn incremental_dir(&self) -> Option<PathBuf> {
        (self.kind == BuildKind::Local).then(|| {
            self.dir
                .join("target")
                .join("release")
                .join("incremental")
                .join(format!("{}-engine", self.crate_name))
        })
    }

    /// The bot's compile step failed: rustc could not run (the host's fault), or the bot
    /// did not compile or met a bound.
    fn failed(&self, failure: StepFailure) -> BuildErrorKind {
        match failure {
            StepFailure::Spawn(error) => BuildErrorKind::Spawn {
                program: "rustc".into(),
                error,
            },
            StepFailure::TimedOut(limit) => BuildErrorKind::TimedOut { limit },
            StepFailure::OverDisk(bytes) => self.over_disk(Some(bytes)),
            StepFailure::Exited { status, messages } => {
                failed_compile(status, messages, &self.limits)
            }
        }
    }

    fn over_disk(&self, seen: Option<u64>) -> BuildErrorKind {
        BuildErrorKind::OverDisk {
            limit_mb: self.limits.disk_mb,
            seen,
            messages: None,
        }
    }

    /// Removes the bot's generated crate and everything cargo keeps for it. Best effort:
    /// what cannot be removed now goes at the next eviction or `challenge clean`.
    fn forget(&self) {
        if let Err(error) = remove_crate(self.dir, &self.crate_name) {
            (self.observe)(BuildEvent::CannotRemove {
                bot: &self.bot.name,
                error,
            });
        }
    }

    /// Bounds the build directory after a build: the engine count (a tidy-up, so a
    /// failure is only a warning), then its size, which may refuse the build.
    fn trim(&self, executable: &Path) -> Result<(), BuildErrorKind> {
        let dir = self.dir;
        if let Err(error) = evict(dir, executable, keep_engines()?) {
            (self.observe)(BuildEvent::CannotTrim {
                dir,
                what: CacheBound::Engines,
                error,
            });
        }
        let bound = self.limits.dir_bytes();
        match fit_dir(dir, executable, &self.crate_name, bound) {
            Ok(Fit::Fits(_)) => Ok(()),
            Err(error) => {
                (self.observe)(BuildEvent::CannotTrim {
                    dir,
                    what: CacheBound::Size,
                    error,
                });
                Ok(())
            }
            Ok(Fit::Overfull { least }) => {
                let _ = remove_counted(executable);
                let _ = remove_counted(&use_stamp(executable));
                self.forget();
                Err(BuildErrorKind::DirectoryFull {
                    dir: dir.to_path_buf(),
                    least,
                    bound,
                })
            }
        }
    }
}

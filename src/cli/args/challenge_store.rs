//! The arguments of the commands that host a challenge (the `server` feature): where its
//! store is, and how many bots its builds take at once.

use std::path::{Path, PathBuf};

use anyhow::Result;
use store::{Access, Store, StoreLocation, open_store};

/// Where the challenge lives: `--dir`, default `./challenge`, or `--store URL` for a
/// PostgreSQL store shared by workers on many machines.
#[derive(clap::Args, Debug, Clone)]
pub struct DirArgs {
    /// The challenge directory (created on first submission) [default: challenge].
    #[arg(long, value_name = "DIR")]
    dir: Option<PathBuf>,
    /// A PostgreSQL store instead of the directory, shared by workers on many machines:
    /// `postgres://USER:PASSWORD@HOST:PORT/DATABASE`.
    #[arg(
        long,
        value_name = "URL",
        env = "CHALLENGE_STORE",
        hide_env_values = true,
        conflicts_with = "dir"
    )]
    pub store: Option<String>,
}

/// `--store URL` alone: the commands that only work on a PostgreSQL store (`worker`,
/// `workers grant`...).
#[derive(clap::Args, Debug, Clone)]
pub struct StoreUrl {
    /// The store: `postgres://USER:PASSWORD@HOST:PORT/DATABASE` (better in
    /// `CHALLENGE_STORE`: the command line is visible to every user of the machine).
    #[arg(
        long = "store",
        value_name = "URL",
        env = "CHALLENGE_STORE",
        hide_env_values = true
    )]
    pub url: String,
}

impl DirArgs {
    /// The store these options name.
    pub fn location(&self) -> Result<StoreLocation> {
        let dir = self.dir.as_deref().unwrap_or(Path::new("challenge"));
        Ok(StoreLocation::pick(self.store.as_deref(), dir)?)
    }

    /// Whether a store was named (`--dir`, `--store` or `CHALLENGE_STORE`), rather than
    /// the default `./challenge` taken.
    pub fn named(&self) -> bool {
        self.dir.is_some() || self.store.is_some()
    }

    /// Opens the store for `access`.
    pub fn open(&self, access: Access) -> Result<Box<dyn Store + Send>> {
        Ok(open_store(&self.location()?, access)?)
    }

    /// Where sources are written out to be built: the challenge directory, or this
    /// machine's cache for a PostgreSQL store.
    pub fn work_dir(&self) -> Result<PathBuf> {
        Ok(match self.location()? {
            StoreLocation::Dir(dir) => dir,
            StoreLocation::Postgres(_) => league::local_work_dir(),
        })
    }
}

/// `--build-jobs`: how many bots `worker`, `run` and `serve` build at once.
#[derive(clap::Args, Debug, Clone, Copy)]
pub struct BuildJobs {
    /// Bots built at once (default: half the cores, at least 1). Never more than the
    /// machine's memory allows at CHALLENGE_BUILD_MEMORY_MB (4096) per build.
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = clap::value_parser!(u32).range(1..=1024))]
    build_jobs: Option<u32>,
}

impl BuildJobs {
    /// Sets the process's build slots; says so when memory allows fewer than asked.
    pub fn apply(&self) -> usize {
        use bot_build::{default_build_jobs, set_build_jobs};
        let asked = self
            .build_jobs
            .map_or_else(default_build_jobs, |jobs| jobs as usize);
        let allowed = set_build_jobs(asked);
        if allowed < asked {
            eprintln!(
                "note: building {allowed} bot(s) at once, not {asked}: each build may take \
                 {} MiB (CHALLENGE_BUILD_MEMORY_MB) and this machine's memory allows {allowed}",
                std::env::var("CHALLENGE_BUILD_MEMORY_MB").unwrap_or_else(|_| "4096".into())
            );
        }
        allowed
    }
}

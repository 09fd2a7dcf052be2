//! Known opponents: Stockfish at lichess's eight "play with the computer" levels, so that
//! "beats Stockfish level 5" means the same here as on lichess (nominally: see
//! [`StockfishLevel`]).
//!
//! The figures are lichess's, from its Stockfish client fishnet (`src/api.rs`,
//! `SkillLevel::skill_level`, `depth` and `time`; fishnet sends
//! `setoption name Skill Level value S` and `go movetime T depth D` for a move at level N):
//!
//! | level | Skill Level | depth | move time |
//! |---|---|---|---|
//! | 1 | -9 | 5 | 50 ms |
//! | 2 | -5 | 5 | 100 ms |
//! | 3 | -1 | 5 | 150 ms |
//! | 4 | 3 | 5 | 200 ms |
//! | 5 | 7 | 5 | 300 ms |
//! | 6 | 11 | 8 | 400 ms |
//! | 7 | 16 | 13 | 500 ms |
//! | 8 | 20 | 22 | 1000 ms |
//!
//! ```
//! use measure::StockfishLevel;
//! let three = StockfishLevel::get(3).unwrap();
//! assert_eq!((three.skill, three.depth, three.movetime_ms), (-1, 5, 150));
//! // Stock Stockfish takes Skill Level 0..=20 and ignores a value outside it.
//! assert_eq!(three.skill_sent(), 0);
//! assert!(StockfishLevel::get(9).is_err());
//! ```

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::{Result, bail};
use runner::{EngineConfig, Player, TimeControl};

/// Where Debian and Ubuntu install Stockfish (`apt-get install stockfish`).
pub const DEBIAN_STOCKFISH: &str = "/usr/games/stockfish";

/// The range of stock Stockfish's `Skill Level` option. lichess runs its own build, which
/// takes levels below 0; stock Stockfish ignores a `setoption` outside its range (it would
/// then play at full strength), so lower levels are sent as 0.
pub const SKILL_RANGE: std::ops::RangeInclusive<i32> = 0..=20;

/// One of lichess's AI levels: what fishnet asks Stockfish for.
///
/// The figures are **nominal**: lichess plays them with its own Stockfish build (which
/// takes Skill Levels below 0), on its own hardware, and adds an opening book and the
/// game's clock; a local Stockfish of another version, at 0 for levels 1 to 3, on
/// another machine, plays at another strength. Compare bots against the same level on
/// the same machine, not against lichess ratings.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StockfishLevel {
    /// 1 to 8.
    pub level: u32,
    /// lichess's Skill Level (-9 to 20).
    pub skill: i32,
    /// `go depth`.
    pub depth: u32,
    /// `go movetime`, in milliseconds.
    pub movetime_ms: u64,
}

/// lichess's levels 1 to 8, in order.
pub const LICHESS_LEVELS: [StockfishLevel; 8] = [
    level(1, -9, 5, 50),
    level(2, -5, 5, 100),
    level(3, -1, 5, 150),
    level(4, 3, 5, 200),
    level(5, 7, 5, 300),
    level(6, 11, 8, 400),
    level(7, 16, 13, 500),
    level(8, 20, 22, 1000),
];

const fn level(level: u32, skill: i32, depth: u32, movetime_ms: u64) -> StockfishLevel {
    StockfishLevel {
        level,
        skill,
        depth,
        movetime_ms,
    }
}

impl StockfishLevel {
    /// Level `n` (1 to 8), or an error naming the range.
    pub fn get(n: u32) -> Result<StockfishLevel> {
        match LICHESS_LEVELS.iter().find(|l| l.level == n) {
            Some(level) => Ok(*level),
            None => bail!("there is no Stockfish level {n}: lichess's levels are 1 to 8"),
        }
    }

    /// The Skill Level sent to stock Stockfish: lichess's, within [`SKILL_RANGE`].
    pub fn skill_sent(&self) -> i32 {
        self.skill.clamp(*SKILL_RANGE.start(), *SKILL_RANGE.end())
    }

    /// The limits of every move: `go movetime T depth D`, no clock.
    ///
    /// ```
    /// use measure::StockfishLevel;
    /// let tc = StockfishLevel::get(8).unwrap().time_control();
    /// assert_eq!((tc.to_string(), tc.depth), ("1/move".to_string(), Some(22)));
    /// ```
    pub fn time_control(&self) -> TimeControl {
        TimeControl {
            depth: Some(self.depth),
            ..TimeControl::movetime(Duration::from_millis(self.movetime_ms))
        }
    }

    /// The player's default name in a match: `stockfish-level3`.
    pub fn name(&self) -> String {
        format!("stockfish-level{}", self.level)
    }

    /// Stockfish at this level, run as `command`: its Skill Level option, its limits.
    ///
    /// ```
    /// use measure::StockfishLevel;
    /// let sf = StockfishLevel::get(5).unwrap().player("/usr/games/stockfish");
    /// assert_eq!(sf.name(), "stockfish-level5");
    /// assert_eq!(sf.engine.options, [("Skill Level".to_string(), "7".to_string())]);
    /// assert_eq!(sf.tc.movetime.map(|t| t.as_millis()), Some(300));
    /// ```
    pub fn player(&self, command: impl Into<PathBuf>) -> Player {
        let engine = EngineConfig::new(self.name(), command)
            .external()
            .option("Skill Level", self.skill_sent().to_string());
        Player::new(engine, self.time_control())
    }
}

/// Stockfish's executable: Debian's [`DEBIAN_STOCKFISH`], else `stockfish` on `PATH`; an
/// error naming the install command when there is neither.
pub fn find_stockfish() -> Result<PathBuf> {
    find_stockfish_in(Path::new(DEBIAN_STOCKFISH), std::env::var_os("PATH"))
}

/// [`find_stockfish`] with the places to look given.
fn find_stockfish_in(debian: &Path, path: Option<OsString>) -> Result<PathBuf> {
    if is_executable(debian) {
        return Ok(debian.to_path_buf());
    }
    let on_path = path.and_then(|path| {
        std::env::split_paths(&path)
            .map(|dir| dir.join("stockfish"))
            .find(|candidate| is_executable(candidate))
    });
    match on_path {
        Some(found) => Ok(found),
        None => bail!(
            "Stockfish is not installed (no {} and no `stockfish` on PATH): install it with \
             `sudo apt-get install stockfish` (Debian, Ubuntu), or name a Stockfish \
             executable with cmd=PATH",
            debian.display()
        ),
    }
}

fn is_executable(path: &Path) -> bool {
    let Ok(meta) = path.metadata() else {
        return false;
    };
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        meta.is_file() && meta.permissions().mode() & 0o111 != 0
    }
    #[cfg(not(unix))]
    {
        meta.is_file()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_are_lichess_figures_in_order_and_sent_within_range() {
        let skills: Vec<i32> = LICHESS_LEVELS.iter().map(|l| l.skill).collect();
        assert_eq!(skills, [-9, -5, -1, 3, 7, 11, 16, 20]);
        let sent: Vec<i32> = LICHESS_LEVELS.iter().map(|l| l.skill_sent()).collect();
        assert_eq!(sent, [0, 0, 0, 3, 7, 11, 16, 20]);
        for (i, l) in LICHESS_LEVELS.iter().enumerate() {
            assert_eq!(l.level as usize, i + 1);
            assert_eq!(StockfishLevel::get(l.level).unwrap(), *l);
        }
        let err = StockfishLevel::get(0).unwrap_err().to_string();
        assert!(err.contains("levels are 1 to 8"), "{err}");
    }

    #[test]
    fn stockfish_is_found_in_debians_place_then_on_path_else_the_error_says_how_to_install() {
        let dir = std::env::temp_dir().join(format!("kit-find-stockfish-{}", std::process::id()));
        let (games, bin) = (dir.join("games"), dir.join("bin"));
        for d in [&games, &bin] {
            std::fs::create_dir_all(d).unwrap();
        }
        let debian = games.join("stockfish");
        let path = Some(OsString::from(bin.as_os_str()));
        let err = find_stockfish_in(&debian, path.clone())
            .unwrap_err()
            .to_string();
        assert!(err.contains("sudo apt-get install stockfish"), "{err}");
        assert!(err.contains(&debian.display().to_string()), "{err}");
        let on_path = bin.join("stockfish");
        std::fs::write(&on_path, "#!/bin/sh\n").unwrap();
        // A file that cannot be run is not Stockfish.
        assert!(find_stockfish_in(&debian, path.clone()).is_err());
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            for exe in [&on_path, &debian] {
                std::fs::write(exe, "#!/bin/sh\n").unwrap();
                std::fs::set_permissions(exe, std::fs::Permissions::from_mode(0o755)).unwrap();
            }
            assert_eq!(
                find_stockfish_in(&games.join("none"), path.clone()).unwrap(),
                on_path
            );
            assert_eq!(find_stockfish_in(&debian, path).unwrap(), debian);
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}

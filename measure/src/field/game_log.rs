//! The games of a long run (a gauntlet, a round robin), one JSON line each, appended as
//! each game ends: the run's state. Its first line says what run it is; running the same
//! run again reads the games back and plays on from there, and a run that is not the
//! same is refused, naming what differs. A line cut short by a crash is dropped.

use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail, ensure};
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The log's format.
pub const FORMAT: u32 = 1;

/// The largest log read: a game's line is about 150 bytes.
pub const MAX_LOG_BYTES: u64 = 256 << 20;

/// One finished game.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LoggedGame {
    /// White's player id.
    pub white: String,
    /// Black's player id.
    pub black: String,
    /// The opening's index in the run's openings.
    pub opening: usize,
    /// White's score: 1, ½ or 0.
    pub score: f64,
    /// How it ended ([`runner::Termination`]'s tag).
    pub termination: String,
    /// The side whose engine was at fault, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub faulty: Option<Side>,
}

/// A colour, as the log writes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    /// White.
    White,
    /// Black.
    Black,
}

impl LoggedGame {
    /// The log's line for a finished game record, `None` for a game that did not finish.
    pub fn of(record: &runner::GameRecord, ids: [&str; 2], opening: usize) -> Option<LoggedGame> {
        let score = record.white_score()?;
        Some(LoggedGame {
            white: ids[0].to_string(),
            black: ids[1].to_string(),
            opening,
            score,
            termination: record.termination.tag().to_string(),
            faulty: record.faulty.map(|side| match side {
                framework::chess::Color::White => Side::White,
                framework::chess::Color::Black => Side::Black,
            }),
        })
    }

    /// The id of the player at fault, if any.
    pub fn faulty_id(&self) -> Option<&str> {
        self.faulty.map(|side| match side {
            Side::White => self.white.as_str(),
            Side::Black => self.black.as_str(),
        })
    }
}

/// An open log: the games so far, and the file to append to (locked while open).
#[derive(Debug)]
pub struct GameLog {
    path: PathBuf,
    file: File,
    /// The games so far, oldest first.
    pub games: Vec<LoggedGame>,
}

impl GameLog {
    /// Opens the log at `path` for the run `header` describes: a new log (or a fresh one
    /// with `fresh`), or the games of the same run. `command` names the run in the
    /// refusals.
    pub fn open(path: &Path, header: &Value, fresh: bool, command: &str) -> Result<GameLog> {
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir)
                .with_context(|| format!("cannot create {}", dir.display()))?;
        }
        let file = OpenOptions::new()
            .read(true)
            .append(true)
            .create(true)
            .open(path)
            .with_context(|| format!("cannot open {}", path.display()))?;
        match file.try_lock() {
            Ok(()) => {}
            Err(std::fs::TryLockError::WouldBlock) => bail!(
                "another `{command}` is using {}: one run at a time",
                path.display()
            ),
            Err(std::fs::TryLockError::Error(err)) => {
                return Err(err).with_context(|| format!("cannot lock {}", path.display()));
            }
        }
        let empty = file.metadata()?.len() == 0;
        let mut log = GameLog {
            path: path.to_path_buf(),
            file,
            games: Vec::new(),
        };
        if fresh || empty {
            log.file.set_len(0)?;
            let first = serde_json::json!({ "format": FORMAT, "run": header });
            writeln!(log.file, "{first}")?;
            log.file.flush()?;
        } else {
            log.read_back(header, command)?;
        }
        Ok(log)
    }

    /// Reads the games of a log whose first line must describe `header`'s run.
    fn read_back(&mut self, header: &Value, command: &str) -> Result<()> {
        let path = self.path.display().to_string();
        ensure!(
            self.file.metadata()?.len() <= MAX_LOG_BYTES,
            "{path} is larger than {} MiB",
            MAX_LOG_BYTES >> 20
        );
        let text =
            std::fs::read_to_string(&self.path).with_context(|| format!("cannot read {path}"))?;
        let (first, rest) = text.split_once('\n').unwrap_or((&text, ""));
        let first: Value = serde_json::from_str(first)
            .ok()
            .with_context(|| format!("{path} does not begin with a run's description"))?;
        ensure!(
            first["format"] == FORMAT,
            "{path} is of format {}, this kit writes {FORMAT}: start anew with --fresh",
            first["format"]
        );
        let differ = differences(&first["run"], header);
        ensure!(
            differ.is_empty(),
            "{path} holds another run ({}): start it anew with --fresh, or name another state file with --state",
            differ.join("; ")
        );
        let mut offset = text.len() - rest.len();
        for (number, line) in rest.split_inclusive('\n').enumerate() {
            if !line.ends_with('\n') {
                // A crash may cut the last line short: it goes, and that game is played
                // again.
                self.file.set_len(offset as u64)?;
                break;
            }
            offset += line.len();
            if line.trim().is_empty() {
                continue;
            }
            let game = serde_json::from_str::<LoggedGame>(line).with_context(|| {
                format!(
                    "{path}:{}: not a game; `{command}` writes no such line",
                    number + 2
                )
            })?;
            self.games.push(game);
        }
        Ok(())
    }

    /// Appends a finished game, flushed before it returns.
    pub fn append(&mut self, game: LoggedGame) -> Result<()> {
        let line = serde_json::to_string(&game).expect("a game always serialises");
        writeln!(self.file, "{line}")
            .and_then(|()| self.file.flush())
            .with_context(|| format!("cannot write {}", self.path.display()))?;
        self.games.push(game);
        Ok(())
    }

    /// The log's path.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

/// What differs between a logged run and this one, key by key.
fn differences(then: &Value, now: &Value) -> Vec<String> {
    let (Some(then), Some(now)) = (then.as_object(), now.as_object()) else {
        return vec!["not a description of a run".into()];
    };
    now.iter()
        .filter(|(key, value)| then.get(*key) != Some(value))
        .map(|(key, value)| {
            let was = then
                .get(key)
                .map_or("nothing".to_string(), Value::to_string);
            format!("{key} was {was}, now {value}")
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("game-log-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir.join("log.jsonl")
    }

    fn game(white: &str) -> LoggedGame {
        LoggedGame {
            white: white.into(),
            black: "b".into(),
            opening: 3,
            score: 0.5,
            termination: "repetition".into(),
            faulty: None,
        }
    }

    #[test]
    fn a_log_reads_back_its_games_and_drops_a_cut_last_line() {
        let path = scratch("resume");
        let header = serde_json::json!({"bot": "x", "tc": "1+0"});
        let mut log = GameLog::open(&path, &header, false, "test").unwrap();
        log.append(game("a")).unwrap();
        log.append(game("c")).unwrap();
        drop(log);
        // A crash in the middle of a line.
        let mut file = OpenOptions::new().append(true).open(&path).unwrap();
        file.write_all(b"{\"white\":\"d\",\"bla").unwrap();
        drop(file);
        let mut log = GameLog::open(&path, &header, false, "test").unwrap();
        assert_eq!(log.games, [game("a"), game("c")]);
        log.append(game("e")).unwrap();
        drop(log);
        let log = GameLog::open(&path, &header, false, "test").unwrap();
        assert_eq!(log.games, [game("a"), game("c"), game("e")]);
    }

    #[test]
    fn another_run_is_refused_naming_what_differs_and_fresh_begins_anew() {
        let path = scratch("differ");
        let header = serde_json::json!({"bot": "x", "tc": "1+0"});
        let mut log = GameLog::open(&path, &header, false, "test").unwrap();
        log.append(game("a")).unwrap();
        drop(log);
        let other = serde_json::json!({"bot": "x", "tc": "2+0"});
        let err = format!(
            "{:#}",
            GameLog::open(&path, &other, false, "test").unwrap_err()
        );
        assert!(
            err.contains("tc was \"1+0\", now \"2+0\"") && err.contains("--fresh"),
            "{err}"
        );
        let log = GameLog::open(&path, &other, true, "test").unwrap();
        assert!(log.games.is_empty());
    }

    #[test]
    fn a_second_run_on_one_log_is_refused_while_the_first_holds_it() {
        let path = scratch("lock");
        let header = serde_json::json!({"bot": "x"});
        let held = GameLog::open(&path, &header, false, "challenge rate").unwrap();
        let err = format!(
            "{:#}",
            GameLog::open(&path, &header, false, "challenge rate").unwrap_err()
        );
        assert!(err.contains("another `challenge rate` is using"), "{err}");
        drop(held);
        assert!(GameLog::open(&path, &header, false, "challenge rate").is_ok());
    }

    #[test]
    fn a_line_in_the_middle_that_is_no_game_is_an_error_naming_it() {
        let path = scratch("bad");
        let header = serde_json::json!({"bot": "x"});
        drop(GameLog::open(&path, &header, false, "test").unwrap());
        let mut file = OpenOptions::new().append(true).open(&path).unwrap();
        file.write_all(b"garbage\n{\"white\":\"a\",\"black\":\"b\",\"opening\":0,\"score\":1.0,\"termination\":\"checkmate\"}\n").unwrap();
        drop(file);
        let err = format!(
            "{:#}",
            GameLog::open(&path, &header, false, "test").unwrap_err()
        );
        assert!(err.contains("log.jsonl:2: not a game"), "{err}");
    }
}

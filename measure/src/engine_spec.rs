//! `--engine` words: an external UCI engine (or a bot, or Stockfish at a lichess level)
//! as `KEY=VALUE` words, read into a typed [`EngineSpec`] and turned into a
//! [`Player`]. Any command that takes an engine reads it here, with the guard that keeps
//! an option from smuggling in another UCI command.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use bot_build::{BuildEvent, LimitPolicy};
use runner::{EngineConfig, Player, TimeControl};

use crate::matches::bot_player;
use crate::opponents::{StockfishLevel, find_stockfish};
use crate::words::{check_name_length, key_values, seconds, time_control};

/// The word that, first, makes the engine Stockfish (`stockfish level=N ...`).
const STOCKFISH: &str = "stockfish";

/// One `--engine`'s words, checked: what to run, its name, arguments, folder, UCI
/// options, and the limits that replace the match's for this player.
///
/// ```
/// use measure::{EngineSpec, Program};
/// use runner::TimeControl;
///
/// let words = ["name=sf", "cmd=/usr/games/stockfish", "option.Skill Level=0", "nodes=5000"];
/// let spec = EngineSpec::parse(&words).unwrap();
/// assert_eq!(spec.name.as_deref(), Some("sf"));
/// assert_eq!(spec.program, Some(Program::Command("/usr/games/stockfish".into())));
/// assert_eq!(spec.options, [("Skill Level".to_string(), "0".to_string())]);
/// assert_eq!(spec.time_control(TimeControl::default()).nodes, Some(5000));
///
/// // A line break in an option would be a second UCI command: refused, saying why.
/// let err = EngineSpec::parse(&["cmd=sf", "option.Hash=1\nquit"]).unwrap_err();
/// assert!(format!("{err:#}").contains("line breaks"));
/// ```
#[derive(Debug, Clone, Default, PartialEq)]
pub struct EngineSpec {
    /// `Some` when the first word is `stockfish`: Stockfish, found on this machine unless
    /// `cmd=` names one, at the lichess AI level `level=N` if given.
    pub stockfish: Option<Option<StockfishLevel>>,
    /// `name=`: the player's name (default: the stem of its command or bot).
    pub name: Option<String>,
    /// `cmd=` or `bot=`, the last one given.
    pub program: Option<Program>,
    /// `arg=` words, in order.
    pub args: Vec<String>,
    /// `dir=`: the engine's working folder.
    pub dir: Option<PathBuf>,
    /// `option.NAME=VALUE` words, in order, each safe to send as one `setoption` line.
    pub options: Vec<(String, String)>,
    /// `tc=`, `st=`, `nodes=`, `depth=` words, applied in order to the match's clock.
    pub limits: Vec<EngineLimit>,
}

/// What an `--engine` runs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Program {
    /// `cmd=PATH`: an executable speaking UCI.
    Command(String),
    /// `bot=BOT`: a bot, built as a match's bots are.
    Bot(String),
}

/// One per-player limit word.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EngineLimit {
    /// `tc=` or `st=`: the clock (a fixed time per move for `st=`); node and depth
    /// limits already set are kept.
    Clock(TimeControl),
    /// `nodes=N`.
    Nodes(u64),
    /// `depth=N`.
    Depth(u32),
}

impl EngineSpec {
    /// Reads one `--engine`'s words. Errors name the word and what was expected.
    pub fn parse<S: AsRef<str>>(words: &[S]) -> Result<EngineSpec> {
        let (stockfish, words) = split_stockfish(words)?;
        let mut spec = EngineSpec {
            stockfish,
            ..EngineSpec::default()
        };
        for (key, value) in key_values(&words, "--engine")? {
            if let Some(limit) = EngineLimit::parse(&key, &value)? {
                spec.limits.push(limit);
                continue;
            }
            spec.take(&key, value)?;
        }
        if spec.stockfish.is_none() && spec.program.is_none() {
            bail!("--engine needs cmd=PATH (an executable) or bot=BOT, or starts with `stockfish`");
        }
        Ok(spec)
    }

    /// Takes one word that is not a limit.
    fn take(&mut self, key: &str, value: String) -> Result<()> {
        match key {
            "name" => {
                check_name_length(&value, "--engine name")?;
                self.name = Some(value);
            }
            "cmd" => self.program = Some(Program::Command(value)),
            "bot" if self.stockfish.is_some() => {
                bail!(
                    "--engine stockfish plays Stockfish: name another one with cmd=PATH, not bot="
                )
            }
            "bot" => self.program = Some(Program::Bot(value)),
            "arg" => self.args.push(value),
            "dir" => self.dir = Some(PathBuf::from(value)),
            k if k.starts_with("option.") => {
                let option = &k["option.".len()..];
                check_option(option, &value)?;
                self.options.push((option.to_string(), value))
            }
            _ => bail!(
                "--engine: unknown key `{key}` (expected name, cmd, bot, arg, dir, option.NAME, tc, st, nodes, depth, or level after `stockfish`)"
            ),
        }
        Ok(())
    }

    /// The player's time control: the level's (`go movetime T depth D`) or `match_tc`,
    /// changed by the limit words in the order given.
    pub fn time_control(&self, match_tc: TimeControl) -> TimeControl {
        let start = match self.stockfish {
            Some(Some(level)) => level.time_control(),
            _ => match_tc,
        };
        self.limits.iter().fold(start, |tc, limit| limit.apply(tc))
    }

    /// The player: its engine found or built (`bot=` reports its build through
    /// `observe`), named, with its arguments, folder, options and time control.
    pub fn player(
        &self,
        policy: LimitPolicy,
        match_tc: TimeControl,
        observe: &(dyn Fn(BuildEvent<'_>) + Sync),
    ) -> Result<Player> {
        let program = match &self.program {
            Some(Program::Command(cmd)) => {
                Some(EngineConfig::new(cmd.clone(), cmd.clone()).external())
            }
            Some(Program::Bot(bot)) => Some(bot_player(bot, policy, match_tc, observe)?.engine),
            None => None,
        };
        let mut config = match self.stockfish {
            Some(level) => stockfish_engine(level, program)?,
            None => program.context(
                "--engine needs cmd=PATH (an executable) or bot=BOT, or starts with `stockfish`",
            )?,
        };
        if let Some(name) = &self.name {
            config.name = name.clone();
        } else if let Some(stem) = Path::new(&config.name).file_stem() {
            config.name = stem.to_string_lossy().into_owned();
        }
        config.args.extend(self.args.iter().cloned());
        config.options.extend(self.options.iter().cloned());
        if self.dir.is_some() {
            config.dir = self.dir.clone();
        }
        Ok(Player::new(config, self.time_control(match_tc)))
    }
}

impl EngineLimit {
    /// The limit a `tc=`, `st=`, `nodes=` or `depth=` word sets; `None` for any other key.
    fn parse(key: &str, value: &str) -> Result<Option<EngineLimit>> {
        let bad = |what: &str| format!("--engine {key}={value}: {what}");
        Ok(Some(match key {
            "tc" => EngineLimit::Clock(
                time_control(value)
                    .map_err(anyhow::Error::msg)
                    .with_context(|| bad("invalid time control"))?,
            ),
            "st" => EngineLimit::Clock(TimeControl::movetime(
                seconds(value)
                    .map_err(anyhow::Error::msg)
                    .with_context(|| bad("expected seconds"))?,
            )),
            "nodes" => EngineLimit::Nodes(
                value
                    .parse()
                    .ok()
                    .filter(|n| *n > 0)
                    .with_context(|| bad("expected a node count from 1"))?,
            ),
            "depth" => EngineLimit::Depth(
                value
                    .parse()
                    .ok()
                    .filter(|d| (1..=1000).contains(d))
                    .with_context(|| bad("expected a depth from 1 to 1000"))?,
            ),
            _ => return Ok(None),
        }))
    }

    /// `tc` with this limit applied.
    fn apply(self, tc: TimeControl) -> TimeControl {
        match self {
            EngineLimit::Clock(clock) => TimeControl {
                nodes: tc.nodes,
                depth: tc.depth,
                ..clock
            },
            EngineLimit::Nodes(nodes) => TimeControl {
                nodes: Some(nodes),
                ..tc
            },
            EngineLimit::Depth(depth) => TimeControl {
                depth: Some(depth),
                ..tc
            },
        }
    }
}

/// Splits off a first word `stockfish`: `Some` with its `level=N` (if given) when it is
/// there, and the words left. `level=` without it is an error that shows the way.
fn split_stockfish<S: AsRef<str>>(
    words: &[S],
) -> Result<(Option<Option<StockfishLevel>>, Vec<&str>)> {
    let words: Vec<&str> = words.iter().map(AsRef::as_ref).collect();
    let (stockfish, rest) = match words.split_first() {
        Some((first, rest)) if *first == STOCKFISH => (true, rest),
        _ => (false, &words[..]),
    };
    let mut level = None;
    let mut others = Vec::with_capacity(rest.len());
    for &word in rest {
        match word.split_once('=') {
            Some((key, value)) if key.trim() == "level" => {
                if !stockfish {
                    bail!("--engine {word}: a level is for Stockfish: --engine stockfish {word}");
                }
                let n = value.trim().parse().ok().with_context(|| {
                    format!("--engine stockfish {word}: expected a level from 1 to 8")
                })?;
                level = Some(
                    StockfishLevel::get(n).with_context(|| format!("--engine stockfish {word}"))?,
                );
            }
            _ => others.push(word),
        }
    }
    Ok((stockfish.then_some(level), others))
}

/// Stockfish found on this machine, or the one `cmd=` named; with the level's Skill
/// Level before any `option.NAME=` of the `--engine`.
fn stockfish_engine(
    level: Option<StockfishLevel>,
    cmd: Option<EngineConfig>,
) -> Result<EngineConfig> {
    let command = match cmd {
        Some(config) => config.command,
        None => find_stockfish()?,
    };
    Ok(match level {
        Some(level) => level.player(command).engine,
        None => EngineConfig::new(STOCKFISH, command).external(),
    })
}

/// `--engine option.NAME=VALUE`, checked by [`check_uci_option`].
fn check_option(name: &str, value: &str) -> Result<()> {
    check_uci_option(name, value)
        .map_err(|why| anyhow::anyhow!("--engine option.{}: {why}", name.escape_debug()))
}

/// Refuses an option that would not go to the engine as the one `setoption` line it
/// reads as this option, saying why: a line break would start another UCI command, and
/// a name with the word `value` in it would split elsewhere.
///
/// ```
/// assert!(measure::check_uci_option("Skill Level", "3").is_ok());
/// assert!(measure::check_uci_option("Hash", "1\rquit").is_err());
/// assert!(measure::check_uci_option("a value b", "1").is_err());
/// ```
pub fn check_uci_option(name: &str, value: &str) -> Result<(), &'static str> {
    if name.trim().is_empty() {
        return Err("the option has no name");
    }
    if name.chars().chain(value.chars()).any(char::is_control) {
        return Err("names and values may not hold line breaks or other control characters");
    }
    if name
        .split_whitespace()
        .any(|word| word == "value" || word == "name")
    {
        return Err("an option name may not contain the word `name` or `value`");
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    fn words(text: &str) -> Vec<&str> {
        text.split(' ').collect()
    }

    fn error(text: &str) -> String {
        format!("{:#}", EngineSpec::parse(&words(text)).unwrap_err())
    }

    #[test]
    fn stockfish_takes_its_level_and_leaves_the_rest() {
        let spec = EngineSpec::parse(&words("stockfish level=3 name=sf tc=1+0")).unwrap();
        let level = spec.stockfish.unwrap().unwrap();
        assert_eq!((level.level, level.movetime_ms), (3, 150));
        assert_eq!(spec.name.as_deref(), Some("sf"));
        assert_eq!(spec.limits.len(), 1);
        let spec = EngineSpec::parse(&words("cmd=/bin/sf")).unwrap();
        assert_eq!(spec.stockfish, None);
        assert_eq!(spec.program, Some(Program::Command("/bin/sf".into())));
    }

    #[test]
    fn a_bad_level_is_refused_with_the_way_out() {
        for (text, expected) in [
            ("stockfish level=9", "levels are 1 to 8"),
            ("stockfish level=three", "expected a level from 1 to 8"),
            ("stockfish level=-1", "expected a level from 1 to 8"),
            ("cmd=/bin/sf level=3", "--engine stockfish level=3"),
        ] {
            assert!(error(text).contains(expected), "{text}: {}", error(text));
        }
    }

    #[test]
    fn options_that_would_be_another_uci_line_are_refused() {
        for (text, expected) in [
            ("cmd=sf option.Hash=1\nquit", "line breaks"),
            ("cmd=sf option.Hash=1\rquit", "line breaks"),
            ("cmd=sf option.Hash\u{0}=1", "control characters"),
            ("cmd=sf option.=1", "has no name"),
            ("cmd=sf option.Skill\tvalue=1", "the word `name` or `value`"),
        ] {
            let text = text.replace('\t', " ");
            let words = ["cmd=sf", text.split_once(' ').unwrap().1];
            let err = format!("{:#}", EngineSpec::parse(&words).unwrap_err());
            assert!(err.contains(expected), "{text:?}: {err}");
        }
    }

    #[test]
    fn a_word_the_grammar_lacks_is_named() {
        assert!(error("cmd=sf colour=white").contains("unknown key `colour`"));
        assert!(error("name=sf").contains("needs cmd=PATH"));
        assert!(error("stockfish bot=my_bot").contains("not bot="));
        assert!(error("cmd=sf nodes=0").contains("--engine nodes=0: expected a node count"));
        assert!(error("cmd=sf depth=1001").contains("expected a depth from 1 to 1000"));
        assert!(error("cmd=sf tc=x").contains("--engine tc=x: invalid time control"));
        assert!(error("cmd=sf st=-1").contains("--engine st=-1: expected seconds"));
        assert!(error("sf").contains("`sf` is not KEY=VALUE"));
    }

    #[test]
    fn limits_apply_in_order_and_a_clock_keeps_node_and_depth_limits() {
        let spec = EngineSpec::parse(&words("cmd=sf nodes=100 depth=7 st=0.5")).unwrap();
        let tc = spec.time_control(TimeControl::clock(Duration::from_secs(5), Duration::ZERO));
        assert_eq!(tc.movetime, Some(Duration::from_millis(500)));
        assert_eq!(tc.base, None);
        assert_eq!((tc.nodes, tc.depth), (Some(100), Some(7)));
        let level = EngineSpec::parse(&words("stockfish level=1 depth=3")).unwrap();
        let tc = level.time_control(TimeControl::default());
        assert_eq!(tc.depth, Some(3));
        assert_eq!(tc.movetime, Some(Duration::from_millis(50)));
    }
}

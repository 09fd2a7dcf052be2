//! `--engine stockfish [level=N] ...`: Stockfish as a known opponent, at one of lichess's
//! AI levels ([`lab`]) or at full strength.

use anyhow::{Context, Result, bail};
use lab::{StockfishLevel, find_stockfish};
use runner::{EngineConfig, TimeControl};

/// The word that starts the preset.
const PRESET: &str = "stockfish";

/// An `--engine` whose first word is `stockfish`.
#[derive(Debug, Clone, Copy)]
pub(super) struct Preset {
    /// `level=N`, if given.
    level: Option<StockfishLevel>,
}

/// Splits off the preset: `Some` when the first word is `stockfish`, with the words left
/// after it and its `level=N`. `level=` without the preset is an error that shows the way.
pub(super) fn split_preset(words: &[String]) -> Result<(Option<Preset>, Vec<String>)> {
    let (preset, rest) = match words.split_first() {
        Some((first, rest)) if first == PRESET => (true, rest),
        _ => (false, words),
    };
    let mut level = None;
    let mut others = Vec::with_capacity(rest.len());
    for word in rest {
        match word.split_once('=') {
            Some((key, value)) if key.trim() == "level" => {
                if !preset {
                    bail!("--engine {word}: a level is for Stockfish: --engine stockfish {word}");
                }
                let n = value.trim().parse().ok().with_context(|| {
                    format!("--engine stockfish {word}: expected a level from 1 to 8")
                })?;
                level = Some(
                    StockfishLevel::get(n).with_context(|| format!("--engine stockfish {word}"))?,
                );
            }
            _ => others.push(word.clone()),
        }
    }
    Ok((preset.then_some(Preset { level }), others))
}

impl Preset {
    /// The time control the player starts from: the level's `go movetime T depth D`, or
    /// the match's at full strength. The `--engine`'s own tc=, st=, nodes= and depth= words
    /// change it afterwards.
    pub(super) fn time_control(&self, match_tc: TimeControl) -> TimeControl {
        self.level.map_or(match_tc, |level| level.time_control())
    }

    /// The engine: Stockfish found on this machine, or the one `cmd=` named; with the
    /// level's Skill Level before any option.NAME= of the `--engine`.
    pub(super) fn engine(&self, cmd: Option<EngineConfig>) -> Result<EngineConfig> {
        let command = match cmd {
            Some(config) => config.command,
            None => find_stockfish()?,
        };
        Ok(match self.level {
            Some(level) => level.player(command).engine,
            None => EngineConfig::new(PRESET, command).external(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(text: &str) -> Vec<String> {
        text.split(' ').map(str::to_string).collect()
    }

    #[test]
    fn the_preset_takes_its_level_and_leaves_the_rest() {
        let (preset, rest) = split_preset(&words("stockfish level=3 name=sf tc=1+0")).unwrap();
        let level = preset.unwrap().level.unwrap();
        assert_eq!((level.level, level.movetime_ms), (3, 150));
        assert_eq!(rest, ["name=sf", "tc=1+0"]);
        let (preset, rest) = split_preset(&words("cmd=/bin/sf")).unwrap();
        assert!(preset.is_none());
        assert_eq!(rest, ["cmd=/bin/sf"]);
    }

    #[test]
    fn a_bad_level_is_refused_with_the_way_out() {
        for (text, expected) in [
            ("stockfish level=9", "levels are 1 to 8"),
            ("stockfish level=three", "expected a level from 1 to 8"),
            ("stockfish level=-1", "expected a level from 1 to 8"),
            ("cmd=/bin/sf level=3", "--engine stockfish level=3"),
        ] {
            let err = format!("{:#}", split_preset(&words(text)).unwrap_err());
            assert!(err.contains(expected), "{text}: {err}");
        }
    }
}

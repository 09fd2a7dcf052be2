//! The engine's UCI options: the host's own `Clear Hash`, and the integer options a bot
//! declares in [`Bot::OPTIONS`](crate::bot::Bot::OPTIONS).
//!
//! The host announces them after `uci` and judges each `setoption` against them here, so
//! the protocol loop only carries out the [`OptionAction`] it gets back, and a client
//! that sets an unknown option, or a value a bot did not declare, is told why in an
//! `info string` instead of being ignored.

use super::command::SetOption;
use super::output::{MAX_NAME_CHARS, is_line_breaking};

/// The host's own option: a `button` that forgets the bot, exactly as `ucinewgame` does
/// (the next `isready` or `go` constructs a fresh one with `Default`, so all of its state
/// goes, its table among it). Options set with `setoption` stay set.
pub const CLEAR_HASH: &str = "Clear Hash";

/// The host's option that seeds [`Random::new`](crate::random::Random::new) for the games
/// that follow (a `spin` from 0 to `i32::MAX`): the runner sets it before each game from the
/// match's seed and the game's index, so a match with `--seed` plays the same games again.
/// A client that never sets it leaves the seed to the OS. A seed is not a secret.
pub const SEED: &str = "Seed";

/// Most options a bot may declare: far more than any engine offers.
pub const MAX_BOT_OPTIONS: usize = 64;

/// Longest option name, in characters (as long as an engine name).
pub const MAX_OPTION_NAME_CHARS: usize = MAX_NAME_CHARS;

/// One integer option a bot declared.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BotOption {
    /// Its name, as declared.
    pub name: &'static str,
    /// Its value until the client sets another.
    pub default: i64,
    /// The smallest value the client may set.
    pub min: i64,
    /// The largest value the client may set.
    pub max: i64,
}

/// What a `setoption` asks the host to do.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OptionAction {
    /// `Clear Hash`: forget the bot, as `ucinewgame` does.
    ClearHash,
    /// `Seed`: seed the bot's `Random::new()` with this value from now on.
    Seed(u64),
    /// Give the bot option with this index in [`Options::bot`] this value.
    SetBot {
        /// Index into [`Options::bot`].
        index: usize,
        /// The value, checked to be within the option's range.
        value: i64,
    },
}

/// The options an engine offers.
///
/// ```
/// use framework::uci::{Command, OptionAction, Options};
/// let (options, errors) = Options::declare(&[("TT Bits", 16, 10, 24)]);
/// assert!(errors.is_empty());
/// assert_eq!(options.uci_lines(), [
///     "option name Clear Hash type button",
///     "option name Seed type spin default 0 min 0 max 2147483647",
///     "option name TT Bits type spin default 16 min 10 max 24",
/// ]);
/// let set = |line: &str| match Command::parse(line).unwrap() {
///     Command::SetOption(set) => options.judge(&set),
///     other => panic!("{other:?}"),
/// };
/// assert_eq!(set("setoption name tt bits value 20"), Ok(OptionAction::SetBot { index: 0, value: 20 }));
/// assert_eq!(set("setoption name Clear Hash"), Ok(OptionAction::ClearHash));
/// assert_eq!(set("setoption name seed value 7"), Ok(OptionAction::Seed(7)));
/// assert!(set("setoption name Seed value -1").is_err());
/// assert_eq!(set("setoption name TT Bits value 30").unwrap_err(),
///     "option `TT Bits`: 30 is not in 10..=24; not set");
/// assert!(set("setoption name Hash value 16").unwrap_err().starts_with("unknown option `Hash`"));
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Options {
    /// The bot's options, in declared order.
    pub bot: Vec<BotOption>,
}

impl Options {
    /// The options of a bot's declarations that are well formed, and one message for
    /// each declaration left out, naming it and saying why.
    ///
    /// ```
    /// use framework::uci::Options;
    /// let (options, errors) =
    ///     Options::declare(&[("A", 5, 1, 3), ("B", 0, 0, 1), ("clear hash", 0, 0, 1), ("b", 1, 1, 1), ("SEED", 1, 0, 9)]);
    /// assert_eq!(options.bot.len(), 1);
    /// assert_eq!(options.bot[0].name, "B");
    /// assert_eq!(errors.len(), 4, "{errors:?}"); // the host's own names are taken
    /// assert_eq!(errors[0], "option \"A\": default 5 is not in 1..=3; left out");
    /// ```
    pub fn declare(declared: &[(&'static str, i64, i64, i64)]) -> (Options, Vec<String>) {
        let mut options = Options::default();
        let mut errors = Vec::new();
        if declared.len() > MAX_BOT_OPTIONS {
            errors.push(format!(
                "{} options declared; the first {MAX_BOT_OPTIONS} are kept",
                declared.len()
            ));
        }
        for &(name, default, min, max) in declared.iter().take(MAX_BOT_OPTIONS) {
            let option = BotOption {
                name,
                default,
                min,
                max,
            };
            match options.check(&option) {
                Ok(()) => options.bot.push(option),
                Err(cause) => errors.push(format!("option {name:?}: {cause}; left out")),
            }
        }
        (options, errors)
    }

    /// Why `option` cannot join the options declared so far, if it cannot.
    fn check(&self, option: &BotOption) -> Result<(), String> {
        let name = option.name;
        if name.trim().is_empty() || name.trim() != name || name.contains("  ") {
            return Err("a name needs words with single spaces between them".into());
        }
        if name.chars().count() > MAX_OPTION_NAME_CHARS || name.chars().any(is_line_breaking) {
            return Err(format!(
                "a name is one printable line of at most {MAX_OPTION_NAME_CHARS} characters"
            ));
        }
        if name
            .split(' ')
            .any(|word| word == "name" || word == "value")
        {
            return Err("the words `name` and `value` would end the name in `setoption`".into());
        }
        if self.find(name).is_some()
            || name.eq_ignore_ascii_case(CLEAR_HASH)
            || name.eq_ignore_ascii_case(SEED)
        {
            return Err("the name is taken (names are compared without regard to case)".into());
        }
        if !(option.min..=option.max).contains(&option.default) {
            return Err(format!(
                "default {} is not in {}..={}",
                option.default, option.min, option.max
            ));
        }
        Ok(())
    }

    fn find(&self, name: &str) -> Option<usize> {
        self.bot
            .iter()
            .position(|option| option.name.eq_ignore_ascii_case(name))
    }

    /// The `option ...` lines the host sends after `id`, the host's own first.
    pub fn uci_lines(&self) -> Vec<String> {
        [
            format!("option name {CLEAR_HASH} type button"),
            format!(
                "option name {SEED} type spin default 0 min 0 max {}",
                i32::MAX
            ),
        ]
        .into_iter()
        .chain(self.bot.iter().map(|o| {
            format!(
                "option name {} type spin default {} min {} max {}",
                o.name, o.default, o.min, o.max
            )
        }))
        .collect()
    }

    /// What `set` asks for, or why it cannot be done, in words for an `info string`
    /// (any text of the client's in it is one printable line, clipped).
    pub fn judge(&self, set: &SetOption) -> Result<OptionAction, String> {
        if set.name.eq_ignore_ascii_case(CLEAR_HASH) {
            return Ok(OptionAction::ClearHash);
        }
        if set.name.eq_ignore_ascii_case(SEED) {
            let value = integer(SEED, set)?;
            return match u64::try_from(value) {
                Ok(seed) if value <= i64::from(i32::MAX) => Ok(OptionAction::Seed(seed)),
                _ => Err(format!(
                    "option `{SEED}`: {value} is not in 0..={}; not set",
                    i32::MAX
                )),
            };
        }
        let Some(index) = self.find(&set.name) else {
            return Err(format!(
                "unknown option `{}`; this engine has: {}",
                printable(&set.name),
                self.names().join(", ")
            ));
        };
        let option = &self.bot[index];
        let value = integer(option.name, set)?;
        if !(option.min..=option.max).contains(&value) {
            return Err(format!(
                "option `{}`: {value} is not in {}..={}; not set",
                option.name, option.min, option.max
            ));
        }
        Ok(OptionAction::SetBot { index, value })
    }

    fn names(&self) -> Vec<&str> {
        [CLEAR_HASH, SEED]
            .into_iter()
            .chain(self.bot.iter().map(|option| option.name))
            .collect()
    }
}

/// The integer `set` gives the option `name`, or why it gives none.
fn integer(name: &str, set: &SetOption) -> Result<i64, String> {
    let text = set.value.as_deref().unwrap_or("").trim();
    text.parse().map_err(|_| {
        format!(
            "option `{name}`: `{}` is not an integer; not set",
            printable(text)
        )
    })
}

/// The client's text as one printable line of at most 64 characters, for a reply.
fn printable(text: &str) -> String {
    let mut shown: String = text
        .chars()
        .take(MAX_OPTION_NAME_CHARS)
        .map(|c| if is_line_breaking(c) { '?' } else { c })
        .collect();
    if text.chars().count() > MAX_OPTION_NAME_CHARS {
        shown.push('…');
    }
    shown
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(name: &str, value: Option<&str>) -> SetOption {
        SetOption {
            name: name.into(),
            value: value.map(str::to_string),
        }
    }

    #[test]
    fn values_are_judged_against_the_declaration() {
        let (options, errors) = Options::declare(&[("Depth", 3, 1, 9), ("Bias", 0, -50, 50)]);
        assert!(errors.is_empty(), "{errors:?}");
        let cases: [(SetOption, Result<OptionAction, &str>); 12] = [
            (
                set("depth", Some(" 9 ")),
                Ok(OptionAction::SetBot { index: 0, value: 9 }),
            ),
            (
                set("BIAS", Some("-50")),
                Ok(OptionAction::SetBot {
                    index: 1,
                    value: -50,
                }),
            ),
            (set("clear hash", None), Ok(OptionAction::ClearHash)),
            (
                set("Clear Hash", Some("ignored")),
                Ok(OptionAction::ClearHash),
            ),
            (
                set("Depth", Some("10")),
                Err("option `Depth`: 10 is not in 1..=9; not set"),
            ),
            (
                set("Depth", None),
                Err("option `Depth`: `` is not an integer; not set"),
            ),
            (
                set("Depth", Some("3.5")),
                Err("option `Depth`: `3.5` is not an integer; not set"),
            ),
            (
                set("Depth", Some("99999999999999999999")),
                Err("option `Depth`: `99999999999999999999` is not an integer; not set"),
            ),
            (
                set("Hash\u{7}\u{2029}", Some("16")),
                Err("unknown option `Hash??`; this engine has: Clear Hash, Seed, Depth, Bias"),
            ),
            (set("seed", Some(" 42 ")), Ok(OptionAction::Seed(42))),
            (
                set("Seed", Some("2147483648")),
                Err("option `Seed`: 2147483648 is not in 0..=2147483647; not set"),
            ),
            (
                set("Seed", None),
                Err("option `Seed`: `` is not an integer; not set"),
            ),
        ];
        for (set, expected) in cases {
            assert_eq!(
                options.judge(&set),
                expected.map_err(str::to_string),
                "{set:?}"
            );
        }
    }

    #[test]
    fn a_long_unknown_name_is_clipped_in_the_reply() {
        let reply = Options::default()
            .judge(&set(&"x".repeat(10_000), None))
            .unwrap_err();
        assert!(reply.len() < 200, "{reply}");
        assert!(reply.contains('…'), "{reply}");
    }

    #[test]
    fn bad_declarations_are_named() {
        let cases: [(&'static str, &str); 8] = [
            ("", "single spaces"),
            (" A", "single spaces"),
            ("A  B", "single spaces"),
            ("A\tB", "printable"),
            ("A\u{2028}info string x", "printable"),
            ("Max value", "`name` and `value`"),
            ("CLEAR HASH", "taken"),
            (
                "a name far too long for any graphical interface to show whole, or to read",
                "printable",
            ),
        ];
        for (name, expected) in cases {
            let (options, errors) = Options::declare(&[(name, 0, 0, 0)]);
            assert!(options.bot.is_empty(), "{name:?}");
            assert!(errors[0].contains(expected), "{name:?}: {errors:?}");
        }
        const NAMES: [&str; 65] = {
            let mut names = [""; 65];
            let mut i = 0;
            while i < 65 {
                names[i] = [
                    "a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l", "m",
                ][i % 13];
                i += 1;
            }
            names
        };
        let too_many: Vec<_> = NAMES.iter().map(|&name| (name, 0, 0, 0)).collect();
        let (options, errors) = Options::declare(&too_many);
        assert!(errors[0].contains("65 options declared"), "{errors:?}");
        // 13 names kept once each; the other copies (up to the 64th) are taken names.
        assert_eq!((options.bot.len(), errors.len()), (13, 1 + 64 - 13));
        let (options, errors) = Options::declare(&[("Min", i64::MIN, i64::MIN, i64::MAX)]);
        assert_eq!((options.bot.len(), errors.len()), (1, 0));
    }
}

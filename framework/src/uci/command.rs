//! Parsing of the commands a UCI client sends to an engine.

use std::str::SplitWhitespace;

/// What to set up before `go`: a start position and the moves played since.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PositionParams {
    /// The starting FEN, or `None` for the standard start position.
    pub fen: Option<String>,
    /// The moves played from the start position, in UCI notation.
    pub moves: Vec<String>,
}

/// The limits of a `go` command. Times are in milliseconds.
///
/// The host parses it from the client's line ([`Command::parse`]); the match
/// runner writes it ([`GoParams::command`]).
///
/// ```
/// use framework::uci::GoParams;
/// let go = GoParams { wtime: Some(1000), btime: Some(900), winc: Some(10), binc: Some(10), ..Default::default() };
/// assert_eq!(go.command(), "go wtime 1000 btime 900 winc 10 binc 10");
/// assert_eq!(GoParams { nodes: Some(500), ..Default::default() }.command(), "go nodes 500");
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct GoParams {
    /// White's clock.
    pub wtime: Option<u64>,
    /// Black's clock.
    pub btime: Option<u64>,
    /// White's increment.
    pub winc: Option<u64>,
    /// Black's increment.
    pub binc: Option<u64>,
    /// Moves until the next time control.
    pub movestogo: Option<u32>,
    /// Exactly this long for this move.
    pub movetime: Option<u64>,
    /// Search until `stop`.
    pub infinite: bool,
    /// Depth limit (bots may ignore it).
    pub depth: Option<u32>,
    /// Node limit (bots may ignore it).
    pub nodes: Option<u64>,
}

impl GoParams {
    /// The `go` command line (without newline).
    pub fn command(&self) -> String {
        let mut line = String::from("go");
        let mut push = |key: &str, value: Option<u64>| {
            if let Some(value) = value {
                line.push_str(&format!(" {key} {value}"));
            }
        };
        push("wtime", self.wtime);
        push("btime", self.btime);
        push("winc", self.winc);
        push("binc", self.binc);
        push("movestogo", self.movestogo.map(u64::from));
        push("movetime", self.movetime);
        push("nodes", self.nodes);
        push("depth", self.depth.map(u64::from));
        if self.infinite {
            line.push_str(" infinite");
        } else if line == "go" {
            // A bare `go` means "infinite" to some engines; ask for something finite.
            line.push_str(" depth 1");
        }
        line
    }
}

/// A `setoption name NAME [value VALUE]` command.
///
/// The name is every word between `name` and `value`, joined by single spaces (UCI
/// names may hold spaces, and the protocol splits lines at whitespace, so `Clear  Hash`
/// is `Clear Hash`); the value is the rest of the line after `value` as written, without
/// the spaces around it (a file path keeps its inner spaces). No `value` word: `None`,
/// as for a button.
///
/// ```
/// use framework::uci::{Command, SetOption};
/// assert_eq!(
///     Command::parse("setoption name Clear Hash").unwrap(),
///     Command::SetOption(SetOption { name: "Clear Hash".into(), value: None })
/// );
/// let Command::SetOption(opt) = Command::parse("setoption name Book File value my  book.bin ").unwrap()
///     else { panic!() };
/// assert_eq!((opt.name.as_str(), opt.value.as_deref()), ("Book File", Some("my  book.bin")));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SetOption {
    /// The option's name, as the client wrote it (UCI names are not case-sensitive).
    pub name: String,
    /// The value, or `None` when the line has no `value` word.
    pub value: Option<String>,
}

/// One command from the client.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Command {
    /// `uci`: identify and list options.
    Uci,
    /// `isready`: answer `readyok` once ready.
    IsReady,
    /// `ucinewgame`: the next position belongs to a new game.
    NewGame,
    /// `position ...`.
    Position(PositionParams),
    /// `go ...`.
    Go(GoParams),
    /// `stop`: return a move now.
    Stop,
    /// `quit`: exit.
    Quit,
    /// `setoption name NAME [value VALUE]`.
    SetOption(SetOption),
    /// A command the host accepts and ignores (`debug`, `ponderhit`, `register`).
    Ignored,
}

/// A command line that is not valid UCI.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParseCommandError {
    /// The first word is not a UCI command.
    #[error("unknown command `{0}`")]
    Unknown(String),
    /// A `position` command without `startpos` or `fen`.
    #[error("`position` needs `startpos` or `fen <FEN>`, got `{0}`")]
    BadPosition(String),
    /// A `setoption` line without `name` and a name after it.
    #[error("`setoption` needs `name <NAME> [value <VALUE>]`, got `{0}`")]
    BadSetOption(String),
    /// A `go` parameter without a valid number after it.
    #[error("`go {param}` needs a non-negative number, got `{value}`")]
    BadNumber {
        /// The parameter's name.
        param: String,
        /// What followed it.
        value: String,
    },
}

impl Command {
    /// Parses one line sent by the client. Empty lines parse as `Ignored`.
    ///
    /// ```
    /// use framework::uci::{Command, GoParams};
    /// let go = Command::parse("go wtime 1000 btime 900 winc 10 binc 10").unwrap();
    /// assert_eq!(
    ///     go,
    ///     Command::Go(GoParams {
    ///         wtime: Some(1000),
    ///         btime: Some(900),
    ///         winc: Some(10),
    ///         binc: Some(10),
    ///         ..GoParams::default()
    ///     })
    /// );
    /// ```
    pub fn parse(line: &str) -> Result<Command, ParseCommandError> {
        let mut words = line.split_whitespace();
        let Some(first) = words.next() else {
            return Ok(Command::Ignored);
        };
        Ok(match first {
            "uci" => Command::Uci,
            "isready" => Command::IsReady,
            "ucinewgame" => Command::NewGame,
            "position" => Command::Position(parse_position(words, line)?),
            "go" => Command::Go(parse_go(words)?),
            "stop" => Command::Stop,
            "quit" => Command::Quit,
            "setoption" => Command::SetOption(parse_setoption(line)?),
            "debug" | "ponderhit" | "register" => Command::Ignored,
            other => return Err(ParseCommandError::Unknown(other.to_string())),
        })
    }
}

fn parse_position(
    mut words: SplitWhitespace<'_>,
    line: &str,
) -> Result<PositionParams, ParseCommandError> {
    let fen = match words.next() {
        Some("startpos") => None,
        Some("fen") => {
            let fields: Vec<&str> = words.by_ref().take_while(|w| *w != "moves").collect();
            let moves = words.map(str::to_string).collect();
            return Ok(PositionParams {
                fen: Some(fields.join(" ")),
                moves,
            });
        }
        _ => return Err(ParseCommandError::BadPosition(line.trim().to_string())),
    };
    let moves = match words.next() {
        Some("moves") => words.map(str::to_string).collect(),
        Some(_) => return Err(ParseCommandError::BadPosition(line.trim().to_string())),
        None => Vec::new(),
    };
    Ok(PositionParams { fen, moves })
}

fn parse_setoption(line: &str) -> Result<SetOption, ParseCommandError> {
    let bad = || ParseCommandError::BadSetOption(line.trim().to_string());
    // The words and where each starts, so the value can be taken as written.
    let mut words = line
        .split_whitespace()
        .map(|word| (word, word.as_ptr() as usize - line.as_ptr() as usize));
    if words.next().map(|(w, _)| w) != Some("setoption")
        || words.next().map(|(w, _)| w) != Some("name")
    {
        return Err(bad());
    }
    let mut name = Vec::new();
    let mut value = None;
    for (word, at) in words {
        if word == "value" {
            value = Some(line[at + word.len()..].trim().to_string());
            break;
        }
        name.push(word);
    }
    if name.is_empty() {
        return Err(bad());
    }
    Ok(SetOption {
        name: name.join(" "),
        value,
    })
}

fn parse_go(mut words: SplitWhitespace<'_>) -> Result<GoParams, ParseCommandError> {
    fn number<T: std::str::FromStr>(
        param: &str,
        words: &mut SplitWhitespace<'_>,
    ) -> Result<Option<T>, ParseCommandError> {
        let value = words.next().unwrap_or("");
        // Some GUIs send negative clocks when a player is over time; treat them as zero.
        let cleaned = if value.starts_with('-') { "0" } else { value };
        cleaned
            .parse()
            .map(Some)
            .map_err(|_| ParseCommandError::BadNumber {
                param: param.to_string(),
                value: value.to_string(),
            })
    }
    let mut go = GoParams::default();
    while let Some(word) = words.next() {
        match word {
            "wtime" => go.wtime = number(word, &mut words)?,
            "btime" => go.btime = number(word, &mut words)?,
            "winc" => go.winc = number(word, &mut words)?,
            "binc" => go.binc = number(word, &mut words)?,
            "movestogo" => go.movestogo = number(word, &mut words)?,
            "movetime" => go.movetime = number(word, &mut words)?,
            "depth" => go.depth = number(word, &mut words)?,
            "nodes" => go.nodes = number(word, &mut words)?,
            "infinite" => go.infinite = true,
            // `ponder`, `mate`, `searchmoves ...`: accepted, not supported by bots.
            _ => {}
        }
    }
    Ok(go)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn position_startpos_with_moves() {
        assert_eq!(
            Command::parse("position startpos moves e2e4 e7e5").unwrap(),
            Command::Position(PositionParams {
                fen: None,
                moves: vec!["e2e4".into(), "e7e5".into()]
            })
        );
    }

    #[test]
    fn position_fen_without_moves() {
        let fen = "8/8/8/8/8/8/8/K1k5 w - - 0 1";
        assert_eq!(
            Command::parse(&format!("position fen {fen}")).unwrap(),
            Command::Position(PositionParams {
                fen: Some(fen.into()),
                moves: vec![]
            })
        );
    }

    #[test]
    fn position_fen_with_moves() {
        let parsed =
            Command::parse("position fen 8/8/8/8/8/8/8/K1k5 w - - 0 1 moves a1a2").unwrap();
        let Command::Position(p) = parsed else {
            panic!("not a position: {parsed:?}")
        };
        assert_eq!(p.fen.as_deref(), Some("8/8/8/8/8/8/8/K1k5 w - - 0 1"));
        assert_eq!(p.moves, vec!["a1a2".to_string()]);
    }

    #[test]
    fn bad_position_is_an_error() {
        assert!(matches!(
            Command::parse("position e2e4"),
            Err(ParseCommandError::BadPosition(_))
        ));
    }

    #[test]
    fn go_variants() {
        assert_eq!(
            Command::parse("go movetime 250").unwrap(),
            Command::Go(GoParams {
                movetime: Some(250),
                ..GoParams::default()
            })
        );
        assert_eq!(
            Command::parse("go infinite").unwrap(),
            Command::Go(GoParams {
                infinite: true,
                ..GoParams::default()
            })
        );
        let Command::Go(go) = Command::parse("go wtime -15 btime 10 movestogo 3").unwrap() else {
            panic!()
        };
        assert_eq!(
            (go.wtime, go.btime, go.movestogo),
            (Some(0), Some(10), Some(3))
        );
    }

    #[test]
    fn go_commands_read_back_as_written() {
        let all = GoParams {
            wtime: Some(1),
            btime: Some(2),
            winc: Some(3),
            binc: Some(4),
            movestogo: Some(5),
            movetime: Some(6),
            infinite: false,
            depth: Some(7),
            nodes: Some(8),
        };
        let infinite = GoParams {
            infinite: true,
            ..GoParams::default()
        };
        for go in [all, infinite] {
            assert_eq!(Command::parse(&go.command()), Ok(Command::Go(go)));
        }
    }

    #[test]
    fn go_with_garbage_number_is_an_error() {
        assert_eq!(
            Command::parse("go wtime lots"),
            Err(ParseCommandError::BadNumber {
                param: "wtime".into(),
                value: "lots".into()
            })
        );
    }

    #[test]
    fn unknown_and_empty() {
        assert_eq!(
            Command::parse("fly"),
            Err(ParseCommandError::Unknown("fly".into()))
        );
        assert_eq!(Command::parse("   ").unwrap(), Command::Ignored);
        assert_eq!(Command::parse("debug on").unwrap(), Command::Ignored);
    }

    fn set(name: &str, value: Option<&str>) -> Command {
        Command::SetOption(SetOption {
            name: name.into(),
            value: value.map(str::to_string),
        })
    }

    #[test]
    fn setoption_lines() {
        let cases = [
            ("setoption name Hash value 16", set("Hash", Some("16"))),
            ("setoption name Clear Hash", set("Clear Hash", None)),
            (
                "  setoption   name  Clear \t Hash  ",
                set("Clear Hash", None),
            ),
            (
                "setoption name Syzygy Path value /tb/a b;/tb/c ",
                set("Syzygy Path", Some("/tb/a b;/tb/c")),
            ),
            ("setoption name Style value", set("Style", Some(""))),
            ("setoption name A value value", set("A", Some("value"))),
            (
                "setoption name x value 1 value 2",
                set("x", Some("1 value 2")),
            ),
            (
                "setoption name ünïcödé name value é",
                set("ünïcödé name", Some("é")),
            ),
        ];
        for (line, expected) in cases {
            assert_eq!(Command::parse(line), Ok(expected), "{line:?}");
        }
        for bad in [
            "setoption",
            "setoption Hash value 16",
            "setoption name",
            "setoption name value 3",
            "setoption value 3 name x",
        ] {
            assert_eq!(
                Command::parse(bad),
                Err(ParseCommandError::BadSetOption(bad.trim().into())),
                "{bad:?}"
            );
        }
    }

    proptest::proptest! {
        /// Any name of words other than `value`, and any value without line breaks, read
        /// back from the line a client would write.
        #[test]
        fn setoption_reads_back_what_a_client_writes(
            name in proptest::collection::vec("[^\\s]{1,12}", 1..5),
            value in proptest::option::of("[^\\r\\n]{0,40}"),
            gap in "[ \\t]{1,3}",
        ) {
            proptest::prop_assume!(name.iter().all(|word| word != "value"));
            let mut line = format!("setoption{gap}name{gap}{}", name.join(&gap));
            if let Some(value) = &value {
                line.push_str(&format!("{gap}value{gap}{value}"));
            }
            let expected_value = value.as_ref().map(|v| v.trim().to_string());
            proptest::prop_assert_eq!(
                Command::parse(&line),
                Ok(Command::SetOption(SetOption { name: name.join(" "), value: expected_value }))
            );
        }
    }
}

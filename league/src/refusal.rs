//! Why a submission is refused: one kind per cause, each carrying its facts, each
//! rendered once for the entrant (who may be a web visitor: no path or name of the host)
//! and once for the host (its own user and log: every detail).
//!
//! The renderer matches every kind by name, with no catch-all arm, so a new kind cannot
//! render as nothing; and each kind says its cause once (the build's words come from the
//! build error's kind alone, not wrapped in a second "does not build").

use std::path::PathBuf;
use std::time::Duration;

use bot_build::{BuildError, Reader};
use runner::{EngineConfig, HostDetail};
use token_counter::{FileError, LIMIT, Violation};

/// Why a bot was refused: the bot's fault, with what shows it.
#[derive(Debug)]
pub enum Refusal {
    /// The entry's name is not one the challenge takes.
    Name {
        /// The name given.
        name: String,
    },
    /// The bot file cannot be read: missing, too large, not UTF-8 text.
    Unreadable {
        /// Why, naming the file.
        error: FileError,
    },
    /// It does not parse as Rust.
    Parse {
        /// The file as its sender knows it.
        file: String,
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
        /// The parser's message.
        message: String,
    },
    /// It breaks rules of the challenge.
    Rules {
        /// The file as its sender knows it.
        file: String,
        /// Each broken rule, in source order.
        violations: Vec<Violation>,
    },
    /// It is over the token limit with its `#DEBUG` tokens counted.
    Tokens {
        /// The file as its sender knows it.
        file: String,
        /// Tokens in all, `#DEBUG` ones included.
        total: usize,
        /// The `#DEBUG` tokens among them.
        debug: usize,
    },
    /// It does not build, by its own fault ([`BuildError::is_bots_fault`]).
    Build {
        /// The file as its sender knows it.
        file: String,
        /// What the build said.
        error: Box<BuildError>,
    },
    /// It built, and failed the smoke test.
    SmokeTest {
        /// The file as its sender knows it.
        file: String,
        /// What went wrong.
        failure: Box<SmokeFailure>,
    },
}

/// What went wrong in the smoke test, where, and what the engine printed.
#[derive(Debug, Clone)]
pub struct SmokeFailure {
    /// The engine's executable (a host path: shown to the host only).
    pub engine: PathBuf,
    /// The position it was playing, as `(what it exercises, FEN)`; `None` when the
    /// engine did not start.
    pub position: Option<(&'static str, &'static str)>,
    /// What went wrong.
    pub problem: SmokeProblem,
    /// The engine's last stderr lines.
    pub stderr: Vec<String>,
}

/// The ways a smoke test fails.
#[derive(Debug, Clone, PartialEq)]
pub enum SmokeProblem {
    /// The engine did not start or complete the UCI handshake (the runner's words).
    NoStart(String),
    /// It exited, by a crash or a signal, while being constructed or searching.
    Crashed {
        /// Its exit, as the runner words it.
        exit: String,
        /// Whether it was being constructed (else searching).
        constructing: bool,
    },
    /// It exceeded the memory limit.
    MemoryLimit {
        /// Its exit, as the runner words it.
        exit: String,
        /// Whether it was being constructed (else searching).
        constructing: bool,
    },
    /// Constructing it took longer than the rules allow.
    SlowConstruction {
        /// How long the host waited.
        waited: Duration,
        /// What the rules allow.
        limit: Duration,
    },
    /// It did not answer `go` in time.
    SlowMove {
        /// How long the host waited.
        waited: Duration,
        /// The clock it was given, in milliseconds.
        clock_ms: u64,
    },
    /// It answered with a move that is not legal in the position.
    IllegalMove {
        /// Its answer.
        played: String,
        /// Why the board refuses it.
        reason: String,
    },
    /// It broke the protocol (the runner's words).
    Protocol {
        /// What it did.
        what: String,
        /// Whether it was being constructed (else searching).
        constructing: bool,
    },
}

impl Refusal {
    /// The refusal for whoever sent the bot: no path or name of the host.
    ///
    /// ```
    /// let refusal = league::Refusal::Tokens { file: "mine.rs".into(), total: 1030, debug: 10 };
    /// assert!(refusal.for_entrant().starts_with(
    ///     "refused: mine.rs has 1030 tokens counting its 10 #DEBUG tokens, over the limit of 1024 by 6"
    /// ));
    /// ```
    pub fn for_entrant(&self) -> String {
        self.words(false)
    }

    /// The refusal for the host's own user and log: every detail.
    pub fn for_host(&self) -> String {
        self.words(true)
    }

    fn words(&self, host: bool) -> String {
        let cause = match self {
            Refusal::Name { name } => format!(
                "`{name}` is not a valid entry name (use 1 to 40 letters, digits, `_`, `-` or \
                 `.`, starting with a letter or digit)"
            ),
            Refusal::Unreadable { error } => error.to_string(),
            Refusal::Parse {
                file,
                line,
                column,
                message,
            } => format!("{file}:{line}:{column}: the file does not parse as Rust: {message}"),
            Refusal::Rules { file, violations } => {
                let each: Vec<String> = violations.iter().map(|v| format!("{file}:{v}")).collect();
                format!("{file} breaks the challenge rules:\n{}", each.join("\n"))
            }
            Refusal::Tokens { file, total, debug } => format!(
                "{file} has {total} tokens counting its {debug} #DEBUG tokens, over the limit of \
                 {LIMIT} by {}\n  hint: shorten the bot or remove #DEBUG lines; `challenge \
                 tokens --top 10 {file}` shows the costliest lines",
                total.saturating_sub(LIMIT)
            ),
            Refusal::Build { file, error } => build_words(file, error, host),
            Refusal::SmokeTest { file, failure } => {
                format!("{file} failed the smoke test: {}", failure.words(host))
            }
        };
        format!("refused: {cause}")
    }
}

/// `FILE does not compile: …` and the like: the build error's own sentence, naming the
/// file as its sender knows it; for the entrant the compiler's messages are cleaned of
/// the host's paths.
fn build_words(file: &str, error: &BuildError, host: bool) -> String {
    let scrubber = HostDetail::of_host();
    let scrub = |text: &str| scrubber.scrub(text);
    let as_said = |text: &str| text.to_string();
    let reader = Reader::Sender {
        file,
        scrub: if host { &as_said } else { &scrub },
    };
    format!("{file} {}", error.cause(reader))
}

impl SmokeFailure {
    fn words(&self, host: bool) -> String {
        let doing = |constructing: bool| {
            if constructing {
                "constructing the bot"
            } else {
                "searching"
            }
        };
        let problem = match &self.problem {
            SmokeProblem::NoStart(error) => format!("the engine does not start: {error}"),
            SmokeProblem::Crashed { exit, constructing } => {
                format!("it crashed ({exit}) while {}", doing(*constructing))
            }
            SmokeProblem::MemoryLimit { exit, constructing } => format!(
                "it exceeded the 256 MiB memory limit ({exit}) while {}",
                doing(*constructing)
            ),
            SmokeProblem::SlowConstruction { waited, limit } => format!(
                "constructing it took longer than {:.2}s (the rules allow {}s)",
                waited.as_secs_f64(),
                limit.as_secs()
            ),
            SmokeProblem::SlowMove { waited, clock_ms } => format!(
                "it did not answer within {:.2}s with {clock_ms} ms on its clock",
                waited.as_secs_f64()
            ),
            SmokeProblem::IllegalMove { played, reason } => {
                format!("it played `{played}`, which is not a legal move ({reason})")
            }
            SmokeProblem::Protocol { what, constructing } => {
                format!("{what} while {}", doing(*constructing))
            }
        };
        let place = match self.position {
            Some((what, fen)) => format!(" from {what} ({fen})"),
            None => String::new(),
        };
        let tail = if self.stderr.is_empty() {
            String::new()
        } else {
            format!(
                "\n  its last stderr lines:\n    {}",
                self.stderr.join("\n    ")
            )
        };
        let words = format!("{problem}{place}{tail}");
        if host {
            return words;
        }
        // The engine's path and what it printed are the organiser's machine.
        HostDetail::for_engine(&EngineConfig::new("bot", &self.engine)).scrub(&words)
    }
}

impl std::fmt::Display for Refusal {
    /// The host's words ([`Refusal::for_host`]).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.for_host())
    }
}

impl std::error::Error for Refusal {}

#[cfg(test)]
mod tests {
    use super::*;
    use bot_build::{BotFile, BuildErrorKind};

    fn failed_build(kind: BuildErrorKind) -> BuildError {
        BuildError {
            bot: BotFile {
                name: "broken".into(),
                path: "/srv/challenge/sources/0a1b.rs".into(),
            },
            kind,
        }
    }

    /// One refusal of every kind, so a kind added later shows up here as a test to write.
    fn every_kind() -> Vec<Refusal> {
        let file = || "mine.rs".to_string();
        let violation = token_counter::analyze("fn main() { unsafe {} }")
            .unwrap()
            .violations
            .remove(0);
        vec![
            Refusal::Name { name: "a b".into() },
            Refusal::Unreadable {
                error: token_counter::read_source("/no/such/bot.rs").unwrap_err(),
            },
            Refusal::Parse {
                file: file(),
                line: 3,
                column: 9,
                message: "expected `;`".into(),
            },
            Refusal::Rules {
                file: file(),
                violations: vec![violation],
            },
            Refusal::Tokens {
                file: file(),
                total: 1030,
                debug: 10,
            },
            Refusal::Build {
                file: file(),
                error: Box::new(failed_build(BuildErrorKind::Compile {
                    messages: "error: expected `;`\n --> src/bot.rs:3:9\n  ::: /srv/kit/framework/src/lib.rs:1:1"
                        .into(),
                })),
            },
            Refusal::SmokeTest {
                file: file(),
                failure: Box::new(SmokeFailure {
                    engine: "/srv/challenge/bots/bin/bot_broken_0a1b".into(),
                    position: Some(crate::SMOKE_POSITIONS[0]),
                    problem: SmokeProblem::Crashed {
                        exit: "signal 6".into(),
                        constructing: false,
                    },
                    stderr: vec!["panicked at /srv/challenge/bots/crates/x/src/bot.rs:3:9".into()],
                }),
            },
        ]
    }

    #[test]
    fn every_kind_says_its_cause_once_for_each_reader() {
        for refusal in every_kind() {
            for words in [refusal.for_entrant(), refusal.for_host()] {
                let cause = words
                    .strip_prefix("refused: ")
                    .unwrap_or_else(|| panic!("{words}"));
                assert!(cause.len() > 10, "{refusal:?} renders as `{words}`");
                assert_eq!(words.matches("refused").count(), 1, "{words}");
                for phrase in [
                    "does not build",
                    "does not compile",
                    "breaks the challenge rules",
                ] {
                    assert!(words.matches(phrase).count() <= 1, "{words}");
                }
            }
        }
    }

    #[test]
    fn the_entrant_sees_no_path_of_the_host_and_the_host_sees_every_detail() {
        let kinds = every_kind();
        let build = &kinds[5];
        assert_eq!(
            build.for_entrant(),
            "refused: mine.rs does not compile:\nerror: expected `;`\n --> mine.rs:3:9\n  ::: …/lib.rs:1:1"
        );
        assert!(
            build
                .for_host()
                .ends_with("--> mine.rs:3:9\n  ::: /srv/kit/framework/src/lib.rs:1:1"),
            "{}",
            build.for_host()
        );
        let smoke = &kinds[6];
        let entrant = smoke.for_entrant();
        assert!(!entrant.contains("/srv"), "{entrant}");
        assert!(
            entrant.starts_with("refused: mine.rs failed the smoke test: it crashed (signal 6) while searching from the start position"),
            "{entrant}"
        );
        assert!(
            smoke
                .for_host()
                .contains("/srv/challenge/bots/crates/x/src/bot.rs")
        );
        let unreadable = kinds[1].for_entrant();
        assert_eq!(
            unreadable.matches("/no/such/bot.rs").count(),
            1,
            "{unreadable}"
        );
    }
}

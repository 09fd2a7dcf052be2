//! The submission check, and the commands that manage entries.
//!
//! A file is accepted only if it parses, breaks no rule, is within the token limit with
//! its `#DEBUG` tokens counted, builds, and passes a smoke test: from a handful of
//! positions (opening, tactics, check, promotion, en passant) it must construct within
//! the rules' 5 seconds, answer legal moves within a one-second clock and stay within the
//! memory limit. Each refusal names the reason and what to do about it.

use std::path::Path;
use std::time::Duration;

use framework::chess::Board;
use runner::{Engine, EngineConfig, EngineError, GoParams};

use crate::refusal::{Refusal, SmokeFailure, SmokeProblem};
use crate::sources::{content_hash, stored_bot};
use bot_build::{BuildError, BuildEvent, BuildKind, Reader};
use store::{NewVersion, SqliteStore, Store, Submitted};

/// The positions of the smoke test, with what each one exercises.
pub const SMOKE_POSITIONS: [(&str, &str); 6] = [
    (
        "the start position",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    ),
    (
        "a mate in one",
        "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4",
    ),
    (
        "a crowded middlegame (castling both ways)",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    ),
    (
        "Black in check",
        "rnbqkbnr/ppp2ppp/8/1B1pp3/4P3/8/PPPP1PPP/RNBQK1NR b KQkq - 1 3",
    ),
    ("a promotion", "8/P6k/8/8/8/8/8/K7 w - - 0 1"),
    ("an en-passant capture", "8/8/8/3pP3/8/8/k6K/8 w - d6 0 2"),
];

/// The clock each smoke-test move is played with (both sides), in milliseconds.
pub const SMOKE_CLOCK_MS: u64 = 1000;
/// The rules' limit on constructing a bot.
pub const CONSTRUCTION_LIMIT: Duration = Duration::from_secs(5);
/// Slack for pipes and a busy machine on top of every limit.
const MARGIN: Duration = Duration::from_millis(250);

/// Checks an entry name: 1 to 40 letters, digits, `_`, `-` or `.`, starting with a
/// letter or digit (names become file names and PGN tags).
///
/// ```
/// assert!(league::check_name("my_bot-2.0").is_ok());
/// let refused = league::check_name("a b").unwrap_err();
/// assert!(refused.for_entrant().starts_with("refused: `a b` is not a valid entry name"));
/// ```
pub fn check_name(name: &str) -> Result<(), Refusal> {
    let ok = !name.is_empty()
        && name.len() <= 40
        && name
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphanumeric())
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'));
    if !ok {
        return Err(Refusal::Name {
            name: name.to_string(),
        });
    }
    Ok(())
}

/// A submission: the bot's source as it was read or received, how to name its file, the
/// entry's name and its author.
#[derive(Debug, Clone, Copy)]
pub struct Submission<'a> {
    /// The bot's source ([`read_bot`] reads a file's).
    pub source: &'a str,
    /// How messages name the bot file: its path on the command line, the uploaded file's
    /// name on the server.
    pub shown: &'a str,
    /// The file name stored with the version.
    pub file_name: &'a str,
    /// The entry's name (see [`check_name`]).
    pub name: &'a str,
    /// Who wrote it (kept from earlier versions when `None`).
    pub author: Option<&'a str>,
}

/// Why a submission was not stored: the bot's fault ([`SubmitError::Refused`]) or the
/// host's ([`SubmitError::Host`]: the bot was not judged).
#[derive(Debug, thiserror::Error)]
pub enum SubmitError {
    /// The bot breaks a rule, does not build or fails the smoke test: the cause, with its
    /// facts. Its `Display` is the host's words ([`Refusal::for_host`]).
    #[error("{0}")]
    Refused(Refusal),
    /// The host failed (the store, the disk, a program of the build): nothing was judged.
    #[error("{detail:#}")]
    Host {
        /// What failed, in words that name no path of the host.
        what: String,
        /// Every detail, for the host's own user and log (the error's `Display`).
        detail: anyhow::Error,
    },
}

impl SubmitError {
    /// The host failed at `what`; `detail` says how.
    pub fn host(what: &str, detail: impl Into<anyhow::Error>) -> SubmitError {
        SubmitError::Host {
            what: what.to_string(),
            detail: detail.into().context(what.to_string()),
        }
    }

    /// The error in words for the bot's sender, who may be elsewhere (a web entrant):
    /// the refusal's reason, or that the server failed and the bot was not judged, with
    /// no detail of the host.
    ///
    /// ```
    /// use league::{Refusal, SubmitError};
    /// let refused = SubmitError::Refused(Refusal::Name { name: "a b".into() });
    /// assert!(refused.for_sender().starts_with("refused: `a b` is not a valid entry name"));
    /// let failed = SubmitError::host("cannot open the store", anyhow::anyhow!("/srv/x.db: disk I/O error"));
    /// assert_eq!(
    ///     failed.for_sender(),
    ///     "the server failed: cannot open the store (your submission was not judged; try again)"
    /// );
    /// ```
    pub fn for_sender(&self) -> String {
        match self {
            SubmitError::Refused(refusal) => refusal.for_entrant(),
            SubmitError::Host { what, .. } => {
                format!("the server failed: {what} (your submission was not judged; try again)")
            }
        }
    }
}

impl From<Refusal> for SubmitError {
    fn from(refusal: Refusal) -> SubmitError {
        SubmitError::Refused(refusal)
    }
}

/// Reads a bot file to submit; a file that cannot be read, is too large or is not UTF-8
/// text is refused, naming it.
pub fn read_bot(file: &Path) -> Result<String, SubmitError> {
    token_counter::read_source(file).map_err(|error| Refusal::Unreadable { error }.into())
}

/// Checks, builds and smoke-tests a bot, then stores it in the challenge in `dir`
/// (created if needed). Every refusal is a [`SubmitError::Refused`] that names the cause;
/// nothing is stored then. The build reports to `observe`.
pub fn submit(
    dir: &Path,
    args: Submission<'_>,
    observe: &(dyn Fn(BuildEvent<'_>) + Sync),
) -> Result<Submitted, SubmitError> {
    let checked = check(args)?;
    let mut store = SqliteStore::create(dir)
        .map_err(|err| SubmitError::host("cannot open the challenge's store", err))?;
    let work_dir = store.dir().to_path_buf();
    accept(&mut store, &work_dir, args, checked, observe)
}

/// [`submit`] to any store; the bot's engine is cached under the build directory as the
/// version `work_dir` would write out (`sources/<hash>.rs`), so its tournament finds it.
pub fn submit_to(
    store: &mut dyn Store,
    work_dir: &Path,
    args: Submission<'_>,
    observe: &(dyn Fn(BuildEvent<'_>) + Sync),
) -> Result<Submitted, SubmitError> {
    let checked = check(args)?;
    accept(store, work_dir, args, checked, observe)
}

/// A source that passed the rules and the token limit, with its token counts.
struct Checked {
    tokens: usize,
    debug_tokens: usize,
}

/// The checks that need no build: the name, the rules, the token limit.
fn check(args: Submission<'_>) -> Result<Checked, SubmitError> {
    check_name(args.name)?;
    let file = || args.shown.to_string();
    let report = token_counter::analyze(args.source).map_err(|err| Refusal::Parse {
        file: file(),
        line: err.line,
        column: err.column,
        message: err.message,
    })?;
    if !report.violations.is_empty() {
        return Err(Refusal::Rules {
            file: file(),
            violations: report.violations,
        }
        .into());
    }
    if report.total() > token_counter::LIMIT {
        return Err(Refusal::Tokens {
            file: file(),
            total: report.total(),
            debug: report.debug_tokens,
        }
        .into());
    }
    Ok(Checked {
        tokens: report.total(),
        debug_tokens: report.debug_tokens,
    })
}

/// Builds and smoke-tests a checked source, then stores it.
fn accept(
    store: &mut dyn Store,
    work_dir: &Path,
    args: Submission<'_>,
    checked: Checked,
    observe: &(dyn Fn(BuildEvent<'_>) + Sync),
) -> Result<Submitted, SubmitError> {
    let shown = args.shown;
    let source = args.source;
    // Built from the bytes in hand: nothing is written but the bot's generated crate.
    let bot = stored_bot(work_dir, args.name, source);
    let engine = bot_build::build_source(&bot, source.as_bytes(), BuildKind::Untrusted, observe)
        .map_err(|err| build_refusal(err, shown))?;
    smoke_test(args.name, &engine.path).map_err(|failure| Refusal::SmokeTest {
        file: shown.to_string(),
        failure,
    })?;
    let hash = content_hash(source);
    let stored = store
        .add_version(&NewVersion {
            name: args.name,
            author: args.author,
            source,
            hash: &hash,
            file_name: args.file_name,
            tokens: checked.tokens,
            debug_tokens: checked.debug_tokens,
        })
        .map_err(|err| SubmitError::host("cannot store the new version", err))?;
    Ok(stored)
}

/// A failed build as the submission's error: the bot's fault is refused (the refusal
/// keeps the build's facts; [`Refusal::for_entrant`] names the file as `shown` and no
/// path of the host); the host's fault is the server's.
fn build_refusal(err: BuildError, shown: &str) -> SubmitError {
    if err.is_bots_fault() {
        return Refusal::Build {
            file: shown.to_string(),
            error: Box::new(err),
        }
        .into();
    }
    let scrubber = runner::HostDetail::of_host();
    let scrub = |text: &str| scrubber.scrub(text);
    SubmitError::Host {
        what: err.explain(Reader::Sender {
            file: shown,
            scrub: &scrub,
        }),
        detail: anyhow::anyhow!("{err}"),
    }
}

/// Plays one move from each smoke-test position; any fault is a [`SmokeFailure`] naming
/// the position, what went wrong and what the engine printed (the facts: the refusal
/// shows the entrant neither the engine's path nor the host's in its output).
pub fn smoke_test(name: &str, executable: &Path) -> Result<(), Box<SmokeFailure>> {
    let config = EngineConfig::new(name, executable);
    let failed = |position, problem, stderr| {
        Box::new(SmokeFailure {
            engine: executable.to_path_buf(),
            position,
            problem,
            stderr,
        })
    };
    let mut engine = Engine::start(&config, Duration::from_secs(10)).map_err(|err| {
        failed(
            None,
            SmokeProblem::NoStart(err.to_string()),
            err.stderr_tail().to_vec(),
        )
    })?;
    let result = smoke_positions(&mut engine);
    if result.is_err() {
        engine.kill();
    } else {
        engine.quit(Duration::from_millis(500));
    }
    result.map_err(|(position, problem, stderr)| failed(Some(position), problem, stderr))
}

/// Where a smoke test failed, what went wrong, the engine's last stderr lines.
type Failed = ((&'static str, &'static str), SmokeProblem, Vec<String>);

fn smoke_positions(engine: &mut Engine) -> Result<(), Failed> {
    for position @ (_, fen) in SMOKE_POSITIONS {
        let board = Board::from_fen(fen).expect("smoke-test FENs are valid");
        let failed = |engine: &Engine, problem| (position, problem, engine.stderr_tail());
        engine
            .new_game(CONSTRUCTION_LIMIT + MARGIN)
            .map_err(|err| failed(engine, problem(err, true)))?;
        engine.send(&format!("position fen {fen}"));
        let limits = GoParams {
            wtime: Some(SMOKE_CLOCK_MS),
            btime: Some(SMOKE_CLOCK_MS),
            winc: Some(0),
            binc: Some(0),
            ..GoParams::default()
        };
        let deadline = Duration::from_millis(SMOKE_CLOCK_MS) + MARGIN;
        let found = engine
            .go(&limits, deadline)
            .map_err(|err| failed(engine, problem(err, false)))?;
        if let Err(err) = board.parse_uci(&found.bestmove) {
            let illegal = SmokeProblem::IllegalMove {
                played: found.bestmove,
                reason: err.to_string(),
            };
            return Err(failed(engine, illegal));
        }
    }
    Ok(())
}

/// An engine error of the smoke test as its problem (`constructing`: while the bot was
/// being built, else searching).
fn problem(err: EngineError, constructing: bool) -> SmokeProblem {
    match err {
        EngineError::Died { exit, .. } if exit.is_memory_limit() => SmokeProblem::MemoryLimit {
            exit: exit.to_string(),
            constructing,
        },
        EngineError::Died { exit, .. } => SmokeProblem::Crashed {
            exit: exit.to_string(),
            constructing,
        },
        EngineError::Timeout { waited, .. } if constructing => SmokeProblem::SlowConstruction {
            waited,
            limit: CONSTRUCTION_LIMIT,
        },
        EngineError::Timeout { waited, .. } => SmokeProblem::SlowMove {
            waited,
            clock_ms: SMOKE_CLOCK_MS,
        },
        err @ (EngineError::Spawn { .. } | EngineError::Interrupted { .. }) => {
            SmokeProblem::NoStart(err.to_string())
        }
        EngineError::Protocol { cause, .. } => SmokeProblem::Protocol {
            what: format!("it broke the UCI protocol: it {cause}"),
            constructing,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bot_build::{BotFile, BuildErrorKind};

    fn failed_build(kind: BuildErrorKind) -> BuildError {
        BuildError {
            bot: BotFile {
                name: "mine".into(),
                path: "/srv/challenge/sources/0a1b.rs".into(),
            },
            kind,
        }
    }

    #[test]
    fn a_bot_that_does_not_build_is_refused_and_a_host_that_cannot_build_failed() {
        let compile = failed_build(BuildErrorKind::Compile {
            messages: "error: expected `;`\n --> src/bot.rs:3:9".into(),
        });
        let refused = build_refusal(compile, "mine.rs");
        assert!(matches!(refused, SubmitError::Refused(_)), "{refused:?}");
        assert_eq!(
            refused.for_sender(),
            "refused: mine.rs does not compile:\nerror: expected `;`\n --> mine.rs:3:9"
        );
        let io = failed_build(BuildErrorKind::Io {
            doing: "write",
            path: "/srv/challenge/bots/crates/x/src/bot.rs".into(),
            error: std::io::Error::from(std::io::ErrorKind::StorageFull),
        });
        let failed = build_refusal(io, "mine.rs");
        assert!(matches!(failed, SubmitError::Host { .. }), "{failed:?}");
        assert_eq!(
            failed.for_sender(),
            "the server failed: cannot build the bot `mine`: cannot write a file of the build \
             (no storage space) (your submission was not judged; try again)"
        );
        assert!(
            failed
                .to_string()
                .contains("/srv/challenge/bots/crates/x/src/bot.rs"),
            "the host's log has every detail: {failed}"
        );
        let store = SubmitError::host(
            "cannot store the new version",
            anyhow::anyhow!("database /srv/challenge/challenge.db is locked"),
        );
        assert!(
            !store.for_sender().contains("/srv"),
            "{}",
            store.for_sender()
        );
        assert_eq!(
            format!("{store}"),
            "cannot store the new version: database /srv/challenge/challenge.db is locked"
        );
    }
}

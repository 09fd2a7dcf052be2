//! The submission check, and the commands that manage entries.
//!
//! A file is accepted only if it parses, breaks no rule, is within the token limit with
//! its `#DEBUG` tokens counted, builds, and passes a smoke test: from a handful of
//! positions (opening, tactics, check, promotion, en passant) it must construct within
//! the rules' 5 seconds, answer legal moves within a one-second clock and stay within the
//! memory limit. Each refusal names the reason and what to do about it.

use std::path::Path;
use std::time::Duration;

use anyhow::{Context, Result, bail};
use framework::chess::Board;
use runner::{Engine, EngineConfig, EngineError, GoParams, HostDetail};

use crate::engine_build::{self, BuildEvent};
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
pub fn check_name(name: &str) -> Result<()> {
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
        bail!(
            "refused: `{name}` is not a valid entry name (use 1 to 40 letters, digits, `_`, `-` or `.`, starting with a letter or digit)"
        );
    }
    Ok(())
}

/// A submission: the file, the entry's name and its author.
#[derive(Debug, Clone, Copy)]
pub struct Submission<'a> {
    /// The bot file.
    pub file: &'a Path,
    /// The entry's name (see [`check_name`]).
    pub name: &'a str,
    /// Who wrote it (kept from earlier versions when `None`).
    pub author: Option<&'a str>,
}

/// Checks, builds and smoke-tests a bot file, then stores it in the challenge in `dir`
/// (created if needed). Every refusal is an error starting with `refused:` that names the
/// cause; nothing is stored then. The build reports to `observe`.
pub fn submit(
    dir: &Path,
    args: Submission<'_>,
    observe: &(dyn Fn(BuildEvent<'_>) + Sync),
) -> Result<Submitted> {
    let checked = check(args)?;
    let mut store = SqliteStore::create(dir)?;
    let work_dir = store.dir().to_path_buf();
    accept(&mut store, &work_dir, args, checked, observe)
}

/// [`submit`] to any store; the source is written out and built under `work_dir`.
pub fn submit_to(
    store: &mut dyn Store,
    work_dir: &Path,
    args: Submission<'_>,
    observe: &(dyn Fn(BuildEvent<'_>) + Sync),
) -> Result<Submitted> {
    let checked = check(args)?;
    accept(store, work_dir, args, checked, observe)
}

/// A source that passed the rules and the token limit, with its token counts.
struct Checked {
    source: String,
    tokens: usize,
    debug_tokens: usize,
}

/// The checks that need no build: the name, the rules, the token limit.
fn check(args: Submission<'_>) -> Result<Checked> {
    check_name(args.name)?;
    let shown = args.file.display().to_string();
    let source = token_counter::read_source(args.file)
        .with_context(|| format!("refused: cannot read {shown}"))?;
    let report = token_counter::analyze(&source).map_err(|err| {
        anyhow::anyhow!(
            "refused: {shown}:{}:{}: the file does not parse as Rust: {}",
            err.line,
            err.column,
            err.message
        )
    })?;
    if !report.violations.is_empty() {
        bail!(
            "refused: {shown} breaks the challenge rules:\n{}",
            report.render(&shown).to_string().trim_end()
        );
    }
    if report.total() > token_counter::LIMIT {
        bail!(
            "refused: {shown} has {} tokens counting its {} #DEBUG tokens, over the limit of {} by {}\n  hint: shorten the bot or remove #DEBUG lines; `challenge tokens --top 10 {shown}` shows the costliest lines",
            report.total(),
            report.debug_tokens,
            token_counter::LIMIT,
            report.total() - token_counter::LIMIT
        );
    }

    Ok(Checked {
        tokens: report.total(),
        debug_tokens: report.debug_tokens,
        source,
    })
}

/// Builds and smoke-tests a checked source, then stores it.
fn accept(
    store: &mut dyn Store,
    work_dir: &Path,
    args: Submission<'_>,
    checked: Checked,
    observe: &(dyn Fn(BuildEvent<'_>) + Sync),
) -> Result<Submitted> {
    let shown = args.file.display().to_string();
    let source = checked.source;
    let bot = engine_build::materialize(work_dir, args.name, &source)?;
    let engine =
        engine_build::build(&bot, engine_build::BuildKind::Untrusted, observe).map_err(|err| {
            // The entrant sees this: the compiler's paths into the kit and the build
            // folder are the organiser's, not theirs. Their own file keeps its name.
            const BOT_FILE: &str = "\u{1}bot file\u{1}";
            let text = format!("{err:#}").replace(&bot.path.display().to_string(), BOT_FILE);
            let text = HostDetail::of_host().scrub(&text).replace(BOT_FILE, &shown);
            anyhow::anyhow!("refused: {shown} does not build:\n{text}")
        })?;
    smoke_test(args.name, &engine.path)
        .map_err(|err| anyhow::anyhow!("refused: {shown} failed the smoke test: {err:#}"))?;

    let file_name = args
        .file
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| shown.clone());
    let hash = engine_build::content_hash(&source);
    let stored = store.add_version(&NewVersion {
        name: args.name,
        author: args.author,
        source: &source,
        hash: &hash,
        file_name: &file_name,
        tokens: checked.tokens,
        debug_tokens: checked.debug_tokens,
    })?;
    Ok(stored)
}

/// Plays one move from each smoke-test position; any fault is an error naming the
/// position and what went wrong. What the bot printed and where the engine runs are the
/// organiser's machine: the error names neither ([`HostDetail`]).
pub fn smoke_test(name: &str, executable: &Path) -> Result<()> {
    let config = EngineConfig::new(name, executable);
    let host = HostDetail::for_engine(&config);
    smoke_engine(&config).map_err(|err| anyhow::anyhow!(host.scrub(&format!("{err:#}"))))
}

fn smoke_engine(config: &EngineConfig) -> Result<()> {
    let mut engine = Engine::start(config, Duration::from_secs(10)).map_err(|err| {
        anyhow::anyhow!(
            "the engine does not start: {err}{}",
            lines_hint(err.stderr_tail())
        )
    })?;
    let result = smoke_positions(&mut engine);
    if result.is_err() {
        engine.kill();
    } else {
        engine.quit(Duration::from_millis(500));
    }
    result
}

fn smoke_positions(engine: &mut Engine) -> Result<()> {
    for (what, fen) in SMOKE_POSITIONS {
        let board = Board::from_fen(fen).expect("smoke-test FENs are valid");
        engine
            .new_game(CONSTRUCTION_LIMIT + MARGIN)
            .map_err(|err| fault(engine, what, err, "constructing the bot"))?;
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
            .map_err(|err| fault(engine, what, err, "searching"))?;
        if let Err(err) = board.parse_uci(&found.bestmove) {
            let tail = stderr_hint(engine);
            bail!(
                "from {what} ({fen}) it played `{}`, which is not a legal move ({err}){tail}",
                found.bestmove
            );
        }
    }
    Ok(())
}

fn fault(engine: &mut Engine, what: &str, err: EngineError, doing: &str) -> anyhow::Error {
    let tail = stderr_hint(engine);
    let reason = match &err {
        EngineError::Died { exit, .. } if exit.is_memory_limit() => {
            format!("it exceeded the 256 MiB memory limit ({exit})")
        }
        EngineError::Died { exit, .. } => format!("it crashed ({exit})"),
        EngineError::Timeout { waited, .. } if doing == "constructing the bot" => format!(
            "constructing it took longer than {:.2}s (the rules allow {}s)",
            waited.as_secs_f64(),
            CONSTRUCTION_LIMIT.as_secs()
        ),
        EngineError::Timeout { waited, .. } => format!(
            "it did not answer within {:.2}s with {} ms on its clock",
            waited.as_secs_f64(),
            SMOKE_CLOCK_MS
        ),
        // Failing to spawn, or anything the runner may report in future.
        other => other.to_string(),
    };
    anyhow::anyhow!("{reason} while {doing} from {what}{tail}")
}

fn stderr_hint(engine: &Engine) -> String {
    lines_hint(&engine.stderr_tail())
}

fn lines_hint(tail: &[String]) -> String {
    if tail.is_empty() {
        String::new()
    } else {
        format!("\n  its last stderr lines:\n    {}", tail.join("\n    "))
    }
}

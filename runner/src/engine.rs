//! A UCI engine process seen from the runner's side: spawn, handshake, search, quit.
//!
//! Engines are untrusted: every read has a deadline, every write may fail, and a
//! process that dies is reported with what it left behind (exit status and the
//! last lines of its stderr) instead of bringing the match down.
//!
//! A `bestmove` answers one `go`. One read while the runner is not searching (during the
//! handshake, while waiting for `readyok`, or found already written when the next `go`
//! is about to be sent) is a protocol violation with its cause: "sent bestmove before
//! go" when no `go` was sent yet, "sent a second bestmove for one go" after an answered
//! one. It is never taken for the answer to the next `go`. The exception is the late
//! answer to a `go` the runner gave up on (a search past its deadline, a `stop` not
//! answered in time): a genuine engine sends it, so the first `bestmove` after that is
//! dropped. A second `bestmove` written so late that it arrives after the next `go` is
//! sent cannot be told from that `go`'s answer; the board then judges it as a move.

use std::collections::VecDeque;
use std::fmt;
use std::io::Write;
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
#[cfg(not(unix))]
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use thiserror::Error;

use framework::uci::{MEMORY_LIMIT_BYTES, MEMORY_LIMIT_EXIT_CODE};

use crate::lines::{LineSplitter, Piece, StderrTail, collect_stderr};
pub use crate::lines::{MAX_LINE_BYTES, STDERR_TAIL_BYTES, STDERR_TAIL_LINES};
use crate::process::{EngineEnv, isolate};
use crate::text::{MAX_MOVE_CHARS, MAX_NAME_CHARS, one_line};

/// How often a search checks its stop flag.
const STOP_POLL: Duration = Duration::from_millis(50);

/// How long an engine has to answer `stop` before it is considered hung.
const STOP_ANSWER: Duration = Duration::from_secs(1);

/// Longest principal variation kept from an `info` line, in moves.
pub const MAX_PV_MOVES: usize = 128;

/// What the bots' UCI host prints (as `info string ...`) when constructing the bot took
/// longer than [`CONSTRUCTION_LIMIT`](framework::uci::CONSTRUCTION_LIMIT).
const BREACH_REPORT: &str = "info string limit breach: ";

/// How to start one engine: a command line plus the UCI options to set.
///
/// ```
/// use runner::EngineConfig;
/// let sf = EngineConfig::new("sf", "/usr/games/stockfish").option("Skill Level", "3");
/// assert_eq!(sf.options, [("Skill Level".to_string(), "3".to_string())]);
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct EngineConfig {
    /// The name the match reports (PGN tags, summary); not the engine's `id name`.
    pub name: String,
    /// The executable.
    pub command: PathBuf,
    /// Its arguments.
    pub args: Vec<String>,
    /// The working directory, if not the runner's.
    pub dir: Option<PathBuf>,
    /// `setoption name N value V` pairs, sent after `uciok` in this order.
    pub options: Vec<(String, String)>,
    /// The environment the process starts with: none for a bot (the default), the
    /// runner's less the kit's own variables for an external engine (see
    /// [`crate::process`]).
    pub env: EngineEnv,
    /// The memory allowance the engine's host enforces: the challenge's 256 MiB
    /// unless it was built with another (a port of a C# entry). The runner enforces
    /// nothing with it; it names the limit when the engine goes over it.
    pub memory_limit: usize,
}

impl EngineConfig {
    /// An engine run as `command` with no arguments and no options.
    ///
    /// ```
    /// use runner::EngineConfig;
    /// let e = EngineConfig::new("a", "/bin/true");
    /// assert!(e.args.is_empty());
    /// ```
    pub fn new(name: impl Into<String>, command: impl Into<PathBuf>) -> EngineConfig {
        EngineConfig {
            name: name.into(),
            command: command.into(),
            args: Vec::new(),
            dir: None,
            options: Vec::new(),
            env: EngineEnv::Empty,
            memory_limit: MEMORY_LIMIT_BYTES,
        }
    }

    /// Says the engine was built with a memory allowance of `bytes` (see
    /// [`EngineConfig::memory_limit`]).
    ///
    /// ```
    /// use runner::EngineConfig;
    /// let e = EngineConfig::new("port", "/bin/true").memory_limit(1 << 30);
    /// assert_eq!(e.memory_limit, 1 << 30);
    /// ```
    pub fn memory_limit(mut self, bytes: usize) -> EngineConfig {
        self.memory_limit = bytes;
        self
    }

    /// Marks an engine the host installed (Stockfish, a script): it keeps the runner's
    /// environment, less the kit's own `CHALLENGE_*` variables. Bots the kit builds
    /// never get this: their process starts with an empty environment.
    ///
    /// ```
    /// use runner::{EngineConfig, EngineEnv};
    /// assert_eq!(EngineConfig::new("bot", "/bin/true").env, EngineEnv::Empty);
    /// let sf = EngineConfig::new("sf", "/usr/games/stockfish").external();
    /// assert_eq!(sf.env, EngineEnv::Inherited);
    /// ```
    pub fn external(mut self) -> EngineConfig {
        self.env = EngineEnv::Inherited;
        self
    }

    /// Adds a command-line argument.
    ///
    /// ```
    /// use runner::EngineConfig;
    /// let e = EngineConfig::new("py", "python3").arg("engine.py");
    /// assert_eq!(e.args, ["engine.py"]);
    /// ```
    pub fn arg(mut self, arg: impl Into<String>) -> EngineConfig {
        self.args.push(arg.into());
        self
    }

    /// Adds a UCI option to set after the handshake.
    ///
    /// ```
    /// use runner::EngineConfig;
    /// let e = EngineConfig::new("sf", "stockfish").option("Hash", "16");
    /// assert_eq!(e.options.len(), 1);
    /// ```
    pub fn option(mut self, name: impl Into<String>, value: impl Into<String>) -> EngineConfig {
        self.options.push((name.into(), value.into()));
        self
    }
}

/// A memory size as a limit is said: whole GiB when it is some, else MiB.
///
/// ```
/// use runner::memory_text;
/// assert_eq!(memory_text(256 << 20), "256 MiB");
/// assert_eq!(memory_text(1 << 30), "1 GiB");
/// assert_eq!(memory_text(1536 << 20), "1536 MiB");
/// ```
pub fn memory_text(bytes: usize) -> String {
    const MIB: usize = 1 << 20;
    const GIB: usize = 1 << 30;
    if bytes >= GIB && bytes.is_multiple_of(GIB) {
        format!("{} GiB", bytes / GIB)
    } else {
        format!("{} MiB", bytes / MIB)
    }
}

/// How an engine process ended, as far as the runner could tell.
///
/// ```
/// use runner::ExitInfo;
/// assert_eq!(ExitInfo::Code(86).to_string(), "exit code 86 (memory limit exceeded)");
/// assert!(ExitInfo::Code(86).is_memory_limit());
/// assert_eq!(ExitInfo::Signal(11).to_string(), "signal 11 (SIGSEGV, e.g. a stack overflow)");
/// assert!(ExitInfo::Signal(31).to_string().contains("the sandbox stopped a forbidden system call"));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExitInfo {
    /// Still running (or could not be waited for).
    Running,
    /// Exited with this code.
    Code(i32),
    /// Killed by this signal.
    Signal(i32),
}

impl ExitInfo {
    fn from_status(status: ExitStatus) -> ExitInfo {
        if let Some(code) = status.code() {
            return ExitInfo::Code(code);
        }
        #[cfg(unix)]
        {
            use std::os::unix::process::ExitStatusExt;
            if let Some(sig) = status.signal() {
                return ExitInfo::Signal(sig);
            }
        }
        ExitInfo::Running
    }

    /// `true` when the engine was stopped by the kit's allocation limit (the one it
    /// was built with, [`EngineConfig::memory_limit`]).
    pub fn is_memory_limit(self) -> bool {
        self == ExitInfo::Code(MEMORY_LIMIT_EXIT_CODE)
    }
}

impl fmt::Display for ExitInfo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            ExitInfo::Running => f.write_str("still running"),
            ExitInfo::Code(code) if code == MEMORY_LIMIT_EXIT_CODE => {
                write!(f, "exit code {code} (memory limit exceeded)")
            }
            ExitInfo::Code(101) => f.write_str("exit code 101 (panic)"),
            ExitInfo::Code(code) => write!(f, "exit code {code}"),
            ExitInfo::Signal(sig) => {
                let name = match sig {
                    4 => " (SIGILL)",
                    6 => " (SIGABRT, e.g. a stack overflow or abort)",
                    7 => " (SIGBUS)",
                    8 => " (SIGFPE)",
                    9 => " (SIGKILL)",
                    11 => " (SIGSEGV, e.g. a stack overflow)",
                    15 => " (SIGTERM)",
                    31 => " (SIGSYS: the sandbox stopped a forbidden system call)",
                    _ => "",
                };
                write!(f, "signal {sig}{name}")
            }
        }
    }
}

/// Why talking to an engine failed.
#[derive(Debug, Error)]
pub enum EngineError {
    /// The process could not be started at all.
    #[error("engine `{name}`: cannot start `{command}`: {cause}")]
    Spawn {
        /// The engine's name.
        name: String,
        /// The command line tried.
        command: String,
        /// The OS error.
        /// (Shown in the message, so not also a `source`: `{:#}` would show it twice.)
        cause: std::io::Error,
    },
    /// No answer in time.
    #[error("engine `{name}`: no `{expected}` within {waited:?}")]
    Timeout {
        /// The engine's name.
        name: String,
        /// The reply waited for (`uciok`, `readyok`, `bestmove`).
        expected: &'static str,
        /// How long the runner waited.
        waited: Duration,
    },
    /// The caller's stop flag was set during a search (Ctrl-C); the engine was sent `stop`.
    #[error("engine `{name}`: search abandoned because the match was stopped")]
    Interrupted {
        /// The engine's name.
        name: String,
        /// Whether it answered `stop` with a `bestmove` (and can be used again).
        clean: bool,
    },
    /// The engine broke the UCI protocol in a way the runner does not tolerate.
    #[error("engine `{name}` broke the protocol: it {cause}")]
    Protocol {
        /// The engine's name.
        name: String,
        /// What it did, as the end of a sentence starting with "it".
        cause: String,
    },
    /// The process exited or closed its pipes.
    #[error("engine `{name}` died ({exit}) while the runner waited for `{expected}`")]
    Died {
        /// The engine's name.
        name: String,
        /// The reply waited for.
        expected: &'static str,
        /// How it ended.
        exit: ExitInfo,
        /// Its last stderr lines (bounded as [`Engine::stderr_tail`]): an engine that dies
        /// before it is handed out, during the handshake, has no other record of its last
        /// words.
        stderr: Vec<String>,
    },
}

impl EngineError {
    /// The engine's last stderr lines, when the error carries them (a death).
    pub fn stderr_tail(&self) -> &[String] {
        match self {
            EngineError::Died { stderr, .. } => stderr,
            _ => &[],
        }
    }

    /// The error and, for a death, the engine's last stderr lines: what a person needs
    /// to see why it died (a panic's message, the sandbox's report).
    ///
    /// ```
    /// use runner::{EngineError, ExitInfo};
    /// let err = EngineError::Died {
    ///     name: "bot".into(),
    ///     exit: ExitInfo::Code(101),
    ///     expected: "bestmove",
    ///     stderr: vec!["panicked: out of ideas".into()],
    /// };
    /// assert!(err.explained().ends_with("; last stderr: panicked: out of ideas"));
    /// ```
    pub fn explained(&self) -> String {
        match self.stderr_tail() {
            [] => self.to_string(),
            tail => format!("{self}; last stderr: {}", tail.join(" | ")),
        }
    }
}

/// A score from an `info` line, from the point of view of the side to move.
///
/// ```
/// use runner::Score;
/// assert_eq!(Score::Cp(35).to_string(), "+0.35");
/// assert_eq!(Score::Mate(-2).to_string(), "-M2");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Score {
    /// Centipawns.
    Cp(i32),
    /// Mate in this many moves (negative: getting mated).
    Mate(i32),
}

impl fmt::Display for Score {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Score::Cp(cp) => write!(
                f,
                "{}{:.2}",
                if cp >= 0 { "+" } else { "-" },
                cp.unsigned_abs() as f64 / 100.0
            ),
            Score::Mate(m) => write!(f, "{}M{}", if m > 0 { "+" } else { "-" }, m.unsigned_abs()),
        }
    }
}

/// What the engine said about its search, from its last `info` lines.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SearchInfo {
    /// The last reported depth.
    pub depth: Option<u32>,
    /// The last reported score.
    pub score: Option<Score>,
    /// The last reported node count.
    pub nodes: Option<u64>,
    /// The last reported principal variation, in UCI notation.
    pub pv: Vec<String>,
}

impl SearchInfo {
    /// Folds one `info ...` line into this summary; other lines are ignored.
    ///
    /// ```
    /// use runner::{Score, SearchInfo};
    /// let mut info = SearchInfo::default();
    /// info.update("info depth 7 seldepth 9 score cp -12 nodes 4000 pv e2e4 e7e5");
    /// info.update("info string hello");
    /// assert_eq!((info.depth, info.score, info.nodes), (Some(7), Some(Score::Cp(-12)), Some(4000)));
    /// assert_eq!(info.pv, ["e2e4", "e7e5"]);
    /// ```
    pub fn update(&mut self, line: &str) {
        let mut words = line.split_ascii_whitespace();
        if words.next() != Some("info") {
            return;
        }
        while let Some(word) = words.next() {
            match word {
                "depth" => self.depth = words.next().and_then(|w| w.parse().ok()).or(self.depth),
                "nodes" => self.nodes = words.next().and_then(|w| w.parse().ok()).or(self.nodes),
                "score" => {
                    let kind = words.next();
                    // i32::MIN has no negation; an engine sending it must not break the arithmetic.
                    let value = words
                        .next()
                        .and_then(|w| w.parse::<i32>().ok())
                        .map(|v| v.max(-i32::MAX));
                    match (kind, value) {
                        (Some("cp"), Some(v)) => self.score = Some(Score::Cp(v)),
                        (Some("mate"), Some(v)) => self.score = Some(Score::Mate(v)),
                        _ => {}
                    }
                }
                "pv" => {
                    self.pv = words
                        .by_ref()
                        .take(MAX_PV_MOVES)
                        .map(|w| one_line(w, MAX_MOVE_CHARS))
                        .collect();
                    return;
                }
                // Everything after `string` is free text that could contain keywords.
                "string" => return,
                _ => {}
            }
        }
    }
}

/// The move of a `bestmove` line (the first word after it, `""` if none), as one
/// printable word of at most 32 characters; `None` for any other line.
///
/// ```
/// use runner::parse_bestmove;
/// assert_eq!(parse_bestmove("bestmove e2e4 ponder e7e5").as_deref(), Some("e2e4"));
/// assert_eq!(parse_bestmove("bestmove").as_deref(), Some(""));
/// assert_eq!(parse_bestmove("info depth 1"), None);
/// ```
pub fn parse_bestmove(line: &str) -> Option<String> {
    let rest = line.strip_prefix("bestmove")?;
    if !rest.is_empty() && !rest.starts_with(|c: char| c.is_ascii_whitespace()) {
        return None;
    }
    let word = rest.split_ascii_whitespace().next().unwrap_or("");
    Some(one_line(word, MAX_MOVE_CHARS))
}

/// The answer to one `go`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SearchResult {
    /// The move text after `bestmove`, unparsed (it may be garbage or illegal).
    pub bestmove: String,
    /// The search summary.
    pub info: SearchInfo,
    /// Measured by the runner, from writing `go` to reading `bestmove`.
    pub elapsed: Duration,
}

/// The limits of one search: the host's parsed form of `go` is also what the
/// runner writes, so both sides of the protocol share one type.
pub use framework::uci::GoParams;

/// What waiting for the next stdout line produced.
#[derive(Debug)]
enum Next {
    Line(String),
    /// A line past [`MAX_LINE_BYTES`]: the engine broke the protocol.
    Overlong,
    Closed,
    Timeout,
}

/// Lines found by a [`LineSplitter`] and not yet handed out.
#[derive(Debug, Default)]
struct Pending(VecDeque<Next>);

impl Pending {
    fn take(&mut self, piece: Piece<'_>) {
        self.0.push_back(match piece {
            Piece::Line(line) => Next::Line(String::from_utf8_lossy(line).into_owned()),
            Piece::Overlong(_) => Next::Overlong,
        });
    }
}

/// The engine's stdout, read line by line on the calling thread with `poll(2)` for the
/// deadline. A reader thread per engine would cost a thread hand-off (two futex calls
/// and a context switch) per line, about half of the runner's CPU time per move with
/// fast engines. At most one read's worth of lines is pending at a time, and the
/// splitter holds at most one line of [`MAX_LINE_BYTES`].
#[cfg(unix)]
struct StdoutLines {
    pipe: std::process::ChildStdout,
    splitter: LineSplitter,
    pending: Pending,
    chunk: Box<[u8]>,
    closed: bool,
}

#[cfg(unix)]
impl StdoutLines {
    fn new(pipe: std::process::ChildStdout, _name: &str) -> StdoutLines {
        StdoutLines {
            pipe,
            splitter: LineSplitter::new(MAX_LINE_BYTES),
            pending: Pending::default(),
            chunk: vec![0; 4096].into_boxed_slice(),
            closed: false,
        }
    }

    fn next(&mut self, deadline: Instant) -> Next {
        loop {
            if let Some(next) = self.pending.0.pop_front() {
                return next;
            }
            if self.closed {
                return Next::Closed;
            }
            let now = Instant::now();
            if now >= deadline {
                return Next::Timeout;
            }
            let wait_ms = (deadline - now)
                .as_micros()
                .div_ceil(1000)
                .min(i32::MAX as u128) as i32;
            if self.wait_readable(wait_ms) {
                self.read_once();
            }
        }
    }

    /// Everything the engine has written by now, without waiting: the pending lines and
    /// those of one read if the pipe has data, then [`Next::Closed`] if it closed. At most
    /// two reads' worth, so an engine that writes without end cannot hold the runner here.
    fn drain_now(&mut self) -> Vec<Next> {
        if !self.closed && self.wait_readable(0) {
            self.read_once();
        }
        let mut out: Vec<Next> = self.pending.0.drain(..).collect();
        if self.closed {
            out.push(Next::Closed);
        }
        out
    }

    /// Whether the pipe has data (or its end) within `wait_ms`; a failing poll closes it.
    fn wait_readable(&mut self, wait_ms: i32) -> bool {
        use std::os::fd::AsRawFd;
        let mut fd = libc::pollfd {
            fd: self.pipe.as_raw_fd(),
            events: libc::POLLIN,
            revents: 0,
        };
        // SAFETY: one valid pollfd for a descriptor this struct owns.
        let ready = unsafe { libc::poll(&mut fd, 1, wait_ms) };
        if ready < 0 {
            if std::io::Error::last_os_error().kind() != std::io::ErrorKind::Interrupted {
                self.close();
            }
            return false;
        }
        ready > 0
    }

    /// One read of the pipe into the pending lines.
    fn read_once(&mut self) {
        use std::io::Read;
        match self.pipe.read(&mut self.chunk) {
            Ok(0) => self.close(),
            Ok(n) => {
                let pending = &mut self.pending;
                self.splitter
                    .feed(&self.chunk[..n], &mut |piece| pending.take(piece));
            }
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(_) => self.close(),
        }
    }

    fn close(&mut self) {
        self.closed = true;
        let pending = &mut self.pending;
        self.splitter.finish(&mut |piece| pending.take(piece));
    }
}

/// Without `poll(2)`, a reader thread hands lines over a channel.
#[cfg(not(unix))]
struct StdoutLines {
    lines: mpsc::Receiver<Next>,
    closed: bool,
}

#[cfg(not(unix))]
impl StdoutLines {
    fn new(mut pipe: std::process::ChildStdout, name: &str) -> StdoutLines {
        use std::io::Read;
        // Bounded, so a reader ahead of the runner waits instead of queueing without end.
        let (tx, lines) = mpsc::sync_channel(64);
        thread::Builder::new()
            .name(format!("{name}-stdout"))
            .spawn(move || {
                let mut splitter = LineSplitter::new(MAX_LINE_BYTES);
                let mut chunk = [0u8; 4096];
                let mut pending = Pending::default();
                loop {
                    let n = match pipe.read(&mut chunk) {
                        Ok(0) | Err(_) => break,
                        Ok(n) => n,
                    };
                    splitter.feed(&chunk[..n], &mut |piece| pending.take(piece));
                    for next in pending.0.drain(..) {
                        if tx.send(next).is_err() {
                            return;
                        }
                    }
                }
                splitter.finish(&mut |piece| pending.take(piece));
                for next in pending.0.drain(..) {
                    let _ = tx.send(next);
                }
                let _ = tx.send(Next::Closed);
            })
            .expect("spawn engine reader thread");
        StdoutLines {
            lines,
            closed: false,
        }
    }

    fn next(&mut self, deadline: Instant) -> Next {
        if self.closed {
            return self.lines.try_recv().unwrap_or(Next::Closed);
        }
        match self
            .lines
            .recv_timeout(deadline.saturating_duration_since(Instant::now()))
        {
            Ok(Next::Closed) | Err(mpsc::RecvTimeoutError::Disconnected) => {
                self.closed = true;
                Next::Closed
            }
            Ok(next) => next,
            Err(mpsc::RecvTimeoutError::Timeout) => Next::Timeout,
        }
    }

    /// Everything the reader thread has handed over by now, without waiting; at most 128
    /// pieces, so an engine that writes without end cannot hold the runner here.
    fn drain_now(&mut self) -> Vec<Next> {
        let mut out = Vec::new();
        for _ in 0..128 {
            if self.closed {
                break;
            }
            match self.lines.try_recv() {
                Ok(Next::Closed) | Err(mpsc::TryRecvError::Disconnected) => {
                    self.closed = true;
                    out.push(Next::Closed);
                }
                Ok(next) => out.push(next),
                Err(mpsc::TryRecvError::Empty) => break,
            }
        }
        out
    }
}

/// Where an engine stands with `go`, which decides what a `bestmove` line is when the
/// runner is not waiting for one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum GoState {
    /// No `go` sent yet: a `bestmove` now was sent before any `go`.
    NeverSent,
    /// A `go` was sent and the runner stopped waiting for its answer (it timed out, or
    /// `stop` went unanswered). The first `bestmove` is that late answer, which a genuine
    /// engine sends: it is dropped, not taken for the answer to a later `go`.
    Abandoned,
    /// The last `go` was answered: another `bestmove` is a second answer to it.
    Answered,
}

/// A running UCI engine process.
///
/// A three-line shell script is engine enough to show the protocol:
///
/// ```
/// # #[cfg(unix)] {
/// use std::time::Duration;
/// use runner::{Engine, EngineConfig, ExitInfo, GoParams, Score};
/// let script = r#"while read cmd rest; do case $cmd in
///     uci) echo "id name shell"; echo uciok;; isready) echo readyok;; quit) exit 0;;
///     go) echo "info depth 3 score cp 25 nodes 120 pv e7e5"; echo "bestmove e7e5";; esac; done"#;
/// let config = EngineConfig::new("shell", "sh").arg("-c").arg(script);
/// let second = Duration::from_secs(5);
/// let mut engine = Engine::start(&config, second).unwrap();
/// assert_eq!(engine.id_name(), Some("shell"));
/// engine.new_game(second).unwrap();
/// let go = GoParams { wtime: Some(1000), btime: Some(1000), ..Default::default() };
/// let answer = engine.search(Some("position startpos moves e2e4"), &go, second).unwrap();
/// assert_eq!(answer.bestmove, "e7e5");
/// assert_eq!((answer.info.depth, answer.info.score), (Some(3), Some(Score::Cp(25))));
/// assert_eq!(engine.quit(second), ExitInfo::Code(0));
/// # }
/// ```
pub struct Engine {
    name: String,
    id_name: Option<String>,
    options: Vec<String>,
    child: Child,
    stdin: Option<ChildStdin>,
    lines: StdoutLines,
    stderr: Arc<Mutex<StderrTail>>,
    stderr_reader: thread::JoinHandle<()>,
    exit: Option<ExitInfo>,
    dead: bool,
    buf: String,
    ready_wait: Duration,
    breach_report: Option<String>,
    go_state: GoState,
    memory_limit: usize,
}

impl fmt::Debug for Engine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Engine")
            .field("name", &self.name)
            .field("pid", &self.child.id())
            .finish()
    }
}

impl Engine {
    /// Spawns the engine and completes the `uci` / `uciok` handshake, sets the configured
    /// options and waits for `readyok`; each reply must come within `timeout`.
    pub fn start(config: &EngineConfig, timeout: Duration) -> Result<Engine, EngineError> {
        let mut cmd = Command::new(&config.command);
        cmd.args(&config.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        if let Some(dir) = &config.dir {
            cmd.current_dir(dir);
        }
        let spawn_error = |cause| EngineError::Spawn {
            name: config.name.clone(),
            command: std::iter::once(config.command.display().to_string())
                .chain(config.args.iter().cloned())
                .collect::<Vec<_>>()
                .join(" "),
            cause,
        };
        // Nothing secret of the host's may be in a bot's process (it can read all of
        // its memory), nor any path of the host, and the sandbox's developer switch never
        // reaches an engine.
        isolate(&mut cmd, config.env).map_err(spawn_error)?;
        // A terminal's Ctrl-C goes to the whole foreground process group; engines in a
        // group of their own survive it, so the games in progress end as interrupted
        // rather than as crashes.
        #[cfg(unix)]
        {
            use std::os::unix::process::CommandExt;
            cmd.process_group(0);
        }
        let mut child = cmd.spawn().map_err(spawn_error)?;
        let stdout = child.stdout.take().expect("stdout is piped");
        let stderr_pipe = child.stderr.take().expect("stderr is piped");
        let lines = StdoutLines::new(stdout, &config.name);
        let stderr = Arc::new(Mutex::new(StderrTail::default()));
        let tail = stderr.clone();
        let stderr_reader = thread::Builder::new()
            .name(format!("{}-stderr", config.name))
            .spawn(move || collect_stderr(stderr_pipe, &tail))
            .expect("spawn engine stderr thread");
        let stdin = child.stdin.take();
        let mut engine = Engine {
            name: config.name.clone(),
            id_name: None,
            options: Vec::new(),
            child,
            stdin,
            lines,
            stderr,
            stderr_reader,
            exit: None,
            dead: false,
            buf: String::new(),
            ready_wait: Duration::ZERO,
            breach_report: None,
            go_state: GoState::NeverSent,
            memory_limit: config.memory_limit,
        };
        engine.send("uci");
        let started = Instant::now();
        let deadline = instant_after(started, timeout);
        loop {
            let line = engine.read_line(started, deadline, "uciok")?;
            if line == "uciok" {
                break;
            } else if let Some(name) = line.strip_prefix("id name ") {
                engine.id_name = Some(one_line(name, MAX_NAME_CHARS));
            } else if let Some(option) = line.strip_prefix("option name ") {
                // Bounded: a few hundred options is already far more than any engine has.
                if engine.options.len() < MAX_OPTIONS {
                    let name = option.split(" type ").next().unwrap_or(option);
                    engine.options.push(one_line(name, MAX_NAME_CHARS));
                }
            }
        }
        for (name, value) in &config.options {
            engine.send(&format!("setoption name {name} value {value}"));
        }
        engine.is_ready(timeout)?;
        Ok(engine)
    }

    /// The name the match knows this engine by.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The memory allowance the engine was started with ([`EngineConfig::memory_limit`]).
    pub fn memory_limit(&self) -> usize {
        self.memory_limit
    }

    /// The engine's process id (what the operating system knows it by: its
    /// `/proc/PID`).
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// The engine's own `id name`, if it sent one.
    pub fn id_name(&self) -> Option<&str> {
        self.id_name.as_deref()
    }

    /// The option names the engine declared after `uci` (at most 512, each one printable
    /// line): `challenge bench` refuses to set an option the engine does not have.
    ///
    /// ```
    /// # #[cfg(unix)] {
    /// use std::time::Duration;
    /// use runner::{Engine, EngineConfig};
    /// let script = r#"while read cmd rest; do case $cmd in
    ///     uci) echo "option name Clear Hash type button"
    ///          echo "option name Hash type spin default 16 min 1 max 1024"; echo uciok;;
    ///     isready) echo readyok;; quit) exit 0;; esac; done"#;
    /// let config = EngineConfig::new("shell", "sh").arg("-c").arg(script).option("Hash", "32");
    /// let engine = Engine::start(&config, Duration::from_secs(5)).unwrap();
    /// assert_eq!(engine.declared_options(), ["Clear Hash", "Hash"]);
    /// engine.kill();
    /// # }
    /// ```
    pub fn declared_options(&self) -> &[String] {
        &self.options
    }

    /// Writes one command line. A broken pipe is not reported here: it shows up as a
    /// dead engine on the next read, with the exit status attached.
    pub fn send(&mut self, command: &str) {
        self.buf.clear();
        self.buf.push_str(command);
        self.buf.push('\n');
        let failed = match self.stdin.as_mut() {
            Some(stdin) => stdin
                .write_all(self.buf.as_bytes())
                .and_then(|()| stdin.flush())
                .is_err(),
            None => true,
        };
        if failed {
            self.dead = true;
        }
    }

    /// Sends `isready` and waits up to `timeout` for `readyok`.
    ///
    /// The wait is measured ([`ready_wait`](Self::ready_wait)) and a construction-limit
    /// breach the bots' host reports on the way is kept ([`breach_report`](Self::breach_report)):
    /// the host builds the bot before it answers the first `isready` after `ucinewgame`.
    pub fn is_ready(&mut self, timeout: Duration) -> Result<(), EngineError> {
        self.send("isready");
        let started = Instant::now();
        let deadline = instant_after(started, timeout);
        self.breach_report = None;
        loop {
            let line = self.read_line(started, deadline, "readyok")?;
            if line == "readyok" {
                break;
            }
            if let Some(report) = line.strip_prefix(BREACH_REPORT) {
                self.breach_report = Some(one_line(report, MAX_NAME_CHARS * 2));
            }
        }
        self.ready_wait = started.elapsed();
        Ok(())
    }

    /// How long the last [`is_ready`](Self::is_ready) waited for `readyok`, measured by
    /// the runner from writing `isready` to reading the answer. A bot's host answers only
    /// once the bot is constructed, so the bot cannot make this shorter than its
    /// construction took.
    pub fn ready_wait(&self) -> Duration {
        self.ready_wait
    }

    /// The limit-breach report (`info string limit breach: ...`) the engine sent before its
    /// last `readyok`, if any, without the prefix.
    pub fn breach_report(&self) -> Option<&str> {
        self.breach_report.as_deref()
    }

    /// Sends `ucinewgame` and synchronises with `isready`.
    pub fn new_game(&mut self, timeout: Duration) -> Result<(), EngineError> {
        self.send("ucinewgame");
        self.is_ready(timeout)
    }

    /// Sends a `position ...` command as given.
    pub fn set_position(&mut self, command: &str) -> Result<(), EngineError> {
        self.send(command);
        Ok(())
    }

    /// Sends `go` with `limits` and waits until `bestmove` or until `deadline_after` has
    /// passed since the `go` was written.
    pub fn go(
        &mut self,
        limits: &GoParams,
        deadline_after: Duration,
    ) -> Result<SearchResult, EngineError> {
        self.search(None, limits, deadline_after)
    }

    /// Sends `position` and `go` in one write (one system call and one wake-up of the
    /// engine per move, which is most of the runner's cost with fast engines) and waits
    /// for `bestmove` as [`go`](Self::go) does. The clock starts before the write.
    pub fn search(
        &mut self,
        position: Option<&str>,
        limits: &GoParams,
        deadline_after: Duration,
    ) -> Result<SearchResult, EngineError> {
        self.search_until(position, limits, deadline_after, None)
    }

    /// [`search`](Self::search) that also gives up, with [`EngineError::Interrupted`], soon
    /// after `stop` is set: a Ctrl-C must not wait for a long think to end.
    pub fn search_until(
        &mut self,
        position: Option<&str>,
        limits: &GoParams,
        deadline_after: Duration,
        stop: Option<&AtomicBool>,
    ) -> Result<SearchResult, EngineError> {
        self.search_watched(position, limits, deadline_after, stop, &mut |_| {})
    }

    /// [`search`](Self::search) that also hands every line the engine sends before its
    /// `bestmove` to `observe`, as read (each at most [`MAX_LINE_BYTES`]): for whoever needs more than
    /// the summary, such as each iteration's `info depth ... nodes ...` line.
    ///
    /// ```
    /// # #[cfg(unix)] {
    /// use std::time::Duration;
    /// use runner::{Engine, EngineConfig, GoParams};
    /// let script = r#"while read cmd rest; do case $cmd in
    ///     uci) echo uciok;; isready) echo readyok;; quit) exit 0;;
    ///     go) echo "info depth 1 nodes 20"; echo "info depth 2 nodes 420"; echo "bestmove e2e4";; esac; done"#;
    /// let config = EngineConfig::new("shell", "sh").arg("-c").arg(script);
    /// let second = Duration::from_secs(5);
    /// let mut engine = Engine::start(&config, second).unwrap();
    /// let mut lines = Vec::new();
    /// let go = GoParams { depth: Some(2), ..Default::default() };
    /// let answer = engine.search_observed(None, &go, second, &mut |line| lines.push(line.to_string())).unwrap();
    /// assert_eq!(lines, ["info depth 1 nodes 20", "info depth 2 nodes 420"]);
    /// assert_eq!(answer.info.nodes, Some(420));
    /// engine.quit(second);
    /// # }
    /// ```
    pub fn search_observed(
        &mut self,
        position: Option<&str>,
        limits: &GoParams,
        deadline_after: Duration,
        observe: &mut dyn FnMut(&str),
    ) -> Result<SearchResult, EngineError> {
        self.search_watched(position, limits, deadline_after, None, observe)
    }

    fn search_watched(
        &mut self,
        position: Option<&str>,
        limits: &GoParams,
        deadline_after: Duration,
        stop: Option<&AtomicBool>,
        observe: &mut dyn FnMut(&str),
    ) -> Result<SearchResult, EngineError> {
        self.drain_before_go()?;
        let command = limits.command();
        let start = Instant::now();
        match position {
            Some(position) => {
                let mut both = String::with_capacity(position.len() + command.len() + 1);
                both.push_str(position);
                both.push('\n');
                both.push_str(&command);
                self.send(&both);
            }
            None => self.send(&command),
        }
        // Until its `bestmove` is read, this `go` is the one a late answer belongs to.
        self.go_state = GoState::Abandoned;
        let deadline = instant_after(start, deadline_after);
        let mut info = SearchInfo::default();
        loop {
            // With a stop flag to watch, wait in slices short enough to feel immediate.
            let until = match stop {
                Some(_) => deadline.min(Instant::now() + STOP_POLL),
                None => deadline,
            };
            let line = match self.read_line(start, until, "bestmove") {
                Ok(line) => line,
                Err(EngineError::Timeout { .. }) if until < deadline => {
                    if stop.is_some_and(|s| s.load(Ordering::Relaxed)) {
                        let clean = self.stop(STOP_ANSWER);
                        return Err(EngineError::Interrupted {
                            name: self.name.clone(),
                            clean,
                        });
                    }
                    continue;
                }
                Err(err) => return Err(err),
            };
            if let Some(bestmove) = parse_bestmove(&line) {
                self.go_state = GoState::Answered;
                let elapsed = start.elapsed();
                return Ok(SearchResult {
                    bestmove,
                    info,
                    elapsed,
                });
            }
            info.update(&line);
            observe(&line);
        }
    }

    /// Sends `stop` and discards output until `bestmove` or `timeout`; `true` if the engine
    /// answered (and so is in a clean state for another search).
    pub fn stop(&mut self, timeout: Duration) -> bool {
        self.send("stop");
        let started = Instant::now();
        let deadline = instant_after(started, timeout);
        loop {
            match self.read_line(started, deadline, "bestmove") {
                Ok(line) if line.starts_with("bestmove") => {
                    self.go_state = GoState::Answered;
                    return true;
                }
                Ok(_) => {}
                Err(_) => return false,
            }
        }
    }

    /// Reads what the engine wrote since its last answer, without waiting, before a new
    /// `go`: a `bestmove` there was sent before this `go`, and read after it, it would be
    /// taken for its answer. Other lines (a late `info`) are dropped, so that they do not
    /// count in this search's summary.
    fn drain_before_go(&mut self) -> Result<(), EngineError> {
        for next in self.lines.drain_now() {
            match next {
                Next::Line(line) if parse_bestmove(&line).is_some() => self.idle_bestmove()?,
                Next::Line(_) | Next::Timeout => {}
                Next::Overlong => {
                    self.dead = true;
                    return Err(self.overlong());
                }
                // The next read reports the death, with the exit status.
                Next::Closed => self.dead = true,
            }
        }
        Ok(())
    }

    /// A `bestmove` read while the runner waits for something else (`uciok`, `readyok`)
    /// or before it sends `go`: the late answer to an abandoned `go` is dropped, any other
    /// is a protocol violation with its cause.
    fn idle_bestmove(&mut self) -> Result<(), EngineError> {
        let cause = match self.go_state {
            GoState::Abandoned => {
                self.go_state = GoState::Answered;
                return Ok(());
            }
            GoState::NeverSent => "sent bestmove before go",
            GoState::Answered => "sent a second bestmove for one go",
        };
        Err(EngineError::Protocol {
            name: self.name.clone(),
            cause: cause.to_string(),
        })
    }

    fn overlong(&self) -> EngineError {
        EngineError::Protocol {
            name: self.name.clone(),
            cause: format!("sent a line longer than {} KiB", MAX_LINE_BYTES / 1024),
        }
    }

    /// The next line, waiting until `deadline` for `expected`. Waiting for anything but
    /// `bestmove`, a `bestmove` line is judged by [`idle_bestmove`](Self::idle_bestmove)
    /// and never returned.
    fn read_line(
        &mut self,
        started: Instant,
        deadline: Instant,
        expected: &'static str,
    ) -> Result<String, EngineError> {
        loop {
            let line = self.read_any_line(started, deadline, expected)?;
            if expected == "bestmove" || parse_bestmove(&line).is_none() {
                return Ok(line);
            }
            self.idle_bestmove()?;
        }
    }

    fn read_any_line(
        &mut self,
        started: Instant,
        deadline: Instant,
        expected: &'static str,
    ) -> Result<String, EngineError> {
        if self.dead {
            // The pipe may have closed before the last lines were read: drain them first.
            return match self.lines.next(Instant::now()) {
                Next::Line(line) => Ok(line),
                Next::Overlong => Err(self.overlong()),
                _ => Err(self.died(expected)),
            };
        }
        match self.lines.next(deadline) {
            Next::Line(line) => Ok(line),
            Next::Overlong => {
                // Whatever follows is the rest of that line or worse: the engine is done.
                self.dead = true;
                Err(self.overlong())
            }
            Next::Closed => {
                self.dead = true;
                Err(self.died(expected))
            }
            Next::Timeout => Err(EngineError::Timeout {
                name: self.name.clone(),
                expected,
                waited: started.elapsed(),
            }),
        }
    }

    fn died(&mut self, expected: &'static str) -> EngineError {
        // The pipe closes a moment before the process is reaped: give it that moment.
        let exit = self.wait_exit(Duration::from_millis(500));
        EngineError::Died {
            name: self.name.clone(),
            expected,
            exit,
            stderr: self.stderr_tail(),
        }
    }

    fn wait_exit(&mut self, grace: Duration) -> ExitInfo {
        if let Some(exit) = self.exit {
            return exit;
        }
        let deadline = Instant::now() + grace;
        loop {
            match self.child.try_wait() {
                Ok(Some(status)) => {
                    let exit = ExitInfo::from_status(status);
                    self.exit = Some(exit);
                    return exit;
                }
                Ok(None) if Instant::now() < deadline => thread::sleep(Duration::from_millis(2)),
                _ => return ExitInfo::Running,
            }
        }
    }

    /// `true` while the process has not been seen to exit or close its output.
    pub fn is_alive(&mut self) -> bool {
        !self.dead && matches!(self.child.try_wait(), Ok(None))
    }

    /// The last lines the engine wrote to stderr (at most [`STDERR_TAIL_LINES`] lines and
    /// [`STDERR_TAIL_BYTES`] bytes), each one printable line.
    ///
    /// For an engine seen to exit, waits (up to half a second) until its stderr has been
    /// read to the end: a dying engine's last words are the ones worth keeping.
    pub fn stderr_tail(&self) -> Vec<String> {
        if self.exit.is_some_and(|e| e != ExitInfo::Running) {
            let until = Instant::now() + Duration::from_millis(500);
            while !self.stderr_reader.is_finished() && Instant::now() < until {
                thread::sleep(Duration::from_millis(1));
            }
        }
        self.stderr
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .lines()
    }

    /// Sends `quit`, waits up to `grace` for the process to exit, then kills it.
    pub fn quit(mut self, grace: Duration) -> ExitInfo {
        self.shutdown(grace)
    }

    /// Kills the process at once (for an engine that no longer answers).
    pub fn kill(mut self) -> ExitInfo {
        self.shutdown(Duration::ZERO)
    }

    fn shutdown(&mut self, grace: Duration) -> ExitInfo {
        if self.exit.is_none() && !grace.is_zero() {
            self.send("quit");
        }
        // Closing stdin is a second hint for engines that ignore `quit`.
        self.stdin = None;
        let exit = self.wait_exit(grace);
        if exit == ExitInfo::Running {
            let _ = self.child.kill();
            let exit = self
                .child
                .wait()
                .map(ExitInfo::from_status)
                .unwrap_or(ExitInfo::Running);
            self.exit = Some(exit);
            return exit;
        }
        exit
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        if self.exit.is_none() {
            self.stdin = None;
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// Most option names kept from an engine's `uci` answer.
const MAX_OPTIONS: usize = 512;

/// `start + wait`, or a century later when that does not fit in an `Instant` (an
/// absurd time control must not panic the runner).
fn instant_after(start: Instant, wait: Duration) -> Instant {
    start
        .checked_add(wait)
        .or_else(|| start.checked_add(Duration::from_secs(100 * 365 * 86_400)))
        .unwrap_or(start)
}

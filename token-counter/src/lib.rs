//! The challenge's law: token counting and rule checking for bot files.
//!
//! A bot file is counted as Rust lexes it (see the crate's README for every
//! rule) and checked against the challenge's refusals, including inside macro
//! invocations and `macro_rules!` bodies.
//!
//! ```
//! let report = token_counter::analyze(
//!     "use framework::prelude::*;\n\
//!      #[derive(Default)] pub struct MyBot;\n\
//!      impl Bot for MyBot {\n\
//!          fn think(&mut self, board: Board, _timer: Timer) -> Move {\n\
//!              board.legal_moves()[0] // #DEBUG\n\
//!          }\n\
//!      }\n",
//! )?;
//! // The frame (16: the import and the derive are free) and `board . legal_moves ( [ 0`.
//! assert_eq!(report.tokens, 16);
//! assert_eq!(report.debug_tokens, 6);
//! assert!(report.passes_submission());
//! # Ok::<(), token_counter::ParseError>(())
//! ```

mod characters;
mod cli;
mod count;
mod debug_lines;
mod items;
mod limits;
mod rules;
mod spelling;
mod tokens;

use std::fmt;
use std::path::{Path, PathBuf};

use serde::Serialize;

pub use cli::{CountArgs, error_json, run};
pub use count::STANDARD_MACROS;
pub use items::{
    ItemChange, ItemCost, ItemDiff, ItemKind, Itemized, OUTSIDE_ITEMS, Status, itemize,
    itemize_file,
};
pub use limits::{MAX_FILE_BYTES, MAX_NESTING, MAX_TOKENS};
pub use rules::{
    ALLOWED_ATTRIBUTES, ALLOWED_STD_MODULES, FORBIDDEN_ATTRIBUTES, FORBIDDEN_MACROS, NAME_PRINTERS,
    Rule, Violation,
};
pub use spelling::PROPERTY_READS;

/// The token limit of a bot file.
pub const LIMIT: usize = 1024;

/// The file does not parse as Rust (or does not lex), or is refused before
/// parsing: over [`MAX_FILE_BYTES`], nested deeper than [`MAX_NESTING`], more
/// than [`MAX_TOKENS`] tokens, or a `#!` shebang first line.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{line}:{column}: {message}")]
pub struct ParseError {
    /// The parser's own message.
    pub message: String,
    /// 1-based line.
    pub line: usize,
    /// 1-based column, in characters.
    pub column: usize,
}

/// Why a bot file could not be analyzed.
#[derive(Debug, thiserror::Error)]
pub enum FileError {
    /// The file could not be read.
    #[error("{}: cannot read the file: {cause}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// The operating system's reason.
        /// (Shown in the message, so not also a `source`: `{:#}` would show it twice.)
        cause: std::io::Error,
    },
    /// The file is larger than [`MAX_FILE_BYTES`]; it was not read whole.
    #[error(
        "{}: the file is larger than {MAX_FILE_BYTES} bytes, the most a bot file may have",
        path.display()
    )]
    TooLarge {
        /// The file.
        path: PathBuf,
    },
    /// The file is not UTF-8 text.
    #[error(
        "{}:{line}:{column}: the file is not UTF-8 text (invalid byte at offset {offset})",
        path.display()
    )]
    NotUtf8 {
        /// The file.
        path: PathBuf,
        /// 1-based line of the first invalid byte.
        line: usize,
        /// 1-based column (in characters) of the first invalid byte.
        column: usize,
        /// Byte offset of the first invalid byte.
        offset: usize,
    },
    /// The file does not parse as Rust.
    #[error("{}:{cause}", path.display())]
    Parse {
        /// The file.
        path: PathBuf,
        /// Where and why.
        /// (Shown in the message, so not also a `source`: `{:#}` would show it twice.)
        cause: ParseError,
    },
}

/// What one source line costs.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct LineCost {
    /// 1-based line number.
    pub line: usize,
    /// Tokens counted while developing.
    pub tokens: usize,
    /// Tokens on a `#DEBUG` line (they are also counted when submitted).
    pub debug: usize,
    /// The line's source text.
    pub text: String,
}

impl LineCost {
    /// What the line costs in a submission: counted and debug tokens.
    pub fn total(&self) -> usize {
        self.tokens + self.debug
    }
}

/// The count and rule check of one bot file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Report {
    /// Tokens counted while developing: every token not on a `#DEBUG` line.
    pub tokens: usize,
    /// Tokens on `#DEBUG` lines.
    pub debug_tokens: usize,
    /// Every broken rule, in source order.
    pub violations: Vec<Violation>,
    /// The cost of every source line, first line first.
    pub lines: Vec<LineCost>,
}

impl Report {
    /// What a submission is judged by: counted plus `#DEBUG` tokens.
    ///
    /// ```
    /// let r = token_counter::analyze("fn f() {\n    g(); // #DEBUG\n}")?;
    /// assert_eq!((r.tokens, r.debug_tokens, r.total()), (4, 2, 6));
    /// # Ok::<(), token_counter::ParseError>(())
    /// ```
    pub fn total(&self) -> usize {
        self.tokens + self.debug_tokens
    }

    /// The developer's view: the count without `#DEBUG` tokens is within
    /// [`LIMIT`] (rules are not considered).
    pub fn within_limit(&self) -> bool {
        self.tokens <= LIMIT
    }

    /// The submission check: [`Report::total`] within [`LIMIT`] and no rule
    /// broken.
    pub fn passes_submission(&self) -> bool {
        self.total() <= LIMIT && self.violations.is_empty()
    }

    /// The human report for the file named `file`, exactly as the
    /// `token-counter` command prints it (without its `--lines` table).
    ///
    /// ```
    /// let r = token_counter::analyze("fn main() { unsafe {} }")?;
    /// let text = r.render("bot/x.rs").to_string();
    /// assert!(text.starts_with("bot/x.rs: 6 / 1024 tokens, 0 #DEBUG tokens"));
    /// assert!(text.contains("bot/x.rs:1:13: error[unsafe]: `unsafe` is refused"));
    /// # Ok::<(), token_counter::ParseError>(())
    /// ```
    pub fn render<'a>(&'a self, file: &'a str) -> impl fmt::Display + 'a {
        Rendered { report: self, file }
    }
}

struct Rendered<'a> {
    report: &'a Report,
    file: &'a str,
}

impl fmt::Display for Rendered<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Rendered { report: r, file } = self;
        writeln!(
            f,
            "{file}: {} / {LIMIT} tokens, {} #DEBUG tokens (#DEBUG tokens count when submitted: {} / {LIMIT})",
            r.tokens,
            r.debug_tokens,
            r.total()
        )?;
        if !r.within_limit() {
            writeln!(
                f,
                "{file}: error[over-limit]: {} tokens over the limit of {LIMIT}\n  hint: shorten the bot; `challenge tokens --top 10 {file}` shows the costliest lines",
                r.tokens - LIMIT
            )?;
        } else if r.total() > LIMIT {
            writeln!(
                f,
                "{file}: warning: with its #DEBUG tokens the bot is {} over the limit and would be refused as a submission\n  hint: remove the #DEBUG lines before submitting",
                r.total() - LIMIT
            )?;
        }
        for v in &r.violations {
            writeln!(f, "{file}:{v}")?;
        }
        Ok(())
    }
}

/// Counts and checks a bot file's source text.
///
/// Fails only when the text does not parse as a Rust file; a file that
/// parses always gets a [`Report`], whose violations say what it breaks.
///
/// ```
/// let r = token_counter::analyze("let v: Vec<Vec<u8>> = vec![];")
///     .unwrap_err();
/// assert_eq!((r.line, r.column), (1, 1));
/// let r = token_counter::analyze("fn f(x: u64) -> u64 { x << 1 }")?;
/// assert_eq!(r.tokens, 10); // `fn f ( x u64 u64 { x << 1`
/// assert_eq!(r.violations[0].rule.name(), "missing-my-bot");
/// # Ok::<(), token_counter::ParseError>(())
/// ```
pub fn analyze(source: &str) -> Result<Report, ParseError> {
    on_analysis_thread(source, |analysis| analysis.report)
}

/// Everything one analysis of a file finds, while its spans are still valid:
/// they are only valid on the analysis thread (see [`on_analysis_thread`]).
pub(crate) struct Analysis {
    /// The count and the rule check.
    pub report: Report,
    /// The parsed file.
    pub file: syn::File,
    /// Every counted token's cost, in source order: what `report` sums.
    pub costs: Vec<count::TokenCost>,
}

/// Analyzes `source` on a thread of its own and hands the [`Analysis`] to
/// `then` there, so that whatever reads its spans does so while they are
/// valid.
pub(crate) fn on_analysis_thread<T: Send>(
    source: &str,
    then: impl FnOnce(Analysis) -> T + Send,
) -> Result<T, ParseError> {
    limits::check_size(source)?;
    // proc-macro2 keeps every parsed source in a thread-local map for the
    // life of the thread, so a long-lived caller (the kit, a benchmark)
    // would grow without bound. Parsing on a short thread and dropping its
    // spans keeps each call's memory to itself. The thread's large stack is
    // what lets syn's recursive parser take the deepest file the limits
    // allow (see `limits`).
    std::thread::scope(|scope| {
        let worker = std::thread::Builder::new()
            .name("token-counter".into())
            .stack_size(limits::STACK_BYTES)
            .spawn_scoped(scope, || {
                let result = analyze_on_this_thread(source).map(then);
                proc_macro2::extra::invalidate_current_thread_spans();
                result
            });
        match worker {
            Ok(handle) => handle
                .join()
                .unwrap_or_else(|panic| std::panic::resume_unwind(panic)),
            Err(err) => Err(ParseError {
                message: format!("cannot start the analysis thread: {err}"),
                line: 1,
                column: 1,
            }),
        }
    })
}

/// Reads and analyzes a bot file.
///
/// ```no_run
/// let report = token_counter::analyze_file("bot/my_bot.rs")?;
/// println!("{}", report.render("bot/my_bot.rs"));
/// # Ok::<(), token_counter::FileError>(())
/// ```
pub fn analyze_file(path: impl AsRef<Path>) -> Result<Report, FileError> {
    let path = path.as_ref();
    let source = read_source(path)?;
    analyze(&source).map_err(|source| FileError::Parse {
        path: path.to_owned(),
        cause: source,
    })
}

/// Reads a bot file as the rules require: at most [`MAX_FILE_BYTES`] (a
/// larger file is refused without being read whole) and UTF-8 text.
///
/// ```
/// let dir = std::env::temp_dir().join("token-counter-read-doctest");
/// std::fs::create_dir_all(&dir).unwrap();
/// let bot = dir.join("latin1.rs");
/// std::fs::write(&bot, b"// caf\xe9\n").unwrap();
/// let err = token_counter::read_source(&bot).unwrap_err().to_string();
/// assert!(err.ends_with("latin1.rs:1:7: the file is not UTF-8 text (invalid byte at offset 6)"));
/// ```
pub fn read_source(path: impl AsRef<Path>) -> Result<String, FileError> {
    use std::io::Read;
    let path = path.as_ref();
    let read_error = |source| FileError::Read {
        path: path.to_owned(),
        cause: source,
    };
    let file = std::fs::File::open(path).map_err(read_error)?;
    let mut bytes = Vec::new();
    file.take(MAX_FILE_BYTES as u64 + 1)
        .read_to_end(&mut bytes)
        .map_err(read_error)?;
    if bytes.len() > MAX_FILE_BYTES {
        return Err(FileError::TooLarge {
            path: path.to_owned(),
        });
    }
    String::from_utf8(bytes).map_err(|err| {
        let offset = err.utf8_error().valid_up_to();
        let valid = std::str::from_utf8(&err.as_bytes()[..offset]).unwrap_or_default();
        let line_start = valid.rfind('\n').map_or(0, |n| n + 1);
        FileError::NotUtf8 {
            path: path.to_owned(),
            line: valid.matches('\n').count() + 1,
            column: valid[line_start..].chars().count() + 1,
            offset,
        }
    })
}

fn analyze_on_this_thread(source: &str) -> Result<Analysis, ParseError> {
    let text = strip_preamble(source)?;
    // Lexed once and shared: with span locations on, lexing is most of the
    // cost of an analysis.
    let stream: proc_macro2::TokenStream = text.parse().map_err(|e: proc_macro2::LexError| {
        let at = e.span().start();
        ParseError {
            // proc-macro2's lexer says no more than "cannot parse".
            message: "the file does not lex: look for an unclosed or mismatched delimiter, \
                          string or block comment"
                .into(),
            line: at.line,
            column: at.column + 1,
        }
    })?;
    limits::check_shape(&stream)?;
    let file: syn::File = syn::parse2(stream.clone()).map_err(|e| {
        let at = e.span().start();
        ParseError {
            message: e.to_string(),
            line: at.line,
            column: at.column + 1,
        }
    })?;
    let toks = tokens::lex(stream);

    let debug_lines = debug_lines::debug_lines(text);
    let closure_closers = spelling::closure_closers(&file);
    let property_reads = spelling::property_reads(&file);
    let ternary_braces = spelling::ternary_braces(&file);
    let mut tally = count::Tally {
        costs: Vec::new(),
        debug_lines: &debug_lines,
        closure_closers: &closure_closers,
        property_reads: &property_reads,
        ternary_braces: &ternary_braces,
    };
    let standard = count::StandardNames::of(&toks);
    count::count(&toks, count::Context::Code, &standard, &mut tally);

    let mut violations = characters::check(text);
    rules::check_file(&toks, count::Context::Code, &standard, &mut violations);
    rules::check_bot_shape(&file, &mut violations);
    violations.sort_by_key(|v| (v.line, v.column));

    let report = Report {
        tokens: tally
            .costs
            .iter()
            .filter(|c| !c.debug)
            .map(|c| c.cost)
            .sum(),
        debug_tokens: tally.costs.iter().filter(|c| c.debug).map(|c| c.cost).sum(),
        violations,
        lines: line_costs(text, &tally.costs),
    };
    Ok(Analysis {
        report,
        file,
        costs: tally.costs,
    })
}

/// The cost of every line of `text`: the sums of the tokens that start on it.
fn line_costs(text: &str, costs: &[count::TokenCost]) -> Vec<LineCost> {
    let mut lines: Vec<LineCost> = text
        .lines()
        .enumerate()
        .map(|(k, line)| LineCost {
            line: k + 1,
            tokens: 0,
            debug: 0,
            text: line.to_owned(),
        })
        .collect();
    for c in costs {
        // Every token starts on a line of the text; `get_mut` only guards.
        if let Some(line) = lines.get_mut(c.pos.line.wrapping_sub(1)) {
            if c.debug {
                line.debug += c.cost;
            } else {
                line.tokens += c.cost;
            }
        }
    }
    lines
}

/// Drops a leading byte order mark, as rustc does, and refuses a `#!`
/// shebang line: rustc would drop it unseen, and a bot has no use for one.
///
/// rustc reads `#!` at the start of a file as a shebang unless the next
/// token, past whitespace and comments, is `[` (then it is an inner
/// attribute, `#![...]` or `#! /* c */ [...]`, which is lexed and checked
/// like any other). Nothing is ever stripped, so the checker sees every
/// character rustc compiles.
fn strip_preamble(source: &str) -> Result<&str, ParseError> {
    let source = source.strip_prefix('\u{feff}').unwrap_or(source);
    if let Some(rest) = source.strip_prefix("#!")
        && !skip_blank(rest).starts_with('[')
    {
        return Err(ParseError {
            message: "a `#!` shebang line is refused (rustc would not compile it, so it could \
                      hide text from the rules); a bot file starts with Rust code"
                .into(),
            line: 1,
            column: 1,
        });
    }
    Ok(source)
}

/// `text` past any whitespace and comments (block comments nest).
fn skip_blank(mut text: &str) -> &str {
    loop {
        let trimmed = text.trim_start();
        if let Some(rest) = trimmed.strip_prefix("//") {
            text = rest.find('\n').map_or("", |n| &rest[n..]);
        } else if trimmed.starts_with("/*") {
            let mut depth = 0usize;
            let mut end = trimmed.len();
            let bytes = trimmed.as_bytes();
            let mut k = 0;
            while k + 1 < bytes.len() {
                match &bytes[k..k + 2] {
                    b"/*" => {
                        depth += 1;
                        k += 2;
                    }
                    b"*/" => {
                        depth -= 1;
                        k += 2;
                        if depth == 0 {
                            end = k;
                            break;
                        }
                    }
                    _ => k += 1,
                }
            }
            text = &trimmed[end..];
        } else {
            return trimmed;
        }
    }
}

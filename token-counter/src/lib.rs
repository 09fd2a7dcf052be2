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
//!          fn think(&mut self, board: &mut Board, _timer: &Timer) -> Move {\n\
//!              board.legal_moves()[0] // #DEBUG\n\
//!          }\n\
//!      }\n",
//! )?;
//! assert_eq!(report.tokens, 36);
//! assert_eq!(report.debug_tokens, 6);
//! assert!(report.passes_submission());
//! # Ok::<(), token_counter::ParseError>(())
//! ```

mod cli;
mod count;
mod debug_lines;
mod rules;
mod tokens;

use std::fmt;
use std::path::{Path, PathBuf};

use serde::Serialize;

pub use cli::{CountArgs, run};
pub use rules::{ALLOWED_STD_MODULES, FORBIDDEN_ATTRIBUTES, FORBIDDEN_MACROS, Rule, Violation};

/// The token limit of a bot file.
pub const LIMIT: usize = 1024;

/// The file does not parse as Rust (or does not lex).
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
    #[error("{}: cannot read the file: {source}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// The operating system's reason.
        source: std::io::Error,
    },
    /// The file does not parse as Rust.
    #[error("{}:{source}", path.display())]
    Parse {
        /// The file.
        path: PathBuf,
        /// Where and why.
        source: ParseError,
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
                "{file}: error[over-limit]: {} tokens over the limit of {LIMIT}\n  hint: shorten the bot; `token-counter --top 10 {file}` shows the costliest lines",
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
/// assert_eq!(r.tokens, 12);
/// assert_eq!(r.violations[0].rule.name(), "missing-my-bot");
/// # Ok::<(), token_counter::ParseError>(())
/// ```
pub fn analyze(source: &str) -> Result<Report, ParseError> {
    // proc-macro2 keeps every parsed source in a thread-local map for the
    // life of the thread, so a long-lived caller (the kit, a benchmark)
    // would grow without bound. Parsing on a short thread and dropping its
    // spans keeps each call's memory to itself.
    std::thread::scope(|scope| {
        scope
            .spawn(|| {
                let result = analyze_on_this_thread(source);
                proc_macro2::extra::invalidate_current_thread_spans();
                result
            })
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
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
    let source = std::fs::read_to_string(path).map_err(|source| FileError::Read {
        path: path.to_owned(),
        source,
    })?;
    analyze(&source).map_err(|source| FileError::Parse {
        path: path.to_owned(),
        source,
    })
}

fn analyze_on_this_thread(source: &str) -> Result<Report, ParseError> {
    let text = strip_preamble(source);
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
    let file: syn::File = syn::parse2(stream.clone()).map_err(|e| {
        let at = e.span().start();
        ParseError {
            message: e.to_string(),
            line: at.line,
            column: at.column + 1,
        }
    })?;
    let toks = tokens::lex(stream);

    let debug_lines = debug_lines::debug_lines(&text);
    let mut tally = count::Tally {
        counted: Vec::new(),
        debug: Vec::new(),
        debug_lines: &debug_lines,
    };
    count::count(&toks, false, &mut tally);

    let mut violations = Vec::new();
    rules::check_tokens(&toks, false, &mut violations);
    rules::check_bot_shape(&file, &mut violations);
    violations.sort_by_key(|v| (v.line, v.column));

    let at = |v: &[usize], n: usize| v.get(n).copied().unwrap_or(0);
    let lines: Vec<LineCost> = text
        .lines()
        .enumerate()
        .map(|(k, line)| LineCost {
            line: k + 1,
            tokens: at(&tally.counted, k + 1),
            debug: at(&tally.debug, k + 1),
            text: line.to_owned(),
        })
        .collect();
    Ok(Report {
        tokens: tally.counted.iter().sum(),
        debug_tokens: tally.debug.iter().sum(),
        violations,
        lines,
    })
}

/// Drops what `syn::parse_file` ignores before the first token: a byte order
/// mark and a `#!` shebang line (but not an inner attribute `#![...]`). The
/// shebang's text is removed but its newline kept, so line numbers hold.
fn strip_preamble(source: &str) -> std::borrow::Cow<'_, str> {
    let source = source.strip_prefix('\u{feff}').unwrap_or(source);
    if let Some(rest) = source.strip_prefix("#!")
        && !rest.trim_start().starts_with('[')
    {
        let end = source.find('\n').unwrap_or(source.len());
        return std::borrow::Cow::Owned(source[end..].to_owned());
    }
    std::borrow::Cow::Borrowed(source)
}

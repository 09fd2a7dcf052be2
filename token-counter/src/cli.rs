//! The `token-counter` command, shared with `challenge tokens`.

use std::io::Write;
use std::path::PathBuf;

use serde_json::json;

use crate::{FileError, LIMIT, Report, analyze_file};

/// Arguments of `token-counter` and of `challenge tokens`.
///
/// Flatten it into a clap command and hand it to [`run`]:
///
/// ```
/// use clap::Parser;
/// #[derive(Parser)]
/// struct Cli {
///     #[command(flatten)]
///     args: token_counter::CountArgs,
/// }
/// let cli = Cli::parse_from(["challenge", "--top", "5", "a.rs", "b.rs"]);
/// assert_eq!(cli.args.top, Some(5));
/// assert_eq!(cli.args.files.len(), 2);
/// ```
#[derive(Debug, Clone, clap::Args)]
pub struct CountArgs {
    /// Bot files to count and check.
    #[arg(default_value = "bot/my_bot.rs")]
    pub files: Vec<PathBuf>,
    /// Show every source line with its token cost.
    #[arg(long)]
    pub lines: bool,
    /// Show the N most expensive lines.
    #[arg(long, value_name = "N")]
    pub top: Option<usize>,
    /// Print one JSON object per file (one per line) instead of text.
    #[arg(long)]
    pub json: bool,
    /// Judge as a submission: #DEBUG tokens count toward the limit.
    #[arg(long)]
    pub submission: bool,
}

impl CountArgs {
    /// Whether `report` passes as these arguments judge it: within the limit
    /// and breaking no rule; with `--submission`, [`Report::passes_submission`].
    ///
    /// ```
    /// use clap::Parser;
    /// #[derive(Parser)]
    /// struct Cli {
    ///     #[command(flatten)]
    ///     args: token_counter::CountArgs,
    /// }
    /// let report = token_counter::analyze("fn f() {\n    g(); // #DEBUG\n}")?;
    /// let developing = Cli::parse_from(["challenge"]).args;
    /// assert!(!developing.accepts(&report), "no `MyBot`: a rule is broken");
    /// # Ok::<(), token_counter::ParseError>(())
    /// ```
    pub fn accepts(&self, report: &Report) -> bool {
        if self.submission {
            report.passes_submission()
        } else {
            report.within_limit() && report.violations.is_empty()
        }
    }
}

/// Runs the command and returns its exit code: 0 when every file is within
/// the limit and breaks no rule, 1 when any is over or breaks a rule, 2 when
/// a file cannot be read or does not parse (which wins over 1).
///
/// ```
/// let dir = std::env::temp_dir().join("token-counter-run-doctest");
/// std::fs::create_dir_all(&dir).unwrap();
/// let bot = dir.join("bot.rs");
/// std::fs::write(&bot, "use std::fs;").unwrap();
/// let args = token_counter::CountArgs {
///     files: vec![bot], lines: false, top: None, json: false, submission: false,
/// };
/// let mut out = Vec::new();
/// assert_eq!(token_counter::run(&args, &mut out), 1);
/// assert!(String::from_utf8(out).unwrap().contains("error[forbidden-path]"));
/// ```
pub fn run(args: &CountArgs, out: &mut dyn Write) -> i32 {
    let mut code = 0;
    for path in &args.files {
        let name = path.display().to_string();
        let result = match analyze_file(path) {
            Ok(report) => {
                if !args.accepts(&report) {
                    code = code.max(1);
                }
                if args.json {
                    write_json(out, &name, &report)
                } else {
                    write_text(out, args, &name, &report)
                }
            }
            Err(err) => {
                code = 2;
                if args.json {
                    write_json_error(out, &name, &err)
                } else {
                    writeln!(out, "error: {err}")
                }
            }
        };
        if result.is_err() {
            // The reader went away (a closed pipe): nothing more to say.
            return code.max(2);
        }
    }
    code
}

fn write_text(
    out: &mut dyn Write,
    args: &CountArgs,
    name: &str,
    report: &Report,
) -> std::io::Result<()> {
    write!(out, "{}", report.render(name))?;
    if args.lines {
        writeln!(out, "{:>5} {:>6}  source", "line", "tokens")?;
        for l in &report.lines {
            writeln!(
                out,
                "{:>5} {:>6}  {}",
                l.line,
                cost_cell(l.tokens, l.debug),
                l.text
            )?;
        }
    }
    if let Some(n) = args.top {
        let mut costly: Vec<_> = report.lines.iter().filter(|l| l.total() > 0).collect();
        costly.sort_by(|a, b| b.total().cmp(&a.total()).then(a.line.cmp(&b.line)));
        writeln!(out, "{n} most expensive lines of {name}:")?;
        for l in costly.into_iter().take(n) {
            writeln!(
                out,
                "{:>5} {:>6}  {}",
                l.line,
                cost_cell(l.tokens, l.debug),
                l.text.trim()
            )?;
        }
    }
    Ok(())
}

/// `7`, or `3d` for a line whose tokens are all #DEBUG ones.
fn cost_cell(tokens: usize, debug: usize) -> String {
    if debug > 0 {
        format!("{}d", tokens + debug)
    } else {
        tokens.to_string()
    }
}

fn write_json(out: &mut dyn Write, name: &str, report: &Report) -> std::io::Result<()> {
    let value = json!({
        "file": name,
        "tokens": report.tokens,
        "debug_tokens": report.debug_tokens,
        "total": report.total(),
        "limit": LIMIT,
        "within_limit": report.within_limit(),
        "passes_submission": report.passes_submission(),
        "violations": report.violations,
        "lines": report.lines,
    });
    writeln!(out, "{value}")
}

fn write_json_error(out: &mut dyn Write, name: &str, err: &FileError) -> std::io::Result<()> {
    writeln!(out, "{}", error_json(name, err))
}

/// The JSON the command prints for a file it cannot read or parse:
/// `{"file": …, "error": {"message", "line", "column"}}`, where `line` and
/// `column` are `null` when the error has no position.
///
/// ```
/// let err = token_counter::analyze_file("no/such/bot.rs").unwrap_err();
/// let json = token_counter::error_json("no/such/bot.rs", &err);
/// assert_eq!(json["file"], "no/such/bot.rs");
/// assert!(json["error"]["line"].is_null());
/// ```
pub fn error_json(name: &str, err: &FileError) -> serde_json::Value {
    let (message, line, column) = match err {
        FileError::Parse { cause: source, .. } => (
            source.message.clone(),
            Some(source.line),
            Some(source.column),
        ),
        FileError::NotUtf8 { line, column, .. } => {
            let text = err.to_string();
            // The message without the leading `path:line:column: `.
            let message = text
                .splitn(4, ':')
                .nth(3)
                .unwrap_or(&text)
                .trim()
                .to_owned();
            (message, Some(*line), Some(*column))
        }
        FileError::Read { cause: source, .. } => (source.to_string(), None, None),
        FileError::TooLarge { .. } => (
            format!(
                "the file is larger than {} bytes, the most a bot file may have",
                crate::MAX_FILE_BYTES
            ),
            None,
            None,
        ),
    };
    json!({ "file": name, "error": { "message": message, "line": line, "column": column } })
}

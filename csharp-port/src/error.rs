//! What can go wrong in a port: where, and what.

use std::fmt;

/// A place in the C# source: 1-based line and column.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, PartialOrd, Ord)]
pub struct Span {
    /// The line, from 1.
    pub line: u32,
    /// The column, from 1, in bytes.
    pub column: u32,
}

impl Span {
    /// Where `node` starts.
    pub fn of(node: tree_sitter::Node) -> Span {
        let p = node.start_position();
        Span {
            line: p.row as u32 + 1,
            column: p.column as u32 + 1,
        }
    }
}

/// Why a file could not be ported.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorKind {
    /// tree-sitter could not read the C# there.
    Syntax,
    /// A construct the translator does not translate (yet); never guessed at.
    Unsupported,
    /// The C# does not type-check as the translator reads it (a name it cannot resolve,
    /// a member the API has not).
    Type,
    /// Input too large, or a bug of the translator's own.
    Limit,
}

/// An error of [`port`](crate::port): its place in the C# file, the construct's name and
/// a short excerpt of the source.
///
/// ```
/// let err = csharp_port::port("class A {\n  void F() { int x = ; }\n}", &Default::default())
///     .unwrap_err();
/// assert_eq!((err.span.line, err.kind), (2, csharp_port::ErrorKind::Syntax));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PortError {
    /// Where.
    pub span: Span,
    /// What kind of failure.
    pub kind: ErrorKind,
    /// The construct's name (`local function returning by ref`), or the message.
    pub construct: String,
    /// The C# text there, shortened to one line.
    pub snippet: String,
}

impl PortError {
    /// A syntax error at `span` near `snippet`.
    pub fn syntax(span: Span, snippet: String) -> PortError {
        PortError {
            span,
            kind: ErrorKind::Syntax,
            construct: "C# syntax the parser cannot read".into(),
            snippet: one_line(&snippet),
        }
    }

    /// An unsupported `construct` at `span`.
    pub fn unsupported(span: Span, construct: impl Into<String>, snippet: &str) -> PortError {
        PortError {
            span,
            kind: ErrorKind::Unsupported,
            construct: construct.into(),
            snippet: one_line(snippet),
        }
    }

    /// A typing failure at `span`.
    pub fn typing(span: Span, message: impl Into<String>, snippet: &str) -> PortError {
        PortError {
            span,
            kind: ErrorKind::Type,
            construct: message.into(),
            snippet: one_line(snippet),
        }
    }

    /// A limit or a failure of the translator itself.
    pub fn internal(message: String) -> PortError {
        PortError {
            span: Span::default(),
            kind: ErrorKind::Limit,
            construct: message,
            snippet: String::new(),
        }
    }
}

fn one_line(text: &str) -> String {
    let line = text.lines().next().unwrap_or("").trim();
    let mut short: String = line.chars().take(60).collect();
    if line.chars().count() > 60 || text.trim().lines().nth(1).is_some() {
        short.push_str(" ...");
    }
    short
}

impl fmt::Display for PortError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Span { line, column } = self.span;
        match self.kind {
            ErrorKind::Syntax => write!(
                f,
                "line {line}, column {column}: C# syntax the parser cannot read (`{}`)",
                self.snippet
            ),
            ErrorKind::Unsupported => write!(
                f,
                "line {line}, column {column}: {} (`{}`) is not translated",
                self.construct, self.snippet
            ),
            ErrorKind::Type => write!(
                f,
                "line {line}, column {column}: {} (`{}`)",
                self.construct, self.snippet
            ),
            ErrorKind::Limit => write!(f, "{}", self.construct),
        }
    }
}

impl std::error::Error for PortError {}

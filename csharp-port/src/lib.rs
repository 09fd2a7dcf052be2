//! `challenge port`: a C# Tiny Chess Bot Challenge entry (written against
//! `ChessChallenge.API`) into a kit bot file that plays like it.
//!
//! The translator parses C# with tree-sitter's C# grammar, lowers the tree to the subset
//! of C# bots use ([`ast`]), and writes Rust that keeps C#'s meaning: every implicit
//! conversion becomes an explicit cast, shift counts are masked as C# masks them, arrays
//! and collections stay shared references (the framework's `cs::` runtime), local
//! functions that capture locals become methods taking them by `&mut`, a delegate
//! parameter becomes a `&mut impl FnMut` that is handed the bot at each call,
//! `try`/`catch` becomes `cs::try_catch`. What it cannot translate is an error naming the line, the
//! column and the construct; it never writes Rust that compiles and means something
//! else.
//!
//! ```
//! use csharp_port::{PortOptions, port};
//! let source = r#"
//! using ChessChallenge.API;
//! public class MyBot : IChessBot
//! {
//!     public Move Think(Board board, Timer timer) => board.GetLegalMoves()[0];
//! }"#;
//! let ported = port(source, &PortOptions::default()).unwrap();
//! assert!(ported.rust.contains("impl Bot for MyBot"));
//! assert_eq!(ported.csharp_class, "MyBot");
//! ```

pub mod ast;
mod emit;
mod error;
mod lower;
mod preproc;
mod syntax;
pub mod types;

pub use error::{ErrorKind, PortError, Span};

/// The largest C# file `port` reads (a challenge entry is a few kilobytes; the largest
/// public one is under 100 KB).
pub const MAX_SOURCE_BYTES: usize = 1 << 20;

/// How to port.
#[derive(Debug, Clone, Default)]
pub struct PortOptions {
    /// The C# file's name, for the header comment (`MyBot.cs` if empty).
    pub source_name: String,
}

/// A ported bot.
#[derive(Debug, Clone)]
pub struct Port {
    /// The Rust bot file.
    pub rust: String,
    /// What the port could not keep exactly (dropped console output, a conversion whose
    /// out-of-range result C# leaves undefined...), one line each with its C# line.
    pub warnings: Vec<String>,
    /// The name of the C# class that implements `IChessBot`.
    pub csharp_class: String,
}

/// Ports the C# bot `source` into a kit bot file.
pub fn port(source: &str, options: &PortOptions) -> Result<Port, PortError> {
    if source.len() > MAX_SOURCE_BYTES {
        return Err(PortError::internal(format!(
            "the C# file is {} bytes; the translator reads at most {MAX_SOURCE_BYTES}",
            source.len()
        )));
    }
    let parsed = syntax::parse(source)?;
    let unit = lower::lower_unit(parsed.tree.root_node(), &parsed.source)?;
    let name = if options.source_name.is_empty() {
        "MyBot.cs".to_string()
    } else {
        options.source_name.clone()
    };
    let emit_options = emit::EmitOptions { source_name: name };
    let (rust, warnings) = emit::emit(&unit, &parsed.source, &emit_options)?;
    let csharp_class = unit
        .types
        .iter()
        .find(|t| {
            t.bases
                .iter()
                .any(|b| matches!(b, ast::TypeRef::Named(n, _) if n == "IChessBot"))
        })
        .map(|t| t.name.clone())
        .unwrap_or_default();
    Ok(Port {
        rust,
        warnings,
        csharp_class,
    })
}

/// `rust` formatted by `rustfmt` (edition 2024), comments kept; an error if rustfmt is
/// not installed or refuses the text.
pub fn rustfmt(rust: &str) -> Result<String, String> {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let mut child = Command::new("rustfmt")
        .args(["--edition", "2024", "--emit", "stdout", "--quiet"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|err| format!("cannot run rustfmt: {err}"))?;
    let mut stdin = child.stdin.take().ok_or("rustfmt has no stdin")?;
    let text = rust.to_string();
    let writer = std::thread::spawn(move || stdin.write_all(text.as_bytes()));
    let output = child
        .wait_with_output()
        .map_err(|err| format!("rustfmt failed: {err}"))?;
    let _ = writer.join();
    if !output.status.success() {
        return Err(String::from_utf8_lossy(&output.stderr).into_owned());
    }
    String::from_utf8(output.stdout).map_err(|err| err.to_string())
}

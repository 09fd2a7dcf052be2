//! What the translator's test files share: a bot around a `Think` body, and its port.

// Each test file is its own crate and uses only some of these.
#![allow(dead_code)]

use csharp_port::{PortOptions, port};

/// A bot with `usings` after the API's `using`, `members` in its class and `body` in its
/// `Think`: the usings start on line 2, the members on the line after them.
pub fn bot_using(usings: &str, members: &str, body: &str) -> String {
    format!(
        "using ChessChallenge.API;\n{usings}\npublic class MyBot : IChessBot\n{{\n{members}\n    public Move Think(Board board, Timer timer)\n    {{\n{body}\n    }}\n}}\n"
    )
}

/// Ports `source`, expecting an error: (line, display text).
pub fn refused(source: &str) -> (u32, String) {
    let err = port(source, &PortOptions::default()).expect_err("the port is refused");
    (err.span.line, err.to_string())
}

/// Ports `source`, expecting Rust: its text.
pub fn ported(source: &str) -> String {
    port(source, &PortOptions::default())
        .unwrap_or_else(|e| panic!("{e}"))
        .rust
}

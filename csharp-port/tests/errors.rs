//! What the translator refuses: each error names the line, the column and the construct,
//! and no such file is ever written as Rust that means something else.

use csharp_port::{ErrorKind, MAX_SOURCE_BYTES, PortOptions, port};

/// A bot whose `Think` body is `body` and whose class holds `members`.
fn bot(members: &str, body: &str) -> String {
    format!(
        "using ChessChallenge.API;\npublic class MyBot : IChessBot\n{{\n{members}\n    public Move Think(Board board, Timer timer)\n    {{\n{body}\n    }}\n}}\n"
    )
}

/// Ports `source`, expecting an error: (line, column, kind, display text).
fn refused(source: &str) -> (u32, u32, ErrorKind, String) {
    let err = port(source, &PortOptions::default()).expect_err("the port is refused");
    (err.span.line, err.span.column, err.kind, err.to_string())
}

#[test]
fn a_second_board_is_refused_by_name() {
    let source = bot(
        "",
        "        Board b = Board.CreateBoardFromFEN(board.GetFenString());\n        return board.GetLegalMoves()[0];",
    );
    let (line, column, kind, text) = refused(&source);
    assert_eq!((line, kind), (7, ErrorKind::Unsupported), "{text}");
    assert!(column > 1, "{text}");
    assert!(
        text.contains("the method `Board.CreateBoardFromFEN`"),
        "{text}"
    );
    assert!(text.ends_with("is not translated"), "{text}");
}

#[test]
fn dynamic_is_refused() {
    let source = bot("    dynamic d;", "        return board.GetLegalMoves()[0];");
    let (line, _, _, text) = refused(&source);
    assert_eq!(line, 4, "{text}");
    assert!(text.contains("the type `dynamic`"), "{text}");
}

#[test]
fn an_anonymous_type_is_refused() {
    let source = bot(
        "",
        "        var x = new { Score = 1 };\n        return board.GetLegalMoves()[0];",
    );
    let (line, _, _, text) = refused(&source);
    assert_eq!(line, 7, "{text}");
    assert!(text.contains("an anonymous type"), "{text}");
}

#[test]
fn a_syntax_error_names_its_line_and_column() {
    let source = bot(
        "",
        "        int x = ;\n        return board.GetLegalMoves()[0];",
    );
    let (line, column, kind, text) = refused(&source);
    assert_eq!((line, kind), (7, ErrorKind::Syntax), "{text}");
    assert!(
        text.starts_with(&format!("line 7, column {column}: ")),
        "{text}"
    );
}

#[test]
fn an_oversized_file_is_refused_before_parsing() {
    let source = format!("// {}\n", "x".repeat(MAX_SOURCE_BYTES));
    let (_, _, kind, text) = refused(&source);
    assert_eq!(kind, ErrorKind::Limit, "{text}");
    assert!(text.contains(&MAX_SOURCE_BYTES.to_string()), "{text}");
}

#[test]
fn a_simple_bot_is_translated() {
    let source = bot("", "        return board.GetLegalMoves()[0];");
    let port = port(&source, &PortOptions::default()).expect("a simple bot ports");
    assert_eq!(port.csharp_class, "MyBot");
    assert!(
        port.rust.contains("use framework::prelude::*;"),
        "{}",
        port.rust
    );
}

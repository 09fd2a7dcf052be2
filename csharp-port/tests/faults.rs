//! Refusals of the constructs whose C# meaning the port cannot settle.

mod common;

use common::refused;

#[test]
fn reverse_of_a_name_declared_as_both_a_span_and_an_array_is_refused() {
    let source = r#"using ChessChallenge.API;
using System;
public class MyBot : IChessBot
{
    int[] items = new int[3];
    public Move Think(Board board, Timer timer)
    {
        Span<int> items = stackalloc int[3];
        items.Reverse();
        return board.GetLegalMoves()[0];
    }
}
"#;
    let (line, text) = refused(source);
    assert_eq!(line, 9, "{text}");
    assert!(
        text.contains("`Reverse()` of a value that may be a span"),
        "{text}"
    );
}

//! The `decimal` uses the translator refuses: each error names the line and the construct.
//! C# has no implicit conversion between `decimal` and `double`, and the port translates
//! only .NET's default (halves to even) rounding.

mod common;

/// A bot whose `Think` body (from line 6) is `body`.
fn bot(body: &str) -> String {
    format!(
        "using ChessChallenge.API;\nusing System;\npublic class MyBot : IChessBot\n{{\n    public Move Think(Board board, Timer timer)\n    {{\n{body}\n        return board.GetLegalMoves()[0];\n    }}\n}}\n"
    )
}

/// Ports `body`, expecting an error: (line, display text).
fn refused(body: &str) -> (u32, String) {
    common::refused(&bot(body))
}

#[test]
fn a_decimal_is_not_a_double_implicitly() {
    let (line, text) = refused("        decimal d = 1.5m;\n        double x = d;");
    assert_eq!(line, 8, "{text}");
    assert!(
        text.contains("`decimal`") && text.contains("`double`"),
        "{text}"
    );
}

#[test]
fn a_decimal_and_a_double_do_not_mix() {
    let (line, text) = refused("        decimal d = 1.5m;\n        var y = d * 2.0;");
    assert_eq!(line, 8, "{text}");
    assert!(text.contains("`d * 2.0`"), "{text}");
}

#[test]
fn rounding_with_a_midpoint_mode_is_refused() {
    let (line, text) =
        refused("        decimal d = Math.Round(2.5m, MidpointRounding.AwayFromZero);");
    assert_eq!(line, 7, "{text}");
    assert!(text.contains("`Round` of a `decimal`"), "{text}");
}

#[test]
fn an_int_compound_assigned_a_decimal_is_refused() {
    let (line, text) = refused("        int i = 1;\n        i += 1.5m;");
    assert_eq!(line, 8, "{text}");
    assert!(text.contains("`+=` of a `int` with a `decimal`"), "{text}");
}

#[test]
fn a_decimal_as_a_char_is_refused() {
    let (line, text) = refused("        decimal d = 65m;\n        char c = (char)d;");
    assert_eq!(line, 8, "{text}");
    assert!(
        text.contains("a conversion from `decimal` to `char`"),
        "{text}"
    );
}

#[test]
fn a_literal_beyond_the_range_is_refused() {
    let (line, text) = refused("        decimal d = 79228162514264337593543950336m;");
    assert_eq!(line, 7, "{text}");
    assert!(text.contains("this decimal literal"), "{text}");
    // An exponent at int's end once wrapped the point's place around, and the port read 0.
    let (line, text) = refused("        decimal d = 1e2147483647m;");
    assert_eq!(line, 7, "{text}");
    assert!(text.contains("this decimal literal"), "{text}");
}

#[test]
fn an_average_of_decimals_is_refused() {
    let (line, text) = refused("        decimal a = new[] { 1m, 2m }.Average();");
    assert_eq!(line, 7, "{text}");
    assert!(text.contains("`Average` of `decimal`s"), "{text}");
}

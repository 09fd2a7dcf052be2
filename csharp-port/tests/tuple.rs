//! `System.Tuple<..>`, LINQ's `Max`/`Min` of structs and methods returning a `Board`:
//! what ports, and what is refused, with its line and construct.

mod common;

use common::{ported, refused};

/// A bot using `System` and LINQ whose `Think` body is `body` and whose class holds `members`.
fn bot(members: &str, body: &str) -> String {
    common::bot_using("using System;\nusing System.Linq;", members, body)
}

#[test]
fn a_tuple_is_a_class_compared_with_null_and_by_reference() {
    let rust = ported(&bot(
        "",
        "        var best = new Tuple<Move, int>[0].FirstOrDefault();\n        var a = Tuple.Create(1, 2);\n        if (best != null && a == new Tuple<int, int>(1, 2)) return best.Item1;\n        return board.GetLegalMoves()[0];",
    ));
    assert!(rust.contains("!best.is_null()"), "{rust}");
    assert!(
        rust.contains("cs::Tuple::ref_eq(&a, &cs::Tuple::new((1, 2)))"),
        "{rust}"
    );
}

#[test]
fn a_tuple_of_eight_items_is_refused() {
    let (line, text) = refused(&bot(
        "    Tuple<int, int, int, int, int, int, int, Tuple<int>> wide;",
        "        return board.GetLegalMoves()[0];",
    ));
    assert_eq!(line, 6, "{text}");
    assert!(text.contains("a `Tuple` of eight or more items"), "{text}");
}

#[test]
fn null_conditional_access_on_a_tuple_is_refused() {
    let (line, text) = refused(&bot(
        "    Tuple<Move, int> best;",
        "        int? score = best?.Item2;\n        return board.GetLegalMoves()[0];",
    ));
    assert_eq!(line, 9, "{text}");
    assert!(text.contains("`?.` on a `Tuple<Move, int>`"), "{text}");
}

#[test]
fn a_tuple_as_text_is_refused() {
    let (line, text) = refused(&bot(
        "",
        "        var t = Tuple.Create(1, 2);\n        string s = t.ToString();\n        return board.GetLegalMoves()[0];",
    ));
    assert_eq!(line, 10, "{text}");
    assert!(text.contains("`ToString` of a `Tuple<int, int>`"), "{text}");
}

#[test]
fn a_deconstructing_foreach_over_tuples_is_refused() {
    let (line, text) = refused(&bot(
        "",
        "        var list = new System.Collections.Generic.List<Tuple<int, int>>();\n        foreach (var (a, b) in list) { }\n        return board.GetLegalMoves()[0];",
    ));
    assert_eq!(line, 10, "{text}");
    assert!(
        text.contains("a deconstructing `foreach` over non-tuples"),
        "{text}"
    );
}

#[test]
fn max_of_a_struct_without_compare_to_is_refused() {
    let source = format!(
        "struct S {{ public int v; }}\n{}",
        bot(
            "",
            "        var s = new S[2].Max();\n        return board.GetLegalMoves()[0];"
        )
    );
    let (line, text) = refused(&source);
    assert_eq!(line, 10, "{text}");
    assert!(
        text.contains("`Max()` of `S`s without a `CompareTo`"),
        "{text}"
    );
}

#[test]
fn a_method_returning_a_board_is_refused() {
    let (line, text) = refused(&bot(
        "    static Board root;\n    Board Root() { return root; }",
        "        return Root().GetLegalMoves()[0];",
    ));
    assert_eq!(line, 7, "{text}");
    assert!(text.contains("a method returning a `Board`"), "{text}");
}

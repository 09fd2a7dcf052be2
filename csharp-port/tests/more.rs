//! Refusals (and their reasons) of constructs the port cannot give exactly:
//! `Vector<T>`, `?.` on a record the port holds as a value, the non-generic collections,
//! and the bound method groups and `Enum.GetValues` of a struct, translated where exact.

mod common;

use common::{bot_using as bot, ported, refused};

#[test]
fn a_simd_vector_is_refused_for_its_machine_dependent_width() {
    let source = bot(
        "using System.Numerics;",
        "    int[] w = new int[16];",
        "        Vector<int> v = new(w);\n        return board.GetLegalMoves()[0];",
    );
    let (line, text) = refused(&source);
    assert_eq!(line, 8, "{text}");
    assert!(
        text.contains("`Vector`") && text.contains("SIMD width"),
        "{text}"
    );
}

#[test]
fn null_conditional_on_a_record_is_refused_as_never_null() {
    let source = format!(
        "record Entry(int Score, ushort Move);\n{}",
        bot(
            "using System.Collections.Generic;",
            "    Dictionary<ulong, Entry> table = new();",
            "        table.TryGetValue(board.ZobristKey, out var entry);\n        int? m = entry?.Move;\n        return board.GetLegalMoves()[0];"
        )
    );
    let (line, text) = refused(&source);
    assert_eq!(line, 10, "{text}");
    assert!(
        text.contains("`?.` on a `Entry`") && text.contains("never null"),
        "{text}"
    );
}

#[test]
fn non_generic_collections_are_refused_for_their_object_values() {
    for (ty, line) in [("Hashtable", 5), ("OrderedDictionary", 5)] {
        let source = bot(
            "using System.Collections;\nusing System.Collections.Specialized;",
            &format!("    {ty} table = new();"),
            "        return board.GetLegalMoves()[0];",
        );
        let (at, text) = refused(&source);
        assert_eq!(at, line + 1, "{text}");
        assert!(
            text.contains(&format!("the type `{ty}`")) && text.contains("`object`s"),
            "{text}"
        );
    }
}

#[test]
fn a_bound_method_group_binds_its_object() {
    let source = bot(
        "using System.Linq;",
        "    class Rater { public int Rate(Move m) => m.IsCapture ? 1 : 0; }",
        "        var moves = board.GetLegalMoves().OrderBy(new Rater().Rate).ToArray();\n        return moves[0];",
    );
    let rust = ported(&source);
    assert!(rust.contains("move |"), "{rust}");
}

#[test]
fn get_values_of_a_struct_throws_where_it_runs() {
    let source = bot(
        "using System;",
        "",
        "        foreach (Square s in Enum.GetValues(typeof(Square))) { }\n        return board.GetLegalMoves()[0];",
    );
    let rust = ported(&source);
    assert!(
        rust.contains("cs::throw::<cs::Seq<Square>>(\"ArgumentException"),
        "{rust}"
    );
    assert!(rust.contains("(line 8)"), "{rust}");
}

#[test]
fn get_values_of_a_class_stays_refused() {
    let source = bot(
        "using System;",
        "    class Node { }",
        "        foreach (var n in Enum.GetValues(typeof(Node))) { }\n        return board.GetLegalMoves()[0];",
    );
    let (line, text) = refused(&source);
    assert_eq!(line, 8, "{text}");
    assert!(text.contains("`Enum.GetValues` of this type"), "{text}");
}

#[test]
fn a_board_field_method_group_binds_the_handed_board() {
    let source = bot(
        "",
        "    Board kept;\n    int Queens() { var pieces = kept.GetPieceList; return pieces(PieceType.Queen, true).Count; }",
        "        kept = board;\n        return board.GetLegalMoves()[Queens()];",
    );
    ported(&source);
}

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

#[test]
fn a_struct_field_initialiser_without_a_constructor_is_refused() {
    // C# itself refuses it (CS8983); which default `new S()` would give is not guessed.
    let source = format!(
        "public struct Node\n{{\n    public int Visits = 1;\n}}\n{}",
        bot("", "        return board.GetLegalMoves()[0];")
    );
    let (line, column, _, text) = refused(&source);
    assert_eq!((line, column), (3, 16), "{text}");
    assert!(
        text.contains("a struct field with an initialiser and no constructor"),
        "{text}"
    );
}

#[test]
fn this_of_the_bot_as_an_argument_is_refused() {
    // The bot is not a `cs::Obj`: its methods take `&mut self`, which no value can share.
    let source = bot(
        "    int F(MyBot b) => 1;",
        "        return board.GetLegalMoves()[F(this) - 1];",
    );
    let (line, _, _, text) = refused(&source);
    assert_eq!(line, 7, "{text}");
    assert!(
        text.contains("`this` of a class passed or stored as a value"),
        "{text}"
    );
}

#[test]
fn a_deconstructing_foreach_that_converts_is_refused() {
    let source = bot(
        "",
        "        foreach ((long a, int b) in new (int, int)[] { (1, 2) }) { }\n        return board.GetLegalMoves()[0];",
    );
    let (line, _, _, text) = refused(&source);
    assert_eq!(line, 7, "{text}");
    assert!(
        text.contains("a deconstructing `foreach` that converts the elements"),
        "{text}"
    );
}

/// `source` with `using System;` first (`Func`, `Action`): one line more.
fn system(source: String) -> String {
    format!("using System;\n{source}")
}

#[test]
fn a_delegate_field_assigned_after_its_initialiser_is_refused() {
    // Only a field that always holds its initialiser's lambda is a method in disguise.
    let source = system(bot(
        "    Func<int, int> f = x => x;\n    void Swap() { f = x => -x; }",
        "        return board.GetLegalMoves()[f(0)];",
    ));
    let (line, _, _, text) = refused(&source);
    assert_eq!(line, 5, "{text}");
    assert!(
        text.contains("a delegate stored in a field or passed around"),
        "{text}"
    );
}

#[test]
fn a_delegate_local_passed_to_a_method_is_refused() {
    // A `var` lambda with a block body stays a closure (the translator infers only an
    // expression's type); other delegate locals become local functions, which can be
    // passed.
    let source = system(bot(
        "    int Apply(Func<int, int> g) => g(1);",
        "        var f = (int x) => { return x + 1; };\n        return board.GetLegalMoves()[Apply(f)];",
    ));
    let (line, _, _, text) = refused(&source);
    assert_eq!(line, 9, "{text}");
    assert!(
        text.contains("a delegate held in a local, passed to a method"),
        "{text}"
    );
}

#[test]
fn an_assignment_to_a_delegate_parameter_is_refused() {
    let source = system(bot(
        "    int Apply(Func<int, int> g) { g = x => x; return g(1); }",
        "        return board.GetLegalMoves()[Apply(x => x)];",
    ));
    let (line, _, _, text) = refused(&source);
    assert_eq!(line, 5, "{text}");
    assert!(
        text.contains("an assignment of a delegate parameter"),
        "{text}"
    );
}

#[test]
fn a_delegate_parameter_of_a_struct_method_is_refused() {
    let source = system(format!(
        "{}struct S {{ public int Apply(Func<int, int> g) => g(1); }}\n",
        bot(
            "",
            "        return board.GetLegalMoves()[new S().Apply(x => x)];"
        )
    ));
    let (_, _, _, text) = refused(&source);
    assert!(
        text.contains("a delegate parameter of a struct's method"),
        "{text}"
    );
}

#[test]
fn a_struct_field_of_the_bot_handed_the_bot_is_refused() {
    // The struct method would change the field while the bot, which holds it, is
    // borrowed for the method's `bot` parameter.
    let source = format!(
        "{}struct S {{ public int n; public int Eval(Board b) {{ n++; return b.PlyCount; }} }}\n",
        bot(
            "    S s;",
            "        return board.GetLegalMoves()[s.Eval(board) * 0];"
        )
    );
    let (line, _, _, text) = refused(&source);
    assert_eq!(line, 7, "{text}");
    assert!(
        text.contains(
            "a struct method that uses the board, timer or bot called on a field of the bot"
        ),
        "{text}"
    );
}

#[test]
fn a_field_initialiser_reaching_the_bot_in_another_type_is_refused() {
    // `new Net()` would need the bot only for its initialisers.
    let source = format!(
        "{}class Net {{ public int w = MyBot.Seed(); }}\n",
        bot(
            "    static int seed = 3;\n    public static int Seed() => seed;\n    Net net = new Net();",
            "        return board.GetLegalMoves()[net.w * 0];"
        )
    );
    let (_, _, _, text) = refused(&source);
    assert!(
        text.contains(
            "a field initialiser that uses the board, timer or bot, in a type other than the bot"
        ),
        "{text}"
    );
}

#[test]
fn a_bot_field_by_ref_to_a_method_taking_the_bot_is_refused() {
    // The callee could read the field through the bot while it holds the reference.
    let source = format!(
        "{}class Net {{ public int Eval(Board b, ref int x) {{ x++; return b.PlyCount; }} }}\n",
        bot(
            "    Net net = new Net();\n    int k;",
            "        return board.GetLegalMoves()[net.Eval(board, ref k) * 0];"
        )
    );
    let (line, _, _, text) = refused(&source);
    assert_eq!(line, 8, "{text}");
    assert!(
        text.contains(
            "a field of the bot passed by `ref` to a method that uses the board, timer or bot"
        ),
        "{text}"
    );
}

#[test]
fn null_as_a_delegate_is_refused() {
    let source = system(bot(
        "",
        "        Func<int, int> f = null;\n        return board.GetLegalMoves()[0];",
    ));
    let (line, _, _, text) = refused(&source);
    assert_eq!(line, 8, "{text}");
    assert!(text.contains("`null` as a `Func<int, int>`"), "{text}");
}

#[test]
fn a_sort_by_a_comparer_with_state_is_refused() {
    // Naming the comparer at each comparison is exact only for one without state.
    let source = format!(
        "using System;\nusing System.Collections.Generic;\n{}class ByKey : IComparer<Move> {{ public int calls; public int Compare(Move a, Move b) {{ calls++; return 0; }} }}\n",
        bot(
            "",
            "        var moves = board.GetLegalMoves();\n        Array.Sort(moves, new ByKey());\n        return moves[0];"
        )
    );
    let (line, _, _, text) = refused(&source);
    assert_eq!(line, 10, "{text}");
    assert!(text.contains("a sort by a comparer object"), "{text}");
}

#[test]
fn a_second_name_for_a_second_board_is_refused() {
    let source = bot(
        "",
        "        Board b = Board.CreateBoardFromFEN(board.GetFenString());\n        Board c = b;\n        return board.GetLegalMoves()[0];",
    );
    let (line, column, kind, text) = refused(&source);
    assert_eq!((line, kind), (8, ErrorKind::Unsupported), "{text}");
    assert!(column > 1, "{text}");
    assert!(
        text.contains("a second name for a board made by `Board.CreateBoardFromFEN`"),
        "{text}"
    );
    assert!(text.ends_with("is not translated"), "{text}");
}

#[test]
fn a_second_board_kept_in_a_field_is_refused() {
    let source = bot(
        "    Board kept;",
        "        kept = Board.CreateBoardFromFEN(board.GetFenString());\n        return board.GetLegalMoves()[0];",
    );
    let (line, _, _, text) = refused(&source);
    assert_eq!(line, 7, "{text}");
    assert!(text.contains("board"), "{text}");
}

#[test]
fn a_second_board_passed_where_a_field_holds_a_board_is_refused() {
    // The callee could reach the handed board through the field while the port's swap
    // put the second board in its place.
    let source = bot(
        "    Board kept;\n    int Count(Board b) => b.GetLegalMoves().Length + kept.GetLegalMoves().Length;",
        "        kept = board;\n        Board b = Board.CreateBoardFromFEN(board.GetFenString());\n        int n = Count(b);\n        return board.GetLegalMoves()[0];",
    );
    let (line, _, _, text) = refused(&source);
    assert_eq!(line, 10, "{text}");
    assert!(
        text.contains("passed to a method where the file keeps a board in a field"),
        "{text}"
    );
}

#[test]
fn a_second_board_passed_where_the_file_catches_is_refused() {
    // A caught exception would skip the swap back and leave the second board in place.
    let source = bot(
        "    int Count(Board b) => b.GetLegalMoves().Length;",
        "        Board b = Board.CreateBoardFromFEN(board.GetFenString());\n        try { int n = Count(b); } catch { }\n        return board.GetLegalMoves()[0];",
    );
    let (line, _, _, text) = refused(&source);
    assert_eq!(line, 8, "{text}");
    assert!(text.contains("where the file catches exceptions"), "{text}");
}

#[test]
fn last_with_a_predicate_that_has_effects_is_refused() {
    // .NET walks an array from its end and stops at the first match: a lambda with
    // effects would run another number of times in the port's forward walk.
    let source = bot(
        "",
        "        int[] a = { 1, 2 };\n        int n = 0;\n        int l = a.Last(x => ++n > 0);\n        return board.GetLegalMoves()[0];",
    );
    let (line, _, _, text) = refused(&source);
    assert_eq!(line, 9, "{text}");
    assert!(
        text.contains("`Last` with a predicate that has effects"),
        "{text}"
    );
}

#[test]
fn div_rem_without_a_typed_out_variable_is_refused() {
    let source = bot(
        "",
        "        int q = Math.DivRem(7, 2, out var r);\n        return board.GetLegalMoves()[0];",
    );
    let (line, _, _, text) = refused(&source);
    assert_eq!(line, 7, "{text}");
    assert!(text.contains("`Math.DivRem`"), "{text}");
}

#[test]
fn a_priority_queue_made_from_items_is_refused() {
    // .NET heapifies the items at once, in another order than enqueuing them one by one.
    let source = bot(
        "",
        "        var pq = new PriorityQueue<Move, int>(board.GetLegalMoves().Select(m => (m, 0)));\n        return board.GetLegalMoves()[0];",
    );
    let (line, _, _, text) = refused(&source);
    assert_eq!(line, 7, "{text}");
    assert!(
        text.contains("this `PriorityQueue<Move, int>` constructor"),
        "{text}"
    );
}

#[test]
fn a_priority_queue_of_class_priorities_is_refused() {
    // C# orders them by the class's `IComparable`, which the runtime does not call.
    let source = bot(
        "    class Node { public int V; }",
        "        var pq = new PriorityQueue<Move, Node>();\n        return board.GetLegalMoves()[0];",
    );
    let (line, _, _, text) = refused(&source);
    assert_eq!(line, 7, "{text}");
    assert!(
        text.contains("a `PriorityQueue` of `Node` priorities"),
        "{text}"
    );
}

#[test]
fn tuple_equality_beside_an_anonymous_type_is_refused() {
    // C#'s `==` on an anonymous type's instances compares references; the port's tuple
    // compares values, so no `==` on a tuple is written in such a file.
    let source = bot(
        "",
        "        var a = new { S = 1, I = 2 };\n        var b = new { S = 1, I = 2 };\n        bool same = a == b;\n        return board.GetLegalMoves()[0];",
    );
    let (line, _, _, text) = refused(&source);
    assert_eq!(line, 9, "{text}");
    assert!(
        text.contains("`==` on a tuple in a file with anonymous types"),
        "{text}"
    );
}

#[test]
fn a_constructor_calling_its_base_is_refused() {
    let source = format!(
        "public class Node\n{{\n    public int V;\n    public Node(int v) : base() {{ V = v; }}\n}}\n{}",
        bot("", "        return board.GetLegalMoves()[0];")
    );
    let (line, _, _, text) = refused(&source);
    assert_eq!(line, 4, "{text}");
    assert!(text.contains("a constructor calling its base"), "{text}");
}

#[test]
fn a_struct_this_with_field_initialisers_is_refused() {
    // Which initialisers `: this()` runs in a struct that has some is not guessed.
    let source = format!(
        "public struct S\n{{\n    public int A = 1;\n    public S(int a) : this() {{ A += a; }}\n}}\n{}",
        bot("", "        return board.GetLegalMoves()[0];")
    );
    let (line, _, _, text) = refused(&source);
    assert_eq!(line, 4, "{text}");
    assert!(
        text.contains("`: this()` in a struct with field initialisers"),
        "{text}"
    );
}

#[test]
fn a_chained_constructor_with_effects_in_its_arguments_is_refused() {
    // C# evaluates them before the field initialisers, which the port runs first.
    let source = format!(
        "public class Node\n{{\n    public int V = 1;\n    public Node(int v, bool b) : this(v++) {{ V += v; }}\n    public Node(int v) {{ V += v; }}\n}}\n{}",
        bot("", "        return board.GetLegalMoves()[0];")
    );
    let (line, _, _, text) = refused(&source);
    assert_eq!(line, 4, "{text}");
    assert!(text.contains("whose arguments change state"), "{text}");
}

#[test]
fn a_null_conditional_call_with_a_value_on_a_class_is_refused() {
    let source = format!(
        "public class Node\n{{\n    public Node Parent;\n    public int Depth() => 1 + (Parent?.Depth() ?? 0);\n}}\n{}",
        bot("", "        return board.GetLegalMoves()[0];")
    );
    let (line, _, _, text) = refused(&source);
    assert_eq!(line, 4, "{text}");
    assert!(
        text.contains("a null-conditional call with a value, on a class instance"),
        "{text}"
    );
}

#[test]
fn an_integer_format_other_than_d_and_x_is_refused() {
    let source = bot(
        "",
        "        long n = 5;\n        string s = n.ToString(\"N0\");\n        return board.GetLegalMoves()[0];",
    );
    let (line, _, _, text) = refused(&source);
    assert_eq!(line, 8, "{text}");
    assert!(
        text.contains("`ToString` of a `long` with this format"),
        "{text}"
    );
}

#[test]
fn move_raw_value_is_the_apis_encoding() {
    // C#'s `RawValue` (and `GetHashCode`) is the API's 16-bit encoding, not the kit's
    // `raw()`: entries decode its bits.
    let source = bot(
        "",
        "        var m = board.GetLegalMoves()[0];\n        int h = m.GetHashCode() ^ m.RawValue;\n        return m;",
    );
    let port = port(&source, &PortOptions::default()).expect("it ports");
    assert!(port.rust.contains("cs::raw_value(m)"), "{}", port.rust);
    assert!(port.rust.contains("cs::hash_code(m)"), "{}", port.rust);
    assert!(!port.rust.contains(".raw()"), "{}", port.rust);
}

#[test]
fn the_text_of_an_enum_of_the_files_own_is_refused() {
    // C# writes the member's name; Rust would write its number.
    let source = bot(
        "    enum Phase { Opening, End }",
        "        string s = \"\" + Phase.End;\n        return board.GetLegalMoves()[0];",
    );
    let (line, _, _, text) = refused(&source);
    assert_eq!(line, 7, "{text}");
    assert!(text.contains("the text of a `Phase`"), "{text}");
}

#[test]
fn an_interpolation_format_the_port_does_not_give_is_refused() {
    // `N2` groups thousands; the port wrote the value without it.
    let source = bot(
        "",
        "        double x = 1234.5;\n        string s = $\"{x:N2}\";\n        return board.GetLegalMoves()[0];",
    );
    let (line, _, _, text) = refused(&source);
    assert_eq!(line, 8, "{text}");
    assert!(
        text.contains("the format `N2` in an interpolated string"),
        "{text}"
    );
}

/// The refusal of `line` (the `Think` body's first line, the file's line 7) in a bot.
fn refused_in_think(line: &str) -> String {
    let source = bot(
        "",
        &format!("        {line}\n        return board.GetLegalMoves()[0];"),
    );
    let (at, _, _, text) = refused(&source);
    assert_eq!(at, 7, "{text}");
    text
}

#[test]
fn a_calendar_field_of_the_clock_is_refused() {
    let text = refused_in_think("int day = DateTime.UtcNow.Day;");
    assert!(text.contains("`Day` of a `DateTime`"), "{text}");
}

#[test]
fn scaling_a_time_span_is_refused() {
    let text = refused_in_think("var twice = TimeSpan.FromSeconds(1) * 2;");
    assert!(text.contains("`*` between `TimeSpan` and `int`"), "{text}");
}

#[test]
fn walking_linked_list_nodes_is_refused() {
    let text = refused_in_think("var next = new LinkedList<int>().AddLast(1).Next;");
    assert!(
        text.contains("the member `Next` of a `LinkedListNode<int>`"),
        "{text}"
    );
}

#[test]
fn a_bit_array_of_bools_is_refused() {
    let text = refused_in_think("var bits = new BitArray(new bool[3]);");
    assert!(text.contains("this `BitArray` constructor"), "{text}");
}

#[test]
fn non_generic_collections_are_refused() {
    let text = refused_in_think("var table = new Hashtable();");
    assert!(text.contains("the type `Hashtable`"), "{text}");
}

#[test]
fn appending_a_number_to_a_string_builder_is_refused() {
    let text = refused_in_think("var sb = new StringBuilder(); sb.Append(3);");
    assert!(text.contains("`Append` of a `int`"), "{text}");
}

#[test]
fn a_second_board_passed_on_from_another_types_method_is_refused() {
    // Bot_66: swapping the board into the bot for the call would need the bot's `self`,
    // which another type's method reaches only through its `bot` parameter.
    let source = format!(
        "{}class T {{ public int F(Board b) {{ var n = Board.CreateBoardFromFEN(b.GetFenString()); return MyBot.Count(n); }} }}\n",
        bot(
            "    public static int Count(Board b) => b.PlyCount;",
            "        return board.GetLegalMoves()[new T().F(board) * 0];"
        )
    );
    let (line, _, _, text) = refused(&source);
    assert_eq!(line, 10, "{text}");
    assert!(
        text.contains("passed to a method from a method of a type other than the bot"),
        "{text}"
    );
}

#[test]
fn environment_exit_is_refused_as_ending_the_host() {
    let source = bot(
        "",
        "        Environment.Exit(0);\n        return board.GetLegalMoves()[0];",
    );
    let (line, _, _, text) = refused(&source);
    assert_eq!(line, 7, "{text}");
    assert!(text.contains("must not end the program"), "{text}");
}

#[test]
fn get_value_cast_to_another_type_is_refused() {
    // Unboxing an `int` as a `long` throws InvalidCastException in C#.
    let source = bot(
        "    int[] a = { 1, 2 };",
        "        long x = (long)a.GetValue(0);\n        return board.GetLegalMoves()[0];",
    );
    let (line, _, _, text) = refused(&source);
    assert_eq!(line, 7, "{text}");
    assert!(text.contains("GetValue"), "{text}");
}

#[test]
fn get_length_of_a_second_dimension_of_piece_lists_is_refused() {
    let source = bot(
        "",
        "        int n = board.GetAllPieceLists().GetLength(1);\n        return board.GetLegalMoves()[0];",
    );
    let (line, _, _, text) = refused(&source);
    assert_eq!(line, 7, "{text}");
    assert!(text.contains("GetLength"), "{text}");
}

#[test]
fn a_string_constructor_of_other_arguments_is_refused() {
    let source = bot(
        "",
        "        string s = new string('a', 2L);\n        return board.GetLegalMoves()[0];",
    );
    let (line, _, _, text) = refused(&source);
    assert_eq!(line, 7, "{text}");
}

#[test]
fn convert_to_uint32_of_a_double_is_refused() {
    let source = bot(
        "",
        "        uint u = System.Convert.ToUInt32(2.5);\n        return board.GetLegalMoves()[0];",
    );
    let (line, _, _, text) = refused(&source);
    assert_eq!(line, 7, "{text}");
    assert!(text.contains("Convert.ToUInt32"), "{text}");
}

#[test]
fn reciprocal_sqrt_estimate_is_refused_as_machine_dependent() {
    let source = bot(
        "",
        "        double r = System.Math.ReciprocalSqrtEstimate(2.0);\n        return board.GetLegalMoves()[0];",
    )
    .replace("System.Math", "Math");
    let (line, _, _, text) = refused(&source);
    assert_eq!(line, 7, "{text}");
    assert!(text.contains("the machine's"), "{text}");
}

#[test]
fn string_format_with_an_argument_it_never_names_is_refused() {
    // C# ignores the unused argument; the port refuses rather than guess it away.
    let source = bot(
        "",
        "        string s = string.Format(\"{0}\", 1, 2);\n        return board.GetLegalMoves()[0];",
    );
    let (line, _, _, text) = refused(&source);
    assert_eq!(line, 7, "{text}");
    assert!(
        text.contains("`string.Format` with these arguments"),
        "{text}"
    );
}

#[test]
fn string_format_with_a_format_it_does_not_give_is_refused() {
    let source = bot(
        "",
        "        string s = string.Format(\"{0:F2}\", 1.5);\n        return board.GetLegalMoves()[0];",
    );
    let (line, _, _, text) = refused(&source);
    assert_eq!(line, 7, "{text}");
}

#[test]
fn a_nested_array_type_is_named_as_csharp_writes_it() {
    let source = bot(
        "    int[,][] grid = new int[2][,];",
        "        return board.GetLegalMoves()[0];",
    );
    let (line, _, _, text) = refused(&source);
    assert_eq!(line, 4, "{text}");
    assert!(
        text.contains("a `int[][,]` where C# expects a `int[,][]`"),
        "{text}"
    );
}

#[test]
fn a_generic_call_with_two_types_for_one_parameter_is_refused() {
    let source = bot(
        "    static T Either<T>(T a, T b) => a;",
        "        long x = Either(1, 2L);\n        return board.GetLegalMoves()[0];",
    );
    let (line, _, _, text) = refused(&source);
    assert_eq!(line, 7, "{text}");
    assert!(
        text.contains("a generic method call whose type arguments differ between arguments"),
        "{text}"
    );
}

#[test]
fn a_generic_call_not_fixing_its_type_parameter_is_refused() {
    let source = bot(
        "    static T Zero<T>(int n) => default(T);",
        "        int x = Zero<int>(1);\n        return board.GetLegalMoves()[0];",
    );
    let (line, _, _, text) = refused(&source);
    assert_eq!(line, 7, "{text}");
    assert!(
        text.contains("a generic method call that does not fix `T` by an argument"),
        "{text}"
    );
}

#[test]
fn a_null_conditional_reference_member_of_a_class_is_refused() {
    let source = format!(
        "public class Node\n{{\n    public Node Parent;\n    public int[] Counts;\n    public int[] Up() => Parent?.Counts;\n}}\n{}",
        bot("", "        return board.GetLegalMoves()[0];")
    );
    let (line, _, _, text) = refused(&source);
    assert_eq!(line, 5, "{text}");
    assert!(
        text.contains("`?.` giving a `int[]` of a class instance"),
        "{text}"
    );
}

#[test]
fn a_catch_reading_its_exception_is_refused() {
    let source = bot(
        "",
        "        try { } catch (System.Exception ex) { string m = ex.Message; }\n        return board.GetLegalMoves()[0];",
    );
    let (line, _, _, text) = refused(&source);
    assert_eq!(line, 7, "{text}");
    assert!(
        text.contains("a `catch` that reads its exception"),
        "{text}"
    );
}

#[test]
fn a_named_argument_out_of_position_is_refused() {
    let source = bot(
        "    static int Sub(int a, int b) => a - b;",
        "        int x = Sub(b: board.PlyCount, a: 2);\n        return board.GetLegalMoves()[0];",
    );
    let (line, _, _, text) = refused(&source);
    assert_eq!(line, 7, "{text}");
    assert!(
        text.contains("named arguments out of order whose evaluation order matters"),
        "{text}"
    );
}

#[test]
fn a_positional_pattern_on_other_than_a_tuple_is_refused() {
    let source = bot(
        "",
        "        int n = 3;\n        int r = n switch { (1, 2) => 1, _ => 0 };\n        return board.GetLegalMoves()[r];",
    );
    let (line, _, _, text) = refused(&source);
    assert_eq!(line, 8, "{text}");
    assert!(text.contains("a positional pattern on a `int`"), "{text}");
}

#[test]
fn a_positional_pattern_naming_an_element_is_refused() {
    let source = bot(
        "",
        "        var t = (a: 1, b: 2);\n        int r = t switch { (a: 1, b: _) => 1, _ => 0 };\n        return board.GetLegalMoves()[r];",
    );
    let (line, _, _, text) = refused(&source);
    assert_eq!(line, 8, "{text}");
    assert!(
        text.contains("a positional pattern naming an element"),
        "{text}"
    );
}

#[test]
fn equals_of_a_class_with_another_type_is_refused() {
    let source = bot(
        "    class Node { public int v; }",
        "        var a = new Node();\n        bool b = a.Equals(5);\n        return board.GetLegalMoves()[0];",
    );
    let (line, _, _, text) = refused(&source);
    assert_eq!(line, 8, "{text}");
    // C# boxes the `5` for `object.Equals`; the port compares only references.
    assert!(text.contains("where C# expects a `Node`"), "{text}");
}

#[test]
fn a_positional_pattern_of_another_arity_is_refused() {
    let source = bot(
        "",
        "        var t = (1, 2);\n        int r = t switch { (1, _, _) => 1, _ => 0 };\n        return board.GetLegalMoves()[r];",
    );
    let (line, _, _, text) = refused(&source);
    assert_eq!(line, 8, "{text}");
    assert!(
        text.contains("a positional pattern of another arity"),
        "{text}"
    );
}

#[test]
fn an_assigned_random_parameter_is_refused() {
    // The port's parameter is the caller's generator: C#'s assignment rebinds only the
    // callee's reference.
    let source = bot(
        "    System.Random rng = new System.Random();\n    static int Draw(System.Random r) { r = new System.Random(1); return r.Next(6); }",
        "        int x = Draw(rng);\n        return board.GetLegalMoves()[0];",
    );
    let (line, _, _, text) = refused(&source);
    assert_eq!(line, 5, "{text}");
    assert!(text.contains("a `Random` parameter assigned"), "{text}");
}

#[test]
fn a_random_argument_out_of_a_list_is_refused() {
    // No place to lend as `&mut`: a list's element is read out as a copy.
    let source = bot(
        "    System.Collections.Generic.List<System.Random> rngs = new();\n    static int Draw(System.Random r) => r.Next(6);",
        "        int x = Draw(rngs[0]);\n        return board.GetLegalMoves()[0];",
    );
    let (line, _, _, text) = refused(&source);
    assert_eq!(line, 8, "{text}");
    assert!(
        text.contains("a `Random` argument that is no variable"),
        "{text}"
    );
}

#[test]
fn the_local_hour_is_refused() {
    // The port's `DateTime.Now` is the UTC clock: its `Hour` would be UTC's, not local.
    let text = refused_in_think("int h = DateTime.Now.Hour;");
    assert!(
        text.contains("`Hour` of a `DateTime` in a file reading `DateTime.Now`"),
        "{text}"
    );
}

#[test]
fn a_binary_operator_after_a_name_under_a_unary_operator_is_refused() {
    // C# reads `-(a) - b` as `(-a) - b`; the grammar as `-((a) - b)`.
    let source = bot(
        "    int a = 1, b = 2;",
        "        int c = -(a) - b;\n        return board.GetLegalMoves()[0];",
    );
    let (line, _, _, text) = refused(&source);
    assert_eq!(line, 7, "{text}");
    assert!(text.contains("a binary operator after `(name)`"), "{text}");
}

#[test]
fn a_try_with_catch_and_finally_is_refused() {
    let source = bot(
        "    int n;",
        "        try { n = 1; } catch { n = 2; } finally { n++; }\n        return board.GetLegalMoves()[0];",
    );
    let (line, _, _, text) = refused(&source);
    assert_eq!(line, 7, "{text}");
    assert!(
        text.contains("a `try` with both `catch` and `finally`"),
        "{text}"
    );
}

#[test]
fn sorting_structs_whose_compare_to_reads_the_board_is_refused() {
    let members = "    struct S : System.IComparable<S>\n    {\n        public int v;\n        public int CompareTo(S o) => v - o.v + b.PlyCount;\n    }\n    static Board b;\n    System.Collections.Generic.List<S> xs = new();";
    let source = bot(
        members,
        "        xs.Sort();\n        return board.GetLegalMoves()[0];",
    );
    let (line, _, _, text) = refused(&source);
    assert_eq!(line, 13, "{text}");
    assert!(
        text.contains("`Sort()` of `S`s without a `CompareTo`"),
        "{text}"
    );
}

#[test]
fn a_null_delegate_assigned_after_other_statements_is_refused() {
    // Only an assignment right after the declaration is sure to come before any call.
    let source = system(bot(
        "",
        "        Func<int, int> f = null;\n        int n = 1;\n        f = x => x + n;\n        return board.GetLegalMoves()[f(0)];",
    ));
    let (line, _, _, text) = refused(&source);
    assert_eq!(line, 8, "{text}");
    assert!(text.contains("`null` as a `Func<int, int>`"), "{text}");
}

#[test]
fn a_null_delegate_assigned_twice_is_refused() {
    let source = system(bot(
        "",
        "        Func<int, int> f = null;\n        f = x => x;\n        f = x => x + 1;\n        return board.GetLegalMoves()[f(0)];",
    ));
    let (line, _, _, text) = refused(&source);
    assert_eq!(line, 8, "{text}");
    assert!(text.contains("`null` as a `Func<int, int>`"), "{text}");
}

#[test]
fn a_generic_delegate_type_is_refused() {
    let source = bot(
        "    delegate T Pick<T>(T a, T b);",
        "        return board.GetLegalMoves()[0];",
    );
    let (line, _, _, text) = refused(&source);
    assert_eq!(line, 4, "{text}");
    assert!(text.contains("a generic delegate type"), "{text}");
}

#[test]
fn a_delegate_type_with_a_ref_parameter_is_refused() {
    // `Func` has no `ref` parameters: such a delegate type is no `Func`.
    let source = bot(
        "    delegate void Bump(ref int a);",
        "        return board.GetLegalMoves()[0];",
    );
    let (line, _, _, text) = refused(&source);
    assert_eq!(line, 4, "{text}");
    assert!(text.contains("a delegate type with a `ref`"), "{text}");
}

#[test]
fn a_type_alias_is_refused() {
    // `using D = ...;` names another type; `D` is not translated.
    let source = format!(
        "using D = System.Collections.Generic.Dictionary<object, object>;\n{}",
        bot("    D env;", "        return board.GetLegalMoves()[0];")
    );
    let (line, _, _, text) = refused(&source);
    assert_eq!(line, 5, "{text}");
    assert!(text.contains("the type `D`"), "{text}");
}

#[test]
fn the_type_array_is_refused() {
    let text = refused_in_think("Array a = new int[3];");
    assert!(text.contains("the type `Array`"), "{text}");
}

#[test]
fn a_random_a_class_holds_compared_with_null_is_refused() {
    // A class's fields are `Var`s whose reads are copies: no generator may be one.
    let source = format!(
        "{}class Node {{ public System.Random R; public int Draw() {{ if (R == null) R = new System.Random(1); return R.Next(6); }} }}\n",
        bot("", "        return board.GetLegalMoves()[0];")
    );
    let (line, _, _, text) = refused(&source);
    assert_eq!(line, 10, "{text}");
    assert!(text.contains("a `Random` compared with `null`"), "{text}");
}

#[test]
fn a_null_coalescing_assignment_as_a_value_is_refused() {
    let source = bot(
        "    int[] table;",
        "        int n = (table ??= new int[3]).Length;\n        return board.GetLegalMoves()[n];",
    );
    let (line, _, _, text) = refused(&source);
    assert_eq!(line, 7, "{text}");
    assert!(text.contains("`??=`"), "{text}");
}

#[test]
fn a_null_coalescing_assignment_to_an_element_with_an_effect_is_refused() {
    // Its index would be evaluated twice, for the test and for the assignment.
    let source = format!(
        "{}class Node {{ public Node[] Kids = new Node[2]; int i; public void Grow() {{ Kids[i++] ??= new Node(); }} }}\n",
        bot("", "        return board.GetLegalMoves()[0];")
    );
    let (line, _, _, text) = refused(&source);
    assert_eq!(line, 10, "{text}");
    assert!(
        text.contains("`??=` of an element whose receiver or index has side effects"),
        "{text}"
    );
}

#[test]
fn a_null_coalescing_assignment_to_a_string_is_refused() {
    // The port's strings are never null: `??=` would never assign.
    let source = bot(
        "    string name;",
        "        name ??= \"x\";\n        return board.GetLegalMoves()[0];",
    );
    let (line, _, _, text) = refused(&source);
    assert_eq!(line, 7, "{text}");
    assert!(text.contains("`??=` of a `string`"), "{text}");
}

#[test]
fn a_random_stored_under_a_second_name_is_refused() {
    let source = bot(
        "    System.Random rng = new System.Random(1);",
        "        System.Random r = rng;\n        return board.GetLegalMoves()[r.Next(2)];",
    );
    let (line, _, _, text) = refused(&source);
    assert_eq!(line, 7, "{text}");
    assert!(
        text.contains("a `Random` stored or returned from a variable or field"),
        "{text}"
    );
}

#[test]
fn a_finalizer_doing_more_than_clearing_its_collections_is_refused() {
    let busy = bot(
        "    static int spins;\n    ~MyBot() { while (spins < 10) spins++; }",
        "        return board.GetLegalMoves()[0];",
    );
    let (line, _, _, text) = refused(&busy);
    assert_eq!(line, 5, "{text}");
    assert!(
        text.contains("a finalizer") && text.contains("doing more"),
        "{text}"
    );
    let shared = bot(
        "    System.Collections.Generic.List<int> seen = new();\n    ~MyBot() { seen.Clear(); }\n    void Keep(System.Collections.Generic.List<int> l) { }\n    void Hand() { Keep(seen); }",
        "        return board.GetLegalMoves()[0];",
    );
    let (line, _, _, text) = refused(&shared);
    assert_eq!(line, 5, "{text}");
    assert!(text.contains("other code may also hold"), "{text}");
}

#[test]
fn inheritance_the_port_cannot_flatten_is_refused() {
    let base_ctor = bot(
        "    class A { public int x; public A() { x = 1; } }\n    class B : A { public int y; }",
        "        var b = new B();\n        return board.GetLegalMoves()[0];",
    );
    let (line, _, _, text) = refused(&base_ctor);
    assert_eq!(line, 4, "{text}");
    assert!(
        text.contains("a constructor of a class another derives from"),
        "{text}"
    );
    let hiding = bot(
        "    class A { public int x; public int F() => x; }\n    class B : A { public new int F() => 2; }",
        "        var b = new B();\n        return board.GetLegalMoves()[0];",
    );
    let (line, _, _, text) = refused(&hiding);
    assert_eq!(line, 5, "{text}");
    assert!(
        text.contains("a member named like one of its base class's"),
        "{text}"
    );
}

#[test]
fn a_derived_instance_used_as_its_base_is_not_translated() {
    let source = bot(
        "    class A { public int x; }\n    class B : A { public int y; }",
        "        A a = new B();\n        return board.GetLegalMoves()[0];",
    );
    assert!(port(&source, &PortOptions::default()).is_err());
}

#[test]
fn a_with_expression_on_a_class_is_refused() {
    let source = bot(
        "    class C { public int x; }",
        "        var c = new C();\n        var d = c with { x = 2 };\n        return board.GetLegalMoves()[0];",
    );
    let (line, _, _, text) = refused(&source);
    assert_eq!(line, 8, "{text}");
    assert!(text.contains("a `with` expression on a `C`"), "{text}");
}

#[test]
fn operators_of_the_file_the_port_does_not_call_are_refused() {
    let equality = bot(
        "    class V { public int x; public static bool operator ==(V a, V b) => a.x == b.x; public static bool operator !=(V a, V b) => a.x != b.x; }",
        "        return board.GetLegalMoves()[0];",
    );
    let (_, _, _, text) = refused(&equality);
    assert!(text.contains("this operator of the file's own"), "{text}");
    let mixed = bot(
        "    class V { public int x; public static V operator +(V a, V b) => a; }",
        "        var v = new V();\n        var w = v + 1;\n        return board.GetLegalMoves()[0];",
    );
    let (line, _, _, text) = refused(&mixed);
    assert_eq!(line, 8, "{text}");
    assert!(
        text.contains("an operator of the file's own on `V` and `int`"),
        "{text}"
    );
    let compound = bot(
        "    class V { public int x; public static V operator +(V a, V b) => a; }",
        "        var v = new V();\n        v += v;\n        return board.GetLegalMoves()[0];",
    );
    let (line, _, _, text) = refused(&compound);
    assert_eq!(line, 8, "{text}");
    assert!(
        text.contains("a compound assignment with an operator"),
        "{text}"
    );
}

#[test]
fn property_setter_assignments_the_port_cannot_call_once_are_refused() {
    let members = "    class N { public int[] v = new int[2]; public int P { get => v[0]; set => v[0] = value; } }\n    N[] nodes = { new N() };";
    let compound = bot(
        members,
        "        nodes[0].P += 1;\n        return board.GetLegalMoves()[0];",
    );
    let (line, _, _, text) = refused(&compound);
    assert_eq!(line, 8, "{text}");
    assert!(
        text.contains("this assignment to a property with a setter body"),
        "{text}"
    );
    let as_value = bot(
        members,
        "        var n = new N();\n        int x = n.P = 3;\n        return board.GetLegalMoves()[0];",
    );
    let (line, _, _, text) = refused(&as_value);
    assert_eq!(line, 9, "{text}");
    assert!(
        text.contains("this assignment to a property with a setter body"),
        "{text}"
    );
    let init = bot(
        "    int p;\n    int P { get => p; init => p = value; }",
        "        return board.GetLegalMoves()[0];",
    );
    let (line, _, _, text) = refused(&init);
    assert_eq!(line, 5, "{text}");
    assert!(text.contains("a property with an `init` body"), "{text}");
}

#[test]
fn an_as_conversion_that_is_not_an_identity_is_refused() {
    let source = bot(
        "    class A { public int x; }\n    class B { public int y; }",
        "        var a = new A();\n        var b = a as B;\n        return board.GetLegalMoves()[0];",
    );
    let (line, _, _, text) = refused(&source);
    assert_eq!(line, 9, "{text}");
    assert!(
        text.contains("an `as` conversion from `A` to `B`"),
        "{text}"
    );
}

#[test]
fn a_named_argument_skipping_a_required_parameter_is_refused() {
    let source = bot(
        "    static int Sub(int a, int b, int c = 0) => a - b;",
        "        int x = Sub(1, c: 2);\n        return board.GetLegalMoves()[0];",
    );
    let (line, _, _, text) = refused(&source);
    assert_eq!(line, 7, "{text}");
    assert!(text.contains("skipping a required parameter"), "{text}");
}

#[test]
fn unsafe_code_is_refused_by_name() {
    let source = bot(
        "    unsafe int First(int[] a) { fixed (int* p = a) { return *p; } }",
        "        return board.GetLegalMoves()[0];",
    );
    let (line, _, _, text) = refused(&source);
    assert_eq!(line, 4, "{text}");
    assert!(text.contains("unsafe code"), "{text}");
}

#[test]
fn an_unbalanced_preprocessor_directive_is_refused() {
    let source = bot("", "#endif\n        return board.GetLegalMoves()[0];");
    let (line, _, _, text) = refused(&source);
    assert_eq!(line, 7, "{text}");
    assert!(text.contains("an unbalanced `#endif`"), "{text}");
}

#[test]
fn an_iterator_is_refused() {
    let source = bot(
        "    System.Collections.Generic.IEnumerable<int> Count() { yield return 1; }",
        "        return board.GetLegalMoves()[0];",
    );
    let (line, _, _, text) = refused(&source);
    assert_eq!(line, 4, "{text}");
    assert!(text.contains("an iterator (`yield`)"), "{text}");
}

#[test]
fn an_open_range_of_a_call_is_refused() {
    let source = bot(
        "    PieceList[] Lists(Board b) => b.GetAllPieceLists();",
        "        foreach (PieceList l in Lists(board)[6..]) { }\n        return board.GetLegalMoves()[0];",
    );
    let (line, _, _, text) = refused(&source);
    assert_eq!(line, 7, "{text}");
    assert!(text.contains("an open range of a call"), "{text}");
}

#[test]
fn a_compound_assignment_to_a_big_integer_element_is_refused() {
    // `a[i()] <<= 1` would compute the element's place twice.
    let text = refused_in_think("var a = new BigInteger[2]; a[1] <<= 3;");
    assert!(
        text.contains("a compound assignment to a `BigInteger` element"),
        "{text}"
    );
}

#[test]
fn a_big_integer_shift_by_a_long_is_refused() {
    // C#'s `BigInteger` shift counts are `int`s: a `long` count does not convert.
    let text = refused_in_think("var b = (BigInteger)5m << 100L;");
    assert!(
        text.contains("`<<` between `BigInteger` and `long`"),
        "{text}"
    );
}

#[test]
fn an_increment_in_checked_code_is_refused() {
    // C# throws when `++` overflows there; the port's `+= 1` would wrap.
    let text = refused_in_think("int x = 0; checked { x++; }");
    assert!(
        text.contains("`++` or `--` in a `checked` context"),
        "{text}"
    );
}

#[test]
fn a_narrowing_cast_in_checked_code_is_refused() {
    // `(byte)300` of a variable throws there; the port's `as u8` would wrap.
    let text = refused_in_think("int x = 300; byte y = checked((byte)x);");
    assert!(
        text.contains("an explicit integer conversion in a `checked` context"),
        "{text}"
    );
}

#[test]
fn a_checked_block_of_other_statements_is_refused() {
    // Nested statements would need the overflow checks too.
    let text = refused_in_think("int x = 0; checked { if (x == 0) x = 1; }");
    assert!(
        text.contains("a `checked` block of statements other than expressions"),
        "{text}"
    );
}

#[test]
fn library_members_without_an_exact_translation_are_refused() {
    for (members, body, line, needle) in LIBRARY_REFUSALS {
        refused_with(members, body, *line, needle);
    }
}

/// `body` (in `Think`, after `members`) is refused on its `line` with a message holding
/// `needle`.
fn refused_with(members: &str, body: &str, line: u32, needle: &str) {
    let source = bot(
        members,
        &format!("{body}\n        return board.GetLegalMoves()[0];"),
    );
    let (at, _, _, text) = refused(&source);
    assert_eq!(at, line, "{text}");
    assert!(text.contains(needle), "{text}");
}

/// .NET library members without an exact translation: (members, body, line, message).
const LIBRARY_REFUSALS: &[(&str, &str, u32, &str)] = &[
    // A struct of the file's own may have a parameterless constructor to run.
    (
        "    struct P { public int X; }",
        "        var ps = new P[2];\n        ps.Initialize();",
        8,
        "`Initialize` of a `P[]`",
    ),
    (
        "",
        "        var t = (PieceType)System.Enum.ToObject(PieceType.Pawn.GetType(), 1);",
        7,
        "`Enum.ToObject` of a type not named by `typeof`",
    ),
    (
        "",
        "        var b = new bool[2];\n        System.Buffer.BlockCopy(b, 0, new byte[2], 0, 2);",
        8,
        "`Buffer.BlockCopy` of a `bool[]`",
    ),
    (
        "",
        "        string s = string.Concat(new System.Collections.Generic.List<int> { 1 });",
        7,
        "`string.Concat` of a `List<int>`",
    ),
    // The port's clock is UTC: a local date would differ.
    (
        "",
        "        var now = System.DateTime.Now;\n        double d = now.ToOADate();",
        8,
        "`ToOADate` of a `DateTime` in a file reading `DateTime.Now`",
    ),
    // A list's enumerator checks for changes and resets `Current` at the end.
    (
        "",
        "        var e = new System.Collections.Generic.List<int> { 1 }.GetEnumerator();",
        7,
        "`GetEnumerator`",
    ),
    (
        "    const int W = 5;",
        "        string s = $\"{1,W}\";",
        7,
        "an alignment in an interpolated string that is not an integer literal",
    ),
    (
        "",
        "        var g = new int[2, 2];\n        g.SetValue(1, 0);",
        8,
        "`SetValue`",
    ),
    (
        "",
        "        var a = new int[2];\n        var b = System.Linq.Enumerable.SkipWhile(a, (x, i) => i < 1);",
        8,
        "`SkipWhile`",
    ),
    // Non-generic collections hold `object`s: a key's or value's type is not static.
    (
        "    System.Collections.Hashtable table = new();",
        "",
        4,
        "the type `Hashtable` (a non-generic collection",
    ),
    (
        "    System.Collections.Specialized.OrderedDictionary table = new();",
        "",
        4,
        "the type `OrderedDictionary` (a non-generic",
    ),
    // The runtime's priority queue orders by C#'s default comparison only.
    (
        "    class ByX : System.Collections.Generic.IComparer<int> { public int Compare(int a, int b) => b - a; }",
        "        var q = new System.Collections.Generic.PriorityQueue<int, int>(new ByX());",
        7,
        "constructor",
    ),
];

#[test]
fn a_lambda_in_a_delegate_array_is_refused() {
    // A lambda may read locals: only method groups are read again at each call.
    let source = system(bot(
        "",
        "        int n = 1;\n        Func<int>[] fs = { () => n };\n        return board.GetLegalMoves()[fs[0]()];",
    ));
    let (line, _, _, text) = refused(&source);
    assert_eq!(line, 9, "{text}");
    assert!(text.contains("a delegate stored in a field"), "{text}");
}

#[test]
fn a_delegate_array_written_or_read_otherwise_is_refused() {
    for (use_, line) in [("fs[0] = G;", 9), ("var g = fs[0];", 9)] {
        let source = system(bot(
            "    int F() => 0;\n    int G() => 1;",
            &format!(
                "        Func<int>[] fs = {{ F, G }};\n        {use_}\n        return board.GetLegalMoves()[fs[0]()];"
            ),
        ));
        let (l, _, _, text) = refused(&source);
        assert_eq!(l, line, "{use_}: {text}");
        assert!(text.contains("a delegate stored in a field"), "{text}");
    }
}

#[test]
fn a_delegate_array_taking_arguments_is_refused() {
    // C# checks the index before it evaluates the arguments.
    let source = system(bot(
        "    int F(int x) => x;",
        "        Func<int, int>[] fs = { F };\n        return board.GetLegalMoves()[fs[0](0)];",
    ));
    let (line, _, _, text) = refused(&source);
    assert_eq!(line, 8, "{text}");
    assert!(text.contains("a delegate stored in a field"), "{text}");
}

#[test]
fn a_dictionary_of_delegates_with_a_lambda_reading_a_field_is_refused() {
    // Only a literal is sure to mean the same read at the call.
    let members = "    Dictionary<PieceType, Func<int>> d;\n    int x;\n    public MyBot() { d = new() { { PieceType.Pawn, () => x } }; }";
    let body = "        return board.GetLegalMoves()[d[PieceType.Pawn]()];";
    let source = format!(
        "using System.Collections.Generic;\n{}",
        system(bot(members, body))
    );
    let (line, _, _, text) = refused(&source);
    assert_eq!(line, 6, "{text}");
    assert!(text.contains("a delegate stored in a field"), "{text}");
}

#[test]
fn a_dictionary_of_delegates_changed_after_the_constructor_is_refused() {
    let members = "    Dictionary<PieceType, Func<int>> d;\n    int F() => 0;\n    public MyBot() { d = new() { { PieceType.Pawn, F } }; }";
    let body = "        d.Remove(PieceType.Pawn);\n        return board.GetLegalMoves()[d[PieceType.Pawn]()];";
    let source = format!(
        "using System.Collections.Generic;\n{}",
        system(bot(members, body))
    );
    let (line, _, _, text) = refused(&source);
    assert_eq!(line, 6, "{text}");
    assert!(text.contains("a delegate stored in a field"), "{text}");
}

#[test]
fn a_range_of_a_name_declared_a_span_in_a_file_with_arrays_is_refused() {
    let source = bot(
        "    int[] data = new int[8];\n    int First(System.Span<int> data) => data[1..3][0];",
        "        return board.GetLegalMoves()[0];",
    );
    let (line, _, _, text) = refused(&source);
    assert_eq!(line, 5, "{text}");
    assert!(
        text.contains("may be an array (C# copies) or a span (C# shares)"),
        "{text}"
    );
}

#[test]
fn console_output_of_an_untranslated_call_of_the_files_own_is_refused() {
    let source = bot(
        "    int F() => 12345;",
        "        Console.WriteLine(F().ToString()[1..3]);\n        return board.GetLegalMoves()[0];",
    );
    let (line, _, _, text) = refused(&format!("using System;\n{source}"));
    assert_eq!(line, 8, "{text}");
    assert!(
        text.contains("a range or index from the end here"),
        "{text}"
    );
}

#[test]
fn a_nullable_timer_passed_as_a_timer_is_refused() {
    let source = bot(
        "    int Read(Timer t) => t.MillisecondsRemaining;\n    int Probe(Timer? t) => Read(t);",
        "        Probe(null);\n        return board.GetLegalMoves()[0];",
    );
    let (line, _, _, text) = refused(&source);
    assert_eq!(line, 5, "{text}");
    assert!(
        text.contains("a `Timer?` that may be null where C# expects a `Timer`"),
        "{text}"
    );
}

#[test]
fn a_timer_with_side_effects_as_a_nullable_timer_is_refused() {
    let source = bot(
        "    int n;\n    Timer Tick(Timer t) { n++; return t; }\n    int Probe(Timer? t) => t == null ? 0 : 1;",
        "        Probe(Tick(timer));\n        return board.GetLegalMoves()[0];",
    );
    let (line, _, _, text) = refused(&source);
    assert_eq!(line, 9, "{text}");
    assert!(
        text.contains("a `Timer` with side effects as a `Timer?`"),
        "{text}"
    );
}

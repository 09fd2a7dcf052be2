//! The counting examples of docs/rules.md (section 5) and a passing and
//! failing case for every counting rule.

mod common;

use common::{RULES_MD, count_file, count_stmt, documented, in_fn};

// ---- The counting table of docs/rules.md ----

/// The cost of a documented snippet as a whole file.
fn example_file(src: &str) -> usize {
    documented(src);
    count_file(src)
}

/// The cost of a documented snippet as function statements.
fn example_stmt(src: &str) -> usize {
    documented(src);
    count_stmt(src)
}

#[test]
fn example_shift_function() {
    assert_eq!(example_file("pub fn f(x: u64) -> u64 { x << 1 }"), 10);
}

#[test]
fn example_nested_generics_close_with_one_shift_token() {
    assert_eq!(example_stmt("let v: Vec<Vec<u8>> = vec![];"), 12);
}

#[test]
fn example_doc_comment_is_free() {
    documented("`/// docs` + newline + `struct S;`");
    assert_eq!(count_file("/// docs\nstruct S;"), 2);
}

#[test]
fn example_string_costs_its_characters() {
    assert_eq!(example_stmt("let s = \"abc\";"), 8);
}

#[test]
fn example_method_calls_and_char_literal() {
    assert_eq!(example_stmt("m.is_capture() && 'a'.is_ascii()"), 8);
}

// ---- Rule 1: the `()` of a C# property read ----

#[test]
fn example_property_reads_cost_no_brackets() {
    assert_eq!(example_stmt("let k = b.key() ^ b.ply_count() as u64;"), 12);
}

#[test]
fn example_csharp_methods_keep_their_brackets() {
    assert_eq!(
        example_stmt("if b.is_in_check() { b.legal_moves().len() } else { 0 }"),
        15
    );
}

#[test]
fn example_a_field_of_the_name_makes_the_brackets_cost() {
    let src = "struct S { len: usize }\nfn f(s: S, v: Vec<u8>) -> usize { s.len + v.len() }";
    documented(&src.replace('\n', "` + newline + `"));
    assert_eq!(count_file(src), 25);
    // Without the field, `v.len()` reads a property: its `()` is free.
    assert_eq!(
        count_file("struct S { n: usize }\nfn f(s: S, v: Vec<u8>) -> usize { s.n + v.len() }"),
        24
    );
}

#[test]
fn example_a_property_read_in_a_file_macro_costs() {
    assert_eq!(example_stmt("m!(b.key());"), 7);
}

#[test]
fn every_property_name_in_the_rules_is_the_counters() {
    // docs/rules.md lists the names; the counter's list is the same, name for name.
    let section = RULES_MD
        .split("The names, whatever type they are called on:")
        .nth(1)
        .and_then(|rest| rest.split("The `*_number()` members").next())
        .expect("docs/rules.md lists the property names");
    let mut documented: Vec<&str> = section
        .split('`')
        .skip(1)
        .step_by(2)
        .filter(|name| name.chars().all(|c| c.is_ascii_lowercase() || c == '_'))
        .collect();
    documented.sort_unstable();
    let mut counted = token_counter::PROPERTY_READS.to_vec();
    counted.sort_unstable();
    assert_eq!(documented, counted);
    // Each is free after `.` with an empty `()`, and costs with an argument.
    for name in token_counter::PROPERTY_READS {
        assert_eq!(count_stmt(&format!("x.{name}();")), 3, "{name}");
        assert_eq!(count_stmt(&format!("x.{name}(1);")), 5, "{name}");
    }
}

#[test]
fn no_other_empty_brackets_are_free() {
    // A name not on the list, a zero-argument C# method, a turbofish, a call of a
    // field's value, a path call, a free function: each pays its `(`.
    for (src, cost) in [
        ("x.eval();", 4),
        ("x.legal_moves();", 4),
        ("x.len::<u8>();", 8),
        ("(x.len)();", 5),
        ("Vec::<u8>::len();", 8),
        ("len();", 2),
        ("x.len()();", 4),
    ] {
        assert_eq!(count_stmt(src), cost, "{src}");
    }
}

#[test]
fn a_free_bracket_carries_nothing_into_a_macro() {
    // A file macro's matcher could tell `x.len()` from `x.len`: there the `()` costs,
    // nested blocks and standard macros included.
    assert_eq!(count_stmt("m!(x.len());"), count_stmt("m!(x.len);") + 1);
    assert_eq!(count_stmt("m!({ x.len() });"), 8);
    assert_eq!(count_stmt("m!(vec![x.len()]);"), 10);
    // A `macro_rules!` body is not parsed: its calls pay, and so do the arguments of
    // its own invocations.
    assert_eq!(
        count_file("macro_rules! m { ($x:expr) => { $x.len() }; }"),
        count_file("macro_rules! m { ($x:expr) => { $x.n }; }") + 1
    );
    // Arguments of a standard macro are not parsed either: a read there pays.
    assert_eq!(
        count_stmt("println!(\"{}\", x.len());"),
        count_stmt("println!(\"{}\", x.n);") + 1
    );
}

// ---- Rule 1: the braces of an `if` that stands for `?:` ----

#[test]
fn example_an_if_chain_as_a_value_costs_what_the_ternaries_do() {
    assert_eq!(
        example_stmt("let x = if a { 1 } else if b { 2 } else { 3 };"),
        12
    );
}

#[test]
fn example_a_functions_last_if_is_its_value() {
    assert_eq!(
        example_file("fn f(a: bool) -> i32 { if a { 1 } else { -1 } }"),
        13
    );
}

#[test]
fn example_an_if_statement_keeps_its_braces() {
    assert_eq!(example_stmt("if a { f() } else { g() }"), 9);
}

#[test]
fn example_a_branch_with_a_statement_keeps_its_braces() {
    assert_eq!(example_stmt("let x = if a { f(); 1 } else { 2 };"), 12);
}

#[test]
fn example_an_if_in_a_file_macro_keeps_its_braces() {
    assert_eq!(example_stmt("m!(if a { 1 } else { 2 });"), 10);
}

#[test]
fn ternary_braces_only_where_a_value_is_made() {
    for (src, cost) in [
        // No `else`: no value, no `?:`.
        ("let x = if a { 1 };", 7),
        // A value anywhere: an argument, an operand, a field, a closure's body.
        ("f(if a { 1 } else { 2 });", 7),
        ("let x = 3 + -if a { 1 } else { 2 };", 11),
        ("let s = S { v: if a { 1 } else { 2 } };", 11),
        ("let c = |a| if a { 1 } else { 2 };", 10),
        // A function without a return type returns no value: its last `if` is a statement.
        ("fn g() { if a { f() } else { g() } }", 13),
        // A statement chain keeps every brace, its `else if` links included.
        ("if a { 1 } else if b { 2 } else { 3 }", 12),
        // A branch that is itself a block: the branch's `{` is free, the inner one costs.
        ("let x = if a { { 1 } } else { 2 };", 9),
        // A chain whose last link has no `else`, or a branch with a `let`, is no `?:`.
        ("let x = if a { 1 } else if b { 2 };", 12),
        ("let x = if a { let y = 1; y } else { 2 };", 14),
    ] {
        assert_eq!(count_stmt(src), cost, "{src}");
    }
}

#[test]
fn a_field_anywhere_in_the_file_prices_its_name_everywhere() {
    // A field of a struct, a union, an enum's struct variant, or in a nested module:
    // `x.key()` and `x.key` would both compile on that type, so the `()` would be a bit.
    for decl in [
        "struct S { key: u64 }",
        "union U { key: u64 }",
        "enum E { A { key: u64 } }",
        "mod m { pub struct S { pub key: u64 } }",
        "fn g() { struct T { key: u8 } }",
    ] {
        let with = count_file(&format!("{decl}\nfn f(b: Board) -> u64 {{ b.key() }}"));
        let without = count_file(&format!("{decl}\nfn f(b: Board) -> u64 {{ b.key }}"));
        assert_eq!(with, without + 1, "{decl}");
    }
}

#[test]
fn example_debug_line() {
    documented("x += 1; // #DEBUG");
    let r = in_fn("x += 1; // #DEBUG");
    assert_eq!((r.tokens - common::WRAPPER, r.debug_tokens), (0, 3));
}

#[test]
fn example_visibility_in_a_file_macro_costs() {
    // Free, `pub(in a b c)` would carry any code into a matcher for nothing.
    assert_eq!(example_stmt("m!(pub(in a b c));"), 9);
}

#[test]
fn example_semicolons_in_a_file_macro_cost() {
    assert_eq!(example_stmt("m!(;;;;);"), 7);
}

#[test]
fn example_commas_in_a_file_macro_cost() {
    assert_eq!(example_stmt("m!(a, b);"), 6);
}

#[test]
fn example_a_variant_mark_is_a_free_comment() {
    assert_eq!(example_file("const D: i32 = 3; // vary 1..=4"), 5);
    assert_eq!(count_file("const D: i32 = 3;"), 5);
}

#[test]
fn example_a_variant_may_cost_more_than_its_bot() {
    assert_eq!(example_file("const D: i32 = -1; // vary -1..=4"), 6);
}

#[test]
fn example_commas_in_a_standard_macro_stay_free() {
    assert_eq!(example_stmt("vec![a, b];"), 5);
}

#[test]
fn example_a_standard_macro_inside_a_file_macro_costs() {
    assert_eq!(example_stmt("m!(vec![a, b]);"), 9);
}

#[test]
fn example_a_redefined_standard_name_loses_its_exception() {
    documented("`macro_rules! vec { () => {} }` + newline + `vec![a, b];`");
    assert_eq!(count_stmt("macro_rules! vec { () => {} }\nvec![a, b];"), 13);
    assert_eq!(count_stmt("macro_rules! vec { () => {} }"), 7);
}

#[test]
fn example_a_macro_rules_body_keeps_free_syntax() {
    assert_eq!(
        example_file("macro_rules! m { ($a:expr) => { f($a); g($a); }; }"),
        18
    );
}

// ---- Rule 1: free tokens ----

#[test]
fn whitespace_and_comments_are_free() {
    let plain = count_stmt("let a = 1;");
    assert_eq!(
        count_stmt("let   a\n=\t1 ;  // note\n/* block /* nested */ */"),
        plain
    );
    assert_eq!(
        plain, 4,
        "a statement without comments still costs its tokens"
    );
}

#[test]
fn every_doc_comment_form_is_free() {
    let base = count_file("struct S;");
    for doc in [
        "/// d\n",
        "/** d */\n",
        "#[doc = \"d\"]\n",
        "#[doc = r\"d\"]\n",
    ] {
        assert_eq!(count_file(&format!("{doc}struct S;")), base, "{doc:?}");
    }
    for inner in ["//! d\n", "/*! d */\n", "#![doc = \"d\"]\n"] {
        assert_eq!(count_file(&format!("{inner}struct S;")), base, "{inner:?}");
    }
    // Other attributes are not free: `# [ doc ( hidden`.
    assert_eq!(count_file("#[doc(hidden)]\nstruct S;"), base + 5);
}

#[test]
fn visibility_is_free_in_full() {
    let base = count_file("fn f() {}");
    for vis in [
        "pub",
        "pub(crate)",
        "pub(super)",
        "pub(self)",
        "pub(in crate::m)",
    ] {
        assert_eq!(count_file(&format!("{vis} fn f() {{}}")), base, "{vis}");
    }
    // `pub (u8, u16)` in a tuple struct is `pub` and a tuple type, as rustc
    // reads it: the tuple costs `( u8 u16`.
    assert_eq!(
        count_file("struct T(pub (u8, u16));"),
        count_file("struct T((u8, u16));")
    );
    assert_eq!(count_file("struct T((u8, u16));"), 6);
}

#[test]
fn semicolons_commas_and_closing_delimiters_are_free() {
    assert_eq!(count_stmt("f(a, b);"), 4);
    assert_eq!(count_stmt("f(a, b)"), 4);
    assert_eq!(count_stmt("let x = [[1, 2], [3, 4]];"), 10);
}

// ---- Rule 2: multi-character punctuation ----

#[test]
fn every_multi_character_operator_costs_one() {
    for op in [
        "==", "!=", "<=", ">=", "&&", "||", "<<", ">>", "+", "-", "*", "/", "%", "^", "&", "|",
        "<", ">",
    ] {
        assert_eq!(count_stmt(&format!("let _ = a {op} b;")), 6, "{op}");
    }
    for op in [
        "+=", "-=", "*=", "/=", "%=", "^=", "&=", "|=", "<<=", ">>=", "=",
    ] {
        assert_eq!(count_stmt(&format!("a {op} b;")), 3, "{op}");
    }
    assert_eq!(count_stmt("let _ = a..b;"), 6);
    assert_eq!(count_stmt("let _ = a..=b;"), 6);
    assert_eq!(count_stmt("let _ = std::cmp::max;"), 8);
    // `let _ = | x u8 u8 { x`: the closure's closing `|`, `:` and `->` are free.
    assert_eq!(count_stmt("let _ = |x: u8| -> u8 { x };"), 9);
    assert_eq!(count_stmt("match x { _ => 1 }"), 6);
    assert_eq!(count_file("macro_rules! m { (a ... b) => {} }"), 10);
}

#[test]
fn separated_characters_are_separate_tokens() {
    // `> >` is two tokens where `>>` is one; `&&` is one, `& &` two.
    assert_eq!(count_stmt("let v: Vec<Vec<u8> > = vec![];"), 13);
    assert_eq!(count_stmt("let _ = a && b;"), 6);
    assert_eq!(count_stmt("let _ = & &b;"), 6);
    // Maximal munch of the reference: `&&=` is `&&` `=`, `<-` is `<` `-`.
    assert_eq!(count_stmt("let _ = a < -b;"), count_stmt("let _ = a<-b;"));
    assert_eq!(count_stmt("let _ = a<-b;"), 7);
    assert_eq!(count_stmt("let _ = x::<u8>;"), 8);
}

// ---- Rule 3: lifetimes, labels, identifiers ----

#[test]
fn lifetimes_and_labels_cost_one() {
    assert_eq!(count_file("fn f<'a>(x: &'a u8) {}"), 11);
    assert_eq!(count_stmt("'outer: loop { break 'outer; }"), 5);
    assert_eq!(count_file("fn f(x: &'static str) {}"), 8);
}

#[test]
fn identifiers_keywords_and_raw_identifiers_cost_one() {
    assert_eq!(count_stmt("let r#type = self_;"), 4);
    assert_eq!(count_stmt("let a_very_long_identifier_name = b;"), 4);
}

// ---- Rule 4: numbers and characters ----

#[test]
fn numbers_and_characters_cost_one() {
    for lit in [
        "0xFFFF_FFFF_FFFF_FFFFu128",
        "1",
        "1.5e10f64",
        "0b1010",
        "'x'",
        "b'x'",
        "'\\u{1F600}'",
        "'\\''",
    ] {
        assert_eq!(count_stmt(&format!("let _ = {lit};")), 4, "{lit}");
    }
}

// ---- Rule 5: strings ----

#[test]
fn strings_cost_their_source_characters() {
    let cases = [
        ("\"abc\"", 5),
        ("r#\"a\"#", 6),
        ("r\"a\"", 4),
        ("b\"ab\"", 5),
        ("br\"ab\"", 6),
        ("c\"ab\"", 5),
        ("\"\\n\"", 4),
        ("\"é\"", 3),
        ("\"\"", 2),
    ];
    for (lit, cost) in cases {
        assert_eq!(count_stmt(&format!("let _ = {lit};")), 3 + cost, "{lit}");
    }
}

#[test]
fn a_multi_line_string_costs_its_characters_on_its_first_line() {
    let r = in_fn("let s = \"a\nb\";");
    // "a\nb" is 5 characters with its quotes and newline.
    assert_eq!(r.tokens - common::WRAPPER, 3 + 5);
    assert_eq!(r.lines[1].tokens, 8);
    assert_eq!(r.lines[2].tokens, 0);
}

// ---- Rule 6: #DEBUG ----

#[test]
fn debug_marker_in_any_case_moves_the_line_apart() {
    for marker in ["#DEBUG", "#debug", "#Debug", "see #DEBUG later"] {
        let r = in_fn(&format!("f(x); // {marker}\ng(y);"));
        assert_eq!(
            (r.tokens - common::WRAPPER, r.debug_tokens),
            (3, 3),
            "{marker}"
        );
        assert_eq!(r.total(), r.tokens + r.debug_tokens);
    }
}

#[test]
fn debug_marker_outside_a_line_comment_does_nothing() {
    for line in [
        "let s = \"// #DEBUG\";",
        "let s = r#\"// #DEBUG\"#;",
        "f(x); /* #DEBUG */",
        "f(x); // DEBUG",
    ] {
        let r = in_fn(line);
        assert_eq!(r.debug_tokens, 0, "{line}");
    }
}

#[test]
fn a_token_belongs_to_the_line_it_starts_on() {
    // The string starts on line 1, which has no comment (its `// #DEBUG` is
    // string text), so all of it counts; line 2 is a #DEBUG line.
    let r = in_fn("let s = \"a // #DEBUG\nb\"; f(s); // #DEBUG");
    assert_eq!(r.tokens - common::WRAPPER, 3 + 15);
    assert_eq!(r.debug_tokens, 3);
}

#[test]
fn limit_and_submission_use_the_right_counts() {
    let body = "let _ = 1;\n".repeat(255); // 4 tokens a line: 1020 + 4 wrapper = 1024
    let r = in_fn(&body);
    assert_eq!(r.tokens, 1024);
    assert!(r.within_limit());
    let over = in_fn(&format!("{body}f(); // #DEBUG"));
    assert!(
        over.within_limit(),
        "debug tokens are left out while developing"
    );
    assert!(!over.passes_submission(), "but a submission counts them");
    let r = in_fn(&format!("{body}f();"));
    assert!(!r.within_limit());
}

#[test]
fn doc_comments_inside_a_macro_invocation_are_counted() {
    // A matcher like `(#[doc = $s:literal]) => { $s }` turns a doc comment
    // inside a macro call into a string the bot can read, so there it costs
    // what it is: `# [ doc =` and its string.
    let with = count_file("m! {\n    /// ab\n    struct S;\n}\n");
    let without = count_file("m! {\n    struct S;\n}\n");
    assert_eq!(with - without, 4 + "\" ab\"".len());
    // Outside macros it stays free.
    assert_eq!(count_file("/// ab\nstruct S;"), count_file("struct S;"));
}

#[test]
fn a_negated_condition_is_not_a_macro_call() {
    // `if !done { .. }` has the shape `name ! name { .. }` of `macro_rules!`;
    // a doc comment in its block stays free.
    let plain = count_stmt("if !done {\n    f();\n}");
    assert_eq!(count_stmt("if !done {\n    /// note\n    f();\n}"), plain);
    assert_eq!(plain, 6);
}

// ---- Rule 7: file macros ----

#[test]
fn file_macro_pricing_reaches_every_spelling_and_nesting() {
    // By path, raw name, and inside a `macro_rules!` body.
    // The invocation's path is code (`self` is free there); its arguments are not.
    assert_eq!(count_stmt("self::m!(;;);"), 6);
    assert_eq!(count_stmt("r#m!(;;);"), 5);
    assert_eq!(
        count_file("macro_rules! a { () => { b!(;;;) }; }"),
        count_file("macro_rules! a { () => { b!() }; }") + 3
    );
    // Everything nested inside a file macro's arguments is priced, blocks
    // and standard macros included.
    assert_eq!(count_stmt("m!({ pub fn f() {} });"), 9);
    assert_eq!(count_stmt("m!(println!(\"\", a,));"), 11);
}

#[test]
fn renaming_to_a_standard_name_loses_its_exception() {
    let plain = count_stmt("vec![a, b];");
    assert_eq!(
        count_file("fn w() {\nvec![a, b];\n}\nuse m as vec;") - 4 - 4,
        plain + 1
    );
    assert_eq!(
        count_file("fn w() {\nprintln!(a, b);\n}\nmod x { macro_rules! println { () => {} } }"),
        count_file("fn w() {\nprintln!(a, b);\n}\nmod x { macro_rules! other { () => {} } }") + 1
    );
}

#[test]
fn a_free_visibility_holds_only_a_module_path() {
    // Outside a file macro `pub(in a::b)` is free; in a `macro_rules!` body,
    // which syn does not parse, `pub(in ...)` with anything but a path costs.
    assert_eq!(
        count_file("pub(in crate::a) fn f() {}"),
        count_file("fn f() {}")
    );
    assert_eq!(
        count_file("macro_rules! m { () => { pub(in crate::a) fn f() {} } }"),
        count_file("macro_rules! m { () => { fn f() {} } }")
    );
    assert_eq!(
        count_file("macro_rules! m { () => { pub(in 1 2 3) fn f() {} } }"),
        count_file("macro_rules! m { () => { fn f() {} } }") + 5
    );
}

#[test]
fn standard_macros_keep_their_counts() {
    // These are the counts before file macros were priced.
    assert_eq!(count_stmt("println!(\"{} {}\", a, b);"), 12);
    assert_eq!(count_stmt("assert_eq!(a, b, \"x\");"), 8);
    assert_eq!(count_stmt("let _ = matches!(x, Some(1) | None);"), 12);
    assert_eq!(count_stmt("let s = format!(\"{a}\");"), 11);
}

// ---- Rule 1: the Rust spelling of what C# leaves unwritten ----

/// The cost of a documented method: `src` inside `impl S { }`, less `impl S {`.
fn example_method(src: &str) -> usize {
    documented(src);
    count_file(&format!("impl S {{ {src} }}")) - 3
}

#[test]
fn example_the_receiver_mut_and_declared_types_are_free() {
    assert_eq!(
        example_method("fn f(&mut self, b: &mut Board) -> i32 { self.n }"),
        9
    );
    assert_eq!(example_stmt("let mut best: Move = self.best;"), 5);
}

#[test]
fn example_default_in_a_derive_is_free() {
    documented("`#[derive(Default)]` + newline + `struct S;`");
    assert_eq!(count_file("#[derive(Default)]\nstruct S;"), 2);
    documented("`#[derive(Clone, Default)]` + newline + `struct S;`");
    assert_eq!(count_file("#[derive(Clone, Default)]\nstruct S;"), 7);
    assert_eq!(
        count_file("#[derive(Clone, Default)]\nstruct S;"),
        count_file("#[derive(Clone)]\nstruct S;")
    );
}

#[test]
fn example_the_prelude_import_is_free() {
    assert_eq!(example_file("use framework::prelude::*;"), 0);
}

#[test]
fn example_a_file_macro_pays_for_every_free_spelling() {
    assert_eq!(example_stmt("m!(mut self.x: i32 -> u8);"), 11);
}

#[test]
fn example_a_closures_parameter_list_is_a_pair() {
    assert_eq!(
        example_stmt("moves.sort_by_key(|m| m.captured_number());"),
        10
    );
    assert_eq!(example_stmt("let f = || 1;"), 5);
}

#[test]
fn example_the_frame_costs_sixteen() {
    let frame = "use framework::prelude::*;

#[derive(Default)]
pub struct MyBot;

impl Bot for MyBot {
    fn think(&mut self, board: Board, timer: Timer) -> Move {
";
    documented(&format!("```rust\n{frame}```"));
    documented("| | 16 |");
    assert_eq!(count_file(&format!("{frame}todo!()\n}}\n}}\n")), 16 + 3);
}

#[test]
fn the_free_spellings_are_free_wherever_code_stands() {
    // `mut` in every place it goes, `&` only before `self`.
    assert_eq!(count_stmt("let mut a = &mut b;"), count_stmt("let a = &b;"));
    assert_eq!(count_stmt("let a = &b;"), 5);
    assert_eq!(
        count_file("fn f(mut x: u8) {}"),
        count_file("fn f(x: u8) {}")
    );
    // Every receiver is free, and so is the `.` after `self`.
    for receiver in ["self", "&self", "&mut self", "mut self", "self: Box<Self>"] {
        let cost = count_file(&format!("impl S {{ fn f({receiver}) {{}} }}"));
        let extra = if receiver.contains("Box") { 4 } else { 0 };
        assert_eq!(
            cost,
            count_file("impl S { fn f() {} }") + extra,
            "{receiver}"
        );
    }
    assert_eq!(count_stmt("self.a.b(self.c);"), count_stmt("a.b(c);"));
    // In a standard macro's arguments too, which parse as Rust.
    assert_eq!(
        count_stmt("vec![self.a, &mut b];"),
        count_stmt("vec![a, &b];")
    );
    // Type punctuation in signatures, fields, bounds and closures.
    // `struct S { a u8`; `fn f < T Copy > ( x T T { x`.
    assert_eq!(count_file("struct S { a: u8 }"), 5);
    assert_eq!(count_file("fn f<T: Copy>(x: T) -> T { x }"), 12);
}

#[test]
fn only_these_spellings_are_free() {
    // Other keywords, `Self`, a raw `r#mut` and a `&` that borrows anything but
    // `self` cost as before.
    assert_eq!(count_stmt("let r#mut = Self::f(&x);"), 9);
    // `Default` outside a derive is a name like any other.
    assert_eq!(count_stmt("let d = Default::default();"), 7);
    // Only the exact import is free.
    assert_eq!(count_file("use ::framework::prelude::*;"), 7);
    assert_eq!(count_file("use framework::prelude::{*};"), 7);
    assert_eq!(count_file("use framework::prelude::Board;"), 6);
    // An inner `#![derive(...)]` is not a derive of an item: it costs.
    assert_eq!(count_file("#![derive(Default)]"), 6);
    // `||` is one token, as the reference lexes it: one list's closer and the next
    // one's opener, costing 1, which is what the two cost apart.
    assert_eq!(count_stmt("let f = |x||y| 0;"), 8);
    assert_eq!(count_stmt("let f = |x| |y| 0;"), 8);
}

#[test]
fn a_file_macro_pays_for_every_free_spelling_nested_in_it() {
    // Each free spelling, alone in a file macro's arguments and nested in a block there.
    for (tokens, cost) in [
        ("mut mut mut", 3),
        ("self. self. self.", 6),
        ("& self & mut self", 5),
        (": : :", 3),
        ("-> -> ->", 3),
        ("use framework::prelude::*;", 7),
        ("|x| x", 4),
    ] {
        assert_eq!(count_stmt(&format!("m!({tokens});")), 3 + cost, "{tokens}");
        assert_eq!(
            count_stmt(&format!("m!({{ {tokens} }});")),
            4 + cost,
            "{tokens}"
        );
    }
    // `#[derive(Default)]` inside a file macro's arguments costs what it is (and the
    // `#` there is refused: see rules.rs).
    assert_eq!(count_stmt("m!(#[derive(Default)] struct S;);"), 11);
    // A macro defined by the file is a file macro wherever it is called from, even a
    // `macro_rules!` body, whose own tokens keep rule 1.
    assert_eq!(
        count_file("macro_rules! a { () => { b!(mut self.x: u8) }; }"),
        count_file("macro_rules! a { () => { b!() }; }") + 6
    );
    assert_eq!(
        count_file("macro_rules! a { ($x:expr) => { let mut y: u8 = $x; }; }"),
        count_file("macro_rules! a { ($x expr) => { let y u8 = $x; }; }")
    );
}

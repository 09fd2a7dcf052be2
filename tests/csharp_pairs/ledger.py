#!/usr/bin/env python3
"""Where a Rust port's tokens go, by category, beside its C# twin's.

Usage: ledger.py [--challenge PATH] [--old-rules] [--tokens] NAME...
       (NAME: pvs, plain, golf; a file name such as pvs_before, counted against the C#
       file of its pair; or RUST.rs=CSHARP.cs, any port and its C# source)

--old-rules counts as the kit did before the `()` of a property read and the braces of an
`if` that stands for `?:` were free (give --challenge a counter of that time): the ledger
before and after those rules, on the files of each time.

Every counted token of NAME.rs (by the kit's rules) and of NAME.cs (by
scripts/csharp_tokens.py) goes to exactly one category, so each column adds up to the
file's count; the Rust column is checked, line by line, against `challenge tokens --json`
(PATH, default target/release/challenge). The kit's free spellings (docs/rules.md,
section 4, rule 1: `mut`, `self` with its `.` and the `&` of `&self`, `:` and `->`,
`#[derive(Default)]`, the prelude import, a closure's closing `|`, the `()` of a C#
property read, the braces of an `if` that stands for `?:`) cost 0 here too. A category is
what one candidate counting rule or API change would make free or cheaper; the first that
fits a token takes it:

  skeleton     `struct MyBot`, `impl Bot for MyBot`, `impl MyBot`, the `think` signature;
               C#: the `using`s, the class header, the `Think` signature, the end-of-file
               token
  construction C#'s constructor done in Rust: `impl Default for MyBot { fn default() ->
               Self { MyBot {` and the fields' names in it, or the unpacking done once in
               `think` (`if self.NAME.is_empty() {`); C#: the constructor's header
  board/timer  the board and timer passed down (`b: &mut Board` / `t: &Timer` in helper
               signatures, `b` / `t` in a call, `let b = &mut board.clone()`) or kept
               (the fields `b: Board`, `t: Timer` and `self.b = board;`, `self.t =
               timer;` in `think`); C#: the fields `Board board; Timer timer;` and their
               assignments in `Think`
  signature    a helper's `fn`, name, `(`, `{` and its parameters' names; C#: a local
               function's or method's name, `(`, `{` or `=>` and its parameters' names
  types        the type of a parameter, field, const or closure and a return type; C#:
               the type of a field, parameter, return value or declared local
  let          `let`
  as           an `as` cast and its type; C#: a `(type)` cast
  abort        ending the search on time: `Option<...>` in a return type, `?`, `Some`,
               `None`, `.is_some()`, the closure that stands for C#'s try, or
               `abort_search()` and `catch_abort(||`; C#: `throw null`, `try`, `catch`
  option       reading the API's `Option`s: `.unwrap()`, `.map_or(0, |c| ...)`'s `map_or`,
               `(`, `0`, `|`, `c`
  property     the `()` of a method that stands for a C# property read (`b.key()`,
               `m.is_capture()`; docs/rules.md's list); C# reads them with none
  conditional  `if`, `else` and the braces of their branches; C#: `if`, its `(`, the braces
               of its branches, `else`, and the `?` and `:` of `?:`
  piece tests  asking a piece's type: `.is_pawn()` or `.piece_type() == PieceType::Pawn`;
               C#: `.IsPawn` (the `piece` or `list` before it is logic in both)
  logic        everything else: the algorithm itself, in both languages
"""

import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
sys.dont_write_bytecode = True  # no __pycache__ beside the kit's scripts
import csharp_tokens  # noqa: E402

CATEGORIES = ["skeleton", "construction", "board/timer", "signature", "types", "let", "as",
              "abort", "option", "piece tests", "property", "conditional", "logic"]

# docs/rules.md, section 4, rule 1: the kit's spellings of C#'s property reads.
PROPERTY_READS = {
    "key", "ply_count", "fifty_move_counter", "is_white_to_move", "side_to_move", "occupied",
    "white", "black", "history_keys", "history_moves", "start_fen", "from", "to", "piece",
    "captured", "promotion", "is_capture", "is_en_passant", "is_promotion", "is_castle",
    "is_null", "raw", "piece_type", "is_white", "color", "is_pawn", "is_knight", "is_bishop",
    "is_rook", "is_queen", "is_king", "file", "rank", "index", "ms_remaining",
    "ms_elapsed_this_turn", "opponent_ms_remaining", "game_start_ms", "increment_ms", "len",
}
# Tokens after which an `if` makes a value (C#'s `?:`).
VALUE_BEFORE = {"=", "(", ",", "[", "-", "!", "+", "*", "/", "%", "&", "^", "<<", ">>", "==",
                "!=", "<", ">", "<=", ">=", "&&", "||", "+=", "-=", "*=", "/=", "|", "=>",
                "return", "..", "..="}

RUST_PUNCT = ["<<=", ">>=", "...", "..=", "::", "->", "=>", "==", "!=", "<=", ">=", "&&", "||",
              "+=", "-=", "*=", "/=", "%=", "^=", "&=", "|=", "<<", ">>", ".."]
RUST_FREE = {";", ",", ")", "]", "}", "pub"}
IS_TYPE = {"is_pawn", "is_knight", "is_bishop", "is_rook", "is_queen", "is_king"}


class Tok:
    def __init__(self, text, line, kind):
        self.text, self.line, self.kind = text, line, kind
        self.cost = 0 if text in RUST_FREE and kind != "str" else (len(text) if kind == "str" else 1)
        self.cat = None


def free_spellings(toks, new_rules=True):
    """Zero the cost of what docs/rules.md frees as the Rust spelling of what C# leaves
    unwritten; `classify_rust` still gives each a category (it adds nothing there)."""
    text = [t.text for t in toks]
    if new_rules:
        free_property_reads(toks)
        free_ternary_braces(toks)

    def free(lo, hi):
        for t in toks[lo:hi]:
            t.cost = 0

    for i, x in enumerate(text):
        if toks[i].kind == "word" and x in ("mut", "self"):
            free(i, i + (2 if x == "self" and text[i + 1:i + 2] == ["."] else 1))
        elif x in (":", "->"):
            free(i, i + 1)
        elif x == "&" and (text[i + 1] == "self" or text[i + 1:i + 3] == ["mut", "self"]):
            free(i, i + 1)
        elif text[i:i + 7] == ["use", "framework", "::", "prelude", "::", "*", ";"]:
            free(i, i + 7)
        elif text[i:i + 7] == ["#", "[", "derive", "(", "Default", ")", "]"]:
            free(i, i + 7)
        elif x == "|" and toks[i].cost and text[i - 1] in ("(", ",", "=", "move"):
            j = closure_closer(toks, i)
            free(j, j + 1)  # the opener pays for the pair


def free_property_reads(toks):
    """The `(` of `.name()` for a property read's name (the kit's check that the file
    declares no field of the name is left to the line-by-line comparison with the kit)."""
    text = [t.text for t in toks]
    for i in range(1, len(toks) - 2):
        if text[i - 1] == "." and text[i] in PROPERTY_READS and text[i + 1:i + 3] == ["(", ")"]:
            toks[i + 1].cost = 0


def branch_is_one_expression(toks, lo, hi):
    """Whether the block toks[lo:hi] (inside its braces) holds one expression: no `;` and
    no `let` at its own depth."""
    depth = 0
    for t in toks[lo:hi]:
        if t.text in ("(", "[", "{"):
            depth += 1
        elif t.text in (")", "]", "}"):
            depth -= 1
        elif depth == 0 and t.text in (";", "let"):
            return False
    return hi > lo


def if_chain(toks, i):
    """The opening braces of the `if` chain at toks[i] and the index after it, when every
    branch is one expression and the chain ends with `else`; else None."""
    braces = []
    while True:
        j = i + 1
        depth = 0
        while not (toks[j].text == "{" and depth == 0):  # the condition
            if toks[j].text in ("(", "["):
                depth += 1
            elif toks[j].text in (")", "]"):
                depth -= 1
            j += 1
        close = matching(toks, j)
        if not branch_is_one_expression(toks, j + 1, close):
            return None
        braces.append(j)
        if close + 1 >= len(toks) or toks[close + 1].text != "else":
            return None
        if toks[close + 2].text == "if":
            i = close + 2
            continue
        end = matching(toks, close + 2)
        if not branch_is_one_expression(toks, close + 3, end):
            return None
        braces.append(close + 2)
        return braces, end + 1


def ends_fn_with_value(toks, end):
    """Whether toks[end] closes a function body that returns a value (`-> T ... {`)."""
    if end >= len(toks) or toks[end].text != "}":
        return False
    depth = 0
    for k in range(end, -1, -1):
        if toks[k].text == "}":
            depth += 1
        elif toks[k].text == "{":
            depth -= 1
            if depth == 0:
                head = [t.text for t in toks[max(0, k - 40):k]]
                if "fn" not in head:
                    return False
                sig = head[len(head) - head[::-1].index("fn") - 1:]
                return "->" in sig and ";" not in sig and "{" not in sig
    return False


def free_ternary_braces(toks):
    """The `{`s of an `if` that stands for `?:` (docs/rules.md): in a value's place, every
    branch one expression, an `else` at the end."""
    i = 0
    while i < len(toks):
        if toks[i].text == "if" and toks[i].kind == "word":
            chain = if_chain(toks, i)
            value = toks[i - 1].text in VALUE_BEFORE  # `|`: a closure's body
            if chain and not value and toks[i - 1].text in ("{", ";", "}"):
                value = ends_fn_with_value(toks, chain[1])
            if chain and value and toks[i - 1].text != "else":
                for b in chain[0]:
                    toks[b].cost = 0
        i += 1


def closure_closer(toks, i):
    """Index of the `|` closing the closure parameter list opened by toks[i] (the list
    holds patterns: names, `&`, `mut`, tuples)."""
    depth = 0
    for j in range(i + 1, len(toks)):
        x = toks[j].text
        if x in ("(", "["):
            depth += 1
        elif x in (")", "]"):
            depth -= 1
        elif x == "|" and depth == 0:
            return j
    raise ValueError("an unclosed closure parameter list")


class CsTok:
    """A C# token of csharp_tokens.py with room for its category."""

    def __init__(self, token):
        self.text, self.kind, self.cost, self.line = token.text, token.kind, token.cost, token.line
        self.cat = None


def lex_rust(src):
    """The ports' Rust: identifiers, numbers, strings, chars, punctuation, comments."""
    toks, i, line = [], 0, 1
    while i < len(src):
        c = src[i]
        if c == "\n":
            line += 1
            i += 1
        elif c.isspace():
            i += 1
        elif src.startswith("//", i):
            i = src.index("\n", i) if "\n" in src[i:] else len(src)
        elif src.startswith("/*", i):
            end = src.index("*/", i) + 2
            line += src[i:end].count("\n")
            i = end
        elif c == '"':
            j = i + 1
            while src[j] != '"':
                j += 2 if src[j] == "\\" else 1
            toks.append(Tok(src[i:j + 1], line, "str"))
            i = j + 1
        elif c.isalpha() or c == "_":
            j = i
            while j < len(src) and (src[j].isalnum() or src[j] == "_"):
                j += 1
            toks.append(Tok(src[i:j], line, "word"))
            i = j
        elif c.isdigit():
            j = i
            while j < len(src) and (src[j].isalnum() or src[j] == "_" or
                                    (src[j] == "." and j + 1 < len(src) and src[j + 1].isdigit())):
                j += 1
            toks.append(Tok(src[i:j], line, "num"))
            i = j
        elif c == "'" and src[i + 2] == "'":
            toks.append(Tok(src[i:i + 3], line, "char"))
            i += 3
        else:
            p = next((p for p in RUST_PUNCT if src.startswith(p, i)), c)
            toks.append(Tok(p, line, "punct"))
            i += len(p)
    return toks


def matching(toks, i):
    """Index of the delimiter closing toks[i] (one of ( [ {)."""
    pairs = {"(": ")", "[": "]", "{": "}"}
    depth = 0
    for j in range(i, len(toks)):
        if toks[j].text in pairs:
            depth += 1
        elif toks[j].text in pairs.values():
            depth -= 1
            if depth == 0:
                return j
    raise ValueError("unbalanced")


def set_cat(toks, lo, hi, cat):
    for t in toks[lo:hi]:
        if t.cat is None:
            t.cat = cat


def type_end(toks, j):
    """Index after a type starting at toks[j] (stops at `,` `)` `=` `{` `;` at depth 0)."""
    depth = 0
    while j < len(toks):
        x = toks[j].text
        if x in ("<", "(", "["):
            depth += 1
        elif x in (">", ")", "]"):
            if depth == 0:
                return j
            depth -= 1
        elif x == ">>":
            depth -= 2
        elif depth == 0 and x in (",", "=", "{", ";"):
            return j
        j += 1
    return j


def classify_rust_access(toks, text):
    """Property reads' `()` and the conditionals: `if`, `else` and their branches' `{`."""
    for i, x in enumerate(text):
        if x == "." and i + 3 < len(text) and text[i + 1] in PROPERTY_READS \
                and text[i + 2:i + 4] == ["(", ")"]:
            set_cat(toks, i + 2, i + 4, "property")
        if x in ("if", "else") and toks[i].kind == "word":
            set_cat(toks, i, i + 1, "conditional")
            j, depth = i + 1, 0
            while j < len(text) and not (text[j] == "{" and depth == 0):
                if x == "else" and text[j] == "if":
                    break
                if text[j] in ("(", "["):
                    depth += 1
                elif text[j] in (")", "]"):
                    depth -= 1
                j += 1
            if j < len(text) and text[j] == "{":
                set_cat(toks, j, j + 1, "conditional")


def classify_rust(toks):
    text = [t.text for t in toks]
    # The skeleton and the manual Default.
    for i, x in enumerate(text):
        if text[i:i + 6] == ["use", "framework", "::", "prelude", "::", "*"]:
            set_cat(toks, i, i + 6, "skeleton")
        if x == "#" and text[i + 2:i + 4] == ["derive", "("]:
            set_cat(toks, i, matching(toks, i + 1) + 1, "skeleton")
        if text[i:i + 2] in (["struct", "MyBot"],):
            set_cat(toks, i, i + 3 if text[i + 2] == "{" else i + 2, "skeleton")
        if text[i:i + 2] == ["fn", "think"]:
            set_cat(toks, i, text.index("{", i) + 1, "skeleton")
        if x == "impl" and text[i + 1] in ("Bot", "MyBot"):
            end = text.index("{", i)
            set_cat(toks, i, end + 1, "skeleton")
        if text[i:i + 4] == ["impl", "Default", "for", "MyBot"]:
            body = text.index("{", i)
            set_cat(toks, i, body + 1, "construction")
            f = body + 1
            open_ = text.index("{", f)
            set_cat(toks, f, open_ + 1, "construction")
            lit = next(k for k in range(open_, len(text)) if text[k:k + 2] == ["MyBot", "{"])
            if lit:
                set_cat(toks, lit, lit + 2, "construction")
                k, close = lit + 2, matching(toks, lit + 1)
                while k < close:  # field names and their `:` in the struct expression
                    if text[k + 1] == ":" and toks[k].kind == "word":
                        set_cat(toks, k, k + 2, "construction")
                    k += 1
    # The board and timer kept, C#'s constructor run once, the kit's abort, piece tests.
    for i, x in enumerate(text):
        if x in ("b", "t") and text[i + 1:i + 3] in ([":", "Board"], [":", "Timer"]):
            set_cat(toks, i, i + 3, "board/timer")
        if text[i:i + 5] in (["self", ".", "b", "=", "board"], ["self", ".", "t", "=", "timer"]):
            set_cat(toks, i, i + 5, "board/timer")
        if text[i:i + 3] == ["if", "self", "."] and text[i + 4:i + 9] == [".", "is_empty", "(", ")", "{"]:
            set_cat(toks, i, i + 9, "construction")
        if x in ("abort_search", "catch_abort", "try_search") and text[i + 1] == "(":
            set_cat(toks, i, i + (3 if text[i + 2] in (")", "||") else 2), "abort")
        if text[i:i + 5] == [".", "piece_type", "(", ")", "=="] and text[i + 5:i + 7] == ["PieceType", "::"]:
            set_cat(toks, i, i + 8, "piece tests")
        if x == "." and text[i + 1] in IS_TYPE and text[i + 2] == "(":
            set_cat(toks, i, i + 4, "piece tests")
    classify_rust_access(toks, text)
    # Signatures.
    for i, x in enumerate(text):
        if x != "fn" or toks[i].cat is not None:
            continue
        name = text[i + 1]
        open_paren = i + 2
        close_paren = matching(toks, open_paren)
        body = text.index("{", close_paren)
        if name == "think":
            set_cat(toks, i, body + 1, "skeleton")
            continue
        k = open_paren + 1
        while k < close_paren:
            if text[k] == "&" and "self" in text[k:k + 3]:
                end = text.index("self", k) + 1
                set_cat(toks, k, end, "free")
                k = end
            elif text[k + 1:k + 2] == [":"] and (text[k + 2:k + 5] == ["&", "mut", "Board"] or text[k + 2:k + 4] in (["&", "Timer"], ["&", "Board"])):
                end = type_end(toks, k + 2)
                set_cat(toks, k, end, "board/timer")
                k = end
            elif text[k] == "mut":
                set_cat(toks, k, k + 1, "free")
                k += 1
            elif text[k + 1:k + 2] == [":"]:
                set_cat(toks, k, k + 1, "signature")  # the parameter's name (C# names it too)
                end = type_end(toks, k + 2)
                set_cat(toks, k + 1, end, "types")
                k = end
            else:
                k += 1
        if "->" in text[close_paren:body]:
            arrow = text.index("->", close_paren)
            if text[arrow + 1] == "Option":
                set_cat(toks, arrow + 1, arrow + 3, "abort")  # `Option <`
                set_cat(toks, arrow + 4, arrow + 5, "abort")  # `>`
            set_cat(toks, arrow, body, "types")
        set_cat(toks, i, i + 3, "signature")
        set_cat(toks, body, body + 1, "signature")
    # Types of fields, consts, closures.
    for i, x in enumerate(text):
        if x == ":" and toks[i].cat is None and i > 0 and toks[i - 1].kind == "word" and text[i - 1] != "'":
            end = type_end(toks, i + 1)
            set_cat(toks, i, end, "types")
        if x == "->" and toks[i].cat is None:
            end = text.index("{", i)
            set_cat(toks, i, end, "abort" if "Option" in text[i:end] else "types")
    # The board copy, the abort, the rest.
    for i, x in enumerate(text):
        if text[i:i + 8] == ["let", "b", "=", "&", "mut", "board", ".", "clone"]:
            set_cat(toks, i, i + 9, "board/timer")
        if text[i:i + 7] == ["let", "_", "=", "(", "|", "|", "->"]:
            set_cat(toks, i, i + 7, "abort")
        if x == "(" and text[i + 1:i + 3] == [")", ";"] and text[i - 1] == ")":
            set_cat(toks, i, i + 1, "abort")  # the closure's call `()`
    for i, x in enumerate(text):
        t = toks[i]
        if t.cat is not None:
            continue
        if x in ("?", "Some", "None") or (x == "is_some" and text[i - 1] == "."):
            t.cat = "abort"
            if x == "is_some":
                set_cat(toks, i - 1, i + 2, "abort")
        elif x == "self" and text[i + 1] == ".":
            set_cat(toks, i, i + 2, "free")
        elif x in ("b", "t") and text[i - 1] in ("(", ",") and text[i + 1] in (",", ")"):
            t.cat = "board/timer"
        elif x == "let":
            t.cat = "let"
        elif x == "mut":
            t.cat = "free"
        elif x == "as":
            set_cat(toks, i, i + 2, "as")
        elif x == "unwrap" and text[i - 1] == ".":
            set_cat(toks, i - 1, i + 2, "option")
        elif x == "map_or" and text[i - 1] == ".":
            set_cat(toks, i - 1, i + 7, "option")  # . map_or ( 0 , | c |
    for t in toks:
        if t.cat is None:
            t.cat = "logic"


CS_TYPES = {"int", "bool", "ulong", "void", "Move", "decimal", "double", "IEnumerable", "Board", "Timer",
            "PieceList", "Piece", "var"}


def classify_csharp_conditionals(toks, text):
    """`if`, its `(`, the `{` of its branch, `else` and its `{`, and `?:`'s `?` and `:`."""
    for i, x in enumerate(text):
        if x == "if" and text[i + 1] == "(":
            set_cat(toks, i, i + 2, "conditional")
            close = csharp_matching(toks, i + 1)
            if text[close + 1] == "{":
                set_cat(toks, close + 1, close + 2, "conditional")
        elif x == "else":
            set_cat(toks, i, i + 2 if text[i + 1] == "{" else i + 1, "conditional")
        elif x == "?" and toks[i].kind == "punctuation" and text[i + 1] not in (".", "?", "[") \
                and toks[i - 1].kind not in ("keyword",) and text[i - 1] != ">":
            set_cat(toks, i, i + 1, "conditional")
            depth = 0
            for j in range(i + 1, len(text)):
                if text[j] in ("(", "[", "{"):
                    depth += 1
                elif text[j] in (")", "]", "}"):
                    depth -= 1
                elif text[j] == "?" and depth == 0:
                    depth += 100  # a nested `?:`: its `:` comes first
                elif text[j] == ":" and depth >= 100:
                    depth -= 100
                elif text[j] == ":" and depth == 0:
                    set_cat(toks, j, j + 1, "conditional")
                    break


def classify_csharp(toks):
    text = [t.text for t in toks]
    n = len(toks)
    for i, x in enumerate(text):
        t = toks[i]
        if x == "using":
            end = text.index(";", i)
            set_cat(toks, i, end, "skeleton")
        elif x == "class":
            set_cat(toks, i, text.index("{", i) + 1, "skeleton")
        elif x == "Think":
            set_cat(toks, i - 1, text.index("{", i) + 1, "skeleton")
        elif t.kind == "eof":
            t.cat = "skeleton"
        elif x == "MyBot" and text[i + 1:i + 3] == ["(", ")"]:
            set_cat(toks, i, i + 4, "construction")
        elif x in ("throw", "try", "catch"):
            set_cat(toks, i, i + (2 if x == "throw" else 1), "abort")
        elif x == "(" and i + 2 < n and text[i + 2] == ")" and text[i + 1] in ("int", "sbyte", "PieceType") \
                and (toks[i + 3].kind != "punctuation" or text[i + 3] == "("):
            set_cat(toks, i, i + 3, "as")
        elif x in ("Board", "Timer") and text[i + 1] in ("board", "timer") and text[i + 2] == ";":
            set_cat(toks, i, i + 3, "board/timer")
        elif x in ("board", "timer") and text[i + 1] == "=" and text[i + 2] in ("b", "t"):
            set_cat(toks, i, i + 4, "board/timer")
        elif x == "." and text[i + 1] in ("IsPawn", "IsKnight", "IsBishop", "IsRook", "IsQueen", "IsKing"):
            set_cat(toks, i, i + 2, "piece tests")
    classify_csharp_conditionals(toks, text)
    # Signatures: TYPE NAME ( ... ) { or =>, where the line starts a method or local function.
    for i in range(n - 2):
        if toks[i].cat is not None:
            continue
        start_name = i + 4 if text[i] == "IEnumerable" else i + 1  # IEnumerable < Move > Name
        if text[i] in CS_TYPES and start_name + 1 < n and toks[start_name].kind == "identifier" \
                and text[start_name + 1] == "(" and (i == 0 or text[i - 1] in (";", "{", "}", ")")):
            close = csharp_matching(toks, start_name + 1)
            after = text[close + 1]
            if after not in ("{", "=>"):
                continue
            set_cat(toks, i, start_name, "types")
            set_cat(toks, start_name, start_name + 2, "signature")
            set_cat(toks, close + 1, close + 2, "signature")
            k = start_name + 2
            while k < close:
                if toks[k].kind in ("identifier", "keyword") and toks[k + 1].kind == "identifier":
                    set_cat(toks, k, k + 1, "types")
                    set_cat(toks, k + 1, k + 2, "signature")
                    k += 2
                else:
                    k += 1
    # Declared types of fields and locals: TYPE NAME [=;,] or TYPE[] NAME, tuple types.
    for i in range(n - 1):
        if toks[i].cat is not None:
            continue
        x = text[i]
        if x in CS_TYPES and toks[i + 1].kind == "identifier" and text[i + 2] in ("=", ";", ",", "in"):
            toks[i].cat = "types"
        elif x in CS_TYPES and text[i + 1] == "[" and toks[i + 2].kind == "omitted" and (i == 0 or text[i - 1] != "new"):
            j = i + 1
            while text[j] != "]" or (text[j + 1] == "[" and toks[j + 2].kind == "omitted"):
                j += 1
            if toks[j + 1].kind == "identifier":
                set_cat(toks, i, j + 1, "types")
                for o in range(i, j + 2):
                    if toks[o].kind == "omitted":
                        toks[o].cat = "types"
        elif x == "(" and text[i - 1] in (";", "{", "}") and toks[i + 1].kind in ("identifier", "keyword") and text[i + 2] == ",":
            close = csharp_matching(toks, i)
            if text[close + 1] == "[" and toks[close + 2].kind == "omitted":
                set_cat(toks, i, close + 4, "types")
    for t in toks:
        if t.cat is None and t.kind == "omitted":
            t.cat = "types"
        if t.cat is None:
            t.cat = "logic"


def csharp_matching(toks, i):
    depth = 0
    for j in range(i, len(toks)):
        if toks[j].text == "(":
            depth += 1
        elif toks[j].text == ")":
            depth -= 1
            if depth == 0:
                return j
    raise ValueError("unbalanced")


def kit_lines(challenge, path):
    out = subprocess.run([challenge, "tokens", "--json", path], capture_output=True, text=True)
    report = json.loads(out.stdout.splitlines()[0])
    return report["tokens"], {line["line"]: line["tokens"] + line["debug"] for line in report["lines"]}


def ledger(name, challenge, show_tokens, new_rules=True):
    if "=" in name:
        rs_path, cs_path = name.split("=", 1)
    else:
        rs_path = os.path.join(HERE, name + ".rs")
        cs_path = os.path.join(HERE, name.split("_")[0] + ".cs")
    with open(rs_path, encoding="utf-8") as f:
        rs = lex_rust(f.read())
    free_spellings(rs, new_rules)
    classify_rust(rs)
    kit_total, lines = kit_lines(challenge, rs_path)
    mine = {}
    for t in rs:
        mine[t.line] = mine.get(t.line, 0) + t.cost
    wrong = [(line, cost, mine.get(line, 0)) for line, cost in lines.items() if cost != mine.get(line, 0)]
    if wrong or sum(mine.values()) != kit_total:
        raise SystemExit(f"{rs_path}: this lexer disagrees with the kit on lines (line, kit, here): {wrong[:5]}")
    with open(cs_path, encoding="utf-8") as f:
        cs_total, _, cs_raw = csharp_tokens.count(f.read())
    cs = [CsTok(t) for t in cs_raw]
    classify_csharp(cs)
    rust = {c: sum(t.cost for t in rs if t.cat == c) for c in CATEGORIES}
    csharp = {c: sum(t.cost for t in cs if t.cat == c) for c in CATEGORIES}
    assert sum(rust.values()) == kit_total and sum(csharp.values()) == cs_total
    if show_tokens:
        for c in CATEGORIES:
            print(f"{name} {c}: rust", " ".join(t.text for t in rs if t.cat == c and t.cost))
            print(f"{name} {c}: c#  ", " ".join(t.text or "<0-width>" for t in cs if t.cat == c and t.cost))
    return kit_total, cs_total, rust, csharp


def main(argv):
    challenge = os.path.join(ROOT, "target", "release", "challenge")
    show = "--tokens" in argv
    new_rules = "--old-rules" not in argv
    argv = [a for a in argv if a not in ("--tokens", "--old-rules")]
    if argv[:1] == ["--challenge"]:
        challenge, argv = argv[1], argv[2:]
    names = argv or ["pvs", "plain", "golf"]
    results = {n: ledger(n, challenge, show, new_rules) for n in names}
    names = [os.path.basename(n.split("=")[0]).removesuffix(".rs") for n in names]
    results = dict(zip(names, results.values()))
    head = "| category | " + " | ".join(f"{n} Rust | {n} C# | {n} +/-" for n in names) + " |"
    print(head)
    print("|" + "---|" * (1 + 3 * len(names)))
    for c in CATEGORIES:
        cells = []
        for n in names:
            _, _, r, s = results[n]
            cells += [str(r[c]), str(s[c]), f"{r[c] - s[c]:+d}"]
        print(f"| {c} | " + " | ".join(cells) + " |")
    cells = []
    for n in names:
        r, s, _, _ = results[n]
        cells += [str(r), str(s), f"{r - s:+d} ({r / s:.2f}x)"]
    print("| total | " + " | ".join(cells) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

#!/usr/bin/env python3
"""Counts a C# bot file's tokens by the rules of the C# Chess Challenge (2023).

The challenge counted tokens with Roslyn 3.8 (C# 9): it parsed the file and summed
`root.DescendantTokens()`, each token costing

- 0 for `public`, `private`, `readonly`, `;`, `,` and the closing `}`, `]`, `)`;
- the token's length in characters (UTF-16 code units, quotes and prefixes included) for
  a string literal (`"ab"` is 4, `@"ab"` is 5) and for each text part of an interpolated
  string (`$"a{x}b"` is `$"` 1, `a` 1, `{` 1, `x` 1, `}` 0, `b` 1, `"` 1 = 6; a format
  after `:` in a hole is a text part too);
- 1 for anything else: an identifier or keyword however long, a number or character
  literal, an operator, and the end-of-file token that every file has.

Trivia costs nothing: whitespace, comments (doc comments included), preprocessor
directives and the code an `#if` leaves out. Roslyn's lexer never makes `>>` or `>>=`:
it makes `>` and `>=`, and its parser joins a `>` with an adjacent `>` or `>=` into one
shift token only where a binary operator goes, so `x >> 3` is 3 tokens and
`List<List<int>>` is 7 (the two `>` close two type argument lists). This script decides
where a `<` opens a type argument list as C#'s grammar-ambiguity rule does (C# spec,
"Grammar ambiguities"): the tokens up to the matching `>` can form type arguments, and
the token after it is one of `( ) ] } : ; , . ? == != | ^ && || & [`, `{`, `=>`, an
identifier or the end of the file.

`#DEBUG` (any case) in a `//` comment marks its line: every token that starts on that
line is a debug token. Debug tokens are part of the total (what a submission was judged
by); the challenge's window showed the total less them while developing.

Usage: csharp_tokens.py [--json] [--tokens] FILE...
  --json    one JSON object per file: {"file", "tokens", "debug_tokens", "developing"}
  --tokens  list every token with its line, kind, cost and debug mark
Exit status: 0 when every file was counted, 2 when one could not be read or lexed.

Written from the challenge's published counter (TokenCounter.cs) and Roslyn's lexing
rules; it shares no code with either. Python 3 standard library only.
"""

import json
import sys
import unicodedata

# Roslyn's token kinds the challenge does not count.
FREE_KEYWORDS = {"public", "private", "readonly"}
FREE_PUNCTUATION = {";", ",", "}", "]", ")"}

# C#'s reserved keywords (contextual ones such as `var` are identifiers to Roslyn).
KEYWORDS = {
    "abstract", "as", "base", "bool", "break", "byte", "case", "catch", "char", "checked",
    "class", "const", "continue", "decimal", "default", "delegate", "do", "double", "else",
    "enum", "event", "explicit", "extern", "false", "finally", "fixed", "float", "for",
    "foreach", "goto", "if", "implicit", "in", "int", "interface", "internal", "is", "lock",
    "long", "namespace", "new", "null", "object", "operator", "out", "override", "params",
    "private", "protected", "public", "readonly", "ref", "return", "sbyte", "sealed",
    "short", "sizeof", "stackalloc", "static", "string", "struct", "switch", "this", "throw",
    "true", "try", "typeof", "uint", "ulong", "unchecked", "unsafe", "ushort", "using",
    "virtual", "void", "volatile", "while",
}

# C#'s predefined type keywords: they may stand in a type argument list.
PREDEFINED_TYPES = {
    "bool", "byte", "sbyte", "short", "ushort", "int", "uint", "long", "ulong", "char",
    "float", "double", "decimal", "string", "object", "void", "dynamic", "nint", "nuint",
}

# Roslyn's multi-character punctuation, longest first (C# 9: no `>>` or `>>=`, see above).
PUNCTUATION = [
    "??=", "<<=", "!=", "==", "=>", "<=", ">=", "<<", "&&", "||", "&=", "|=", "^=", "+=",
    "-=", "*=", "/=", "%=", "++", "--", "->", "::", "??", "..",
]
SINGLE_PUNCTUATION = set("{}[]().,:;+-*/%&|^!~=<>?")

# After the `>` of a type argument list (C# spec, grammar ambiguities), besides an
# identifier and the end of the file.
AFTER_TYPE_ARGUMENTS = {
    "(", ")", "]", "}", ":", ";", ",", ".", "?", "==", "!=", "|", "^", "&&", "||", "&",
    "[", "{", "=>",
}

# Roslyn's line breaks (SyntaxFacts.IsNewLine).
NEWLINES = "\r\n\u0085\u2028\u2029"

# A bot file is a few kilobytes; anything this size is not one.
MAX_BYTES = 4 * 1024 * 1024


class LexError(Exception):
    """The file is not C# this script can lex; the message names the place."""


class Token:
    """One Roslyn token: its kind, its source text, where it starts, what it costs."""

    __slots__ = ("kind", "text", "start", "end", "line", "cost", "debug", "closes_type_args")

    def __init__(self, kind, text, start, end):
        self.kind = kind
        self.text = text
        self.start = start
        self.end = end
        self.line = 0
        self.cost = 0
        self.debug = False
        self.closes_type_args = False


def utf16_length(text):
    """A .NET string's Length: astral characters take two UTF-16 code units."""
    return sum(2 if ord(c) > 0xFFFF else 1 for c in text)


def is_identifier_start(c):
    return c == "_" or c.isalpha() or unicodedata.category(c) == "Nl"


def is_identifier_part(c):
    return c == "_" or c.isalnum() or unicodedata.category(c) in ("Mn", "Mc", "Nd", "Pc", "Cf", "Nl")


def is_whitespace(c):
    return c in " \t\v\f\ufeff" or unicodedata.category(c) == "Zs"


class Lexer:
    """Splits C# source into Roslyn's tokens, skipping trivia (and `#if`'d-out code)."""

    def __init__(self, src):
        self.src = src
        self.pos = 0
        self.tokens = []
        self.debug_comment_starts = []
        self.symbols = set()
        # One entry per open `#if`: [this branch is active, some branch was taken].
        self.conditions = []

    def error(self, message, at=None):
        line, column = line_column(self.src, self.pos if at is None else at)
        raise LexError(f"{line}:{column}: {message}")

    def peek(self, offset=0):
        i = self.pos + offset
        return self.src[i] if i < len(self.src) else ""

    def at_line_start(self, i):
        """Whether only whitespace stands between the last line break and `i`."""
        j = i - 1
        while j >= 0 and self.src[j] not in NEWLINES:
            if not is_whitespace(self.src[j]):
                return False
            j -= 1
        return True

    def active(self):
        return all(c[0] for c in self.conditions)

    def run(self):
        while True:
            self.skip_trivia()
            if self.pos >= len(self.src):
                break
            self.lex_token()
        if self.conditions:
            self.error("an #if without its #endif")
        self.tokens.append(Token("eof", "", len(self.src), len(self.src)))
        return self.tokens

    # ----- trivia -----

    def skip_trivia(self):
        while self.pos < len(self.src):
            c = self.peek()
            if c in NEWLINES or is_whitespace(c):
                self.pos += 1
            elif c == "#" and self.at_line_start(self.pos):
                self.directive()
            elif not self.active():
                self.skip_disabled_line()
            elif c == "/" and self.peek(1) == "/":
                self.line_comment()
            elif c == "/" and self.peek(1) == "*":
                end = self.src.find("*/", self.pos + 2)
                if end < 0:
                    self.error("a /* comment without its */")
                self.pos = end + 2
            else:
                return

    def line_comment(self):
        start = self.pos
        while self.pos < len(self.src) and self.src[self.pos] not in NEWLINES:
            self.pos += 1
        text = self.src[start:self.pos]
        # `///` is a documentation comment, another kind of trivia: it marks nothing.
        is_doc = text.startswith("///") and not text.startswith("////")
        if not is_doc and "#debug" in text.lower():
            self.debug_comment_starts.append(start)

    def skip_disabled_line(self):
        while self.pos < len(self.src) and self.src[self.pos] not in NEWLINES:
            self.pos += 1

    def directive(self):
        start = self.pos
        while self.pos < len(self.src) and self.src[self.pos] not in NEWLINES:
            self.pos += 1
        line = self.src[start + 1:self.pos].strip()
        word = ""
        for c in line:
            if not c.isalpha():
                break
            word += c
        rest = line[len(word):]
        # A trailing `//` comment belongs to the directive (it marks no #DEBUG line).
        if word not in ("region", "endregion", "error", "warning", "pragma") and "//" in rest:
            rest = rest[: rest.index("//")]
        rest = rest.strip()
        if word == "if":
            value = self.active() and self.condition(rest, start)
            self.conditions.append([value, value])
        elif word == "elif":
            if not self.conditions:
                self.error("an #elif without its #if", start)
            top = self.conditions[-1]
            parent_active = all(c[0] for c in self.conditions[:-1])
            value = parent_active and not top[1] and self.condition(rest, start)
            top[0] = value
            top[1] = top[1] or value
        elif word == "else":
            if not self.conditions:
                self.error("an #else without its #if", start)
            top = self.conditions[-1]
            parent_active = all(c[0] for c in self.conditions[:-1])
            top[0] = parent_active and not top[1]
            top[1] = True
        elif word == "endif":
            if not self.conditions:
                self.error("an #endif without its #if", start)
            self.conditions.pop()
        elif not self.active():
            return
        elif word in ("define", "undef"):
            if self.tokens:
                self.error(f"#{word} after the first token", start)
            name = rest.split()[0] if rest.split() else ""
            if word == "define":
                self.symbols.add(name)
            else:
                self.symbols.discard(name)
        elif word not in ("region", "endregion", "error", "warning", "pragma", "line", "nullable"):
            self.error(f"an unknown preprocessor directive #{word}", start)

    def condition(self, text, at):
        """The value of an `#if` expression: symbols, true, false, ! == != && || ( )."""
        parts = []
        i = 0
        while i < len(text):
            c = text[i]
            if c.isspace():
                i += 1
            elif text[i:i + 2] in ("&&", "||", "==", "!="):
                parts.append(text[i:i + 2])
                i += 2
            elif c in "!()":
                parts.append(c)
                i += 1
            elif is_identifier_start(c):
                j = i
                while j < len(text) and is_identifier_part(text[j]):
                    j += 1
                parts.append(text[i:j])
                i = j
            else:
                self.error(f"cannot read the #if condition {text!r}", at)
        value, rest = self.condition_or(parts, at)
        if rest:
            self.error(f"cannot read the #if condition {text!r}", at)
        return value

    def condition_or(self, parts, at):
        value, parts = self.condition_and(parts, at)
        while parts and parts[0] == "||":
            right, parts = self.condition_and(parts[1:], at)
            value = value or right
        return value, parts

    def condition_and(self, parts, at):
        value, parts = self.condition_equality(parts, at)
        while parts and parts[0] == "&&":
            right, parts = self.condition_equality(parts[1:], at)
            value = value and right
        return value, parts

    def condition_equality(self, parts, at):
        value, parts = self.condition_unary(parts, at)
        while parts and parts[0] in ("==", "!="):
            op = parts[0]
            right, parts = self.condition_unary(parts[1:], at)
            value = (value == right) if op == "==" else (value != right)
        return value, parts

    def condition_unary(self, parts, at):
        if not parts:
            self.error("an #if condition ends too early", at)
        head, parts = parts[0], parts[1:]
        if head == "!":
            value, parts = self.condition_unary(parts, at)
            return not value, parts
        if head == "(":
            value, parts = self.condition_or(parts, at)
            if not parts or parts[0] != ")":
                self.error("an #if condition misses a )", at)
            return value, parts[1:]
        if head in ("true", "false"):
            return head == "true", parts
        if is_identifier_start(head[0]):
            return head in self.symbols, parts
        self.error(f"unexpected {head!r} in an #if condition", at)
        return False, parts

    # ----- tokens -----

    def add(self, kind, start):
        self.tokens.append(Token(kind, self.src[start:self.pos], start, self.pos))

    def lex_token(self):
        c = self.peek()
        start = self.pos
        if c == "$" or (c == "@" and self.peek(1) == "$"):
            self.interpolated_string()
        elif c == "@" and self.peek(1) == '"':
            self.pos += 1
            self.verbatim_string_body(start)
            self.add("string", start)
        elif c == "@" and self.peek(1) and is_identifier_start(self.peek(1)):
            self.pos += 1
            self.identifier_body()
            self.add("identifier", start)
        elif c == '"':
            self.regular_string_body()
            self.add("string", start)
        elif c == "'":
            self.char_literal()
            self.add("character", start)
        elif c.isdigit() or (c == "." and self.peek(1).isdigit()):
            self.number()
            self.add("number", start)
        elif is_identifier_start(c):
            self.identifier_body()
            word = self.src[start:self.pos]
            self.add("keyword" if word in KEYWORDS else "identifier", start)
        else:
            self.punctuation()

    def identifier_body(self):
        while self.pos < len(self.src) and is_identifier_part(self.src[self.pos]):
            self.pos += 1

    def punctuation(self):
        start = self.pos
        for p in PUNCTUATION:
            if self.src.startswith(p, self.pos):
                self.pos += len(p)
                self.add("punctuation", start)
                return
        c = self.peek()
        if c in SINGLE_PUNCTUATION:
            self.pos += 1
            self.add("punctuation", start)
            return
        self.error(f"unexpected character {c!r} (U+{ord(c):04X})")

    def number(self):
        src = self.src
        if self.peek() == "0" and self.peek(1) in ("x", "X", "b", "B"):
            self.pos += 2
            while self.pos < len(src) and (src[self.pos].isalnum() or src[self.pos] == "_"):
                self.pos += 1
            return
        self.digits()
        if self.peek() == "." and self.peek(1).isdigit():
            self.pos += 1
            self.digits()
        if self.peek() in ("e", "E") and (
            self.peek(1).isdigit() or (self.peek(1) in "+-" and self.peek(2).isdigit())
        ):
            self.pos += 2
            self.digits()
        # Suffixes: U L UL LU F D M in any case.
        while self.peek() and self.peek() in "uUlLfFdDmM":
            self.pos += 1

    def digits(self):
        while self.pos < len(self.src) and (self.src[self.pos].isdigit() or self.src[self.pos] == "_"):
            self.pos += 1

    def char_literal(self):
        start = self.pos
        self.pos += 1
        while True:
            c = self.peek()
            if c == "" or c in NEWLINES:
                self.error("a character literal without its closing '", start)
            self.pos += 1
            if c == "\\":
                self.pos += 1
            elif c == "'":
                return

    def regular_string_body(self):
        start = self.pos
        self.pos += 1
        while True:
            c = self.peek()
            if c == "" or c in NEWLINES:
                self.error('a string without its closing "', start)
            self.pos += 1
            if c == "\\":
                self.pos += 1
            elif c == '"':
                return

    def verbatim_string_body(self, start):
        self.pos += 1  # the opening quote
        while True:
            c = self.peek()
            if c == "":
                self.error('a verbatim string without its closing "', start)
            self.pos += 1
            if c == '"':
                if self.peek() == '"':
                    self.pos += 1
                else:
                    return

    def interpolated_string(self):
        """`$"..."`, `$@"..."`, `@$"..."`: start, text parts, holes, end, as Roslyn's parser splits them."""
        start = self.pos
        prefix = ""
        while self.peek() in ("$", "@") and len(prefix) < 2:
            prefix += self.peek()
            self.pos += 1
        if self.peek() != '"' or prefix.count("$") != 1:
            self.pos = start
            self.error("a $ that does not start an interpolated string")
        verbatim = "@" in prefix
        self.pos += 1
        self.add("interpolated_start", start)
        while True:
            text_start = self.pos
            while True:
                c = self.peek()
                if c == "":
                    self.error('an interpolated string without its closing "', start)
                if c in NEWLINES and not verbatim:
                    self.error('an interpolated string without its closing "', start)
                if c == "\\" and not verbatim:
                    self.pos += 2
                elif c in "{}" and self.peek(1) == c:
                    self.pos += 2
                elif c == '"' and verbatim and self.peek(1) == '"':
                    self.pos += 2
                elif c in '{"':
                    break
                else:
                    self.pos += 1
            if self.pos > text_start:
                self.tokens.append(Token("interpolated_text", self.src[text_start:self.pos], text_start, self.pos))
            if self.peek() == '"':
                end_start = self.pos
                self.pos += 1
                self.add("interpolated_end", end_start)
                return
            self.hole(start)

    def hole(self, string_start):
        """`{expression[,alignment][:format]}` inside an interpolated string."""
        open_at = self.pos
        self.pos += 1
        self.add("punctuation", open_at)
        colon = self.hole_extent(string_start)
        # The expression (and alignment) are ordinary tokens.
        end = colon if colon is not None else self.hole_close
        sub = Lexer(self.src[:end])
        sub.pos = self.pos
        sub.symbols = self.symbols
        while True:
            sub.skip_trivia()
            if sub.pos >= end:
                break
            sub.lex_token()
        self.tokens.extend(sub.tokens)
        self.pos = end
        if colon is not None:
            self.pos = colon + 1
            self.add("punctuation", colon)
            if self.hole_close > self.pos:
                self.tokens.append(
                    Token("interpolated_text", self.src[self.pos:self.hole_close], self.pos, self.hole_close)
                )
            self.pos = self.hole_close
        close_at = self.pos
        self.pos += 1
        self.add("punctuation", close_at)

    def hole_extent(self, string_start):
        """Finds the hole's closing `}` (into self.hole_close) and returns its format colon or None:
        the first `:` outside nested brackets, strings and characters."""
        depth = []
        i = self.pos
        src = self.src
        colon = None
        while True:
            if i >= len(src):
                self.error("an interpolation hole without its }", string_start)
            c = src[i]
            if c == '"' or c == "'":
                saved = self.pos
                self.pos = i
                if c == '"':
                    self.regular_string_body()
                else:
                    self.char_literal()
                i = self.pos
                self.pos = saved
                continue
            if c == "@" and i + 1 < len(src) and src[i + 1] == '"':
                saved = self.pos
                self.pos = i + 1
                self.verbatim_string_body(i)
                i = self.pos
                self.pos = saved
                continue
            if c == "$":
                self.error("an interpolated string inside an interpolation hole is not supported", i)
            if c in "([{":
                depth.append({"(": ")", "[": "]", "{": "}"}[c])
            elif depth and c == depth[-1]:
                depth.pop()
            elif not depth and c == "}":
                self.hole_close = i
                return colon
            elif not depth and c == ":" and colon is None:
                colon = i
                # The format runs to the closing brace; nothing in it nests.
                j = src.find("}", i)
                if j < 0:
                    self.error("an interpolation hole without its }", string_start)
                self.hole_close = j
                return colon
            i += 1


def line_column(src, pos):
    line = 1
    last = -1
    i = 0
    while i < pos:
        c = src[i]
        if c == "\r" and i + 1 < len(src) and src[i + 1] == "\n":
            i += 1
        if c in NEWLINES:
            line += 1
            last = i
        i += 1
    return line, pos - last


def line_starts(src):
    """Offsets where each line starts, by Roslyn's line breaks (\\r\\n is one)."""
    starts = [0]
    i = 0
    while i < len(src):
        c = src[i]
        if c == "\r" and i + 1 < len(src) and src[i + 1] == "\n":
            i += 1
        if c in NEWLINES:
            starts.append(i + 1)
        i += 1
    return starts


def scan_type_arguments(tokens, i):
    """If the `<` at tokens[i] can open a type argument list, the index of its `>`; else None.
    Marks nothing: the caller decides by the token after the `>`."""
    j = i + 1
    parens = 0
    prev = "<"
    while j < len(tokens):
        t = tokens[j]
        word = t.kind in ("identifier", "keyword") and (t.kind == "identifier" or t.text in PREDEFINED_TYPES)
        if word:
            # Two names in a row only name a tuple element: `(int a, int b)`.
            if prev == "name" and parens == 0:
                return None
            prev = "name"
        elif t.text == "<":
            if prev != "name":
                return None
            k = scan_type_arguments(tokens, j)
            if k is None:
                return None
            j = k
            prev = "close"
        elif t.text == ">":
            return j if parens == 0 and prev in ("name", "close", "?", "]", ")", "*") else None
        elif t.text in (".", "::"):
            if prev != "name":
                return None
            prev = "dot"
        elif t.text == ",":
            prev = ","
        elif t.text in ("?", "*", "]"):
            if prev not in ("name", "close", "?", "]", ")", "*", "["):
                return None
            prev = t.text
        elif t.text == "[":
            prev = "["
        elif t.text == "(":
            parens += 1
            prev = "("
        elif t.text == ")":
            if parens == 0:
                return None
            parens -= 1
            prev = ")"
        else:
            return None
        j += 1
    return None


def mark_type_argument_lists(tokens):
    i = 0
    while i < len(tokens):
        t = tokens[i]
        if t.text == "<" and t.kind == "punctuation" and i > 0 and tokens[i - 1].kind == "identifier":
            k = scan_type_arguments(tokens, i)
            if k is not None:
                after = tokens[k + 1]
                if after.kind in ("identifier", "eof") or (after.kind == "punctuation" and after.text in AFTER_TYPE_ARGUMENTS):
                    mark_closers(tokens, i, k)
        i += 1


def mark_closers(tokens, i, k):
    """Every `>` from tokens[i] to tokens[k] closes a type argument list."""
    for t in tokens[i:k + 1]:
        if t.text == ">":
            t.closes_type_args = True


def join_shifts(tokens):
    """Roslyn's parser: an operator `>` right before `>` or `>=` (nothing between) is `>>`/`>>=`."""
    out = []
    i = 0
    while i < len(tokens):
        t = tokens[i]
        if (
            t.text == ">" and t.kind == "punctuation" and not t.closes_type_args and i + 1 < len(tokens)
        ):
            n = tokens[i + 1]
            if n.kind == "punctuation" and n.text in (">", ">=") and n.start == t.end and not n.closes_type_args:
                joined = Token("punctuation", t.text + n.text, t.start, n.end)
                out.append(joined)
                i += 2
                continue
        out.append(t)
        i += 1
    return out


def add_omitted_tokens(tokens):
    """Roslyn's zero-width tokens of valid code, which the challenge counts like any other:
    an array rank without sizes (`int[]`, `new int[] {..}`, `int[,]`) holds one
    OmittedArraySizeExpressionToken per dimension, and an unbound generic (`List<>`,
    `Dictionary<,>`) one OmittedTypeArgumentToken per argument. `new[] {..}` (an
    implicitly typed array) has no size expressions, so no omitted tokens."""
    out = []
    for i, t in enumerate(tokens):
        out.append(t)
        if t.kind != "punctuation" or t.text not in ("[", "<"):
            continue
        if t.text == "[" and i > 0 and tokens[i - 1].text == "new" and tokens[i - 1].kind == "keyword":
            continue
        if t.text == "<" and (i == 0 or tokens[i - 1].kind != "identifier"):
            continue
        closer = "]" if t.text == "[" else ">"
        j = i + 1
        while j < len(tokens) and tokens[j].text == ",":
            j += 1
        if j < len(tokens) and tokens[j].text == closer and tokens[j].kind == "punctuation":
            for _ in range(j - i):
                out.append(Token("omitted", "", tokens[j].start, tokens[j].start))
            if closer == ">":
                tokens[j].closes_type_args = True
    return out


def cost(token):
    if token.kind in ("string", "interpolated_text"):
        return utf16_length(token.text)
    if token.kind == "keyword" and token.text in FREE_KEYWORDS:
        return 0
    if token.kind == "punctuation" and token.text in FREE_PUNCTUATION:
        return 0
    return 1


def count(src):
    """(tokens, debug_tokens, token list) for C# source text, by the challenge's rules."""
    if src.startswith("\ufeff"):
        src = src[1:]
    lexer = Lexer(src)
    tokens = lexer.run()
    mark_type_argument_lists(tokens)
    tokens = join_shifts(tokens)
    tokens = add_omitted_tokens(tokens)
    starts = line_starts(src)
    debug_lines = {line_of(starts, s) for s in lexer.debug_comment_starts}
    total = 0
    debug = 0
    for t in tokens:
        t.line = line_of(starts, t.start)
        t.cost = cost(t)
        t.debug = t.line in debug_lines
        total += t.cost
        if t.debug:
            debug += t.cost
    return total, debug, tokens


def line_of(starts, pos):
    lo, hi = 0, len(starts) - 1
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if starts[mid] <= pos:
            lo = mid
        else:
            hi = mid - 1
    return lo + 1


def read(path):
    with open(path, "rb") as f:
        data = f.read(MAX_BYTES + 1)
    if len(data) > MAX_BYTES:
        raise LexError(f"the file is larger than {MAX_BYTES} bytes; no bot file is")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        before = data[: e.start].decode("utf-8")
        line, column = line_column(before, len(before))
        raise LexError(f"{line}:{column}: not UTF-8 (byte offset {e.start})") from None


def main(argv):
    args = [a for a in argv if not a.startswith("--")]
    flags = {a for a in argv if a.startswith("--")}
    unknown = flags - {"--json", "--tokens", "--help"}
    if "--help" in flags or unknown or not args:
        if unknown:
            print(f"unknown option {sorted(unknown)[0]}", file=sys.stderr)
        print(__doc__.split("Usage:")[1].split("Written")[0].strip(), file=sys.stderr)
        return 0 if "--help" in flags and not unknown else 2
    status = 0
    for path in args:
        try:
            total, debug, tokens = count(read(path))
        except (LexError, OSError) as e:
            status = 2
            message = e.strerror if isinstance(e, OSError) and e.strerror else str(e)
            if "--json" in flags:
                print(json.dumps({"file": path, "error": message}))
            else:
                print(f"error: {path}: {message}", file=sys.stderr)
            continue
        if "--json" in flags:
            print(json.dumps({"file": path, "tokens": total, "debug_tokens": debug, "developing": total - debug}))
        else:
            print(f"{path}: {total} tokens ({debug} on #DEBUG lines; {total - debug} shown while developing)")
        if "--tokens" in flags:
            for t in tokens:
                mark = " #DEBUG" if t.debug else ""
                print(f"{t.line:>5}  {t.cost:>3}  {t.kind:<18} {t.text!r}{mark}")
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

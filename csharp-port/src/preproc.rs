//! C#'s conditional compilation, done on the text before parsing, as C# does.
//!
//! tree-sitter reads `#if` blocks as items of the tree, so an `#if` that splits a
//! statement (`score =` under `#if DEBUG`, its call after `#endif`) is a syntax error.
//! [`resolve`] blanks the directive lines and the lines of branches not taken, byte for
//! byte (newlines kept), so every other line and column stays where it was. Symbols are
//! undefined (the challenge builds Release, without `DEBUG`) unless the file `#define`s
//! them; `#define` and `#undef` lines are left for the lowering.

use std::collections::HashSet;

use crate::error::{PortError, Span};

/// One open `#if`: whether its enclosing region is kept, whether a branch was taken, and
/// whether the current branch is kept.
struct Open {
    outer: bool,
    taken: bool,
    active: bool,
}

/// `source` with the branches C#'s preprocessor skips blanked out; an error for an
/// unbalanced or unreadable directive.
pub fn resolve(source: &str) -> Result<String, PortError> {
    if !source.contains('#') {
        return Ok(source.to_string());
    }
    let mut defines = HashSet::new();
    let mut stack: Vec<Open> = Vec::new();
    let mut out = String::with_capacity(source.len());
    let mut lexer = LineLexer::default();
    for (index, line) in source.split_inclusive('\n').enumerate() {
        let active = stack.last().is_none_or(|o| o.active);
        let span = Span {
            line: index as u32 + 1,
            column: line.len() as u32 - line.trim_start().len() as u32 + 1,
        };
        let directive = if lexer.at_code() || !active {
            directive(line)
        } else {
            None
        };
        let keep = match directive {
            Some((word, rest)) => {
                let keep = apply(word, rest, active, &mut stack, &mut defines, span, line)?;
                keep && stack.last().is_none_or(|o| o.active)
            }
            None => {
                if active {
                    lexer.scan(line);
                }
                active
            }
        };
        if keep {
            out.push_str(line);
        } else {
            out.extend(line.bytes().map(|b| if b == b'\n' { '\n' } else { ' ' }));
        }
    }
    if stack.is_empty() {
        Ok(out)
    } else {
        let span = Span { line: 1, column: 1 };
        Err(PortError::unsupported(
            span,
            "an `#if` without its `#endif`",
            "#if",
        ))
    }
}

/// A directive line's word and the rest of the line.
fn directive(line: &str) -> Option<(&str, &str)> {
    let body = line.trim_start().strip_prefix('#')?.trim_start();
    let end = body
        .find(|c: char| !c.is_ascii_alphabetic())
        .unwrap_or(body.len());
    let rest = body[end..].split("//").next().unwrap_or("").trim();
    Some((&body[..end], rest))
}

/// Applies one directive; whether its own line is kept (only `#define`/`#undef` and
/// directives the lowering reads, in kept regions).
fn apply(
    word: &str,
    rest: &str,
    active: bool,
    stack: &mut Vec<Open>,
    defines: &mut HashSet<String>,
    span: Span,
    line: &str,
) -> Result<bool, PortError> {
    let unbalanced = || PortError::unsupported(span, format!("an unbalanced `#{word}`"), line);
    match word {
        "if" => {
            let cond = active && condition(rest, defines, span, line)?;
            stack.push(Open {
                outer: active,
                taken: cond,
                active: cond,
            });
        }
        "elif" | "else" => {
            let open = stack.last_mut().ok_or_else(unbalanced)?;
            let cond = open.outer
                && !open.taken
                && (word == "else" || condition(rest, defines, span, line)?);
            open.taken |= cond;
            open.active = cond;
        }
        "endif" => {
            stack.pop().ok_or_else(unbalanced)?;
        }
        "define" | "undef" if active => {
            if word == "define" {
                defines.insert(rest.to_string());
            } else {
                defines.remove(rest);
            }
            return Ok(true);
        }
        _ => {}
    }
    Ok(false)
}

/// A `#if` condition: symbols, `true`, `false`, `!`, `==`, `!=`, `&&`, `||`, parentheses.
fn condition(
    text: &str,
    defines: &HashSet<String>,
    span: Span,
    line: &str,
) -> Result<bool, PortError> {
    let tokens = tokens(text);
    let mut parser = Cond {
        tokens: &tokens,
        at: 0,
        defines,
    };
    match parser.or() {
        Some(value) if parser.at == tokens.len() => Ok(value),
        _ => Err(PortError::unsupported(span, "this `#if` condition", line)),
    }
}

fn tokens(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c.is_whitespace() {
            continue;
        }
        if c.is_alphanumeric() || c == '_' {
            let mut word = c.to_string();
            while let Some(&n) = chars.peek().filter(|n| n.is_alphanumeric() || **n == '_') {
                word.push(n);
                chars.next();
            }
            out.push(word);
        } else if matches!(c, '&' | '|' | '=') || (c == '!' && chars.peek() == Some(&'=')) {
            let second = chars.next().unwrap_or(' ');
            out.push(format!("{c}{second}"));
        } else {
            out.push(c.to_string());
        }
    }
    out
}

/// A recursive-descent reader of a condition; `None` where it is not one.
struct Cond<'t> {
    tokens: &'t [String],
    at: usize,
    defines: &'t HashSet<String>,
}

impl Cond<'_> {
    fn eat(&mut self, token: &str) -> bool {
        let found = self.tokens.get(self.at).is_some_and(|t| t == token);
        self.at += found as usize;
        found
    }

    fn or(&mut self) -> Option<bool> {
        let mut value = self.and()?;
        while self.eat("||") {
            value |= self.and()?;
        }
        Some(value)
    }

    fn and(&mut self) -> Option<bool> {
        let mut value = self.equality()?;
        while self.eat("&&") {
            value &= self.equality()?;
        }
        Some(value)
    }

    fn equality(&mut self) -> Option<bool> {
        let mut value = self.unary()?;
        loop {
            if self.eat("==") {
                value = value == self.unary()?;
            } else if self.eat("!=") {
                value = value != self.unary()?;
            } else {
                return Some(value);
            }
        }
    }

    fn unary(&mut self) -> Option<bool> {
        if self.eat("!") {
            return Some(!self.unary()?);
        }
        if self.eat("(") {
            let value = self.or()?;
            return self.eat(")").then_some(value);
        }
        let token = self.tokens.get(self.at)?;
        self.at += 1;
        match token.as_str() {
            "true" => Some(true),
            "false" => Some(false),
            t if t.chars().all(|c| c.is_alphanumeric() || c == '_') => {
                Some(self.defines.contains(t))
            }
            _ => None,
        }
    }
}

/// Where a line starts: in code, or inside a block comment or a multi-line string (where
/// a `#` line is text, not a directive).
#[derive(Default, Clone, Copy, PartialEq)]
enum LineLexer {
    #[default]
    Code,
    Comment,
    Verbatim,
    Raw,
}

impl LineLexer {
    fn at_code(&self) -> bool {
        *self == LineLexer::Code
    }

    /// Follows `line` to the state at its end.
    fn scan(&mut self, line: &str) {
        let b = line.as_bytes();
        let mut i = 0;
        while i < b.len() {
            let rest = &b[i..];
            i += match self {
                LineLexer::Comment if rest.starts_with(b"*/") => {
                    *self = LineLexer::Code;
                    2
                }
                LineLexer::Verbatim if rest.starts_with(b"\"\"") => 2,
                LineLexer::Verbatim if rest[0] == b'"' => {
                    *self = LineLexer::Code;
                    1
                }
                LineLexer::Raw if rest.starts_with(b"\"\"\"") => {
                    *self = LineLexer::Code;
                    3
                }
                LineLexer::Code => self.code_step(rest),
                _ => 1,
            };
        }
    }

    /// One step in code: the length of the token it skips.
    fn code_step(&mut self, rest: &[u8]) -> usize {
        if rest.starts_with(b"//") {
            return rest.len();
        }
        if rest.starts_with(b"/*") {
            *self = LineLexer::Comment;
            return 2;
        }
        if rest.starts_with(b"\"\"\"") {
            *self = LineLexer::Raw;
            return 3;
        }
        if rest.starts_with(b"@\"") || rest.starts_with(b"$@\"") || rest.starts_with(b"@$\"") {
            *self = LineLexer::Verbatim;
            return rest.iter().position(|&c| c == b'"').unwrap_or(0) + 1;
        }
        if rest[0] == b'"' || rest[0] == b'\'' {
            return quoted_len(rest);
        }
        1
    }
}

/// The length of a one-line string or character literal starting at `rest[0]`.
fn quoted_len(rest: &[u8]) -> usize {
    let quote = rest[0];
    let mut i = 1;
    while i < rest.len() {
        match rest[i] {
            b'\\' => i += 2,
            c if c == quote || c == b'\n' => return i + 1,
            _ => i += 1,
        }
    }
    rest.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_debug_branch_is_blanked_and_else_kept() {
        let src = "a\n#if DEBUG\nb =\n#else\nc =\n#endif\nd;\n";
        let out = resolve(src).unwrap();
        assert_eq!(out, "a\n         \n   \n     \nc =\n      \nd;\n");
        assert_eq!(out.len(), src.len());
    }

    #[test]
    fn defines_elif_and_nesting_follow_csharp() {
        let src =
            "#define X\n#if !X\na\n#elif X && (Y || true)\nb\n#if Y\nc\n#endif\n#else\nd\n#endif\n";
        let out = resolve(src).unwrap();
        let kept: Vec<&str> = out
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .collect();
        assert_eq!(kept, ["#define X", "b"]);
    }

    #[test]
    fn a_hash_line_in_a_verbatim_string_is_text() {
        let src = "var s = @\"x\n#if A\n\";\n";
        assert_eq!(resolve(src).unwrap(), src);
    }

    #[test]
    fn an_unbalanced_endif_names_its_line() {
        let err = resolve("a\n#endif\n").unwrap_err();
        assert_eq!(err.span.line, 2);
    }
}

//! Finds the lines that carry a `// ... #DEBUG` comment.
//!
//! proc-macro2 drops plain comments, so the `#DEBUG` marker is invisible in
//! the token stream. This is a small lexer of its own over the raw source: it
//! only needs to know where comments are, which means skipping everything
//! that can *contain* `//` without being a comment (strings of every kind,
//! char literals) and telling a char literal from a lifetime, whose lone `'`
//! would otherwise start a runaway "char".

/// Returns, for each 1-based line number `n`, `result[n]`: whether line `n`
/// has a `//` comment whose text contains `#DEBUG` in any case. Index 0 is
/// unused so that line numbers index directly.
pub(crate) fn debug_lines(src: &str) -> Vec<bool> {
    let chars: Vec<char> = src.chars().collect();
    let line_count = src.lines().count().max(1);
    let mut debug = vec![false; line_count + 2];
    let mut line = 1usize;
    let mut i = 0usize;
    let at = |k: usize| chars.get(k).copied();

    while i < chars.len() {
        let c = chars[i];
        match c {
            '\n' => {
                line += 1;
                i += 1;
            }
            '/' if at(i + 1) == Some('/') => {
                let start = i;
                while i < chars.len() && chars[i] != '\n' {
                    i += 1;
                }
                let text: String = chars[start..i].iter().collect();
                if text.to_ascii_uppercase().contains("#DEBUG") {
                    debug[line] = true;
                }
            }
            '/' if at(i + 1) == Some('*') => {
                // Block comments nest in Rust: `/* /* */ still comment */`.
                let mut depth = 0usize;
                while i < chars.len() {
                    if chars[i] == '/' && at(i + 1) == Some('*') {
                        depth += 1;
                        i += 2;
                    } else if chars[i] == '*' && at(i + 1) == Some('/') {
                        depth -= 1;
                        i += 2;
                        if depth == 0 {
                            break;
                        }
                    } else {
                        if chars[i] == '\n' {
                            line += 1;
                        }
                        i += 1;
                    }
                }
            }
            '"' => {
                i = skip_quoted(&chars, i + 1, &mut line);
            }
            '\'' => {
                i = skip_char_or_lifetime(&chars, i);
            }
            c if c == '_' || c.is_alphabetic() => {
                let start = i;
                while i < chars.len() && (chars[i] == '_' || chars[i].is_alphanumeric()) {
                    i += 1;
                }
                let word: String = chars[start..i].iter().collect();
                match (word.as_str(), at(i)) {
                    // `r#ident` is a raw identifier, `r#"..."#` a raw string.
                    ("r" | "br" | "cr", Some('#'))
                        if at(i + 1) == Some('#') || at(i + 1) == Some('"') =>
                    {
                        i = skip_raw(&chars, i, &mut line);
                    }
                    ("r" | "br" | "cr", Some('"')) => i = skip_raw(&chars, i, &mut line),
                    ("b" | "c", Some('"')) => i = skip_quoted(&chars, i + 1, &mut line),
                    ("b", Some('\'')) => i = skip_char_or_lifetime(&chars, i),
                    _ => {}
                }
            }
            c if c.is_ascii_digit() => {
                // A number can hold letters (`0xFFu8`, `1e5`) but never a quote
                // or slash, so skipping its alphanumerics keeps us in sync.
                while i < chars.len() && (chars[i] == '_' || chars[i].is_alphanumeric()) {
                    i += 1;
                }
            }
            _ => i += 1,
        }
    }
    debug
}

/// Skips an escaped string body starting just after its opening quote.
fn skip_quoted(chars: &[char], mut i: usize, line: &mut usize) -> usize {
    while i < chars.len() {
        match chars[i] {
            '\\' => {
                if chars.get(i + 1) == Some(&'\n') {
                    *line += 1;
                }
                i += 2;
            }
            '"' => return i + 1,
            '\n' => {
                *line += 1;
                i += 1;
            }
            _ => i += 1,
        }
    }
    i
}

/// Skips a raw string whose hashes start at `i` (just after the `r` prefix).
fn skip_raw(chars: &[char], mut i: usize, line: &mut usize) -> usize {
    let mut hashes = 0;
    while chars.get(i) == Some(&'#') {
        hashes += 1;
        i += 1;
    }
    // Past the opening quote.
    i += 1;
    while i < chars.len() {
        if chars[i] == '"' && (1..=hashes).all(|k| chars.get(i + k) == Some(&'#')) {
            return i + 1 + hashes;
        }
        if chars[i] == '\n' {
            *line += 1;
        }
        i += 1;
    }
    i
}

/// At a `'`: a char literal (`'x'`, `'\n'`, `'\u{1F600}'`) is skipped whole; a
/// lifetime or label (`'a`, `'outer`) only past its quote, so its name is
/// lexed as an ordinary word.
fn skip_char_or_lifetime(chars: &[char], i: usize) -> usize {
    let next = chars.get(i + 1).copied();
    if next == Some('\\') {
        let mut k = i + 2;
        // Skip the escaped character itself so `'\''` does not end early.
        k += 1;
        while k < chars.len() && chars[k] != '\'' && chars[k] != '\n' {
            k += 1;
        }
        // Never step over a newline: the caller counts lines.
        return if chars.get(k) == Some(&'\'') {
            k + 1
        } else {
            k
        };
    }
    if chars.get(i + 2) == Some(&'\'') {
        return i + 3;
    }
    i + 1
}

#[cfg(test)]
mod tests {
    use super::debug_lines;

    fn lines_of(src: &str) -> Vec<usize> {
        debug_lines(src)
            .iter()
            .enumerate()
            .filter(|(_, d)| **d)
            .map(|(n, _)| n)
            .collect()
    }

    #[test]
    fn finds_marker_in_any_case() {
        assert_eq!(lines_of("a\nb; // #debug\nc // #DeBuG x\n"), vec![2, 3]);
    }

    #[test]
    fn ignores_marker_inside_strings_and_block_comments() {
        let src = "let s = \"// #DEBUG\";\nlet r = r#\"// #DEBUG\"#;\n/* // #DEBUG */ x\nlet b = b\"// #DEBUG\";\n";
        assert_eq!(lines_of(src), Vec::<usize>::new());
    }

    #[test]
    fn lifetimes_do_not_start_a_char_literal() {
        let src = "fn f<'a>(x: &'a str) -> char { 'x' } // #DEBUG\nlet q = '\\''; // #DEBUG\n";
        assert_eq!(lines_of(src), vec![1, 2]);
    }

    #[test]
    fn multi_line_strings_keep_line_numbers() {
        let src =
            "let s = \"a\nb // #DEBUG\nc\";\nx; // #DEBUG\n/* a\n/* nested */\n// #DEBUG */ y\n";
        assert_eq!(lines_of(src), vec![4]);
    }

    #[test]
    fn marker_in_block_comment_does_not_count() {
        assert_eq!(lines_of("x /* #DEBUG */;\n"), Vec::<usize>::new());
    }
}

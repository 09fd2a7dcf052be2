//! Parsing C# with tree-sitter's C# grammar, and the one repair it needs.
//!
//! The grammar refuses a call of a ref-returning method as the target of an assignment
//! (`Hist(m) += d * d;`, legal C# since 7.0). Before giving up on a file with a syntax
//! error, [`parse`] rewrites such calls of the file's own `ref`-returning methods into
//! element accesses of the same length (`Hist[m] += d * d;`), so every later line and
//! column stays where it was, and parses again; the lowering knows the name is a method.

use tree_sitter::{Node, Parser, Tree};

use crate::error::{PortError, Span};

/// A parsed file: its tree and the source it was parsed from.
pub struct Parsed {
    /// The syntax tree.
    pub tree: Tree,
    /// The source text (after the repair, if one was needed).
    pub source: String,
}

/// Parses `source`; an error names the first place tree-sitter could not read.
pub fn parse(source: &str) -> Result<Parsed, PortError> {
    let resolved = crate::preproc::resolve(source)?;
    let source = resolved.as_str();
    let tree = parse_text(source)?;
    if !tree.root_node().has_error() {
        return Ok(Parsed {
            tree,
            source: source.to_string(),
        });
    }
    let repaired = repair_ref_call_assignments(source);
    if repaired != source {
        let again = parse_text(&repaired)?;
        if !again.root_node().has_error() {
            return Ok(Parsed {
                tree: again,
                source: repaired,
            });
        }
    }
    Err(unsafe_code(source).unwrap_or_else(|| first_error(tree.root_node(), source)))
}

/// Unsafe code (pointers, `fixed`) is often what tree-sitter cannot read, and the port
/// refuses it anyway: naming it says why better than the parser's first error.
fn unsafe_code(source: &str) -> Option<PortError> {
    let bytes = source.as_bytes();
    let mut at = 0;
    while let Some(found) = source[at..].find("unsafe") {
        let start = at + found;
        at = start + "unsafe".len();
        let bounded = (start == 0 || !is_ident_byte(bytes[start - 1]))
            && bytes.get(at).is_none_or(|&b| !is_ident_byte(b));
        let line_start = source[..start].rfind('\n').map_or(0, |i| i + 1);
        let line = &source[line_start..];
        if bounded && !line[..start - line_start].contains("//") {
            let span = Span {
                line: source[..start].matches('\n').count() as u32 + 1,
                column: (start - line_start) as u32 + 1,
            };
            let text = line.lines().next().unwrap_or("").trim();
            return Some(PortError::unsupported(
                span,
                "unsafe code (pointers, `fixed`)",
                text,
            ));
        }
    }
    None
}

fn parse_text(source: &str) -> Result<Tree, PortError> {
    let mut parser = Parser::new();
    parser
        .set_language(&tree_sitter_c_sharp::LANGUAGE.into())
        .map_err(|err| PortError::internal(format!("the C# grammar does not load: {err}")))?;
    parser
        .parse(source, None)
        .ok_or_else(|| PortError::internal("tree-sitter gave no tree".to_string()))
}

/// The first error or missing node, as a syntax error at its place.
fn first_error(root: Node, source: &str) -> PortError {
    let mut cursor = root.walk();
    let mut stack = vec![root];
    while let Some(node) = stack.pop() {
        if node.is_error() || node.is_missing() {
            let text = node.utf8_text(source.as_bytes()).unwrap_or("");
            let text: String = text.chars().take(40).collect();
            return PortError::syntax(Span::of(node), text);
        }
        let children: Vec<Node> = node.children(&mut cursor).collect();
        stack.extend(
            children
                .into_iter()
                .rev()
                .filter(|c| c.has_error() || c.is_missing()),
        );
    }
    PortError::syntax(Span::of(root), String::new())
}

/// The names of methods declared `ref T Name(` in `source`, and of lambdas declared
/// `var Name = (...) => ref`.
fn ref_method_names(source: &str) -> Vec<String> {
    let mut names = ref_lambda_names(source);
    let bytes = source.as_bytes();
    let mut at = 0;
    while let Some(found) = source[at..].find("ref ") {
        let start = at + found;
        at = start + 4;
        if start > 0 && is_ident_byte(bytes[start - 1]) {
            continue;
        }
        // `ref TYPE NAME(`: a type (letters, digits, `<>,.[]` and spaces), then a name.
        let rest = &source[at..];
        let Some(paren) = rest.find('(') else { break };
        let head = &rest[..paren];
        if head.contains(['=', ';', '{', '}', ')', '\n']) {
            continue;
        }
        let mut words = head.split_whitespace();
        let (Some(_), Some(name), None) = (words.next(), words.next(), words.next()) else {
            continue;
        };
        if name.bytes().all(is_ident_byte) && !names.iter().any(|n| n == name) {
            names.push(name.to_string());
        }
    }
    names
}

/// The names of `var Name = (T x) => ref ...;` locals.
fn ref_lambda_names(source: &str) -> Vec<String> {
    let mut names = Vec::new();
    for (at, _) in source.match_indices("var ") {
        if at > 0 && is_ident_byte(source.as_bytes()[at - 1]) {
            continue;
        }
        let rest = &source[at + 4..];
        let Some((name, rest)) = rest.split_once('=') else {
            continue;
        };
        let name = name.trim();
        let rest = rest.trim_start();
        if name.is_empty() || !name.bytes().all(is_ident_byte) || !rest.starts_with('(') {
            continue;
        }
        let Some(close) = matching_paren(rest.as_bytes(), 0) else {
            continue;
        };
        let after = rest[close + 1..].trim_start();
        let Some(body) = after.strip_prefix("=>") else {
            continue;
        };
        let body = body.trim_start();
        if body.starts_with("ref")
            && !body[3..].starts_with(|c: char| c == '_' || c.is_alphanumeric())
        {
            names.push(name.to_string());
        }
    }
    names
}

fn is_ident_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// `Name(args) op= ...` and `Name(args)++` for the file's ref-returning methods become
/// `Name[args] op= ...`: same length, parseable.
fn repair_ref_call_assignments(source: &str) -> String {
    let mut bytes = source.as_bytes().to_vec();
    for name in ref_method_names(source) {
        let mut at = 0;
        while let Some(found) = source[at..].find(name.as_str()) {
            let start = at + found;
            at = start + name.len();
            let before_ok = start == 0 || !is_ident_byte(source.as_bytes()[start - 1]);
            if !before_ok || source.as_bytes().get(at) != Some(&b'(') {
                continue;
            }
            let Some(close) = matching_paren(source.as_bytes(), at) else {
                continue;
            };
            if is_assignment_after(&source[close + 1..]) {
                bytes[at] = b'[';
                bytes[close] = b']';
            }
        }
    }
    String::from_utf8(bytes).unwrap_or_else(|_| source.to_string())
}

fn matching_paren(bytes: &[u8], open: usize) -> Option<usize> {
    let mut depth = 0usize;
    for (i, &b) in bytes.iter().enumerate().skip(open) {
        match b {
            b'(' => depth += 1,
            b')' => {
                depth -= 1;
                if depth == 0 {
                    return Some(i);
                }
            }
            b';' | b'{' | b'}' => return None,
            _ => {}
        }
    }
    None
}

fn is_assignment_after(rest: &str) -> bool {
    let rest = rest.trim_start();
    if rest.starts_with("++") || rest.starts_with("--") {
        return true;
    }
    let ops = [
        "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>=", ">>>=", "??=",
    ];
    ops.iter().any(|op| rest.starts_with(op))
        || (rest.starts_with('=') && !rest.starts_with("==") && !rest.starts_with("=>"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_ref_call_assignment_is_repaired_in_place() {
        let source = "class A { int[] h; ref int Hist(int m) => ref h[m];\n void F(int m) { Hist(m) += Hist(m + 1); Hist(m)++; } }";
        // The declaration's own `=>` is not an assignment.
        assert!(repair_ref_call_assignments(source).contains("ref int Hist(int m) =>"));
        let repaired = repair_ref_call_assignments(source);
        assert!(
            repaired.contains("Hist[m] += Hist(m + 1); Hist[m]++;"),
            "{repaired}"
        );
        assert_eq!(repaired.len(), source.len());
        assert!(parse(source).is_ok());
    }

    #[test]
    fn a_syntax_error_names_its_line() {
        let err = parse("class A {\n void F() { int x = ; }\n}")
            .err()
            .unwrap();
        assert_eq!(err.span.line, 2, "{err}");
        assert!(err.to_string().starts_with("line 2, column "), "{err}");
    }
}

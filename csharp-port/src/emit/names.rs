//! C# names into Rust's conventions: `bestMove` -> `best_move`, `MAX_DEPTH` stays,
//! `Search` -> `search`, types stay CamelCase; keywords and the names the port itself
//! uses get a trailing `_`.

/// Rust's keywords (strict and reserved) and the names a port uses for itself.
const RESERVED: &[&str] = &[
    // Functions of the prelude the port calls by name.
    "knight_attacks", "king_attacks", "pawn_attacks", "bishop_attacks", "rook_attacks",
    "queen_attacks", "piece_attacks", "try_search", "report", "slot",
    "as",
    "break",
    "const",
    "continue",
    "crate",
    "else",
    "enum",
    "extern",
    "false",
    "fn",
    "for",
    "if",
    "impl",
    "in",
    "let",
    "loop",
    "match",
    "mod",
    "move",
    "mut",
    "pub",
    "ref",
    "return",
    "self",
    "Self",
    "static",
    "struct",
    "super",
    "trait",
    "true",
    "type",
    "unsafe",
    "use",
    "where",
    "while",
    "async",
    "await",
    "dyn",
    "abstract",
    "become",
    "box",
    "do",
    "final",
    "macro",
    "override",
    "priv",
    "typeof",
    "unsized",
    "virtual",
    "yield",
    "try",
    "gen",
    "union",
    // The port's own names, which a local must not shadow.
    "cs",
    "framework",
    "std",
    "core",
    "alloc",
    "bot",
    "abort_search",
    "catch_abort",
    "Some",
    "None",
    "Ok",
    "Err",
    "Option",
    "Vec",
    "String",
    "Default",
    "Box",
];

/// `bestMove` -> `best_move`, `MAX` -> `max`, `IsOK` -> `is_ok`, `x2` -> `x2`.
pub(crate) fn snake(name: &str) -> String {
    let chars: Vec<char> = name.chars().collect();
    let mut out = String::new();
    for (i, &c) in chars.iter().enumerate() {
        if c.is_uppercase() {
            let prev = i.checked_sub(1).map(|j| chars[j]);
            let next = chars.get(i + 1);
            let boundary = match prev {
                Some(p) if p.is_lowercase() || p.is_ascii_digit() => true,
                Some(p) if p.is_uppercase() => next.is_some_and(|n| n.is_lowercase()),
                _ => false,
            };
            if boundary && !out.ends_with('_') {
                out.push('_');
            }
            out.extend(c.to_lowercase());
        } else {
            out.push(c);
        }
    }
    escape(out)
}

/// `pieceValues` -> `PIECE_VALUES`.
pub(crate) fn screaming(name: &str) -> String {
    let s = snake(name);
    escape(s.trim_end_matches('_').to_uppercase())
}

/// `myStruct` -> `MyStruct`.
pub(crate) fn camel(name: &str) -> String {
    let mut out = String::new();
    let mut upper = true;
    for c in name.chars() {
        if c == '_' {
            upper = true;
            continue;
        }
        if upper {
            out.extend(c.to_uppercase());
            upper = false;
        } else {
            out.push(c);
        }
    }
    if out.is_empty() {
        out.push_str("Type");
    }
    escape(out)
}

fn escape(mut name: String) -> String {
    if name.is_empty() || name == "_" {
        return "unnamed".into();
    }
    if RESERVED.contains(&name.as_str()) || name.starts_with(|c: char| c.is_ascii_digit()) {
        name.push('_');
    }
    name
}

/// A name not yet in `taken` (adding `_2`, `_3`... to `name`), which it then takes.
pub(crate) fn fresh(name: String, taken: &mut std::collections::HashSet<String>) -> String {
    if taken.insert(name.clone()) {
        return name;
    }
    for n in 2.. {
        let candidate = format!("{name}_{n}");
        if taken.insert(candidate.clone()) {
            return candidate;
        }
    }
    unreachable!("some suffix is free")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_follow_rust_conventions() {
        assert_eq!(snake("bestMove"), "best_move");
        assert_eq!(snake("Search"), "search");
        assert_eq!(snake("IsOK"), "is_ok");
        assert_eq!(snake("TTEntry"), "tt_entry");
        assert_eq!(snake("move"), "move_");
        assert_eq!(snake("x2y"), "x2y");
        assert_eq!(snake("MAX_DEPTH"), "max_depth");
        assert_eq!(screaming("pieceValues"), "PIECE_VALUES");
        assert_eq!(camel("entry"), "Entry");
        assert_eq!(snake("self"), "self_");
    }
}

//! Engine-provided text made safe to keep: one line, printable, capped.
//!
//! Everything an engine says is untrusted. Whatever of it the runner passes on (its
//! `id name`, the tail of its stderr, a garbage `bestmove`, the fault sentence built
//! around them) goes through [`one_line`] first, so PGN, JSON, databases and reports
//! never receive a newline that starts a forged record, a terminal escape sequence,
//! a bidirectional-override that makes text read backwards, or megabytes of noise.

/// Longest engine-provided name kept (`id name`, option names), in characters.
pub const MAX_NAME_CHARS: usize = 128;

/// Longest single stderr line kept, in characters.
pub const MAX_STDERR_LINE_CHARS: usize = 300;

/// Longest fault sentence kept (the game's detail), in characters.
pub const MAX_DETAIL_CHARS: usize = 1000;

/// Longest `bestmove` text kept for a fault report, in characters (a UCI move has 4 or 5).
pub const MAX_MOVE_CHARS: usize = 32;

/// What a cut text ends with.
const ELLIPSIS: char = '…';

/// `text` as one printable line of at most `max_chars` characters.
///
/// Line breaks and tabs become spaces; other control characters, Unicode format
/// characters that reorder or hide text (bidi overrides, zero-width marks, the byte
/// order mark) and line/paragraph separators become `�`. A text longer than
/// `max_chars` is cut and ends with `…` (counted in the limit). Leading and trailing
/// spaces are trimmed.
///
/// ```
/// use runner::one_line;
/// assert_eq!(one_line("bestmove e2e4\ninfo string x", 100), "bestmove e2e4 info string x");
/// assert_eq!(one_line("\u{1b}[31mred\u{202e}", 100), "�[31mred�");
/// assert_eq!(one_line("abcdefgh", 5), "abcd…");
/// assert_eq!(one_line("  plain  ", 100), "plain");
/// ```
pub fn one_line(text: &str, max_chars: usize) -> String {
    let text = text.trim();
    let mut out = String::with_capacity(text.len().min(max_chars * 4));
    for (count, c) in text.chars().enumerate() {
        if count == max_chars {
            // Replace the last kept character so the cut is visible within the limit.
            if max_chars > 0 {
                out.pop();
                out.push(ELLIPSIS);
            }
            break;
        }
        out.push(printable(c));
    }
    out
}

/// `true` when [`one_line`] would return `text` unchanged (for any limit of at least its
/// length): the cheap check for text that is already clean.
///
/// ```
/// use runner::is_one_line;
/// assert!(is_one_line("e2e4"));
/// assert!(!is_one_line("a\nb"));
/// ```
pub fn is_one_line(text: &str) -> bool {
    text.trim() == text && text.chars().all(|c| printable(c) == c)
}

fn printable(c: char) -> char {
    match c {
        '\n' | '\r' | '\t' => ' ',
        _ if c.is_control() || is_hidden_format(c) => char::REPLACEMENT_CHARACTER,
        _ => c,
    }
}

/// Unicode characters that are invisible or rearrange the text around them.
fn is_hidden_format(c: char) -> bool {
    matches!(
        c,
        '\u{200b}'..='\u{200f}'   // zero-width space/joiners, LRM, RLM
        | '\u{2028}'..='\u{202e}' // line/paragraph separators, bidi embeddings/overrides
        | '\u{2060}'..='\u{2069}' // word joiner, invisible operators, bidi isolates
        | '\u{feff}'              // byte order mark
        | '\u{fff9}'..='\u{fffb}' // interlinear annotations
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cuts_by_characters_not_bytes() {
        assert_eq!(one_line("ééééé", 3), "éé…");
        assert_eq!(one_line("ééé", 3), "ééé");
        assert_eq!(one_line("abc", 0), "");
    }

    #[test]
    fn every_line_break_and_control_goes() {
        let nasty = "a\r\nb\u{0}c\u{7f}d\u{85}e\u{2028}f\u{2029}g";
        let clean = one_line(nasty, 100);
        assert!(clean.chars().all(|c| !c.is_control()), "{clean:?}");
        assert!(!clean.contains(['\u{2028}', '\u{2029}']));
        assert!(is_one_line(&clean));
    }
}

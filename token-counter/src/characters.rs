//! Characters that make a file read differently to a person than to rustc.
//!
//! Bidirectional controls reorder what an editor shows ("Trojan Source"),
//! zero-width and other format characters hide, and a lone carriage return,
//! a form feed or a Unicode line separator starts a new line in some editors
//! while rustc (and `//` comments) run on to the next `\n`. The rules refuse
//! them anywhere, strings and comments included, so what a reviewer reads
//! is what is compiled and counted. (A byte order mark at the very start is
//! dropped before this check, as rustc drops it.)

use crate::rules::{Rule, Violation};
use crate::tokens::Pos;

/// Every broken `invisible-character` rule in `text`, in source order.
pub(crate) fn check(text: &str) -> Vec<Violation> {
    let mut out = Vec::new();
    let mut pos = Pos { line: 1, column: 1 };
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        let lone_cr = c == '\r' && chars.peek() != Some(&'\n');
        if lone_cr || is_refused(c) {
            out.push(Violation::new(
                Rule::InvisibleCharacter,
                pos,
                format!(
                    "the character U+{:04X} ({}) is refused",
                    c as u32,
                    describe(c)
                ),
            ));
        }
        if c == '\n' {
            pos = Pos {
                line: pos.line + 1,
                column: 1,
            };
        } else {
            pos.column += 1;
        }
    }
    out
}

/// Line breaks other than `\n` (a `\r` is judged with its successor) and
/// the Unicode format characters (general category Cf).
fn is_refused(c: char) -> bool {
    matches!(
        c,
        '\u{0B}' | '\u{0C}' | '\u{85}' | '\u{2028}' | '\u{2029}'
            | '\u{AD}'
            | '\u{600}'..='\u{605}'
            | '\u{61C}'
            | '\u{6DD}'
            | '\u{70F}'
            | '\u{890}'..='\u{891}'
            | '\u{8E2}'
            | '\u{180E}'
            | '\u{200B}'..='\u{200F}'
            | '\u{202A}'..='\u{202E}'
            | '\u{2060}'..='\u{2064}'
            | '\u{2066}'..='\u{206F}'
            | '\u{FEFF}'
            | '\u{FFF9}'..='\u{FFFB}'
            | '\u{110BD}'
            | '\u{110CD}'
            | '\u{13430}'..='\u{1343F}'
            | '\u{1BCA0}'..='\u{1BCA3}'
            | '\u{1D173}'..='\u{1D17A}'
            | '\u{E0001}'
            | '\u{E0020}'..='\u{E007F}'
    )
}

fn describe(c: char) -> &'static str {
    match c {
        '\r' => "a carriage return not followed by a line feed",
        '\u{0B}' | '\u{0C}' | '\u{85}' | '\u{2028}' | '\u{2029}' => "a line break other than `\\n`",
        '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}' | '\u{61C}' | '\u{200E}' | '\u{200F}' => {
            "a bidirectional text control"
        }
        _ => "an invisible format character",
    }
}

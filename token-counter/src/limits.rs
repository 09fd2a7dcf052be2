//! The bounds that keep any input, however hostile, from crashing the
//! counter: a file size, a nesting depth and a token count, all checked
//! before `syn` parses (and recurses), and the stack the parse runs on.
//!
//! `syn` parses by recursive descent, and not only into delimiters: every
//! prefix operator (`!!!!x`), reference type (`&&&&T`), `else if` and
//! right-associative assignment is one more level. Each level consumes at
//! least one token, so bounding the tokens bounds the depth; the analysis
//! thread's stack is sized for [`MAX_TOKENS`] levels of the deepest of these
//! (measured by the `deep_input` tests, in debug and release builds). The
//! counter's own walks recurse only into delimiters, bounded by
//! [`MAX_NESTING`].

use proc_macro2::{TokenStream, TokenTree};

use crate::ParseError;

/// The largest bot file, in bytes: 256 KiB. A 1024-token bot is a few
/// kilobytes of code; the rest of the allowance is for free comments.
pub const MAX_FILE_BYTES: usize = 256 * 1024;

/// How deep delimiters (`(`, `[`, `{`) may nest. Real bots stay under 20.
pub const MAX_NESTING: usize = 128;

/// The most lexical tokens a file may have (every token, free ones too):
/// 32 times the limit, so an over-limit file under development is still
/// counted and shown.
pub const MAX_TOKENS: usize = 32 * crate::LIMIT;

/// The analysis thread's stack. Only the pages a parse touches are ever
/// committed; the rest is address space.
pub(crate) const STACK_BYTES: usize = 1 << 30;

/// Refuses a text over [`MAX_FILE_BYTES`].
pub(crate) fn check_size(source: &str) -> Result<(), ParseError> {
    if source.len() > MAX_FILE_BYTES {
        return Err(ParseError {
            message: format!(
                "the file is {} bytes, more than the {MAX_FILE_BYTES} a bot file may have",
                source.len()
            ),
            line: 1,
            column: 1,
        });
    }
    Ok(())
}

/// Refuses a token stream nested deeper than [`MAX_NESTING`] or longer than
/// [`MAX_TOKENS`]. Walks with an explicit stack, so it cannot overflow.
pub(crate) fn check_shape(stream: &TokenStream) -> Result<(), ParseError> {
    let mut stack = vec![stream.clone().into_iter()];
    let mut tokens = 0usize;
    while let Some(top) = stack.last_mut() {
        let Some(tree) = top.next() else {
            stack.pop();
            continue;
        };
        tokens += 1;
        let at = tree.span().start();
        let refuse = |message: String| ParseError {
            message,
            line: at.line,
            column: at.column + 1,
        };
        if tokens > MAX_TOKENS {
            return Err(refuse(format!(
                "the file has more than {MAX_TOKENS} tokens (32 times the limit); \
                 it is refused before parsing"
            )));
        }
        if let TokenTree::Group(group) = tree {
            // The group is at depth `stack.len()`: the top level is 1 frame.
            if stack.len() > MAX_NESTING {
                return Err(refuse(format!(
                    "delimiters nest more than {MAX_NESTING} deep here; the rules allow at most {MAX_NESTING}"
                )));
            }
            stack.push(group.stream().into_iter());
        }
    }
    Ok(())
}

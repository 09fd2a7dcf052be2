//! The client's command lines, read with a bound on their length.
//!
//! `BufRead::lines` would hold a line of any length in memory (a client that never
//! sends a newline would grow it until the memory limit ends the engine) and ends at the
//! first line that is not UTF-8. Here a line past [`MAX_COMMAND_BYTES`] is read past and
//! refused, a line that is not UTF-8 is refused, and the engine goes on with the next.

use std::io::BufRead;

/// Longest command line the host reads: a `position startpos moves ...` of the longest
/// possible game (under 12,000 plies of at most 6 characters and a space) fits with room
/// to spare.
pub const MAX_COMMAND_BYTES: usize = 256 * 1024;

/// One line from the client, or why it is not one the host reads.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Line {
    /// A line, without its line ending.
    Text(String),
    /// A line longer than [`MAX_COMMAND_BYTES`] (its length in bytes, as far as read).
    TooLong(usize),
    /// A line that is not UTF-8.
    NotUtf8,
}

/// Reads the next line of `input` (`None` at the end of input or on a read error), keeping
/// at most [`MAX_COMMAND_BYTES`] of it.
pub(crate) fn next_line(input: &mut impl BufRead) -> Option<Line> {
    let mut kept = Vec::new();
    let mut length = 0usize;
    loop {
        let chunk = match input.fill_buf() {
            Ok(chunk) => chunk,
            Err(err) if err.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(_) => return None,
        };
        if chunk.is_empty() {
            // End of input: a last line without a newline still counts.
            return (length > 0).then(|| finish(kept, length));
        }
        let (part, ends) = match chunk.iter().position(|&b| b == b'\n') {
            Some(at) => (&chunk[..at], true),
            None => (chunk, false),
        };
        length = length.saturating_add(part.len());
        if kept.len() <= MAX_COMMAND_BYTES {
            let room = MAX_COMMAND_BYTES + 1 - kept.len();
            kept.extend_from_slice(&part[..part.len().min(room)]);
        }
        let used = part.len() + usize::from(ends);
        input.consume(used);
        if ends {
            return Some(finish(kept, length));
        }
    }
}

fn finish(mut kept: Vec<u8>, length: usize) -> Line {
    if length > MAX_COMMAND_BYTES {
        return Line::TooLong(length);
    }
    if kept.last() == Some(&b'\r') {
        kept.pop();
    }
    String::from_utf8(kept).map_or(Line::NotUtf8, Line::Text)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all(bytes: &[u8]) -> Vec<Line> {
        // A small buffer, so lines arrive in many chunks.
        let mut input = std::io::BufReader::with_capacity(7, bytes);
        std::iter::from_fn(|| next_line(&mut input)).collect()
    }

    #[test]
    fn lines_chunks_and_endings() {
        assert_eq!(
            all(b"uci\r\nisready\n\nposition startpos moves e2e4 e7e5\ngo"),
            [
                Line::Text("uci".into()),
                Line::Text("isready".into()),
                Line::Text(String::new()),
                Line::Text("position startpos moves e2e4 e7e5".into()),
                Line::Text("go".into()),
            ]
        );
        assert_eq!(all(b""), []);
    }

    #[test]
    fn an_overlong_or_broken_line_is_refused_and_the_next_is_read() {
        let mut input = vec![b'x'; MAX_COMMAND_BYTES + 10];
        input.extend_from_slice(b"\n\xff\xfe\nisready\n");
        let mut exact = vec![b'y'; MAX_COMMAND_BYTES];
        exact.push(b'\n');
        input.extend_from_slice(&exact);
        let lines = all(&input);
        assert_eq!(lines[0], Line::TooLong(MAX_COMMAND_BYTES + 10));
        assert_eq!(lines[1], Line::NotUtf8);
        assert_eq!(lines[2], Line::Text("isready".into()));
        assert_eq!(lines[3], Line::Text("y".repeat(MAX_COMMAND_BYTES)));
        assert_eq!(lines.len(), 4);
    }
}

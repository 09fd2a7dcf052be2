//! An engine's output split into lines while holding a bounded amount of it.
//!
//! A line-reading loop that appends until it sees `\n` lets an engine that never sends
//! one fill the runner's memory. [`LineSplitter`] keeps at most its limit of one line;
//! past it the line is reported as [`Piece::Overlong`] and the rest of it, up to the
//! next `\n`, is skipped without being stored.

use std::collections::VecDeque;

use crate::text::{MAX_STDERR_LINE_CHARS, one_line};

/// Longest stdout line an engine may send, in bytes. UCI lines are short (a long `info
/// ... pv` has a few hundred bytes); past this the engine has broken the protocol.
pub const MAX_LINE_BYTES: usize = 64 * 1024;

/// How many lines of an engine's stderr are kept for the fault report.
pub const STDERR_TAIL_LINES: usize = 20;

/// How many bytes of stderr lines are kept at most, over all kept lines.
pub const STDERR_TAIL_BYTES: usize = 4 * 1024;

/// Longest stderr line read before it is cut, in bytes.
const STDERR_LINE_BYTES: usize = 1024;

/// One piece of output found by a [`LineSplitter`].
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Piece<'a> {
    /// A whole line, without its `\n` or `\r\n`.
    Line(&'a [u8]),
    /// The first bytes of a line longer than the limit; the rest is skipped.
    Overlong(&'a [u8]),
}

/// Splits a byte stream into lines of at most `max` bytes each.
#[derive(Debug)]
pub(crate) struct LineSplitter {
    current: Vec<u8>,
    max: usize,
    skipping: bool,
}

impl LineSplitter {
    pub(crate) fn new(max: usize) -> LineSplitter {
        LineSplitter {
            current: Vec::new(),
            max,
            skipping: false,
        }
    }

    /// Feeds the next bytes of the stream, calling `emit` for every piece they finish.
    pub(crate) fn feed(&mut self, mut bytes: &[u8], emit: &mut impl FnMut(Piece<'_>)) {
        while !bytes.is_empty() {
            let newline = bytes.iter().position(|&b| b == b'\n');
            let (chunk, rest) = match newline {
                Some(i) => (&bytes[..i], &bytes[i + 1..]),
                None => (bytes, &[][..]),
            };
            bytes = rest;
            let ended = newline.is_some();
            if self.skipping {
                self.skipping = !ended;
                continue;
            }
            // The common case: a whole line inside one read, passed on without a copy.
            if ended && self.current.is_empty() && chunk.len() <= self.max {
                emit(Piece::Line(strip_cr(chunk)));
                continue;
            }
            let room = self.max - self.current.len();
            if chunk.len() > room {
                self.current.extend_from_slice(&chunk[..room]);
                emit(Piece::Overlong(&self.current));
                self.current.clear();
                self.skipping = !ended;
                continue;
            }
            self.current.extend_from_slice(chunk);
            if ended {
                emit(Piece::Line(strip_cr(&self.current)));
                self.current.clear();
            }
        }
    }

    /// Ends the stream: a last line without `\n` is still a line.
    pub(crate) fn finish(&mut self, emit: &mut impl FnMut(Piece<'_>)) {
        if !self.skipping && !self.current.is_empty() {
            emit(Piece::Line(strip_cr(&self.current)));
        }
        self.current.clear();
        self.skipping = false;
    }
}

fn strip_cr(line: &[u8]) -> &[u8] {
    line.strip_suffix(b"\r").unwrap_or(line)
}

/// The last lines of an engine's stderr, bounded in lines and in bytes, each line
/// already made one printable line.
#[derive(Debug, Default)]
pub(crate) struct StderrTail {
    lines: VecDeque<String>,
    bytes: usize,
}

impl StderrTail {
    /// Keeps `raw` (sanitised) as the newest line, forgetting the oldest past the limits.
    pub(crate) fn push(&mut self, raw: &[u8]) {
        let line = one_line(&String::from_utf8_lossy(raw), MAX_STDERR_LINE_CHARS);
        self.bytes += line.len();
        self.lines.push_back(line);
        while self.lines.len() > STDERR_TAIL_LINES || self.bytes > STDERR_TAIL_BYTES {
            let Some(old) = self.lines.pop_front() else {
                break;
            };
            self.bytes -= old.len();
        }
    }

    pub(crate) fn lines(&self) -> Vec<String> {
        self.lines.iter().cloned().collect()
    }
}

/// Reads `pipe` to its end into `tail`, holding at most one capped line besides it.
pub(crate) fn collect_stderr(mut pipe: impl std::io::Read, tail: &std::sync::Mutex<StderrTail>) {
    let mut splitter = LineSplitter::new(STDERR_LINE_BYTES);
    let mut buf = [0u8; 4096];
    let mut keep = |piece: Piece<'_>| {
        let (Piece::Line(raw) | Piece::Overlong(raw)) = piece;
        tail.lock().unwrap_or_else(|e| e.into_inner()).push(raw);
    };
    loop {
        match pipe.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => splitter.feed(&buf[..n], &mut keep),
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(_) => break,
        }
    }
    splitter.finish(&mut keep);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn split(max: usize, chunks: &[&[u8]]) -> Vec<String> {
        let mut out = Vec::new();
        let mut s = LineSplitter::new(max);
        let mut emit = |p: Piece<'_>| {
            out.push(match p {
                Piece::Line(l) => format!("L:{}", String::from_utf8_lossy(l)),
                Piece::Overlong(l) => format!("O:{}", String::from_utf8_lossy(l)),
            })
        };
        for c in chunks {
            s.feed(c, &mut emit);
        }
        s.finish(&mut emit);
        out
    }

    #[test]
    fn lines_across_reads_and_crlf() {
        assert_eq!(
            split(10, &[b"ab", b"c\r\nde\n", b"\nf"]),
            ["L:abc", "L:de", "L:", "L:f"]
        );
    }

    #[test]
    fn an_overlong_line_is_cut_once_and_the_rest_skipped() {
        assert_eq!(
            split(4, &[b"abc", b"defgh", b"ij\nok\n"]),
            ["O:abcd", "L:ok"]
        );
        assert_eq!(split(4, &[b"abcdefgh"]), ["O:abcd"]);
        assert_eq!(split(4, &[b"abcd\n"]), ["L:abcd"]);
    }

    #[test]
    fn the_splitter_holds_at_most_its_limit() {
        let mut s = LineSplitter::new(8);
        let mut n = 0;
        for _ in 0..10_000 {
            s.feed(&[b'x'; 4096], &mut |_| n += 1);
            assert!(s.current.capacity() <= 64);
        }
        assert_eq!(n, 1);
    }

    #[test]
    fn the_stderr_tail_is_bounded_in_lines_and_bytes() {
        let mut tail = StderrTail::default();
        for i in 0..100 {
            tail.push(format!("line {i}").as_bytes());
        }
        assert_eq!(tail.lines().len(), STDERR_TAIL_LINES);
        assert_eq!(tail.lines().last().unwrap(), "line 99");
        let mut tail = StderrTail::default();
        for _ in 0..100 {
            tail.push(&[b'y'; 2000]);
        }
        let total: usize = tail.lines().iter().map(String::len).sum();
        assert!(total <= STDERR_TAIL_BYTES, "{total}");
        assert!(!tail.lines().is_empty());
    }
}

//! The cheapest possible UCI engine: it answers the handshake and every `go`
//! with a fixed reply, parsing nothing. The `uci_host` benchmark uses it as
//! the reference for what a round trip over the pipes costs by itself.

use std::io::{BufRead, Write};

fn main() {
    let stdin = std::io::stdin();
    let mut out = std::io::stdout().lock();
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        let reply = match line.split_whitespace().next() {
            Some("uci") => "id name echo\nuciok",
            Some("isready") => "readyok",
            Some("go") => "bestmove e2e4",
            Some("quit") => break,
            _ => continue,
        };
        if writeln!(out, "{reply}").and_then(|()| out.flush()).is_err() {
            break;
        }
    }
}

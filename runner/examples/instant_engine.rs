//! A zero-work UCI engine for benchmarking and testing the match runner.
//!
//! It answers every `go` at once with a move chosen deterministically from the position
//! (a mate in one if there is one, else a capture, else any move, picked by the position's
//! hash), so two copies of it play identical games from identical positions and the
//! runner's own overhead is all that is measured.
//!
//! Run: `cargo run --release -p runner --example instant_engine`, then type `uci`.

use std::io::{BufRead, Write};

use framework::chess::Board;

fn choose(board: &mut Board) -> Option<String> {
    let moves = board.legal_moves();
    if moves.is_empty() {
        return None;
    }
    for &mv in moves.iter() {
        board.make_move(mv);
        let mate = board.is_checkmate();
        board.undo_move();
        if mate {
            return Some(mv.to_string());
        }
    }
    let captures: Vec<_> = moves.iter().copied().filter(|m| m.is_capture()).collect();
    let pool: &[_] = if captures.is_empty() {
        &moves
    } else {
        &captures
    };
    let pick = (board.key().wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 32) as usize % pool.len();
    Some(pool[pick].to_string())
}

fn main() {
    let stdin = std::io::stdin();
    let mut out = std::io::stdout().lock();
    let mut board = Board::startpos();
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        let mut words = line.split_ascii_whitespace();
        match words.next() {
            Some("uci") => {
                let _ = out.write_all(b"id name instant\nid author the kit\nuciok\n");
            }
            Some("isready") => {
                let _ = out.write_all(b"readyok\n");
            }
            Some("position") => {
                let rest: Vec<&str> = words.collect();
                let moves_at = rest
                    .iter()
                    .position(|&w| w == "moves")
                    .unwrap_or(rest.len());
                board = match rest.first() {
                    Some(&"fen") => match Board::from_fen(&rest[1..moves_at].join(" ")) {
                        Ok(b) => b,
                        Err(_) => continue,
                    },
                    _ => Board::startpos(),
                };
                for m in rest.iter().skip(moves_at + 1) {
                    match board.parse_uci(m) {
                        Ok(mv) => board.make_move(mv),
                        Err(_) => break,
                    }
                }
            }
            Some("go") => {
                let mv = choose(&mut board).unwrap_or_else(|| "0000".to_string());
                let _ = writeln!(out, "info depth 1 score cp 0 nodes 1\nbestmove {mv}");
            }
            Some("quit") => break,
            _ => {}
        }
        let _ = out.flush();
    }
}

//! An engine started with a larger memory allowance may allocate past the challenge's
//! 256 MiB, under the sandbox as every engine runs; one started by `run` may not.
//!
//! The test binary is its own engine: run with [`ALLOWANCE_ENV`] set it becomes a UCI
//! host for [`Hungry`], whose construction holds [`TABLE_BYTES`].

use std::io::Write;
use std::process::{Command, Stdio};

use framework::prelude::*;
use framework::uci::{self, MEMORY_LIMIT_BYTES, MEMORY_LIMIT_EXIT_CODE};

#[global_allocator]
static ALLOCATOR: uci::LimitedAllocator = uci::LimitedAllocator;

/// Set to the allowance in bytes (or `default` for `run`): the process is an engine.
const ALLOWANCE_ENV: &str = "MEMORY_ALLOWANCE_ENGINE";

/// A transposition table past 256 MiB, as Bot_314's is in C#'s layout.
const TABLE_BYTES: usize = 320 * 1024 * 1024;

const GIB: usize = 1024 * 1024 * 1024;

struct Hungry {
    table: Vec<u8>,
}

impl Default for Hungry {
    fn default() -> Hungry {
        // Written through, so every page is really held.
        Hungry {
            table: vec![1; TABLE_BYTES],
        }
    }
}

impl Bot for Hungry {
    fn think(&mut self, board: Board, _timer: Timer) -> Move {
        let at = usize::from(self.table[TABLE_BYTES - 1]) - 1;
        board.legal_moves()[at]
    }
}

fn main() {
    match std::env::var(ALLOWANCE_ENV).as_deref() {
        Ok("default") => uci::run::<Hungry>("hungry"),
        Ok(bytes) => uci::run_with_memory_limit::<Hungry>("hungry", bytes.parse().unwrap()),
        Err(_) => tests(),
    }
}

fn tests() {
    a_larger_allowance_holds_a_table_past_256_mib();
    the_default_allowance_stops_the_same_table();
    println!("memory_allowance: 2 tests passed");
}

fn a_larger_allowance_holds_a_table_past_256_mib() {
    let (status, stdout, stderr) = one_move(&GIB.to_string());
    assert!(status.success(), "{status:?}\n{stderr}");
    assert!(stdout.contains("bestmove "), "{stdout}\n{stderr}");
}

fn the_default_allowance_stops_the_same_table() {
    const { assert!(TABLE_BYTES > MEMORY_LIMIT_BYTES) };
    let (status, stdout, stderr) = one_move("default");
    assert_eq!(status.code(), Some(MEMORY_LIMIT_EXIT_CODE), "{stderr}");
    assert!(!stdout.contains("bestmove "), "{stdout}");
    assert!(stderr.contains("the limit is 256 MiB"), "{stderr}");
}

/// Starts this binary as an engine with `allowance`, asks for one move and quits;
/// returns how it ended and what it wrote.
fn one_move(allowance: &str) -> (std::process::ExitStatus, String, String) {
    let mut child = Command::new(std::env::current_exe().unwrap())
        .env(ALLOWANCE_ENV, allowance)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    // The engine may be gone already; what it said is the test.
    let _ = stdin.write_all(b"uci\nisready\nposition startpos\ngo movetime 50\n");
    drop(stdin);
    let output = child.wait_with_output().unwrap();
    let text = |bytes: Vec<u8>| String::from_utf8_lossy(&bytes).into_owned();
    (output.status, text(output.stdout), text(output.stderr))
}

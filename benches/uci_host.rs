//! The UCI host's protocol overhead per move: a bot that answers instantly
//! (`bot/my_bot.rs` plays the first legal move) against the cheapest possible
//! engine, `examples/echo_engine.rs`, which parses nothing. Both are driven
//! the same way, in alternating batches in the same run, so the difference is
//! what the host adds per move (parsing `position`, replaying the game so the
//! bot sees its history, the bot thread hand-off, the reply), not the pipes.
//!
//! Run: `cargo bench --bench uci_host` (optionally `-- MOVES`, default 4000).
//! It prints the figures; nothing is asserted.

use std::path::PathBuf;
use std::process::Command;
use std::time::{Duration, Instant};

use framework::chess::Board;
use runner::{Engine, EngineConfig, GoParams};

fn build_my_bot() -> PathBuf {
    let output = Command::new(env!("CARGO_BIN_EXE_challenge"))
        .args(["build", "my_bot"])
        .output()
        .expect("challenge runs");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    PathBuf::from(String::from_utf8(output.stdout).unwrap().trim())
}

fn build_echo_engine() -> PathBuf {
    let status = Command::new(env!("CARGO"))
        .args(["build", "--release", "--example", "echo_engine"])
        .status()
        .expect("cargo runs");
    assert!(status.success(), "building the echo engine failed");
    let bench = std::env::current_exe().unwrap();
    let profile_dir = bench.parent().and_then(|d| d.parent()).unwrap();
    profile_dir.join("examples").join("echo_engine")
}

/// `position` commands of a real game, one per ply, so the host replays
/// games of every length from 0 to 80 plies.
fn positions() -> Vec<String> {
    let mut board = Board::startpos();
    let mut moves = Vec::new();
    let mut commands = vec!["position startpos".to_string()];
    for ply in 0..80 {
        let legal = board.legal_moves();
        if legal.is_empty() {
            break;
        }
        let mv = legal[(ply * 7) % legal.len()];
        board.make_move(mv);
        moves.push(mv.to_string());
        commands.push(format!("position startpos moves {}", moves.join(" ")));
    }
    commands
}

fn per_move(engine: &mut Engine, commands: &[String], moves: usize) -> Duration {
    let limits = GoParams {
        wtime: Some(60_000),
        btime: Some(60_000),
        ..GoParams::default()
    };
    let start = Instant::now();
    for i in 0..moves {
        engine
            .set_position(&commands[i % commands.len()])
            .expect("position");
        engine
            .go(&limits, Duration::from_secs(10))
            .expect("bestmove");
    }
    start.elapsed() / moves as u32
}

fn main() {
    let moves: usize = std::env::args()
        .skip(1)
        .find_map(|a| a.parse().ok())
        .unwrap_or(4000);
    let commands = positions();
    let mut bot = Engine::start(
        &EngineConfig::new("my_bot", build_my_bot()),
        Duration::from_secs(10),
    )
    .expect("my_bot starts");
    let mut echo = Engine::start(
        &EngineConfig::new("echo", build_echo_engine()),
        Duration::from_secs(10),
    )
    .expect("echo starts");
    bot.new_game(Duration::from_secs(10)).unwrap();
    echo.new_game(Duration::from_secs(10)).unwrap();
    // Alternate batches so machine noise falls on both alike.
    let batches = 8;
    let (mut host, mut pipes) = (Duration::ZERO, Duration::ZERO);
    for _ in 0..batches {
        host += per_move(&mut bot, &commands, moves / batches);
        pipes += per_move(&mut echo, &commands, moves / batches);
    }
    let (host, pipes) = (host / batches as u32, pipes / batches as u32);
    println!(
        "{moves} moves: host + instant bot {:.1} µs/move, echo engine {:.1} µs/move, \
         ratio {:.2}, host overhead {:.1} µs/move",
        host.as_secs_f64() * 1e6,
        pipes.as_secs_f64() * 1e6,
        host.as_secs_f64() / pipes.as_secs_f64(),
        (host.as_secs_f64() - pipes.as_secs_f64()) * 1e6
    );
    bot.quit(Duration::from_millis(500));
    echo.quit(Duration::from_millis(500));
}

//! The UCI host's protocol overhead per move: a bot that answers instantly
//! (`bot/my_bot.rs` plays the first legal move) against the cheapest possible
//! engine, `examples/echo_engine.rs`, which parses nothing. Both are driven
//! the same way, in alternating batches in the same run, so the difference is
//! what the host adds per move (parsing `position`, replaying the game so the
//! bot sees its history, the bot thread hand-off, the reply), not the pipes.
//!
//! It then measures the OS sandbox's cost: engine start-up (spawn to
//! `readyok`) and time per move of the same bot with the sandbox and with
//! the developer switch `CHALLENGE_NO_SANDBOX=1`, alternating, in one run.
//! The runner never passes that switch on, so it is given through `env`.
//!
//! Run: `cargo bench --bench uci_host` (optionally `-- MOVES`, default 4000).
//! It prints the figures; nothing is asserted.

use std::path::{Path, PathBuf};
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
    sandbox_cost(&commands, moves);
}

/// The bot engine run through `env`, with the sandbox on or off.
fn via_env(executable: &Path, sandboxed: bool) -> EngineConfig {
    let switch = if sandboxed { "0" } else { "1" };
    // Through `env`, the switch is the engine's own argument: the runner gives no
    // engine the kit's variables, so this is the only way the bench can set it.
    EngineConfig::new("my_bot", "/usr/bin/env")
        .arg(format!("{}={switch}", framework::uci::NO_SANDBOX_ENV))
        .arg(executable.display().to_string())
}

fn start_up(config: &EngineConfig, times: u32) -> Duration {
    let start = Instant::now();
    for _ in 0..times {
        let engine = Engine::start(config, Duration::from_secs(10)).expect("starts");
        engine.quit(Duration::from_secs(1));
    }
    start.elapsed() / times
}

fn sandbox_cost(commands: &[String], moves: usize) {
    let executable = build_my_bot();
    let (on, off) = (via_env(&executable, true), via_env(&executable, false));
    let batches = 8;
    let (mut start_on, mut start_off) = (Duration::ZERO, Duration::ZERO);
    for _ in 0..batches {
        start_on += start_up(&on, 10);
        start_off += start_up(&off, 10);
    }
    let mut sandboxed = Engine::start(&on, Duration::from_secs(10)).unwrap();
    let mut open = Engine::start(&off, Duration::from_secs(10)).unwrap();
    let (mut move_on, mut move_off) = (Duration::ZERO, Duration::ZERO);
    for _ in 0..batches {
        move_on += per_move(&mut sandboxed, commands, moves / batches);
        move_off += per_move(&mut open, commands, moves / batches);
    }
    let n = batches as u32;
    let ms = |d: Duration| d.as_secs_f64() * 1e3 / f64::from(n);
    let us = |d: Duration| d.as_secs_f64() * 1e6 / f64::from(n);
    println!(
        "sandbox start-up: {:.2} ms with, {:.2} ms without, ratio {:.2}",
        ms(start_on),
        ms(start_off),
        start_on.as_secs_f64() / start_off.as_secs_f64()
    );
    println!(
        "sandbox per move: {:.1} µs with, {:.1} µs without, ratio {:.2}",
        us(move_on),
        us(move_off),
        move_on.as_secs_f64() / move_off.as_secs_f64()
    );
    sandboxed.quit(Duration::from_millis(500));
    open.quit(Duration::from_millis(500));
}

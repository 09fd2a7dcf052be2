//! The match runner's own cost: CPU time of the runner process per ply (its threads
//! included, the engine processes excluded) and games per second, with the zero-work
//! `instant_engine` example on both sides so nearly all the time is the runner's and
//! the pipes'.
//!
//! Run: `cargo bench -p runner --bench runner` (optionally `-- GAMES`, default 200).
//! It prints one line per concurrency level, then what the per-move search statistics
//! (the PV check and the player's sums) cost against the runner's own CPU per ply at
//! `-j 1`, measured in the same run; nothing is asserted.

use std::path::PathBuf;
use std::process::Command;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use framework::chess::Board;
use runner::{
    EngineConfig, Format, GameSettings, PlayedMove, Player, PvCheck, SearchInfo, SearchStats,
    TimeControl, TournamentConfig, parse_epd, run_tournament,
};

const OPENINGS: &str = include_str!("../../openings/default.epd");

fn instant_engine() -> PathBuf {
    let exe = std::env::current_exe().expect("bench executable path");
    let profile_dir = exe
        .parent()
        .and_then(|d| d.parent())
        .expect("target/<profile>/deps")
        .to_path_buf();
    let path = profile_dir
        .join("examples")
        .join(format!("instant_engine{}", std::env::consts::EXE_SUFFIX));
    if !path.exists() {
        let status = Command::new(env!("CARGO"))
            .args([
                "build",
                "--release",
                "-p",
                "runner",
                "--example",
                "instant_engine",
            ])
            .status()
            .expect("run cargo to build the instant engine");
        assert!(
            status.success(),
            "building the instant_engine example failed"
        );
    }
    path
}

/// User + system CPU time of this process (all its threads, not its children).
fn own_cpu() -> Duration {
    let mut usage = std::mem::MaybeUninit::<libc::rusage>::zeroed();
    // SAFETY: getrusage fills the struct it is given; RUSAGE_SELF excludes child processes.
    let usage = unsafe {
        libc::getrusage(libc::RUSAGE_SELF, usage.as_mut_ptr());
        usage.assume_init()
    };
    let tv = |t: libc::timeval| Duration::new(t.tv_sec as u64, t.tv_usec as u32 * 1000);
    tv(usage.ru_utime) + tv(usage.ru_stime)
}

fn main() {
    let games: usize = std::env::args()
        .skip(1)
        .find_map(|a| a.parse().ok())
        .unwrap_or(200);
    let engine = instant_engine();
    let openings = parse_epd(OPENINGS, "openings/default.epd").expect("default suite parses");
    let player = |name: &str| Player::new(EngineConfig::new(name, &engine), TimeControl::nodes(1));
    let mut runner_us_per_ply = Vec::new();
    for concurrency in [1, 2] {
        let config = TournamentConfig {
            players: vec![player("a"), player("b")],
            format: Format::RoundRobin,
            pairs: games.div_ceil(2),
            openings: openings.clone(),
            concurrency,
            settings: GameSettings::default(),
            sprt: None,
            seed: None,
        };
        let mut plies = 0usize;
        let cpu = own_cpu();
        let wall = Instant::now();
        let result = run_tournament(&config, &AtomicBool::new(false), |e| {
            plies += e.record.moves.len()
        });
        let wall = wall.elapsed();
        let cpu = own_cpu() - cpu;
        runner_us_per_ply.push(cpu.as_secs_f64() * 1e6 / plies.max(1) as f64);
        println!(
            "-j {concurrency}: {} games, {plies} plies in {:.2}s: {:.1} games/s, {:.0} plies/s, runner CPU {:.1} µs/ply",
            result.standings.games,
            wall.as_secs_f64(),
            result.standings.games as f64 / wall.as_secs_f64(),
            plies as f64 / wall.as_secs_f64(),
            cpu.as_secs_f64() * 1e6 / plies.max(1) as f64,
        );
    }
    let stats_us = search_stats_us_per_ply();
    println!(
        "search statistics per ply: {stats_us:.3} µs (PV check, half of them parsing a PV that differs, and the sums) = {:.2}% of the runner's CPU per ply at -j 1",
        100.0 * stats_us / runner_us_per_ply[0]
    );
}

/// CPU time of what each ply adds for the search statistics: [`PvCheck::of`] (the same
/// text, or a differing PV whose first move is parsed on the board, alternately) and
/// [`SearchStats::add`].
fn search_stats_us_per_ply() -> f64 {
    let board = Board::startpos();
    let played = board.parse_uci("e2e4").unwrap();
    let mut info = SearchInfo::default();
    info.update("info depth 12 score cp 20 nodes 400000 pv e2e4 e7e5 g1f3 b8c6");
    let differs = vec!["d2d4".to_string(), "d7d5".to_string()];
    // The game keeps the move's info without its PV, as `play_game` does.
    let mut record = PlayedMove {
        mv: played,
        info: SearchInfo {
            pv: Vec::new(),
            ..info.clone()
        },
        pv: PvCheck::NoPv,
        elapsed: Duration::from_millis(1),
    };
    let mut stats = SearchStats::default();
    let rounds = 1_000_000u32;
    let cpu = own_cpu();
    for i in 0..rounds {
        let pv = if i % 2 == 0 { &info.pv } else { &differs };
        record.pv = PvCheck::of(std::hint::black_box(pv), "e2e4", played, &board);
        stats.add(std::hint::black_box(&record));
    }
    let cpu = own_cpu() - cpu;
    std::hint::black_box(stats);
    cpu.as_secs_f64() * 1e6 / f64::from(rounds)
}

//! `challenge serve` at the scale of a real open challenge: 600 entries and 30,000 games
//! in the store. Measures, against the server's own `/health` in the same run:
//!
//! - requests per second for the standings page (`/`) and its live part (`/?part=1`),
//!   from keep-alive connections on loopback;
//! - the latency from a game being stored (by another process's connection, as
//!   `challenge run` would) to the `change` event on `/events`, and to the standings
//!   part showing the game.
//!
//! `cargo bench --bench serve` (not a timed test: it prints figures, it asserts none).

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use framework::notation::pgn::GameResult;
use runner::{Termination, TimeControl};
use store::{
    Claim, NewGame, NewTournament, NewVersion, ServerFlag, SlotPlan, SqliteStore, Store,
    StoredRules, Submitted, Tournament, TournamentFormat, TournamentId,
};

const ENTRIES: usize = 600;
const GAMES: usize = 30_000;
const CLIENTS: usize = 4;
const SECONDS: u64 = 5;

/// A small deterministic generator (xorshift), so every run seeds the same store.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
}

const PGN_MOVES: &str = "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7";

fn seed(dir: &Path) -> Vec<store::EntryId> {
    let mut store = SqliteStore::create(dir).expect("create the store");
    let mut entries = Vec::new();
    let mut strength = Vec::new();
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    for i in 0..ENTRIES {
        let name = format!("bot-{i:03}");
        let source = format!("// bot {i}\n");
        let stored = store
            .add_version(&NewVersion {
                name: &name,
                author: Some("bench"),
                source: &source,
                hash: &format!("{i:016x}"),
                file_name: "bot.rs",
                tokens: 100 + i % 900,
                debug_tokens: 0,
            })
            .expect("store an entry");
        let Submitted::New(version) = stored else {
            panic!("a new entry")
        };
        entries.push((version.entry_id, version.id));
        strength.push(rng.unit() * 800.0);
    }
    let slots: Vec<SlotPlan> = (0..GAMES)
        .map(|k| {
            let white = rng.below(ENTRIES);
            let black = (white + 1 + rng.below(ENTRIES - 1)) % ENTRIES;
            SlotPlan {
                round: 0,
                pair: k as u32 / 2,
                game_in_pair: k as u32 % 2,
                white: entries[white].0,
                black: entries[black].0,
                opening: 0,
            }
        })
        .collect();
    let field: Vec<_> = entries.iter().map(|e| e.0).collect();
    let settings = Tournament {
        id: TournamentId(0),
        format: TournamentFormat::RoundRobin,
        pairs: 1,
        rounds: 1,
        time_control: TimeControl::movetime(Duration::from_millis(100)),
        openings: Vec::new(),
        rules: StoredRules::default(),
        finished: false,
    };
    let id = store
        .create_tournament(&NewTournament {
            settings: &settings,
            field: &field,
            slots: &slots,
            byes: &[],
        })
        .expect("create the tournament");
    let version_of: std::collections::HashMap<_, _> = entries.iter().copied().collect();
    let index_of: std::collections::HashMap<_, _> =
        entries.iter().enumerate().map(|(i, e)| (e.0, i)).collect();
    // 20 games stay unplayed, for the latency measurement; the server's own tournament
    // thread must not play them (the entries are not real bots): the tournament is paused.
    let claims = store.claim(id, "bench", GAMES - 20).expect("claim");
    for claim in &claims {
        record(
            &mut store,
            claim,
            &version_of,
            &index_of,
            &strength,
            &mut rng,
        );
    }
    store
        .set_server_flag(ServerFlag::TournamentPaused, true)
        .expect("pause");
    field
}

fn record(
    store: &mut SqliteStore,
    claim: &Claim,
    version_of: &std::collections::HashMap<store::EntryId, store::VersionId>,
    index_of: &std::collections::HashMap<store::EntryId, usize>,
    strength: &[f64],
    rng: &mut Rng,
) {
    let plan = claim.slot.plan;
    let diff = strength[index_of[&plan.white]] - strength[index_of[&plan.black]];
    let expected = 1.0 / (1.0 + 10f64.powf(-diff / 400.0));
    let roll = rng.unit();
    let result = if roll < expected * 0.7 {
        GameResult::WhiteWins
    } else if roll > 1.0 - (1.0 - expected) * 0.7 {
        GameResult::BlackWins
    } else {
        GameResult::Draw
    };
    let pgn = format!(
        "[Event \"bench\"]\n[White \"w\"]\n[Black \"b\"]\n[Result \"{0}\"]\n\n{PGN_MOVES} {0}\n",
        result.as_str()
    );
    store
        .record(
            claim,
            &NewGame {
                white: version_of[&plan.white],
                black: version_of[&plan.black],
                result,
                termination: if result == GameResult::Draw {
                    Termination::Repetition
                } else {
                    Termination::Checkmate
                },
                faulty: None,
                detail: "bench".into(),
                plies: 10,
                pgn,
            },
        )
        .expect("record a game");
}

struct Server(Child, String);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn start(dir: &Path) -> Server {
    let mut child = Command::new(env!("CARGO_BIN_EXE_challenge"))
        .args(["serve", "--bind", "127.0.0.1:0", "--dir"])
        .arg(dir)
        .env("CHALLENGE_ADMIN_TOKEN", "bench-organiser-token-0123456789")
        .stdout(Stdio::piped())
        .spawn()
        .expect("start the server");
    let mut reader = BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    reader.read_line(&mut line).unwrap();
    std::thread::spawn(move || for _ in reader.lines() {});
    let address = line
        .split("http://")
        .nth(1)
        .unwrap()
        .split('/')
        .next()
        .unwrap()
        .to_string();
    Server(child, address)
}

/// One keep-alive GET; returns the body.
fn get(stream: &mut BufReader<TcpStream>, address: &str, path: &str) -> String {
    write!(
        stream.get_mut(),
        "GET {path} HTTP/1.1\r\nHost: {address}\r\n\r\n"
    )
    .unwrap();
    let mut length = 0usize;
    let mut status = String::new();
    stream.read_line(&mut status).unwrap();
    assert!(status.contains(" 200 "), "{path}: {status}");
    loop {
        let mut line = String::new();
        stream.read_line(&mut line).unwrap();
        if line == "\r\n" {
            break;
        }
        if let Some(value) = line.to_ascii_lowercase().strip_prefix("content-length:") {
            length = value.trim().parse().unwrap();
        }
    }
    let mut body = vec![0; length];
    stream.read_exact(&mut body).unwrap();
    String::from_utf8(body).unwrap()
}

fn connect(address: &str) -> BufReader<TcpStream> {
    let stream = TcpStream::connect(address).unwrap();
    stream.set_nodelay(true).unwrap();
    BufReader::new(stream)
}

/// Requests per second on `path` from `CLIENTS` keep-alive connections for `SECONDS`.
fn throughput(address: &str, path: &str) -> (f64, usize) {
    let count = Arc::new(AtomicU64::new(0));
    let stop = Arc::new(AtomicBool::new(false));
    let size = get(&mut connect(address), address, path).len();
    let workers: Vec<_> = (0..CLIENTS)
        .map(|_| {
            let (count, stop, address, path) = (
                count.clone(),
                stop.clone(),
                address.to_string(),
                path.to_string(),
            );
            std::thread::spawn(move || {
                let mut stream = connect(&address);
                while !stop.load(Ordering::Relaxed) {
                    get(&mut stream, &address, &path);
                    count.fetch_add(1, Ordering::Relaxed);
                }
            })
        })
        .collect();
    let start = Instant::now();
    std::thread::sleep(Duration::from_secs(SECONDS));
    stop.store(true, Ordering::Relaxed);
    let elapsed = start.elapsed().as_secs_f64();
    for w in workers {
        w.join().unwrap();
    }
    (count.load(Ordering::Relaxed) as f64 / elapsed, size)
}

fn games_shown(part: &str) -> usize {
    part.split("<p class=\"note\">")
        .nth(1)
        .and_then(|s| s.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or(0)
}

/// From storing a game (own connection, as another process) to the `change` event, and
/// to the standings part showing it.
fn latency(dir: &Path, address: &str, rounds: usize) -> Vec<(Duration, Duration)> {
    let mut events = connect(address);
    write!(
        events.get_mut(),
        "GET /events HTTP/1.1\r\nHost: {address}\r\n\r\n"
    )
    .unwrap();
    let mut line = String::new();
    while line != "\r\n" {
        line.clear();
        events.read_line(&mut line).unwrap();
    }
    let mut store = SqliteStore::open(dir).unwrap();
    let tournament = store.unfinished_tournament().unwrap().unwrap();
    let mut page = connect(address);
    let mut rng = Rng(7);
    let entries: Vec<_> = store
        .versions()
        .unwrap()
        .iter()
        .map(|v| (v.entry_id, v.id))
        .collect();
    let version_of = entries.iter().copied().collect();
    let index_of = entries.iter().enumerate().map(|(i, e)| (e.0, i)).collect();
    let strength = vec![0.0; entries.len()];
    let mut out = Vec::new();
    for _ in 0..rounds {
        let before = games_shown(&get(&mut page, address, "/?part=1"));
        let claim = store.claim(tournament.id, "bench", 1).unwrap().remove(0);
        let stored = Instant::now();
        record(
            &mut store,
            &claim,
            &version_of,
            &index_of,
            &strength,
            &mut rng,
        );
        loop {
            line.clear();
            events.read_line(&mut line).unwrap();
            if line.starts_with("event: change") {
                break;
            }
        }
        let event = stored.elapsed();
        while games_shown(&get(&mut page, address, "/?part=1")) <= before {}
        out.push((event, stored.elapsed()));
        std::thread::sleep(Duration::from_millis(700));
    }
    out
}

fn main() {
    let base: PathBuf = if Path::new("/dev/shm").is_dir() {
        PathBuf::from("/dev/shm")
    } else {
        std::env::temp_dir()
    };
    let dir = base.join(format!("kit-serve-bench-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let seeding = Instant::now();
    seed(&dir);
    println!(
        "seeded {ENTRIES} entries and {} games in {:.1}s ({})",
        GAMES - 20,
        seeding.elapsed().as_secs_f64(),
        dir.display()
    );
    // The server builds the standings (the rating fit for 600 players) before it listens.
    let starting = Instant::now();
    let server = start(&dir);
    let mut probe = connect(&server.1);
    assert!(games_shown(&get(&mut probe, &server.1, "/?part=1")) > 0);
    println!(
        "server listening, standings built, {:.2}s after it was started",
        starting.elapsed().as_secs_f64()
    );
    let (health, _) = throughput(&server.1, "/health");
    let (page, page_size) = throughput(&server.1, "/");
    let (part, part_size) = throughput(&server.1, "/?part=1");
    println!("requests/s with {CLIENTS} keep-alive clients for {SECONDS}s each:");
    println!("  /health (reference)   {health:>9.0}");
    println!(
        "  / standings page      {page:>9.0}  ({:.2} of /health; {} KiB)",
        page / health,
        page_size / 1024
    );
    println!(
        "  /?part=1 live part    {part:>9.0}  ({:.2} of /health; {} KiB)",
        part / health,
        part_size / 1024
    );
    let mut samples = latency(&dir, &server.1, 10);
    samples.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    let events: Vec<f64> = samples.iter().map(|s| ms(s.0)).collect();
    let mut shown: Vec<f64> = samples.iter().map(|s| ms(s.1)).collect();
    shown.sort_by(f64::total_cmp);
    println!(
        "game stored -> change event: median {:.0} ms, max {:.0} ms; -> standings part shows it: median {:.0} ms, max {:.0} ms (10 games, stored by another connection; the server polls every 500 ms)",
        events[events.len() / 2],
        events.iter().cloned().fold(0.0, f64::max),
        shown[shown.len() / 2],
        shown.iter().cloned().fold(0.0, f64::max)
    );
    drop(server);
    let _ = std::fs::remove_dir_all(&dir);
}

//! `challenge serve` at the scale of a real open challenge: 600 entries and 30,000 games
//! in the store, on a challenge directory (SQLite) and, when PostgreSQL is installed, on
//! a throwaway PostgreSQL server with the same records (`import_sqlite`, as `challenge
//! migrate` copies them; default durability). Measures, against the server's own
//! `/health` in the same run:
//!
//! - requests per second for the standings page (`/`) and its live part (`/?part=1`),
//!   from keep-alive connections on loopback;
//! - the latency from a game being stored (by another process's connection, as
//!   `challenge run` or a worker would) to the `change` event on `/events`, and to the
//!   standings part showing the game;
//! - what watching the store for other processes' changes costs: one check (the four
//!   queries `live::refresh` makes when nothing changed) against a bare `SELECT 1` round
//!   trip, and the CPU the idle server (and its PostgreSQL backend) spends on its checks,
//!   every 500 ms, over ten seconds.
//!
//! `cargo bench --bench serve` (not a timed test: it prints figures, it asserts none).

#[path = "../tests/e2e/postgres_server/mod.rs"]
mod postgres_server;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use framework::notation::pgn::GameResult;
use postgres_server::PgServer;
use runner::{Termination, TimeControl};
use store::prelude::*;
use store::{
    Claim, NewGame, NewTournament, NewVersion, PostgresStore, ServerFlag, SlotPlan, SqliteStore,
    Store, StoredRules, Submitted, Tournament, TournamentFormat, TournamentId,
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
    store: &mut dyn Store,
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
                evidence: None,
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

/// Starts `challenge serve` on the store `where_` names (`["--dir", DIR]` or
/// `["--store", URL]`).
fn start(where_: &[&std::ffi::OsStr]) -> Server {
    let mut child = Command::new(env!("CARGO_BIN_EXE_challenge"))
        .args(["serve", "--bind", "127.0.0.1:0"])
        .args(where_)
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
fn latency(store: &mut dyn Store, address: &str, rounds: usize) -> Vec<(Duration, Duration)> {
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
        record(store, &claim, &version_of, &index_of, &strength, &mut rng);
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

/// CPU seconds (user and system) process `pid` has used so far, from `/proc`.
fn cpu_seconds(pid: u32) -> f64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    // The fields after the command name (which may hold spaces) in parentheses.
    let after = stat.rsplit_once(')').map_or("", |(_, rest)| rest);
    let fields: Vec<&str> = after.split_whitespace().collect();
    let ticks: f64 = [11, 12]
        .iter()
        .filter_map(|&i| fields.get(i).and_then(|f| f.parse::<f64>().ok()))
        .sum();
    // SAFETY: sysconf has no preconditions.
    let per_second = unsafe { libc::sysconf(libc::_SC_CLK_TCK) } as f64;
    ticks / per_second
}

/// CPU the processes `pids` use per second of wall time while the server is idle (no
/// request, no change): the cost of its checks for changes.
fn idle_cpu(pids: &[u32]) -> f64 {
    let used = || pids.iter().map(|&p| cpu_seconds(p)).sum::<f64>();
    let (before, start) = (used(), Instant::now());
    std::thread::sleep(Duration::from_secs(10));
    (used() - before) / start.elapsed().as_secs_f64()
}

/// Microseconds one check for changes takes when nothing changed: the queries
/// `live::refresh` makes to build its key (revision, switches, tournament count, the
/// unfinished tournament).
fn check_micros(store: &dyn Store) -> f64 {
    let n = 2000;
    let start = Instant::now();
    for _ in 0..n {
        store.revision().unwrap();
        store.server_state().unwrap();
        store.tournament_count().unwrap();
        store.unfinished_tournament().unwrap();
    }
    start.elapsed().as_secs_f64() * 1e6 / f64::from(n)
}

/// Microseconds a bare `SELECT 1` round trip takes on `url`.
fn select_one_micros(url: &str) -> f64 {
    let mut client = postgres::Client::connect(url, postgres::NoTls).unwrap();
    let n = 5000;
    let start = Instant::now();
    for _ in 0..n {
        client.query_one("SELECT 1", &[]).unwrap();
    }
    start.elapsed().as_secs_f64() * 1e6 / f64::from(n)
}

/// What one server was measured at.
struct Figures {
    health: f64,
    page: f64,
    part: f64,
    event_ms: f64,
    shown_ms: f64,
    idle_cpu: f64,
}

/// Measures a running server; `store` is another connection to its store, to record
/// games with.
fn measure(label: &str, server: &Server, store: &mut dyn Store, pids: &[u32]) -> Figures {
    let mut probe = connect(&server.1);
    assert!(games_shown(&get(&mut probe, &server.1, "/?part=1")) > 0);
    let (health, _) = throughput(&server.1, "/health");
    let (page, page_size) = throughput(&server.1, "/");
    let (part, part_size) = throughput(&server.1, "/?part=1");
    println!("{label}: requests/s with {CLIENTS} keep-alive clients for {SECONDS}s each:");
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
    let idle_cpu = idle_cpu(pids);
    let mut samples = latency(store, &server.1, 10);
    samples.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    let events: Vec<f64> = samples.iter().map(|s| ms(s.0)).collect();
    let mut shown: Vec<f64> = samples.iter().map(|s| ms(s.1)).collect();
    shown.sort_by(f64::total_cmp);
    println!(
        "{label}: game stored -> change event: median {:.0} ms, max {:.0} ms; -> standings part shows it: median {:.0} ms, max {:.0} ms (10 games, stored by another connection; the server polls every 500 ms)",
        events[events.len() / 2],
        events.iter().cloned().fold(0.0, f64::max),
        shown[shown.len() / 2],
        shown.iter().cloned().fold(0.0, f64::max)
    );
    // SAFETY: sysconf has no preconditions.
    let tick = 1.0 / unsafe { libc::sysconf(libc::_SC_CLK_TCK) } as f64;
    println!(
        "{label}: idle, checking for changes every 500 ms: {:.2}% of a core (the kernel counts CPU in {:.2}% steps over the 10 s)",
        idle_cpu * 100.0,
        tick * 10.0
    );
    Figures {
        health,
        page,
        part,
        event_ms: events[events.len() / 2],
        shown_ms: shown[shown.len() / 2],
        idle_cpu,
    }
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
    let server = start(&["--dir".as_ref(), dir.as_os_str()]);
    println!(
        "sqlite: server listening, standings built, {:.2}s after it was started",
        starting.elapsed().as_secs_f64()
    );
    let mut store = SqliteStore::open(&dir).unwrap();
    let sqlite_check = check_micros(&store);
    let sqlite = measure("sqlite", &server, &mut store, &[server.0.id()]);
    drop(server);
    let Some(pg) = PgServer::start_durable("serve-bench") else {
        let _ = std::fs::remove_dir_all(&dir);
        return;
    };
    let url = pg.database("serve");
    let mut store = PostgresStore::create(&url).unwrap();
    let copying = Instant::now();
    store.import_sqlite(&dir).unwrap();
    store
        .set_server_flag(ServerFlag::TournamentPaused, true)
        .unwrap();
    println!(
        "postgres: copied into {} in {:.1}s",
        store.location(),
        copying.elapsed().as_secs_f64()
    );
    let ours = server_backends(&url);
    let starting = Instant::now();
    let server = start(&["--store".as_ref(), url.as_ref()]);
    println!(
        "postgres: server listening, standings built, {:.2}s after it was started",
        starting.elapsed().as_secs_f64()
    );
    let mut pids = vec![server.0.id()];
    pids.extend(
        server_backends(&url)
            .into_iter()
            .filter(|p| !ours.contains(p)),
    );
    let postgres = measure("postgres", &server, &mut store, &pids);
    let ping = select_one_micros(&url);
    let pg_check = check_micros(&store);
    compare(&sqlite, &postgres, sqlite_check, pg_check, ping);
    drop(server);
    let _ = std::fs::remove_dir_all(&dir);
}

/// The PostgreSQL backends of the connections to the database (but the asker's).
fn server_backends(url: &str) -> Vec<u32> {
    let mut client = postgres::Client::connect(url, postgres::NoTls).unwrap();
    client
        .query(
            "SELECT pid FROM pg_stat_activity
             WHERE datname = current_database() AND pid <> pg_backend_pid()
               AND backend_type = 'client backend'",
            &[],
        )
        .unwrap()
        .iter()
        .map(|row| u32::try_from(row.get::<_, i32>(0)).unwrap())
        .collect()
}

fn compare(sqlite: &Figures, postgres: &Figures, sqlite_check: f64, pg_check: f64, ping: f64) {
    println!("postgres against sqlite, same run:");
    println!(
        "  /health {:.2}x, / {:.2}x, /?part=1 {:.2}x; stored -> event {:.0} vs {:.0} ms, -> shown {:.0} vs {:.0} ms",
        postgres.health / sqlite.health,
        postgres.page / sqlite.page,
        postgres.part / sqlite.part,
        postgres.event_ms,
        sqlite.event_ms,
        postgres.shown_ms,
        sqlite.shown_ms
    );
    println!(
        "  one check for changes: postgres {pg_check:.0} us ({:.1} SELECT 1 round trips of {ping:.0} us), sqlite {sqlite_check:.0} us; twice a second, postgres is asked {:.2}% of the time",
        pg_check / ping,
        2.0 * pg_check / 1e4
    );
    println!(
        "  idle server with its store: postgres {:.3}% of a core (server and backend), sqlite {:.3}%",
        postgres.idle_cpu * 100.0,
        sqlite.idle_cpu * 100.0
    );
}

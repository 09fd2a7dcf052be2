//! `challenge serve` while one client tries to starve it, against the same server idle,
//! in one run:
//!
//! 1. `/health` latency (p50, p99) from 127.0.0.1 while 1,100 half-open connections from
//!    127.0.0.2 are held, against no such connections;
//! 2. an honest submission's time to acceptance (post to "accepted": the queue, the bot's
//!    build and its smoke test) from 127.0.0.1 while 127.0.0.2 floods the queue with bots
//!    whose build runs to the build time limit (8 s), against the queue empty. On loopback
//!    an IPv4 address stands for a flooding /64: both are one client key.
//!
//! The server starts with a soft open-file limit of 1,024, what a login shell usually
//! gives (it raises its own limit; a server that did not would run out of files under
//! 1,100 connections).
//!
//! `cargo bench --bench serve_bounds` (not a timed test: it prints figures, it asserts none).

#[path = "../tests/e2e/common_challenge/mod.rs"]
mod common_challenge;
#[path = "../tests/e2e/serve_common/mod.rs"]
mod serve_common;

use std::io::{Read, Write};
use std::net::{IpAddr, TcpStream};
use std::time::{Duration, Instant};

use common_challenge::{TempDir, kit_bot};
use serve_common::{
    Client, Server, connect_from, job_and_key, post_submission, raise_open_file_limit,
};

const HEALTH_REQUESTS: usize = 1000;
const HALF_OPEN: usize = 1100;
/// How long one `/health` request may take before it counts as unanswered.
const HEALTH_PATIENCE: Duration = Duration::from_secs(5);
const FLOOD_POSTS: usize = 6;
const BUILD_LIMIT_SECONDS: &str = "8";

fn ip(text: &str) -> IpAddr {
    text.parse().expect("an IP address")
}

/// One `/health` request on a new connection from 127.0.0.1: its latency, or `None` when
/// it is not answered 200 within [`HEALTH_PATIENCE`].
fn health_once(server: &Server) -> Option<Duration> {
    let start = Instant::now();
    let mut stream = connect_from(ip("127.0.0.1"), &server.address);
    stream.set_read_timeout(Some(HEALTH_PATIENCE)).ok()?;
    stream
        .write_all(b"GET /health HTTP/1.1\r\nHost: bench\r\nConnection: close\r\n\r\n")
        .ok()?;
    let mut answer = Vec::new();
    stream.read_to_end(&mut answer).ok()?;
    answer.starts_with(b"HTTP/1.1 200").then(|| start.elapsed())
}

/// p50 and p99 of the `/health` requests answered, and how many were not.
fn health_latency(server: &Server) -> (Duration, Duration, usize) {
    let mut times: Vec<Duration> = Vec::new();
    let mut failed = 0;
    for _ in 0..HEALTH_REQUESTS {
        match health_once(server) {
            Some(time) => times.push(time),
            None => failed += 1,
        }
        // Give up early on a server that answers nothing: the figure is made.
        if failed >= 20 && times.is_empty() {
            break;
        }
    }
    times.sort();
    let at = |q: usize| {
        times
            .get(times.len() * q / 100)
            .copied()
            .unwrap_or(HEALTH_PATIENCE)
    };
    (at(50), at(99), failed)
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

fn half_open(server: &Server) {
    let (idle_p50, idle_p99, idle_failed) = health_latency(server);
    let held: Vec<TcpStream> = (0..HALF_OPEN)
        .map(|_| connect_from(ip("127.0.0.2"), &server.address))
        .collect();
    let (held_p50, held_p99, held_failed) = health_latency(server);
    println!(
        "/health from 127.0.0.1, {HEALTH_REQUESTS} requests: idle p50 {:.2} ms p99 {:.2} ms \
         ({idle_failed} unanswered); with {HALF_OPEN} half-open connections from 127.0.0.2 \
         p50 {:.2} ms p99 {:.2} ms ({held_failed} unanswered in {} s) (ratio p50 {:.2}x, \
         p99 {:.2}x)",
        ms(idle_p50),
        ms(idle_p99),
        ms(held_p50),
        ms(held_p99),
        HEALTH_PATIENCE.as_secs(),
        ms(held_p50) / ms(idle_p50),
        ms(held_p99) / ms(idle_p99)
    );
    drop(held);
}

/// my_bot with a comment of its own, so every measured submission builds afresh.
fn honest_bot(variant: &str) -> Vec<u8> {
    let mut source = std::fs::read(kit_bot("my_bot")).expect("read my_bot");
    source.extend_from_slice(format!("\n// bench variant {variant}\n").as_bytes());
    source
}

/// The state of the job at `path` (`queued`, `running`, `accepted`, `refused`).
fn state(client: &mut Client, path: &str) -> String {
    let body = client.get(path).body;
    let at = body.find("\"state\":\"").expect("a state") + 9;
    body[at..at + body[at..].find('"').expect("its end")].to_string()
}

/// Posts an honest submission from 127.0.0.1 and returns its time to acceptance.
fn time_to_acceptance(server: &Server, name: &str, source: &[u8]) -> Duration {
    let mut client = Client::from_source(server, ip("127.0.0.1"));
    let start = Instant::now();
    let response = post_submission(&mut client, name, source);
    assert_eq!(response.status, 200, "{}", response.body);
    let (job, _) = job_and_key(&response.body);
    loop {
        match state(&mut client, &job).as_str() {
            "accepted" => return start.elapsed(),
            "refused" => panic!("{name} was refused: {}", client.get(&job).body),
            _ => std::thread::sleep(Duration::from_millis(50)),
        }
        assert!(
            start.elapsed() < Duration::from_secs(1800),
            "{name} never ended"
        );
    }
}

fn flood(server: &Server) {
    // The first build of a fresh build directory builds the framework: not measured.
    time_to_acceptance(server, "warm", &honest_bot("warm"));
    let idle = time_to_acceptance(server, "idle", &honest_bot("idle"));
    let never = std::fs::read(kit_bot("never_builds")).expect("read never_builds");
    let mut flooder = Client::from_source(server, ip("127.0.0.2"));
    let mut flood_jobs = Vec::new();
    let mut refused = 0;
    for n in 0..FLOOD_POSTS {
        let response = post_submission(&mut flooder, &format!("flood-{n}"), &never);
        match response.status {
            200 => flood_jobs.push(job_and_key(&response.body).0),
            503 => refused += 1,
            other => panic!("flood post {n}: {other} {}", response.body),
        }
    }
    let flooded = time_to_acceptance(server, "flooded", &honest_bot("flooded"));
    println!(
        "honest submission's time to acceptance: queue empty {:.1} s; while 127.0.0.2 floods \
         ({FLOOD_POSTS} posts of a bot whose build runs to the {BUILD_LIMIT_SECONDS} s limit: \
         {} queued, {refused} refused with 503) {:.1} s (ratio {:.2}x)",
        idle.as_secs_f64(),
        flood_jobs.len(),
        flooded.as_secs_f64(),
        flooded.as_secs_f64() / idle.as_secs_f64()
    );
    // Builds run in their own process group: let them end before the server stops.
    for job in &flood_jobs {
        while matches!(state(&mut flooder, job).as_str(), "queued" | "running") {
            std::thread::sleep(Duration::from_millis(200));
        }
    }
}

/// Sets this process's soft open-file limit (children inherit it).
// `rlim_t` is not `u64` on every platform.
#[allow(clippy::unnecessary_cast)]
fn set_soft_open_file_limit(soft: u64) {
    // SAFETY: getrlimit and setrlimit only read and write the struct passed.
    unsafe {
        let mut limit = libc::rlimit {
            rlim_cur: 0,
            rlim_max: 0,
        };
        assert_eq!(libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit), 0);
        limit.rlim_cur = (soft as libc::rlim_t).min(limit.rlim_max);
        assert_eq!(libc::setrlimit(libc::RLIMIT_NOFILE, &limit), 0);
    }
}

fn main() {
    if std::env::args().any(|a| a == "--list") {
        return;
    }
    println!("command: cargo bench --bench serve_bounds");
    let dir = TempDir::new("bench-serve-bounds");
    set_soft_open_file_limit(1024);
    let server = Server::start_with(
        &dir.challenge(),
        &[],
        &[("CHALLENGE_BUILD_TIMEOUT", BUILD_LIMIT_SECONDS)],
    );
    // The clients' own sockets need more than 1,024.
    raise_open_file_limit();
    half_open(&server);
    flood(&server);
}

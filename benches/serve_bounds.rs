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
//! `cargo bench --bench serve_bounds` (not a timed test: it prints figures, it asserts none).

#[path = "../tests/common_challenge/mod.rs"]
mod common_challenge;
#[path = "../tests/serve_common/mod.rs"]
mod serve_common;

use std::net::{IpAddr, TcpStream};
use std::time::{Duration, Instant};

use common_challenge::{TempDir, kit_bot};
use serve_common::{
    Client, Server, connect_from, job_and_key, post_submission, raise_open_file_limit,
};

const HEALTH_REQUESTS: usize = 400;
const HALF_OPEN: usize = 1100;
const FLOOD_POSTS: usize = 6;
const BUILD_LIMIT_SECONDS: &str = "8";

fn ip(text: &str) -> IpAddr {
    text.parse().expect("an IP address")
}

/// p50 and p99 of `/health` from 127.0.0.1, each request on a new connection.
fn health_latency(server: &Server) -> (Duration, Duration) {
    let mut client = Client::from_source(server, ip("127.0.0.1"));
    let mut times: Vec<Duration> = (0..HEALTH_REQUESTS)
        .map(|_| {
            let start = Instant::now();
            let response = client.get("/health");
            assert_eq!(response.status, 200, "{}", response.body);
            start.elapsed()
        })
        .collect();
    times.sort();
    (times[times.len() / 2], times[times.len() * 99 / 100])
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

fn half_open(server: &Server) {
    let (idle_p50, idle_p99) = health_latency(server);
    let held: Vec<TcpStream> = (0..HALF_OPEN)
        .map(|_| connect_from(ip("127.0.0.2"), &server.address))
        .collect();
    let (held_p50, held_p99) = health_latency(server);
    println!(
        "/health from 127.0.0.1, {HEALTH_REQUESTS} requests: idle p50 {:.2} ms p99 {:.2} ms; \
         with {HALF_OPEN} half-open connections from 127.0.0.2 p50 {:.2} ms p99 {:.2} ms \
         (ratio p50 {:.2}x, p99 {:.2}x)",
        ms(idle_p50),
        ms(idle_p99),
        ms(held_p50),
        ms(held_p99),
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

fn main() {
    if std::env::args().any(|a| a == "--list") {
        return;
    }
    raise_open_file_limit();
    println!("command: cargo bench --bench serve_bounds");
    let dir = TempDir::new("bench-serve-bounds");
    let server = Server::start_with(
        &dir.challenge(),
        &[],
        &[("CHALLENGE_BUILD_TIMEOUT", BUILD_LIMIT_SECONDS)],
    );
    half_open(&server);
    flood(&server);
}

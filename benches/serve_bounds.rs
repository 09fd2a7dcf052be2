//! `challenge serve` while one client, or a group of them, tries to starve it, against
//! the same server idle, in one run:
//!
//! 1. `/health` latency (p50, p99) from 127.0.0.1 while 1,100 half-open connections from
//!    127.0.0.2 are held, against no such connections;
//! 2. the same while the fewest addresses that could hold every connection (the server's
//!    connection cap over its per-client cap: 256) each hold every event stream they are
//!    allowed on `/events` and `/live/events`;
//! 3. an honest submission's time to acceptance (post to "accepted": the queue, the bot's
//!    build and its smoke test) from 127.0.0.1 while sixteen addresses flood the queue,
//!    two bots each whose build runs to the build time limit (20 s), against the queue
//!    empty; and the same flood with invitations on (the flood has no code). On loopback
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
/// Flooding addresses, and the posts of each.
const FLOODERS: usize = 16;
const FLOOD_POSTS: usize = 2;
/// The build limit of the flood's bots; an honest build must stay well inside it on a
/// loaded machine (at 8 s it did not, with other compilers sharing the two cores).
const BUILD_LIMIT_SECONDS: &str = "20";

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

/// The `n`th address of a group (127.0.1.1 and on: never the honest 127.0.0.x).
fn member(n: usize) -> IpAddr {
    let n = u32::try_from(n).expect("a small group");
    IpAddr::V4(std::net::Ipv4Addr::from(
        u32::from(std::net::Ipv4Addr::new(127, 0, 1, 0)) + 1 + n,
    ))
}

/// An event stream on `path` from `source`, if the server admits it (200).
fn stream_from(source: IpAddr, server: &Server, path: &str) -> Option<TcpStream> {
    let mut stream = connect_from(source, &server.address);
    stream
        .write_all(format!("GET {path} HTTP/1.1\r\nHost: bench\r\n\r\n").as_bytes())
        .ok()?;
    stream.set_read_timeout(Some(HEALTH_PATIENCE)).ok()?;
    let mut head = [0u8; 12];
    stream.read_exact(&mut head).ok()?;
    head.starts_with(b"HTTP/1.1 200").then_some(stream)
}

fn group_streams(server: &Server) {
    let limits = serve::fit_to_open_files(serve::Limits::default(), 1 << 20);
    let (addresses, _) = limits.fewest_clients_to_fill();
    let (idle_p50, idle_p99, idle_failed) = health_latency(server);
    let mut held = Vec::new();
    for n in 0..addresses {
        for path in ["/events", "/live/events"] {
            for _ in 0..limits.max_streams_per_client {
                held.extend(stream_from(member(n), server, path));
            }
        }
    }
    let (held_p50, held_p99, held_failed) = health_latency(server);
    println!(
        "/health from 127.0.0.1, {HEALTH_REQUESTS} requests: idle p50 {:.2} ms p99 {:.2} ms \
         ({idle_failed} unanswered); while {addresses} addresses (127.0.1.x) hold every event \
         stream they are allowed ({} held of {} asked) p50 {:.2} ms p99 {:.2} ms \
         ({held_failed} unanswered in {} s) (ratio p50 {:.2}x, p99 {:.2}x)",
        ms(idle_p50),
        ms(idle_p99),
        held.len(),
        addresses * 2 * limits.max_streams_per_client,
        ms(held_p50),
        ms(held_p99),
        HEALTH_PATIENCE.as_secs(),
        ms(held_p50) / ms(idle_p50),
        ms(held_p99) / ms(idle_p99)
    );
    drop(held);
}

/// Sixteen addresses post two flood bots each; returns the jobs queued and how many
/// posts were refused (and with what status).
fn flood_from_sixteen(server: &Server) -> (Vec<String>, Vec<u16>) {
    let never = std::fs::read(kit_bot("never_builds")).expect("read never_builds");
    let mut jobs = Vec::new();
    let mut refused = Vec::new();
    for n in 0..FLOODERS {
        let mut flooder = Client::from_source(server, member(n));
        for m in 0..FLOOD_POSTS {
            let response = post_submission(&mut flooder, &format!("flood-{n}-{m}"), &never);
            match response.status {
                200 => jobs.push(job_and_key(&response.body).0),
                status => refused.push(status),
            }
        }
    }
    (jobs, refused)
}

/// Turns invitations on and makes a code; returns the code.
fn invitations_on(server: &Server) -> String {
    let mut organiser = Client::from_source(server, ip("127.0.0.1"));
    serve_common::log_in(&mut organiser, serve_common::ADMIN_TOKEN);
    serve_common::organiser_action(&mut organiser, "invitations-on", &[]);
    let page = organiser.get("/organiser");
    let csrf = serve_common::csrf_token(&page.body, "/organiser/invitations");
    let made = organiser.post_form("/organiser/invitations", &[("csrf", &csrf), ("uses", "1")]);
    let marker = "id=\"invitation-code\">";
    let at = made.body.find(marker).expect("the code shown") + marker.len();
    made.body[at..at + made.body[at..].find('<').expect("its end")].to_string()
}

/// An invited submission's time to acceptance from 127.0.0.1.
fn invited_time_to_acceptance(server: &Server, name: &str, code: &str) -> Duration {
    let mut client = Client::from_source(server, ip("127.0.0.1"));
    let form = client.get("/submit");
    let token = serve_common::csrf_token(&form.body, "/submit");
    let start = Instant::now();
    let response = client.post_multipart(
        "/submit",
        &[("csrf", &token), ("name", name), ("invitation", code)],
        Some((&format!("{name}.rs"), &honest_bot(name))),
    );
    assert_eq!(response.status, 200, "{}", response.body);
    let (job, _) = job_and_key(&response.body);
    while !matches!(state(&mut client, &job).as_str(), "accepted" | "refused") {
        std::thread::sleep(Duration::from_millis(50));
    }
    assert_eq!(state(&mut client, &job), "accepted");
    start.elapsed()
}

/// A server on a fresh challenge in `dir`, its bots' builds limited to
/// [`BUILD_LIMIT_SECONDS`].
fn flood_server(dir: &TempDir) -> Server {
    Server::start_with(
        &dir.challenge(),
        &[],
        &[("CHALLENGE_BUILD_TIMEOUT", BUILD_LIMIT_SECONDS)],
    )
}

/// The honest submission's time to acceptance with the queue empty, then while sixteen
/// addresses flood it; then, on a second server with invitations on, under the same
/// flood. The flood's builds under way when a server stops end at their limit on their
/// own; the waiting ones never start.
fn flood() {
    let open = TempDir::new("bench-serve-flood");
    let server = flood_server(&open);
    // The first build of a fresh build directory builds the framework: not measured.
    time_to_acceptance(&server, "warm", &honest_bot("warm"));
    let idle = time_to_acceptance(&server, "idle", &honest_bot("idle"));
    let (jobs, refused) = flood_from_sixteen(&server);
    let flooded = time_to_acceptance(&server, "flooded", &honest_bot("flooded"));
    println!(
        "honest submission's time to acceptance: queue empty {:.1} s; while {FLOODERS} \
         addresses flood ({FLOOD_POSTS} posts each of a bot whose build runs to the \
         {BUILD_LIMIT_SECONDS} s limit: {} queued, refused {refused:?}) {:.1} s (ratio {:.2}x)",
        idle.as_secs_f64(),
        jobs.len(),
        flooded.as_secs_f64(),
        flooded.as_secs_f64() / idle.as_secs_f64()
    );
    drop(server);
    let invited_dir = TempDir::new("bench-serve-invited");
    let server = flood_server(&invited_dir);
    let code = invitations_on(&server);
    let (jobs, refused) = flood_from_sixteen(&server);
    let invited = invited_time_to_acceptance(&server, "invited", &code);
    println!(
        "with invitations on, the same flood ({} queued, refused {refused:?}): an invited \
         submission's time to acceptance {:.1} s (ratio {:.2}x to the queue empty above)",
        jobs.len(),
        invited.as_secs_f64(),
        invited.as_secs_f64() / idle.as_secs_f64()
    );
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
    let server = Server::start(&dir.challenge());
    // The clients' own sockets need more than 1,024.
    raise_open_file_limit();
    half_open(&server);
    group_streams(&server);
    drop(server);
    flood();
}

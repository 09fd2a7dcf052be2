//! `challenge serve` with no reverse proxy in front: no one client can starve the others.
//! Each test is one way a single client used to hold the server (half-open connections,
//! headers never finished, an idle keep-alive connection, a flood of slow submissions),
//! and checks that the server bounds it while another client is served.
//!
//! Two clients on one machine: the server listens on 127.0.0.1, and the "other" client
//! connects from 127.0.0.2 (all of 127/8 is loopback on Linux).

use crate::common_challenge;
use crate::serve_common;

use std::io::{ErrorKind, Read, Write};
use std::net::{IpAddr, TcpStream};
use std::time::{Duration, Instant};

use common_challenge::{TempDir, kit_bot};
use serve::{ClientKey, client_key};
use serve_common::{
    Client, Server, connect_from, post_submission, raise_open_file_limit, wait_job,
};

fn ip(text: &str) -> IpAddr {
    text.parse().expect("an IP address")
}

/// Everything the server sends on `stream` until it closes it, or the error that ended
/// the wait (a timeout means the server kept the connection open).
fn read_until_closed(stream: &mut TcpStream, wait: Duration) -> Result<String, ErrorKind> {
    stream.set_read_timeout(Some(wait)).expect("set a timeout");
    let mut seen = Vec::new();
    match stream.read_to_end(&mut seen) {
        Ok(_) => Ok(String::from_utf8_lossy(&seen).into_owned()),
        // A reset is the server closing too.
        Err(err) if err.kind() == ErrorKind::ConnectionReset => {
            Ok(String::from_utf8_lossy(&seen).into_owned())
        }
        Err(err) => Err(err.kind()),
    }
}

#[test]
fn an_address_is_grouped_into_its_client_ipv6_by_64() {
    let key = |text: &str| client_key(ip(text));
    assert_eq!(key("2001:db8::1"), key("2001:db8::ffff:ffff:ffff:ffff"));
    assert_eq!(key("2001:db8::1"), key("2001:db8:0:0:8000::"));
    assert_ne!(key("2001:db8::1"), key("2001:db8:0:1::1"));
    assert_ne!(key("2001:db8::1"), key("2001:db9::1"));
    assert_eq!(key("::1"), ClientKey::V6Net(0));
    assert_eq!(key("2001:db8::1").to_string(), "2001:db8::/64");
    // IPv4 addresses are clients one by one; IPv4-mapped IPv6 is the IPv4 address.
    assert_ne!(key("192.0.2.1"), key("192.0.2.2"));
    assert_eq!(key("::ffff:192.0.2.1"), key("192.0.2.1"));
    assert_eq!(
        key("192.0.2.1"),
        ClientKey::V4("192.0.2.1".parse().unwrap())
    );
    assert_eq!(key("::ffff:192.0.2.1").to_string(), "192.0.2.1");
}

#[test]
fn half_open_connections_from_one_address_leave_health_to_the_others() {
    let open_files = raise_open_file_limit().now;
    assert!(
        open_files >= 2400,
        "the test needs 2,400 open files, has {open_files}"
    );
    let dir = TempDir::new("serve-half-open");
    let mut server = Server::start(&dir.challenge());
    let attacker = ip("127.0.0.2");
    // 1,100 connections that never send a byte.
    let mut held: Vec<TcpStream> = (0..1100)
        .map(|_| connect_from(attacker, &server.address))
        .collect();
    // The ones past the attacker's cap are answered at once, and closed.
    for stream in held.iter_mut().rev().take(20) {
        let answer = read_until_closed(stream, Duration::from_secs(20))
            .unwrap_or_else(|err| panic!("a connection past the cap was kept open: {err:?}"));
        assert!(answer.starts_with("HTTP/1.1 503"), "{answer}");
        assert!(answer.contains("Retry-After: "), "{answer}");
        assert!(
            answer.contains("too many connections from your network"),
            "{answer}"
        );
    }
    // Another client is served while the attacker holds its connections.
    for source in ["127.0.0.1", "127.0.0.3"] {
        let health = Client::from_source(&server, ip(source)).get("/health");
        assert_eq!(
            (health.status, health.body.as_str()),
            (200, "ok"),
            "from {source}"
        );
    }
    assert!(server.is_running());
    drop(held);
}

#[test]
fn connections_that_never_finish_their_headers_or_sit_idle_are_closed_in_time() {
    let dir = TempDir::new("serve-header-timeout");
    let server = Server::start_with(&dir.challenge(), &["--header-timeout", "1"], &[]);
    // Far above the 1 s limit, so a loaded machine does not make it fail; without a
    // limit the server would keep every one of these open for good.
    let patience = Duration::from_secs(20);
    let mut begun = TcpStream::connect(&server.address).unwrap();
    begun
        .write_all(b"GET /health HTTP/1.1\r\nHost: x\r\nX-Slow: ")
        .unwrap();
    let mut silent = TcpStream::connect(&server.address).unwrap();
    let mut idle = TcpStream::connect(&server.address).unwrap();
    idle.write_all(b"GET /health HTTP/1.1\r\nHost: x\r\n\r\n")
        .unwrap();
    let start = Instant::now();
    for (what, stream) in [("begun", &mut begun), ("silent", &mut silent)] {
        let answer = read_until_closed(stream, patience)
            .unwrap_or_else(|err| panic!("the {what} connection was kept open: {err:?}"));
        assert!(!answer.contains("200 OK"), "{what}: {answer}");
    }
    let answer = read_until_closed(&mut idle, patience)
        .unwrap_or_else(|err| panic!("the idle keep-alive connection was kept open: {err:?}"));
    assert!(answer.starts_with("HTTP/1.1 200 OK"), "{answer}");
    assert!(
        answer.ends_with("ok"),
        "one answer, then the close: {answer}"
    );
    println!("closed after {:?}", start.elapsed());
}

#[test]
fn a_body_sent_too_slowly_is_answered_408_and_closed() {
    let dir = TempDir::new("serve-body-timeout");
    let server = Server::start_with(&dir.challenge(), &["--body-timeout", "1"], &[]);
    let mut slow = TcpStream::connect(&server.address).unwrap();
    // Ten bytes of the hundred announced, then nothing.
    slow.write_all(
        b"POST /organiser/login HTTP/1.1\r\nHost: x\r\n\
          Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 100\r\n\r\n\
          csrf=0123a",
    )
    .unwrap();
    let answer = read_until_closed(&mut slow, Duration::from_secs(20))
        .unwrap_or_else(|err| panic!("the slow body's connection was kept open: {err:?}"));
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
    assert!(answer.contains("longer than 1 s"), "{answer}");
}

/// The JSON state of a job (`queued`, `running`, `accepted`, `refused`, `failed`).
fn job_state(client: &mut Client, status_path: &str) -> String {
    let response = client.get(status_path);
    assert_eq!(response.status, 200, "{}", response.body);
    let body = response.body;
    let at = body.find("\"state\":\"").expect("a state") + 9;
    body[at..at + body[at..].find('"').expect("its end")].to_string()
}

/// Waits, when dropped, for jobs to end, so a failing test never leaves a never-ending
/// build behind (builds run in their own process group, and outlive a killed server).
struct EndJobs<'a> {
    client: Client,
    jobs: Vec<&'a str>,
}

impl Drop for EndJobs<'_> {
    fn drop(&mut self) {
        for job in &self.jobs {
            let start = Instant::now();
            while start.elapsed() < Duration::from_secs(300)
                && self.client.get(job).body.contains("\"done\":false")
            {
                std::thread::sleep(Duration::from_millis(200));
            }
        }
    }
}

fn job_of(response: &serve_common::Response) -> String {
    assert_eq!(response.status, 200, "{}", response.body);
    serve_common::job_and_key(&response.body).0
}

#[test]
fn a_flood_of_slow_submissions_is_bounded_and_an_honest_one_goes_next() {
    let dir = TempDir::new("serve-flood");
    // Each flood build runs until the build time limit, which the honest build must stay
    // well inside even on a loaded machine (at 5 s it did not, with ten compilers
    // sharing two cores, and the honest bot was refused).
    let server = Server::start_with(&dir.challenge(), &[], &[("CHALLENGE_BUILD_TIMEOUT", "20")]);
    let never = std::fs::read(kit_bot("never_builds")).unwrap();
    let mut flood = Client::new(&server);
    let first = job_of(&post_submission(&mut flood, "flood-a", &never));
    let second = job_of(&post_submission(&mut flood, "flood-b", &never));
    let _end = EndJobs {
        client: Client::from_source(&server, ip("127.0.0.9")),
        jobs: vec![first.as_str(), second.as_str()],
    };
    let third = post_submission(&mut flood, "flood-c", &never);
    assert_eq!(third.status, 503, "{}", third.body);
    assert!(third.header("retry-after").is_some(), "{:?}", third.headers);
    assert!(
        third.body.contains(
            "too many submissions waiting from your network; try again when one has finished"
        ),
        "{}",
        third.body
    );
    // Another client is taken at once, and built right after the build in progress.
    let mut honest = Client::from_source(&server, ip("127.0.0.2"));
    let source = std::fs::read(kit_bot("my_bot")).unwrap();
    let mine = job_of(&post_submission(&mut honest, "honest", &source));
    let start = Instant::now();
    loop {
        let flood_b = job_state(&mut honest, &second);
        let state = job_state(&mut honest, &mine);
        if !matches!(state.as_str(), "queued" | "running") {
            assert_eq!(state, "accepted", "{}", wait_job(&mut honest, &mine));
            assert!(
                flood_b == "queued" || flood_b == "running",
                "the flood's second build ended before the honest one: {flood_b}"
            );
            break;
        }
        assert_eq!(
            flood_b, "queued",
            "the flood's second build started before the honest one ({state})"
        );
        assert!(
            start.elapsed() < Duration::from_secs(900),
            "the honest job did not end"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    // The flood's builds end at the time limit (their builds are not left running when
    // the server stops).
    for job in [&first, &second] {
        let end = wait_job(&mut flood, job);
        assert!(end.contains("\"refused\""), "{end}");
    }
}

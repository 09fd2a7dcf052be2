//! `challenge serve` against a group of clients, not only one: event streams from many
//! addresses leave pages and `/health` to everyone else, streams end, a flood of
//! submissions from sixteen addresses leaves a newcomer a place in the queue, and with
//! invitations on only a code the organiser made enters a new entry.
//!
//! The group is many loopback addresses (127.0.x.y: all of 127/8 is loopback on Linux),
//! each its own client to the server, as each IPv4 address on the internet is.

use crate::common_challenge;
use crate::serve_common;

use std::io::{ErrorKind, Read, Write};
use std::net::{IpAddr, Ipv4Addr, TcpStream};
use std::time::{Duration, Instant};

use common_challenge::{TempDir, kit_bot};
use serve_common::{
    ADMIN_TOKEN, Client, Server, connect_from, csrf_token, job_and_key, log_in, organiser_action,
    post_submission, wait_job,
};

/// The `n`th address of the group (127.0.1.1 and on: never the honest 127.0.0.x).
fn member(n: usize) -> IpAddr {
    let n = u32::try_from(n).expect("a small group");
    IpAddr::V4(Ipv4Addr::from(
        u32::from(Ipv4Addr::new(127, 0, 1, 0)) + 1 + n,
    ))
}

/// Opens an event stream on `path` from `source` and reads its answer's head: the
/// connection (kept open while the stream is) and the status, or `None` when the server
/// closed the connection without an answer.
fn open_stream(source: IpAddr, server: &Server, path: &str) -> (TcpStream, Option<u16>) {
    open_stream_with(source, server, path, "")
}

/// [`open_stream`] with more request headers (each ending in CRLF).
fn open_stream_with(
    source: IpAddr,
    server: &Server,
    path: &str,
    headers: &str,
) -> (TcpStream, Option<u16>) {
    let mut stream = connect_from(source, &server.address);
    let request =
        format!("GET {path} HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n{headers}\r\n");
    stream
        .write_all(request.as_bytes())
        .expect("send the request");
    stream
        .set_read_timeout(Some(Duration::from_secs(20)))
        .expect("set a timeout");
    let mut head = Vec::new();
    let mut byte = [0u8; 1];
    while !head.ends_with(b"\r\n\r\n") {
        match stream.read(&mut byte) {
            Ok(1) => head.push(byte[0]),
            _ => break,
        }
    }
    let status = String::from_utf8_lossy(&head)
        .split_whitespace()
        .nth(1)
        .and_then(|code| code.parse().ok());
    if status != Some(200) {
        // A refusal closes its connection: wait for the close, so the next request does
        // not find this one still counted.
        let _ = stream.read_to_end(&mut Vec::new());
    }
    (stream, status)
}

/// Everything the server sends on `stream` until it closes it, or the error that ended
/// the wait (a timeout means the server kept it open).
fn read_until_closed(stream: &mut TcpStream, wait: Duration) -> Result<String, ErrorKind> {
    stream.set_read_timeout(Some(wait)).expect("set a timeout");
    let mut seen = Vec::new();
    match stream.read_to_end(&mut seen) {
        Ok(_) => Ok(String::from_utf8_lossy(&seen).into_owned()),
        Err(err) if err.kind() == ErrorKind::ConnectionReset => {
            Ok(String::from_utf8_lossy(&seen).into_owned())
        }
        Err(err) => Err(err.kind()),
    }
}

/// The pages an honest visitor from 127.0.0.1 loads, each answered 200.
fn pages_answer(server: &Server) {
    let mut honest = Client::from_source(server, "127.0.0.1".parse().unwrap());
    for path in ["/health", "/", "/live"] {
        let page = honest.get(path);
        assert_eq!(page.status, 200, "{path}: {}", page.body);
    }
}

#[test]
fn streams_from_thirty_two_addresses_leave_pages_and_health_to_the_others() {
    // Today's main: 128 streams an address and 1,024 in all, so 8 addresses held every
    // connection and the pages answered 503 to everyone else.
    let dir = TempDir::new("serve-group-streams");
    let server = Server::start(&dir.challenge());
    let mut held = Vec::new();
    let mut statuses = std::collections::BTreeMap::<Option<u16>, usize>::new();
    for n in 0..32 {
        for path in ["/live/events", "/events"] {
            for _ in 0..20 {
                let (stream, status) = open_stream(member(n), &server, path);
                *statuses.entry(status).or_default() += 1;
                if status == Some(200) {
                    held.push(stream);
                }
            }
        }
    }
    // Four streams an address on each endpoint; every other request refused at once.
    assert_eq!(held.len(), 32 * 2 * 4, "{statuses:?}");
    assert_eq!(
        statuses.get(&Some(503)),
        Some(&(32 * 2 * 16)),
        "{statuses:?}"
    );
    pages_answer(&server);
    // The honest visitor's own pages follow the changes too.
    let (_mine, status) = open_stream("127.0.0.1".parse().unwrap(), &server, "/events");
    assert_eq!(status, Some(200));
    drop(held);
}

#[test]
fn streams_cannot_take_the_connections_pages_keep() {
    // 96 connections: each stream endpoint takes at most 16 (a sixth), so all streams
    // together leave 64 to pages, however many addresses ask.
    let dir = TempDir::new("serve-group-reserve");
    let server = Server::start_with(&dir.challenge(), &["--max-connections", "96"], &[]);
    let mut held = Vec::new();
    for n in 0..24 {
        for path in ["/live/events", "/events"] {
            for _ in 0..4 {
                let (stream, status) = open_stream(member(n), &server, path);
                if status == Some(200) {
                    held.push(stream);
                }
            }
        }
    }
    assert_eq!(held.len(), 2 * 16, "each endpoint stops at its share");
    pages_answer(&server);
    drop(held);
}

#[test]
fn an_event_stream_ends_when_idle_and_a_returning_page_is_told_what_it_missed() {
    let dir = TempDir::new("serve-stream-idle");
    let server = Server::start_with(
        &dir.challenge(),
        &["--stream-idle", "1", "--stream-lifetime", "5"],
        &[],
    );
    let start = Instant::now();
    // `Connection: close`, so the stream's end is the connection's.
    let (mut stream, status) =
        open_stream_with(member(0), &server, "/events", "Connection: close\r\n");
    assert_eq!(status, Some(200));
    // Without a limit nothing would end it: no change happens on an idle challenge.
    read_until_closed(&mut stream, Duration::from_secs(20))
        .unwrap_or_else(|err| panic!("the idle stream was kept open: {err:?}"));
    println!("the idle stream ended after {:?}", start.elapsed());
    // A page that saw change 999 before a restart is told to refresh at once.
    let mut back = connect_from(member(0), &server.address);
    back.write_all(
        b"GET /events HTTP/1.1\r\nHost: x\r\nLast-Event-ID: 999\r\nConnection: close\r\n\r\n",
    )
    .unwrap();
    let seen = read_until_closed(&mut back, Duration::from_secs(20))
        .unwrap_or_else(|err| panic!("the stream did not end: {err:?}"));
    assert!(seen.contains("event: change"), "{seen}");
    assert!(seen.contains("\nid: "), "{seen}");
}

/// The JSON state of a job (`queued`, `running`, `accepted`, `refused`, `failed`).
fn job_state(client: &mut Client, status_path: &str) -> String {
    let body = client.get(status_path).body;
    let at = body.find("\"state\":\"").expect("a state") + 9;
    body[at..at + body[at..].find('"').expect("its end")].to_string()
}

#[test]
fn sixteen_addresses_flooding_the_queue_leave_a_newcomer_its_place() {
    let dir = TempDir::new("serve-group-flood");
    // The queue's old size, which sixteen addresses with two submissions each filled.
    // No flood build may end while the flood is posted, or its place frees and the queue
    // is no longer full when the newcomer comes (under CI's load, posting the flood took
    // longer than a 20 s limit): the builds run until the server is stopped, which ends
    // them.
    let server = Server::start_with(
        &dir.challenge(),
        &["--max-pending-builds", "32"],
        &[("CHALLENGE_BUILD_TIMEOUT", "3600")],
    );
    let never = std::fs::read(kit_bot("never_builds")).unwrap();
    let mut jobs = Vec::new();
    for n in 0..16 {
        let mut flooder = Client::from_source(&server, member(n));
        for m in 0..2 {
            let posted = post_submission(&mut flooder, &format!("flood-{n}-{m}"), &never);
            assert_eq!(posted.status, 200, "flood {n}.{m}: {}", posted.body);
            jobs.push(job_and_key(&posted.body).0);
        }
    }
    let mut honest = Client::from_source(&server, "127.0.0.2".parse().unwrap());
    let source = std::fs::read(kit_bot("my_bot")).unwrap();
    let posted = post_submission(&mut honest, "honest", &source);
    assert_eq!(
        posted.status, 200,
        "the newcomer is queued: {}",
        posted.body
    );
    let mine = job_and_key(&posted.body).0;
    assert_eq!(job_state(&mut honest, &mine), "queued");
    // A flood submission gave its place, and was told why. Its job learns that from its
    // own task, which may run after the newcomer's answer (under CI's load it did).
    let deadline = Instant::now() + Duration::from_secs(60);
    let displaced = loop {
        let displaced: Vec<String> = jobs
            .iter()
            .map(|job| honest.get(job).body)
            .filter(|body| body.contains("gave its place"))
            .collect();
        if !displaced.is_empty() || Instant::now() > deadline {
            break displaced;
        }
        std::thread::sleep(Duration::from_millis(200));
    };
    // Should none have given its place, the flood's states say why (a build that ended
    // early leaves the queue short of full).
    assert_eq!(
        displaced.len(),
        1,
        "{displaced:?}\nthe flood: {:#?}",
        jobs.iter()
            .map(|job| honest.get(job).body)
            .collect::<Vec<_>>()
    );
    assert!(displaced[0].contains("\"refused\""), "{}", displaced[0]);
    // Stopping the server ends the flood's builds under way; the rest never start.
}

/// Makes an invitation code good for `uses` new entries, as the organiser.
fn invitation(organiser: &mut Client, uses: &str) -> String {
    let page = organiser.get("/organiser");
    let csrf = csrf_token(&page.body, "/organiser/invitations");
    let made = organiser.post_form("/organiser/invitations", &[("csrf", &csrf), ("uses", uses)]);
    assert_eq!(made.status, 200, "{}", made.body);
    let marker = "id=\"invitation-code\">";
    let at = made.body.find(marker).expect("the code shown") + marker.len();
    made.body[at..at + made.body[at..].find('<').expect("its end")].to_string()
}

/// Turns invitations on as the organiser and makes a code good for one new entry;
/// returns the organiser's client and the code.
fn invitations_on(server: &Server) -> (Client, String) {
    let mut organiser = Client::new(server);
    log_in(&mut organiser, ADMIN_TOKEN);
    let on = organiser_action(&mut organiser, "invitations-on", &[]);
    assert_eq!(on.status, 303, "{}", on.body);
    let code = invitation(&mut organiser, "1");
    (organiser, code)
}

/// Posts a new entry with an invitation code; returns the answer.
fn post_invited(
    client: &mut Client,
    name: &str,
    code: &str,
    source: &[u8],
) -> serve_common::Response {
    let form = client.get("/submit");
    assert!(
        form.body.contains("name=\"invitation\""),
        "the form asks for the code"
    );
    let token = csrf_token(&form.body, "/submit");
    client.post_multipart(
        "/submit",
        &[("csrf", &token), ("name", name), ("invitation", code)],
        Some((&format!("{name}.rs"), source)),
    )
}

#[test]
fn with_invitations_on_only_a_code_enters_a_new_entry_and_a_refusal_gives_its_use_back() {
    let dir = TempDir::new("serve-invitations");
    let server = Server::start(&dir.challenge());
    let (mut organiser, code) = invitations_on(&server);
    let mut entrant = Client::from_source(&server, "127.0.0.3".parse().unwrap());
    let source = std::fs::read(kit_bot("my_bot")).unwrap();
    let none = post_invited(&mut entrant, "invited", "", &source);
    assert_eq!(none.status, 403, "{}", none.body);
    assert!(
        none.body.contains("need an invitation code"),
        "{}",
        none.body
    );
    let wrong = post_invited(&mut entrant, "invited", "not-a-code", &source);
    assert_eq!(wrong.status, 403, "{}", wrong.body);
    assert!(
        wrong.body.contains("not one the organiser made"),
        "{}",
        wrong.body
    );
    // A bot that does not build is refused, and the code's use comes back.
    let broken = post_invited(&mut entrant, "invited", &code, b"fn broken( {}\n");
    assert_eq!(broken.status, 200, "{}", broken.body);
    let end = wait_job(&mut entrant, &job_and_key(&broken.body).0);
    assert!(end.contains("\"refused\""), "{end}");
    let good = post_invited(&mut entrant, "invited", &code, &source);
    assert_eq!(good.status, 200, "{}", good.body);
    let (job, key) = job_and_key(&good.body);
    let end = wait_job(&mut entrant, &job);
    assert!(end.contains("\"accepted\""), "{end}");
    // Used up: no second new entry; the entry's own key still sends a new version.
    let again = post_invited(&mut entrant, "another", &code, &source);
    assert_eq!(again.status, 403, "{}", again.body);
    assert!(again.body.contains("used up"), "{}", again.body);
    let page = organiser.get("/organiser");
    assert!(
        page.body.contains("by invitation code only"),
        "{}",
        page.body
    );
    assert!(!page.body.contains(&code), "only the code's hash is kept");
    let mut newer = source.clone();
    newer.extend_from_slice(b"\n// v2\n");
    let (end, _) = serve_common::submit(
        &mut entrant,
        "invited",
        "",
        &key.expect("a new entry's key"),
        &newer,
    );
    assert!(end.contains("\"accepted\""), "{end}");
}

/// A new entry's submission that a restart of the server interrupts was never judged:
/// its invitation's use comes back with the restart, and the same code enters the bot.
#[test]
fn a_restart_gives_back_the_invitation_use_of_the_submission_it_interrupted() {
    let dir = TempDir::new("serve-invitation-restart");
    // A build that runs until the server stops, so the submission is in flight when it does.
    let env = [("CHALLENGE_BUILD_TIMEOUT", "3600")];
    let server = Server::start_with(&dir.challenge(), &[], &env);
    let (_, code) = invitations_on(&server);
    let mut entrant = Client::from_source(&server, "127.0.0.3".parse().unwrap());
    let never = std::fs::read(kit_bot("never_builds")).unwrap();
    let posted = post_invited(&mut entrant, "invited", &code, &never);
    assert_eq!(posted.status, 200, "{}", posted.body);
    let (job, _) = job_and_key(&posted.body);
    drop(server);

    let server = Server::start_with(&dir.challenge(), &[], &env);
    let mut entrant = Client::from_source(&server, "127.0.0.3".parse().unwrap());
    let outcome = entrant.get(&job).body;
    assert!(outcome.contains("\"state\":\"failed\""), "{outcome}");
    let source = std::fs::read(kit_bot("my_bot")).unwrap();
    let again = post_invited(&mut entrant, "invited", &code, &source);
    assert_eq!(
        again.status, 200,
        "the code's use came back: {}",
        again.body
    );
    let end = wait_job(&mut entrant, &job_and_key(&again.body).0);
    assert!(end.contains("\"accepted\""), "{end}");
}

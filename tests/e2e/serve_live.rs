//! Live games (`/live`): `challenge match --watch` serves the game being played, a game's
//! page advances move by move in Chromium without reloading, engine text (a hostile name,
//! PV words, an `info string`) is shown as text, and a game's cap of watchers refuses the
//! next with a 503 page. Screenshots go to `target/screenshots/live/`.

use crate::common;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use common::kit_root;
use common::outside::{self, CHROMEDRIVER, CHROMIUM, PYTHON_CHESS, SELENIUM};
use runner::{GameRecord, Opening, Player, TimeControl, play_game_observed};
use runner::{GameWatch, LiveEnd, LiveStart};
use serve::serve_live;

const HOSTILE_NAME: &str = "<i>evil</i>";

/// A `challenge match --watch` between two slow engines with hostile text, killed on drop.
struct WatchedMatch {
    child: Child,
    live: String,
}

impl WatchedMatch {
    fn start() -> WatchedMatch {
        let python = outside::require(&PYTHON_CHESS);
        let engine = kit_root().join("tests/engines/hostile_live.py");
        let spec = |name: &str| {
            vec![
                format!("name={name}"),
                format!("cmd={}", python.display()),
                format!("arg={}", engine.display()),
            ]
        };
        let mut args = vec!["match".to_string(), "--watch".into(), "--engine".into()];
        args.extend(spec(HOSTILE_NAME));
        args.push("--engine".into());
        args.extend(spec("calm"));
        args.extend(["-n", "2", "-j", "1", "--tc", "300+0", "-q"].map(String::from));
        let mut child = Command::new(crate::common::challenge_exe())
            .args(&args)
            .current_dir(kit_root())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("challenge match runs");
        let mut line = String::new();
        BufReader::new(child.stdout.take().expect("stdout"))
            .read_line(&mut line)
            .expect("match prints its URL");
        let live = line
            .split_whitespace()
            .find(|w| w.starts_with("http://"))
            .unwrap_or_else(|| panic!("no URL in {line:?}"))
            .to_string();
        WatchedMatch { child, live }
    }

    fn address(&self) -> SocketAddr {
        let host = self
            .live
            .trim_start_matches("http://")
            .trim_end_matches("/live");
        host.parse().expect("host:port")
    }
}

impl Drop for WatchedMatch {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// One HTTP/1.0 GET: the status code and the body (read until the server closes).
fn get(address: SocketAddr, path: &str) -> (u16, String) {
    let mut stream = TcpStream::connect(address).expect("connect");
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    write!(stream, "GET {path} HTTP/1.0\r\nHost: localhost\r\n\r\n").unwrap();
    let mut response = String::new();
    let _ = stream.read_to_string(&mut response);
    let status = response
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    (status, response)
}

/// Asks until `ok` holds for the answer to `path` (the games start in their own time).
fn get_until(address: SocketAddr, path: &str, ok: impl Fn(u16, &str) -> bool) -> String {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let (status, body) = get(address, path);
        if ok(status, &body) {
            return body;
        }
        assert!(
            Instant::now() < deadline,
            "no answer as awaited from {path}: {status} {body}"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

#[test]
fn match_watch_serves_the_game_being_played_with_engine_text_escaped() {
    let watched = WatchedMatch::start();
    let address = watched.address();
    let list = get_until(address, "/live", |s, b| s == 200 && b.contains("/live/1"));
    assert!(list.contains("&lt;i&gt;evil&lt;&#x2f;i&gt;"), "{list}");
    assert!(!list.contains(HOSTILE_NAME), "{list}");
    let game = get_until(address, "/live/1", |s, b| {
        s == 200 && b.contains("\"plies\"")
    });
    assert!(
        !game.contains(HOSTILE_NAME),
        "the name in the page's data is not escaped: {game}"
    );
    assert!(game.contains("content-security-policy"), "{game}");
}

#[test]
fn a_live_game_advances_in_the_browser_and_shows_engine_text_as_text() {
    let Some(chromium) = outside::need(&CHROMIUM) else {
        return;
    };
    let Some(driver) = outside::need(&CHROMEDRIVER) else {
        return;
    };
    let python = outside::require(&SELENIUM);
    let watched = WatchedMatch::start();
    let shots = kit_root().join("target/screenshots/live");
    let output = Command::new(python)
        .arg(kit_root().join("tests/python/serve_live.py"))
        .arg(&watched.live)
        .arg(&shots)
        .env("CHROMIUM", chromium)
        .env("CHROMEDRIVER", driver)
        .output()
        .expect("python3 runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success() && stdout.contains("live browser test: ok"),
        "the live browser test failed:\n{stdout}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    for shot in ["live-list.png", "live-game.png"] {
        assert!(shots.join(shot).is_file(), "no screenshot {shot}");
    }
}

/// Reads an open event stream until its first frame.
fn first_frame(stream: &mut TcpStream) -> String {
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    let mut seen = Vec::new();
    let mut buffer = [0u8; 4096];
    while !String::from_utf8_lossy(&seen).contains("event: frame") {
        let n = stream.read(&mut buffer).expect("the stream sends");
        assert!(
            n > 0,
            "the stream closed: {}",
            String::from_utf8_lossy(&seen)
        );
        seen.extend_from_slice(&buffer[..n]);
    }
    String::from_utf8_lossy(&seen).into_owned()
}

#[test]
fn a_game_at_its_cap_of_watchers_refuses_the_next_with_a_503_page() {
    let server = serve_live("127.0.0.1:0".parse().unwrap(), 1).expect("the live view starts");
    let opening = Opening::startpos();
    let tc: TimeControl = "10+0".parse().unwrap();
    let start = LiveStart {
        key: 7,
        white: "a",
        black: "b",
        round: "game 7",
        opening: &opening,
        time_controls: [tc, tc],
    };
    let follower = server.games.begin(&start).expect("the game is followed");
    let mut first = TcpStream::connect(server.address).unwrap();
    write!(
        first,
        "GET /live/7/events HTTP/1.0\r\nHost: localhost\r\n\r\n"
    )
    .unwrap();
    assert!(first_frame(&mut first).contains("200 OK"));
    let (status, page) = get(server.address, "/live/7");
    assert_eq!(status, 503, "{page}");
    assert!(page.contains("already has 1 watchers"), "{page}");
    assert!(page.contains("retry-after: 30"), "{page}");
    let (status, _) = get(server.address, "/live/7/events");
    assert_eq!(status, 503);
    // The first watcher leaves: its place is free again.
    drop(first);
    get_until(server.address, "/live/7", |s, _| s == 200);
    // The game ends: its page is gone (a match's games are not stored).
    drop(follower);
    let record = empty_record(&opening);
    server.games.end(&LiveEnd {
        key: 7,
        record: &record,
        stored: None,
    });
    get_until(server.address, "/live/7", |s, _| s == 404);
}

/// A game of no moves, for the end of a game the test follows by hand.
fn empty_record(opening: &Opening) -> GameRecord {
    let player = Player::new(
        runner::EngineConfig::new("none", "/nonexistent"),
        "1+0".parse().unwrap(),
    );
    play_game_observed(
        [&player, &player],
        [&mut None, &mut None],
        opening,
        &runner::GameSettings::default(),
        &AtomicBool::new(false),
        None,
    )
}

//! `challenge play --web` used as a learner uses it, and the report of an analysed game:
//! headless Chromium driven by selenium from Python (tests/python/play_web.py) clicks a
//! move and sees the bot answer, promotes through the dialog, has an illegal move posted
//! straight to the server refused, sees a hostile bot name as text, and finds the
//! report's board with coordinates and the evaluation graph. Screenshots go to
//! `target/play-web-screenshots/`.

use crate::common;
use crate::common_challenge;

use std::ffi::OsStr;
use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};

use common::outside::{self, CHROMEDRIVER, CHROMIUM, SELENIUM};
use common_challenge::{TempDir, command, kit_bot, kit_root, ok, submit};

/// A bot file name that would be markup if pasted into the page unescaped.
const HOSTILE_NAME: &str = "<i>x&amp;";

/// A game as `challenge analyze -o` writes it: an `[%eval]` comment after every move.
const ANALYSED: &str = "[Event \"m\"]\n[Site \"challenge\"]\n[Round \"1.2\"]\n[White \"a\"]\n[Black \"b\"]\n[Result \"1-0\"]\n\n\
1. e4 { [%eval 0.30] } e5 { [%eval 0.25] } 2. Qh5 { [%eval -0.40] } Nc6 { [%eval 0.10] } \
3. Bc4 { [%eval 0.20] } Nf6 { [%eval #2] } 4. Qxf7# { [%eval #0] } 1-0\n";

/// The server, stopped when dropped.
struct Served(Child);

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// The rest of what `challenge play --web` prints, after its address.
type Said = std::io::Lines<BufReader<std::process::ChildStdout>>;

/// Starts `challenge play --web --listen 127.0.0.1:0 ARGS... --pgn PGN`; returns it, the
/// URL it prints and what it prints after.
fn play_web(args: &[&OsStr], pgn: &Path) -> (Served, String, Said) {
    let mut child = command()
        .args(["play", "--web", "--listen", "127.0.0.1:0"])
        .args(args)
        .arg("--pgn")
        .arg(pgn)
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let served = Served(child);
    let url = lines
        .by_ref()
        .map_while(Result::ok)
        .find_map(|line| {
            let rest = line.strip_prefix("play in your browser: ")?;
            Some(rest.split_whitespace().next()?.to_string())
        })
        .expect("the server prints its address");
    (served, url, lines)
}

/// Starts `challenge play --web` on the hostile bot; returns it and the URL it prints.
fn serve_game(tmp: &TempDir) -> (Served, String) {
    let bot = tmp.path().join(format!("{HOSTILE_NAME}.rs"));
    std::fs::copy(kit_root().join("bot/evil_bot.rs"), &bot).unwrap();
    let fen = "8/P6k/8/8/8/8/8/4K3 w - - 0 1";
    let args = [OsStr::new("--fen"), OsStr::new(fen), bot.as_os_str()];
    let (served, url, _) = play_web(&args, &tmp.path().join("game.pgn"));
    (served, url)
}

#[test]
fn a_learner_plays_the_bot_in_the_browser_and_reads_an_analysed_report() {
    let Some(chromium) = outside::need(&CHROMIUM) else {
        return;
    };
    let Some(driver) = outside::need(&CHROMEDRIVER) else {
        return;
    };
    let python = outside::require(&SELENIUM);
    let tmp = TempDir::new("play-web");
    let analysed = tmp.write("analysed.pgn", ANALYSED);
    let report = tmp.path().join("report.html");
    submit(&tmp.challenge(), &kit_bot("my_bot"), "mine");
    ok(
        &tmp.challenge(),
        &[
            "report",
            "-o",
            report.to_str().unwrap(),
            "--pgn",
            analysed.to_str().unwrap(),
        ],
    );
    let (_served, url) = serve_game(&tmp);
    let shots = kit_root().join("target").join("play-web-screenshots");
    let output = Command::new(python)
        .arg(kit_root().join("tests/python/play_web.py"))
        .arg(&url)
        .arg(&report)
        .arg(&shots)
        .env("CHROMIUM", chromium)
        .env("CHROMEDRIVER", driver)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success() && stdout.contains("play web test: ok"),
        "the browser test failed (screenshots in {}):\n{stdout}\n{}",
        shots.display(),
        String::from_utf8_lossy(&output.stderr)
    );
    for shot in ["play.png", "promotion.png", "report.png"] {
        assert!(shots.join(shot).is_file(), "no screenshot {shot}");
    }
}

/// Ctrl-C while a game is played in the browser: the game is saved as it stands, left by
/// the human, with the server's `Site`, and the program says where, as the terminal's
/// `challenge play` does.
#[cfg(unix)]
#[test]
fn ctrl_c_saves_the_game_played_in_the_browser_and_says_where() {
    use crate::serve_common::Client;
    let tmp = TempDir::new("play-web-stop");
    let pgn = tmp.path().join("stopped.pgn");
    let (served, url, lines) = play_web(&[OsStr::new("evil_bot")], &pgn);
    let address = url.trim_start_matches("http://").trim_end_matches('/');
    let mut client = Client::at(address);
    let page = client.get("/").body;
    let token = page
        .split("name=\"play-token\" content=\"")
        .nth(1)
        .and_then(|rest| rest.split('"').next())
        .expect("the page carries its token")
        .to_string();
    let played = client.send(
        "POST",
        "/move",
        Some(("application/json", br#"{"move": "e2e4"}"#.to_vec())),
        &[("x-play-token", &token)],
    );
    assert_eq!(played.status, 200, "{}", played.body);
    // SAFETY: kill(2) on the child's pid, which has not been waited for.
    unsafe { libc::kill(served.0.id() as libc::pid_t, libc::SIGINT) };
    let said: Vec<String> = lines.map_while(Result::ok).collect();
    let said = said.join("\n");
    assert!(
        said.contains(&format!("Game saved to {}", pgn.display())),
        "{said}"
    );
    let text = std::fs::read_to_string(&pgn).expect("the game is saved");
    assert!(text.contains("[Site \"browser\"]"), "{text}");
    assert!(text.contains("1. e4"), "{text}");
    assert!(text.contains("[Termination \"abandoned\"]"), "{text}");
}

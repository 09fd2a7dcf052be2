//! `challenge serve` used as people use it: headless Chromium, driven by selenium from
//! Python, submits two bots through the form, starts a round-robin as the organiser,
//! watches the standings change as games finish, and steps through a game's moves.
//! Screenshots of each step go to `target/serve-screenshots/`.

mod common_challenge;
mod serve_common;

use std::path::PathBuf;
use std::process::Command;

use common_challenge::{TempDir, kit_bot, kit_root};
use serve_common::{ADMIN_TOKEN, Server};

fn which(name: &str) -> Option<PathBuf> {
    let found = Command::new("which").arg(name).output().ok()?;
    found
        .status
        .success()
        .then(|| PathBuf::from(String::from_utf8_lossy(&found.stdout).trim()))
}

#[test]
fn entrants_and_the_organiser_run_a_challenge_in_the_browser() {
    let chromium = std::env::var("CHROMIUM")
        .ok()
        .map(PathBuf::from)
        .or_else(|| which("chromium"))
        .filter(|path| path.is_file());
    let driver = which("chromedriver").filter(|path| path.is_file());
    let (Some(chromium), Some(driver)) = (chromium, driver) else {
        println!(
            "skipped: chromium and chromedriver are needed (`scripts/test` installs them as root)"
        );
        return;
    };
    let selenium = Command::new("python3")
        .args(["-c", "import selenium"])
        .status()
        .is_ok_and(|s| s.success());
    assert!(
        selenium,
        "selenium is needed: `scripts/test` installs it into a venv under target/"
    );
    let dir = TempDir::new("serve-browser");
    let server = Server::start(&dir.challenge());
    let shots = kit_root().join("target").join("serve-screenshots");
    let output = Command::new("python3")
        .arg(kit_root().join("tests/python/serve_browser.py"))
        .arg(format!("http://{}", server.address))
        .arg(ADMIN_TOKEN)
        .arg(kit_bot("my_bot"))
        .arg(kit_bot("evil_bot"))
        .arg(&shots)
        .env("CHROMIUM", &chromium)
        .env("CHROMEDRIVER", &driver)
        .output()
        .expect("python3 runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    println!("{stdout}");
    assert!(
        output.status.success(),
        "the browser test failed (screenshots in {}):\nstdout:\n{stdout}\nstderr:\n{}",
        shots.display(),
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(stdout.contains("browser test: ok"), "{stdout}");
    assert!(stdout.contains("standings changed"), "{stdout}");
    for shot in ["submitted-mine.png", "standings.png", "game.png"] {
        assert!(shots.join(shot).is_file(), "no screenshot {shot}");
    }
}

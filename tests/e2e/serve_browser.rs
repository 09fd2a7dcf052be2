//! `challenge serve` used as people use it: headless Chromium, driven by selenium from
//! Python, submits two bots through the form, starts a round-robin as the organiser,
//! watches the standings change as games finish, and steps through a game's moves.
//! Screenshots of each step go to `target/serve-screenshots/`.

use crate::common;
use crate::common_challenge;
use crate::serve_common;

use std::process::Command;

use common::outside::{self, CHROMEDRIVER, CHROMIUM, SELENIUM};
use common_challenge::{TempDir, kit_bot, kit_root};
use serve_common::{ADMIN_TOKEN, Server};

#[test]
fn entrants_and_the_organiser_run_a_challenge_in_the_browser() {
    let Some(chromium) = outside::need(&CHROMIUM) else {
        return;
    };
    let Some(driver) = outside::need(&CHROMEDRIVER) else {
        return;
    };
    // With the browser there but not selenium, the setup is half done: a failure
    // everywhere, as before, not a skip.
    let python = outside::require(&SELENIUM);
    let dir = TempDir::new("serve-browser");
    let server = Server::start(&dir.challenge());
    let shots = kit_root().join("target").join("serve-screenshots");
    let output = Command::new(&python)
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

//! `challenge serve` used as people use it: headless Chromium, driven by selenium from
//! Python, submits two bots through the form, starts a round-robin as the organiser,
//! watches the standings change as games finish, and steps through a game's moves. On
//! both stores: a challenge directory (the server plays the games) and PostgreSQL (two
//! `challenge worker` processes play them). Screenshots of each step go to
//! `target/serve-screenshots/sqlite/` and `target/serve-screenshots/postgres/`.

use crate::common;
use crate::common_challenge;
use crate::postgres_server;
use crate::serve_common;

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Command;

use common::outside::{self, CHROMEDRIVER, CHROMIUM, SELENIUM};
use common_challenge::{TempDir, kit_bot, kit_root};
use postgres_server::PgServer;
use serve_common::{ADMIN_TOKEN, Server, Worker};

/// What the browser needs: Chromium, its driver, python3 with selenium.
pub struct Browser {
    chromium: PathBuf,
    driver: PathBuf,
    python: PathBuf,
}

/// The browser, or `None` after a printed skip note (outside CI; under CI a missing
/// program fails the test).
pub fn browser() -> Option<Browser> {
    let chromium = outside::need(&CHROMIUM)?;
    let driver = outside::need(&CHROMEDRIVER)?;
    // With the browser there but not selenium, the setup is half done: a failure
    // everywhere, as before, not a skip.
    let python = outside::require(&SELENIUM);
    Some(Browser {
        chromium,
        driver,
        python,
    })
}

/// Runs `tests/python/SCRIPT` with `args` in the browser, screenshots in `shots`; its
/// stdout, which must end well with the line `ok`.
pub fn run_script(
    browser: &Browser,
    script: &str,
    args: &[OsString],
    shots: &Path,
    ok: &str,
) -> String {
    let output = Command::new(&browser.python)
        .arg(kit_root().join("tests/python").join(script))
        .args(args)
        .env("CHROMIUM", &browser.chromium)
        .env("CHROMEDRIVER", &browser.driver)
        .output()
        .expect("python3 runs");
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    println!("{stdout}");
    assert!(
        output.status.success() && stdout.contains(ok),
        "the browser test failed (screenshots in {}):\nstdout:\n{stdout}\nstderr:\n{}",
        shots.display(),
        String::from_utf8_lossy(&output.stderr)
    );
    stdout
}

/// Runs the browser story against `server`, screenshots in `serve-screenshots/LABEL`.
fn browse(browser: &Browser, server: &Server, label: &str) {
    let shots = kit_root()
        .join("target")
        .join("serve-screenshots")
        .join(label);
    let args = [
        format!("http://{}", server.address).into(),
        ADMIN_TOKEN.into(),
        // A bot that spends its time (0.05 s a move): a game lasts a second or more, so
        // the page can be seen following the games one by one even where changes are
        // found by polling the store every 0.5 s (PostgreSQL, played by workers). The
        // kit's `my_bot` answers at once: six games would be over in 0.2 s.
        kit_bot("turochamp_modern").into(),
        kit_bot("evil_bot").into(),
        shots.clone().into(),
    ];
    let stdout = run_script(
        browser,
        "serve_browser.py",
        &args,
        &shots,
        "browser test: ok",
    );
    assert!(stdout.contains("standings changed"), "{stdout}");
    assert!(stdout.contains("refused without a good code"), "{stdout}");
    for shot in [
        "invitation.png",
        "refused-without-code.png",
        "submitted-mine.png",
        "standings.png",
        "game.png",
    ] {
        assert!(shots.join(shot).is_file(), "no screenshot {shot}");
    }
}

#[test]
fn entrants_and_the_organiser_run_a_challenge_in_the_browser() {
    let Some(browser) = browser() else {
        return;
    };
    let dir = TempDir::new("serve-browser");
    let server = Server::start(&dir.challenge());
    browse(&browser, &server, "sqlite");
}

#[test]
fn the_browser_challenge_on_postgres_is_played_by_workers() {
    let Some(browser) = browser() else {
        return;
    };
    let Some(pg) = PgServer::start("serve-browser") else {
        return;
    };
    let tmp = TempDir::new("serve-browser-pg");
    let url = pg.database("browser");
    let server = Server::start_store(&url);
    // Waiting for a tournament: started before it, as an organiser would.
    let workers = [
        Worker::start(&url, "w1", tmp.path()),
        Worker::start(&url, "w2", tmp.path()),
    ];
    browse(&browser, &server, "postgres");
    let mut db = postgres::Client::connect(&url, postgres::NoTls).unwrap();
    let by_workers: i64 = db
        .query_one(
            "SELECT COUNT(*) FROM games WHERE worker IN ('w1', 'w2')",
            &[],
        )
        .unwrap()
        .get(0);
    let all: i64 = db
        .query_one("SELECT COUNT(*) FROM games", &[])
        .unwrap()
        .get(0);
    assert_eq!(
        (by_workers, all),
        (6, 6),
        "the workers played every game (the server plays none on PostgreSQL):\n{}\n{}",
        workers[0].log(),
        workers[1].log()
    );
}

//! `challenge serve`'s pages as a visitor uses them (issue 32): headless Chromium, driven
//! by selenium from Python (tests/python/serve_pages.py), follows the nav to a game in
//! progress and on to its stored page under the same name, reads the labelled scores,
//! finds no dead link (a refused submission's page included), a withdraw form only on an
//! entry that has a key, a filter by tournament, and a stored game opened at its last
//! move. Screenshots go to `target/serve-screenshots/pages/`.

use crate::common_challenge;
use crate::serve_browser::{browser, run_script};
use crate::serve_common;

use common_challenge::{TempDir, kit_bot, kit_root, submit};
use serve_common::{ADMIN_TOKEN, Server};

#[test]
fn a_visitor_finds_live_games_tournaments_and_entries_as_named() {
    let Some(browser) = browser() else {
        return;
    };
    let tmp = TempDir::new("serve-pages");
    let dir = tmp.challenge();
    // Entered on the host: it has no entry key.
    submit(&dir, &kit_bot("evil_bot"), "hostbot");
    let server = Server::start(&dir);
    let shots = kit_root().join("target/serve-screenshots/pages");
    let args = [
        format!("http://{}", server.address).into(),
        ADMIN_TOKEN.into(),
        // A bot that spends its time (0.3 s a move): a game lasts long enough to be
        // opened on its live page.
        kit_bot("turochamp_modern").into(),
        kit_bot("opens_file").into(),
        "hostbot".into(),
        shots.clone().into(),
    ];
    run_script(&browser, "serve_pages.py", &args, &shots, "pages test: ok");
}

//! `challenge serve` under attack: each test tries one thing an entrant or a stranger
//! should not be able to do, and checks the exact refusal (status and reason), and that
//! nothing changed.

use crate::common_challenge;
use crate::serve_common;

use common_challenge::{TempDir, kit_bot};
use serve_common::{
    ADMIN_TOKEN, Client, Server, csrf_token, job_and_key, log_in, organiser_action,
    post_submission, submit, wait_job,
};

fn bot_source(name: &str) -> Vec<u8> {
    std::fs::read(kit_bot(name)).expect("read a kit bot")
}

const HOSTILE_AUTHOR: &str = "<img src=x onerror=alert(1)>\"'&";

/// A server with two entries submitted through the browser form: `mine` (with a hostile
/// author) and `other`; returns their keys.
fn two_entries(dir: &TempDir) -> (Server, String, String) {
    let server = Server::start(&dir.challenge());
    let mut client = Client::new(&server);
    let (job, mine) = submit(
        &mut client,
        "mine",
        HOSTILE_AUTHOR,
        "",
        &bot_source("my_bot"),
    );
    assert!(job.contains("\"accepted\""), "{job}");
    let (job, other) = submit(&mut client, "other", "Olga", "", &bot_source("evil_bot"));
    assert!(job.contains("\"accepted\""), "{job}");
    (
        server,
        mine.expect("a key for mine"),
        other.expect("a key for other"),
    )
}

#[test]
fn entry_keys_guard_new_versions_and_withdrawals() {
    let dir = TempDir::new("serve-keys");
    let (server, mine, other) = two_entries(&dir);
    let mut client = Client::new(&server);
    let changed = b"// a new version\n"
        .iter()
        .chain(bot_source("my_bot").iter())
        .copied()
        .collect::<Vec<u8>>();

    // A new version of `mine` without a key, and with `other`'s key: refused at the door.
    for key in ["", other.as_str(), "not-a-key"] {
        let form = client.get("/submit");
        let token = csrf_token(&form.body, "/submit");
        let response = client.post_multipart(
            "/submit",
            &[("csrf", &token), ("name", "mine"), ("key", key)],
            Some(("mine.rs", &changed)),
        );
        assert_eq!(response.status, 403, "key {key:?}: {}", response.body);
        assert!(
            response.body.contains("not its entry key"),
            "{}",
            response.body
        );
    }

    // Withdrawing `other` with `mine`'s key, or none: refused, and `other` stays active.
    for key in [mine.as_str(), ""] {
        let page = client.get("/entries/other");
        let token = csrf_token(&page.body, "/entries/other/withdraw");
        let response =
            client.post_form("/entries/other/withdraw", &[("csrf", &token), ("key", key)]);
        assert_eq!(response.status, 403, "{}", response.body);
        assert!(
            response.body.contains("not the entry key of"),
            "{}",
            response.body
        );
    }
    assert!(
        client
            .get("/?part=1")
            .body
            .contains("/entries/other\">other</a></td>")
    );

    // The owner's key works: a new version of `mine` (one at a time: a second one while
    // the first is checked is refused), and withdrawing `other` with its own key.
    let post = |client: &mut Client| {
        let form = client.get("/submit");
        let token = csrf_token(&form.body, "/submit");
        client.post_multipart(
            "/submit",
            &[("csrf", &token), ("name", "mine"), ("key", &mine)],
            Some(("mine.rs", &changed)),
        )
    };
    let first = post(&mut client);
    assert_eq!(first.status, 200, "{}", first.body);
    let second = post(&mut client);
    assert_eq!(second.status, 409, "{}", second.body);
    assert!(second.body.contains("is being checked"), "{}", second.body);
    let (job, key) = serve_common::job_and_key(&first.body);
    assert_eq!(key, None, "a new version shows no new key");
    let job = wait_job(&mut client, &job);
    assert!(job.contains("\"accepted\"") && job.contains("v2"), "{job}");
    let page = client.get("/entries/other");
    let token = csrf_token(&page.body, "/entries/other/withdraw");
    let response = client.post_form(
        "/entries/other/withdraw",
        &[("csrf", &token), ("key", &other)],
    );
    assert_eq!(response.status, 303, "{}", response.body);
    assert!(client.get("/entries/other").body.contains("withdrawn"));
}

#[test]
fn forms_without_their_csrf_token_are_refused() {
    let dir = TempDir::new("serve-csrf");
    let server = Server::start(&dir.challenge());
    let mut client = Client::new(&server);
    let source = bot_source("my_bot");
    let form = client.get("/submit");
    let good = csrf_token(&form.body, "/submit");

    // No token; a token of another form; a token with another browser's cookie.
    let no_token = client.post_multipart("/submit", &[("name", "x")], Some(("x.rs", &source)));
    let organiser = client.get("/organiser");
    let other_form = csrf_token(&organiser.body, "/organiser/login");
    let wrong_form = client.post_multipart(
        "/submit",
        &[("csrf", &other_form), ("name", "x")],
        Some(("x.rs", &source)),
    );
    let mut stranger = Client::new(&server);
    stranger.get("/submit");
    let replayed = stranger.post_multipart(
        "/submit",
        &[("csrf", &good), ("name", "x")],
        Some(("x.rs", &source)),
    );
    let no_cookie = Client::new(&server).post_multipart(
        "/submit",
        &[("csrf", &good), ("name", "x")],
        Some(("x.rs", &source)),
    );
    for response in [no_token, wrong_form, replayed, no_cookie] {
        assert_eq!(response.status, 403, "{}", response.body);
        assert!(
            response.body.contains("security token"),
            "{}",
            response.body
        );
    }
    // The organiser's actions too, even with the organiser's cookie.
    assert_eq!(log_in(&mut client, ADMIN_TOKEN).status, 303);
    let response = client.post_form("/organiser/close", &[]);
    assert_eq!(response.status, 403, "{}", response.body);
    assert!(
        client.get("/submit").body.contains("id=\"submit-form\""),
        "submissions stay open"
    );
    assert!(client.get("/jobs/1/status").status == 404);
}

#[test]
fn oversized_binary_and_hostile_uploads_are_refused_with_the_reason() {
    let dir = TempDir::new("serve-uploads");
    let server = Server::start(&dir.challenge());
    let mut client = Client::new(&server);
    let post = |client: &mut Client, name: &str, bytes: &[u8]| {
        let form = client.get("/submit");
        let token = csrf_token(&form.body, "/submit");
        client.post_multipart(
            "/submit",
            &[("csrf", &token), ("name", name)],
            Some(("bot.rs", bytes)),
        )
    };
    let oversized = post(&mut client, "big", &vec![b'/'; 262_145]);
    assert_eq!(oversized.status, 413, "{}", oversized.body);
    assert!(
        oversized.body.contains("at most 262144"),
        "{}",
        oversized.body
    );
    let huge = post(&mut client, "huge", &vec![b' '; 4 << 20]);
    assert_eq!(huge.status, 413, "{}", huge.body);
    let latin1 = post(&mut client, "latin", b"// caf\xe9\nfn main() {}\n");
    assert_eq!(latin1.status, 415, "{}", latin1.body);
    assert!(latin1.body.contains("not UTF-8"), "{}", latin1.body);
    let binary = post(&mut client, "elf", b"\x7fELF\x02\x01\x01\0\0\0\0");
    assert_eq!(binary.status, 415, "{}", binary.body);
    let hostile = post(&mut client, "<script>alert(1)</script>", b"fn main() {}\n");
    assert_eq!(hostile.status, 400, "{}", hostile.body);
    assert!(!hostile.body.contains("<script>alert"), "{}", hostile.body);
    assert!(hostile.body.contains("&lt;script&gt;"), "{}", hostile.body);
    let traversal = post(&mut client, "../../etc", b"fn main() {}\n");
    assert_eq!(traversal.status, 400, "{}", traversal.body);
    // A bot that tries to read the host's files is refused by the check, with the reason.
    let form = client.get("/submit");
    let token = csrf_token(&form.body, "/submit");
    let reader = client.post_multipart(
        "/submit",
        &[("csrf", &token), ("name", "reader")],
        Some((
            "reader.rs",
            b"const P: &str = include_str!(\"/etc/passwd\");\n",
        )),
    );
    assert_eq!(reader.status, 200, "{}", reader.body);
    let (job, _) = serve_common::job_and_key(&reader.body);
    let outcome = wait_job(&mut client, &job);
    assert!(outcome.contains("\"refused\""), "{outcome}");
    assert!(
        outcome.contains("breaks the challenge rules") && outcome.contains("include_str"),
        "{outcome}"
    );
    assert!(!outcome.contains("root:"), "{outcome}");
    // Nothing was stored.
    assert!(client.get("/?part=1").body.contains("No entries yet"));
    assert_eq!(client.get("/entries/reader").status, 404);
}

#[test]
fn a_server_failure_is_not_a_refusal_and_a_compile_error_still_is() {
    // The host's fault: the build directory is a file, so no build can write anything.
    let dir = TempDir::new("serve-host-fault");
    let not_a_directory = dir.write("build-dir-is-a-file", "not a directory\n");
    let build_dir = not_a_directory.to_str().unwrap();
    let server = Server::start_with(&dir.challenge(), &[], &[("CHALLENGE_BUILD_DIR", build_dir)]);
    let mut client = Client::new(&server);
    let posted = post_submission(&mut client, "unjudged", &bot_source("my_bot"));
    assert_eq!(posted.status, 200, "{}", posted.body);
    let (job, _) = job_and_key(&posted.body);
    let outcome = wait_job(&mut client, &job);
    assert!(outcome.contains("\"state\":\"failed\""), "{outcome}");
    assert!(
        outcome.contains(
            "the server failed: cannot build the bot `unjudged`: cannot create a file of the build"
        ) && outcome.contains("(your submission was not judged; try again)"),
        "{outcome}"
    );
    assert!(!outcome.contains("refused"), "{outcome}");
    let host_path = dir.path().to_str().unwrap();
    assert!(
        !outcome.contains(host_path),
        "no path of the host: {outcome}"
    );
    assert!(!outcome.contains("build-dir-is-a-file"), "{outcome}");
    // Its page says so too, and nothing was stored.
    let page = client.get(&job.replace("/status", ""));
    assert!(
        page.body.contains("class=\"failed\">failed<"),
        "{}",
        page.body
    );
    assert_eq!(client.get("/entries/unjudged").status, 404);
    drop(server);

    // The bot's fault: it does not compile, and rustc's message is what the entrant reads,
    // naming their own file.
    let dir = TempDir::new("serve-compile-error");
    let server = Server::start(&dir.challenge());
    let mut client = Client::new(&server);
    let mut source = bot_source("my_bot");
    source.extend_from_slice(b"\nfn broken() -> u8 {\n    \"text\"\n}\n");
    let posted = post_submission(&mut client, "broken", &source);
    assert_eq!(posted.status, 200, "{}", posted.body);
    let outcome = wait_job(&mut client, &job_and_key(&posted.body).0);
    assert!(outcome.contains("\"state\":\"refused\""), "{outcome}");
    assert!(
        outcome.contains("refused: broken.rs does not compile:")
            && outcome.matches("does not").count() == 1
            && outcome.contains("error[E0308]: mismatched types")
            && outcome.contains("--> broken.rs:"),
        "{outcome}"
    );
    assert!(!outcome.contains("server failed"), "{outcome}");
    assert!(!outcome.contains("src/bot.rs"), "{outcome}");
    assert!(!outcome.contains(dir.path().to_str().unwrap()), "{outcome}");
    assert_eq!(client.get("/entries/broken").status, 404);
}

#[test]
fn a_submission_a_restart_interrupted_is_the_servers_failure_not_a_refusal() {
    let dir = TempDir::new("serve-restart-job");
    // A build that runs until the server stops, so the submission is in flight when it does.
    let env = [("CHALLENGE_BUILD_TIMEOUT", "3600")];
    let server = Server::start_with(&dir.challenge(), &[], &env);
    let mut client = Client::new(&server);
    let posted = post_submission(&mut client, "interrupted", &bot_source("never_builds"));
    assert_eq!(posted.status, 200, "{}", posted.body);
    let (job, _) = job_and_key(&posted.body);
    drop(server);
    let server = Server::start_with(&dir.challenge(), &[], &env);
    let mut client = Client::new(&server);
    let outcome = client.get(&job).body;
    assert!(outcome.contains("\"state\":\"failed\""), "{outcome}");
    assert!(
        outcome.contains("the server failed: it restarted while this submission was being checked")
            && outcome.contains("(your submission was not judged; try again)"),
        "{outcome}"
    );
    assert!(!outcome.contains("refused"), "{outcome}");
    assert_eq!(client.get("/entries/interrupted").status, 404);
}

#[test]
fn hostile_author_is_escaped_and_sources_stay_private_until_published() {
    let dir = TempDir::new("serve-private");
    let (server, _mine, _other) = two_entries(&dir);
    let mut client = Client::new(&server);
    for path in ["/", "/?part=1", "/entries/mine", "/crosstable"] {
        let page = client.get(path);
        assert_eq!(page.status, 200, "{path}");
        assert!(
            !page.body.contains("<img src=x"),
            "{path} shows raw markup: {}",
            page.body
        );
        assert!(
            page.header("content-security-policy")
                .is_some_and(|csp| csp.contains("script-src 'self'")),
            "{path} has no CSP"
        );
    }
    assert!(
        client
            .get("/")
            .body
            .contains("&lt;img src=x onerror=alert(1)&gt;&quot;&#x27;&amp;")
    );

    // Private: the source, under any spelling; even the organiser's switch needs the organiser.
    for path in [
        "/entries/mine/source",
        "/entries/mine/source?v=1",
        "/entries/..%2f..%2fetc/source",
    ] {
        let response = client.get(path);
        assert!(
            matches!(response.status, 403 | 404),
            "{path}: {}",
            response.status
        );
        assert!(
            !response.body.contains("impl Bot"),
            "{path} leaked the source"
        );
    }
    let page = client.get("/organiser");
    assert!(
        page.body.contains("Organiser token"),
        "the login form is shown"
    );
    assert_eq!(log_in(&mut client, "wrong-token-wrong-token").status, 403);
    let mut stranger = Client::new(&server);
    stranger.get("/organiser");
    let forged = stranger.post_form("/organiser/publish", &[("csrf", "0")]);
    assert_eq!(forged.status, 403);
    assert_eq!(client.get("/entries/mine/source").status, 403);

    // Published by the organiser: readable, and escaped as text.
    let mut organiser = Client::new(&server);
    assert_eq!(log_in(&mut organiser, ADMIN_TOKEN).status, 303);
    assert_eq!(organiser_action(&mut organiser, "publish", &[]).status, 303);
    let source = client.get("/entries/mine/source");
    assert_eq!(source.status, 200, "{}", source.body);
    assert!(source.body.contains("impl Bot for"), "{}", source.body);
    assert_eq!(client.get("/entries/mine/source?v=9").status, 404);

    // Closed submissions: refused with the reason.
    assert_eq!(organiser_action(&mut organiser, "close", &[]).status, 303);
    let form = client.get("/submit");
    assert!(form.body.contains("Submissions are closed"));
}

#[test]
fn unknown_pages_and_bad_numbers_are_clear_4xx_and_posts_are_rate_limited() {
    let dir = TempDir::new("serve-4xx");
    let server = Server::start(&dir.challenge());
    let mut client = Client::new(&server);
    let missing = client.get("/nope");
    assert_eq!(missing.status, 404);
    assert!(missing.header("content-security-policy").is_some());
    assert_eq!(client.get("/games/abc").status, 400);
    assert_eq!(client.get("/games/99").status, 404);
    assert_eq!(client.get("/entries/ghost").status, 404);
    assert_eq!(client.get("/jobs/guess").status, 404);
    let health = client.get("/health");
    assert_eq!((health.status, health.body.as_str()), (200, "ok"));
    // Posting again and again from one address: refused with 429 after the burst.
    let page = client.get("/organiser");
    let token = csrf_token(&page.body, "/organiser/login");
    let statuses: Vec<u16> = (0..30)
        .map(|_| {
            client
                .post_form(
                    "/organiser/login",
                    &[("csrf", &token), ("token", "guess-guess-guess")],
                )
                .status
        })
        .collect();
    assert!(statuses.iter().take(20).all(|&s| s == 403), "{statuses:?}");
    assert!(statuses.contains(&429), "{statuses:?}");
}

//! Each kind of build failure: whose fault it is, and its words for the host and for the
//! bot's sender (who is never shown a path of the host).

use std::path::PathBuf;
use std::time::Duration;

use super::*;

const HOST_FILE: &str = "/srv/challenge/sources/0a1b2c3d.rs";

fn error(kind: BuildErrorKind) -> BuildError {
    BuildError {
        bot: BotFile {
            name: "big".into(),
            path: PathBuf::from(HOST_FILE),
        },
        kind,
    }
}

/// What the sender's scrub does to the compiler's messages in these tests: marks them, so
/// a test sees that they went through it.
fn scrub(text: &str) -> String {
    text.replace("/home/organiser/kit", "<kit>")
}

fn for_sender(error: &BuildError) -> String {
    error.explain(Reader::Sender {
        file: "mine.rs",
        scrub: &scrub,
    })
}

fn bots_faults() -> Vec<BuildErrorKind> {
    vec![
        BuildErrorKind::Compile {
            messages: "error[E0308]: mismatched types\n --> src/bot.rs:3:9\n   ::: \
                       /home/organiser/kit/framework/src/lib.rs:1:1\n"
                .into(),
        },
        BuildErrorKind::TimedOut {
            limit: Duration::from_secs(30),
        },
        BuildErrorKind::OutOfMemory {
            limit_mb: 4096,
            messages: "memory allocation of 8 bytes failed at src/bot.rs:9:1".into(),
        },
        BuildErrorKind::OverDisk {
            limit_mb: 256,
            seen: Some(300 * MIB),
            messages: None,
        },
        BuildErrorKind::OverDisk {
            limit_mb: 256,
            seen: None,
            messages: Some("(signal: 25, SIGXFSZ: file size limit exceeded)".into()),
        },
        BuildErrorKind::EngineTooLarge { bytes: 100 * MIB },
    ]
}

fn hosts_faults() -> Vec<BuildErrorKind> {
    let denied = || std::io::Error::from(std::io::ErrorKind::PermissionDenied);
    vec![
        BuildErrorKind::Spawn {
            program: "rustc".into(),
            error: std::io::Error::from(std::io::ErrorKind::NotFound),
        },
        BuildErrorKind::Io {
            doing: "write",
            path: PathBuf::from("/srv/challenge/bots/crates/bot_big_1/src/bot.rs"),
            error: denied(),
        },
        BuildErrorKind::LockHeld {
            path: PathBuf::from("/srv/challenge/bots/.lock"),
            waited: Duration::from_secs(960),
        },
        BuildErrorKind::Framework {
            messages: "error: could not compile `framework` at /srv/challenge/kit".into(),
        },
        BuildErrorKind::DirectoryFull {
            dir: PathBuf::from("/srv/challenge/bots"),
            least: 2 * MIB,
            bound: MIB,
        },
        BuildErrorKind::Setting {
            message: "CHALLENGE_BUILD_TIMEOUT=`x` is not a whole number from 1 to 2^40".into(),
        },
    ]
}

#[test]
fn the_bots_faults_name_the_bot_and_show_its_file_as_its_reader_knows_it() {
    for kind in bots_faults() {
        let error = error(kind);
        assert!(error.is_bots_fault(), "{error:?}");
        let host = error.to_string();
        let sent = for_sender(&error);
        for text in [&host, &sent] {
            assert!(
                text.starts_with("bot `big` does not compile")
                    || text.starts_with("bot `big` did not build: "),
                "{text}"
            );
        }
        assert!(
            !sent.contains("/srv/"),
            "no host path for the sender: {sent}"
        );
        assert!(!sent.contains("/home/organiser"), "scrubbed: {sent}");
        assert!(!sent.contains("src/bot.rs"), "{sent}");
        assert!(!host.contains("src/bot.rs:"), "{host}");
        if host.contains(HOST_FILE) {
            assert!(sent.contains("mine.rs"), "{sent}");
        }
    }
    let compile = error(bots_faults().remove(0));
    assert_eq!(
        for_sender(&compile),
        "bot `big` does not compile:\nerror[E0308]: mismatched types\n --> \
         mine.rs:3:9\n   ::: <kit>/framework/src/lib.rs:1:1"
    );
    assert!(
        compile
            .to_string()
            .starts_with("bot `big` does not compile:\n"),
        "{compile}"
    );
    assert!(
        compile
            .to_string()
            .contains(&format!("--> {HOST_FILE}:3:9")),
        "{compile}"
    );
}

#[test]
fn the_hosts_faults_show_their_paths_to_the_host_and_none_to_the_sender() {
    let expected = [
        (
            "cannot run rustc: entity not found",
            "cannot run rustc (entity not found)",
        ),
        (
            "cannot write /srv/challenge/bots/crates/bot_big_1/src/bot.rs: permission denied",
            "cannot write a file of the build (permission denied)",
        ),
        (
            "another build held /srv/challenge/bots/.lock for more than 960 s",
            "another build held the builder too long",
        ),
        (
            "the kit's framework did not build:\nerror: could not compile `framework` at \
             /srv/challenge/kit",
            "the kit's framework did not build",
        ),
        (
            "the build directory /srv/challenge/bots would hold 2 MiB",
            "the build directory is full",
        ),
        (
            "CHALLENGE_BUILD_TIMEOUT=`x` is not a whole number",
            "a build setting of the server is wrong",
        ),
    ];
    for (kind, (host_words, sender_words)) in hosts_faults().into_iter().zip(expected) {
        let error = error(kind);
        assert!(!error.is_bots_fault(), "{error:?}");
        assert!(!error.kind.met_a_bound(), "{error:?}");
        let host = error.to_string();
        assert!(
            host.starts_with(&format!("cannot build the bot `big`: {host_words}")),
            "{host}"
        );
        let sent = for_sender(&error);
        assert_eq!(sent, format!("cannot build the bot `big`: {sender_words}"));
        assert!(!sent.contains('/'), "no path of the host: {sent}");
    }
}

#[cfg(unix)]
#[test]
fn disk_failures_name_the_cause_and_the_limit() {
    use std::os::unix::process::ExitStatusExt;
    let limits = BuildLimits::from_vars(|_| None).unwrap();
    let exit_101 = ExitStatus::from_raw(101 << 8);
    let failed = |messages: &str| failed_compile(exit_101, messages.into(), &limits);
    let rustc_killed = failed(
        "error: could not compile `bot_big` (bin \"bot_big\")\nCaused by:\n  \
         process didn't exit successfully: `rustc ...` (signal: 25, SIGXFSZ: \
         file size limit exceeded)",
    );
    let rustc_killed_by_number =
        failed("process didn't exit successfully: `rustc --crate-name bot_big` (signal: 25)");
    let linker_killed =
        failed("collect2: fatal error: ld terminated with signal 25 [File size limit exceeded]");
    let measured = BuildErrorKind::OverDisk {
        limit_mb: limits.disk_mb,
        seen: Some(300 * MIB),
        messages: None,
    };
    for kind in [
        measured,
        rustc_killed,
        rustc_killed_by_number,
        linker_killed,
    ] {
        assert!(kind.met_a_bound(), "{kind:?}");
        let text = error(kind).to_string();
        assert!(
            text.starts_with(&format!(
                "bot `big` did not build: the build wrote more than {} MiB",
                limits.disk_mb
            )),
            "{text}"
        );
        assert!(text.contains("(limit CHALLENGE_BUILD_DISK_MB"), "{text}");
        assert!(
            text.contains(
                "); a large static or const array is the usual cause; \
                 nothing of this build was kept"
            ),
            "{text}"
        );
    }
    let text = error(BuildErrorKind::EngineTooLarge { bytes: 100 * MIB }).to_string();
    assert!(
        text.contains("its engine executable is 100 MiB, over the 64 MiB an engine may take"),
        "{text}"
    );
    let compile_error = failed("error[E0308]: mismatched types");
    assert!(
        !compile_error.met_a_bound(),
        "its state serves the next edit"
    );
    assert!(matches!(compile_error, BuildErrorKind::Compile { .. }));
    let out_of_memory = failed("memory allocation of 4294967296 bytes failed");
    assert!(out_of_memory.met_a_bound());
    assert!(
        error(out_of_memory)
            .to_string()
            .contains("the build ran out of its"),
    );
    let aborted = failed_compile(ExitStatus::from_raw(libc::SIGABRT), String::new(), &limits);
    assert!(
        matches!(aborted, BuildErrorKind::OutOfMemory { .. }),
        "{aborted:?}"
    );
    assert!(
        BuildErrorKind::TimedOut {
            limit: Duration::from_secs(1)
        }
        .met_a_bound()
    );
}

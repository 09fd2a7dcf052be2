//! The tournament's boundary on a real (SQLite) store: each refusal is its own
//! [`TournamentError`] variant, and scheduling reports [`TournamentEvent`]s.

use std::path::PathBuf;
use std::sync::Mutex;

use runner::{GameSettings, TimeControl};
use store::prelude::*;
use store::{NewVersion, SqliteStore, TournamentFormat};

use super::{RunOptions, TournamentError, TournamentEvent, schedule_tournament};

/// A challenge directory of its own, removed afterwards.
pub(super) struct Scratch(pub(super) PathBuf);

impl Scratch {
    pub(super) fn new(name: &str) -> Scratch {
        let dir =
            std::env::temp_dir().join(format!("kit-tournament-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        Scratch(dir)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

pub(super) fn options() -> RunOptions {
    RunOptions {
        format: TournamentFormat::RoundRobin,
        pairs: 1,
        rounds: 5,
        tc: TimeControl::clock(
            std::time::Duration::from_secs(10),
            std::time::Duration::from_millis(100),
        ),
        openings: None,
        plies: 8,
        concurrency: 1,
        max_games: None,
        new: false,
        settings: GameSettings::default(),
        confirm_claims: false,
        public_stderr: false,
    }
}

pub(super) fn enter(store: &mut SqliteStore, name: &str) {
    let source = format!("// {name}");
    store
        .add_version(&NewVersion {
            name,
            author: None,
            source: &source,
            hash: name,
            file_name: "bot.rs",
            tokens: 1,
            debug_tokens: 0,
        })
        .unwrap();
}

/// Schedules with `options`, returning the result and the lines reported.
fn schedule(
    store: &mut SqliteStore,
    options: &RunOptions,
) -> (Result<store::Tournament, TournamentError>, Vec<String>) {
    let said = Mutex::new(Vec::new());
    let outcome = schedule_tournament(store, options, &|event: TournamentEvent<'_>| {
        said.lock().unwrap().push(event.to_string());
    });
    (outcome, said.into_inner().unwrap())
}

#[test]
fn each_refusal_is_a_variant_of_its_own() {
    let scratch = Scratch::new("refusals");
    let mut store = SqliteStore::create(&scratch.0).unwrap();
    enter(&mut store, "alpha");
    let (outcome, said) = schedule(&mut store, &options());
    assert!(
        matches!(
            outcome,
            Err(TournamentError::TooFewEntries { entries: 1, .. })
        ),
        "{outcome:?}"
    );
    assert!(said.is_empty());

    enter(&mut store, "beta");
    let no_games = RunOptions {
        pairs: 0,
        ..options()
    };
    let (outcome, _) = schedule(&mut store, &no_games);
    assert!(
        matches!(outcome, Err(TournamentError::NoGames)),
        "{outcome:?}"
    );

    let missing = RunOptions {
        openings: Some(scratch.0.join("no-such-suite.epd")),
        ..options()
    };
    let (outcome, _) = schedule(&mut store, &missing);
    let Err(err @ TournamentError::Openings { .. }) = outcome else {
        panic!("{outcome:?}");
    };
    let shown = format!("{:#}", anyhow::Error::from(err));
    assert!(
        shown.starts_with("cannot use the opening suite ") && shown.contains("no-such-suite.epd: "),
        "the cause follows the message: {shown}"
    );
}

#[test]
fn scheduling_reports_a_new_tournament_then_resumes_it_and_refuses_a_second() {
    let scratch = Scratch::new("events");
    let mut store = SqliteStore::create(&scratch.0).unwrap();
    enter(&mut store, "alpha");
    enter(&mut store, "beta");
    let (outcome, said) = schedule(&mut store, &options());
    let tournament = outcome.unwrap();
    assert_eq!(
        said,
        ["tournament 1: round-robin, 2 entries, 2 games scheduled, time control 10+0.1"]
    );

    let (again, said) = schedule(&mut store, &options());
    assert_eq!(again.unwrap().id, tournament.id);
    assert_eq!(said.len(), 1);
    assert!(
        said[0].starts_with("resuming tournament 1 (round-robin, 10+0.1, 0 games already played"),
        "{said:?}"
    );

    store.finish_tournament(tournament.id).unwrap();
    let (outcome, _) = schedule(&mut store, &options());
    assert!(
        matches!(outcome, Err(TournamentError::LastFinished)),
        "{outcome:?}"
    );
    let fresh = RunOptions {
        new: true,
        ..options()
    };
    let (outcome, said) = schedule(&mut store, &fresh);
    assert_eq!(outcome.unwrap().id.0, 2);
    assert!(said[0].starts_with("tournament 2: "), "{said:?}");
}

/// A Swiss tournament with an odd field reports the first round's bye by the entry's name
/// (it was not reported at all, and later rounds' byes named an entry `#N`).
#[test]
fn a_swiss_first_rounds_bye_is_reported_by_the_entrys_name() {
    let scratch = Scratch::new("bye");
    let mut store = SqliteStore::create(&scratch.0).unwrap();
    for name in ["alpha", "beta", "gamma"] {
        enter(&mut store, name);
    }
    let swiss = RunOptions {
        format: TournamentFormat::Swiss,
        rounds: 2,
        ..options()
    };
    let (outcome, said) = schedule(&mut store, &swiss);
    let tournament = outcome.unwrap();
    let byes = store.byes(tournament.id).unwrap();
    assert_eq!(byes.len(), 1);
    let name = store
        .versions()
        .unwrap()
        .into_iter()
        .find(|v| v.entry_id == byes[0])
        .unwrap()
        .name;
    assert_eq!(
        said,
        [format!(
            "tournament 1: swiss, 3 entries, 2 games scheduled in round 1 of 2, bye for {name}, \
             time control 10+0.1"
        )]
    );
}

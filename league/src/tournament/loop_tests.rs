//! The tournament's loop (claim a batch, play it, record each game, give back what was not
//! played, let the organiser move the tournament on) on a real (SQLite) store behind the
//! store trait, with the games played by a scripted [`Arena`]: no engine is built or run,
//! so each step's bookkeeping is checked in milliseconds, end to end tests aside.

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use framework::chess::Color;
use framework::notation::pgn::GameResult;
use runner::{
    ChooseObserver, Clock, EngineConfig, FaultClock, GameRecord, Pairing, Player, Pool,
    Termination, TimeControl,
};
use store::prelude::*;
use store::{Claim, SlotState, SqliteStore, TournamentFormat, Version};

use super::boundary_tests::{Scratch, enter, options};
use super::{Arena, RunOptions, TournamentError, TournamentEvent, run_in};
use crate::gate::{Closed, Gate, Open};

/// A challenge directory with the entries `names`, entered in that order.
fn store_with(scratch: &Scratch, names: &[&str]) -> SqliteStore {
    let mut store = SqliteStore::create(&scratch.0).unwrap();
    for name in names {
        enter(&mut store, name);
    }
    store
}

/// Games played with no engine: each ends at once, the player whose name sorts later
/// crashing (a fault counted on the process's word, as a real crash is), so the field
/// finishes in name order. The `interrupt_at`-th game handed out (from 1) is cut short
/// instead (no result) and the run told to stop, as Ctrl-C does; with `fail_build`, the
/// players cannot be made, as when an entry's build fails. The `refute_at`-th game claims
/// a checkmate its moves do not show.
#[derive(Default)]
struct Scripted {
    interrupt_at: Option<usize>,
    refute_at: Option<usize>,
    fail_build: AtomicBool,
    handed_out: AtomicUsize,
    /// Batches asked for with nothing in them: a loop that claims nothing, again and
    /// again, spins (a test fails rather than hangs).
    empty_batches: AtomicUsize,
}

impl Arena for Scripted {
    fn players(
        &self,
        _store: &dyn Store,
        versions: &[&Version],
        tc: TimeControl,
        _observe: &(dyn Fn(TournamentEvent<'_>) + Sync),
    ) -> Result<Vec<Player>, TournamentError> {
        if self.fail_build.swap(false, Ordering::Relaxed) {
            return Err(TournamentError::NoVersion(versions[0].entry_id));
        }
        if versions.is_empty() {
            let empty = self.empty_batches.fetch_add(1, Ordering::Relaxed);
            assert!(empty < 100, "the loop spins on batches with no game");
        }
        let no_engine = |v: &&Version| EngineConfig::new(v.player_name(), "/no/engine/runs");
        Ok(versions
            .iter()
            .map(|v| Player::new(no_engine(v), tc))
            .collect())
    }

    fn play(
        &self,
        pool: &Pool<'_>,
        stop: &AtomicBool,
        next: &mut (dyn FnMut() -> Option<(Claim, Pairing)> + Send),
        _watch: ChooseObserver<'_, Claim>,
        done: &mut dyn FnMut(Claim, GameRecord),
    ) {
        while !stop.load(Ordering::Relaxed) {
            let Some((claim, pairing)) = next() else {
                return;
            };
            let number = self.handed_out.fetch_add(1, Ordering::Relaxed) + 1;
            let (white, black) = (&pool.players[pairing.white], &pool.players[pairing.black]);
            let loser = if white.name() > black.name() {
                Color::White
            } else {
                Color::Black
            };
            let interrupted = self.interrupt_at == Some(number);
            let mut record = GameRecord {
                white: white.name().to_string(),
                black: black.name().to_string(),
                time_controls: [white.tc, black.tc],
                opening: pool.openings[pairing.opening % pool.openings.len()].clone(),
                moves: Vec::new(),
                result: match (interrupted, loser) {
                    (true, _) => GameResult::Unknown,
                    (false, Color::White) => GameResult::BlackWins,
                    (false, Color::Black) => GameResult::WhiteWins,
                },
                termination: if interrupted {
                    Termination::Interrupted
                } else {
                    Termination::Crash
                },
                detail: "scripted".into(),
                faulty: (!interrupted).then_some(loser),
                // The evidence a crash needs to count: both clocks untouched, an instant turn.
                fault_clock: (!interrupted).then(|| FaultClock {
                    left: [white.tc, black.tc].map(|tc| Clock::new(tc).remaining()),
                    turn: std::time::Duration::from_millis(1),
                    at_start: false,
                    answer: None,
                }),
                stderr: Vec::new(),
            };
            if interrupted {
                stop.store(true, Ordering::Relaxed);
            }
            if self.refute_at == Some(number) {
                record.termination = Termination::Checkmate;
                (record.faulty, record.fault_clock) = (None, None);
            }
            done(claim, record);
        }
    }
}

/// The server's pause: open for the first `games` games handed out, then closed for good.
struct PausedAfter {
    games: usize,
    asked: AtomicUsize,
}

impl Gate for PausedAfter {
    fn is_open(&self) -> bool {
        self.asked.fetch_add(1, Ordering::Relaxed) < self.games
    }
    fn wait_open(&self) -> Result<(), Closed> {
        match self.asked.load(Ordering::Relaxed) < self.games {
            true => Ok(()),
            false => Err(Closed("the server is stopping".into())),
        }
    }
}

/// The boundary tests' options (one game pair, no session budget) in `format`, two rounds
/// for a Swiss.
fn options_for(format: TournamentFormat) -> RunOptions {
    RunOptions {
        format,
        rounds: 2,
        ..options()
    }
}

/// [`options_for`] a round robin.
fn round_robin() -> RunOptions {
    options_for(TournamentFormat::RoundRobin)
}

/// Runs the loop on `store` with `arena`; its outcome and the lines it reported.
fn run(
    arena: &Scripted,
    store: &mut SqliteStore,
    options: &RunOptions,
) -> (Result<(), TournamentError>, Vec<String>) {
    run_through(&Open, arena, store, options)
}

/// [`run`] through `gate`.
fn run_through(
    gate: &dyn Gate,
    arena: &Scripted,
    store: &mut SqliteStore,
    options: &RunOptions,
) -> (Result<(), TournamentError>, Vec<String>) {
    let said = Mutex::new(Vec::new());
    let outcome = run_in(arena, store, options, gate, &|event: TournamentEvent<
        '_,
    >| {
        said.lock().unwrap().push(event.to_string());
    });
    (outcome, said.into_inner().unwrap())
}

/// Each slot of the tournament's schedule played once: the number of slots, and that
/// every one has its game and no game is stored twice.
fn played_once(store: &SqliteStore) -> usize {
    let t = store.tournament(store::TournamentId(1)).unwrap().unwrap();
    let slots = store.slots(t.id).unwrap();
    let games = store.games(false).unwrap();
    assert!(
        slots
            .iter()
            .all(|s| matches!(s.state, SlotState::Played(_))),
        "{slots:?}"
    );
    assert_eq!(games.len(), slots.len(), "a game per slot");
    slots.len()
}

/// After a run of the three-entry round robin that stopped with two games stored: the other
/// four slots (`which` among them) are pending, and the next run plays each once.
fn two_stored_then_the_rest_played_once(arena: &Scripted, store: &mut SqliteStore, which: &str) {
    assert_eq!(store.games(false).unwrap().len(), 2);
    let t = store.unfinished_tournament().unwrap().unwrap();
    assert_eq!(store.unplayed(t.id).unwrap(), 4, "{which} pending again");
    let (outcome, _) = run(arena, store, &round_robin());
    outcome.unwrap();
    assert_eq!(played_once(store), 6);
}

#[test]
fn a_round_robin_is_claimed_played_recorded_and_finished() {
    let scratch = Scratch::new("round-robin");
    let mut store = store_with(&scratch, &["alpha", "beta", "gamma"]);
    let arena = Scripted::default();
    let (outcome, said) = run(&arena, &mut store, &round_robin());
    outcome.unwrap();
    assert_eq!(played_once(&store), 6);
    let stored = said.iter().filter(|l| l.starts_with('[')).count();
    assert_eq!(stored, 6, "{said:#?}");
    assert_eq!(
        said.last().unwrap(),
        "tournament 1 finished: see `challenge standings` and `challenge report --html FILE`"
    );
    assert!(store.unfinished_tournament().unwrap().is_none());
    // Each game counted for the player the script lets win: alpha both, gamma neither.
    let wins = |name: &str| {
        let versions = store.versions().unwrap();
        let id = versions.iter().find(|v| v.name == name).unwrap().id;
        let games = store.games(false).unwrap();
        games
            .iter()
            .filter(|g| {
                (g.white == id && g.result == GameResult::WhiteWins)
                    || (g.black == id && g.result == GameResult::BlackWins)
            })
            .count()
    };
    assert_eq!([wins("alpha"), wins("beta"), wins("gamma")], [4, 2, 0]);
}

#[test]
fn a_session_budget_stops_it_and_the_next_run_plays_the_rest_once() {
    let scratch = Scratch::new("budget");
    let mut store = store_with(&scratch, &["alpha", "beta", "gamma"]);
    let arena = Scripted::default();
    let budget = RunOptions {
        max_games: Some(4),
        ..round_robin()
    };
    let (outcome, said) = run(&arena, &mut store, &budget);
    outcome.unwrap();
    assert_eq!(store.games(false).unwrap().len(), 4);
    assert!(
        said.last().unwrap().starts_with("stopped after 4 games"),
        "{said:#?}"
    );
    let (outcome, said) = run(&arena, &mut store, &round_robin());
    outcome.unwrap();
    assert!(said[0].contains("4 games already played"), "{said:#?}");
    assert_eq!(played_once(&store), 6);
}

#[test]
fn an_interrupted_game_is_not_recorded_and_its_slot_is_played_again() {
    let scratch = Scratch::new("interrupted");
    let mut store = store_with(&scratch, &["alpha", "beta", "gamma"]);
    let arena = Scripted {
        interrupt_at: Some(3),
        ..Scripted::default()
    };
    let (outcome, said) = run(&arena, &mut store, &round_robin());
    outcome.unwrap();
    assert!(
        said.last().unwrap().starts_with("stopped after 2 games"),
        "{said:#?}"
    );
    two_stored_then_the_rest_played_once(&arena, &mut store, "the interrupted slot");
}

/// A batch whose players cannot be made (an entry's build fails) ends the run with the
/// error and gives its claims back, so a later run in the same process (as `challenge
/// serve` resumes one) plays them.
#[test]
fn a_batch_that_cannot_start_gives_its_claims_back() {
    let scratch = Scratch::new("no-start");
    let mut store = store_with(&scratch, &["alpha", "beta", "gamma"]);
    let arena = Scripted::default();
    arena.fail_build.store(true, Ordering::Relaxed);
    let (outcome, _) = run(&arena, &mut store, &round_robin());
    assert!(
        matches!(outcome, Err(TournamentError::NoVersion(_))),
        "{outcome:?}"
    );
    assert!(store.games(false).unwrap().is_empty());
    let (outcome, said) = run(&arena, &mut store, &round_robin());
    outcome.unwrap();
    assert_eq!(played_once(&store), 6, "{said:#?}");
}

/// A Swiss tournament: each round paired by the organiser's step once the last is played,
/// every bye logged by the entry's name.
#[test]
fn a_swiss_pairs_each_round_after_the_last_and_names_each_bye() {
    let scratch = Scratch::new("swiss");
    let names = ["alpha", "beta", "gamma"];
    let mut store = store_with(&scratch, &names);
    let arena = Scripted::default();
    let (outcome, said) = run(&arena, &mut store, &options_for(TournamentFormat::Swiss));
    outcome.unwrap();
    let byes: Vec<&String> = said.iter().filter(|l| l.contains("bye for")).collect();
    assert_eq!(byes.len(), 2, "{said:#?}");
    assert!(
        byes[0].starts_with(
            "tournament 1: swiss, 3 entries, 2 games scheduled in round 1 of 2, bye for "
        ),
        "{said:#?}"
    );
    assert!(
        byes[1].starts_with("round 2 of 2 paired: 2 games, bye for "),
        "{said:#?}"
    );
    for line in &byes {
        let bye = line.split("bye for ").nth(1).unwrap();
        assert!(names.iter().any(|name| bye.starts_with(name)), "{line}");
    }
    assert_eq!(played_once(&store), 4);
    assert!(store.unfinished_tournament().unwrap().is_none());
}

/// The pause closes the gate after two games: no third game starts, the claims not started
/// are given back (a later run plays them), and the run ends without claiming again.
#[test]
fn a_closed_gate_starts_no_game_and_gives_back_the_claims_not_started() {
    let scratch = Scratch::new("paused");
    let mut store = store_with(&scratch, &["alpha", "beta", "gamma"]);
    let arena = Scripted::default();
    let gate = PausedAfter {
        games: 2,
        asked: AtomicUsize::new(0),
    };
    let (outcome, said) = run_through(&gate, &arena, &mut store, &round_robin());
    assert!(
        matches!(outcome, Err(TournamentError::GateClosed(_))),
        "{outcome:?} {said:#?}"
    );
    assert_eq!(arena.handed_out.load(Ordering::Relaxed), 2);
    two_stored_then_the_rest_played_once(&arena, &mut store, "the claims not started");
}

/// An entry withdrawn between two runs: the organiser's step cancels its unplayed games,
/// the next run plays none of them, and the tournament finishes.
#[test]
fn a_withdrawn_entrys_unplayed_games_are_cancelled_not_played() {
    let scratch = Scratch::new("withdrawn");
    let mut store = store_with(&scratch, &["alpha", "beta", "gamma"]);
    let arena = Scripted::default();
    let two = RunOptions {
        max_games: Some(2),
        ..round_robin()
    };
    run(&arena, &mut store, &two).0.unwrap();
    assert!(store.withdraw("gamma").unwrap());
    let (outcome, said) = run(&arena, &mut store, &round_robin());
    outcome.unwrap();
    let gamma = store
        .versions()
        .unwrap()
        .into_iter()
        .find(|v| v.name == "gamma");
    let gamma = gamma.unwrap().entry_id;
    let t = store.tournament(store::TournamentId(1)).unwrap().unwrap();
    let slots = store.slots(t.id).unwrap();
    let cancelled: Vec<_> = slots
        .iter()
        .filter(|s| s.state == SlotState::Cancelled)
        .collect();
    assert!(!cancelled.is_empty(), "{slots:?}");
    assert!(
        cancelled
            .iter()
            .all(|s| s.plan.white == gamma || s.plan.black == gamma),
        "{slots:?}"
    );
    assert!(
        slots
            .iter()
            .all(|s| matches!(s.state, SlotState::Played(_) | SlotState::Cancelled)),
        "{slots:?}"
    );
    let played = slots.len() - cancelled.len();
    assert_eq!(store.games(false).unwrap().len(), played);
    assert_eq!(arena.handed_out.load(Ordering::Relaxed), played);
    assert!(said.iter().any(|l| l.contains("cancelled")), "{said:#?}");
    assert!(store.unfinished_tournament().unwrap().is_none());
}

/// A recorded game whose moves refute its result (a checkmate on the starting position)
/// is set aside by the organiser's step before the finish, and its slot played again.
#[test]
fn a_refuted_game_is_set_aside_and_its_slot_played_again() {
    let scratch = Scratch::new("refuted");
    let mut store = store_with(&scratch, &["alpha", "beta", "gamma"]);
    let arena = Scripted {
        refute_at: Some(3),
        ..Scripted::default()
    };
    let (outcome, said) = run(&arena, &mut store, &round_robin());
    outcome.unwrap();
    let set_aside: Vec<_> = said.iter().filter(|l| l.contains("set aside")).collect();
    assert_eq!(set_aside.len(), 1, "{said:#?}");
    assert_eq!(arena.handed_out.load(Ordering::Relaxed), 7);
    let t = store.tournament(store::TournamentId(1)).unwrap().unwrap();
    let slots = store.slots(t.id).unwrap();
    assert!(
        slots
            .iter()
            .all(|s| matches!(s.state, SlotState::Played(_))),
        "{slots:?}"
    );
    assert!(store.unfinished_tournament().unwrap().is_none());
}

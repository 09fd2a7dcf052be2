//! A worker decides no result by claiming an ending: on both stores (a SQLite directory
//! and a throwaway PostgreSQL server), a crash or a loss on time the moves cannot show
//! counts only with evidence that holds against the clocks, claims are listed per
//! worker, and `workers distrust` voids everything a worker recorded and puts its games
//! back to be played. (PostgreSQL's roles: `postgres_roles.rs`.)

use crate::common_challenge;
use crate::postgres_server;

use std::time::Duration;

use common_challenge::TempDir;
use framework::chess::Color;
use framework::notation::pgn::GameResult;
use league::{Organiser, Progress};
use postgres_server::{Backends, ordered_pairs, schedule};
use results::{RatingChoice, store_table};
use runner::{Termination, TimeControl};
use store::prelude::*;
use store::{
    Claim, EntryId, Evidence, NewGame, NewVersion, SlotState, StoreError, StoredRules, Submitted,
    TournamentId, Version,
};

/// Entries `names` and a round-robin of them at 10+0.1, one game per ordered pair.
pub fn round_robin(store: &mut dyn Store, names: &[&str], rules: StoredRules) -> TournamentId {
    let ids: Vec<EntryId> = names
        .iter()
        .map(|name| {
            let new = NewVersion {
                name,
                author: None,
                source: name,
                hash: name,
                file_name: "bot.rs",
                tokens: 1,
                debug_tokens: 0,
            };
            match store.add_version(&new).unwrap() {
                Submitted::New(v) | Submitted::Unchanged(v) | Submitted::Revived(v) => v.entry_id,
            }
        })
        .collect();
    let tc = TimeControl::clock(Duration::from_secs(10), Duration::from_millis(100));
    schedule(store, &ids, &ordered_pairs(&ids), tc, rules)
}

/// The game a worker records for `claim`: `moves` (SAN with the runner's times in their
/// comments), this result and ending, with `evidence`.
pub fn recorded(
    store: &dyn Store,
    claim: &Claim,
    moves: &str,
    ending: (GameResult, Termination, Option<Color>),
    evidence: Option<Evidence>,
) -> NewGame {
    let versions = store.versions().unwrap();
    let version = |e: EntryId| -> &Version { versions.iter().find(|v| v.entry_id == e).unwrap() };
    let players = [claim.slot.plan.white, claim.slot.plan.black].map(version);
    worker_game(players, moves, ending, evidence)
}

/// A game of `players` (White, Black) as a worker could record it: `moves` (SAN, the
/// runner's times in their comments), this result and ending, with `evidence`.
pub fn worker_game(
    [white, black]: [&Version; 2],
    moves: &str,
    (result, termination, faulty): (GameResult, Termination, Option<Color>),
    evidence: Option<Evidence>,
) -> NewGame {
    let plies = moves
        .split_whitespace()
        .filter(|t| !t.ends_with('.') && !t.starts_with('{'))
        .count();
    NewGame {
        white: white.id,
        black: black.id,
        result,
        termination,
        faulty,
        detail: "as the worker tells it".into(),
        plies: plies as u32,
        pgn: format!(
            "[White \"{}\"]\n[Black \"{}\"]\n[Result \"{result}\"]\n[TerminationDetails \"{}\"]\n\n{moves} {result}\n",
            white.player_name(),
            black.player_name(),
            termination.tag()
        ),
        evidence,
    }
}

/// "1. d4, Black lost on time": White's move took 0.25 s of its 10 (9.85 s left with the
/// increment), and Black thought 12 s on its 10 s clock.
pub const D4: &str = "1. d4 {0.250s}";

/// The evidence a runner keeps of [`D4`]'s loss on time.
pub fn d4_flag() -> Evidence {
    Evidence {
        left_ms: [Some(9850), Some(10_000)],
        turn_ms: 12_000,
        at_start: false,
        answer: None,
        stderr: vec!["info string still thinking".into()],
    }
}

fn refused_reasons(table: &results::StandingsTable) -> Vec<String> {
    table
        .refused
        .iter()
        .map(|n| n.reason.clone().unwrap_or_default())
        .collect()
}

#[test]
fn a_claimed_ending_counts_only_with_evidence_that_holds_against_the_clocks() {
    Backends::new("claims-evidence").each(|open| {
        let mut store = open();
        let t = round_robin(&mut *store, &["x", "y"], StoredRules::default());
        let [first, second] = [0, 1].map(|_| store.claim(t, "box1", 1).unwrap().remove(0));
        // The findings: "0-1, White crashed" with no move, and "1. d4, Black lost on time",
        // both with no evidence: counted today on the worker's word.
        let crash = (
            GameResult::BlackWins,
            Termination::Crash,
            Some(Color::White),
        );
        let forged = recorded(&*store, &first, "", crash, None);
        let forged = store.record(&first, &forged).unwrap();
        let flag = (
            GameResult::WhiteWins,
            Termination::TimeForfeit,
            Some(Color::Black),
        );
        let game = recorded(&*store, &second, D4, flag, Some(d4_flag()));
        let flagged = store.record(&second, &game).unwrap();
        assert_eq!(
            store.game(flagged).unwrap().unwrap().evidence,
            Some(d4_flag())
        );

        let table = store_table(&*store, &RatingChoice::default(), None).unwrap();
        assert_eq!(table.games, 1, "{table:?}");
        assert_eq!(table.claimed.len(), 1);
        assert_eq!(table.claimed[0].game, flagged.0);
        let clocks = table.claimed[0].clocks.as_deref().unwrap();
        assert!(
            clocks.contains("Black 10.000 s left; the turn lasted 12.000 s"),
            "{clocks}"
        );
        assert_eq!(table.refused.len(), 1);
        assert_eq!(table.refused[0].game, forged.0);
        assert!(
            refused_reasons(&table)[0].contains("with no evidence"),
            "{table:?}"
        );
        let box1 = &table.claims_by_worker[0];
        assert_eq!(
            (box1.worker.as_str(), box1.games, box1.claimed, box1.refused),
            ("box1", 2, 1, 1)
        );
        let text = results::render_text(&table);
        assert!(
            text.contains("claims by worker: box1: 1 claims in 2 games, 1 games not counted"),
            "{text}"
        );

        // The organiser sets the forged game aside; its slot is played again.
        let step = Organiser::default().step(&mut *store, &|_| {}).unwrap();
        assert_eq!(
            step,
            Progress::Playing {
                tournament: t,
                pending: 1
            }
        );
        let again = store.claim(t, "box2", 1).unwrap();
        assert_eq!(again[0].slot.id, first.slot.id);
    });
}

#[test]
fn evidence_the_clocks_or_the_board_contradict_is_refused() {
    Backends::new("claims-contradicted").each(|open| {
        let mut store = open();
        let t = round_robin(&mut *store, &["x", "y", "z"], StoredRules::default());
        let flag = (
            GameResult::WhiteWins,
            Termination::TimeForfeit,
            Some(Color::Black),
        );
        let illegal = (
            GameResult::WhiteWins,
            Termination::IllegalMove,
            Some(Color::Black),
        );
        let quick = Evidence {
            turn_ms: 800,
            ..d4_flag()
        };
        let other_clock = Evidence {
            left_ms: [Some(9850), Some(2_000)],
            ..d4_flag()
        };
        let legal_answer = Evidence {
            answer: Some("d7d5".into()),
            turn_ms: 300,
            ..d4_flag()
        };
        for (ending, evidence) in [(flag, quick), (flag, other_clock), (illegal, legal_answer)] {
            let claim = store.claim(t, "box1", 1).unwrap().remove(0);
            let game = recorded(&*store, &claim, D4, ending, Some(evidence));
            store.record(&claim, &game).unwrap();
        }
        let table = store_table(&*store, &RatingChoice::default(), None).unwrap();
        let reasons = refused_reasons(&table);
        assert_eq!(reasons.len(), 3, "{table:?}");
        assert!(reasons[0].contains("within the clock"), "{reasons:?}");
        assert!(
            reasons[1].contains("gives Black 2000 ms left"),
            "{reasons:?}"
        );
        assert!(reasons[2].contains("no illegal move"), "{reasons:?}");
        assert_eq!(table.games, 0);
    });
}

#[test]
fn distrusting_a_worker_voids_its_results_and_puts_its_games_back() {
    Backends::new("claims-distrust").each(|open| {
        let mut store = open();
        let t = round_robin(&mut *store, &["x", "y", "z"], StoredRules::default());
        let mate = (GameResult::BlackWins, Termination::Checkmate, None);
        let fools_mate = "1. f3 {0.1s} e5 {0.1s} 2. g4 {0.1s} Qh4# {0.1s}";
        for worker in ["box1", "box1.vm-2", "box1", "box2", "box2", "box1"] {
            let claim = store.claim(t, worker, 1).unwrap().remove(0);
            let game = recorded(&*store, &claim, fools_mate, mate, None);
            store.record(&claim, &game).unwrap();
        }
        store.finish_tournament(t).unwrap();
        assert_eq!(
            store_table(&*store, &RatingChoice::default(), None)
                .unwrap()
                .games,
            6
        );

        let done = store.distrust_worker("box1").unwrap();
        assert_eq!(
            (done.already, done.voided, done.reopened.clone()),
            (false, 4, vec![t])
        );
        assert_eq!(
            store.unfinished_tournament().unwrap().map(|t| t.id),
            Some(t)
        );
        let pending = store
            .slots(t)
            .unwrap()
            .iter()
            .filter(|s| s.state == SlotState::Pending)
            .count();
        assert_eq!(pending, 4);
        assert_eq!(
            store.games(false).unwrap().len(),
            6,
            "void games stay stored"
        );
        let table = store_table(&*store, &RatingChoice::default(), None).unwrap();
        assert_eq!(table.games, 2);
        assert_eq!(table.refused.len(), 4);
        assert!(
            refused_reasons(&table)[0].contains("distrusts its worker `box1"),
            "{table:?}"
        );
        // Its workers claim no more; another plays the games again.
        for name in ["box1", "box1.vm-3"] {
            let err = store.claim(t, name, 1).unwrap_err();
            assert!(matches!(err, StoreError::Conflict { .. }), "{err:?}");
            assert!(err.to_string().contains("distrusted"), "{err}");
        }
        assert_eq!(store.claim(t, "box2", 10).unwrap().len(), 4);
        assert_eq!(store.distrusted_workers().unwrap(), ["box1"]);
        let again = store.distrust_worker("box1").unwrap();
        assert_eq!((again.already, again.voided), (true, 0));
    });
}

#[test]
fn workers_distrust_on_the_command_line_names_what_it_voided() {
    let tmp = TempDir::new("claims-distrust-cli");
    let dir = tmp.challenge();
    let mut store = store::SqliteStore::create(&dir).unwrap();
    let t = round_robin(&mut store, &["x", "y"], StoredRules::default());
    let claim = store.claim(t, "box1", 1).unwrap().remove(0);
    let flag = (
        GameResult::WhiteWins,
        Termination::TimeForfeit,
        Some(Color::Black),
    );
    let game = recorded(&store, &claim, D4, flag, Some(d4_flag()));
    store.record(&claim, &game).unwrap();
    drop(store);
    // The organiser reads the claim's evidence, the engine's stderr with it.
    let claims = common_challenge::ok(&dir, &["workers", "claims", "--worker", "box1"]);
    assert!(claims.contains("recorded by box1): counted"), "{claims}");
    assert!(
        claims.contains("clocks: White 9.850 s and Black 10.000 s left; the turn lasted 12.000 s")
            && claims.contains("stderr: info string still thinking"),
        "{claims}"
    );
    let said = common_challenge::ok(&dir, &["workers", "distrust", "box1"]);
    assert!(
        said.contains("worker box1 (and every worker named box1.…) is distrusted: 1 games it recorded are void"),
        "{said}"
    );
    let standings = common_challenge::ok(&dir, &["standings"]);
    assert!(
        standings.contains("distrusts its worker `box1`"),
        "{standings}"
    );
    let claims = common_challenge::ok(&dir, &["workers", "claims"]);
    assert!(claims.contains("not counted: void"), "{claims}");
}

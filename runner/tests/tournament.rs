//! Whole tournaments: pairing, colour swaps, concurrency, faults, stopping.

mod common;

use std::sync::atomic::{AtomicBool, Ordering};

use common::{faulty, instant};
use runner::{
    Format, GameSettings, Opening, Player, Sprt, SprtState, StopReason, Termination, TimeControl,
    TournamentConfig, parse_epd, run_tournament,
};

const OPENINGS: &str = "\
rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1
rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1
rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R b KQkq - 1 1
";

fn config(players: Vec<Player>, pairs: usize, concurrency: usize) -> TournamentConfig {
    TournamentConfig {
        players,
        format: Format::RoundRobin,
        pairs,
        openings: parse_epd(OPENINGS, "test.epd").unwrap(),
        concurrency,
        settings: GameSettings::default(),
        sprt: None,
        seed: None,
    }
}

#[test]
fn identical_deterministic_engines_score_exactly_half_over_paired_openings() {
    let players = vec![
        instant("a", TimeControl::nodes(1)),
        instant("b", TimeControl::nodes(1)),
    ];
    let mut seen = Vec::new();
    let result = run_tournament(&config(players, 6, 2), &AtomicBool::new(false), |e| {
        seen.push((
            e.job.pair,
            e.job.game_in_pair,
            e.record.white.clone(),
            e.record.moves.iter().map(|m| m.mv).collect::<Vec<_>>(),
        ));
    });
    assert_eq!(result.stop, StopReason::Completed);
    assert_eq!(result.standings.games, 12);
    let a = result.standings.player(0);
    assert_eq!(a.games(), 12);
    assert_eq!(a.points(), 6.0);
    // Each pair is the same game twice with the players swapped: one point per pair.
    assert_eq!(a.penta, [0, 0, 6, 0, 0]);
    for (pair, game, white, moves) in &seen {
        let twin = seen.iter().find(|s| s.0 == *pair && s.1 != *game).unwrap();
        assert_ne!(&twin.2, white, "colours are swapped within a pair");
        assert_eq!(&twin.3, moves, "same opening, same engine, same game");
    }
}

#[test]
fn round_robin_of_three_plays_every_encounter_with_both_colours() {
    let players = vec![
        instant("a", TimeControl::nodes(1)),
        instant("b", TimeControl::nodes(1)),
        instant("c", TimeControl::nodes(1)),
    ];
    let mut whites = [0usize; 3];
    let result = run_tournament(
        &config(players.clone(), 2, 2),
        &AtomicBool::new(false),
        |e| whites[e.job.white] += 1,
    );
    assert_eq!(result.standings.games, 12);
    assert_eq!(whites, [4, 4, 4]);
    for i in 0..3 {
        assert_eq!(result.standings.player(i).games(), 8);
    }
    let total: f64 = (0..3).map(|i| result.standings.player(i).points()).sum();
    assert_eq!(total, 12.0);

    let mut gauntlet = config(players, 2, 1);
    gauntlet.format = Format::Gauntlet;
    let result = run_tournament(&gauntlet, &AtomicBool::new(false), |_| {});
    assert_eq!(result.standings.games, 8);
    assert_eq!(result.standings.player(0).games(), 8);
    assert_eq!(result.standings.player(2).games(), 4);
}

#[test]
fn a_crashing_engine_loses_every_game_and_is_restarted_each_time() {
    let tc: TimeControl = "10+0.1".parse().unwrap();
    let players = vec![
        instant("good", tc),
        Player::new(faulty("crasher", "crash", 2), tc),
    ];
    let mut terminations = Vec::new();
    let result = run_tournament(&config(players, 2, 2), &AtomicBool::new(false), |e| {
        terminations.push(e.record.termination);
        assert!(e.record.stderr.iter().any(|l| l.contains("bot error")));
    });
    assert_eq!(
        terminations,
        vec![Termination::Crash; 4],
        "a restarted engine crashes again at its 2nd move"
    );
    let good = result.standings.player(0);
    assert_eq!((good.wins, good.draws, good.losses), (4, 0, 0));
    assert_eq!(result.standings.faults, vec![(Termination::Crash, 4)]);
}

#[test]
fn sprt_stops_the_match_when_a_bound_is_crossed() {
    let tc: TimeControl = "10+0.1".parse().unwrap();
    let players = vec![
        instant("good", tc),
        Player::new(faulty("broken", "garbage", 1), tc),
    ];
    let mut cfg = config(players, 500, 2);
    cfg.sprt = Some(Sprt::new(0.0, 10.0, 0.05, 0.05).unwrap());
    let stop = AtomicBool::new(false);
    let result = run_tournament(&cfg, &stop, |_| {});
    assert_eq!(result.stop, StopReason::Sprt(SprtState::AcceptH1));
    assert!(result.llr.unwrap() >= Sprt::new(0.0, 10.0, 0.05, 0.05).unwrap().upper_bound());
    assert!(result.standings.games < 1000);
    assert!(stop.load(Ordering::Relaxed));
}

#[test]
fn a_stop_request_ends_the_match_with_only_finished_games_counted() {
    let players = vec![
        instant("a", TimeControl::nodes(1)),
        instant("b", TimeControl::nodes(1)),
    ];
    let stop = AtomicBool::new(false);
    let mut reported = 0;
    let result = run_tournament(&config(players, 50, 2), &stop, |_| {
        reported += 1;
        if reported == 3 {
            stop.store(true, Ordering::Relaxed);
        }
    });
    assert_eq!(result.stop, StopReason::Interrupted);
    assert_eq!(result.standings.games, reported);
    assert!(reported < 100);
    assert_eq!(result.standings.player(0).games() as usize, reported);
}

#[test]
fn pgn_openings_are_played_from_their_start_with_the_book_moves() {
    let openings =
        runner::parse_pgn_openings("1. e4 e5 2. Nf3 Nc6 3. Bb5 *\n", Some(4), "o.pgn").unwrap();
    let players = vec![
        instant("a", TimeControl::nodes(1)),
        instant("b", TimeControl::nodes(1)),
    ];
    let mut cfg = config(players, 1, 1);
    cfg.openings = openings;
    let mut books = Vec::new();
    run_tournament(&cfg, &AtomicBool::new(false), |e| {
        let pgn = framework::notation::write_game(&e.record.to_pgn());
        books.push(pgn.contains("1. e4 {book} 1... e5 {book} 2. Nf3 {book} 2... Nc6 {book}"));
        assert!(!pgn.contains("[FEN"));
    });
    assert_eq!(books, [true, true]);
    let _ = Opening::startpos();
}

//! The per-move hook: it sees every move as it is played, with the PV the record drops,
//! and the record is the same with or without it.

mod common;

use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use common::instant;
use framework::chess::{Board, Move};
use runner::{
    EngineConfig, GameSettings, MoveObserver, MoveUpdate, Opening, Pairing, Player, Pool,
    TimeControl, play_game, play_game_observed,
};

/// One move as an observer saw it: the position's FEN, the move, the PV and the clocks.
type SeenMove = (String, Move, Vec<String>, [Option<Duration>; 2]);

/// What an observer saw: the start position, and each move.
#[derive(Default)]
struct Seen {
    starts: Vec<String>,
    moves: Vec<SeenMove>,
}

struct Recorder(Arc<Mutex<Seen>>);

impl MoveObserver for Recorder {
    fn started(&mut self, board: &Board, _clocks: [Option<Duration>; 2]) {
        self.0.lock().unwrap().starts.push(board.fen());
    }
    fn moved(&mut self, update: &MoveUpdate<'_>) {
        self.0.lock().unwrap().moves.push((
            update.board.fen(),
            update.mv,
            update.info.pv.clone(),
            update.clocks,
        ));
    }
}

fn tc() -> TimeControl {
    "10+0.1".parse().unwrap()
}

#[test]
fn the_observer_sees_every_move_in_order_and_the_record_is_unchanged() {
    let (a, b) = (instant("a", tc()), instant("b", tc()));
    let stop = AtomicBool::new(false);
    let settings = GameSettings::default();
    let plain = play_game(
        [&a, &b],
        [&mut None, &mut None],
        &Opening::startpos(),
        &settings,
        &stop,
    );
    let seen = Arc::new(Mutex::new(Seen::default()));
    let mut recorder = Recorder(Arc::clone(&seen));
    let watched = play_game_observed(
        [&a, &b],
        [&mut None, &mut None],
        &Opening::startpos(),
        &settings,
        &stop,
        Some(&mut recorder),
    );
    let plain_moves: Vec<Move> = plain.moves.iter().map(|m| m.mv).collect();
    let watched_moves: Vec<Move> = watched.moves.iter().map(|m| m.mv).collect();
    assert_eq!(plain_moves, watched_moves);
    assert_eq!(
        (plain.result, plain.termination),
        (watched.result, watched.termination)
    );
    let seen = seen.lock().unwrap();
    assert_eq!(seen.starts, [Board::startpos().fen()]);
    let mut board = Board::startpos();
    assert_eq!(seen.moves.len(), watched_moves.len());
    for ((fen, mv, _, clocks), played) in seen.moves.iter().zip(&watched_moves) {
        assert_eq!((fen, mv), (&board.fen(), played));
        assert!(
            clocks.iter().all(Option::is_some),
            "a timed game shows both clocks"
        );
        board.make_move(*mv);
    }
}

/// An engine that says a PV and plays e2e4, whatever the position.
fn e2e4_with_pv(name: &str) -> Player {
    let script = r#"while read cmd rest; do case $cmd in
        uci) echo uciok;; isready) echo readyok;;
        go) echo "info depth 3 score cp 21 pv e2e4 e7e5 g1f3"; echo "bestmove e2e4";;
        quit) exit 0;; esac; done"#;
    Player::new(EngineConfig::new(name, "sh").arg("-c").arg(script), tc())
}

#[test]
fn the_observer_gets_the_pv_the_record_leaves_out() {
    let (w, b) = (e2e4_with_pv("w"), e2e4_with_pv("b"));
    let seen = Arc::new(Mutex::new(Seen::default()));
    let mut recorder = Recorder(Arc::clone(&seen));
    let record = play_game_observed(
        [&w, &b],
        [&mut None, &mut None],
        &Opening::startpos(),
        &GameSettings::default(),
        &AtomicBool::new(false),
        Some(&mut recorder),
    );
    // White's e2e4 is played; Black's is illegal and ends the game.
    assert_eq!(record.moves.len(), 1);
    assert!(record.moves[0].info.pv.is_empty(), "the record keeps no PV");
    let seen = seen.lock().unwrap();
    assert_eq!(seen.moves.len(), 1);
    assert_eq!(seen.moves[0].2, ["e2e4", "e7e5", "g1f3"]);
}

#[test]
fn the_pool_asks_for_an_observer_per_game_with_its_tag() {
    let players = [instant("a", tc()), instant("b", tc())];
    let pool = Pool {
        players: &players,
        openings: &[Opening::startpos()],
        settings: &GameSettings::default(),
        concurrency: 2,
    };
    let mut games = (0..4usize).map(|n| {
        let pairing = Pairing {
            white: n % 2,
            black: 1 - n % 2,
            opening: 0,
            seed: None,
        };
        (n, pairing)
    });
    let seen: Vec<Arc<Mutex<Seen>>> = (0..4).map(|_| Arc::default()).collect();
    let watch = |n: &usize, _: &Pairing| {
        // Only the even games are watched.
        n.is_multiple_of(2)
            .then(|| Box::new(Recorder(Arc::clone(&seen[*n]))) as Box<dyn MoveObserver>)
    };
    let mut records = vec![None; 4];
    pool.play_watched(
        &AtomicBool::new(false),
        move || games.next(),
        &watch,
        |n, record| records[n] = Some(record),
    );
    for (n, record) in records.into_iter().enumerate() {
        let record = record.expect("every game is played");
        let moves = seen[n].lock().unwrap().moves.len();
        let expected = if n.is_multiple_of(2) {
            record.moves.len()
        } else {
            0
        };
        assert_eq!(moves, expected, "game {n}");
    }
}

//! Property tests over random games: the invariants every search relies on.

use framework::prelude::*;
use proptest::prelude::*;

mod common;
use common::CPW_POSITIONS as STARTS;

/// Everything observable about a board that undo must restore.
#[derive(Debug, PartialEq)]
struct Snapshot {
    fen: String,
    key: u64,
    keys: Vec<u64>,
    moves: Vec<Move>,
    ply: i32,
    fifty: i32,
    legal: Vec<u32>,
}

fn snapshot(b: &Board) -> Snapshot {
    let mut legal: Vec<u32> = b.legal_moves().iter().map(|m| m.raw()).collect();
    legal.sort_unstable();
    Snapshot {
        fen: b.fen(),
        key: b.key(),
        keys: b.history_keys().to_vec(),
        moves: b.history_moves().to_vec(),
        ply: b.ply_count(),
        fifty: b.fifty_move_counter(),
        legal,
    }
}

/// Plays a random game from `start`: each choice picks a legal move, and choices divisible
/// by 13 try a skipped turn instead, so null moves are exercised too.
fn play(start: usize, choices: &[u16], at_each_position: impl FnMut(&Board)) -> Board {
    play_from(
        Board::from_fen(STARTS[start]).unwrap(),
        choices,
        at_each_position,
    )
}

/// [`play`] from a given board.
fn play_from(mut b: Board, choices: &[u16], mut at_each_position: impl FnMut(&Board)) -> Board {
    at_each_position(&b);
    for &c in choices {
        let moves = b.legal_moves();
        if moves.is_empty() {
            break;
        }
        if c % 13 == 0 && b.skip_turn() {
            at_each_position(&b);
            continue;
        }
        b.make_move(moves[c as usize % moves.len()]);
        at_each_position(&b);
    }
    b
}

fn sorted_raw(moves: &[Move]) -> Vec<u32> {
    let mut v: Vec<u32> = moves.iter().map(|m| m.raw()).collect();
    v.sort_unstable();
    v
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn undo_restores_everything(start in 0..STARTS.len(), choices in prop::collection::vec(any::<u16>(), 0..120)) {
        let mut snaps = Vec::new();
        let mut b = play(start, &choices, |b| snaps.push((snapshot(b), b.clone())));
        let last = snaps.pop().unwrap();
        prop_assert_eq!(snapshot(&b), last.0);
        while let Some((snap, copy)) = snaps.pop() {
            if b.history_moves().last().is_some_and(|m| m.is_null()) {
                b.undo_skip_turn();
            } else {
                b.undo_move();
            }
            prop_assert_eq!(snapshot(&b), snap);
            prop_assert!(b == copy);
        }
        prop_assert_eq!(b.history_moves().len(), 0);
        prop_assert_eq!(b.history_keys().len(), 1);
    }

    #[test]
    fn incremental_key_equals_key_from_scratch(start in 0..STARTS.len(), choices in prop::collection::vec(any::<u16>(), 0..120)) {
        play(start, &choices, |b| {
            let fresh = Board::from_fen(&b.fen()).unwrap();
            assert_eq!(b.key(), fresh.key(), "{}", b.fen());
            assert_eq!(b.history_keys().last(), Some(&b.key()));
        });
    }

    #[test]
    fn captures_are_the_capturing_legal_moves(start in 0..STARTS.len(), choices in prop::collection::vec(any::<u16>(), 0..120)) {
        play(start, &choices, |b| {
            let all = b.legal_moves();
            let caps: Vec<Move> = all.iter().copied().filter(|m| m.is_capture()).collect();
            assert_eq!(sorted_raw(&b.captures()), sorted_raw(&caps), "{}", b.fen());
            assert_eq!(b.legal_move_count(), all.len());
            let mut into = MoveList::new();
            b.legal_moves_into(&mut into, true);
            assert_eq!(sorted_raw(&into), sorted_raw(&caps));
        });
    }

    #[test]
    fn move_metadata_matches_the_board(start in 0..STARTS.len(), choices in prop::collection::vec(any::<u16>(), 0..120)) {
        play(start, &choices, |b| {
            for &m in b.legal_moves().iter() {
                assert!(b.is_legal(m));
                assert_eq!(b.parse_uci(&m.to_string()), Ok(m), "{m:?} in {}", b.fen());
                assert_eq!(Move::from_raw(m.raw()), m);
                let moving = b.piece_at(m.from()).unwrap();
                assert_eq!(moving.piece_type(), m.piece());
                assert_eq!(moving.color(), b.side_to_move());
                if !m.is_en_passant() && !m.is_castle() {
                    assert_eq!(b.piece_at(m.to()).map(|p| p.piece_type()), m.captured());
                }
            }
            assert_eq!(b.is_square_attacked(b.king_square(b.side_to_move())), b.is_in_check());
        });
    }

    #[test]
    fn fen_round_trips(start in 0..STARTS.len(), choices in prop::collection::vec(any::<u16>(), 0..120)) {
        play(start, &choices, |b| {
            let fen = b.fen();
            let again = Board::from_fen(&fen).unwrap();
            assert_eq!(again.fen(), fen);
            assert_eq!(again.ply_count(), b.ply_count());
            assert_eq!(again.fifty_move_counter(), b.fifty_move_counter());
        });
    }

    #[test]
    fn fifty_move_counter_follows_the_history(start in 0..STARTS.len(), clock in prop::sample::select(vec![0i32, 60, 98, 100, 150]), choices in prop::collection::vec(any::<u16>(), 0..120)) {
        // The same start with its halfmove clock replaced, so games cross 100 half-moves.
        let fields: Vec<&str> = STARTS[start].split(' ').collect();
        let fen = format!("{} {} {} {} {clock} {}", fields[0], fields[1], fields[2], fields[3], fields[5]);
        let mut b = play_from(Board::from_fen(&fen).unwrap(), &choices, |b| {
            // Recounted from the history: captures and pawn moves reset, all else counts.
            let mut expected = clock;
            for m in b.history_moves() {
                let resets = !m.is_null() && (m.piece() == PieceType::Pawn || m.is_capture());
                expected = if resets { 0 } else { expected + 1 };
            }
            assert_eq!(b.fifty_move_counter(), expected, "{}", b.fen());
            assert_eq!(b.is_fifty_move_draw(), expected >= 100);
            assert!(b.fen().contains(&format!(" {expected} ")));
        });
        while !b.history_moves().is_empty() {
            b.undo_move();
        }
        prop_assert_eq!(b.fifty_move_counter(), clock);
    }
}

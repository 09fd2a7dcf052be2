//! The kit's equivalents of the C# challenge's API members that it lacked: piece lists, a
//! move list chosen by a flag, C#'s piece numbers, a turn skipped in check, C#'s `IsDraw`,
//! the game's starting FEN and a timer a bot can keep. Checked on real positions.

// Test scenarios read top to bottom as one story; the length limit is for library code.
#![allow(clippy::too_many_lines)]

use framework::chess::perft::perft;
use framework::prelude::*;

mod common;
use common::{CPW_POSITIONS, board, play};

fn uci(moves: &[Move]) -> Vec<String> {
    let mut v: Vec<String> = moves.iter().map(ToString::to_string).collect();
    v.sort();
    v
}

/// Positions of every kind: the CPW perft positions, a check by a bishop beside a castling
/// right, a check by a pawn that has just moved two squares, fifteen knights.
fn positions() -> impl Iterator<Item = &'static str> {
    CPW_POSITIONS.into_iter().chain([
        IN_CHECK,
        "8/8/8/3k4/4P3/8/8/4K3 b - e3 0 1",
        "1k6/8/8/8/8/8/8/KNNNNNNN w - - 0 1",
    ])
}

const IN_CHECK: &str = "4k3/8/8/8/1b6/8/8/4K2R w K - 0 1";

// ----- piece lists -----

#[test]
fn piece_lists_come_in_csharps_order_with_every_piece_once() {
    for fen in positions() {
        let b = board(fen);
        let lists = b.piece_lists();
        for (i, list) in lists.iter().enumerate() {
            let color = if i < 6 { Color::White } else { Color::Black };
            assert_eq!(list.piece_type(), PieceType::ALL[i % 6], "{fen} list {i}");
            assert_eq!(list.color(), color);
            assert_eq!(list.is_white(), color.is_white());
            assert_eq!(*list, b.piece_list(list.piece_type(), color));
            let squares: Bitboard = list.iter().copied().collect();
            assert_eq!(
                squares,
                b.pieces(list.piece_type(), color),
                "{fen} list {i}"
            );
            assert_eq!(list.len(), squares.count());
            // Lowest square first, each piece once, and the board agrees on each.
            assert!(list.windows(2).all(|w| w[0] < w[1]));
            for &square in list.iter() {
                assert_eq!(b.piece_at(square), Some(list.piece()));
            }
        }
        let total: i32 = lists.iter().map(|l| l.len()).sum();
        assert_eq!(total, b.occupied().count(), "{fen}");
    }
}

#[test]
fn piece_lists_are_snapshots_taken_when_asked_for() {
    let mut b = Board::startpos();
    let before = b.piece_list(PieceType::Pawn, Color::Black);
    play(&mut b, "e2e4 d7d5 e4d5");
    assert_eq!(before.len(), 8);
    let after = b.piece_list(PieceType::Pawn, Color::Black);
    assert_eq!(after.len(), 7);
    assert!(!after.contains(&Square::D5));
    assert!(b.piece_lists()[0].contains(&Square::D5));
}

#[test]
fn a_piece_list_holds_the_most_pieces_of_one_kind_a_side_can_have() {
    // Fifteen knights and the king: sixteen pieces, the most a side may have.
    let b = board("1k6/8/8/8/8/8/NNNNNNNN/KNNNNNNN w - - 0 1");
    let knights = b.piece_list(PieceType::Knight, Color::White);
    assert_eq!(knights.len(), 15);
    assert_eq!(knights[14], Square::H2);
}

// ----- a move list chosen by a flag -----

#[test]
fn moves_by_flag_are_the_captures_or_all_legal_moves() {
    for fen in positions() {
        let b = board(fen);
        assert_eq!(b.moves(true), b.captures(), "{fen}");
        assert_eq!(b.moves(false), b.legal_moves(), "{fen}");
    }
}

// ----- C#'s piece numbers -----

#[test]
fn piece_numbers_are_csharps_for_every_move_of_real_positions() {
    for fen in positions() {
        let b = board(fen);
        for m in b.legal_moves() {
            assert_eq!(m.piece_number(), m.piece().index() + 1);
            assert_eq!(
                m.captured_number(),
                m.captured().map_or(0, PieceType::number)
            );
            assert_eq!(
                m.promotion_number(),
                m.promotion().map_or(0, PieceType::number)
            );
            assert_eq!(PieceType::from_number(m.piece_number()), Some(m.piece()));
        }
    }
    // C#'s enum: None 0, Pawn 1, Knight 2, Bishop 3, Rook 4, Queen 5, King 6.
    let numbers: Vec<usize> = PieceType::ALL.iter().map(|p| p.number()).collect();
    assert_eq!(numbers, [1, 2, 3, 4, 5, 6]);
    assert_eq!(PieceType::from_number(0), None);
    assert_eq!(PieceType::from_number(7), None);
    // En passant takes a pawn.
    let b = board("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1");
    assert_eq!(b.parse_uci("e5d6").unwrap().captured_number(), 1);
}

// ----- a turn skipped in check -----

/// The position `b` is in, parsed again from its FEN: what a real position must equal.
fn reparsed(b: &Board) -> Board {
    board(&b.fen())
}

/// Checks that `b`'s current position, a real one, answers every question as the same
/// position parsed from its FEN does.
fn assert_real(b: &Board, context: &str) {
    let fresh = reparsed(b);
    assert_eq!(
        b.is_in_check(),
        fresh.is_in_check(),
        "{context}: {}",
        b.fen()
    );
    assert_eq!(b.checkers(), fresh.checkers(), "{context}: {}", b.fen());
    assert_eq!(
        uci(&b.legal_moves()),
        uci(&fresh.legal_moves()),
        "{context}: {}",
        b.fen()
    );
    assert_eq!(b.legal_move_count(), fresh.legal_move_count());
    assert_eq!(b.captures(), fresh.captures(), "{context}: {}", b.fen());
    assert_eq!(b.key(), fresh.key(), "{context}: {}", b.fen());
}

#[test]
fn force_skip_turn_out_of_check_is_skip_turn() {
    for fen in positions() {
        let b = board(fen);
        if b.is_in_check() {
            continue;
        }
        let (mut skipped, mut forced) = (b.clone(), b.clone());
        assert!(skipped.skip_turn());
        forced.force_skip_turn();
        assert_eq!(forced, skipped, "{fen}");
        assert_eq!(uci(&forced.legal_moves()), uci(&skipped.legal_moves()));
        forced.undo_skip_turn();
        assert_eq!(forced, b);
    }
}

#[test]
fn skip_turn_still_refuses_in_check() {
    let mut b = board(IN_CHECK);
    let before = b.clone();
    assert!(!b.skip_turn());
    assert_eq!(b, before);
}

#[test]
fn a_turn_skipped_in_check_gives_the_opponent_every_move_but_taking_the_king() {
    // White in check from a bishop, a knight, a pawn, a pawn that just moved two squares.
    let cases = [
        // (position, the opponent's moves after the skip, FEN after the skip)
        (
            "4k3/8/8/8/1b6/8/6P1/4K2R w K - 0 1",
            "b4a3 b4a5 b4c3 b4c5 b4d2 b4d6 b4e7 b4f8 e8d7 e8d8 e8e7 e8f7 e8f8",
            "4k3/8/8/8/1b6/8/6P1/4K2R b K - 1 1",
        ),
        (
            "4k3/8/8/8/8/3n4/8/4K3 w - - 7 30",
            "d3b2 d3b4 d3c1 d3c5 d3e5 d3f2 d3f4 e8d7 e8d8 e8e7 e8f7 e8f8",
            "4k3/8/8/8/8/3n4/8/4K3 b - - 8 30",
        ),
        (
            "4k3/8/8/8/8/8/3p4/4K3 w - - 0 1",
            "d2d1b d2d1n d2d1q d2d1r e8d7 e8d8 e8e7 e8f7 e8f8",
            "4k3/8/8/8/8/8/3p4/4K3 b - - 1 1",
        ),
        (
            "8/8/8/3k4/4P3/8/8/4K3 b - e3 0 1",
            "e1d1 e1d2 e1e2 e1f1 e1f2 e4e5",
            "8/8/8/3k4/4P3/8/8/4K3 w - - 1 2",
        ),
    ];
    for (fen, replies, after) in cases {
        let mut b = board(fen);
        let before = b.clone();
        assert!(b.is_in_check(), "{fen}");
        b.force_skip_turn();
        assert_eq!(b.fen(), after, "{fen}");
        assert!(!b.is_in_check());
        assert_eq!(b.side_to_move(), !before.side_to_move());
        assert_eq!(uci(&b.legal_moves()).join(" "), replies, "{fen}");
        assert_eq!(b.legal_move_count(), b.legal_moves().len());
        assert!(b.has_legal_moves());
        let king = before.king_square(before.side_to_move());
        assert!(
            b.is_attacked_by(king, b.side_to_move()),
            "the king is still attacked"
        );
        assert!(b.captures().iter().all(|m| m.to() != king));
        assert_eq!(b.ply_count(), before.ply_count() + 1);
        assert_eq!(b.history_moves().last(), Some(&Move::NULL));
        assert_ne!(b.key(), before.key());
        b.undo_skip_turn();
        assert_eq!(b, before);
        assert!(
            b.is_in_check(),
            "undoing the skip restores the check: {fen}"
        );
        assert_real(&b, fen);
    }
}

#[test]
fn taking_the_king_is_never_legal_after_a_turn_skipped_in_check() {
    let mut b = board("4k3/8/8/8/8/3n4/8/4K3 w - - 0 1");
    b.force_skip_turn();
    assert!(matches!(b.parse_uci("d3e1"), Err(MoveError::Illegal(_))));
    assert!(b.parse_uci("d3f2").is_ok());
    let take = Move::new(
        Square::D3,
        Square::E1,
        PieceType::Knight,
        Some(PieceType::King),
        None,
        false,
        false,
    );
    assert!(!b.is_legal(take));
    assert!(b.try_make_move(take).is_err());
}

#[test]
fn after_a_turn_skipped_in_check_the_side_that_passed_is_still_in_check() {
    // The knight on d3 still checks after Black's king move: cozy looks only at the piece
    // that moved for checks, so the kit rebuilds the position.
    let mut b = board("4k3/8/8/8/8/3n4/8/4K3 w - - 0 1");
    b.force_skip_turn();
    play(&mut b, "e8d8");
    assert!(b.is_in_check());
    assert_eq!(b.checkers(), Square::D3.bitboard());
    assert_eq!(uci(&b.legal_moves()).join(" "), "e1d1 e1d2 e1e2 e1f1");
    assert_real(&b, "knight still checking");
    // A double push there: the pawn on g3 still checks, which no double push could have
    // given, so the en-passant square goes (taking on e3 would not answer the check).
    let mut b = board("8/2p5/3p4/KP5r/1R3p1k/6P1/4P3/8 b - - 0 1");
    b.force_skip_turn();
    play(&mut b, "e2e4");
    assert!(b.is_in_check());
    assert_eq!(b.en_passant_square(), None);
    assert_real(&b, "a double push after the skip");
    // Skipping again from the skipped position gives the position back, check and all.
    let mut b = board("4k3/8/8/8/8/3n4/8/4K3 w - - 0 1");
    b.force_skip_turn();
    assert!(b.skip_turn());
    assert!(b.is_in_check());
    assert_real(&b, "skipped twice");
    assert!(b.is_repeated_position());
}

#[test]
fn castling_rights_survive_a_turn_skipped_in_check() {
    // White has only its king and the rook it may castle with: the kit's way to the
    // skipped position costs the right there, and the next position has it again.
    let mut b = board("4k3/4r3/8/8/8/8/8/4K2R w K - 0 1");
    b.force_skip_turn();
    play(&mut b, "e8d8");
    assert!(b.has_kingside_castle_right(Color::White));
    assert_real(&b, "rights kept");
    // With another piece to spare, the skipped position keeps the right too.
    let mut b = board("4k3/4r3/8/8/8/8/P7/4K2R w K - 0 1");
    b.force_skip_turn();
    assert!(b.has_kingside_castle_right(Color::White));
    assert_eq!(b.fen(), "4k3/4r3/8/8/8/8/P7/4K2R b K - 1 1");
}

/// Perft that also skips the turn at every node, in check or not, and checks every real
/// position reached against the same position parsed from its FEN.
fn perft_with_skips(b: &mut Board, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut nodes = 0;
    for m in b.legal_moves() {
        b.make_move(m);
        assert_real(b, "after a move");
        nodes += perft_with_skips(b, depth - 1);
        b.undo_move();
    }
    let before = b.clone();
    let in_check = b.is_in_check();
    b.force_skip_turn();
    if in_check {
        // Every reply is legal for the side now to move, and what it leads to is real.
        for m in b.legal_moves() {
            assert!(b.is_legal(m));
            b.make_move(m);
            assert_real(b, "after a reply to a skip in check");
            assert!(
                b.attackers_to(b.king_square(!b.side_to_move()), b.side_to_move())
                    .is_empty()
            );
            nodes += perft_with_skips(b, depth - 1);
            b.undo_move();
        }
    } else {
        assert_real(b, "after a skip");
        nodes += perft_with_skips(b, depth - 1);
    }
    b.undo_skip_turn();
    assert_eq!(*b, before);
    nodes
}

#[test]
fn searches_that_skip_turns_anywhere_only_ever_reach_real_positions() {
    // Three plies where the tree is small, two where it is wide.
    let cases = [
        (CPW_POSITIONS[1], 2),
        (CPW_POSITIONS[2], 3),
        (CPW_POSITIONS[3], 2),
        (CPW_POSITIONS[4], 2),
        (IN_CHECK, 3),
    ];
    for (fen, depth) in cases {
        let mut b = board(fen);
        let before = b.clone();
        assert!(perft_with_skips(&mut b, depth) > 0);
        assert_eq!(b, before);
        // Ordinary perft is unchanged afterwards.
        assert_eq!(perft(&mut b, 2), perft(&mut before.clone(), 2));
    }
}

#[test]
fn a_clone_of_a_board_after_a_turn_skipped_in_check_plays_on_the_same() {
    let mut b = board("4k3/8/8/8/8/3n4/8/4K3 w - - 0 1");
    b.force_skip_turn();
    let mut copy = b.clone();
    play(&mut copy, "e8d8");
    play(&mut b, "e8d8");
    assert_eq!(copy, b);
    assert!(copy.is_in_check());
}

// ----- C#'s IsDraw -----

#[test]
fn the_search_root_is_no_repetition_as_in_csharp() {
    // C#'s Board removes the handed position's key from its repetition history: at the
    // root IsRepeatedPosition and IsDraw are false even if the game has been there.
    let mut b = Board::startpos();
    play(&mut b, "g1f3 g8f6 f3g1 f6g8");
    assert!(b.is_repeated_position() && b.is_search_draw());
    b.mark_search_root();
    assert!(!b.is_repeated_position() && !b.is_search_draw());
    // A clone, as a bot may make, keeps its root.
    assert!(!b.clone().is_repeated_position());
    // One ply on and back: the root again, still not a repetition.
    play(&mut b, "g1f3");
    b.undo_move();
    assert!(!b.is_repeated_position());
    // Positions the game has seen, reached by the search, are repetitions, and so is the
    // root when the search comes back to it.
    play(&mut b, "g1f3");
    assert!(b.is_repeated_position());
    play(&mut b, "g8f6 f3g1 f6g8");
    assert!(b.is_repeated_position() && b.is_search_draw());
    // The arbiter's threefold does not depend on the root.
    assert!(b.is_drawn());
}

#[test]
fn game_repetition_history_is_csharps() {
    // C#'s API Board takes `RepetitionPositionHistory.ToArray()` when it is made: a stack,
    // so newest first, the handed position's key at [0], back to the position after the
    // game's last pawn move or capture; the search's own moves never enter it.
    let mut b = Board::startpos();
    play(&mut b, "e2e4 g8f6 g1f3 f6g8");
    b.mark_search_root();
    let game = b.history_keys().to_vec();
    let expected: Vec<u64> = game[1..].iter().rev().copied().collect();
    play(&mut b, "b1c3 b8c6");
    assert_eq!(cs::game_repetition_history(&b).to_vec(), expected);
    // A capture restarts it: only the position after the capture remains.
    let mut b = Board::startpos();
    play(&mut b, "e2e4 d7d5 e4d5");
    b.mark_search_root();
    assert_eq!(cs::game_repetition_history(&b).to_vec(), vec![b.key()]);
    // No root marked: the game so far, the starting position included.
    let mut b = Board::startpos();
    play(&mut b, "g1f3");
    assert_eq!(
        cs::game_repetition_history(&b).to_vec(),
        vec![b.key(), Board::startpos().key()]
    );
}

#[test]
fn is_search_draw_is_csharps_is_draw_and_is_draw_the_arbiters() {
    // One repetition: C#'s IsDraw says draw, the arbiter plays on.
    let mut b = Board::startpos();
    play(&mut b, "g1f3 g8f6 f3g1 f6g8");
    assert!(b.is_search_draw());
    assert!(!b.is_drawn());
    play(&mut b, "g1f3 g8f6 f3g1 f6g8");
    assert!(b.is_search_draw() && b.is_drawn());
    // Fifty moves, insufficient material, stalemate: both agree.
    for fen in [
        "4k3/8/8/8/8/8/R7/4K3 w - - 100 80",
        "8/8/4k3/8/8/3NK3/8/8 w - - 0 1",
        "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",
    ] {
        let b = board(fen);
        assert!(b.is_search_draw() && b.is_drawn(), "{fen}");
    }
    // Checkmate on the hundredth half-move is no draw for either.
    let mate = board("7k/6Q1/6K1/8/8/8/8/8 b - - 100 80");
    assert!(!mate.is_drawn());
    assert!(mate.is_fifty_move_draw() && mate.is_search_draw());
    assert!(!Board::startpos().is_search_draw());
}

// ----- the game's starting position -----

#[test]
fn start_fen_is_the_position_before_every_move_of_the_history() {
    let fen = "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 12 40";
    let mut b = board(fen);
    play(&mut b, "e8g8 e1c1 f8f1");
    assert_eq!(b.start_fen(), fen);
    assert_eq!(Board::startpos().start_fen(), Board::startpos().fen());
}

// ----- a timer a bot can keep -----

#[test]
fn a_kept_timer_shares_the_stop_flag_and_the_node_count() {
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let timer = Timer::new(60_000, 60_000, 0).with_stop_flag(stop.clone());
    let kept = timer.clone();
    assert!(!kept.should_stop(60_000, 10));
    assert_eq!(timer.nodes_searched(), Some(10));
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    assert!(kept.should_stop(60_000, 0));
    assert_eq!(kept.ms_remaining(), 0);
    // The default a bot's struct starts with is a timer like any other.
    let default = Timer::default();
    assert_eq!(default.max_depth(), Timer::MAX_DEPTH);
    assert!(default.ms_remaining() <= Timer::UNTIMED_MS);
}

#[test]
fn is_pawn_to_is_king_name_the_type_on_pieces_and_lists() {
    let b = Board::startpos();
    for list in b.piece_lists() {
        let t = list.piece_type();
        let flags = [
            list.is_pawn(),
            list.is_knight(),
            list.is_bishop(),
            list.is_rook(),
            list.is_queen(),
            list.is_king(),
        ];
        assert_eq!(flags.iter().filter(|&&f| f).count(), 1, "{t:?}");
        assert!(flags[t.index()], "{t:?}");
        let p = list.piece();
        assert_eq!(
            [
                p.is_pawn(),
                p.is_knight(),
                p.is_bishop(),
                p.is_rook(),
                p.is_queen(),
                p.is_king()
            ],
            flags
        );
    }
}

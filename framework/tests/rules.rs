//! The rules the arbiter enforces and bots see, checked on concrete positions.

use framework::chess::perft::perft;
use framework::prelude::*;

mod common;
use common::{board, play};

fn uci_moves(b: &Board) -> Vec<String> {
    let mut v: Vec<String> = b.legal_moves().iter().map(|m| m.to_string()).collect();
    v.sort();
    v
}

// ----- mate and draws -----

#[test]
fn fools_mate_is_checkmate_for_black() {
    let mut b = Board::startpos();
    play(&mut b, "f2f3 e7e5 g2g4 d8h4");
    assert!(b.is_in_check());
    assert!(b.is_checkmate());
    assert!(!b.is_stalemate());
    assert!(b.legal_moves().is_empty());
    assert_eq!(b.draw_reason(), None);
    assert!(!b.is_drawn());
    assert_eq!(
        b.outcome(),
        Some(Outcome::Checkmate {
            winner: Color::Black
        })
    );
}

#[test]
fn stalemate_is_a_draw() {
    let b = board("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
    assert!(!b.is_in_check());
    assert!(b.is_stalemate());
    assert!(!b.is_checkmate());
    assert_eq!(b.draw_reason(), Some(DrawReason::Stalemate));
    assert_eq!(b.outcome(), Some(Outcome::Draw(DrawReason::Stalemate)));
}

#[test]
fn ongoing_game_has_no_outcome() {
    let b = Board::startpos();
    assert_eq!(b.outcome(), None);
    assert_eq!(b.draw_reason(), None);
    assert!(!b.is_drawn() && !b.is_checkmate() && !b.is_stalemate());
}

#[test]
fn threefold_repetition_is_ruled_at_the_third_occurrence() {
    let mut b = Board::startpos();
    assert!(!b.is_repeated_position());
    play(&mut b, "g1f3 g8f6 f3g1 f6g8");
    // Second occurrence: a search treats it as a draw, the arbiter does not yet.
    assert!(b.is_repeated_position());
    assert!(!b.is_threefold_repetition());
    assert_eq!(b.outcome(), None);
    play(&mut b, "g1f3");
    assert!(b.is_repeated_position()); // the position after 1.Nf3, again
    assert!(!b.is_threefold_repetition());
    play(&mut b, "g8f6 f3g1 f6g8");
    assert!(b.is_threefold_repetition());
    assert_eq!(b.draw_reason(), Some(DrawReason::Repetition));
    assert_eq!(b.outcome(), Some(Outcome::Draw(DrawReason::Repetition)));
    b.undo_move();
    assert_eq!(b.outcome(), None);
}

#[test]
fn repetition_starts_afresh_after_a_pawn_move() {
    let mut b = Board::startpos();
    play(&mut b, "g1f3 g8f6 f3g1 f6g8 e2e3");
    assert!(!b.is_repeated_position());
    play(&mut b, "g8f6 g1f3 f6g8");
    assert!(!b.is_repeated_position());
    play(&mut b, "f3g1");
    assert!(b.is_repeated_position());
    assert!(!b.is_threefold_repetition());
}

#[test]
fn lost_castling_rights_make_a_different_position() {
    let mut b = board("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    let start = b.key();
    play(&mut b, "e1f1 e8f8 f1e1 f8e8");
    // Same placement and side to move, but nobody may castle any more.
    assert_ne!(b.key(), start);
    assert!(!b.is_repeated_position());
    play(&mut b, "e1f1 e8f8 f1e1 f8e8");
    assert!(b.is_repeated_position());
}

#[test]
fn repetition_counts_moves_played_before_the_bot_got_the_board() {
    let mut host = Board::startpos();
    play(&mut host, "g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1");
    let mut bot = host.clone();
    assert_eq!(bot.history_moves().len(), 7);
    assert_eq!(bot.history_keys(), host.history_keys());
    play(&mut bot, "f6g8");
    assert!(bot.is_threefold_repetition());
    assert_eq!(bot.ply_count(), 8);
}

#[test]
fn fifty_move_rule() {
    let mut b = board("4k3/8/8/8/8/8/8/R3K3 w - - 99 80");
    assert!(!b.is_fifty_move_draw());
    play(&mut b, "a1a2");
    assert_eq!(b.fifty_move_counter(), 100);
    assert!(b.is_fifty_move_draw());
    assert_eq!(b.outcome(), Some(Outcome::Draw(DrawReason::FiftyMove)));
    b.undo_move();
    assert_eq!(b.fifty_move_counter(), 99);
    // A capture or pawn move resets the counter.
    let mut b = board("4k3/8/8/8/8/8/4P3/R3K3 w - - 99 80");
    play(&mut b, "e2e3");
    assert_eq!(b.fifty_move_counter(), 0);
}

#[test]
fn mate_on_the_hundredth_half_move_wins() {
    let mut b = board("7k/8/6K1/8/8/8/8/R7 w - - 99 80");
    play(&mut b, "a1a8");
    assert!(b.is_fifty_move_draw());
    assert!(b.is_checkmate());
    assert_eq!(b.draw_reason(), None);
    assert_eq!(
        b.outcome(),
        Some(Outcome::Checkmate {
            winner: Color::White
        })
    );
}

#[test]
fn fifty_move_counter_is_not_capped_at_100() {
    let mut b = board("4k3/8/8/8/8/8/8/R3K3 w - - 120 80");
    assert_eq!(b.fifty_move_counter(), 120);
    play(&mut b, "a1a2");
    assert_eq!(b.fifty_move_counter(), 121);
    assert!(b.fen().ends_with(" 121 80"));
}

#[test]
fn fifty_move_counter_counts_past_100_through_moves_skips_and_undo() {
    let mut b = board("4k3/8/8/8/8/8/4P3/R3K3 w - - 97 80");
    play(&mut b, "a1a2 e8d8 a2a1 d8e8");
    assert_eq!(b.fifty_move_counter(), 101);
    assert!(b.skip_turn());
    assert_eq!(b.fifty_move_counter(), 102);
    assert!(b.fen().ends_with(" 102 82"));
    assert!(b.skip_turn());
    play(&mut b, "a1b1 e8d8");
    assert_eq!(b.fifty_move_counter(), 105);
    b.undo_move();
    b.undo_move();
    b.undo_skip_turn();
    assert_eq!(b.fifty_move_counter(), 102);
    b.undo_skip_turn();
    b.undo_move();
    b.undo_move();
    assert_eq!(b.fifty_move_counter(), 99);
    assert!(!b.is_fifty_move_draw());
    // A pawn move resets it even past 100, and counting starts again from there.
    play(&mut b, "a2a1 d8e8 e2e3");
    assert_eq!(b.fifty_move_counter(), 0);
    play(&mut b, "e8d8");
    assert_eq!(b.fifty_move_counter(), 1);
    // A capture resets it as well, long after the starting FEN's clock.
    let mut b = board("4k3/8/8/8/8/8/r7/R3K3 w - - 150 80");
    play(&mut b, "e1d1 e8d8 d1e1");
    assert_eq!(b.fifty_move_counter(), 153);
    play(&mut b, "a2a1");
    assert_eq!(b.fifty_move_counter(), 0);
    b.undo_move();
    assert_eq!(b.fifty_move_counter(), 153);
}

#[test]
fn repetition_is_seen_past_the_hundredth_half_move() {
    let mut b = board("4k3/8/8/8/8/8/8/R3K3 w - - 100 80");
    play(&mut b, "a1a2 e8d8 a2a1 d8e8");
    assert_eq!(b.fifty_move_counter(), 104);
    assert!(b.is_repeated_position());
    play(&mut b, "a1a2 e8d8 a2a1 d8e8");
    assert!(b.is_threefold_repetition());
}

#[test]
fn history_and_repetition_survive_many_make_undo_cycles() {
    let mut host = Board::startpos();
    play(&mut host, "g1f3 g8f6 f3g1 f6g8 g1f3");
    let mut bot = host.clone();
    let keys = bot.history_keys().to_vec();
    let moves = bot.history_moves().to_vec();
    // A search's worth of make/undo, deeper than the clone's reserve so the stacks grow.
    let leaves = perft(&mut board(&bot.fen()), 3);
    for _ in 0..3 {
        let shuffle = "g8f6 f3g1 f6g8 g1f3 ".repeat(75);
        play(&mut bot, &shuffle);
        assert!(bot.is_threefold_repetition());
        for _ in 0..300 {
            bot.undo_move();
        }
        assert_eq!(perft(&mut bot, 3), leaves);
    }
    assert_eq!(bot.history_keys(), &keys[..]);
    assert_eq!(bot.history_moves(), &moves[..]);
    assert_eq!(bot, host);
    play(&mut bot, "g8f6");
    assert!(bot.is_repeated_position() && !bot.is_threefold_repetition());
    play(&mut bot, "f3g1 f6g8");
    assert!(bot.is_threefold_repetition());
}

#[test]
fn a_bot_can_undo_the_moves_played_before_it_got_the_board() {
    let mut host = Board::startpos();
    play(&mut host, "e2e4 c7c5 e4e5 d7d5");
    let mut bot = host.clone();
    assert!(bot.parse_uci("e5d6").unwrap().is_en_passant());
    let with_ep = bot.key();
    for _ in 0..4 {
        bot.undo_move();
    }
    assert_eq!(bot, Board::startpos());
    assert_eq!(bot.history_keys(), &host.history_keys()[..1]);
    play(&mut bot, "e2e4 c7c5 e4e5 d7d5");
    assert_eq!(bot.key(), with_ep);
    assert_eq!(bot.history_keys(), host.history_keys());
    assert_eq!(bot.history_moves(), host.history_moves());
}

#[test]
fn en_passant_keys_are_restored_by_undo() {
    // White can take e.p. on d6 here, so the key includes the e.p. file.
    let mut b = board("4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1");
    play(&mut b, "d7d5");
    let key = b.key();
    let keys = b.history_keys().to_vec();
    assert_ne!(key, board("4k3/8/8/3pP3/8/8/8/4K3 w - - 0 2").key());
    let fresh = board(&b.fen());
    assert_eq!(fresh.key(), key);
    // The search below plays the e.p. capture and every other move, and takes them back.
    assert_eq!(perft(&mut b, 3), perft(&mut fresh.clone(), 3));
    assert_eq!(b.key(), key);
    assert_eq!(b.history_keys(), &keys[..]);
    b.undo_move();
    play(&mut b, "d7d5");
    assert_eq!(b.key(), key);
}

#[test]
fn insufficient_material() {
    let drawn = [
        "8/8/4k3/8/8/4K3/8/8 w - - 0 1",    // K v K
        "8/8/4k3/8/8/3NK3/8/8 w - - 0 1",   // K+N v K
        "8/8/4k3/8/8/3BK3/8/8 w - - 0 1",   // K+B v K
        "8/8/2b1k3/8/8/3BK3/8/8 w - - 0 1", // c6 and d3 are both light
        "8/8/4kn2/8/8/4K3/8/8 b - - 0 1",   // K v K+N
    ];
    for fen in drawn {
        let b = board(fen);
        assert!(b.is_insufficient_material(), "{fen}");
        assert_eq!(
            b.outcome(),
            Some(Outcome::Draw(DrawReason::InsufficientMaterial)),
            "{fen}"
        );
    }
    let playable = [
        "8/8/3bk3/8/8/3BK3/8/8 w - - 0 1", // opposite-coloured bishops
        "8/8/4k3/8/8/2NNK3/8/8 w - - 0 1", // two knights
        "8/8/4kn2/8/8/3BK3/8/8 w - - 0 1", // bishop v knight
        "8/8/4k3/8/8/4K3/4P3/8 w - - 0 1", // a pawn
        "8/8/4k3/8/8/4K3/8/7R w - - 0 1",  // a rook
        "8/8/4k3/8/8/2BBK3/8/8 w - - 0 1", // two bishops
    ];
    for fen in playable {
        let b = board(fen);
        assert!(!b.is_insufficient_material(), "{fen}");
        assert_eq!(b.outcome(), None, "{fen}");
    }
}

// ----- special moves -----

#[test]
fn en_passant_capture() {
    let mut b = board("4k3/8/8/3Pp3/8/8/8/4K3 w - e6 0 1");
    let mv = b.parse_uci("d5e6").unwrap();
    assert!(mv.is_en_passant());
    assert!(mv.is_capture());
    assert_eq!(mv.captured(), Some(PieceType::Pawn));
    assert!(b.captures().contains(&mv));
    b.make_move(mv);
    assert_eq!(b.piece_at(Square::E5), None);
    assert_eq!(
        b.piece_at(Square::E6),
        Some(Piece::new(PieceType::Pawn, Color::White))
    );
    assert_eq!(b.fifty_move_counter(), 0);
    b.undo_move();
    assert_eq!(b.fen(), "4k3/8/8/3Pp3/8/8/8/4K3 w - e6 0 1");
}

#[test]
fn en_passant_that_would_expose_the_king_is_illegal() {
    // Taking on c6 would empty the fifth rank between the a5 king and the h5 rook.
    let b = board("8/8/8/KPp4r/8/8/8/7k w - c6 0 1");
    assert!(matches!(b.parse_uci("b5c6"), Err(MoveError::Illegal(_))));
    assert!(!uci_moves(&b).contains(&"b5c6".to_string()));
    assert!(b.captures().is_empty());
    // No legal en-passant capture: the key ignores the e.p. square.
    assert_eq!(b.key(), board("8/8/8/KPp4r/8/8/8/7k w - - 0 1").key());
}

#[test]
fn en_passant_key_only_counts_when_a_capture_is_legal() {
    // After 1.Nf3 Nf6 2.e4 no black pawn can take on e3.
    let mut by_double_push = Board::startpos();
    play(&mut by_double_push, "g1f3 g8f6 e2e4");
    assert_eq!(by_double_push.en_passant_square(), Some(Square::E3));
    // The same position reached with a single push from e3.
    let mut by_single_push = board("rnbqkb1r/pppppppp/5n2/8/8/4PN2/PPPP1PPP/RNBQKB1R w KQkq - 1 3");
    play(&mut by_single_push, "e3e4");
    assert_eq!(by_single_push.en_passant_square(), None);
    assert_eq!(by_double_push.key(), by_single_push.key());

    // When the capture is legal the positions differ.
    let mut with_ep = board("4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1");
    play(&mut with_ep, "d7d5");
    assert!(with_ep.parse_uci("e5d6").unwrap().is_en_passant());
    assert_ne!(
        with_ep.key(),
        board("4k3/8/8/3pP3/8/8/8/4K3 w - - 0 2").key()
    );
    assert_eq!(
        with_ep.key(),
        board("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2").key()
    );
}

#[test]
fn captures_only_never_includes_a_quiet_move_to_the_en_passant_square() {
    // Regression: the e.p. square was a capture target for every piece, so ...Bxh3 style
    // quiet moves onto it (here Bg4-h3) were listed as captures.
    let b = board("r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1bP/P1NP1N2/1PP1QPP1/R4RK1 b - h3 0 10");
    let caps = b.captures();
    assert!(caps.iter().all(|m| m.is_capture()), "{caps:?}");
    assert!(!caps.iter().any(|m| m.to() == Square::H3));
}

#[test]
fn castling_uses_king_destination_and_accepts_king_takes_rook() {
    let mut b = board("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    let short = b.parse_uci("e1g1").unwrap();
    assert!(short.is_castle() && !short.is_capture());
    assert_eq!(short.to(), Square::G1);
    assert_eq!(short.to_string(), "e1g1");
    assert_eq!(b.parse_uci("e1h1"), Ok(short));
    assert_eq!(b.parse_uci("e1a1"), b.parse_uci("e1c1"));
    assert!(uci_moves(&b).contains(&"e1c1".to_string()));
    b.make_move(short);
    assert_eq!(
        b.piece_at(Square::G1),
        Some(Piece::new(PieceType::King, Color::White))
    );
    assert_eq!(
        b.piece_at(Square::F1),
        Some(Piece::new(PieceType::Rook, Color::White))
    );
    assert!(
        !b.has_kingside_castle_right(Color::White) && !b.has_queenside_castle_right(Color::White)
    );
    assert!(
        b.has_kingside_castle_right(Color::Black) && b.has_queenside_castle_right(Color::Black)
    );
    play(&mut b, "e8c8");
    assert_eq!(
        b.piece_at(Square::D8),
        Some(Piece::new(PieceType::Rook, Color::Black))
    );
    assert_eq!(b.fen(), "2kr3r/8/8/8/8/8/8/R4RK1 w - - 2 2");
    b.undo_move();
    b.undo_move();
    assert_eq!(b.fen(), "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
}

#[test]
fn no_castling_out_of_through_or_into_check() {
    let cases = [
        ("4r1k1/8/8/8/8/8/8/4K2R w K - 0 1", "out of check"),
        ("4kr2/8/8/8/8/8/8/4K2R w K - 0 1", "through f1"),
        ("4k1r1/8/8/8/8/8/8/4K2R w K - 0 1", "into g1"),
    ];
    for (fen, why) in cases {
        let b = board(fen);
        assert!(b.has_kingside_castle_right(Color::White));
        assert!(
            matches!(b.parse_uci("e1g1"), Err(MoveError::Illegal(_))),
            "{why}"
        );
        assert!(
            matches!(b.parse_uci("e1h1"), Err(MoveError::Illegal(_))),
            "{why}"
        );
        assert!(!b.legal_moves().iter().any(|m| m.is_castle()), "{why}");
    }
    // b1 may be attacked: only the king's path must be safe.
    let b = board("1r2k3/8/8/8/8/8/8/R3K3 w Q - 0 1");
    assert!(b.parse_uci("e1c1").unwrap().is_castle());
    // A piece between king and rook blocks castling.
    let b = board("4k3/8/8/8/8/8/8/RN2K3 w Q - 0 1");
    assert!(b.parse_uci("e1c1").is_err());
}

#[test]
fn moving_or_losing_a_rook_removes_that_castling_right() {
    let mut b = board("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    play(&mut b, "h1h8");
    assert!(!b.has_kingside_castle_right(Color::White));
    assert!(b.has_queenside_castle_right(Color::White));
    assert!(!b.has_kingside_castle_right(Color::Black));
    assert!(b.has_queenside_castle_right(Color::Black));
}

#[test]
fn underpromotion_and_capture_promotion() {
    let mut b = board("r3k3/1P6/8/8/8/8/8/4K3 w q - 0 1");
    let promos: Vec<Move> = b
        .legal_moves()
        .iter()
        .copied()
        .filter(|m| m.is_promotion())
        .collect();
    assert_eq!(promos.len(), 8);
    let caps = b.captures();
    assert_eq!(caps.len(), 4, "only the capturing promotions: {caps:?}");
    assert!(
        caps.iter()
            .all(|m| m.to() == Square::A8 && m.captured() == Some(PieceType::Rook))
    );

    let knight = b.parse_uci("b7b8n").unwrap();
    assert_eq!(knight.promotion(), Some(PieceType::Knight));
    assert_eq!(knight.piece(), PieceType::Pawn);
    assert!(!knight.is_capture());
    assert_eq!(knight.to_string(), "b7b8n");
    b.make_move(knight);
    assert_eq!(
        b.piece_at(Square::B8),
        Some(Piece::new(PieceType::Knight, Color::White))
    );
    b.undo_move();
    // White to move and promotions from b7 legal, yet one without a piece letter is none.
    assert_eq!(b.side_to_move(), Color::White);
    assert!(matches!(b.parse_uci("b7b8"), Err(MoveError::Illegal(_))));

    play(&mut b, "b7a8r");
    assert_eq!(
        b.piece_at(Square::A8),
        Some(Piece::new(PieceType::Rook, Color::White))
    );
    assert!(!b.has_queenside_castle_right(Color::Black));
    assert!(b.is_in_check());
    // The promotion passed the move to Black and took the pawn off b7: no move from b7 is
    // left, with a piece letter or without, and Black's king must step off the eighth rank.
    assert_eq!(b.side_to_move(), Color::Black);
    assert_eq!(b.piece_at(Square::B7), None);
    for gone in ["b7b8", "b7b8q", "b7a8q"] {
        assert!(
            matches!(b.parse_uci(gone), Err(MoveError::Illegal(_))),
            "{gone}"
        );
    }
    let mut escapes: Vec<String> = b.legal_moves().iter().map(ToString::to_string).collect();
    escapes.sort_unstable();
    assert_eq!(escapes, ["e8d7", "e8e7", "e8f7"]);
}

#[test]
fn promotion_needs_a_piece_letter() {
    let b = board("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1");
    assert!(matches!(b.parse_uci("b7b8"), Err(MoveError::Illegal(_))));
    assert!(matches!(b.parse_uci("b7b8k"), Err(MoveError::Syntax(_))));
    assert!(matches!(b.parse_uci("e1e2q"), Err(MoveError::Illegal(_))));
}

// ----- null moves -----

#[test]
fn skip_turn_is_refused_in_check() {
    let mut b = board("4k3/8/8/8/8/8/8/4K2r w - - 0 1");
    let before = b.clone();
    assert!(b.is_in_check());
    assert!(!b.skip_turn());
    assert_eq!(b, before);
}

#[test]
fn skip_turn_passes_and_undoes() {
    let mut b = Board::startpos();
    play(&mut b, "e2e4");
    let before = b.clone();
    assert!(b.skip_turn());
    assert_eq!(b.side_to_move(), Color::White);
    assert_eq!(b.history_moves().last(), Some(&Move::NULL));
    assert_eq!(b.en_passant_square(), None);
    assert_eq!(b.ply_count(), 2);
    assert_ne!(b.key(), before.key());
    b.undo_skip_turn();
    assert_eq!(b, before);
    // Two passes return to the same position, which search sees as a repetition.
    assert!(b.skip_turn() && b.skip_turn());
    assert_eq!(b.key(), before.key());
    assert!(b.is_repeated_position());
    b.undo_move();
    b.undo_move();
    assert_eq!(b, before);
}

// ----- counters and queries -----

#[test]
fn ply_count_includes_moves_before_the_fen() {
    let mut b = board("4k3/8/8/8/8/8/8/4K3 b - - 0 10");
    assert_eq!(b.ply_count(), 19);
    assert_eq!(b.fullmove_number(), 10);
    play(&mut b, "e8e7");
    assert_eq!(b.ply_count(), 20);
    assert_eq!(b.fullmove_number(), 11);
    assert_eq!(Board::startpos().ply_count(), 0);
}

#[test]
fn square_attack_queries() {
    let b = board("4k3/8/8/8/3q4/8/8/4K3 w - - 0 1");
    assert!(b.is_square_attacked(Square::D1));
    assert!(b.is_square_attacked(Square::H8));
    assert!(!b.is_square_attacked(Square::E2));
    assert!(b.is_attacked_by(Square::E2, Color::White));
    assert!(!b.is_attacked_by(Square::E3, Color::White));
    assert_eq!(
        b.attackers_to(Square::A1, Color::Black),
        Square::D4.bitboard()
    );
    assert_eq!(b.king_square(Color::White), Square::E1);
    assert_eq!(
        b.pieces(PieceType::Queen, Color::Black),
        Square::D4.bitboard()
    );
    assert_eq!(b.occupied().count(), 3);
    assert_eq!(b.white() | b.black(), b.occupied());
}

#[test]
fn stale_moves_are_not_legal() {
    let start = Board::startpos();
    let mut b = start.clone();
    play(&mut b, "e2e4 d7d5");
    let capture = b.parse_uci("e4d5").unwrap();
    // Same squares, wrong capture information.
    let fake = Move::new(
        Square::E4,
        Square::D5,
        PieceType::Pawn,
        None,
        None,
        false,
        false,
    );
    assert!(b.is_legal(capture));
    assert!(!b.is_legal(fake));
    assert!(b.try_make_move(fake).is_err());
    assert!(!start.is_legal(capture));
    assert!(!b.is_legal(Move::NULL));
}

// ----- FEN errors -----

#[test]
fn malformed_fen_errors_name_the_field() {
    use FenError::*;
    let err = |fen: &str| Board::from_fen(fen).unwrap_err();
    assert!(matches!(err(""), FieldCount(0)));
    assert!(matches!(
        err("8/8/8/8/8/8/8/K6k w - - 0 1 extra"),
        FieldCount(7)
    ));
    assert!(matches!(err("8/8/8/8/8/8/K6k w - - 0 1"), Placement(_)));
    assert!(matches!(err("8/8/8/8/8/8/8/K6kx w - - 0 1"), Placement(_)));
    assert!(matches!(err("8/8/8/8/8/8/8/K7k w - - 0 1"), Placement(_)));
    assert!(matches!(err("8/8/8/8/8/8/8/K5k w - - 0 1"), Placement(_)));
    assert!(matches!(err("8/8/8/8/8/8/8/K6k x - - 0 1"), SideToMove(_)));
    assert!(matches!(err("8/8/8/8/8/8/8/K6k w Kx - 0 1"), Castling(_)));
    assert!(matches!(err("4k3/8/8/8/8/8/8/4K3 w K - 0 1"), Castling(_)));
    assert!(matches!(
        err("r3k2r/8/8/8/8/8/8/R3K2R w KK - 0 1"),
        Castling(_)
    ));
    assert!(matches!(
        err("4k3/8/8/8/8/8/8/4K3 w - e9 0 1"),
        EnPassant(_)
    ));
    assert!(matches!(
        err("4k3/8/8/8/4P3/8/8/4K3 w - e3 0 1"),
        EnPassant(_)
    ));
    assert!(matches!(
        err("4k3/8/8/8/8/8/8/4K3 w - d6 0 1"),
        EnPassant(_)
    ));
    assert!(matches!(
        err("4k3/8/8/8/8/8/8/4K3 w - - -1 1"),
        HalfmoveClock(_)
    ));
    assert!(matches!(
        err("4k3/8/8/8/8/8/8/4K3 w - - x 1"),
        HalfmoveClock(_)
    ));
    assert!(matches!(
        err("4k3/8/8/8/8/8/8/4K3 w - - 0 0"),
        FullmoveNumber(_)
    ));
    assert!(matches!(
        err("4k3/8/8/8/8/8/8/4K3 w - - 0 x"),
        FullmoveNumber(_)
    ));
    assert!(matches!(
        err("8/8/8/8/8/8/8/4K3 w - - 0 1"),
        InvalidPosition(_)
    ));
    assert!(matches!(
        err("4k3/8/8/8/8/8/8/3KK3 w - - 0 1"),
        InvalidPosition(_)
    ));
    assert!(matches!(
        err("4k3/8/8/8/8/8/8/4K2r b - - 0 1"),
        InvalidPosition(_)
    ));
    assert!(matches!(
        err("4k3/8/8/8/8/8/8/P3K3 w - - 0 1"),
        InvalidPosition(_)
    ));

    let msg = |fen: &str| err(fen).to_string();
    assert!(msg("8/8/8/8/8/8/8/K6k w Kx - 0 1").contains("castling"));
    assert!(msg("8/8/8/8/8/8/8/K6k w - e9 0 1").contains("en passant"));
    assert!(msg("8/8/8/8/8/8/8/K6k w - - x 1").contains("halfmove"));
    assert!(msg("8/8/8/8/8/8/8/K6k w - - 0 x").contains("fullmove"));
    assert!(msg("8/8/8/8/8/8/8/K6k x - - 0 1").contains("side to move"));
    assert!(msg("8/8/8/8/8/8/8/K6z w - - 0 1").contains("placement"));
    assert!(msg("4k3/8/8/8/8/8/8/4K2r b - - 0 1").contains("in check"));
}

#[test]
fn fen_defaults_and_round_trip() {
    let b = board("4k3/8/8/8/8/8/8/4K3 w - -");
    assert_eq!(b.fen(), "4k3/8/8/8/8/8/8/4K3 w - - 0 1");
    let fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    assert_eq!(board(fen).fen(), fen);
    assert_eq!(fen.parse::<Board>().unwrap().fen(), fen);
    assert_eq!(
        Board::default().fen(),
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    );
}

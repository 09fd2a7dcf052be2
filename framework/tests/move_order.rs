//! The kit's legal moves are cozy-chess's, in cozy's order: bots see the order
//! (`legal_moves()[0]`), so the kit's own generator must give exactly the list that
//! cozy's `generate_moves` gives, piece by piece, with each piece's moves in the kit's
//! documented order (promotions or castlings first, then captures, then quiet moves).
//!
//! The reference here is built from cozy's generator and `Board::parse_uci` alone, over
//! every position of the perft suite and of random games from them. The same games check
//! that the key counts an en-passant square exactly when cozy generates the capture.

use cozy_chess as cz;
use framework::prelude::*;

/// The kit's list as cozy's generator defines it: cozy's per-piece move sets in cozy's
/// order, each converted with `parse_uci` (which reads cozy's king-takes-rook castling)
/// and ordered within the piece.
fn reference(board: &Board) -> Vec<Move> {
    let raw: cz::Board = board.fen().parse().expect("cozy reads the kit's FEN");
    let mut list = Vec::new();
    raw.generate_moves(|piece_moves| {
        let mut moves: Vec<(u8, usize, usize, Move)> = piece_moves
            .into_iter()
            .map(|mv| {
                let kit = board
                    .parse_uci(&mv.to_string())
                    .expect("cozy's move is legal");
                let class = if kit.is_promotion() || kit.is_castle() || kit.is_en_passant() {
                    0
                } else if kit.is_capture() {
                    1
                } else {
                    2
                };
                let promotion = [
                    Some(PieceType::Queen),
                    Some(PieceType::Rook),
                    Some(PieceType::Bishop),
                    Some(PieceType::Knight),
                    None,
                ]
                .iter()
                .position(|&p| p == kit.promotion())
                .unwrap();
                // cozy's destination: the rook's square for castling.
                (class, mv.to as usize, promotion, kit)
            })
            .collect();
        moves.sort_unstable_by_key(|&(class, to, promotion, _)| (class, to, promotion));
        list.extend(moves.into_iter().map(|(_, _, _, mv)| mv));
        false
    });
    list
}

/// Checks `board`'s moves and captures against the reference.
fn check(board: &Board) {
    let expected = reference(board);
    assert_eq!(board.legal_moves().as_slice(), expected, "{}", board.fen());
    let captures: Vec<Move> = expected.into_iter().filter(|m| m.is_capture()).collect();
    assert_eq!(
        board.captures().as_slice(),
        captures,
        "captures of {}",
        board.fen()
    );
    let mut reused = board.legal_moves();
    board.legal_moves_into(&mut reused, true);
    assert_eq!(reused.as_slice(), captures, "reused list, {}", board.fen());
}

/// A small deterministic generator (xorshift), so failures repeat.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

/// `board`'s key counts its en-passant square exactly when cozy generates an en-passant
/// capture there (FIDE's rule for repetition, which the key follows).
fn check_key(board: &Board) {
    let fen = board.fen();
    let fields: Vec<&str> = fen.split(' ').collect();
    if fields[3] == "-" {
        return;
    }
    let raw: cz::Board = fen.parse().unwrap();
    let mut capture = false;
    raw.generate_moves(|moves| {
        capture |= moves.piece == cz::Piece::Pawn
            && moves
                .into_iter()
                .any(|mv| raw.piece_on(mv.to).is_none() && mv.from.file() != mv.to.file());
        false
    });
    let without = [&fields[..3], &["-"], &fields[4..]].concat().join(" ");
    let plain = Board::from_fen(&without).unwrap();
    assert_eq!(board.key() != plain.key(), capture, "{fen}");
}

/// Every position of a random game of up to `plies` from `board`.
fn random_game(mut board: Board, plies: usize, rng: &mut Rng) -> usize {
    let mut checked = 0;
    for _ in 0..plies {
        check(&board);
        check_key(&board);
        checked += 1;
        let moves = board.legal_moves();
        if moves.is_empty() || board.fifty_move_counter() >= 100 {
            break;
        }
        board.make_move(moves[rng.below(moves.len())]);
    }
    checked
}

#[test]
fn the_order_is_cozys_over_the_perft_suite_and_random_games() {
    let data = include_str!("data/perftsuite.epd");
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut positions = 0;
    for line in data.lines().filter(|l| !l.trim().is_empty()) {
        let fen = line.split(';').next().unwrap().trim();
        let board = Board::from_fen(fen).unwrap();
        for _ in 0..8 {
            positions += random_game(board.clone(), 120, &mut rng);
        }
    }
    assert!(positions > 50_000, "{positions} positions");
}

#[test]
fn the_order_is_cozys_in_checks_pins_en_passant_promotions_and_castling() {
    for fen in [
        // Castling both ways, pins, en passant discovered along the rank.
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "8/8/8/K2pP2r/8/8/8/7k w - d6 0 2",
        // Promotions, with and without capture, under check.
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        // Check by a pawn that en passant takes; double check.
        "8/8/8/2k5/3Pp3/8/8/4K3 b - d3 0 1",
        "4k3/8/8/8/8/8/3n1r2/4K3 w - - 0 1",
        // A pinned pawn and a pinned queen that may move along their pins.
        "4k3/4r3/8/8/8/4P3/4Q3/4K3 w - - 0 1",
        "4k3/8/8/1b6/8/3P4/8/5K2 w - - 0 1",
    ] {
        check(&Board::from_fen(fen).unwrap());
    }
}

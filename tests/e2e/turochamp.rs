//! The two Turochamp bots: Turing's position-play terms on hand-checked positions, the
//! material ratio, the considerable-move rule, their choices, and whole games of legal moves.
//!
//! The hand computations are written next to each expected value, in tenths of a pawn.

// Tests read as scripts of one scenario each; length is not a smell here.
#![allow(clippy::too_many_lines)]

#[path = "../../bot/turochamp_faithful.rs"]
mod faithful;
#[path = "../../bot/turochamp_modern.rs"]
mod modern;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use framework::prelude::*;

fn board(fen: &str) -> Board {
    Board::from_fen(fen).unwrap()
}

fn play(b: &mut Board, uci: &str) -> Move {
    let m = b.parse_uci(uci).unwrap();
    b.make_move(m);
    m
}

/// The faithful position play of the side that played `uci` from `fen`.
fn pp_after(fen: &str, uci: &str) -> i32 {
    let mut b = board(fen);
    let m = play(&mut b, uci);
    faithful::pp(&mut b, m)
}

/// White's position play in the starting position (the turn handed to Black so that White
/// is the side being scored).
fn pp_startpos() -> i32 {
    let mut b = Board::startpos();
    assert!(b.skip_turn());
    faithful::pp(&mut b, Move::NULL)
}

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

#[test]
fn startpos_position_play_is_hand_checked() {
    // Knights 1.4 + 1.4 (a3, c3 / f3, h3); N, N, B, B each defended once: 4.0; castling
    // still possible: 1.0; all eight pawns defended by a piece: 2.4. Total 10.2.
    assert_eq!(pp_startpos(), 102);
}

#[test]
fn turing_own_accounting_e4_gains_4_2_and_e3_gains_4_4() {
    let base = pp_startpos();
    assert_eq!(pp_after(START, "e2e4") - base, 42);
    assert_eq!(pp_after(START, "e2e3") - base, 44);
}

#[test]
fn faithful_opens_with_e3_like_the_2012_reconstruction() {
    let mut b = Board::startpos();
    let m = faithful::MyBot.think(b.clone(), Timer::new(1000, 1000, 0));
    assert_eq!(m.to_string(), "e2e3");
    assert_eq!(b, Board::startpos(), "the board is left as found");
    // The same at Turing's own two plies.
    assert_eq!(faithful::choose(&mut b, 2).to_string(), "e2e3");
}

#[test]
fn mate_threat_scores_one() {
    // White (just moved) threatens Ra8#. Ra1: 7 + 5 moves, sqrt 12 = 3.5; Kg1: f1 h1 f2 g2
    // h2, sqrt 5 = 2.2; a queen on g1: b1-f1 5, h1, g2-g6 5 + g7 taken (2), f2-a7 6, h2:
    // 20, sqrt 4.5 deducted; threat of mate +1.0. 3.5 + 2.2 - 4.5 + 1.0 = 2.2.
    let mut b = board("7k/6pp/8/8/8/8/8/R5K1 b - - 0 1");
    assert_eq!(faithful::pp(&mut b, Move::NULL), 22);
    // With luft on h6 the rook check is no mate: the same figures without the 1.0.
    let mut b = board("7k/6p1/7p/8/8/8/8/R5K1 b - - 0 1");
    assert_eq!(faithful::pp(&mut b, Move::NULL), 12);
}

#[test]
fn castling_credits() {
    // Rh1: g1 f1 + h2-h8, sqrt 9 = 3.0, undefended; Ke1: five free squares, 2.2; a queen on
    // e1 sees 20 squares, 4.5 deducted; castling right +1.0; castling legal next move +1.0.
    let mut b = board("k7/8/8/8/8/8/8/4K2R b K - 0 1");
    assert_eq!(faithful::pp(&mut b, Move::NULL), 27);
    // No right, so neither credit.
    let mut b = board("k7/8/8/8/8/8/8/4K2R b - - 0 1");
    assert_eq!(faithful::pp(&mut b, Move::NULL), 7);
    // Castling now scores all three credits, 3.0 (the right is gone, so only that way). Rf1:
    // a1-e1 5 + f2-f8 7, sqrt 12 = 3.5, defended by the king +1.0; Kg1: f2 g2 h2 h1, 2.0;
    // queen on g1: h1, g2-g8 7, f2-a7 6, h2 = 15, 3.9 deducted. 3.0 + 3.5 + 1.0 + 2.0 - 3.9.
    assert_eq!(pp_after("4k3/8/8/8/8/8/8/4K2R w K - 0 1", "e1g1"), 56);
    // Castling long: the same three credits. Rd1: d2-d8 7 + e1-h1 4, sqrt 11 = 3.3, defended
    // by the king +1.0; Kc1: b1 b2 c2 d2, 2.0; a queen on c1: a1 b1, c2-c8 7, b2 a3, d2-h6 5
    // = 16, 4.0 deducted. 3.0 + 3.3 + 1.0 + 2.0 - 4.0 = 5.3.
    assert_eq!(pp_after("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1", "e1c1"), 53);
}

#[test]
fn castling_next_move_is_judged_on_the_board_a_check_notwithstanding() {
    // Be2+ checks the king on g4 and clears f1: White could castle on its next move, and the
    // check it gave does not stop that. With the right: +1.0 right, +1.0 next move; without it
    // neither; the rest of the position is the same.
    let with = pp_after("8/8/8/8/6k1/8/8/4KB1R w K - 0 1", "f1e2");
    let without = pp_after("8/8/8/8/6k1/8/8/4KB1R w - - 0 1", "f1e2");
    assert_eq!(with - without, 20);
    // An attacked square on the king's path forbids it: a black rook on f8 sees f1.
    let with = pp_after("5r2/8/8/8/6k1/8/8/4KB1R w K - 0 1", "f1e2");
    let without = pp_after("5r2/8/8/8/6k1/8/8/4KB1R w - - 0 1", "f1e2");
    assert_eq!(with - without, 10);
}

#[test]
fn a_check_scores_half() {
    // Rh8+: b8-g8 6 (the king on a8 is no move) + h1-h7 7, sqrt 13 = 3.6; Ke1 2.2; queen on
    // e1: 21 squares, 4.6 deducted; the right went with the rook; check +0.5 = 1.7.
    assert_eq!(pp_after("k7/8/8/8/8/8/8/4K2R w K - 0 1", "h1h8"), 17);
    // Rh7 instead: h8 + a7-g7 7 + h1-h6 6, sqrt 14 = 3.7; no mate threat (Rh8+ Kb7): 1.3.
    assert_eq!(pp_after("k7/8/8/8/8/8/8/4K2R w K - 0 1", "h1h7"), 13);
}

#[test]
fn pawn_advance_and_defence_by_a_piece() {
    // Pawn e4: +0.4, undefended; pawn d2, defended by the king: +0.3; pawn h7: +1.0,
    // undefended. Ke1: d1 f1 e2 f2 free (d2 own), sqrt 4 = 2.0; a queen on e1: a1-d1 4,
    // f1-h1 3, e2-e3 2, f2-h4 3: 12, 3.5 deducted. 0.4 + 0.3 + 1.0 + 2.0 - 3.5 = 0.2.
    let mut b = board("k7/7P/8/8/4P3/8/3P4/4K3 b - - 0 1");
    assert_eq!(faithful::pp(&mut b, Move::NULL), 2);
}

#[test]
fn material_is_the_ratio() {
    let m = |fen: &str| faithful::material(&board(fen));
    // Two knights against one and two rooks against one: both ratio 2, exactly equal.
    let nn_n = m("4k3/8/8/3n4/8/8/8/2NNK3 w - - 0 1");
    let rr_r = m("4k3/8/8/3r4/8/8/8/2RRK3 w - - 0 1");
    assert_eq!(nn_n, rr_r);
    assert_eq!(nn_n, 1.0 / 3.0); // (2 - 1) / (2 + 1)
    // A knight up is worth more with less left on the board: Turing's reason for the ratio.
    let rn_r = m("4k3/8/8/3r4/8/8/8/2RNK3 w - - 0 1");
    assert!(nn_n > rn_r && m("4k3/8/8/8/8/8/8/3NK3 w - - 0 1") > nn_n);
    // The side to move's view: the same position with Black to move is the negation.
    assert_eq!(m("4k3/8/8/3r4/8/8/8/2RNK3 b - - 0 1"), -rn_r);
    // Bishops count 3.5: B against N is 7 / 6.
    assert_eq!(m("4k3/8/8/3n4/8/8/8/3BK3 w - - 0 1"), 1.0 / 13.0);
    assert_eq!(m("4k3/8/8/8/8/8/8/4K3 w - - 0 1"), 0.0);
}

#[test]
fn considerable_moves() {
    let c = |b: &Board, uci: &str, last: Move| {
        faithful::considerable(b, b.parse_uci(uci).unwrap(), last)
    };
    let none = Move::NULL;
    // The queen takes a pawn defended by a pawn: no; the same pawn undefended: yes.
    let b = board("4k3/8/8/2p5/3p4/8/3Q4/4K3 w - - 0 1");
    assert!(!c(&b, "d2d4", none));
    assert!(!c(&b, "d2d3", none), "a quiet move");
    assert!(c(&board("4k3/8/8/8/3p4/8/3Q4/4K3 w - - 0 1"), "d2d4", none));
    // A pawn takes a defended rook, a knight a defended bishop (3 < 3.5): yes.
    assert!(c(
        &board("4k3/8/8/1p6/2r5/3P4/8/4K3 w - - 0 1"),
        "d3c4",
        none
    ));
    assert!(c(
        &board("4k3/8/8/4p3/3b4/8/4N3/4K3 w - - 0 1"),
        "e2d4",
        none
    ));
    // A bishop takes a defended knight: no.
    assert!(!c(
        &board("4k3/8/8/4p3/3n4/8/1B6/4K3 w - - 0 1"),
        "b2d4",
        none
    ));
    // The queen retakes on e3, defended by f4: only as the recapture of a capture.
    let mut b = board("4k3/8/8/8/3p1p2/4N3/3Q4/4K3 b - - 0 1");
    let last = play(&mut b, "d4e3");
    assert!(c(&b, "d2e3", last));
    assert!(!c(&b, "d2e3", none));
    let mut b = board("4k3/8/8/8/3pp3/8/3Q4/4K3 b - - 0 1");
    let last = play(&mut b, "d4d3");
    assert!(
        !c(&b, "d2d3", last),
        "the pawn, defended by e4, moved to d3 without capturing"
    );
}

#[test]
fn a_checkmate_is_considerable_and_decides() {
    // No capture anywhere: dead but for the back-rank mate, found beyond the full width.
    let mut b = board("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1");
    assert!(faithful::search(&mut b, 0, -1e9, 1e9, Move::NULL) > 1.0);
    let m = faithful::MyBot.think(b.clone(), Timer::new(1000, 1000, 0));
    assert_eq!(m.to_string(), "a1a8");
}

#[test]
fn stand_pat_beyond_the_full_width() {
    // Black has just taken on d4 with the knight; the knight is defended by e5. White's only
    // considerable move is the recapture Qxd4, which loses the queen to exd4 (a bare king
    // against a pawn, -1). Turing's alternative B lets White stand on the position itself:
    // Q 20 against P 2 + N 6 in half pawns, (20 - 8) / (20 + 8) = 3/7.
    let mut b = board("4k3/8/8/4p3/3P4/5n2/3Q4/K7 b - - 0 1");
    let last = play(&mut b, "f3d4");
    assert_eq!(faithful::material(&b), 12.0 / 28.0);
    assert_eq!(
        faithful::search(&mut b, 0, -1e9, 1e9, last),
        faithful::material(&b)
    );
}

#[test]
fn no_stand_pat_where_every_move_is_considerable() {
    // Rf1+: White's one legal move is Bxf1 (a bishop takes a rook: considerable), and Qxf1
    // mates. Alternative B is omitted, so White is mated: -(100 - 2) at two plies beyond.
    let mut b = board("1k3q2/8/8/8/8/8/4B1PP/5r1K w - - 0 1");
    assert_eq!(b.legal_moves().len(), 1);
    assert_eq!(faithful::search(&mut b, 0, -1e9, 1e9, Move::NULL), -98.0);
}

#[test]
fn a_pinned_piece_counts_only_its_legal_moves() {
    // Re2 is pinned by Re8: e3-e7 5 + e8 taken 2 = 7, sqrt 2.6 (not the 14 squares it
    // attacks, 3.7), defended by the king +1.0; Ke1: d1 d2 f1 f2, 2.0; a queen on e1: a1-d1 4,
    // f1-h1 3, d2-a5 4, f2-h4 3 = 14, 3.7 deducted. 2.6 + 1.0 + 2.0 - 3.7 = 1.9.
    let mut b = board("4r1k1/8/8/8/8/8/4R3/4K3 b - - 0 1");
    assert_eq!(faithful::pp(&mut b, Move::NULL), 19);
    // A pinned knight has no move at all: Ne2 against Re8, 0 + defended 1.0 + king 2.0 - 3.7.
    let mut b = board("4r1k1/8/8/8/8/8/4N3/4K3 b - - 0 1");
    assert_eq!(faithful::pp(&mut b, Move::NULL), -7);
    // With the rook off the e-file the same knight has c1 c3 d4 f4 g1 g3, sqrt 6 = 2.4.
    let mut b = board("r5k1/8/8/8/8/8/4N3/4K3 b - - 0 1");
    assert_eq!(faithful::pp(&mut b, Move::NULL), 17);
}

#[test]
fn faithful_trades_when_ahead_because_of_the_ratio() {
    // A knight up, White trades rooks: the difference stays a knight but the ratio goes
    // from 16/10 to 6/0.
    let b = board("3rk3/8/8/8/8/2N5/8/3R2K1 w - - 0 1");
    let m = faithful::MyBot.think(b.clone(), Timer::new(1000, 1000, 0));
    assert_eq!(m.to_string(), "d1d8");
}

/// The same position with colours swapped (board mirrored top to bottom).
fn mirror(fen: &str) -> String {
    let f: Vec<&str> = fen.split(' ').collect();
    let swap = |s: &str| -> String {
        s.chars()
            .map(|c| {
                if c.is_ascii_uppercase() {
                    c.to_ascii_lowercase()
                } else {
                    c.to_ascii_uppercase()
                }
            })
            .collect()
    };
    let rows: Vec<String> = f[0].split('/').rev().map(swap).collect();
    let side = if f[1] == "w" { "b" } else { "w" };
    let castle = if f[2] == "-" {
        "-".to_string()
    } else {
        let s = swap(f[2]);
        let mut c: Vec<char> = s.chars().collect();
        c.sort_by_key(|c| (c.is_ascii_lowercase(), *c != 'K' && *c != 'k'));
        c.into_iter().collect()
    };
    let ep = if f[3] == "-" {
        "-".to_string()
    } else {
        let r = if &f[3][1..] == "3" { "6" } else { "3" };
        format!("{}{}", &f[3][..1], r)
    };
    format!(
        "{} {} {} {} {} {}",
        rows.join("/"),
        side,
        castle,
        ep,
        f[4],
        f[5]
    )
}

const MIDDLEGAMES: [&str; 4] = [
    "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N2N2/PP2BPPP/R2QKB1R w KQ - 0 9",
    "r2q1rk1/1b2bppp/p2ppn2/1p6/3NP3/1BN1B3/PPP2PPP/R2Q1RK1 w - - 0 12",
    "2rq1rk1/pb1nbppp/1p2pn2/2pp4/2PP4/1PN1PN2/PB1QBPPP/2R2RK1 b - - 3 12",
    "r3k2r/ppp2ppp/2n1bn2/2bqp3/8/2NP1NP1/PPP1PPBP/R1BQ1RK1 w kq - 2 9",
];

#[test]
fn modern_eval_is_colour_symmetric() {
    assert_eq!(modern::eval(&Board::startpos()), 0);
    for fen in MIDDLEGAMES {
        let (a, b) = (board(fen), board(&mirror(fen)));
        assert_eq!(modern::eval(&a), modern::eval(&b), "{fen}");
    }
}

#[test]
fn modern_eval_hand_checked_with_a_check() {
    // Black to move, in check from Ra1. White: Ra1 a2-a7 + b1-d1, sqrt 9 = 3.0; Ke1 five free
    // squares, 2.2; a queen on e1, 20 squares, 4.5 deducted: 0.7. Black: Ka8 b7 b8 (a7 is
    // attacked), 1.4; a queen on a8: 21 squares + the rook taken twice, sqrt 22 = 4.7
    // deducted: -3.3. The check: 0.5 to White. Material: a rook, doubled, scaled by
    // 2 / (1 + 100 / 1640) for the ratio.
    let e = modern::eval(&board("k7/8/8/8/8/8/8/R3K3 b - - 0 1"));
    assert_eq!(e, -33 - 7 - 5 - 100 * 3280 / 1740);
}

#[test]
fn modern_castled_king_beats_keeping_the_rights() {
    // The same position but for the king and rook: castled (+2.0) against uncastled with
    // the right (+1.0).
    let castled = board("4k3/8/8/8/8/8/5PPP/5RK1 b - - 0 1");
    let home = board("4k3/8/8/8/8/8/5PPP/4K2R b K - 0 1");
    assert!(
        modern::eval(&castled) < modern::eval(&home) - 5,
        "Black's view: worse"
    );
}

#[test]
fn modern_finds_mates() {
    let b = board("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1");
    let m = modern::MyBot::default().think(b, Timer::new(10_000, 10_000, 0));
    assert_eq!(m.to_string(), "a1a8");
    // Mate in two (1.Rb7 and 2.Ra8#, no mate in one): any first move of a mate in two will do.
    let mut b = board("7k/8/8/8/8/8/R7/1R4K1 w - - 0 1");
    let m = modern::MyBot::default().think(b.clone(), Timer::new(10_000, 10_000, 0));
    b.make_move(m);
    let reply = b.legal_moves();
    assert!(
        reply.iter().all(|&r| {
            b.make_move(r);
            let mates = b.legal_moves().iter().any(|&w| {
                b.make_move(w);
                let x = b.is_checkmate();
                b.undo_move();
                x
            });
            b.undo_move();
            mates
        }),
        "{m} is not the start of a mate in two"
    );
}

/// Read from the bot and its timer, not from a stopwatch, so that a loaded machine cannot
/// fail it: how promptly a search ends once its timer says stop is counted in nodes by
/// `modern_searches_exactly_its_node_budget_and_repeats_itself`.
#[test]
fn modern_keeps_to_its_time() {
    for fen in MIDDLEGAMES {
        // A clock of 1 s + 10 ms, and one already run out.
        for (clock, increment) in [(1000, 10), (0, 0)] {
            let b = board(fen);
            let timer = Timer::new(clock, clock, increment);
            let mut bot = modern::MyBot::default();
            let mv = bot.think(b.clone(), timer.clone());
            assert!(b.is_legal(mv), "{fen}: {mv}");
            // It plans a 25th of its clock plus half the increment (45 ms of 1 s + 10 ms),
            // never more than half the clock, where an unbounded search takes seconds.
            let planned = (clock / 25 + increment / 2).min(clock / 2);
            assert!(bot.lim <= planned, "{fen}: {} ms of {clock}", bot.lim);
            // Its last act was to ask the timer, with every node it searched...
            assert_eq!(timer.nodes_searched(), Some(bot.n), "{fen}");
            // ...and the timer's answer ended the search: its time was up, not its depth.
            assert!(timer.should_stop(bot.lim / 2, bot.n), "{fen}: {clock} ms");
        }
    }
}

fn limited(depth: Option<u32>, nodes: Option<u64>) -> Timer {
    Timer::untimed(SearchLimits {
        depth,
        nodes,
        ..SearchLimits::default()
    })
}

#[test]
fn modern_searches_exactly_its_node_budget_and_repeats_itself() {
    for fen in MIDDLEGAMES {
        for budget in [1, 300, 5_000, 40_000] {
            let think = || {
                let mut bot = modern::MyBot::default();
                let mv = bot.think(board(fen), limited(None, Some(budget)));
                (mv, bot.n)
            };
            let (first, nodes) = think();
            // The search unwinds at the first check after the budget is spent: at most a
            // node per ply of the path it was on.
            assert!(
                (budget..budget + 64).contains(&nodes),
                "{fen}: {nodes} nodes for a budget of {budget}"
            );
            assert_eq!(think(), (first, nodes), "{fen}: a second search differs");
        }
    }
}

#[test]
fn a_node_budget_decides_the_move_not_the_clock() {
    // The same budget on a loaded thread (another search hogging the clock in between)
    // and on a clock that is long past the bot's own budget gives the same move.
    let fen = MIDDLEGAMES[0];
    let mut bot = modern::MyBot::default();
    let expected = bot.think(board(fen), limited(None, Some(20_000)));
    // The timer's turn starts before the sleep, so the search begins past the budget the
    // bot plans from the made-up 10 s clock (a 25th: 400 ms).
    let slow = limited(None, Some(20_000));
    std::thread::sleep(std::time::Duration::from_millis(500));
    let mut bot = modern::MyBot::default();
    assert_eq!(bot.think(board(fen), slow), expected);
}

#[test]
fn modern_stops_at_the_depth_it_is_given() {
    for fen in MIDDLEGAMES {
        let counts: Vec<u64> = (1..=4)
            .map(|depth| {
                let mut bot = modern::MyBot::default();
                bot.think(board(fen), limited(Some(depth), None));
                bot.n
            })
            .collect();
        // Each iteration adds nodes, and the same depth twice searches the same tree.
        assert!(counts.windows(2).all(|w| w[0] < w[1]), "{fen}: {counts:?}");
        let mut again = modern::MyBot::default();
        again.think(board(fen), limited(Some(4), None));
        assert_eq!(again.n, counts[3], "{fen}");
        // Depth 4 with no limit on the clock's side is far from the 10 s made-up clock.
        assert!(counts[3] < 2_000_000, "{fen}: {counts:?}");
    }
}

/// `go infinite` with the host's stop flag `stop`.
fn infinite(stop: &Arc<AtomicBool>) -> Timer {
    Timer::untimed(SearchLimits {
        infinite: true,
        ..SearchLimits::default()
    })
    .with_stop_flag(stop.clone())
}

#[test]
fn modern_answers_stop_under_go_infinite() {
    // Told to stop before it starts: the first look at its timer ends the search, which
    // has then followed one line at most (the captures after the first move).
    for fen in MIDDLEGAMES {
        let b = board(fen);
        let mut bot = modern::MyBot::default();
        let mv = bot.think(b.clone(), infinite(&Arc::new(AtomicBool::new(true))));
        assert!(b.is_legal(mv), "{fen}: {mv}");
        assert!(bot.n < 64, "{fen}: {} nodes after stop", bot.n);
    }
    // Told to stop while it thinks: it thinks until then, and never ends on its own.
    let stop = Arc::new(AtomicBool::new(false));
    let stopper = {
        let stop = stop.clone();
        std::thread::spawn(move || {
            std::thread::sleep(std::time::Duration::from_millis(300));
            stop.store(true, Ordering::SeqCst);
        })
    };
    let b = board(MIDDLEGAMES[1]);
    let mv = modern::MyBot::default().think(b.clone(), infinite(&stop));
    let stopped_first = stop.load(Ordering::SeqCst);
    stopper.join().unwrap();
    assert!(b.is_legal(mv));
    assert!(stopped_first, "{mv} came before the stop");
}

/// Plays a game between a faithful and a modern bot from `fen`, every move checked legal
/// (each bot thinks on a board of its own); the modern bot on 20,000 nodes a move, so that the
/// game is the same on every run and machine (its clock is `modern_keeps_to_its_time`'s).
fn game(fen: &str, modern_white: bool, max_plies: u32) {
    let mut b = board(fen);
    let mut f = faithful::MyBot;
    let mut m = modern::MyBot::default();
    for _ in 0..max_plies {
        if b.outcome().is_some() {
            return;
        }
        let mv = if b.is_white_to_move() == modern_white {
            m.think(b.clone(), limited(None, Some(20_000)))
        } else {
            f.think(b.clone(), Timer::new(1000, 1000, 0))
        };
        assert!(b.is_legal(mv), "{mv} illegal in {}", b.fen());
        b.make_move(mv);
    }
}

#[test]
fn whole_games_of_legal_moves() {
    game(START, true, 400);
    game(MIDDLEGAMES[1], false, 400);
}

/// Turing's game against Alick Glennie (Manchester, 1952), the game of his typescript.
const GLENNIE: &str = "e4 e5 Nc3 Nf6 d4 Bb4 Nf3 d6 Bd2 Nc6 d5 Nd4 h4 Bg4 a4 Nxf3+ gxf3 Bh5 \
    Bb5+ c6 dxc6 O-O cxb7 Rb8 Ba6 Qa5 Qe2 Nd7 Rg1 Nc5 Rg5 Bg6 Bb5 Nxb7 O-O-O Nc5 Bc6 Rfc8 \
    Bd5 Bxc3 Bxc3 Qxa4 Kd2 Ne6 Rg4 Nd4 Qd3 Nb5 Bb3 Qa6 Bc4 Bh5 Rg3 Qa4 Bxb5 Qxb5 Qxd6 Rd8";

/// The game's position before White's move `n`, and that move.
fn glennie_before(n: usize) -> (Board, Move) {
    let mut b = Board::startpos();
    let sans: Vec<&str> = GLENNIE.split_whitespace().collect();
    for san in &sans[..2 * (n - 1)] {
        let m = framework::notation::parse_san(&b, san).unwrap();
        b.make_move(m);
    }
    let m = framework::notation::parse_san(&b, sans[2 * (n - 1)]).unwrap();
    (b, m)
}

/// The position-play gain of White's move `n` of the Glennie game, in tenths.
fn glennie_gain(n: usize) -> i32 {
    let (mut b, m) = glennie_before(n);
    assert!(b.skip_turn());
    let base = faithful::pp(&mut b, Move::NULL);
    b.undo_skip_turn();
    b.make_move(m);
    faithful::pp(&mut b, m) - base
}

#[test]
fn glennie_game_moves_are_the_game_in_the_typescript() {
    // 29 moves each side, ending 29.Qxd6 Rd8 (0-1), as printed in The Turing Guide and
    // in every copy of the game checked.
    let (b, m) = glennie_before(29);
    assert_eq!(m.to_string(), "d3d6");
    assert_eq!(
        b.fen(),
        "1rr3k1/p4ppp/3p4/1q2p2b/4P2P/2BQ1PR1/1PPK1P2/3R4 w - - 0 29"
    );
}

/// Turing's recorded gains against this bot's: 5.Bd2 +3.6, 18.O-O-O +3.0, 10.Bb5+ +2.4. The
/// hand count for each is under it; python-chess's legal moves gave the same terms.
#[test]
fn glennie_position_play_gains_against_turings_record() {
    // 5.Bd2 (Turing 3.6): it unpins Nc3, whose five moves (a4 b5 d5 e2 b1) were none while
    // Bb4 pinned it: +2.2, and it is now defended twice: +0.5; Ra1 gains c1 (+0.4) and the
    // queen's defence (+1.0); Ke1 loses d2 (-0.4), and a queen on e1 loses d2 (+0.3); Nf3
    // loses d2 (-0.2); b2 is no longer defended by a piece (-0.3); Bd2, like Bc1, has five
    // moves and two defenders. 3.5, a tenth short of Turing's.
    assert_eq!(glennie_gain(5), 35);
    // 18.O-O-O (Turing 3.0): castling 3.0 against the right and the castling-next credits,
    // 2.0, before: +1.0; Rd1 (4 moves, 2.0; defended by K and Q, 1.5) for Ra1 (5 moves, 2.2):
    // +1.3; Kc1 b1 against Ke1 d1 f1: -0.4; a queen on c1 sees 2 squares, on e1 6: +1.0;
    // Nc3 loses d1: -0.3; b2 and c2 now defended by the king: +0.6. 3.2.
    assert_eq!(glennie_gain(18), 32);
    // 10.Bb5+ (Turing 2.4): check +0.5; f1 and g1 empty, so castling could take place on the
    // next move, the check notwithstanding: +1.0; Bb5 (a6 c6 d7 c4 d3 e2 f1) and Bf1 (e2 d3
    // c4 b5 a6 g2 h3) both have 7 moves and two defenders: 0; Ke1 gains f1 (+0.4), a queen
    // on e1 gains f1 g1 (-0.6); Rh1 gains f1 (+0.3); Nc3 loses b5 (-0.3). 1.3: the 1.1 more
    // Turing found is not in these rules as written (before this reading the bot gave 0.3).
    assert_eq!(glennie_gain(10), 13);
}

#[test]
fn stand_pat_keeps_turings_quiet_moves_at_both_depths() {
    // Without alternative B the machine saw phantom gains in forced capture chains and
    // played 7.Bb5+ and 8.Bb5+ (Nxb5 Nxb5 Nxe4) and 10.Rg1; at 2 plies (Turing's) and at 3
    // (this kit's) it now plays Turing's 7.h4, 8.a4 and 10.Bb5+.
    for depth in [2, 3] {
        for (n, turing) in [(7, "h2h4"), (8, "a2a4"), (10, "f1b5")] {
            let (mut b, m) = glennie_before(n);
            assert_eq!(m.to_string(), turing);
            assert_eq!(
                faithful::choose(&mut b, depth),
                m,
                "move {n} at depth {depth}"
            );
        }
    }
    // 18.O-O-O needs Turing's two plies: at three the machine prefers 18.Nd5.
    let (mut b, m) = glennie_before(18);
    assert_eq!(faithful::choose(&mut b, 2), m);
    assert_ne!(faithful::choose(&mut b, 3), m);
}

#[test]
fn at_two_plies_the_machine_plays_most_of_turings_moves() {
    // Of White's 29 moves in the game, the rules read as written at Turing's two plies play
    // 18 (the bot before this reading, at three plies: 10).
    let played = (1..=29)
        .filter(|&n| {
            let (mut b, m) = glennie_before(n);
            faithful::choose(&mut b, 2) == m
        })
        .count();
    assert!(played >= 18, "{played} of 29");
}

//! Move-generation correctness by perft: leaf counts of the legal move tree compared with
//! published values.
//!
//! Depths are chosen so the whole file runs in well under a minute in release mode
//! (`cargo test --release -p framework --test perft`).

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use framework::chess::perft::{perft, perft_bulk, perft_divide};
use framework::prelude::*;

/// Counts this thread's heap allocations and the bytes they asked for, so a test can prove
/// search paths allocate nothing and stored boards stay small.
struct CountingAllocator;

thread_local! {
    static ALLOCATIONS: Cell<usize> = const { Cell::new(0) };
    static BYTES: Cell<usize> = const { Cell::new(0) };
}

fn count(bytes: usize) {
    ALLOCATIONS.with(|n| n.set(n.get() + 1));
    BYTES.with(|n| n.set(n.get() + bytes));
}

// SAFETY: defers to the system allocator; the counter is a const-initialised thread-local
// without a destructor, so touching it cannot allocate or re-enter.
unsafe impl GlobalAlloc for CountingAllocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count(layout.size());
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count(new_size);
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static ALLOCATOR: CountingAllocator = CountingAllocator;

fn allocations() -> usize {
    ALLOCATIONS.with(|n| n.get())
}

fn allocated_bytes() -> usize {
    BYTES.with(|n| n.get())
}

/// Unoptimised builds (`cargo test` without `--release`) skip the deep counts, which
/// would take minutes there; CI and the documented command run in release.
const DEBUG_LIMIT: u64 = 50_000;

/// Checks `perft_bulk` for every `(depth, count)` and `perft` (make/undo at every node)
/// for the depths whose counts are small enough to stay fast.
fn check(fen: &str, expected: &[(u32, u64)]) {
    let mut board = Board::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    let before = board.clone();
    for &(depth, count) in expected
        .iter()
        .filter(|&&(_, n)| !cfg!(debug_assertions) || n <= DEBUG_LIMIT)
    {
        assert_eq!(
            perft_bulk(&mut board, depth),
            count,
            "perft_bulk({depth}) of {fen}"
        );
        if count <= 1_000_000 {
            assert_eq!(perft(&mut board, depth), count, "perft({depth}) of {fen}");
        }
    }
    assert_eq!(board, before, "perft must leave the board as it found it");
}

// The six positions of https://www.chessprogramming.org/Perft_Results

#[test]
fn cpw_startpos() {
    check(
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        &[
            (1, 20),
            (2, 400),
            (3, 8_902),
            (4, 197_281),
            (5, 4_865_609),
            (6, 119_060_324),
        ],
    );
}

#[test]
fn cpw_kiwipete() {
    check(
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        &[
            (1, 48),
            (2, 2_039),
            (3, 97_862),
            (4, 4_085_603),
            (5, 193_690_690),
        ],
    );
}

#[test]
fn cpw_position_3() {
    check(
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        &[
            (1, 14),
            (2, 191),
            (3, 2_812),
            (4, 43_238),
            (5, 674_624),
            (6, 11_030_083),
        ],
    );
}

#[test]
fn cpw_position_4_and_mirror() {
    let counts = [(1, 6), (2, 264), (3, 9_467), (4, 422_333), (5, 15_833_292)];
    check(
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        &counts,
    );
    check(
        "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1",
        &counts,
    );
}

#[test]
fn cpw_position_5() {
    check(
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        &[
            (1, 44),
            (2, 1_486),
            (3, 62_379),
            (4, 2_103_487),
            (5, 89_941_194),
        ],
    );
}

#[test]
fn cpw_position_6() {
    check(
        "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
        &[
            (1, 46),
            (2, 2_079),
            (3, 89_890),
            (4, 3_894_594),
            (5, 164_075_551),
        ],
    );
}

/// The classic `perftsuite.epd` (126 positions with counts to depth 5 or 6, compiled
/// for the ROCE engine and widely redistributed), copied from
/// https://github.com/thomasahle/sunfish/blob/b7584020cceb4bf88da9d9ff3172d85b8be300c1/perftsuite.epd
/// Every depth whose count is at most `LIMIT` is checked.
#[test]
fn perftsuite_epd() {
    const LIMIT: u64 = 3_000_000;
    let data = include_str!("data/perftsuite.epd");
    let mut positions = 0;
    let mut checks = 0;
    for line in data.lines().filter(|l| !l.trim().is_empty()) {
        let mut parts = line.split(';');
        let fen = parts.next().unwrap().trim();
        let expected: Vec<(u32, u64)> = parts
            .map(|p| {
                let (d, n) = p.trim().split_once(' ').unwrap();
                (
                    d.trim_start_matches('D').parse().unwrap(),
                    n.parse().unwrap(),
                )
            })
            .filter(|&(_, n)| n <= LIMIT)
            .collect();
        assert!(expected.len() >= 3, "{fen}: too few depths listed");
        checks += expected.len();
        check(fen, &expected);
        positions += 1;
    }
    assert_eq!(positions, 126);
    assert!(checks > 500);
}

#[test]
fn divide_sums_to_perft_and_names_each_move_once() {
    let mut board =
        Board::from_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
            .unwrap();
    let divide = perft_divide(&mut board, 3);
    assert_eq!(divide.len(), 48);
    assert_eq!(divide.iter().map(|&(_, n)| n).sum::<u64>(), 97_862);
    let mut names: Vec<String> = divide.iter().map(|(m, _)| m.to_string()).collect();
    names.sort();
    names.dedup();
    assert_eq!(names.len(), 48);
    // Kiwipete's castles appear in standard notation with their published subtree sizes.
    let find = |uci: &str| {
        divide
            .iter()
            .find(|(m, _)| m.to_string() == uci)
            .map(|&(_, n)| n)
    };
    assert_eq!(find("e1g1"), Some(2_059));
    assert_eq!(find("e1c1"), Some(1_887));
    assert!(perft_divide(&mut board, 0).is_empty());
}

const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

#[test]
fn search_paths_do_not_allocate() {
    // The host hands a bot a clone, which comes with the search reserve.
    let host = Board::from_fen(KIWIPETE).unwrap();
    let mut board = host.clone();
    let mut bot_copy = host.clone();
    let before = allocations();
    assert_eq!(perft(&mut board, 3), 97_862);
    assert_eq!(perft_bulk(&mut bot_copy, 3), 97_862);
    let mut list = MoveList::new();
    board.legal_moves_into(&mut list, true);
    assert!(!board.captures().is_empty());
    assert!(board.skip_turn());
    assert!(!board.is_repeated_position() && board.outcome().is_none());
    board.undo_skip_turn();
    assert_eq!(
        allocations(),
        before,
        "make/undo, move generation and rule queries must not allocate"
    );
    // The counter does see allocations.
    let v = board.legal_moves_vec();
    assert!(allocations() > before && !v.is_empty());
}

#[test]
fn a_board_built_from_fen_reserves_once_when_first_played_on() {
    let mut board = Board::from_fen(KIWIPETE).unwrap();
    let before = allocations();
    assert_eq!(perft(&mut board, 3), 97_862);
    // One reservation for each of the position, key and move stacks, then none.
    assert_eq!(allocations() - before, 3);
    let before = allocations();
    assert_eq!(perft(&mut board, 3), 97_862);
    assert!(board.skip_turn());
    board.undo_skip_turn();
    assert_eq!(allocations(), before);
}

#[test]
fn stored_boards_hold_no_search_reserve() {
    // A parsed game keeps its starting board: it must cost a position, not a search stack
    // (256 reserved positions made 31k parsed games take 842 MB).
    let before = allocated_bytes();
    let boards: Vec<Board> = (0..100).map(|_| Board::startpos()).collect();
    let per_board = (allocated_bytes() - before) / boards.len();
    assert!(per_board < 256, "a fresh board allocates {per_board} bytes");
    // A clone is what a bot searches with: it carries the reserve.
    let before = allocated_bytes();
    let clone = boards[0].clone();
    assert!(allocated_bytes() - before > 100 * per_board);
    assert_eq!(clone, boards[0]);
}

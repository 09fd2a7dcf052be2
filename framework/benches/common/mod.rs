//! What the benchmarks share: raw cozy-chess doing the kit's work, for the
//! same-run reference figures.

use cozy_chess as cz;

/// cozy's moves for one position, flattened into a stack buffer as the kit's `MoveList` is.
pub fn cozy_moves(board: &cz::Board) -> ([cz::Move; 256], usize) {
    let mut buf = [cz::Move {
        from: cz::Square::A1,
        to: cz::Square::A1,
        promotion: None,
    }; 256];
    let mut n = 0;
    board.generate_moves(|pm| {
        for mv in pm {
            buf[n] = mv;
            n += 1;
        }
        false
    });
    (buf, n)
}

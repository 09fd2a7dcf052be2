//! Turochamp, faithful: the paper machine of Alan Turing and David Champernowne (1948),
//! as described in Turing's typescript "Digital Computers Applied to Games".
//!
//! The choice of a move, as Turing wrote it down:
//! 1. Every move is looked at to three plies, full width (the project's depth; Turing's own
//!    hand simulations went two plies), and beyond that only "considerable" moves are
//!    followed, until a "dead" position, one without considerable moves, is reached.
//! 2. A dead position is worth its material ratio: the material of the side to move over
//!    the opponent's (P 1, N 3, B 3.5, R 5, Q 10). Checkmate decides outright.
//! 3. The values are minimaxed back to the root. Among the moves of greatest material value,
//!    the one with the greatest position-play value (see [`pp`]) is played.
//!
//! How the ratio goes through a negamax search: the ratio a/b is replaced by
//! (a - b) / (a + b) = (r - 1) / (r + 1). That is strictly increasing in r = a/b, so it orders
//! positions exactly as the ratio does (equal ratios give bit-identical values, since IEEE
//! division of exact small integers is correctly rounded), and it is exactly antisymmetric
//! (swapping sides only flips the sign), which negamax needs; a/b itself is not (1/(a/b) is
//! rounded twice). It is also finite against a bare king (value 1). A mate is worth more
//! than any ratio: 100 plus the remaining full-width depth, so a quicker mate is preferred
//! (Turing's "checkmate decides outright" says nothing about which mate; without this the
//! machine can shuffle forever in front of a mate in two). Stalemate is worth 0, the value
//! of equal material (Turing does not mention it).
//!
//! Considerable moves, beyond the full-width plies (Turing's list, read literally):
//! - a recapture: a capture on the square where the previous move, itself considered and
//!   hence considerable, captured;
//! - a capture of a piece that no enemy piece defends (attacks) before the capture;
//! - a capture of a higher-valued piece by a lower-valued one (a king counts 0 as a capturer:
//!   it can only legally take undefended pieces anyway);
//! - a checkmating move.
//!
//! There is no "stand pat": a position with considerable moves is worth the best of them,
//! even when every one of them is bad for the mover. That is Turing's rule, and a known
//! weakness of the machine.
//!
//! Alpha-beta pruning is used, with the root window opened just below the best value so far:
//! it returns the exact minimax value for every root move that equals or beats the best, so
//! the move chosen is exactly the one plain minimax would choose (distinct material values
//! differ by far more than the 1e-9 margin). It only makes the machine practical.
//!
//! Deterministic: no clock, no randomness; moves are tried in the board's generation order
//! and ties beyond position play go to the first move generated.
use framework::prelude::*;

/// Material in half pawns, so that Turing's 3.5 for a bishop stays an integer: P N B R Q K.
/// The king counts 0: it is never captured and is never part of the ratio.
pub const V: [i32; 6] = [2, 6, 7, 10, 20, 0];

/// Turing's material value of a dead position for the side to move, as (a - b) / (a + b),
/// which orders positions as the ratio a / b does (see the file's notes). Bare kings: 0.
pub fn material(b: &Board) -> f64 {
    let mut m = [0.; 2];
    for sq in b.occupied() {
        let p = b.piece_at(sq).unwrap();
        m[(p.color() == b.side_to_move()) as usize] += V[p.piece_type().index()] as f64;
    }
    (m[1] - m[0]) / (m[1] + m[0]).max(1.)
}

/// Turing's position-play value, in tenths of a pawn, of the side that has just played `mv`
/// (so `b` has the opponent to move). Counted for that side's own pieces only, as Turing did:
/// (i) Q R B N: the square root of the number of moves, a capture counting two, rounded to
///     one decimal as Turing did by hand. A piece's moves are the squares it attacks that
///     are not held by its own side (pins are not looked at: Turing counted by eye), nor by
///     the enemy king.
/// (ii) R B N: +1.0 if defended, +0.5 more if defended at least twice (any own piece
///     attacking its square, the king included).
/// (iii) K: as (i), counting only squares the opponent does not attack; castling excluded.
/// (iv) K safety: minus (i) for a queen standing on the king's square.
/// (v) castling: +1.0 while a castling right is left (one credit, not one per wing), +1.0
///     more if the side could castle on its next move (a legal castling move with the turn
///     passed back to it), +1.0 more if `mv` is a castling move.
/// (vi) P: +0.2 per rank advanced. (vii) P: +0.3 if defended by at least one non-pawn.
/// (viii) +1.0 for threatening mate: with the turn passed back to the side, some move of its
///     mates. (ix) +0.5 if `mv` gives check.
///
/// (v)'s "next move" and (viii) need the side to move again; when `mv` gives check that is
/// not a legal position, so a checking move gets neither credit: the check itself is what it
/// threatens, and it is scored by (ix).
pub fn pp(b: &mut Board, mv: Move) -> i32 {
    let us = !b.side_to_move();
    let occ = b.occupied();
    let own = b.color_bitboard(us);
    // (i): the moves of a piece attacking `x`, captures twice, as Turing's rounded root.
    // The enemy king's square is no move: a checking piece cannot take the king.
    let no = own | b.pieces_of_type(PieceType::King);
    let root = |x: Bitboard| {
        ((((x & !no).count() + (x & occ & !no).count()) as f64).sqrt() * 10.).round() as i32
    };
    let mut s = 10 * mv.is_castle() as i32
        + 5 * b.is_in_check() as i32
        + 10 * (b.has_kingside_castle_right(us) || b.has_queenside_castle_right(us)) as i32;
    for sq in own {
        let p = b.piece_at(sq).unwrap().piece_type();
        let d = b.attackers_to(sq, us);
        let a = piece_attacks(p, sq, occ, us);
        s += match p {
            PieceType::Pawn => {
                2 * sq.relative_to(us).rank() as i32 - 2
                    + 3 * (d & !b.pieces_of_type(PieceType::Pawn)).is_nonempty() as i32
            }
            PieceType::King => {
                root(a.iter().filter(|&t| !b.is_attacked_by(t, !us)).collect())
                    - root(queen_attacks(sq, occ))
            }
            PieceType::Queen => root(a),
            _ => root(a) + 10 * d.is_nonempty() as i32 + 5 * (d.count() > 1) as i32,
        }
    }
    if b.skip_turn() {
        let ms = b.legal_moves();
        s += 10 * ms.iter().any(|m| m.is_castle()) as i32
            + 10 * ms.iter().any(|&m| {
                b.make_move(m);
                let mate = b.is_checkmate();
                b.undo_move();
                mate
            }) as i32;
        b.undo_skip_turn();
    }
    s
}

/// `m` is considerable beyond the full-width plies (checkmates aside, which need the move
/// made): see the file's notes. `last` is the move that led to this position.
pub fn considerable(b: &Board, m: Move, last: Move) -> bool {
    m.captured().is_some_and(|c| {
        last.is_capture() && m.to() == last.to()
            || V[c.index()] > V[m.piece().index()]
            || b.attackers_to(m.to(), !b.side_to_move()).is_empty()
    })
}

/// The minimax material value for the side to move, `d` full-width plies left (then the
/// considerable moves until dead positions), alpha-beta window `a`..`z`.
pub fn search(b: &mut Board, d: i32, mut a: f64, z: f64, last: Move) -> f64 {
    let mut ms = b.legal_moves();
    if ms.is_empty() {
        return if b.is_in_check() {
            -100. - d as f64
        } else {
            0.
        };
    }
    let mut best = -1e9f64;
    // Most valuable victim first, then least valuable attacker: only for pruning.
    ms.sort_by_key(|m| V[m.piece().index()] - 30 * m.captured().map_or(-1, |c| V[c.index()]));
    for m in ms {
        let c = d > 0 || considerable(b, m, last);
        b.make_move(m);
        if c || b.is_checkmate() {
            best = best.max(-search(b, d - 1, -z, -a, m));
            a = a.max(best);
        }
        b.undo_move();
        if a >= z {
            break;
        }
    }
    // No considerable move: the position is dead.
    if best < -1e8 { material(b) } else { best }
}

#[derive(Default)]
pub struct MyBot;

impl Bot for MyBot {
    fn think(&mut self, b: &mut Board, _: &Timer) -> Move {
        let mut best = (-1e9, 0);
        let mut bm = Move::NULL;
        for m in b.legal_moves() {
            b.make_move(m);
            let v = (-search(b, 2, -1e9, 1e-9 - best.0, m), pp(b, m));
            b.undo_move();
            if v > best {
                best = v;
                bm = m;
            }
        }
        bm
    }
}

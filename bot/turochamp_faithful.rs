//! Turochamp, faithful: the paper machine of Alan Turing and David Champernowne (1948),
//! as described in Turing's typescript "Digital Computers Applied to Games" (1953). Each rule
//! quotes the typescript's sentence it follows (the depth and the list of considerable moves
//! are paraphrased).
//!
//! Depth. Turing's text looks two plies ahead full width (every white move and every black
//! reply) and follows only "considerable" moves beyond. This kit plays three full-width plies
//! ([`DEPTH`]), as the C# reconstruction and most published accounts do; [`choose`] takes the
//! depth, so Turing's own 2 is one argument away.
//!
//! Value of a position: "In other positions with white to play the value is the greatest
//! value of: A) the positions obtained by considerable moves, or B) the position itself
//! evaluated as if a dead position, the latter alternative to be omitted if all moves are
//! considerable." So beyond the full width a side may stand pat (B) on its material instead of
//! playing a capture it would not choose; at the full-width plies every move is considerable,
//! so B never applies there. A dead position (no considerable move) is worth its material.
//!
//! Material: P 1, N 3, B 3.5, R 5, Q 10, valued as the ratio W/B. Through a negamax search the
//! ratio a/b becomes (a - b) / (a + b) = (r - 1) / (r + 1): strictly increasing in r = a/b, so
//! it orders positions exactly as the ratio does (equal ratios give bit-identical values, as
//! IEEE division of small exact integers is correctly rounded), exactly antisymmetric
//! (negamax needs that; 1/(a/b) is rounded twice) and finite against a bare king. Checkmate
//! decides outright; a mate is worth 100 plus the remaining full-width depth, so a quicker mate
//! is preferred (Turing does not rank mates; without this the machine can put off a mate in
//! two forever). Stalemate is 0, the value of equal material (Turing does not mention it).
//!
//! Considerable moves beyond the full width (Turing's list, paraphrased): a recapture (a
//! capture on the square where the previous move, itself followed and so considerable,
//! captured); a capture of an undefended piece (no enemy piece attacks it); a capture of a
//! higher-valued piece by a lower-valued one (a king counts 0 as capturer: it can only take
//! undefended pieces anyway); a checkmating move (found by playing it).
//!
//! The choice: "The move chosen must have the greatest possible value, and, consistent with
//! this, the greatest possible position-play value." Position play ([`pp`]) is scored only on
//! the position after each root move ("no 'analysis' is involved in position-play evaluation").
//!
//! Alpha-beta prunes, with the root window opened just below the best value so far: every root
//! move that equals or beats the best gets its exact minimax value, so the choice is the one
//! plain minimax makes (distinct values differ by far more than the 1e-9 margin).
//! Deterministic: no clock, no randomness; ties beyond position play go to the first move
//! generated.
//!
//! Search limits: a fixed-depth machine, it ignores the client's `go depth`, `go nodes`,
//! `movetime` and `stop` as it ignores the clock (the file is at the token limit, and a limit
//! would change what the machine is); it always searches [`DEPTH`] plies, so its games repeat
//! move for move under any limit.
use framework::prelude::*;

/// Full-width plies: this kit's choice (and the C# reconstruction's); Turing's text says 2.
pub const DEPTH: i32 = 3; // vary 1..=4

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
/// (so `b` has the opponent to move), counted for that side's pieces and the enemy king:
/// (i) Q R B N: "The square root of the number of moves the piece can make from the position,
///     counting a capture as two moves, and not forgetting that the king must not be left in
///     check": legal moves, so a pinned piece counts only the moves along its pin; rounded to
///     one decimal as Turing did by hand. Taking the enemy king is no move.
/// (ii) R B N: "1.0 if it is defended, and an additional 0.5 if twice defended" (any own piece
///     attacking its square, the king included).
/// (iii) K: "For moves other than castling as i) above": squares the opponent does not attack.
/// (iv) K: "assuming it to be replaced by a friendly Q on the same square, estimating as in
///     i), but subtracting instead of adding" (the queen's squares, pins not looked at).
/// (v) "Count 1.0 for the possibility of castling later not being lost by moves of K or rooks,
///     a further 1.0 if castling could take place on the next move, and yet another 1.0 for
///     the actual performance of castling": one credit while a right is left; one if the
///     board after `mv` lets the side castle on its next move (a check it gave does not stop
///     it); and castling itself, which fulfils the other two, scores all three.
/// (vi) P: "0.2 for each rank advanced". (vii) P: "0.3 for being defended by at least one
///     piece (not P)".
/// "For the black K, count (viii) 1.0 for the threat of checkmate. (ix) 0.5 for check.":
/// (viii) with the turn passed back, some move of the side mates (after a check the turn
/// cannot be passed back: the check itself is the threat, scored by (ix)).
pub fn pp(b: &mut Board, mv: Move) -> i32 {
    let us = !b.side_to_move();
    let occ = b.occupied();
    let own = b.color_bitboard(us);
    let k = b.king_square(us);
    let no = own | b.pieces_of_type(PieceType::King);
    let q = b.pieces_of_type(PieceType::Queen);
    let diag = (b.pieces_of_type(PieceType::Bishop) | q) & !own;
    let line = (b.pieces_of_type(PieceType::Rook) | q) & !own;
    // Turing's rounded root of the moves to `x`, captures twice.
    let root = |x: Bitboard| {
        ((((x & !no).count() + (x & occ & !no).count()) as f64).sqrt() * 10.).round() as i32
    };
    // The squares of `x` the piece on `f` may go to without exposing its king to a slider.
    let legal = |f: Square, x: Bitboard| -> Bitboard {
        x.iter()
            .filter(|&t| {
                let o = occ ^ f.bitboard() | t.bitboard();
                ((bishop_attacks(k, o) & diag | rook_attacks(k, o) & line) & !t.bitboard())
                    .is_empty()
            })
            .collect()
    };
    // (v) next move: the right, an empty path (mask `e` on the side's back rank, the king's
    // rank when it has a right) and no attacked square among the king's (mask `a`).
    let sh = k.index() as u32 & 56;
    let castle = |r: bool, e: u64, a: u64| {
        r && (occ & Bitboard(e << sh)).is_empty()
            && !Bitboard(a << sh).iter().any(|t| b.is_attacked_by(t, !us))
    };
    let kr = b.has_kingside_castle_right(us);
    let qr = b.has_queenside_castle_right(us);
    let mut s = 30 * mv.is_castle() as i32
        + 5 * b.is_in_check() as i32
        + 10 * (kr || qr) as i32
        + 10 * (castle(kr, 0x60, 0x70) || castle(qr, 0xe, 0x1c)) as i32;
    for sq in own {
        let p = b.piece_at(sq).unwrap().piece_type();
        let d = b.attackers_to(sq, us);
        // For the king `legal` changes nothing: it is not in check, so no slider sees its square.
        let a = legal(sq, piece_attacks(p, sq, occ, us));
        s += match p {
            PieceType::Pawn => {
                2 * sq.relative_to(us).rank() - 2
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
        s += 10
            * b.legal_moves().iter().any(|&m| {
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
/// considerable moves), alpha-beta window `a`..`z`. Beyond the full width the side may stand
/// pat on the position's own material (Turing's alternative B) unless every legal move is
/// considerable; a quiet mate counts as not considerable here, which changes no value, since
/// a mate beats any material.
pub fn search(b: &mut Board, d: i32, mut a: f64, z: f64, last: Move) -> f64 {
    let mut ms = b.legal_moves();
    if ms.is_empty() {
        return if b.is_in_check() {
            -100. - d as f64
        } else {
            0.
        };
    }
    let mut best = if d > 0 || ms.iter().all(|&m| considerable(b, m, last)) {
        -1e9
    } else {
        material(b)
    };
    // Most valuable victim first, then least valuable attacker: only for pruning.
    ms.sort_by_key(|m| V[m.piece().index()] - 30 * m.captured().map_or(-1, |c| V[c.index()]));
    for m in ms {
        a = a.max(best);
        if a >= z {
            break;
        }
        let c = d > 0 || considerable(b, m, last);
        b.make_move(m);
        if c || b.is_checkmate() {
            best = best.max(-search(b, d - 1, -z, -a, m));
        }
        b.undo_move();
    }
    best
}

/// The move Turing's rules choose with `depth` full-width plies: the greatest material value,
/// then the greatest position play, then the first generated.
pub fn choose(b: &mut Board, depth: i32) -> Move {
    let mut best = (-1e9, 0);
    let mut bm = Move::NULL;
    for m in b.legal_moves() {
        b.make_move(m);
        let v = (-search(b, depth - 1, -1e9, 1e-9 - best.0, m), pp(b, m));
        b.undo_move();
        if v > best {
            best = v;
            bm = m;
        }
    }
    bm
}

#[derive(Default)]
pub struct MyBot;

impl Bot for MyBot {
    fn think(&mut self, mut b: Board, _: Timer) -> Move {
        choose(&mut b, DEPTH)
    }
}

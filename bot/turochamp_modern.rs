//! Turochamp, modern: Turing and Champernowne's evaluation (1948) inside a modern timed search.
//!
//! What is kept from Turing (see turochamp_faithful.rs for the original rules):
//! - material P 1, N 3, B 3.5, R 5, Q 10, counted double against position play (a pawn is
//!   worth 2.0 position-play points, so a clearly better position may be bought with a pawn;
//!   the C# reconstruction that did this ranked far above its faithful mode);
//! - the ratio: Turing valued material as W/B so that the side ahead likes exchanges. Here
//!   the material difference is scaled by 2 / (1 + T / T0), T the material on the board and
//!   T0 = 1640 the starting material (in doubled tenths), which is 1.0 at the start and
//!   grows to 2.0 as pieces come off: the same push towards trades when ahead (and away from
//!   them when behind), in a form that additive position play can be added to;
//! - position play, for both sides (own minus the opponent's), in tenths of a pawn, with
//!   Turing's terms: (i) mobility of Q R B N as the rounded square root of the squares
//!   attacked, captures twice (pins not looked at, unlike the faithful bot: the search sees
//!   them, and a pin test measured no gain; see bot/README.md); (ii) R B N +1.0 defended,
//!   +0.5 twice;
//!   (iii) king mobility; (iv) minus a queen's mobility from the king's square; (vi) +0.2
//!   per pawn rank; (vii) +0.3 for a pawn defended by a piece;
//! - the considerable-move idea, as the capture search at the horizon (all captures, with
//!   the static value as a floor: the stand-pat of Turing's alternative B).
//!
//! Rules (v), (viii) and (ix) in a search (they talk about "the move" and "the next move",
//! but a search scores positions at its leaves):
//! - (v) castling: +1.0 while a right is left; and the one-off +1.0 for castling now
//!   becomes +2.0 for a king standing on its castled square (c1/g1 for White), kept as long
//!   as it stays there. Read literally, castling would cost the side its rights credit for a
//!   single point once, and a search (which sees the position, not the move) would never
//!   castle; "castle on the next move" is left to the search, which sees that move itself.
//! - (viii) mate threats: left to the search, which finds a threatened mate by looking one
//!   ply further (a null-move probe of every leaf is too dear for the time it buys).
//! - (ix) +0.5 for the side giving check at a leaf (the side to move is in check).
//!
//! Search: iterative deepening, negamax alpha-beta, a transposition table keyed by
//! board.key(), the table's move first then captures by most valuable victim and least
//! valuable attacker, check extension, null-move pruning, late-move reductions (quiet moves
//! after the first three, one ply, re-searched at full depth if they beat alpha), repetition
//! as a draw.
//!
//! Time: a move gets a 25th of the clock plus half the increment, never more than half the
//! clock; no new iteration starts after half of that. Every node asks `should_stop` after each
//! child and unwinds at once when told to, with a value no parent will take, so neither a
//! chosen move nor the table ever sees a cut-short search. The move played is the best root move found so far, a
//! cut-short iteration's included (it is searched to the full depth), and every new best root
//! move is reported (`report`) as it is found, so a GUI's last PV always starts with the move
//! played.
//!
//! Limits: `go depth N` ends the iterative deepening after depth N (`max_depth`); `go nodes N`
//! stops the search once it has counted N nodes (one per `search` call; `should_stop` compares
//! them); `go movetime` and `stop` end it through `should_stop` too. Under a depth or node limit
//! without a clock no clock reading decides anything, so the same position and table give the
//! same move every time: a fixed-node match repeats bit for bit.
use framework::prelude::*;
use std::collections::HashMap;

/// Material in tenths of a pawn, doubled: P N B R Q K.
pub const V: [i32; 6] = [20, 60, 70, 100, 200, 0];

/// Rule (ii): a defended R, B or N is worth +1.0 (10 tenths; +0.5 more defended twice).
pub const DEFENDED: i32 = 10; // tune 0..=20 // `challenge tune` moves it (docs/guide/tuning.md)

/// Static value for the side to move, in tenths of a pawn (a pawn is 20): see the notes.
pub fn eval(b: &Board) -> i32 {
    let occ = b.occupied();
    let mut m = [0; 2];
    let mut s = -5 * b.is_in_check() as i32;
    for sq in occ {
        let p = b.piece_at(sq).unwrap();
        let (us, k) = (p.color(), p.piece_type());
        let no = b.color_bitboard(us) | b.pieces_of_type(PieceType::King);
        let root = |x: Bitboard| {
            ((((x & !no).count() + (x & occ & !no).count()) as f64).sqrt() * 10.).round() as i32
        };
        let d = b.attackers_to(sq, us);
        let a = piece_attacks(k, sq, occ, us);
        let v = match k {
            PieceType::Pawn => {
                2 * sq.relative_to(us).rank() - 2
                    + 3 * (d & !b.pieces_of_type(PieceType::Pawn)).is_nonempty() as i32
            }
            PieceType::King => {
                root(a.iter().filter(|&t| !b.is_attacked_by(t, !us)).collect())
                    - root(queen_attacks(sq, occ))
                    + 10 * (b.has_kingside_castle_right(us) || b.has_queenside_castle_right(us))
                        as i32
                    + 20 * [2, 6].contains(&sq.relative_to(us).index()) as i32
            }
            PieceType::Queen => root(a),
            _ => root(a) + DEFENDED * d.is_nonempty() as i32 + 5 * (d.count() > 1) as i32,
        };
        let i = (us == b.side_to_move()) as usize;
        m[i] += V[k.index()];
        s += [-v, v][i];
    }
    s + (m[1] - m[0]) * 3280 / (1640 + m[0] + m[1])
}

#[derive(Default)]
pub struct MyBot {
    /// key -> (best move, depth, value, bound: 0 exact, 1 lower, 2 upper).
    pub tt: HashMap<u64, (Move, i32, i32, i32)>,
    /// The best root move found so far (the move last reported).
    pub best: Move,
    /// Milliseconds this move may take.
    pub lim: i32,
    /// Nodes searched for this move.
    pub n: u64,
}

impl MyBot {
    /// Negamax value for the side to move; `d` plies left (captures only at `d <= 0`).
    pub fn search(
        &mut self,
        b: &mut Board,
        t: &Timer,
        mut d: i32,
        ply: i32,
        mut a: i32,
        z: i32,
    ) -> i32 {
        self.n += 1;
        if ply > 0 && b.is_repeated_position() {
            return 0;
        }
        let a0 = a;
        let chk = b.is_in_check();
        d += chk as i32;
        let q = d < 1;
        let k = b.key();
        let &(mut tm, td, ts, tb) = self.tt.get(&k).unwrap_or(&(Move::NULL, -99, 0, 3));
        if ply > 0 && td >= d && (tb == 0 || tb == 1 && ts >= z || tb == 2 && ts <= a) {
            return ts;
        }
        let mut best = if q { eval(b) } else { -30000 };
        if best >= z {
            return best;
        }
        a = a.max(best);
        // Null move: if passing still holds beta, so will a real move (zugzwang aside).
        if !q && !chk && d > 2 && ply > 0 && b.skip_turn() {
            let v = -self.search(b, t, d - 3, ply + 1, -z, 1 - z);
            b.undo_skip_turn();
            if v >= z {
                return v;
            }
        }
        let mut ms = if q { b.captures() } else { b.legal_moves() };
        if ms.is_empty() && !q {
            return if chk { ply - 30000 } else { 0 };
        }
        ms.sort_by_key(|&m| {
            if m == tm {
                -99
            } else {
                m.piece().index() as i32 - m.captured().map_or(0, |c| 8 + 8 * c.index() as i32)
            }
        });
        let mut n = 0;
        for m in ms {
            b.make_move(m);
            n += 1;
            // Late quiet moves are searched a ply shallower first, fully only if they rise.
            let r = (d > 2 && n > 3 && !m.is_capture()) as i32;
            let mut v = -self.search(b, t, d - 1 - r, ply + 1, -z, -a);
            if r > 0 && v > a {
                v = -self.search(b, t, d - 1, ply + 1, -z, -a);
            }
            b.undo_move();
            if t.should_stop(self.lim, self.n) {
                return 30000;
            }
            if v > best {
                best = v;
                tm = m;
                // A better root move is played even if the clock cuts this iteration
                // short, and reported at once, so the last PV always starts with it.
                if ply < 1 {
                    self.best = m;
                    report((d - chk as i32) as u32, v * 5, &[m]);
                }
                a = a.max(v);
                if v >= z {
                    break;
                }
            }
        }
        self.tt.insert(
            k,
            (
                tm,
                d,
                best,
                if best >= z {
                    1
                } else if best > a0 {
                    0
                } else {
                    2
                },
            ),
        );
        best
    }
}

impl Bot for MyBot {
    fn think(&mut self, mut b: Board, t: Timer) -> Move {
        let r = t.ms_remaining();
        self.lim = (r / 25 + t.increment_ms() / 2).min(r / 2);
        if self.tt.len() > 1048576 {
            // 2^20 entries (the literal costs a token, `1 << 20` three).
            self.tt.clear();
        }
        self.best = b.legal_moves()[0];
        self.n = 0;
        for d in 1..=t.max_depth() {
            self.search(&mut b, &t, d, 0, -30000, 30000);
            if t.should_stop(self.lim / 2, self.n) {
                break;
            }
        }
        self.best
    }
}

//! The Rust port of pvs.cs for the kit: the same search, the same constants and the same
//! packing (a C# `decimal` constant is a `u128` here), written as a careful Rust entrant
//! would with the kit's C#-shaped API (the board, timer, root move and time limit kept in
//! the struct where C#'s local functions capture them, `Table`s where C# has `new T[N]`
//! fields, `moves(qs)`, `order_by` for its `Select` and `Array.Sort`, `piece_number()`,
//! `captured_number()` and `piece() as i32` for C#'s `(int)` casts, `force_skip_turn()`,
//! and `abort_search` where C# throws).
use framework::prelude::*;

/// One square a constant (a1 first), 12 signed bytes: mg P N B R Q K, eg P N B R Q K,
/// each a PeSTO value / 1.5 (tests/csharp_pairs/pack_pesto.py writes them).
const PACKED_TABLES: [u128; 64] = [
    68680260866671043956521482752,
    72396532057671382741144236544,
    75186737407056809798802069760,
    77337402494773235399328459264,
    73655004947793353634062267648,
    76728065955037551248392383744,
    74570190181483732716705215232,
    70531093311992994451646771456,
    73949978069138388163940838889,
    77354313122912694185105219071,
    1213766170969874494391056627,
    3081561358716687252805713649,
    3082732579536108768113065974,
    1220991372808161450603187216,
    78581358699470342360447514393,
    76109128861678447697508561905,
    75502243563272129380224135663,
    78896921543467231770095319805,
    2179679196345332391270287613,
    4338830174078735659142088697,
    4650714182750414584320429314,
    3418804494205898040108256002,
    1557077491546032522931212566,
    77376040767919248347220145656,
    75809334407291471090360842222,
    78322691297526401051434484735,
    4348529951871323093202439165,
    4989251265752579450371901704,
    5597312470813537077508379403,
    4671270607515738602000092420,
    1889532129915238800511405575,
    77081081831403468769999453167,
    77683174187029576759828675319,
    4660418590176712645448764169,
    4971145620211324499469864196,
    5607002785501568496010601230,
    5307189237648302219852323087,
    6841316065198388299381157384,
    5308388588818498857642298379,
    647988997712072446081699825,
    2460187690506760228122780156,
    3409199070807303941323827205,
    4649552314590726507357608209,
    3134763521725202195292039957,
    4060800717490095119635265579,
    9313555161389368408616818213,
    8991976096719656293972390161,
    2793818196253891283677814259,
    77048506965452586199286796097,
    3420098330133489500069553497,
    2810795141387667142788526121,
    3437013754922314846191425599,
    3452687399601669993672216365,
    7757691002792640473062648148,
    4666481959896172496725738775,
    2166409085788340820470003193,
    64365675561202951673254613248,
    72128178712990387091628344576,
    75532537563137722899854125312,
    75536154932036771593335594752,
    77083570536266386456057948416,
    3110608541636285942974430976,
    936945656906376365998470656,
    75839562049893511208233580800,
];

#[derive(Default)]
pub struct MyBot {
    b: Board,
    t: Timer,
    /// [square][table]: the unpacked value plus the piece's material.
    tables: Vec<Vec<i32>>,
    /// Transposition table: key, best move, depth, score, bound (0 upper, 1 exact, 2 lower).
    tt: Table<(u64, Move, i32, i32, i32), 0x400000>,
    killers: Table<Move, 256>,
    history: [Table<i32, 64>; 7],
    root_move: Move,
    limit: i32,
}

impl MyBot {
    fn evaluate(&self) -> i32 {
        let (mut mg, mut eg, mut phase) = (0, 0, 0);
        for color in Color::ALL {
            for piece in 0..6 {
                for square in self.b.pieces(PieceType::ALL[piece], color) {
                    let values = &self.tables[square.relative_to(color).index()];
                    mg += values[piece];
                    eg += values[piece + 6];
                    phase += 0x42110 >> piece * 4 & 15;
                }
            }
            mg = -mg;
            eg = -eg;
        }
        (mg * phase + eg * (24 - phase)) / if self.b.is_white_to_move() { 24 } else { -24 }
    }

    fn search(
        &mut self,
        mut depth: i32,
        ply: i32,
        mut alpha: i32,
        beta: i32,
        null_ok: bool,
    ) -> i32 {
        if ply > 0 && self.b.is_repeated_position() {
            return 0;
        }

        let key = self.b.key();
        let (tt_key, tt_move, tt_depth, tt_score, tt_bound) = self.tt[key];
        if tt_key == key
            && ply > 0
            && tt_depth >= depth
            && (tt_bound == 1
                || tt_bound == 2 && tt_score >= beta
                || tt_bound == 0 && tt_score <= alpha)
        {
            return tt_score;
        }

        let in_check = self.b.is_in_check();
        if in_check {
            depth += 1;
        }
        // Internal iterative reduction: a node the table has not seen gets a ply less.
        else if tt_key != key && depth > 3 {
            depth -= 1;
        }
        let (qs, pv) = (depth <= 0, beta - alpha > 1);
        let (mut best, start, mut move_count, eval) = (-99999, alpha, 0, self.evaluate());

        if qs {
            best = eval;
            if best >= beta {
                return best;
            }
            alpha = alpha.max(best);
        } else if !pv && !in_check {
            // Reverse futility: far enough above beta, a quiet position stays there.
            if depth < 5 && eval - 100 * depth >= beta {
                return eval;
            }
            if null_ok && depth > 2 {
                self.b.force_skip_turn();
                let score = -self.search(depth - 3, ply + 1, -beta, 1 - beta, false);
                self.b.undo_skip_turn();
                if score >= beta {
                    return score;
                }
            }
        }

        let moves = self.b.moves(qs);
        if !qs && moves.is_empty() {
            return if in_check { ply - 99999 } else { 0 };
        }

        let mut best_move = Move::NULL;
        for m in moves.order_by(|m| if m == tt_move && tt_key == key {
            -1000000
        } else if m.is_capture() {
            m.piece() as i32 - 1000 * m.captured_number() as i32
        } else if m == self.killers[ply] {
            0
        } else {
            -self.history[m.piece_number()][m.to().index()]
        }) {
            if self.t.ms_elapsed_this_turn() > self.limit {
                abort_search();
            }
            let quiet = !m.is_capture() && !m.is_promotion();
            // Futility: a late quiet move cannot lift a position this far below alpha.
            if move_count > 0
                && quiet
                && !pv
                && !in_check
                && depth < 4
                && eval + 150 * depth <= alpha
            {
                continue;
            }
            self.b.make_move(m);
            move_count += 1;
            let mut score;
            if move_count == 1 || qs {
                score = -self.search(depth - 1, ply + 1, -beta, -alpha, true);
            } else {
                score = -self.search(
                    depth
                        - if move_count > 3 && depth > 2 && quiet {
                            3
                        } else {
                            1
                        },
                    ply + 1,
                    -alpha - 1,
                    -alpha,
                    true,
                );
                if score > alpha {
                    score = -self.search(depth - 1, ply + 1, -beta, -alpha, true);
                }
            }
            self.b.undo_move();

            if score > best {
                best = score;
                best_move = m;
                if ply == 0 {
                    self.root_move = m;
                }
                alpha = alpha.max(score);
                if alpha >= beta {
                    if quiet {
                        self.killers[ply] = m;
                        self.history[m.piece_number()][m.to().index()] += depth * depth;
                    }
                    break;
                }
            }
        }

        self.tt[key] = (
            key,
            best_move,
            depth,
            best,
            if best >= beta {
                2
            } else if best > start {
                1
            } else {
                0
            },
        );
        best
    }
}

impl Bot for MyBot {
    fn think(&mut self, board: Board, timer: Timer) -> Move {
        // C#'s constructor: unpack the tables once.
        if self.tables.is_empty() {
            let material = [82, 337, 365, 477, 1025, 0, 94, 281, 297, 512, 936, 0];
            self.tables = PACKED_TABLES
                .iter()
                .map(|packed| packed
                    .to_le_bytes()
                    .iter()
                    .zip(material)
                    .map(|(&b, m)| (b as i8 as f64 * 1.5) as i32 + m)
                    .collect())
                .collect();
        }
        self.b = board;
        self.t = timer;
        self.root_move = self.b.legal_moves()[0];
        self.history = Default::default();
        self.limit = self.t.ms_remaining() / 30 + self.t.increment_ms() / 2;
        catch_abort(|| {
            let (mut depth, mut score) = (1, 0);
            while self.t.ms_elapsed_this_turn() < self.limit / 2 {
                // Aspiration: a narrow window around the last score, the full one if it fails.
                let result = self.search(depth, 0, score - 40, score + 40, true);
                score = if (result - score).abs() < 40 {
                    result
                } else {
                    self.search(depth, 0, -99999, 99999, true)
                };
                depth += 1;
            }
        });
        self.root_move
    }
}

//! tt_lab: the transposition-table lab bot. NOT a challenge entry: it is well over the
//! 1024-token limit on purpose (`challenge tokens bot/lab/tt_lab.rs` says by how much), so
//! that every replacement scheme can be switched on by one constant. The kit runs the files
//! of `bot/lab/` over the limit in its local commands (build, match, bench, play, uci);
//! `challenge submit` refuses it like any other file over the limit.
//!
//! It reproduces the seven replacement schemes compared by D. M. Breuker,
//! J. W. H. M. Uiterwijk and H. J. van den Herik, "Replacement schemes and two-level tables",
//! ICCA Journal 19(3), 1996, pp. 175-180 (the schemes were defined in their "Replacement
//! schemes for transposition tables", ICCA Journal 17(4), 1994). The note's test positions
//! are `suites/breuker1996.epd`; docs/experiments/tt-replacement.md has the study.
//!
//! The search is deliberately plain, so that only the table differs between variants:
//! iterative deepening, fail-soft negamax alpha-beta, a capture-only quiescence search with
//! a stand-pat, and move ordering by the table's move first, then captures by most valuable
//! victim and least valuable attacker, then quiet moves in generation order. No null move,
//! no reductions, no extensions, no repetition detection: nothing whose result depends on
//! the path to a position or on what the table happens to hold.
//!
//! Why the schemes cannot change the result of a fixed-depth search: the table cuts a search
//! off only with an entry of exactly the remaining depth (an entry of greater depth would
//! give a deeper, different value), and every stored value is an exact value or a valid
//! bound of that depth's value. A fail-soft alpha-beta fed only valid bounds returns the
//! minimax value at a full-window root, so every scheme and every size find the same root
//! score at the same depth; what they change is how many nodes that takes (and, among moves
//! of equal value, which one is played). tests/tt_lab.rs holds the bot to this.
//!
//! The table: `1 << TT_BITS` entries in one array, indexed by the low bits of the Zobrist
//! key, each holding the whole key (so a different position is never taken for this one),
//! the best move, the value and its bound, the remaining depth, the subtree size (nodes) and
//! a one-bit time stamp. The schemes (the `SCHEME` constant):
//!
//! - `DEEP`: keeps the position searched to the greater depth (the newcomer wins ties).
//! - `NEW`: always stores the newcomer.
//! - `OLD`: never replaces a position of the current search.
//! - `BIG1`, `BIGALL`: keep the position with the bigger subtree, in nodes (the newcomer
//!   wins ties). The 1996 note does not spell out the difference; we read the 1994 names
//!   literally: `BIG1` counts each position of the subtree once, so a node answered from
//!   the table adds nothing (its position was counted where it was searched), while `BIGALL`
//!   counts every node visited, answered from the table or not. The note reports the two
//!   as nearly indistinguishable, as they are here.
//! - `TWODEEP`, `TWOBIG1`: two-level tables (Ebeling 1986): the same number of entries in
//!   buckets of two, so half the buckets. The newcomer is always stored and overwrites the
//!   less valuable of the bucket's two positions, by depth (`TWODEEP`) or by subtree size
//!   (`TWOBIG1`); on a tie the second slot goes.
//! - `NONE`: no table at all, the reference that shows what a table saves.
//!
//! A position already in the table is always updated in place, whatever the scheme: that is
//! not a replacement. The time stamp is ALIBABA's one bit per entry: every entry goes stale
//! when a new search starts (one pass over the table, far cheaper than the search), and
//! turns fresh again when it is stored or found during this search. A stale entry is still
//! read, but any newcomer may overwrite it, in every scheme: without the stamp, `OLD` would
//! keep the first game move's positions for the rest of the game.
//!
//! Nodes: every call of `search` and `quiesce` counts one (interior and leaf nodes alike, as
//! the paper counts them), and the count is passed to `Timer::should_stop` after every move
//! searched, so the host reports it as `info nodes` before `bestmove`; `report` sends the
//! depth and score of each finished iteration.
use framework::prelude::*;

/// Depth-preferred: keep the deeper subtree.
pub const DEEP: u8 = 0;
/// Always replace.
pub const NEW: u8 = 1;
/// Never replace a position of this search.
pub const OLD: u8 = 2;
/// Keep the bigger subtree, each position counted once.
pub const BIG1: u8 = 3;
/// Keep the bigger subtree, every node visited counted.
pub const BIGALL: u8 = 4;
/// Two-level: the newcomer plus the deeper of the other two.
pub const TWODEEP: u8 = 5;
/// Two-level: the newcomer plus the bigger (as `BIG1`) of the other two.
pub const TWOBIG1: u8 = 6;
/// No table.
pub const NONE: u8 = 7;

/// The replacement scheme of this build.
pub const SCHEME: u8 = TWOBIG1; // vary DEEP|NEW|OLD|BIG1|BIGALL|TWODEEP|TWOBIG1|NONE
/// The table holds `1 << TT_BITS` positions (32 bytes each: 2^20 is 32 MiB).
pub const TT_BITS: u32 = 20; // vary 8..=22

/// The value of a mate now; a mate `n` plies away is worth `MATE - n`.
pub const MATE: i32 = 30_000;
/// Values beyond this are mates, stored relative to the node (see `to_table`).
const MATED_BOUND: i32 = MATE - 1000;
/// Bounds of a stored value.
const EXACT: u8 = 0;
const LOWER: u8 = 1;
const UPPER: u8 = 2;

/// Material in centipawns: P N B R Q K.
pub const VALUE: [i32; 6] = [100, 320, 330, 500, 900, 0];

/// One position in the table.
#[derive(Clone, Copy, Default, PartialEq, Eq)]
pub struct Entry {
    /// The whole Zobrist key.
    pub key: u64,
    /// Nodes of the subtree searched below it (read only by the BIG schemes).
    pub size: u64,
    /// The best move found, or `Move::NULL`.
    pub mv: Move,
    /// The value, mates counted from this node.
    pub score: i32,
    /// The remaining depth it was searched to; 0 in an empty entry (never a cutoff).
    pub depth: i32,
    /// `EXACT`, `LOWER` or `UPPER`.
    pub bound: u8,
    /// The time stamp: stored or found during the current search.
    pub fresh: bool,
}

/// A fixed-size table with one replacement scheme.
#[derive(Clone, Default)]
pub struct Table {
    /// The entries; a two-level table pairs them as buckets `(2i, 2i + 1)`.
    pub slots: Vec<Entry>,
    /// One of the scheme constants.
    pub scheme: u8,
}

impl Table {
    /// A table of `1 << bits` entries (none with `NONE`).
    pub fn new(scheme: u8, bits: u32) -> Table {
        let len = if scheme == NONE {
            0
        } else {
            1usize << bits.clamp(1, 30)
        };
        Table {
            slots: vec![Entry::default(); len],
            scheme,
        }
    }

    /// Whether buckets hold two positions.
    pub fn two_level(&self) -> bool {
        self.scheme == TWODEEP || self.scheme == TWOBIG1
    }

    /// A new search begins: every entry goes stale.
    pub fn new_search(&mut self) {
        for entry in &mut self.slots {
            entry.fresh = false;
        }
    }

    /// The slots `key` may occupy: one, or a bucket of two.
    fn bucket(&self, key: u64) -> std::ops::Range<usize> {
        let width = 1 + self.two_level() as usize;
        let start = (key as usize & (self.slots.len() / width - 1)) * width;
        start..start + width
    }

    /// The entry of `key`, marked fresh, if the table holds it.
    pub fn probe(&mut self, key: u64) -> Option<Entry> {
        if self.slots.is_empty() {
            return None;
        }
        let range = self.bucket(key);
        let slot = self.slots[range]
            .iter_mut()
            .find(|e| e.key == key && e.depth > 0)?;
        slot.fresh = true;
        Some(*slot)
    }

    /// How much an entry is worth keeping in a two-level bucket: fresh before stale, then
    /// depth or size.
    fn worth(&self, e: &Entry) -> (bool, u64) {
        let measure = if self.scheme == TWODEEP {
            e.depth as u64
        } else {
            e.size
        };
        (e.fresh, measure)
    }

    /// Whether a single-level scheme lets `new` overwrite `old`, a different position.
    fn replaces(&self, old: &Entry, new: &Entry) -> bool {
        !old.fresh
            || match self.scheme {
                NEW => true,
                OLD => false,
                DEEP => new.depth >= old.depth,
                _ => new.size >= old.size,
            }
    }

    /// Stores `new` where its scheme puts it, or nowhere.
    pub fn store(&mut self, new: Entry) {
        if self.slots.is_empty() {
            return;
        }
        let range = self.bucket(new.key);
        let i = range.start;
        let slot = if let Some(same) = range.clone().find(|&j| self.slots[j].key == new.key) {
            same
        } else if self.two_level() {
            if self.worth(&self.slots[i + 1]) <= self.worth(&self.slots[i]) {
                i + 1
            } else {
                i
            }
        } else if self.replaces(&self.slots[i], &new) {
            i
        } else {
            return;
        };
        self.slots[slot] = Entry { fresh: true, ..new };
    }

    /// How many entries hold a position.
    pub fn used(&self) -> usize {
        self.slots.iter().filter(|e| e.depth > 0).count()
    }
}

/// A mate value as the table keeps it: counted from the node, not the root.
fn to_table(score: i32, ply: i32) -> i32 {
    if score > MATED_BOUND {
        score + ply
    } else if score < -MATED_BOUND {
        score - ply
    } else {
        score
    }
}

/// A stored value back at `ply` plies from the root.
fn from_table(score: i32, ply: i32) -> i32 {
    if score > MATED_BOUND {
        score - ply
    } else if score < -MATED_BOUND {
        score + ply
    } else {
        score
    }
}

/// Material and piece placement for the side to move, in centipawns: pawns gain as they
/// advance, knights and bishops (less, queens) in the centre, the king at home while queens
/// and rooks are about and in the centre once they are gone.
pub fn eval(b: &Board) -> i32 {
    let heavy =
        b.pieces_of_type(PieceType::Queen).count() * 2 + b.pieces_of_type(PieceType::Rook).count();
    let mut score = 0;
    for sq in b.occupied() {
        let Some(p) = b.piece_at(sq) else { continue };
        let r = sq.relative_to(p.color());
        let (file, rank) = (r.file(), r.rank());
        // 0 on the rim's corners up to 6 on the four centre squares.
        let centre = 7 - ((2 * file - 7).abs() + (2 * rank - 7).abs()) / 2;
        let place = match p.piece_type() {
            PieceType::Pawn => 6 * (rank - 1),
            PieceType::Knight => 5 * centre - 10,
            PieceType::Bishop => 3 * centre,
            PieceType::Queen => centre,
            PieceType::Rook => 10 * (rank == 6) as i32,
            PieceType::King if heavy > 2 => -12 * rank - 4 * centre,
            PieceType::King => 6 * centre,
        };
        let value = VALUE[p.piece_type().index()] + place;
        score += if p.color() == b.side_to_move() {
            value
        } else {
            -value
        };
    }
    score
}

/// Sort key for move ordering: the table's move, then captures by victim and attacker.
fn order(m: Move, tt_move: Move) -> i32 {
    if m == tt_move {
        i32::MIN
    } else {
        m.captured().map_or(0, |c| {
            m.piece().index() as i32 - 10 * (1 + c.index() as i32)
        })
    }
}

/// The bot: a table and the counters of one search.
pub struct MyBot {
    /// The transposition table.
    pub table: Table,
    /// Nodes visited this move (reported).
    pub nodes: u64,
    /// Nodes searched this move, those answered from the table left out (`BIG1` sizes).
    pub searched: u64,
    /// Milliseconds this move may take.
    pub budget: i32,
    /// The search was told to stop: unwind without storing anything.
    pub stopped: bool,
    /// The best root move of the iteration under way.
    pub root_best: Move,
}

impl Default for MyBot {
    fn default() -> MyBot {
        MyBot::with(SCHEME, TT_BITS)
    }
}

impl MyBot {
    /// A bot with `scheme` and a table of `1 << bits` entries.
    pub fn with(scheme: u8, bits: u32) -> MyBot {
        MyBot {
            table: Table::new(scheme, bits),
            nodes: 0,
            searched: 0,
            budget: 0,
            stopped: false,
            root_best: Move::NULL,
        }
    }

    /// The subtree size since the counters read `(nodes, searched)`, by the scheme's measure.
    fn size_since(&self, nodes: u64, searched: u64) -> u64 {
        if self.table.scheme == BIGALL {
            self.nodes - nodes
        } else {
            self.searched - searched
        }
    }

    /// Captures only, from a stand-pat on the static value.
    pub fn quiesce(&mut self, b: &mut Board, mut alpha: i32, beta: i32) -> i32 {
        self.nodes += 1;
        self.searched += 1;
        let mut best = eval(b);
        if best >= beta {
            return best;
        }
        alpha = alpha.max(best);
        let mut moves = b.captures();
        moves.sort_by_key(|&m| order(m, Move::NULL));
        for m in moves {
            b.make_move(m);
            let v = -self.quiesce(b, -beta, -alpha);
            b.undo_move();
            if v > best {
                best = v;
                alpha = alpha.max(v);
                if v >= beta {
                    break;
                }
            }
        }
        best
    }

    /// Negamax alpha-beta value for the side to move, `depth` plies left, `ply` from the
    /// root.
    pub fn search(
        &mut self,
        b: &mut Board,
        t: &Timer,
        depth: i32,
        ply: i32,
        mut alpha: i32,
        beta: i32,
    ) -> i32 {
        if depth < 1 {
            return self.quiesce(b, alpha, beta);
        }
        self.nodes += 1;
        let (nodes0, searched0) = (self.nodes - 1, self.searched);
        let key = b.key();
        let mut tt_move = Move::NULL;
        if let Some(e) = self.table.probe(key) {
            tt_move = e.mv;
            let s = from_table(e.score, ply);
            let usable = e.bound == EXACT
                || (e.bound == LOWER && s >= beta)
                || (e.bound == UPPER && s <= alpha);
            if ply > 0 && e.depth == depth && usable {
                return s;
            }
        }
        self.searched += 1;
        let mut moves = b.legal_moves();
        if moves.is_empty() {
            return if b.is_in_check() { ply - MATE } else { 0 };
        }
        moves.sort_by_key(|&m| order(m, tt_move));
        let alpha0 = alpha;
        let (mut best, mut best_move) = (-MATE - 1, Move::NULL);
        for m in moves {
            b.make_move(m);
            let v = -self.search(b, t, depth - 1, ply + 1, -beta, -alpha);
            b.undo_move();
            self.stopped = self.stopped || self.must_stop(t, self.budget);
            if self.stopped {
                return 0;
            }
            if v > best {
                (best, best_move) = (v, m);
                if ply == 0 {
                    self.root_best = m;
                }
                alpha = alpha.max(v);
                if v >= beta {
                    break;
                }
            }
        }
        let bound = if best >= beta {
            LOWER
        } else if best > alpha0 {
            EXACT
        } else {
            UPPER
        };
        self.table.store(Entry {
            key,
            size: self.size_since(nodes0, searched0),
            mv: best_move,
            score: to_table(best, ply),
            depth,
            bound,
            fresh: true,
        });
        best
    }

    /// Whether to stop, having spent `budget` ms. It always asks the timer, which is how the
    /// host learns the node count; but under `go depth N` alone only the client's `stop`
    /// ends the search: the timer's safety net (10 s without a clock) would cut the paper's
    /// 10-ply endgame searches short and make their node counts depend on the machine.
    fn must_stop(&self, t: &Timer, budget: i32) -> bool {
        let by_timer = t.should_stop(budget, self.nodes);
        let limits = t.limits();
        if limits.depth.is_some() && limits.nodes.is_none() {
            t.is_stopped()
        } else {
            by_timer
        }
    }

    /// Iterative deepening to the client's depth or this move's time; returns the best
    /// move of the last finished iteration and its value.
    pub fn think_scored(&mut self, b: &mut Board, t: &Timer) -> (Move, i32) {
        let left = t.ms_remaining();
        self.budget = (left / 30 + t.increment_ms() / 2).min(left / 2);
        self.table.new_search();
        (self.nodes, self.searched, self.stopped) = (0, 0, false);
        let mut best = (b.legal_moves().first().copied().unwrap_or(Move::NULL), 0);
        for depth in 1..=t.max_depth() {
            let v = self.search(b, t, depth, 0, -MATE - 1, MATE + 1);
            if self.stopped {
                break;
            }
            best = (self.root_best, v);
            report(depth as u32, v, &[self.root_best]);
            if self.must_stop(t, self.budget / 2) {
                break;
            }
        }
        best
    }
}

impl Bot for MyBot {
    fn think(&mut self, mut b: Board, t: Timer) -> Move {
        self.think_scored(&mut b, &t).0
    }
}

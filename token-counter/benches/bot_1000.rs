//! A realistic full-size bot for the benchmark: iterative deepening
//! alpha-beta with quiescence, a transposition table and move ordering.
use framework::prelude::*;
use std::collections::HashMap;

const VALUES: [i32; 6] = [100, 310, 330, 500, 1000, 0];
// Packed piece-square bonuses, one byte per square and kind.
const PST: [u64; 12] = [
    0x0000_0000_0000_0000, 0x0505_0A14_1E28_3200, 0x0A14_1E28_1E14_0A00, 0x0000_0505_0A0A_0500,
    0x0000_0000_0505_0000, 0x1414_0A00_0000_0A14, 0x0102_0304_0403_0201, 0x0203_0405_0504_0302,
    0x0A0A_0A0A_0A0A_0A0A, 0x0000_0505_0505_0000, 0x0101_0101_0101_0101, 0x1E1E_0A00_000A_1E1E,
];

#[derive(Clone, Copy, Default)]
struct Entry {
    depth: i32,
    score: i32,
    flag: u8,
    best: Option<Move>,
}

#[derive(Default)]
pub struct MyBot {
    table: HashMap<u64, Entry>,
    killers: Vec<[Option<Move>; 2]>,
    history: [[i32; 64]; 64],
    nodes: u64,
    deadline: u64,
    stopped: bool,
}

impl MyBot {
    fn evaluate(&self, board: &Board) -> i32 {
        let mut score = 0;
        for white in [true, false] {
            let sign = if white { 1 } else { -1 };
            for kind in 0..6 {
                let mut pieces = board.pieces(kind, white);
                while let Some(sq) = pieces.pop_lsb() {
                    let index = if white { sq.index() } else { sq.index() ^ 56 };
                    let bonus = (PST[kind * 2 + index / 32] >> (index % 8 * 8)) & 0xFF;
                    score += sign * (VALUES[kind] + bonus as i32);
                }
            }
        }
        if board.side_to_move().is_white() { score } else { -score }
    }

    fn order(&self, board: &Board, moves: &mut Vec<Move>, best: Option<Move>, ply: usize) {
        let killers = self.killers.get(ply).copied().unwrap_or_default();
        moves.sort_by_key(|&mv| {
            if Some(mv) == best {
                return -1_000_000;
            }
            if let Some(victim) = mv.captured() {
                return -(VALUES[victim.index()] * 10 - VALUES[board.piece_at(mv.from()).index()]);
            }
            if killers.contains(&Some(mv)) {
                return -5_000;
            }
            -self.history[mv.from().index()][mv.to().index()]
        });
    }

    fn quiesce(&mut self, board: &mut Board, mut alpha: i32, beta: i32) -> i32 {
        let stand = self.evaluate(board);
        if stand >= beta {
            return beta;
        }
        alpha = alpha.max(stand);
        let mut captures = board.captures().as_slice().to_vec();
        self.order(board, &mut captures, None, 0);
        for mv in captures {
            board.make_move(mv);
            let score = -self.quiesce(board, -beta, -alpha);
            board.undo_move();
            if score >= beta {
                return beta;
            }
            alpha = alpha.max(score);
        }
        alpha
    }

    fn search(&mut self, board: &mut Board, timer: &Timer, depth: i32, ply: usize, mut alpha: i32, beta: i32) -> i32 {
        self.nodes += 1;
        if self.nodes % 2048 == 0 && timer.ms_elapsed_this_turn() > self.deadline {
            self.stopped = true;
        }
        if self.stopped {
            return 0;
        }
        if ply > 0 && board.is_draw() {
            return 0;
        }
        let key = board.key();
        let entry = self.table.get(&key).copied();
        if let Some(e) = entry {
            if ply > 0 && e.depth >= depth && (e.flag == 0 || e.flag == 1 && e.score >= beta || e.flag == 2 && e.score <= alpha) {
                return e.score;
            }
        }
        if depth <= 0 {
            return self.quiesce(board, alpha, beta);
        }
        let mut moves = board.legal_moves_vec();
        if moves.is_empty() {
            return if board.is_in_check() { ply as i32 - 100_000 } else { 0 };
        }
        self.order(board, &mut moves, entry.and_then(|e| e.best), ply);
        let start = alpha;
        let mut best = (i32::MIN + 1, moves[0]);
        for (i, &mv) in moves.iter().enumerate() {
            board.make_move(mv);
            let reduce = if i > 3 && depth > 2 && mv.captured().is_none() { 1 } else { 0 };
            let mut score = -self.search(board, timer, depth - 1 - reduce, ply + 1, -beta, -alpha);
            if reduce > 0 && score > alpha {
                score = -self.search(board, timer, depth - 1, ply + 1, -beta, -alpha);
            }
            board.undo_move();
            if score > best.0 {
                best = (score, mv);
            }
            if score > alpha {
                alpha = score;
            }
            if alpha >= beta {
                if mv.captured().is_none() {
                    while self.killers.len() <= ply {
                        self.killers.push([None; 2]);
                    }
                    self.killers[ply] = [Some(mv), self.killers[ply][0]];
                    self.history[mv.from().index()][mv.to().index()] += depth * depth;
                }
                break;
            }
        }
        let flag = if best.0 <= start { 2 } else if best.0 >= beta { 1 } else { 0 };
        self.table.insert(key, Entry { depth, score: best.0, flag, best: Some(best.1) });
        best.0
    }
}

impl Bot for MyBot {
    fn think(&mut self, board: &mut Board, timer: &Timer) -> Move {
        self.deadline = timer.ms_remaining() / 30 + timer.increment_ms() / 2;
        self.stopped = false;
        self.nodes = 0;
        let mut best = board.legal_moves()[0];
        for depth in 1..64 {
            let score = self.search(board, timer, depth, 0, -1_000_000, 1_000_000);
            if self.stopped {
                break;
            }
            if let Some(e) = self.table.get(&board.key()).and_then(|e| e.best) {
                best = e;
            }
            eprintln!("info depth {depth} score cp {score} nodes {}", self.nodes); // #DEBUG
            if timer.ms_elapsed_this_turn() * 3 > self.deadline {
                break;
            }
        }
        best
    }
}

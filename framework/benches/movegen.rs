//! Per-call costs of the kit's hot paths against raw cozy-chess: legal-move generation,
//! move counting, captures and make/undo.
//!
//! `cargo bench -p framework --bench movegen`

// Test and bench scenarios read top to bottom as one story; the length limit is for library code.
#![allow(clippy::too_many_lines)]

use std::hint::black_box;
use std::time::Duration;

use cozy_chess as cz;
use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use framework::prelude::*;

mod common;
use common::{cozy_buffer, cozy_moves_into};

/// A spread of openings, middlegames and endgames (the CPW perft positions).
const POSITIONS: [&str; 6] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
];

fn bench_movegen(c: &mut Criterion) {
    let boards: Vec<Board> = POSITIONS
        .iter()
        .map(|f| Board::from_fen(f).unwrap())
        .collect();
    let raws: Vec<cz::Board> = POSITIONS.iter().map(|f| f.parse().unwrap()).collect();

    let mut group = c.benchmark_group("legal_moves_6_positions");
    group.bench_function(BenchmarkId::new("kit", "legal_moves"), |b| {
        b.iter(|| {
            boards
                .iter()
                .map(|bd| black_box(bd.legal_moves()).len())
                .sum::<usize>()
        })
    });
    group.bench_function(BenchmarkId::new("cozy", "legal_moves"), |b| {
        b.iter(|| {
            let mut total = 0;
            for bd in &raws {
                let mut buf = cozy_buffer();
                total += black_box(cozy_moves_into(bd, &mut buf)).len();
            }
            total
        })
    });
    group.bench_function(BenchmarkId::new("kit", "captures"), |b| {
        b.iter(|| {
            boards
                .iter()
                .map(|bd| black_box(bd.captures()).len())
                .sum::<usize>()
        })
    });
    group.bench_function(BenchmarkId::new("kit", "legal_move_count"), |b| {
        b.iter(|| {
            boards
                .iter()
                .map(|bd| black_box(bd).legal_move_count())
                .sum::<usize>()
        })
    });
    group.bench_function(BenchmarkId::new("cozy", "legal_move_count"), |b| {
        b.iter(|| {
            raws.iter()
                .map(|bd| {
                    let mut n = 0;
                    black_box(bd).generate_moves(|pm| {
                        n += pm.len();
                        false
                    });
                    n
                })
                .sum::<usize>()
        })
    });
    group.finish();

    // Every legal move of every position, made and taken back.
    let mut group = c.benchmark_group("make_undo_all_moves_6_positions");
    let mut kit_boards = boards.clone();
    let kit_moves: Vec<MoveList> = boards.iter().map(|b| b.legal_moves()).collect();
    group.bench_function(BenchmarkId::new("kit", "make_undo"), |b| {
        b.iter(|| {
            let mut keys = 0u64;
            for (bd, moves) in kit_boards.iter_mut().zip(&kit_moves) {
                for &mv in moves.iter() {
                    bd.make_move(mv);
                    keys ^= bd.key();
                    bd.undo_move();
                }
            }
            keys
        })
    });
    let raw_moves: Vec<Vec<cz::Move>> = raws
        .iter()
        .map(|bd| cozy_moves_into(bd, &mut cozy_buffer()).to_vec())
        .collect();
    group.bench_function(BenchmarkId::new("cozy", "copy_play"), |b| {
        b.iter(|| {
            let mut keys = 0u64;
            for (bd, moves) in raws.iter().zip(&raw_moves) {
                for &mv in moves {
                    let mut child = bd.clone();
                    child.play_unchecked(mv);
                    keys ^= black_box(&child).hash();
                }
            }
            keys
        })
    });
    group.finish();

    let mut group = c.benchmark_group("queries_6_positions");
    group.bench_function("is_square_attacked_all_64", |b| {
        b.iter(|| {
            let mut n = 0;
            for bd in &boards {
                for sq in Square::ALL {
                    n += black_box(bd).is_square_attacked(sq) as u32;
                }
            }
            n
        })
    });
    group.bench_function("outcome", |b| {
        b.iter(|| {
            boards
                .iter()
                .filter(|bd| black_box(*bd).outcome().is_some())
                .count()
        })
    });
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2));
    targets = bench_movegen
}
criterion_main!(benches);

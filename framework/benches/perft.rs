//! Perft through the kit's public `Board` API against raw cozy-chess doing the same work,
//! in the same criterion group so the ratios compare like with like.
//!
//! `cargo bench -p framework --bench perft`

use std::hint::black_box;
use std::time::Duration;

use cozy_chess as cz;
use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use framework::chess::perft::{perft, perft_bulk};
use framework::prelude::*;

mod common;
use common::{cozy_perft, cozy_perft_bulk};

const STARTPOS: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

fn bench_perft(c: &mut Criterion) {
    let cases = [
        ("startpos", STARTPOS, 5, 4_865_609u64),
        ("kiwipete", KIWIPETE, 4, 4_085_603),
    ];
    let mut group = c.benchmark_group("perft_make_undo");
    for (name, fen, depth, expected) in cases {
        let id = format!("{name}_d{depth}");
        let mut board = Board::from_fen(fen).unwrap();
        assert_eq!(perft(&mut board, depth), expected);
        group.bench_function(BenchmarkId::new("kit", &id), |b| {
            b.iter(|| perft(black_box(&mut board), depth))
        });
        let raw: cz::Board = fen.parse().unwrap();
        assert_eq!(cozy_perft(&raw, depth), expected);
        group.bench_function(BenchmarkId::new("cozy", &id), |b| {
            b.iter(|| cozy_perft(black_box(&raw), depth))
        });
    }
    group.finish();

    let cases = [
        ("startpos", STARTPOS, 5, 4_865_609u64),
        ("startpos", STARTPOS, 6, 119_060_324),
        ("kiwipete", KIWIPETE, 4, 4_085_603),
    ];
    let mut group = c.benchmark_group("perft_bulk");
    for (name, fen, depth, expected) in cases {
        let id = format!("{name}_d{depth}");
        let mut board = Board::from_fen(fen).unwrap();
        assert_eq!(perft_bulk(&mut board, depth), expected);
        group.bench_function(BenchmarkId::new("kit", &id), |b| {
            b.iter(|| perft_bulk(black_box(&mut board), depth))
        });
        let raw: cz::Board = fen.parse().unwrap();
        assert_eq!(cozy_perft_bulk(&raw, depth), expected);
        group.bench_function(BenchmarkId::new("cozy", &id), |b| {
            b.iter(|| cozy_perft_bulk(black_box(&raw), depth))
        });
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(4));
    targets = bench_perft
}
criterion_main!(benches);

//! Whole-field figures for the local challenge: the rating fit over 30,000 games between
//! 600 players, and pairing one Swiss round of 600 players with that history.
//!
//! `cargo bench --bench challenge`. The same figures, without criterion:
//! `challenge bench-ratings --players 600 --games 30000`.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};

use league::{SwissPlayer, pair_round};
use results::{RatingOptions, fit, synthetic_games};

const PLAYERS: usize = 600;
const GAMES: usize = 30_000;

fn bench(c: &mut Criterion) {
    let games = synthetic_games(PLAYERS, GAMES, 42);
    let mut group = c.benchmark_group("challenge");
    group.sample_size(10);
    group.bench_function("ratings_600_players_30000_games", |b| {
        b.iter(|| fit(PLAYERS, black_box(&games), &RatingOptions::default()))
    });

    let mut scores = vec![0.0; PLAYERS];
    let mut met = vec![false; PLAYERS * PLAYERS];
    for g in &games {
        scores[g.white] += g.score;
        scores[g.black] += 1.0 - g.score;
        met[g.white * PLAYERS + g.black] = true;
        met[g.black * PLAYERS + g.white] = true;
    }
    let players: Vec<SwissPlayer> = scores
        .iter()
        .enumerate()
        .map(|(seed, &score)| SwissPlayer {
            score,
            seed,
            had_bye: false,
        })
        .collect();
    group.bench_function("swiss_pairing_600_players", |b| {
        b.iter(|| pair_round(black_box(&players), |x, y| met[x * PLAYERS + y]))
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);

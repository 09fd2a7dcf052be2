//! The rating fit at the scale of a real open challenge: 30,000 games between 600
//! players, on a wide field (strengths over 4,400 Elo, Swiss-style pairings, as in the
//! C# challenge's tournament) against the narrow reference field (800 Elo, random
//! pairings), for the kit model and BayesElo's.
//!
//! `cargo bench --bench ratings`. Peak memory and the PGN reading are measured on the
//! command itself: `scripts/wide_field_pgn.py big.pgn` writes a 30 MB file, then
//! `/usr/bin/time -v challenge ratings big.pgn`.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};

use kit::challenge::ratings::{self, Model, RatingOptions, fit, synthetic_games, wide_field_games};

const PLAYERS: usize = 600;
const GAMES: usize = 30_000;

fn bench(c: &mut Criterion) {
    let narrow = synthetic_games(PLAYERS, GAMES, 42);
    let wide = wide_field_games(PLAYERS, GAMES, 42);
    let bayeselo = RatingOptions {
        model: Model::BayesElo {
            advantage: ratings::BAYESELO_ADVANTAGE,
            draw_elo: ratings::BAYESELO_DRAW_ELO,
        },
        ..RatingOptions::default()
    };
    let mut group = c.benchmark_group("ratings");
    group.sample_size(10);
    group.bench_function("narrow_600_players_30000_games", |b| {
        b.iter(|| fit(PLAYERS, black_box(&narrow), &RatingOptions::default()))
    });
    group.bench_function("wide_600_players_30000_games", |b| {
        b.iter(|| fit(PLAYERS, black_box(&wide), &RatingOptions::default()))
    });
    group.bench_function("wide_600_players_30000_games_bayeselo", |b| {
        b.iter(|| fit(PLAYERS, black_box(&wide), &bayeselo))
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);

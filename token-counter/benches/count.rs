//! How long counting and checking a full-size bot takes (the kit does it on
//! every build, so it must stay well under 10 ms).

use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;

/// A realistic bot of about a thousand tokens (1088 counted, 52 #DEBUG).
const BOT: &str = include_str!("../tests/fixtures/bot_1000.rs");

fn count(c: &mut Criterion) {
    let mut group = c.benchmark_group("token-counter");
    group.sample_size(20);
    group.bench_function("analyze bot_1000.rs", |b| {
        b.iter(|| token_counter::analyze(black_box(BOT)).unwrap())
    });
    group.finish();
}

criterion_group!(benches, count);
criterion_main!(benches);

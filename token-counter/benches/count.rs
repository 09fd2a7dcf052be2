//! How long counting and checking a full-size bot takes (the kit does it on
//! every build, so it must stay well under 10 ms), beside the cost of the
//! `syn` parse alone that any analysis has to pay, and what splitting the
//! count by item (`challenge tokens --items`) adds to it.

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
    group.bench_function("itemize bot_1000.rs", |b| {
        b.iter(|| token_counter::itemize(black_box(BOT)).unwrap())
    });
    group.bench_function("syn::parse_file alone", |b| {
        b.iter(|| {
            let file = syn::parse_file(black_box(BOT)).unwrap();
            // As `analyze` does, so that span memory does not pile up.
            proc_macro2::extra::invalidate_current_thread_spans();
            file
        })
    });
    group.finish();
}

criterion_group!(benches, count);
criterion_main!(benches);

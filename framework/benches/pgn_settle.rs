//! Settling ambiguous moves on a hostile file: 1.5 MB of games whose every knight move
//! could be any of eight, each settled only at the game's end (`tests/common/ambiguous_pgn.rs`).
//! Settling replays the rest of a game per candidate, nested; the file's budget of replayed
//! plies (`scan::SETTLE_BUDGET`) bounds it. The reference, in the same group, reads the
//! same bytes without settling (every ambiguous move an error, as the plain reader reads it).
//!
//! `cargo bench -p framework --bench pgn_settle`

use std::hint::black_box;
use std::time::Duration;

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use framework::notation::scan::{PgnScanner, ScanOptions, ScannedGame};

#[path = "../tests/common/ambiguous_pgn.rs"]
mod ambiguous_pgn;

/// The games a scan of `text` reads with `options`, and the ones it settled.
fn scan(text: &str, options: ScanOptions) -> (usize, usize) {
    let mut scanner = PgnScanner::new(text, options);
    let mut game = ScannedGame::default();
    let (mut games, mut settled) = (0, 0);
    while scanner.next_into(&mut game) {
        games += 1;
        settled += usize::from(game.error.is_none());
    }
    (games, settled)
}

fn bench_settle(c: &mut Criterion) {
    let text = ambiguous_pgn::file(1_500_000, 2, 20);
    let settling = ScanOptions {
        resolve_ambiguous: true,
        ..ScanOptions::default()
    };
    let (games, settled) = scan(&text, settling);
    eprintln!(
        "{} bytes, {games} games, {settled} settled before the budget was spent",
        text.len()
    );
    let mut group = c.benchmark_group("pgn_settle_1_5_mb");
    group.bench_function(BenchmarkId::new("read", "no_settling"), |b| {
        b.iter(|| black_box(scan(&text, ScanOptions::default())))
    });
    group.bench_function(BenchmarkId::new("read", "settling"), |b| {
        b.iter(|| black_box(scan(&text, settling)))
    });
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(10));
    targets = bench_settle
}
criterion_main!(benches);

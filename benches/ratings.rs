//! The rating fit at the scale of a real open challenge: 30,000 games between 600
//! players, on a wide field (strengths over 4,400 Elo, Swiss-style pairings, as in the
//! C# challenge's tournament) against the narrow reference field (800 Elo, random
//! pairings), for the kit model and BayesElo's.
//!
//! And the reading of such a file (`pgn/...`): `challenge ratings` must stay faster than
//! BayesElo on the same file (issue 25: 0.92 s for BayesElo on the C# challenge's 31,248
//! games), every move checked. `read_30000_games` is what the command does before the
//! fit (every move replayed, on all cores), `results_only_30000_games` its
//! `--results-only`, `reader_30000_games` the general `PgnReader` (comments and all, one
//! core) for comparison.
//!
//! `cargo bench --bench ratings`. Peak memory and the whole command are measured on the
//! command itself: `scripts/wide_field_pgn.py big.pgn` writes a 30 MB file, then
//! `/usr/bin/time -v challenge ratings big.pgn`.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};

use framework::chess::Board;
use framework::notation::pgn::{PgnGame, PgnReader, write_game};
use results::{
    BAYESELO_ADVANTAGE, BAYESELO_DRAW_ELO, Model, PgnFacts, PgnReadMode, RatedGame, RatingOptions,
    fit, synthetic_games, wide_field_games,
};

const PLAYERS: usize = 600;
const GAMES: usize = 30_000;

fn bench(c: &mut Criterion) {
    let narrow = synthetic_games(PLAYERS, GAMES, 42);
    let wide = wide_field_games(PLAYERS, GAMES, 42);
    let bayeselo = RatingOptions {
        model: Model::BayesElo {
            advantage: BAYESELO_ADVANTAGE,
            draw_elo: BAYESELO_DRAW_ELO,
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

/// The movetext of a random legal game of 100 to 200 plies (no tags, no result).
fn random_movetext(seed: u64) -> String {
    let mut state = seed;
    let mut next = move || {
        // SplitMix64: reproducible without a dependency.
        state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    };
    let plies = 100 + next() % 101;
    let mut game = PgnGame::new();
    let mut board = Board::startpos();
    for _ in 0..plies {
        let moves = board.legal_moves();
        if moves.is_empty() {
            break;
        }
        let mv = moves[(next() % moves.len() as u64) as usize];
        board.make_move(mv);
        game.push(mv, None);
    }
    let written = write_game(&game);
    let movetext = &written[written.find("\n\n").unwrap_or(0) + 2..];
    movetext.trim_end().trim_end_matches('*').to_string()
}

/// A PGN file like `scripts/wide_field_pgn.py`'s: the wide field's games, each with the
/// usual tags and one of 300 random legal games as its moves (about 1 KB a game).
fn wide_field_pgn(games: &[RatedGame]) -> String {
    let pool: Vec<String> = (0..300).map(random_movetext).collect();
    let mut text = String::new();
    for (i, g) in games.iter().enumerate() {
        let result = match g.score {
            s if s > 0.75 => "1-0",
            s if s < 0.25 => "0-1",
            _ => "1/2-1/2",
        };
        text.push_str(&format!(
            "[Event \"Wide field\"]\n[Site \"?\"]\n[Date \"2026.11.25\"]\n[Round \"{}\"]\n\
             [White \"Bot {:03}\"]\n[Black \"Bot {:03}\"]\n[Result \"{result}\"]\n\
             [Termination \"normal\"]\n\n{}{result}\n\n",
            i / 300 + 1,
            g.white,
            g.black,
            pool[i % pool.len()]
        ));
    }
    text
}

fn bench_pgn(c: &mut Criterion) {
    let text = wide_field_pgn(&wide_field_games(PLAYERS, GAMES, 42));
    let read = |mode: PgnReadMode| {
        let mut facts = PgnFacts::default();
        facts
            .read("bench.pgn", black_box(text.as_bytes()), mode, &|_| {})
            .expect("reads");
        let games: u32 = facts.games.iter().map(|g| g.count).sum();
        assert_eq!(games as usize, GAMES);
        facts
    };
    let mut group = c.benchmark_group("pgn");
    group.sample_size(10);
    group.throughput(criterion::Throughput::Bytes(text.len() as u64));
    group.bench_function("read_30000_games", |b| {
        b.iter(|| read(PgnReadMode::default()))
    });
    group.bench_function("results_only_30000_games", |b| {
        let mode = PgnReadMode {
            results_only: true,
            ..PgnReadMode::default()
        };
        b.iter(|| read(mode))
    });
    group.bench_function("reader_30000_games", |b| {
        b.iter(|| {
            PgnReader::new(black_box(&text))
                .filter(Result::is_ok)
                .count()
        })
    });
    group.finish();
}

criterion_group!(benches, bench, bench_pgn);
criterion_main!(benches);

//! `challenge bench-ratings` (hidden): times the rating fit and one Swiss pairing on
//! generated data.

use std::time::Instant;

use anyhow::{Result, bail};
use league::{SwissPlayer, pair_round};
use results::{RatingOptions, fit, synthetic_games, wide_field_games};

/// Time the rating fit and a Swiss pairing on generated data.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Generated players.
    #[arg(long, default_value_t = 600, value_parser = clap::value_parser!(u32).range(2..=100_000))]
    players: u32,
    /// Generated games.
    #[arg(long, default_value_t = 30_000, value_parser = clap::value_parser!(u32).range(0..=10_000_000))]
    games: u32,
}

/// Prints both timings.
pub fn run(args: &Args) -> Result<()> {
    let (count, games_count) = (args.players as usize, args.games as usize);
    if count < 2 {
        bail!("--players must be at least 2");
    }
    let games = synthetic_games(count, games_count, 42);
    let start = Instant::now();
    let result = fit(count, &games, &RatingOptions::default());
    let fit_time = start.elapsed();
    println!(
        "ratings: {} games, {} players: {:.1} ms ({} iterations, drawelo {:.1})",
        games_count,
        count,
        fit_time.as_secs_f64() * 1e3,
        result.iterations,
        result.draw_elo
    );
    let wide = wide_field_games(count, games_count, 42);
    let start = Instant::now();
    let result = fit(count, &wide, &RatingOptions::default());
    println!(
        "ratings, wide field: {:.1} ms ({} iterations, converged: {})",
        start.elapsed().as_secs_f64() * 1e3,
        result.iterations,
        result.converged
    );
    let mut scores = vec![0.0; count];
    let mut met = vec![false; count * count];
    for g in &games {
        scores[g.white] += g.score;
        scores[g.black] += 1.0 - g.score;
        met[g.white * count + g.black] = true;
        met[g.black * count + g.white] = true;
    }
    let field: Vec<SwissPlayer> = scores
        .iter()
        .enumerate()
        .map(|(seed, &score)| SwissPlayer {
            score: (score * 2.0).round() / 2.0,
            seed,
            had_bye: false,
        })
        .collect();
    let start = Instant::now();
    let round = pair_round(&field, |a, b| met[a * count + b]);
    let pair_time = start.elapsed();
    println!(
        "swiss: pairing {} players with {} games of history: {:.1} ms ({} pairs, {} rematches)",
        count,
        games_count,
        pair_time.as_secs_f64() * 1e3,
        round.pairs.len(),
        round.rematches
    );
    Ok(())
}

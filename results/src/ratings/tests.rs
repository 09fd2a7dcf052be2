//! The fit on small fields worked by hand, on generated fields whose order is known, and
//! against the references it replaced: the dense inverse and the map-based BayesElo prior.

use super::*;

/// [`kit_variances`] as it was computed before, as the reference: from
/// the pseudo-inverse of the Fisher information under the anchoring constraint.
fn dense_kit_variances(problem: &Problem, u: &[f64], anchor: Option<usize>) -> Vec<f64> {
    let n = problem.active.len();
    if n == 0 {
        return Vec::new();
    }
    let m = problem.unknowns();
    let mut f = problem.dense_information(&problem.pair_terms(u, problem.delta), problem.delta);
    // Shifting every rating leaves the likelihood unchanged: (1,..,1,0)/sqrt(n) spans
    // the null space, and adding its outer product makes the matrix invertible without
    // touching the rest of its spectrum (subtracted again below).
    for r in 0..n {
        for c in 0..n {
            f[r * m + c] += 1.0 / n as f64;
        }
    }
    let mut linv = cholesky_with_ridge(f, m);
    invert_lower(&mut linv, m);
    // C = L^-T L^-1, so C_ij = sum over k of linv[k][i] * linv[k][j].
    let c = |i: usize, j: usize| -> f64 {
        (i.max(j)..m)
            .map(|k| linv[k * m + i] * linv[k * m + j])
            .sum()
    };
    let anchor_slot = anchor.and_then(|a| problem.active.iter().position(|&i| i == a));
    (0..n)
        .map(|i| match anchor_slot {
            Some(a) => c(i, i) + c(a, a) - 2.0 * c(i, a),
            None => c(i, i) - 1.0 / n as f64,
        })
        .collect()
}

fn games(white: usize, black: usize, w: usize, d: usize, l: usize) -> Vec<RatedGame> {
    let mut out = Vec::new();
    for (count, score) in [(w, 1.0), (d, 0.5), (l, 0.0)] {
        for k in 0..count {
            // Alternate colours: colour must not matter to the model.
            let (wh, bl, s) = if k % 2 == 0 {
                (white, black, score)
            } else {
                (black, white, 1.0 - score)
            };
            out.push(RatedGame {
                white: wh,
                black: bl,
                score: s,
                count: 1,
            });
        }
    }
    out
}

fn ml() -> RatingOptions {
    RatingOptions {
        prior: 0.0,
        ..RatingOptions::default()
    }
}

fn elo(fit: &Fit, i: usize) -> f64 {
    fit.ratings[i].unwrap().elo
}

#[test]
fn two_players_three_to_one_without_draws() {
    // No draws: Bradley–Terry, f(x) = 3/4, so x = 400 log10(3) = 190.85, split ±95.42.
    let fit = fit(2, &games(0, 1, 3, 0, 1), &ml());
    let x = 400.0 * 3f64.log10();
    assert!((elo(&fit, 0) - x / 2.0).abs() < 1e-3, "{fit:?}");
    assert!((elo(&fit, 1) + x / 2.0).abs() < 1e-3, "{fit:?}");
    assert_eq!(fit.draw_elo, 0.0);
    // Fisher information of x is N p (1-p); each rating is x/2, so its variance is a quarter.
    let var_x: f64 = 1.0 / (4.0 * 0.75 * 0.25);
    let expected = Z95 * (var_x / 4.0).sqrt() / SCALE;
    let got = fit.ratings[0].unwrap().interval;
    assert!((got - expected).abs() < 1e-3, "{got} vs {expected}");
    assert!((fit.ratings[1].unwrap().interval - got).abs() < 1e-9);
}

#[test]
fn draw_heavy_match_fits_both_parameters() {
    // 3 wins, 4 draws, 1 loss: the fit reproduces the frequencies, so
    // x - d = 400 log10(3/5) and -x - d = 400 log10(1/7).
    let fit = fit(2, &games(0, 1, 3, 4, 1), &ml());
    let x = 200.0 * (21.0f64 / 5.0).log10();
    let d = 200.0 * (35.0f64 / 3.0).log10();
    assert!((elo(&fit, 0) - elo(&fit, 1) - x).abs() < 1e-3, "{fit:?}");
    assert!((fit.draw_elo - d).abs() < 1e-3, "{fit:?}");
    assert!((expected_score(x, d) - 5.0 / 8.0).abs() < 1e-9);
}

#[test]
fn symmetric_results_give_equal_ratings() {
    // A beats B, B beats C, C beats A, each once, and everyone draws once with everyone.
    let mut all = Vec::new();
    for (a, b) in [(0, 1), (1, 2), (2, 0)] {
        all.extend(games(a, b, 1, 1, 0));
    }
    let fit = fit(3, &all, &ml());
    for i in 0..3 {
        assert!(elo(&fit, i).abs() < 1e-6, "{fit:?}");
    }
    let widths: Vec<f64> = (0..3).map(|i| fit.ratings[i].unwrap().interval).collect();
    assert!((widths[0] - widths[1]).abs() < 1e-9 && (widths[1] - widths[2]).abs() < 1e-9);
    assert!(fit.draw_elo > 0.0);
}

#[test]
fn all_draws_give_zero_and_a_large_but_finite_draw_parameter() {
    let fit = fit(2, &games(0, 1, 0, 10, 0), &RatingOptions::default());
    assert!(elo(&fit, 0).abs() < 1e-6);
    assert!(fit.draw_elo > 200.0 && fit.draw_elo < 1000.0, "{fit:?}");
    let interval = fit.ratings[0].unwrap().interval;
    assert!(interval > 50.0 && interval < 1000.0, "{fit:?}");
    // Two draws only: still finite.
    let fit = super::fit(2, &games(0, 1, 0, 2, 0), &RatingOptions::default());
    assert!(
        fit.draw_elo < 1000.0 && fit.ratings[0].unwrap().interval < 2000.0,
        "{fit:?}"
    );
}

#[test]
fn anchor_is_rated_zero_with_no_interval() {
    let options = RatingOptions {
        prior: 0.0,
        anchor: Some(1),
        ..RatingOptions::default()
    };
    let fit = fit(2, &games(0, 1, 3, 0, 1), &options);
    assert!((elo(&fit, 0) - 400.0 * 3f64.log10()).abs() < 1e-3);
    assert!(elo(&fit, 1).abs() < 1e-9);
    assert!(fit.ratings[1].unwrap().interval < 1e-3);
    // The anchored difference has the whole difference's variance.
    let var_x: f64 = 1.0 / (4.0 * 0.75 * 0.25);
    let expected = Z95 * var_x.sqrt() / SCALE;
    assert!((fit.ratings[0].unwrap().interval - expected).abs() < 1e-2);
}

#[test]
fn perfect_scores_stay_finite_with_the_prior() {
    let mut all = games(0, 1, 4, 0, 0);
    all.extend(games(1, 2, 2, 1, 1));
    let fit = fit(3, &all, &RatingOptions::default());
    assert!(elo(&fit, 0) > elo(&fit, 1));
    assert!(elo(&fit, 0) < 1000.0, "{fit:?}");
    let mean: f64 = (0..3).map(|i| elo(&fit, i)).sum::<f64>() / 3.0;
    assert!(mean.abs() < 1e-6);
}

#[test]
fn players_without_games_are_unrated_and_groups_are_counted() {
    let mut all = games(0, 1, 1, 1, 1);
    all.extend(games(2, 3, 2, 0, 1));
    let fit = fit(5, &all, &RatingOptions::default());
    assert_eq!(fit.ratings[4], None);
    assert_eq!(fit.groups, 2);
    assert!(fit.ratings[0].unwrap().interval.is_finite());
}

#[test]
fn recovers_the_order_of_generated_players() {
    let all = synthetic_games(20, 4000, 7);
    let fit = fit(20, &all, &RatingOptions::default());
    assert_eq!(fit.groups, 1);
    assert!(elo(&fit, 19) > elo(&fit, 0) + 500.0, "{fit:?}");
    // Truth: 800 Elo spread, drawelo 100.
    assert!((fit.draw_elo - 100.0).abs() < 30.0, "{}", fit.draw_elo);
}

#[test]
fn a_perfect_score_without_prior_is_reported_not_clamped() {
    // A beat B every time: no finite maximum-likelihood difference exists.
    let fit = fit(2, &games(0, 1, 4, 0, 0), &ml());
    assert!(!fit.converged, "{fit:?}");
    assert_eq!(fit.iterations, MAX_ITERATIONS);
    // With the default prior the answer is finite and found.
    let fit = super::fit(2, &games(0, 1, 4, 0, 0), &RatingOptions::default());
    assert!(fit.converged && fit.iterations < 30, "{fit:?}");
}

#[test]
fn a_wide_field_converges_to_its_full_span() {
    let all = wide_field_games(200, 10_000, 3);
    let fit = fit(200, &all, &RatingOptions::default());
    assert!(fit.converged && fit.iterations < 50, "{}", fit.iterations);
    let top = elo(&fit, 199) - elo(&fit, 0);
    // Truth: 4,400 Elo between the ends; nothing stops the fit near ±2000.
    assert!((top - 4400.0).abs() < 400.0, "{top}");
    let bayeselo = RatingOptions {
        model: Model::BayesElo {
            advantage: BAYESELO_ADVANTAGE,
            draw_elo: BAYESELO_DRAW_ELO,
        },
        ..RatingOptions::default()
    };
    let fit = super::fit(200, &all, &bayeselo);
    assert!(fit.converged, "{}", fit.iterations);
    assert!((fit.scale - 0.925_497).abs() < 1e-6);
}

#[test]
fn envelope_intervals_agree_with_the_dense_inverse() {
    // A wide field (players meet their neighbours in strength) and a narrow one
    // (everyone meets everyone), with and without an anchor: the grounded envelope
    // and the dense pseudo-inverse are the same variances.
    let fields = [
        (60, wide_field_games(60, 3000, 11)),
        (30, synthetic_games(30, 2000, 5)),
    ];
    for (players, games) in fields {
        for anchor in [None, Some(7)] {
            let options = RatingOptions {
                anchor,
                ..RatingOptions::default()
            };
            let mut problem = Problem::new(players, games.iter().copied(), &options);
            let solution = problem.solve();
            problem.delta = solution.delta;
            let sparse = kit_variances(&problem, &solution.u, anchor);
            let dense = dense_kit_variances(&problem, &solution.u, anchor);
            for (i, (s, d)) in sparse.iter().zip(&dense).enumerate() {
                assert!(
                    (s - d).abs() <= 1e-9 * d.abs().max(1e-6),
                    "{players} players, anchor {anchor:?}, slot {i}: {s} vs {d}"
                );
            }
        }
    }
}

/// BayesElo's prior as it was computed before, with maps: the reference for the
/// sorted matching of pairs.
fn mapped_bayeselo_prior(problem: &mut Problem, prior: f64) {
    let index: HashMap<(usize, usize), usize> = (problem.pairs.iter().enumerate())
        .map(|(k, p)| ((p.white, p.black), k))
        .collect();
    let mut games = vec![0.0f64; problem.active.len()];
    let mut between: HashMap<(usize, usize), f64> = HashMap::new();
    for p in &problem.pairs {
        let count = p.w + p.d + p.l;
        games[p.white] += count;
        games[p.black] += count;
        *between
            .entry((p.white.min(p.black), p.white.max(p.black)))
            .or_default() += count;
    }
    let mut extra: HashMap<(usize, usize), f64> = HashMap::new();
    for (&(i, j), &count) in &between {
        let virtual_draws = prior * 0.25 * count * (1.0 / games[i] + 1.0 / games[j]);
        *extra.entry((i, j)).or_default() += virtual_draws;
        *extra.entry((j, i)).or_default() += virtual_draws;
    }
    let mut keys: Vec<_> = extra.into_iter().collect();
    keys.sort_by_key(|&(k, _)| k);
    for ((white, black), draws) in keys {
        match index.get(&(white, black)) {
            Some(&k) => problem.pairs[k].d += draws,
            None => problem.pairs.push(Pair {
                white,
                black,
                w: 0.0,
                d: draws,
                l: 0.0,
            }),
        }
    }
}

#[test]
fn bayeselo_prior_matches_the_mapped_reference_to_the_bit() {
    // Random colours in a wide field: some pairings met with both colours, some
    // with one; every pair's counts, and the order of the pairs, must be the same.
    let games = wide_field_games(80, 3000, 17);
    let bayeselo = RatingOptions {
        model: Model::BayesElo {
            advantage: BAYESELO_ADVANTAGE,
            draw_elo: BAYESELO_DRAW_ELO,
        },
        prior: 0.0,
        ..RatingOptions::default()
    };
    let mut reference = Problem::new(80, games.iter().copied(), &bayeselo);
    let mut sorted = Problem::new(80, games.iter().copied(), &bayeselo);
    let one_colour = sorted.pairs.len();
    mapped_bayeselo_prior(&mut reference, 2.0);
    sorted.bayeselo_prior(2.0);
    assert!(sorted.pairs.len() > one_colour, "no colour left unplayed");
    let bits = |p: &Pair| {
        (
            p.white,
            p.black,
            p.w.to_bits(),
            p.d.to_bits(),
            p.l.to_bits(),
        )
    };
    let got: Vec<_> = sorted.pairs.iter().map(bits).collect();
    let want: Vec<_> = reference.pairs.iter().map(bits).collect();
    assert_eq!(got, want);
}

#[test]
fn each_group_of_players_gets_its_own_intervals() {
    // Two groups that never met, with even results (so the shared draw parameter
    // does not move the ratings' intervals): each player's interval is the one it
    // has in its group alone. The dense pseudo-inverse over everyone had no meaning
    // here (it said thousands of Elo).
    let mut both = games(0, 1, 2, 2, 2);
    both.extend(games(2, 3, 2, 2, 2));
    let together = fit(4, &both, &ml());
    assert_eq!(together.groups, 2);
    let alone = fit(2, &games(0, 1, 2, 2, 2), &ml());
    let want = alone.ratings[0].unwrap().interval;
    assert!(want > 100.0 && want < 1000.0, "{alone:?}");
    for i in 0..4 {
        let got = together.ratings[i].unwrap().interval;
        assert!((got - want).abs() < 1e-6 * want, "{together:?}");
    }
    // Uneven results: still each group's own scale of uncertainty.
    let mut both = games(0, 1, 3, 2, 1);
    both.extend(games(2, 3, 1, 4, 1));
    let together = fit(4, &both, &RatingOptions::default());
    let alone = fit(2, &games(0, 1, 3, 2, 1), &RatingOptions::default());
    let (got, want) = (together.ratings[0].unwrap(), alone.ratings[0].unwrap());
    assert!(
        (got.interval / want.interval - 1.0).abs() < 0.2,
        "{together:?}"
    );
}

#[test]
fn conjugate_gradients_agree_with_the_dense_solve() {
    // A weighted path graph plus a pinned mean: the ill-conditioned shape of a ladder.
    let m = 40;
    let mut f = vec![0.0; m * m];
    for i in 0..m - 1 {
        let w = 1.0 + (i % 7) as f64;
        f[i * m + i] += w;
        f[(i + 1) * m + i + 1] += w;
        f[i * m + i + 1] -= w;
        f[(i + 1) * m + i] -= w;
    }
    for x in &mut f {
        *x += 1.0 / m as f64;
    }
    let g: Vec<f64> = (0..m).map(|i| (i as f64 * 0.37).sin()).collect();
    let product = |v: &[f64], out: &mut [f64]| {
        for (r, o) in out.iter_mut().enumerate() {
            *o = (0..m).map(|c| f[r * m + c] * v[c]).sum();
        }
    };
    let diagonal: Vec<f64> = (0..m).map(|i| f[i * m + i]).collect();
    let cg = conjugate_gradients(product, &diagonal, &g).unwrap();
    let dense = solve_spd(f.clone(), &g, m);
    for (a, b) in cg.iter().zip(&dense) {
        assert!((a - b).abs() < 1e-7, "{a} vs {b}");
    }
}

//! One player rated against opponents whose ratings are held fixed: the rating BayesElo
//! would give the player if its games were added to a published list and the list's
//! ratings kept (`challenge rate --field`).
//!
//! The model is the module's BayesElo model with its parameters fixed (White's
//! advantage, the draw parameter), and the ratings are on BayesElo's printed scale: an
//! opponent printed at `R` has the internal rating `R / scale`. The prior is BayesElo's
//! for the rated player: `prior * 0.25 * games(j) / games` virtual draws against each
//! opponent `j` with each colour (one virtual draw in all at the default prior of 2).
//!
//! The interval has two parts. The games': BayesElo's, `1.96 * scale / sqrt(H)` with
//! `H` the log-likelihood's curvature (prior draws included). The held ratings': each
//! is only known to its published interval, and the fitted rating moves with them by
//! `dR / dR_j = H_j / H` (`H_j` the curvature of the games against `j`), so, taking
//! the published ratings' errors as independent, their part of the variance is
//! `sum_j (H_j / H)^2 * (interval_j / 1.96)^2`. The two add.

use super::{Odds, Pair, SCALE, Z95, sigmoid, terms};

/// An opponent's rating, held fixed, on the printed scale.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct HeldRating {
    /// The rating.
    pub elo: f64,
    /// The half-width of its own 95% interval (0 for a rating known exactly).
    pub interval: f64,
}

/// Games of the rated player against one held opponent with one colour and one result.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GameAgainst {
    /// The opponent's index in the held ratings.
    pub opponent: usize,
    /// Whether the rated player had White.
    pub white: bool,
    /// The rated player's score: 1, ½ or 0.
    pub score: f64,
    /// How many such games.
    pub count: u32,
}

/// How the player is rated: BayesElo's parameters, fixed as the held list was fitted.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct AgainstOptions {
    /// White's advantage in Elo.
    pub advantage: f64,
    /// The draw parameter in Elo.
    pub draw_elo: f64,
    /// BayesElo's prior (see the module documentation).
    pub prior: f64,
}

impl AgainstOptions {
    /// BayesElo's printed scale: a printed rating is `scale` times the internal one.
    pub fn scale(&self) -> f64 {
        let x = 10f64.powf(-self.draw_elo / 400.0);
        4.0 * x / ((1.0 + x) * (1.0 + x))
    }
}

impl Default for AgainstOptions {
    fn default() -> Self {
        AgainstOptions {
            advantage: super::BAYESELO_ADVANTAGE,
            draw_elo: super::BAYESELO_DRAW_ELO,
            prior: 2.0,
        }
    }
}

/// The rated player's rating on the held ratings' scale.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RatingAgainst {
    /// The rating.
    pub elo: f64,
    /// The half-width of its 95% interval: the games' and the held ratings' together.
    pub interval: f64,
    /// The half-width of the 95% interval the games alone give.
    pub games_interval: f64,
    /// The half-width of the 95% interval the held ratings' own uncertainty alone gives.
    pub held_interval: f64,
    /// Whether the fit settled within [`TOLERANCE_ELO`](super::TOLERANCE_ELO).
    pub converged: bool,
}

/// Rates one player from `games` against opponents held at `held` (`None` without
/// games, or with a game naming an opponent that is not there).
///
/// ```
/// use results::{AgainstOptions, GameAgainst, HeldRating, rate_against};
///
/// let held = [HeldRating { elo: 1500.0, interval: 0.0 }, HeldRating { elo: 1700.0, interval: 0.0 }];
/// // One win and one loss against each: between the two.
/// let games: Vec<GameAgainst> = (0..2)
///     .flat_map(|opponent| [(true, 1.0), (false, 0.0)].map(|(white, score)| {
///         GameAgainst { opponent, white, score, count: 10 }
///     }))
///     .collect();
/// let rating = rate_against(&held, &games, &AgainstOptions::default()).unwrap();
/// assert!((rating.elo - 1600.0).abs() < 1.0 && rating.converged, "{rating:?}");
/// ```
pub fn rate_against(
    held: &[HeldRating],
    games: &[GameAgainst],
    options: &AgainstOptions,
) -> Option<RatingAgainst> {
    if games.is_empty() || games.iter().any(|g| g.opponent >= held.len()) {
        return None;
    }
    let problem = Against::new(held, games, options);
    let (u, converged) = problem.solve();
    let curvature = problem.curvature(u);
    let total: f64 = curvature.iter().sum();
    let to_printed = problem.scale / SCALE;
    let games_variance = 1.0 / total * to_printed * to_printed;
    let held_variance: f64 = (curvature.iter().zip(held))
        .map(|(h, rating)| (h / total * rating.interval / Z95).powi(2))
        .sum();
    Some(RatingAgainst {
        elo: u * to_printed,
        interval: Z95 * (games_variance + held_variance).sqrt(),
        games_interval: Z95 * games_variance.sqrt(),
        held_interval: Z95 * held_variance.sqrt(),
        converged,
    })
}

/// The information about the rated player's printed rating that one game against an
/// opponent printed `difference` Elo below it is expected to give: the curvature the
/// intervals use, averaged over the game's results and both colours. A game between
/// equals says most.
///
/// ```
/// use results::{AgainstOptions, expected_information};
/// let options = AgainstOptions::default();
/// assert!(expected_information(0.0, &options) > expected_information(300.0, &options));
/// ```
pub fn expected_information(difference: f64, options: &AgainstOptions) -> f64 {
    let scale = options.scale();
    let delta = options.draw_elo * SCALE;
    let colour = |advantage: f64| {
        let x = (difference / scale + advantage) * SCALE;
        let (win, loss) = (sigmoid(x - delta), sigmoid(-x - delta));
        (1.0 - loss) * win * (1.0 - win) + (1.0 - win) * loss * (1.0 - loss)
    };
    let h = 0.5 * (colour(options.advantage) + colour(-options.advantage));
    // Per printed Elo: the internal rating in natural units is the printed one times
    // SCALE / scale.
    h * (SCALE / scale) * (SCALE / scale)
}

/// The problem in natural units: one unknown, the rated player's `u`.
struct Against {
    /// Each game group from White's side, with the opponent's `u` and whether the
    /// rated player had White.
    pairs: Vec<(Pair, f64, bool)>,
    /// The opponent of each pair, for the curvature per opponent.
    opponents: Vec<usize>,
    held: usize,
    advantage: f64,
    delta: f64,
    scale: f64,
}

impl Against {
    fn new(held: &[HeldRating], games: &[GameAgainst], options: &AgainstOptions) -> Against {
        let scale = options.scale();
        let internal = |j: usize| held[j].elo / scale * SCALE;
        let mut against = Against {
            pairs: Vec::new(),
            opponents: Vec::new(),
            held: held.len(),
            advantage: options.advantage * SCALE,
            delta: options.draw_elo * SCALE,
            scale,
        };
        let mut per_opponent = vec![0.0f64; held.len()];
        for g in games {
            let count = f64::from(g.count);
            per_opponent[g.opponent] += count;
            // From White's side: the rated player's win is White's loss when it is Black.
            let white_score = if g.white { g.score } else { 1.0 - g.score };
            let (w, d, l) = if white_score > 0.75 {
                (count, 0.0, 0.0)
            } else if white_score < 0.25 {
                (0.0, 0.0, count)
            } else {
                (0.0, count, 0.0)
            };
            against.push(g.opponent, internal(g.opponent), g.white, w, d, l);
        }
        let all: f64 = per_opponent.iter().sum();
        if options.prior > 0.0 {
            for (j, &n) in per_opponent.iter().enumerate().filter(|(_, n)| **n > 0.0) {
                let draws = options.prior * 0.25 * n / all;
                for white in [true, false] {
                    against.push(j, internal(j), white, 0.0, draws, 0.0);
                }
            }
        }
        against
    }

    fn push(&mut self, opponent: usize, u: f64, white: bool, w: f64, d: f64, l: f64) {
        let pair = Pair {
            white: 0,
            black: 0,
            w,
            d,
            l,
        };
        self.pairs.push((pair, u, white));
        self.opponents.push(opponent);
    }

    /// White's rating difference plus its advantage, with the rated player at `u`.
    fn x(&self, u: f64, opponent: f64, white: bool) -> f64 {
        let difference = if white { u - opponent } else { opponent - u };
        difference + self.advantage
    }

    fn log_likelihood(&self, u: f64) -> f64 {
        self.pairs
            .iter()
            .map(|&(p, opponent, white)| {
                let o = Odds::new(self.x(u, opponent, white), self.delta);
                let mut sum = 0.0;
                if p.w > 0.0 {
                    sum -= p.w * o.win.ln_1p();
                }
                if p.l > 0.0 {
                    sum -= p.l * o.loss.ln_1p();
                }
                if p.d > 0.0 {
                    sum += p.d * o.draw().ln();
                }
                sum
            })
            .sum()
    }

    /// Fisher scoring on `u` with step halving, from the mean opponent.
    fn solve(&self) -> (f64, bool) {
        let mut u = self.pairs.iter().map(|p| p.1).sum::<f64>() / self.pairs.len() as f64;
        let tolerance = super::TOLERANCE_ELO * SCALE;
        for _ in 0..super::MAX_ITERATIONS {
            let (mut g, mut information) = (0.0, 0.0);
            for &(p, opponent, white) in &self.pairs {
                let t = terms(self.x(u, opponent, white), self.delta, &p, true);
                g += if white { t.gx } else { -t.gx };
                information += t.ixx;
            }
            let step = g / information;
            if !step.is_finite() {
                return (u, false);
            }
            let base = self.log_likelihood(u);
            let mut t = 1.0;
            while self.log_likelihood(u + t * step) < base - 1e-12 * base.abs() && t > 1e-12 {
                t /= 2.0;
            }
            u += t * step;
            if step.abs() < tolerance {
                return (u, true);
            }
        }
        (u, false)
    }

    /// The curvature of the log-likelihood at `u`, per opponent (BayesElo's Hessian
    /// diagonal, as its intervals use: prior draws included).
    fn curvature(&self, u: f64) -> Vec<f64> {
        let mut h = vec![0.0; self.held];
        for (&(p, opponent, white), &j) in self.pairs.iter().zip(&self.opponents) {
            let x = self.x(u, opponent, white);
            let (win, loss) = (sigmoid(x - self.delta), sigmoid(-x - self.delta));
            h[j] += (p.w + p.d) * win * (1.0 - win) + (p.l + p.d) * loss * (1.0 - loss);
        }
        h
    }
}

#[cfg(test)]
mod tests {
    use super::super::{RatedGame, RatingOptions, SplitMix, draw_result, fit};
    use super::*;

    #[test]
    fn a_player_rated_against_a_field_held_at_its_own_fit_gets_its_fit() {
        // Four players fitted together by BayesElo's model; then the first is rated
        // again with the other three held at their fitted ratings: the same rating.
        let mut rng = SplitMix(7);
        let strengths = [0.0, 150.0, -120.0, 300.0];
        let mut games = Vec::new();
        for _ in 0..400 {
            let white = (rng.next() % 4) as usize;
            let black = (white + 1 + (rng.next() % 3) as usize) % 4;
            let diff = strengths[white] - strengths[black];
            let score = draw_result(&mut rng, diff, 32.8, 97.3);
            games.push(RatedGame {
                white,
                black,
                score,
                count: 1,
            });
        }
        let options = RatingOptions {
            model: super::super::Model::BayesElo {
                advantage: 32.8,
                draw_elo: 97.3,
            },
            prior: 0.0,
            ..RatingOptions::default()
        };
        let whole = fit(4, &games, &options);
        let elo = |i: usize| whole.ratings[i].unwrap().elo;
        let held: Vec<HeldRating> = (0..4)
            .map(|i| HeldRating {
                elo: elo(i),
                interval: 0.0,
            })
            .collect();
        let mine: Vec<GameAgainst> = games
            .iter()
            .filter(|g| g.white == 0 || g.black == 0)
            .map(|g| GameAgainst {
                opponent: if g.white == 0 { g.black } else { g.white },
                white: g.white == 0,
                score: if g.white == 0 { g.score } else { 1.0 - g.score },
                count: 1,
            })
            .collect();
        let against = AgainstOptions {
            prior: 0.0,
            ..AgainstOptions::default()
        };
        let rating = rate_against(&held, &mine, &against).unwrap();
        assert!(rating.converged);
        assert!(
            (rating.elo - elo(0)).abs() < 1e-3,
            "{rating:?} vs {}",
            elo(0)
        );
        assert_eq!(rating.held_interval, 0.0);
    }

    #[test]
    fn the_interval_covers_the_true_rating_about_95_times_in_100() {
        // A player 1900 strong meets opponents from 1700 to 2100 whose published
        // ratings are off by their own noise; the interval must cover 1900 about as
        // often as it promises.
        let mut rng = SplitMix(11);
        let truth = [1700.0, 1800.0, 1850.0, 1950.0, 2000.0, 2100.0];
        let sd = 20.0;
        let options = AgainstOptions::default();
        let scale = options.scale();
        let trials = 400;
        let mut covered = 0;
        for _ in 0..trials {
            let held: Vec<HeldRating> = truth
                .iter()
                .map(|&elo| HeldRating {
                    elo: elo + sd * rng.normal(),
                    interval: Z95 * sd,
                })
                .collect();
            let mut games = Vec::new();
            for (opponent, &elo) in truth.iter().enumerate() {
                for k in 0..30 {
                    let white = k % 2 == 0;
                    // The model's difference is internal: printed / scale.
                    let diff = (1900.0 - elo) / scale;
                    let advantage = if white { 32.8 } else { -32.8 };
                    let score = draw_result(&mut rng, diff, advantage, 97.3);
                    games.push(GameAgainst {
                        opponent,
                        white,
                        score,
                        count: 1,
                    });
                }
            }
            let rating = rate_against(&held, &games, &options).unwrap();
            if (rating.elo - 1900.0).abs() <= rating.interval {
                covered += 1;
            }
        }
        let rate = f64::from(covered) / f64::from(trials);
        assert!((0.91..=0.99).contains(&rate), "covered {rate}");
    }

    #[test]
    fn no_games_or_an_unknown_opponent_gives_no_rating() {
        let held = [HeldRating {
            elo: 0.0,
            interval: 0.0,
        }];
        assert_eq!(rate_against(&held, &[], &AgainstOptions::default()), None);
        let stray = GameAgainst {
            opponent: 1,
            white: true,
            score: 1.0,
            count: 1,
        };
        assert_eq!(
            rate_against(&held, &[stray], &AgainstOptions::default()),
            None
        );
    }

    #[test]
    fn a_perfect_score_stays_finite_with_the_prior() {
        let held = [HeldRating {
            elo: 1000.0,
            interval: 30.0,
        }];
        let wins = [GameAgainst {
            opponent: 0,
            white: true,
            score: 1.0,
            count: 8,
        }];
        let rating = rate_against(&held, &wins, &AgainstOptions::default()).unwrap();
        assert!(rating.elo > 1200.0 && rating.elo.is_finite() && rating.converged);
    }
}

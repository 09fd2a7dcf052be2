//! Elo ratings by maximum likelihood over all games, with draws modelled.
//!
//! Two models share one likelihood. With `x` the rating difference White minus Black,
//! `a` White's advantage and `d` the draw parameter, all in Elo, and
//! `f(z) = 1 / (1 + 10^(-z/400))`:
//! `P(White wins) = f(x + a - d)`, `P(Black wins) = f(-x - a - d)`,
//! `P(draw) = 1 - P(White wins) - P(Black wins)`. This is BayesElo's model (Coulom).
//!
//! - **`kit`** (the default): `a = 0` (challenge games come in colour-swapped pairs, so
//!   White's edge cancels out) and `d` is fitted with the ratings. The prior (default 2)
//!   gives each player `prior` virtual draws spread over its real opponents, and the draw
//!   parameter one virtual win, draw and loss between equal players; `--prior 0` is the
//!   plain maximum-likelihood estimate. The printed ratings have mean 0 (or the anchor
//!   at 0) and 95% intervals from the inverse of the full Fisher information (ratings and
//!   `d` together) under the anchoring constraint.
//! - **`bayeselo`**: BayesElo's `mm` command with its defaults. `a` (`advantage`, default
//!   32.8) and `d` (`drawelo`, default 97.3) are fixed, not fitted. The prior (`prior`,
//!   default 2) adds, for each player `i` and each opponent `j`,
//!   `prior * 0.25 * games(i, j) / games(i)` virtual draws with each colour. The
//!   ratings are centred on mean 0 and printed as `scale * elo + offset`, where
//!   `scale = 4 x / (1 + x)^2` with `x = 10^(-drawelo/400)` (0.9255 at the default
//!   `drawelo`) and `offset` is 0, or puts the anchor at the offset. Intervals are
//!   BayesElo's: `1.96 * scale / sqrt(-H_ii)` from the diagonal `H_ii` of the Hessian
//!   of the log-likelihood (Elo units), prior draws included.
//!
//! Both fits maximise the same kind of concave log-likelihood by Fisher scoring on all
//! parameters at once: each iteration solves the full linear system (by conjugate
//! gradients over the distinct pairings, each connected group of players pinned to
//! mean 0) and halves the step until the likelihood does not drop. A field spanning
//! 4,400 Elo takes about a dozen iterations. Nothing is clamped: the fit stops when no rating
//! (nor `d`) moves by more than [`TOLERANCE_ELO`], and reports the iterations used and
//! whether it converged (with `prior = 0`, a player who won or lost every game has no
//! finite maximum-likelihood rating, and the fit says so instead of inventing one).
//!
//! ```ignore
//! let games = [RatedGame { white: 0, black: 1, score: 1.0, count: 3 }];
//! let fit = fit(2, &games, &RatingOptions { prior: 0.5, ..RatingOptions::default() });
//! assert!(fit.ratings[0].unwrap().elo > 0.0 && fit.converged);
//! ```

use std::collections::HashMap;

use anyhow::{Result, bail};

use super::envelope::{Envelope, Factor, dot};

mod against;
pub use against::{
    AgainstOptions, GameAgainst, HeldRating, RatingAgainst, expected_information, rate_against,
};

/// `ln(10) / 400`: natural units per Elo point.
const SCALE: f64 = std::f64::consts::LN_10 / 400.0;
/// The 95% two-sided normal quantile.
const Z95: f64 = 1.959_963_984_540_054;
/// The fit has converged when no parameter moves by more than this many Elo in an
/// iteration.
pub const TOLERANCE_ELO: f64 = 1e-6;
/// Fisher-scoring iterations allowed before the fit is declared not converged. A
/// field with a finite answer needs a handful to a few dozen.
pub const MAX_ITERATIONS: usize = 200;
/// BayesElo's default advantage of playing White, in Elo.
pub const BAYESELO_ADVANTAGE: f64 = 32.8;
/// BayesElo's default draw parameter (`eloDraw`), in Elo.
pub const BAYESELO_DRAW_ELO: f64 = 97.3;

/// Which rating model to fit (see the module documentation).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ModelName {
    /// Colour-blind, draw parameter fitted, mean 0, Fisher-information intervals.
    #[default]
    Kit,
    /// BayesElo's `mm` with its defaults: White advantage and draw parameter fixed,
    /// printed on BayesElo's scale.
    Bayeselo,
}

/// How the ratings are fitted, as `standings`, `ratings` and `report` choose it.
#[derive(Debug, Clone, PartialEq)]
pub struct RatingChoice {
    /// Virtual draws given to each player, spread over its opponents (keeps perfect
    /// scores finite; 0 for the plain maximum-likelihood estimate).
    pub prior: f64,
    /// Rate this player at the offset (0 by default) instead of making the mean rating
    /// the offset.
    pub anchor: Option<String>,
    /// The rating model: `kit` (colour-blind, draw parameter fitted) or `bayeselo`
    /// (BayesElo's `mm` with its defaults, for comparison with published lists).
    pub model: ModelName,
    /// White's advantage in Elo, fixed (`--model bayeselo` only; default 32.8).
    pub advantage: Option<f64>,
    /// The draw parameter in Elo, fixed (`--model bayeselo` only; default 97.3).
    pub drawelo: Option<f64>,
    /// Added to every printed rating (BayesElo's `offset`).
    pub offset: f64,
}

impl Default for RatingChoice {
    fn default() -> Self {
        RatingChoice {
            prior: 2.0,
            anchor: None,
            model: ModelName::Kit,
            advantage: None,
            drawelo: None,
            offset: 0.0,
        }
    }
}

impl RatingChoice {
    /// Checks the arguments and turns them into fit options, with the anchor's index.
    pub fn options(&self, anchor: Option<usize>) -> Result<RatingOptions> {
        if self.prior < 0.0 || !self.prior.is_finite() {
            bail!("--prior must be 0 or more");
        }
        if !self.offset.is_finite() {
            bail!("--offset must be a number");
        }
        let model = match self.model {
            ModelName::Kit => {
                if self.advantage.is_some() || self.drawelo.is_some() {
                    bail!(
                        "--advantage and --drawelo fix BayesElo's parameters: use them with --model bayeselo (the kit model fits the draw parameter and ignores colour)"
                    );
                }
                Model::Kit
            }
            ModelName::Bayeselo => {
                let advantage = self.advantage.unwrap_or(BAYESELO_ADVANTAGE);
                let draw_elo = self.drawelo.unwrap_or(BAYESELO_DRAW_ELO);
                if !advantage.is_finite() || advantage.abs() > 2000.0 {
                    bail!("--advantage must be between -2000 and 2000 Elo");
                }
                if !(draw_elo > 0.0 && draw_elo <= 2000.0) {
                    bail!("--drawelo must be more than 0 and at most 2000 Elo");
                }
                Model::BayesElo {
                    advantage,
                    draw_elo,
                }
            }
        };
        Ok(RatingOptions {
            prior: self.prior,
            anchor,
            model,
            offset: self.offset,
        })
    }
}

/// Finished games with one result: the players' indices, White's score (1, ½ or 0) and
/// how many such games there were (so a file's games take the room of its pairings).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RatedGame {
    /// White's index.
    pub white: usize,
    /// Black's index.
    pub black: usize,
    /// White's score.
    pub score: f64,
    /// How many games (1 for one game).
    pub count: u32,
}

/// The model and its fixed parameters.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Model {
    /// Colour-blind, draw parameter fitted.
    Kit,
    /// BayesElo's `mm`: White advantage and draw parameter fixed, in Elo.
    BayesElo {
        /// White's advantage.
        advantage: f64,
        /// The draw parameter.
        draw_elo: f64,
    },
}

/// How to fit.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RatingOptions {
    /// Virtual draws per player (see the module documentation).
    pub prior: f64,
    /// The player rated at the offset; `None` makes the mean of the rated players the
    /// offset.
    pub anchor: Option<usize>,
    /// The model.
    pub model: Model,
    /// Added to every rating.
    pub offset: f64,
}

impl Default for RatingOptions {
    fn default() -> Self {
        RatingOptions {
            prior: 2.0,
            anchor: None,
            model: Model::Kit,
            offset: 0.0,
        }
    }
}

/// One player's rating.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rating {
    /// Elo, anchored and scaled.
    pub elo: f64,
    /// Half-width of the 95% interval: the rating is `elo ± interval`.
    pub interval: f64,
}

/// The fitted ratings.
#[derive(Debug, Clone, PartialEq)]
pub struct Fit {
    /// One per player; `None` for a player without games.
    pub ratings: Vec<Option<Rating>>,
    /// The draw parameter in Elo (fitted by the kit model, 0 when no game was drawn;
    /// fixed by the BayesElo model).
    pub draw_elo: f64,
    /// White's advantage in Elo (0 in the kit model).
    pub advantage: f64,
    /// The factor applied to the printed ratings (1 in the kit model).
    pub scale: f64,
    /// Fisher-scoring iterations used.
    pub iterations: usize,
    /// Whether every parameter settled within [`TOLERANCE_ELO`].
    pub converged: bool,
    /// How many groups of players are connected by games (more than one means ratings
    /// of different groups cannot be compared).
    pub groups: usize,
}

/// Fits ratings for `players` players from `games`.
///
/// ```ignore
/// let games = [RatedGame { white: 0, black: 1, score: 1.0, count: 1 }, RatedGame { white: 1, black: 0, score: 1.0, count: 1 }];
/// let fit = fit(2, &games, &RatingOptions::default());
/// assert!(fit.ratings[0].unwrap().elo.abs() < 1e-6);
/// ```
pub fn fit(players: usize, games: &[RatedGame], options: &RatingOptions) -> Fit {
    fit_from(players, games.iter().copied(), options)
}

/// [`fit`] from games read once in order (so a caller holding its games in another
/// shape needs no copy of them as [`RatedGame`]s).
///
/// ```
/// use results::{RatedGame, RatingOptions, fit_from};
///
/// // (White, Black, White's score): each won once with White.
/// let games = [(0, 1, 1.0), (1, 0, 1.0)];
/// let rated = games.iter().map(|&(white, black, score)| RatedGame { white, black, score, count: 1 });
/// let fit = fit_from(2, rated, &RatingOptions::default());
/// assert!(fit.ratings[0].unwrap().elo.abs() < 1e-6);
/// ```
pub fn fit_from(
    players: usize,
    games: impl IntoIterator<Item = RatedGame>,
    options: &RatingOptions,
) -> Fit {
    let mut problem = Problem::new(players, games, options);
    let solution = problem.solve();
    problem.delta = solution.delta;
    let (shift, scale) = problem.presentation(&solution.u, options);
    let variances = match options.model {
        Model::Kit => kit_variances(&problem, &solution.u, options.anchor),
        Model::BayesElo { .. } => bayeselo_variances(&problem, &solution.u),
    };
    let mut ratings = vec![None; players];
    for (slot, &i) in problem.active.iter().enumerate() {
        ratings[i] = Some(Rating {
            elo: scale * (solution.u[slot] / SCALE - shift) + options.offset,
            interval: scale * Z95 * variances[slot].max(0.0).sqrt() / SCALE,
        });
    }
    Fit {
        ratings,
        draw_elo: if problem.draws_modelled {
            solution.delta / SCALE
        } else {
            0.0
        },
        advantage: problem.advantage / SCALE,
        scale,
        iterations: solution.iterations,
        converged: solution.converged,
        groups: problem.groups,
    }
}

/// The games between one White and one Black (in the kit model: between one pair,
/// colours merged), from White's side, prior draws included.
#[derive(Debug, Clone, Copy)]
struct Pair {
    /// White's slot among the active players.
    white: usize,
    /// Black's slot.
    black: usize,
    w: f64,
    d: f64,
    l: f64,
}

/// Everything the fit needs, in natural units (`SCALE` per Elo).
struct Problem {
    /// Players with at least one game, by index.
    active: Vec<usize>,
    pairs: Vec<Pair>,
    /// The group of each active slot, numbered from 0.
    group: Vec<usize>,
    groups: usize,
    advantage: f64,
    /// The draw parameter: fixed, or the starting point when fitted.
    delta: f64,
    fit_delta: bool,
    draws_modelled: bool,
    /// Weight of the draw parameter's own prior (one virtual win, draw and loss).
    delta_prior: f64,
}

struct Solution {
    u: Vec<f64>,
    delta: f64,
    iterations: usize,
    converged: bool,
}

impl Problem {
    fn new(
        players: usize,
        games: impl IntoIterator<Item = RatedGame>,
        options: &RatingOptions,
    ) -> Problem {
        let coloured = matches!(options.model, Model::BayesElo { .. });
        let mut slot = vec![usize::MAX; players];
        let mut active = Vec::new();
        let games = games.into_iter();
        // At most one pair per kind of game: sized once, nothing grows by doubling.
        let most = games.size_hint().1.unwrap_or(0);
        let mut index: HashMap<(usize, usize), usize> = HashMap::with_capacity(most);
        let mut pairs: Vec<Pair> = Vec::with_capacity(most);
        for g in games {
            if g.white == g.black || g.white >= players || g.black >= players {
                continue;
            }
            for p in [g.white, g.black] {
                if slot[p] == usize::MAX {
                    slot[p] = active.len();
                    active.push(p);
                }
            }
            let (a, b, score) = if coloured || slot[g.white] < slot[g.black] {
                (slot[g.white], slot[g.black], g.score)
            } else {
                (slot[g.black], slot[g.white], 1.0 - g.score)
            };
            let k = *index.entry((a, b)).or_insert_with(|| {
                pairs.push(Pair {
                    white: a,
                    black: b,
                    w: 0.0,
                    d: 0.0,
                    l: 0.0,
                });
                pairs.len() - 1
            });
            let p = &mut pairs[k];
            let count = f64::from(g.count);
            if score > 0.75 {
                p.w += count;
            } else if score < 0.25 {
                p.l += count;
            } else {
                p.d += count;
            }
        }
        // The map only matched games to their pair: the fit needs the pairs alone.
        drop(index);
        pairs.shrink_to_fit();
        let (group, groups) = connected_groups(active.len(), &pairs);
        let mut problem = Problem {
            active,
            pairs,
            group,
            groups,
            advantage: 0.0,
            delta: 0.0,
            fit_delta: false,
            draws_modelled: false,
            delta_prior: 0.0,
        };
        match options.model {
            Model::Kit => problem.kit_prior(options.prior),
            Model::BayesElo {
                advantage,
                draw_elo,
            } => {
                problem.bayeselo_prior(options.prior);
                problem.advantage = advantage * SCALE;
                problem.delta = draw_elo * SCALE;
                problem.draws_modelled = true;
            }
        }
        problem
    }

    /// The kit's prior: `prior` virtual draws per player, spread evenly over its
    /// opponents, and one virtual win, draw and loss for the draw parameter.
    fn kit_prior(&mut self, prior: f64) {
        let mut opponents = vec![0usize; self.active.len()];
        for p in &self.pairs {
            opponents[p.white] += 1;
            opponents[p.black] += 1;
        }
        if prior > 0.0 {
            for p in &mut self.pairs {
                p.d += prior / (2.0 * opponents[p.white] as f64)
                    + prior / (2.0 * opponents[p.black] as f64);
            }
            self.delta_prior = 1.0;
        }
        let draws: f64 = self.pairs.iter().map(|p| p.d).sum();
        let total: f64 = self.pairs.iter().map(|p| p.w + p.d + p.l).sum();
        self.draws_modelled = draws > 0.0;
        self.fit_delta = self.draws_modelled;
        if self.draws_modelled {
            // The draw parameter that matches the draw rate between equal players.
            let rate = (draws / total).min(0.999);
            self.delta = ((1.0 + rate) / (1.0 - rate)).ln();
        }
    }

    /// BayesElo's prior (`CCondensedResults::AddPrior`): for each player `i` and
    /// opponent `j`, `prior * 0.25 * games(i, j) / games(i)` virtual draws with `i` as
    /// White and as many with `j` as White. The pairs are matched with their reverse by
    /// sorting their numbers (no map of pairings is held); a colour never played gets a
    /// pair of its own, appended in the order of (White, Black).
    fn bayeselo_prior(&mut self, prior: f64) {
        if prior <= 0.0 {
            return;
        }
        let n = self.active.len();
        let mut games = vec![0.0f64; n];
        for p in &self.pairs {
            let count = p.w + p.d + p.l;
            games[p.white] += count;
            games[p.black] += count;
        }
        // (lower slot, higher slot, pair): a pairing's two colours side by side.
        let mut order: Vec<(u32, u32, u32)> = (self.pairs.iter().enumerate())
            .map(|(k, p)| {
                let narrow = |i: usize| u32::try_from(i).expect("fewer than 2^32 pairs");
                (
                    narrow(p.white.min(p.black)),
                    narrow(p.white.max(p.black)),
                    narrow(k),
                )
            })
            .collect();
        order.sort_unstable();
        let same_pairing = |x: &(u32, u32, u32), y: &(u32, u32, u32)| (x.0, x.1) == (y.0, y.1);
        // Room for the colours never played, once: no list grows by doubling.
        let played = self.pairs.len();
        let unplayed = order
            .chunk_by(same_pairing)
            .filter(|s| s.len() == 1)
            .count();
        self.pairs.reserve_exact(unplayed);
        for same in order.chunk_by(same_pairing) {
            let (i, j) = (same[0].0 as usize, same[0].1 as usize);
            // Counts are whole numbers: their sum is exact in any order.
            let count: f64 = same
                .iter()
                .map(|&(_, _, k)| {
                    let p = &self.pairs[k as usize];
                    p.w + p.d + p.l
                })
                .sum();
            let virtual_draws = prior * 0.25 * count * (1.0 / games[i] + 1.0 / games[j]);
            for &(_, _, k) in same {
                self.pairs[k as usize].d += virtual_draws;
            }
            if let [(_, _, k)] = *same {
                let p = self.pairs[k as usize];
                self.pairs.push(Pair {
                    white: p.black,
                    black: p.white,
                    w: 0.0,
                    d: virtual_draws,
                    l: 0.0,
                });
            }
        }
        self.pairs[played..].sort_unstable_by_key(|p| (p.white, p.black));
    }

    /// The centring of the printed ratings (in Elo, before scaling) and the scale.
    fn presentation(&self, u: &[f64], options: &RatingOptions) -> (f64, f64) {
        let anchor_slot = options
            .anchor
            .and_then(|a| self.active.iter().position(|&i| i == a));
        let shift = anchor_slot.map_or(0.0, |s| u[s] / SCALE);
        let scale = match options.model {
            Model::Kit => 1.0,
            Model::BayesElo { draw_elo, .. } => {
                let x = 10f64.powf(-draw_elo / 400.0);
                4.0 * x / ((1.0 + x) * (1.0 + x))
            }
        };
        (shift, scale)
    }

    /// Unknowns: one rating per active player, then the draw parameter if fitted.
    fn unknowns(&self) -> usize {
        self.active.len() + usize::from(self.fit_delta)
    }

    fn log_likelihood(&self, u: &[f64], delta: f64) -> f64 {
        let mut total: f64 = self
            .pairs
            .iter()
            .map(|p| {
                let x = u[p.white] - u[p.black] + self.advantage;
                let o = Odds::new(x, delta);
                // Each term only where it has games: `0 * ln 0` would be NaN.
                let mut sum = 0.0;
                if p.w > 0.0 {
                    sum -= p.w * o.win.ln_1p();
                }
                if p.l > 0.0 {
                    sum -= p.l * o.loss.ln_1p();
                }
                if self.draws_modelled && p.d > 0.0 {
                    sum += p.d * o.draw().ln();
                }
                sum
            })
            .sum();
        if self.delta_prior > 0.0 {
            total +=
                self.delta_prior * (2.0 * ln_sigmoid(-delta) + draw_probability(0.0, delta).ln());
        }
        total
    }

    /// Each pair's likelihood terms at ratings `u` and draw width `delta`.
    fn pair_terms(&self, u: &[f64], delta: f64) -> Vec<Terms> {
        self.pairs
            .iter()
            .map(|p| {
                let x = u[p.white] - u[p.black] + self.advantage;
                terms(x, delta, p, self.draws_modelled)
            })
            .collect()
    }

    /// Hands every term of the Fisher information, from each pair's terms, to `add` as
    /// (row, column, value), each off-diagonal term once per side; the draw parameter
    /// is unknown number `n`, after the ratings.
    fn information_from(
        &self,
        pair_terms: &[Terms],
        delta: f64,
        mut add: impl FnMut(usize, usize, f64),
    ) {
        let n = self.active.len();
        for (p, t) in self.pairs.iter().zip(pair_terms) {
            let (a, b) = (p.white, p.black);
            add(a, a, t.ixx);
            add(b, b, t.ixx);
            add(a, b, -t.ixx);
            add(b, a, -t.ixx);
            if self.fit_delta {
                add(a, n, t.ixd);
                add(n, a, t.ixd);
                add(b, n, -t.ixd);
                add(n, b, -t.ixd);
                add(n, n, t.idd);
            }
        }
        if self.fit_delta && self.delta_prior > 0.0 {
            add(n, n, self.delta_prior * delta_prior_terms(delta).1);
        }
    }

    /// The dense Fisher information (`m`×`m`, row-major).
    fn dense_information(&self, pair_terms: &[Terms], delta: f64) -> Vec<f64> {
        let m = self.unknowns();
        let mut f = vec![0.0; m * m];
        self.information_from(pair_terms, delta, |r, c, v| f[r * m + c] += v);
        f
    }

    /// The Fisher-scoring step `F s = g`, with each group's mean pinned. Conjugate
    /// gradients on the sparse information (one pass over the pairs per product, a few
    /// dozen products on a real field) instead of a dense factorisation; the dense
    /// solve remains for the rare system that conjugate gradients cannot settle.
    fn scoring_step(&self, u: &[f64], delta: f64) -> Vec<f64> {
        let n = self.active.len();
        let m = self.unknowns();
        let delta_information = if self.fit_delta && self.delta_prior > 0.0 {
            self.delta_prior * delta_prior_terms(delta).1
        } else {
            0.0
        };
        let mut members = vec![0usize; self.groups];
        for &g in &self.group {
            members[g] += 1;
        }
        let (g, mut diagonal, curvature) = self.gradient_and_curvature(u, delta);
        let product = |v: &[f64], out: &mut [f64]| {
            out.fill(0.0);
            for (k, p) in self.pairs.iter().enumerate() {
                let dv = v[p.white] - v[p.black];
                let mut flow = curvature.xx[k] * dv;
                if self.fit_delta {
                    let [ixd, idd] = curvature.with_delta[k];
                    flow += ixd * v[n];
                    out[n] += ixd * dv + idd * v[n];
                }
                out[p.white] += flow;
                out[p.black] -= flow;
            }
            if self.fit_delta {
                out[n] += delta_information * v[n];
            }
            let mut sums = vec![0.0; self.groups];
            for (slot, &g) in self.group.iter().enumerate() {
                sums[g] += v[slot];
            }
            for (slot, &g) in self.group.iter().enumerate() {
                out[slot] += sums[g] / members[g] as f64;
            }
        };
        for (slot, &g) in self.group.iter().enumerate() {
            diagonal[slot] += 1.0 / members[g] as f64;
        }
        if self.fit_delta {
            diagonal[n] += delta_information;
        }
        conjugate_gradients(product, &diagonal, &g).unwrap_or_else(|| {
            let mut f = self.dense_information(&self.pair_terms(u, delta), delta);
            self.pin_group_means(&mut f, m);
            solve_spd(f, &g, m)
        })
    }

    /// In one pass over the pairs: the gradient of the log-likelihood over all unknowns
    /// (ratings, then the draw parameter if fitted), the diagonal of the Fisher
    /// information from the pairs, and the pairs' terms its products need (kept apart
    /// from each pair's full [`Terms`], so a step holds three numbers a pair at most).
    fn gradient_and_curvature(&self, u: &[f64], delta: f64) -> (Vec<f64>, Vec<f64>, Curvature) {
        let n = self.active.len();
        let m = self.unknowns();
        let (mut g, mut diagonal) = (vec![0.0; m], vec![0.0; m]);
        let mut curvature = Curvature {
            xx: Vec::with_capacity(self.pairs.len()),
            with_delta: Vec::with_capacity(if self.fit_delta { self.pairs.len() } else { 0 }),
        };
        for p in &self.pairs {
            let x = u[p.white] - u[p.black] + self.advantage;
            let t = terms(x, delta, p, self.draws_modelled);
            g[p.white] += t.gx;
            g[p.black] -= t.gx;
            diagonal[p.white] += t.ixx;
            diagonal[p.black] += t.ixx;
            if self.fit_delta {
                g[n] += t.gd;
                diagonal[n] += t.idd;
                curvature.with_delta.push([t.ixd, t.idd]);
            }
            curvature.xx.push(t.ixx);
        }
        if self.fit_delta && self.delta_prior > 0.0 {
            g[n] += self.delta_prior * delta_prior_terms(delta).0;
        }
        (g, diagonal, curvature)
    }

    /// Adds `1/|G|` to every entry linking two members of a group `G`: shifting a
    /// whole group leaves the likelihood unchanged, and this pins each group's mean
    /// without touching the rest of the spectrum.
    fn pin_group_means(&self, f: &mut [f64], m: usize) {
        let mut members: Vec<Vec<usize>> = vec![Vec::new(); self.groups];
        for (slot, &g) in self.group.iter().enumerate() {
            members[g].push(slot);
        }
        for group in &members {
            let w = 1.0 / group.len() as f64;
            for &r in group {
                for &c in group {
                    f[r * m + c] += w;
                }
            }
        }
    }

    fn centre_groups(&self, u: &mut [f64]) {
        let mut sum = vec![0.0; self.groups];
        let mut count = vec![0usize; self.groups];
        for (slot, &g) in self.group.iter().enumerate() {
            sum[g] += u[slot];
            count[g] += 1;
        }
        for (slot, &g) in self.group.iter().enumerate() {
            u[slot] -= sum[g] / count[g] as f64;
        }
    }

    /// Fisher scoring with step halving until the largest step is below the tolerance.
    fn solve(&self) -> Solution {
        let n = self.active.len();
        let mut u = vec![0.0; n];
        let mut delta = self.delta;
        let tolerance = TOLERANCE_ELO * SCALE;
        let mut iterations = 0;
        let mut converged = n == 0;
        while !converged && iterations < MAX_ITERATIONS {
            iterations += 1;
            let step = self.scoring_step(&u, delta);
            let largest = step.iter().fold(0.0f64, |acc, s| acc.max(s.abs()));
            let base = self.log_likelihood(&u, delta);
            let mut t = 1.0;
            loop {
                let next_delta = if self.fit_delta {
                    delta + t * step[n]
                } else {
                    delta
                };
                let next_u: Vec<f64> = u.iter().zip(&step).map(|(x, s)| x + t * s).collect();
                let ok = next_delta > 0.0 || !self.fit_delta;
                if ok && self.log_likelihood(&next_u, next_delta) >= base - 1e-12 * base.abs() {
                    u = next_u;
                    delta = next_delta;
                    break;
                }
                t /= 2.0;
                if t < 1e-12 {
                    break;
                }
            }
            self.centre_groups(&mut u);
            converged = largest < tolerance;
        }
        Solution {
            u,
            delta,
            iterations,
            converged,
        }
    }
}

/// The Fisher information of each pair, as a product with it needs: the rating
/// difference's own term, and (only when the draw parameter is fitted) its cross term
/// with the draw parameter and the draw parameter's own.
struct Curvature {
    xx: Vec<f64>,
    with_delta: Vec<[f64; 2]>,
}

/// Per-pair gradient and Fisher information with respect to `x` (the rating difference
/// plus White's advantage) and `delta`.
struct Terms {
    gx: f64,
    gd: f64,
    ixx: f64,
    ixd: f64,
    idd: f64,
}

fn sigmoid(z: f64) -> f64 {
    1.0 / (1.0 + (-z).exp())
}

/// `ln(sigmoid(z))` without overflow or cancellation.
fn ln_sigmoid(z: f64) -> f64 {
    if z > 0.0 {
        -(-z).exp().ln_1p()
    } else {
        z - z.exp().ln_1p()
    }
}

/// `1 - sigmoid(x - delta) - sigmoid(-x - delta)`, computed on the side where both
/// terms are small so that it keeps its precision far from equal ratings.
fn draw_probability(x: f64, delta: f64) -> f64 {
    let x = x.abs();
    (sigmoid(delta - x) - sigmoid(-delta - x)).max(1e-300)
}

/// The outcome probabilities of one pairing from two exponentials (the fit's hot loop
/// spends its time in `exp`): `win = e^(delta - x)` and `loss = e^(x + delta)`, the odds
/// against a win and against a loss, so that `P(win) = 1 / (1 + win)`.
#[derive(Debug, Clone, Copy)]
struct Odds {
    x: f64,
    win: f64,
    loss: f64,
}

impl Odds {
    fn new(x: f64, delta: f64) -> Odds {
        Odds {
            x,
            win: (delta - x).exp(),
            loss: (x + delta).exp(),
        }
    }

    /// `sigmoid(x - delta)`, `sigmoid(delta - x)`, `sigmoid(-x - delta)`,
    /// `sigmoid(x + delta)`: each without `inf / inf` when an exponential overflows.
    fn sigmoids(self) -> (f64, f64, f64, f64) {
        (
            1.0 / (1.0 + self.win),
            1.0 / (1.0 + self.win.recip()),
            1.0 / (1.0 + self.loss),
            1.0 / (1.0 + self.loss.recip()),
        )
    }

    /// [`draw_probability`]: the difference of the two small sigmoids.
    fn draw(self) -> f64 {
        let (pw, qw, pl, ql) = self.sigmoids();
        let d = if self.x >= 0.0 { qw - pl } else { ql - pw };
        d.max(1e-300)
    }
}

fn terms(x: f64, delta: f64, p: &Pair, draws_modelled: bool) -> Terms {
    let odds = Odds::new(x, delta);
    let (pw, qw, pl, ql) = odds.sigmoids();
    let (sa, sb) = (pw * qw, pl * ql);
    let n = p.w + p.d + p.l;
    let mut t = Terms {
        gx: p.w * qw - p.l * ql,
        gd: -p.w * qw - p.l * ql,
        ixx: n * (sa * qw + sb * ql),
        ixd: n * (-sa * qw + sb * ql),
        idd: n * (sa * qw + sb * ql),
    };
    if draws_modelled {
        let pd = odds.draw();
        t.gx += p.d * (sb - sa) / pd;
        t.gd += p.d * (sa + sb) / pd;
        t.ixx += n * (sb - sa) * (sb - sa) / pd;
        t.ixd += n * (sb - sa) * (sa + sb) / pd;
        t.idd += n * (sa + sb) * (sa + sb) / pd;
    }
    t
}

/// The draw parameter's own prior, as gradient and information: one virtual win, draw
/// and loss between equal players. Without it a field that only drew would send the
/// draw parameter (and every interval) to infinity; with real games it weighs as three
/// games among thousands. Off with `prior = 0`, for the plain maximum-likelihood fit.
fn delta_prior_terms(delta: f64) -> (f64, f64) {
    let even = Pair {
        white: 0,
        black: 0,
        w: 1.0,
        d: 1.0,
        l: 1.0,
    };
    let t = terms(0.0, delta, &even, true);
    (t.gd, t.idd)
}

/// Each active slot's group (players linked by games) and the number of groups.
fn connected_groups(n: usize, pairs: &[Pair]) -> (Vec<usize>, usize) {
    let mut parent: Vec<usize> = (0..n).collect();
    fn root(parent: &mut [usize], mut i: usize) -> usize {
        while parent[i] != i {
            parent[i] = parent[parent[i]];
            i = parent[i];
        }
        i
    }
    for p in pairs {
        let (x, y) = (root(&mut parent, p.white), root(&mut parent, p.black));
        parent[x] = y;
    }
    let mut number = HashMap::new();
    let group = (0..n)
        .map(|i| {
            let r = root(&mut parent, i);
            let next = number.len();
            *number.entry(r).or_insert(next)
        })
        .collect();
    (group, number.len())
}

/// The variance of each active player's printed rating (natural units squared): of its
/// difference from the anchor, or from its group's mean, the draw parameter estimated
/// with the ratings. Shifting a group leaves the likelihood unchanged, so each group's
/// lowest rated player (or the anchor) is held at 0 ("grounded") and the information of
/// the others, `A`, is inverted: then `Var(u_i - u_anchor) = (A^-1)_ii`, and
/// `Var(u_i - mean) = (A^-1)_ii - 2 (A^-1 1)_i / k + 1' A^-1 1 / k^2` over a group of `k`.
/// `A` is held by its envelope with the players in rating order (players meet others of
/// similar strength), the draw parameter last: no players-squared matrix.
fn kit_variances(problem: &Problem, u: &[f64], anchor: Option<usize>) -> Vec<f64> {
    let n = problem.active.len();
    let anchor_slot = anchor.and_then(|a| problem.active.iter().position(|&i| i == a));
    let mut by_rating: Vec<usize> = (0..n).collect();
    by_rating.sort_by(|&a, &b| u[a].total_cmp(&u[b]).then(a.cmp(&b)));
    let mut ground = vec![usize::MAX; problem.groups];
    if let Some(a) = anchor_slot {
        ground[problem.group[a]] = a;
    }
    // Each unknown's row in `A`; the draw parameter (unknown `n`) goes last.
    let mut row = vec![usize::MAX; n + 1];
    let mut rows = 0;
    for &slot in &by_rating {
        let g = &mut ground[problem.group[slot]];
        if *g == usize::MAX {
            *g = slot;
        } else if *g != slot {
            row[slot] = rows;
            rows += 1;
        }
    }
    if problem.fit_delta {
        row[n] = rows;
        rows += 1;
    }
    let mut first: Vec<usize> = (0..rows).collect();
    for p in &problem.pairs {
        let (a, b) = (row[p.white], row[p.black]);
        if a != usize::MAX && b != usize::MAX {
            let at = &mut first[a.max(b)];
            *at = (*at).min(a.min(b));
        }
    }
    if problem.fit_delta {
        first[rows - 1] = 0;
    }
    let pair_terms = problem.pair_terms(u, problem.delta);
    let factor = Factor::with_ridge(|| {
        let mut a = Envelope::new(first.clone());
        problem.information_from(&pair_terms, problem.delta, |r, c, v| {
            let (r, c) = (row[r], row[c]);
            if r != usize::MAX && c != usize::MAX && c <= r {
                a.add(r, c, v);
            }
        });
        a
    });
    drop(pair_terms);
    let inverse_diagonal = factor.inverse_diagonal();
    let own = |slot: usize| match row[slot] {
        usize::MAX => 0.0,
        r => inverse_diagonal[r],
    };
    let mut variances: Vec<f64> = (0..n).map(own).collect();
    for (g, &grounded) in ground.iter().enumerate() {
        if Some(grounded) == anchor_slot {
            continue;
        }
        let members = || (0..n).filter(move |&slot| problem.group[slot] == g);
        let mut sums = vec![0.0; rows];
        for slot in members().filter(|&slot| row[slot] != usize::MAX) {
            sums[row[slot]] = 1.0;
        }
        factor.solve(&mut sums);
        let with = |slot: usize| match row[slot] {
            usize::MAX => 0.0,
            r => sums[r],
        };
        let k = members().count() as f64;
        let total: f64 = members().map(with).sum();
        for slot in members() {
            variances[slot] += total / (k * k) - 2.0 * with(slot) / k;
        }
    }
    variances
}

/// BayesElo's intervals (`CBradleyTerry::GetVariance`): the inverse of the diagonal of
/// the log-likelihood's Hessian, prior draws included (natural units squared).
fn bayeselo_variances(problem: &Problem, u: &[f64]) -> Vec<f64> {
    let mut diagonal = vec![0.0f64; problem.active.len()];
    for p in &problem.pairs {
        let x = u[p.white] - u[p.black] + problem.advantage;
        let (win, loss) = (sigmoid(x - problem.delta), sigmoid(-x - problem.delta));
        let h = (p.w + p.d) * win * (1.0 - win) + (p.l + p.d) * loss * (1.0 - loss);
        diagonal[p.white] += h;
        diagonal[p.black] += h;
    }
    diagonal.into_iter().map(|h| 1.0 / h).collect()
}

/// Solves `F s = g` by conjugate gradients preconditioned with `F`'s diagonal, given
/// the product with `F`; `None` if the residual does not fall below a ten-billionth of
/// `g` within `10 m + 100` products.
fn conjugate_gradients(
    product: impl Fn(&[f64], &mut [f64]),
    diagonal: &[f64],
    g: &[f64],
) -> Option<Vec<f64>> {
    let m = g.len();
    if diagonal.iter().any(|&d| d <= 0.0 || !d.is_finite()) {
        return None;
    }
    let norm = |v: &[f64]| v.iter().map(|x| x * x).sum::<f64>().sqrt();
    let target = 1e-10 * norm(g);
    let mut s = vec![0.0; m];
    let mut r = g.to_vec();
    let mut z: Vec<f64> = r.iter().zip(diagonal).map(|(r, d)| r / d).collect();
    let mut p = z.clone();
    let mut fp = vec![0.0; m];
    let mut rz: f64 = r.iter().zip(&z).map(|(a, b)| a * b).sum();
    for _ in 0..10 * m + 100 {
        if norm(&r) <= target {
            return Some(s);
        }
        product(&p, &mut fp);
        let pfp: f64 = p.iter().zip(&fp).map(|(a, b)| a * b).sum();
        if pfp <= 0.0 || !pfp.is_finite() {
            return None;
        }
        let alpha = rz / pfp;
        for i in 0..m {
            s[i] += alpha * p[i];
            r[i] -= alpha * fp[i];
            z[i] = r[i] / diagonal[i];
        }
        let next: f64 = r.iter().zip(&z).map(|(a, b)| a * b).sum();
        let beta = next / rz;
        rz = next;
        for i in 0..m {
            p[i] = z[i] + beta * p[i];
        }
    }
    (norm(&r) <= target).then_some(s)
}

/// Solves `F s = g` for a symmetric positive (semi-)definite `F`.
fn solve_spd(f: Vec<f64>, g: &[f64], m: usize) -> Vec<f64> {
    let l = cholesky_with_ridge(f, m);
    // L y = g, then L^T s = y.
    let mut y = g.to_vec();
    for i in 0..m {
        let row = &l[i * m..i * m + i];
        let s: f64 = row.iter().zip(&y[..i]).map(|(a, b)| a * b).sum();
        y[i] = (y[i] - s) / l[i * m + i];
    }
    for i in (0..m).rev() {
        let mut s = y[i];
        for k in i + 1..m {
            s -= l[k * m + i] * y[k];
        }
        y[i] = s / l[i * m + i];
    }
    y
}

/// The Cholesky factor of `f`, adding a growing ridge to the diagonal if `f` is not
/// positive definite (only players whose results leave a direction without any
/// information, such as a perfect score without prior, make it so). It factorises in
/// place: a failed attempt is undone from the upper triangle, which the factorisation
/// leaves as it was, so the largest matrix of the fit is held once.
fn cholesky_with_ridge(mut a: Vec<f64>, m: usize) -> Vec<f64> {
    let diagonal: Vec<f64> = (0..m).map(|i| a[i * m + i]).collect();
    let trace: f64 = diagonal.iter().sum::<f64>().max(1e-12);
    let mut ridge = 0.0;
    while !cholesky(&mut a, m) {
        ridge = if ridge == 0.0 {
            1e-9 * trace / m as f64
        } else {
            ridge * 100.0
        };
        for i in 0..m {
            for j in 0..i {
                a[i * m + j] = a[j * m + i];
            }
            a[i * m + i] = diagonal[i] + ridge;
        }
    }
    for i in 0..m {
        a[i * m + i + 1..(i + 1) * m].fill(0.0);
    }
    a
}

/// In-place Cholesky factorisation of a symmetric positive definite `m`×`m` matrix into
/// its lower factor, the upper triangle untouched; false if the matrix is not positive
/// definite.
fn cholesky(a: &mut [f64], m: usize) -> bool {
    for j in 0..m {
        let (row_j, below) = a[j * m..].split_at_mut(m);
        let d = row_j[j] - dot(&row_j[..j], &row_j[..j]);
        if d <= 0.0 || !d.is_finite() {
            return false;
        }
        let d = d.sqrt();
        row_j[j] = d;
        for row_i in below.chunks_exact_mut(m) {
            row_i[j] = (row_i[j] - dot(&row_i[..j], &row_j[..j])) / d;
        }
    }
    true
}

/// Inverts a lower-triangular matrix in place, for the tests' dense reference (the
/// inverse is lower-triangular too), row by row so the inner loop runs over contiguous
/// memory: row `i` of the inverse
/// needs row `i` of the factor (kept aside) and the rows of the inverse above it.
#[cfg(test)]
fn invert_lower(inv: &mut [f64], m: usize) {
    let mut l_row = vec![0.0f64; m];
    for i in 0..m {
        let (done, rest) = inv.split_at_mut(i * m);
        let row = &mut rest[..m];
        l_row[..=i].copy_from_slice(&row[..=i]);
        row.fill(0.0);
        row[i] = 1.0;
        for k in 0..i {
            let factor = l_row[k];
            if factor != 0.0 {
                let other = &done[k * m..k * m + k + 1];
                for (x, y) in row[..=k].iter_mut().zip(other) {
                    *x -= factor * y;
                }
            }
        }
        let d = l_row[i];
        for x in &mut row[..=i] {
            *x /= d;
        }
    }
}

#[cfg(test)]
/// Expected score of a player rated `diff` Elo above its opponent under the model with
/// draw parameter `draw_elo`.
pub fn expected_score(diff: f64, draw_elo: f64) -> f64 {
    let pw = sigmoid((diff - draw_elo) * SCALE);
    let pl = sigmoid((-diff - draw_elo) * SCALE);
    pw + 0.5 * (1.0 - pw - pl)
}

/// A deterministic stream of pseudo-random numbers (splitmix64), for generated games.
struct SplitMix(u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in [0, 1).
    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// Standard normal (Box–Muller).
    fn normal(&mut self) -> f64 {
        let u = 1.0 - self.unit();
        let v = self.unit();
        (-2.0 * u.ln()).sqrt() * (std::f64::consts::TAU * v).cos()
    }
}

/// One game's score drawn from BayesElo's model.
fn draw_result(rng: &mut SplitMix, diff: f64, advantage: f64, draw_elo: f64) -> f64 {
    let pw = sigmoid((diff + advantage - draw_elo) * SCALE);
    let pl = sigmoid((-diff - advantage - draw_elo) * SCALE);
    let r = rng.unit();
    if r < pw {
        1.0
    } else if r < pw + pl {
        0.0
    } else {
        0.5
    }
}

/// Generated games for benchmarks: `players` players with true strengths spread over
/// 800 Elo, each game between random opponents, results drawn from the model
/// (deterministic per seed). A narrow field: every player meets every level.
pub fn synthetic_games(players: usize, games: usize, seed: u64) -> Vec<RatedGame> {
    let mut rng = SplitMix(seed);
    let strength: Vec<f64> = (0..players)
        .map(|i| (i as f64 / players.max(1) as f64 - 0.5) * 800.0)
        .collect();
    (0..games)
        .map(|_| {
            let white = (rng.next() % players as u64) as usize;
            let mut black = (rng.next() % players as u64) as usize;
            if black == white {
                black = (white + 1) % players;
            }
            let score = draw_result(&mut rng, strength[white] - strength[black], 0.0, 100.0);
            RatedGame {
                white,
                black,
                score,
                count: 1,
            }
        })
        .collect()
}

/// Generated games like a real open challenge's: true strengths spread over 4,400 Elo
/// (from random movers to strong engines), Swiss-style rounds in which each player
/// meets others of similar standing (strength plus noise), random colours, White
/// advantage 30 and draw parameter 100. A wide field: most pairs never meet, and the
/// ratings span far more than any one game's information.
pub fn wide_field_games(players: usize, games: usize, seed: u64) -> Vec<RatedGame> {
    let mut rng = SplitMix(seed);
    let strength: Vec<f64> = (0..players)
        .map(|i| (i as f64 / (players.max(2) - 1) as f64 - 0.5) * 4400.0)
        .collect();
    let mut out = Vec::with_capacity(games);
    let mut order: Vec<(f64, usize)> = Vec::with_capacity(players);
    while out.len() < games && players >= 2 {
        order.clear();
        order.extend((0..players).map(|i| (strength[i] + 250.0 * rng.normal(), i)));
        order.sort_by(|a, b| a.0.total_cmp(&b.0));
        for pair in order.chunks_exact(2) {
            if out.len() == games {
                break;
            }
            let (mut white, mut black) = (pair[0].1, pair[1].1);
            if rng.next() & 1 == 0 {
                std::mem::swap(&mut white, &mut black);
            }
            let score = draw_result(&mut rng, strength[white] - strength[black], 30.0, 100.0);
            out.push(RatedGame {
                white,
                black,
                score,
                count: 1,
            });
        }
    }
    out
}

#[cfg(test)]
mod tests;

//! Match statistics: win/draw/loss and game-pair (pentanomial) counts, Elo with a 95%
//! interval, normalized Elo, likelihood of superiority, and the generalized SPRT.
//!
//! The formulas follow fastchess (and through it Michel Van den Bergh's notes on
//! normalized Elo used by Fishtest), so figures agree with theirs for the same counts.

use std::f64::consts::LN_10;
use std::fmt;

/// The two-sided 95% quantile of the standard normal distribution.
pub const Z95: f64 = 1.959_963_984_540_054;

/// Results of one player against another (or against the field), counted by game and by
/// colour-swapped game pair.
///
/// ```
/// use runner::Stats;
/// let mut s = Stats::default();
/// s.add_game(1.0);
/// s.add_game(0.5);
/// s.add_pair(1.0, 0.5);
/// assert_eq!((s.wins, s.draws, s.losses), (1, 1, 0));
/// assert_eq!(s.penta, [0, 0, 0, 1, 0]);
/// assert_eq!(s.score(), 0.75);
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Stats {
    /// Games won.
    pub wins: u64,
    /// Games drawn.
    pub draws: u64,
    /// Games lost.
    pub losses: u64,
    /// Game pairs by total score 0, ½, 1, 1½, 2: `[LL, LD, WL+DD, WD, WW]`.
    pub penta: [u64; 5],
    /// Pairs scored 1 by a win and a loss (part of `penta[2]`).
    pub pairs_wl: u64,
}

impl Stats {
    /// Adds one game scored `score` (1, ½ or 0).
    pub fn add_game(&mut self, score: f64) {
        if score > 0.75 {
            self.wins += 1;
        } else if score < 0.25 {
            self.losses += 1;
        } else {
            self.draws += 1;
        }
    }

    /// Adds a finished pair scored `a` and `b` (each 1, ½ or 0); the games themselves are
    /// counted by [`add_game`](Self::add_game).
    pub fn add_pair(&mut self, a: f64, b: f64) {
        let total = a + b;
        let index = (total * 2.0).round().clamp(0.0, 4.0) as usize;
        self.penta[index] += 1;
        if index == 2 && (a - b).abs() > 0.75 {
            self.pairs_wl += 1;
        }
    }

    /// The same results from the opponent's side.
    ///
    /// ```
    /// use runner::Stats;
    /// let s = Stats { wins: 3, draws: 1, losses: 2, penta: [1, 0, 0, 2, 0], pairs_wl: 0 };
    /// let o = s.flipped();
    /// assert_eq!((o.wins, o.losses, o.penta), (2, 3, [0, 2, 0, 0, 1]));
    /// ```
    pub fn flipped(&self) -> Stats {
        let mut penta = self.penta;
        penta.reverse();
        Stats {
            wins: self.losses,
            draws: self.draws,
            losses: self.wins,
            penta,
            pairs_wl: self.pairs_wl,
        }
    }

    /// Adds another set of counts.
    pub fn merge(&mut self, other: &Stats) {
        self.wins += other.wins;
        self.draws += other.draws;
        self.losses += other.losses;
        for (a, b) in self.penta.iter_mut().zip(other.penta) {
            *a += b;
        }
        self.pairs_wl += other.pairs_wl;
    }

    /// Games played.
    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    /// Complete game pairs.
    pub fn pairs(&self) -> u64 {
        self.penta.iter().sum()
    }

    /// Games whose colour-swapped partner has not finished (a match stopped
    /// by its SPRT or by Ctrl-C while the partner was being played): they
    /// count in [`games`](Self::games) but in no pair, so
    /// `games() == 2 * pairs() + unpaired_games()`.
    ///
    /// ```
    /// use runner::Stats;
    /// let mut s = Stats::default();
    /// s.add_game(1.0);
    /// s.add_game(0.5);
    /// s.add_pair(1.0, 0.5);
    /// s.add_game(0.0);
    /// assert_eq!((s.games(), s.pairs(), s.unpaired_games()), (3, 1, 1));
    /// ```
    pub fn unpaired_games(&self) -> u64 {
        self.games().saturating_sub(2 * self.pairs())
    }

    /// Points scored (a win 1, a draw ½).
    pub fn points(&self) -> f64 {
        self.wins as f64 + 0.5 * self.draws as f64
    }

    /// The score fraction (0.5 with no games).
    pub fn score(&self) -> f64 {
        if self.games() == 0 {
            0.5
        } else {
            self.points() / self.games() as f64
        }
    }

    /// The share of drawn games.
    pub fn draw_ratio(&self) -> f64 {
        if self.games() == 0 {
            0.0
        } else {
            self.draws as f64 / self.games() as f64
        }
    }

    /// Elo from the trinomial (per-game) model.
    pub fn elo_wdl(&self) -> Option<EloEstimate> {
        let n = self.games();
        if n == 0 {
            return None;
        }
        let n_f = n as f64;
        let probs = [
            self.losses as f64 / n_f,
            self.draws as f64 / n_f,
            self.wins as f64 / n_f,
        ];
        Some(EloEstimate::from_distribution(
            &[0.0, 0.5, 1.0],
            &probs,
            n_f,
            1.0,
        ))
    }

    /// Elo from the pentanomial (per-pair) model.
    pub fn elo_penta(&self) -> Option<EloEstimate> {
        let n = self.pairs();
        if n == 0 {
            return None;
        }
        let n_f = n as f64;
        let probs = self.penta.map(|c| c as f64 / n_f);
        Some(EloEstimate::from_distribution(
            &[0.0, 0.25, 0.5, 0.75, 1.0],
            &probs,
            n_f,
            2.0,
        ))
    }
}

/// An Elo estimate with its 95% interval, normalized Elo and likelihood of superiority.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct EloEstimate {
    /// Mean score per game.
    pub score: f64,
    /// Logistic Elo difference.
    pub elo: f64,
    /// Half-width of the 95% interval of `elo` (not finite at a 0% or 100% score).
    pub error: f64,
    /// Lower end of the 95% interval of `elo` (`-inf` when unbounded).
    pub elo_lower: f64,
    /// Upper end of the 95% interval of `elo` (`+inf` when unbounded).
    pub elo_upper: f64,
    /// Normalized Elo.
    pub nelo: f64,
    /// Half-width of the 95% interval of `nelo`.
    pub nelo_error: f64,
    /// Likelihood of superiority, 0..1.
    pub los: f64,
}

/// Logistic Elo difference for a score fraction.
///
/// ```
/// use runner::score_to_elo;
/// assert_eq!(score_to_elo(0.5), 0.0);
/// assert!((score_to_elo(0.75) - 190.848).abs() < 1e-3);
/// ```
pub fn score_to_elo(score: f64) -> f64 {
    -400.0 * (1.0 / score - 1.0).log10()
}

/// The error function, to double precision: a Taylor series near zero and a continued
/// fraction for the tail (the standard library has no `erf`).
fn erf(x: f64) -> f64 {
    if x.is_nan() {
        return f64::NAN;
    }
    if x < 0.0 {
        return -erf(-x);
    }
    if x > 6.0 {
        // 1 - erf(6) is 2e-17, below double precision.
        return 1.0;
    }
    if x < 2.5 {
        let x2 = x * x;
        let mut sum = x;
        let mut term = x;
        // The series converges for every x; 100 terms are far more than x < 2.5 needs.
        for n in 1..100 {
            let n = f64::from(n);
            term *= -x2 / n;
            let add = term / (2.0 * n + 1.0);
            sum += add;
            if add.abs() <= 1e-17 * sum.abs() {
                break;
            }
        }
        sum * 2.0 / std::f64::consts::PI.sqrt()
    } else {
        // erfc(x) = exp(-x²)/√π · 1/(x + (1/2)/(x + 1/(x + (3/2)/(x + ...)))), by Lentz.
        let tiny = 1e-300;
        let mut f = x;
        let mut c = x;
        let mut d = 0.0;
        for k in 1..200 {
            let a = f64::from(k) / 2.0;
            d = x + a * d;
            d = if d == 0.0 { tiny } else { d };
            d = 1.0 / d;
            c = x + a / c;
            c = if c == 0.0 { tiny } else { c };
            let delta = c * d;
            f *= delta;
            if (delta - 1.0).abs() < 1e-16 {
                break;
            }
        }
        1.0 - (-x * x).exp() / f / std::f64::consts::PI.sqrt()
    }
}

#[cfg(test)]
mod tests {
    use super::{Stats, erf, score_to_elo};

    #[test]
    fn perfect_scores_still_have_a_one_sided_interval() {
        let all_wins = Stats {
            wins: 50,
            ..Stats::default()
        };
        let e = all_wins.elo_wdl().unwrap();
        assert!(e.elo.is_infinite() && e.elo_upper.is_infinite());
        // 0.025^(1/50) = 0.92889...: 50 straight wins put the score above it.
        let expected = score_to_elo(0.025f64.powf(1.0 / 50.0));
        assert!((e.elo_lower - expected).abs() < 1e-9);
        assert!((e.elo_lower - 446.38).abs() < 0.01, "{}", e.elo_lower);

        let all_losses = Stats {
            losses: 50,
            ..Stats::default()
        };
        let e = all_losses.elo_wdl().unwrap();
        assert!(e.elo_lower == f64::NEG_INFINITY);
        assert!((e.elo_upper + expected).abs() < 1e-9);
    }

    #[test]
    fn ordinary_intervals_match_the_half_width() {
        let s = Stats {
            wins: 30,
            draws: 40,
            losses: 30,
            ..Stats::default()
        };
        let e = s.elo_wdl().unwrap();
        assert!((e.elo_upper - e.elo - e.error).abs() < 1e-6);
        assert!((e.elo - e.elo_lower - e.error).abs() < 1e-6);
    }

    #[test]
    fn erf_matches_tabulated_values_and_terminates_at_edge_cases() {
        for (x, expected) in [
            (0.0, 0.0),
            (0.5, 0.520_499_877_813_046_5),
            (1.0, 0.842_700_792_949_714_9),
            (2.0, 0.995_322_265_018_952_7),
            (3.0, 0.999_977_909_503_001_4),
            (-1.0, -0.842_700_792_949_714_9),
        ] {
            assert!((erf(x) - expected).abs() < 1e-14, "erf({x}) = {}", erf(x));
        }
        assert!(erf(f64::NAN).is_nan());
        assert_eq!(erf(f64::INFINITY), 1.0);
    }
}

impl EloEstimate {
    /// `scale` is 1 for per-game and 2 for per-pair distributions (normalized Elo is per
    /// game in both).
    fn from_distribution(scores: &[f64], probs: &[f64], n: f64, scale: f64) -> EloEstimate {
        let mu: f64 = scores.iter().zip(probs).map(|(s, p)| s * p).sum();
        let var: f64 = scores
            .iter()
            .zip(probs)
            .map(|(s, p)| p * (s - mu) * (s - mu))
            .sum();
        let var_n = var / n;
        let upper = mu + Z95 * var_n.sqrt();
        let lower = mu - Z95 * var_n.sqrt();
        let nelo_of = |s: f64| (s - 0.5) / (scale * var).sqrt() * (800.0 / LN_10);
        let (score_lower, score_upper) = score_interval(mu, lower, upper, var_n, n * scale);
        EloEstimate {
            score: mu,
            elo: score_to_elo(mu),
            error: (score_to_elo(upper) - score_to_elo(lower)) / 2.0,
            elo_lower: score_to_elo(score_lower),
            elo_upper: score_to_elo(score_upper),
            nelo: nelo_of(mu),
            nelo_error: (nelo_of(upper) - nelo_of(lower)) / 2.0,
            los: (1.0 - erf(-(mu - 0.5) / (2.0 * var_n).sqrt())) / 2.0,
        }
    }
}

/// The 95% interval of the mean score, kept inside [0, 1]. When every game
/// went one way the normal approximation has no variance and says nothing, yet
/// `games` straight wins still bound the score from below: the exact
/// (Clopper–Pearson) bound is the score at which such a run has a 2.5% chance.
fn score_interval(mu: f64, lower: f64, upper: f64, var_n: f64, games: f64) -> (f64, f64) {
    if var_n > 0.0 {
        return (lower.max(0.0), upper.min(1.0));
    }
    let exact = 0.025f64.powf(1.0 / games);
    if mu >= 1.0 {
        (exact, 1.0)
    } else if mu <= 0.0 {
        (0.0, 1.0 - exact)
    } else {
        (mu, mu)
    }
}

impl fmt::Display for EloEstimate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:.2} +/- {:.2}", self.elo, self.error)
    }
}

/// A generalized sequential probability ratio test on normalized Elo, over game pairs
/// (fastchess's default model).
///
/// ```
/// use runner::{Sprt, SprtState, Stats};
/// let sprt = Sprt::new(0.0, 5.0, 0.05, 0.05).unwrap();
/// assert!((sprt.lower_bound() + 2.944).abs() < 1e-3);
/// let stats = Stats { penta: [10, 40, 100, 60, 20], ..Stats::default() };
/// let llr = sprt.llr(&stats);
/// assert!((llr - 0.783).abs() < 1e-3);
/// assert_eq!(sprt.state(llr), SprtState::Continue);
/// let more = Stats { penta: [40, 160, 400, 240, 80], ..Stats::default() };
/// assert_eq!(sprt.state(sprt.llr(&more)), SprtState::AcceptH1);
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Sprt {
    /// Elo of the null hypothesis.
    pub elo0: f64,
    /// Elo of the alternative hypothesis.
    pub elo1: f64,
    /// False positive rate.
    pub alpha: f64,
    /// False negative rate.
    pub beta: f64,
}

/// Where an SPRT stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SprtState {
    /// Neither bound crossed.
    Continue,
    /// The lower bound was crossed: H0 (Elo ≤ elo0) accepted.
    AcceptH0,
    /// The upper bound was crossed: H1 (Elo ≥ elo1) accepted.
    AcceptH1,
}

impl Sprt {
    /// Checks the parameters: `elo0 < elo1`, `0 < alpha, beta < 1`, `alpha + beta < 1`.
    pub fn new(elo0: f64, elo1: f64, alpha: f64, beta: f64) -> Result<Sprt, String> {
        if elo0.partial_cmp(&elo1) != Some(std::cmp::Ordering::Less) {
            return Err(format!(
                "SPRT: elo0 ({elo0}) must be less than elo1 ({elo1})"
            ));
        }
        if !(alpha > 0.0 && alpha < 1.0 && beta > 0.0 && beta < 1.0) {
            return Err("SPRT: alpha and beta must be between 0 and 1".to_string());
        }
        if alpha + beta >= 1.0 {
            return Err("SPRT: alpha + beta must be less than 1".to_string());
        }
        Ok(Sprt {
            elo0,
            elo1,
            alpha,
            beta,
        })
    }

    /// `ln(beta / (1 - alpha))`: at or below it H0 is accepted.
    pub fn lower_bound(&self) -> f64 {
        (self.beta / (1.0 - self.alpha)).ln()
    }

    /// `ln((1 - beta) / alpha)`: at or above it H1 is accepted.
    pub fn upper_bound(&self) -> f64 {
        ((1.0 - self.beta) / self.alpha).ln()
    }

    /// The log-likelihood ratio from the pentanomial counts (0 with no pairs).
    pub fn llr(&self, stats: &Stats) -> f64 {
        if stats.pairs() == 0 {
            return 0.0;
        }
        let reg = |v: u64| if v == 0 { 1e-3 } else { v as f64 };
        let counts = [
            reg(stats.penta[0]),
            reg(stats.penta[1]),
            reg(stats.penta[2]),
            reg(stats.penta[3]),
            reg(stats.penta[4]),
        ];
        let total: f64 = counts.iter().sum();
        let probs = counts.map(|c| c / total);
        let t0 = std::f64::consts::SQRT_2 * self.elo0 / (800.0 / LN_10);
        let t1 = std::f64::consts::SQRT_2 * self.elo1 / (800.0 / LN_10);
        llr_normalized(total, &[0.0, 0.25, 0.5, 0.75, 1.0], &probs, t0, t1)
    }

    /// Which bound, if any, `llr` has crossed.
    pub fn state(&self, llr: f64) -> SprtState {
        if llr >= self.upper_bound() {
            SprtState::AcceptH1
        } else if llr <= self.lower_bound() {
            SprtState::AcceptH0
        } else {
            SprtState::Continue
        }
    }
}

fn mean_var(scores: &[f64; 5], p: &[f64; 5]) -> (f64, f64) {
    let mu: f64 = scores.iter().zip(p).map(|(s, p)| s * p).sum();
    let var = scores
        .iter()
        .zip(p)
        .map(|(s, p)| p * (s - mu) * (s - mu))
        .sum();
    (mu, var)
}

/// Root finding by the ITP method (Oliveira & Takahashi 2020), as fastchess does, so the
/// LLR matches its figures to the last digits.
#[allow(clippy::too_many_arguments)]
fn itp(
    f: impl Fn(f64) -> f64,
    mut a: f64,
    mut b: f64,
    mut fa: f64,
    mut fb: f64,
    k1: f64,
    k2: f64,
    n0: f64,
    eps: f64,
) -> f64 {
    if fa > 0.0 {
        std::mem::swap(&mut a, &mut b);
        std::mem::swap(&mut fa, &mut fb);
    }
    let n_half = ((b - a).abs() / (2.0 * eps)).log2().ceil();
    let n_max = n_half + n0;
    let mut i = 0i32;
    while (b - a).abs() > 2.0 * eps {
        let x_half = (a + b) / 2.0;
        let r = eps * 2f64.powf(n_max - i as f64) - (b - a) / 2.0;
        let delta = k1 * (b - a).powf(k2);
        let x_f = (fb * a - fa * b) / (fb - fa);
        let sigma = (x_half - x_f) / (x_half - x_f).abs();
        let x_t = if delta <= (x_half - x_f).abs() {
            x_f + sigma * delta
        } else {
            x_half
        };
        let x_itp = if (x_t - x_half).abs() <= r {
            x_t
        } else {
            x_half - sigma * r
        };
        let f_itp = f(x_itp);
        if f_itp == 0.0 {
            a = x_itp;
            b = x_itp;
        } else if f_itp.is_sign_negative() {
            a = x_itp;
            fa = f_itp;
        } else {
            b = x_itp;
            fb = f_itp;
        }
        i += 1;
    }
    (a + b) / 2.0
}

fn llr_normalized(total: f64, scores: &[f64; 5], probs: &[f64; 5], t0: f64, t1: f64) -> f64 {
    let mle = |mu_ref: f64, t_star: f64| -> [f64; 5] {
        let mut p = [0.2; 5];
        for _ in 0..1000 {
            let (mu, var) = mean_var(scores, &p);
            let sigma = var.sqrt();
            let phi: [f64; 5] = std::array::from_fn(|i| {
                let a = scores[i];
                a - mu_ref - 0.5 * t_star * sigma * (1.0 + ((a - mu) / sigma) * ((a - mu) / sigma))
            });
            let u = phi.iter().copied().fold(f64::INFINITY, f64::min);
            let v = phi.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            let theta = itp(
                |x| (0..5).map(|i| probs[i] * phi[i] / (1.0 + x * phi[i])).sum(),
                -1.0 / v,
                -1.0 / u,
                f64::INFINITY,
                f64::NEG_INFINITY,
                0.1,
                2.0,
                0.99,
                1e-7,
            );
            let mut max_diff: f64 = 0.0;
            for i in 0..5 {
                let new = probs[i] / (1.0 + theta * phi[i]);
                max_diff = max_diff.max((new - p[i]).abs());
                p[i] = new;
            }
            if max_diff < 1e-4 {
                break;
            }
        }
        p
    };
    let p0 = mle(0.5, t0);
    let p1 = mle(0.5, t1);
    total
        * (0..5)
            .map(|i| probs[i] * (p1[i].ln() - p0[i].ln()))
            .sum::<f64>()
}

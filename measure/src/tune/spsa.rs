//! The SPSA arithmetic of `challenge tune`, as fishtest runs it (see the module
//! documentation of [`crate::tune`] for the formulas and their sources).

use serde::{Deserialize, Serialize};

/// The step's decay exponent, `alpha` (Spall's and fishtest's 0.602).
pub const ALPHA: f64 = 0.602;
/// The perturbation's decay exponent, `gamma` (Spall's and fishtest's 0.101).
pub const GAMMA: f64 = 0.101;
/// The stability constant `A` as a fraction of the run's game pairs (fishtest's 0.1).
pub const A_RATIO: f64 = 0.1;
/// `r_end`, the learning rate at the last pair, unless given (Stockfish's `TUNE()` default).
pub const R_END: f64 = 0.002;
/// `c_end`, the perturbation at the last pair, as a fraction of the range `max - min`
/// unless given (Stockfish's `TUNE()` default, a twentieth).
pub const C_END_PART: f64 = 1.0 / 20.0;

/// The smallest `c_end` an integer constant gets unless given: a variant is built with
/// the value rounded, so under 0.5 its two players come out with one value (a range
/// narrower than 10 would give that by [`C_END_PART`]), their games are even, and the
/// constant never moves.
pub const MIN_INTEGER_C_END: f64 = 1.0;

/// The default `c_end` of a constant in `min..=max`: [`C_END_PART`] of the range, and for
/// an integer at least [`MIN_INTEGER_C_END`] (never more than the range): 20 for an
/// integer in `100..=500`, 1 for one in `0..=8`, 0.4 for a float there.
pub fn default_c_end(min: f64, max: f64, integer: bool) -> f64 {
    let part = (max - min) * C_END_PART;
    if integer {
        part.max(MIN_INTEGER_C_END.min(max - min))
    } else {
        part
    }
}

/// Whether `param`'s two players are built with one value for much of the run: an
/// integer constant whose `c_end` is under 0.5 (given by hand).
pub fn probes_round_together(param: &Param) -> bool {
    param.integer && param.c_end < 0.5
}

/// One tuned constant: its bounds, where it started, and its two SPSA settings.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Param {
    /// The constant's name in the bot.
    pub name: String,
    /// The lower bound of its `tune` mark.
    pub min: f64,
    /// The upper bound of its `tune` mark.
    pub max: f64,
    /// Its value in the bot when the tuning began.
    pub start: f64,
    /// Whether the constant holds integers: a variant gets the rounded value.
    pub integer: bool,
    /// The perturbation at the last pair.
    pub c_end: f64,
    /// The learning rate at the last pair.
    pub r_end: f64,
}

/// The run's schedule: how many pairs, and the constants of the gain sequences.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Schedule {
    /// Game pairs in the whole run, `N`.
    pub iterations: u64,
    /// The stability constant `A`.
    pub big_a: f64,
    /// The step's decay exponent.
    pub alpha: f64,
    /// The perturbation's decay exponent.
    pub gamma: f64,
}

impl Schedule {
    /// Fishtest's schedule for `iterations` game pairs: `A` is `a_ratio` of them, rounded
    /// down (fishtest's `int(A_ratio * num_games / 2)`), with the usual exponents.
    pub fn fishtest(iterations: u64, a_ratio: f64) -> Schedule {
        Schedule {
            iterations,
            big_a: (a_ratio * iterations as f64).floor(),
            alpha: ALPHA,
            gamma: GAMMA,
        }
    }

    /// `c_k`, the perturbation of `param` at pair `k` (from 1): `c / k^gamma` with
    /// `c = c_end * N^gamma`, so that `c_N = c_end`.
    pub fn c_k(&self, param: &Param, k: u64) -> f64 {
        let c = param.c_end * (self.iterations as f64).powf(self.gamma);
        c / (k as f64).powf(self.gamma)
    }

    /// `a_k`, the step of `param` at pair `k`: `a / (A + k)^alpha` with
    /// `a = r_end * c_end^2 * (A + N)^alpha`, so that `a_N / c_N^2 = r_end`.
    pub fn a_k(&self, param: &Param, k: u64) -> f64 {
        let a = param.r_end
            * param.c_end.powi(2)
            * (self.big_a + self.iterations as f64).powf(self.alpha);
        a / (self.big_a + k as f64).powf(self.alpha)
    }

    /// `θ ± c_k Δ` for each parameter, each clamped to its bounds (fishtest's
    /// `_param_clip`): the values the two players of pair `k` are built with, `plus`
    /// first. `flips` is `Δ`, each `+1` or `-1`.
    pub fn probes(&self, params: &[Param], theta: &[f64], k: u64, flips: &[i8]) -> [Vec<f64>; 2] {
        let probe = |sign: f64| {
            params
                .iter()
                .zip(theta)
                .zip(flips)
                .map(|((p, &t), &flip)| clamp(p, t + sign * self.c_k(p, k) * f64::from(flip)))
                .collect()
        };
        [probe(1.0), probe(-1.0)]
    }

    /// The update after `pairs` game pairs played from pair `k` on with the same probes
    /// (fishtest's batch): `θ ← clamp(θ + a_k / c_k * result * Δ)` for each parameter,
    /// `result` being the `plus` player's wins minus its losses over those pairs.
    pub fn update(&self, params: &[Param], theta: &mut [f64], k: u64, flips: &[i8], result: i64) {
        for ((p, t), &flip) in params.iter().zip(theta.iter_mut()).zip(flips) {
            let c_k = self.c_k(p, k);
            let step = self.a_k(p, k) / c_k * result as f64 * f64::from(flip);
            *t = clamp(p, *t + step);
        }
    }
}

/// `value` within `param`'s bounds.
fn clamp(param: &Param, value: f64) -> f64 {
    value.max(param.min).min(param.max)
}

/// The value a variant is built with: rounded for an integer constant.
pub fn variant_value(param: &Param, value: f64) -> f64 {
    if param.integer { value.round() } else { value }
}

/// `value` as Rust source for `param`'s constant: `153` for an integer, `2.5` for a float.
pub fn value_text(param: &Param, value: f64) -> String {
    let value = variant_value(param, value);
    if param.integer {
        format!("{}", value as i128)
    } else {
        format!("{value:?}")
    }
}

/// The examples this module's documentation had, as tests (its items are the crate's own).
#[cfg(test)]
mod documented {
    use super::*;

    #[test]
    fn default_c_end_as_documented() {
        assert_eq!(default_c_end(100.0, 500.0, true), 20.0);
        assert_eq!(default_c_end(0.0, 8.0, true), 1.0);
        assert_eq!(default_c_end(0.0, 8.0, false), 0.4);
    }

    #[test]
    fn fishtest_as_documented() {
        let s = Schedule::fishtest(1000, 0.1);
        assert_eq!((s.big_a, s.alpha, s.gamma), (100.0, 0.602, 0.101));
    }

    #[test]
    fn c_k_as_documented() {
        let p = Param {
            name: "K".into(),
            min: 0.0,
            max: 400.0,
            start: 100.0,
            integer: true,
            c_end: 20.0,
            r_end: 0.002,
        };
        let s = Schedule::fishtest(1000, 0.1);
        assert!((s.c_k(&p, 1000) - 20.0).abs() < 1e-9);
        assert!((s.c_k(&p, 1) - 20.0 * 1000f64.powf(0.101)).abs() < 1e-9);
    }

    #[test]
    fn update_as_documented() {
        let p = Param {
            name: "K".into(),
            min: 100.0,
            max: 500.0,
            start: 100.0,
            integer: true,
            c_end: 20.0,
            r_end: 0.002,
        };
        let s = Schedule::fishtest(100, 0.1);
        let mut theta = vec![100.0];
        s.update(std::slice::from_ref(&p), &mut theta, 1, &[1], 2);
        let step = s.a_k(&p, 1) / s.c_k(&p, 1) * 2.0;
        assert!((theta[0] - (100.0 + step)).abs() < 1e-9 && step > 0.0);
        s.update(&[p], &mut theta, 2, &[1], -100);
        assert_eq!(theta[0], 100.0); // clamped to the mark's lower bound
    }

    #[test]
    fn value_text_as_documented() {
        let p = Param {
            name: "K".into(),
            min: 0.0,
            max: 9.0,
            start: 1.0,
            integer: true,
            c_end: 1.0,
            r_end: 0.002,
        };
        assert_eq!(value_text(&p, 3.49), "3");
        let f = Param {
            integer: false,
            ..p
        };
        assert_eq!(value_text(&f, 3.0), "3.0");
    }
}

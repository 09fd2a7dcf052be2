//! [`Random`]: C#'s `System.Random`, until the kit's prelude has its own (issue 40).

use std::cell::Cell;

const MBIG: i32 = i32::MAX;
const MSEED: i32 = 161_803_398;

thread_local! {
    /// The seeds of `new Random()`: fixed, so a port plays the same in every process.
    static NEXT_SEED: Cell<i32> = const { Cell::new(0x5EED) };
}

/// C#'s `System.Random`: `new Random(seed)` is .NET's seeded generator (Knuth's
/// subtractive one, which `new Random(int)` keeps for compatibility), value for value;
/// `new Random()` draws its seed from a fixed sequence (C#'s own is random).
///
/// ```
/// use framework::prelude::*;
/// let mut a = cs::Random::with_seed(42);
/// let mut b = cs::Random::with_seed(42);
/// assert_eq!(a.next_max(100), b.next_max(100));
/// assert!((0.0..1.0).contains(&a.next_double()));
/// ```
#[derive(Clone)]
pub struct Random {
    seeds: [i32; 56],
    next: usize,
    next_p: usize,
}

impl Default for Random {
    fn default() -> Self {
        Random::new()
    }
}

impl Random {
    /// `new Random()`.
    pub fn new() -> Random {
        let seed = NEXT_SEED.with(|s| {
            let seed = s.get();
            s.set(seed.wrapping_mul(1_103_515_245).wrapping_add(12_345) & i32::MAX);
            seed
        });
        Random::with_seed(seed)
    }

    /// `new Random(seed)`, as .NET seeds it.
    pub fn with_seed(seed: i32) -> Random {
        let mut seeds = [0i32; 56];
        let subtraction = if seed == i32::MIN { i32::MAX } else { seed.abs() };
        let mut mj = MSEED - subtraction;
        seeds[55] = mj;
        let mut mk = 1;
        let mut ii = 0;
        for _ in 1..55 {
            ii += 21;
            if ii >= 55 {
                ii -= 55;
            }
            seeds[ii] = mk;
            mk = mj - mk;
            if mk < 0 {
                mk += MBIG;
            }
            mj = seeds[ii];
        }
        for _ in 1..5 {
            for i in 1..56 {
                let mut n = i + 30;
                if n >= 55 {
                    n -= 55;
                }
                seeds[i] = seeds[i].wrapping_sub(seeds[1 + n]);
                if seeds[i] < 0 {
                    seeds[i] += MBIG;
                }
            }
        }
        Random { seeds, next: 0, next_p: 21 }
    }

    fn sample_int(&mut self) -> i32 {
        self.next = if self.next + 1 >= 56 { 1 } else { self.next + 1 };
        self.next_p = if self.next_p + 1 >= 56 { 1 } else { self.next_p + 1 };
        let mut value = self.seeds[self.next].wrapping_sub(self.seeds[self.next_p]);
        if value == MBIG {
            value -= 1;
        }
        if value < 0 {
            value += MBIG;
        }
        self.seeds[self.next] = value;
        value
    }

    fn sample(&mut self) -> f64 {
        f64::from(self.sample_int()) * (1.0 / f64::from(MBIG))
    }

    /// `Next()`: 0 to `int.MaxValue - 1`.
    pub fn next(&mut self) -> i32 {
        self.sample_int()
    }

    /// `Next(max)`: 0 to `max - 1`.
    pub fn next_max(&mut self, max: i32) -> i32 {
        assert!(max >= 0, "Random.Next with a negative maximum");
        (self.sample() * f64::from(max)) as i32
    }

    /// `Next(min, max)`: `min` to `max - 1`.
    pub fn next_range(&mut self, min: i32, max: i32) -> i32 {
        assert!(min <= max, "Random.Next with min > max");
        let range = i64::from(max) - i64::from(min);
        if range <= i64::from(i32::MAX) {
            return (self.sample() * range as f64) as i32 + min;
        }
        // .NET's GetSampleForLargeRange.
        let mut result = self.sample_int();
        if self.sample_int() % 2 == 0 {
            result = -result;
        }
        let d = (f64::from(result) + (f64::from(MBIG) - 1.0)) / (2.0 * f64::from(MBIG) - 1.0);
        ((d * range as f64) as i64 + i64::from(min)) as i32
    }

    /// `NextDouble()`: in [0, 1).
    pub fn next_double(&mut self) -> f64 {
        self.sample()
    }
}

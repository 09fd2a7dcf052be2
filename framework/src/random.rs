//! [`Random`]: C#'s `System.Random`, seeded per game by the host so that matches stay
//! reproducible.
//!
//! `Random::with_seed(n)` is .NET's `new Random(n)` number for number: .NET still gives a
//! seeded `Random` the legacy subtractive generator (Knuth's, as .NET modified it), and a
//! bot that fixes its seed counts on that sequence. `Random::new()`, C#'s `new Random()`,
//! takes its seed from the host: the runner gives each game a seed derived from the match's
//! `--seed` (the engine's UCI option `Seed`), so two matches with the same seed play the
//! same games. Without one (a GUI that never sets it) the seed comes from the OS.

use std::collections::hash_map::RandomState;
use std::hash::{BuildHasher, Hasher};
use std::sync::Mutex;

/// Where `Random::new()` takes its seeds from: a SplitMix64 state the host sets per game,
/// or `None` until something needs it (then it starts from the OS's randomness).
static SEEDS: Mutex<Option<u64>> = Mutex::new(None);

/// Seeds the source of [`Random::new`] for a game: every generator made after this draws
/// its seed from `seed`, in order. The host calls it before it builds a bot for a game.
pub(crate) fn seed_game(seed: u64) {
    *SEEDS.lock().unwrap_or_else(|e| e.into_inner()) = Some(seed);
}

/// The next seed for `Random::new()`: SplitMix64 (Steele, Lea and Flood, 2014) over the
/// game's seed, so consecutive generators differ and each game's are the same every run.
fn next_seed() -> i32 {
    let mut state = SEEDS.lock().unwrap_or_else(|e| e.into_inner());
    let s = state.get_or_insert_with(|| RandomState::new().build_hasher().finish());
    *s = s.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *s;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (z ^ (z >> 31)) as i32
}

/// C#'s `System.Random`: `Next()`, `Next(max)`, `Next(min, max)` and `NextDouble()`, with
/// .NET's values.
///
/// - [`Random::new`] (also `Default`, so a bot's field `rng: Random` is ready): C#'s `new
///   Random()`, seeded per game by the host, so a fixed-node match with `--seed` plays the
///   same games every time.
/// - [`Random::with_seed`]: C#'s `new Random(seed)`, the same numbers .NET gives.
///
/// ```
/// use framework::prelude::*;
///
/// #[derive(Default)]
/// struct MyBot {
///     rng: Random,
/// }
///
/// impl Bot for MyBot {
///     fn think(&mut self, board: Board, _timer: Timer) -> Move {
///         let moves = board.legal_moves();
///         moves[self.rng.next_max(moves.len())] // C#'s moves[rng.Next(moves.Length)]
///     }
/// }
///
/// let mv = MyBot::default().think(Board::startpos(), Timer::default());
/// assert!(Board::startpos().is_legal(mv));
/// // .NET's own values for `new Random(0).Next()`:
/// let mut seeded = Random::with_seed(0);
/// assert_eq!((seeded.next(), seeded.next()), (1559595546, 1755192844));
/// ```
#[doc(alias = "System.Random")]
#[derive(Clone, PartialEq, Eq)]
pub struct Random {
    seeds: [i32; 56],
    inext: usize,
    inextp: usize,
}

impl Default for Random {
    /// [`Random::new`]: seeded by the host for the game.
    fn default() -> Random {
        Random::new()
    }
}

impl std::fmt::Debug for Random {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Random")
    }
}

impl Random {
    /// A generator seeded by the host for this game: C#'s `new Random()`. Each call gives
    /// another generator; the sequence of them is the same whenever the game's seed is.
    #[doc(alias = "new Random()")]
    #[allow(clippy::new_without_default)] // it has one: Default is Random::new()
    pub fn new() -> Random {
        Random::with_seed(next_seed())
    }

    /// A generator seeded with `seed`: C#'s `new Random(seed)`, giving the numbers .NET
    /// gives (its legacy subtractive generator, which .NET keeps for seeded `Random`s).
    ///
    /// ```
    /// use framework::prelude::*;
    /// // The first numbers of `new Random(1)` and `new Random(-1)` in .NET:
    /// assert_eq!(Random::with_seed(1).next(), 534011718);
    /// assert_eq!(Random::with_seed(-1).next(), 534011718);
    /// ```
    #[doc(alias = "new Random(seed)")]
    pub fn with_seed(seed: i32) -> Random {
        let mut seeds = [0i32; 56];
        let subtraction = if seed == i32::MIN {
            i32::MAX
        } else {
            seed.abs()
        };
        let mut mj = 161_803_398 - subtraction;
        seeds[55] = mj;
        let mut mk = 1i32;
        let mut ii = 0;
        for _ in 1..55 {
            ii += 21;
            if ii >= 55 {
                ii -= 55;
            }
            seeds[ii] = mk;
            mk = mj.wrapping_sub(mk);
            if mk < 0 {
                mk = mk.wrapping_add(i32::MAX);
            }
            mj = seeds[ii];
        }
        for _ in 1..5 {
            for i in 1..56 {
                let n = if i + 30 >= 55 { i + 30 - 55 } else { i + 30 };
                seeds[i] = seeds[i].wrapping_sub(seeds[1 + n]);
                if seeds[i] < 0 {
                    seeds[i] = seeds[i].wrapping_add(i32::MAX);
                }
            }
        }
        Random {
            seeds,
            inext: 0,
            inextp: 21,
        }
    }

    /// A number from 0 to `i32::MAX - 1`: C#'s `Next()`.
    #[doc(alias = "Next")]
    #[allow(clippy::should_implement_trait)] // C#'s name; a generator that never ends is no `Iterator`
    pub fn next(&mut self) -> i32 {
        self.inext = if self.inext + 1 >= 56 {
            1
        } else {
            self.inext + 1
        };
        self.inextp = if self.inextp + 1 >= 56 {
            1
        } else {
            self.inextp + 1
        };
        let mut value = self.seeds[self.inext].wrapping_sub(self.seeds[self.inextp]);
        if value == i32::MAX {
            value -= 1;
        }
        if value < 0 {
            value = value.wrapping_add(i32::MAX);
        }
        self.seeds[self.inext] = value;
        value
    }

    /// A number from 0 up to, not including, 1: C#'s `NextDouble()`.
    #[doc(alias = "NextDouble")]
    pub fn next_double(&mut self) -> f64 {
        f64::from(self.next()) * (1.0 / f64::from(i32::MAX))
    }

    /// A number from 0 up to, not including, `max` (0 when `max` is 0 or 1): C#'s
    /// `Next(max)`. `max` is an `i32` as in C#, or a `usize` (a list's length), and so is the
    /// number: `moves[rng.next_max(moves.len())]`.
    ///
    /// ```
    /// use framework::prelude::*;
    /// let mut rng = Random::with_seed(42);
    /// assert_eq!(rng.next_max(100), 66); // .NET's `new Random(42).Next(100)`
    /// let i: usize = rng.next_max(5usize);
    /// assert!(i < 5);
    /// ```
    ///
    /// # Panics
    /// If `max` is negative, as C#'s throws.
    #[doc(alias = "Next")]
    pub fn next_max<T: RandomBound>(&mut self, max: T) -> T {
        let max = max.to_i64();
        assert!(max >= 0, "Random::next_max: max is negative ({max})");
        T::from_i64((self.next_double() * max as f64) as i64)
    }

    /// A number from `min` up to, not including, `max` (`min` when they are equal): C#'s
    /// `Next(min, max)`, on `i32`s or `usize`s.
    ///
    /// ```
    /// use framework::prelude::*;
    /// let mut rng = Random::with_seed(42);
    /// rng.next();
    /// assert_eq!(rng.next_range(-50, 50), -36); // .NET's second number of `new Random(42)`
    /// ```
    ///
    /// # Panics
    /// If `min` is greater than `max`, as C#'s throws.
    #[doc(alias = "Next")]
    pub fn next_range<T: RandomBound>(&mut self, min: T, max: T) -> T {
        let (min, max) = (min.to_i64(), max.to_i64());
        assert!(
            min <= max,
            "Random::next_range: min {min} is above max {max}"
        );
        let range = max - min;
        let offset = if range <= i64::from(i32::MAX) {
            (self.next_double() * range as f64) as i64
        } else {
            (self.sample_for_large_range() * range as f64) as i64
        };
        T::from_i64(offset + min)
    }

    /// A number from 0 up to, not including, `max` (0 when `max` is 0 or 1): C#'s
    /// `NextInt64(max)` of a seeded `Random`, which builds 64 bits from three `Next` draws
    /// and retries those above the smallest power of two holding `max`.
    ///
    /// ```
    /// use framework::prelude::*;
    /// let mut a = Random::with_seed(42);
    /// let mut b = Random::with_seed(42);
    /// let n = a.next_int64_max(20);
    /// assert!((0..20).contains(&n));
    /// assert_eq!(a.next(), { for _ in 0..3 { b.next(); } b.next() }); // one try took 3 draws
    /// ```
    ///
    /// # Panics
    /// If `max` is negative, as C#'s throws.
    #[doc(alias = "NextInt64")]
    pub fn next_int64_max(&mut self, max: i64) -> i64 {
        assert!(max >= 0, "Random::next_int64_max: max is negative ({max})");
        let range = max as u64;
        if range <= 1 {
            return 0;
        }
        let bits = 64 - (range - 1).leading_zeros();
        loop {
            let result = self.next_u64() >> (64 - bits);
            if result < range {
                return result as i64;
            }
        }
    }

    /// .NET's `NextUInt64` of its seeded generator: 22, 22 and 20 bits of three draws.
    fn next_u64(&mut self) -> u64 {
        let low = self.next_max(1 << 22) as u64;
        let mid = self.next_max(1 << 22) as u64;
        let high = self.next_max(1 << 20) as u64;
        low | (mid << 22) | (high << 44)
    }

    /// .NET's sample for a range wider than `i32::MAX`, where one `next` has too few bits.
    fn sample_for_large_range(&mut self) -> f64 {
        let mut result = self.next();
        if self.next() % 2 == 0 {
            result = -result;
        }
        (f64::from(result) + f64::from(i32::MAX - 1)) / (2.0 * f64::from(i32::MAX) - 1.0)
    }
}

/// The bounds [`Random::next_max`] and [`Random::next_range`] take: an `i32`, as C#'s, or a
/// `usize`, a length.
pub trait RandomBound: sealed::Sealed + Copy {
    /// The bound, widened.
    fn to_i64(self) -> i64;
    /// A number within the bounds, narrowed back.
    fn from_i64(n: i64) -> Self;
}

impl RandomBound for i32 {
    fn to_i64(self) -> i64 {
        i64::from(self)
    }
    fn from_i64(n: i64) -> i32 {
        n as i32
    }
}

impl RandomBound for usize {
    fn to_i64(self) -> i64 {
        i64::try_from(self).unwrap_or(i64::MAX)
    }
    fn from_i64(n: i64) -> usize {
        n as usize
    }
}

mod sealed {
    pub trait Sealed {}
    impl Sealed for i32 {}
    impl Sealed for usize {}
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn next_int64_keeps_top_bits_and_retries_as_dotnet() {
        // Seed 0's 3rd and 6th Next() (PUBLISHED) are 0.768... and 0.558... of i32::MAX:
        // the top bits of the 1st and 2nd 64-bit draws.
        assert_eq!(Random::with_seed(0).next_int64_max(2), 1);
        assert_eq!(Random::with_seed(0).next_int64_max(4), 3);
        // 3 is not below 3: the second draw's 2 top bits, floor(0.558 * 4).
        assert_eq!(Random::with_seed(0).next_int64_max(3), 2);
        let mut r = Random::with_seed(0);
        assert_eq!(
            (r.next_int64_max(1), r.next_int64_max(0), r.next()),
            (0, 0, 1559595546)
        );
    }

    /// The first ten numbers of `new Random(seed).Next()` for seeds 0, 1, 7 and 19, as
    /// .NET's own test of them publishes (dotnet/runtime,
    /// src/libraries/System.Runtime/tests/System.Runtime.Extensions.Tests/System/Random.cs,
    /// `ExpectedValues`).
    const PUBLISHED: [(i32, [i32; 10]); 4] = [
        (
            0,
            [
                1559595546, 1755192844, 1649316166, 1198642031, 442452829, 1200195957, 1945678308,
                949569752, 2099272109, 587775847,
            ],
        ),
        (
            1,
            [
                534011718, 237820880, 1002897798, 1657007234, 1412011072, 929393559, 760389092,
                2026928803, 217468053, 1379662799,
            ],
        ),
        (
            7,
            [
                822959691, 1871007331, 1419354884, 112231158, 786909589, 1452062818, 91104737,
                2048632168, 1811545599, 1836017217,
            ],
        ),
        (
            19,
            [
                1400855637, 842412939, 104785409, 1317646300, 1684190270, 349917689, 900019674,
                2092038898, 704733397, 601242406,
            ],
        ),
    ];

    #[test]
    fn next_gives_the_numbers_dotnet_publishes() {
        for (seed, expected) in PUBLISHED {
            let mut rng = Random::with_seed(seed);
            let got: Vec<i32> = (0..10).map(|_| rng.next()).collect();
            assert_eq!(got, expected, "seed {seed}");
            // .NET takes the seed's absolute value.
            assert_eq!(
                Random::with_seed(-seed).next(),
                expected[0],
                "seed {}",
                -seed
            );
        }
    }

    /// `Next(max)`, `Next(min, max)` and `NextDouble()` of `new Random(42)`, and `Next(min,
    /// max)` over the whole `int` range (the large-range sample), as Mono's `System.Random`
    /// (the same legacy generator; it matches `PUBLISHED`) printed them.
    #[test]
    fn the_other_calls_give_dotnets_numbers() {
        let mut rng = Random::with_seed(42);
        assert_eq!(rng.next_max(100), 66);
        assert_eq!(rng.next_range(-50, 50), -36);
        assert_eq!(rng.next_double(), 0.12551828945312568);
        assert_eq!(rng.next_range(i32::MIN, i32::MAX), -1122627736);
        assert_eq!(rng.next_max(1_000_000), 262592);
        let mut rng = Random::with_seed(-7);
        assert_eq!(rng.next(), 822959691);
        assert_eq!(rng.next_max(10), 8);
        assert_eq!(rng.next_range(i32::MIN, i32::MAX), -1419354886);
    }

    #[test]
    fn lengths_and_small_ranges() {
        let mut rng = Random::with_seed(3);
        assert_eq!(rng.next_max(0), 0);
        assert_eq!(rng.next_max(1), 0);
        assert_eq!(rng.next_range(5, 5), 5);
        assert_eq!(rng.next_range(1, 2), 1);
        for _ in 0..1000 {
            assert!(rng.next_max(7usize) < 7);
            assert!((3..9).contains(&rng.next_range(3usize, 9)));
            let d = rng.next_double();
            assert!((0.0..1.0).contains(&d));
        }
    }

    #[test]
    fn a_games_seed_fixes_every_generator_made_after_it() {
        let draw = || {
            seed_game(99);
            let (mut a, mut b) = (Random::new(), Random::default());
            [a.next(), a.next(), b.next()]
        };
        let first = draw();
        assert_eq!(draw(), first);
        assert_ne!(first[0], first[2], "two generators of a game differ");
        seed_game(100);
        assert_ne!(Random::new().next(), first[0]);
    }

    #[test]
    #[should_panic(expected = "max is negative")]
    fn a_negative_max_panics() {
        Random::with_seed(1).next_max(-1);
    }
}

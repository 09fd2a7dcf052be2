//! `System.Math` and `BitOperations` where C#'s meaning is not Rust's operator or method
//! of the same name.

/// An integer or floating-point number for [`abs`] and [`sign`].
pub trait Signed: Copy + PartialOrd {
    /// `Math.Abs`.
    fn cs_abs(self) -> Self;
    /// `Math.Sign`.
    fn cs_sign(self) -> i32;
}

macro_rules! signed_int {
    ($($t:ty),*) => {$(
        impl Signed for $t {
            #[track_caller]
            fn cs_abs(self) -> Self {
                self.checked_abs().expect("Math.Abs of the smallest value overflows")
            }
            fn cs_sign(self) -> i32 {
                self.signum() as i32
            }
        }
    )*};
}
signed_int!(i8, i16, i32, i64);

macro_rules! signed_float {
    ($($t:ty),*) => {$(
        impl Signed for $t {
            fn cs_abs(self) -> Self {
                self.abs()
            }
            #[track_caller]
            fn cs_sign(self) -> i32 {
                assert!(!self.is_nan(), "Math.Sign of NaN");
                if self > 0.0 { 1 } else if self < 0.0 { -1 } else { 0 }
            }
        }
    )*};
}
signed_float!(f32, f64);

/// `Math.Abs(x)`: panics on the smallest integer, whose absolute value does not fit, as
/// C#'s throws `OverflowException`.
///
/// ```
/// use framework::prelude::*;
/// assert_eq!(cs::abs(-5), 5);
/// assert!(std::panic::catch_unwind(|| cs::abs(i32::MIN)).is_err());
/// ```
#[track_caller]
pub fn abs<T: Signed>(x: T) -> T {
    x.cs_abs()
}

/// `Math.Sign(x)`: -1, 0 or 1 as an `int`.
#[track_caller]
pub fn sign<T: Signed>(x: T) -> i32 {
    x.cs_sign()
}

/// `Math.Max` of two `double`s: NaN if either is (Rust's `f64::max` ignores a NaN).
pub fn max_f64(a: f64, b: f64) -> f64 {
    if a.is_nan() || b.is_nan() {
        f64::NAN
    } else {
        a.max(b)
    }
}

/// `Math.Min` of two `double`s: NaN if either is.
pub fn min_f64(a: f64, b: f64) -> f64 {
    if a.is_nan() || b.is_nan() {
        f64::NAN
    } else {
        a.min(b)
    }
}

/// `Math.Max` of two `float`s (`MathF.Max`): NaN if either is, as [`max_f64`].
///
/// ```
/// use framework::prelude::*;
/// assert!(cs::max_f32(1.0, f32::NAN).is_nan() && cs::max_f32(f32::NAN, 1.0).is_nan());
/// assert_eq!(cs::max_f32(1.0, 2.5), 2.5);
/// ```
pub fn max_f32(a: f32, b: f32) -> f32 {
    if a.is_nan() || b.is_nan() {
        f32::NAN
    } else {
        a.max(b)
    }
}

/// `Math.Min` of two `float`s (`MathF.Min`): NaN if either is, as [`min_f64`].
///
/// ```
/// use framework::prelude::*;
/// assert!(cs::min_f32(1.0, 0.0 / 0.0).is_nan());
/// assert_eq!(cs::min_f32(1.0, f32::INFINITY), 1.0);
/// ```
pub fn min_f32(a: f32, b: f32) -> f32 {
    if a.is_nan() || b.is_nan() {
        f32::NAN
    } else {
        a.min(b)
    }
}

/// `Math.Round(x, digits)`: to `digits` decimals, halves to even, as .NET's.
///
/// ```
/// use framework::prelude::*;
/// assert_eq!(cs::round_digits(2.345, 1), 2.3);
/// assert_eq!(cs::round_digits(0.125, 2), 0.12);
/// ```
pub fn round_digits(x: f64, digits: i32) -> f64 {
    let power = 10f64.powi(digits);
    (x * power).round_ties_even() / power
}

/// `Math.DivRem(a, b, out remainder)`: the quotient, `remainder` set to C#'s `a % b`.
/// Panics on a zero divisor, as C# throws `DivideByZeroException`.
///
/// ```
/// use framework::prelude::*;
/// let mut r = 0;
/// assert_eq!((cs::div_rem(-7, 2, &mut r), r), (-3, -1));
/// ```
#[track_caller]
pub fn div_rem<N>(a: N, b: N, remainder: &mut N) -> N
where
    N: Copy + std::ops::Div<Output = N> + std::ops::Rem<Output = N>,
{
    // C# computes the quotient first (it throws before the remainder is written).
    let q = a / b;
    *remainder = a % b;
    q
}

/// `BitOperations.Log2(x)`: the index of the highest set bit, 0 for 0 (as .NET's).
pub fn log2(x: u64) -> i32 {
    if x == 0 {
        0
    } else {
        63 - x.leading_zeros() as i32
    }
}

/// `Convert.ToInt32(double)`: rounded to the nearest integer, halves to even (as .NET's),
/// panicking out of range as .NET throws `OverflowException`.
///
/// ```
/// use framework::prelude::*;
/// assert_eq!((cs::convert_to_int32(2.5), cs::convert_to_int32(3.5), cs::convert_to_int32(-1.5)), (2, 4, -2));
/// ```
#[track_caller]
pub fn convert_to_int32(x: f64) -> i32 {
    let r = x.round_ties_even();
    assert!(
        r >= f64::from(i32::MIN) && r <= f64::from(i32::MAX),
        "Convert.ToInt32 overflows"
    );
    r as i32
}

/// A value with .NET's `GetHashCode()`.
pub trait HashCode: Copy {
    /// .NET's hash code of the value.
    fn cs_hash_code(self) -> i32;
}

impl HashCode for i32 {
    fn cs_hash_code(self) -> i32 {
        self
    }
}

impl HashCode for u32 {
    fn cs_hash_code(self) -> i32 {
        self as i32
    }
}

impl HashCode for i64 {
    fn cs_hash_code(self) -> i32 {
        (self as i32) ^ ((self >> 32) as i32)
    }
}

impl HashCode for u64 {
    fn cs_hash_code(self) -> i32 {
        (self as i32) ^ ((self >> 32) as i32)
    }
}

/// C#'s `Move.GetHashCode()` is its `RawValue`.
impl HashCode for crate::chess::Move {
    fn cs_hash_code(self) -> i32 {
        i32::from(super::raw_value(self))
    }
}

/// `x.GetHashCode()` as .NET computes it: an `int` itself, a `long` or `ulong` its two
/// halves xored (`(int)v ^ (int)(v >> 32)`, the shift arithmetic for a `long`), a
/// `Move` its `RawValue`.
///
/// ```
/// use framework::prelude::*;
/// assert_eq!(cs::hash_code(-5i32), -5);
/// assert_eq!(cs::hash_code(0x1234_5678_9abc_def0u64), 0x9abc_def0u32 as i32 ^ 0x1234_5678);
/// assert_eq!(cs::hash_code(-1i64), 0); // -1 ^ -1
/// assert_eq!(cs::hash_code(u64::MAX), 0);
/// assert_eq!(cs::hash_code(1i64 << 32), 1);
/// ```
pub fn hash_code<T: HashCode>(x: T) -> i32 {
    x.cs_hash_code()
}

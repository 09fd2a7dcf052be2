//! C#'s explicit conversions of a `float` or `double` to an integer type, as .NET 6 on
//! x64 performs them in an unchecked context (the challenge's runtime).
//!
//! C# leaves an out-of-range result unspecified (ECMA-334 §10.3.2); Rust's `as`
//! saturates, which is not what a bot saw. .NET 6's x64 JIT (before .NET 9 made these
//! conversions saturate) emits:
//! - `int`: `cvttsd2si` with a 32-bit result: NaN and values out of range give
//!   `int.MinValue`.
//! - `long`: `cvttsd2si` with a 64-bit result: `long.MinValue` likewise.
//! - `uint`: the 64-bit `cvttsd2si`, kept to its low 32 bits (the JIT's code generator
//!   converts to `uint` "as if to a long"): `(uint)-1.0` is `uint.MaxValue`, `(uint)NaN`
//!   is 0.
//! - `ulong`: the runtime's helper `JIT_Dbl2ULng`: a value below 2^63 as `long`, another
//!   less 2^63 as `long` plus 2^63 (wrapping): `(ulong)NaN` and `(ulong)1e20` are 0.
//! - `short`, `ushort`, `sbyte`, `byte`, `char`: to `int` first (the JIT's morph
//!   splits the cast in two), then its low bits.
//!
//! A `float` converts as the `double` of the same value (the conversion is exact).

/// An integer type a floating-point value converts to with [`float_to`].
pub trait FromFloat {
    /// `(T)x` of a `double` as .NET 6 on x64 converts it.
    fn from_float(x: f64) -> Self;
}

/// 2^63, the first `double` above `long`'s range.
const TWO_63: f64 = 9_223_372_036_854_775_808.0;

fn to_i32(x: f64) -> i32 {
    if x > -2_147_483_649.0 && x < 2_147_483_648.0 {
        x as i32
    } else {
        i32::MIN
    }
}

fn to_i64(x: f64) -> i64 {
    if (-TWO_63..TWO_63).contains(&x) {
        x as i64
    } else {
        i64::MIN
    }
}

impl FromFloat for i32 {
    fn from_float(x: f64) -> Self {
        to_i32(x)
    }
}

impl FromFloat for i64 {
    fn from_float(x: f64) -> Self {
        to_i64(x)
    }
}

impl FromFloat for u32 {
    fn from_float(x: f64) -> Self {
        to_i64(x) as u32
    }
}

impl FromFloat for u64 {
    fn from_float(x: f64) -> Self {
        if x < TWO_63 {
            to_i64(x) as u64
        } else {
            (to_i64(x - TWO_63) as u64).wrapping_add(1 << 63)
        }
    }
}

macro_rules! via_int {
    ($($t:ty),*) => {$(
        impl FromFloat for $t {
            fn from_float(x: f64) -> Self {
                to_i32(x) as $t
            }
        }
    )*};
}

via_int!(i16, u16, i8, u8);

/// `(T)x` of a `float` or `double` `x`, as .NET 6 on x64 converts it.
///
/// ```
/// use framework::prelude::*;
/// assert_eq!(cs::float_to::<i32>(2.9), 2);
/// assert_eq!(cs::float_to::<i32>(f64::NAN), i32::MIN);
/// assert_eq!(cs::float_to::<i32>(3e9), i32::MIN);
/// assert_eq!(cs::float_to::<u32>(-1.0), u32::MAX);
/// ```
pub fn float_to<T: FromFloat>(x: impl Into<f64>) -> T {
    T::from_float(x.into())
}

#[cfg(test)]
mod tests {
    use super::float_to;

    #[test]
    fn int_and_long_give_min_value_out_of_range() {
        for x in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY, 3e9, -3e9] {
            assert_eq!(float_to::<i32>(x), i32::MIN, "{x}");
        }
        assert_eq!(float_to::<i32>(2.9), 2);
        assert_eq!(float_to::<i32>(-2.9), -2);
        assert_eq!(float_to::<i32>(-2_147_483_648.9), i32::MIN);
        assert_eq!(float_to::<i32>(2_147_483_647.9), i32::MAX);
        assert_eq!(float_to::<i64>(3e9), 3_000_000_000);
        assert_eq!(float_to::<i64>(f64::NAN), i64::MIN);
        assert_eq!(float_to::<i64>(1e19), i64::MIN);
        assert_eq!(float_to::<i64>(-2.9f32), -2);
    }

    #[test]
    fn unsigned_and_small_types_take_low_bits() {
        assert_eq!(float_to::<u32>(3e9), 3_000_000_000);
        assert_eq!(float_to::<u32>(-2.9), u32::MAX - 1);
        assert_eq!(float_to::<u32>(f64::NAN), 0);
        assert_eq!(float_to::<u64>(1e19), 10_000_000_000_000_000_000);
        assert_eq!(float_to::<u64>(f64::NAN), 0);
        assert_eq!(float_to::<u64>(-1.0), u64::MAX);
        assert_eq!(float_to::<u8>(300.5), 44);
        assert_eq!(float_to::<u8>(f64::NAN), 0);
        assert_eq!(float_to::<i16>(-2.9), -2);
        assert_eq!(float_to::<u16>(-1.0), u16::MAX);
    }
}

//! C#'s `decimal` (`System.Decimal`), exact as .NET computes it: a 96-bit integer, a
//! scale of 0 to 28 decimal places and a sign. Sums, products and quotients that need
//! more digits than fit are rounded to nearest, ties to even (.NET's `DecCalc`); a value
//! beyond the 96 bits throws `OverflowException` and a zero divisor
//! `DivideByZeroException` (panics, as the runtime's other C# exceptions).

use std::cmp::Ordering;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::ops::{
    Add, AddAssign, Div, DivAssign, Mul, MulAssign, Neg, Rem, RemAssign, Sub, SubAssign,
};

/// A C# `decimal`. Equal values compare equal whatever their scales (`1.0m == 1.00m`),
/// though the scale is kept, as .NET keeps it, for the text and `decimal.GetBits`.
///
/// ```
/// use framework::csharp::runtime as cs;
/// let third = cs::Decimal::from(1) / cs::Decimal::from(3);
/// assert_eq!(third.to_string(), "0.3333333333333333333333333333");
/// let price = cs::Decimal::from_bits([150, 0, 0, 2 << 16]); // 1.50m
/// assert_eq!((price * cs::Decimal::from(2)).to_string(), "3.00");
/// assert_eq!(cs::Decimal::from_f64(0.1).get_bits(), [1, 0, 0, 1 << 16]);
/// ```
#[derive(Clone, Copy, Default)]
pub struct Decimal {
    mant: u128,
    scale: u32,
    neg: bool,
}

const LIMIT: u128 = 1 << 96;
const OVERFLOW: &str = "Value was either too large or too small for a Decimal (OverflowException)";
const DIV_ZERO: &str = "Attempted to divide by zero (DivideByZeroException)";

const fn pow10(n: u32) -> u128 {
    10u128.pow(n)
}

/// .NET's table of doubles `1e0` to `1e80` that its conversions multiply and divide by.
fn double_pow10(n: u32) -> f64 {
    format!("1e{n}").parse().unwrap_or(f64::INFINITY)
}

impl Decimal {
    /// `0m`.
    pub const ZERO: Decimal = Decimal::new(0, 0, false);
    /// `1m` (what `++` adds).
    pub const ONE: Decimal = Decimal::new(1, 0, false);

    const fn new(mant: u128, scale: u32, neg: bool) -> Decimal {
        Decimal { mant, scale, neg }
    }

    /// The decimal of `decimal.GetBits`' four ints: the 96-bit integer's low, middle and
    /// high words, and the flags (the scale in bits 16-23, the sign in bit 31).
    pub const fn from_bits(bits: [i32; 4]) -> Decimal {
        let mant = bits[0] as u32 as u128
            | (bits[1] as u32 as u128) << 32
            | (bits[2] as u32 as u128) << 64;
        Decimal::new(mant, (bits[3] >> 16 & 0xFF) as u32, bits[3] < 0)
    }

    /// `decimal.GetBits(d)`.
    pub fn get_bits(self) -> [i32; 4] {
        let word = |shift: u32| (self.mant >> shift) as u32 as i32;
        let flags = (self.scale << 16) as i32 | if self.neg { i32::MIN } else { 0 };
        [word(0), word(32), word(64), flags]
    }

    /// Whether the value is zero (either sign).
    pub fn is_zero(self) -> bool {
        self.mant == 0
    }

    /// `(decimal)x` of a `double`: .NET's `VarDecFromR8`, which rounds to 15 significant
    /// digits in double arithmetic and drops trailing zeros (`(decimal)0.1` is `0.1m`).
    /// Panics (`OverflowException`) on a value beyond the decimal's range, an infinity
    /// or NaN.
    pub fn from_f64(x: f64) -> Decimal {
        let biased = (x.to_bits() >> 52 & 0x7FF) as i32;
        from_binary(x, biased - 1022, 15)
    }

    /// `(decimal)x` of a `float`: .NET's `VarDecFromR4`, rounding to 7 significant digits.
    pub fn from_f32(x: f32) -> Decimal {
        let biased = (x.to_bits() >> 23 & 0xFF) as i32;
        from_binary(f64::from(x), biased - 126, 7)
    }

    /// `(double)d`: .NET's `VarR8FromDec`, the 96-bit integer as a double divided by the
    /// double power of ten.
    pub fn to_f64(self) -> f64 {
        let low = (self.mant as u64) as f64;
        let high = ((self.mant >> 64) as u64) as f64;
        let x = (low + high * 18_446_744_073_709_551_616.0) / double_pow10(self.scale);
        if self.neg { -x } else { x }
    }

    /// `(float)d`: the double's value rounded to a float, as .NET converts.
    pub fn to_f32(self) -> f32 {
        self.to_f64() as f32
    }

    /// The integer part, toward zero (what `(long)d` keeps before its range check).
    fn whole(self) -> i128 {
        let q = (self.mant / pow10(self.scale)) as i128;
        if self.neg { -q } else { q }
    }

    /// `Math.Truncate(d)`: toward zero, scale 0, the sign kept (`-0.5m` gives `-0`).
    pub fn truncate(self) -> Decimal {
        Decimal::new(self.mant / pow10(self.scale), 0, self.neg)
    }

    /// `Math.Floor(d)`: toward negative infinity, scale 0.
    pub fn floor(self) -> Decimal {
        self.to_whole(self.neg)
    }

    /// `Math.Ceiling(d)`: toward positive infinity, scale 0.
    pub fn ceiling(self) -> Decimal {
        self.to_whole(!self.neg)
    }

    fn to_whole(self, away: bool) -> Decimal {
        let p = pow10(self.scale);
        let up = away && !self.mant.is_multiple_of(p);
        Decimal::new(self.mant / p + u128::from(up), 0, self.neg)
    }

    /// `Math.Round(d)`: to an integer, halves to even (banker's rounding, .NET's
    /// default `MidpointRounding.ToEven`).
    pub fn round(self) -> Decimal {
        self.round_digits(0)
    }

    /// `Math.Round(d, digits)`: to `digits` decimal places, halves to even; a value with
    /// fewer places is unchanged. Panics (`ArgumentOutOfRangeException`) out of 0..=28.
    pub fn round_digits(self, digits: i32) -> Decimal {
        assert!(
            (0..=28).contains(&digits),
            "Math.Round: digits out of 0..=28 (ArgumentOutOfRangeException)"
        );
        let digits = digits as u32;
        if self.scale <= digits {
            return self;
        }
        let mant = round_even(Wide::from(self.mant), self.scale - digits);
        Decimal::new(mant.low(), digits, self.neg)
    }

    /// `Math.Abs(d)`.
    pub fn abs(self) -> Decimal {
        Decimal::new(self.mant, self.scale, false)
    }

    /// `Math.Sign(d)`.
    pub fn sign(self) -> i32 {
        match (self.mant, self.neg) {
            (0, _) => 0,
            (_, true) => -1,
            _ => 1,
        }
    }

    /// `Math.Max(a, b)`: `a` when the two are equal (.NET's `decimal.Max`).
    pub fn max(self, other: Decimal) -> Decimal {
        if self >= other { self } else { other }
    }

    /// `Math.Min(a, b)`: `b` when the two are equal (.NET's `decimal.Min`).
    pub fn min(self, other: Decimal) -> Decimal {
        if self < other { self } else { other }
    }

    /// A result of `mag` at `scale` (which may exceed 28), rounded to the most places
    /// that fit in 96 bits and 28 places (ties to even); `OverflowException` when not
    /// even the integer fits.
    fn rounded(mag: Wide, scale: u32, neg: bool) -> Decimal {
        let mut drop = scale.saturating_sub(28);
        loop {
            let m = if drop == 0 {
                mag
            } else {
                round_even(mag, drop)
            };
            if m.fits() {
                return Decimal::new(m.low(), scale - drop, neg);
            }
            assert!(drop < scale, "{OVERFLOW}");
            drop += 1;
        }
    }

    /// The magnitudes of `self` and `other` at the larger of their scales.
    fn aligned(self, other: Decimal) -> (Wide, Wide, u32) {
        let s = self.scale.max(other.scale);
        let up = |d: Decimal| Wide::from(d.mant).mul_pow10(s - d.scale);
        (up(self), up(other), s)
    }

    fn add_signed(self, other: Decimal) -> Decimal {
        let (a, b, s) = self.aligned(other);
        if self.neg == other.neg {
            return Decimal::rounded(a.add(b), s, self.neg);
        }
        // .NET subtracts the second from the first and flips the sign on a borrow, so
        // an exact zero keeps the first's sign.
        match a.cmp(&b) {
            Ordering::Less => Decimal::rounded(b.sub(a), s, other.neg),
            _ => Decimal::rounded(a.sub(b), s, self.neg),
        }
    }

    fn mul_exact(self, other: Decimal) -> Decimal {
        let product = Wide::from(self.mant).mul_u128(other.mant);
        Decimal::rounded(product, self.scale + other.scale, self.neg != other.neg)
    }

    /// .NET's `VarDecDiv`: the exact quotient at the fewest places (at least the
    /// dividend's scale less the divisor's) that hold it, or else rounded to the most
    /// places that fit.
    fn div_exact(self, other: Decimal) -> Decimal {
        assert!(other.mant != 0, "{DIV_ZERO}");
        let neg = self.neg != other.neg;
        let d = other.mant;
        let (mut q, mut r) = (self.mant / d, self.mant % d);
        let mut scale = self.scale as i32 - other.scale as i32;
        let next = |q: u128, r: u128| q.checked_mul(10).map(|t| t + r * 10 / d);
        while scale < 0 {
            q = next(q, r).filter(|&q| q < LIMIT).expect(OVERFLOW);
            r = r * 10 % d;
            scale += 1;
        }
        assert!(q < LIMIT, "{OVERFLOW}");
        while r != 0 && scale < 28 {
            match next(q, r).filter(|&q| q < LIMIT) {
                Some(n) => (q, r) = (n, r * 10 % d),
                None => break,
            }
            scale += 1;
        }
        if r != 0 && (2 * r > d || 2 * r == d && q & 1 == 1) {
            q += 1;
            if q == LIMIT {
                // The exact value lies just under 2^96 places; one place fewer rounds
                // it to 2^96 / 10 upward (.NET's constant for this case).
                assert!(scale > 0, "{OVERFLOW}");
                return Decimal::new(LIMIT / 10 + 1, scale as u32 - 1, neg);
            }
        }
        Decimal::new(q, scale as u32, neg)
    }

    /// .NET's `VarDecMod`: the remainder of the truncated quotient, exact, with the
    /// dividend's sign; the dividend itself when it is the smaller in magnitude.
    fn rem_exact(self, other: Decimal) -> Decimal {
        assert!(other.mant != 0, "{DIV_ZERO}");
        if self.mant == 0 {
            return self;
        }
        let (a, b, s) = self.aligned(other);
        match a.cmp(&b) {
            Ordering::Less => self,
            Ordering::Equal => Decimal::new(0, s, self.neg),
            // `b < a`: whichever was scaled up, the other fits 96 bits.
            Ordering::Greater if self.scale >= other.scale => {
                Decimal::new(a.low() % b.low(), s, self.neg)
            }
            Ordering::Greater => {
                let d = b.low();
                let r = (0..s - self.scale).fold(self.mant % d, |r, _| r * 10 % d);
                Decimal::new(r, s, self.neg)
            }
        }
    }

    /// The value with its trailing zeros dropped (equal values are equal here).
    fn normal(self) -> (u128, u32, bool) {
        let (mut m, mut s) = (self.mant, self.scale);
        while s > 0 && m % 10 == 0 {
            m /= 10;
            s -= 1;
        }
        (m, s, self.neg && m != 0)
    }
}

/// .NET's `VarDecFromR8`/`VarDecFromR4`: `x` scaled by a double power of ten to a
/// `digits`-digit integer, rounded half to even, its trailing zeros removed.
fn from_binary(x: f64, exp: i32, digits: i32) -> Decimal {
    if exp < -94 {
        return Decimal::ZERO;
    }
    assert!(exp <= 96, "{OVERFLOW}");
    let neg = x < 0.0;
    let mut dbl = x.abs();
    let top = 10f64.powi(digits);
    let mut power = digits - 1 - ((exp * 19728) >> 16);
    if power >= 0 {
        power = power.min(28);
        dbl *= double_pow10(power as u32);
    } else if power != -1 || dbl >= top {
        dbl /= double_pow10((-power) as u32);
    } else {
        power = 0;
    }
    if dbl < top / 10.0 && power < 28 {
        dbl *= 10.0;
        power += 1;
    }
    let mut mant = dbl as i64 as u64;
    let frac = dbl - mant as f64;
    if frac > 0.5 || frac == 0.5 && mant & 1 == 1 {
        mant += 1;
    }
    if mant == 0 {
        return Decimal::ZERO;
    }
    if power < 0 {
        let m = u128::from(mant) * pow10((-power) as u32);
        return Decimal::new(m, 0, neg);
    }
    let mut lmax = power.min(digits - 1);
    while lmax > 0 && mant.is_multiple_of(10) {
        mant /= 10;
        power -= 1;
        lmax -= 1;
    }
    Decimal::new(u128::from(mant), power as u32, neg)
}

/// `mag / 10^places`, rounded to nearest with ties to even.
fn round_even(mag: Wide, places: u32) -> Wide {
    let mut q = mag;
    let mut sticky = false;
    let mut left = places - 1;
    while left > 0 {
        let step = left.min(19);
        sticky |= q.div_rem(10u64.pow(step)) != 0;
        left -= step;
    }
    let digit = q.div_rem(10);
    if digit > 5 || digit == 5 && (sticky || q.0[0] & 1 == 1) {
        q = q.add(Wide::from(1));
    }
    q
}

/// A 320-bit magnitude for exact intermediate results (an aligned 96-bit integer times
/// up to 10^56, or the product of two).
#[derive(Clone, Copy, PartialEq, Eq)]
struct Wide([u64; 5]);

impl From<u128> for Wide {
    fn from(x: u128) -> Wide {
        Wide([x as u64, (x >> 64) as u64, 0, 0, 0])
    }
}

impl Wide {
    fn fits(self) -> bool {
        self.0[2..].iter().all(|&w| w == 0) && self.0[1] < 1 << 32
    }

    fn low(self) -> u128 {
        u128::from(self.0[0]) | u128::from(self.0[1]) << 64
    }

    fn mul_u64(self, k: u64) -> Wide {
        let mut out = [0; 5];
        let mut carry = 0u128;
        for (o, &w) in out.iter_mut().zip(&self.0) {
            let t = u128::from(w) * u128::from(k) + carry;
            *o = t as u64;
            carry = t >> 64;
        }
        Wide(out)
    }

    fn mul_pow10(self, n: u32) -> Wide {
        let (mut w, mut left) = (self, n);
        while left > 0 {
            let step = left.min(19);
            w = w.mul_u64(10u64.pow(step));
            left -= step;
        }
        w
    }

    fn mul_u128(self, k: u128) -> Wide {
        let low = self.mul_u64(k as u64);
        let high = self.mul_u64((k >> 64) as u64);
        let shifted = Wide([0, high.0[0], high.0[1], high.0[2], high.0[3]]);
        low.add(shifted)
    }

    fn add(self, other: Wide) -> Wide {
        let mut out = [0; 5];
        let mut carry = false;
        for (o, (&x, &y)) in out.iter_mut().zip(self.0.iter().zip(&other.0)) {
            let (s, c1) = x.overflowing_add(y);
            let (s, c2) = s.overflowing_add(u64::from(carry));
            *o = s;
            carry = c1 || c2;
        }
        Wide(out)
    }

    /// `self - other` for `other <= self`.
    fn sub(self, other: Wide) -> Wide {
        let mut out = [0; 5];
        let mut borrow = false;
        for (o, (&x, &y)) in out.iter_mut().zip(self.0.iter().zip(&other.0)) {
            let (d, b1) = x.overflowing_sub(y);
            let (d, b2) = d.overflowing_sub(u64::from(borrow));
            *o = d;
            borrow = b1 || b2;
        }
        Wide(out)
    }

    /// Divides in place, returning the remainder.
    fn div_rem(&mut self, d: u64) -> u64 {
        let mut rem = 0u128;
        for w in self.0.iter_mut().rev() {
            let cur = rem << 64 | u128::from(*w);
            *w = (cur / u128::from(d)) as u64;
            rem = cur % u128::from(d);
        }
        rem as u64
    }
}

impl Ord for Wide {
    fn cmp(&self, other: &Wide) -> Ordering {
        self.0.iter().rev().cmp(other.0.iter().rev())
    }
}

impl PartialOrd for Wide {
    fn partial_cmp(&self, other: &Wide) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

macro_rules! from_int {
    ($($t:ty),*) => {$(
        impl From<$t> for Decimal {
            /// The implicit conversion of an integer: exact, scale 0.
            fn from(x: $t) -> Decimal {
                Decimal::new(i128::from(x).unsigned_abs(), 0, i128::from(x) < 0)
            }
        }
    )*};
}
from_int!(i8, u8, i16, u16, i32, u32, i64, u64);

macro_rules! to_int {
    ($($name:ident $t:ty),*) => {
        impl Decimal {$(
            /// The explicit conversion to an integer: toward zero, panicking
            /// (`OverflowException`) out of the type's range.
            pub fn $name(self) -> $t {
                <$t>::try_from(self.whole()).expect(OVERFLOW)
            }
        )*}
    };
}
to_int!(to_i8 i8, to_u8 u8, to_i16 i16, to_u16 u16, to_i32 i32, to_u32 u32, to_i64 i64, to_u64 u64);

impl PartialEq for Decimal {
    fn eq(&self, other: &Decimal) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for Decimal {}

impl Ord for Decimal {
    fn cmp(&self, other: &Decimal) -> Ordering {
        let sign = |d: &Decimal| match (d.mant, d.neg) {
            (0, _) => 0,
            (_, true) => -1,
            _ => 1,
        };
        let (sa, sb) = (sign(self), sign(other));
        if sa != sb || sa == 0 {
            return sa.cmp(&sb);
        }
        let (a, b, _) = self.aligned(*other);
        if sa < 0 { b.cmp(&a) } else { a.cmp(&b) }
    }
}

impl PartialOrd for Decimal {
    fn partial_cmp(&self, other: &Decimal) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Hash for Decimal {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.normal().hash(state);
    }
}

impl fmt::Display for Decimal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&super::decimal_text(self.get_bits()))
    }
}

impl fmt::Debug for Decimal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{self}m")
    }
}

impl Neg for Decimal {
    type Output = Decimal;
    /// Flips the sign, of zero too (as .NET's `decimal.Negate`).
    fn neg(self) -> Decimal {
        Decimal::new(self.mant, self.scale, !self.neg)
    }
}

macro_rules! op {
    ($tr:ident $m:ident $atr:ident $am:ident $body:expr) => {
        impl $tr for Decimal {
            type Output = Decimal;
            fn $m(self, other: Decimal) -> Decimal {
                let f: fn(Decimal, Decimal) -> Decimal = $body;
                f(self, other)
            }
        }
        impl $atr for Decimal {
            fn $am(&mut self, other: Decimal) {
                *self = $tr::$m(*self, other);
            }
        }
    };
}
op!(Add add AddAssign add_assign |a, b| a.add_signed(b));
op!(Sub sub SubAssign sub_assign |a, b| a.add_signed(-b));
op!(Mul mul MulAssign mul_assign |a, b| a.mul_exact(b));
op!(Div div DivAssign div_assign |a, b| a.div_exact(b));
op!(Rem rem RemAssign rem_assign |a, b| a.rem_exact(b));

impl super::Number for Decimal {
    const ZERO: Decimal = Decimal::ZERO;
    /// LINQ's `Sum()` of decimals: `+` from `0m`, throwing on overflow.
    fn add(self, other: Decimal) -> Decimal {
        self + other
    }
    fn to_f64(self) -> f64 {
        self.to_f64()
    }
}

#[cfg(test)]
mod tests {
    use super::Decimal;

    fn d(text: &str) -> Decimal {
        let neg = text.starts_with('-');
        let text = text.trim_start_matches('-');
        let scale = text.find('.').map_or(0, |i| text.len() - i - 1);
        let mant: u128 = text.replace('.', "").parse().unwrap();
        Decimal::new(mant, scale as u32, neg)
    }

    fn t(x: Decimal) -> String {
        x.to_string()
    }

    #[test]
    fn sums_keep_the_larger_scale_and_round_past_96_bits() {
        assert_eq!(t(d("1.5") + d("2.25")), "3.75");
        assert_eq!(t(d("1.50") - d("0.5")), "1.00");
        assert_eq!(
            t(d("79228162514264337593543950335") - d("0.5")),
            "79228162514264337593543950334"
        );
        assert_eq!(
            t(d("7922816251426433759354395033.5") + d("0.05")),
            "7922816251426433759354395034"
        );
    }

    #[test]
    fn products_and_quotients_round_half_to_even() {
        assert_eq!(t(d("1.0") * d("1.0")), "1.00");
        assert_eq!(t(d("2") / d("3")), "0.6666666666666666666666666667");
        assert_eq!(t(d("1") / d("4")), "0.25");
        assert_eq!(t(d("1.00") / d("1")), "1.00");
        assert_eq!(t(d("1") / d("0.1")), "10");
        assert_eq!(
            t(d("0.0000000000000000000000000001") * d("0.5")),
            "0.0000000000000000000000000000"
        );
        assert_eq!(
            t(d("0.0000000000000000000000000003") * d("0.5")),
            "0.0000000000000000000000000002"
        );
        assert_eq!(t(d("100000") / d("3")), "33333.333333333333333333333333");
    }

    #[test]
    fn remainders_have_the_dividend_sign() {
        assert_eq!(t(d("-7.5") % d("2")), "-1.5");
        assert_eq!(t(d("7") % d("0.25")), "0.00");
        assert_eq!(t(d("1.5") % d("4")), "1.5");
    }

    #[test]
    #[should_panic(expected = "OverflowException")]
    fn overflow_throws() {
        let _ = d("79228162514264337593543950335") + d("1");
    }

    #[test]
    #[should_panic(expected = "DivideByZeroException")]
    fn zero_divisor_throws() {
        let _ = d("1") / d("0");
    }

    #[test]
    fn doubles_convert_at_fifteen_digits() {
        assert_eq!(t(Decimal::from_f64(0.1)), "0.1");
        assert_eq!(t(Decimal::from_f64(1.0 / 3.0)), "0.333333333333333");
        assert_eq!(t(Decimal::from_f64(-2.5e20)), "-250000000000000000000");
        assert_eq!(t(Decimal::from_f64(1e-30)), "0");
        assert_eq!(
            t(Decimal::from_f64(123_456_789.123_456_79)),
            "123456789.123457"
        );
        assert_eq!(Decimal::from_f64(0.1).to_f64(), 0.1);
        assert_eq!(t(Decimal::from_f32(0.1)), "0.1");
    }

    #[test]
    fn rounding_to_integers() {
        assert_eq!(t(d("2.5").round()), "2");
        assert_eq!(t(d("3.5").round()), "4");
        assert_eq!(t(d("-2.5").floor()), "-3");
        assert_eq!(t(d("-2.5").ceiling()), "-2");
        assert_eq!(t(d("2.345").round_digits(2)), "2.34");
        assert_eq!(d("-2.9").to_i32(), -2);
        assert_eq!(d("1.0").max(d("1.00")).get_bits()[3], 1 << 16);
    }
}

//! [`BigInteger`]: what bots use `System.Numerics.BigInteger` for, unpacking tables
//! packed in `decimal` literals, in long digit strings or in runs of `ulong`s (the
//! largest in the corpus is 1792 bits, under the port's 2048).

/// The port's width in 64-bit limbs: 2048 bits, two's complement.
const LIMBS: usize = 32;

/// C#'s `BigInteger` within 2048 bits (two's complement, so `&`, `|`, `^` and shifts
/// are .NET's): made from a decimal, an integer or a string, shifted, masked,
/// converted, and read back as bytes. Where C#'s value would outgrow 2048 bits the
/// port's panics; it never gives another value.
///
/// ```
/// use framework::prelude::*;
/// // new BigInteger(258m).ToByteArray() is { 2, 1 }; 128m needs a sign byte: { 128, 0 }.
/// assert_eq!(cs::BigInteger::from_decimal([258, 0, 0, 0]).to_byte_array().to_vec(), [2, 1]);
/// assert_eq!(cs::BigInteger::from_decimal([128, 0, 0, 0]).to_byte_array().to_vec(), [128, 0]);
/// assert_eq!(cs::BigInteger::from_decimal([128, 0, 0, 0]).to_byte_array_unsigned().to_vec(), [128]);
/// // -1m is { 255 }; 1.5m's integer part is 1.
/// assert_eq!(cs::BigInteger::from_decimal([1, 0, 0, i32::MIN]).to_byte_array().to_vec(), [255]);
/// assert_eq!(cs::BigInteger::from_decimal([15, 0, 0, 0x10000]).to_byte_array().to_vec(), [1]);
/// // ((BigInteger)1000m >> 3) & 0x7F is 125; (int) of it checks the range.
/// let x = cs::BigInteger::from_decimal([1000, 0, 0, 0]).shr(3).and(cs::BigInteger::from_i128(0x7F));
/// assert_eq!(x.to_int::<i32>(), 125);
/// // Past 128 bits: 2^200 >> 199 is 2.
/// assert_eq!(cs::BigInteger::from_i128(1).shl(200).shr(199).to_int::<i32>(), 2);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BigInteger([u64; LIMBS]);

impl Default for BigInteger {
    fn default() -> Self {
        BigInteger([0; LIMBS])
    }
}

impl PartialOrd for BigInteger {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for BigInteger {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        // Of one sign, two's complement orders as unsigned.
        let negative = (other.is_negative(), self.is_negative());
        negative
            .0
            .cmp(&negative.1)
            .then_with(|| self.0.iter().rev().cmp(other.0.iter().rev()))
    }
}

// C#'s operators as named methods, like the runtime's others (`cs::` calls a port writes).
#[allow(clippy::should_implement_trait)]
impl BigInteger {
    /// An integer's value (C#'s implicit conversions from the integral types).
    pub fn from_i128(v: i128) -> BigInteger {
        let fill = if v < 0 { u64::MAX } else { 0 };
        let mut limbs = [fill; LIMBS];
        limbs[0] = v as u64;
        limbs[1] = (v >> 64) as u64;
        BigInteger(limbs)
    }

    /// `new BigInteger(d)` and `(BigInteger)d` of a decimal (`decimal.GetBits`' four
    /// ints): the integer part, truncated toward zero.
    pub fn from_decimal(bits: [i32; 4]) -> BigInteger {
        let magnitude = (bits[0] as u32 as i128)
            | (bits[1] as u32 as i128) << 32
            | (bits[2] as u32 as i128) << 64;
        let scale = (bits[3] >> 16) & 0xFF;
        let integer = magnitude / 10i128.pow(scale as u32);
        BigInteger::from_i128(if bits[3] < 0 { -integer } else { integer })
    }

    /// `BigInteger.Parse(s)` (`NumberStyles.Integer`, as .NET reads it): white space
    /// around, a leading `+` or `-`, ASCII digits, trailing NUL characters. Anything
    /// else panics, as C# throws `FormatException`; a value past 2048 bits panics too.
    #[track_caller]
    pub fn parse(s: &str) -> BigInteger {
        let white = |c: char| c == ' ' || ('\t'..='\r').contains(&c);
        let s = s.trim_end_matches('\0').trim_matches(white);
        let (negative, digits) = match s.as_bytes().first() {
            Some(b'-') => (true, &s[1..]),
            Some(b'+') => (false, &s[1..]),
            _ => (false, s),
        };
        assert!(
            !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()),
            "BigInteger.Parse of something not an integer (FormatException)"
        );
        let ten = BigInteger::from_i128(10);
        let magnitude = digits.bytes().fold(BigInteger::default(), |acc, b| {
            acc.mul(ten)
                .add(BigInteger::from_i128(i128::from(b - b'0')))
        });
        if negative { magnitude.neg() } else { magnitude }
    }

    /// `ToByteArray()`: little-endian two's complement in the fewest bytes that keep the
    /// sign (as .NET's).
    pub fn to_byte_array(&self) -> super::Array<u8> {
        let bytes = self.le_bytes();
        let fill = if self.is_negative() { 0xFF } else { 0 };
        let mut len = bytes.len();
        while len > 1 && bytes[len - 1] == fill && (bytes[len - 2] & 0x80 != 0) == (fill == 0xFF) {
            len -= 1;
        }
        super::Array::from(bytes[..len].to_vec())
    }

    /// `ToByteArray(isUnsigned: true)`: the magnitude's bytes, no sign byte; C#'s
    /// `OverflowException` (a panic) for a negative value.
    #[track_caller]
    pub fn to_byte_array_unsigned(&self) -> super::Array<u8> {
        assert!(
            !self.is_negative(),
            "ToByteArray(isUnsigned: true) of a negative BigInteger (OverflowException)"
        );
        let bytes = self.le_bytes();
        let mut len = bytes.len();
        while len > 1 && bytes[len - 1] == 0 {
            len -= 1;
        }
        super::Array::from(bytes[..len].to_vec())
    }

    /// `ToByteArray(isUnsigned, isBigEndian)`.
    #[track_caller]
    pub fn to_byte_array_with(&self, unsigned: bool, big_endian: bool) -> super::Array<u8> {
        let bytes = if unsigned {
            self.to_byte_array_unsigned()
        } else {
            self.to_byte_array()
        };
        let mut bytes = bytes.to_vec();
        if big_endian {
            bytes.reverse();
        }
        super::Array::from(bytes)
    }

    /// `BigInteger.Parse(d.ToString())` of a decimal: its integer, or C#'s
    /// `FormatException` (a panic) when the decimal has a scale, which prints a point.
    #[track_caller]
    pub fn parse_decimal_text(bits: [i32; 4]) -> BigInteger {
        assert!(
            (bits[3] >> 16) & 0xFF == 0,
            "BigInteger.Parse: the decimal's text has a decimal point (FormatException)"
        );
        BigInteger::from_decimal(bits)
    }

    /// `a >> n`: arithmetic (floor) shift, as .NET's two's complement `BigInteger`; a
    /// negative count shifts left.
    #[track_caller]
    pub fn shr(self, n: i32) -> BigInteger {
        if n < 0 {
            return self.shl(n.checked_neg().expect(BEYOND));
        }
        let fill = if self.is_negative() { u64::MAX } else { 0 };
        let (words, bits) = (n as usize / 64, n as u32 % 64);
        let limb = |i: usize| self.0.get(i).copied().unwrap_or(fill);
        BigInteger(std::array::from_fn(|i| {
            let low = limb(i + words);
            let high = limb(i + words + 1);
            if bits == 0 {
                low
            } else {
                low >> bits | high << (64 - bits)
            }
        }))
    }

    /// `a << n`; panics past 2048 bits, where C#'s value grows and the port's cannot.
    #[track_caller]
    pub fn shl(self, n: i32) -> BigInteger {
        if n < 0 {
            return self.shr(n.checked_neg().expect(BEYOND));
        }
        if self == BigInteger::default() {
            return self;
        }
        assert!((n as usize) < LIMBS * 64, "{BEYOND}");
        let (words, bits) = (n as usize / 64, n as u32 % 64);
        let limb = |i: usize| i.checked_sub(words).map_or(0, |j| self.0[j]);
        let shifted = BigInteger(std::array::from_fn(|i| {
            let high = limb(i);
            let low = i.checked_sub(1).map_or(0, limb);
            if bits == 0 {
                high
            } else {
                high << bits | low >> (64 - bits)
            }
        }));
        assert!(shifted.shr(n) == self, "{BEYOND}");
        shifted
    }

    /// `a & b`, `a | b`, `a ^ b`: two's complement, as .NET's.
    pub fn and(self, b: BigInteger) -> BigInteger {
        BigInteger(std::array::from_fn(|i| self.0[i] & b.0[i]))
    }

    /// `a | b`.
    pub fn or(self, b: BigInteger) -> BigInteger {
        BigInteger(std::array::from_fn(|i| self.0[i] | b.0[i]))
    }

    /// `a ^ b`.
    pub fn xor(self, b: BigInteger) -> BigInteger {
        BigInteger(std::array::from_fn(|i| self.0[i] ^ b.0[i]))
    }

    /// `a + b`; panics past 2048 bits.
    #[track_caller]
    pub fn add(self, b: BigInteger) -> BigInteger {
        let sum = self.wrapping_add(b, false);
        let overflow =
            self.is_negative() == b.is_negative() && sum.is_negative() != self.is_negative();
        assert!(!overflow, "{BEYOND}");
        sum
    }

    /// `a - b`; panics past 2048 bits.
    #[track_caller]
    pub fn sub(self, b: BigInteger) -> BigInteger {
        let difference = self.wrapping_add(b.not(), true);
        let overflow =
            self.is_negative() != b.is_negative() && difference.is_negative() != self.is_negative();
        assert!(!overflow, "{BEYOND}");
        difference
    }

    /// `-a`; panics past 2048 bits (the one value whose negation does not fit).
    #[track_caller]
    pub fn neg(self) -> BigInteger {
        BigInteger::default().sub(self)
    }

    /// `a * b`; panics past 2048 bits.
    #[track_caller]
    pub fn mul(self, b: BigInteger) -> BigInteger {
        let (x, y) = (self.magnitude(), b.magnitude());
        let mut product = [0u64; 2 * LIMBS];
        for (i, &xi) in x.iter().enumerate() {
            let mut carry = 0u128;
            for (j, &yj) in y.iter().enumerate() {
                let total = u128::from(xi) * u128::from(yj) + u128::from(product[i + j]) + carry;
                product[i + j] = total as u64;
                carry = total >> 64;
            }
            product[i + LIMBS] = carry as u64;
        }
        assert!(product[LIMBS..].iter().all(|&l| l == 0), "{BEYOND}");
        let low = std::array::from_fn(|i| product[i]);
        BigInteger::signed(self.is_negative() != b.is_negative(), low)
    }

    /// `BigInteger.Pow(a, n)`: panics past 2048 bits, and for a negative `n` (C#'s
    /// `ArgumentOutOfRangeException`).
    #[track_caller]
    pub fn pow(self, n: i32) -> BigInteger {
        assert!(
            n >= 0,
            "BigInteger.Pow of a negative exponent (ArgumentOutOfRangeException)"
        );
        // Square and multiply: `Pow(1, int.MaxValue)` takes 31 steps, not 2^31. A square
        // is never past the result's size, so it panics only where the result would.
        let (mut result, mut base, mut n) = (BigInteger::from_i128(1), self, n.unsigned_abs());
        while n > 0 {
            if n & 1 == 1 {
                result = result.mul(base);
            }
            n >>= 1;
            if n > 0 {
                base = base.mul(base);
            }
        }
        result
    }

    /// `a / b`, truncated toward zero; panics on a zero divisor (C#'s
    /// `DivideByZeroException`).
    #[track_caller]
    pub fn div(self, b: BigInteger) -> BigInteger {
        let (quotient, _) = self.div_rem(b);
        quotient
    }

    /// `a % b`, of the dividend's sign; panics on a zero divisor.
    #[track_caller]
    pub fn rem(self, b: BigInteger) -> BigInteger {
        let (_, remainder) = self.div_rem(b);
        remainder
    }

    /// `(int)a`, `(long)a`, `(ulong)a`...: C#'s explicit conversions, which throw
    /// `OverflowException` (a panic) out of the target's range in any context.
    #[track_caller]
    pub fn to_int<T: TryFrom<i128>>(self) -> T {
        let fill = if self.is_negative() { u64::MAX } else { 0 };
        let small = (self.0[1] >> 63 == fill >> 63) && self.0[2..].iter().all(|&l| l == fill);
        let value = (self.0[0] as u128 | (self.0[1] as u128) << 64) as i128;
        small
            .then(|| T::try_from(value).ok())
            .flatten()
            .expect("BigInteger out of the type's range (OverflowException)")
    }

    fn is_negative(&self) -> bool {
        self.0[LIMBS - 1] >> 63 == 1
    }

    fn not(self) -> BigInteger {
        BigInteger(self.0.map(|l| !l))
    }

    fn le_bytes(&self) -> Vec<u8> {
        self.0.iter().flat_map(|l| l.to_le_bytes()).collect()
    }

    /// The sum modulo 2^2048, with a carry into the lowest bit.
    fn wrapping_add(self, b: BigInteger, carry_in: bool) -> BigInteger {
        let mut carry = u64::from(carry_in);
        BigInteger(std::array::from_fn(|i| {
            let (s1, c1) = self.0[i].overflowing_add(b.0[i]);
            let (s2, c2) = s1.overflowing_add(carry);
            carry = u64::from(c1) + u64::from(c2);
            s2
        }))
    }

    /// |a| as an unsigned 2048-bit number (the most negative value's is 2^2047).
    fn magnitude(self) -> [u64; LIMBS] {
        if self.is_negative() {
            self.not().wrapping_add(BigInteger::default(), true).0
        } else {
            self.0
        }
    }

    /// The value of sign and magnitude; panics where it does not fit.
    #[track_caller]
    fn signed(negative: bool, magnitude: [u64; LIMBS]) -> BigInteger {
        let value = BigInteger(magnitude);
        let zero = BigInteger::default();
        if !negative || value == zero {
            assert!(!value.is_negative(), "{BEYOND}");
            return value;
        }
        let negated = value.not().wrapping_add(zero, true);
        assert!(negated.is_negative(), "{BEYOND}");
        negated
    }

    /// Quotient truncated toward zero and remainder of the dividend's sign, by long
    /// division of the magnitudes, one bit at a time (bots divide rarely, and small).
    #[track_caller]
    fn div_rem(self, b: BigInteger) -> (BigInteger, BigInteger) {
        assert!(
            b != BigInteger::default(),
            "BigInteger division by zero (DivideByZeroException)"
        );
        let (x, y) = (BigInteger(self.magnitude()), BigInteger(b.magnitude()));
        let ge = |r: &BigInteger, y: &BigInteger| r.0.iter().rev().cmp(y.0.iter().rev()).is_ge();
        let mut quotient = [0u64; LIMBS];
        let mut remainder = BigInteger::default();
        let top =
            x.0.iter()
                .rposition(|&l| l != 0)
                .map_or(0, |i| (i + 1) * 64);
        for bit in (0..top).rev() {
            remainder = BigInteger(std::array::from_fn(|i| {
                let low = if i == 0 {
                    x.0[bit / 64] >> (bit % 64) & 1
                } else {
                    remainder.0[i - 1] >> 63
                };
                remainder.0[i] << 1 | low
            }));
            if ge(&remainder, &y) {
                remainder = remainder.wrapping_add(y.not(), true);
                quotient[bit / 64] |= 1 << (bit % 64);
            }
        }
        let negative = self.is_negative() != b.is_negative();
        (
            BigInteger::signed(negative, quotient),
            BigInteger::signed(self.is_negative(), remainder.0),
        )
    }
}

/// Why a value the port's `BigInteger` cannot hold panics.
const BEYOND: &str = "BigInteger past the port's 2048 bits";

#[cfg(test)]
mod tests {
    use super::*;

    fn b(v: i128) -> BigInteger {
        BigInteger::from_i128(v)
    }

    #[test]
    fn shifts_are_two_complement_and_floor() {
        // .NET: -5 >> 1 is -3 (floor), -1 >> 200 is -1, 5 >> 200 is 0, 3 >> -2 is 12.
        assert_eq!(b(-5).shr(1), b(-3));
        assert_eq!(b(-1).shr(200), b(-1));
        assert_eq!(b(5).shr(200), b(0));
        assert_eq!(b(3).shr(-2), b(12));
        assert_eq!(b(-3).shl(2), b(-12));
        assert_eq!(b(0).shl(500), b(0));
        // -6 & 255 is 250 in two's complement.
        assert_eq!(b(-6).and(b(255)), b(250));
    }

    #[test]
    #[should_panic(expected = "2048 bits")]
    fn a_left_shift_past_2048_bits_panics() {
        b(1).shl(2047);
    }

    #[test]
    fn wide_values_are_exact() {
        // 2^200 - 1 = (1 << 200) - 1; (x * x) / x is x; -x % 7 is -(x % 7).
        let x = b(1).shl(200).sub(b(1));
        assert_eq!(x.mul(x).div(x), x);
        // 2^200 mod 7 = 2^(200 mod 3) = 4, so x mod 7 = 3.
        assert_eq!(x.rem(b(7)), b(3));
        assert_eq!(x.neg().rem(b(7)), b(-3));
        assert_eq!(x.neg().div(b(-1)), x);
        // (-1)^3 = -1, (-1)^0 = 1, 2^200 = x + 1.
        assert_eq!((b(-1).pow(3), b(-1).pow(0)), (b(-1), b(1)));
        assert_eq!(b(2).pow(200), x.add(b(1)));
        assert!(std::panic::catch_unwind(|| b(2).pow(-1)).is_err());
        assert!(x.neg() < b(-1) && b(-1) < b(0) && b(0) < x);
        assert_eq!(x.shr(190).to_int::<i32>(), 1023);
        assert_eq!(x.neg().shr(199).to_int::<i32>(), -2);
        // 2^200 - 1 is 25 bytes of 255, and a sign byte.
        let bytes = x.to_byte_array().to_vec();
        assert_eq!((bytes.len(), bytes[24], bytes[25]), (26, 255, 0));
        assert_eq!(x.neg().to_byte_array().to_vec()[..2], [1, 0]);
        assert!(std::panic::catch_unwind(|| x.to_int::<i64>()).is_err());
        assert!(std::panic::catch_unwind(|| x.mul(x).mul(x).mul(x).mul(x).mul(x)).is_ok());
        assert!(
            std::panic::catch_unwind(|| x
                .mul(x)
                .mul(x)
                .mul(x)
                .mul(x)
                .mul(x)
                .mul(x)
                .mul(x)
                .mul(x)
                .mul(x)
                .mul(x)
                .mul(x))
            .is_err()
        );
    }

    #[test]
    fn parse_reads_integer_text() {
        // 2^64 = 18446744073709551616; 2^128 = 340282366920938463463374607431768211456.
        assert_eq!(BigInteger::parse(" +18446744073709551616\n"), b(1 << 64));
        let big = BigInteger::parse("-340282366920938463463374607431768211456\0");
        assert_eq!(big, b(-1).shl(128));
        for bad in ["", "-", "1.0", "1 2", "0x10", "1e3"] {
            assert!(
                std::panic::catch_unwind(|| BigInteger::parse(bad)).is_err(),
                "{bad}"
            );
        }
        // { 1, 2 } big-endian is 258; unsigned of a negative throws.
        assert_eq!(b(258).to_byte_array_with(true, true).to_vec(), [1, 2]);
        assert!(std::panic::catch_unwind(|| b(-1).to_byte_array_with(true, false)).is_err());
    }

    #[test]
    fn pow_checks_its_exponent_and_range() {
        let b = BigInteger::from_i128;
        assert_eq!(b(-2).pow(5), b(-32));
        assert_eq!(b(3).pow(0), b(1));
        assert_eq!(b(10).pow(30), b(10).pow(15).mul(b(10).pow(15)));
        assert!(std::panic::catch_unwind(|| b(2).pow(-1)).is_err());
        assert!(std::panic::catch_unwind(|| b(2).pow(2048)).is_err());
        assert_eq!(b(2).pow(2045).mul(b(2)), b(2).pow(2046));
        assert!(std::panic::catch_unwind(|| b(2).pow(2047)).is_err());
        assert_eq!(b(1).pow(i32::MAX), b(1));
        assert_eq!(b(-1).pow(i32::MAX), b(-1));
    }

    #[test]
    fn conversions_check_the_range() {
        assert_eq!(b(-32768).to_int::<i16>(), -32768);
        assert_eq!(b(u64::MAX as i128).to_int::<u64>(), u64::MAX);
        assert!(std::panic::catch_unwind(|| b(32768).to_int::<i16>()).is_err());
        assert!(std::panic::catch_unwind(|| b(-1).to_int::<u64>()).is_err());
    }

    #[test]
    fn parse_of_a_decimal_text() {
        assert_eq!(BigInteger::parse_decimal_text([7, 0, 0, i32::MIN]), b(-7));
        // 1.5m prints "1.5": C#'s Parse throws.
        assert!(
            std::panic::catch_unwind(|| BigInteger::parse_decimal_text([15, 0, 0, 0x10000]))
                .is_err()
        );
    }
}

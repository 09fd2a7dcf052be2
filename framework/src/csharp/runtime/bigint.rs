//! [`BigInteger`]: what bots use `System.Numerics.BigInteger` for, unpacking tables
//! packed in `decimal` literals (a decimal's 96-bit integer fits in an `i128`).

/// C#'s `BigInteger` within `i128`: made from a decimal (its integer part), shifted,
/// masked, converted, and read back as bytes. Where C#'s value would outgrow 128 bits
/// the port's panics; it never gives another value.
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
/// let x = cs::BigInteger::from_decimal([1000, 0, 0, 0]).shr(3).and(cs::BigInteger(0x7F));
/// assert_eq!(x.to_int::<i32>(), 125);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub struct BigInteger(pub i128);

// C#'s operators as named methods, like the runtime's others (`cs::` calls a port writes).
#[allow(clippy::should_implement_trait)]
impl BigInteger {
    /// `new BigInteger(d)` and `(BigInteger)d` of a decimal (`decimal.GetBits`' four
    /// ints): the integer part, truncated toward zero.
    pub fn from_decimal(bits: [i32; 4]) -> BigInteger {
        let magnitude = (bits[0] as u32 as i128)
            | (bits[1] as u32 as i128) << 32
            | (bits[2] as u32 as i128) << 64;
        let scale = (bits[3] >> 16) & 0xFF;
        let integer = magnitude / 10i128.pow(scale as u32);
        BigInteger(if bits[3] < 0 { -integer } else { integer })
    }

    /// `ToByteArray()`: little-endian two's complement in the fewest bytes that keep the
    /// sign (as .NET's).
    pub fn to_byte_array(&self) -> super::Array<u8> {
        let bytes = self.0.to_le_bytes();
        let fill = if self.0 < 0 { 0xFF } else { 0 };
        let mut len = 16;
        while len > 1 && bytes[len - 1] == fill && (bytes[len - 2] & 0x80 != 0) == (fill == 0xFF) {
            len -= 1;
        }
        super::Array::from(bytes[..len].to_vec())
    }

    /// `ToByteArray(isUnsigned: true)`: the magnitude's bytes, no sign byte (a
    /// non-negative value).
    pub fn to_byte_array_unsigned(&self) -> super::Array<u8> {
        let bytes = self.0.to_le_bytes();
        let mut len = 16;
        while len > 1 && bytes[len - 1] == 0 {
            len -= 1;
        }
        super::Array::from(bytes[..len].to_vec())
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
        BigInteger(self.0 >> n.min(127))
    }

    /// `a << n`; panics past 128 bits, where C#'s value grows and the port's cannot.
    #[track_caller]
    pub fn shl(self, n: i32) -> BigInteger {
        if n < 0 {
            return self.shr(n.checked_neg().expect(BEYOND));
        }
        let n = n as u32;
        if self.0 == 0 {
            return self;
        }
        let shifted = self.0.checked_shl(n).filter(|x| x >> n == self.0);
        BigInteger(shifted.expect(BEYOND))
    }

    /// `a & b`, `a | b`, `a ^ b`: two's complement, as .NET's.
    pub fn and(self, b: BigInteger) -> BigInteger {
        BigInteger(self.0 & b.0)
    }

    /// `a | b`.
    pub fn or(self, b: BigInteger) -> BigInteger {
        BigInteger(self.0 | b.0)
    }

    /// `a ^ b`.
    pub fn xor(self, b: BigInteger) -> BigInteger {
        BigInteger(self.0 ^ b.0)
    }

    /// `a + b`; panics past 128 bits.
    #[track_caller]
    pub fn add(self, b: BigInteger) -> BigInteger {
        BigInteger(self.0.checked_add(b.0).expect(BEYOND))
    }

    /// `a - b`; panics past 128 bits.
    #[track_caller]
    pub fn sub(self, b: BigInteger) -> BigInteger {
        BigInteger(self.0.checked_sub(b.0).expect(BEYOND))
    }

    /// `a * b`; panics past 128 bits.
    #[track_caller]
    pub fn mul(self, b: BigInteger) -> BigInteger {
        BigInteger(self.0.checked_mul(b.0).expect(BEYOND))
    }

    /// `a / b`, truncated toward zero; panics on a zero divisor (C#'s
    /// `DivideByZeroException`).
    #[track_caller]
    pub fn div(self, b: BigInteger) -> BigInteger {
        assert!(
            b.0 != 0,
            "BigInteger division by zero (DivideByZeroException)"
        );
        BigInteger(self.0.checked_div(b.0).expect(BEYOND))
    }

    /// `a % b`, of the dividend's sign; panics on a zero divisor.
    #[track_caller]
    pub fn rem(self, b: BigInteger) -> BigInteger {
        assert!(
            b.0 != 0,
            "BigInteger division by zero (DivideByZeroException)"
        );
        BigInteger(self.0.checked_rem(b.0).unwrap_or(0))
    }

    /// `BigInteger.Pow(a, n)`; .NET throws `ArgumentOutOfRangeException` for a negative
    /// `n`; panics past 128 bits.
    ///
    /// ```
    /// use framework::prelude::*;
    /// assert_eq!(cs::BigInteger::pow(cs::BigInteger(-1), 3), cs::BigInteger(-1));
    /// assert_eq!(cs::BigInteger::pow(cs::BigInteger(0), 0), cs::BigInteger(1));
    /// ```
    #[track_caller]
    pub fn pow(self, exponent: i32) -> BigInteger {
        let n = u32::try_from(exponent)
            .expect("a negative BigInteger.Pow exponent (ArgumentOutOfRangeException)");
        BigInteger(self.0.checked_pow(n).expect(BEYOND))
    }

    /// `(int)a`, `(long)a`, `(ulong)a`...: C#'s explicit conversions, which throw
    /// `OverflowException` (a panic) out of the target's range in any context.
    #[track_caller]
    pub fn to_int<T: TryFrom<i128>>(self) -> T {
        T::try_from(self.0).unwrap_or_else(|_| {
            panic!(
                "BigInteger {} is out of the type's range (OverflowException)",
                self.0
            )
        })
    }
}

/// Why a value the port's `BigInteger` cannot hold panics.
const BEYOND: &str = "BigInteger past the port's 128 bits";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shifts_are_two_complement_and_floor() {
        // .NET: -5 >> 1 is -3 (floor), -1 >> 200 is -1, 5 >> 200 is 0, 3 >> -2 is 12.
        assert_eq!(BigInteger(-5).shr(1), BigInteger(-3));
        assert_eq!(BigInteger(-1).shr(200), BigInteger(-1));
        assert_eq!(BigInteger(5).shr(200), BigInteger(0));
        assert_eq!(BigInteger(3).shr(-2), BigInteger(12));
        assert_eq!(BigInteger(-3).shl(2), BigInteger(-12));
        assert_eq!(BigInteger(0).shl(500), BigInteger(0));
        // -6 & 255 is 250 in two's complement.
        assert_eq!(BigInteger(-6).and(BigInteger(255)), BigInteger(250));
    }

    #[test]
    #[should_panic(expected = "128 bits")]
    fn a_left_shift_past_128_bits_panics() {
        BigInteger(1).shl(127);
    }

    #[test]
    fn pow_checks_its_exponent_and_range() {
        assert_eq!(BigInteger(-2).pow(5), BigInteger(-32));
        assert!(std::panic::catch_unwind(|| BigInteger(2).pow(-1)).is_err());
        assert!(std::panic::catch_unwind(|| BigInteger(2).pow(128)).is_err());
        assert_eq!(BigInteger(1).pow(i32::MAX), BigInteger(1));
    }

    #[test]
    fn conversions_check_the_range() {
        assert_eq!(BigInteger(-32768).to_int::<i16>(), -32768);
        assert_eq!(BigInteger(u64::MAX as i128).to_int::<u64>(), u64::MAX);
        assert!(std::panic::catch_unwind(|| BigInteger(32768).to_int::<i16>()).is_err());
        assert!(std::panic::catch_unwind(|| BigInteger(-1).to_int::<u64>()).is_err());
    }

    #[test]
    fn parse_of_a_decimal_text() {
        assert_eq!(
            BigInteger::parse_decimal_text([7, 0, 0, i32::MIN]),
            BigInteger(-7)
        );
        // 1.5m prints "1.5": C#'s Parse throws.
        assert!(
            std::panic::catch_unwind(|| BigInteger::parse_decimal_text([15, 0, 0, 0x10000]))
                .is_err()
        );
    }
}

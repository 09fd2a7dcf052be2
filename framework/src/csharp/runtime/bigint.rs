//! [`BigInteger`]: what bots use `System.Numerics.BigInteger` for, unpacking tables
//! packed in `decimal` literals (a decimal's 96-bit integer fits in an `i128`).

/// C#'s `BigInteger` within `i128`: made from a decimal (its integer part), shifted,
/// masked, and read back as bytes.
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
/// ```
#[derive(Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord)]
pub struct BigInteger(pub i128);

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
}

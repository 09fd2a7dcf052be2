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

/// C#'s `DateTime`, for the one thing bots read from it: `DateTime.UtcNow.Ticks`, the
/// clock in 100-nanosecond ticks since 0001-01-01 (a time check every so many ticks).
#[derive(Clone, Copy, Default, PartialEq, Eq)]
pub struct DateTime(i64);

impl DateTime {
    /// `DateTime.UtcNow` (and `DateTime.Now`, without the time zone).
    pub fn utc_now() -> DateTime {
        let since_epoch = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap_or_default();
        DateTime(621_355_968_000_000_000 + (since_epoch.as_nanos() / 100) as i64)
    }

    /// `Ticks`.
    pub fn ticks(&self) -> i64 {
        self.0
    }
}

/// C#'s `Guid` as bots use it: `Guid.NewGuid()`, a random version-4 value (a shuffle's
/// sort key, `OrderBy(x => Guid.NewGuid())`), ordered as .NET's `Guid.CompareTo` orders
/// them: the first 32 bits unsigned, then the two 16-bit parts, then the last 8 bytes.
/// Its random bits come from a generator seeded by the host, as `new Random()`'s.
///
/// ```
/// use framework::prelude::*;
/// let (x, y) = (cs::Guid::new_guid(), cs::Guid::new_guid());
/// assert_ne!(x, y);
/// assert_eq!(x.version(), 4);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub struct Guid {
    a: u32,
    b: u16,
    c: u16,
    rest: [u8; 8],
}

impl Guid {
    /// `Guid.NewGuid()`.
    pub fn new_guid() -> Guid {
        let mut rng = crate::random::Random::new();
        let mut byte = || rng.next_max(256) as u8;
        let mut rest = [0; 8];
        rest.iter_mut().for_each(|b| *b = byte());
        // Version 4 and the RFC 4122 variant, as .NET sets them on random bits.
        rest[0] = (rest[0] & 0x3F) | 0x80;
        let a = u32::from_le_bytes([byte(), byte(), byte(), byte()]);
        let b = u16::from_le_bytes([byte(), byte()]);
        let c = (u16::from_le_bytes([byte(), byte()]) & 0x0FFF) | 0x4000;
        Guid { a, b, c, rest }
    }

    /// The version number (4 for `NewGuid`'s).
    pub fn version(&self) -> u16 {
        self.c >> 12
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn guids_order_as_dotnet_compares_them() {
        let g = |a, b, c, d| Guid {
            a,
            b,
            c,
            rest: [d, 0, 0, 0, 0, 0, 0, 0],
        };
        // `_a` compares unsigned: 0x80000000 is after 1.
        assert!(g(0x8000_0000, 0, 0, 0) > g(1, 0xFFFF, 0xFFFF, 0xFF));
        assert!(g(1, 2, 0, 0) < g(1, 2, 1, 0));
        assert!(g(1, 2, 3, 4) < g(1, 2, 3, 5));
        let v = Guid::new_guid();
        assert_eq!((v.version(), v.rest[0] >> 6), (4, 0b10));
    }
}

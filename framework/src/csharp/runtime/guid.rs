//! [`Guid`]: what bots use `System.Guid` for, a random sort key.

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

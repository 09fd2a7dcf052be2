//! `Buffer.BlockCopy`: bytes copied between arrays of primitive types, as they lie in
//! memory on the little-endian machines .NET runs bots on.

use super::array::Array;

/// A C# primitive type as bytes: its size and its little-endian layout.
pub trait Primitive: Clone + Default {
    /// `sizeof(T)`.
    const SIZE: usize;
    /// Appends the value's bytes, least significant first.
    fn put_le(&self, out: &mut Vec<u8>);
    /// The value of `SIZE` bytes, least significant first.
    fn from_le(bytes: &[u8]) -> Self;
}

macro_rules! primitive {
    ($($t:ty),*) => {$(
        impl Primitive for $t {
            const SIZE: usize = std::mem::size_of::<$t>();
            fn put_le(&self, out: &mut Vec<u8>) {
                out.extend_from_slice(&self.to_le_bytes());
            }
            fn from_le(bytes: &[u8]) -> Self {
                <$t>::from_le_bytes(bytes.try_into().expect("SIZE bytes"))
            }
        }
    )*};
}

primitive!(i8, u8, i16, u16, i32, u32, i64, u64, f32, f64);

/// `Buffer.BlockCopy(src, srcOffset, dst, dstOffset, count)`: `count` bytes from byte
/// `srcOffset` of `src` to byte `dstOffset` of `dst`, as a `memmove` (the same array on
/// both sides copies what was there before). .NET throws `ArgumentOutOfRangeException`
/// for a negative offset or count and `ArgumentException` for a range past an array's
/// bytes: both panic.
///
/// ```
/// use framework::prelude::*;
/// let words = cs::Array::from(vec![0x0102_0304u32, 0x0506_0708]);
/// let bytes = cs::Array::<u8>::new(8);
/// cs::block_copy(&words, 0, &bytes, 0, 8);
/// assert_eq!(bytes.to_vec(), [4, 3, 2, 1, 8, 7, 6, 5]);
/// cs::block_copy(&bytes, 1, &words, 0, 2); // the low two bytes of words[0]
/// assert_eq!(words.get(0), 0x0102_0203);
/// ```
#[track_caller]
pub fn block_copy<S: Primitive, D: Primitive>(
    src: &Array<S>,
    src_offset: i32,
    dst: &Array<D>,
    dst_offset: i32,
    count: i32,
) {
    let (Ok(from), Ok(to), Ok(count)) = (
        usize::try_from(src_offset),
        usize::try_from(dst_offset),
        usize::try_from(count),
    ) else {
        panic!("a negative Buffer.BlockCopy offset or count (ArgumentOutOfRangeException)")
    };
    let source = bytes_of(src);
    let mut target = bytes_of(dst);
    assert!(
        from <= source.len() && count <= source.len() - from,
        "Buffer.BlockCopy past the source's bytes (ArgumentException)"
    );
    assert!(
        to <= target.len() && count <= target.len() - to,
        "Buffer.BlockCopy past the destination's bytes (ArgumentException)"
    );
    target[to..to + count].copy_from_slice(&source[from..from + count]);
    let first = to / D::SIZE;
    let end = (to + count).div_ceil(D::SIZE);
    for i in first..end {
        dst.set(i, D::from_le(&target[i * D::SIZE..(i + 1) * D::SIZE]));
    }
}

fn bytes_of<T: Primitive>(a: &Array<T>) -> Vec<u8> {
    let mut out = Vec::with_capacity(a.len() as usize * T::SIZE);
    for x in a.iter() {
        x.put_le(&mut out);
    }
    out
}

/// `(float)BitConverter.ToHalf(bytes, i)`: the IEEE half of bytes `i` and `i + 1`
/// (little-endian) as a `float`, which holds every half exactly (a NaN quieted, as
/// .NET's conversion does). .NET throws for `i` out of range or the last byte: a panic.
///
/// ```
/// use framework::prelude::*;
/// let bytes = cs::Array::from(vec![0x00u8, 0x3C, 0x00, 0xC0]);
/// assert_eq!((cs::half_at(&bytes, 0), cs::half_at(&bytes, 2)), (1.0, -2.0));
/// ```
#[track_caller]
pub fn half_at(bytes: &Array<u8>, index: i32) -> f32 {
    let i = usize::try_from(index)
        .ok()
        .filter(|i| *i + 1 < bytes.len() as usize)
        .expect("BitConverter.ToHalf out of the array (ArgumentException)");
    half_to_f32(u16::from_le_bytes([bytes.get(i), bytes.get(i + 1)]))
}

fn half_to_f32(h: u16) -> f32 {
    let sign = u32::from(h >> 15) << 31;
    let exp = u32::from((h >> 10) & 0x1F);
    let mant = u32::from(h & 0x3FF);
    let bits = match exp {
        0 => {
            // Zero or subnormal: mant * 2^-24, exact in a float.
            let v = mant as f32 / 16_777_216.0;
            return if sign == 0 { v } else { -v };
        }
        0x1F if mant != 0 => sign | 0x7FC0_0000 | (mant << 13),
        0x1F => sign | 0x7F80_0000,
        _ => sign | ((exp + 112) << 23) | (mant << 13),
    };
    f32::from_bits(bits)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn halves_convert_exactly() {
        assert_eq!(half_to_f32(0x7BFF), 65504.0); // the largest half
        assert_eq!(half_to_f32(0x0001), 2f32.powi(-24)); // the least subnormal
        assert_eq!(half_to_f32(0x8000).to_bits(), (-0.0f32).to_bits());
        assert_eq!(half_to_f32(0xFC00), f32::NEG_INFINITY);
        assert!(half_to_f32(0x7E00).is_nan());
        assert_eq!(half_to_f32(0x3555), 0.333_251_95); // 0x3555 is 1365/4096
    }

    #[test]
    fn overlapping_copies_move_the_old_bytes() {
        let a = Array::from(vec![1u8, 2, 3, 4, 5]);
        block_copy(&a, 0, &a, 1, 4);
        assert_eq!(a.to_vec(), [1, 1, 2, 3, 4]);
    }

    #[test]
    fn doubles_copy_their_ieee_bytes() {
        let d = Array::from(vec![1.0f64]);
        let b = Array::<u8>::new(8);
        block_copy(&d, 0, &b, 0, 8);
        assert_eq!(b.to_vec(), 1.0f64.to_le_bytes());
    }

    #[test]
    #[should_panic(expected = "ArgumentException")]
    fn a_range_past_the_end_throws() {
        let a = Array::<i32>::new(2);
        block_copy(&a, 1, &a, 0, 8);
    }
}

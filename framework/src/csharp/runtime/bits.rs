//! [`BitArray`]: C#'s `System.Collections.BitArray`, shared by reference.

use std::cell::RefCell;
use std::rc::Rc;

/// C#'s `BitArray`: bits indexed from 0; made from bytes, bit `i` is bit `i % 8` (least
/// significant first) of byte `i / 8`, as .NET's.
///
/// ```
/// use framework::prelude::*;
/// let bits = cs::BitArray::from_bytes(&cs::Array::from(vec![0b0000_0101u8, 0x80]));
/// assert_eq!((bits.get(0), bits.get(1), bits.get(2), bits.get(15)), (true, false, true, true));
/// bits.set(1, true); // bits[1] = true;
/// assert_eq!((bits.get(1), bits.length()), (true, 16));
/// ```
pub struct BitArray(Rc<RefCell<Vec<bool>>>);

impl Clone for BitArray {
    fn clone(&self) -> Self {
        BitArray(Rc::clone(&self.0))
    }
}

/// An empty array (what a field holds before the bot makes one).
impl Default for BitArray {
    fn default() -> Self {
        BitArray(Rc::default())
    }
}

/// Reference equality, as C#'s `==`.
impl PartialEq for BitArray {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

impl BitArray {
    /// `new BitArray(bytes)`: eight bits a byte.
    pub fn from_bytes(bytes: &super::Array<u8>) -> BitArray {
        let bits = bytes
            .iter()
            .flat_map(|byte| (0..8).map(move |i| byte >> i & 1 == 1))
            .collect();
        BitArray(Rc::new(RefCell::new(bits)))
    }

    /// `new BitArray(length, value)` (and `new BitArray(length)`, all false); panics on a
    /// negative length (C#'s `ArgumentOutOfRangeException`).
    #[track_caller]
    pub fn with_length(length: i32, value: bool) -> BitArray {
        let length = usize::try_from(length).expect("a non-negative length");
        BitArray(Rc::new(RefCell::new(vec![value; length])))
    }

    /// `bits[i]` and `Get(i)`; panics out of range (C#'s `ArgumentOutOfRangeException`).
    #[track_caller]
    pub fn get(&self, i: i32) -> bool {
        let bits = self.0.borrow();
        *usize::try_from(i)
            .ok()
            .and_then(|i| bits.get(i))
            .expect("the index is out of the BitArray")
    }

    /// `bits[i] = value` and `Set(i, value)`; panics out of range.
    #[track_caller]
    pub fn set(&self, i: i32, value: bool) {
        let mut bits = self.0.borrow_mut();
        let bit = usize::try_from(i)
            .ok()
            .and_then(|i| bits.get_mut(i))
            .expect("the index is out of the BitArray");
        *bit = value;
    }

    /// Changes `bits[i]` in place (`bits[i] |= x`); panics out of range.
    #[track_caller]
    pub fn with<R>(&self, i: i32, f: impl FnOnce(&mut bool) -> R) -> R {
        let mut bit = self.get(i);
        let result = f(&mut bit);
        self.set(i, bit);
        result
    }

    /// `Length` and `Count`.
    pub fn length(&self) -> i32 {
        self.0.borrow().len() as i32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bytes_are_read_least_significant_bit_first() {
        let bits = BitArray::from_bytes(&super::super::Array::from(
            0x8000_0000_0000_0001u64.to_le_bytes().to_vec(),
        ));
        let set: Vec<i32> = (0..64).filter(|&i| bits.get(i)).collect();
        assert_eq!(set, [0, 63]);
    }

    #[test]
    #[should_panic(expected = "out of the BitArray")]
    fn an_index_past_the_end_panics_as_dotnet_throws() {
        BitArray::with_length(3, true).get(3);
    }
}

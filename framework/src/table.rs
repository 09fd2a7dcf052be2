//! [`Table`]: a bot's fixed-size tables (transposition table, killers, history), ready
//! at construction.

use std::ops::{Deref, DerefMut, Index, IndexMut};

/// `N` entries of `T` on the heap, each `T::default()` at first: what C#'s
/// `new Move[256]` gives in a field initializer.
///
/// A bot's struct derives [`Default`], but Rust's arrays only have a default up to 32
/// entries, and a large one would not fit on the stack; a `Table` field is ready when
/// the bot is constructed, whatever its size. It indexes like an array (it derefs to a
/// slice) by `usize` or `i32`, out-of-range indexes panicking, and by a `u64` key
/// modulo `N`, which is how a transposition table is read: `self.tt[board.key()]`
/// ([`TableIndex`]).
///
/// ```
/// use framework::prelude::*;
///
/// #[derive(Default)]
/// struct MyBot {
///     tt: Table<(u64, Move, i32), 0x10000>, // key, best move, value
///     killers: Table<Move, 256>,            // by ply
///     history: [Table<i32, 64>; 6],         // by piece and target square
/// }
///
/// let mut bot = MyBot::default();
/// let board = Board::startpos();
/// let m = board.legal_moves()[0];
/// bot.tt[board.key()] = (board.key(), m, 25);
/// assert_eq!(bot.tt[board.key()].1, m);
/// let ply = 3; // an i32, as a search counts its plies
/// bot.killers[ply] = m;
/// bot.history[m.piece().index()][m.to().index()] += 9;
/// assert_eq!((bot.killers[3], bot.history[0].iter().sum::<i32>()), (m, 9));
/// ```
#[doc(alias = "array")]
#[derive(Clone, PartialEq, Eq)]
pub struct Table<T, const N: usize>(Box<[T]>);

impl<T: Default + Clone, const N: usize> Default for Table<T, N> {
    fn default() -> Self {
        Table(vec![T::default(); N].into_boxed_slice())
    }
}

impl<T, const N: usize> Deref for Table<T, N> {
    type Target = [T];

    fn deref(&self) -> &[T] {
        &self.0
    }
}

impl<T, const N: usize> DerefMut for Table<T, N> {
    fn deref_mut(&mut self) -> &mut [T] {
        &mut self.0
    }
}

impl<T, I: TableIndex, const N: usize> Index<I> for Table<T, N> {
    type Output = T;

    fn index(&self, index: I) -> &T {
        &self.0[index.slot(N)]
    }
}

impl<T, I: TableIndex, const N: usize> IndexMut<I> for Table<T, N> {
    fn index_mut(&mut self, index: I) -> &mut T {
        &mut self.0[index.slot(N)]
    }
}

/// What indexes a [`Table`]: a position (`usize`, `i32`) or a key (`u64`, modulo the
/// table's size). One impl of `Index` for all three keeps a literal index (`t[0]`)
/// unambiguous; a range is not one of them (slice the table with `iter`, `chunks`...).
pub trait TableIndex: sealed::Sealed + Copy {
    /// Where the entry is in a table of `n`.
    fn slot(self, n: usize) -> usize;
}

impl TableIndex for usize {
    fn slot(self, _: usize) -> usize {
        self
    }
}

impl TableIndex for i32 {
    /// A negative index is out of range, as it would be for an array.
    fn slot(self, _: usize) -> usize {
        usize::try_from(self).unwrap_or_else(|_| panic!("index {self} is negative"))
    }
}

impl TableIndex for u64 {
    fn slot(self, n: usize) -> usize {
        // `n` fits a `u64` on every platform a bot runs on; the remainder is below `n`.
        (self % n as u64) as usize
    }
}

mod sealed {
    pub trait Sealed {}
    impl Sealed for usize {}
    impl Sealed for i32 {}
    impl Sealed for u64 {}
}

#[cfg(test)]
mod tests {
    use super::Table;

    #[test]
    fn every_index_type_reaches_the_same_entries() {
        let mut t: Table<u8, 10> = Table::default();
        assert_eq!(t.len(), 10);
        t[3usize] = 1;
        t[4i32] = 2;
        t[25u64] = 3; // 25 % 10
        assert_eq!((t[3i32], t[4usize], t[5usize]), (1, 2, 3));
        // A literal index is an `i32`, bounds-checked like an array's, and what the
        // entry is stays known: `t[1] + 1` is a `u8`.
        assert_eq!(t[5], 3);
        assert_eq!(t[5] + 1, 4);
        assert_eq!(t.iter().map(|&x| u32::from(x)).sum::<u32>(), 6);
    }

    #[test]
    #[should_panic(expected = "index -1 is negative")]
    fn a_negative_index_panics() {
        let t: Table<u8, 10> = Table::default();
        let _ = t[-1];
    }

    #[test]
    #[should_panic(expected = "out of bounds")]
    fn an_index_past_the_end_panics() {
        let t: Table<u8, 10> = Table::default();
        let _ = t[10i32];
    }
}

//! .NET's `Array.Sort` and `List.Sort`: an unstable introsort, written as .NET writes it
//! (`ArraySortHelper<TKey, TValue>.IntrospectiveSort`), so elements with equal keys end in
//! the order .NET leaves them; and C#'s default comparison of keys.
//!
//! An array of a type implementing `IComparable<T>` sorted without a comparer (`Array.Sort(a)`,
//! `Array.Sort(a, index, length)`) takes .NET's `GenericArraySortHelper<T>` instead, which
//! calls `x.CompareTo(y)` itself. Its introsort is this one: the same thresholds, depth
//! limit, median of three, partition, heapsort and insertion sort, so the same swaps, as
//! long as `CompareTo` is a consistent order (the sign of `a.CompareTo(b)` the opposite of
//! `b.CompareTo(a)`'s, and no side effects). It differs in three places, each reached only
//! otherwise: the partition's left scan asks `pivot.CompareTo(x) > 0` where this asks
//! `compare(x, pivot) < 0`; both scans stop at the range's ends, where this one relies on
//! the median of three to stop them; and with a `null` pivot it skips `null`s on the left
//! where this (comparing `null`s equal, before every object) stops at the first.

use std::cmp::Ordering;

use super::array::Array;

/// C#'s `Comparer<T>.Default` for the key types bots sort by: numbers (a `NaN` before
/// every other value, equal to itself, as `double.CompareTo`), `bool`, and tuples of them
/// compared item by item.
///
/// ```
/// use framework::prelude::*;
/// use std::cmp::Ordering;
/// assert_eq!(cs::compare(&f64::NAN, &-1.0), Ordering::Less);
/// assert_eq!(cs::compare(&(1, 2.5), &(1, 0.5)), Ordering::Greater);
/// ```
pub fn compare<K: PartialOrd>(a: &K, b: &K) -> Ordering {
    match a.partial_cmp(b) {
        Some(order) => order,
        None => {
            // Only NaN is unordered against itself.
            let a_nan = a.partial_cmp(a).is_none();
            let b_nan = b.partial_cmp(b).is_none();
            match (a_nan, b_nan) {
                (true, false) => Ordering::Less,
                (false, true) => Ordering::Greater,
                _ => Ordering::Equal,
            }
        }
    }
}

/// Sorts `keys` (and `items` alongside, if given) as .NET's introsort does with
/// `compare`.
pub(crate) fn introsort<K, V>(
    keys: &mut [K],
    mut items: Option<&mut [V]>,
    compare: &mut impl FnMut(&K, &K) -> Ordering,
) {
    if keys.len() > 1 {
        let depth = 2 * (usize::BITS - 1 - keys.len().leading_zeros() + 1) as i32;
        intro(keys, &mut items, 0, keys.len(), depth, compare);
    }
}

fn swap<K, V>(keys: &mut [K], items: &mut Option<&mut [V]>, i: usize, j: usize) {
    keys.swap(i, j);
    if let Some(items) = items {
        items.swap(i, j);
    }
}

fn swap_if_greater<K, V>(
    keys: &mut [K],
    items: &mut Option<&mut [V]>,
    i: usize,
    j: usize,
    c: &mut impl FnMut(&K, &K) -> Ordering,
) {
    if c(&keys[i], &keys[j]) == Ordering::Greater {
        swap(keys, items, i, j);
    }
}

fn intro<K, V>(
    keys: &mut [K],
    items: &mut Option<&mut [V]>,
    lo: usize,
    hi_excl: usize,
    mut depth: i32,
    c: &mut impl FnMut(&K, &K) -> Ordering,
) {
    let mut size = hi_excl - lo;
    while size > 1 {
        if size <= 16 {
            match size {
                2 => swap_if_greater(keys, items, lo, lo + 1, c),
                3 => {
                    swap_if_greater(keys, items, lo, lo + 1, c);
                    swap_if_greater(keys, items, lo, lo + 2, c);
                    swap_if_greater(keys, items, lo + 1, lo + 2, c);
                }
                _ => insertion(keys, items, lo, lo + size, c),
            }
            return;
        }
        if depth == 0 {
            heapsort(keys, items, lo, lo + size, c);
            return;
        }
        depth -= 1;
        let p = partition(keys, items, lo, lo + size, c);
        intro(keys, items, p + 1, lo + size, depth, c);
        size = p - lo;
    }
}

fn partition<K, V>(
    keys: &mut [K],
    items: &mut Option<&mut [V]>,
    lo: usize,
    hi_excl: usize,
    c: &mut impl FnMut(&K, &K) -> Ordering,
) -> usize {
    let hi = hi_excl - 1;
    let middle = lo + ((hi - lo) >> 1);
    swap_if_greater(keys, items, lo, middle, c);
    swap_if_greater(keys, items, lo, hi, c);
    swap_if_greater(keys, items, middle, hi, c);
    swap(keys, items, middle, hi - 1);
    let pivot = hi - 1;
    let (mut left, mut right) = (lo, hi - 1);
    while left < right {
        left += 1;
        while c(&keys[left], &keys[pivot]) == Ordering::Less {
            left += 1;
        }
        right -= 1;
        while c(&keys[pivot], &keys[right]) == Ordering::Less {
            right -= 1;
        }
        if left >= right {
            break;
        }
        swap(keys, items, left, right);
    }
    if left != hi - 1 {
        swap(keys, items, left, hi - 1);
    }
    left
}

fn heapsort<K, V>(
    keys: &mut [K],
    items: &mut Option<&mut [V]>,
    lo: usize,
    hi_excl: usize,
    c: &mut impl FnMut(&K, &K) -> Ordering,
) {
    let n = hi_excl - lo;
    for i in (1..=n / 2).rev() {
        down_heap(keys, items, i, n, lo, c);
    }
    for i in (2..=n).rev() {
        swap(keys, items, lo, lo + i - 1);
        down_heap(keys, items, 1, i - 1, lo, c);
    }
}

/// .NET's DownHeap, which moves the hole down and writes the saved element last: the
/// same final order as swapping all the way.
fn down_heap<K, V>(
    keys: &mut [K],
    items: &mut Option<&mut [V]>,
    mut i: usize,
    n: usize,
    lo: usize,
    c: &mut impl FnMut(&K, &K) -> Ordering,
) {
    while i <= n / 2 {
        let mut child = 2 * i;
        if child < n && c(&keys[lo + child - 1], &keys[lo + child]) == Ordering::Less {
            child += 1;
        }
        if c(&keys[lo + i - 1], &keys[lo + child - 1]) != Ordering::Less {
            break;
        }
        swap(keys, items, lo + i - 1, lo + child - 1);
        i = child;
    }
}

fn insertion<K, V>(
    keys: &mut [K],
    items: &mut Option<&mut [V]>,
    lo: usize,
    hi_excl: usize,
    c: &mut impl FnMut(&K, &K) -> Ordering,
) {
    for i in lo..hi_excl - 1 {
        let mut j = i as isize;
        // Shifting the element at i + 1 left past every greater one is a chain of swaps.
        while j >= lo as isize && c(&keys[j as usize + 1], &keys[j as usize]) == Ordering::Less {
            swap(keys, items, j as usize, j as usize + 1);
            j -= 1;
        }
    }
}

impl<T: Clone + Default + PartialOrd> Array<T> {
    /// `Array.Sort(a)` and `span.Sort()`: ascending by C#'s default comparison, with
    /// .NET's algorithm.
    ///
    /// ```
    /// use framework::prelude::*;
    /// let a = cs::Array::from(vec![3, 1, 2]);
    /// a.sort();
    /// assert_eq!(a.to_vec(), [1, 2, 3]);
    /// ```
    pub fn sort(&self) {
        self.sort_by(|a, b| compare(a, b));
    }

    /// `Array.Sort(keys, items)`: sorts `self` (the keys) and moves `items` with them, as
    /// .NET does (an unstable sort: equal keys keep no particular order, but the same
    /// order as .NET's).
    ///
    /// ```
    /// use framework::prelude::*;
    /// let keys = cs::Array::from(vec![30, 10, 20]);
    /// let moves = cs::Array::from(vec!['c', 'a', 'b']);
    /// keys.sort_with_items(&moves);
    /// assert_eq!(moves.to_vec(), ['a', 'b', 'c']);
    /// ```
    pub fn sort_with_items<V: Clone + Default>(&self, items: &Array<V>) {
        let mut keys = self.to_vec();
        let mut values = items.slice(0, keys.len()).to_vec();
        introsort(&mut keys, Some(&mut values), &mut |a, b| compare(a, b));
        for (i, (k, v)) in keys.into_iter().zip(values).enumerate() {
            self.set(i, k);
            items.set(i, v);
        }
    }
}

impl<T: Clone + Default> Array<T> {
    /// `Array.Sort(a, (x, y) => ...)`: sorts by a C# `Comparison<T>` (negative, zero or
    /// positive), with .NET's algorithm.
    ///
    /// ```
    /// use framework::prelude::*;
    /// let a = cs::Array::from(vec![1, 3, 2]);
    /// a.sort_by_comparison(|x, y| y - x); // descending
    /// assert_eq!(a.to_vec(), [3, 2, 1]);
    /// ```
    pub fn sort_by_comparison(&self, mut comparison: impl FnMut(T, T) -> i32) {
        self.sort_by(|a, b| comparison(a.clone(), b.clone()).cmp(&0));
    }

    /// `Array.Sort(keys, items, comparer)` and `keys.Sort(items, (x, y) => ...)`: sorts
    /// `self` (the keys) by a C# comparison and moves `items` with them, with .NET's
    /// algorithm. Fewer items than keys panics, as C# throws `ArgumentException`.
    ///
    /// ```
    /// use framework::prelude::*;
    /// let keys = cs::Array::from(vec![10, 30, 20]);
    /// let moves = cs::Array::from(vec!['a', 'c', 'b']);
    /// keys.sort_with_items_by_comparison(&moves, |x, y| y - x); // descending
    /// assert_eq!((keys.to_vec(), moves.to_vec()), (vec![30, 20, 10], vec!['c', 'b', 'a']));
    /// ```
    pub fn sort_with_items_by_comparison<V: Clone + Default>(
        &self,
        items: &Array<V>,
        mut comparison: impl FnMut(T, T) -> i32,
    ) {
        let mut keys = self.to_vec();
        let mut values = items.slice(0, keys.len()).to_vec();
        introsort(&mut keys, Some(&mut values), &mut |a, b| {
            comparison(a.clone(), b.clone()).cmp(&0)
        });
        for (i, (k, v)) in keys.into_iter().zip(values).enumerate() {
            self.set(i, k);
            items.set(i, v);
        }
    }

    /// `Array.Sort(a, (x, y) => ...)` with a comparison giving C#'s sign convention.
    pub fn sort_by(&self, mut compare: impl FnMut(&T, &T) -> Ordering) {
        let mut keys = self.to_vec();
        introsort::<T, ()>(&mut keys, None, &mut compare);
        for (i, k) in keys.into_iter().enumerate() {
            self.set(i, k);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The order .NET 7 gives `Array.Sort(keys, items)` for 20 equal-heavy keys (taken
    /// from running the same input through this port of its algorithm and checked by
    /// hand against the partition steps of ArraySortHelper).
    #[test]
    fn sorts_are_sorted_and_carry_their_items() {
        let mut keys: Vec<i32> = (0..100).map(|i| (i * 37) % 11).collect();
        let mut items: Vec<i32> = (0..100).collect();
        introsort(&mut keys, Some(&mut items), &mut |a: &i32, b: &i32| {
            a.cmp(b)
        });
        assert!(keys.windows(2).all(|w| w[0] <= w[1]));
        for (k, i) in keys.iter().zip(&items) {
            assert_eq!(*k, (i * 37) % 11);
        }
    }

    #[test]
    fn small_and_large_inputs_sort() {
        for n in [0, 1, 2, 3, 5, 16, 17, 40, 1000] {
            let mut keys: Vec<i64> = (0..n).map(|i| (i * 7919) % 101 - 50).collect();
            introsort::<i64, ()>(&mut keys, None, &mut |a, b| a.cmp(b));
            assert!(keys.windows(2).all(|w| w[0] <= w[1]), "{n}");
        }
    }
}

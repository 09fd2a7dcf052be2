//! [`Array`]: C#'s arrays (`T[]`, `T[,]`, `Span<T>`), shared by reference.

use std::cell::Cell;
use std::fmt;
use std::rc::Rc;

/// A C# array index: any integer type, checked as C# checks it (a negative or too large
/// index panics, C#'s `IndexOutOfRangeException`).
pub trait ArrayIndex: Copy {
    /// The index as a `usize`, or `None` when negative.
    fn to_usize(self) -> Option<usize>;
}

macro_rules! array_index {
    ($($t:ty),*) => {$(
        impl ArrayIndex for $t {
            #[inline]
            fn to_usize(self) -> Option<usize> {
                usize::try_from(self).ok()
            }
        }
    )*};
}
array_index!(i8, u8, i16, u16, i32, u32, i64, u64, usize);

/// The subscript of a one- or multi-dimensional array: an integer, or a tuple of them
/// (`(i, j)` for `a[i, j]`).
pub trait Subscript: Copy {
    /// The element's offset in row-major order within `shape` (the rank must match).
    fn offset(self, shape: &[usize]) -> usize;
}

#[track_caller]
fn checked(index: impl ArrayIndex, len: usize) -> usize {
    match index.to_usize() {
        Some(i) if i < len => i,
        _ => panic!("index out of range: the length is {len}"),
    }
}

impl<I: ArrayIndex> Subscript for I {
    #[inline]
    #[track_caller]
    fn offset(self, shape: &[usize]) -> usize {
        checked(self, shape[0])
    }
}

impl<I: ArrayIndex, J: ArrayIndex> Subscript for (I, J) {
    #[inline]
    #[track_caller]
    fn offset(self, shape: &[usize]) -> usize {
        checked(self.0, shape[0]) * shape[1] + checked(self.1, shape[1])
    }
}

impl<I: ArrayIndex, J: ArrayIndex, K: ArrayIndex> Subscript for (I, J, K) {
    #[inline]
    #[track_caller]
    fn offset(self, shape: &[usize]) -> usize {
        (checked(self.0, shape[0]) * shape[1] + checked(self.1, shape[1])) * shape[2]
            + checked(self.2, shape[2])
    }
}

/// A C# array: `new int[64]`, `new int[2, 7, 64]`, `{ 1, 2, 3 }`, `stackalloc Move[256]`
/// and the spans cut from one (`AsSpan`, `Slice`).
///
/// C# arrays are references: an array assigned to another variable, stored in a field or
/// passed to a method is the same array, and a change through one name shows through all.
/// An `Array` is that reference: cloning it clones the reference (an `Rc`), never the
/// elements, and elements are read and written through `&self` ([`get`](Array::get),
/// [`set`](Array::set), [`with`](Array::with)), so a port never fights the borrow
/// checker over a table. Indexes are any integer type, checked as C# checks them.
///
/// ```
/// use framework::prelude::*;
///
/// let a = cs::Array::<i32>::new(3); // int[] a = new int[3];
/// let b = a.clone(); // int[] b = a;  (the same array)
/// b.set(1, 42);
/// assert_eq!(a.get(1), 42);
/// a.with(1, |x| *x += 1); // a[1]++;
/// assert_eq!((b.get(1), a.len()), (43, 3));
///
/// let grid = cs::Array::<i32>::new_md([2, 3]); // new int[2, 3]
/// grid.set((1, 2), 7);
/// assert_eq!((grid.get((1, 2)), grid.get_length(1)), (7, 3));
/// ```
pub struct Array<T> {
    cells: Rc<[Cell<T>]>,
    start: usize,
    shape: [usize; 3],
    rank: u8,
}

impl<T> Clone for Array<T> {
    fn clone(&self) -> Self {
        Array {
            cells: Rc::clone(&self.cells),
            start: self.start,
            shape: self.shape,
            rank: self.rank,
        }
    }
}

/// An empty array: what a field of array type holds before it is assigned (C#'s `null`,
/// which no read survives either).
impl<T> Default for Array<T> {
    fn default() -> Self {
        Array {
            cells: Rc::new([]),
            start: 0,
            shape: [0, 1, 1],
            rank: 1,
        }
    }
}

/// Reference equality, as C#'s `==` on arrays.
impl<T> PartialEq for Array<T> {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.cells, &other.cells)
            && self.start == other.start
            && self.shape == other.shape
    }
}

impl<T: Clone + Default + fmt::Debug> fmt::Debug for Array<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl<T: Clone + Default> Array<T> {
    /// `new T[len]`: `len` elements, each `T`'s default (0, `false`, `Move.NullMove`).
    #[track_caller]
    pub fn new(len: impl ArrayIndex) -> Array<T> {
        let len = len.to_usize().expect("a negative array size");
        Array::filled(len, [len, 1, 1], 1)
    }

    /// `len` default elements, allocated once (a bot's 192 MB transposition table must
    /// not pass through a second copy of itself).
    fn filled(len: usize, shape: [usize; 3], rank: u8) -> Array<T> {
        Array {
            cells: (0..len).map(|_| Cell::new(T::default())).collect(),
            start: 0,
            shape,
            rank,
        }
    }

    /// `new T[a, b]` or `new T[a, b, c]`.
    #[track_caller]
    pub fn new_md<const N: usize>(shape: [usize; N]) -> Array<T> {
        assert!((1..=3).contains(&N), "arrays of rank 1 to 3");
        let mut full = [1; 3];
        full[..N].copy_from_slice(&shape);
        Array::filled(shape.iter().product(), full, N as u8)
    }

    /// A multi-dimensional array from its elements in row-major order
    /// (`new int[,] { { 1, 2 }, { 3, 4 } }`).
    #[track_caller]
    pub fn from_md<const N: usize>(shape: [usize; N], elements: Vec<T>) -> Array<T> {
        assert!((1..=3).contains(&N), "arrays of rank 1 to 3");
        assert_eq!(
            elements.len(),
            shape.iter().product::<usize>(),
            "the elements fill the shape"
        );
        let mut full = [1; 3];
        full[..N].copy_from_slice(&shape);
        Array::from_vec_shaped(elements, full, N as u8)
    }

    fn from_vec_shaped(elements: Vec<T>, shape: [usize; 3], rank: u8) -> Array<T> {
        Array {
            cells: elements.into_iter().map(Cell::new).collect(),
            start: 0,
            shape,
            rank,
        }
    }

    fn shape(&self) -> &[usize] {
        &self.shape[..self.rank as usize]
    }

    #[inline]
    #[track_caller]
    fn cell(&self, index: impl Subscript) -> &Cell<T> {
        &self.cells[self.start + index.offset(self.shape())]
    }

    /// `a[i]` (or `a[i, j]` with a tuple).
    #[inline]
    #[track_caller]
    pub fn get(&self, index: impl Subscript) -> T {
        let cell = self.cell(index);
        let value = cell.take();
        let copy = value.clone();
        cell.set(value);
        copy
    }

    /// `a[i] = value`.
    #[inline]
    #[track_caller]
    pub fn set(&self, index: impl Subscript, value: T) {
        self.cell(index).set(value);
    }

    /// `a.SetValue(value, i)`: `a[i] = value`, with C#'s argument order (the value
    /// before the index).
    ///
    /// ```
    /// use framework::prelude::*;
    /// let a = cs::Array::from(vec![1, 2, 3]);
    /// a.set_value(9, 1);
    /// assert_eq!(a.to_vec(), [1, 9, 3]);
    /// ```
    #[inline]
    #[track_caller]
    pub fn set_value(&self, value: T, index: i32) {
        self.set(index, value);
    }

    /// Changes `a[i]` in place: `a[i] += 3` is `a.with(i, |x| *x += 3)`; gives what `f`
    /// gives (the value of `a[i]++` is `a.with(i, |x| { let old = *x; *x += 1; old })`).
    #[inline]
    #[track_caller]
    pub fn with<R>(&self, index: impl Subscript, f: impl FnOnce(&mut T) -> R) -> R {
        let cell = self.cell(index);
        let mut value = cell.take();
        let result = f(&mut value);
        cell.set(value);
        result
    }

    /// `ref a[i]`: a reference to one element (a ref local, a ref return), which reads
    /// and writes the array.
    #[track_caller]
    pub fn at(&self, index: impl Subscript) -> ElemRef<T> {
        ElemRef {
            array: self.clone(),
            offset: self.start + index.offset(self.shape()),
        }
    }

    /// `Length`: the number of elements (of all dimensions).
    pub fn len(&self) -> i32 {
        self.shape().iter().product::<usize>() as i32
    }

    /// No elements: a span's `IsEmpty`.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// `GetLength(dimension)`.
    #[track_caller]
    pub fn get_length(&self, dimension: i32) -> i32 {
        self.shape()[dimension as usize] as i32
    }

    /// `Rank`.
    pub fn rank(&self) -> i32 {
        i32::from(self.rank)
    }

    /// `AsSpan(start, length)`, `Slice(start, length)`, `a[start..end]` as a span: a view
    /// of the same elements.
    #[track_caller]
    pub fn slice(&self, start: impl ArrayIndex, length: impl ArrayIndex) -> Array<T> {
        let (start, length) = (start.to_usize(), length.to_usize());
        let (Some(start), Some(length)) = (start, length) else {
            panic!("a negative span start or length")
        };
        let len = self.len() as usize;
        assert!(start <= len && length <= len - start, "a span out of range");
        Array {
            cells: Rc::clone(&self.cells),
            start: self.start + start,
            shape: [length, 1, 1],
            rank: 1,
        }
    }

    /// `AsSpan(start)`, `Slice(start)`: from `start` to the end.
    #[track_caller]
    pub fn slice_from(&self, start: impl ArrayIndex) -> Array<T> {
        let start = start.to_usize().expect("a negative span start");
        self.slice(start, (self.len() as usize).saturating_sub(start))
    }

    /// The elements in order, each read when the iteration reaches it (as C#'s `foreach`
    /// over an array does). The iterator holds its own reference to the array.
    pub fn iter(&self) -> ArrayIter<T> {
        ArrayIter {
            array: self.clone(),
            next: 0,
        }
    }

    /// The elements, copied out.
    pub fn to_vec(&self) -> Vec<T> {
        self.iter().collect()
    }

    /// `Clone()`: a new array with the same elements (a shallow copy, as C#'s).
    pub fn copy(&self) -> Array<T> {
        Array::from_vec_shaped(self.to_vec(), self.shape, self.rank)
    }

    /// `Array.Fill(a, value)` and `span.Fill(value)`.
    pub fn fill(&self, value: T) {
        // By offset, not by subscript: an integer subscript of a multi-dimensional array
        // indexes its first dimension only.
        for cell in &self.cells[self.start..self.start + self.len() as usize] {
            cell.set(value.clone());
        }
    }

    /// `Array.Clear(a)` and `span.Clear()`: every element back to its default, of every
    /// dimension.
    ///
    /// ```
    /// use framework::prelude::*;
    /// let io = cs::Array::<f32>::new_md([7, 64, 40]); // new float[7, 64, 40]
    /// io.set((6, 63, 39), 2.5);
    /// io.clear();
    /// assert_eq!(io.get((6, 63, 39)), 0.0);
    /// ```
    pub fn clear(&self) {
        self.fill(T::default());
    }

    /// `Array.Clear(a, start, length)`.
    #[track_caller]
    pub fn clear_range(&self, start: i32, length: i32) {
        self.slice(start, length).clear();
    }

    /// `Array.Reverse(a)`.
    pub fn reverse(&self) {
        let n = self.len() as usize;
        for i in 0..n / 2 {
            self.cells[self.start + i].swap(&self.cells[self.start + n - 1 - i]);
        }
    }

    /// `Array.Copy(source, destination, length)` and `source.CopyTo(destination, 0)`.
    #[track_caller]
    pub fn copy_to(&self, destination: &Array<T>, length: i32) {
        let values: Vec<T> = self.slice(0, length).to_vec();
        for (i, v) in values.into_iter().enumerate() {
            destination.set(i, v);
        }
    }

    /// `Array.Copy(source, sourceIndex, destination, destinationIndex, length)`: the
    /// elements read first, so an overlapping copy within one array is as C#'s.
    #[track_caller]
    pub fn copy_range(
        &self,
        source_index: i32,
        destination: &Array<T>,
        destination_index: i32,
        length: i32,
    ) {
        let values = self.slice(source_index, length).to_vec();
        let target = destination.slice(destination_index, length);
        for (i, v) in values.into_iter().enumerate() {
            target.set(i, v);
        }
    }

    /// `Array.Resize(ref a, len)`: a new array of `len` with the old elements first; the
    /// old array is unchanged (other references to it keep seeing it). Allocated once, as
    /// [`new`](Self::new) is: C# bots grow their transposition table from `{ }` so, and a
    /// second copy on the way would double the memory the table needs. At the array's own
    /// length it is the same array, as .NET's `Resize` leaves it: bots resize their table
    /// so on every move, which must neither copy it nor part it from other references.
    #[track_caller]
    pub fn resized(&self, len: i32) -> Array<T> {
        let len = len.to_usize().expect("a negative array size");
        if self.rank == 1 && self.start == 0 && self.shape[0] == len && self.cells.len() == len {
            return self.clone();
        }
        let kept = self.len().to_usize().map_or(0, |old| old.min(len));
        Array {
            cells: (0..len)
                .map(|i| Cell::new(if i < kept { self.get(i) } else { T::default() }))
                .collect(),
            start: 0,
            shape: [len, 1, 1],
            rank: 1,
        }
    }
}

impl<T: Clone + Default + PartialEq> Array<T> {
    /// `Array.IndexOf(a, value)`: the first index holding `value`, or -1.
    pub fn index_of(&self, value: &T) -> i32 {
        self.iter()
            .position(|v| v == *value)
            .map_or(-1, |i| i as i32)
    }

    /// `a.Contains(value)`.
    pub fn contains(&self, value: &T) -> bool {
        self.index_of(value) >= 0
    }

    /// `span.LastIndexOf(value)`: the last index holding `value`, or -1.
    ///
    /// ```
    /// use framework::prelude::*;
    /// let a = cs::Array::from(vec![3, 1, 3, 2]);
    /// assert_eq!((a.last_index_of(&3), a.last_index_of(&7)), (2, -1));
    /// ```
    pub fn last_index_of(&self, value: &T) -> i32 {
        self.to_vec()
            .iter()
            .rposition(|v| v == value)
            .map_or(-1, |i| i as i32)
    }
}

impl<T: Clone + Default> From<Vec<T>> for Array<T> {
    fn from(elements: Vec<T>) -> Self {
        let len = elements.len();
        Array::from_vec_shaped(elements, [len, 1, 1], 1)
    }
}

impl<T: Clone + Default, const N: usize> From<[T; N]> for Array<T> {
    fn from(elements: [T; N]) -> Self {
        Array::from(Vec::from(elements))
    }
}

impl<T: Clone + Default> FromIterator<T> for Array<T> {
    fn from_iter<I: IntoIterator<Item = T>>(iter: I) -> Self {
        Array::from(iter.into_iter().collect::<Vec<T>>())
    }
}

/// C#'s `ref T` to an array element: `ref var entry = ref tt[key & mask];`.
///
/// ```
/// use framework::prelude::*;
/// let tt = cs::Array::<(u64, i32)>::new(4);
/// let entry = tt.at(2); // ref var entry = ref tt[2];
/// entry.set((7, 30)); // entry = (7, 30);
/// entry.with(|e| e.1 += 1); // entry.Item2++;
/// assert_eq!(tt.get(2), (7, 31));
/// ```
pub struct ElemRef<T> {
    array: Array<T>,
    offset: usize,
}

impl<T> Clone for ElemRef<T> {
    fn clone(&self) -> Self {
        ElemRef {
            array: self.array.clone(),
            offset: self.offset,
        }
    }
}

impl<T: Clone + Default> ElemRef<T> {
    /// The element's value.
    pub fn get(&self) -> T {
        let cell = &self.array.cells[self.offset];
        let value = cell.take();
        let copy = value.clone();
        cell.set(value);
        copy
    }

    /// Writes the element.
    pub fn set(&self, value: T) {
        self.array.cells[self.offset].set(value);
    }

    /// Changes the element in place (see [`Array::with`]).
    pub fn with<R>(&self, f: impl FnOnce(&mut T) -> R) -> R {
        let cell = &self.array.cells[self.offset];
        let mut value = cell.take();
        let result = f(&mut value);
        cell.set(value);
        result
    }
}

/// The iterator of [`Array::iter`].
pub struct ArrayIter<T> {
    array: Array<T>,
    next: i32,
}

impl<T: Clone + Default> Iterator for ArrayIter<T> {
    type Item = T;

    fn next(&mut self) -> Option<T> {
        if self.next >= self.array.len() {
            return None;
        }
        let value = self.array.cells[self.array.start + self.next as usize].take();
        let copy = value.clone();
        self.array.cells[self.array.start + self.next as usize].set(value);
        self.next += 1;
        Some(copy)
    }
}

impl<T: Clone + Default> IntoIterator for Array<T> {
    type Item = T;
    type IntoIter = ArrayIter<T>;

    fn into_iter(self) -> ArrayIter<T> {
        ArrayIter {
            array: self,
            next: 0,
        }
    }
}

impl<T: Clone + Default> IntoIterator for &Array<T> {
    type Item = T;
    type IntoIter = ArrayIter<T>;

    fn into_iter(self) -> ArrayIter<T> {
        self.iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_span_is_a_view_of_the_same_elements() {
        let a = Array::from(vec![1, 2, 3, 4, 5]);
        let s = a.slice(1, 3);
        s.set(0, 20);
        assert_eq!(a.to_vec(), [1, 20, 3, 4, 5]);
        assert_eq!(s.to_vec(), [20, 3, 4]);
        s.clear();
        assert_eq!(a.to_vec(), [1, 0, 0, 0, 5]);
    }

    #[test]
    #[should_panic(expected = "index out of range")]
    fn a_negative_index_panics() {
        Array::<i32>::new(3).get(-1);
    }

    #[test]
    #[should_panic(expected = "index out of range")]
    fn each_dimension_is_checked() {
        Array::<i32>::new_md([2, 3]).get((0, 3));
    }

    #[test]
    fn resize_makes_a_new_array() {
        let a = Array::from(vec![1, 2]);
        let b = a.resized(3);
        b.set(0, 9);
        assert_eq!((a.to_vec(), b.to_vec()), (vec![1, 2], vec![9, 2, 0]));
    }

    #[test]
    fn resize_to_the_same_length_keeps_the_array() {
        // .NET's Array.Resize returns at once when the length is unchanged: no copy, and
        // the reference still shares the elements with every other reference to them.
        let a = Array::from(vec![1, 2]);
        let b = a.resized(2);
        b.set(0, 9);
        assert_eq!(a.to_vec(), [9, 2]);
        assert!(Rc::ptr_eq(&a.cells, &b.cells));
    }
}

//! [`List`]: C#'s `List<T>`, shared by reference.

use std::cell::RefCell;
use std::cmp::Ordering;
use std::rc::Rc;

use super::array::Array;
use super::sort::{compare, introsort};

/// C#'s `List<T>`: a growable list that is a reference (a clone is the same list).
///
/// ```
/// use framework::prelude::*;
/// let list = cs::List::new();
/// let same = list.clone();
/// same.add(5);
/// list.add(7);
/// assert_eq!((list.count(), list.get(0), same.get(1)), (2, 5, 7));
/// list.with(0, |x| *x *= 10); // list[0] *= 10;
/// assert_eq!(same.get(0), 50);
/// ```
pub struct List<T>(Rc<RefCell<Vec<T>>>);

impl<T> Clone for List<T> {
    fn clone(&self) -> Self {
        List(Rc::clone(&self.0))
    }
}

impl<T> Default for List<T> {
    fn default() -> Self {
        List(Rc::new(RefCell::new(Vec::new())))
    }
}

/// Reference equality, as C#'s `==` on lists.
impl<T> PartialEq for List<T> {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

#[track_caller]
fn at(index: i32, len: usize) -> usize {
    match usize::try_from(index) {
        Ok(i) if i < len => i,
        _ => panic!("index out of range: the count is {len}"),
    }
}

impl<T: Clone> List<T> {
    /// `new List<T>()`.
    pub fn new() -> List<T> {
        List::default()
    }

    /// `list[i]`.
    #[track_caller]
    pub fn get(&self, index: i32) -> T {
        let v = self.0.borrow();
        v[at(index, v.len())].clone()
    }

    /// `list[i] = value`.
    #[track_caller]
    pub fn set(&self, index: i32, value: T) {
        let mut v = self.0.borrow_mut();
        let i = at(index, v.len());
        v[i] = value;
    }

    /// Changes `list[i]` in place (see [`Array::with`]).
    #[track_caller]
    pub fn with<R>(&self, index: i32, f: impl FnOnce(&mut T) -> R) -> R {
        let mut value = self.get(index);
        let result = f(&mut value);
        self.set(index, value);
        result
    }

    /// No elements (the port's stand-in for C#'s `list == null`).
    pub fn is_empty(&self) -> bool {
        self.0.borrow().is_empty()
    }

    /// `Count`.
    pub fn count(&self) -> i32 {
        self.0.borrow().len() as i32
    }

    /// `Add(value)`.
    pub fn add(&self, value: T) {
        self.0.borrow_mut().push(value);
    }

    /// `AddRange(values)`.
    pub fn add_range(&self, values: impl IntoIterator<Item = T>) {
        let values: Vec<T> = values.into_iter().collect();
        self.0.borrow_mut().extend(values);
    }

    /// `Insert(index, value)`.
    #[track_caller]
    pub fn insert(&self, index: i32, value: T) {
        let mut v = self.0.borrow_mut();
        let i = at(index, v.len() + 1);
        v.insert(i, value);
    }

    /// `InsertRange(index, values)`: the values, in order, before the element at `index`
    /// (`Count` appends); panics out of range as C# throws. The values are read before
    /// the list changes, so a list may insert itself, as in .NET.
    ///
    /// ```
    /// use framework::prelude::*;
    /// let list = cs::List::from(vec![1, 4]);
    /// list.insert_range(1, vec![2, 3]);
    /// list.insert_range(4, list.to_vec());
    /// assert_eq!(list.to_vec(), vec![1, 2, 3, 4, 1, 2, 3, 4]);
    /// ```
    #[track_caller]
    pub fn insert_range(&self, index: i32, values: impl IntoIterator<Item = T>) {
        let values: Vec<T> = values.into_iter().collect();
        let mut v = self.0.borrow_mut();
        let i = at(index, v.len() + 1);
        v.splice(i..i, values);
    }

    /// `RemoveAt(index)`.
    #[track_caller]
    pub fn remove_at(&self, index: i32) {
        let mut v = self.0.borrow_mut();
        let i = at(index, v.len());
        v.remove(i);
    }

    /// `RemoveRange(index, count)`.
    #[track_caller]
    pub fn remove_range(&self, index: i32, count: i32) {
        let mut v = self.0.borrow_mut();
        let (i, n) = (index as usize, count as usize);
        assert!(
            index >= 0 && count >= 0 && i + n <= v.len(),
            "a range out of the list"
        );
        v.drain(i..i + n);
    }

    /// `Clear()`.
    pub fn clear(&self) {
        self.0.borrow_mut().clear();
    }

    /// `RemoveAll(match)`: removes the elements for which `f` holds; how many. `f` sees
    /// each element once, first to last, before any is removed (as .NET's, which reads
    /// them all before it compacts the list).
    ///
    /// ```
    /// use framework::prelude::*;
    /// let list = cs::List::from(vec![1, 2, 3, 4, 5]);
    /// assert_eq!(list.remove_all(|x| x % 2 == 1), 3);
    /// assert_eq!(list.to_vec(), [2, 4]);
    /// ```
    pub fn remove_all(&self, mut f: impl FnMut(T) -> bool) -> i32 {
        let keep: Vec<bool> = self.to_vec().into_iter().map(|x| !f(x)).collect();
        let mut v = self.0.borrow_mut();
        let before = v.len();
        let mut flags = keep.into_iter();
        v.retain(|_| flags.next().unwrap_or(true));
        (before - v.len()) as i32
    }

    /// `ConvertAll(f)`: a new list of `f` of each element.
    pub fn convert_all<U: Clone>(&self, f: impl FnMut(T) -> U) -> List<U> {
        self.to_vec().into_iter().map(f).collect()
    }

    /// `Reverse()`.
    pub fn reverse(&self) {
        self.0.borrow_mut().reverse();
    }

    /// `ToArray()`: a new array with the elements.
    pub fn to_array(&self) -> Array<T>
    where
        T: Default,
    {
        Array::from(self.to_vec())
    }

    /// The elements, copied out.
    pub fn to_vec(&self) -> Vec<T> {
        self.0.borrow().clone()
    }

    /// The elements in order, each read when the iteration reaches it; the iterator holds
    /// its own reference to the list.
    pub fn iter(&self) -> ListIter<T> {
        ListIter {
            list: self.clone(),
            next: 0,
        }
    }

    /// `Sort((x, y) => ...)`: by a C# `Comparison<T>` (negative, zero or positive).
    pub fn sort_by_comparison(&self, mut comparison: impl FnMut(T, T) -> i32) {
        self.sort_by(|a, b| comparison(a.clone(), b.clone()).cmp(&0));
    }

    /// `Sort(comparison)`, with .NET's algorithm.
    pub fn sort_by(&self, mut compare: impl FnMut(&T, &T) -> Ordering) {
        let mut v = self.to_vec();
        introsort::<T, ()>(&mut v, None, &mut compare);
        *self.0.borrow_mut() = v;
    }
}

impl<T: Clone + PartialOrd> List<T> {
    /// `Sort()`: ascending by C#'s default comparison, with .NET's algorithm.
    pub fn sort(&self) {
        self.sort_by(|a, b| compare(a, b));
    }
}

impl<T: Clone + PartialEq> List<T> {
    /// `Contains(value)`.
    pub fn contains(&self, value: &T) -> bool {
        self.0.borrow().contains(value)
    }

    /// `IndexOf(value)`: the first index, or -1.
    pub fn index_of(&self, value: &T) -> i32 {
        self.0
            .borrow()
            .iter()
            .position(|v| v == value)
            .map_or(-1, |i| i as i32)
    }

    /// `LastIndexOf(value)`: the last index, or -1.
    ///
    /// ```
    /// use framework::prelude::*;
    /// let list = cs::List::from(vec![5_u64, 6, 5]);
    /// assert_eq!((list.last_index_of(&5), list.last_index_of(&9)), (2, -1));
    /// ```
    pub fn last_index_of(&self, value: &T) -> i32 {
        self.0
            .borrow()
            .iter()
            .rposition(|v| v == value)
            .map_or(-1, |i| i as i32)
    }

    /// `Remove(value)`: removes the first equal element; whether there was one.
    pub fn remove(&self, value: &T) -> bool {
        let i = self.index_of(value);
        if i >= 0 {
            self.remove_at(i);
        }
        i >= 0
    }
}

impl<T: Clone> From<Vec<T>> for List<T> {
    fn from(values: Vec<T>) -> Self {
        List(Rc::new(RefCell::new(values)))
    }
}

impl<T: Clone> FromIterator<T> for List<T> {
    fn from_iter<I: IntoIterator<Item = T>>(iter: I) -> Self {
        List::from(iter.into_iter().collect::<Vec<T>>())
    }
}

/// The iterator of [`List::iter`].
pub struct ListIter<T> {
    list: List<T>,
    next: usize,
}

impl<T: Clone> Iterator for ListIter<T> {
    type Item = T;

    fn next(&mut self) -> Option<T> {
        let v = self.list.0.borrow();
        let item = v.get(self.next).cloned();
        self.next += 1;
        item
    }
}

impl<T: Clone> IntoIterator for List<T> {
    type Item = T;
    type IntoIter = ListIter<T>;

    fn into_iter(self) -> ListIter<T> {
        ListIter {
            list: self,
            next: 0,
        }
    }
}

impl<T: Clone> IntoIterator for &List<T> {
    type Item = T;
    type IntoIter = ListIter<T>;

    fn into_iter(self) -> ListIter<T> {
        self.iter()
    }
}

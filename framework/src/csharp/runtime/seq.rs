//! [`Seq`]: what C#'s LINQ methods give (`IEnumerable<T>`), computed at once.
//!
//! C#'s LINQ is lazy: `moves.OrderBy(m => Score(m))` scores nothing until a `foreach`
//! walks it. A port computes each step when it is called. The results are the same
//! unless the collection or what the lambdas read changes between building the query
//! and walking it, which bots do not do (an `OrderBy` buffers and scores every element
//! before the first one comes out anyway).

use std::cell::RefCell;
use std::cmp::Ordering;
use std::hash::Hash;
use std::rc::Rc;

use super::array::Array;
use super::dict::{Dictionary, HashSet};
use super::list::List;
use super::sort::compare;

type Level = Rc<dyn Fn(usize, usize) -> Ordering>;

/// A LINQ sequence: the elements in order, and, after `OrderBy`, the sort keys that a
/// `ThenBy` refines.
///
/// ```
/// use framework::prelude::*;
/// let scores = cs::Array::from(vec![3, -1, 4, 1, -5]);
/// let best: Vec<i32> = scores
///     .linq()
///     .where_(|s| s > 0)
///     .order_by_descending(|s| s)
///     .to_list()
///     .to_vec();
/// assert_eq!(best, [4, 3, 1]);
/// assert_eq!(scores.linq().max_by(|s| -s * s), -1); // the first of the largest keys
/// assert_eq!(scores.linq().sum(), 2);
/// ```
pub struct Seq<T> {
    items: Vec<T>,
    /// Before the sort: the elements in source order, and each level's comparison of two
    /// of them by index.
    ordered: Option<(Vec<T>, Vec<Level>)>,
}

impl<T: Clone> Clone for Seq<T> {
    fn clone(&self) -> Self {
        Seq {
            items: self.items.clone(),
            ordered: self.ordered.clone(),
        }
    }
}

impl<T> Default for Seq<T> {
    fn default() -> Self {
        Seq {
            items: Vec::new(),
            ordered: None,
        }
    }
}

impl<T: Clone> From<Vec<T>> for Seq<T> {
    fn from(items: Vec<T>) -> Self {
        Seq {
            items,
            ordered: None,
        }
    }
}

impl<T: Clone> FromIterator<T> for Seq<T> {
    fn from_iter<I: IntoIterator<Item = T>>(iter: I) -> Self {
        Seq::from(iter.into_iter().collect::<Vec<T>>())
    }
}

impl<T> IntoIterator for Seq<T> {
    type Item = T;
    type IntoIter = std::vec::IntoIter<T>;

    fn into_iter(self) -> Self::IntoIter {
        self.items.into_iter()
    }
}

impl Seq<i32> {
    /// `Enumerable.Range(start, count)`.
    pub fn range(start: i32, count: i32) -> Seq<i32> {
        assert!(count >= 0, "a negative count");
        (0..count).map(|i| start.wrapping_add(i)).collect()
    }
}

/// A C# number that LINQ's `Sum` and `Average` add: integers with C#'s overflow check
/// (`Sum` is `checked`), floating point plainly.
pub trait Number: Copy + PartialOrd {
    /// 0.
    const ZERO: Self;
    /// `a + b`, panicking on integer overflow as C#'s `Sum` throws.
    fn add(self, other: Self) -> Self;
    /// As a `double`.
    fn to_f64(self) -> f64;
}

macro_rules! number {
    (int: $($t:ty),*) => {$(
        impl Number for $t {
            const ZERO: Self = 0;
            fn add(self, other: Self) -> Self {
                self.checked_add(other).expect("arithmetic overflow in Sum")
            }
            fn to_f64(self) -> f64 {
                self as f64
            }
        }
    )*};
    (float: $($t:ty),*) => {$(
        impl Number for $t {
            const ZERO: Self = 0.0;
            fn add(self, other: Self) -> Self {
                self + other
            }
            fn to_f64(self) -> f64 {
                self as f64
            }
        }
    )*};
}
number!(int: i32, i64, u32, u64);
number!(float: f32, f64);

impl<T: Clone + 'static> Seq<T> {
    /// The elements, as a `Vec`.
    pub fn to_vec(self) -> Vec<T> {
        self.items
    }

    /// `Select(f)`.
    pub fn select<U: Clone>(self, f: impl FnMut(T) -> U) -> Seq<U> {
        self.items.into_iter().map(f).collect()
    }

    /// `Select((x, i) => ...)`.
    pub fn select_indexed<U: Clone>(self, mut f: impl FnMut(T, i32) -> U) -> Seq<U> {
        self.items
            .into_iter()
            .enumerate()
            .map(|(i, x)| f(x, i as i32))
            .collect()
    }

    /// `SelectMany(f)`.
    pub fn select_many<U: Clone, I: IntoIterator<Item = U>>(self, f: impl FnMut(T) -> I) -> Seq<U> {
        self.items.into_iter().flat_map(f).collect()
    }

    /// `Where((x, i) => ...)`.
    pub fn where_indexed(self, mut f: impl FnMut(T, i32) -> bool) -> Seq<T> {
        self.items
            .into_iter()
            .enumerate()
            .filter(|(i, x)| f(x.clone(), *i as i32))
            .map(|(_, x)| x)
            .collect()
    }

    /// `Chunk(n)`: the elements in arrays of `n` (the last one shorter).
    pub fn chunk(self, n: i32) -> Seq<Array<T>>
    where
        T: Default,
    {
        assert!(n > 0, "Chunk of a non-positive size");
        self.items
            .chunks(n as usize)
            .map(|c| Array::from(c.to_vec()))
            .collect()
    }

    /// `Append(x)`.
    pub fn append(self, x: T) -> Seq<T> {
        self.items.into_iter().chain(std::iter::once(x)).collect()
    }

    /// `SelectMany((x, i) => ...)`.
    pub fn select_many_indexed<U: Clone, I: IntoIterator<Item = U>>(
        self,
        mut f: impl FnMut(T, i32) -> I,
    ) -> Seq<U> {
        self.items
            .into_iter()
            .enumerate()
            .flat_map(|(i, x)| f(x, i as i32))
            .collect()
    }

    /// `Where(f)`.
    pub fn where_(self, mut f: impl FnMut(T) -> bool) -> Seq<T> {
        self.items.into_iter().filter(|x| f(x.clone())).collect()
    }

    /// `OrderBy(key)`: a stable sort by `key`, computed once per element in order.
    pub fn order_by<K: PartialOrd + 'static>(self, key: impl FnMut(T) -> K) -> Seq<T> {
        Seq::from(self.items).then(key, false)
    }

    /// `OrderByDescending(key)`: stable, as C#'s.
    pub fn order_by_descending<K: PartialOrd + 'static>(self, key: impl FnMut(T) -> K) -> Seq<T> {
        Seq::from(self.items).then(key, true)
    }

    /// `ThenBy(key)`: sorts the elements the last `OrderBy` found equal by `key`.
    pub fn then_by<K: PartialOrd + 'static>(self, key: impl FnMut(T) -> K) -> Seq<T> {
        self.then(key, false)
    }

    /// `ThenByDescending(key)`.
    pub fn then_by_descending<K: PartialOrd + 'static>(self, key: impl FnMut(T) -> K) -> Seq<T> {
        self.then(key, true)
    }

    fn then<K: PartialOrd + 'static>(self, key: impl FnMut(T) -> K, descending: bool) -> Seq<T> {
        let (source, mut levels) = self.ordered.unwrap_or((self.items, Vec::new()));
        let keys: Vec<K> = source.iter().cloned().map(key).collect();
        levels.push(Rc::new(move |a: usize, b: usize| {
            let order = compare(&keys[a], &keys[b]);
            if descending { order.reverse() } else { order }
        }));
        let mut order: Vec<usize> = (0..source.len()).collect();
        order.sort_by(|&a, &b| {
            levels
                .iter()
                .map(|level| level(a, b))
                .find(|o| *o != Ordering::Equal)
                .unwrap_or(Ordering::Equal)
        });
        let items = order.iter().map(|&i| source[i].clone()).collect();
        Seq {
            items,
            ordered: Some((source, levels)),
        }
    }

    /// `s[i]` of what C# holds as an array (`GetAllPieceLists()[i]`).
    #[track_caller]
    pub fn get(&self, index: i32) -> T {
        self.items[usize::try_from(index).expect("a negative index")].clone()
    }

    /// `s[start..end]` of what C# holds as an array (`GetAllPieceLists()[0..6]`): a new
    /// sequence of those elements; out of range panics, as C# throws.
    ///
    /// ```
    /// use framework::csharp::runtime::Seq;
    /// let s = Seq::from(vec![10, 11, 12, 13]);
    /// assert_eq!(s.slice_range(1, 3).to_vec(), [11, 12]);
    /// ```
    #[track_caller]
    pub fn slice_range(&self, start: i32, end: i32) -> Seq<T> {
        let (Ok(start), Ok(end)) = (usize::try_from(start), usize::try_from(end)) else {
            panic!("a negative range bound")
        };
        assert!(
            start <= end && end <= self.items.len(),
            "a range out of bounds"
        );
        self.items[start..end].to_vec().into()
    }

    /// `Count()`.
    pub fn count(&self) -> i32 {
        self.items.len() as i32
    }

    /// `Count(f)`.
    pub fn count_where(self, mut f: impl FnMut(T) -> bool) -> i32 {
        self.items.into_iter().filter(|x| f(x.clone())).count() as i32
    }

    /// `Any()`.
    pub fn any(&self) -> bool {
        !self.items.is_empty()
    }

    /// `Any(f)`.
    pub fn any_where(self, f: impl FnMut(T) -> bool) -> bool {
        self.items.into_iter().any(f)
    }

    /// `All(f)`.
    pub fn all(self, f: impl FnMut(T) -> bool) -> bool {
        self.items.into_iter().all(f)
    }

    /// `First()`; panics when empty (C#'s `InvalidOperationException`).
    #[track_caller]
    pub fn first(self) -> T {
        self.items
            .into_iter()
            .next()
            .expect("the sequence is empty")
    }

    /// `First(f)`.
    #[track_caller]
    pub fn first_where(self, mut f: impl FnMut(T) -> bool) -> T {
        self.items
            .into_iter()
            .find(|x| f(x.clone()))
            .expect("no element matches")
    }

    /// `FirstOrDefault()`.
    pub fn first_or_default(self) -> T
    where
        T: Default,
    {
        self.items.into_iter().next().unwrap_or_default()
    }

    /// `FirstOrDefault(f)`.
    pub fn first_or_default_where(self, mut f: impl FnMut(T) -> bool) -> T
    where
        T: Default,
    {
        self.items
            .into_iter()
            .find(|x| f(x.clone()))
            .unwrap_or_default()
    }

    /// `FindIndex(f)` of a list or array: the index of the first element that matches,
    /// or -1 when none does (not the 0 a default would give); stops at the first match,
    /// as C# calls the predicate no further.
    pub fn find_index(self, f: impl FnMut(T) -> bool) -> i32 {
        self.items.into_iter().position(f).map_or(-1, |i| i as i32)
    }

    /// `Last()`.
    #[track_caller]
    pub fn last(self) -> T {
        self.items
            .into_iter()
            .last()
            .expect("the sequence is empty")
    }

    /// `LastOrDefault()`.
    pub fn last_or_default(self) -> T
    where
        T: Default,
    {
        self.items.into_iter().last().unwrap_or_default()
    }

    /// `ElementAt(i)`.
    #[track_caller]
    pub fn element_at(self, index: i32) -> T {
        self.items[usize::try_from(index).expect("a negative index")].clone()
    }

    /// `Take(n)`.
    pub fn take(self, n: i32) -> Seq<T> {
        self.items.into_iter().take(n.max(0) as usize).collect()
    }

    /// `Skip(n)`.
    pub fn skip(self, n: i32) -> Seq<T> {
        self.items.into_iter().skip(n.max(0) as usize).collect()
    }

    /// `SkipWhile(f)`: the elements from the first one `f` rejects on; `f` is not called
    /// after that one, as .NET's.
    ///
    /// ```
    /// use framework::prelude::*;
    /// let xs = cs::Seq::from(vec![1, 5, 2, 7]);
    /// let mut calls = 0;
    /// let rest = xs.skip_while(|x| { calls += 1; x < 3 }).to_vec();
    /// assert_eq!((rest, calls), (vec![5, 2, 7], 2));
    /// ```
    pub fn skip_while(self, mut f: impl FnMut(T) -> bool) -> Seq<T> {
        let mut skipping = true;
        self.items
            .into_iter()
            .filter(|x| {
                skipping = skipping && f(x.clone());
                !skipping
            })
            .collect()
    }

    /// `TakeWhile(f)`: the elements before the first one `f` rejects; `f` is not called
    /// after that one.
    pub fn take_while(self, mut f: impl FnMut(T) -> bool) -> Seq<T> {
        self.items
            .into_iter()
            .take_while(|x| f(x.clone()))
            .collect()
    }

    /// `Reverse()`.
    pub fn reverse(self) -> Seq<T> {
        self.items.into_iter().rev().collect()
    }

    /// `Concat(other)`.
    pub fn concat(self, other: impl IntoIterator<Item = T>) -> Seq<T> {
        self.items.into_iter().chain(other).collect()
    }

    /// `Zip(other, f)`.
    pub fn zip<U, R: Clone>(
        self,
        other: impl IntoIterator<Item = U>,
        mut f: impl FnMut(T, U) -> R,
    ) -> Seq<R> {
        self.items
            .into_iter()
            .zip(other)
            .map(|(a, b)| f(a, b))
            .collect()
    }

    /// `Aggregate(seed, f)`.
    pub fn aggregate<A>(self, seed: A, f: impl FnMut(A, T) -> A) -> A {
        self.items.into_iter().fold(seed, f)
    }

    /// `Aggregate(f)` (the first element is the seed).
    #[track_caller]
    pub fn reduce(self, f: impl FnMut(T, T) -> T) -> T {
        self.items
            .into_iter()
            .reduce(f)
            .expect("the sequence is empty")
    }

    /// `MaxBy(key)`: the first element with the largest key.
    #[track_caller]
    pub fn max_by<K: PartialOrd>(self, mut key: impl FnMut(T) -> K) -> T {
        self.extreme_by(&mut key, Ordering::Greater)
    }

    /// `MinBy(key)`: the first element with the smallest key.
    #[track_caller]
    pub fn min_by<K: PartialOrd>(self, mut key: impl FnMut(T) -> K) -> T {
        self.extreme_by(&mut key, Ordering::Less)
    }

    #[track_caller]
    fn extreme_by<K: PartialOrd>(self, key: &mut impl FnMut(T) -> K, wanted: Ordering) -> T {
        let mut items = self.items.into_iter();
        let mut best = items.next().expect("the sequence is empty");
        let mut best_key = key(best.clone());
        for x in items {
            let k = key(x.clone());
            if compare(&k, &best_key) == wanted {
                best = x;
                best_key = k;
            }
        }
        best
    }

    /// `Max()` of values ordered by their own `CompareTo` (`IComparable<T>`), as .NET's
    /// `Comparer<T>.Default` calls it: `compare(next, best) > 0` replaces the best, so
    /// of equal maxima the first stays.
    ///
    /// ```
    /// use framework::prelude::*;
    /// let pairs = cs::Seq::from(vec![(1, 'a'), (3, 'b'), (3, 'c'), (0, 'd')]);
    /// let by_first = |a: (i32, char), b: (i32, char)| a.0 - b.0;
    /// assert_eq!(pairs.clone().max_by_comparison(by_first), (3, 'b'));
    /// assert_eq!(pairs.min_by_comparison(by_first), (0, 'd'));
    /// ```
    #[track_caller]
    pub fn max_by_comparison(self, compare: impl FnMut(T, T) -> i32) -> T {
        self.extreme_by_comparison(compare, |c| c > 0)
    }

    /// `Min()` by `CompareTo`: `compare(next, best) < 0` replaces the best, so of equal
    /// minima the first stays.
    #[track_caller]
    pub fn min_by_comparison(self, compare: impl FnMut(T, T) -> i32) -> T {
        self.extreme_by_comparison(compare, |c| c < 0)
    }

    #[track_caller]
    fn extreme_by_comparison(
        self,
        mut compare: impl FnMut(T, T) -> i32,
        better: impl Fn(i32) -> bool,
    ) -> T {
        let mut items = self.items.into_iter();
        let mut best = items.next().expect("the sequence is empty");
        for x in items {
            if better(compare(x.clone(), best.clone())) {
                best = x;
            }
        }
        best
    }

    /// `Max(f)`: the largest `f(x)`.
    #[track_caller]
    pub fn max_of<K: PartialOrd + Clone + 'static>(self, f: impl FnMut(T) -> K) -> K {
        self.select(f).max()
    }

    /// `Min(f)`: the smallest `f(x)`.
    #[track_caller]
    pub fn min_of<K: PartialOrd + Clone + 'static>(self, f: impl FnMut(T) -> K) -> K {
        self.select(f).min()
    }

    /// `Sum(f)`.
    pub fn sum_of<N: Number + 'static>(self, f: impl FnMut(T) -> N) -> N {
        self.select(f).sum()
    }

    /// `Average(f)`.
    #[track_caller]
    pub fn average_of<N: Number + 'static>(self, f: impl FnMut(T) -> N) -> f64 {
        self.select(f).average()
    }

    /// `ToArray()`.
    pub fn to_array(self) -> Array<T>
    where
        T: Default,
    {
        Array::from(self.items)
    }

    /// `ToList()`.
    pub fn to_list(self) -> List<T> {
        List::from(self.items)
    }

    /// `ToHashSet()`.
    pub fn to_hash_set(self) -> HashSet<T>
    where
        T: Hash + Eq,
    {
        let set = HashSet::new();
        for x in self.items {
            set.add(x);
        }
        set
    }

    /// `ToDictionary(key, value)`.
    #[track_caller]
    pub fn to_dictionary<K: Hash + Eq + Clone, V: Clone>(
        self,
        mut key: impl FnMut(T) -> K,
        mut value: impl FnMut(T) -> V,
    ) -> Dictionary<K, V> {
        let d = Dictionary::new();
        for x in self.items {
            d.add(key(x.clone()), value(x));
        }
        d
    }
}

impl<T: Clone + PartialOrd + 'static> Seq<T> {
    /// `Max()`; panics when empty.
    #[track_caller]
    pub fn max(self) -> T {
        self.extreme(Ordering::Greater)
    }

    /// `Min()`; panics when empty.
    #[track_caller]
    pub fn min(self) -> T {
        self.extreme(Ordering::Less)
    }

    #[track_caller]
    fn extreme(self, wanted: Ordering) -> T {
        let mut items = self.items.into_iter();
        let mut best = items.next().expect("the sequence is empty");
        for x in items {
            if x.partial_cmp(&best) == Some(wanted) {
                best = x;
            }
        }
        best
    }
}

impl<T: Clone + PartialEq + 'static> Seq<T> {
    /// `Contains(x)`.
    pub fn contains(&self, x: &T) -> bool {
        self.items.contains(x)
    }

    /// `Distinct()`: first occurrences, in order.
    pub fn distinct(self) -> Seq<T> {
        let mut out: Vec<T> = Vec::new();
        for x in self.items {
            if !out.contains(&x) {
                out.push(x);
            }
        }
        Seq::from(out)
    }
}

/// `GroupBy`'s key equality: .NET's `EqualityComparer<K>.Default`, under which a `NaN`
/// key equals a `NaN` key (`double.Equals`), unlike `==`.
#[allow(clippy::eq_op)]
fn same_key<K: PartialEq>(a: &K, b: &K) -> bool {
    a == b || (a != a && b != b)
}

impl<T: Clone> Seq<T> {
    /// `GroupBy(key)`: one group per distinct key, in the order each key first appears,
    /// each holding its elements in source order (.NET's `Lookup`).
    ///
    /// ```
    /// use framework::prelude::*;
    /// let groups = cs::Seq::from(vec![3, 8, 5, 2, 6]).group_by(|x| x % 3).to_vec();
    /// assert_eq!(groups.iter().map(|g| g.key()).collect::<Vec<_>>(), [0, 2]);
    /// assert_eq!(groups[1].linq().to_vec(), [8, 5, 2]);
    /// ```
    pub fn group_by<K: Clone + PartialEq>(
        self,
        mut key: impl FnMut(T) -> K,
    ) -> Seq<IGrouping<K, T>> {
        let mut groups: Vec<IGrouping<K, T>> = Vec::new();
        for x in self.items {
            let k = key(x.clone());
            match groups.iter_mut().find(|g| same_key(&g.key, &k)) {
                Some(g) => g.items.push(x),
                None => groups.push(IGrouping {
                    key: k,
                    items: vec![x],
                }),
            }
        }
        Seq::from(groups)
    }
}

impl<T: Clone + Default> Seq<T> {
    /// `GetEnumerator()` of a collection whose enumerator is an iterator block (`yield
    /// return`), as the API's `PieceList`'s is.
    pub fn get_enumerator(self) -> IEnumerator<T> {
        IEnumerator(Rc::new(RefCell::new(Walk {
            items: self.items,
            next: 0,
            current: T::default(),
        })))
    }
}

/// C#'s `IEnumerator<T>` of an iterator block: `MoveNext` steps to the next element;
/// `Current` is `default(T)` before the first step and stays the last element after the
/// end, as the C# compiler's iterators keep it. A class: copies share the position.
///
/// ```
/// use framework::prelude::*;
/// let e = cs::Seq::from(vec![7, 8]).get_enumerator();
/// assert_eq!(e.current(), 0);
/// assert!(e.move_next() && e.current() == 7);
/// assert!(e.clone().move_next() && e.current() == 8);
/// assert!(!e.move_next() && e.current() == 8);
/// ```
#[derive(Clone, Default)]
pub struct IEnumerator<T>(Rc<RefCell<Walk<T>>>);

#[derive(Default)]
struct Walk<T> {
    items: Vec<T>,
    next: usize,
    current: T,
}

impl<T: Clone> IEnumerator<T> {
    /// `MoveNext()`.
    pub fn move_next(&self) -> bool {
        let mut walk = self.0.borrow_mut();
        match walk.items.get(walk.next).cloned() {
            Some(x) => {
                walk.current = x;
                walk.next += 1;
                true
            }
            None => false,
        }
    }

    /// `Current`.
    pub fn current(&self) -> T {
        self.0.borrow().current.clone()
    }
}

/// C#'s `IGrouping<TKey, TElement>`: a key of `GroupBy` and its elements. C# never
/// changes a group, so a copy is as good as the shared one.
#[derive(Clone, Debug, Default)]
pub struct IGrouping<K, T> {
    key: K,
    items: Vec<T>,
}

impl<K: Clone, T: Clone> IGrouping<K, T> {
    /// `Key`.
    pub fn key(&self) -> K {
        self.key.clone()
    }

    /// LINQ on the group's elements.
    pub fn linq(&self) -> Seq<T> {
        Seq::from(self.items.clone())
    }

    /// The elements, for `foreach`.
    pub fn iter(&self) -> std::vec::IntoIter<T> {
        self.items.clone().into_iter()
    }
}

/// LINQ's set operations, which .NET runs through a set of the elements seen: each
/// element of the source comes out once at most, in the source's order.
///
/// ```
/// use framework::prelude::*;
/// let a = cs::Array::from(vec![5, 1, 5, 2, 3, 1]);
/// let b = cs::Array::from(vec![3, 9]);
/// assert_eq!(a.linq().except(b.iter()).to_vec(), [5, 1, 2]);
/// assert_eq!(a.linq().intersect([1, 3, 1]).to_vec(), [1, 3]);
/// ```
impl<T: Clone + PartialEq + 'static> Seq<T> {
    /// `Except(other)`: the distinct elements not in `other`.
    pub fn except(self, other: impl IntoIterator<Item = T>) -> Seq<T> {
        let mut seen: Vec<T> = other.into_iter().collect();
        let mut out = Vec::new();
        for x in self.items {
            if !seen.contains(&x) {
                seen.push(x.clone());
                out.push(x);
            }
        }
        Seq::from(out)
    }

    /// `Intersect(other)`: the distinct elements also in `other`.
    pub fn intersect(self, other: impl IntoIterator<Item = T>) -> Seq<T> {
        let mut left: Vec<T> = other.into_iter().collect();
        let mut out = Vec::new();
        for x in self.items {
            if left.contains(&x) {
                // .NET removes the element from its set: a repeat is not yielded again.
                left.retain(|y| *y != x);
                out.push(x);
            }
        }
        Seq::from(out)
    }
}

/// The rest of LINQ's element methods.
///
/// ```
/// use framework::prelude::*;
/// let a = cs::Array::from(vec![4, 7, 1, 8]);
/// assert_eq!(a.linq().take_last(2).to_vec(), [1, 8]);
/// assert_eq!(a.linq().where_(|x| x > 9).default_if_empty(-1).to_vec(), [-1]);
/// assert_eq!(a.linq().last_where(|x| x > 5), 8);
/// assert_eq!(a.linq().last_or_default_where(|x| x > 9), 0);
/// ```
impl<T: Clone + 'static> Seq<T> {
    /// `TakeLast(n)`: the last `n` elements (all of them if fewer; none for `n <= 0`).
    pub fn take_last(self, n: i32) -> Seq<T> {
        let skip = self.items.len().saturating_sub(n.max(0) as usize);
        self.items.into_iter().skip(skip).collect()
    }

    /// `DefaultIfEmpty(value)`: the elements, or `value` alone if there are none.
    pub fn default_if_empty(self, value: T) -> Seq<T> {
        if self.items.is_empty() {
            Seq::from(vec![value])
        } else {
            self
        }
    }

    /// `Last(f)`: the last element for which `f` holds; panics if none does (C#'s
    /// `InvalidOperationException`). `f` sees every element, first to last.
    #[track_caller]
    pub fn last_where(self, f: impl FnMut(T) -> bool) -> T {
        self.last_matching(f)
            .expect("no element satisfies the condition")
    }

    /// `LastOrDefault(f)`: the last element for which `f` holds, or `T`'s default.
    pub fn last_or_default_where(self, f: impl FnMut(T) -> bool) -> T
    where
        T: Default,
    {
        self.last_matching(f).unwrap_or_default()
    }

    fn last_matching(self, mut f: impl FnMut(T) -> bool) -> Option<T> {
        // .NET walks an array or list from its end and stops at the first match, any
        // other source from its start: the same result for an `f` without effects (the
        // port refuses one with effects).
        let mut last = None;
        for x in self.items {
            if f(x.clone()) {
                last = Some(x);
            }
        }
        last
    }
}

impl<N: Number + 'static> Seq<N> {
    /// `Sum()` (integers checked for overflow, as C#'s).
    pub fn sum(self) -> N {
        self.items.into_iter().fold(N::ZERO, N::add)
    }

    /// `Average()`; panics when empty.
    #[track_caller]
    pub fn average(self) -> f64 {
        assert!(!self.items.is_empty(), "the sequence is empty");
        let n = self.items.len() as f64;
        self.items.into_iter().map(N::to_f64).sum::<f64>() / n
    }
}

impl<T: Clone + Default + 'static> Array<T> {
    /// The array as a LINQ sequence: `arr.linq().Where(...)...`.
    pub fn linq(&self) -> Seq<T> {
        Seq::from(self.to_vec())
    }
}

impl<T: Clone + 'static> List<T> {
    /// The list as a LINQ sequence.
    pub fn linq(&self) -> Seq<T> {
        Seq::from(self.to_vec())
    }
}

impl<T: Clone + 'static> Seq<T> {
    /// Itself (a LINQ call on a sequence).
    pub fn linq(self) -> Seq<T> {
        self
    }
}

impl<K: Hash + Eq + Clone + 'static, V: Clone + 'static> Dictionary<K, V> {
    /// The entries as a LINQ sequence of `(key, value)`.
    pub fn linq(&self) -> Seq<(K, V)> {
        self.iter().collect()
    }
}

impl<K: PartialOrd + Clone + 'static, V: Clone + 'static> super::SortedDictionary<K, V> {
    /// The entries as a LINQ sequence of `(key, value)`, least key first.
    pub fn linq(&self) -> Seq<(K, V)> {
        self.iter().collect()
    }
}

impl<T: Hash + Eq + Clone + 'static> HashSet<T> {
    /// The elements as a LINQ sequence.
    pub fn linq(&self) -> Seq<T> {
        self.iter().collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn order_by_is_stable_and_then_by_breaks_ties() {
        let words = Seq::from(vec!["bb", "a", "cc", "d", "aa"]);
        let by_len: Vec<&str> = words.clone().order_by(|w| w.len()).to_vec();
        assert_eq!(by_len, ["a", "d", "bb", "cc", "aa"]);
        let then: Vec<&str> = words
            .order_by(|w| w.len())
            .then_by_descending(|w| w.to_string())
            .to_vec();
        assert_eq!(then, ["d", "a", "cc", "bb", "aa"]);
    }

    #[test]
    fn a_range_copies_its_elements() {
        let s = Seq::from(vec![1, 2, 3]);
        assert_eq!(s.slice_range(0, 0).to_vec(), Vec::<i32>::new());
        assert_eq!(s.slice_range(1, 3).to_vec(), [2, 3]);
    }

    #[test]
    #[should_panic(expected = "a range out of bounds")]
    fn a_range_past_the_end_panics_as_csharp_throws() {
        Seq::from(vec![1, 2, 3]).slice_range(2, 4);
    }

    #[test]
    #[should_panic(expected = "a range out of bounds")]
    fn a_reversed_range_panics_as_csharp_throws() {
        Seq::from(vec![1, 2, 3]).slice_range(2, 1);
    }

    #[test]
    fn group_by_keeps_first_appearance_order_and_nan_keys_together() {
        let groups = Seq::from(vec![1.5, f64::NAN, 0.5, f64::NAN, 1.5])
            .group_by(|x| x)
            .to_vec();
        let sizes: Vec<usize> = groups.iter().map(|g| g.items.len()).collect();
        assert_eq!(sizes, [2, 2, 1]);
        assert!(groups[1].key().is_nan());
    }

    #[test]
    fn skip_while_stops_asking_after_the_first_no() {
        let mut asked = Vec::new();
        let rest = Seq::from(vec![1, 2, 9, 1]).skip_while(|x| {
            asked.push(x);
            x < 3
        });
        assert_eq!((rest.to_vec(), asked), (vec![9, 1], vec![1, 2, 9]));
        assert_eq!(
            Seq::from(vec![1, 2, 9, 1]).take_while(|x| x < 3).to_vec(),
            [1, 2]
        );
    }

    #[test]
    fn find_index_is_minus_one_when_nothing_matches() {
        let xs = Seq::from(vec![4, 7, 9, 7]);
        assert_eq!(xs.clone().find_index(|x| x == 7), 1);
        assert_eq!(xs.find_index(|x| x > 9), -1);
    }

    #[test]
    #[should_panic(expected = "overflow")]
    fn an_int_sum_overflows_as_csharp_throws() {
        Seq::from(vec![i32::MAX, 1]).sum();
    }
}

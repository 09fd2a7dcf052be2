//! [`SortedDictionary`], [`SortedList`] and [`SortedSet`]: C#'s sorted collections,
//! shared by reference, ordered by C#'s default comparer ([`compare`]), so `foreach`
//! walks them in .NET's order and keys .NET finds equal (`0.0` and `-0.0`) are one key.

use std::cell::RefCell;
use std::cmp::Ordering;
use std::collections::{BTreeMap, BTreeSet};
use std::rc::Rc;

use super::sort::compare;

/// A key ordered as C#'s `Comparer<T>.Default` orders it.
#[derive(Clone)]
struct Key<T>(T);

impl<T: PartialOrd> PartialEq for Key<T> {
    fn eq(&self, other: &Self) -> bool {
        compare(&self.0, &other.0) == Ordering::Equal
    }
}

impl<T: PartialOrd> Eq for Key<T> {}

impl<T: PartialOrd> PartialOrd for Key<T> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl<T: PartialOrd> Ord for Key<T> {
    fn cmp(&self, other: &Self) -> Ordering {
        compare(&self.0, &other.0)
    }
}

/// C#'s `SortedDictionary<K, V>` (and, as [`SortedList`], `SortedList<K, V>`): a
/// dictionary whose entries are walked in the order of their keys.
///
/// ```
/// use framework::prelude::*;
/// let best = cs::SortedDictionary::new();
/// assert!(best.try_add(2.5, 'b') && best.try_add(-1.0, 'a') && !best.try_add(2.5, 'x'));
/// best.set(9.0, 'c'); // best[9.0] = 'c';
/// assert_eq!(best.iter().collect::<Vec<_>>(), [(-1.0, 'a'), (2.5, 'b'), (9.0, 'c')]);
/// assert_eq!((best.get(&2.5), best.count(), best.keys()[0]), ('b', 3, -1.0));
/// ```
pub struct SortedDictionary<K, V>(Rc<RefCell<BTreeMap<Key<K>, V>>>);

/// C#'s `SortedList<K, V>`: to a bot the same as a [`SortedDictionary`] (sorted arrays
/// in .NET, a tree here; their members give the same results), with `Keys` and `Values`
/// indexed by position.
pub type SortedList<K, V> = SortedDictionary<K, V>;

impl<K, V> Clone for SortedDictionary<K, V> {
    fn clone(&self) -> Self {
        SortedDictionary(Rc::clone(&self.0))
    }
}

impl<K: PartialOrd, V> Default for SortedDictionary<K, V> {
    fn default() -> Self {
        SortedDictionary(Rc::new(RefCell::new(BTreeMap::new())))
    }
}

/// Reference equality, as C#'s `==`.
impl<K, V> PartialEq for SortedDictionary<K, V> {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

impl<K: PartialOrd + Clone, V: Clone> SortedDictionary<K, V> {
    /// `new SortedDictionary<K, V>()`.
    pub fn new() -> SortedDictionary<K, V> {
        SortedDictionary::default()
    }

    /// `d[key]`; panics if absent (C#'s `KeyNotFoundException`).
    #[track_caller]
    pub fn get(&self, key: &K) -> V {
        match self.0.borrow().get(&Key(key.clone())) {
            Some(v) => v.clone(),
            None => panic!("the key is not in the dictionary"),
        }
    }

    /// `d[key] = value`: adds or replaces.
    pub fn set(&self, key: K, value: V) {
        self.0.borrow_mut().insert(Key(key), value);
    }

    /// Changes `d[key]` in place; panics if absent.
    #[track_caller]
    pub fn with<R>(&self, key: &K, f: impl FnOnce(&mut V) -> R) -> R {
        let mut value = self.get(key);
        let result = f(&mut value);
        self.set(key.clone(), value);
        result
    }

    /// `Add(key, value)`; panics if the key is there (C#'s `ArgumentException`).
    #[track_caller]
    pub fn add(&self, key: K, value: V) {
        assert!(
            self.try_add(key, value),
            "the key is already in the dictionary"
        );
    }

    /// `TryAdd(key, value)`: adds unless the key is there; whether it added.
    pub fn try_add(&self, key: K, value: V) -> bool {
        let mut map = self.0.borrow_mut();
        let key = Key(key);
        if map.contains_key(&key) {
            return false;
        }
        map.insert(key, value);
        true
    }

    /// `TryGetValue(key, out value)`: `value` is the key's value, or `V`'s default.
    pub fn try_get_value(&self, key: &K, value: &mut V) -> bool
    where
        V: Default,
    {
        let found = self.0.borrow().get(&Key(key.clone())).cloned();
        let there = found.is_some();
        *value = found.unwrap_or_default();
        there
    }

    /// `GetValueOrDefault(key)`.
    pub fn get_value_or_default(&self, key: &K) -> V
    where
        V: Default,
    {
        self.get_value_or(key, V::default())
    }

    /// `GetValueOrDefault(key, value)`: the key's value, or `value` if it is absent.
    pub fn get_value_or(&self, key: &K, value: V) -> V {
        let found = self.0.borrow().get(&Key(key.clone())).cloned();
        found.unwrap_or(value)
    }

    /// No entries (the port's stand-in for C#'s `dictionary == null`).
    pub fn is_empty(&self) -> bool {
        self.count() == 0
    }

    /// `ContainsKey(key)`.
    pub fn contains_key(&self, key: &K) -> bool {
        self.0.borrow().contains_key(&Key(key.clone()))
    }

    /// `Remove(key)`: whether it was there.
    pub fn remove(&self, key: &K) -> bool {
        self.0.borrow_mut().remove(&Key(key.clone())).is_some()
    }

    /// `Count`.
    pub fn count(&self) -> i32 {
        self.0.borrow().len() as i32
    }

    /// `Clear()`.
    pub fn clear(&self) {
        self.0.borrow_mut().clear();
    }

    /// The entries as `(key, value)` pairs, least key first, taken when asked for.
    pub fn iter(&self) -> std::vec::IntoIter<(K, V)> {
        let map = self.0.borrow();
        let pairs: Vec<(K, V)> = map.iter().map(|(k, v)| (k.0.clone(), v.clone())).collect();
        pairs.into_iter()
    }

    /// `Keys`, in order.
    pub fn keys(&self) -> Vec<K> {
        self.0.borrow().keys().map(|k| k.0.clone()).collect()
    }

    /// `Values`, in their keys' order.
    pub fn values(&self) -> Vec<V> {
        self.0.borrow().values().cloned().collect()
    }
}

impl<K: PartialOrd + Clone, V: Clone> IntoIterator for &SortedDictionary<K, V> {
    type Item = (K, V);
    type IntoIter = std::vec::IntoIter<(K, V)>;

    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

/// C#'s `SortedSet<T>`: a set walked in order; `Min` and `Max` are `T`'s default when it
/// is empty, as .NET's.
///
/// ```
/// use framework::prelude::*;
/// let killers = cs::SortedSet::new();
/// assert!(killers.add(30) && killers.add(10) && !killers.add(30));
/// assert!(killers.contains(&10) && !killers.contains(&20));
/// assert_eq!(killers.iter().collect::<Vec<_>>(), [10, 30]);
/// assert_eq!((killers.min(), killers.max(), killers.count()), (10, 30, 2));
/// ```
pub struct SortedSet<T>(Rc<RefCell<BTreeSet<Key<T>>>>);

impl<T> Clone for SortedSet<T> {
    fn clone(&self) -> Self {
        SortedSet(Rc::clone(&self.0))
    }
}

impl<T: PartialOrd> Default for SortedSet<T> {
    fn default() -> Self {
        SortedSet(Rc::new(RefCell::new(BTreeSet::new())))
    }
}

/// Reference equality, as C#'s `==`.
impl<T> PartialEq for SortedSet<T> {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

impl<T: PartialOrd + Clone> SortedSet<T> {
    /// `new SortedSet<T>()`.
    pub fn new() -> SortedSet<T> {
        SortedSet::default()
    }

    /// `Add(value)`: whether it was new.
    pub fn add(&self, value: T) -> bool {
        self.0.borrow_mut().insert(Key(value))
    }

    /// `Contains(value)`.
    pub fn contains(&self, value: &T) -> bool {
        self.0.borrow().contains(&Key(value.clone()))
    }

    /// `Remove(value)`: whether it was there.
    pub fn remove(&self, value: &T) -> bool {
        self.0.borrow_mut().remove(&Key(value.clone()))
    }

    /// `Count`.
    pub fn count(&self) -> i32 {
        self.0.borrow().len() as i32
    }

    /// `Clear()`.
    pub fn clear(&self) {
        self.0.borrow_mut().clear();
    }

    /// `Min`: the least element, or `T`'s default when empty.
    pub fn min(&self) -> T
    where
        T: Default,
    {
        self.0
            .borrow()
            .first()
            .map(|k| k.0.clone())
            .unwrap_or_default()
    }

    /// `Max`: the greatest element, or `T`'s default when empty.
    pub fn max(&self) -> T
    where
        T: Default,
    {
        self.0
            .borrow()
            .last()
            .map(|k| k.0.clone())
            .unwrap_or_default()
    }

    /// The elements least first, taken when asked for.
    pub fn iter(&self) -> std::vec::IntoIter<T> {
        let items: Vec<T> = self.0.borrow().iter().map(|k| k.0.clone()).collect();
        items.into_iter()
    }
}

impl<T: PartialOrd + Clone> IntoIterator for &SortedSet<T> {
    type Item = T;
    type IntoIter = std::vec::IntoIter<T>;

    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_dotnet_finds_equal_are_one_key() {
        let d = SortedDictionary::new();
        d.set(0.0, 1);
        d.set(-0.0, 2);
        d.set(f64::NAN, 3);
        assert_eq!(d.count(), 2);
        assert!(d.keys()[0].is_nan()); // NaN sorts first, as double.CompareTo
        assert_eq!(d.get(&0.0), 2);
    }

    #[test]
    #[should_panic(expected = "already in the dictionary")]
    fn adding_a_key_twice_panics_as_dotnet_throws() {
        let d = SortedList::new();
        d.add(1u64, 1);
        d.add(1u64, 2);
    }

    #[test]
    fn an_empty_set_has_default_min_and_max() {
        let s: SortedSet<i32> = SortedSet::new();
        assert_eq!((s.min(), s.max()), (0, 0));
    }
}

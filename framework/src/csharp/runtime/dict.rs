//! [`Dictionary`] and [`HashSet`]: C#'s hash collections, shared by reference, iterated
//! in .NET's order.
//!
//! .NET keeps a dictionary's entries in an array in the order they were added and walks
//! that array to iterate; a removed entry's slot goes on a free list, and the next add
//! takes the slot freed last. Both types here keep that array and free list, so a
//! `foreach` visits entries in the order .NET would (Rust's `HashMap` order is random).

use std::cell::RefCell;
use std::collections::HashMap;
use std::hash::Hash;
use std::rc::Rc;

/// The entries, the free slots and the index of keys.
struct Slots<K, V> {
    entries: Vec<Option<(K, V)>>,
    free: Vec<usize>,
    index: HashMap<K, usize>,
}

impl<K, V> Default for Slots<K, V> {
    fn default() -> Self {
        Slots {
            entries: Vec::new(),
            free: Vec::new(),
            index: HashMap::new(),
        }
    }
}

impl<K: Hash + Eq + Clone, V> Slots<K, V> {
    fn insert_new(&mut self, key: K, value: V) {
        let slot = match self.free.pop() {
            Some(slot) => {
                self.entries[slot] = Some((key.clone(), value));
                slot
            }
            None => {
                self.entries.push(Some((key.clone(), value)));
                self.entries.len() - 1
            }
        };
        self.index.insert(key, slot);
    }

    fn remove(&mut self, key: &K) -> bool {
        match self.index.remove(key) {
            Some(slot) => {
                self.entries[slot] = None;
                self.free.push(slot);
                true
            }
            None => false,
        }
    }

    /// `TrimExcess()`: .NET copies the entries into a smaller array, which drops the free
    /// list, only when a smaller prime size fits the count, a question of a capacity this
    /// port does not keep. With no freed slot both ways give the same entries and the
    /// same later order; with one, the port panics rather than guess.
    #[track_caller]
    fn trim_excess(&mut self) {
        assert!(
            self.free.is_empty(),
            "TrimExcess after a removal: .NET's later order depends on a capacity the port does not keep"
        );
    }

    fn clear(&mut self) {
        *self = Slots {
            entries: Vec::new(),
            free: Vec::new(),
            index: HashMap::new(),
        };
    }
}

/// C#'s `Dictionary<K, V>`.
///
/// ```
/// use framework::prelude::*;
/// let tt = cs::Dictionary::new();
/// tt.set(7u64, 100); // tt[7] = 100;
/// tt.set(3u64, 50);
/// assert!(tt.contains_key(&7));
/// let mut found = 0;
/// assert!(tt.try_get_value(&3, &mut found) && found == 50);
/// tt.with(&7, |v| *v += 1); // tt[7]++;
/// let keys: Vec<u64> = tt.iter().map(|(k, _)| k).collect();
/// assert_eq!((tt.get(&7), keys), (101, vec![7, 3])); // in the order of insertion
/// ```
pub struct Dictionary<K, V>(Rc<RefCell<Slots<K, V>>>);

impl<K, V> Clone for Dictionary<K, V> {
    fn clone(&self) -> Self {
        Dictionary(Rc::clone(&self.0))
    }
}

impl<K, V> Default for Dictionary<K, V> {
    fn default() -> Self {
        Dictionary(Rc::default())
    }
}

/// Reference equality, as C#'s `==`.
impl<K, V> PartialEq for Dictionary<K, V> {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

impl<K: Hash + Eq + Clone, V: Clone> Dictionary<K, V> {
    /// `new Dictionary<K, V>()`.
    pub fn new() -> Dictionary<K, V> {
        Dictionary::default()
    }

    /// `d[key]`; panics if absent (C#'s `KeyNotFoundException`).
    #[track_caller]
    pub fn get(&self, key: &K) -> V {
        match self.value(key) {
            Some(v) => v,
            None => panic!("the key is not in the dictionary"),
        }
    }

    /// The key's value, if the key is there.
    fn value(&self, key: &K) -> Option<V> {
        let slots = self.0.borrow();
        let slot = *slots.index.get(key)?;
        let (_, v) = slots.entries[slot].as_ref().expect("a live slot");
        Some(v.clone())
    }

    /// `d[key] = value`: adds or replaces.
    pub fn set(&self, key: K, value: V) {
        let mut slots = self.0.borrow_mut();
        if let Some(&slot) = slots.index.get(&key) {
            slots.entries[slot] = Some((key, value));
        } else {
            slots.insert_new(key, value);
        }
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
        let mut slots = self.0.borrow_mut();
        if slots.index.contains_key(&key) {
            return false;
        }
        slots.insert_new(key, value);
        true
    }

    /// `TryGetValue(key, out value)`: `value` is the key's value, or `V`'s default.
    pub fn try_get_value(&self, key: &K, value: &mut V) -> bool
    where
        V: Default,
    {
        let found = self.value(key);
        let there = found.is_some();
        *value = found.unwrap_or_default();
        there
    }

    /// `GetValueOrDefault(key)`.
    pub fn get_value_or_default(&self, key: &K) -> V
    where
        V: Default,
    {
        let mut value = V::default();
        self.try_get_value(key, &mut value);
        value
    }

    /// `GetValueOrDefault(key, value)`: the key's value, or `value` if it is absent.
    ///
    /// ```
    /// use framework::prelude::*;
    /// let d = cs::Dictionary::new();
    /// d.set(1u64, 10);
    /// assert_eq!((d.get_value_or(&1, -1), d.get_value_or(&2, -1)), (10, -1));
    /// ```
    pub fn get_value_or(&self, key: &K, value: V) -> V {
        self.value(key).unwrap_or(value)
    }

    /// No entries (the port's stand-in for C#'s `dictionary == null`).
    pub fn is_empty(&self) -> bool {
        self.count() == 0
    }

    /// `ContainsKey(key)`.
    pub fn contains_key(&self, key: &K) -> bool {
        self.0.borrow().index.contains_key(key)
    }

    /// `Remove(key)`: whether it was there.
    pub fn remove(&self, key: &K) -> bool {
        self.0.borrow_mut().remove(key)
    }

    /// `Count`.
    pub fn count(&self) -> i32 {
        self.0.borrow().index.len() as i32
    }

    /// `Clear()`.
    pub fn clear(&self) {
        self.0.borrow_mut().clear();
    }

    /// `TrimExcess()`: nothing a bot sees changes while no slot was freed; after a
    /// removal it panics (see the free list above).
    #[track_caller]
    pub fn trim_excess(&self) {
        self.0.borrow_mut().trim_excess();
    }

    /// The entries as `(key, value)` pairs in .NET's order (C#'s `KeyValuePair`s), taken
    /// when asked for.
    pub fn iter(&self) -> std::vec::IntoIter<(K, V)> {
        let slots = self.0.borrow();
        let pairs: Vec<(K, V)> = slots.entries.iter().flatten().cloned().collect();
        pairs.into_iter()
    }

    /// `Keys`.
    pub fn keys(&self) -> Vec<K> {
        self.iter().map(|(k, _)| k).collect()
    }

    /// `Values`.
    pub fn values(&self) -> Vec<V> {
        self.iter().map(|(_, v)| v).collect()
    }
}

impl<K: Hash + Eq + Clone, V: Clone> IntoIterator for &Dictionary<K, V> {
    type Item = (K, V);
    type IntoIter = std::vec::IntoIter<(K, V)>;

    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

/// C#'s `HashSet<T>`, iterated in .NET's order.
///
/// ```
/// use framework::prelude::*;
/// let seen = cs::HashSet::new();
/// assert!(seen.add(5u64));
/// assert!(!seen.add(5u64));
/// assert!(seen.contains(&5) && seen.count() == 1);
/// ```
pub struct HashSet<T>(Rc<RefCell<Slots<T, ()>>>);

impl<T> Clone for HashSet<T> {
    fn clone(&self) -> Self {
        HashSet(Rc::clone(&self.0))
    }
}

impl<T> Default for HashSet<T> {
    fn default() -> Self {
        HashSet(Rc::default())
    }
}

/// Reference equality, as C#'s `==`.
impl<T> PartialEq for HashSet<T> {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

impl<T: Hash + Eq + Clone> HashSet<T> {
    /// `new HashSet<T>()`.
    pub fn new() -> HashSet<T> {
        HashSet::default()
    }

    /// `Add(value)`: whether it was new.
    pub fn add(&self, value: T) -> bool {
        let mut slots = self.0.borrow_mut();
        if slots.index.contains_key(&value) {
            return false;
        }
        slots.insert_new(value, ());
        true
    }

    /// `ExceptWith(other)`: removes each element of `other`, in its order (as .NET's, so
    /// the freed slots are reused in .NET's order); `other` may be the set itself.
    ///
    /// ```
    /// use framework::prelude::*;
    /// let set = cs::HashSet::new();
    /// for x in [1, 2, 3, 4] {
    ///     set.add(x);
    /// }
    /// set.except_with([3, 9, 1]);
    /// set.add(5); // takes 1's slot, freed last
    /// assert_eq!(set.iter().collect::<Vec<_>>(), [5, 2, 4]);
    /// ```
    pub fn except_with(&self, other: impl IntoIterator<Item = T>) {
        // Read `other` first: it may be this set.
        let other: Vec<T> = other.into_iter().collect();
        if self.count() == 0 {
            return;
        }
        for x in other {
            self.remove(&x);
        }
    }

    /// No elements (the port's stand-in for C#'s `set == null`).
    pub fn is_empty(&self) -> bool {
        self.count() == 0
    }

    /// `Contains(value)`.
    pub fn contains(&self, value: &T) -> bool {
        self.0.borrow().index.contains_key(value)
    }

    /// `Remove(value)`: whether it was there.
    pub fn remove(&self, value: &T) -> bool {
        self.0.borrow_mut().remove(value)
    }

    /// `Count`.
    pub fn count(&self) -> i32 {
        self.0.borrow().index.len() as i32
    }

    /// `Clear()`.
    pub fn clear(&self) {
        self.0.borrow_mut().clear();
    }

    /// `TrimExcess()`: nothing a bot sees changes while no slot was freed; after a
    /// removal it panics (see the free list above).
    #[track_caller]
    pub fn trim_excess(&self) {
        self.0.borrow_mut().trim_excess();
    }

    /// The elements in .NET's order, taken when asked for.
    pub fn iter(&self) -> std::vec::IntoIter<T> {
        let slots = self.0.borrow();
        let items: Vec<T> = slots
            .entries
            .iter()
            .flatten()
            .map(|(k, _)| k.clone())
            .collect();
        items.into_iter()
    }
}

impl<T: Hash + Eq + Clone> IntoIterator for &HashSet<T> {
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
    fn trim_excess_changes_nothing_without_a_freed_slot() {
        let d = Dictionary::new();
        d.set(1, 10);
        d.set(2, 20);
        d.trim_excess();
        assert_eq!(d.count(), 2);
        d.remove(&1);
        assert!(
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| d.trim_excess())).is_err()
        );
    }

    #[test]
    fn a_freed_slot_is_reused_last_freed_first_as_in_dotnet() {
        let d = Dictionary::new();
        for k in [1, 2, 3, 4] {
            d.set(k, k * 10);
        }
        d.remove(&2);
        d.remove(&3);
        d.set(5, 50); // takes 3's slot (freed last)
        d.set(6, 60); // takes 2's slot
        d.set(7, 70);
        let keys: Vec<i32> = d.iter().map(|(k, _)| k).collect();
        assert_eq!(keys, [1, 6, 5, 4, 7]);
    }

    #[test]
    fn replacing_a_value_keeps_its_place() {
        let d = Dictionary::new();
        d.set("a", 1);
        d.set("b", 2);
        d.set("a", 3);
        assert_eq!(d.iter().collect::<Vec<_>>(), [("a", 3), ("b", 2)]);
    }
}

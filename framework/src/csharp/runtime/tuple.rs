//! [`Tuple`]: C#'s `System.Tuple<T1, ...>`, a class, unlike the value tuple `(T1, ...)`.

use std::hash::{Hash, Hasher};
use std::ops::Deref;
use std::rc::Rc;

/// A reference to a `System.Tuple` (`Tuple.Create(m, 3)`, `new Tuple<Move, int>(m, 3)`)
/// or C#'s `null`; `T` is the Rust tuple of its items, read as `t.0` (C#'s `t.Item1`).
///
/// C# gives it two equalities, and so does the port: `==` compares references
/// ([`Tuple::ref_eq`]: the class has no `operator ==`), while `Equals`, and with it
/// `Contains`, `Distinct` and dictionary keys, compares the items (`Tuple` overrides
/// `Equals` and `GetHashCode`): Rust's `PartialEq` and `Hash` are the latter.
///
/// ```
/// use framework::prelude::*;
///
/// let a = cs::Tuple::new((1, 2)); // Tuple.Create(1, 2)
/// let b = cs::Tuple::new((1, 2));
/// assert!(!cs::Tuple::ref_eq(&a, &b) && cs::Tuple::ref_eq(&a, &a.clone())); // a == b
/// assert!(cs::Tuple::equals(&a, &b)); // a.Equals(b)
/// assert_eq!(a.1, 2); // a.Item2
/// let none: cs::Tuple<(i32, i32)> = cs::Tuple::null();
/// assert!(none.is_null() && none == cs::Tuple::default());
/// ```
pub struct Tuple<T>(Option<Rc<T>>);

impl<T> Tuple<T> {
    /// `Tuple.Create(...)`, `new Tuple<...>(...)`.
    pub fn new(items: T) -> Tuple<T> {
        Tuple(Some(Rc::new(items)))
    }

    /// `null`.
    pub fn null() -> Tuple<T> {
        Tuple(None)
    }

    /// `t == null`.
    pub fn is_null(&self) -> bool {
        self.0.is_none()
    }

    /// `var (a, b) = t;`: a copy of the items (`Deconstruct`), panicking on a null `t`
    /// as C# throws `NullReferenceException`.
    #[track_caller]
    pub fn items(&self) -> T
    where
        T: Clone,
    {
        (**self).clone()
    }

    /// `a == b`: the same instance, or both null.
    pub fn ref_eq(a: &Tuple<T>, b: &Tuple<T>) -> bool {
        match (&a.0, &b.0) {
            (Some(x), Some(y)) => Rc::ptr_eq(x, y),
            (None, None) => true,
            _ => false,
        }
    }

    /// `a.Equals(b)`: the items equal, each by its own `Equals`; false for a null `b`,
    /// and `NullReferenceException` (here a panic) for a null `a`.
    #[track_caller]
    pub fn equals(a: &Tuple<T>, b: &Tuple<T>) -> bool
    where
        T: PartialEq,
    {
        assert!(!a.is_null(), "`Equals` of a null reference");
        a == b
    }
}

impl<T> Clone for Tuple<T> {
    fn clone(&self) -> Self {
        Tuple(self.0.clone())
    }
}

/// `null`: what a field, a new array's element or `FirstOrDefault` of none holds.
impl<T> Default for Tuple<T> {
    fn default() -> Self {
        Tuple(None)
    }
}

/// `EqualityComparer<Tuple<..>>.Default`: by items, a null equal only to a null.
impl<T: PartialEq> PartialEq for Tuple<T> {
    fn eq(&self, other: &Self) -> bool {
        match (&self.0, &other.0) {
            (Some(x), Some(y)) => x == y,
            (None, None) => true,
            _ => false,
        }
    }
}

impl<T: Eq> Eq for Tuple<T> {}

/// By items, as `Equals` compares them.
impl<T: Hash> Hash for Tuple<T> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.0.as_deref().hash(state);
    }
}

/// The items, read through a null reference as C# throws `NullReferenceException`.
impl<T> Deref for Tuple<T> {
    type Target = T;

    #[track_caller]
    fn deref(&self) -> &T {
        self.0.as_deref().expect("a member of a null reference")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::csharp::runtime::{Dictionary, Seq};

    #[test]
    fn equality_is_by_items_and_operator_by_reference() {
        let a = Tuple::new((1, 'x'));
        let b = Tuple::new((1, 'x'));
        assert!(a == b && Tuple::equals(&a, &b) && !Tuple::ref_eq(&a, &b));
        assert!(!Tuple::equals(&a, &Tuple::null()));
        assert!(Tuple::<(i32, char)>::ref_eq(&Tuple::null(), &Tuple::null()));
    }

    #[test]
    fn keys_and_distinct_go_by_items() {
        let d = Dictionary::new();
        d.set(Tuple::new((1, 2)), 5);
        d.set(Tuple::new((1, 2)), 6);
        assert_eq!((d.count(), d.get(&Tuple::new((1, 2)))), (1, 6));
        let s: Seq<Tuple<(i32, i32)>> = vec![Tuple::new((1, 2)), Tuple::new((1, 2))].into();
        assert_eq!(s.distinct().count(), 1);
    }

    #[test]
    fn a_member_of_null_throws() {
        let none: Tuple<(i32, i32)> = Tuple::null();
        assert!(std::panic::catch_unwind(|| (*none).0).is_err());
        assert!(std::panic::catch_unwind(|| Tuple::equals(&none, &none)).is_err());
    }
}

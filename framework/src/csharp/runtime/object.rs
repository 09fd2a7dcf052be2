//! [`Obj`] and [`Var`]: instances of a C# class of the bot's own, shared by reference,
//! and their fields; [`This`], an instance's reference to itself.

use std::cell::Cell;
use std::ops::Deref;
use std::rc::{Rc, Weak};

/// A reference to an instance of a class the C# file declares (`MoveNode node = new
/// MoveNode();`), or C#'s `null`: cloning it copies the reference, `==` compares
/// references, and reaching a member through a null one panics as C# throws
/// `NullReferenceException`. The class's fields are [`Var`]s, so its methods take `&self`.
///
/// ```
/// use framework::prelude::*;
///
/// #[derive(Default)]
/// struct Node {
///     visits: cs::Var<i32>,
///     parent: cs::Var<cs::Obj<Node>>,
/// }
///
/// let root = cs::Obj::new(Node::default()); // new Node()
/// let child = cs::Obj::new(Node::default());
/// child.parent.set(root.clone()); // child.Parent = root;
/// child.parent.get().visits.with(|v| *v += 1); // child.Parent.Visits++;
/// assert_eq!(root.visits.get(), 1);
/// assert!(child.parent.get() == root && root.parent.get().is_null());
/// ```
pub struct Obj<T>(Option<Rc<T>>);

impl<T> Obj<T> {
    /// `new T(...)`: a new instance.
    pub fn new(value: T) -> Obj<T> {
        Obj(Some(Rc::new(value)))
    }

    /// `null`.
    pub fn null() -> Obj<T> {
        Obj(None)
    }

    /// `x == null`.
    pub fn is_null(&self) -> bool {
        self.0.is_none()
    }

    /// `a.Equals(b)` of a class that declares no `Equals`: `object.Equals`, reference
    /// equality, throwing `NullReferenceException` (here panicking) on a null `a`. Not a
    /// method, so that `a.equals(b)` still calls the class's own `equals`.
    ///
    /// ```
    /// use framework::prelude::*;
    ///
    /// let a = cs::Obj::new(1);
    /// assert!(cs::Obj::equals(&a, &a.clone()) && !cs::Obj::equals(&a, &cs::Obj::new(1)));
    /// assert!(!cs::Obj::equals(&a, &cs::Obj::null()));
    /// ```
    #[track_caller]
    pub fn equals(a: &Obj<T>, b: &Obj<T>) -> bool {
        assert!(!a.is_null(), "`Equals` of a null reference");
        a == b
    }

    /// `new T(...)` of a class whose methods pass or store `this` (`children.Add(new
    /// Node(this))`): `make` builds the instance around its [`This`].
    ///
    /// ```
    /// use framework::prelude::*;
    ///
    /// #[derive(Default)]
    /// struct Node {
    ///     me: cs::This<Node>,
    ///     parent: cs::Var<cs::Obj<Node>>,
    /// }
    ///
    /// impl Node {
    ///     fn new() -> cs::Obj<Node> {
    ///         cs::Obj::new_cyclic(|me| Node { me, ..Node::default() })
    ///     }
    ///
    ///     // Node Child() { var c = new Node(); c.parent = this; return c; }
    ///     fn child(&self) -> cs::Obj<Node> {
    ///         let c = Node::new();
    ///         c.parent.set(self.me.get());
    ///         c
    ///     }
    /// }
    ///
    /// let root = Node::new();
    /// assert!(root.child().parent.get() == root);
    /// ```
    pub fn new_cyclic(make: impl FnOnce(This<T>) -> T) -> Obj<T> {
        Obj(Some(Rc::new_cyclic(|weak| make(This(weak.clone())))))
    }
}

/// A class instance's reference to itself, C#'s `this` as a value: weak, so that an
/// instance does not keep itself alive; [`Obj::new_cyclic`] sets it.
pub struct This<T>(Weak<T>);

impl<T> This<T> {
    /// `this`: the instance whose method runs (a reference to it lives while it runs).
    #[track_caller]
    pub fn get(&self) -> Obj<T> {
        Obj(Some(
            self.0
                .upgrade()
                .expect("`this` of an instance made by `Obj::new_cyclic`"),
        ))
    }
}

/// Not yet set: what [`Obj::new_cyclic`]'s `make` replaces.
impl<T> Default for This<T> {
    fn default() -> Self {
        This(Weak::new())
    }
}

impl<T> Clone for Obj<T> {
    fn clone(&self) -> Self {
        Obj(self.0.clone())
    }
}

/// `null`: what a field or a new array's element of a class type holds.
impl<T> Default for Obj<T> {
    fn default() -> Self {
        Obj(None)
    }
}

/// Reference equality, as C#'s `==` on class instances.
impl<T> PartialEq for Obj<T> {
    fn eq(&self, other: &Self) -> bool {
        match (&self.0, &other.0) {
            (Some(a), Some(b)) => Rc::ptr_eq(a, b),
            (None, None) => true,
            _ => false,
        }
    }
}

impl<T> Deref for Obj<T> {
    type Target = T;

    #[track_caller]
    fn deref(&self) -> &T {
        self.0.as_deref().expect("a member of a null reference")
    }
}

/// A field of a class instance: read with [`get`](Var::get), written with
/// [`set`](Var::set) through a shared reference (the instance is shared).
#[derive(Default)]
pub struct Var<T>(Cell<T>);

impl<T: Clone + Default> Var<T> {
    /// A field holding `value`.
    pub fn new(value: T) -> Var<T> {
        Var(Cell::new(value))
    }

    /// The field's value.
    pub fn get(&self) -> T {
        let value = self.0.take();
        let copy = value.clone();
        self.0.set(value);
        copy
    }

    /// Writes the field.
    pub fn set(&self, value: T) {
        self.0.set(value);
    }

    /// Changes the field in place: `node.Visits += 1` is `node.visits.with(|v| *v += 1)`.
    pub fn with<R>(&self, f: impl FnOnce(&mut T) -> R) -> R {
        let mut value = self.0.take();
        let result = f(&mut value);
        self.0.set(value);
        result
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Default)]
    struct Node {
        me: This<Node>,
        visits: Var<i32>,
    }

    #[test]
    fn this_is_the_same_instance_and_does_not_keep_it_alive() {
        let node = Obj::new_cyclic(|me| Node {
            me,
            ..Node::default()
        });
        let again = node.me.get();
        again.visits.set(3);
        assert!(again == node && node.visits.get() == 3);
        let weak = Rc::downgrade(node.0.as_ref().unwrap());
        drop((node, again));
        assert!(weak.upgrade().is_none());
    }

    #[test]
    fn equals_is_reference_equality_and_throws_on_null() {
        let a = Obj::new(Node::default());
        assert!(Obj::equals(&a, &a.clone()) && !Obj::equals(&a, &Obj::new(Node::default())));
        assert!(!Obj::equals(&a, &Obj::null()));
        let null_receiver = || Obj::<Node>::equals(&Obj::null(), &Obj::null());
        assert!(std::panic::catch_unwind(null_receiver).is_err());
    }
}

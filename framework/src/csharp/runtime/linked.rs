//! [`LinkedList`] and [`LinkedListNode`]: C#'s doubly linked list and its nodes, both
//! shared by reference, with .NET's checks (a node belongs to one list at a time).

use std::cell::{Cell, RefCell};
use std::rc::Rc;
use std::sync::atomic::{AtomicU64, Ordering};

/// A node's value and where it is: its list's id and its slot there, or nowhere.
struct NodeCell<T> {
    value: RefCell<T>,
    place: Cell<Option<(u64, usize)>>,
}

/// A slot of a list: the node in it and its neighbours' slots.
struct Link<T> {
    node: Rc<NodeCell<T>>,
    prev: Option<usize>,
    next: Option<usize>,
}

/// The list's slots (a freed slot is reused), ends and identity.
struct Chain<T> {
    id: u64,
    slots: Vec<Option<Link<T>>>,
    free: Vec<usize>,
    head: Option<usize>,
    tail: Option<usize>,
    count: usize,
}

impl<T> Default for Chain<T> {
    fn default() -> Self {
        static NEXT_ID: AtomicU64 = AtomicU64::new(1);
        Chain {
            id: NEXT_ID.fetch_add(1, Ordering::Relaxed),
            slots: Vec::new(),
            free: Vec::new(),
            head: None,
            tail: None,
            count: 0,
        }
    }
}

impl<T> Chain<T> {
    fn link(&self, slot: usize) -> &Link<T> {
        self.slots[slot].as_ref().expect("a live slot")
    }

    fn link_mut(&mut self, slot: usize) -> &mut Link<T> {
        self.slots[slot].as_mut().expect("a live slot")
    }

    /// Puts a detached node at the back (or the front).
    fn attach(&mut self, node: Rc<NodeCell<T>>, at_back: bool) {
        let (prev, next) = if at_back {
            (self.tail, None)
        } else {
            (None, self.head)
        };
        let link = Link {
            node: Rc::clone(&node),
            prev,
            next,
        };
        let slot = match self.free.pop() {
            Some(slot) => {
                self.slots[slot] = Some(link);
                slot
            }
            None => {
                self.slots.push(Some(link));
                self.slots.len() - 1
            }
        };
        node.place.set(Some((self.id, slot)));
        match prev {
            Some(p) => self.link_mut(p).next = Some(slot),
            None => self.head = Some(slot),
        }
        match next {
            Some(n) => self.link_mut(n).prev = Some(slot),
            None => self.tail = Some(slot),
        }
        self.count += 1;
    }

    /// Takes the node in `slot` out of the list.
    fn detach(&mut self, slot: usize) {
        let link = self.slots[slot].take().expect("a live slot");
        link.node.place.set(None);
        match link.prev {
            Some(p) => self.link_mut(p).next = link.next,
            None => self.head = link.next,
        }
        match link.next {
            Some(n) => self.link_mut(n).prev = link.prev,
            None => self.tail = link.prev,
        }
        self.free.push(slot);
        self.count -= 1;
    }

    /// The slots from the head on.
    fn order(&self) -> Vec<usize> {
        let mut out = Vec::with_capacity(self.count);
        let mut at = self.head;
        while let Some(slot) = at {
            out.push(slot);
            at = self.link(slot).next;
        }
        out
    }
}

/// C#'s `LinkedList<T>`: `AddLast` and `AddFirst` give the node they add, which
/// `Remove(node)` and `AddLast(node)` take back; `foreach` walks from `First` to `Last`.
///
/// ```
/// use framework::prelude::*;
/// let order = cs::LinkedList::new();
/// let a = order.add_last(1u64);
/// order.add_last(2u64);
/// order.add_first(0u64);
/// order.remove_node(&a); // order.Remove(a): a is now in no list
/// order.add_last_node(&a); // ...so it can go at the back
/// assert_eq!(order.iter().collect::<Vec<_>>(), [0, 2, 1]);
/// assert_eq!((order.first().value(), order.last().value(), order.count()), (0, 1, 3));
/// order.remove_first();
/// assert!(order.remove(&1) && !order.remove(&7));
/// assert_eq!(order.iter().collect::<Vec<_>>(), [2]);
/// ```
pub struct LinkedList<T>(Rc<RefCell<Chain<T>>>);

impl<T> Clone for LinkedList<T> {
    fn clone(&self) -> Self {
        LinkedList(Rc::clone(&self.0))
    }
}

impl<T> Default for LinkedList<T> {
    fn default() -> Self {
        LinkedList(Rc::default())
    }
}

/// Reference equality, as C#'s `==`.
impl<T> PartialEq for LinkedList<T> {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

/// .NET's `InvalidOperationException` for `RemoveFirst` and `RemoveLast` of an empty list.
const EMPTY: &str = "the LinkedList is empty";

impl<T: Clone> LinkedList<T> {
    /// `new LinkedList<T>()`.
    pub fn new() -> LinkedList<T> {
        LinkedList::default()
    }

    /// `Count`.
    pub fn count(&self) -> i32 {
        self.0.borrow().count as i32
    }

    /// `AddLast(value)`: the new node.
    pub fn add_last(&self, value: T) -> LinkedListNode<T> {
        let node = LinkedListNode::detached(value);
        self.add_last_node(&node);
        node
    }

    /// `AddFirst(value)`: the new node.
    pub fn add_first(&self, value: T) -> LinkedListNode<T> {
        let node = LinkedListNode::detached(value);
        self.add_first_node(&node);
        node
    }

    /// `AddLast(node)`; panics if the node is null (C#'s `ArgumentNullException`) or in a
    /// list (`InvalidOperationException`).
    #[track_caller]
    pub fn add_last_node(&self, node: &LinkedListNode<T>) {
        self.0.borrow_mut().attach(node.free_cell(), true);
    }

    /// `AddFirst(node)`; panics as [`add_last_node`](Self::add_last_node).
    #[track_caller]
    pub fn add_first_node(&self, node: &LinkedListNode<T>) {
        self.0.borrow_mut().attach(node.free_cell(), false);
    }

    /// `First`: the head node, or null when empty.
    pub fn first(&self) -> LinkedListNode<T> {
        let chain = self.0.borrow();
        LinkedListNode(chain.head.map(|s| Rc::clone(&chain.link(s).node)))
    }

    /// `Last`: the tail node, or null when empty.
    pub fn last(&self) -> LinkedListNode<T> {
        let chain = self.0.borrow();
        LinkedListNode(chain.tail.map(|s| Rc::clone(&chain.link(s).node)))
    }

    /// `RemoveFirst()`; panics when empty (C#'s `InvalidOperationException`).
    #[track_caller]
    pub fn remove_first(&self) {
        let mut chain = self.0.borrow_mut();
        let head = chain.head.expect(EMPTY);
        chain.detach(head);
    }

    /// `RemoveLast()`; panics when empty.
    #[track_caller]
    pub fn remove_last(&self) {
        let mut chain = self.0.borrow_mut();
        let tail = chain.tail.expect(EMPTY);
        chain.detach(tail);
    }

    /// `Remove(node)`; panics if the node is null or not in this list (C#'s
    /// `ArgumentNullException`, `InvalidOperationException`).
    #[track_caller]
    pub fn remove_node(&self, node: &LinkedListNode<T>) {
        let cell = node.0.as_ref().expect("a null LinkedListNode");
        let mut chain = self.0.borrow_mut();
        match cell.place.get() {
            Some((id, slot)) if id == chain.id => chain.detach(slot),
            _ => panic!("the node is not in this LinkedList"),
        }
    }

    /// `Clear()`: every node leaves the list.
    pub fn clear(&self) {
        let mut chain = self.0.borrow_mut();
        for slot in chain.order() {
            chain.detach(slot);
        }
    }

    /// The values from `First` to `Last`, taken when asked for.
    pub fn iter(&self) -> std::vec::IntoIter<T> {
        let chain = self.0.borrow();
        let values: Vec<T> = chain
            .order()
            .into_iter()
            .map(|s| chain.link(s).node.value.borrow().clone())
            .collect();
        values.into_iter()
    }
}

impl<T: Clone + PartialEq> LinkedList<T> {
    /// `Remove(value)`: takes out the first node holding `value`; whether there was one.
    pub fn remove(&self, value: &T) -> bool {
        let mut chain = self.0.borrow_mut();
        let found = chain
            .order()
            .into_iter()
            .find(|&s| *chain.link(s).node.value.borrow() == *value);
        if let Some(slot) = found {
            chain.detach(slot);
        }
        found.is_some()
    }

    /// `Contains(value)`.
    pub fn contains(&self, value: &T) -> bool {
        self.iter().any(|v| v == *value)
    }
}

impl<T: Clone> IntoIterator for &LinkedList<T> {
    type Item = T;
    type IntoIter = std::vec::IntoIter<T>;

    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

/// C#'s `LinkedListNode<T>`: a reference to a node (or null) that keeps its value after
/// it leaves its list.
///
/// ```
/// use framework::prelude::*;
/// let list = cs::LinkedList::new();
/// let node = list.add_last('a');
/// assert!(list.first() == node && node.value() == 'a');
/// list.clear();
/// assert!(list.first().is_null() && node.value() == 'a');
/// ```
pub struct LinkedListNode<T>(Option<Rc<NodeCell<T>>>);

impl<T> Clone for LinkedListNode<T> {
    fn clone(&self) -> Self {
        LinkedListNode(self.0.clone())
    }
}

/// `null`.
impl<T> Default for LinkedListNode<T> {
    fn default() -> Self {
        LinkedListNode(None)
    }
}

/// Reference equality, as C#'s `==`.
impl<T> PartialEq for LinkedListNode<T> {
    fn eq(&self, other: &Self) -> bool {
        match (&self.0, &other.0) {
            (Some(a), Some(b)) => Rc::ptr_eq(a, b),
            (None, None) => true,
            _ => false,
        }
    }
}

impl<T: Clone> LinkedListNode<T> {
    /// `new LinkedListNode<T>(value)`: in no list.
    pub fn detached(value: T) -> LinkedListNode<T> {
        LinkedListNode(Some(Rc::new(NodeCell {
            value: RefCell::new(value),
            place: Cell::new(None),
        })))
    }

    /// `null`.
    pub fn null() -> LinkedListNode<T> {
        LinkedListNode(None)
    }

    /// `node == null`.
    pub fn is_null(&self) -> bool {
        self.0.is_none()
    }

    /// `Value`; panics on a null node (C#'s `NullReferenceException`).
    #[track_caller]
    pub fn value(&self) -> T {
        let cell = self.0.as_ref().expect("a member of a null reference");
        cell.value.borrow().clone()
    }

    /// The node, checked free to join a list.
    #[track_caller]
    fn free_cell(&self) -> Rc<NodeCell<T>> {
        let cell = self.0.as_ref().expect("a null LinkedListNode");
        assert!(
            cell.place.get().is_none(),
            "the node is already in a LinkedList"
        );
        Rc::clone(cell)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    #[should_panic(expected = "not in this LinkedList")]
    fn removing_a_node_of_another_list_panics_as_dotnet_throws() {
        let (a, b) = (LinkedList::new(), LinkedList::new());
        let node = a.add_last(1);
        b.remove_node(&node);
    }

    #[test]
    #[should_panic(expected = "already in a LinkedList")]
    fn a_node_joins_one_list_at_a_time() {
        let list = LinkedList::new();
        let node = list.add_last(1);
        list.add_last_node(&node);
    }

    #[test]
    fn remove_by_value_takes_the_first_match() {
        let list = LinkedList::new();
        let first = list.add_last(5);
        let second = list.add_last(5);
        assert!(list.remove(&5));
        assert!(list.first() == second && first != second);
        list.add_first_node(&first);
        assert_eq!(list.iter().collect::<Vec<_>>(), [5, 5]);
        assert!(list.first() == first);
    }

    #[test]
    #[should_panic(expected = "empty")]
    fn remove_first_of_an_empty_list_panics() {
        LinkedList::<i32>::new().remove_first();
    }
}

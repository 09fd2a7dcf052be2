//! [`Queue`], [`Stack`] and [`PriorityQueue`]: C#'s `Queue<T>`, `Stack<T>` and
//! `PriorityQueue<TElement, TPriority>`, shared by reference, in .NET's order.

use std::cell::RefCell;
use std::cmp::Ordering;
use std::collections::VecDeque;
use std::rc::Rc;

use super::sort::compare;

/// C#'s `Queue<T>`: first in, first out; `foreach` walks it from its front.
///
/// ```
/// use framework::prelude::*;
/// let q = cs::Queue::new();
/// q.enqueue(3u64);
/// q.enqueue(5u64);
/// assert_eq!((q.count(), q.peek(), q.contains(&5)), (2, 3, true));
/// assert_eq!(q.dequeue(), 3);
/// assert_eq!(q.iter().collect::<Vec<_>>(), [5]);
/// ```
pub struct Queue<T>(Rc<RefCell<VecDeque<T>>>);

/// C#'s `Stack<T>`: last in, first out; `foreach` walks it from its top.
///
/// ```
/// use framework::prelude::*;
/// let s = cs::Stack::new();
/// s.push(1);
/// s.push(2);
/// assert_eq!(s.iter().collect::<Vec<_>>(), [2, 1]);
/// assert_eq!((s.pop(), s.peek(), s.count()), (2, 1, 1));
/// let mut top = 0;
/// assert!(s.try_pop(&mut top) && top == 1 && !s.try_peek(&mut top) && top == 0);
/// ```
pub struct Stack<T>(Rc<RefCell<Vec<T>>>);

macro_rules! shared {
    ($name:ident) => {
        impl<T> Clone for $name<T> {
            fn clone(&self) -> Self {
                $name(Rc::clone(&self.0))
            }
        }

        impl<T> Default for $name<T> {
            fn default() -> Self {
                $name(Rc::default())
            }
        }

        /// Reference equality, as C#'s `==`.
        impl<T> PartialEq for $name<T> {
            fn eq(&self, other: &Self) -> bool {
                Rc::ptr_eq(&self.0, &other.0)
            }
        }
    };
}

shared!(Queue);
shared!(Stack);

/// .NET's message for `Peek`, `Dequeue` and `Pop` on an empty collection.
const EMPTY: &str = "the collection is empty";

impl<T: Clone> Queue<T> {
    /// `new Queue<T>()`.
    pub fn new() -> Queue<T> {
        Queue::default()
    }

    /// `Count`.
    pub fn count(&self) -> i32 {
        self.0.borrow().len() as i32
    }

    /// `Enqueue(value)`: at the back.
    pub fn enqueue(&self, value: T) {
        self.0.borrow_mut().push_back(value);
    }

    /// `Dequeue()`: takes the front; panics when empty (C#'s `InvalidOperationException`).
    #[track_caller]
    pub fn dequeue(&self) -> T {
        self.0.borrow_mut().pop_front().expect(EMPTY)
    }

    /// `Peek()`: the front; panics when empty.
    #[track_caller]
    pub fn peek(&self) -> T {
        self.0.borrow().front().cloned().expect(EMPTY)
    }

    /// `TryDequeue(out value)`: `value` is the front taken, or `T`'s default.
    pub fn try_dequeue(&self, value: &mut T) -> bool
    where
        T: Default,
    {
        let front = self.0.borrow_mut().pop_front();
        let found = front.is_some();
        *value = front.unwrap_or_default();
        found
    }

    /// `Clear()`.
    pub fn clear(&self) {
        self.0.borrow_mut().clear();
    }

    /// The elements front to back, taken when asked for.
    pub fn iter(&self) -> std::vec::IntoIter<T> {
        let items: Vec<T> = self.0.borrow().iter().cloned().collect();
        items.into_iter()
    }
}

impl<T: Clone + PartialEq> Queue<T> {
    /// `Contains(value)`.
    pub fn contains(&self, value: &T) -> bool {
        self.0.borrow().contains(value)
    }
}

impl<T: Clone> Stack<T> {
    /// `new Stack<T>()`.
    pub fn new() -> Stack<T> {
        Stack::default()
    }

    /// `Count`.
    pub fn count(&self) -> i32 {
        self.0.borrow().len() as i32
    }

    /// `Push(value)`: on top.
    pub fn push(&self, value: T) {
        self.0.borrow_mut().push(value);
    }

    /// `Pop()`: takes the top; panics when empty (C#'s `InvalidOperationException`).
    #[track_caller]
    pub fn pop(&self) -> T {
        self.0.borrow_mut().pop().expect(EMPTY)
    }

    /// `Peek()`: the top; panics when empty.
    #[track_caller]
    pub fn peek(&self) -> T {
        self.0.borrow().last().cloned().expect(EMPTY)
    }

    /// `TryPop(out value)`: `value` is the top taken, or `T`'s default.
    pub fn try_pop(&self, value: &mut T) -> bool
    where
        T: Default,
    {
        let top = self.0.borrow_mut().pop();
        let found = top.is_some();
        *value = top.unwrap_or_default();
        found
    }

    /// `TryPeek(out value)`: `value` is the top, or `T`'s default.
    pub fn try_peek(&self, value: &mut T) -> bool
    where
        T: Default,
    {
        let top = self.0.borrow().last().cloned();
        let found = top.is_some();
        *value = top.unwrap_or_default();
        found
    }

    /// `Clear()`.
    pub fn clear(&self) {
        self.0.borrow_mut().clear();
    }

    /// The elements top to bottom (C#'s order), taken when asked for.
    pub fn iter(&self) -> std::vec::IntoIter<T> {
        let items: Vec<T> = self.0.borrow().iter().rev().cloned().collect();
        items.into_iter()
    }
}

impl<T: Clone + PartialEq> Stack<T> {
    /// `Contains(value)`.
    pub fn contains(&self, value: &T) -> bool {
        self.0.borrow().contains(value)
    }
}

/// C#'s `PriorityQueue<TElement, TPriority>` with the default comparer: the least
/// priority first.
///
/// Elements of equal priority come out in the order .NET's gives them, which is neither
/// first-in-first-out nor stable: .NET keeps a quaternary min-heap in an array, and this
/// is that heap, moved up and down as .NET moves it.
///
/// ```
/// use framework::prelude::*;
/// let pq = cs::PriorityQueue::new();
/// for (element, priority) in [('a', 1), ('b', 0), ('c', 1), ('d', 1), ('e', 1), ('f', 1), ('g', 0)] {
///     pq.enqueue(element, priority);
/// }
/// let mut order = String::new();
/// while pq.count() > 0 {
///     order.push(pq.dequeue());
/// }
/// assert_eq!(order, "bgfedca"); // .NET's order: not the order of arrival among equals
/// ```
pub struct PriorityQueue<E, P>(Rc<RefCell<Vec<(E, P)>>>);

impl<E, P> Clone for PriorityQueue<E, P> {
    fn clone(&self) -> Self {
        PriorityQueue(Rc::clone(&self.0))
    }
}

impl<E, P> Default for PriorityQueue<E, P> {
    fn default() -> Self {
        PriorityQueue(Rc::default())
    }
}

/// Reference equality, as C#'s `==`.
impl<E, P> PartialEq for PriorityQueue<E, P> {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

/// The heap's arity, as .NET's (`1 << Log2Arity`).
const ARITY: usize = 4;

impl<E: Clone, P: Clone + PartialOrd> PriorityQueue<E, P> {
    /// `new PriorityQueue<TElement, TPriority>()`.
    pub fn new() -> PriorityQueue<E, P> {
        PriorityQueue::default()
    }

    /// `Count`.
    pub fn count(&self) -> i32 {
        self.0.borrow().len() as i32
    }

    /// `Enqueue(element, priority)`.
    pub fn enqueue(&self, element: E, priority: P) {
        let mut nodes = self.0.borrow_mut();
        let at = nodes.len();
        nodes.push((element.clone(), priority.clone()));
        move_up(&mut nodes, (element, priority), at);
    }

    /// `Peek()`: the element of least priority; panics when empty (C#'s
    /// `InvalidOperationException`).
    #[track_caller]
    pub fn peek(&self) -> E {
        self.0.borrow().first().map(|n| n.0.clone()).expect(EMPTY)
    }

    /// `Dequeue()`: takes the element of least priority; panics when empty.
    #[track_caller]
    pub fn dequeue(&self) -> E {
        let mut nodes = self.0.borrow_mut();
        assert!(!nodes.is_empty(), "{EMPTY}");
        let root = nodes[0].0.clone();
        remove_root(&mut nodes);
        root
    }

    /// `TryDequeue(out element, out priority)`: both are the root's, taken, or their
    /// types' defaults.
    pub fn try_dequeue(&self, element: &mut E, priority: &mut P) -> bool
    where
        E: Default,
        P: Default,
    {
        let found = self.try_peek(element, priority);
        if found {
            remove_root(&mut self.0.borrow_mut());
        }
        found
    }

    /// `TryPeek(out element, out priority)`: both are the root's, or their types'
    /// defaults.
    pub fn try_peek(&self, element: &mut E, priority: &mut P) -> bool
    where
        E: Default,
        P: Default,
    {
        let nodes = self.0.borrow();
        let (e, p) = nodes.first().cloned().unwrap_or_default();
        (*element, *priority) = (e, p);
        !nodes.is_empty()
    }

    /// `Clear()`.
    pub fn clear(&self) {
        self.0.borrow_mut().clear();
    }
}

/// .NET's `Comparer<TPriority>.Default.Compare(a, b) < 0`.
fn less<P: PartialOrd>(a: &P, b: &P) -> bool {
    compare(a, b) == Ordering::Less
}

/// .NET's `MoveUpDefaultComparer`: `node` goes in at `at`, parents of greater priority
/// moving down past it.
fn move_up<E: Clone, P: Clone + PartialOrd>(nodes: &mut [(E, P)], node: (E, P), mut at: usize) {
    while at > 0 {
        let parent = (at - 1) / ARITY;
        if !less(&node.1, &nodes[parent].1) {
            break;
        }
        nodes[at] = nodes[parent].clone();
        at = parent;
    }
    nodes[at] = node;
}

/// .NET's `RemoveRootNode`: the last node moves down from the root.
fn remove_root<E: Clone, P: Clone + PartialOrd>(nodes: &mut Vec<(E, P)>) {
    let last = nodes.pop().expect("a root");
    if !nodes.is_empty() {
        move_down(nodes, last, 0);
    }
}

/// .NET's `MoveDownDefaultComparer`: `node` sinks from `at`, the least of each group of
/// children (the first of equals) moving up past it while it is less than `node`.
fn move_down<E: Clone, P: Clone + PartialOrd>(nodes: &mut [(E, P)], node: (E, P), mut at: usize) {
    let size = nodes.len();
    loop {
        let first = at * ARITY + 1;
        if first >= size {
            break;
        }
        let mut min = first;
        for i in first + 1..(first + ARITY).min(size) {
            if less(&nodes[i].1, &nodes[min].1) {
                min = i;
            }
        }
        // Equal priorities stop here: .NET's `Compare(node, minChild) <= 0` breaks.
        if !less(&nodes[min].1, &node.1) {
            break;
        }
        nodes[at] = nodes[min].clone();
        at = min;
    }
    nodes[at] = node;
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The order .NET 8 gives: `var pq = new PriorityQueue<int, int>(); for (int i = 0; i
    /// < 12; i++) pq.Enqueue(i, i % 3);` then dequeues, traced through .NET's
    /// `MoveUpDefaultComparer` and `MoveDownDefaultComparer` by hand.
    #[test]
    fn equal_priorities_come_out_in_dotnets_heap_order() {
        let pq = PriorityQueue::new();
        for i in 0..12 {
            pq.enqueue(i, i % 3);
        }
        let order: Vec<i32> =
            std::iter::from_fn(|| (pq.count() > 0).then(|| pq.dequeue())).collect();
        assert_eq!(order, heap_order_by_hand());
    }

    /// The same heap, simulated as the array of .NET's source reads (not through the
    /// functions above): the reference for the test.
    fn heap_order_by_hand() -> Vec<i32> {
        let mut h: Vec<(i32, i32)> = Vec::new();
        for i in 0..12 {
            let node = (i, i % 3);
            let mut at = h.len();
            h.push(node);
            while at > 0 && node.1 < h[(at - 1) >> 2].1 {
                h[at] = h[(at - 1) >> 2];
                at = (at - 1) >> 2;
            }
            h[at] = node;
        }
        let mut out = Vec::new();
        while !h.is_empty() {
            out.push(h[0].0);
            let last = h.pop().unwrap();
            if h.is_empty() {
                break;
            }
            let mut at = 0;
            loop {
                let mut i = (at << 2) + 1;
                if i >= h.len() {
                    break;
                }
                let mut min = i;
                let bound = (i + 4).min(h.len());
                i += 1;
                while i < bound {
                    if h[i].1 < h[min].1 {
                        min = i;
                    }
                    i += 1;
                }
                if last.1 <= h[min].1 {
                    break;
                }
                h[at] = h[min];
                at = min;
            }
            h[at] = last;
        }
        out
    }

    #[test]
    fn an_empty_queue_gives_defaults_to_try_dequeue() {
        let pq: PriorityQueue<i32, i32> = PriorityQueue::new();
        let (mut e, mut p) = (5, 6);
        assert!(!pq.try_dequeue(&mut e, &mut p));
        assert_eq!((e, p), (0, 0));
    }
}

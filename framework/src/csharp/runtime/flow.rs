//! C#'s `try`/`catch`: a body run in a closure, and how it left.

use std::any::Any;
use std::cell::Cell;
use std::panic::{AssertUnwindSafe, catch_unwind, resume_unwind};

/// How a `try` body ended, for the statements a closure cannot run itself: the port's
/// `try_catch(|| ...)` body returns one, and the code after it does the `return`,
/// `break` or `continue`.
pub enum Flow<R> {
    /// It ran to its end.
    Normal,
    /// It returned a value (`Return(())` in a method without one).
    Return(R),
    /// `break` out of the loop around the `try`.
    Break,
    /// `continue` the loop around the `try`.
    Continue,
}

/// C#'s `try { body } catch { }`: runs `body`; `None` if it threw.
///
/// A C# `catch` without a type (or with `Exception`) catches every exception: the
/// search abort a bot throws on time ([`abort_search`](crate::search::abort_search)), and
/// also an index out of range or a division by zero. This catches every panic too, so a
/// port goes on where its C# source would, under the kit's UCI host as well: the host's
/// panic hook, which ends the engine at any other panic, lets a panic inside `body` on
/// this thread unwind to here, quietly. Outside the host a caught
/// panic still prints its message on stderr.
///
/// ```
/// use framework::prelude::*;
/// assert_eq!(cs::try_catch(|| 7), Some(7));
/// assert_eq!(cs::try_catch(|| -> i32 { abort_search() }), None);
/// let table = cs::Array::<i32>::new(2);
/// assert_eq!(cs::try_catch(|| table.get(5)), None); // IndexOutOfRangeException, caught
/// ```
pub fn try_catch<R>(body: impl FnOnce() -> R) -> Option<R> {
    let _inside = Inside::enter();
    let result = catch_unwind(AssertUnwindSafe(body)).ok();
    UNWINDING.set(false);
    result
}

/// The body of C#'s `try { body } finally { .. }`, run up to the `finally`: its value,
/// or the exception passing through it, which [`after_finally`] throws on once the port
/// has run the `finally` block (written between the two calls, so that it may use what
/// `body` borrowed).
///
/// A panic reaches here only when a [`try_catch`] further out will catch it, as C# runs
/// a `finally` on the way to the `catch`; the `finally` block runs as ordinary code (an
/// exception it throws replaces the one passing through, as in C#).
///
/// ```
/// use framework::prelude::*;
/// let mut log = Vec::new();
/// let caught = cs::try_catch(|| {
///     let body = cs::try_finally(|| -> i32 { abort_search() });
///     log.push("finally");
///     cs::after_finally(body)
/// });
/// assert_eq!((caught, log), (None, vec!["finally"]));
/// let body = cs::try_finally(|| 7);
/// assert_eq!(cs::after_finally(body), 7);
/// ```
pub fn try_finally<R>(body: impl FnOnce() -> R) -> Result<R, Thrown> {
    let result = catch_unwind(AssertUnwindSafe(body)).map_err(Thrown);
    // The `finally` block runs as ordinary code: a panic in it is a new one.
    UNWINDING.set(false);
    result
}

/// After a `finally` block: the [`try_finally`] body's value, or its exception thrown on.
pub fn after_finally<R>(body: Result<R, Thrown>) -> R {
    match body {
        Ok(value) => value,
        Err(Thrown(payload)) => {
            UNWINDING.set(true);
            resume_unwind(payload)
        }
    }
}

/// An exception .NET throws where the port's types would otherwise make up a value, such
/// as `Enum.GetValues(typeof(Square))` (`Square` is a struct, not an enum: C# throws
/// `ArgumentException` when the call runs). Typed as whatever the call returns, so the
/// code around it translates as C#'s does; a [`try_catch`] catches it, as C#'s `catch`.
///
/// ```
/// use framework::prelude::*;
/// let values = cs::try_catch(|| -> cs::Seq<i32> { cs::throw("ArgumentException") });
/// assert!(values.is_none());
/// ```
pub fn throw<T>(exception: &str) -> T {
    panic!("{exception}")
}

/// An exception passing through a `try`/`finally` ([`try_finally`]).
pub struct Thrown(Box<dyn Any + Send>);

impl std::fmt::Debug for Thrown {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Thrown")
    }
}

thread_local! {
    /// How many [`try_catch`] bodies this thread is running, innermost last.
    static DEPTH: Cell<u32> = const { Cell::new(0) };
    /// A panic on this thread is unwinding to a [`try_catch`] and has not reached it.
    static UNWINDING: Cell<bool> = const { Cell::new(false) };
}

/// Counts a [`try_catch`] body in [`DEPTH`] while it runs, however it ends.
struct Inside;

impl Inside {
    fn enter() -> Inside {
        DEPTH.set(DEPTH.get() + 1);
        Inside
    }
}

impl Drop for Inside {
    fn drop(&mut self) {
        DEPTH.set(DEPTH.get() - 1);
    }
}

/// For a panic hook: `true` if the panic now starting will be caught by a [`try_catch`]
/// on this thread, as C#'s `catch` would catch it, so the hook should let it unwind.
///
/// Only a panic inside a `try_catch` body on the panicking thread is caught: a panic on
/// another thread, after the body returned, or while another panic is still unwinding to
/// its `try_catch` (a `Drop` that panics on the way, which Rust answers by aborting the
/// process) gives `false`, and the hook ends the engine with its message as for any
/// other panic. Nothing but `try_catch` changes the count, and it cannot be left raised:
/// the count is the number of its bodies on the stack.
pub(crate) fn caught_here() -> bool {
    if DEPTH.get() == 0 || UNWINDING.get() {
        return false;
    }
    UNWINDING.set(true);
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_first_panic_inside_a_try_is_caught_here() {
        assert!(!caught_here(), "outside any try");
        let inside = try_catch(|| {
            let first = caught_here();
            let second = caught_here(); // a panic while the first still unwinds
            (first, second)
        });
        assert_eq!(inside, Some((true, false)));
        assert!(!caught_here(), "after the try returned");
        let nested = try_catch(|| {
            let inner = try_catch(|| -> bool { caught_here() && panic!("caught") });
            (inner, caught_here())
        });
        assert_eq!(
            nested,
            Some((None, true)),
            "the inner catch ends the unwinding"
        );
        assert!(!caught_here());
    }

    #[test]
    fn a_finally_runs_then_its_exception_goes_on_to_the_catch() {
        let mut ran = 0;
        let caught = try_catch(|| {
            let body = try_finally(|| -> i32 { panic!("thrown") });
            ran += 1;
            after_finally(body)
        });
        assert_eq!((caught, ran), (None, 1));
        assert!(!caught_here(), "the catch ends the unwinding");
        assert_eq!(after_finally(try_finally(|| 5)), 5);
    }
}

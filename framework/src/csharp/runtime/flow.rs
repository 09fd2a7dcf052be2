//! C#'s `try`/`catch`: a body run in a closure, and how it left.

use std::panic::{AssertUnwindSafe, catch_unwind};

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
/// port goes on where its C# source would. A panic other than the abort still prints
/// its message on stderr.
///
/// ```
/// use framework::prelude::*;
/// assert_eq!(cs::try_catch(|| 7), Some(7));
/// assert_eq!(cs::try_catch(|| -> i32 { abort_search() }), None);
/// let table = cs::Array::<i32>::new(2);
/// assert_eq!(cs::try_catch(|| table.get(5)), None); // IndexOutOfRangeException, caught
/// ```
pub fn try_catch<R>(body: impl FnOnce() -> R) -> Option<R> {
    catch_unwind(AssertUnwindSafe(body)).ok()
}

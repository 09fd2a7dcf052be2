//! [`StringBuilder`]: C#'s `System.Text.StringBuilder`, shared by reference.

use std::cell::RefCell;
use std::rc::Rc;

/// C#'s `StringBuilder`: text in UTF-16 code units (C#'s `char`s), appended to and
/// indexed in place.
///
/// ```
/// use framework::prelude::*;
/// let row = cs::StringBuilder::with_text("11p1");
/// row.set(2, 'B' as u16); // row[2] = 'B';
/// row.append("/");
/// row.append_char('k' as u16);
/// assert_eq!((row.text(), row.length(), row.get(0)), ("11B1/k".to_string(), 6, '1' as u16));
/// ```
pub struct StringBuilder(Rc<RefCell<Vec<u16>>>);

impl Clone for StringBuilder {
    fn clone(&self) -> Self {
        StringBuilder(Rc::clone(&self.0))
    }
}

/// Empty (what a field holds before the bot makes one).
impl Default for StringBuilder {
    fn default() -> Self {
        StringBuilder(Rc::default())
    }
}

/// Reference equality, as C#'s `==`.
impl PartialEq for StringBuilder {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

impl StringBuilder {
    /// `new StringBuilder()`.
    pub fn new() -> StringBuilder {
        StringBuilder::default()
    }

    /// `new StringBuilder(text)`.
    pub fn with_text(text: &str) -> StringBuilder {
        StringBuilder(Rc::new(RefCell::new(text.encode_utf16().collect())))
    }

    /// `Append(text)` of a string.
    pub fn append(&self, text: &str) {
        self.0.borrow_mut().extend(text.encode_utf16());
    }

    /// `Append(c)` of a `char`.
    pub fn append_char(&self, c: u16) {
        self.0.borrow_mut().push(c);
    }

    /// `sb[i]`; panics out of range (C#'s `IndexOutOfRangeException`).
    #[track_caller]
    pub fn get(&self, i: i32) -> u16 {
        let units = self.0.borrow();
        *usize::try_from(i)
            .ok()
            .and_then(|i| units.get(i))
            .expect("index out of range")
    }

    /// `sb[i] = c`; panics out of range (C#'s `ArgumentOutOfRangeException`).
    #[track_caller]
    pub fn set(&self, i: i32, c: u16) {
        let mut units = self.0.borrow_mut();
        let unit = usize::try_from(i)
            .ok()
            .and_then(|i| units.get_mut(i))
            .expect("index out of range");
        *unit = c;
    }

    /// Changes `sb[i]` in place; panics out of range.
    #[track_caller]
    pub fn with<R>(&self, i: i32, f: impl FnOnce(&mut u16) -> R) -> R {
        let mut c = self.get(i);
        let result = f(&mut c);
        self.set(i, c);
        result
    }

    /// `Length`.
    pub fn length(&self) -> i32 {
        self.0.borrow().len() as i32
    }

    /// `ToString()` (a lone surrogate, which a Rust string cannot hold, becomes U+FFFD).
    pub fn text(&self) -> String {
        String::from_utf16_lossy(&self.0.borrow())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn indices_count_utf16_units_as_csharp() {
        let sb = StringBuilder::with_text("é😀");
        assert_eq!(sb.length(), 3);
        sb.set(0, 'e' as u16);
        assert_eq!(sb.text(), "e😀");
    }

    #[test]
    #[should_panic(expected = "out of range")]
    fn an_index_past_the_end_panics() {
        StringBuilder::new().get(0);
    }
}

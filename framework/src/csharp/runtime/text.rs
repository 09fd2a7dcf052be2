//! C#'s `string` and `char` operations, on Rust's `String` and C#'s UTF-16 code units
//! (`u16`): indexes and lengths count code units, as C#'s do.

use super::array::Array;

fn units(s: &str) -> Vec<u16> {
    s.encode_utf16().collect()
}

/// `s.Length`.
pub fn str_len(s: &str) -> i32 {
    s.encode_utf16().count() as i32
}

/// `s[i]`; panics out of range as C# throws.
///
/// ```
/// use framework::prelude::*;
/// assert_eq!(cs::char_at("rnbqkbnr", 3), 'q' as u16);
/// ```
#[track_caller]
pub fn char_at(s: &str, index: i32) -> u16 {
    let u = units(s);
    *usize::try_from(index)
        .ok()
        .and_then(|i| u.get(i))
        .expect("index out of range")
}

/// `s.Substring(start, length)` (`length` -1: to the end).
///
/// ```
/// use framework::prelude::*;
/// assert_eq!(cs::substring("e2e4", 2, 2), "e4");
/// assert_eq!(cs::substring("e2e4q", 4, -1), "q");
/// ```
#[track_caller]
pub fn substring(s: &str, start: i32, length: i32) -> String {
    let u = units(s);
    let start = usize::try_from(start)
        .ok()
        .filter(|i| *i <= u.len())
        .expect("a substring start out of range");
    let end = if length < 0 {
        u.len()
    } else {
        start + length as usize
    };
    assert!(end <= u.len(), "a substring length out of range");
    String::from_utf16_lossy(&u[start..end])
}

/// `s.Split(separator)`: every piece, empty ones included.
///
/// ```
/// use framework::prelude::*;
/// let parts = cs::split("8/8/k7 w - -", " ");
/// assert_eq!((parts.len(), parts.get(0)), (4, "8/8/k7".to_string()));
/// ```
pub fn split(s: &str, separator: &str) -> Array<String> {
    Array::from(s.split(separator).map(str::to_string).collect::<Vec<_>>())
}

/// `s.IndexOf(x)`: the first code-unit index of `x`, or -1.
pub fn index_of(s: &str, x: &str) -> i32 {
    match s.find(x) {
        Some(byte) => str_len(&s[..byte]),
        None => -1,
    }
}

/// `int.Parse(s)`: surrounding white space and a sign allowed; panics on anything else
/// (C#'s `FormatException`).
///
/// ```
/// use framework::prelude::*;
/// assert_eq!(cs::parse_int(" -42 "), -42);
/// ```
#[track_caller]
pub fn parse_int(s: &str) -> i32 {
    s.trim()
        .parse()
        .expect("int.Parse of something not a number")
}

/// `char.IsDigit(c)` (ASCII digits; C# also accepts other scripts' decimal digits).
pub fn is_digit(c: u16) -> bool {
    (u16::from(b'0')..=u16::from(b'9')).contains(&c)
}

/// `char.IsLetter(c)`.
pub fn is_letter(c: u16) -> bool {
    char::from_u32(u32::from(c)).is_some_and(char::is_alphabetic)
}

/// `char.IsUpper(c)`.
pub fn is_upper(c: u16) -> bool {
    char::from_u32(u32::from(c)).is_some_and(char::is_uppercase)
}

/// `char.IsLower(c)`.
pub fn is_lower(c: u16) -> bool {
    char::from_u32(u32::from(c)).is_some_and(char::is_lowercase)
}

/// `char.ToLower(c)`.
pub fn to_lower(c: u16) -> u16 {
    char::from_u32(u32::from(c))
        .and_then(|c| c.to_lowercase().next())
        .map_or(c, |l| l as u16)
}

/// `char.ToUpper(c)`.
pub fn to_upper(c: u16) -> u16 {
    char::from_u32(u32::from(c))
        .and_then(|c| c.to_uppercase().next())
        .map_or(c, |u| u as u16)
}

/// `char.GetNumericValue(c)`: the digit's value, -1 for a character that is not one.
pub fn numeric_value(c: u16) -> f64 {
    if is_digit(c) {
        f64::from(c - u16::from(b'0'))
    } else {
        -1.0
    }
}

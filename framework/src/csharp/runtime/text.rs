//! C#'s `string` and `char` operations, on Rust's `String` and C#'s UTF-16 code units
//! (`u16`): indexes and lengths count code units, as C#'s do.

use super::array::Array;
use crate::chess::{Move, Square};

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

/// An integer's `ToString(format)` for the formats `D`, `Dn` (decimal, at least `n`
/// digits, the sign before them), `X`, `Xn`, `x`, `xn` (hexadecimal of the value's
/// `bits`-wide two's complement, at least `n` digits). The port accepts no other format.
///
/// ```
/// use framework::prelude::*;
/// assert_eq!(cs::format_int(42, 64, "D5"), "00042");
/// assert_eq!(cs::format_int(-42, 64, "D5"), "-00042");
/// assert_eq!(cs::format_int(-1, 32, "X"), "FFFFFFFF");
/// assert_eq!(cs::format_int(255, 64, "x4"), "00ff");
/// assert_eq!(cs::format_int(7, 32, "D"), "7");
/// ```
#[track_caller]
pub fn format_int(value: i128, bits: u32, format: &str) -> String {
    let (kind, digits) = format.split_at(1);
    let width: usize = if digits.is_empty() {
        0
    } else {
        digits.parse().expect("a format's digit count")
    };
    match kind {
        "D" | "d" => {
            let sign = if value < 0 { "-" } else { "" };
            format!("{sign}{:0width$}", value.unsigned_abs())
        }
        "X" | "x" => {
            let bits = value as u128 & (u128::MAX >> (128 - bits));
            if kind == "X" {
                format!("{bits:0width$X}")
            } else {
                format!("{bits:0width$x}")
            }
        }
        _ => panic!("the format {format:?} is not translated"),
    }
}

/// A `bool`'s text in C#: `True` or `False` (`b.ToString()`, `$"{b}"`, `"" + b`).
///
/// ```
/// use framework::prelude::*;
/// assert_eq!(format!("{}{}", cs::bool_text(true), cs::bool_text(false)), "TrueFalse");
/// ```
pub fn bool_text(b: bool) -> &'static str {
    if b { "True" } else { "False" }
}

/// A `Move`'s text in the C# API: `Move: 'e2e4'`, `Move: 'e7e8q'`, `Move: 'Null'`.
///
/// ```
/// use framework::prelude::*;
/// let board = Board::default();
/// assert_eq!(cs::move_text(board.parse_uci("e2e4").unwrap()), "Move: 'e2e4'");
/// assert_eq!(cs::move_text(Move::NULL), "Move: 'Null'");
/// ```
pub fn move_text(m: Move) -> String {
    if m.is_null() {
        return "Move: 'Null'".to_string();
    }
    format!("Move: '{m}'")
}

/// A `Square`'s text in the C# API: `'e4' (Index = 28, File = 4, Rank = 3)`.
///
/// ```
/// use framework::prelude::*;
/// assert_eq!(cs::square_text(Square::E4), "'e4' (Index = 28, File = 4, Rank = 3)");
/// ```
pub fn square_text(s: Square) -> String {
    let i = s.index();
    format!("'{s}' (Index = {i}, File = {}, Rank = {})", i % 8, i / 8)
}

/// A `PieceType`'s text (its C# name), from C#'s piece number.
///
/// ```
/// use framework::prelude::*;
/// assert_eq!(cs::piece_type_text(cs::KNIGHT), "Knight");
/// assert_eq!(cs::piece_type_text(9), "9");
/// ```
pub fn piece_type_text(piece_type: i32) -> String {
    const NAMES: [&str; 7] = ["None", "Pawn", "Knight", "Bishop", "Rook", "Queen", "King"];
    usize::try_from(piece_type)
        .ok()
        .and_then(|i| NAMES.get(i))
        .map_or_else(|| piece_type.to_string(), |n| (*n).to_string())
}

/// A `double`'s text as .NET (Core 3.0 and later) writes it: the shortest digits that read
/// back as the same value, in scientific notation (`1E+15`, `1.5E-05`) where the exponent
/// is 15 or more or below -4, `∞`, `-∞` and `NaN` for the others.
///
/// ```
/// use framework::prelude::*;
/// assert_eq!(cs::double_text(0.1 + 0.2), "0.30000000000000004");
/// assert_eq!(cs::double_text(1.6e20), "1.6E+20");
/// assert_eq!(cs::double_text(160.0), "160");
/// assert_eq!(cs::double_text(1e14), "100000000000000");
/// assert_eq!(cs::double_text(0.0001), "0.0001");
/// assert_eq!(cs::double_text(-1.5e-5), "-1.5E-05");
/// assert_eq!(cs::double_text(f64::NEG_INFINITY), "-∞");
/// ```
pub fn double_text(x: f64) -> String {
    real_text(x, format!("{x:e}"), 15)
}

/// A `float`'s text as .NET writes it: as [`double_text`], in scientific notation from
/// an exponent of 7 (`1E+07`).
///
/// ```
/// use framework::prelude::*;
/// assert_eq!(cs::float_text(0.1), "0.1");
/// assert_eq!(cs::float_text(1e7), "1E+07");
/// assert_eq!(cs::float_text(1234567.0), "1234567");
/// ```
pub fn float_text(x: f32) -> String {
    real_text(f64::from(x), format!("{x:e}"), 7)
}

/// The text of a real whose shortest digits Rust gives as `scientific` (`1.6e20`), with
/// fixed notation for exponents from -4 up to `precision` (excluded).
fn real_text(x: f64, scientific: String, precision: i32) -> String {
    if x.is_nan() {
        return "NaN".to_string();
    }
    if x.is_infinite() {
        return if x > 0.0 { "∞" } else { "-∞" }.to_string();
    }
    let (digits, exponent) = scientific.split_once('e').expect("Rust's {:e} has an e");
    let exponent: i32 = exponent.parse().expect("an exponent");
    if (-5 < exponent && exponent < precision) || x == 0.0 {
        return fixed_text(digits, exponent);
    }
    let sign = if exponent < 0 { '-' } else { '+' };
    format!("{digits}E{sign}{:02}", exponent.unsigned_abs())
}

/// `d.ddd` times ten to `exponent` in fixed notation, as shortest digits give it.
fn fixed_text(digits: &str, exponent: i32) -> String {
    let (sign, digits) = match digits.strip_prefix('-') {
        Some(rest) => ("-", rest),
        None => ("", digits),
    };
    let all: String = digits.chars().filter(char::is_ascii_digit).collect();
    let point = exponent + 1;
    let text = if point <= 0 {
        format!("0.{}{all}", "0".repeat(point.unsigned_abs() as usize))
    } else if point as usize >= all.len() {
        format!("{all}{}", "0".repeat(point as usize - all.len()))
    } else {
        let (int, frac) = all.split_at(point as usize);
        format!("{int}.{frac}")
    };
    format!("{sign}{text}")
}

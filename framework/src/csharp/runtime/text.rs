//! C#'s `string` and `char` operations, on Rust's `String` and C#'s UTF-16 code units
//! (`u16`): indexes and lengths count code units, as C#'s do.

use super::array::Array;
use crate::chess::{Move, Square};

fn units(s: &str) -> Vec<u16> {
    s.encode_utf16().collect()
}

/// `string.Concat(strings)` of a sequence of strings: them, joined with nothing.
///
/// ```
/// use framework::prelude::*;
/// let parts = cs::Array::from(vec!["12".to_string(), "034".to_string()]);
/// assert_eq!(cs::string_concat(parts.iter()), "12034");
/// ```
pub fn string_concat(strings: impl IntoIterator<Item = String>) -> String {
    strings.into_iter().collect()
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

/// `s.Remove(start)`: the code units before `start`; .NET throws
/// `ArgumentOutOfRangeException` unless `0 <= start <= s.Length`.
///
/// ```
/// use framework::prelude::*;
/// assert_eq!(cs::remove_from("e2e4", 2), "e2");
/// assert_eq!(cs::remove_from("e2e4", 4), "e2e4");
/// ```
#[track_caller]
pub fn remove_from(s: &str, start: i32) -> String {
    let u = units(s);
    let start = usize::try_from(start)
        .ok()
        .filter(|i| *i <= u.len())
        .expect("a remove start out of range");
    String::from_utf16_lossy(&u[..start])
}

/// `s.Remove(start, count)`: without the `count` code units from `start`; .NET throws
/// `ArgumentOutOfRangeException` when either is negative or the range leaves `s`.
///
/// ```
/// use framework::prelude::*;
/// assert_eq!(cs::remove("e2e4q", 1, 2), "e4q");
/// ```
#[track_caller]
pub fn remove(s: &str, start: i32, count: i32) -> String {
    let u = units(s);
    let (Ok(start), Ok(count)) = (usize::try_from(start), usize::try_from(count)) else {
        panic!("a negative remove start or count")
    };
    assert!(
        start <= u.len() && count <= u.len() - start,
        "a remove range out of the string"
    );
    let kept: Vec<u16> = u[..start]
        .iter()
        .chain(&u[start + count..])
        .copied()
        .collect();
    String::from_utf16_lossy(&kept)
}

/// `Encoding.ASCII.GetString(bytes)`: a byte above 127 is not ASCII and reads as `?`,
/// .NET's replacement fallback.
///
/// ```
/// use framework::prelude::*;
/// let bytes = cs::Array::from(vec![b'K', 0xC3, b'q']);
/// assert_eq!(cs::ascii_get_string(&bytes), "K?q");
/// ```
pub fn ascii_get_string(bytes: &Array<u8>) -> String {
    bytes
        .iter()
        .map(|b| if b < 0x80 { char::from(b) } else { '?' })
        .collect()
}

/// `Encoding.ASCII.GetBytes(s)`: a code unit above 127 becomes `?` (63), and so does a
/// surrogate pair, once, as .NET's replacement fallback does.
///
/// ```
/// use framework::prelude::*;
/// assert_eq!(cs::ascii_get_bytes("é1").to_vec(), [63, b'1']);
/// assert_eq!(cs::ascii_get_bytes("\u{1F600}!").to_vec(), [63, b'!']);
/// ```
pub fn ascii_get_bytes(s: &str) -> Array<u8> {
    let bytes: Vec<u8> = s
        .chars()
        .map(|c| u8::try_from(c).ok().filter(u8::is_ascii).unwrap_or(b'?'))
        .collect();
    Array::from(bytes)
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

/// `double.Parse(s)` as .NET (Core 3.0 and later) reads it in the invariant culture
/// (`NumberStyles.Float | AllowThousands`): white space around, a leading sign, digits
/// with `,` group separators after the first digit and before the point, a `.` point, an
/// exponent; `Infinity` and `NaN` in any case, signed or not; trailing NUL characters.
/// The value is the nearest double (too large: infinity, as .NET gives). Anything else
/// panics, as C# throws `FormatException`.
///
/// ```
/// use framework::prelude::*;
/// assert_eq!(cs::parse_double(" -1,250.5e1 "), -12505.0);
/// assert_eq!(cs::parse_double(".5"), 0.5);
/// assert!(cs::parse_double("-infinity").is_infinite());
/// ```
#[track_caller]
pub fn parse_double(s: &str) -> f64 {
    float_digits(s)
        .and_then(|digits| digits.parse().ok())
        .or_else(|| special_double(s))
        .expect("double.Parse of something not a number")
}

/// .NET's white space for number parsing: tab to carriage return, and space.
fn number_space(c: char) -> bool {
    matches!(c, '\t'..='\r' | ' ')
}

/// `s`'s number with its group separators dropped, if it has .NET's float form.
fn float_digits(s: &str) -> Option<String> {
    let s = s.trim_end_matches('\0').trim_matches(number_space);
    let (sign, rest) = match s.as_bytes().first() {
        Some(b'-') => ("-", &s[1..]),
        Some(b'+') => ("", &s[1..]),
        _ => ("", s),
    };
    let mut out = String::from(sign);
    let mut chars = rest.chars().peekable();
    let (mut digits, mut point) = (false, false);
    while let Some(&c) = chars.peek() {
        match c {
            '0'..='9' => digits = true,
            '.' if !point => point = true,
            ',' if digits && !point => {
                chars.next();
                continue;
            }
            _ => break,
        }
        out.push(c);
        chars.next();
    }
    let exponent: String = chars.collect();
    let exponent_ok = exponent.is_empty() || {
        let e = exponent.strip_prefix(['e', 'E'])?;
        let e = e.strip_prefix(['+', '-']).unwrap_or(e);
        !e.is_empty() && e.bytes().all(|b| b.is_ascii_digit())
    };
    (digits && exponent_ok).then(|| out + &exponent)
}

/// `Infinity`, `-Infinity` and `NaN`, case ignored, a sign allowed.
fn special_double(s: &str) -> Option<f64> {
    let s = s
        .trim_end_matches('\0')
        .trim_matches(number_space)
        .to_ascii_lowercase();
    let (negative, word) = match s.as_bytes().first() {
        Some(b'-') => (true, &s[1..]),
        Some(b'+') => (false, &s[1..]),
        _ => (false, s.as_str()),
    };
    match word {
        "infinity" if negative => Some(f64::NEG_INFINITY),
        "infinity" => Some(f64::INFINITY),
        "nan" => Some(f64::NAN),
        _ => None,
    }
}

/// `s.TrimEnd(chars)`: `s` without the code units of `chars` at its end.
///
/// ```
/// use framework::prelude::*;
/// assert_eq!(cs::trim_end("e2e4\r\r", &['\r' as u16]), "e2e4");
/// ```
pub fn trim_end(s: &str, chars: &[u16]) -> String {
    let u = units(s);
    let end = u
        .iter()
        .rposition(|c| !chars.contains(c))
        .map_or(0, |i| i + 1);
    String::from_utf16_lossy(&u[..end])
}

/// `s.TrimStart(chars)`: `s` without the code units of `chars` at its start.
///
/// ```
/// use framework::prelude::*;
/// assert_eq!(cs::trim_start("00042", &['0' as u16]), "42");
/// ```
pub fn trim_start(s: &str, chars: &[u16]) -> String {
    let u = units(s);
    let start = u.iter().position(|c| !chars.contains(c)).unwrap_or(u.len());
    String::from_utf16_lossy(&u[start..])
}

/// `s.PadLeft(width, c)`: `s` after as many `c` as make it `width` UTF-16 code units
/// (`s` itself if it is as long); a negative width panics, as C# throws.
///
/// ```
/// use framework::prelude::*;
/// assert_eq!(cs::pad_left("7", 3, '0' as u16), "007");
/// assert_eq!(cs::pad_left("1234", 3, ' ' as u16), "1234");
/// ```
#[track_caller]
pub fn pad_left(s: &str, width: i32, c: u16) -> String {
    format!("{}{s}", padding(s, width, c))
}

/// `s.PadRight(width, c)`: as [`pad_left`], the padding after `s`.
///
/// ```
/// use framework::prelude::*;
/// assert_eq!(cs::pad_right("ab", 4, '.' as u16), "ab..");
/// ```
#[track_caller]
pub fn pad_right(s: &str, width: i32, c: u16) -> String {
    format!("{s}{}", padding(s, width, c))
}

#[track_caller]
fn padding(s: &str, width: i32, c: u16) -> String {
    let width = usize::try_from(width).expect("a negative padding width");
    let len = s.encode_utf16().count();
    super::char_to_string(c).repeat(width.saturating_sub(len))
}

/// `new string(chars)`: the string of those UTF-16 code units (an unpaired surrogate,
/// which a Rust string cannot hold, becomes U+FFFD, as in [`char_to_string`](super::char_to_string)).
///
/// ```
/// use framework::prelude::*;
/// let chars = cs::Array::from(vec!['e' as u16, '2' as u16]);
/// assert_eq!(cs::string_from_chars(&chars), "e2");
/// ```
pub fn string_from_chars(chars: &Array<u16>) -> String {
    String::from_utf16_lossy(&chars.to_vec())
}

/// `new string(c, count)`: `count` copies of `c`; a negative count panics, as C# throws.
///
/// ```
/// use framework::prelude::*;
/// assert_eq!(cs::string_of_char('-' as u16, 3), "---");
/// ```
#[track_caller]
pub fn string_of_char(c: u16, count: i32) -> String {
    let count = usize::try_from(count).expect("new string with a negative count");
    super::char_to_string(c).repeat(count)
}

/// `piece.ToString()`: `Null` for no piece, else its colour and type (`White Knight`),
/// as the API's `Piece.ToString` writes it.
///
/// ```
/// use framework::prelude::*;
/// let board = Board::startpos();
/// assert_eq!(cs::piece_text(cs::Piece::at(&board, Square::G8)), "Black Knight");
/// assert_eq!(cs::piece_text(cs::Piece::default()), "Null");
/// ```
pub fn piece_text(piece: super::Piece) -> String {
    if piece.is_null() {
        return "Null".to_string();
    }
    let colour = if piece.is_white { "White" } else { "Black" };
    format!("{colour} {}", piece_type_text(piece.piece_type))
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
/// assert_eq!(cs::square_text(cs::square(-1)), "'h0' (Index = -1, File = 7, Rank = -1)");
/// ```
pub fn square_text(s: Square) -> String {
    let (i, file, rank) = (s.raw(), s.file(), s.rank());
    format!("'{s}' (Index = {i}, File = {file}, Rank = {rank})")
}

/// A `decimal`'s text (`ToString()`, from `decimal.GetBits`' four ints) as .NET writes
/// it: every digit of its 96-bit integer with the point its scale puts, trailing zeros
/// kept (`1.50m` is `1.50`), a `-` unless the value is zero (.NET writes `-0m` as `0`).
///
/// ```
/// use framework::prelude::*;
/// assert_eq!(cs::decimal_text([150, 0, 0, 2 << 16]), "1.50");
/// assert_eq!(cs::decimal_text([5, 0, 0, i32::MIN | 3 << 16]), "-0.005");
/// assert_eq!(cs::decimal_text([0, 0, 0, i32::MIN]), "0");
/// ```
pub fn decimal_text(bits: [i32; 4]) -> String {
    let magnitude =
        (bits[0] as u32 as u128) | (bits[1] as u32 as u128) << 32 | (bits[2] as u32 as u128) << 64;
    let scale = ((bits[3] >> 16) & 0xFF) as usize;
    let digits = format!("{magnitude:0>width$}", width = scale + 1);
    let (int, frac) = digits.split_at(digits.len() - scale);
    let sign = if bits[3] < 0 && magnitude != 0 {
        "-"
    } else {
        ""
    };
    if scale == 0 {
        format!("{sign}{int}")
    } else {
        format!("{sign}{int}.{frac}")
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    #[should_panic(expected = "out of range")]
    fn remove_past_the_end_throws() {
        remove_from("abc", 4);
    }

    #[test]
    #[should_panic(expected = "negative")]
    fn remove_of_a_negative_count_throws() {
        remove("abc", 1, -1);
    }

    #[test]
    fn double_parse_reads_what_dotnet_reads() {
        assert_eq!(parse_double("1,,2.5"), 12.5);
        assert_eq!(parse_double("\t+3.\0"), 3.0);
        assert_eq!(parse_double("1e400"), f64::INFINITY);
        assert!(parse_double("-0").is_sign_negative());
        assert!(parse_double(" NaN ").is_nan());
        assert_eq!(parse_double("-INFINITY"), f64::NEG_INFINITY);
    }

    #[test]
    fn double_parse_refuses_what_dotnet_refuses() {
        for bad in [
            ",1", "1.2,3", ".", "1e", "1e+", "- 1", "1 2", "", "inf", "0x10", "1\0 ",
        ] {
            assert!(
                std::panic::catch_unwind(|| parse_double(bad)).is_err(),
                "{bad:?}"
            );
        }
    }

    #[test]
    fn trims_and_char_strings() {
        assert_eq!(trim_end("ab", &['a' as u16, 'b' as u16]), "");
        assert_eq!(trim_start("", &['a' as u16]), "");
        assert_eq!(string_of_char('x' as u16, 0), "");
        assert!(std::panic::catch_unwind(|| string_of_char('x' as u16, -1)).is_err());
    }
}

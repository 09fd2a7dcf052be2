//! Variants of a bot file: constants marked with a free comment, and files that differ from
//! the bot in nothing but those constants' values.
//!
//! A **mark** is a line comment on the line of a `const` item (comments cost no tokens, so
//! a mark never changes a bot's count):
//!
//! ```text
//! const TT_BITS: u32 = 20; // vary 13..=20
//! const MARGIN: i32 = 150; // vary 50..=300 step 50
//! const SCHEME: Scheme = Scheme::Deep; // vary Scheme::Deep|Scheme::New|Scheme::Old
//! const KNIGHT: i32 = 300; // tune 200..=400
//! ```
//!
//! - `vary MIN..=MAX`: every integer from `MIN` to `MAX`, both included; `step S` takes every
//!   `S`th from `MIN` (as `step_by` does, so `MAX` is left out when the steps miss it).
//! - `vary A|B|C`: a list of alternatives, each a number, `true`/`false` or a path.
//! - `tune MIN..=MAX`: a parameter for a tuner, with integer or float bounds; not part of the
//!   grid.
//! - A second `//` after the values starts a note: `// vary 1..=4 // Turing's text says 2`.
//!
//! The constant's value must be a literal (a number, possibly negative, or `true`/`false`) or
//! a path, one the mark allows, and every value must fit the constant's type.
//!
//! A **variant** names values for marked constants, as a bot spec does after its `@`:
//! `TT_BITS=16,SCHEME=Scheme::New`. [`apply`] writes each value in place of its constant's
//! literal and leaves every other byte as it was; [`write`] puts the result in a file of its
//! own. The **grid** ([`grid`]) is every combination of the `vary` marks' values.
//!
//! ```
//! let bot = "const DEPTH: i32 = 3; // vary 1..=4\nconst V: i32 = 7;\n";
//! let marks = bot_build::marks(bot)?;
//! assert_eq!((marks[0].name.as_str(), marks[0].line), ("DEPTH", 1));
//! assert_eq!(bot_build::grid(&marks).size(), Some(4));
//! let variant = bot_build::apply(bot, &[("DEPTH", "2")])?;
//! assert_eq!(variant, "const DEPTH: i32 = 2; // vary 1..=4\nconst V: i32 = 7;\n");
//! # Ok::<(), bot_build::VariantError>(())
//! ```

use std::fmt;
use std::fs;
use std::io::Write;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use sha2::{Digest, Sha256};

/// What a mark is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MarkKind {
    /// `// vary ...`: values to build and compare, one variant each.
    Vary,
    /// `// tune MIN..=MAX`: a parameter a tuner moves within its bounds.
    Tune,
}

impl MarkKind {
    /// The word that starts the mark: `vary` or `tune`.
    pub fn word(self) -> &'static str {
        match self {
            MarkKind::Vary => "vary",
            MarkKind::Tune => "tune",
        }
    }
}

/// A value of a marked constant.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    /// An integer literal.
    Int(i128),
    /// A float literal (always finite).
    Float(f64),
    /// `true` or `false`.
    Bool(bool),
    /// A path, such as `Scheme::Deep` or `BIG`, written without spaces.
    Path(String),
}

impl fmt::Display for Value {
    /// The value as Rust source: `{:?}` keeps a float's point (`2.0`, not `2`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Int(n) => write!(f, "{n}"),
            Value::Float(x) => write!(f, "{x:?}"),
            Value::Bool(b) => write!(f, "{b}"),
            Value::Path(p) => f.write_str(p),
        }
    }
}

/// The values a mark allows.
#[derive(Debug, Clone, PartialEq)]
pub enum Values {
    /// `MIN..=MAX`, `step` apart from `MIN` (1 when the mark gives no step).
    Ints {
        /// The least value.
        min: i128,
        /// The greatest value (reached only when the steps land on it).
        max: i128,
        /// The distance between two values, at least 1.
        step: u128,
    },
    /// `MIN..=MAX` over floats: a `tune` mark's bounds (a float range has no grid).
    Floats {
        /// The lower bound.
        min: f64,
        /// The upper bound.
        max: f64,
    },
    /// `A|B|C`: the alternatives, in the mark's order.
    List(Vec<Value>),
}

impl Values {
    /// How many values there are: `None` for a float range, or past `u128`.
    ///
    /// ```
    /// use bot_build::Values;
    /// assert_eq!(Values::Ints { min: 0, max: 300, step: 50 }.count(), Some(7));
    /// assert_eq!(Values::Ints { min: 0, max: 100, step: 30 }.count(), Some(4));
    /// assert_eq!(Values::Floats { min: 0.5, max: 2.0 }.count(), None);
    /// ```
    pub fn count(&self) -> Option<u128> {
        match self {
            Values::Ints { min, max, step } => (span(*min, *max) / step).checked_add(1),
            Values::Floats { .. } => None,
            Values::List(list) => Some(list.len() as u128),
        }
    }

    /// The `k`th value (from 0), if there are more than `k`.
    pub fn nth(&self, k: u128) -> Option<Value> {
        match self {
            Values::Ints { min, max, step } => {
                let offset = k.checked_mul(*step).filter(|&o| o <= span(*min, *max))?;
                Some(Value::Int((*min as u128).wrapping_add(offset) as i128))
            }
            Values::Floats { .. } => None,
            Values::List(list) => list.get(usize::try_from(k).ok()?).cloned(),
        }
    }

    /// Whether `value` is one of these values (for a float range: within its bounds).
    ///
    /// ```
    /// use bot_build::{Value, Values};
    /// let margins = Values::Ints { min: 50, max: 300, step: 50 };
    /// assert!(margins.contains(&Value::Int(150)));
    /// assert!(!margins.contains(&Value::Int(120)));
    /// ```
    pub fn contains(&self, value: &Value) -> bool {
        match (self, value) {
            (Values::Ints { min, max, step }, Value::Int(n)) => {
                min <= n && n <= max && span(*min, *n).is_multiple_of(*step)
            }
            (Values::Floats { min, max }, Value::Float(x)) => min <= x && x <= max,
            (Values::List(list), value) => list.contains(value),
            _ => false,
        }
    }
}

/// `max - min` for `min <= max`, exact over the whole of `i128`.
fn span(min: i128, max: i128) -> u128 {
    (max as u128).wrapping_sub(min as u128)
}

impl fmt::Display for Values {
    /// The values as a mark writes them: `13..=20`, `0..=300 step 50`, `0.5..=2.0`, `0|1|2`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Values::Ints { min, max, step: 1 } => write!(f, "{min}..={max}"),
            Values::Ints { min, max, step } => write!(f, "{min}..={max} step {step}"),
            Values::Floats { min, max } => write!(f, "{min:?}..={max:?}"),
            Values::List(list) => {
                let texts: Vec<String> = list.iter().map(Value::to_string).collect();
                f.write_str(&texts.join("|"))
            }
        }
    }
}

/// A marked constant of a bot file.
#[derive(Debug, Clone, PartialEq)]
pub struct Mark {
    /// The constant's name.
    pub name: String,
    /// `vary` or `tune`.
    pub kind: MarkKind,
    /// The 1-based line of the mark (and of the constant).
    pub line: usize,
    /// The constant's type as written (`u32`, `Scheme`).
    pub ty: String,
    /// The constant's value in the file.
    pub current: Value,
    /// The values the mark allows.
    pub values: Values,
    /// The byte range of the value's literal (or path) in the file.
    value_at: Range<usize>,
    /// The literal's type suffix (`u32` in `20u32`), kept in every variant.
    suffix: String,
    /// What values the constant's type takes.
    class: Class,
}

impl Mark {
    /// The mark as written, without its note: `vary 13..=20`.
    pub fn text(&self) -> String {
        format!("{} {}", self.kind.word(), self.values)
    }

    /// Whether the constant holds integers (a tuner rounds its values), as opposed to
    /// floats, `bool`s or paths.
    pub fn is_integer(&self) -> bool {
        matches!(self.class, Class::Int { .. })
    }

    /// How `value` is written in a variant's source: with the literal's suffix, and a
    /// float's point.
    fn source_text(&self, value: &Value) -> String {
        match value {
            Value::Int(_) | Value::Float(_) => format!("{value}{}", self.suffix),
            Value::Bool(_) | Value::Path(_) => value.to_string(),
        }
    }
}

/// A marked constant's value in a variant: `NAME=VALUE`.
#[derive(Debug, Clone, PartialEq)]
pub struct Setting {
    /// The constant's name.
    pub name: String,
    /// Its value, one its mark allows.
    pub value: Value,
}

impl fmt::Display for Setting {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}={}", self.name, self.value)
    }
}

/// What values a constant's type takes.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Class {
    /// An integer type and its bounds (a type the kit does not know: all of `i128`).
    Int {
        min: i128,
        max: i128,
    },
    /// A float type and its largest magnitude.
    Float {
        max: f64,
    },
    Bool,
    /// Anything else: a path's type, whose values the compiler checks.
    Other,
}

/// The class of a primitive type's name (`u8`, `f64`, `bool`), or of a literal's suffix.
fn primitive(name: &str) -> Option<Class> {
    let int = |min: i128, max: i128| Some(Class::Int { min, max });
    match name {
        "i8" => int(i8::MIN.into(), i8::MAX.into()),
        "i16" => int(i16::MIN.into(), i16::MAX.into()),
        "i32" => int(i32::MIN.into(), i32::MAX.into()),
        "i64" => int(i64::MIN.into(), i64::MAX.into()),
        "i128" => int(i128::MIN, i128::MAX),
        "isize" => int(isize::MIN as i128, isize::MAX as i128),
        "u8" => int(0, u8::MAX.into()),
        "u16" => int(0, u16::MAX.into()),
        "u32" => int(0, u32::MAX.into()),
        "u64" => int(0, u64::MAX.into()),
        // Values past i128::MAX cannot be written in a mark.
        "u128" => int(0, i128::MAX),
        "usize" => int(0, usize::MAX as i128),
        "f32" => Some(Class::Float {
            max: f32::MAX.into(),
        }),
        "f64" => Some(Class::Float { max: f64::MAX }),
        "bool" => Some(Class::Bool),
        _ => None,
    }
}

/// Why a value does not fit a constant.
enum Misfit {
    /// Another kind of value: a float for an integer, a number for a `bool`.
    WrongType,
    /// The right kind, out of the type's range (`300` for a `u8`).
    OutOfRange,
}

/// `value` as a value of `class`: an integer becomes a float for a float constant.
fn fit(class: Class, value: &Value) -> Result<Value, Misfit> {
    match (class, value) {
        (_, Value::Path(_)) | (Class::Other, _) | (Class::Bool, Value::Bool(_)) => {
            Ok(value.clone())
        }
        (Class::Int { min, max }, Value::Int(n)) if (min..=max).contains(n) => Ok(value.clone()),
        (Class::Int { .. }, Value::Int(_)) => Err(Misfit::OutOfRange),
        (Class::Float { .. }, Value::Int(n)) => fit(class, &Value::Float(*n as f64)),
        (Class::Float { max }, Value::Float(x)) if x.abs() <= max => Ok(value.clone()),
        (Class::Float { .. }, Value::Float(_)) => Err(Misfit::OutOfRange),
        _ => Err(Misfit::WrongType),
    }
}

/// A mark that cannot be used, and where.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {problem}")]
pub struct MarkError {
    /// The 1-based line of the mark (or where the file fails to parse).
    pub line: usize,
    /// What is wrong.
    pub problem: MarkProblem,
}

/// What is wrong with a mark.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MarkProblem {
    /// The file is not one the counter reads (it does not parse, or is out of bounds).
    #[error("the file cannot be read for marks: {0}")]
    File(String),
    /// The mark's values are not `MIN..=MAX`, `MIN..=MAX step S` or `A|B|...`.
    #[error("the mark `{mark}` does not parse: {reason}")]
    Unparsable {
        /// The mark as written.
        mark: String,
        /// Why.
        reason: String,
    },
    /// `MIN..=MAX` with `MIN` above `MAX`, or `step 0`.
    #[error("the mark `{mark}` allows no value: {reason}")]
    Empty {
        /// The mark as written.
        mark: String,
        /// Why.
        reason: String,
    },
    /// A mark on a line with no `const` item: it names nothing.
    #[error(
        "the mark `{mark}` names nothing: there is no `const` item on its line (a mark goes at the end of the line of the constant it varies)"
    )]
    NamesNothing {
        /// The mark as written.
        mark: String,
    },
    /// A mark on a line with more than one `const` item.
    #[error(
        "the mark `{mark}` is on the line of {names}: it cannot tell which it varies (put each on a line of its own)"
    )]
    Ambiguous {
        /// The mark as written.
        mark: String,
        /// The constants on the line.
        names: String,
    },
    /// A marked constant whose value is not a literal or a path.
    #[error(
        "`{name}` is `{value}`: a marked constant's value must be a number, `true`, `false` or a path"
    )]
    NotALiteral {
        /// The constant.
        name: String,
        /// Its value as written.
        value: String,
    },
    /// A value in the mark that the constant's type cannot hold.
    #[error("`{value}` in the mark `{mark}` is not a value of `{name}`'s type, {ty}")]
    WrongType {
        /// The mark as written.
        mark: String,
        /// The constant.
        name: String,
        /// Its type.
        ty: String,
        /// The value.
        value: String,
    },
    /// A number in the mark outside the constant's type.
    #[error("`{value}` in the mark `{mark}` does not fit `{name}`'s type, {ty}")]
    OutOfType {
        /// The mark as written.
        mark: String,
        /// The constant.
        name: String,
        /// Its type.
        ty: String,
        /// The value.
        value: String,
    },
    /// A range the constant's type cannot take, or that has no grid.
    #[error("the mark `{mark}` cannot vary `{name}`: {reason}")]
    NoRange {
        /// The mark as written.
        mark: String,
        /// The constant.
        name: String,
        /// Why.
        reason: String,
    },
    /// A value listed twice.
    #[error("the mark `{mark}` lists `{value}` twice")]
    Repeated {
        /// The mark as written.
        mark: String,
        /// The value.
        value: String,
    },
    /// The constant's own value is not one its mark allows.
    #[error("`{name}` is {current}, which its mark `{mark}` does not allow")]
    CurrentOutside {
        /// The mark as written.
        mark: String,
        /// The constant.
        name: String,
        /// Its value in the file.
        current: String,
    },
    /// Two marks on constants of the same name.
    #[error("`{name}` is marked on line {first} too: a spec could not tell the two apart")]
    MarkedTwice {
        /// The constant.
        name: String,
        /// The line of the first mark.
        first: usize,
    },
}

/// A variant that cannot be made: a bad mark in the file, or a bad spec.
#[derive(Debug, thiserror::Error)]
pub enum VariantError {
    /// The bot's marks (see [`MarkError`]).
    #[error(transparent)]
    Marks(#[from] MarkError),
    /// The text after `@` is not `NAME=VALUE[,NAME=VALUE...]`.
    #[error("`@{spec}` is not `@NAME=VALUE[,NAME=VALUE...]`: {reason}")]
    Spec {
        /// The text after `@`.
        spec: String,
        /// Why.
        reason: String,
    },
    /// A spec for a bot with no marks.
    #[error(
        "the bot marks no constant: mark one with a comment on its line, e.g. `const DEPTH: i32 = 3; // vary 1..=4`"
    )]
    NoMarks,
    /// A name that is not a marked constant.
    #[error("`{name}` is not a marked constant of the bot (marked: {marked})")]
    Unmarked {
        /// The name in the spec.
        name: String,
        /// The marked constants.
        marked: String,
    },
    /// A name given twice.
    #[error("`{name}` is given twice")]
    Twice {
        /// The name.
        name: String,
    },
    /// A value that does not parse as a number, `true`/`false` or a path.
    #[error("`{name}={value}`: the value does not parse: {reason}")]
    BadValue {
        /// The constant.
        name: String,
        /// The value as given.
        value: String,
        /// Why.
        reason: String,
    },
    /// A value of another kind than the constant's: a float for an integer.
    #[error("`{name}={value}`: `{name}` is {ty}, and `{value}` is not a value of that type")]
    WrongType {
        /// The constant.
        name: String,
        /// The value as given.
        value: String,
        /// The constant's type.
        ty: String,
    },
    /// A value the mark does not allow.
    #[error("`{name}={value}` is outside its mark `{mark}` (line {line})")]
    Outside {
        /// The constant.
        name: String,
        /// The value as given.
        value: String,
        /// The mark as written.
        mark: String,
        /// The mark's line.
        line: usize,
    },
    /// The variant's file cannot be written.
    #[error("cannot write {}: {cause}", path.display())]
    Io {
        /// The file or directory.
        path: PathBuf,
        /// Why.
        /// (Shown in the message, so not also a `source`: `{:#}` would show it twice.)
        cause: std::io::Error,
    },
}

/// The marks of a bot file's source, in source order.
///
/// The file must be one the token counter reads (it parses, within the counter's bounds).
///
/// ```
/// use bot_build::{MarkKind, Value, Values, marks};
/// let found = marks("const K: f64 = 3.0; // tune 2.5..=4.0 // a knight, in pawns\n")?;
/// assert_eq!(found[0].kind, MarkKind::Tune);
/// assert_eq!(found[0].current, Value::Float(3.0));
/// assert_eq!(found[0].values, Values::Floats { min: 2.5, max: 4.0 });
/// let bad = marks("const D: i32 = 3;\n// vary 1..=4\n").unwrap_err();
/// assert_eq!(bad.line, 2);
/// assert!(bad.to_string().contains("names nothing"));
/// # Ok::<(), bot_build::MarkError>(())
/// ```
pub fn marks(source: &str) -> Result<Vec<Mark>, MarkError> {
    // The counter's bounds (size, nesting, token count) first: they keep the parse below
    // within its stack and time.
    token_counter::analyze(source).map_err(|err| MarkError {
        line: err.line,
        problem: MarkProblem::File(err.to_string()),
    })?;
    on_parse_thread(|| parse::marks(source))?
}

/// Checks `values` (names and values as a spec gives them) against the marks, and returns
/// them as settings in the marks' order, each value as its constant is written (`2` becomes
/// `2.0` for a float constant).
///
/// ```
/// let marks = bot_build::marks("const D: i32 = 3; // vary 1..=4\n")?;
/// let set = bot_build::settings(&marks, &[("D", "0x2")])?;
/// assert_eq!(set[0].to_string(), "D=2");
/// let err = bot_build::settings(&marks, &[("D", "1.5")]).unwrap_err();
/// assert_eq!(err.to_string(), "`D=1.5`: `D` is i32, and `1.5` is not a value of that type");
/// # Ok::<(), bot_build::VariantError>(())
/// ```
pub fn settings<N: AsRef<str>, V: AsRef<str>>(
    marks: &[Mark],
    values: &[(N, V)],
) -> Result<Vec<Setting>, VariantError> {
    if marks.is_empty() {
        return Err(VariantError::NoMarks);
    }
    let pairs: Vec<(&str, &str)> = values
        .iter()
        .map(|(n, v)| (n.as_ref().trim(), v.as_ref().trim()))
        .collect();
    let mut found: Vec<(usize, Setting)> = Vec::new();
    for (name, value) in &pairs {
        let Some(at) = marks.iter().position(|m| m.name == *name) else {
            let marked: Vec<&str> = marks.iter().map(|m| m.name.as_str()).collect();
            return Err(VariantError::Unmarked {
                name: (*name).to_string(),
                marked: marked.join(", "),
            });
        };
        if found.iter().any(|(i, _)| *i == at) {
            return Err(VariantError::Twice {
                name: (*name).to_string(),
            });
        }
        let value = settle(&marks[at], value)?;
        found.push((at, value));
    }
    found.sort_by_key(|(at, _)| *at);
    Ok(found.into_iter().map(|(_, setting)| setting).collect())
}

/// One value of a spec, checked against its mark.
fn settle(mark: &Mark, text: &str) -> Result<Setting, VariantError> {
    let parsed = on_parse_thread(|| parse::value(text))
        .map_err(|err| err.problem.to_string())
        .and_then(|value| value);
    let value = parsed.map_err(|reason| VariantError::BadValue {
        name: mark.name.clone(),
        value: text.to_string(),
        reason,
    })?;
    let outside = || VariantError::Outside {
        name: mark.name.clone(),
        value: text.to_string(),
        mark: mark.text(),
        line: mark.line,
    };
    // A range holds numbers only: a path there is of the wrong kind, not merely outside.
    let numeric = matches!(value, Value::Int(_) | Value::Float(_));
    let ranged = !matches!(mark.values, Values::List(_));
    let fitted = if ranged && !numeric {
        Err(Misfit::WrongType)
    } else {
        fit(mark.class, &value)
    };
    let value = match fitted {
        Ok(value) => value,
        Err(Misfit::OutOfRange) => return Err(outside()),
        Err(Misfit::WrongType) => {
            return Err(VariantError::WrongType {
                name: mark.name.clone(),
                value: text.to_string(),
                ty: mark.ty.clone(),
            });
        }
    };
    if !mark.values.contains(&value) {
        return Err(outside());
    }
    Ok(Setting {
        name: mark.name.clone(),
        value,
    })
}

/// The source of the variant of `source` that `values` name: each named constant's literal
/// replaced by its value, every other byte unchanged.
///
/// ```
/// let bot = "const S: Scheme = Scheme::Deep; // vary Scheme::Deep|Scheme::New\n";
/// let variant = bot_build::apply(bot, &[("S", "Scheme::New")])?;
/// assert_eq!(variant, bot.replace("= Scheme::Deep", "= Scheme::New"));
/// let err = bot_build::apply(bot, &[("S", "Scheme::Old")]).unwrap_err();
/// assert!(err.to_string().starts_with("`S=Scheme::Old` is outside its mark"));
/// # Ok::<(), bot_build::VariantError>(())
/// ```
pub fn apply<N: AsRef<str>, V: AsRef<str>>(
    source: &str,
    values: &[(N, V)],
) -> Result<String, VariantError> {
    let marks = marks(source)?;
    let settings = settings(&marks, values)?;
    Ok(splice(source, &marks, &settings))
}

/// `source` with each setting's value in place of its constant's literal.
fn splice(source: &str, marks: &[Mark], settings: &[Setting]) -> String {
    let mut edits: Vec<(Range<usize>, String)> = settings
        .iter()
        .filter_map(|setting| {
            let mark = marks.iter().find(|m| m.name == setting.name)?;
            Some((mark.value_at.clone(), mark.source_text(&setting.value)))
        })
        .collect();
    edits.sort_by_key(|(at, _)| at.start);
    let mut out = String::with_capacity(source.len() + 16);
    let mut done = 0;
    for (at, text) in edits {
        out.push_str(&source[done..at.start]);
        out.push_str(&text);
        done = at.end;
    }
    out.push_str(&source[done..]);
    out
}

/// The text after `@` in a bot spec as name and value pairs: `A=1,B=Scheme::New`.
///
/// ```
/// let pairs = bot_build::parse_spec("TT_BITS=16, SCHEME=2")?;
/// assert_eq!(pairs, [("TT_BITS".to_string(), "16".to_string()), ("SCHEME".into(), "2".into())]);
/// assert!(bot_build::parse_spec("TT_BITS").is_err());
/// # Ok::<(), bot_build::VariantError>(())
/// ```
pub fn parse_spec(spec: &str) -> Result<Vec<(String, String)>, VariantError> {
    let refuse = |reason: &str| VariantError::Spec {
        spec: spec.to_string(),
        reason: reason.to_string(),
    };
    if spec.len() > MAX_SPEC_BYTES {
        return Err(refuse(&format!("it is over {MAX_SPEC_BYTES} bytes")));
    }
    if spec.trim().is_empty() {
        return Err(refuse("nothing follows the `@`"));
    }
    spec.split(',')
        .map(|pair| {
            let (name, value) = pair
                .split_once('=')
                .ok_or_else(|| refuse(&format!("`{}` has no `=`", pair.trim())))?;
            let (name, value) = (name.trim(), value.trim());
            if name.is_empty() || value.is_empty() {
                return Err(refuse(&format!(
                    "`{}` needs a name and a value",
                    pair.trim()
                )));
            }
            Ok((name.to_string(), value.to_string()))
        })
        .collect()
}

/// The longest text after `@` a spec may have.
pub const MAX_SPEC_BYTES: usize = 4096;

/// The variants of the `vary` marks among `marks`: every combination of their values, the
/// first mark's changing slowest. `tune` marks are not part of it.
///
/// ```
/// let bot = "const A: u8 = 1; // vary 1|2\nconst B: bool = true; // vary true|false\n";
/// let marks = bot_build::marks(bot)?;
/// let specs: Vec<String> = bot_build::grid(&marks)
///     .map(|set| bot_build::spec_text(&set))
///     .collect();
/// assert_eq!(specs, ["A=1,B=true", "A=1,B=false", "A=2,B=true", "A=2,B=false"]);
/// # Ok::<(), bot_build::MarkError>(())
/// ```
pub fn grid(marks: &[Mark]) -> Grid<'_> {
    let marks: Vec<&Mark> = marks.iter().filter(|m| m.kind == MarkKind::Vary).collect();
    let next = marks
        .iter()
        .all(|m| m.values.nth(0).is_some())
        .then(|| vec![0; marks.len()]);
    Grid { marks, next }
}

/// The settings of `set` as a spec writes them after `@`: `A=1,B=true`.
pub fn spec_text(set: &[Setting]) -> String {
    let texts: Vec<String> = set.iter().map(Setting::to_string).collect();
    texts.join(",")
}

/// The grid of a file's `vary` marks (see [`grid`]): an iterator over its variants' settings.
#[derive(Debug, Clone)]
pub struct Grid<'a> {
    marks: Vec<&'a Mark>,
    /// The index of each mark's value in the next variant; `None` once done.
    next: Option<Vec<u128>>,
}

impl Grid<'_> {
    /// How many variants the grid holds: `None` past `u128`. A file with no `vary` mark
    /// has one, the file itself (empty settings).
    pub fn size(&self) -> Option<u128> {
        self.marks
            .iter()
            .try_fold(1u128, |size, m| size.checked_mul(m.values.count()?))
    }
}

impl Iterator for Grid<'_> {
    type Item = Vec<Setting>;

    fn next(&mut self) -> Option<Vec<Setting>> {
        let indices = self.next.as_mut()?;
        let set = self
            .marks
            .iter()
            .zip(indices.iter())
            .map(|(m, &k)| Setting {
                name: m.name.clone(),
                value: m.values.nth(k).unwrap_or_else(|| m.current.clone()),
            })
            .collect();
        // An odometer: the last mark turns fastest.
        let mut position = indices.len();
        loop {
            if position == 0 {
                self.next = None;
                break;
            }
            position -= 1;
            indices[position] += 1;
            if self.marks[position].values.nth(indices[position]).is_some() {
                break;
            }
            indices[position] = 0;
        }
        Some(set)
    }
}

/// A variant written to disk by [`write`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Written {
    /// The variant's name: the bot's, `@`, and its settings in the marks' order
    /// (`my_bot@TT_BITS=16,SCHEME=2`).
    pub name: String,
    /// The variant's file.
    pub path: PathBuf,
}

/// At most this many variant files are kept per bot; older ones go when a new one is
/// written (a tuner writes two per iteration).
pub const KEPT_VARIANTS: usize = 256;

/// Writes the variant of the bot `base_name` (its file `base`, whose text is `source`) that
/// `spec` (the text after `@`) names, under `root`, and returns its name and file.
///
/// Every variant of one bot goes in one folder of `root`, named after the bot and its
/// path; the file's name is the variant's (or a hash of it, for a long one), so a variant
/// made twice is the same file. The file is written atomically, and left untouched when it
/// already holds the text.
///
/// ```
/// let root = std::env::temp_dir().join(format!("kit-variants-doc-{}", std::process::id()));
/// let base = std::path::Path::new("/bots/deep.rs");
/// let source = "const D: i32 = 3; // vary 1..=4\n";
/// let made = bot_build::write_variant(&root, "deep", base, source, "D=2")?;
/// assert_eq!(made.name, "deep@D=2");
/// assert_eq!(std::fs::read_to_string(&made.path).unwrap(), source.replace("= 3", "= 2"));
/// assert_eq!(bot_build::family(&made.path, &root), made.path.parent().map(Into::into));
/// # std::fs::remove_dir_all(&root).unwrap();
/// # Ok::<(), bot_build::VariantError>(())
/// ```
pub fn write(
    root: &Path,
    base_name: &str,
    base: &Path,
    source: &str,
    spec: &str,
) -> Result<Written, VariantError> {
    let pairs = parse_spec(spec)?;
    let marks = marks(source)?;
    let settings = settings(&marks, &pairs)?;
    let text = splice(source, &marks, &settings);
    let suffix = spec_text(&settings);
    let dir = root.join(family_name(base_name, base));
    let path = dir.join(file_name(base_name, &suffix));
    let io = |path: &Path| {
        let path = path.to_path_buf();
        move |source| VariantError::Io {
            path,
            cause: source,
        }
    };
    fs::create_dir_all(&dir).map_err(io(&dir))?;
    let origin = dir.join(BASE_FILE);
    write_atomically(&origin, base.display().to_string().as_bytes()).map_err(io(&origin))?;
    write_atomically(&path, text.as_bytes()).map_err(io(&path))?;
    bound_family(&dir, &path);
    let path = path.canonicalize().map_err(io(&path))?;
    Ok(Written {
        name: format!("{base_name}@{suffix}"),
        path,
    })
}

/// The file in a family's folder that names the bot its variants are made from, so a
/// variant is judged by its origin where that matters (a lab bot's variant is a lab bot).
const BASE_FILE: &str = "base";

/// The bot file the variant at `path` (under `root`) was made from, as [`write`] noted it.
pub fn base_of(path: &Path, root: &Path) -> Option<PathBuf> {
    let dir = family(path, root)?;
    fs::read_to_string(dir.join(BASE_FILE))
        .ok()
        .map(PathBuf::from)
}

/// The folder of every variant of one bot, when `path` is a variant's file under `root`:
/// the variants of one bot share it, and their builds share a crate.
pub fn family(path: &Path, root: &Path) -> Option<PathBuf> {
    let dir = path.parent()?;
    let root = root.canonicalize().ok()?;
    let dir = dir.canonicalize().ok()?;
    (dir.parent()? == root).then_some(dir)
}

/// The folder of a bot's variants: its name, and a hash of its file's path so that bots of
/// one name in two places get a folder each.
fn family_name(base_name: &str, base: &Path) -> String {
    let path = base.display().to_string();
    format!(
        "{}-{}",
        file_safe(base_name),
        &hex_hash(path.as_bytes())[..8]
    )
}

/// A variant's file name: `BOT@SETTINGS.rs`, or `BOT@HASH.rs` when that would be long or
/// hold a character a file name should not.
fn file_name(base_name: &str, suffix: &str) -> String {
    let plain = format!("{}@{suffix}.rs", file_safe(base_name));
    let safe = suffix
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || "_=,.:+-#".contains(c));
    if safe && plain.len() <= 200 {
        plain
    } else {
        format!(
            "{}@{}.rs",
            file_safe(base_name),
            &hex_hash(suffix.as_bytes())
        )
    }
}

/// `name` with only letters, digits, `_` and `-`, at most 64 of them.
fn file_safe(name: &str) -> String {
    let safe: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' {
                c
            } else {
                '_'
            }
        })
        .take(64)
        .collect();
    if safe.is_empty() { "bot".into() } else { safe }
}

/// 32 hex digits of SHA-256.
fn hex_hash(bytes: &[u8]) -> String {
    Sha256::digest(bytes)[..16]
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Writes `bytes` to `path` by a rename, so no reader sees half a file; leaves a file that
/// already holds them as it is (but marks it used, for [`bound_family`]).
fn write_atomically(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    if fs::read(path).is_ok_and(|old| old == bytes) {
        return fs::File::options()
            .append(true)
            .open(path)?
            .set_modified(SystemTime::now());
    }
    let mut file = tempfile::NamedTempFile::new_in(path.parent().unwrap_or(Path::new(".")))?;
    file.write_all(bytes)?;
    file.as_file().sync_all()?;
    file.persist(path).map(drop).map_err(|err| err.error)
}

/// Keeps at most [`KEPT_VARIANTS`] variant files in `dir`, the most recently used, and
/// always `keep`. Best effort: a file that cannot be removed now goes next time.
fn bound_family(dir: &Path, keep: &Path) {
    let Ok(listing) = fs::read_dir(dir) else {
        return;
    };
    let mut files: Vec<(SystemTime, PathBuf)> = listing
        .flatten()
        .map(|entry| entry.path())
        .filter(|path| path.extension().is_some_and(|e| e == "rs") && path != keep)
        .filter_map(|path| Some((fs::metadata(&path).ok()?.modified().ok()?, path)))
        .collect();
    if files.len() < KEPT_VARIANTS {
        return;
    }
    files.sort_by_key(|(used, _)| std::cmp::Reverse(*used));
    for (_, old) in files.drain(KEPT_VARIANTS - 1..) {
        let _ = fs::remove_file(old);
    }
}

/// The parse thread's stack, as the token counter's: only the pages a parse touches are
/// committed, and syn's recursive parser needs them for the deepest file the bounds allow.
const STACK_BYTES: usize = 1 << 30;

/// Runs `work` on a short thread of its own: proc-macro2 keeps every parsed text in a
/// thread-local map for the thread's life, so a long-lived caller (a tuner, the server)
/// would grow without bound; the thread's spans are dropped with it.
fn on_parse_thread<T: Send>(work: impl FnOnce() -> T + Send) -> Result<T, MarkError> {
    std::thread::scope(|scope| {
        let worker = std::thread::Builder::new()
            .name("variants".into())
            .stack_size(STACK_BYTES)
            .spawn_scoped(scope, || {
                let result = work();
                proc_macro2::extra::invalidate_current_thread_spans();
                result
            });
        match worker {
            Ok(handle) => Ok(handle
                .join()
                .unwrap_or_else(|panic| std::panic::resume_unwind(panic))),
            Err(err) => Err(MarkError {
                line: 1,
                problem: MarkProblem::File(format!("cannot start the parsing thread: {err}")),
            }),
        }
    })
}

mod parse;

#[cfg(test)]
mod tests;

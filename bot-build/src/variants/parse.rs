//! Reading marks: the file's line comments (found in the gaps between its tokens), its
//! `const` items, and the values a mark or a spec writes. Runs on a parse thread
//! (`on_parse_thread`), since every parse leaves spans behind on its thread.

use std::ops::{Range, RangeInclusive};

use proc_macro2::{LineColumn, Span, TokenStream, TokenTree};
use quote::ToTokens;
use syn::visit::Visit;
use syn::{Expr, Lit, RangeLimits, UnOp};

use super::{Class, Mark, MarkError, MarkKind, MarkProblem, Misfit, Value, Values, fit, primitive};

/// The marks of `source`, in source order.
pub(super) fn marks(source: &str) -> Result<Vec<Mark>, MarkError> {
    // A byte order mark is not part of the text Rust lexes (the counter drops it too).
    let (offset, text) = match source.strip_prefix('\u{feff}') {
        Some(rest) => (source.len() - rest.len(), rest),
        None => (0, source),
    };
    let stream: TokenStream = text.parse().map_err(|err: proc_macro2::LexError| {
        file_error(err.span().start(), "the file does not lex".into())
    })?;
    let mut covered = Vec::new();
    token_ranges(stream.clone(), offset, &mut covered);
    let file: syn::File =
        syn::parse2(stream).map_err(|err| file_error(err.span().start(), err.to_string()))?;
    let mut consts = Consts {
        offset,
        found: Vec::new(),
    };
    consts.visit_file(&file);
    let mut marks: Vec<Mark> = Vec::new();
    for comment in mark_comments(source, covered) {
        let mark = build(&comment, &consts.found)?;
        if let Some(first) = marks.iter().find(|m| m.name == mark.name) {
            return Err(MarkError {
                line: mark.line,
                problem: MarkProblem::MarkedTwice {
                    name: mark.name,
                    first: first.line,
                },
            });
        }
        marks.push(mark);
    }
    Ok(marks)
}

/// The value a spec gives, as a mark's values are written.
pub(super) fn value(text: &str) -> Result<Value, String> {
    let expr: Expr = syn::parse_str(text).map_err(|err| err.to_string())?;
    value_of(&expr)
}

fn file_error(at: LineColumn, message: String) -> MarkError {
    MarkError {
        line: at.line,
        problem: MarkProblem::File(format!("{}:{}: {message}", at.line, at.column + 1)),
    }
}

/// The byte range of `span` in the whole source.
fn bytes(span: Span, offset: usize) -> Range<usize> {
    let range = span.byte_range();
    range.start + offset..range.end + offset
}

/// The byte ranges of every token of `stream` (delimiters included): the rest of the file
/// is whitespace and comments.
fn token_ranges(stream: TokenStream, offset: usize, out: &mut Vec<Range<usize>>) {
    for tree in stream {
        match tree {
            TokenTree::Group(group) => {
                out.push(bytes(group.span_open(), offset));
                out.push(bytes(group.span_close(), offset));
                token_ranges(group.stream(), offset, out);
            }
            other => out.push(bytes(other.span(), offset)),
        }
    }
}

/// A `// vary ...` or `// tune ...` comment.
struct MarkComment {
    line: usize,
    kind: MarkKind,
    /// The values as written, without the word or a note.
    values: String,
}

impl MarkComment {
    /// The mark as written: `vary 13..=20`.
    fn text(&self) -> String {
        format!("{} {}", self.kind.word(), self.values)
            .trim_end()
            .to_string()
    }
}

/// The marks among the line comments in the gaps between the `covered` ranges.
fn mark_comments(source: &str, mut covered: Vec<Range<usize>>) -> Vec<MarkComment> {
    covered.sort_by_key(|range| range.start);
    let line_starts: Vec<usize> = std::iter::once(0)
        .chain(source.match_indices('\n').map(|(at, _)| at + 1))
        .collect();
    let mut gaps = Gaps {
        source,
        line_starts,
        found: Vec::new(),
    };
    let mut at = 0;
    for range in covered {
        if range.start > at {
            gaps.scan(at..range.start);
        }
        at = at.max(range.end);
    }
    gaps.scan(at..source.len());
    gaps.found
}

/// The stretches of a file between its tokens, and the marks found in them.
struct Gaps<'a> {
    source: &'a str,
    /// The byte offset of each line's start.
    line_starts: Vec<usize>,
    found: Vec<MarkComment>,
}

impl Gaps<'_> {
    /// Finds the marks in a stretch of whitespace and comments. Bytes are compared one at
    /// a time: the bytes of a multi-byte character are never `/`, `*` or a line feed.
    fn scan(&mut self, gap: Range<usize>) {
        let bytes = self.source.as_bytes();
        let mut i = gap.start;
        while i < gap.end {
            match (bytes[i], bytes.get(i + 1)) {
                (b'/', Some(b'/')) => {
                    let end = self.source[i..gap.end]
                        .find('\n')
                        .map_or(gap.end, |n| i + n);
                    let line = self.line_starts.partition_point(|&start| start <= i);
                    if let Some(mark) = mark_comment(&self.source[i + 2..end], line) {
                        self.found.push(mark);
                    }
                    i = end;
                }
                (b'/', Some(b'*')) => i = skip_block_comment(bytes, i, gap.end),
                _ => i += 1,
            }
        }
    }
}

/// The end of the block comment starting at `i` (block comments nest).
fn skip_block_comment(bytes: &[u8], mut i: usize, end: usize) -> usize {
    let mut depth = 0usize;
    while i < end {
        match (bytes[i], bytes.get(i + 1)) {
            (b'/', Some(b'*')) => {
                depth += 1;
                i += 2;
            }
            (b'*', Some(b'/')) => {
                depth -= 1;
                i += 2;
                if depth == 0 {
                    return i;
                }
            }
            _ => i += 1,
        }
    }
    end
}

/// The mark in a line comment's text (after its `//`): it starts with the word `vary` or
/// `tune`; a second `//` starts a note.
fn mark_comment(text: &str, line: usize) -> Option<MarkComment> {
    let text = text.trim();
    [MarkKind::Vary, MarkKind::Tune]
        .into_iter()
        .find_map(|kind| {
            let rest = text.strip_prefix(kind.word())?;
            if !(rest.is_empty() || rest.starts_with(char::is_whitespace)) {
                return None;
            }
            let values = rest.split_once("//").map_or(rest, |(values, _note)| values);
            Some(MarkComment {
                line,
                kind,
                values: values.trim().to_string(),
            })
        })
}

/// A `const` item of the file.
struct ConstItem {
    name: String,
    /// The type as written.
    ty: String,
    /// What values the type takes, for a primitive type.
    class: Option<Class>,
    /// From the `const` keyword to the `;`.
    lines: RangeInclusive<usize>,
    /// The value's literal, or the value as written when it is not one.
    value: Result<Literal, String>,
}

/// A literal (or path) value in the file.
#[derive(Clone)]
struct Literal {
    value: Value,
    at: Range<usize>,
    suffix: String,
}

/// Collects the `const` items of a file: items, associated constants and trait defaults,
/// at any depth.
struct Consts {
    offset: usize,
    found: Vec<ConstItem>,
}

impl Consts {
    fn add(&mut self, ident: &syn::Ident, ty: &syn::Type, expr: Option<&Expr>, ends: [Span; 2]) {
        let class = match ty {
            syn::Type::Path(path) if path.qself.is_none() => path
                .path
                .get_ident()
                .and_then(|ident| primitive(&ident.to_string())),
            _ => None,
        };
        let value = match expr {
            Some(expr) => {
                literal(expr, self.offset).ok_or_else(|| expr.to_token_stream().to_string())
            }
            None => Err("no value".into()),
        };
        self.found.push(ConstItem {
            name: ident.to_string(),
            ty: ty.to_token_stream().to_string(),
            class,
            lines: ends[0].start().line..=ends[1].end().line,
            value,
        });
    }
}

impl<'ast> Visit<'ast> for Consts {
    fn visit_item_const(&mut self, item: &'ast syn::ItemConst) {
        let ends = [item.const_token.span, item.semi_token.span];
        self.add(&item.ident, &item.ty, Some(&item.expr), ends);
        syn::visit::visit_item_const(self, item);
    }

    fn visit_impl_item_const(&mut self, item: &'ast syn::ImplItemConst) {
        let ends = [item.const_token.span, item.semi_token.span];
        self.add(&item.ident, &item.ty, Some(&item.expr), ends);
        syn::visit::visit_impl_item_const(self, item);
    }

    fn visit_trait_item_const(&mut self, item: &'ast syn::TraitItemConst) {
        let ends = [item.const_token.span, item.semi_token.span];
        let expr = item.default.as_ref().map(|(_, expr)| expr);
        self.add(&item.ident, &item.ty, expr, ends);
        syn::visit::visit_trait_item_const(self, item);
    }
}

/// The literal (or path) `expr` is, with where it is and its suffix.
fn literal(expr: &Expr, offset: usize) -> Option<Literal> {
    match expr {
        Expr::Lit(lit) if lit.attrs.is_empty() => {
            let (value, suffix) = lit_value(&lit.lit, false)?;
            let at = bytes(lit.lit.span(), offset);
            Some(Literal { value, at, suffix })
        }
        Expr::Unary(unary) if unary.attrs.is_empty() => {
            let (UnOp::Neg(minus), Expr::Lit(lit)) = (&unary.op, &*unary.expr) else {
                return None;
            };
            let (value, suffix) = lit_value(&lit.lit, true)?;
            let at = bytes(minus.span, offset).start..bytes(lit.lit.span(), offset).end;
            Some(Literal { value, at, suffix })
        }
        Expr::Path(path) if path.attrs.is_empty() && path.qself.is_none() => {
            let text = path_text(&path.path)?;
            let first = match &path.path.leading_colon {
                Some(colons) => colons.spans[0],
                None => path.path.segments.first()?.ident.span(),
            };
            let last = path.path.segments.last()?.ident.span();
            let at = bytes(first, offset).start..bytes(last, offset).end;
            Some(Literal {
                value: Value::Path(text),
                at,
                suffix: String::new(),
            })
        }
        _ => None,
    }
}

/// A number (negated when `negative`) or `bool` literal's value and suffix.
fn lit_value(lit: &Lit, negative: bool) -> Option<(Value, String)> {
    match lit {
        Lit::Int(int) => {
            // Read unsigned, so that `-170141183460469231731687303715884105728` (i128::MIN)
            // is a value like any other.
            let n: u128 = int.base10_parse().ok()?;
            let n = if negative {
                0i128.checked_sub_unsigned(n)?
            } else {
                i128::try_from(n).ok()?
            };
            Some((Value::Int(n), int.suffix().to_string()))
        }
        Lit::Float(float) => {
            let x: f64 = float.base10_parse().ok()?;
            let x = if negative { -x } else { x };
            x.is_finite()
                .then(|| (Value::Float(x), float.suffix().to_string()))
        }
        Lit::Bool(b) if !negative => Some((Value::Bool(b.value), String::new())),
        _ => None,
    }
}

/// A path without generic arguments, written without spaces: `Scheme::Deep`, `::m::X`.
fn path_text(path: &syn::Path) -> Option<String> {
    let mut parts = Vec::new();
    for segment in &path.segments {
        if !segment.arguments.is_none() {
            return None;
        }
        parts.push(segment.ident.to_string());
    }
    let lead = if path.leading_colon.is_some() {
        "::"
    } else {
        ""
    };
    Some(format!("{lead}{}", parts.join("::")))
}

/// The value of a mark's or a spec's expression.
fn value_of(expr: &Expr) -> Result<Value, String> {
    literal(expr, 0).map(|lit| lit.value).ok_or_else(|| {
        format!(
            "`{}` is not a number, `true`, `false` or a path",
            expr.to_token_stream()
        )
    })
}

/// The value of a range's end: a number.
fn number_of(expr: &Expr) -> Result<Value, String> {
    match value_of(expr)? {
        Value::Path(path) => Err(format!("`{path}` is not a number")),
        Value::Bool(b) => Err(format!("`{b}` is not a number")),
        number => Ok(number),
    }
}

/// A mark's values before they are checked against the constant.
enum Raw {
    Range {
        min: Value,
        max: Value,
        step: Option<u128>,
    },
    List(Vec<Value>),
}

/// Reads `MIN..=MAX`, `MIN..=MAX step S` or `A|B|...`.
fn raw_values(text: &str) -> Result<Raw, String> {
    if text.is_empty() {
        return Err("it has no values: write `MIN..=MAX` or `A|B|C`".into());
    }
    let words: Vec<&str> = text.split_whitespace().collect();
    let (values, step) = match words.iter().position(|&word| word == "step") {
        Some(k) => (words[..k].join(" "), Some(words[k + 1..].join(" "))),
        None => (text.to_string(), None),
    };
    let expr: Expr = syn::parse_str(&values).map_err(|err| format!("`{values}`: {err}"))?;
    if let Expr::Range(range) = expr {
        if !matches!(range.limits, RangeLimits::Closed(_)) {
            return Err("`MIN..MAX` would leave MAX out: write `MIN..=MAX`".into());
        }
        let (Some(min), Some(max)) = (range.start, range.end) else {
            return Err("a range needs both ends: `MIN..=MAX`".into());
        };
        let step = step.map(|text| parse_step(&text)).transpose()?;
        return Ok(Raw::Range {
            min: number_of(&min)?,
            max: number_of(&max)?,
            step,
        });
    }
    if step.is_some() {
        return Err("`step` goes with a range: `MIN..=MAX step S`".into());
    }
    // `A|B|C` parses as `(A|B)|C`: walk down the left side.
    let mut alternatives = Vec::new();
    let mut rest = expr;
    while let Expr::Binary(binary) = rest {
        if !matches!(binary.op, syn::BinOp::BitOr(_)) {
            rest = Expr::Binary(binary);
            break;
        }
        alternatives.push(*binary.right);
        rest = *binary.left;
    }
    alternatives.push(rest);
    alternatives.reverse();
    Ok(Raw::List(
        alternatives
            .iter()
            .map(value_of)
            .collect::<Result<_, _>>()?,
    ))
}

fn parse_step(text: &str) -> Result<u128, String> {
    match value(text) {
        Ok(Value::Int(n)) if n >= 0 => Ok(n.unsigned_abs()),
        _ => Err(format!("`step {text}`: a step is a whole number")),
    }
}

/// The mark `comment` on its constant, checked.
fn build(comment: &MarkComment, consts: &[ConstItem]) -> Result<Mark, MarkError> {
    let error = |problem| MarkError {
        line: comment.line,
        problem,
    };
    let mark = comment.text();
    let here: Vec<&ConstItem> = consts
        .iter()
        .filter(|item| item.lines.contains(&comment.line))
        .collect();
    let item = match here[..] {
        [] => return Err(error(MarkProblem::NamesNothing { mark })),
        [item] => item,
        _ => {
            let names: Vec<String> = here.iter().map(|item| format!("`{}`", item.name)).collect();
            let names = names.join(" and ");
            return Err(error(MarkProblem::Ambiguous { mark, names }));
        }
    };
    let raw = raw_values(&comment.values).map_err(|reason| {
        error(MarkProblem::Unparsable {
            mark: mark.clone(),
            reason,
        })
    })?;
    let literal = item.value.clone().map_err(|value| {
        error(MarkProblem::NotALiteral {
            name: item.name.clone(),
            value,
        })
    })?;
    let class = item
        .class
        .or_else(|| primitive(&literal.suffix))
        .unwrap_or(match literal.value {
            Value::Int(_) => Class::Int {
                min: i128::MIN,
                max: i128::MAX,
            },
            Value::Float(_) => Class::Float { max: f64::MAX },
            Value::Bool(_) => Class::Bool,
            Value::Path(_) => Class::Other,
        });
    let checker = Checker {
        mark: &mark,
        kind: comment.kind,
        item,
        class,
    };
    let values = checker.values(raw).map_err(error)?;
    let current = fit(class, &literal.value).unwrap_or(literal.value.clone());
    if !values.contains(&current) {
        return Err(error(MarkProblem::CurrentOutside {
            mark,
            name: item.name.clone(),
            current: current.to_string(),
        }));
    }
    Ok(Mark {
        name: item.name.clone(),
        kind: comment.kind,
        line: comment.line,
        ty: item.ty.clone(),
        current,
        values,
        value_at: literal.at,
        suffix: literal.suffix,
        class,
    })
}

/// Checks a mark's values against its constant.
struct Checker<'a> {
    mark: &'a str,
    kind: MarkKind,
    item: &'a ConstItem,
    class: Class,
}

impl Checker<'_> {
    fn values(&self, raw: Raw) -> Result<Values, MarkProblem> {
        match raw {
            Raw::List(_) if self.kind == MarkKind::Tune => Err(self.unparsable(
                "a `tune` mark takes bounds, `MIN..=MAX` (a list is for `vary`)",
            )),
            Raw::List(items) => self.list(&items),
            Raw::Range { step: Some(_), .. } if self.kind == MarkKind::Tune => {
                Err(self.unparsable("a `tune` mark takes no step"))
            }
            Raw::Range { min, max, step } => match self.class {
                Class::Int { .. } => self.ints(&min, &max, step.unwrap_or(1)),
                Class::Float { .. } if self.kind == MarkKind::Vary => Err(self.no_range(
                    "a float range has no grid: list the values (`vary 0.5|1.0|2.0`) or `tune` it",
                )),
                Class::Float { .. } => self.floats(&min, &max),
                Class::Bool | Class::Other => Err(self.no_range(&format!(
                    "a range needs an integer or float constant, and it is {}: list the values (`vary A|B`)",
                    self.item.ty
                ))),
            },
        }
    }

    fn list(&self, items: &[Value]) -> Result<Values, MarkProblem> {
        let mut list = Vec::new();
        for item in items {
            let value = self.fit(item)?;
            if list.contains(&value) {
                return Err(MarkProblem::Repeated {
                    mark: self.mark.into(),
                    value: value.to_string(),
                });
            }
            list.push(value);
        }
        Ok(Values::List(list))
    }

    fn ints(&self, min: &Value, max: &Value, step: u128) -> Result<Values, MarkProblem> {
        let (Value::Int(min), Value::Int(max)) = (self.fit(min)?, self.fit(max)?) else {
            return Err(self.no_range("a range's ends are integers"));
        };
        if min > max {
            return Err(self.empty(&format!("{min} is above {max}; write {max}..={min}")));
        }
        if step == 0 {
            return Err(self.empty("`step 0` never moves"));
        }
        Ok(Values::Ints { min, max, step })
    }

    fn floats(&self, min: &Value, max: &Value) -> Result<Values, MarkProblem> {
        let (Value::Float(min), Value::Float(max)) = (self.fit(min)?, self.fit(max)?) else {
            return Err(self.no_range("a range's ends are numbers"));
        };
        if min > max {
            return Err(self.empty(&format!("{min:?} is above {max:?}")));
        }
        Ok(Values::Floats { min, max })
    }

    fn fit(&self, value: &Value) -> Result<Value, MarkProblem> {
        let (mark, name, ty) = (
            self.mark.into(),
            self.item.name.clone(),
            self.item.ty.clone(),
        );
        let value_text = value.to_string();
        fit(self.class, value).map_err(|misfit| match misfit {
            Misfit::WrongType => MarkProblem::WrongType {
                mark,
                name,
                ty,
                value: value_text,
            },
            Misfit::OutOfRange => MarkProblem::OutOfType {
                mark,
                name,
                ty,
                value: value_text,
            },
        })
    }

    fn unparsable(&self, reason: &str) -> MarkProblem {
        MarkProblem::Unparsable {
            mark: self.mark.into(),
            reason: reason.into(),
        }
    }

    fn empty(&self, reason: &str) -> MarkProblem {
        MarkProblem::Empty {
            mark: self.mark.into(),
            reason: reason.into(),
        }
    }

    fn no_range(&self, reason: &str) -> MarkProblem {
        MarkProblem::NoRange {
            mark: self.mark.into(),
            name: self.item.name.clone(),
            reason: reason.into(),
        }
    }
}

//! `string.Format` with a constant format string: each format item
//! `{index[,alignment][:format]}` is its argument's text (an integer's `D`/`X` formats as
//! `cs::format_int` gives them), padded to the alignment in UTF-16 code units.

use super::decls::FileEmitter;
use super::{Const, Prec, R, Val, snippet, unsupported};
use crate::ast::*;
use crate::types::Ty;

/// A piece of a format string.
#[derive(Debug, PartialEq)]
enum Piece {
    Text(String),
    Item {
        index: usize,
        align: i32,
        format: Option<String>,
    },
}

/// The pieces of `text`, or `None` for what .NET rejects or this port does not read
/// (white space inside an item, braces inside a format).
fn pieces(text: &str) -> Option<Vec<Piece>> {
    let mut out = Vec::new();
    let mut plain = String::new();
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '{' if chars.peek() == Some(&'{') => {
                chars.next();
                plain.push('{');
            }
            '}' if chars.peek() == Some(&'}') => {
                chars.next();
                plain.push('}');
            }
            '}' => return None,
            '{' => {
                let mut item = String::new();
                loop {
                    match chars.next()? {
                        '}' => break,
                        '{' => return None,
                        x => item.push(x),
                    }
                }
                out.push(Piece::Text(std::mem::take(&mut plain)));
                out.push(item_piece(&item)?);
            }
            x => plain.push(x),
        }
    }
    out.push(Piece::Text(plain));
    Some(out)
}

fn item_piece(item: &str) -> Option<Piece> {
    let (head, format) = match item.split_once(':') {
        Some((h, f)) => (h, Some(f.to_string())),
        None => (item, None),
    };
    let (index, align) = match head.split_once(',') {
        Some((i, a)) => (i, a.parse().ok()?),
        None => (head, 0),
    };
    if index.is_empty() || !index.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some(Piece::Item {
        index: index.parse().ok()?,
        align,
        format,
    })
}

impl FileEmitter<'_, '_> {
    /// `string.Format(format, args...)`.
    pub(crate) fn string_format(&mut self, args: &[Arg], e: &Expr) -> R<Val> {
        let refuse = |what: &str| unsupported(e.span, what.to_string(), snippet(self.src, e));
        let [format, rest @ ..] = args else {
            return Err(refuse("`string.Format` without a format"));
        };
        let f = self.expr(&format.expr, None)?;
        let Some(Const::Str(text)) = f.konst.clone() else {
            return Err(refuse("`string.Format` of a format that is not a constant"));
        };
        let pieces = pieces(&text).ok_or_else(|| refuse("this `string.Format` format"))?;
        let vals = self.plain_args(rest)?;
        // An array argument may be C#'s `params` array itself: refused.
        let used = |i: usize| {
            pieces
                .iter()
                .any(|p| matches!(p, Piece::Item { index, .. } if *index == i))
        };
        let in_range = pieces
            .iter()
            .all(|p| !matches!(p, Piece::Item { index, .. } if *index >= vals.len()));
        if !in_range
            || !(0..vals.len()).all(used)
            || vals.iter().any(|v| matches!(v.ty, Ty::Array(..)))
        {
            return Err(refuse("`string.Format` with these arguments"));
        }
        let mut lets = String::new();
        let mut bound = Vec::new();
        for v in &vals {
            let name = self.temp("arg");
            lets.push_str(&format!("let {name} = {}; ", v.code));
            bound.push(Val::new(name, v.ty.clone(), Prec::Primary));
        }
        let mut fmt = String::new();
        let mut texts = Vec::new();
        for p in &pieces {
            match p {
                Piece::Text(t) => fmt.push_str(&t.replace('{', "{{").replace('}', "}}")),
                Piece::Item {
                    index,
                    align,
                    format,
                } => {
                    fmt.push_str("{}");
                    texts.push(self.item_text(&bound[*index], *align, format.as_deref(), e)?);
                }
            }
        }
        let code = format!("{{ {lets}format!({fmt:?}, {}) }}", texts.join(", "));
        let mut out = Val::new(code, Ty::Str, Prec::Primary).absorb(&f);
        for v in &vals {
            out = out.absorb(v);
        }
        Ok(out)
    }

    fn item_text(&self, v: &Val, align: i32, format: Option<&str>, e: &Expr) -> R<String> {
        let text = match format {
            None => self.text(v, e)?,
            Some(f) => {
                let mut fv = Val::new(format!("{f:?}"), Ty::Str, Prec::Primary);
                fv.konst = Some(Const::Str(f.to_string()));
                self.int_format(v, &fv, e)?
            }
        };
        Ok(aligned(text, align))
    }
}

/// `text` (the code of a value's text) padded with spaces to `align` UTF-16 code units:
/// on the left for a positive alignment, on the right for a negative one (.NET's
/// composite formatting; a longer text is not cut).
pub(crate) fn aligned(text: String, align: i32) -> String {
    match align {
        0 => text,
        a if a > 0 => format!("cs::pad_left(&({text}).to_string(), {a}, ' ' as u16)"),
        a => format!(
            "cs::pad_right(&({text}).to_string(), {}, ' ' as u16)",
            a.unsigned_abs()
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn format_items_are_read_as_dotnet_reads_them() {
        let item = |index, align, format: Option<&str>| Piece::Item {
            index,
            align,
            format: format.map(str::to_string),
        };
        assert_eq!(
            pieces("a{{{0,-3:X8}}}b{1}"),
            Some(vec![
                Piece::Text("a{".into()),
                item(0, -3, Some("X8")),
                Piece::Text("}b".into()),
                item(1, 0, None),
                Piece::Text(String::new()),
            ])
        );
        for bad in ["}", "{", "{x}", "{0", "{ 0}", "{0,a}", "{0:{}}"] {
            assert_eq!(pieces(bad), None, "{bad}");
        }
    }
}

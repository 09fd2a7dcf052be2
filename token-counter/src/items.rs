//! Where the tokens go: the count of a file split by item (docs/rules.md,
//! "Where the tokens go").
//!
//! The split is not a second count. The counter records what each token it
//! counts costs and where the token starts; this module hands each of those
//! records to the innermost item whose source holds it. So the rows add up
//! to the file's count by construction, whatever the file holds.

mod diff;
mod outline;

use std::cmp::Reverse;
use std::fmt;
use std::path::Path;

use serde::{Serialize, Serializer};

use crate::count::TokenCost;
use crate::{FileError, ParseError, Report};

pub use diff::{ItemChange, ItemDiff, Status};

/// What kind of item a row of [`Itemized::items`] is.
///
/// Its [`name`](ItemKind::name) is the stable name the JSON output uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ItemKind {
    /// A free function, or a function of an impl or a trait.
    Fn,
    /// An `impl` block's own tokens: its header and opening brace.
    Impl,
    /// A `struct`.
    Struct,
    /// An `enum`.
    Enum,
    /// A `union`.
    Union,
    /// A `const`, free or in an impl or trait.
    Const,
    /// A `static`.
    Static,
    /// A `use` declaration.
    Use,
    /// A type alias, free or an associated type.
    Type,
    /// A trait's own tokens (its members have rows of their own), or a
    /// trait alias.
    Trait,
    /// A `macro_rules!` definition.
    MacroRules,
    /// A macro called where an item goes (`thread_local! { ... }`).
    Macro,
    /// A module's own tokens (its items have rows of their own).
    Mod,
    /// An `extern crate` (refused by the rules, but parsed and counted).
    ExternCrate,
    /// An `extern` block (refused by the rules, but parsed and counted).
    Extern,
    /// An item syn parses without naming it (such as a `fn` without a body).
    Other,
    /// Tokens outside every item: the file's inner attributes.
    Outside,
}

impl ItemKind {
    /// The kind's stable name: `fn`, `impl`, `struct`, `enum`, `union`,
    /// `const`, `static`, `use`, `type`, `trait`, `macro_rules`, `macro`,
    /// `mod`, `extern_crate`, `extern`, `other` or `outside`.
    ///
    /// ```
    /// assert_eq!(token_counter::ItemKind::MacroRules.name(), "macro_rules");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            ItemKind::Fn => "fn",
            ItemKind::Impl => "impl",
            ItemKind::Struct => "struct",
            ItemKind::Enum => "enum",
            ItemKind::Union => "union",
            ItemKind::Const => "const",
            ItemKind::Static => "static",
            ItemKind::Use => "use",
            ItemKind::Type => "type",
            ItemKind::Trait => "trait",
            ItemKind::MacroRules => "macro_rules",
            ItemKind::Macro => "macro",
            ItemKind::Mod => "mod",
            ItemKind::ExternCrate => "extern_crate",
            ItemKind::Extern => "extern",
            ItemKind::Other => "other",
            ItemKind::Outside => "outside",
        }
    }
}

impl fmt::Display for ItemKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.name())
    }
}

impl Serialize for ItemKind {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.name())
    }
}

/// The name of the row that holds the tokens outside every item.
pub const OUTSIDE_ITEMS: &str = "(outside items)";

/// What one item costs.
///
/// In JSON: `{"kind", "name", "line", "tokens", "debug"}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ItemCost {
    /// What kind of item it is.
    pub kind: ItemKind,
    /// Its name, unique among the rows of its kind in the file: `think`,
    /// `MyBot::search`, `impl Bot for MyBot::think`, `impl Bot for MyBot`,
    /// `framework::prelude::*` (a `use`), `m::f` (in `mod m`); a repeat of
    /// a kind and name gets ` #2`, ` #3`... in source order.
    pub name: String,
    /// The line of its first token after its outer attributes (for the
    /// outside row, the line of its first counted token).
    pub line: usize,
    /// Its tokens counted while developing.
    pub tokens: usize,
    /// Its tokens on `#DEBUG` lines (counted when submitted).
    pub debug: usize,
}

impl ItemCost {
    /// What the item costs in a submission: counted and debug tokens.
    pub fn total(&self) -> usize {
        self.tokens + self.debug
    }
}

/// A file's count and rule check, and its count split by item.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Itemized {
    /// The count and the rule check, as [`crate::analyze`] gives them.
    pub report: Report,
    /// Every item, costliest first (by [`ItemCost::total`]; equal costs in
    /// source order), and the outside row when it holds a counted token.
    /// Their `tokens` add up to `report.tokens`, their `debug` to
    /// `report.debug_tokens`.
    pub items: Vec<ItemCost>,
}

/// Counts and checks a bot file's source text, and splits the count by
/// item.
///
/// Fails only where [`crate::analyze`] does: when the text does not parse.
///
/// ```
/// let it = token_counter::itemize(
///     "#![allow(unused)]\n\
///      use framework::prelude::*;\n\
///      #[derive(Default)]\n\
///      pub struct MyBot;\n\
///      impl Bot for MyBot {\n    \
///          fn think(&mut self, b: Board, _: Timer) -> Move {\n        \
///              b.legal_moves()[0]\n    \
///          }\n\
///      }\n",
/// )?;
/// let rows: Vec<(&str, &str, usize)> = it
///     .items
///     .iter()
///     .map(|row| (row.kind.name(), row.name.as_str(), row.tokens))
///     .collect();
/// assert_eq!(
///     rows,
///     [
///         ("fn", "impl Bot for MyBot::think", 15),
///         ("outside", "(outside items)", 6),
///         ("impl", "impl Bot for MyBot", 5),
///         ("struct", "MyBot", 2),
///         ("use", "framework::prelude::*", 0),
///     ]
/// );
/// assert_eq!(it.report.tokens, 28);
/// # Ok::<(), token_counter::ParseError>(())
/// ```
pub fn itemize(source: &str) -> Result<Itemized, ParseError> {
    crate::on_analysis_thread(source, |analysis| {
        let rows = outline::outline(&analysis.file);
        Itemized {
            items: attribute(&rows, &analysis.costs),
            report: analysis.report,
        }
    })
}

/// Reads a bot file as [`crate::read_source`] does and [`itemize`]s it.
///
/// ```no_run
/// let it = token_counter::itemize_file("bot/my_bot.rs")?;
/// for row in &it.items {
///     println!("{:>6}  {} {}", row.tokens, row.kind, row.name);
/// }
/// # Ok::<(), token_counter::FileError>(())
/// ```
pub fn itemize_file(path: impl AsRef<Path>) -> Result<Itemized, FileError> {
    let path = path.as_ref();
    let source = crate::read_source(path)?;
    itemize(&source).map_err(|source| FileError::Parse {
        path: path.to_owned(),
        cause: source,
    })
}

/// Hands every token cost to the innermost row whose source holds it, or to
/// the outside row, and returns the rows costliest first.
///
/// Rows either nest or are apart (syn's items do), so one sweep in source
/// order with a stack of the rows open at a position finds the innermost:
/// the one open row that started last.
fn attribute(rows: &[outline::Outlined], costs: &[TokenCost]) -> Vec<ItemCost> {
    let outside = rows.len();
    let mut sums = vec![(0usize, 0usize); rows.len() + 1];
    let mut outside_line = None;
    let mut by_start: Vec<usize> = (0..rows.len()).collect();
    by_start.sort_by_key(|&k| (rows[k].start, Reverse(rows[k].end)));
    let mut costs = costs.to_vec();
    costs.sort_by_key(|c| c.pos);
    let (mut next, mut open) = (0, Vec::new());
    for c in &costs {
        while next < by_start.len() && rows[by_start[next]].start <= c.pos {
            open.push(by_start[next]);
            next += 1;
        }
        while open.last().is_some_and(|&k| rows[k].end <= c.pos) {
            open.pop();
        }
        let owner = open.last().copied().unwrap_or(outside);
        if owner == outside {
            outside_line.get_or_insert(c.pos.line);
        }
        let sum = &mut sums[owner];
        if c.debug {
            sum.1 += c.cost;
        } else {
            sum.0 += c.cost;
        }
    }
    let mut items: Vec<(usize, ItemCost)> = rows
        .iter()
        .zip(&sums)
        .enumerate()
        .map(|(k, (row, &(tokens, debug)))| {
            let cost = ItemCost {
                kind: row.kind,
                name: row.name.clone(),
                line: row.line,
                tokens,
                debug,
            };
            (k, cost)
        })
        .collect();
    if let Some(line) = outside_line {
        let (tokens, debug) = sums[outside];
        let name = OUTSIDE_ITEMS.to_owned();
        let kind = ItemKind::Outside;
        items.push((
            outside,
            ItemCost {
                kind,
                name,
                line,
                tokens,
                debug,
            },
        ));
    }
    // Equal costs keep source order; the outside row's tokens come first.
    let order = |k: usize| rows.get(k).map(|r| r.start);
    items.sort_by_key(|(k, cost)| (Reverse(cost.total()), order(*k).is_some(), order(*k)));
    items.into_iter().map(|(_, cost)| cost).collect()
}

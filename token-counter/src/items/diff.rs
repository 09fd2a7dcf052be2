//! What changed per item between two versions of a file.

use std::cmp::Reverse;
use std::collections::BTreeMap;

use serde::Serialize;

use super::{ItemCost, ItemKind, Itemized};

/// How an item fared between the old and the new file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// Only in the new file.
    Added,
    /// Only in the old file.
    Removed,
    /// In both, at another cost (counted or `#DEBUG`).
    Changed,
    /// In both, at the same cost.
    Unchanged,
}

impl Status {
    /// The stable name JSON uses: `added`, `removed`, `changed`, `unchanged`.
    pub fn name(self) -> &'static str {
        match self {
            Status::Added => "added",
            Status::Removed => "removed",
            Status::Changed => "changed",
            Status::Unchanged => "unchanged",
        }
    }
}

/// One item's change, matched between the files by kind and name.
///
/// In JSON: `{"kind", "name", "status", "old_tokens", "new_tokens",
/// "tokens_change", "old_debug", "new_debug", "debug_change"}`, where the
/// old fields of an added item and the new fields of a removed one are
/// `null`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ItemChange {
    /// What kind of item it is.
    pub kind: ItemKind,
    /// Its name (see [`ItemCost::name`]).
    pub name: String,
    /// Added, removed, changed or unchanged.
    pub status: Status,
    /// Its counted tokens in the old file.
    pub old_tokens: Option<usize>,
    /// Its counted tokens in the new file.
    pub new_tokens: Option<usize>,
    /// New minus old counted tokens (an absent side counts 0).
    pub tokens_change: i64,
    /// Its `#DEBUG` tokens in the old file.
    pub old_debug: Option<usize>,
    /// Its `#DEBUG` tokens in the new file.
    pub new_debug: Option<usize>,
    /// New minus old `#DEBUG` tokens (an absent side counts 0).
    pub debug_change: i64,
}

/// The change per item between two versions of a file, and of the whole.
///
/// `tokens_change` is the new file's count minus the old one's, and equals
/// the sum of the items' `tokens_change` (likewise for `#DEBUG` tokens),
/// because each file's rows add up to its count.
///
/// In JSON: `{"old_tokens", "new_tokens", "tokens_change",
/// "old_debug_tokens", "new_debug_tokens", "debug_change", "items"}`.
///
/// ```
/// let old = token_counter::itemize("fn a() { f(1); }\nfn b() {}\nstruct S;")?;
/// let new = token_counter::itemize("fn a() { f(1, 2); }\nfn c() {}\nstruct S;")?;
/// let diff = token_counter::ItemDiff::between(&old, &new);
/// assert_eq!(diff.tokens_change, 1);
/// let changes: Vec<(&str, &str, i64)> = diff
///     .items
///     .iter()
///     .map(|c| (c.name.as_str(), c.status.name(), c.tokens_change))
///     .collect();
/// assert_eq!(
///     changes,
///     [("c", "added", 4), ("b", "removed", -4), ("a", "changed", 1), ("S", "unchanged", 0)]
/// );
/// # Ok::<(), token_counter::ParseError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ItemDiff {
    /// The old file's counted tokens.
    pub old_tokens: usize,
    /// The new file's counted tokens.
    pub new_tokens: usize,
    /// `new_tokens - old_tokens`.
    pub tokens_change: i64,
    /// The old file's `#DEBUG` tokens.
    pub old_debug_tokens: usize,
    /// The new file's `#DEBUG` tokens.
    pub new_debug_tokens: usize,
    /// `new_debug_tokens - old_debug_tokens`.
    pub debug_change: i64,
    /// Every item of either file, the largest change first (growth before
    /// shrinkage of the same size, then by kind and name); unchanged ones
    /// last.
    pub items: Vec<ItemChange>,
}

impl ItemDiff {
    /// Matches the items of `old` and `new` by kind and name.
    pub fn between(old: &Itemized, new: &Itemized) -> ItemDiff {
        type Sides<'a> = (Option<&'a ItemCost>, Option<&'a ItemCost>);
        let mut matched: BTreeMap<(ItemKind, &str), Sides> = BTreeMap::new();
        for item in &old.items {
            matched.entry((item.kind, &item.name)).or_default().0 = Some(item);
        }
        for item in &new.items {
            matched.entry((item.kind, &item.name)).or_default().1 = Some(item);
        }
        let mut items: Vec<ItemChange> = matched
            .into_iter()
            .map(|((kind, name), (was, is))| change(kind, name, was, is))
            .collect();
        items.sort_by_key(|c| {
            let size = c.tokens_change.unsigned_abs() + c.debug_change.unsigned_abs();
            let growth = c.tokens_change + c.debug_change;
            (Reverse(size), Reverse(growth), c.kind, c.name.clone())
        });
        let (old, new) = (&old.report, &new.report);
        ItemDiff {
            old_tokens: old.tokens,
            new_tokens: new.tokens,
            tokens_change: delta(old.tokens, new.tokens),
            old_debug_tokens: old.debug_tokens,
            new_debug_tokens: new.debug_tokens,
            debug_change: delta(old.debug_tokens, new.debug_tokens),
            items,
        }
    }
}

fn change(kind: ItemKind, name: &str, was: Option<&ItemCost>, is: Option<&ItemCost>) -> ItemChange {
    let tokens = |side: Option<&ItemCost>| side.map(|c| c.tokens);
    let debug = |side: Option<&ItemCost>| side.map(|c| c.debug);
    let status = match (was, is) {
        (None, _) => Status::Added,
        (_, None) => Status::Removed,
        (Some(a), Some(b)) if (a.tokens, a.debug) == (b.tokens, b.debug) => Status::Unchanged,
        _ => Status::Changed,
    };
    ItemChange {
        kind,
        name: name.to_owned(),
        status,
        old_tokens: tokens(was),
        new_tokens: tokens(is),
        tokens_change: delta(tokens(was).unwrap_or(0), tokens(is).unwrap_or(0)),
        old_debug: debug(was),
        new_debug: debug(is),
        debug_change: delta(debug(was).unwrap_or(0), debug(is).unwrap_or(0)),
    }
}

/// `new - old`. Counts are bounded by the file size (256 KiB), far inside
/// `i64`; saturating keeps that an assumption that cannot wrap.
fn delta(old: usize, new: usize) -> i64 {
    let signed = |n: usize| i64::try_from(n).unwrap_or(i64::MAX);
    signed(new).saturating_sub(signed(old))
}

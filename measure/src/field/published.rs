//! The C# challenge's published results, as its repository ships them: `RatingsList.txt`
//! (BayesElo's table: rank, name, Elo, its interval, games) and `BotMetaData.json` (each
//! entry's `BotID`, the file `Bots/BotID.cs`, with its `BotName` and `AuthorName`), and
//! which list row is which entry.
//!
//! The list names a player `BotName (by: AuthorName)`, but not always as the metadata
//! spells it: the file was written through a code page, so `Ñ` in a name reads `├Ñ`
//! (UTF-8's bytes shown as code page 437: mended by [`mend_mojibake`]); BayesElo keeps
//! only what follows a name's last `"`; long names are cut at 70 characters or shortened
//! with `...`; a few were edited by hand (an author list shortened, small capitals made
//! plain). [`match_entries`] tries each reading in turn, from the strictest, and says
//! which one matched ([`MatchedBy`]).

use std::collections::HashMap;
use std::path::Path;

use anyhow::{Context, Result, bail, ensure};
use serde::{Deserialize, Serialize};

/// The largest `RatingsList.txt` read (the published one is 66 KB).
pub const MAX_LIST_BYTES: u64 = 4 << 20;

/// The largest `BotMetaData.json` read (the published one is 250 KB).
pub const MAX_METADATA_BYTES: u64 = 32 << 20;

/// One row of the published list.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PublishedRow {
    /// Its rank, from 1.
    pub rank: usize,
    /// The name as printed, its code-page damage mended.
    pub name: String,
    /// The rating.
    pub elo: f64,
    /// The half-width of its 95% interval: the larger of BayesElo's `+` and `-`.
    pub interval: f64,
    /// Games it played.
    pub games: u32,
}

/// The published list, best first.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct PublishedList {
    /// Its rows, in the file's order.
    pub rows: Vec<PublishedRow>,
}

impl PublishedList {
    /// Reads `RatingsList.txt`.
    pub fn read(path: &Path) -> Result<PublishedList> {
        let text = read_bounded(path, MAX_LIST_BYTES)?;
        PublishedList::parse(&text).with_context(|| format!("in {}", path.display()))
    }

    /// Parses the list's text: lines before the `Rank Name ...` heading are its preamble,
    /// every later line that is not blank is a row.
    ///
    /// ```
    /// let text = "Rank Name            Elo    +    - games score oppo. draws\n   \
    ///     1 Alpha (by: A)   2772   11   12  3072   72%  2591   30%\n   \
    ///     2 Beta (by: B)     -12   93   93    64   33%  -551    0%\n";
    /// let list = measure::PublishedList::parse(text).unwrap();
    /// assert_eq!(list.rows[1].name, "Beta (by: B)");
    /// assert_eq!((list.rows[0].elo, list.rows[0].interval), (2772.0, 12.0));
    /// assert_eq!(list.place(2000.0), 2);
    /// ```
    pub fn parse(text: &str) -> Result<PublishedList> {
        let mut lines = text.lines().enumerate();
        lines
            .by_ref()
            .find(|(_, line)| line.trim_start().starts_with("Rank Name"))
            .context("no `Rank Name ...` heading: this is not BayesElo's ratings list")?;
        let mut rows = Vec::new();
        for (number, line) in lines {
            if line.trim().is_empty() {
                continue;
            }
            let row = parse_row(line).with_context(|| format!("line {}", number + 1))?;
            ensure!(
                row.rank == rows.len() + 1,
                "line {}: rank {} after {} rows",
                number + 1,
                row.rank,
                rows.len()
            );
            rows.push(row);
        }
        ensure!(!rows.is_empty(), "the list has no rows");
        Ok(PublishedList { rows })
    }

    /// The place a player rated `elo` would have had: one more than the rows rated
    /// above it.
    pub fn place(&self, elo: f64) -> usize {
        1 + self.rows.iter().filter(|row| row.elo > elo).count()
    }
}

/// A row: `rank name elo + - games score% oppo draws%`, the name being everything
/// between the rank and the seven numbers.
fn parse_row(line: &str) -> Result<PublishedRow> {
    let line = line.trim_end();
    let start = line.trim_start();
    let (rank, rest) = start
        .split_once(' ')
        .context("a row is `rank name elo + - games score oppo. draws`")?;
    let rank: usize = rank.parse().with_context(|| format!("rank `{rank}`"))?;
    let mut numbers = Vec::with_capacity(7);
    let mut name = rest;
    for _ in 0..7 {
        let cut = name.trim_end();
        let at = cut
            .rfind(' ')
            .context("fewer than seven numbers after the name")?;
        numbers.push(&cut[at + 1..]);
        name = &cut[..at];
    }
    numbers.reverse();
    let number = |i: usize, what: &str| -> Result<f64> {
        let text = numbers[i].trim_end_matches('%');
        let value: f64 = text
            .parse()
            .with_context(|| format!("{what} `{}` is not a number", numbers[i]))?;
        ensure!(value.is_finite(), "{what} `{}` is not finite", numbers[i]);
        Ok(value)
    };
    let (elo, plus, minus) = (number(0, "Elo")?, number(1, "+")?, number(2, "-")?);
    let games = numbers[3]
        .parse()
        .with_context(|| format!("games `{}`", numbers[3]))?;
    let name = mend_mojibake(name.trim());
    if name.is_empty() {
        bail!("a row without a name");
    }
    Ok(PublishedRow {
        rank,
        name,
        elo,
        interval: plus.max(minus),
        games,
    })
}

/// Mends a name whose UTF-8 bytes were shown as code page 437 (`bl├Ñ` for `blå`): when
/// every character is one of that code page's and their bytes are valid UTF-8 that
/// differs, those are the name; else it is kept as it is (`Möhrchen`'s `ö` is a code
/// page 437 character, but its byte alone is no UTF-8).
///
/// ```
/// assert_eq!(measure::mend_mojibake("bl├Ñ gr├╕'"), "blå grø'");
/// assert_eq!(measure::mend_mojibake("Möhrchen"), "Möhrchen");
/// assert_eq!(measure::mend_mojibake("Matěj"), "Matěj");
/// ```
pub fn mend_mojibake(name: &str) -> String {
    if name.is_ascii() {
        return name.to_string();
    }
    oem_cp::encode_string_checked(name, &oem_cp::code_table::ENCODING_TABLE_CP437)
        .and_then(|bytes| String::from_utf8(bytes).ok())
        .unwrap_or_else(|| name.to_string())
}

/// One entry of `BotMetaData.json`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct EntryMeta {
    /// `Bot_12`: its file is `Bots/Bot_12.cs`.
    #[serde(rename = "BotID")]
    pub id: String,
    /// The bot's name.
    #[serde(rename = "BotName")]
    pub bot_name: String,
    /// Its author's name.
    #[serde(rename = "AuthorName")]
    pub author: String,
}

impl EntryMeta {
    /// The name as the list prints it before any damage: `BotName (by: AuthorName)`.
    pub fn display(&self) -> String {
        format!("{} (by: {})", self.bot_name, self.author)
    }
}

/// Reads `BotMetaData.json`: a JSON array of entries (their other fields are ignored).
pub fn read_metadata(path: &Path) -> Result<Vec<EntryMeta>> {
    let text = read_bounded(path, MAX_METADATA_BYTES)?;
    let entries: Vec<EntryMeta> =
        serde_json::from_str(&text).with_context(|| format!("cannot read {}", path.display()))?;
    Ok(entries)
}

/// How a list row was matched with its entry, from the strictest reading.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum MatchedBy {
    /// `BotName (by: AuthorName)` as printed.
    Exact,
    /// What follows the name's last `"`, as BayesElo keeps it.
    AfterQuote,
    /// A name cut at the column's width, or shortened with `...`.
    Cut,
    /// The bot's name alone, the author's having been edited.
    BotName,
    /// The author's name alone, the bot's having been edited.
    Author,
}

impl MatchedBy {
    /// Every reading, strictest first.
    pub const ALL: [MatchedBy; 5] = [
        MatchedBy::Exact,
        MatchedBy::AfterQuote,
        MatchedBy::Cut,
        MatchedBy::BotName,
        MatchedBy::Author,
    ];

    /// Its words, for the summary.
    pub fn words(self) -> &'static str {
        match self {
            MatchedBy::Exact => "as printed",
            MatchedBy::AfterQuote => "after the name's last quote",
            MatchedBy::Cut => "a cut or shortened name",
            MatchedBy::BotName => "the bot's name alone",
            MatchedBy::Author => "the author's name alone",
        }
    }
}

/// A list row and the entries it names (two when an author entered the same bot twice).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RowMatch {
    /// The row's index in the list.
    pub row: usize,
    /// The entries' indices in the metadata.
    pub entries: Vec<usize>,
    /// The reading that matched.
    pub by: MatchedBy,
}

/// Matches each list row with the entries it names, among `entries` (those with a
/// file). A row no reading matches to one bot is left out: [`unmatched_rows`] lists
/// them.
pub fn match_entries(list: &PublishedList, entries: &[EntryMeta]) -> Vec<RowMatch> {
    let readings = Readings::of(entries);
    list.rows
        .iter()
        .enumerate()
        .filter_map(|(row, published)| {
            let (by, found) = readings.find(&published.name)?;
            Some(RowMatch {
                row,
                entries: found,
                by,
            })
        })
        .collect()
}

/// The rows of `list` that `matches` leaves out.
pub fn unmatched_rows(list: &PublishedList, matches: &[RowMatch]) -> Vec<usize> {
    let mut matched = vec![false; list.rows.len()];
    for m in matches {
        matched[m.row] = true;
    }
    (0..list.rows.len()).filter(|&i| !matched[i]).collect()
}

/// The entries' names in each reading, for lookups.
struct Readings<'a> {
    entries: &'a [EntryMeta],
    displays: Vec<String>,
    by_display: HashMap<String, Vec<usize>>,
}

impl<'a> Readings<'a> {
    fn of(entries: &'a [EntryMeta]) -> Readings<'a> {
        let displays: Vec<String> = entries.iter().map(|e| e.display()).collect();
        let mut by_display: HashMap<String, Vec<usize>> = HashMap::new();
        for (i, d) in displays.iter().enumerate() {
            by_display.entry(d.trim().to_string()).or_default().push(i);
        }
        Readings {
            entries,
            displays,
            by_display,
        }
    }

    /// The strictest reading that names one bot (its entries' displays all alike).
    fn find(&self, name: &str) -> Option<(MatchedBy, Vec<usize>)> {
        let name = name.trim();
        MatchedBy::ALL.into_iter().find_map(|by| {
            let found = self.candidates(by, name);
            let one_bot = found
                .first()
                .is_some_and(|&f| found.iter().all(|&i| self.displays[i] == self.displays[f]));
            one_bot.then_some((by, found))
        })
    }

    fn candidates(&self, by: MatchedBy, name: &str) -> Vec<usize> {
        let (bot, author) = split_display(name);
        let all = 0..self.entries.len();
        match by {
            MatchedBy::Exact => self.by_display.get(name).cloned().unwrap_or_default(),
            MatchedBy::AfterQuote => all
                .filter(|&i| {
                    let d = &self.displays[i];
                    d.contains('"') && d.rsplit('"').next().is_some_and(|s| s.trim() == name)
                })
                .collect(),
            MatchedBy::Cut => all.filter(|&i| self.cut_matches(i, name, bot)).collect(),
            MatchedBy::BotName => all
                .filter(|&i| self.entries[i].bot_name.trim() == bot)
                .collect(),
            MatchedBy::Author => all
                .filter(|&i| author.is_some_and(|a| self.entries[i].author.trim() == a))
                .collect(),
        }
    }

    /// `name` is entry `i`'s display cut short at any point, or its bot name shortened
    /// to `bot...`.
    fn cut_matches(&self, i: usize, name: &str, bot: &str) -> bool {
        let display = &self.displays[i];
        if display.len() > name.len() && display.starts_with(name) {
            return true;
        }
        bot.strip_suffix("...")
            .is_some_and(|stem| !stem.is_empty() && self.entries[i].bot_name.starts_with(stem))
    }
}

/// `Bot (by: Author)` as (`Bot`, `Some(Author)`); a name without ` (by: ` is all bot.
fn split_display(name: &str) -> (&str, Option<&str>) {
    match name.split_once(" (by: ") {
        Some((bot, author)) => (
            bot.trim(),
            Some(author.strip_suffix(')').unwrap_or(author).trim()),
        ),
        None => (name, None),
    }
}

/// A file's text, refused when larger than `max` bytes or not UTF-8.
pub(super) fn read_bounded(path: &Path, max: u64) -> Result<String> {
    use std::io::Read;
    let file =
        std::fs::File::open(path).with_context(|| format!("cannot open {}", path.display()))?;
    let mut bytes = Vec::new();
    file.take(max + 1)
        .read_to_end(&mut bytes)
        .with_context(|| format!("cannot read {}", path.display()))?;
    ensure!(
        bytes.len() as u64 <= max,
        "{} is larger than {} MiB",
        path.display(),
        max >> 20
    );
    String::from_utf8(bytes).with_context(|| format!("{} is not UTF-8", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn meta(id: &str, bot: &str, author: &str) -> EntryMeta {
        EntryMeta {
            id: id.into(),
            bot_name: bot.into(),
            author: author.into(),
        }
    }

    fn list(names: &[&str]) -> PublishedList {
        PublishedList {
            rows: names
                .iter()
                .enumerate()
                .map(|(i, name)| PublishedRow {
                    rank: i + 1,
                    name: mend_mojibake(name),
                    elo: 1000.0 - i as f64,
                    interval: 50.0,
                    games: 64,
                })
                .collect(),
        }
    }

    #[test]
    fn every_reading_of_the_published_names_matches_its_entry() {
        // The kinds of damage the real list shows, each with a made-up name.
        let entries = [
            meta("Bot_1", "Plain", "Ann"),
            meta("Bot_2", "blå", "TSDT"),
            meta("Bot_3", "Larry", "Jo: use \"Names\" as a nickname"),
            meta(
                "Bot_4",
                "A very long name that the list will cut short somewhere",
                "Bea",
            ),
            meta(
                "Bot_5",
                "Crazy? I was crazy once. They locked me in a room",
                "Red",
            ),
            meta(
                "Bot_6",
                "Chesser",
                "Alice, Bob, Carol (wishes to be unnamed)",
            ),
            meta("Bot_7", "King Gᴀᴍʙᴏᴛ Ⅳ", "ToTheAnd"),
            meta("Bot_8", "Twin", "Tom"),
            meta("Bot_9", "Twin", "Tom"),
        ];
        let published = list(&[
            "Plain (by: Ann)",
            "bl├Ñ (by: TSDT)",
            " as a nickname)",
            "A very long name that the list will cut short somewhere (by: B",
            "Crazy? I was crazy once. They locked me in... (by: Red)",
            "Chesser (by: Alice, Bob, Carol)",
            "King Gambot IV (by: ToTheAnd)",
            "Twin (by: Tom)",
            "Nobody (by: Nobody)",
        ]);
        let matches = match_entries(&published, &entries);
        let found: Vec<(usize, Vec<usize>, MatchedBy)> = matches
            .iter()
            .map(|m| (m.row, m.entries.clone(), m.by))
            .collect();
        assert_eq!(
            found,
            [
                (0, vec![0], MatchedBy::Exact),
                (1, vec![1], MatchedBy::Exact),
                (2, vec![2], MatchedBy::AfterQuote),
                (3, vec![3], MatchedBy::Cut),
                (4, vec![4], MatchedBy::Cut),
                (5, vec![5], MatchedBy::BotName),
                (6, vec![6], MatchedBy::Author),
                (7, vec![7, 8], MatchedBy::Exact),
            ]
        );
        assert_eq!(unmatched_rows(&published, &matches), [8]);
    }

    #[test]
    fn a_reading_that_names_two_different_bots_matches_neither() {
        let entries = [meta("Bot_1", "Same", "Ann"), meta("Bot_2", "Same", "Bob")];
        let matches = match_entries(&list(&["Same (by: Cy)"]), &entries);
        assert!(matches.is_empty(), "{matches:?}");
    }

    #[test]
    fn a_row_with_a_bad_number_is_an_error_naming_its_line() {
        let text =
            "Rank Name Elo + - games score oppo. draws\n   1 A (by: B)  12x  1  1  2  50%  0  0%\n";
        let err = format!("{:#}", PublishedList::parse(text).unwrap_err());
        assert!(err.contains("line 2") && err.contains("Elo `12x`"), "{err}");
        let missing = "Rank Name\n   1 A 1 2\n";
        let err = format!("{:#}", PublishedList::parse(missing).unwrap_err());
        assert!(err.contains("fewer than seven numbers"), "{err}");
        let err = format!("{:#}", PublishedList::parse("just text\n").unwrap_err());
        assert!(err.contains("no `Rank Name"), "{err}");
    }

    #[test]
    fn a_place_counts_the_rows_above() {
        let published = list(&["a", "b", "c"]);
        assert_eq!(published.place(2000.0), 1);
        assert_eq!(published.place(999.5), 2);
        assert_eq!(published.place(0.0), 4);
    }
}

//! Game-sequence mode: the positions of one game searched in order by one engine, as
//! in play, so that what it keeps between moves (its transposition table above all)
//! carries over from each position to the next.
//!
//! **The convention.** A record's game is its `id` up to its last dot: `id "Kasparov-
//! Timman.23"` belongs to game `Kasparov-Timman`, and the part after the dot names the
//! position within it (a ply or move number, by custom; the bench does not read it).
//! The positions of a game are searched in file order, with no `ucinewgame` between
//! them; each new game begins with `ucinewgame`. A record whose id has no dot (or only
//! a leading one), such as the default `line N`, is a game of its own.
//!
//! A game's positions must stand together in the file: a game that begins again after
//! another one is an error naming both lines, since searching it in two parts would
//! lose the table the mode exists to keep.

use std::fmt;

use super::epd::EpdRecord;

/// The game a position id belongs to: the id up to its last dot, when that is not empty.
pub fn game_of(id: &str) -> Option<&str> {
    id.rsplit_once('.')
        .map(|(game, _)| game)
        .filter(|game| !game.is_empty())
}

/// A game whose positions do not stand together in the file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SplitGame {
    /// The line of the position out of place.
    pub line: usize,
    /// Its id.
    pub id: String,
    /// Its game.
    pub game: String,
    /// The line of the game's first position.
    pub began: usize,
    /// The line of the first position of the game that came between.
    pub left_at: usize,
    /// That game (or the id of a position that is a game of its own).
    pub other: String,
}

impl fmt::Display for SplitGame {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "line {}: position `{}` belongs to game `{}`, which line {} began and line {} left \
             for game `{}`; put each game's positions together, in order",
            self.line, self.id, self.game, self.began, self.left_at, self.other
        )
    }
}

impl std::error::Error for SplitGame {}

/// Each record's game, in file order (`None`: a game of its own), or the first game
/// whose positions are split.
pub fn games(records: &[EpdRecord]) -> Result<Vec<Option<String>>, SplitGame> {
    // Where each game began, and the record that ended it (once one has).
    let mut seen: std::collections::HashMap<&str, (usize, Option<&EpdRecord>)> =
        std::collections::HashMap::new();
    let mut current: Option<&str> = None;
    let mut plan = Vec::with_capacity(records.len());
    for record in records {
        let game = game_of(&record.id);
        if game != current || game.is_none() {
            if let Some(previous) = current
                && let Some(entry) = seen.get_mut(previous)
            {
                entry.1.get_or_insert(record);
            }
            if let Some(game) = game
                && let Some(&(began, Some(left))) = seen.get(game)
            {
                return Err(SplitGame {
                    line: record.line,
                    id: record.id.clone(),
                    game: game.to_string(),
                    began,
                    left_at: left.line,
                    other: game_of(&left.id).unwrap_or(&left.id).to_string(),
                });
            }
            if let Some(game) = game {
                seen.insert(game, (record.line, None));
            }
            current = game;
        }
        plan.push(game.map(str::to_string));
    }
    Ok(plan)
}

/// The examples this module's documentation had, as tests (its items are the crate's own).
#[cfg(test)]
mod documented {
    use super::super::epd::read_epd;
    use super::*;

    #[test]
    fn games_stand_together_as_documented() {
        assert_eq!(game_of("Kasparov-Timman.23"), Some("Kasparov-Timman"));
        assert_eq!(game_of("Wch 1995.g10.ply 32"), Some("Wch 1995.g10"));
        assert_eq!(game_of("line 7"), None);
        let fen = "4k3/8/8/8/8/8/8/4K2R w K -";
        let file = read_epd(&format!(
            "{fen} id \"a.1\";\n{fen} id \"a.2\";\n{fen} id \"b.1\";\n"
        ));
        let plan = games(&file.records).unwrap();
        assert_eq!(
            plan,
            [
                Some("a".to_string()),
                Some("a".to_string()),
                Some("b".to_string())
            ]
        );
        let file = read_epd(&format!(
            "{fen} id \"a.1\";\n{fen} id \"b.1\";\n{fen} id \"a.2\";\n"
        ));
        let err = games(&file.records).unwrap_err();
        assert_eq!(
            err.to_string(),
            "line 3: position `a.2` belongs to game `a`, which line 1 \
            began and line 2 left for game `b`; put each game's positions together, in order"
        );
    }
}

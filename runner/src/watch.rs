//! Watching games while they are played: the seam between the kit's game loops (a
//! match, a tournament run) and whoever shows the games live (`challenge serve`'s live
//! pages, `challenge match --watch`).
//!
//! A [`GameWatch`] is asked, as each game starts on its worker thread, for the
//! [`MoveObserver`] that follows that game move by move, and told on the calling thread
//! when the game is over (and, in a tournament, which stored game it became). Nothing is
//! asked of anyone when no watch is given.

use crate::{GameRecord, MoveObserver, Opening, Player, TimeControl};

/// A game about to be played.
#[derive(Debug, Clone, Copy)]
pub struct LiveStart<'a> {
    /// The game's key, unique while the loop runs: the slot's id in a tournament, the
    /// scheduled game's number (from 1) in a match.
    pub key: i64,
    /// White's player name.
    pub white: &'a str,
    /// Black's player name.
    pub black: &'a str,
    /// Round and game, as people read them (`round 2, game 3`).
    pub round: &'a str,
    /// The opening it starts from.
    pub opening: &'a Opening,
    /// White's and Black's time controls.
    pub time_controls: [TimeControl; 2],
}

impl<'a> LiveStart<'a> {
    /// The start of game `key` between `players` (White, Black), as a match and a
    /// tournament both announce it: the players' names and time controls.
    ///
    /// ```
    /// use runner::{EngineConfig, LiveStart, Opening, Player};
    /// let tc = "1+0".parse().unwrap();
    /// let white = Player::new(EngineConfig::new("a", "/bin/a"), tc);
    /// let black = Player::new(EngineConfig::new("b", "/bin/b"), tc);
    /// let opening = Opening::startpos();
    /// let start = LiveStart::of(3, "game 3", [&white, &black], &opening);
    /// assert_eq!((start.white, start.black, start.key), ("a", "b", 3));
    /// ```
    pub fn of(
        key: i64,
        round: &'a str,
        players: [&'a Player; 2],
        opening: &'a Opening,
    ) -> LiveStart<'a> {
        LiveStart {
            key,
            white: players[0].name(),
            black: players[1].name(),
            round,
            opening,
            time_controls: [players[0].tc, players[1].tc],
        }
    }
}

/// How a watched game ended.
#[derive(Debug, Clone, Copy)]
pub struct LiveEnd<'a> {
    /// The key given at its start.
    pub key: i64,
    /// Its record (result `*` when it was abandoned).
    pub record: &'a GameRecord,
    /// The stored game's id, for a tournament's game once it is in the store.
    pub stored: Option<i64>,
}

/// Who watches the games of a loop.
///
/// ```
/// use runner::{GameWatch, LiveEnd, LiveStart};
/// use runner::MoveObserver;
/// /// Watches nothing, follows no move.
/// struct Nobody;
/// impl GameWatch for Nobody {
///     fn begin(&self, _game: &LiveStart<'_>) -> Option<Box<dyn MoveObserver>> {
///         None
///     }
///     fn end(&self, _game: &LiveEnd<'_>) {}
/// }
/// let start = LiveStart {
///     key: 1,
///     white: "a",
///     black: "b",
///     round: "game 1",
///     opening: &runner::Opening::startpos(),
///     time_controls: ["1+0".parse().unwrap(); 2],
/// };
/// assert!(Nobody.begin(&start).is_none());
/// ```
pub trait GameWatch: Sync {
    /// A game starts (called on its worker thread): the observer of its moves, if it is
    /// to be followed.
    fn begin(&self, game: &LiveStart<'_>) -> Option<Box<dyn MoveObserver>>;
    /// A game begun is over (called on the loop's calling thread, after it was stored).
    fn end(&self, game: &LiveEnd<'_>);
}

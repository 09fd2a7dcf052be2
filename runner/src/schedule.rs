//! Which games a tournament plays, in what order, from which opening.

use std::fmt;
use std::str::FromStr;

/// How players are paired.
///
/// ```
/// use runner::Format;
/// assert_eq!("gauntlet".parse::<Format>(), Ok(Format::Gauntlet));
/// assert_eq!(Format::RoundRobin.to_string(), "round-robin");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Format {
    /// Everyone against everyone (with two players: a head-to-head match).
    #[default]
    RoundRobin,
    /// The first player against each of the others.
    Gauntlet,
}

impl FromStr for Format {
    type Err = String;
    fn from_str(s: &str) -> Result<Format, String> {
        match s {
            "round-robin" | "roundrobin" | "rr" => Ok(Format::RoundRobin),
            "gauntlet" => Ok(Format::Gauntlet),
            _ => Err(format!(
                "unknown format `{s}` (expected `round-robin` or `gauntlet`)"
            )),
        }
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Format::RoundRobin => "round-robin",
            Format::Gauntlet => "gauntlet",
        })
    }
}

/// One scheduled game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GameJob {
    /// 0-based position in the schedule.
    pub number: usize,
    /// 0-based round: every encounter plays one pair per round, all from the same opening.
    pub round: usize,
    /// 0-based game pair id (unique across the tournament).
    pub pair: usize,
    /// 0 for the first game of the pair, 1 for the colour-swapped second.
    pub game_in_pair: usize,
    /// Index of White in the player list.
    pub white: usize,
    /// Index of Black in the player list.
    pub black: usize,
    /// Index into the opening list.
    pub opening: usize,
}

/// The encounters (unordered player pairs, lower index first) of a format.
///
/// ```
/// use runner::{Format, encounters};
/// assert_eq!(encounters(Format::RoundRobin, 3), [(0, 1), (0, 2), (1, 2)]);
/// assert_eq!(encounters(Format::Gauntlet, 3), [(0, 1), (0, 2)]);
/// ```
pub fn encounters(format: Format, players: usize) -> Vec<(usize, usize)> {
    match format {
        Format::RoundRobin => (0..players)
            .flat_map(|i| (i + 1..players).map(move |j| (i, j)))
            .collect(),
        Format::Gauntlet => (1..players).map(|j| (0, j)).collect(),
    }
}

/// Games per encounter rounded up to whole colour-swapped pairs.
///
/// ```
/// use runner::pairs_for_games;
/// assert_eq!(pairs_for_games(7), 4);
/// assert_eq!(pairs_for_games(8), 4);
/// ```
pub fn pairs_for_games(games: usize) -> usize {
    games.div_ceil(2)
}

/// The full schedule: `pairs` colour-swapped pairs per encounter. Round `r` uses opening
/// `r % openings` for every encounter, so each opening is played with both colours by
/// every pair of players.
///
/// ```
/// use runner::{Format, schedule};
/// let games = schedule(Format::RoundRobin, 2, 2, 10);
/// assert_eq!(games.len(), 4);
/// assert_eq!((games[0].white, games[0].black, games[0].opening), (0, 1, 0));
/// assert_eq!((games[1].white, games[1].black, games[1].opening), (1, 0, 0));
/// assert_eq!((games[2].pair, games[2].opening), (1, 1));
/// ```
pub fn schedule(format: Format, players: usize, pairs: usize, openings: usize) -> Vec<GameJob> {
    let encounters = encounters(format, players);
    let mut jobs = Vec::with_capacity(encounters.len() * pairs * 2);
    let mut pair = 0;
    for round in 0..pairs {
        for &(a, b) in &encounters {
            for (game_in_pair, (white, black)) in [(a, b), (b, a)].into_iter().enumerate() {
                jobs.push(GameJob {
                    number: jobs.len(),
                    round,
                    pair,
                    game_in_pair,
                    white,
                    black,
                    opening: round % openings.max(1),
                });
            }
            pair += 1;
        }
    }
    jobs
}
